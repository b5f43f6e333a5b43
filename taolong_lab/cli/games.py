"""The two-player game and the registry's games from the command line: ``play --vs`` /
``--game`` / ``--replay``, ``games``, ``tournament`` and ``balance``.

    taolong play --vs alphabeta --time 2 [--colour black] [--scenario S --mode M --edition E]
    taolong play --game NAME [--option k=v ...] [--vs SPEC|human] [--record FILE.jsonl]
    taolong play --replay FILE[:N]       step through the N-th record of a file (or its id)
    taolong games [NAME]                 the registered games (or one game's options)
    taolong tournament SPEC SPEC ... --games N [--seed S] [--workers K] [--out FILE.json]
    taolong balance --levels SPEC ... --games N --out FILE.json [--plot FILE.svg]

An agent is named by a spec, ``NAME[:key=value,...]``: ``random``, ``greedy``, ``alphabeta``
or ``mcts``, with ``time`` (seconds a move), ``nodes`` (positions a move), ``seed``, and
``depth`` (alpha-beta) or ``samples`` (greedy, alpha-beta), e.g. ``alphabeta:time=1``.
Everything goes through the game protocol, so every registered game plays here.
"""

from __future__ import annotations

import argparse
import io
import json
import sys
from pathlib import Path

from ..agents import (
    RecordError,
    append_record,
    balance_card,
    tournament,
)
from ..agents.balance import table
from ..agents.base import MAX_NODES, MAX_SEED
from ..agents.matches import MAX_GAMES, MAX_TURNS
from ..agents.records import read_record_at, record_file_problem
from ..errors import TaoLongError
from ..explorer.game_play import AGENTS, GamePlay
from ..files import output_lock, read_bounded, write_atomic
from ..games import CHANCE, TAOLONG, GameState, TaoLongState, game, games
from ..rules import EDITIONS, MODES
from ..rules.data import decode_json, json_decoder, shown
from ..runner import MAX_WORKERS, RunnerError, check_scheduler
from .common import (
    EXIT_OK,
    MAX_SECONDS,
    CommandError,
    add_progress_option,
    number,
    numbered_turns,
    option_pairs,
    puzzle_spec,
    wants_progress,
)
from .generate import _security, add_cluster_options

SPEC_KEYS = {
    "random": ("seed",),
    "greedy": ("seed", "samples"),
    "alphabeta": ("time", "nodes", "seed", "depth", "samples"),
    "mcts": ("time", "nodes", "seed"),
}
HUMAN = "human"
MAX_ENTRY = 1000
TOURNAMENT_FORMAT = "taolong-tournament"

PLAY_HELP = """\
Enter the number of an action from the list, or the action in notation.
Commands:
  list   the legal actions
  board  the position
  undo   take back your last action (and the replies to it)
  help   this text
  quit   leave (so does the end of the input, or Ctrl-C)"""

REPLAY_HELP = "Enter: next; p: previous; a number: go to that action; q: quit."


# ---- agent specs -----------------------------------------------------------------------------
def agent_from_spec(spec: str, *, time: float | None = None, nodes: int | None = None):
    """The agent a spec names: ``NAME[:key=value,...]`` (see the module docstring).

    Parameters
    ----------
    spec : str
        E.g. ``"alphabeta:time=1"`` or ``"mcts:nodes=2000,seed=3"``.
    time, nodes : float, int or None
        A budget a move for a search agent that its spec does not give.

    Returns
    -------
    object
        The agent.

    Raises
    ------
    CommandError
        An unknown agent or key, or a bad value, naming the spec.

    >>> agent_from_spec("alphabeta:nodes=500,seed=2")
    AlphaBetaAgent(nodes=500, seed=2)
    """
    name, _, rest = spec.strip().partition(":")
    if name not in AGENTS:
        raise CommandError(
            f"agent {shown(spec)}: unknown agent {shown(name)}; agents: {', '.join(AGENTS)}"
        )
    given: dict = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, raw = pair.partition("=")
        if not eq or key not in SPEC_KEYS[name]:
            keys = ", ".join(SPEC_KEYS[name])
            raise CommandError(
                f"agent {shown(spec)}: {shown(pair)}: {name} takes key=value with the keys {keys}"
            )
        try:
            value = float(raw) if key == "time" else int(raw)
        except ValueError:
            raise CommandError(f"agent {shown(spec)}: {key}: not a number: {shown(raw)}") from None
        given["time_limit" if key == "time" else key] = value
    if "time" in SPEC_KEYS[name] and "time_limit" not in given and "nodes" not in given:
        if time is not None:
            given["time_limit"] = time
        if nodes is not None:
            given["nodes"] = nodes
    try:
        return AGENTS[name](**given)
    except TaoLongError as exc:
        raise CommandError(f"agent {shown(spec)}: {exc}") from None


def _game_options(pairs) -> dict:
    return option_pairs(
        pairs, lambda pair: CommandError(f"--option {shown(pair)}: must read name=value")
    )


def _the_game(args):
    try:
        return game(args.game or TAOLONG.name)
    except TaoLongError as exc:
        raise CommandError(f"--game: {exc}") from None


def _start(played, args) -> GameState:
    """The start of ``play --vs/--game``: ``--position`` read by the game, else ``new``
    with the options (Tao Long's --scenario, --mode, --edition and --solo among them)."""
    options = _game_options(args.option)
    rules = {"scenario": args.scenario, "mode": args.mode, "edition": args.edition}
    rules = {k: v for k, v in rules.items() if v}
    if args.solo:
        rules["solo"] = True
    if rules and played is not TAOLONG:
        flags = ", ".join(f"--{k}" for k in rules)
        raise CommandError(f"{flags}: Tao Long's; {played.name} takes --option NAME=VALUE")
    if args.position is not None:
        if rules or options:
            raise CommandError("--position already names its rules; drop --option and the rest")
        return played.from_string(args.position)
    both = sorted(set(rules) & set(options))
    if both:
        raise CommandError(f"--{both[0]} and --option {both[0]}=...: give it once")
    return played.new(**rules, **options)


# ---- play --------------------------------------------------------------------------------------
def add_play_arguments(play: argparse.ArgumentParser) -> None:
    """Add the options of a game against an agent (or a person) to ``play``.

    Parameters
    ----------
    play : argparse.ArgumentParser
        The ``play`` command's parser.
    """
    vs = play.add_argument_group("a game against the computer or a person (no TURN)")
    vs.add_argument(
        "--vs",
        metavar="AGENT|human",
        help="the other side: random, greedy, alphabeta, mcts (NAME:key=value,...) or human",
    )
    vs.add_argument(
        "--time",
        metavar="S",
        type=number(float, 0, MAX_SECONDS),
        help="seconds a move for a search agent (default: 2)",
    )
    vs.add_argument(
        "--nodes",
        metavar="N",
        type=number(int, 1, MAX_NODES),
        help="positions a move instead of --time",
    )
    vs.add_argument(
        "--colour",
        "--color",
        metavar="SIDE",
        help="your side: a player's name (white, black, ...) or number from 1",
    )
    vs.add_argument("--game", metavar="NAME", help="a registered game (taolong games)")
    vs.add_argument("--record", metavar="FILE.jsonl", help="append the game's record to FILE")
    vs.add_argument(
        "--replay",
        metavar="FILE[:N]",
        help="step through the N-th record of a file (or the one with id N)",
    )


def wants_game(args) -> bool:
    """Whether ``play`` was asked for a game (``--vs``, ``--game`` or ``--replay``)."""
    return any(getattr(args, name, None) is not None for name in ("vs", "game", "replay"))


def run_play_game(args, out, inp=None) -> int:
    """``taolong play --vs/--game/--replay``: an interactive game or a replay.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line.
    out : text file
        Where the game is printed.
    inp : text file or None
        Where the entries are read (default: standard input).

    Returns
    -------
    int
        The exit status: 0.

    Raises
    ------
    CommandError
        A bad option, named.
    """
    inp = sys.stdin if inp is None else inp
    if args.turns or args.puzzle is not None:
        raise CommandError("--vs, --game and --replay play a game: drop the TURNs and --puzzle")
    if args.replay is not None:
        if args.vs is not None or args.game is not None or args.record is not None:
            raise CommandError("--replay steps through a record: drop --vs, --game and --record")
        return Replay(_record(args.replay), inp, out).run()
    played = _the_game(args)
    start = _start(played, args)
    if args.time is not None and args.nodes is not None:
        raise CommandError("--time and --nodes: give one budget")
    time = 2.0 if args.time is None and args.nodes is None else args.time
    spec = args.vs or HUMAN
    opponent = None if spec == HUMAN else agent_from_spec(spec, time=time, nodes=args.nodes)
    names = start.player_names()
    you = _side(args.colour, names) if opponent is not None or args.colour else 0
    seats = [None if p == you or opponent is None else opponent for p in range(start.players)]
    if args.record is not None and not args.record.endswith(".jsonl"):
        raise CommandError(f"--record {shown(args.record)}: must be a .jsonl file")
    if args.record is not None and not Path(args.record).resolve().parent.is_dir():
        raise CommandError(f"--record {shown(args.record)}: no such folder")
    if args.record is not None:
        problem = record_file_problem(args.record)
        if problem is not None:
            line, field, reason = problem
            where = f"{args.record}:{line}" if line else args.record
            raise CommandError(f"--record {where}: {field}: {reason}")
    play = GamePlay(start, seats=seats, seed=args.seed or 0)  # play's --seed, None unless given
    return GameSession(play, inp, out, record=args.record).run()


def _side(colour, names) -> int:
    if colour is None:
        return 0
    if colour in names:
        return names.index(colour)
    if colour.isascii() and colour.isdigit() and 1 <= int(colour) <= len(names):
        return int(colour) - 1
    raise CommandError(
        f"--colour {shown(colour)}: one of {', '.join(names)} (or 1 to {len(names)})"
    )


def _read_entry(inp, out, prompt: str, echo: bool) -> str | None:
    """One entry, stripped and bounded; None at the end of the input."""
    print(prompt, end="", file=out, flush=True)
    line = inp.readline(MAX_ENTRY + 1)
    if not line:
        print(file=out)
        return None
    entry = line.strip()
    too_long = len(line) > MAX_ENTRY and not line.endswith("\n")
    while line and not line.endswith("\n"):
        line = inp.readline(MAX_ENTRY + 1)
    if echo:
        print(entry[:20] + "..." if too_long else entry, file=out)
    return "" if too_long else entry


class GameSession:
    """``play --vs``: people enter their actions, agents and chance answer; the position
    is printed after each action. Leaves on ``quit``, the end of the input or Ctrl-C; a bad
    entry prints the reason and asks again."""

    def __init__(self, play: GamePlay, inp, out, *, record: str | None = None):
        self.play, self.inp, self.out, self.record = play, inp, out, record
        self.echo = not (hasattr(inp, "isatty") and inp.isatty())

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def run(self) -> int:
        play = self.play
        names = play.start.player_names()
        sides = [
            f"{names[p]}: {'you' if seat is None else play.players()[p]}"
            for p, seat in enumerate(play.seats)
        ]
        self.say(
            f"{play.start.game.title}: {'; '.join(sides)}.", "Enter 'help' for the commands.", ""
        )
        self.show()
        try:
            while True:
                self.answer()
                if play.over():
                    break
                entry = _read_entry(self.inp, self.out, self.prompt(), self.echo)
                if entry is None or entry.lower() in ("quit", "exit", "q"):
                    self.say(f"You left after {len(play.actions)} actions.")
                    break
                self.handle(entry)
        except KeyboardInterrupt:
            self.say("", f"You left after {len(play.actions)} actions.")
        if play.over():
            self.say(f"Game over: {play.result()}.")
        self.save()
        return EXIT_OK

    def prompt(self) -> str:
        mover = self.play.state.current_player()
        return f"{len(self.play.actions) + 1} {self.play.player_name(mover)}> "

    def answer(self) -> None:
        """Let chance and the agents play until a person is to move."""
        for mover, action in self.play.advance():
            who = self.play.player_name(mover)
            text = self.play.action_text(mover, action)
            if mover == CHANCE:
                self.say(f"{len(self.play.actions)}. chance: {text}")
            else:
                self.say(
                    f"{len(self.play.actions)}. {who} ({self.play.players()[mover]}) plays {text}"
                )
            if mover != CHANCE or not self.play.hidden():
                self.say("")
                self.show()

    def handle(self, entry: str) -> None:
        command = entry.lower()
        if not entry:
            return
        if command in ("help", "?", "h"):
            self.say(PLAY_HELP)
        elif command in ("list", "l"):
            self.list_actions()
        elif command in ("board", "b"):
            self.show()
        elif command in ("undo", "u"):
            try:
                gone = self.play.undo()
            except TaoLongError as exc:
                self.say(f"{exc}.")
                return
            self.say(f"Took back {gone} action{'s' * (gone != 1)}.", "")
            self.show()
        else:
            mover = self.play.state.current_player()
            try:
                action = self.play.play(entry)
            except TaoLongError as exc:
                self.say(str(exc), "Enter a number from the list, an action, or 'help'.")
                return
            self.say(f"{len(self.play.actions)}. {self.play.player_name(mover)} {action}", "")
            self.show()

    def show(self) -> None:
        self.say(self.play.view(), "")
        if self.play.human_to_move():
            self.list_actions()

    def list_actions(self) -> None:
        state = self.play.state
        if isinstance(state, TaoLongState):
            lines = numbered_turns(state.state)
        else:
            actions = state.legal_actions()
            width = len(str(len(actions)))
            lines = [f"{i:>{width}}. {a}" for i, a in enumerate(actions, 1)]
        self.say(*(lines or ["No legal actions."]))

    def save(self) -> None:
        if self.record is None or not self.play.actions:
            return
        try:
            append_record(self.record, self.play.record())
        except OSError as exc:
            raise CommandError(f"--record {self.record}: {exc.strerror or exc}") from None
        except RecordError as exc:
            line, field, reason = exc.problems[0]
            where = f"{self.record}:{line}" if line else self.record
            raise CommandError(f"--record {where}: {field}: {reason}") from None
        self.say(f"The game's record is appended to {self.record}.")


# ---- replay ------------------------------------------------------------------------------------
def _record(spec: str):
    """The record ``FILE[:N]`` names, read alone (:func:`~..agents.records.read_record_at`:
    the file's other records are not replayed)."""
    try:
        path, ident = puzzle_spec(spec)
    except TaoLongError as exc:
        raise CommandError(f"--replay: {exc}") from None
    try:
        return read_record_at(path, ident)
    except RecordError as exc:
        line, field, reason = exc.problems[0]
        more = f" (and {len(exc.problems) - 1} more problems)" if len(exc.problems) > 1 else ""
        if line is None:  # the file as a whole, or no such record
            raise CommandError(f"--replay: {path} {reason}") from None
        raise CommandError(f"--replay: {path}:{line}: {field}: {reason}{more}") from None


class Replay:
    """``play --replay``: step through a record's positions."""

    def __init__(self, record, inp, out):
        self.record, self.inp, self.out = record, inp, out
        self.states = record.states()
        self.index = 0
        self.echo = not (hasattr(inp, "isatty") and inp.isatty())

    def say(self, *lines: str) -> None:
        for line in lines:
            print(line, file=self.out)

    def run(self) -> int:
        r = self.record
        sides = ", ".join(f"{s}: {p}" for s, p in zip(r.sides, r.players, strict=False))
        self.say(f"{r.start.game.title}, {r.date}: {sides}.", REPLAY_HELP, "")
        self.show()
        try:
            while True:
                entry = _read_entry(self.inp, self.out, f"{self.index}/{len(r.turns)}> ", self.echo)
                if entry is None or entry.lower() in ("q", "quit", "exit"):
                    break
                self.handle(entry.lower())
        except KeyboardInterrupt:
            self.say("")
        return EXIT_OK

    def handle(self, entry: str) -> None:
        last = len(self.record.turns)
        if entry in ("", "n", "next"):
            target = self.index + 1
        elif entry in ("p", "prev", "previous"):
            target = self.index - 1
        elif entry.isascii() and entry.isdigit() and len(entry) <= 6:
            target = int(entry)
        else:
            self.say(REPLAY_HELP)
            return
        if not 0 <= target <= last:
            self.say(f"No position {target}: 0 to {last}.")
            return
        self.index = target
        self.show()

    def show(self) -> None:
        if self.index:
            before = self.states[self.index - 1]
            mover = before.current_player()
            who = "chance" if mover == CHANCE else before.player_names()[mover]
            self.say(f"{self.index}. {who} {self.record.turns[self.index - 1]}")
        self.say(self.states[self.index].text(), "")
        if self.index == len(self.record.turns):
            winner = self.record.winner or "nobody"
            self.say(f"The end: {self.record.reason} (winner: {winner}).")


# ---- games ---------------------------------------------------------------------------------
def add_commands(subparsers) -> None:
    """Add ``games``, ``tournament`` and ``balance`` to the parser.

    Parameters
    ----------
    subparsers : argparse._SubParsersAction
        What ``ArgumentParser.add_subparsers`` returned.
    """
    listed = subparsers.add_parser("games", help="list the registered games (or one's options)")
    listed.add_argument("name", nargs="?", metavar="NAME", help="a game: list its options")
    listed.set_defaults(run=run_games)

    ladder = subparsers.add_parser(
        "tournament", help="a round robin of agents, with ratings (95 %% intervals)"
    )
    ladder.add_argument(
        "agents",
        nargs="+",
        metavar="AGENT",
        help="agent specs, e.g. greedy alphabeta:time=1 mcts:nodes=2000",
    )
    _add_run_arguments(ladder, games=10)
    ladder.add_argument(
        "--opening",
        metavar="N",
        type=number(int, 0, MAX_TURNS),
        default=4,
        help="random opening plies of each pair of games",
    )
    ladder.add_argument(
        "--out",
        metavar="FILE.json",
        help="the results, written atomically; the games go to FILE.games/ and a rerun resumes",
    )
    ladder.set_defaults(run=run_tournament)

    card = subparsers.add_parser("balance", help="the balance report card of a game")
    card.add_argument(
        "--levels",
        nargs="+",
        required=True,
        metavar="AGENT",
        help="agent specs, each playing itself, e.g. greedy alphabeta:nodes=2000",
    )
    _add_run_arguments(card, games=10)
    card.add_argument("--scenario", nargs="+", metavar="S", help="Tao Long: the scenarios")
    card.add_argument("--mode", nargs="+", metavar="M", help=f"Tao Long: {', '.join(MODES)}")
    card.add_argument("--edition", nargs="+", metavar="E", help=f"Tao Long: {', '.join(EDITIONS)}")
    card.add_argument(
        "--variant",
        action="append",
        metavar="K=V[,K=V]",
        help="another game's cell: its options (repeatable; default: its variants)",
    )
    card.add_argument(
        "--out",
        required=True,
        metavar="FILE.json",
        help="the card, written atomically after each game; a rerun resumes",
    )
    card.add_argument("--plot", metavar="FILE.svg", help="also draw the card")
    card.set_defaults(run=run_balance)


def _add_run_arguments(parser, games: int) -> None:
    parser.add_argument("--game", metavar="NAME", help="a registered game (default: taolong)")
    parser.add_argument(
        "--option",
        action="append",
        metavar="NAME=VALUE",
        help="a game option, e.g. scenario=torus (repeatable)",
    )
    parser.add_argument(
        "--games",
        metavar="N",
        type=number(int, 1, MAX_GAMES),
        default=games,
        help=f"games a pairing or a cell (default: {games})",
    )
    parser.add_argument(
        "--seed",
        metavar="S",
        type=number(int, 0, MAX_SEED - 1),
        default=0,
        help="the seed of the games (the same seed, the same games; default: 0)",
    )
    parser.add_argument(
        "--max-turns",
        metavar="N",
        type=number(int, 1, MAX_TURNS),
        default=300,
        help="the turn cap: a game still going is a draw",
    )
    parser.add_argument(
        "--workers",
        metavar="K",
        type=number(int, 1, MAX_WORKERS),
        default=1,
        help="processes at once (default: 1)",
    )
    add_cluster_options(parser)
    add_progress_option(parser)


def run_games(args, out) -> int:
    """``taolong games``: each game's name, players, chance, hidden information and options;
    with a name, that game's options in full."""
    if args.name is not None:
        try:
            chosen = game(args.name)
        except TaoLongError as exc:
            raise CommandError(f"games: {exc}") from None
        print(f"{chosen.name}: {chosen.title}", file=out)
        for option in chosen.options:
            values = (
                ", ".join(map(str, option.choices))
                if option.choices
                else f"a whole number from {option.low} to {option.high}"
            )
            print(f"  {option.name} = {option.default}  ({values}): {option.doc}", file=out)
        return EXIT_OK
    rows = [("NAME", "TITLE", "PLAYERS", "CHANCE", "HIDDEN", "OPTIONS")]
    for each in games():
        rows.append(
            (
                each.name,
                each.title,
                ",".join(map(str, sorted(each.players))),
                "yes" if each.chance else "no",
                "yes" if each.hidden else "no",
                ", ".join(o.name for o in each.options) or "-",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        print(
            "  ".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=False)) + "  " + row[5],
            file=out,
        )
    return EXIT_OK


def _check_scheduler(args) -> None:
    try:
        check_scheduler(args.scheduler, _security(args))
    except RunnerError as exc:
        raise CommandError(str(exc)) from None


def run_tournament(args, out) -> int:
    """``taolong tournament``: a round robin of the agents, the matches and the ratings."""
    _check_scheduler(args)
    if len(set(args.agents)) != len(args.agents) or len(args.agents) < 2:
        raise CommandError("tournament: give at least two different agents")
    agents = {spec: agent_from_spec(spec) for spec in args.agents}
    played = _the_game(args)
    start = played.new(**_game_options(args.option))
    settings = {
        "game": played.name,
        "start": start.to_string(),
        "agents": list(args.agents),
        "games": args.games,
        "seed": args.seed,
        "max_turns": args.max_turns,
        "opening": args.opening,
    }
    if args.out is None:
        return _tournament(args, out, agents, start, settings)
    if not args.out.endswith(".json"):
        raise CommandError(f"--out {shown(args.out)}: must be a .json file")
    if not Path(args.out).resolve().parent.is_dir():
        raise CommandError(f"--out {shown(args.out)}: no such folder")
    with output_lock(args.out):
        return _tournament(args, out, agents, start, settings)


def _tournament(args, out, agents: dict, start, settings: dict) -> int:
    """:func:`run_tournament`'s games and output, ``args.out`` (if any) locked."""
    out_dir = None
    if args.out is not None:
        out_dir = Path(args.out[: -len(".json")] + ".games")
        _check_settings(args.out, settings)
        _write_json(args.out, {"format": TOURNAMENT_FORMAT, "settings": settings, "done": False})
        out_dir.mkdir(exist_ok=True)
    try:
        results, rated = tournament(
            agents,
            games=args.games,
            seed=args.seed,
            out_dir=out_dir,
            start=start,
            max_turns=args.max_turns,
            opening=args.opening,
            workers=args.workers,
            scheduler=args.scheduler,
            security=_security(args),
            progress=wants_progress(args),
        )
    except RunnerError as exc:
        raise CommandError(str(exc)) from None
    for result in results:
        print(result, file=out)
    print("\nratings (Bradley-Terry, Elo scale, 95 % intervals):", file=out)
    for rating in rated:
        print(f"  {rating}", file=out)
    if args.out is not None:
        doc = {
            "format": TOURNAMENT_FORMAT,
            "settings": settings,
            "done": True,
            "matches": [
                {
                    "first": r.first,
                    "second": r.second,
                    "wins": r.wins,
                    "losses": r.losses,
                    "draws": r.draws,
                    "score": r.score,
                    "interval": list(r.interval),
                }
                for r in results
            ],
            "ratings": [
                {"name": r.name, "elo": r.elo, "low": r.low, "high": r.high} for r in rated
            ],
        }
        _write_json(args.out, doc)
        print(f"{args.out}: written", file=out)
    return EXIT_OK


def _check_settings(path: str, settings: dict) -> None:
    """Refuse a results file of other settings (its games would be mixed with these)."""
    if not Path(path).exists():
        return
    try:
        held = decode_json(json_decoder(), read_bounded(path).decode("utf-8"))
    except (TaoLongError, ValueError, UnicodeDecodeError) as exc:
        raise CommandError(f"--out {path}: not a tournament's results: {exc}") from None
    if not isinstance(held, dict) or held.get("format") != TOURNAMENT_FORMAT:
        raise CommandError(f"--out {path}: format: not a tournament's results")
    if held.get("settings") != settings:
        raise CommandError(
            f"--out {path}: settings: a tournament of other settings; use another file"
        )


def _write_json(path, doc: dict) -> None:
    text = json.dumps(doc, ensure_ascii=False, allow_nan=False, indent=1) + "\n"
    write_atomic(Path(path), text.encode("utf-8"))


def run_balance(args, out) -> int:
    """``taolong balance``: play (or resume) a balance card and print it as a table."""
    _check_scheduler(args)
    played = _the_game(args)
    levels = {spec: agent_from_spec(spec) for spec in args.levels}
    if len(levels) != len(args.levels):
        raise CommandError("--levels: each agent once")
    if not args.out.endswith(".json"):
        raise CommandError(f"--out {shown(args.out)}: must be a .json file")
    if args.plot is not None and not args.plot.endswith(".svg"):
        raise CommandError(f"--plot {shown(args.plot)}: must be a .svg file")
    if args.option:
        raise CommandError(
            "balance: the cells are --scenario/--mode/--edition or --variant, not --option"
        )
    options = {}
    if played is TAOLONG:
        if args.variant:
            raise CommandError("--variant: Tao Long's cells are --scenario, --mode, --edition")
        options.update(scenarios=args.scenario, modes=args.mode, editions=args.edition)
    else:
        if args.scenario or args.mode or args.edition:
            raise CommandError(
                f"--scenario, --mode, --edition: Tao Long's; {played.name}'s "
                "cells are --variant K=V,..."
            )
        if args.variant:
            options["variants"] = [
                _game_options([p for p in v.split(",") if p.strip()]) for v in args.variant
            ]
    try:
        card = balance_card(
            levels,
            games=args.games,
            game=played,
            seed=args.seed,
            max_turns=args.max_turns,
            out=args.out,
            workers=args.workers,
            scheduler=args.scheduler,
            security=_security(args),
            progress=wants_progress(args),
            **options,
        )
    except RunnerError as exc:
        raise CommandError(str(exc)) from None
    print_card(card, played, out)
    if args.plot is not None:
        _plot(card, args.plot)
        print(f"{args.plot}: written", file=out)
    return EXIT_OK


def _percent(rate) -> str:
    return "-" if rate is None else f"{rate:.0%}"


def print_card(card: dict, played, out) -> None:
    """The card as a table: one row a cell and level."""
    first = "white" if played is TAOLONG else "P1"
    rows = [
        (
            "cell",
            "level",
            "games",
            f"{first} wins (95 %)",
            "balance",
            "capped",
            "turns",
            "median",
            "branching",
            "lead ch.",
            "drama",
            "decisive",
        )
    ]
    for row in table(card):
        interval = row["white 95%"]
        wins = _percent(row["white wins"])
        if interval:
            wins += f" ({interval[0]:.0%}-{interval[1]:.0%})"
        rows.append(
            (
                row["rules"],
                row["level"],
                str(row["games"]),
                wins,
                _number(row["balance"], 2),
                _percent(row["capped"]),
                _number(row["length mean"], 1),
                _number(row["length median"], 1),
                _number(row["branching"], 1),
                _number(row["lead change"], 2),
                _number(row["drama"], 2),
                _number(row["decisiveness moves"], 2),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(f"{c:<{w}}" for c, w in zip(r, widths, strict=True)).rstrip(), file=out)


def _number(value, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _plot(card: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..agents.balance import plot

    figure = plot(card)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg")
    plt.close(figure)
    write_atomic(Path(path), buffer.getvalue())


__all__ = [
    "GameSession",
    "Replay",
    "add_commands",
    "add_play_arguments",
    "agent_from_spec",
    "print_card",
    "run_balance",
    "run_games",
    "run_play_game",
    "run_tournament",
    "wants_game",
]

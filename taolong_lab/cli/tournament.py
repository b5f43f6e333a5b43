"""``taolong tournament SPEC SPEC ... --games N [--seed S] [--workers K] [--out FILE.json]``:
a round robin of agents, the matches and the ratings; with ``--out`` the games go to
``FILE.games/`` and a rerun resumes."""

from __future__ import annotations

from pathlib import Path

from ..agents import RecordError, load_records, tournament
from ..agents.registry import agent_from_spec
from ..errors import TaoLongError
from ..files import output_lock, read_bounded
from ..limits import MAX_TURNS
from ..rules.data import decode_json, json_decoder
from .common import EXIT_OK, Command, CommandError, check_output, number, write_json
from .game_options import (
    add_run_arguments,
    game_options,
    games_runner,
    say_resumed,
    the_game,
)

TOURNAMENT_FORMAT = "taolong-tournament"
TOURNAMENT_LEGEND = (
    "score: the first agent's points a game (a win 1, a draw 1/2) with its 95 % Wilson "
    "interval, never of zero width, even for a sweep; a rating's interval holds the "
    "bootstrap's and the Elo of the Wilson interval of the agent's score."
)


def _arguments(ladder) -> None:
    """The arguments of ``tournament``."""
    ladder.add_argument(
        "agents",
        nargs="+",
        metavar="AGENT",
        help="agent specs, e.g. greedy alphabeta:time=1 mcts:nodes=2000",
    )
    add_run_arguments(ladder, games=10)
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


def run_tournament(args, out) -> int:
    """``taolong tournament``: a round robin of the agents, the matches and the ratings."""
    runner = games_runner(args)
    if len(set(args.agents)) != len(args.agents) or len(args.agents) < 2:
        raise CommandError("tournament: give at least two different agents")
    agents = {spec: agent_from_spec(spec) for spec in args.agents}
    played = the_game(args)
    start = played.new(**game_options(args.option))
    args.max_turns = args.max_turns or played.decision_cap
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
        return _tournament(args, out, agents, start, settings, runner)
    check_output("--out", args.out, ".json")
    with output_lock(args.out):  # one run at a time writes the results and their games
        return _tournament(args, out, agents, start, settings, runner)


def _tournament(args, out, agents: dict, start, settings: dict, runner) -> int:
    """:func:`run_tournament`'s games and output, ``args.out`` (if any) locked."""
    out_dir = None
    if args.out is not None:
        out_dir = Path(args.out[: -len(".json")] + ".games")
        _check_settings(args.out, settings)
        write_json(args.out, {"format": TOURNAMENT_FORMAT, "settings": settings, "done": False})
        out_dir.mkdir(exist_ok=True)
    before = _games_played(out_dir)
    results, rated = tournament(
        agents,
        games=args.games,
        seed=args.seed,
        out_dir=out_dir,
        start=start,
        max_turns=args.max_turns,
        opening=args.opening,
        runner=runner,
    )
    say_resumed(before, f"{out_dir}/", out)
    for result in results:
        print(result, file=out)
    print("\nratings (Bradley-Terry, Elo scale, 95 % intervals):", file=out)
    for rating in rated:
        print(f"  {rating}", file=out)
    print(f"\n{TOURNAMENT_LEGEND}", file=out)
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
        write_json(args.out, doc)
        print(f"{args.out}: written", file=out)
    return EXIT_OK


def _games_played(folder: Path | None) -> int:
    """How many games the records in ``folder`` (a tournament's) already hold."""
    if folder is None or not folder.is_dir():
        return 0
    try:
        return sum(len(load_records(path)) for path in sorted(folder.glob("*.jsonl")))
    except RecordError:
        return 0  # the match refuses the file itself, naming the line


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


COMMAND = Command(
    "tournament",
    "a round robin of agents, with ratings (95 %% intervals)",
    run_tournament,
    _arguments,
    "A round robin of agents, sides alternating, then Bradley-Terry ratings. "
    + TOURNAMENT_LEGEND.replace("%", "%%"),
)


__all__ = ["COMMAND", "TOURNAMENT_FORMAT", "run_tournament"]

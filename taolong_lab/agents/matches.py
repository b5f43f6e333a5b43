"""Games between agents: one game, a match, a round-robin tournament, and ratings.

Any game of the protocol is played: a :class:`~taolong_lab.games.GameState` starts a game
(:func:`taolong_lab.match` takes a Tao Long ``State`` too). Chance events are drawn by their
probabilities from a random source seeded by the game's seed; they are recorded with the
players' actions but are not turns.

A match plays ``games`` games of a game of two sides (two players, or Tao Long's solo variant,
where the solo opponent plays the other colour) from one start position, the sides
alternating: game ``2k`` has the first agent as the first player (white in Tao Long), game
``2k + 1`` as the second, and both games of a pair open with the same ``opening`` random turns
(seeded), so the agents meet in varied positions on equal terms.
Games stopped at ``max_turns`` turns count as draws. With ``out=`` every finished game's record is
written to that file (the whole file, atomically, after each game), and a rerun with the same
file resumes: the games already recorded there are read back, not played again, once each is
known to be this match's game (its id, its seed, its players, its turn cap and its random
opening). One run at a time writes a file (:func:`taolong_lab.files.output_lock`).

Games run where ``runner=`` says (a :class:`taolong_lab.runner.Runner`: the process pool or a
Dask cluster); the agents and the positions cross to the
workers as pickles, so they must be importable (the agents of this package are).

Ratings are Bradley–Terry strengths fitted by minorisation–maximisation (a draw counts half
a win to each side, one virtual draw a pair as a prior), on the Elo scale (400 points for
odds of 10 to 1, the mean rating 0), with 95 % intervals from the curvature of the
likelihood at the fit (a normal approximation that keeps a width after a clean sweep).
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import math
import random
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import TaoLongError
from ..files import output_lock, write_atomic
from ..games import TAOLONG, GameState, draw_outcome
from ..limits import MAX_TURNS
from ..rules.data import shown
from ..runner import Runner, as_runner
from .base import AgentError, check_seed, game_state, legal_or_raise
from .records import TURN_CAP, GameRecord, RecordError, load_records, records_text

MAX_GAMES = 1_000_000
DEFAULT_MAX_TURNS = 300
Z95 = 1.959963984540054


def with_seed(agent, seed: int):
    """A copy of ``agent`` that plays with ``seed``."""
    twin = copy.copy(agent)
    twin.seed = check_seed(seed)
    return twin


def describe(agent) -> str:
    """A short name for records: ``repr(agent)`` without its seed."""
    text = repr(agent)
    return text.replace(f", seed={agent.seed}", "").replace(f"seed={agent.seed}", "")


def play_game(white, black, start, **options) -> GameRecord:
    """Play one game from ``start`` between two agents, one a side, and return its record.

    Parameters
    ----------
    white, black
        The agents of each side: white and black in Tao Long, the first and the second player
        of another game (in the solo variant only the player's colour's agent is asked).
    start : GameState
        The start position.
    **options
        ``max_turns``, ``opening``, ``seed``, ``opening_seed``, ``id`` and ``settings``, as
        :func:`play` takes them.

    Returns
    -------
    GameRecord

    Raises
    ------
    AgentError
        Not a game of two sides, or as :func:`play`.
    """
    start = game_state(start)
    return play(_seats(start, white, black), start, **options)


def _seats(start: GameState, first, second) -> tuple:
    """The agents of a game's players from a match's two, one a side: both in a game of two
    players; in a game of one player and two sides (Tao Long's solo variant), the one of the
    player's side."""
    if start.players == 2:
        return (first, second)
    if start.players == 1 and len(start.sides()) == 2:
        return ((first, second)[start.side_of(0)],)
    raise AgentError(
        f"a game between two agents needs a game of two players, not {start.players}: use play()"
    )


def play(
    agents,
    start,
    *,
    max_turns: int = DEFAULT_MAX_TURNS,
    opening: int = 0,
    seed: int = 0,
    opening_seed: int | None = None,
    id: str | None = None,
    settings: dict | None = None,
) -> GameRecord:
    """Play one game of any number of players: ``agents[p]`` plays player ``p``.

    Parameters
    ----------
    agents
        One agent a player, in the game's order.
    start : GameState
        The start position.
    max_turns
        The turn cap: a game still going after this many turns stops as a draw.
    opening
        Turns played at random (from ``opening_seed``, default ``seed``) before the agents.
    seed
        The agents' seed for this game, and the chance events' source.
    id
        The record's id.
    settings
        The record's ``settings`` (a match's seed, turn cap and opening), if any.

    Returns
    -------
    GameRecord

    Raises
    ------
    AgentError
        A bad count or seed, or not one agent a player.
    """
    _check_count("max_turns", max_turns, MAX_TURNS)
    _check_count("opening", opening, MAX_TURNS, least=0)
    start = game_state(start)
    if len(agents) != start.players:
        raise AgentError(f"{start.players} players play this game, not {len(agents)} agents")
    seated = [with_seed(agent, seed) for agent in agents]
    rng = random.Random(f"opening:{seed if opening_seed is None else opening_seed}")
    chance = random.Random(f"chance:{seed}")
    state, actions, turns = start, [], 0
    while not state.is_terminal() and turns < max_turns:
        if state.is_chance():
            action = draw_outcome(state, chance)
        else:
            legal = legal_or_raise(state)
            mover = seated[state.current_player()]
            action = rng.choice(legal) if turns < opening else mover.choose(state)
            turns += 1
        actions.append(action)
        state = state.apply(action)
    names = _player_names(start, agents)
    return GameRecord.from_actions(
        start, actions, names, seed=seed, id=id, reason=TURN_CAP, settings=settings
    )


def _player_names(start: GameState, agents) -> tuple[str, ...]:
    """The names a record gives the players of ``agents`` (in the game's order), a side each."""
    return start.side_players([describe(agent) for agent in agents])


def _check_count(name: str, value, most: int, least: int = 1) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise AgentError(f"{name} must be a whole number from {least} to {most:,}, not {value!r}")


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a match seeded ``seed`` (the same in any process)."""
    return random.Random(f"game:{seed}:{index}").getrandbits(62)


def _play_job(job) -> dict:
    """One game for the runner: plays it and returns its record as JSON."""
    white, black, start, options, ident = job
    return play_game(white, black, start, id=ident, **options).to_json()


@dataclass(frozen=True)
class MatchResult:
    """The games of a match between ``first`` and ``second`` (names), from ``first``'s side:
    ``wins``, ``losses``, ``draws``; ``score`` = (wins + draws / 2) / games with its 95 %
    ``interval``; ``records`` every game."""

    first: str
    second: str
    wins: int
    losses: int
    draws: int
    score: float
    interval: tuple[float, float]
    records: tuple[GameRecord, ...] = field(repr=False)

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def __str__(self) -> str:
        low, high = self.interval
        return (
            f"{self.first} vs {self.second}: +{self.wins} -{self.losses} ={self.draws}, "
            f"score {self.score:.1%} (95 % {low:.1%}-{high:.1%})"
        )


def score_interval(points: list[float]) -> tuple[float, float]:
    """A 95 % interval of the mean of per-game points (1, 0.5 or 0): Wilson's score interval
    on the mean (draws count half).

    >>> low, high = score_interval([1.0] * 10)
    >>> round(low, 3), round(high, 3)
    (0.722, 1.0)
    """
    n = len(points)
    if n == 0:
        return 0.0, 1.0
    p = sum(points) / n
    z2 = Z95 * Z95
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def match(
    a,
    b,
    *,
    games: int = 2,
    seed: int = 0,
    start=None,
    max_turns: int | None = None,
    opening: int = 4,
    out=None,
    runner: Runner | None = None,
) -> MatchResult:
    """Play ``games`` games between agents ``a`` and ``b``, sides alternating.

    Parameters
    ----------
    a, b
        The agents.
    games
        How many games (an even number gives each agent each side equally often).
    seed
        The match's seed: each game's seed and opening are drawn from it.
    start : GameState or None
        The start position of a game of two sides (two players, or Tao Long's solo
        variant; default: Tao Long's, ``TAOLONG.new()``).
    max_turns, opening
        The cap of a game in decisions (default: the game's own,
        :attr:`~taolong_lab.games.Game.decision_cap`) and the random opening plies (see
        :func:`play_game`).
    out
        A ``.jsonl`` file for the records: written after each game, atomically; a rerun
        resumes from it.
    runner
        Where the games run and whether a bar shows them (:class:`taolong_lab.runner.Runner`;
        default: one after the other in this process, no bar).

    Returns
    -------
    MatchResult
        From ``a``'s side.

    Raises
    ------
    AgentError
        On a bad count, seed or agent, or a game that failed on a worker.
    RecordError
        When ``out`` holds a record that does not read, or one of another match.
    RunnerError
        ``runner`` is not a Runner.
    """

    _check_count("games", games, MAX_GAMES)
    check_seed(seed)
    start = game_state(TAOLONG.new() if start is None else start)
    max_turns = start.game.decision_cap if max_turns is None else max_turns
    _seats(start, a, b)
    setting = _Setting(start, a, b, seed, games, max_turns, opening)
    with output_lock(out) if out is not None else contextlib.nullcontext():
        done = _resume(out, setting)
        return _play_match(setting, done, out, as_runner(runner))


@dataclass(frozen=True)
class _Setting:
    """What makes a match's games its own: the start, the agents, the seed, the number of
    games, the turn cap and the random opening."""

    start: GameState
    a: object
    b: object
    seed: int
    games: int
    max_turns: int
    opening: int

    def seats(self, index: int) -> tuple:
        """White and black (the first and second player) of game ``index``."""
        return (self.a, self.b) if index % 2 == 0 else (self.b, self.a)

    def record_settings(self) -> dict:
        """What each record of the match carries: its seed, turn cap and opening."""
        return {"seed": self.seed, "max_turns": self.max_turns, "opening": self.opening}


def _play_match(setting: _Setting, done: dict, out, runner: Runner) -> MatchResult:
    """The games of ``setting`` not in ``done`` played on ``runner``, each recorded in ``out``
    as it ends; the match's result."""
    start, games, seed = setting.start, setting.games, setting.seed
    jobs = []
    for index in range(games):
        ident = f"game-{index}"
        if ident in done:
            continue
        white, black = setting.seats(index)
        pair_seed = game_seed(seed, index // 2)
        own_seed = game_seed(seed, index)
        options = {
            "max_turns": setting.max_turns,
            "opening": setting.opening,
            "seed": own_seed,
            "opening_seed": pair_seed,
            "settings": setting.record_settings(),
        }
        jobs.append((white, black, start, options, ident))
    bar = runner.bar(games, initial=len(done), desc="games", unit="game")
    try:
        for job, result in runner.map(_play_job, jobs):
            if "error" in result and "format" not in result:
                raise AgentError(f"{job[-1]}: {result['error']}")
            done[job[-1]] = GameRecord.from_json(result, known=start.game)
            if out is not None:
                write_atomic(Path(out), records_text(_in_order(done)).encode("utf-8"))
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    records = [done[f"game-{i}"] for i in range(games)]
    return summarise(describe(setting.a), describe(setting.b), records)


def _in_order(done: dict) -> list[GameRecord]:
    return [done[key] for key in sorted(done, key=lambda k: int(k[len("game-") :]))]


def _resume(out, setting: _Setting) -> dict:
    """The records already in ``out`` by id (none when it does not exist), each checked to be
    a game of this match (:func:`_match_problem`)."""
    if out is None or not Path(out).exists():
        return {}
    done = {}
    for record in load_records(out, known=setting.start.game):
        index = _game_index(record.id, setting.games)
        if index is None:
            last = setting.games - 1
            reason = (
                f"{shown(record.id)} is not a game of this match (game-0 to game-{last}): a "
                "record of another match; use another file"
            )
            raise RecordError(str(out), [(None, "id", reason)])
        problem = _match_problem(record, setting, index)
        if problem is not None:
            reason = f"{problem}: a record of another match; use another file"
            raise RecordError(str(out), [(None, record.id, reason)])
        done[record.id] = record
    return done


def _game_index(ident, games: int) -> int | None:
    """The game number of the record id ``game-<n>``, None unless ``0 <= n < games``."""
    if not isinstance(ident, str) or not ident.startswith("game-"):
        return None
    number = ident[len("game-") :]
    if not (number.isascii() and number.isdigit()) or len(number) > 7:
        return None
    index = int(number)
    return index if index < games else None


def _match_problem(record: GameRecord, setting: _Setting, index: int) -> str | None:
    """Why ``record`` is not game ``index`` of the match ``setting``, None when it is: its
    start, its seed, its players, its turns (at most the cap; the cap's reason only at it) and
    its random opening (replayed from the pair's seed)."""
    if record.start != setting.start:
        return "start: not this match's start"
    if record.settings != setting.record_settings():
        return "settings: not this match's seed, turn cap and opening"
    if record.seed != game_seed(setting.seed, index):
        return "seed: not this match's seed for this game"
    if record.players != _player_names(setting.start, _seats(setting.start, *setting.seats(index))):
        return "players: not this match's agents in these seats"
    played = record.trajectory()
    moves = [
        (s, a) for s, a in zip(played.states(), played.actions, strict=False) if not s.is_chance()
    ]
    if len(moves) > setting.max_turns or (record.reason == TURN_CAP) != (
        len(moves) == setting.max_turns and not played.end.is_terminal()
    ):
        return f"turns: not a game of this match's turn cap ({setting.max_turns})"
    rng = random.Random(f"opening:{game_seed(setting.seed, index // 2)}")
    for turn, (state, action) in enumerate(moves[: setting.opening], start=1):
        if str(rng.choice(state.legal_actions())) != str(action):
            return f"turns[{turn - 1}]: not this match's random opening"
    return None


def summarise(first: str, second: str, records: list[GameRecord]) -> MatchResult:
    """A :class:`MatchResult` from a match's records (``first`` the first side, white in Tao
    Long, in the even games)."""
    points = []
    wins = losses = draws = 0
    for index, record in enumerate(records):
        mine = record.sides[index % 2]
        if record.winner is None:
            draws += 1
            points.append(0.5)
        elif record.winner == mine:
            wins += 1
            points.append(1.0)
        else:
            losses += 1
            points.append(0.0)
    score = sum(points) / len(points) if points else 0.0
    return MatchResult(
        first, second, wins, losses, draws, score, score_interval(points), tuple(records)
    )


# ---- tournaments and ratings ----------------------------------------------------------------
@dataclass(frozen=True)
class Rating:
    """An agent's rating on the Elo scale with its 95 % interval."""

    name: str
    elo: float
    low: float
    high: float

    def __str__(self) -> str:
        return f"{self.name}: {self.elo:+.0f} (95 % {self.low:+.0f} to {self.high:+.0f})"


def tournament(agents: dict, *, games: int = 2, seed: int = 0, out_dir=None, **options):
    """A round robin: a :func:`match` of ``games`` games between each pair of ``agents``
    (a dict of name to agent), then :func:`ratings`.

    ``out_dir``: a folder for each match's records (``A-vs-B.jsonl``), so a rerun resumes;
    one run at a time writes it (:func:`taolong_lab.files.output_lock`). The other options go
    to :func:`match`. Returns ``(results, ratings)``.
    """
    if not isinstance(agents, dict) or len(agents) < 2:
        raise AgentError("a tournament needs a dict of at least two agents by name")
    if out_dir is None:
        return _round_robin(agents, games, seed, None, options)
    Path(out_dir).mkdir(parents=True, exist_ok=True)
    with output_lock(out_dir, folder=True):
        return _round_robin(agents, games, seed, out_dir, options)


def _round_robin(agents: dict, games: int, seed: int, out_dir, options: dict):
    """:func:`tournament`'s matches and ratings."""
    names = list(agents)
    results = []
    for i, first in enumerate(names):
        for j in range(i + 1, len(names)):
            second = names[j]
            out = None if out_dir is None else Path(out_dir) / f"{first}-vs-{second}.jsonl"
            result = match(
                agents[first],
                agents[second],
                games=games,
                seed=seed + 1000 * i + j,
                out=out,
                **options,
            )
            results.append(dataclasses.replace(result, first=first, second=second))
    return results, ratings(results)


def ratings(results) -> list[Rating]:
    """Bradley–Terry ratings, on the Elo scale with the mean at 0, of the players of
    ``results`` (a list of :class:`MatchResult`), best first, each with a 95 % interval.

    The fit counts a draw as half a win and gives every pair that met one virtual draw (a
    prior: an unbeaten player keeps a finite rating). The interval is the normal
    approximation at the fit (Laplace's): the standard errors come from the curvature of the
    log-likelihood, virtual draws included, so it has a width even after a clean sweep, where a
    bootstrap over the games would collapse to a point.

    >>> r = MatchResult("a", "b", 3, 1, 0, 0.75, (0.3, 0.95), ())  # 3.5 to 1.5 with the draw
    >>> [(round(x.elo), round(x.high - x.elo)) for x in ratings([r])]
    [(74, 166), (-74, 166)]
    """
    names = sorted({n for r in results for n in (r.first, r.second)})
    if len(names) < 2:
        raise TaoLongError("ratings need the results of at least two players")
    games = [
        (r.first, r.second, point)
        for r in results
        for point in [1.0] * r.wins + [0.0] * r.losses + [0.5] * r.draws
    ]
    best, meetings = _bradley_terry(names, games)
    errors = _standard_errors(names, best, meetings)
    out = [
        Rating(name, best[name], best[name] - Z95 * errors[name], best[name] + Z95 * errors[name])
        for name in names
    ]
    return sorted(out, key=lambda r: -r.elo)


ELO = 400.0 / math.log(10.0)
"""Elo points for a factor of e in strength."""


def _bradley_terry(names: list[str], games: list[tuple[str, str, float]]) -> tuple[dict, dict]:
    """Elo-scale Bradley–Terry ratings by minorisation–maximisation, every pair that met also
    given one virtual draw; and the games of each pair, the virtual draw included."""
    wins = {n: 0.0 for n in names}
    meetings: dict = {}
    for first, second, point in games:
        wins[first] += point
        wins[second] += 1.0 - point
        pair = (first, second) if first < second else (second, first)
        meetings[pair] = meetings.get(pair, 0) + 1
    for pair in meetings:
        for n in pair:
            wins[n] += 0.5
        meetings[pair] += 1
    strength = {n: 1.0 for n in names}
    for _ in range(1000):
        new = {}
        for n in names:
            total = sum(
                count / (strength[a] + strength[b])
                for (a, b), count in meetings.items()
                if n in (a, b)
            )
            new[n] = wins[n] / total if total else strength[n]
        mean = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {n: v / mean for n, v in new.items()}
        done = max(abs(math.log(new[n] / strength[n])) for n in names) < 1e-10
        strength = new
        if done:
            break
    return {n: ELO * math.log(strength[n]) for n in names}, meetings


def _standard_errors(names: list[str], elo: dict, meetings: dict) -> dict:
    """Each rating's standard error, in Elo, under the constraint that the ratings' mean is 0:
    the diagonal of the pseudo-inverse of the information matrix (a weighted graph
    Laplacian, ``(L + J/n)^-1 - J/n``). A player no pair links to the others gets an infinite
    one."""
    n = len(names)
    index = {name: i for i, name in enumerate(names)}
    info = [[1.0 / n] * n for _ in range(n)]
    for (a, b), count in meetings.items():
        p = 1.0 / (1.0 + math.exp((elo[b] - elo[a]) / ELO))
        weight = count * p * (1.0 - p)
        i, j = index[a], index[b]
        info[i][i] += weight
        info[j][j] += weight
        info[i][j] -= weight
        info[j][i] -= weight
    inverse = _inverse(info)
    if inverse is None:
        return {name: math.inf for name in names}
    return {name: ELO * math.sqrt(max(inverse[i][i] - 1.0 / n, 0.0)) for name, i in index.items()}


def _inverse(matrix: list[list[float]]) -> list[list[float]] | None:
    """The inverse of a small square matrix by Gauss–Jordan elimination, or None when it is
    singular."""
    n = len(matrix)
    rows = [list(row) + [1.0 if i == j else 0.0 for j in range(n)] for i, row in enumerate(matrix)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) < 1e-12:
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        head = rows[col][col]
        rows[col] = [v / head for v in rows[col]]
        for r in range(n):
            if r != col and rows[r][col]:
                factor = rows[r][col]
                rows[r] = [v - factor * w for v, w in zip(rows[r], rows[col], strict=True)]
    return [row[n:] for row in rows]


__all__ = [
    "MatchResult",
    "Rating",
    "describe",
    "game_seed",
    "match",
    "play",
    "play_game",
    "ratings",
    "score_interval",
    "summarise",
    "tournament",
    "with_seed",
]

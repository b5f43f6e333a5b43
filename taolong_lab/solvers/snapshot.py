"""A saved explicit search (a checkpoint's body) read back: every field checked, then the
search as a whole, and a saved result checked against the search it came from. Each problem
is a :class:`~.common.CheckpointError` naming the file and the field. Also what such a search
proves: its certificate, and the line to its win."""

from __future__ import annotations

from ..engine import Line, State
from ..errors import TaoLongError
from .bounds import INF, SHARP_TURNS, BoundParams, lower_bound
from .certificate import ExplicitCertificate, NoWinWithin, Status
from .common import CheckpointError, Solution

_COUNTERS = ("expanded", "generated", "deferred")
_BODY = frozenset({"positions", "info", "closed", "open", "proved", "found", "seconds"})
"""The fields of a saved search (:meth:`.explicit._Search.snapshot`)."""


# ---- reading a checkpoint --------------------------------------------------------------------
_MAX_TURNS = 1_000_000  # g, f and bounds: far beyond any search that fits in memory
_MAX_COUNT = 2**53  # positions expanded, generated, deferred
_MAX_SECONDS = 1e10
_MAX_TEXT = 4096  # a position's TLN or a turn's notation
_STATS = {"expanded", "seconds", "cpu_seconds", "positions_per_second", "peak_memory_mb"}
"""The stats of a saved result that the lab reads back (the command line prints them)."""


def _position(start: State, key: tuple, g: int) -> State:
    """The position of ``key`` (the inverse of :meth:`State.key`), on its ``g``-th turn after
    ``start``."""
    dragons, bagua, water, fire, to_move, rocks, flux, _ = key
    return State.compose(
        start.tables,
        board=(dragons, water, fire, rocks),
        bagua=bagua,
        coin=flux,
        mover=to_move,
        ply=start.ply + g,
    )


class _SnapshotReader:
    """Checks a saved search (:meth:`.explicit._Search.snapshot`) field by field, then as a
    whole; each problem is a :class:`CheckpointError` naming the file and the field."""

    def __init__(self, saved: dict, start: State, params: BoundParams, path):
        self.start, self.params, self.path = start, params, path
        fields = set(saved) - {"result"}
        want = _BODY | set(_COUNTERS)
        if fields != want:
            missing, extra = sorted(want - fields), sorted(fields - want)
            raise self.refuse("body", f"fields missing {missing}, unknown {extra}")
        self.states = self._positions(saved["positions"])
        self.keys = [state.key() for state in self.states]
        self.rows = self._info(saved["info"])
        self.closed = self._closed(saved["closed"])
        self.buckets, self.waiting = self._open(saved["open"])
        self.proved = self.number("proved", saved["proved"])
        found = saved["found"]
        self.found = None if found is None else self.number("found", found, high=len(self.keys) - 1)
        seconds = saved["seconds"]
        if type(seconds) not in (int, float) or not 0 <= seconds < _MAX_SECONDS:
            raise self.refuse("seconds", f"must be a number of seconds, got {_show(seconds)}")
        self.seconds = float(seconds)
        self.counters = {
            name: self.number(name, saved[name], high=_MAX_COUNT) for name in _COUNTERS
        }

    def refuse(self, field: str, reason: str) -> CheckpointError:
        return CheckpointError(self.path, field, reason)

    def number(self, field: str, value, *, low: int = 0, high: int = _MAX_TURNS) -> int:
        if type(value) is not int or not low <= value <= high:
            raise self.refuse(
                field, f"must be a whole number from {low} to {high}, not {_show(value)}"
            )
        return value

    def rows_of(self, field: str, value, width: int) -> list:
        if not isinstance(value, list):
            raise self.refuse(field, "must be a list")
        for j, row in enumerate(value):
            if not (isinstance(row, list) and len(row) == width):
                raise self.refuse(f"{field}[{j}]", f"must be a list of {width}")
        return value

    def _positions(self, tlns) -> list[State]:
        if not isinstance(tlns, list) or not tlns:
            raise self.refuse("positions", "must be a non-empty list of positions (TLN)")
        states, seen = [], {}
        for i, tln in enumerate(tlns):
            field = f"positions[{i}]"
            if not isinstance(tln, str) or len(tln) > _MAX_TEXT:
                raise self.refuse(field, "must be a position in TLN")
            try:
                state = State.from_tln(tln)
            except TaoLongError as exc:
                raise self.refuse(field, str(exc)) from None
            if (state.rules, state.layout, state.to_move) != (
                self.start.rules,
                self.start.layout,
                self.start.to_move,
            ):
                raise self.refuse(field, "not a position of this challenge")
            j = seen.setdefault(state.key(), i)
            if j != i:
                raise self.refuse(field, f"the same position as positions[{j}]")
            states.append(state)
        if states[0].key() != self.start.key():
            raise self.refuse("positions[0]", "is not the start position")
        return states

    def _info(self, rows) -> list:
        n = len(self.states)
        if not isinstance(rows, list) or len(rows) != n:
            raise self.refuse("info", f"must be a list of {n} rows, one per position")
        if rows[0] != [0, None, None]:
            raise self.refuse("info[0]", "the start's row must be [0, null, null]")
        for i, row in enumerate(self.rows_of("info", rows, 3)[1:], 1):
            g, parent, move = row
            self.number(f"info[{i}].g", g, low=1)
            self.number(f"info[{i}].parent", parent, high=n - 1)
            self.number(f"info[{i}].move", move, high=_MAX_COUNT)
        return rows

    def _closed(self, rows) -> dict:
        closed = {}
        for j, (i, f) in enumerate(self.rows_of("closed", rows, 2)):
            key = self.keys[self.number(f"closed[{j}]", i, high=len(self.keys) - 1)]
            if key in closed:
                raise self.refuse(f"closed[{j}]", f"positions[{i}] is closed twice")
            closed[key] = self.number(f"closed[{j}].f", f)
        return closed

    def _open(self, rows) -> tuple[dict, set]:
        """The buckets, and the positions with an entry at their ``info`` g."""
        buckets: dict[int, list] = {}
        waiting = set()
        for j, row in enumerate(self.rows_of("open", rows, 3)):
            f, g = self.number(f"open[{j}].f", row[0]), self.number(f"open[{j}].g", row[1])
            i = self.number(f"open[{j}]", row[2], high=len(self.keys) - 1)
            known = self.rows[i][0]
            if g < known:
                raise self.refuse(f"open[{j}].g", f"{g}, below positions[{i}]'s g ({known})")
            if f < g + lower_bound(self.states[i], self.params):
                raise self.refuse(f"open[{j}].f", f"{f}, below g + lower_bound(positions[{i}])")
            if g == known:
                waiting.add(i)
            buckets.setdefault(f, []).append((g, self.states[i]))
        return buckets, waiting

    def check_search(self) -> None:
        """What holds between the fields of a search :meth:`.explicit._Search.run` saved. The
        proved bound may exceed the smallest open ``f`` by up to :data:`SHARP_TURNS`: a position
        deferred ``d`` times is expanded at ``f + d``, and its successors open from ``f``."""
        rows, waiting = self.rows, self.waiting
        if self.buckets and self.proved > min(self.buckets) + SHARP_TURNS:
            raise self.refuse("proved", f"{self.proved}, above the smallest open f + {SHARP_TURNS}")
        if any(f > self.proved for f in self.closed.values()):
            raise self.refuse("closed", f"holds an f above the proved bound {self.proved}")
        if self.found is not None and lower_bound(self.states[self.found], self.params) != 0:
            raise self.refuse("found", f"positions[{self.found}] is not a win")
        for i, (g, parent, _) in enumerate(rows):
            if (
                i
                and g != rows[parent][0] + 1
                and not (g > rows[parent][0] + 1 and parent in waiting)
            ):
                # a parent reached in fewer turns since is on the open list, to update them
                raise self.refuse(f"info[{i}].g", f"{g}, its parent's g is {rows[parent][0]}")
            if i not in waiting and i != self.found and self.keys[i] not in self.closed:
                raise self.refuse(f"info[{i}]", "neither expanded nor on the open list")

    def info(self) -> dict:
        keys = self.keys
        return {
            keys[i]: (g, None if parent is None else keys[parent], move)
            for i, (g, parent, move) in enumerate(self.rows)
        }


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _certificate(
    start: State, params, closed: dict[int, int], proved: int, optimum
) -> ExplicitCertificate:
    return ExplicitCertificate(
        lookahead=start.rules.option("solo_lookahead"),
        lower_bound=params,
        start_lower_bound=_json_num(lower_bound(start, params)),
        proved_no_win_below=proved,
        no_win_within=_no_win_within(closed, proved),
        optimum=optimum,
    )


def _saved_result(result, search, path) -> Solution:
    """The result a finished search saved, once checked against that search (restored and
    checked already) and its line replayed from the start: every turn legal, a win in
    exactly ``optimum`` turns, the line to the saved win, the bound and the certificate the
    search proves. Raises :class:`CheckpointError` naming the field otherwise."""

    def refuse(field: str, reason: str) -> CheckpointError:
        return CheckpointError(path, f"result.{field}", reason)

    start = search.start
    fields = {*Solution.__dataclass_fields__, "start"} - {"stop"}  # Solution.to_json()'s keys
    if not isinstance(result, dict) or set(result) - {"stop"} != fields:
        raise CheckpointError(path, "result", f"must be an object with the fields {sorted(fields)}")
    status, line = result["status"], result["line"]
    if status not in (Status.OPTIMAL, Status.NO_WIN):
        raise refuse("status", f"{_show(status)}: a finished search is 'optimal' or 'no-win'")
    if result["start"] != start.to_tln():
        raise refuse("start", "is not the start position")
    if not isinstance(line, list) or not all(
        isinstance(t, str) and len(t) <= _MAX_TEXT for t in line
    ):
        raise refuse("line", "must be a list of turns")
    if status == Status.NO_WIN:
        if search.buckets or search.found is not None:
            raise refuse("status", "'no-win', but the saved search has positions left or a win")
        want_line, optimum, proved = [], None, search.proved
    else:
        if search.found is None:
            raise refuse("status", "'optimal', but the saved search found no win")
        optimum = result["optimum"]
        if type(optimum) is not int or not 0 <= optimum <= _MAX_TURNS:
            raise refuse("optimum", f"must be a number of turns, not {_show(optimum)}")
        _check_line(line, start, path, "result.line")
        if len(line) != optimum:
            raise refuse("optimum", f"{optimum}, but result.line has {len(line)} turns")
        try:
            want_line = _line(start, search.info, search.found)
        except LookupError as exc:
            raise CheckpointError(path, "info", str(exc)) from None
        optimum = proved = len(want_line)
    if line != want_line:
        raise refuse("line", f"is not the line to the saved search's win ({optimum} turns)")
    for name, want in (("optimum", optimum), ("proved_no_win_below", proved)):
        if result[name] != want or type(result[name]) is bool:
            raise refuse(name, f"{_show(result[name])}, the saved search proves {want}")
    first = result["optimal_first_turns"]
    if first is not None and not (
        status == Status.OPTIMAL and type(first) is int and 1 <= first <= len(start.successors())
    ):
        raise refuse("optimal_first_turns", f"{_show(first)} is not a count of first turns")
    certificate = _certificate(start, search.params, search.closed_counts(), proved, optimum)
    if result["certificate"] != certificate.to_json():
        raise refuse("certificate", "is not the certificate of the saved search")
    stats = result["stats"]
    if not isinstance(stats, dict) or not all(
        type(v) in (int, float) and 0 <= v < _MAX_COUNT for v in stats.values()
    ):
        raise refuse("stats", "must map names to non-negative numbers")
    if not set(stats) >= _STATS or len(stats) > 32 or any(len(name) > 40 for name in stats):
        missing = sorted(_STATS - set(stats))[:5]
        raise refuse("stats", f"fields missing {missing}, or too many or too long names")
    return Solution.from_json(result)


def _check_line(line, start: State, path, field: str) -> None:
    """Raise :class:`CheckpointError` on ``field`` unless ``line`` replays from ``start`` to a
    win for the player."""
    try:
        result = Line(start, line).end.outcome()
    except TaoLongError as exc:
        raise CheckpointError(path, field, str(exc)) from None
    if result is None:
        raise CheckpointError(path, field, f"the game is not over after its {len(line)} turns")
    if result.winner != start.to_move:
        raise CheckpointError(path, field, f"the line loses: {result}")


def _no_win_within(closed: dict[int, int], proved: int) -> tuple[NoWinWithin, ...]:
    """For each ``k < proved``: the positions expanded or deferred with ``f <= k`` (none of
    them won), from how many were first closed at each ``f``."""
    rows, total = [], 0
    for k in range(proved):
        total += closed.get(k, 0)
        rows.append(NoWinWithin(turns=k, positions=total))
    return tuple(rows)


def _json_num(x):
    return None if x == INF else x


def _line(start: State, info: dict, key) -> list[str]:
    """The turns from ``start`` to the position ``key`` that the search's ``info`` records."""
    moves = []
    while True:
        _, parent, move = info[key]
        if parent is None:
            break
        moves.append(move)
        key = parent
    line, state = [], start
    for move in reversed(moves):
        turns = state.legal_turns()
        if not 0 <= move < len(turns):
            raise LookupError(f"turn {len(line) + 1}: its position has no turn number {move}")
        line.append(str(turns[move]))
        state = state.play(turns[move])
    return line

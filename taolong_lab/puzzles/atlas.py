"""The solo atlas: the proved optimum of every shuffled solo start.

A shuffled start has the eight Ba Gua stones in stacks of two on the four main spaces (Heaven,
Fire, Earth and Water); with four white and four black stones there are C(8, 4) = 70
arrangements. For each scenario and each dragon, with full-strength dragons and the default rules
(Grasshopper, the ``"matter"`` lookahead), the atlas holds each arrangement's optimum, one optimal
line and the certificate, as puzzles in ``puzzles/atlas/<scenario>.jsonl`` (the puzzle format).

:func:`run` proves them, on the process pool or a Dask cluster
(:func:`~taolong_lab.runner.ordered_map`). It is resumable: a puzzle already in its file
is not proved again, and a challenge whose budget ran out is kept in ``<scenario>.pending.json``
with the bound proved so far, to be tried again by the next run. What a run keeps is checked
first: each entry must be one of the scenario's challenges, from its start, its line replayed
and its certificate read (:func:`~taolong_lab.puzzles.verify.verify_puzzle`); the pending list
may name only the scenario's challenges. One run at a time writes a folder
(:func:`taolong_lab.files.output_lock`).

>>> len(arrangements()), arrangements()[0]
(70, ('BB', 'BB', 'WW', 'WW'))
>>> atlas_start("field", "white", ("WW", "BW", "BB", "WB")) == solo_game_standard()
True
"""

from __future__ import annotations

import datetime
import itertools
import json
import os
import statistics
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import NamedTuple

from ..engine import State, solo_start
from ..errors import TaoLongError
from ..files import output_lock, read_bounded, write_atomic
from ..rules import COLOURS, Rules, game_data, scenario_names
from ..runner import MAX_WORKERS, Runner, as_runner
from ..solvers import Status
from ..version import __version__
from .format import Puzzle, append_puzzle, read_puzzles
from .rulebook import SHIPPED as RULEBOOK_SET
from .verify import verify_puzzle

GENERATOR = "taolong_lab.puzzles.atlas"
STACK = 2  # stones a main space holds in a shuffled start


class AtlasError(TaoLongError):
    """Bad input to the atlas run (an unknown scenario, a file that is not the run's)."""


def arrangements() -> list[tuple[str, ...]]:
    """Every shuffled Ba Gua: the stacks of the main spaces in ring order, each base first,
    sorted."""
    data = game_data()
    stones = "".join(data.setup_stacks)
    whites = stones.count("W")
    slots = len(stones)
    out = set()
    for places in itertools.combinations(range(slots), whites):
        pattern = "".join("W" if i in places else "B" for i in range(slots))
        out.add(tuple(pattern[i : i + STACK] for i in range(0, slots, STACK)))
    return sorted(out)


def main_spaces() -> list[int]:
    data = game_data()
    return [i for i, name in enumerate(data.ring) if name in data.main]


def atlas_start(scenario: str, player: str, stacks: tuple[str, ...]) -> State:
    """The solo start of ``scenario`` for ``player`` with the main spaces holding ``stacks``."""
    rules = Rules(scenario, "grasshopper", "current", True)
    start = solo_start(rules, player)
    bagua = [""] * len(start.bagua)
    for space, stack in zip(main_spaces(), stacks, strict=True):
        bagua[space] = stack
    return State.compose(
        start.tables, start.board, tuple(bagua), start.coin, start.mover, start.ply
    )


def solo_game_standard() -> State:
    """The standard solo start of The Field for white (the doctest's reference)."""
    return solo_start(Rules("field", "grasshopper", "current", True), "white")


def atlas_id(scenario: str, player: str, stacks: tuple[str, ...]) -> str:
    """``field-white-WW.BW.BB.WB``: the scenario, the player and the stacks."""
    return f"{scenario}-{player}-{'.'.join(stacks)}"


def challenges(scenario: str) -> Iterator[tuple[str, State]]:
    """``(id, start)`` of the scenario's 140 challenges, white's first."""
    for player in COLOURS:
        for stacks in arrangements():
            yield atlas_id(scenario, player, stacks), atlas_start(scenario, player, stacks)


def prove(job: dict) -> dict:
    """Solve one challenge (a job of :func:`run`): the solution as JSON, or the error."""
    from ..solvers import solve

    start = State.from_tln(job["start"])
    cpu = time.process_time()
    options = {"count_first_turns": False} if job["method"] in ("auto", "explicit", "sat") else {}
    solution = solve(start, method=job["method"], time_limit=job["time_limit"], **options)
    return {**solution.to_json(), "cpu_seconds": round(time.process_time() - cpu, 1)}


def _puzzle(ident: str, start: State, result: dict) -> Puzzle:
    scenario = start.rules.scenario
    stacks = ".".join(start.bagua[i] for i in main_spaces())
    return Puzzle.from_state(
        ident,
        f"{scenario.title()} atlas: {start.to_move} with the main stacks {stacks}",
        start,
        optimum=result["optimum"],
        solution=tuple(result["line"]),
        certificate=result["certificate"],
        provenance={
            "generator": GENERATOR,
            "version": __version__,
            "date": datetime.date.today().isoformat(),
            "cpu_seconds": result["cpu_seconds"],
        },
    )


def atlas_file(folder: Path, scenario: str) -> Path:
    return Path(folder) / f"{scenario}.jsonl"


def _done(path: Path, scenario: str) -> set[str]:
    """The ids of the challenges proved in the atlas file ``path``, once each is checked
    (:func:`entries`)."""
    if not path.exists():
        return set()
    data = read_bounded(path)
    if data and not data.endswith(b"\n"):
        raise AtlasError(f"{path}: the last line has no end; mend or remove it, then run again")
    return {p.id for p in entries(path, scenario)}


def entries(path, scenario: str) -> list[Puzzle]:
    """The puzzles of the atlas file ``path`` of ``scenario``, each checked before it counts:
    one of the scenario's challenges, from that challenge's start, its line replayed (a win in
    exactly its optimum) and its certificate consistent with it
    (:func:`~taolong_lab.puzzles.verify.verify_puzzle`).

    Parameters
    ----------
    path : path
        An atlas file (``<scenario>.jsonl``).
    scenario : str
        Its scenario.

    Returns
    -------
    list of Puzzle

    Raises
    ------
    AtlasError
        The first entry that does not check, naming the file, the line or the id, and why.
    """
    try:
        info = os.stat(path)
    except OSError:
        info = None
    key = (str(Path(path).resolve()), scenario, info and (info.st_mtime_ns, info.st_size))
    if info is not None and key in _CHECKED:  # this file, unchanged, was checked already
        return list(_CHECKED[key])
    puzzles = _checked_entries(path, scenario)
    if info is not None:
        if len(_CHECKED) >= 32:  # a few files' entries kept, as they were when checked
            _CHECKED.clear()
        _CHECKED[key] = tuple(puzzles)
    return puzzles


_CHECKED: dict = {}


def _checked_entries(path, scenario: str) -> list[Puzzle]:
    puzzles, problems = read_puzzles(path, check_solutions=False)
    if problems:
        line, field, reason = problems[0]
        raise AtlasError(f"{path}:{line}: {field}: {reason}")
    starts = {ident: start.to_tln() for ident, start in challenges(scenario)}
    for puzzle in puzzles:
        if puzzle.id not in starts:
            raise AtlasError(f"{path}: {puzzle.id}: not a challenge of the {scenario} atlas")
        if puzzle.start.to_tln() != starts[puzzle.id]:
            raise AtlasError(f"{path}: {puzzle.id}: start: not this challenge's start")
        found = verify_puzzle(puzzle)
        if found:
            raise AtlasError(f"{path}: {puzzle.id}: {found[0]}")
    return puzzles


def run(
    folder,
    scenarios: Iterable[str] | None = None,
    *,
    method: str = "auto",
    time_limit: float | None = 3600.0,
    runner: Runner | None = None,
) -> dict:
    """Prove every challenge of ``scenarios`` (default: all) not yet in ``folder``, appending
    each optimum to ``folder/<scenario>.jsonl`` as it is proved.

    Parameters
    ----------
    folder : path
        Where the atlas files are (created if missing).
    scenarios : iterable of str, optional
        Scenario names; all of them by default.
    method, time_limit :
        The solver and its budget per challenge (see :func:`taolong_lab.solve`).
    runner : Runner, optional
        Where the challenges are proved and whether a bar shows them
        (:class:`~taolong_lab.runner.Runner`); None: :func:`default_runner`, a process per
        core and no bar.

    Returns
    -------
    dict
        For each scenario: ``{"proved": n, "pending": m}`` after the run.

    Raises
    ------
    AtlasError
        For an unknown scenario or an atlas file that does not read as the atlas's puzzles.
    """
    known = scenario_names()
    names = list(known if scenarios is None else scenarios)
    for name in names:
        if name not in known:
            raise AtlasError(f"unknown scenario {name!r}; available: {', '.join(known)}")
    runner = default_runner() if runner is None else as_runner(runner)
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    with output_lock(folder, folder=True):
        return {
            scenario: _run_scenario(folder, scenario, method, time_limit, runner)
            for scenario in names
        }


def default_runner(**options) -> Runner:
    """The atlas's :class:`~taolong_lab.runner.Runner`: a process per core (at most
    :data:`~taolong_lab.runner.MAX_WORKERS`) unless ``options`` say otherwise.

    Parameters
    ----------
    **options
        The Runner's other fields (``scheduler``, ``security``, ``progress``).

    Returns
    -------
    Runner
    """
    return Runner(workers=max(1, min(os.cpu_count() or 1, MAX_WORKERS)), **options)


def _run_scenario(folder: Path, scenario: str, method, time_limit, runner: Runner) -> dict:
    """:func:`run` for one scenario: its proved and pending counts after the run."""
    path = atlas_file(folder, scenario)
    done = _done(path, scenario)
    pending_path = folder / f"{scenario}.pending.json"
    pending = _read_pending(pending_path, scenario)
    todo = [(ident, start) for ident, start in challenges(scenario) if ident not in done]
    jobs = (
        {"id": ident, "start": start.to_tln(), "method": method, "time_limit": time_limit}
        for ident, start in todo
    )
    bar = runner.bar(
        len(todo) + len(done), initial=len(done), desc=scenario, unit="start", leave=True
    )
    starts = dict(todo)
    try:
        for job, result in runner.map(prove, jobs):
            ident = job["id"]
            if "error" in result:
                pending[ident] = {"error": result["error"]}
            elif result["status"] == Status.OPTIMAL:
                append_puzzle(path, _puzzle(ident, starts[ident], result))
                pending.pop(ident, None)
                done.add(ident)
            else:
                pending[ident] = {
                    "status": result["status"],
                    "proved_no_win_below": result["proved_no_win_below"],
                    "seconds": result["stats"].get("seconds"),
                }
            write_atomic(pending_path, (json.dumps(pending, indent=1) + "\n").encode())
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return {"proved": len(done), "pending": len(pending)}


class Row(NamedTuple):
    """The atlas of one scenario and dragon (:func:`summary`)."""

    scenario: str
    player: str
    proved: int  # challenges proved, of len(arrangements())
    optima: dict  # optimum -> how many starts
    hardest: tuple  # the ids of the starts with the largest optimum
    standard: int | None  # the optimum of the standard Ba Gua, if proved
    rank: float | None  # the share of starts at least as hard as the standard one


def summary(folder) -> list[Row]:
    """What the atlas in ``folder`` holds, a :class:`Row` per scenario and dragon.

    Parameters
    ----------
    folder : path
        The atlas folder (``puzzles/atlas``).

    Returns
    -------
    list of Row
        In scenario order, white first.

    Raises
    ------
    AtlasError
        An entry that does not check (:func:`entries`).
    """
    data = game_data()
    standard = tuple(data.setup_stacks[i] for i in main_spaces())
    rows = []
    for path, puzzles in _files(folder):
        for player in COLOURS:
            mine = {p.id: p.optimum for p in puzzles if p.player == player}
            if not mine:
                continue
            optima: dict = {}
            for value in mine.values():
                optima[value] = optima.get(value, 0) + 1
            top = max(mine.values())
            own = mine.get(atlas_id(path.stem, player, standard))
            rank = None if own is None else sum(v >= own for v in mine.values()) / len(mine)
            rows.append(
                Row(
                    path.stem,
                    player,
                    len(mine),
                    dict(sorted(optima.items())),
                    tuple(sorted(i for i, v in mine.items() if v == top)),
                    own,
                    rank,
                )
            )
    return rows


def table(folder) -> str:
    """The atlas in ``folder`` as a Markdown table (the README's), a row per scenario and
    dragon: how many starts are proved, the spread of their optima, the hardest start and
    where the standard Ba Gua ranks (its optimum from the rulebook set's proof when the atlas
    has not proved it yet); then a line naming the scenarios and dragons with no row.

    Parameters
    ----------
    folder : path
        The atlas folder (``puzzles/atlas``).

    Returns
    -------
    str
        The table, one line per row, with a header.
    """
    lines = [
        "| scenario | dragon | proved | optima (turns: starts) | hardest | standard start |",
        "|---|---|---|---|---|---|",
    ]
    total = len(arrangements())
    rows = summary(folder)
    rulebook = _rulebook_optima()
    for row in rows:
        spread = ", ".join(f"{k}: {v}" for k, v in row.optima.items())
        top = max(row.optima)
        first = row.hardest[0].split("-", 2)[2]  # the stacks of the first hardest start
        more = len(row.hardest) - 1
        hardest = f"{top}: {first}" + (f" and {_count(more, 'other')}" if more else "")
        proof = rulebook.get((row.scenario, row.player))
        if row.standard is not None:
            standard = f"{row.standard}, {row.rank:.0%} of starts as hard or harder"
        elif proof is not None:
            harder = sum(n for k, n in row.optima.items() if k >= proof) / row.proved
            standard = (
                f"{proof} (the rulebook set's proof), {harder:.0%} of the {row.proved} "
                "proved starts as hard or harder"
            )
        else:
            standard = "not proved yet"
        lines.append(
            f"| {row.scenario} | {row.player} | {row.proved}/{total} | {spread} | {hardest} | "
            f"{standard} |"
        )
    shown = {(row.scenario, row.player) for row in rows}
    missing = [f"{s} {p}" for s in scenario_names() for p in COLOURS if (s, p) not in shown]
    if missing:
        lines += ["", f"Not in the atlas yet (no start proved): {', '.join(missing)}."]
    return "\n".join(lines) + "\n"


def _rulebook_optima() -> dict[tuple[str, str], int]:
    """The proved optimum of each scenario's standard start for each dragon, from the
    rulebook set (``puzzles/rulebook-solo.jsonl``), where it is the atlas's standard start."""
    if not RULEBOOK_SET.is_file():
        return {}
    standard = tuple(game_data().setup_stacks[i] for i in main_spaces())
    found = {}
    for puzzle in read_puzzles(RULEBOOK_SET, check_solutions=False)[0]:
        scenario = puzzle.rules.scenario
        if puzzle.optimum is None or puzzle.player not in COLOURS:
            continue
        if puzzle.start == atlas_start(scenario, puzzle.player, standard):
            found[(scenario, puzzle.player)] = puzzle.optimum
    return found


class Cost(NamedTuple):
    """What proving one atlas challenge took (:func:`costs`)."""

    id: str
    scenario: str
    player: str
    optimum: int
    solver: str  # "explicit" or "sat", the solver whose certificate is stored
    positions: int | None  # explicit: positions expanded or deferred below the optimum
    conflicts: int | None  # SAT: conflicts over every horizon
    cpu_seconds: float | None  # the solve's CPU time, where the run recorded it


def costs(folder) -> list[Cost]:
    """What each proved challenge in ``folder`` cost, from its certificate and provenance.

    Parameters
    ----------
    folder : path
        The atlas folder (``puzzles/atlas``).

    Returns
    -------
    list of Cost
        In file order, scenario by scenario.

    Raises
    ------
    AtlasError
        An entry that does not check (:func:`entries`).
    """
    rows = []
    for path, puzzles in _files(folder):
        for p in puzzles:
            cert = p.certificate or {}
            below = cert.get("no_win_within") or []
            cpu = (p.provenance or {}).get("cpu_seconds")
            rows.append(
                Cost(
                    p.id,
                    path.stem,
                    p.player,
                    p.optimum,
                    str(cert.get("solver", "")).rsplit(".", 1)[-1],
                    below[-1]["positions"] if below else None,
                    cert.get("conflicts"),
                    float(cpu) if isinstance(cpu, (int, float)) else None,
                )
            )
    return rows


def by_group(rows: list[Cost]) -> dict:
    """``rows`` by scenario and dragon: ``{(scenario, player): [Cost, ...]}``, in order."""
    groups: dict = {}
    for row in rows:
        groups.setdefault((row.scenario, row.player), []).append(row)
    return groups


def cost_table(rows: list[Cost]) -> str:
    """:func:`costs` as a Markdown table, a row per scenario and dragon: the positions (or
    conflicts) per challenge, median and largest, the CPU time recorded, and the costliest
    challenge; then a line saying what a "–" means."""
    lines = [
        "| scenario | dragon | proved | positions: median / largest | CPU s recorded: "
        "total / median / largest | costliest (by positions) |",
        "|---|---|---:|---|---|---|",
    ]
    for (scenario, player), group in by_group(rows).items():
        work = sorted(r.positions for r in group if r.positions is not None)
        cpu = sorted(r.cpu_seconds for r in group if r.cpu_seconds is not None)
        costliest = max(group, key=lambda r: r.positions or 0)
        positions = f"{statistics.median(work):,.0f} / {work[-1]:,}" if work else "–"
        seconds = (
            f"{sum(cpu):,.0f} / {statistics.median(cpu):,.1f} / {cpu[-1]:,.1f} ({len(cpu)})"
            if cpu
            else "–"
        )
        lines.append(
            f"| {scenario} | {player} | {len(group)} | {positions} | {seconds} | "
            f"{costliest.id} ({costliest.optimum} turns) |"
        )
    lines += [
        "",
        "CPU s recorded: only the runs that recorded their CPU time count (how many in "
        'brackets); "–": no run of that group did (the atlas\'s earlier runs kept none). '
        "Positions: the explicit solver's; \"–\": every proof of the group is SAT's.",
    ]
    return "\n".join(lines) + "\n"


def _files(folder) -> list[tuple[Path, list[Puzzle]]]:
    """Each atlas file of ``folder`` and its entries, every one checked (:func:`entries`)."""
    found = []
    for path in sorted(Path(folder).glob("*.jsonl")):
        if path.stem not in scenario_names():
            raise AtlasError(f"{path}: not an atlas file (no scenario {path.stem!r})")
        found.append((path, entries(path, path.stem)))
    return found


# ---- a player's question: how hard is the start on my table? --------------------------------
class Lookup(NamedTuple):
    """An atlas start looked up (:func:`lookup`): its puzzle, and where its optimum ranks
    among the scenario's starts for that dragon."""

    puzzle: Puzzle
    harder: int  # starts of a larger optimum
    same: int  # starts of the same optimum, this one included
    proved: int  # starts proved

    def words(self) -> list[str]:
        """The stored winning line, a turn a line: the notation, then what it does."""
        line = self.puzzle.line
        states = line.states()
        return [
            f"{i}. {turn}: {states[i - 1].describe_turn(turn)}"
            for i, turn in enumerate(line.turns, 1)
        ]

    def rank(self) -> str:
        """Where the start ranks, in words: 'the 12th to 41st hardest of 70'."""
        low, high = self.harder + 1, self.harder + self.same
        place = _ordinal(low) if low == high else f"{_ordinal(low)} to {_ordinal(high)}"
        return f"the {place} hardest of {self.proved} proved starts"


def parse_stacks(text: str) -> tuple[str, ...]:
    """The main spaces' stacks of a shuffled start, read as a player writes them: the atlas
    id's form (``"BB.WW.BW.BW"``: Heaven, Fire, Earth, Water, each base first) or a TLN Ba
    Gua field (``"BB/-/WW/-/BW/-/BW/-"``, every other space empty).

    Parameters
    ----------
    text : str

    Returns
    -------
    tuple of str
        One of :func:`arrangements`.

    Raises
    ------
    AtlasError
        Anything else, in one line saying what a start looks like.
    """
    spaces = main_spaces()
    example = "'BB.WW.BW.BW' or 'BB/-/WW/-/BW/-/BW/-'"
    if not isinstance(text, str) or len(text) > 64:
        raise AtlasError(f"a Ba Gua is written like {example}")
    if "/" in text:
        stacks = ["" if s == "-" else s for s in text.strip().split("/")]
        if len(stacks) != len(game_data().ring) or any(
            stack for i, stack in enumerate(stacks) if i not in spaces
        ):
            raise AtlasError(
                f"{text!r}: a shuffled start has stones on Heaven, Fire, Earth and Water only, "
                f"like {example}"
            )
        stacks = [stacks[i] for i in spaces]
    else:
        stacks = text.strip().upper().split(".")
    found = tuple(stacks)
    if found not in set(arrangements()):
        raise AtlasError(
            f"{text!r} is not a shuffled start: four stacks of two stones, four white (W) and "
            f"four black (B) in all, like {example}"
        )
    return found


def lookup(folder, scenario: str, player: str, stacks: tuple[str, ...]) -> Lookup:
    """The atlas's entry for a shuffled start, and how it ranks among the others.

    Parameters
    ----------
    folder : path
        The atlas folder.
    scenario, player : str
        The scenario's name and the player's dragon (``"white"`` or ``"black"``).
    stacks : tuple of str
        The main stacks (:func:`parse_stacks`).

    Returns
    -------
    Lookup

    Raises
    ------
    AtlasError
        An unknown scenario or dragon, or a start the atlas has not proved yet.
    """
    if scenario not in scenario_names():
        raise AtlasError(f"unknown scenario {scenario!r}; available: {', '.join(scenario_names())}")
    if player not in COLOURS:
        raise AtlasError(f"the dragon is white or black, not {player!r}")
    ident = atlas_id(scenario, player, stacks)
    path = atlas_file(Path(folder), scenario)
    puzzles = entries(path, scenario) if path.exists() else []
    mine = {p.id: p for p in puzzles if p.player == player}
    if ident not in mine:
        raise AtlasError(f"{ident} is not in the atlas at {folder} yet")
    optimum = mine[ident].optimum
    harder = sum(p.optimum > optimum for p in mine.values())
    same = sum(p.optimum == optimum for p in mine.values())
    return Lookup(mine[ident], harder, same, len(mine))


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'s' * (n != 1)}"


def _read_pending(path: Path, scenario: str) -> dict:
    """The pending list of ``scenario``: challenge id -> ``{"error": text}`` or ``{"status",
    "proved_no_win_below", "seconds"}``, every key one of the scenario's challenges."""
    if not path.exists():
        return {}
    try:
        data = json.loads(read_bounded(path))
    except (ValueError, RecursionError) as exc:
        raise AtlasError(f"{path}: not the atlas's pending list ({str(exc)[:120]})") from None
    if not isinstance(data, dict):
        raise AtlasError(f"{path}: not the atlas's pending list (not a JSON object)")
    known = {ident for ident, _ in challenges(scenario)}
    for ident, entry in data.items():
        if ident not in known:
            raise AtlasError(f"{path}: {ident[:80]!r}: not a challenge of the {scenario} atlas")
        if not _pending_entry(entry):
            raise AtlasError(f"{path}: {ident}: not an entry of the pending list")
    return data


def _pending_entry(entry) -> bool:
    """A pending entry: an error's text, or a search stopped with its bound."""
    if not isinstance(entry, dict):
        return False
    if set(entry) == {"error"}:
        return isinstance(entry["error"], str) and len(entry["error"]) <= 10_000
    bound, seconds = entry.get("proved_no_win_below"), entry.get("seconds")
    return (
        set(entry) == {"status", "proved_no_win_below", "seconds"}
        and entry["status"] in (Status.UNKNOWN, Status.NO_WIN)
        and type(bound) is int
        and 0 <= bound <= 10_000
        and (seconds is None or (type(seconds) in (int, float) and 0 <= seconds < 1e9))
    )


__all__ = [
    "GENERATOR",
    "AtlasError",
    "Cost",
    "Lookup",
    "Row",
    "arrangements",
    "atlas_file",
    "atlas_id",
    "atlas_start",
    "by_group",
    "challenges",
    "cost_table",
    "costs",
    "default_runner",
    "entries",
    "lookup",
    "main_spaces",
    "parse_stacks",
    "prove",
    "run",
    "summary",
    "table",
]

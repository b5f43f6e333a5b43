"""What the Explorer shows and does, with no view: a line of play with a current position, the
turn being built there (:class:`~.builder.TurnBuilder`), the messages, the bundled puzzles and
the solvers' hints.

The game is a :class:`~taolong_lab.engine.Line` and an index into it: :meth:`~ExplorerSession.undo`,
:meth:`~ExplorerSession.redo` and :meth:`~ExplorerSession.goto` move the index without forgetting
the line; playing a turn other than the next one of the line cuts the rest of it.
:meth:`~ExplorerSession.hint` and :meth:`~ExplorerSession.solve` run a solver (solo positions)
with a time limit; a hint first uses the puzzle's stored line when the position is on it.
:meth:`~ExplorerSession.click` says what a click on the picture means: a Ba Gua space sows it,
a cell steps there. Every message, errors included, is kept in
:attr:`~ExplorerSession.messages`, oldest first, one a step: its first line says what happened
in a player's words, the lines after it the details (the solver's, the stones' fall). A
choice that cannot be made raises :class:`~.builder.ExplorerError` after saying why.

>>> from taolong_lab import new_game
>>> session = ExplorerSession(new_game())
>>> session.choose_space("Wa")
>>> session.choose("a3,a4")                    # the turn is complete: it is played
>>> session.line.notation(), session.index
(['Wa>He a3,a4'], 1)
>>> session.undo(); session.index
0
"""

from __future__ import annotations

import functools
import itertools
import json
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from ..engine import Line, Phase, State, Turn, cell_name, parse_cell, start_state
from ..errors import IllegalTurnError, TaoLongError
from ..files import read_bounded
from ..limits import MAX_PUZZLE_TURNS
from ..pictures import svg
from ..puzzles import Puzzle, load_puzzles
from ..puzzles.bundle import folder as bundle_folder
from ..rules import Rules
from ..rules.data import game_data, shown
from ..solvers import Method, Solution, Status, solve
from ..solvers.bounds import BOUND_NAME
from .builder import KIND_TITLES, Choice, ChoiceKind, ExplorerError, TurnBuilder, sowing_words

METHODS = (Method.EXPLICIT, Method.SAT)  # the solvers a hint may use
HINT_SECONDS = (0.1, 600.0)  # the time limits of a hint, and of a solve, at least and at most
SOLVE_SECONDS = (0.1, 3600.0)
MESSAGES_KEPT = 8


def bundled_puzzles(directory: str | Path | None = None) -> dict[str, tuple[Path, str, str]]:
    """The puzzles of a folder, listed without loading them.

    Parameters
    ----------
    directory : str, Path or None
        The folder (default: the bundled puzzles, :func:`taolong_lab.puzzles.bundle.folder`).
        Files that cannot be read are left out.

    Returns
    -------
    dict
        ``{"file.jsonl:id": (path, id, title)}`` in file then line order.
    """
    found: dict[str, tuple[Path, str, str]] = {}
    folder = Path(directory) if directory is not None else bundle_folder()
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.json*")):
        try:
            text = read_bounded(path).decode("utf-8")
            docs = (
                [json.loads(line) for line in text.splitlines() if line.strip()[:1] == "{"]
                if path.suffix == ".jsonl"
                else [json.loads(text)]
            )
        except (OSError, ValueError, RecursionError):
            continue
        for doc in docs:
            if isinstance(doc, dict) and isinstance(doc.get("id"), str):
                found[f"{path.name}:{doc['id']}"] = (path, doc["id"], str(doc.get("title", "")))
    return found


@functools.lru_cache(maxsize=32)
def _puzzles_in(path: Path) -> dict[str, Puzzle]:
    return {p.id: p for p in load_puzzles(path, check_solutions=False)}


def _seconds(name: str, value, bounds: tuple[float, float]) -> float:
    low, high = bounds
    if isinstance(value, bool) or not isinstance(value, int | float) or not low <= value <= high:
        raise ExplorerError(
            f"{name}: {shown(value)} is not a number of seconds from {low} to {high}"
        )
    return float(value)


def _phase_advice(phase: Phase) -> str:
    ring = game_data().ring
    words = f"sow {ring[phase.space].title()}"
    if phase.ended:
        return words + ": the game ends"
    if phase.penalty:
        return words + ", then lose a life (no action is possible)"
    if not phase.path:
        return words + ", then stay"
    through = " through a portal" if phase.portals else ""
    words += f", then step the head{through} to {cell_name(phase.path[-1])}"
    return words + (f" and {phase.effect}" if phase.effect else "")


def advice(turn: Turn) -> str:
    """A turn in a player's words, e.g. 'Sow Heaven, then step the head to d4'.

    Parameters
    ----------
    turn : Turn

    Returns
    -------
    str

    >>> from taolong_lab import new_game
    >>> advice(new_game().parse_turn("He>Fi a3+"))
    'Sow Heaven, then step the head to a3 and absorb'
    """
    words = "; ".join(_phase_advice(phase) for phase in turn.phases)
    return words[:1].upper() + words[1:]


class ExplorerSession:
    """A position or a puzzle to play, step through and solve: a :class:`State`, a
    :class:`~taolong_lab.puzzles.Puzzle`, a TLN string, or None for the default start.

    Parameters
    ----------
    position_or_puzzle : State, Puzzle, str or None
    line : iterable of str or Turn
        Turns to load after the start (e.g. a solution's line), at most
        :data:`~taolong_lab.limits.MAX_PUZZLE_TURNS`.
    size : int
        The picture's width in pixels.
    reveal : bool
        Chosen One: draw the Board of Human.
    puzzles : str, Path or None
        The folder :attr:`catalogue` lists (default: the bundled puzzles).
    hint_time, solve_time : float
        The solvers' time limits in seconds (:data:`HINT_SECONDS`, :data:`SOLVE_SECONDS`).
    method : str
        The solver of hints and solves, one of :data:`METHODS`.

    Raises
    ------
    ExplorerError
        A bad argument, named.
    """

    def __init__(
        self,
        position_or_puzzle: Any = None,
        *,
        line: Iterable[str | Turn] = (),
        size: int = 720,
        reveal: bool = False,
        puzzles: str | Path | None = None,
        hint_time: float = 2.0,
        solve_time: float = 10.0,
        method: str = "explicit",
    ):
        self.size, self.reveal = size, reveal
        self.hint_time = _seconds("hint_time", hint_time, HINT_SECONDS)
        self.solve_time = _seconds("solve_time", solve_time, SOLVE_SECONDS)
        self.method = method
        if method not in METHODS:
            raise ExplorerError(f"method: {shown(method)} is not one of {', '.join(METHODS)}")
        self.catalogue = bundled_puzzles(puzzles)
        self.messages: list[tuple[str, str]] = []  # (level, text), oldest first
        self.on_message: Callable[[], None] | None = None  # called after each message
        self.puzzle: Puzzle | None = None
        self.line = Line(start_state(Rules()))
        self.index = 0
        self.builder = TurnBuilder(self.line.start)
        self.solution: Solution | None = None  # the last one from hint() or solve()
        self.hint_turn: str | None = None
        self.load(position_or_puzzle, line=line, quiet=True)

    # ---- messages ------------------------------------------------------------------------------
    def say(self, text: str, level: str = "info") -> None:
        """Add a message: ``"info"``, ``"ok"``, ``"error"``, or ``"prompt"`` (what to choose
        next: it lasts only until the next message, so a prompt never outlives its turn)."""
        self.messages = [m for m in self.messages if m[0] != "prompt"]
        self.messages.append((level, text))
        del self.messages[:-MESSAGES_KEPT]
        if self.on_message is not None:
            self.on_message()

    def fail(self, text: str):
        """Say ``text`` as an error and raise it as an :class:`ExplorerError`."""
        self.say(text, "error")
        raise ExplorerError(text)

    @property
    def message(self) -> str:
        """The latest message ("" if none)."""
        return self.messages[-1][1] if self.messages else ""

    # ---- the line --------------------------------------------------------------------------------
    @property
    def position(self) -> State:
        """The position shown: the one after the first :attr:`index` turns of the line."""
        return self.builder.state

    @property
    def picked(self) -> list[Choice]:
        """The choices made for the turn being built."""
        return self.builder.picked

    def options(self) -> list[Choice]:
        """The choices some legal turn continues with (:meth:`TurnBuilder.options`)."""
        return self.builder.options()

    def _show(self, index: int) -> None:
        self.index = index
        self.builder = TurnBuilder(self.line[:index].end)
        self.hint_turn = None

    def load(self, position_or_puzzle: Any = None, *, line: Iterable = (), quiet=False) -> None:
        """Start over; a bad start or line changes nothing.

        Parameters
        ----------
        position_or_puzzle : State, Puzzle, str or None
            A position, a puzzle, a position in TLN, or None for the default start.
        line : iterable of str or Turn
            Turns to put after the start, at most :data:`~taolong_lab.limits.MAX_PUZZLE_TURNS`.
        quiet : bool
            Say nothing when it is loaded.

        Raises
        ------
        ExplorerError
            A start that is none of those, or a line that does not replay (naming the turn).
        """
        item, puzzle = position_or_puzzle, None
        if item is None:
            start = start_state(Rules())
        elif isinstance(item, State):
            start = item
        elif isinstance(item, Puzzle):
            puzzle, start = item, item.start
        elif isinstance(item, str):
            try:
                start = State.from_tln(item)
            except TaoLongError as exc:
                self.fail(f"cannot read the position: {exc}")
        else:
            self.fail(f"the Explorer needs a State, a Puzzle or a TLN string, not {shown(item)}")
        if isinstance(line, str):
            self.fail("the line is a list of turns, not one string")
        turns = list(itertools.islice(line, MAX_PUZZLE_TURNS + 1))
        if len(turns) > MAX_PUZZLE_TURNS:
            self.fail(f"the line has more than {MAX_PUZZLE_TURNS} turns")
        try:
            self.line = Line(start, turns)
        except IllegalTurnError as exc:
            self.fail(f"the line does not replay: {exc}")
        self.puzzle, self.solution = puzzle, None
        self._show(0)
        if not quiet:
            name = f"puzzle {puzzle.id}: {puzzle.title}" if puzzle else "position"
            self.say(f"loaded the {name}", "ok")

    def catalogue_key(self) -> str:
        """The :attr:`catalogue` key of the puzzle loaded ("" if none)."""
        if self.puzzle is None:
            return ""
        ident = self.puzzle.id
        return next((k for k, (_path, i, _title) in self.catalogue.items() if i == ident), "")

    def load_puzzle(self, key: str) -> None:
        """Load a puzzle of :attr:`catalogue`.

        Parameters
        ----------
        key : str
            Its key (``"file.jsonl:id"``) or its id.

        Raises
        ------
        ExplorerError
            No such puzzle, or a file that no longer reads.
        """
        if key not in self.catalogue:
            matches = [k for k, (_path, ident, _title) in self.catalogue.items() if ident == key]
            if not matches:
                self.fail(f"no bundled puzzle {shown(key)}")
            key = matches[0]
        path, ident, _title = self.catalogue[key]
        try:
            puzzle = _puzzles_in(path)[ident]
        except (TaoLongError, OSError, KeyError) as exc:
            self.fail(f"cannot load {key}: {exc}")
        self.load(puzzle)

    def goto(self, index: int) -> None:
        """Show the position after the first ``index`` turns of the line.

        Parameters
        ----------
        index : int
            From 0 to the line's length.

        Raises
        ------
        ExplorerError
            An index outside the line.
        """
        if (
            isinstance(index, bool)
            or not isinstance(index, int)
            or not 0 <= index <= len(self.line)
        ):
            self.fail(f"no position {shown(index)}: the line has positions 0 to {len(self.line)}")
        if index != self.index or self.picked:
            self._show(index)

    def undo(self) -> None:
        """Take back the last turn (it stays in the line: :meth:`redo` replays it); with
        choices pending, forget them instead."""
        if self.picked:
            self.cancel()
        elif self.index == 0:
            self.fail("nothing to undo: this is the start of the line")
        else:
            self.goto(self.index - 1)

    def redo(self) -> None:
        """Replay the next turn of the line."""
        if self.index >= len(self.line):
            self.fail("nothing to redo: this is the end of the line")
        self.goto(self.index + 1)

    def cancel(self) -> None:
        """Forget the choices made for the turn being built."""
        self.builder.cancel()

    # ---- playing -------------------------------------------------------------------------------
    def play(self, turn: str | Turn) -> None:
        """Play a whole turn from the position shown.

        Parameters
        ----------
        turn : str or Turn
            In notation, or a :class:`Turn`.

        Raises
        ------
        ExplorerError
            A turn that cannot be read or is not legal here, with the reason.
        """
        try:
            parsed = self.position.parse_turn(turn)
        except TaoLongError as exc:
            self.cancel()
            self.fail(str(exc))
        self._commit(parsed)

    def choose_space(self, space: int | str) -> None:
        """Sow a Ba Gua space; the turn is played once complete.

        Parameters
        ----------
        space : int or str
            As :meth:`TurnBuilder.choose_space` takes it.

        Raises
        ------
        ExplorerError
            A space not offered, with the reason.
        """
        self._built(self.builder.choose_space, space)

    def choose(self, option: str | int | Choice) -> None:
        """Make the next choice; the turn is played once complete.

        Parameters
        ----------
        option : str, int or Choice
            As :meth:`TurnBuilder.choose` takes it.

        Raises
        ------
        ExplorerError
            A choice not offered, with the ones that are.
        """
        self._built(self.builder.choose, option)

    def click(self, target: str) -> None:
        """What a click on the picture means now: a Ba Gua space (``"space-He"``) is sown
        (:meth:`choose_space`), a cell (``"cell-c3"``) is the destination of the path ending
        there.

        Parameters
        ----------
        target : str
            ``"space-"`` and a space's abbreviation, or ``"cell-"`` and a cell's name (the
            ``data-space`` and ``data-cell`` of :func:`~taolong_lab.pictures.svg`).

        Raises
        ------
        ExplorerError
            A click that chooses nothing now, with the reason.
        """
        what, _, name = str(target).partition("-")
        if what == "space" and name:
            return self.choose_space(name)
        if what != "cell" or not name:
            self.fail(f"the picture has no space or cell {shown(target)}")
        try:
            cell = parse_cell(name)
        except TaoLongError as exc:
            self.fail(f"the picture has no cell {shown(name)}: {exc}")
        builder = self.builder
        kind = builder.next_kind()
        if kind is None:
            over = self.position.outcome()
            self.fail(f"nothing to choose: {'the game is over' if over else 'no turn here'}")
        if kind != ChoiceKind.MOVE:
            labels = ", ".join(c.label for c in builder.options())
            first = "sow a Ba Gua space first" if kind == ChoiceKind.SPACE else KIND_TITLES[kind]
            self.fail(f"{cell_name(cell)}: {first} ({labels})")
        moves = [c for c in builder.options() if c.kind == ChoiceKind.MOVE]
        found = [c for c in moves if c.value[0] and c.value[0][-1] == cell]
        if len(found) > 1:
            paths = ", ".join(c.label for c in found)
            self.fail(f"several paths end on {cell_name(cell)} ({paths}): choose one below")
        if not found:
            self.fail(builder.cell_reason(cell))
        self.choose(found[0])

    def _built(self, step, value) -> None:
        try:
            turn = step(value)
        except ExplorerError as exc:
            self.fail(str(exc))
        if turn is not None:
            lone = ", ".join(c.label for c in self.builder.lone)
            self._commit(turn, f"; {lone}: the only destination, taken" if lone else "")
        elif self.builder.last_choice.kind == ChoiceKind.SPACE:
            self.say(self.builder.prompt(), "prompt")

    def _commit(self, turn: Turn, note: str = "") -> None:
        before = self.position  # the prompts that told its sowings go: the message tells them
        if self.index >= len(self.line) or self.line.turns[self.index] != turn:
            self.line = self.line[: self.index].play(turn)  # another turn: the rest goes
        self._show(self.index + 1)
        sowings = [
            words
            for number in range(len(turn.phases))
            if (words := sowing_words(before, turn, number))
        ]
        result = self.position.outcome()
        self.say(
            f"{before.to_move} played {turn}: {before.describe_turn(turn)}{note}"
            + (f"; {result}" if result else "")
            + "".join(f"\n{words}" for words in sowings)
        )

    # ---- solvers ---------------------------------------------------------------------------------
    def solver_reason(self) -> str | None:
        """Why the solvers cannot run from the position shown (None: they can)."""
        state = self.position
        if not state.rules.solo:
            return "the solvers work on solo challenges"
        if state.is_over():
            return f"the game is over ({state.outcome()})"
        return None

    def _run_solver(self, time_limit: float, progress=False) -> tuple[Solution, float]:
        reason = self.solver_reason()
        if reason is not None:
            if not self.position.rules.solo:
                reason += (
                    "; this is a two-player position (load a puzzle from the dropdown, or use "
                    "taolong_lab.graph.explore)"
                )
            self.fail(reason)
        self.say(f"{self.method} solver running (time limit {time_limit:g} s)…")
        started = time.perf_counter()
        try:
            solution = solve(
                self.position, method=self.method, time_limit=time_limit, progress=progress
            )
        except TaoLongError as exc:
            self.fail(f"{self.method} solver: {exc}")
        self.solution = solution
        return solution, time.perf_counter() - started

    @staticmethod
    def certificate_words(solution: Solution, seconds: float) -> str:
        """Which solver proved what, from its certificate, in one line."""
        cert, stats = solution.certificate, solution.stats or {}
        bits = [
            f"solver {cert.solver} ({cert.method})",
            f"lower bound {BOUND_NAME}",
            f"certificate: no win in fewer than {solution.proved_no_win_below} turns",
        ]
        if "expanded" in stats:
            bits.append(f"{stats['expanded']} positions expanded")
        bits.append(f"{seconds:.2f} s")
        if cert.stopped:
            bits.append(f"stopped: {cert.stopped}")
        return "; ".join(bits)

    def _no_win(self, solution: Solution, how: str) -> None:
        if solution.status == Status.NO_WIN:
            self.say(f"no win from here: every reachable position was searched\n{how}", "error")
        else:
            self.say(
                f"no win found in time; no win in fewer than {solution.proved_no_win_below} "
                f"turns\n{how}",
                "error",
            )

    def known_line(self) -> tuple[list[str], bool] | None:
        """What the puzzle knows from the position shown: the rest of its stored line when the
        position is on it, and whether its certificate proves that line shortest.

        Returns
        -------
        (list of str, bool) or None
            None without a puzzle, a stored line, or when the position is off the line.
        """
        puzzle = self.puzzle
        if puzzle is None or not puzzle.solution:
            return None
        try:
            states = puzzle.line.states()
        except TaoLongError:
            return None
        here = self.position
        for step, state in enumerate(states[:-1]):
            if state == here:
                cert = puzzle.certificate or {}
                proved = (
                    puzzle.optimum == len(puzzle.solution)
                    and cert.get("proved_no_win_below") == puzzle.optimum
                )
                return list(puzzle.solution[step:]), proved
        return None

    def _say_hint(self, line: list[str], proved: bool, how: str) -> str:
        self.cancel()
        self.hint_turn = line[0]
        turn = self.position.parse_turn(self.hint_turn)
        sure = "proved" if proved else "not proved the fewest"
        self.say(
            f"{advice(turn)}: wins in {len(line)} turn{'s' * (len(line) != 1)}, {sure}\n"
            f"hint: {self.hint_turn} ({self.position.describe_turn(turn)})\n{how}",
            "ok",
        )
        return self.hint_turn

    def hint(self) -> str | None:
        """The best next turn: the puzzle's stored line when the position is on it and its
        certificate proves it shortest (:meth:`known_line`), else the solver's within
        :attr:`hint_time`, else the stored line, not proved the fewest. The message says it in
        a player's words, with the source and the solver's details after.

        Returns
        -------
        str or None
            The turn in notation; None when neither knows a win.

        Raises
        ------
        ExplorerError
            A position the solvers do not take (two-player, or over), or a solver's error.
        """
        known = self.known_line()
        if known is not None and known[1]:
            cert = self.puzzle.certificate or {}
            how = (
                f"from the puzzle's stored line, proved shortest by its certificate "
                f"({cert.get('solver', 'a solver')}: no win in fewer than {self.puzzle.optimum})"
            )
            return self._say_hint(*known, how)
        solution, seconds = self._run_solver(self.hint_time)
        how = self.certificate_words(solution, seconds)
        if solution.status == Status.OPTIMAL and solution.line:
            return self._say_hint(solution.line.notation(), True, how)
        if known is not None:
            return self._say_hint(known[0], False, f"from the puzzle's stored line\n{how}")
        self.cancel()
        self.hint_turn = None
        self._no_win(solution, how)
        return None

    def solve(self, progress=False) -> Solution:
        """Solve from the position shown within :attr:`solve_time` and put the winning line
        after it, to step through.

        Parameters
        ----------
        progress : bool or callable
            As :func:`~taolong_lab.solvers.solve` takes it: a callable is told how the
            search goes (a web page's progress bar).

        Returns
        -------
        Solution
            The solver's.

        Raises
        ------
        ExplorerError
            As :meth:`hint`.
        """
        solution, seconds = self._run_solver(self.solve_time, progress)
        how = self.certificate_words(solution, seconds)
        if solution.status != Status.OPTIMAL:
            self._no_win(solution, how)
            return solution
        line = self.line[: self.index]
        for turn in solution.line:
            line = line.play(turn)
        self.line = line
        self._show(self.index)
        played = " | ".join(solution.line.notation()) or "(already won)"
        self.say(
            f"solved: win in {solution.optimum} turn{'s' * (solution.optimum != 1)}: {played}\n"
            f"step through it with next ▶ or play\n{how}",
            "ok",
        )
        return solution

    # ---- the picture -----------------------------------------------------------------------------
    def picture(self) -> str:
        """The SVG of the position shown, with the turn being built (its sowing, the
        destinations offered, the path chosen), else the hint, else the last turn played."""
        base = {"size": self.size, "reveal": self.reveal}
        if self.picked:
            drawn, options = self.position, self.builder.overlay()
        elif self.hint_turn:
            drawn, options = self.position, {"turn": self.hint_turn, "show": "before"}
        else:
            drawn, options = self.line[: self.index], {}
        try:
            return svg(drawn, **base, **options)
        except Exception as exc:  # an overlay failed: say so, and still show the board
            self.say(f"the picture's overlay failed ({type(exc).__name__}: {exc})", "error")
            return svg(self.position, **base)


__all__ = [
    "HINT_SECONDS",
    "METHODS",
    "SOLVE_SECONDS",
    "ExplorerSession",
    "bundled_puzzles",
]

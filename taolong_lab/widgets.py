"""The Explorer: play, step through and solve Tao Long positions in JupyterLab (ipywidgets).

>>> from taolong_lab import new_game
>>> from taolong_lab.widgets import Explorer
>>> ex = Explorer(new_game())
>>> ex.choose_space("Wa")                     # sow Water: the last stone lands on Heaven
>>> [option.label for option in ex.options()]
['a3', 'a3,a4']
>>> ex.choose("a3,a4")                        # the turn is complete: it is played
>>> ex.line, ex.index
(['Wa>He a3,a4'], 1)
>>> ex.undo(); ex.index
0

A turn is built one choice at a time, the same way whether a button is clicked or a method is
called (the buttons call the methods): a Ba Gua space to sow (:meth:`Explorer.choose_space`),
then, as the legal turns require, the drop order (Monk and later), a Focus action, the solo
opponent's tie choice, the destination (a cell, ``stay``, or the 1-life penalty) and absorb or
expel (:meth:`Explorer.choose`). Only the choices some legal turn continues with are enabled; the
others are disabled with the reason (from :meth:`State.explain_illegal`) in their tooltip. When
the choices name exactly one legal turn, it is played.

The game is a *line* of turns with a current index: :meth:`~Explorer.undo`/:meth:`~Explorer.redo`,
Prev/Next, the slider and Play move the index along the line without forgetting it; playing a
turn other than the next one of the line cuts the rest of the line. :meth:`~Explorer.hint` and
:meth:`~Explorer.solve` run a solver (solo positions) with a time limit and say which solver and
certificate they used. Messages (errors included) appear in the widget, never only in a log.

In a static view (nbconvert, GitHub) the widget falls back to the SVG of its current position
(``_repr_mimebundle_`` adds ``image/svg+xml``).
"""

from __future__ import annotations

import html
import json
import time
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import Any, NamedTuple

import ipywidgets as w

from .engine import State, Turn
from .engine.geometry import VECTORS, cell_name
from .engine.turns import Phase, space_abbrev, space_index
from .errors import TaoLongError
from .pictures import svg
from .rules.data import game_data

__all__ = ["Choice", "Explorer", "ExplorerError", "bundled_puzzles", "render_svg"]

#: Where the bundled puzzle files live (a source checkout); an installed wheel has none.
PUZZLES_DIR = Path(__file__).resolve().parents[1] / "puzzles"

_AUTO_KINDS = frozenset({"drops", "focus", "group"})  # picked for the player when forced
_KIND_TITLES = {
    "space": "sow a Ba Gua space",
    "drops": "choose the drop order",
    "focus": "choose the Focus action",
    "group": "break the opponent's tie",
    "move": "choose the destination",
    "effect": "absorb or expel",
}


class ExplorerError(TaoLongError):
    """A choice the Explorer cannot make here (the message says why)."""


class Choice(NamedTuple):
    """One option for the next choice of the turn being built."""

    kind: str  # "space", "drops", "focus", "group", "move" or "effect"
    value: Any  # hashable, compared with the legal turns
    label: str  # what the button says; :meth:`Explorer.choose` accepts it
    tooltip: str  # the same in words


# ---- rendering -------------------------------------------------------------------------------
def render_svg(state: State, **options) -> str:
    """The SVG of ``state`` (:func:`taolong_lab.pictures.svg`); ``None`` options are left out."""
    return svg(state, **{k: v for k, v in options.items() if v is not None})


# ---- puzzles ---------------------------------------------------------------------------------
def bundled_puzzles(directory: str | Path | None = None) -> dict[str, tuple[Path, str, str]]:
    """The puzzles of ``directory`` (default: the repository's ``puzzles/``) without loading
    them: ``{"file.jsonl:id": (path, id, title)}`` in file then line order."""
    folder = Path(directory) if directory is not None else PUZZLES_DIR
    found: dict[str, tuple[Path, str, str]] = {}
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("*.json*")):
        try:
            text = path.read_text(encoding="utf-8")
            docs = (
                [json.loads(line) for line in text.splitlines() if line.strip()[:1] == "{"]
                if path.suffix == ".jsonl"
                else [json.loads(text)]
            )
        except (OSError, ValueError):
            continue
        for doc in docs:
            if isinstance(doc, dict) and isinstance(doc.get("id"), str):
                found[f"{path.name}:{doc['id']}"] = (path, doc["id"], str(doc.get("title", "")))
    return found


_PUZZLE_FILES: dict[Path, dict] = {}


def _load_puzzle(path: Path, puzzle_id: str):
    from .puzzles import load_puzzles

    if path not in _PUZZLE_FILES:
        _PUZZLE_FILES[path] = {p.id: p for p in load_puzzles(path, check_solutions=False)}
    return _PUZZLE_FILES[path][puzzle_id]


# ---- turns as sequences of choices ---------------------------------------------------------
def _group_label(group) -> str:
    return Phase(0, opponent=group).group().strip()


def _move_label(phase: Phase) -> str:
    if phase.ended:
        return "game over"
    if phase.penalty:
        return "skip (-1 life)"
    if not phase.path:
        return "stay"
    return phase._replace(effect=None).execution()


def _words(phase: Phase) -> str:
    """The Matter part in words: 'stay', 'step a3 a4', 'step c3, expel'."""
    if phase.ended:
        return "the game ends before the Matter phase"
    if phase.penalty:
        return "every action is impossible: skip the Matter phase and lose 1 life"
    if not phase.path:
        return "stay"
    via = {i: f"through {cell_name(a)}-{cell_name(b)} to " for i, a, b in phase.portals}
    words = "step " + " ".join(via.get(i, "") + cell_name(c) for i, c in enumerate(phase.path))
    return words + (f", {phase.effect}" if phase.effect else "")


def _group_words(group, opponent: str) -> str:
    ring = game_data().ring
    if not group:
        return f"the {opponent} dragon does not act"
    done = ", ".join(
        f"{ring[e].title()} " + ("impossible, skipped" if a is None else _words(a))
        for e, a in group
    )
    return f"the {opponent} dragon acts: {done}"


def _choices(state: State, turn: Turn) -> list[Choice]:
    """The choices that build ``turn``, in the order the Explorer asks for them."""
    ring = game_data().ring
    opponent = "black" if state.to_move == "white" else "white"
    out = []
    for phase in turn.phases:
        name = ring[phase.space].title()
        out.append(Choice("space", phase.space, space_abbrev(phase.space), f"sow {name}"))
        if phase.drops:
            out.append(
                Choice("drops", phase.drops, phase.drops, f"drop {phase.drops} in this order")
            )
        if phase.focus:
            label = " ".join(f"{{{who}:{a.execution()}}}" for who, a in phase.focus)
            out.append(Choice("focus", phase.focus, label, f"Focus: {label}"))
        if phase.opponent is not None:
            out.append(
                Choice(
                    "group",
                    phase.opponent,
                    _group_label(phase.opponent),
                    _group_words(phase.opponent, opponent),
                )
            )
        move = (phase.path, phase.portals, phase.penalty, phase.ended)
        out.append(Choice("move", move, _move_label(phase), _words(phase._replace(effect=None))))
        if phase.effect:
            out.append(Choice("effect", phase.effect, phase.effect, phase.effect))
    return out


def _key(choice: Choice) -> tuple:
    return choice.kind, choice.value


def _set(widget, **traits) -> None:
    """Set a widget's traits, sending the changed ones to the browser in one message."""
    changed = {k: v for k, v in traits.items() if getattr(widget, k) != v}
    if not changed:
        return
    with widget.hold_sync():
        for name, value in changed.items():
            setattr(widget, name, value)


def _seconds_box(label: str, value: float, most: float, step: float, label_width: str):
    """A time limit in seconds, from 0.1 to ``most``."""
    return w.BoundedFloatText(
        value=value,
        min=0.1,
        max=most,
        step=step,
        description=label,
        layout=w.Layout(width="130px"),
        style={"description_width": label_width},
    )


# ---- the widget --------------------------------------------------------------------------------
class Explorer(w.VBox):
    """An interactive board for a position or a puzzle (a :class:`State`, a
    :class:`~taolong_lab.puzzles.Puzzle`, a TLN string, or ``None`` for the default start).

    ``line``: turns to load after the start (e.g. a solution's line), stepped through with
    Prev/Next/Play; ``size``: the board's width in pixels; ``puzzles``: the folder the puzzle
    dropdown lists (default: the repository's ``puzzles/``); ``hint_time`` and
    ``solve_time``: the solvers' time limits in seconds.
    """

    def __init__(
        self,
        position_or_puzzle: Any = None,
        *,
        line: Iterable[str | Turn] = (),
        size: int = 460,
        puzzles: str | Path | None = None,
        hint_time: float = 2.0,
        solve_time: float = 10.0,
        method: str = "explicit",
        reveal: bool = False,
    ):
        super().__init__()
        self.size = size
        self.reveal = reveal
        self.puzzle = None
        self.states: list[State] = []
        self.turns: list[Turn] = []
        self.index = 0
        self.picked: list[Choice] = []
        self.messages: list[tuple[str, str]] = []  # (level, text), oldest first
        self.solution = None  # the last Solution from hint() or solve()
        self.hint_turn: str | None = None
        self._syncing = False
        self._seq_cache: tuple[State, list] | None = None
        self._build(puzzles, hint_time, solve_time, method)
        self.load(position_or_puzzle, line=line, quiet=True)

    # ---- layout ------------------------------------------------------------------------------
    def _build(self, puzzles, hint_time, solve_time, method) -> None:
        self.add_class("taolong-explorer")
        btn = w.Layout(width="auto", min_width="44px")
        self.board = w.HTML(layout=w.Layout(min_width=f"{self.size}px"))
        self.board.add_class("taolong-board")
        self.status = w.HTML()
        self.status.add_class("taolong-status")

        ring = game_data().ring
        self.space_buttons: list[w.Button] = []
        for i, name in enumerate(ring):
            b = w.Button(description=space_abbrev(i), tooltip=name.title(), layout=btn)
            b.add_class("taolong-space")
            b.add_class(f"taolong-space-{space_abbrev(i)}")
            b.on_click(self._on_space(i))
            self.space_buttons.append(b)
        self.choice_buttons: list[w.Button] = []
        self.choice_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.effect_buttons = {}
        for effect, label in (("absorb", "absorb +"), ("expel", "expel x")):
            b = w.Button(description=label, layout=btn)
            b.add_class("taolong-effect")
            b.on_click(self._guarded(lambda _b, e=effect: self.choose(e)))
            self.effect_buttons[effect] = b
        self.cancel_button = self._button("cancel", "forget the choices of this turn", "cancel")

        self.undo_button = self._button("↶ undo", "take back the last turn", "undo")
        self.redo_button = self._button("↷ redo", "replay the next turn of the line", "redo")
        self.hint_button = self._button("hint", "best next turn (solver, time-limited)", "hint")
        self.solve_button = self._button("solve", "the whole winning line (solver)", "solve")
        self.method = w.Dropdown(
            options=["explicit", "sat"],
            value=method,
            description="solver",
            layout=w.Layout(width="150px"),
            style={"description_width": "42px"},
        )
        self.hint_time = _seconds_box("hint s", hint_time, 600, 0.5, "42px")
        self.solve_time = _seconds_box("solve s", solve_time, 3600, 1, "48px")

        self.prev_button = self._button("◀ prev", "previous position of the line", "prev")
        self.next_button = self._button("next ▶", "next position of the line", "next")
        self.play_widget = w.Play(min=0, max=0, step=1, interval=900, description="play")
        # continuous_update=False: with True the browser's slider reports its *old* value
        # while it redraws for a new max, and that stale value would move the position back
        # when turns are played in quick succession (seen in the browser test).
        self.slider = w.IntSlider(min=0, max=0, description="turn", continuous_update=False)
        # Linked in the kernel, not with jslink: a link in the browser sends its own copy of
        # every value the kernel sets back to the kernel, a stale one when turns are played
        # in quick succession, which would move the position back.
        self.play_widget.observe(self._on_play, "value")
        self.slider.observe(self._on_slider, "value")
        self.moves = w.HTML()
        self.moves.add_class("taolong-moves")
        self.message_area = w.HTML()
        self.message_area.add_class("taolong-messages")

        self.catalogue = bundled_puzzles(puzzles)
        self.puzzle_menu = w.Dropdown(
            options=[("(this position)", "")] + [(key, key) for key in self.catalogue],
            value="",
            description="puzzle",
            layout=w.Layout(width="340px"),
            style={"description_width": "48px"},
        )
        self.puzzle_menu.observe(self._on_puzzle, "value")

        small = w.Layout(margin="2px 0")
        controls = w.VBox(
            [
                self.status,
                w.HTML("<b>Ba Gua</b>", layout=small),
                w.HBox(self.space_buttons, layout=w.Layout(flex_flow="row wrap")),
                w.HTML("<b>then</b>", layout=small),
                self.choice_box,
                w.HBox([*self.effect_buttons.values(), self.cancel_button]),
                w.HBox([self.undo_button, self.redo_button, self.hint_button, self.solve_button]),
                w.HBox([self.method, self.hint_time, self.solve_time]),
                w.HBox([self.prev_button, self.play_widget, self.next_button]),
                self.slider,
                self.moves,
            ],
            layout=w.Layout(width="440px", margin="0 0 0 8px"),
        )
        self.children = [
            self.puzzle_menu,
            w.HBox([self.board, controls], layout=w.Layout(flex_flow="row wrap")),
            self.message_area,
        ]

    def _button(self, label: str, tooltip: str, action: str) -> w.Button:
        """A button that calls the method named ``action`` (looked up at click time)."""
        b = w.Button(description=label, tooltip=tooltip, layout=w.Layout(width="auto"))
        b.on_click(self._guarded(lambda _b: getattr(self, action)()))
        return b

    # ---- errors: shown in the widget ---------------------------------------------------------
    def _guarded(self, handler):
        """A button callback that shows any error in the message area (ipywidgets would
        otherwise drop it into the kernel's log)."""

        def run(button):
            try:
                handler(button)
            except ExplorerError:
                pass  # already shown by the method that raised it
            except TaoLongError as exc:
                self.say(str(exc), "error")
            except Exception as exc:  # a bug: show the traceback where the user is looking
                tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
                self.say(f"{type(exc).__name__}: {exc}\n{tb[-2000:]}", "error")

        return run

    def _on_space(self, i: int):
        return self._guarded(lambda _b: self.choose_space(i))

    def _fail(self, text: str):
        self.say(text, "error")
        raise ExplorerError(text)

    def say(self, text: str, level: str = "info") -> None:
        """Add a message (``"info"``, ``"ok"``, ``"error"``) to the message area."""
        self.messages.append((level, text))
        del self.messages[:-8]
        colours = {"error": "#a11", "ok": "#175", "info": "#333"}
        items = []
        for lvl, txt in reversed(self.messages[-4:]):
            css = f"color:{colours.get(lvl, '#333')};margin:2px 0;white-space:pre-wrap"
            items.append(f'<div class="taolong-msg {lvl}" style="{css}">{html.escape(txt)}</div>')
        self.message_area.value = "".join(items)

    @property
    def message(self) -> str:
        """The latest message ("" if none)."""
        return self.messages[-1][1] if self.messages else ""

    # ---- the game ----------------------------------------------------------------------------
    @property
    def position(self) -> State:
        """The position shown."""
        return self.states[self.index]

    @property
    def line(self) -> list[str]:
        """The turns of the line, in notation (those after :attr:`index` can be redone)."""
        return [str(t) for t in self.turns]

    def load(self, position_or_puzzle: Any = None, *, line: Iterable = (), quiet=False) -> None:
        """Start over from a position, a puzzle, or a TLN string, with an optional line."""
        from .puzzles import Puzzle

        item = position_or_puzzle
        self.puzzle = None
        if item is None:
            from . import new_game

            start = new_game()
        elif isinstance(item, State):
            start = item
        elif isinstance(item, Puzzle):
            self.puzzle, start = item, item.start
        elif isinstance(item, str):
            try:
                start = State.from_tln(item)
            except TaoLongError as exc:
                self._fail(f"cannot read the position: {exc}")
        else:
            self._fail(f"Explorer needs a State, a Puzzle or a TLN string, not {item!r}")
        self.states, self.turns, self.index, self.picked = [start], [], 0, []
        self.solution, self.hint_turn = None, None
        state = start
        for text in line:
            try:
                turn = state.parse_turn(text)
            except TaoLongError as exc:
                self._refresh()
                self._fail(f"the line stops at turn {len(self.turns) + 1}: {exc}")
            state = state.play(turn)
            self.turns.append(turn)
            self.states.append(state)
        self._syncing = True
        try:
            key = ""
            if self.puzzle is not None:
                key = next(
                    (k for k, (_p, pid, _t) in self.catalogue.items() if pid == self.puzzle.id),
                    "",
                )
            self.puzzle_menu.value = key
        finally:
            self._syncing = False
        if not quiet:
            name = f"puzzle {self.puzzle.id}: {self.puzzle.title}" if self.puzzle else "position"
            self.say(f"loaded the {name}", "ok")
        self._refresh()

    def load_puzzle(self, key: str) -> None:
        """Load a bundled puzzle by its dropdown key (``"file.jsonl:id"``) or its id."""
        if key not in self.catalogue:
            matches = [k for k, (_p, pid, _t) in self.catalogue.items() if pid == key]
            if not matches:
                self._fail(f"no bundled puzzle {key!r}")
            key = matches[0]
        path, pid, _title = self.catalogue[key]
        try:
            puzzle = _load_puzzle(path, pid)
        except TaoLongError as exc:
            self._fail(f"cannot load {key}: {exc}")
        self.load(puzzle)

    def _on_puzzle(self, change) -> None:
        if self._syncing or not change["new"]:
            return
        self._guarded(lambda _b: self.load_puzzle(change["new"]))(None)

    def goto(self, i: int) -> None:
        """Show the position after the first ``i`` turns of the line."""
        if not 0 <= i < len(self.states):
            self._fail(f"no position {i}: the line has positions 0 to {len(self.states) - 1}")
        if i == self.index and not self.picked:
            return
        self.index, self.picked, self.hint_turn = i, [], None
        self._refresh()

    def undo(self) -> None:
        """Take back the last turn (it stays in the line: :meth:`redo` replays it). With
        choices pending, forget them instead."""
        if self.picked:
            self.cancel()
            return
        if self.index == 0:
            self._fail("nothing to undo: this is the start of the line")
        self.goto(self.index - 1)

    def redo(self) -> None:
        """Replay the next turn of the line."""
        if self.index >= len(self.turns):
            self._fail("nothing to redo: this is the end of the line")
        self.goto(self.index + 1)

    def prev(self) -> None:
        self.undo()

    def next(self) -> None:
        self.redo()

    def cancel(self) -> None:
        """Forget the choices made for the turn being built."""
        self.picked = []
        self._refresh()

    def play(self, turn: str | Turn) -> None:
        """Play a whole turn (notation or :class:`Turn`) from the position shown."""
        try:
            parsed = self.position.parse_turn(turn)
        except TaoLongError as exc:
            self.picked = []
            self._refresh()
            self._fail(str(exc))
        self._commit(parsed)

    def _commit(self, turn: Turn) -> None:
        before = self.position
        after = before.play(turn)
        if self.index < len(self.turns) and self.turns[self.index] == turn:
            pass  # the next turn of the line: keep the rest of it
        else:
            del self.turns[self.index :]
            del self.states[self.index + 1 :]
            self.turns.append(turn)
            self.states.append(after)
        self.index += 1
        self.picked, self.hint_turn = [], None
        text = f"{before.to_move} played {turn}: {before.describe_turn(turn)}"
        sowing = "; ".join(self._sowing_words(before, turn, n) for n in range(len(turn.phases)))
        result = after.outcome()
        self.say(text + (f"\n{sowing}" if sowing else "") + (f"\n{result}" if result else ""))
        self._refresh()

    # ---- choices -----------------------------------------------------------------------------
    def _sequences(self) -> list[tuple[Turn, list[Choice]]]:
        state = self.position
        if self._seq_cache is None or self._seq_cache[0] is not state:
            seqs = [(t, _choices(state, t)) for t in state.legal_turns()]
            self._seq_cache = (state, seqs)
        return self._seq_cache[1]

    def _candidates(self, picked=None) -> list[tuple[Turn, list[Choice]]]:
        keys = [_key(c) for c in (self.picked if picked is None else picked)]
        n = len(keys)
        return [(t, s) for t, s in self._sequences() if [_key(c) for c in s[:n]] == keys]

    def options(self) -> list[Choice]:
        """The choices some legal turn continues with, in the engine's turn order."""
        n = len(self.picked)
        seen, out = set(), []
        for _t, seq in self._candidates():
            if len(seq) > n and _key(seq[n]) not in seen:
                seen.add(_key(seq[n]))
                out.append(seq[n])
        return out

    def _next_kind(self) -> str | None:
        opts = self.options()
        return opts[0].kind if opts else None

    def choose_space(self, space: int | str) -> None:
        """Sow a Ba Gua space (ring index, abbreviation or name). While the turn's choices are
        pending, picking another space of the same phase starts that phase again."""
        try:
            index = space if isinstance(space, int) else space_index(space)
        except TaoLongError as exc:
            self._fail(str(exc))
        if self.position.is_over():
            self._fail(f"the game is over ({self.position.outcome()})")
        # start the current phase again if its space was already chosen
        starts = [i for i, c in enumerate(self.picked) if c.kind == "space"]
        if self._next_kind() != "space" and starts:
            self.picked = self.picked[: starts[-1]]
        opts = {c.value: c for c in self.options() if c.kind == "space"}
        if index not in opts:
            reason = self._space_reason(index)
            self._refresh()
            self._fail(f"cannot sow {space_abbrev(index)}: {reason}")
        self._pick(opts[index])

    def choose(self, option: str | int | Choice) -> None:
        """Make the next choice: a destination (``"a3"``, ``"a3,a4"``, ``"stay"``,
        ``"skip (-1 life)"``), ``"absorb"``/``"expel"`` (or ``+``/``x``), a drop order, a
        Focus action or an opponent tie (their labels), a :class:`Choice` or an index into
        :meth:`options`. A space name sows it (as :meth:`choose_space`)."""
        opts = self.options()
        if not opts:
            what = "the game is over" if self.position.is_over() else "no choice is pending"
            self._fail(f"nothing to choose: {what}")
        if isinstance(option, Choice):
            found = [c for c in opts if _key(c) == _key(option)]
        elif isinstance(option, int):
            found = [opts[option]] if 0 <= option < len(opts) else []
        else:
            text = str(option).strip()
            aliases = {"+": "absorb", "x": "expel", "=": "stay", "-": "skip (-1 life)"}
            text = aliases.get(text, text)
            found = [c for c in opts if c.label.lower() == text.lower()]
            if not found and opts[0].kind == "move":  # a path ending on that cell
                found = [c for c in opts if c.label.split(",")[-1].endswith(text)]
                found = found if len(found) == 1 else []
            if not found and opts[0].kind != "space":
                try:
                    space = space_index(text)
                except TaoLongError:
                    space = None
                if space is not None:
                    self.choose_space(space)
                    return
        if not found:
            kind = opts[0].kind
            legal = ", ".join(c.label for c in opts)
            self._fail(f"{option!r} is not a legal choice now ({_KIND_TITLES[kind]}): {legal}")
        self._pick(found[0])

    def _pick(self, choice: Choice) -> None:
        self.picked.append(choice)
        # forced choices that are not the player's to make (a single drop order, Focus or tie)
        while True:
            opts = self.options()
            if len(opts) == 1 and opts[0].kind in _AUTO_KINDS:
                self.picked.append(opts[0])
                continue
            if len(opts) == 1 and opts[0].kind == "move" and opts[0].value[3]:  # game ended
                self.picked.append(opts[0])
                continue
            break
        done = [t for t, s in self._candidates() if len(s) == len(self.picked)]
        if done:
            self._commit(done[0])
            return
        if choice.kind == "space":
            self.say(self._prompt())
        self._refresh()

    # ---- words and reasons -------------------------------------------------------------------
    def _phase_prefix(self) -> tuple[list[Phase], int]:
        """The complete phases chosen so far and the index of the phase being built (a new
        phase when the next choice is its space)."""
        cands = self._candidates()
        spaces = sum(1 for c in self.picked if c.kind == "space")
        if not cands or spaces == 0:
            return [], 0
        number = spaces if self._next_kind() == "space" else spaces - 1
        return list(cands[0][0].phases[:number]), number

    def _space_reason(self, index: int) -> str:
        done, _n = self._phase_prefix()
        if self.position.is_over():
            return f"the game is over ({self.position.outcome()})"
        try:
            reason = self.position.explain_illegal(Turn((*done, Phase(index))))
        except Exception as exc:  # pragma: no cover - explain is best effort
            reason = f"not legal here ({exc})"
        for prefix in ("the turn: ", "phase 1: ", "phase 2: "):
            if reason.startswith(prefix):
                reason = reason[len(prefix) :]
        if "allows only" in reason or reason.startswith("no legal turn"):
            reason = f"no legal turn sows {space_abbrev(index)} now"
        return reason

    def _sowing_words(self, state: State, turn: Turn, number: int) -> str:
        """Where the stones of phase ``number`` fell and the element they name (phase 1
        exactly; a later phase when the first left the Ba Gua as plain sowing does)."""
        from .engine.core import CCW, CW, sow
        from .engine.spirit import flow_for

        bagua = state.bagua
        coin = CW if state.flux == "cw" else CCW
        for phase in turn.phases[:number]:
            bagua, element, _ = sow(
                bagua, phase.space, flow_for(bagua[phase.space], coin, state.rules.mode)
            )
            if element != phase.element:
                return ""
        phase = turn.phases[number]
        stack = bagua[phase.space]
        flow = flow_for(stack, coin, state.rules.mode)
        _after, element, _ = sow(bagua, phase.space, flow)
        if element != phase.element:
            return ""
        n = len(bagua)
        step = 1 if flow == CCW else n - 1
        colours = phase.drops or stack
        ring = game_data().ring
        falls = ", ".join(
            f"{'white' if c == 'W' else 'black'} on "
            + ring[(phase.space + step * (k + 1)) % n].title()
            for k, c in enumerate(colours)
        )
        return (
            f"sowing {ring[phase.space].title()}: {falls}; the last stone names "
            f"{ring[element].title()}"
        )

    def _prompt(self) -> str:
        """What was chosen so far and what to choose next, in words."""
        state = self.position
        cands = self._candidates()
        if not cands or not self.picked:
            return ""
        turn = cands[0][0]
        number = sum(1 for c in self.picked if c.kind == "space") - 1
        phase = turn.phases[number]
        parts = [self._sowing_words(state, turn, number)]
        if not parts[0]:
            parts = [f"sow {space_abbrev(phase.space)}: lands on {space_abbrev(phase.element)}"]
        group = [c for c in self.picked if c.kind == "group"]
        if group and group[-1].value is not None:
            parts.append(group[-1].tooltip)
        kind = self._next_kind()
        if kind:
            opts = ", ".join(c.label for c in self.options())
            parts.append(f"now {_KIND_TITLES[kind]}: {opts}")
        return "; ".join(p for p in parts if p)

    # ---- solvers -----------------------------------------------------------------------------
    def _run_solver(self, time_limit: float):
        from . import solve as solve_fn

        state = self.position
        if not state.rules.solo:
            self._fail(
                "the solvers work on solo challenges; this is a two-player position "
                "(load a puzzle from the dropdown, or use taolong_lab.graph.explore)"
            )
        if state.is_over():
            self._fail(f"the game is over ({state.outcome()})")
        method = self.method.value
        self.say(f"{method} solver running (time limit {time_limit:g} s)…")
        t0 = time.perf_counter()
        try:
            solution = solve_fn(state, method=method, time_limit=time_limit, progress=False)
        except TaoLongError as exc:
            hint = " (the SAT solver has not landed yet?)" if method == "sat" else ""
            self._fail(f"{method} solver: {exc}{hint}")
        self.solution = solution
        return solution, time.perf_counter() - t0

    def _certificate_words(self, solution, seconds: float) -> str:
        cert = solution.certificate.to_json()
        solver = cert.get("solver", self.method.value)
        method = cert.get("method", "")
        bound = cert.get("lower_bound", {})
        bound = bound.get("name", "") if isinstance(bound, dict) else str(bound)
        stats = solution.stats or {}
        bits = [f"solver {solver}" + (f" ({method})" if method else "")]
        if bound:
            bits.append(f"lower bound {bound}")
        bits.append(f"certificate: no win in fewer than {solution.proved_no_win_below} turns")
        if "expanded" in stats:
            bits.append(f"{stats['expanded']} positions expanded")
        bits.append(f"{seconds:.2f} s")
        if cert.get("stopped"):
            bits.append(f"stopped: {cert['stopped']}")
        return "; ".join(bits)

    def hint(self) -> str | None:
        """The best next turn by the solver (time-limited), with its turns-to-win; None if the
        solver found no win in time."""
        solution, seconds = self._run_solver(float(self.hint_time.value))
        how = self._certificate_words(solution, seconds)
        self.picked = []
        if solution.status == "optimal" and solution.line:
            self.hint_turn = solution.line[0]
            words = self.position.describe_turn(self.position.parse_turn(self.hint_turn))
            self.say(
                f"hint: {self.hint_turn} ({words}); win in {solution.optimum} turns\n{how}", "ok"
            )
            self._refresh()
            return self.hint_turn
        self.hint_turn = None
        if solution.status == "no-win":
            self.say(f"no win from here: every reachable position was searched\n{how}", "error")
        else:
            self.say(
                f"no win found in time; no win in fewer than {solution.proved_no_win_below} "
                f"turns\n{how}",
                "error",
            )
        self._refresh()
        return None

    def solve(self):
        """Solve from the position shown and load the winning line after it (step through it
        with Prev/Next/Play). Returns the solver's Solution."""
        solution, seconds = self._run_solver(float(self.solve_time.value))
        how = self._certificate_words(solution, seconds)
        if solution.status == "optimal":
            base = self.index
            del self.turns[base:]
            del self.states[base + 1 :]
            state = self.position
            for text in solution.line:
                turn = state.parse_turn(text)
                state = state.play(turn)
                self.turns.append(turn)
                self.states.append(state)
            self.picked, self.hint_turn = [], None
            line = " | ".join(solution.line) or "(already won)"
            self.say(
                f"solved: win in {solution.optimum} turns: {line}\nstep through it with "
                f"next ▶ or play\n{how}",
                "ok",
            )
        elif solution.status == "no-win":
            self.say(f"no win from here: every reachable position was searched\n{how}", "error")
        else:
            self.say(
                f"no win found in time; no win in fewer than {solution.proved_no_win_below} "
                f"turns\n{how}",
                "error",
            )
        self._refresh()
        return solution

    # ---- navigation widgets ------------------------------------------------------------------
    def _on_slider(self, change) -> None:
        if not self._syncing:
            self._guarded(lambda _b: self.goto(int(change["new"])))(None)

    def _on_play(self, change) -> None:
        # the Play widget's ticks (from the browser) move the slider, which moves the position
        if not self._syncing and self.slider.value != change["new"]:
            self.slider.value = change["new"]

    # ---- the view ----------------------------------------------------------------------------
    def svg(self) -> str:
        """The SVG of the position shown, with overlays: the turn being built (the sowing,
        the legal destinations, the chosen path), else the hint, else the last turn played."""
        state = self.position
        opts: dict[str, Any] = {"size": self.size, "reveal": self.reveal}
        if self.picked:
            cells = {c.value[0][-1] for c in self.options() if c.kind == "move" and c.value[0]}
            opts["destinations"] = sorted(cells) or None
            chosen = [xy for c in self.picked if c.kind == "move" for xy in c.value[0]]
            opts["highlight"] = chosen or None
            if sum(1 for c in self.picked if c.kind == "space") == 1:
                drops = [c.value for c in self.picked if c.kind == "drops"]
                opts["sow"] = space_abbrev(self.picked[0].value) + (f"/{drops[0]}" if drops else "")
        elif self.hint_turn:
            opts.update(turn=self.hint_turn, show="before")
        elif self.index > 0:
            opts.update(turn=self.turns[self.index - 1], before=self.states[self.index - 1])
        try:
            return render_svg(state, **opts)
        except Exception as exc:  # an overlay failed: say so, and still show the board
            self.say(f"the picture's overlay failed ({type(exc).__name__}: {exc})", "error")
            return svg(state, size=self.size, reveal=self.reveal)

    def _neighbours(self) -> list[tuple[int, int]]:
        state = self.position
        rows = state.layout
        height, width = len(rows), len(rows[0]) if rows else 0
        head = state.cells(state.to_move)[0] if state.dragon(state.to_move).alive else None
        if head is None:
            return []
        out = []
        for dx, dy in VECTORS:
            x, y = head[0] + dx, head[1] + dy
            if 0 <= x < width and 0 <= y < height:
                out.append((x, y))
        return out

    def _refresh(self) -> None:
        state = self.position
        opts = self.options()
        kind = opts[0].kind if opts else None
        over = state.outcome()

        # the Ba Gua buttons
        legal_spaces = {c.value: c for c in opts if c.kind == "space"}
        if kind != "space" and self.picked:  # the phase's space may be chosen again
            starts = [i for i, c in enumerate(self.picked) if c.kind == "space"]
            again = self._options_after(self.picked[: starts[-1]])
            legal_spaces = {c.value: c for c in again if c.kind == "space"}
        current = [c.value for c in self.picked if c.kind == "space"][-1:] or [None]
        bagua = self._bagua_now()
        for i, b in enumerate(self.space_buttons):
            stack = bagua[i] if i < len(bagua) else ""
            name = game_data().ring[i].title()
            legal = i in legal_spaces
            why = self._lands(i) if legal else self._space_reason(i)
            _set(
                b,
                disabled=not legal,
                tooltip=f"{name} ({stack or 'empty'}): {why}",
                button_style="info" if i == current[0] else "",
                description=f"{space_abbrev(i)} {stack}" if stack else space_abbrev(i),
            )
            _set(b.style, button_color="#f1dfb0" if legal and i != current[0] else None)

        # the choice buttons: the options of the next choice (spaces excepted), and for a
        # destination the head's other neighbours, disabled with the reason
        shown: list[tuple[Choice | None, str, str]] = []
        if kind and kind not in ("space", "effect"):
            shown = [(c, c.label, c.tooltip) for c in opts]
            if kind == "move":
                legal_ends = {c.value[0][-1] for c in opts if c.value[0]}
                for xy in self._neighbours():
                    if xy not in legal_ends:
                        shown.append((None, cell_name(xy), self._cell_reason(xy)))
        while len(self.choice_buttons) < len(shown):
            b = w.Button(layout=w.Layout(width="auto", min_width="44px"))
            b.add_class("taolong-choice")
            b.on_click(self._guarded(self._on_choice))
            self.choice_buttons.append(b)
        for b, item in zip(
            self.choice_buttons, shown + [None] * len(self.choice_buttons), strict=False
        ):
            if item is None:
                _set(b.layout, display="none")
                _set(b, disabled=True)
                b._choice = None
                continue
            choice, label, tip = item
            _set(b.layout, display=None)
            style = "success" if choice is not None else ""
            _set(b, description=label, tooltip=tip, disabled=choice is None, button_style=style)
            b._choice = choice
        if list(self.choice_box.children) != self.choice_buttons:
            self.choice_box.children = tuple(self.choice_buttons)

        # absorb / expel
        effects = {c.value for c in opts if c.kind == "effect"}
        for effect, b in self.effect_buttons.items():
            if effect in effects:
                tip = f"{effect} the element"
            elif over:
                tip = f"the game is over ({over})"
            elif kind == "effect":
                tip = f"only {', '.join(sorted(effects))} is legal here"
            else:
                tip = f"{effect} follows the step of a Fire or Water action" + (
                    "; choose a destination first" if kind == "move" else ""
                )
            _set(b, disabled=effect not in effects, tooltip=tip)
        _set(self.cancel_button, disabled=not self.picked)

        # navigation
        n = len(self.turns)
        at_start = self.index == 0 and not self.picked
        for b in (self.undo_button, self.prev_button):
            _set(b, disabled=at_start)
        for b in (self.redo_button, self.next_button):
            _set(b, disabled=self.index >= n)
        self._syncing = True
        try:
            _set(self.slider, max=n, value=self.index)
            _set(self.play_widget, max=n, value=self.index)
        finally:
            self._syncing = False
        solo = state.rules.solo
        for b, what in ((self.hint_button, "best next turn"), (self.solve_button, "the line")):
            if not solo:
                tip = "the solvers work on solo challenges"
            elif over:
                tip = f"the game is over ({over})"
            else:
                tip = f"{what} by the {self.method.value} solver"
            _set(b, disabled=not solo or over is not None, tooltip=tip)

        self.board.value = self.svg()
        self.status.value = self._status_html()
        self.moves.value = self._moves_html()

    def _bagua_now(self) -> tuple[str, ...]:
        """The Ba Gua stacks before the phase being built (after the turn's first phase when
        choosing the second; the position's stacks if that sowing cannot be replayed)."""
        from .engine.core import CCW, CW, sow
        from .engine.spirit import flow_for

        state = self.position
        done, _number = self._phase_prefix()
        bagua = state.bagua
        coin = CW if state.flux == "cw" else CCW
        for phase in done:
            flow = flow_for(bagua[phase.space], coin, state.rules.mode)
            bagua, element, _ = sow(bagua, phase.space, flow)
            if element != phase.element or phase.focus:
                return state.bagua
        return bagua

    def _lands(self, space: int) -> str:
        """'sow Heaven: the last stone lands on Fire' for a legal space of this phase."""
        ring = game_data().ring
        starts = [i for i, c in enumerate(self.picked) if c.kind == "space"]
        base = self.picked[: starts[-1]] if starts and self._next_kind() != "space" else self.picked
        n = len(base)
        for turn, seq in self._candidates(base):
            if len(seq) > n and _key(seq[n]) == ("space", space):
                number = sum(1 for c in seq[: n + 1] if c.kind == "space") - 1
                element = turn.phases[number].element
                return f"sow {ring[space].title()}: the last stone lands on {ring[element].title()}"
        return f"sow {ring[space].title()}"

    def _options_after(self, picked: list[Choice]) -> list[Choice]:
        n = len(picked)
        seen, out = set(), []
        for _t, seq in self._candidates(picked):
            if len(seq) > n and _key(seq[n]) not in seen:
                seen.add(_key(seq[n]))
                out.append(seq[n])
        return out

    def _cell_reason(self, xy: tuple[int, int]) -> str:
        """Why the head cannot go to the neighbouring cell ``xy`` now."""
        state = self.position
        opts = [c for c in self.options() if c.kind == "move"]
        cands = self._candidates()
        _done, number = self._phase_prefix()
        element = cands[0][0].phases[number].element if cands else -1
        name = game_data().ring[element].title() if element >= 0 else "this action"
        legal = ", ".join(c.label for c in opts) or "nowhere"
        why = f"{name} goes to {legal} only"
        for colour in ("white", "black"):
            cells = state.cells(colour)
            if xy in cells:
                part = "head" if cells[0] == xy else "body"
                why = f"the {colour} dragon's {part} is there; {why}"
                break
        else:
            sym = state.layout[xy[1]][xy[0]]
            tile = {"#": "a rock", "o": "a rock", "V": "the village"}.get(sym)
            if xy in state.rocks or tile:
                why = f"{tile or 'a rock'} is there; {why}"
        return f"{cell_name(xy)} is not a legal destination: {why}"

    def _status_html(self) -> str:
        state = self.position
        over = state.outcome()
        who = state.to_move
        title = ""
        if self.puzzle is not None:
            title = (
                f"<div><b>{html.escape(self.puzzle.id)}</b>: {html.escape(self.puzzle.title)}</div>"
            )
        if over:
            line = f"<b>{html.escape(str(over))}</b>"
        else:
            solo = " (solo)" if state.rules.solo else ""
            line = f"turn {state.ply + 1}: <b>{who}</b> to move{solo}"
            prompt = self._prompt()
            if prompt:
                line += f"<br><i>{html.escape(prompt)}</i>"
            elif not self.picked:
                line += "<br><i>sow a Ba Gua space</i>"
        # data-picked / data-ply let a browser test wait for each click to be taken
        return (
            f'<div class="taolong-state" data-picked="{len(self.picked)}" '
            f'data-ply="{state.ply}" style="line-height:1.35">{title}{line}</div>'
        )

    def _moves_html(self) -> str:
        if not self.turns:
            return '<div class="taolong-movelist" data-moves="0"><i>no turns yet</i></div>'
        items = []
        for i, (turn, before) in enumerate(zip(self.turns, self.states, strict=False), start=1):
            style = (
                "font-weight:bold" if i == self.index else ("color:#999" if i > self.index else "")
            )
            items.append(
                f'<li style="{style}" title="{html.escape(before.describe_turn(turn))}">'
                f"{before.to_move[0]} {html.escape(str(turn))}</li>"
            )
        return (
            f'<div class="taolong-movelist" data-moves="{len(self.turns)}" '
            f'data-index="{self.index}" style="max-height:220px;overflow-y:auto">'
            f'<ol style="margin:0;padding-left:2.2em;font-family:monospace">{"".join(items)}</ol>'
            "</div>"
        )

    def _on_choice(self, button) -> None:
        choice = getattr(button, "_choice", None)
        if choice is None:
            self._fail(f"{button.description}: {button.tooltip}")
        self.choose(choice)

    # ---- static views ------------------------------------------------------------------------
    def __repr__(self) -> str:  # the widget's own repr lists every child, the SVG included
        return f"Explorer({self.position.to_tln()!r}, turn {self.index} of {len(self.turns)})"

    def _repr_svg_(self) -> str:
        return self.svg()

    def _repr_mimebundle_(self, **kwargs):
        data = super()._repr_mimebundle_(**kwargs)
        if isinstance(data, tuple):  # (data, metadata)
            data[0]["image/svg+xml"] = self.svg()
            return data
        data = dict(data or {})
        data["image/svg+xml"] = self.svg()
        return data

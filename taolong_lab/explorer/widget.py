"""The Explorer widget: a thin ipywidgets view of an :class:`~.session.ExplorerSession`.

>>> from taolong_lab import new_game
>>> ex = Explorer(new_game())
>>> ex.choose_space("Wa")                     # sow Water: the last stone lands on Heaven
>>> [option.label for option in ex.options()]
['a3', 'a3,a4']
>>> ex.choose("a3,a4")                        # the turn is complete: it is played
>>> ex.line.notation(), ex.index
(['Wa>He a3,a4'], 1)
>>> ex.undo(); ex.index
0

The widget draws the session (the board, the buttons with their reasons in the tooltips, the
line, the messages) and forwards each click to the session's method of the same name, which
the methods here call too; errors are shown in the widget, never only in a log. The picture is
a :class:`BoardView` (anywidget): a click on a Ba Gua space or a cell goes to
:meth:`~.session.ExplorerSession.click`; the buttons stay for the keyboard. In a static
view (nbconvert, GitHub) it falls back to the SVG of its current position
(``_repr_mimebundle_`` adds ``image/svg+xml``).
"""

from __future__ import annotations

import html
import traceback
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import anywidget
import ipywidgets as w
import traitlets

from ..engine import Line, State, Turn
from ..engine.turns import space_abbrev
from ..errors import TaoLongError
from ..puzzles import Puzzle
from ..rules.data import game_data
from ..solvers import Solution
from .builder import EFFECTS, Choice, ExplorerError
from .session import HINT_SECONDS, METHODS, SOLVE_SECONDS, ExplorerSession

_MESSAGES_SHOWN = 4
_COLOURS = {"error": "#a11", "ok": "#175", "info": "#333", "prompt": "#555"}
MARK_COLOURS = {
    "best": "#2a7a3b",
    "good": "#777777",
    "inaccuracy": "#b8960c",
    "mistake": "#e07b00",
    "blunder": "#c0282d",
}
"""The colour of each class of a reviewed turn in the move list (review mode)."""


_BOARD_ESM = """
function render({ model, el }) {
  const draw = () => { el.innerHTML = model.get("value"); };
  draw();
  model.on("change:value", draw);
  el.addEventListener("click", (event) => {
    // a space or a cell may lie under a stone, a dragon or an overlay: look under the pointer
    for (const node of document.elementsFromPoint(event.clientX, event.clientY)) {
      if (!el.contains(node) || !node.closest) continue;
      const space = node.closest(".space[data-space]");
      if (space) {
        model.send({ click: "space-" + space.dataset.space });
        return;
      }
      if (node.matches("rect.cell[data-cell]")) {
        model.send({ click: "cell-" + node.dataset.cell });
        return;
      }
    }
  });
}
export default { render };
"""
_BOARD_CSS = """
.taolong-board svg { width: 100%; height: auto; display: block; }
.taolong-board .space, .taolong-board rect.cell { cursor: pointer; }
.taolong-board .space:hover circle { filter: brightness(0.93); }
"""


class BoardView(anywidget.AnyWidget):
    """The picture of the Explorer: an SVG (:attr:`value`) whose Ba Gua spaces and cells send
    their clicks to the kernel, as ``"space-He"`` or ``"cell-c3"`` (:meth:`on_click`)."""

    _esm = traitlets.Unicode(_BOARD_ESM).tag(sync=True)
    _css = traitlets.Unicode(_BOARD_CSS).tag(sync=True)
    value = traitlets.Unicode("").tag(sync=True)

    def on_click(self, callback) -> None:
        """Call ``callback(target)`` with what each click names."""

        def received(_widget, content, _buffers) -> None:
            if isinstance(content, dict) and isinstance(content.get("click"), str):
                callback(content["click"][:64])

        self.on_msg(received)


def _set(widget, **traits) -> None:
    """Set a widget's traits, sending the changed ones to the browser in one message."""
    changed = {k: v for k, v in traits.items() if getattr(widget, k) != v}
    if not changed:
        return
    with widget.hold_sync():
        for name, value in changed.items():
            setattr(widget, name, value)


def _seconds_box(label: str, value: float, bounds: tuple[float, float], step: float, width: str):
    return w.BoundedFloatText(
        value=value,
        min=bounds[0],
        max=bounds[1],
        step=step,
        description=label,
        layout=w.Layout(width="130px"),
        style={"description_width": width},
    )


class Explorer(w.VBox):
    """An interactive board for a position or a puzzle: the view of an
    :class:`~.session.ExplorerSession` (:attr:`session`), whose arguments it takes.

    The session's state (:attr:`position`, :attr:`line`, :attr:`index`, :attr:`puzzle`,
    :attr:`picked`, :attr:`messages`, ...) is read through the widget, and its actions
    (:meth:`choose_space`, :meth:`choose`, :meth:`play`, :meth:`undo`, :meth:`redo`,
    :meth:`goto`, :meth:`hint`, :meth:`solve`, ...) are the widget's methods, which redraw it.
    """

    def __init__(
        self,
        position_or_puzzle: Any = None,
        *,
        line: Iterable[str | Turn] = (),
        size: int = 720,
        puzzles: str | Path | None = None,
        hint_time: float = 2.0,
        solve_time: float = 10.0,
        method: str = "explicit",
        reveal: bool = False,
    ):
        super().__init__()
        self.session = ExplorerSession(
            position_or_puzzle,
            line=line,
            size=size,
            reveal=reveal,
            puzzles=puzzles,
            hint_time=hint_time,
            solve_time=solve_time,
            method=method,
        )
        self._syncing = False
        self.refresh_hooks: list = []  # called after each redraw (e.g. .agent_widget's)
        self.move_marks: dict[int, str] = {}  # a turn's class by its number (review mode)
        self._build()
        self.session.on_message = self._show_messages
        self._refresh()

    # ---- the session, read through the widget -------------------------------------------------
    @property
    def position(self) -> State:
        """The position shown."""
        return self.session.position

    @property
    def line(self) -> Line:
        """The line of play; the turns after :attr:`index` can be redone."""
        return self.session.line

    @property
    def index(self) -> int:
        """How many turns of the line lead to the position shown."""
        return self.session.index

    @property
    def turns(self) -> tuple[Turn, ...]:
        return self.session.line.turns

    @property
    def states(self) -> list[State]:
        return self.session.line.states()

    @property
    def puzzle(self) -> Puzzle | None:
        return self.session.puzzle

    @property
    def picked(self) -> list[Choice]:
        return self.session.picked

    @property
    def messages(self) -> list[tuple[str, str]]:
        return self.session.messages

    @property
    def message(self) -> str:
        """The latest message ("" if none)."""
        return self.session.message

    @property
    def hint_turn(self) -> str | None:
        return self.session.hint_turn

    @property
    def solution(self) -> Solution | None:
        return self.session.solution

    def options(self) -> list[Choice]:
        """The choices some legal turn continues with."""
        return self.session.options()

    def say(self, text: str, level: str = "info") -> None:
        """Add a message (``"info"``, ``"ok"``, ``"error"``)."""
        self.session.say(text, level)

    # ---- the session's actions: each redraws the widget ----------------------------------------
    def _act(self, action, *args, **kwargs):
        try:
            return action(*args, **kwargs)
        finally:
            self._refresh()

    def load(self, position_or_puzzle: Any = None, *, line: Iterable = (), quiet=False) -> None:
        """Start over from a position, a puzzle or a TLN string, with an optional line."""
        self._act(self.session.load, position_or_puzzle, line=line, quiet=quiet)

    def load_puzzle(self, key: str) -> None:
        """Load a bundled puzzle by its dropdown key (``"file.jsonl:id"``) or its id."""
        self._act(self.session.load_puzzle, key)

    def goto(self, index: int) -> None:
        """Show the position after the first ``index`` turns of the line."""
        self._act(self.session.goto, index)

    def undo(self) -> None:
        """Take back the last turn (it stays in the line); with choices pending, forget them."""
        self._act(self.session.undo)

    def redo(self) -> None:
        """Replay the next turn of the line."""
        self._act(self.session.redo)

    def prev(self) -> None:
        self.undo()

    def next(self) -> None:
        self.redo()

    def cancel(self) -> None:
        """Forget the choices made for the turn being built."""
        self._act(self.session.cancel)

    def play(self, turn: str | Turn) -> None:
        """Play a whole turn (notation or :class:`Turn`) from the position shown."""
        self._act(self.session.play, turn)

    def choose_space(self, space: int | str) -> None:
        """Sow a Ba Gua space (ring index, abbreviation or name)."""
        self._act(self.session.choose_space, space)

    def choose(self, option: str | int | Choice) -> None:
        """Make the next choice (see :meth:`~.builder.TurnBuilder.choose`)."""
        self._act(self.session.choose, option)

    def click(self, target: str) -> None:
        """A click on the picture: ``"space-He"`` or ``"cell-c3"`` (see
        :meth:`~.session.ExplorerSession.click`)."""
        self._act(self.session.click, target)

    def hint(self) -> str | None:
        """The best next turn by the solver (time-limited); None if it found no win in time."""
        return self._act(self.session.hint)

    def solve(self) -> Solution:
        """Solve from the position shown and put the winning line after it."""
        return self._act(self.session.solve)

    def svg(self) -> str:
        """The SVG of the position shown, with the turn being built, the hint or the last
        turn played."""
        return self.session.picture()

    # ---- layout ------------------------------------------------------------------------------
    def _build(self) -> None:
        """The widget tree: the puzzle menu and the messages above the board, the controls
        beside it."""
        session = self.session
        self.add_class("taolong-explorer")
        small_button = w.Layout(width="auto", min_width="44px")
        # the picture fills its box, which grows with the cell (and never shrinks below a
        # size a person clicks comfortably); the controls wrap under it in a narrow cell
        self.board = BoardView(
            layout=w.Layout(
                flex=f"1 1 {session.size}px",
                min_width=f"{min(session.size, 560)}px",
                max_width=f"{2 * session.size}px",
            )
        )
        self.board.add_class("taolong-board")
        self.board.on_click(lambda target: self._guarded(lambda _b: self.click(target))(None))
        self.status = w.HTML()
        self.status.add_class("taolong-status")

        self._build_turn_controls(small_button)
        self._build_solver_controls()
        self._build_line_controls()
        self.puzzle_menu = w.Dropdown(
            options=[("(this position)", "")] + [(key, key) for key in session.catalogue],
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
        # the newest message first, above the board: where the eye is after a click
        self.children = [
            self.puzzle_menu,
            self.message_area,
            w.HBox([self.board, controls], layout=w.Layout(flex_flow="row wrap")),
        ]

    def _build_turn_controls(self, small_button) -> None:
        """The controls of the turn being built: a button for each space, the choices, the
        effects and cancel."""
        self.space_buttons: list[w.Button] = []
        for space in range(len(game_data().ring)):
            abbrev = space_abbrev(space)
            b = w.Button(description=abbrev, layout=small_button)
            b.add_class("taolong-space")
            b.add_class(f"taolong-space-{abbrev}")
            b.on_click(self._guarded(lambda _b, s=space: self.choose_space(s)))
            self.space_buttons.append(b)
        self.choice_buttons: list[w.Button] = []
        self.choice_box = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.effect_buttons: dict[str, w.Button] = {}
        for effect, label in EFFECTS.items():
            b = w.Button(description=label, layout=small_button)
            b.add_class("taolong-effect")
            b.on_click(self._guarded(lambda _b, e=effect: self.choose(e)))
            self.effect_buttons[effect] = b
        self.cancel_button = self._button("cancel", "Forget the choices of this turn.", "cancel")

    def _build_solver_controls(self) -> None:
        """Undo, redo, the solver's hint and solution, its method and time limits."""
        session = self.session
        self.undo_button = self._button("↶ undo", "Take back the last turn.", "undo")
        self.redo_button = self._button("↷ redo", "Replay the next turn of the line.", "redo")
        self.hint_button = self._button("hint", "The best next turn, by the solver.", "hint")
        self.solve_button = self._button("solve", "The whole winning line, by the solver.", "solve")
        self.method = w.Dropdown(
            options=list(METHODS),
            value=session.method,
            description="solver",
            layout=w.Layout(width="150px"),
            style={"description_width": "42px"},
        )
        self.hint_time = _seconds_box("hint s", session.hint_time, HINT_SECONDS, 0.5, "42px")
        self.solve_time = _seconds_box("solve s", session.solve_time, SOLVE_SECONDS, 1, "48px")
        for control, name in (
            (self.method, "method"),
            (self.hint_time, "hint_time"),
            (self.solve_time, "solve_time"),
        ):
            control.observe(self._setting(name), "value")

    def _build_line_controls(self) -> None:
        """The line's controls: previous, play, next, the turn slider, the moves and the
        messages."""
        self.prev_button = self._button("◀ prev", "The previous position of the line.", "prev")
        self.next_button = self._button("next ▶", "The next position of the line.", "next")
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

    def _button(self, label: str, tooltip: str, action: str) -> w.Button:
        """A button that calls the method named ``action`` (looked up at click time)."""
        b = w.Button(description=label, tooltip=tooltip, layout=w.Layout(width="auto"))
        b.on_click(self._guarded(lambda _b: getattr(self, action)()))
        return b

    def _setting(self, name: str):
        def changed(change) -> None:
            setattr(self.session, name, change["new"])
            self._refresh()

        return changed

    # ---- clicks --------------------------------------------------------------------------------
    def _guarded(self, handler):
        """A callback that shows any error in the message area (ipywidgets would otherwise
        drop it into the kernel's log)."""

        def run(button):
            try:
                handler(button)
            except ExplorerError:
                pass  # the session has said why
            except TaoLongError as exc:
                self.say(str(exc), "error")
            except Exception as exc:  # a bug: show the traceback where the user is looking
                tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
                self.say(f"{type(exc).__name__}: {exc}\n{tb[-2000:]}", "error")

        return run

    def _on_choice(self, button) -> None:
        choice = getattr(button, "choice", None)
        if choice is None:  # a button not offered, clicked anyway (Python can): say why
            self._act(self.session.fail, f"{button.description}: {button.tooltip}")
        self.choose(choice)

    def _on_slider(self, change) -> None:
        if not self._syncing:
            self._guarded(lambda _b: self.goto(int(change["new"])))(None)

    def _on_play(self, change) -> None:
        # the Play widget's ticks (from the browser) move the slider, which moves the position
        if not self._syncing and self.slider.value != change["new"]:
            self.slider.value = change["new"]

    def _on_puzzle(self, change) -> None:
        if not self._syncing and change["new"]:
            self._guarded(lambda _b: self.load_puzzle(change["new"]))(None)

    # ---- drawing -------------------------------------------------------------------------------
    def _show_messages(self) -> None:
        """The latest messages, newest first (in bold, the older ones fainter): each one's
        first line, its details folded under it."""
        items = []
        latest = self.session.messages[-_MESSAGES_SHOWN:][::-1]
        for age, (level, text) in enumerate(latest):
            first, _, details = text.partition("\n")
            css = (
                f"color:{_COLOURS.get(level, '#333')};margin:2px 0;white-space:pre-wrap;"
                + ("font-weight:bold;font-size:1.05em" if age == 0 else "opacity:0.7")
                + (";font-style:italic" if level == "prompt" else "")
            )
            folded = (
                f"<details><summary>details</summary>{html.escape(details)}</details>"
                if details
                else ""
            )
            items.append(
                f'<div class="taolong-msg {level}" data-age="{age}" style="{css}">'
                f"{html.escape(first)}{folded}</div>"
            )
        self.message_area.value = "".join(items)

    def _refresh(self) -> None:
        session, builder = self.session, self.session.builder
        current = builder.current_space()
        for space, (b, offer) in enumerate(
            zip(self.space_buttons, builder.space_offers(), strict=True)
        ):
            offered = offer.choice is not None
            _set(
                b,
                disabled=not offered,
                tooltip=offer.tooltip,
                button_style="info" if space == current else "",
                description=offer.label,
            )
            _set(b.style, button_color="#f1dfb0" if offered and space != current else None)

        offers = builder.choice_offers()
        while len(self.choice_buttons) < len(offers):
            b = w.Button(layout=w.Layout(width="auto", min_width="44px"))
            b.add_class("taolong-choice")
            b.on_click(self._guarded(self._on_choice))
            self.choice_buttons.append(b)
        for b, offer in zip(
            self.choice_buttons, offers + [None] * len(self.choice_buttons), strict=False
        ):
            b.choice = None if offer is None else offer.choice
            if offer is None:
                _set(b.layout, display="none")
                _set(b, disabled=True)
                continue
            _set(b.layout, display=None)
            style = "success" if offer.choice is not None else ""
            _set(
                b,
                description=offer.label,
                tooltip=offer.tooltip,
                disabled=offer.choice is None,
                button_style=style,
            )
        if list(self.choice_box.children) != self.choice_buttons:
            self.choice_box.children = tuple(self.choice_buttons)

        for effect, offer in builder.effect_offers().items():
            _set(self.effect_buttons[effect], disabled=offer.choice is None, tooltip=offer.tooltip)
        _set(self.cancel_button, disabled=not builder.picked)

        last = len(session.line)
        at_start = session.index == 0 and not builder.picked
        for b in (self.undo_button, self.prev_button):
            _set(b, disabled=at_start)
        for b in (self.redo_button, self.next_button):
            _set(b, disabled=session.index >= last)
        self._syncing = True
        try:
            _set(self.slider, max=last, value=session.index)
            _set(self.play_widget, max=last, value=session.index)
            _set(self.puzzle_menu, value=session.catalogue_key())
        finally:
            self._syncing = False
        reason = session.solver_reason()
        for b, what in ((self.hint_button, "best next turn"), (self.solve_button, "the line")):
            tip = reason or f"{what} by the {session.method} solver"
            _set(b, disabled=reason is not None, tooltip=tip)

        self.board.value = self.svg()
        self.status.value = self._status_html()
        self.moves.value = self._moves_html()
        self._show_messages()
        for hook in self.refresh_hooks:
            hook()

    def _status_html(self) -> str:
        session = self.session
        state, puzzle = session.position, session.puzzle
        over = state.outcome()
        title = ""
        if puzzle is not None:
            title = f"<div><b>{html.escape(puzzle.id)}</b>: {html.escape(puzzle.title)}</div>"
        if over:
            line = f"<b>{html.escape(str(over))}</b>"
        else:
            solo = " (solo)" if state.rules.solo else ""
            line = f"turn {state.ply + 1}: <b>{state.to_move}</b> to move{solo}"
            prompt = session.builder.prompt() or "sow a Ba Gua space"
            line += f"<br><i>{html.escape(prompt)}</i>"
        # data-picked / data-ply / data-next let a browser test wait for each click to be
        # taken and see what to choose next
        return (
            f'<div class="taolong-state" data-picked="{len(session.picked)}" '
            f'data-ply="{state.ply}" data-next="{session.builder.next_kind() or ""}" '
            f'style="line-height:1.35">{title}{line}</div>'
        )

    def _moves_html(self) -> str:
        session = self.session
        if not session.line:
            return '<div class="taolong-movelist" data-moves="0"><i>no turns yet</i></div>'
        items = []
        states = session.line.states()
        for number, (turn, before) in enumerate(zip(session.line, states, strict=False), 1):
            style = (
                "font-weight:bold"
                if number == session.index
                else ("color:#999" if number > session.index else "")
            )
            mark = self.move_marks.get(number)
            data = f' data-class="{mark}"' if mark in MARK_COLOURS else ""
            sign = (
                f' <span class="taolong-mark" style="color:{MARK_COLOURS[mark]}">{mark}</span>'
                if mark in MARK_COLOURS
                else ""
            )
            items.append(
                f'<li style="{style}" title="{html.escape(before.describe_turn(turn))}"{data}>'
                f"{before.to_move[0]} {html.escape(str(turn))}{sign}</li>"
            )
        return (
            f'<div class="taolong-movelist" data-moves="{len(session.line)}" '
            f'data-index="{session.index}" style="max-height:220px;overflow-y:auto">'
            f'<ol style="margin:0;padding-left:2.2em;font-family:monospace">{"".join(items)}</ol>'
            "</div>"
        )

    # ---- static views ------------------------------------------------------------------------
    def __repr__(self) -> str:  # the widget's own repr lists every child, the SVG included
        return f"Explorer({self.position.to_tln()!r}, turn {self.index} of {len(self.line)})"

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


__all__ = ["BoardView", "Explorer"]

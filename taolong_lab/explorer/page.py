"""The Python side of the lab's web page (``make site``): the Explorer's session behind plain
JSON, for a page whose Python runs in a Web Worker (Pyodide).

A :class:`Page` holds one :class:`~.session.ExplorerSession` (the turn builder, undo and redo,
the messages, the hints) and one :class:`~.agent_panel.AgentPanel` (the computer opponent).
Every action returns :meth:`Page.view`: the picture (the lab's own SVG, as in the
notebooks), the prompt, the offers of the Ba Gua spaces, the destinations and the effects, the
move list in notation and in words, the latest messages, and the result ("you win in N turns;
the optimum is M"). A choice that cannot be made is said in the messages, never raised.

What can be opened: a rulebook challenge or a bundled puzzle (:meth:`Page.open_puzzle`, by
set and id; :meth:`Page.catalogue` lists them by scenario and tier), a start of the solo atlas
by its Ba Gua (:meth:`Page.open_atlas`), or a two-player game against AlphaBeta at a node
budget in any scenario and mode (:meth:`Page.new_game`, then :meth:`Page.respond` for the
computer's turn).

>>> page = Page()
>>> view = page.open_puzzle("rulebook", "torus-white")
>>> view["title"], view["next"], view["optimum"]
('torus-white', 'space', 5)
>>> page.click("space-He")["picked"]
1
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any, Literal

from ..engine import start_state
from ..errors import TaoLongError
from ..puzzles import bundle, load_puzzles
from ..puzzles.atlas import arrangements, atlas_id, atlas_start, lookup, parse_stacks
from ..puzzles.grade import TIERS
from ..rules import COLOURS, MODES, Rules, scenario_names
from .agent_panel import AgentPanel
from .session import ExplorerSession, advice

PageKind = Literal["position", "puzzle", "atlas", "game"]  # what the page shows

MESSAGES_SHOWN = 4
NODES = (100, 20_000)  # the computer's node budget, at least and at most
PROGRESS_SECONDS = 0.1  # the least time between two progress reports
_TIER_NAMES = tuple(name for _, name in TIERS)


def _offer(offer) -> dict:
    return {"label": offer.label, "tooltip": offer.tooltip, "enabled": offer.choice is not None}


class Page:
    """The page's state and actions, JSON in and out.

    Parameters
    ----------
    size : int
        The picture's width in pixels.
    hint_time, solve_time : float
        The explicit solver's time limits, in seconds.
    """

    def __init__(self, *, size: int = 520, hint_time: float = 20.0, solve_time: float = 600.0):
        self.session = ExplorerSession(
            None, size=size, hint_time=hint_time, solve_time=solve_time, method="explicit"
        )
        self.panel = AgentPanel(self.session, nodes=2000)
        self.kind: PageKind = "position"
        self.title = ""  # the title of a start that is no puzzle (an atlas start not proved)

    # ---- what can be opened ----------------------------------------------------------------
    def catalogue(self) -> dict:
        """The rulebook's challenges, the bundled sets by scenario and tier, the atlas's
        scenarios and Ba Gua, and the scenarios and modes of a two-player game.

        Returns
        -------
        dict
        """
        sets = bundle.sets()
        generated: dict[str, dict[str, list]] = {}
        for name in sets:
            scenario, _, tier = name.partition("-")
            if scenario in scenario_names() and tier in _TIER_NAMES:
                generated.setdefault(scenario, {})[tier] = bundle.entries(name)
        atlas = sorted(n.partition("-")[2] for n in sets if n.startswith(bundle.ATLAS + "-"))
        return {
            "rulebook": bundle.entries(bundle.RULEBOOK),
            "sets": generated,
            "tiers": list(_TIER_NAMES),
            "atlas": {"scenarios": atlas, "stacks": [".".join(s) for s in arrangements()]},
            "scenarios": list(scenario_names()),
            "modes": list(MODES),
            "colours": list(COLOURS),
            "nodes": list(NODES),
        }

    def open_puzzle(self, set_name: str, ident: str) -> dict:
        """Load a bundled puzzle, ``SET:ID``.

        Parameters
        ----------
        set_name, ident : str

        Returns
        -------
        dict
            :meth:`view`.
        """

        def load() -> None:
            found = bundle.locate(f"{set_name}:{ident}")
            if found is None:
                self.session.fail(f"no bundled set {set_name!r}")
            chosen = [p for p in load_puzzles(found[0], check_solutions=False) if p.id == ident]
            if not chosen:
                self.session.fail(f"the set {set_name} has no puzzle {ident!r}")
            self._open(chosen[0], "puzzle")

        return self._act(load)

    def open_atlas(self, scenario: str, player: str, stacks: str) -> dict:
        """Load a start of the solo atlas by its Ba Gua, as a player writes it
        (``WW.BW.BB.WB``: Heaven, Fire, Earth and Water, or a TLN Ba Gua field), with its
        proved optimum and rank when the atlas has it (:func:`~taolong_lab.puzzles.atlas.lookup`).

        Parameters
        ----------
        scenario, player, stacks : str

        Returns
        -------
        dict
            :meth:`view`.
        """

        def load() -> None:
            try:
                found = parse_stacks(stacks)
                start = atlas_start(scenario, player, found)
            except TaoLongError as exc:
                self.session.fail(str(exc))
            try:
                entry = lookup(bundle.atlas_folder(), scenario, player, found)
            except TaoLongError:
                self._open(start, "atlas")
                self.title = atlas_id(scenario, player, found)
                self.session.say(f"the atlas has not proved this start yet ({'.'.join(found)})")
                return
            self._open(entry.puzzle, "atlas")
            self.session.say(
                f"the atlas: the optimum is {entry.puzzle.optimum} turns, {entry.rank()}", "ok"
            )

        return self._act(load)

    def new_game(self, scenario: str, mode: str, colour: str, nodes: int) -> dict:
        """A two-player game from the start of ``scenario`` and ``mode``: you play ``colour``,
        the computer (AlphaBeta, ``nodes`` positions a turn) the other one.

        Parameters
        ----------
        scenario, mode, colour : str
        nodes : int
            From :data:`NODES`.

        Returns
        -------
        dict
            :meth:`view`; call :meth:`respond` while ``computer_to_move``.
        """

        def load() -> None:
            if colour not in COLOURS:
                self.session.fail(f"you play white or black, not {colour!r}")
            low, high = NODES
            if isinstance(nodes, bool) or not isinstance(nodes, int) or not low <= nodes <= high:
                self.session.fail(f"the computer's budget is {low} to {high} positions")
            try:
                start = start_state(Rules(scenario, mode))
            except TaoLongError as exc:
                self.session.fail(str(exc))
            self._open(start, "game")
            self.panel.set_budget(nodes=nodes)
            self.panel.set_computer(COLOURS[1 - COLOURS.index(colour)])

        return self._act(load)

    def _open(self, item, kind: str) -> None:
        self.panel.computer = None
        self.session.load(item)
        self.kind, self.title = kind, ""

    # ---- playing ---------------------------------------------------------------------------
    def click(self, target: str) -> dict:
        """A click on the picture: ``space-He`` or ``cell-c3``."""
        return self._act(self.session.click, str(target)[:64])

    def choose(self, label: str) -> dict:
        """A choice by its button's label (a destination, absorb, expel, a tie, ...)."""
        return self._act(self.session.choose, str(label)[:64])

    def undo(self) -> dict:
        """Take back the last turn (against the computer, back to your own turn)."""

        def back() -> None:
            if self.session.index and not self.can_undo():
                self.session.fail("nothing to undo: the computer's opening turn is not yours")
            self.session.undo()
            if self.panel.computer == self.session.position.to_move and self.session.index:
                self.session.undo()

        return self._act(back)

    def can_undo(self) -> bool:
        """Whether :meth:`undo` has something to take back: a choice of the turn being built, or
        a turn of the line played, other than the computer's opening turn when it moves first."""
        session = self.session
        first = session.line.start.to_move == self.panel.computer
        return bool(session.picked) or session.index > (1 if first else 0)

    def redo(self) -> dict:
        """Replay the next turn of the line."""
        return self._act(self.session.redo)

    def cancel(self) -> dict:
        """Forget the choices of the turn being built."""
        return self._act(self.session.cancel)

    def respond(self) -> dict:
        """The computer plays its turn when it is to move."""
        return self._act(self.panel.respond)

    def hint(self) -> dict:
        """The best next turn: the puzzle's stored line first, else the explicit solver."""
        return self._act(self.session.hint)

    def solve(self, report: Callable[[dict], Any] | None = None) -> dict:
        """Solve from the position shown and put the line after it, reporting to ``report``
        (a dict a report, at most every :data:`PROGRESS_SECONDS`) as the search goes."""
        return self._act(self.session.solve, _throttled(report) if report else False)

    def _act(self, action, *args) -> dict:
        try:
            action(*args)
        except TaoLongError as exc:
            if not self.session.messages or self.session.message != str(exc):
                self.session.say(str(exc), "error")
        return self.view()

    # ---- what the page shows ---------------------------------------------------------------
    def view(self) -> dict:
        """Everything the page draws, as plain JSON data.

        Returns
        -------
        dict
        """
        session, builder = self.session, self.session.builder
        state, puzzle = session.position, session.puzzle
        over = state.outcome()
        return {
            "kind": self.kind,
            "svg": session.picture(),
            "title": puzzle.id if puzzle else self.title,
            "subtitle": puzzle.title if puzzle else _describe(state),
            "optimum": puzzle.optimum if puzzle else None,
            "solo": state.rules.solo,
            "to_move": state.to_move,
            "ply": state.ply,
            "over": str(over) if over else "",
            "prompt": "" if over else builder.prompt() or "sow a Ba Gua space",
            "next": builder.next_kind() or "",
            "picked": len(session.picked),
            "index": session.index,
            "can_undo": self.can_undo(),
            "length": len(session.line),
            "moves": self._moves(),
            "spaces": [_offer(o) for o in builder.space_offers()],
            "choices": [_offer(o) for o in builder.choice_offers()],
            "effects": [
                {"name": name, **_offer(offer)} for name, offer in builder.effect_offers().items()
            ],
            "messages": [
                {"level": level, "text": text} for level, text in session.messages[-MESSAGES_SHOWN:]
            ],
            "solver": session.solver_reason() or "",
            "result": self.result(),
            "computer": self.panel.computer or "",
            "computer_to_move": self.panel.computer_to_move(),
        }

    def _moves(self) -> list[dict]:
        line = self.session.line
        states = line.states()
        return [
            {
                "number": number,
                "colour": before.to_move,
                "notation": str(turn),
                "words": before.describe_turn(turn),
                "advice": advice(turn),
                "played": number <= self.session.index,
            }
            for number, (turn, before) in enumerate(zip(line, states, strict=False), 1)
        ]

    def result(self) -> str:
        """How the game shown ended, for the player: "you win in N turns; the optimum is M"
        for a solo challenge won from its start ("" while it goes on)."""
        state, puzzle = self.session.position, self.session.puzzle
        over = state.outcome()
        if over is None:
            return ""
        if not state.rules.solo:
            who = "you" if over.winner != self.panel.computer else "the computer"
            return f"{over}: {who} won" if self.panel.computer else str(over)
        player = puzzle.player if puzzle else self.session.line.start.to_move
        if over.winner != player:
            return f"you lose: {over}"
        turns = self.session.index
        words = f"you win in {turns} turn{'s' * (turns != 1)}"
        if puzzle is None or puzzle.optimum is None:
            return words + "; the optimum is not proved for this start"
        return words + f"; the optimum is {puzzle.optimum}"


def _describe(state) -> str:
    rules = state.rules
    return f"{rules.scenario.title()}, {rules.mode}: a two-player game"


def _throttled(report: Callable[[dict], Any]) -> Callable[[dict], None]:
    """``report``, called at most every :data:`PROGRESS_SECONDS` (and at each new stage)."""
    last = {"at": 0.0, "stage": None}

    def send(progress: dict) -> None:
        now = time.monotonic()
        if progress.get("stage") != last["stage"] or now - last["at"] >= PROGRESS_SECONDS:
            last["at"], last["stage"] = now, progress.get("stage")
            report(dict(progress))

    return send


ACTIONS = frozenset(
    {
        "catalogue",
        "open_puzzle",
        "open_atlas",
        "new_game",
        "click",
        "choose",
        "undo",
        "redo",
        "cancel",
        "respond",
        "hint",
        "solve",
        "view",
    }
)
MAX_REQUEST = 1 << 12  # characters of a request's arguments


def dispatch(page: Page, name: str, arguments: str, report=None) -> str:
    """One request of the page's JavaScript: an action of :data:`ACTIONS` and its arguments,
    both as JSON text; the answer as JSON text (``{"error": ...}`` for a bad request).

    Parameters
    ----------
    page : Page
    name : str
    arguments : str
        A JSON list.
    report : callable or None
        ``solve``'s progress, given JSON text.

    Returns
    -------
    str

    >>> print(dispatch(Page(), "nope", "[]"))
    {"error": "no action 'nope'"}
    """
    if name not in ACTIONS:
        return json.dumps({"error": f"no action {str(name)[:40]!r}"})
    try:
        args = json.loads(arguments) if len(arguments) <= MAX_REQUEST else None
    except ValueError:
        args = None
    if not isinstance(args, list):
        return json.dumps({"error": f"{name}: the arguments are not a short JSON list"})
    if name == "solve":
        return json.dumps(page.solve(None if report is None else lambda d: report(json.dumps(d))))
    try:
        return json.dumps(getattr(page, name)(*args))
    except TypeError as exc:  # a wrong number of arguments
        return json.dumps({"error": f"{name}: {exc}"})


__all__ = ["ACTIONS", "MESSAGES_SHOWN", "NODES", "PROGRESS_SECONDS", "Page", "dispatch"]

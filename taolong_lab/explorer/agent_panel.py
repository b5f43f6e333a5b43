"""The Explorer's computer opponent and analysis in the two-player game, with no view: an
evaluation bar, the best line, "computer plays white/black", and game records replayed.

An :class:`AgentPanel` works on an :class:`~.session.ExplorerSession`, whose positions are the
engine's; it puts each behind the game protocol (a :class:`~taolong_lab.games.TaoLongState`)
for the agents. :meth:`~AgentPanel.analyse` runs :func:`taolong_lab.agents.analyse` on the
position shown within its budget;
:meth:`~AgentPanel.bar` is the first player's share of the bar (0 to 1: the score squashed by
the game's scale, 1 or 0 for a proved result); :meth:`~AgentPanel.respond` lets the computer
play its colour when that colour is to move at the end of the line (the widget calls it after
each turn of the person); :meth:`~AgentPanel.load_record` loads a game record's moves.
The thin ipywidgets view is :mod:`.agent_widget`.

>>> from taolong_lab import new_game
>>> from .session import ExplorerSession
>>> session = ExplorerSession(new_game())
>>> panel = AgentPanel(session, nodes=300)
>>> panel.set_computer("black")
>>> session.play("Wa>He a3,a4")
>>> turn = panel.respond()                     # black answers
>>> len(session.line), session.position.to_move
(2, 'white')
>>> isinstance(panel.analyse(), float), 0.0 <= panel.bar() <= 1.0
(True, True)
"""

from __future__ import annotations

import math
from pathlib import Path

from ..agents import AlphaBetaAgent, Analysis, GameRecord, analyse, load_records
from ..agents.scoring import evaluation_for
from ..engine import Line, Turn
from ..errors import TaoLongError
from ..games import GameState, as_line
from ..rules import COLOURS
from ..rules.data import shown
from .builder import ExplorerError
from .game_play import behind_protocol
from .session import ExplorerSession

AGENT_SECONDS = (0.05, 600.0)
"""The least and the most seconds a move or an analysis may take."""


def check_budget(nodes, time_limit, default=None) -> tuple[int | None, float | None]:
    """The budget of a move or an analysis, checked: positions and/or seconds (at least one).

    Parameters
    ----------
    nodes, time_limit : int, float or None
        The positions searched and the seconds.
    default : tuple or None
        The ``(nodes, time_limit)`` taken when both are None (without one, that is an error).

    Returns
    -------
    tuple of (int or None, float or None)

    Raises
    ------
    ExplorerError
        A budget out of range, named.
    """
    if nodes is None and time_limit is None:
        if default is None:
            raise ExplorerError("the computer needs a budget: nodes= or time_limit=")
        nodes, time_limit = default
    if nodes is not None and (
        isinstance(nodes, bool) or not isinstance(nodes, int) or not 1 <= nodes <= 10**8
    ):
        raise ExplorerError(f"nodes: a whole number from 1 to 100,000,000, not {shown(nodes)}")
    low, high = AGENT_SECONDS
    if time_limit is not None and (
        isinstance(time_limit, bool)
        or not isinstance(time_limit, int | float)
        or not low <= time_limit <= high
    ):
        raise ExplorerError(f"time_limit: seconds from {low} to {high}, not {shown(time_limit)}")
    return nodes, time_limit


def first_player_share(found: Analysis | None, state: GameState | None) -> float:
    """The first side's share of an evaluation bar (white's in Tao Long): 0.5 without an
    analysis, 1 or 0 for a proved result, else the score squashed by the game's scale.

    Parameters
    ----------
    found : Analysis or None
        The analysis of ``state``.
    state : GameState or None
        The position analysed.

    Returns
    -------
    float
        From 0 to 1.

    >>> first_player_share(None, None)
    0.5
    """
    if found is None:
        return 0.5
    if found.proved is not None:
        won = (found.proved == "win") == (state.side_to_move() == 0)
        return 1.0 if won else 0.0
    scale = evaluation_for(state).scale
    return 1.0 / (1.0 + math.exp(-max(-700.0, min(700.0, found.white_score / scale))))


def bar_html(share: float) -> str:
    """An evaluation bar in HTML: white's share (0 to 1) light, the rest dark.

    >>> 'data-share="0.2500"' in bar_html(0.25)
    True
    """
    white = f"{100 * share:.1f}%"
    return (
        f'<div data-share="{share:.4f}" title="white {white}" style="display:flex;'
        'width:400px;height:14px;border:1px solid #555">'
        f'<div style="width:{white};background:#f4f1e8"></div>'
        '<div style="flex:1;background:#333"></div></div>'
    )


class SearchPanel:
    """What the Explorer's computer panels share: a session, the budget of each search, a
    seed, and a Tao Long game record loaded into the session.

    Parameters
    ----------
    session : ExplorerSession
        The session the panel works on.
    nodes, time_limit : int, float or None
        The budget of each search (default :attr:`DEFAULT_BUDGET`, as ``(nodes,
        time_limit)``).
    seed : int
        The searches' seed.

    Raises
    ------
    ExplorerError
        A bad budget, named.
    """

    DEFAULT_BUDGET: tuple[int | None, float | None] = (None, 2.0)

    def __init__(
        self,
        session: ExplorerSession,
        *,
        nodes: int | None = None,
        time_limit: float | None = None,
        seed: int = 0,
    ):
        self.session = session
        self.nodes, self.time_limit = check_budget(nodes, time_limit, self.DEFAULT_BUDGET)
        self.seed = seed

    def set_budget(self, nodes=None, time_limit=None) -> None:
        """Change the budget of the searches."""
        self.nodes, self.time_limit = check_budget(nodes, time_limit)

    def _record_line(self, record, which: int | str) -> tuple[GameRecord, Line]:
        """``record`` (a :class:`~taolong_lab.agents.GameRecord`, or a ``.jsonl`` file of which
        the record at index ``which`` or with that id) and its line, a Tao Long game's; fails
        in the session when a file does not read, a record is not found or it is another
        game's."""
        if not isinstance(record, GameRecord):
            try:
                records = load_records(Path(record))
            except TaoLongError as exc:
                self.session.fail(f"cannot read the record: {exc}")
            chosen = [r for i, r in enumerate(records) if which in (i, r.id)]
            if not chosen:
                self.session.fail(f"{record}: no record {shown(which)} (0 to {len(records) - 1})")
            record = chosen[0]
        try:
            return record, as_line(record.trajectory())
        except TaoLongError:
            self.session.fail(f"the Explorer plays Tao Long, not {record.start.game.title}")


class AgentPanel(SearchPanel):
    """The computer and the analysis of an Explorer session.

    Parameters
    ----------
    session, nodes, time_limit, seed
        As :class:`SearchPanel` takes them; the budget of each computer move and each
        analysis is 2 seconds by default.

    Raises
    ------
    ExplorerError
        A bad budget, named.
    """

    computer: str | None = None  # the colour the computer plays
    analysis: Analysis | None = None
    _analysed = None  # the position the analysis is of

    def set_computer(self, colour: str | None) -> None:
        """The colour the computer plays (``"white"``, ``"black"``) or None (nobody).

        Raises
        ------
        ExplorerError
            Not a colour.
        """
        if colour is not None and colour not in COLOURS:
            self.session.fail(f"the computer plays white, black or None, not {shown(colour)}")
        self.computer = colour
        if colour is not None:
            self.session.say(f"the computer plays {colour}")

    def agent(self) -> AlphaBetaAgent:
        return AlphaBetaAgent(nodes=self.nodes, time_limit=self.time_limit, seed=self.seed)

    def computer_to_move(self) -> bool:
        """Whether the computer's colour is to move at the end of the line (two-player game)."""
        state, session = self.session.position, self.session
        return (
            self.computer is not None
            and not state.rules.solo
            and not state.is_over()
            and session.index == len(session.line)
            and not session.picked
            and state.to_move == self.computer
        )

    def respond(self) -> Turn | None:
        """The computer plays its turn when it is to move (else nothing); returns it."""
        if not self.computer_to_move():
            return None
        turn = self.agent().choose(behind_protocol(self.session.position))
        self.session.play(turn)
        return turn

    # ---- analysis --------------------------------------------------------------------------
    def analyse(self) -> float:
        """Analyse the position shown within the budget; say the result. Returns the score
        from white's side (the first player's).

        Raises
        ------
        ExplorerError
            The position cannot be analysed (e.g. the game is over), with the reason.
        """
        state = self.session.position
        try:
            found = analyse(behind_protocol(state), nodes=self.nodes, time_limit=self.time_limit)
        except TaoLongError as exc:
            self.session.fail(f"cannot analyse: {exc}")
        self.analysis, self._analysed = found, state
        self.session.say(f"analysis: {self.summary()}", "ok")
        return found.white_score

    def current(self) -> Analysis | None:
        """The analysis of the position shown, or None when it is of another one."""
        return self.analysis if self._analysed == self.session.position else None

    def bar(self) -> float:
        """White's share of the evaluation bar, from 0 to 1 (0.5 without an analysis of the
        position shown)."""
        return first_player_share(self.current(), behind_protocol(self.session.position))

    def summary(self) -> str:
        """The analysis of the position shown in words: the score or the proof, and the best
        line ("" without one)."""
        found = self.current()
        if found is None:
            return ""
        if found.proved:
            verb = "wins" if found.proved == "win" else "loses"
            head = f"{found.player} {verb} in {found.plies}"
        else:
            head = f"{found.white_score:+.1f} for white"
        return f"{head} (depth {found.depth}): {found.line.text() or '(no turn)'}"

    def best_line(self) -> list[str]:
        """The principal variation of the analysis of the position shown, in notation."""
        found = self.current()
        return [] if found is None else list(found.line.notation())

    # ---- records ---------------------------------------------------------------------------
    def load_record(self, record, which: int | str = 0) -> GameRecord:
        """Load a Tao Long game record into the session: its start and its moves (the line),
        at the start. ``record``: a :class:`~taolong_lab.agents.GameRecord` or a ``.jsonl``
        file, of which the record at index ``which`` or with that id.

        Raises
        ------
        ExplorerError
            A file that does not read, a record not found, or not a Tao Long game.
        """
        record, line = self._record_line(record, which)
        self.session.load(line.start, line=line.turns, quiet=True)
        players = ", ".join(f"{s}: {p}" for s, p in zip(record.sides, record.players, strict=True))
        self.session.say(f"loaded a game of {record.date} ({players}): {record.reason}", "ok")
        return record


__all__ = [
    "AGENT_SECONDS",
    "AgentPanel",
    "SearchPanel",
    "bar_html",
    "check_budget",
    "first_player_share",
]

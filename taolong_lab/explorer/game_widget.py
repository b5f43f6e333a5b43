"""A widget for any game of the protocol: a thin ipywidgets view of a
:class:`~.game_play.GamePlay`, how the registry's games are played in a notebook.

It shows the position's picture (``state.svg()``; in a game with hidden information, what the
person's side sees), the legal actions as buttons (a dropdown when there are many), a button
that draws the chance outcome by the seed, an agent or a person for each side, and undo.
Agents play as soon as it is their turn.

>>> from taolong_lab.games import game
>>> gw = GameWidget(game("taolong").new(), agents={1: "greedy"}, nodes=200)
>>> gw.act("Wa>He a3,a4")                      # black (greedy) answers at once
>>> len(gw.play.actions), gw.play.human_to_move()
(2, True)
>>> gw.undo(); len(gw.play.actions)
0
"""

from __future__ import annotations

import html
import traceback

import ipywidgets as w

from ..errors import TaoLongError
from ..games import CHANCE, game
from ..markup import escape
from .agent_panel import check_budget
from .game_play import PERSON, GamePlay, agent_names, make_agent

MAX_BUTTONS = 16
"""Up to this many legal actions are buttons; more are a dropdown."""


class GameWidget(w.VBox):
    """Play a game of the protocol in a notebook.

    Parameters
    ----------
    start : GameState, taolong_lab.State or str
        The start position, or a registered game's name (its default start).
    agents : dict
        Player number -> agent name (:func:`~.game_play.agent_names`); the other sides are people.
    nodes, time_limit : int, float or None
        The search agents' budget a move (default: 2000 positions).
    seed : int
        The seed of the agents and of the chance outcomes.
    """

    def __init__(self, start, *, agents=None, nodes=None, time_limit=None, seed: int = 0):
        super().__init__()
        if isinstance(start, str):
            start = game(start).new()
        self.nodes, self.time_limit = check_budget(nodes, time_limit, (2000, None))
        self.play = GamePlay(start, seed=seed)
        self.message = w.HTML()
        names = self.play.start.player_names()
        self.seat_menus = []
        for player, name in enumerate(names):
            menu = w.Dropdown(options=agent_names(), value=PERSON, description=name)
            menu.observe(lambda change, p=player: self._on_seat(p, change["new"]), "value")
            self.seat_menus.append(menu)
        for player, agent in (agents or {}).items():
            self.seat_menus[player].value = agent
        self.picture = w.HTML()
        self.status = w.HTML()
        self.buttons = w.HBox(layout=w.Layout(flex_flow="row wrap"))
        self.menu = w.Dropdown(description="action")
        self.menu_button = w.Button(description="play")
        self.menu_button.on_click(self._guarded(lambda _b: self.act(self.menu.value)))
        self.seed_box = w.BoundedIntText(value=seed, min=0, max=2**62, description="seed")
        self.seed_box.observe(
            self._guarded(lambda change: self.play.set_seed(change["new"])), "value"
        )
        self.draw_button = w.Button(description="draw chance", tooltip="by the seed")
        self.draw_button.on_click(self._guarded(lambda _b: self.draw()))
        self.undo_button = w.Button(description="↶ undo")
        self.undo_button.on_click(self._guarded(lambda _b: self.undo()))
        self.children = [
            w.HBox(self.seat_menus, layout=w.Layout(flex_flow="row wrap")),
            self.picture,
            self.status,
            self.buttons,
            w.HBox([self.menu, self.menu_button]),
            w.HBox([self.seed_box, self.draw_button, self.undo_button]),
            self.message,
        ]
        self._refresh()

    # ---- actions (also what the buttons call) ----------------------------------------------
    def act(self, entry) -> None:
        """A person's action (its notation, a number from 1, or the action); the agents
        answer."""
        self.play.play(entry)
        self._answer()

    def draw(self) -> None:
        """Draw the chance outcome by the seed; the agents answer."""
        self.play.draw()
        self._answer()

    def undo(self) -> None:
        """Take back the last person's action (and what answered it)."""
        self.play.undo()
        self._refresh()

    def _answer(self) -> None:
        if self.play.humans():  # agents alone wait for the draw button
            for _ in self.play.advance(chance=False):
                pass
        self._refresh()

    def _on_seat(self, player: int, name: str) -> None:
        def change(_b):
            agent = make_agent(name, self.nodes, self.time_limit, self.play.seed)
            self.play.set_seat(player, agent)
            self._answer()

        self._guarded(change)(None)

    def _guarded(self, handler):
        def run(arg):
            try:
                handler(arg)
                self.message.value = ""
            except TaoLongError as exc:
                self.message.value = f'<span style="color:#a11">{html.escape(str(exc))}</span>'
                self._refresh()
            except Exception as exc:  # a bug: show it where the user looks
                tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
                self.message.value = f"<pre>{html.escape(tb[-2000:])}</pre>"

        return run

    # ---- drawing ---------------------------------------------------------------------------
    def svg(self) -> str:
        """The picture shown: the position's, or the person's view when it hides cards."""
        play = self.play
        if play.hidden() and not play.state.is_terminal() and play.viewer() is not None:
            lines = play.view().splitlines() or [""]
            rows = "".join(
                f'<text x="8" y="{18 * (i + 1)}">{escape(line)}</text>'
                for i, line in enumerate(lines)
            )
            return (
                '<svg xmlns="http://www.w3.org/2000/svg" width="480" '
                f'height="{18 * len(lines) + 10}" font-family="monospace">{rows}</svg>'
            )
        return play.state.svg()

    def _refresh(self) -> None:
        play, state = self.play, self.play.state
        if not hasattr(self, "picture"):
            return
        self.picture.value = self.svg()
        player = state.current_player()
        if play.over():
            status = f"<b>{html.escape(play.result())}</b>"
        elif player == CHANCE:
            status = "chance: draw it"
        else:
            status = f"<b>{html.escape(play.player_name(player))}</b> to move"
        self.status.value = f'<div data-actions="{len(play.actions)}">{status}</div>'
        legal = state.legal_actions() if play.human_to_move() else []
        buttons = []
        if len(legal) <= MAX_BUTTONS:
            for action in legal:
                b = w.Button(description=str(action), layout=w.Layout(width="auto"))
                b.on_click(self._guarded(lambda _b, a=action: self.act(a)))
                buttons.append(b)
        self.buttons.children = buttons
        many = len(legal) > MAX_BUTTONS
        self.menu.options = [(str(a), str(i + 1)) for i, a in enumerate(legal)] if many else []
        self.menu.layout.display = None if many else "none"
        self.menu_button.layout.display = None if many else "none"
        self.draw_button.disabled = play.over() or player != CHANCE
        self.undo_button.disabled = not play.actions

    def _repr_svg_(self) -> str:
        return self.svg()

    def __repr__(self) -> str:
        return f"GameWidget({self.play.start.game.name}, {len(self.play.actions)} actions)"


__all__ = ["MAX_BUTTONS", "GameWidget"]

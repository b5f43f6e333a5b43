"""A game of any registered game played by people and agents, with no view: the headless core
of ``taolong play --vs`` / ``--game`` and of :class:`~.game_widget.GameWidget`.

A :class:`GamePlay` holds the start position, the actions played (chance outcomes included)
and one seat a player: ``None`` for a person, or an agent. Chance outcomes are drawn by their
probabilities from a random source seeded by the game's seed and the number of actions played,
so undoing and playing again draws the same outcome. What a person is shown is what its side
sees (:meth:`GamePlay.view`): in a game with hidden information, its observation.

>>> from taolong_lab.agents import GreedyAgent
>>> from taolong_lab.games import game
>>> play = GamePlay(game("taolong").new(), seats=[None, GreedyAgent()], seed=1)
>>> play.human_to_move(), str(play.play("Wa>He a3,a4"))
(True, 'Wa>He a3,a4')
>>> [(who, str(action)) for who, action in play.advance()][0][0]
1
>>> play.human_to_move(), len(play.actions)
(True, 2)
>>> play.undo(), len(play.actions)
(2, 0)
"""

from __future__ import annotations

import datetime
import random
from collections.abc import Sequence

from ..agents import GameRecord
from ..agents.matches import describe, with_seed
from ..agents.records import TURN_CAP
from ..agents.registry import agent_from_spec, agents
from ..engine import State
from ..errors import TaoLongError
from ..games import CHANCE, TAOLONG, GameState, TaoLongState, draw_outcome
from ..limits import MAX_SEED
from ..rules.data import shown
from .builder import ExplorerError

PERSON = "person"
MAX_ACTIONS = 5000
"""The most actions a game holds (a record's limit): the game stops there."""


def agent_names() -> list[str]:
    """The names a seat may take: :data:`PERSON`, then every registered agent
    (:mod:`taolong_lab.agents.registry`)."""
    return [PERSON, *(kind.name for kind in agents())]


def make_agent(name: str, nodes: int | None = None, time_limit: float | None = None, seed=0):
    """The registered agent called ``name`` with a move budget for the search agents; None
    for :data:`PERSON`.

    Parameters
    ----------
    name : str
        One of :func:`agent_names`.
    nodes, time_limit : int, float or None
        The budget a move of a search agent (default: its own).
    seed : int
        The agent's seed.

    Returns
    -------
    object or None
        The agent, or None for a person.

    Raises
    ------
    ExplorerError
        An unknown name, or a bad budget or seed.
    """
    if name == PERSON:
        return None
    if name not in agent_names():
        raise ExplorerError(f"agent: one of {', '.join(agent_names())}, not {shown(name)}")
    try:
        return agent_from_spec(name, time=time_limit, nodes=nodes, seed=seed)
    except TaoLongError as exc:
        raise ExplorerError(str(exc)) from None


def behind_protocol(position) -> GameState:
    """A position given to the Explorer behind the game protocol: a
    :class:`~taolong_lab.games.GameState` as it is, a Tao Long ``State`` wrapped (the
    Explorer's sessions hold the engine's positions).

    Parameters
    ----------
    position : GameState or State
        The position.

    Returns
    -------
    GameState

    Raises
    ------
    ExplorerError
        Anything else.
    """
    if isinstance(position, GameState):
        return position
    if isinstance(position, State):
        return TaoLongState(position)
    raise ExplorerError(f"a game starts from a GameState or a State, not {type(position).__name__}")


class GamePlay:
    """A game in progress: people and agents, chance drawn seeded, undo.

    Parameters
    ----------
    start : GameState or taolong_lab.State
        The start position of any game of the protocol (a Tao Long ``State`` is put behind
        it here, where it enters: :func:`behind_protocol`).
    seats : sequence
        One entry a player, in the game's order: None for a person, else an agent (it plays
        with the game's seed). Default: people in every seat.
    seed : int
        The game's seed: the agents' and the chance outcomes'.
    names : sequence of str or None
        The people's names for the record (default ``"human"``).

    Raises
    ------
    ExplorerError
        Not a position of the protocol, not one seat a player, or a bad seed.
    """

    def __init__(self, start, *, seats: Sequence | None = None, seed: int = 0, names=None):
        self.start: GameState = behind_protocol(start)
        count = self.start.players
        seats = [None] * count if seats is None else list(seats)
        if len(seats) != count:
            raise ExplorerError(f"seats: {count} players play this game, not {len(seats)} seats")
        self.seats = list(seats)
        self.set_seed(seed)
        self.names = list(names) if names is not None else ["human"] * count
        self.states: list[GameState] = [self.start]
        self.actions: list = []
        self.movers: list[int] = []  # who made each action: a player or CHANCE

    # ---- the position ----------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The position now."""
        return self.states[-1]

    def over(self) -> bool:
        """Whether the game is over (or at :data:`MAX_ACTIONS`)."""
        return self.state.is_terminal() or len(self.actions) >= MAX_ACTIONS

    def humans(self) -> list[int]:
        """The players people play."""
        return [p for p, seat in enumerate(self.seats) if seat is None]

    def human_to_move(self) -> bool:
        """Whether a person is to play now."""
        player = self.state.current_player()
        return not self.over() and player >= 0 and self.seats[player] is None

    def viewer(self) -> int | None:
        """The player whose view a person is shown: the person to move, else the only
        person, else the last person who moved; None in a game of agents only."""
        people = self.humans()
        player = self.state.current_player()
        if player >= 0 and player in people:
            return player
        if len(people) == 1:
            return people[0]
        moved = [p for p in reversed(self.movers) if p in people]
        return moved[0] if moved else (people[0] if people else None)

    def hidden(self) -> bool:
        return self.start.game.hidden

    def view(self, player: int | None = None) -> str:
        """The position as ``player`` (default :meth:`viewer`) sees it: the text picture, or
        when the game hides information the picture of what the player sees
        (:meth:`~taolong_lab.games.GameState.text_for`; the whole text once it is over)."""
        player = self.viewer() if player is None else player
        if not self.hidden() or player is None or self.state.is_terminal():
            return self.state.text()
        return self.state.text_for(player)

    def action_text(self, mover: int, action) -> str:
        """An action as a person may be told it: a chance outcome of a game with hidden
        information is not told."""
        if mover == CHANCE and self.hidden():
            return "(chance: hidden)"
        return str(action)

    def player_name(self, player: int) -> str:
        return "chance" if player == CHANCE else self.start.player_names()[player]

    def set_seat(self, player: int, agent) -> None:
        """Give ``player``'s seat to ``agent`` (None: a person)."""
        if isinstance(player, bool) or not isinstance(player, int):
            raise ExplorerError(f"player: a number, not {shown(player)}")
        if not 0 <= player < len(self.seats):
            raise ExplorerError(f"player: 0 to {len(self.seats) - 1}, not {player}")
        self.seats[player] = None if agent is None else with_seed(agent, self.seed)

    def set_seed(self, seed: int) -> None:
        """Play the rest of the game with ``seed`` (the agents' and the chance outcomes')."""
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
            raise ExplorerError(f"seed: a whole number from 0 to 2**63 - 1, not {shown(seed)}")
        self.seed = seed
        self.seats = [None if s is None else with_seed(s, seed) for s in self.seats]

    # ---- playing ---------------------------------------------------------------------------
    def _push(self, mover: int, action) -> None:
        self.states.append(self.state.apply(action))
        self.actions.append(action)
        self.movers.append(mover)

    def play(self, entry):
        """A person's action: its notation, a number from 1 in :meth:`legal` order, or the
        action; returns the action played.

        Raises
        ------
        ExplorerError
            Not a person's turn, or not a legal action here (the message says why).
        """
        if not self.human_to_move():
            raise ExplorerError("it is not a person's turn to play")
        legal = self.state.legal_actions()
        action = None
        if isinstance(entry, str):
            text = entry.strip()
            if text.isascii() and text.isdigit() and len(text) <= 6:
                number = int(text)
                if not 1 <= number <= len(legal):
                    word = "turn" if self.state.game is TAOLONG else "action"
                    raise ExplorerError(f"there is no {word} {number}: enter 1 to {len(legal)}")
                action = legal[number - 1]
            else:
                entry = text
        if action is None:
            try:
                action = self.state.parse_action(entry)
            except TaoLongError as exc:
                raise ExplorerError(str(exc)) from None
        self._push(self.state.current_player(), action)
        return action

    def draw(self):
        """Draw the chance outcome now (seeded by the game's seed and the actions played)."""
        rng = random.Random(f"chance:{self.seed}:{len(self.actions)}")
        outcome = draw_outcome(self.state, rng)
        self._push(CHANCE, outcome)
        return outcome

    def step(self, chance: bool = True) -> tuple[int, object] | None:
        """Play the next action that is not a person's (a chance outcome, unless ``chance``
        is false, or an agent's choice): ``(mover, action)``, or None when a person (or, with
        ``chance`` false, chance) is to move or the game is over."""
        if self.over():
            return None
        player = self.state.current_player()
        if player == CHANCE:
            return (CHANCE, self.draw()) if chance else None
        agent = self.seats[player]
        if agent is None:
            return None
        action = agent.choose(self.state)
        self._push(player, action)
        return player, action

    def advance(self, chance: bool = True, most: int = MAX_ACTIONS):
        """Play chance outcomes (unless ``chance`` is false) and agents' actions until a
        person is to move, the game ends or ``most`` actions are played; yields each
        ``(mover, action)`` as it is played."""
        for _ in range(most):
            done = self.step(chance)
            if done is None:
                return
            yield done

    def undo(self) -> int:
        """Take back to before the last person's action (the agents' and chance's after it
        too; in a game of agents only, the last action). Returns how many actions went."""
        if not self.actions:
            raise ExplorerError("nothing to undo")
        people = set(self.humans())
        if not people or not any(m in people for m in self.movers):
            cut = len(self.actions) - 1
        else:
            cut = max(i for i, m in enumerate(self.movers) if m in people)
        gone = len(self.actions) - cut
        del self.actions[cut:], self.movers[cut:], self.states[cut + 1 :]
        return gone

    # ---- the result ------------------------------------------------------------------------
    def result(self) -> str:
        """How the game ended, in words (or that it goes on)."""
        if self.state.is_terminal():
            return self.state.outcome_text()
        if len(self.actions) >= MAX_ACTIONS:
            return f"stopped at {MAX_ACTIONS} actions"
        return "the game goes on"

    def players(self) -> tuple[str, ...]:
        """Who played each side: a person's name or the agent's description."""
        return tuple(
            self.names[p] if seat is None else describe(seat) for p, seat in enumerate(self.seats)
        )

    def record(self, date: str | None = None) -> GameRecord:
        """The game's record (:mod:`taolong_lab.agents.records`), finished or not."""
        return GameRecord.from_actions(
            self.start,
            self.actions,
            self.start.side_players(self.players()),
            date=date or datetime.date.today().isoformat(),
            seed=self.seed,
            reason=TURN_CAP if len(self.actions) >= MAX_ACTIONS else "unfinished",
        )


__all__ = ["MAX_ACTIONS", "PERSON", "GamePlay", "agent_names", "behind_protocol", "make_agent"]

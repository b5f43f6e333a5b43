"""Monte Carlo tree search: UCT, short playouts scored by the evaluation, MCTS-Solver; chance
by sampling, hidden information by information-set MCTS.

Each iteration walks down the tree by UCT, adds one position, plays at most ``playout``
random actions from it and scores where it stops with the game's evaluation, each player's
score squashed to a win probability (``1 / (1 + exp(-score / scale))``). A playout that ends
the game scores each player's return, from 0 (lost) to 1 (won). Every node keeps the wins of
the player who chose the action into it, so any number of players is played.

At a chance node the walk draws an outcome by its probability instead of choosing one; each
outcome drawn gets its own child (sampling; no UCT there).

MCTS-Solver (Winands, Björnsson and Saito, 2008) backs up proofs in games of one or two players
without chance or hidden information: a position is a proved win for its player to move when
one of its actions leads to a proved win for it, and a proved loss when every action leads to
a proved loss for it. A proved child is never explored again; the root plays a proved win at
once and avoids proved losses. In a game of one player (Tao Long's solo variant) the player
moves at every position, so a child's result counts for the same side.

In a game with hidden information the search is single-observer information-set MCTS (Cowling,
Powley and Whitehouse, 2012): each iteration draws a position from what the player to move
sees (:meth:`~taolong_lab.games.GameState.sample`) and walks one tree whose edges are actions
(by notation) using only the actions legal in that drawn position; UCT counts how often a
child was available instead of the parent's visits; chance events are played, not stored.
"""

from __future__ import annotations

import math

from ..games import CHANCE, GameState, draw_outcome, random_action
from .base import (
    Budget,
    agent_repr,
    check_budget,
    check_seed,
    evaluation_of,
    game_state,
    legal_or_raise,
    position_rng,
)
from .scoring import Evaluation

WIN_PROVED, LOSS_PROVED = 1, -1
DEFAULT_NODES = 20_000
EXPLORATION = 1.0
PLAYOUT_PLIES = 2


class Node:
    """A position in the tree; ``wins`` and ``visits`` count for the player who chose the
    action into it (its parent's player to move). ``proof`` is for ``owner``: the player to
    move, or the first player when the game is over."""

    __slots__ = (
        "children",
        "outcomes",
        "owner",
        "player",
        "proof",
        "state",
        "turn",
        "untried",
        "visits",
        "wins",
    )

    def __init__(self, state: GameState, turn, proofs: bool = True):
        self.state, self.turn = state, turn
        self.player = state.current_player()
        self.owner = max(self.player, 0)
        self.children: list[Node] = []
        self.outcomes: dict | None = None  # at a chance node: outcome notation -> child
        self.untried: list | None = None  # the successors not yet in the tree
        self.visits = 0
        self.wins = 0.0
        self.proof = 0  # WIN_PROVED / LOSS_PROVED for the owner
        if proofs and state.is_terminal():
            value = state.returns()[0]
            self.proof = WIN_PROVED if value >= 1 else LOSS_PROVED if value <= -1 else 0


def _for_parent(child: Node, parent: Node) -> int:
    """The child's proof seen from the parent's player to move."""
    return child.proof if child.owner == parent.owner else -child.proof


class InfoNode:
    """A node of the information-set tree: reached by the action ``key`` (its notation),
    chosen by ``player``; ``available`` counts the walks in which that action was legal."""

    __slots__ = ("available", "children", "key", "player", "visits", "wins")

    def __init__(self, key: str | None, player: int):
        self.key, self.player = key, player
        self.children: dict[str, InfoNode] = {}
        self.visits = 0
        self.available = 0
        self.wins = 0.0


class MCTSAgent:
    """UCT with evaluation-scored playouts and MCTS-Solver proofs; chance by sampling, hidden
    information by information-set MCTS (see the module docstring).

    Parameters
    ----------
    time_limit, nodes
        The budget per move: seconds and/or positions made (default ``nodes=20000`` when
        neither is given). Deterministic with ``nodes`` and no ``time_limit``.
    seed
        The random seed (seeded per position).
    playout
        The most random actions a playout plays before the evaluation scores it.
    exploration
        The UCT constant.
    weights
        The game's tuning of its heuristic (Tao Long's
        :class:`~taolong_lab.games.taolong.Weights`, default ``data/evaluation.toml``); a
        game without any ignores it (see :mod:`.scoring`).
    """

    name = "mcts"

    def __init__(
        self,
        *,
        time_limit: float | None = None,
        nodes: int | None = None,
        seed: int = 0,
        playout: int = PLAYOUT_PLIES,
        exploration: float = EXPLORATION,
        weights=None,
    ):
        check_budget(nodes, time_limit)
        if time_limit is None and nodes is None:
            nodes = DEFAULT_NODES
        self.time_limit, self.nodes = time_limit, nodes
        self.seed = check_seed(seed)
        self.playout = int(playout)
        self.exploration = float(exploration)
        self.weights = weights
        self.last_root: Node | InfoNode | None = None

    def __repr__(self) -> str:
        keys = {"time": self.time_limit, "nodes": self.nodes, "seed": self.seed}
        return agent_repr("MCTSAgent", keys)

    def search(self, state) -> Node | InfoNode:
        """Grow the tree from ``state`` within the budget and return its root (an
        :class:`InfoNode` when the game hides information)."""
        legal_or_raise(state)
        state = game_state(state)
        rng = position_rng(self.seed, state)
        budget = Budget(self.time_limit, self.nodes)
        evaluation = evaluation_of(state, self.weights)
        if state.game.hidden:
            root = self._search_information_sets(state, rng, budget, evaluation)
        else:
            root = self._search_tree(state, rng, budget, evaluation)
        self.last_root = root
        return root

    def choose(self, state):
        root = self.search(state)
        if isinstance(root, InfoNode):
            legal = {str(action): action for action in game_state(state).legal_actions()}
            child = max(
                (c for c in root.children.values() if c.key in legal),
                key=lambda c: (c.visits, c.wins),
            )
            return legal[child.key]
        return self.best(root).turn

    @staticmethod
    def best(root: Node) -> Node:
        """The child to play: a proved win, else the most visited child not proved lost."""
        wins = [c for c in root.children if _for_parent(c, root) == WIN_PROVED]
        if wins:
            return min(wins, key=lambda c: _plies_hint(c))
        safe = [c for c in root.children if _for_parent(c, root) != LOSS_PROVED]
        pool = safe or root.children
        return max(pool, key=lambda c: (c.visits, c.wins))

    # ---- perfect information -------------------------------------------------------------
    def _search_tree(self, state: GameState, rng, budget: Budget, evaluation) -> Node:
        game = state.game
        proofs = state.players <= 2
        solving = proofs and not game.chance and not game.hidden
        root = Node(state, None, proofs)
        while root.proof == 0:
            made = budget.expanded
            path = [root]
            node = root
            added = False
            while True:
                if node.player == CHANCE:
                    node, added = self._outcome(node, rng, budget, proofs)
                    path.append(node)
                    if added:
                        break
                elif node.untried is not None and not node.untried and node.children:
                    node = self._select(node)
                    path.append(node)
                else:
                    break
            if not added and node.proof == 0 and node.player >= 0:
                if node.untried is None:
                    node.untried = node.state.successors()
                    rng.shuffle(node.untried)
                    budget.spend(len(node.untried))
                if node.untried:
                    turn, after = node.untried.pop()
                    child = Node(after, turn, proofs)
                    node.children.append(child)
                    path.append(child)
                    node = child
            values = self._playout(node, rng, budget, evaluation)
            self._backup(path, values, solving)
            if budget.expanded == made:  # a walk to a finished game counts as a position
                budget.spend()
            if budget.spent():
                break
        return root

    @staticmethod
    def _outcome(node: Node, rng, budget: Budget, proofs: bool) -> tuple[Node, bool]:
        """The child of a chance node for an outcome drawn by its probability, and whether
        it is new."""
        outcome = draw_outcome(node.state, rng)
        if node.outcomes is None:
            node.outcomes = {}
        child = node.outcomes.get(str(outcome))
        if child is not None:
            return child, False
        child = Node(node.state.apply(outcome), outcome, proofs)
        budget.spend()
        node.outcomes[str(outcome)] = child
        node.children.append(child)
        return child, True

    def _select(self, node: Node) -> Node:
        log_n = math.log(node.visits + 1)
        best, best_value = None, -math.inf
        for child in node.children:
            proof = _for_parent(child, node)
            if proof == WIN_PROVED:
                return child
            if proof == LOSS_PROVED:
                continue
            value = child.wins / child.visits + self.exploration * math.sqrt(log_n / child.visits)
            if value > best_value:
                best, best_value = child, value
        return best if best is not None else node.children[0]

    def _playout(self, node: Node, rng, budget: Budget, evaluation) -> tuple[float, ...]:
        """Each player's value of ``node``, in [0, 1]."""
        if node.proof:
            won = 1.0 if node.proof == WIN_PROVED else 0.0
            return (won,) if node.state.players == 1 else _pair(node.owner, won)
        return self._rollout(node.state, rng, budget, evaluation)

    def _rollout(self, state: GameState, rng, budget: Budget, evaluation) -> tuple[float, ...]:
        """Each player's value in [0, 1] after at most ``playout`` random actions."""
        for _ in range(self.playout):
            if state.is_terminal():
                break
            state = state.apply(random_action(state, rng))
            budget.spend()
        if state.is_terminal():
            return tuple((value + 1.0) / 2.0 for value in state.returns())
        scale = evaluation.scale
        return tuple(
            1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, score / scale))))
            for score in evaluation.scores(state, budget)
        )

    @staticmethod
    def _backup(path: list[Node], values: tuple[float, ...], solving: bool) -> None:
        """Add each player's value along ``path``, and the proofs."""
        for depth in range(len(path) - 1, -1, -1):
            node = path[depth]
            if solving and depth + 1 < len(path):
                _prove(node)
            if depth > 0:
                parent = path[depth - 1]
                node.visits += 1
                if parent.player >= 0:
                    node.wins += values[parent.player]
        path[0].visits += 1

    # ---- hidden information --------------------------------------------------------------
    def _search_information_sets(
        self, state: GameState, rng, budget: Budget, evaluation: Evaluation
    ) -> InfoNode:
        me = state.current_player()
        root = InfoNode(None, me)
        while True:
            world = state.sample(me, rng)
            path = [root]
            node = root
            while not world.is_terminal():
                if world.is_chance():
                    world = world.apply(draw_outcome(world, rng))
                    budget.spend()
                    continue
                legal = {str(action): action for action in world.legal_actions()}
                untried = [key for key in legal if key not in node.children]
                chosen = rng.choice(untried) if untried else None
                if chosen is not None:
                    node.children[chosen] = InfoNode(chosen, world.current_player())
                for key in legal:
                    if key in node.children:
                        node.children[key].available += 1
                key = chosen if chosen is not None else self._select_available(node, legal)
                world = world.apply(legal[key])
                budget.spend()
                node = node.children[key]
                path.append(node)
                if untried:
                    break
            values = self._rollout(world, rng, budget, evaluation)
            root.visits += 1
            for child in path[1:]:
                child.visits += 1
                child.wins += values[child.player]
            if budget.spent():
                return root

    def _select_available(self, node: InfoNode, legal: dict) -> str:
        """UCT over the children legal in this walk, with availability counts."""
        best, best_value = None, -math.inf
        for key in legal:
            child = node.children[key]
            value = child.wins / child.visits + self.exploration * math.sqrt(
                math.log(child.available) / child.visits
            )
            if value > best_value:
                best, best_value = key, value
        return best


def _pair(player: int, value: float) -> tuple[float, float]:
    """Two players' values when ``player`` has ``value`` (the other has the rest)."""
    return (value, 1.0 - value) if player == 0 else (1.0 - value, value)


def _prove(node: Node) -> None:
    if node.proof or node.untried is None:
        return
    outcomes = [_for_parent(c, node) for c in node.children]
    if WIN_PROVED in outcomes:
        node.proof = WIN_PROVED
    elif not node.untried and outcomes and all(o == LOSS_PROVED for o in outcomes):
        node.proof = LOSS_PROVED


def _plies_hint(node: Node) -> int:
    """0 for a finished game, 1 otherwise: the root prefers a win now to a win later."""
    return 0 if node.state.is_terminal() else 1


__all__ = ["InfoNode", "MCTSAgent", "Node"]

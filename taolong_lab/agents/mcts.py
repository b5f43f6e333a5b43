"""Monte Carlo tree search: UCT, short playouts scored by the evaluation, MCTS-Solver.

Each iteration walks down the tree by UCT, adds one position, plays at most ``playout``
random turns from it and scores where it stops with the evaluation, squashed to a win
probability (``1 / (1 + exp(-score / scale))``). A playout that ends the game scores 1 or 0.

MCTS-Solver (Winands, Björnsson and Saito, 2008) backs up proofs: a position is a proved win for
its side to move when one of its turns leads to a proved win for it, and a proved loss when
every turn leads to a proved loss for it. A proved child is never explored again; the root
plays a proved win at once and avoids proved losses. In the solo variant the player moves at
every position, so a child's result counts for the same side.
"""

from __future__ import annotations

import math

from ..engine import State, Turn
from .base import Budget, check_budget, check_seed, legal_or_raise, position_rng
from .evaluation import Weights, default_weights, evaluate

WIN_PROVED, LOSS_PROVED = 1, -1
DEFAULT_NODES = 20_000
EXPLORATION = 1.0
PLAYOUT_PLIES = 2
SCALE = 40.0  # evaluation points for odds of e to 1


class Node:
    """A position in the tree; ``wins`` and ``visits`` count for the side that moved into it
    (its parent's side to move)."""

    __slots__ = ("children", "proof", "state", "turn", "untried", "visits", "wins")

    def __init__(self, state: State, turn: Turn | None):
        self.state, self.turn = state, turn
        self.children: list[Node] = []
        self.untried: list | None = None  # the successors not yet in the tree
        self.visits = 0
        self.wins = 0.0
        self.proof = 0  # WIN_PROVED / LOSS_PROVED for this position's side to move
        if state.is_over():
            self.proof = WIN_PROVED if state.outcome().winner == state.to_move else LOSS_PROVED


def _for_parent(child: Node, parent: Node) -> int:
    """The child's proof seen from the parent's side to move."""
    return child.proof if child.state.mover == parent.state.mover else -child.proof


class MCTSAgent:
    """UCT with evaluation-scored playouts and MCTS-Solver proofs (see the module docstring).

    Parameters
    ----------
    time_limit, nodes
        The budget per move: seconds and/or positions made (default ``nodes=20000`` when
        neither is given). Deterministic with ``nodes`` and no ``time_limit``.
    seed
        The random seed (seeded per position).
    playout
        The most random turns a playout plays before the evaluation scores it.
    exploration
        The UCT constant.
    weights
        The evaluation's weights (default: ``data/evaluation.toml``).
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
        weights: Weights | None = None,
    ):
        check_budget(nodes, time_limit)
        if time_limit is None and nodes is None:
            nodes = DEFAULT_NODES
        self.time_limit, self.nodes = time_limit, nodes
        self.seed = check_seed(seed)
        self.playout = int(playout)
        self.exploration = float(exploration)
        self.weights = weights or default_weights()
        self.last_root: Node | None = None

    def __repr__(self) -> str:
        budget = f"nodes={self.nodes}" if self.time_limit is None else f"time={self.time_limit}"
        return f"MCTSAgent({budget}, seed={self.seed})"

    def search(self, state: State) -> Node:
        """Grow the tree from ``state`` within the budget and return its root."""
        legal_or_raise(state)
        rng = position_rng(self.seed, state)
        budget = Budget(self.nodes, self.time_limit)
        root = Node(state, None)
        while root.proof == 0:
            path = [root]
            node = root
            while node.untried is not None and not node.untried and node.children:
                node = self._select(node)
                path.append(node)
            if node.proof == 0:
                if node.untried is None:
                    node.untried = list(node.state.iter_successors())
                    rng.shuffle(node.untried)
                    budget.spend(len(node.untried))
                if node.untried:
                    turn, after = node.untried.pop()
                    child = Node(after, turn)
                    node.children.append(child)
                    path.append(child)
                    node = child
            value = self._playout(node, rng, budget)  # for node's side to move
            self._backup(path, value)
            if budget.spent:
                break
        self.last_root = root
        return root

    def choose(self, state: State) -> Turn:
        root = self.search(state)
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

    def _playout(self, node: Node, rng, budget: Budget) -> float:
        """The value of ``node`` for its side to move, in [0, 1]."""
        if node.proof:
            return 1.0 if node.proof == WIN_PROVED else 0.0
        state = node.state
        for _ in range(self.playout):
            turns = state.legal_turns()
            state = state.play(rng.choice(turns))
            budget.spend()
            if state.is_over():
                break
        if state.is_over():
            won = state.outcome().winner == node.state.to_move
            return 1.0 if won else 0.0
        score = evaluate(state, self.weights)
        score = score if node.state.mover == 0 else -score
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, score / SCALE))))

    def _backup(self, path: list[Node], value: float) -> None:
        """Add ``value`` (for the last node's side to move) along ``path``, and the proofs."""
        for depth in range(len(path) - 1, -1, -1):
            node = path[depth]
            if depth + 1 < len(path):
                _prove(node)
            if depth > 0:
                parent = path[depth - 1]
                same = parent.state.mover == node.state.mover
                # wins count for the parent's side to move
                node.visits += 1
                node.wins += value if same else 1.0 - value
                value = value if same else 1.0 - value
        path[0].visits += 1


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
    return 0 if node.state.is_over() else 1


__all__ = ["MCTSAgent", "Node"]

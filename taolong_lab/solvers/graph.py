"""The state graph of a position, and retrograde analysis over it.

:func:`iter_explore` walks the positions reachable from a start, breadth first, turn by turn,
de-duplicated by :meth:`State.key` (one walk never changes the rules, so the key plus the start's
rules identify a position). It is a generator: a caller can stop whenever it likes. A walk
stops at :data:`MAX_STATES` positions unless given another budget (``max_states=None``: none),
and goes at most :data:`MAX_DEPTH` turns deep.
:func:`explore` collects the walk into a compact :class:`StateGraph` (ints for nodes, flat lists
for edges, the TLN of every node), and :meth:`StateGraph.to_networkx` turns it into a
``networkx.DiGraph``.

:func:`retrograde` solves a solo graph backwards from its won nodes: the fewest player turns to
a win from every node (within the graph), the optimal turns from each node, the dead nodes, and
the number of optimal lines. :func:`retrograde_two_player` labels a two-player graph win / loss /
draw-or-unknown (a bonus: the solver is solo only). Both are pure functions over the graph's
plain lists.

>>> from taolong_lab import solo_game
>>> g = explore(solo_game(), depth=1)
>>> g.depth[0], g.expanded[0], g.expanded[1], g.truncated
(0, True, False, False)
>>> r = retrograde(g)
>>> r.status[0], 0 in r.proved_dead  # no win in the graph, but its children are unexplored
('dead', False)
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from ..engine import State
from ..errors import Arg
from ..files import write_atomic
from .common import SolverError, paused_gc

# GraphML and GEXF hold no None: these stand in for "no value" in exported attributes.
NO_INT = -1
NO_STR = ""
MAX_STATES = 100_000  # the positions a walk stops at, unless given another budget
MAX_DEPTH = 1_000  # the deepest walk, in turns (a budget of positions ends one long before)


class Node(NamedTuple):
    """A position met for the first time: its id (0 is the start), the position, its depth
    (turns from the start, shortest)."""

    id: int
    state: State
    depth: int


class Edge(NamedTuple):
    """A legal turn from node ``src`` to node ``dst``, in turn notation."""

    src: int
    dst: int
    turn: str


class Expanded(NamedTuple):
    """Every edge out of node ``id`` has been yielded: the node is fully expanded."""

    id: int


@dataclass
class _Walk:
    """What a walk learned besides its nodes and edges (filled in as it goes)."""

    truncated: bool = False
    max_depth: int | None = None


def iter_explore(
    position: State, *, depth: int | None = None, max_states: int | None = MAX_STATES
) -> Iterator[Node | Edge | Expanded]:
    """Walk the positions reachable from ``position``, breadth first, as a stream.

    Yields :class:`Node` for each new position (the start first, id 0), then for each expanded
    position its :class:`Edge` s (in the engine's turn order) followed by :class:`Expanded`.
    A node is expanded when it is not over and its depth is below ``depth`` (0 to
    :data:`MAX_DEPTH`; None: no limit). ``max_states`` caps the number of nodes (default
    :data:`MAX_STATES`; None: no cap): a node whose successors would pass the cap is left
    unexpanded (none of its edges is yielded) and the walk stops. Stop iterating any time.

    Parameters
    ----------
    position : State
        Where the walk starts.
    depth : int or None
        The deepest node expanded, in turns from the start.
    max_states : int or None
        The most nodes the walk holds.

    Returns
    -------
    iterator of Node, Edge and Expanded

    Raises
    ------
    SolverError
        A ``position`` that is not a State, or a bad ``depth`` or ``max_states``, at the call
        (before the first event).

    >>> from taolong_lab import solo_game
    >>> events = iter_explore(solo_game(), depth=1)
    >>> node = next(events)
    >>> node.id, node.depth, type(next(events)).__name__
    (0, 0, 'Node')
    """
    _check_walk(position, depth, max_states)
    return _events(position, depth, max_states, _Walk())


def _check_walk(position, depth, max_states) -> None:
    if not isinstance(position, State):
        raise SolverError(f"position: explore needs a State, not {type(position).__name__}")
    if depth is not None and not (type(depth) is int and 0 <= depth <= MAX_DEPTH):
        raise SolverError.naming(
            Arg("depth", depth), f": must be a whole number from 0 to {MAX_DEPTH}", limit=MAX_DEPTH
        )
    if max_states is not None and not (type(max_states) is int and max_states >= 1):
        raise SolverError.naming(
            Arg("max_states", max_states), ": must be a whole number >= 1", limit=1
        )


def _events(position: State, depth, max_states, walk: _Walk) -> Iterator[Node | Edge | Expanded]:
    """The walk of :func:`iter_explore`, its arguments checked; what it learns besides the
    events goes to ``walk``."""
    walk.max_depth = depth
    ids: dict[tuple, int] = {position.key(): 0}
    yield Node(0, position, 0)
    queue = deque([(0, position, 0)])
    while queue:
        nid, state, d = queue.popleft()
        if state.is_over() or (depth is not None and d >= depth):
            continue
        found = [(turn, after, after.key()) for turn, after in state.iter_successors()]
        fresh = {k for _, _, k in found if k not in ids}
        if max_states is not None and len(ids) + len(fresh) > max_states:
            walk.truncated = True
            return
        for _turn, after, k in found:
            target = ids.get(k)
            if target is None:
                target = ids[k] = len(ids)
                yield Node(target, after, d + 1)
                queue.append((target, after, d + 1))
        for turn, _, k in found:
            yield Edge(nid, ids[k], str(turn))
        yield Expanded(nid)


@dataclass
class StateGraph:
    """A finite explored part of the game graph, in plain lists indexed by node id.

    ``tln[i]``, ``depth[i]`` (shortest turns from the start), ``terminal[i]`` (the game is
    over), ``winner[i]`` (``"white"``/``"black"``, ``""`` while the game goes on),
    ``expanded[i]`` (every successor is in the graph; False for the frontier and terminal
    nodes), ``to_move[i]`` (the colour to move). Edges are ``src[j] -> dst[j]`` by the turn
    ``turns[j]``. ``player`` is the solo player's colour (None for a two-player graph).
    ``truncated``: ``max_states`` stopped the walk. ``max_depth``: the depth limit the walk
    used (None: none).
    """

    rules: str
    player: str | None
    tln: list[str] = field(default_factory=list)
    depth: list[int] = field(default_factory=list)
    terminal: list[bool] = field(default_factory=list)
    winner: list[str] = field(default_factory=list)
    expanded: list[bool] = field(default_factory=list)
    to_move: list[str] = field(default_factory=list)
    src: array = field(default_factory=lambda: array("l"))
    dst: array = field(default_factory=lambda: array("l"))
    turns: list[str] = field(default_factory=list)
    truncated: bool = False
    max_depth: int | None = None
    _out: list | None = field(default=None, repr=False, compare=False)
    _analysis: object = field(default=None, repr=False, compare=False)

    def __len__(self) -> int:
        return len(self.tln)

    @property
    def edge_count(self) -> int:
        return len(self.turns)

    def state(self, i: int) -> State:
        """The position of node ``i``."""
        return State.from_tln(self.tln[i])

    def won(self, i: int) -> bool:
        """Solo: the player has won at node ``i``."""
        return self.player is not None and self.winner[i] == self.player

    def out_edges(self, i: int) -> list[int]:
        """The edge indices out of node ``i``, in the engine's turn order."""
        if self._out is None or len(self._out) != len(self):
            out: list[list[int]] = [[] for _ in range(len(self))]
            for j, s in enumerate(self.src):
                out[s].append(j)
            self._out = out
        return self._out[i]

    def retrograde(self) -> Retrograde:
        """:func:`retrograde` (solo) or :func:`retrograde_two_player`, remembered so that
        :meth:`to_networkx` and the writers add its labels."""
        self._analysis = retrograde(self) if self.player else retrograde_two_player(self)
        return self._analysis

    # ---- export ---------------------------------------------------------------------------
    def to_networkx(self, analysis=None):
        """A ``networkx.DiGraph`` with int node ids.

        Node attributes: ``tln``, ``depth``, ``terminal``, ``winner`` (``""`` if none),
        ``expanded``, ``to_move``; once solved (``analysis`` or :meth:`retrograde` before),
        ``status`` and ``turns_to_win`` (``-1`` when no win is known) and ``solutions``
        (solo), or ``value`` and ``plies`` (two-player). Edge attributes: ``turn`` (the
        first turn between the two positions), ``turns`` (all of them, joined by ``" | "``)
        and ``count``: different turns can lead to the same position, and a DiGraph holds one
        edge per pair.
        """
        import networkx as nx

        analysis = analysis if analysis is not None else self._analysis
        g = nx.DiGraph(rules=self.rules, player=self.player or NO_STR, truncated=self.truncated)
        for i in range(len(self)):
            attrs = {
                "tln": self.tln[i],
                "depth": self.depth[i],
                "terminal": self.terminal[i],
                "winner": self.winner[i],
                "expanded": self.expanded[i],
                "to_move": self.to_move[i],
            }
            if isinstance(analysis, Retrograde):
                ttw = analysis.turns_to_win[i]
                attrs["status"] = analysis.status[i]
                attrs["turns_to_win"] = NO_INT if ttw is None else ttw
                attrs["solutions"] = analysis.solutions[i]
            elif isinstance(analysis, TwoPlayerRetrograde):
                attrs["value"] = analysis.value[i]
                attrs["plies"] = NO_INT if analysis.plies[i] is None else analysis.plies[i]
            g.add_node(i, **attrs)
        for j in range(self.edge_count):
            s, d, t = self.src[j], self.dst[j], self.turns[j]
            if g.has_edge(s, d):
                data = g.edges[s, d]
                data["turns"] += " | " + t
                data["count"] += 1
            else:
                g.add_edge(s, d, turn=t, turns=t, count=1)
        return g

    def write_graphml(self, path) -> None:
        """Write :meth:`to_networkx` as GraphML, atomically (a temporary file, then a rename).
        Node ids are ints written as text; read back with ``nx.read_graphml(path,
        node_type=int)``. Missing values are ``""`` (text) or ``-1`` (numbers)."""
        import networkx as nx

        write_atomic(path, lambda tmp: nx.write_graphml(_exportable(self.to_networkx()), tmp))

    def write_gexf(self, path) -> None:
        """Write :meth:`to_networkx` as GEXF, atomically."""
        import networkx as nx

        write_atomic(path, lambda tmp: nx.write_gexf(_exportable(self.to_networkx()), tmp))

    def write(self, path) -> None:
        """GraphML or GEXF, by the suffix (``.graphml`` / ``.gexf``)."""
        suffix = Path(path).suffix.lower()
        if suffix == ".graphml":
            self.write_graphml(path)
        elif suffix == ".gexf":
            self.write_gexf(path)
        else:
            raise SolverError(
                f"path: unknown graph file kind {suffix or '(none)'!r}: use .graphml or .gexf"
            )


def _exportable(g):
    """GraphML/GEXF hold 64-bit ints at most: a bigger line count is written as text."""
    for _, data in g.nodes(data=True):
        if data.get("solutions", 0) > 2**62:
            data["solutions"] = str(data["solutions"])
    return g


@paused_gc()
def explore(
    position: State,
    *,
    depth: int | None = None,
    max_states: int | None = MAX_STATES,
    progress: bool = False,
) -> StateGraph:
    """The :class:`StateGraph` of :func:`iter_explore`.

    Parameters
    ----------
    position, depth, max_states
        As :func:`iter_explore`'s.
    progress : bool
        Show a bar of the positions found (tqdm, on stderr).

    Returns
    -------
    StateGraph

    Raises
    ------
    SolverError
        As :func:`iter_explore`.

    >>> from taolong_lab import solo_game
    >>> g = explore(solo_game(), depth=1)
    >>> len(g) - 1 == len(set(g.dst)) and g.edge_count == len(solo_game().successors())
    True
    """
    _check_walk(position, depth, max_states)
    walk = _Walk()
    g = StateGraph(rules=position.rules.token(), player=position.player)
    bar = _progress_bar(max_states) if progress else None
    try:
        for event in _events(position, depth, max_states, walk):
            if isinstance(event, Node):
                result = event.state.outcome()
                g.tln.append(event.state.to_tln())
                g.depth.append(event.depth)
                g.terminal.append(result is not None)
                g.winner.append(result.winner if result else NO_STR)
                g.expanded.append(False)
                g.to_move.append(event.state.to_move)
            elif isinstance(event, Edge):
                g.src.append(event.src)
                g.dst.append(event.dst)
                g.turns.append(event.turn)
            else:
                g.expanded[event.id] = True
                if bar is not None:
                    bar.update(len(g) - bar.n)
    finally:
        if bar is not None:
            bar.close()
    g.truncated, g.max_depth = walk.truncated, walk.max_depth
    return g


def _progress_bar(total: int | None):
    from tqdm.auto import tqdm

    return tqdm(total=total, desc="positions", unit="pos", leave=False)


# ---- retrograde analysis (solo) ------------------------------------------------------------
@dataclass(frozen=True)
class Retrograde:
    """Retrograde analysis of a solo :class:`StateGraph`, by node id.

    ``turns_to_win[i]``: the fewest player turns from node ``i`` to a won node along the
    graph's edges (0 at a won node); None when no won node is reachable in the graph.
    ``status[i]``: ``"won"`` (the player has won), ``"lost"`` (the player's dragon is dead),
    ``"win"`` (a win is reachable: ``turns_to_win`` says in how many turns), ``"unknown"``
    (an unexpanded, unfinished node: the frontier), ``"dead"`` (expanded, no win reachable in
    the graph). ``proved_dead``: the dead nodes from which no unexpanded node is reachable
    either, so no win exists at all. ``optimal_turns[i]``: the turns (notation) starting a
    shortest win. ``solutions[i]``: the number of shortest winning lines (turn sequences;
    two turns to the same position count twice). ``exact[i]``: ``turns_to_win[i]`` is the true
    game value, not just the graph's: every position within fewer turns was expanded.
    """

    turns_to_win: tuple[int | None, ...]
    status: tuple[str, ...]
    optimal_turns: tuple[tuple[str, ...], ...]
    solutions: tuple[int, ...]
    proved_dead: frozenset[int]
    exact: tuple[bool, ...]

    @property
    def dead(self) -> frozenset[int]:
        return frozenset(i for i, s in enumerate(self.status) if s == "dead")


def retrograde(graph: StateGraph) -> Retrograde:
    """Solve a solo graph backwards from its won nodes (a breadth-first search over the
    reversed edges), then count the shortest lines forward in order of distance.

    Parameters
    ----------
    graph : StateGraph
        A solo graph (:func:`explore` from a solo position).

    Returns
    -------
    Retrograde

    Raises
    ------
    SolverError
        A two-player graph.

    Examples
    --------
    >>> from taolong_lab import State
    >>> from taolong_lab.solvers.graph import explore
    >>> g = explore(State("field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
    ...     "d3-d2-d1-e1:4:0 d4-d5:1:0 -/-/BB/-/W/-/BWW/WB 3:8 w 1"), depth=1)
    >>> r = retrograde(g)
    >>> r.turns_to_win[0], r.status[0], r.optimal_turns[0], r.solutions[0]
    (1, 'win', ('Ea>Mo =',), 1)
    """
    if graph.player is None:
        raise SolverError("graph: retrograde() is for solo graphs; use retrograde_two_player()")
    n = len(graph)
    preds: list[list[int]] = [[] for _ in range(n)]
    for s, d in zip(graph.src, graph.dst, strict=True):
        preds[d].append(s)
    ttw: list[int | None] = [None] * n
    queue = deque()
    for i in range(n):
        if graph.won(i):
            ttw[i] = 0
            queue.append(i)
    while queue:
        v = queue.popleft()
        for u in preds[v]:
            if ttw[u] is None and not graph.terminal[u]:
                ttw[u] = ttw[v] + 1
                queue.append(u)
    # the frontier: what reaches an unexpanded, unfinished node might have a win beyond it
    open_nodes = [i for i in range(n) if not graph.expanded[i] and not graph.terminal[i]]
    reaches_open = [False] * n
    queue = deque(open_nodes)
    for i in open_nodes:
        reaches_open[i] = True
    while queue:
        v = queue.popleft()
        for u in preds[v]:
            if not reaches_open[u]:
                reaches_open[u] = True
                queue.append(u)
    status = []
    for i in range(n):
        if graph.won(i):
            status.append("won")
        elif graph.terminal[i]:
            status.append("lost")
        elif ttw[i] is not None:
            status.append("win")
        elif not graph.expanded[i]:
            status.append("unknown")
        else:
            status.append("dead")
    proved_dead = frozenset(i for i in range(n) if status[i] == "dead" and not reaches_open[i])
    # optimal turns and line counts, nodes in order of distance
    optimal: list[tuple[str, ...]] = [()] * n
    count = [0] * n
    for i in sorted((i for i in range(n) if ttw[i] is not None), key=lambda i: ttw[i]):
        if ttw[i] == 0:
            count[i] = 1
            continue
        best = [j for j in graph.out_edges(i) if ttw[graph.dst[j]] == ttw[i] - 1]
        optimal[i] = tuple(graph.turns[j] for j in best)
        count[i] = sum(count[graph.dst[j]] for j in best)
    exact = []
    for i in range(n):
        if ttw[i] is None:
            exact.append(i in proved_dead or status[i] in ("won", "lost"))
        elif not graph.truncated and (
            graph.max_depth is None or graph.depth[i] + ttw[i] <= graph.max_depth
        ):
            # a shorter line would pass only through nodes of depth < max_depth: all expanded
            exact.append(True)
        else:
            exact.append(ttw[i] == 0 or not any(reaches_open))
    return Retrograde(
        tuple(ttw), tuple(status), tuple(optimal), tuple(count), proved_dead, tuple(exact)
    )


# ---- retrograde analysis (two players) ------------------------------------------------------
@dataclass(frozen=True)
class TwoPlayerRetrograde:
    """Win/loss labelling of a two-player graph: ``value[i]`` is the colour that wins with best
    play from node ``i`` within the graph, ``""`` for a draw or unknown (a cycle, or the
    frontier decides it); ``plies[i]`` the length of a line to the end consistent with the
    labelling (the winner's shortest to a won node; the loser's longest over its turns, as
    labelled), None without a value. Not a certified distance-to-mate."""

    value: tuple[str, ...]
    plies: tuple[int | None, ...]


def retrograde_two_player(graph: StateGraph) -> TwoPlayerRetrograde:
    """Standard retrograde labelling: a node is won for the side to move if some turn leads
    to a node won for it, lost if it is expanded and every turn leads to a node won for the
    other side. A pure function of the graph's lists (``to_move``, ``terminal``, ``winner``,
    ``expanded`` and the edges).

    Parameters
    ----------
    graph : StateGraph

    Returns
    -------
    TwoPlayerRetrograde

    >>> g = StateGraph("toy", None, tln=["a", "b", "c"], depth=[0, 1, 1],
    ...     terminal=[False, True, False], winner=["", "white", ""],
    ...     expanded=[True, False, False], to_move=["white", "black", "black"])
    >>> g.src.extend([0, 0]); g.dst.extend([1, 2]); g.turns.extend(["x", "y"])
    >>> r = retrograde_two_player(g)
    >>> r.value, r.plies
    (('white', 'white', ''), (1, 0, None))
    """
    n = len(graph)
    mover = graph.to_move
    preds: list[list[int]] = [[] for _ in range(n)]
    left = [0] * n
    for s, d in zip(graph.src, graph.dst, strict=True):
        preds[d].append(s)
        left[s] += 1
    value = [NO_STR] * n
    plies: list[int | None] = [None] * n
    queue = deque()
    for i in range(n):
        if graph.terminal[i] and graph.winner[i]:
            value[i], plies[i] = graph.winner[i], 0
            queue.append(i)
    while queue:
        v = queue.popleft()
        for u in preds[v]:
            if value[u]:
                continue
            if value[v] == mover[u]:
                value[u], plies[u] = value[v], plies[v] + 1
                queue.append(u)
            else:
                left[u] -= 1
                if left[u] == 0 and graph.expanded[u]:
                    value[u] = value[v]
                    plies[u] = 1 + max(plies[graph.dst[j]] for j in graph.out_edges(u))
                    queue.append(u)
    return TwoPlayerRetrograde(tuple(value), tuple(plies))


__all__ = [
    "NO_INT",
    "NO_STR",
    "Edge",
    "Expanded",
    "Node",
    "Retrograde",
    "StateGraph",
    "TwoPlayerRetrograde",
    "explore",
    "iter_explore",
    "retrograde",
    "retrograde_two_player",
]

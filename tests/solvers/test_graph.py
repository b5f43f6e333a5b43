"""The state graph (explore, networkx export, GraphML/GEXF) and retrograde analysis, the latter
checked against networkx's own algorithms on small explored graphs."""

from __future__ import annotations

import inspect
import itertools
import math

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from small_wins import WIN_IN_1, WIN_IN_2

from taolong_lab import State, new_game, solo_game
from taolong_lab.graph import explore, iter_explore, retrograde, retrograde_two_player
from taolong_lab.solvers.common import SolverError
from taolong_lab.solvers.graph import MAX_DEPTH, MAX_STATES, Edge, Expanded, Node

WIN_IN_3 = (
    "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
    "a3-a2-a1-b1:4:0 e8-f8:2:0 WW/-/BW/-/-/B/WBB/- 2:8 w 2"
)


def _bfs_depths(start: State, depth: int) -> dict:
    """Reference: shortest depth of every key within ``depth`` turns, by a plain BFS."""
    seen = {start.key(): 0}
    layer = [start]
    for d in range(depth):
        nxt = []
        for s in layer:
            for _, a in s.successors():
                if a.key() not in seen:
                    seen[a.key()] = d + 1
                    nxt.append(a)
        layer = nxt
    return seen


def test_explore_dedupes_by_key_and_records_depths():
    start = State(WIN_IN_2)
    g = explore(start, depth=2)
    ref = _bfs_depths(start, 2)
    keys = [State(t).key() for t in g.tln]
    assert len(keys) == len(set(keys)) == len(ref)
    assert [ref[k] for k in keys] == g.depth
    for i in range(len(g)):
        s = State(g.tln[i])
        assert g.terminal[i] == s.is_over()
        assert g.winner[i] == (s.outcome().winner if s.outcome() else "")
        assert g.expanded[i] == (not s.is_over() and g.depth[i] < 2)
        if g.expanded[i]:
            assert [g.turns[j] for j in g.out_edges(i)] == [str(t) for t, _ in s.successors()]


def test_explore_depth_zero_is_the_start_alone():
    g = explore(solo_game(), depth=0)
    assert len(g) == 1 and g.edge_count == 0 and not g.expanded[0]


def test_iter_explore_streams_and_stops_early():
    events = iter_explore(solo_game(), max_states=None)  # only the first events are computed
    first = list(itertools.islice(events, 30))
    assert isinstance(first[0], Node) and first[0].id == 0
    assert {type(e) for e in first} <= {Node, Edge, Expanded}
    assert any(isinstance(e, Expanded) for e in first)


def test_max_states_stops_cleanly_and_marks_the_graph_truncated():
    g = explore(solo_game(), max_states=50)
    assert g.truncated and len(g) <= 50
    for i in range(len(g)):  # an expanded node has all its edges, the others none
        n = len(g.out_edges(i))
        assert n == (len(State(g.tln[i]).successors()) if g.expanded[i] else 0)
    full = explore(State(WIN_IN_1), depth=1)
    assert not full.truncated


def test_a_walk_has_a_default_budget_and_a_deepest_depth():
    for walk in (explore, iter_explore):
        assert inspect.signature(walk).parameters["max_states"].default == MAX_STATES
    assert isinstance(MAX_STATES, int)
    for bad in ({"depth": MAX_DEPTH + 1}, {"depth": -1}, {"depth": True}, {"depth": 2.0}):
        with pytest.raises(SolverError, match=r"depth=\S+: must be a whole number from 0 to"):
            explore(solo_game(), **bad)
    for bad in (0, 10**3 + 0.5, False):
        with pytest.raises(SolverError, match=r"max_states=\S+: must be a whole number"):
            explore(solo_game(), max_states=bad)
    assert explore(State(WIN_IN_1), depth=MAX_DEPTH, max_states=200).max_depth == MAX_DEPTH


@pytest.mark.parametrize(
    ("position", "options", "field"),
    [
        ("a TLN", {}, "position"),
        (None, {}, "position"),
        (solo_game(), {"depth": -1}, "depth"),
        (solo_game(), {"max_states": 0}, "max_states"),
    ],
)
def test_a_bad_walk_is_refused_when_asked_for_not_when_first_read(position, options, field):
    """``iter_explore`` checks its arguments at the call (a SolverError naming the
    argument), before any event is read; ``explore`` the same way."""
    for walk in (iter_explore, explore):
        with pytest.raises(SolverError, match=f"^{field}"):
            walk(position, **options)


def test_progress_shows_a_bar_on_stderr_and_changes_nothing(capsys):
    quiet = explore(State(WIN_IN_2), depth=2)
    capsys.readouterr()
    shown = explore(State(WIN_IN_2), depth=2, progress=True)
    assert "positions" in capsys.readouterr().err
    assert (shown.tln, shown.turns) == (quiet.tln, quiet.turns)


def test_two_player_explore():
    g = explore(new_game(), depth=2)
    assert g.player is None and len(g) > 6 and g.depth[0] == 0
    r = retrograde_two_player(g)
    assert set(r.value) <= {"", "white", "black"}
    with pytest.raises(SolverError, match="solo"):
        retrograde(g)


def test_networkx_export_attributes():
    g = explore(State(WIN_IN_2), depth=2)
    r = g.retrograde()
    G = g.to_networkx()
    assert isinstance(G, nx.DiGraph) and G.number_of_nodes() == len(g)
    assert sum(d["count"] for _, _, d in G.edges(data=True)) == g.edge_count
    for i, data in G.nodes(data=True):
        assert data["tln"] == g.tln[i] and data["depth"] == g.depth[i]
        assert data["terminal"] == g.terminal[i] and data["winner"] == g.winner[i]
        ttw = r.turns_to_win[i]
        assert data["turns_to_win"] == (-1 if ttw is None else ttw)
        assert None not in data.values()
    for u, v, data in G.edges(data=True):
        assert State(g.tln[u]).play(data["turn"]).key() == State(g.tln[v]).key()


@pytest.mark.parametrize("suffix", [".graphml", ".gexf"])
def test_graphml_and_gexf_round_trip(tmp_path, suffix):
    g = explore(State(WIN_IN_2), depth=2)
    g.retrograde()
    path = tmp_path / f"g{suffix}"
    g.write(path)
    assert [p.name for p in tmp_path.iterdir()] == [path.name]  # no temporary file left
    if suffix == ".graphml":
        back = nx.read_graphml(path, node_type=int)
    else:
        back = nx.read_gexf(path, node_type=int)
    G = g.to_networkx()
    assert sorted(back.nodes) == sorted(G.nodes)
    assert {(int(u), int(v)) for u, v in back.edges} == set(G.edges)
    for i in G.nodes:
        for name in ("tln", "depth", "turns_to_win", "status"):
            assert back.nodes[i][name] == G.nodes[i][name], name
    u, v = next(iter(G.edges))
    assert back.edges[u, v]["turn"] == G.edges[u, v]["turn"]
    with pytest.raises(SolverError, match="graphml"):
        g.write(tmp_path / "g.txt")


# ---- retrograde against networkx oracles ----------------------------------------------------
SINK = "won"


def _oracle_graph(g):
    G = g.to_networkx()
    G.add_node(SINK)
    for i in range(len(g)):
        if g.won(i):
            G.add_edge(i, SINK, count=1)
    return G


@pytest.mark.parametrize(("tln", "depth"), [(WIN_IN_1, 2), (WIN_IN_2, 3), (WIN_IN_3, 3)])
def test_retrograde_matches_networkx(tln, depth):
    g = explore(State(tln), depth=depth)
    r = retrograde(g)
    G = _oracle_graph(g)
    to_sink = nx.single_source_shortest_path_length(G.reverse(copy=True), SINK)
    won = {i for i in range(len(g)) if g.won(i)}
    for i in range(len(g)):
        # turns to win = shortest_path_length to the won set
        expected = to_sink[i] - 1 if i in to_sink else None
        assert r.turns_to_win[i] == expected, i
        if expected is not None and expected > 0:
            assert nx.shortest_path_length(G, i, SINK) - 1 == expected
        # dead nodes: expanded, no won node among the descendants
        reachable_win = bool(nx.descendants(G, i) & won) or i in won
        assert (r.status[i] == "dead") == (g.expanded[i] and not reachable_win)
        # optimal turns: exactly the turns to a successor one turn closer
        if expected:
            best = tuple(
                g.turns[j] for j in g.out_edges(i) if r.turns_to_win[g.dst[j]] == expected - 1
            )
            assert r.optimal_turns[i] == best and best
    # the number of optimal lines: all_shortest_paths, each weighted by its parallel turns
    sample = [i for i in range(len(g)) if r.turns_to_win[i]][:60]
    for i in sample:
        lines = sum(
            math.prod(G.edges[a, b]["count"] for a, b in itertools.pairwise(path))
            for path in nx.all_shortest_paths(G, i, SINK)
        )
        assert r.solutions[i] == lines, i


def test_retrograde_exactness_and_frontier():
    g = explore(State(WIN_IN_3), depth=3)
    r = retrograde(g)
    assert r.turns_to_win[0] == 3 and r.exact[0]
    frontier = [i for i in range(len(g)) if not g.expanded[i] and not g.terminal[i]]
    assert frontier and all(r.status[i] == "unknown" for i in frontier)
    assert not (r.proved_dead & set(frontier))


def _naive_two_player(graph):
    """The least fixpoint of the win/loss rules, by repeated sweeps (the oracle)."""
    n = len(graph)
    out = [[graph.dst[j] for j in graph.out_edges(i)] for i in range(n)]
    value = [graph.winner[i] if graph.terminal[i] else "" for i in range(n)]
    changed = True
    while changed:
        changed = False
        for u in range(n):
            if value[u] or graph.terminal[u]:
                continue
            me = graph.to_move[u]
            other = "black" if me == "white" else "white"
            if any(value[v] == me for v in out[u]):
                value[u], changed = me, True
            elif graph.expanded[u] and out[u] and all(value[v] == other for v in out[u]):
                value[u], changed = other, True
    return value


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_two_player_retrograde_matches_the_fixpoint_oracle(data):
    from taolong_lab.solvers.graph import StateGraph

    n = data.draw(st.integers(2, 12))
    terminal = data.draw(st.lists(st.booleans(), min_size=n, max_size=n))
    g = StateGraph("toy", None)
    for i in range(n):
        g.tln.append(f"n{i}")
        g.depth.append(0)
        g.terminal.append(terminal[i])
        g.winner.append(data.draw(st.sampled_from(["white", "black"])) if terminal[i] else "")
        g.to_move.append(data.draw(st.sampled_from(["white", "black"])))
        g.expanded.append(not terminal[i] and data.draw(st.booleans()))
    for i in range(n):
        if g.expanded[i]:
            for d in data.draw(st.lists(st.integers(0, n - 1), min_size=1, max_size=4)):
                g.src.append(i)
                g.dst.append(d)
                g.turns.append(f"{i}>{d}")
    r = retrograde_two_player(g)
    assert list(r.value) == _naive_two_player(g)
    for u in range(n):
        if not r.value[u] or g.terminal[u]:
            assert r.plies[u] == (0 if g.terminal[u] else None)
            continue
        kids = [g.dst[j] for j in g.out_edges(u)]
        if r.value[u] == g.to_move[u]:  # the winner moves: some turn keeps the win, one ply less
            assert any(r.value[v] == r.value[u] and r.plies[v] == r.plies[u] - 1 for v in kids)
        else:  # the loser moves: every turn loses, the longest resistance
            assert r.plies[u] == 1 + max(r.plies[v] for v in kids)


def test_two_player_retrograde_on_a_real_graph():

    # white to move can bite black's last segment at once (a two-player copy of WIN_IN_1)
    start = State(
        "field/grasshopper/current 8/8/8/8/8/8/8/8 "
        "d3-d2-d1-e1:4:0 d4-d5:1:0 -/-/BB/-/W/-/BWW/WB 3:8 w 1"
    )
    g = explore(start, depth=1)
    r = retrograde_two_player(g)
    assert r.value[0] == "white" and r.plies[0] == 1
    assert r.value == tuple(_naive_two_player(g))

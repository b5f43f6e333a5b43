"""taolong_lab.pictures.svg: SVG snapshots, overlays (routes, sowing, ruler attacks,
destinations, the Overlay protocol), lines, ids, options, errors, and the lazy imports (the
engine imports the pictures only to draw, and they import matplotlib only for figures)."""

from __future__ import annotations

import random
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from taolong_lab import (
    IllegalTurnError,
    Line,
    NotationError,
    State,
    TaoLongError,
    load_puzzles,
    new_game,
    solo_game,
)
from taolong_lab.engine.geometry import cell_name
from taolong_lab.pictures import (
    Overlay,
    PictureError,
    destinations,
    preview_sowing,
    svg,
    trace,
)
from taolong_lab.pictures.__main__ import main
from taolong_lab.pictures.primitives import element
from taolong_lab.rules.data import game_data

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from svg_snapshots import SNAPSHOTS, snapshot, stale_snapshots  # noqa: E402
from svg_snapshots import main as snapshots_main  # noqa: E402

sys.path.pop(0)
SNAPSHOT_DIR = Path(__file__).parents[1] / "snapshots"
REGENERATE = ".venv/bin/python tools/svg_snapshots.py"
BUSY_BEFORE = SNAPSHOTS["midgame"][0]
BUSY_TURN = SNAPSHOTS["midgame"][1]["turn"]
SOLO_BEFORE = SNAPSHOTS["solo-turn"][0]
SOLO_TURN = SNAPSHOTS["solo-turn"][1]["turn"]
FOCUS_BEFORE = (
    "field/monk/current 8/8/8/8/8/8/8/8 a3-a2-a1-b1:4:0 d8-e8-f8-g8:4:0 -/W/-/-/WB/BW/WBB/- 0:8 w 5"
)
FOCUS_TURN = "Mo/BW>Wi b3 ; Ea/WB>Wa {b:d7+} b2+"


def parse(text: str) -> ET.Element:
    root = ET.fromstring(text)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def with_class(root: ET.Element, *names: str) -> list[ET.Element]:
    return [el for el in root.iter() if set(names) <= set((el.get("class") or "").split())]


def centre(name: str, origin: float = 26) -> str:
    x, y = ord(name[0]) - 97, int(name[1:]) - 1
    return f"{origin + (x + 0.5) * 44:g},{origin + (y + 0.5) * 44:g}"


def random_states(scenario="field", mode="grasshopper", seed=0, limit=60, **kw):
    rng = random.Random(f"{scenario}/{mode}/{seed}")
    state = solo_game(scenario, mode, seed=seed) if kw.get("solo") else new_game(scenario, mode)
    out = []
    while not state.is_over() and len(out) < limit:
        out.append(state)
        state = state.play(rng.choice(state.legal_turns()))
    return out


# ---- snapshots ------------------------------------------------------------------------------
@pytest.mark.parametrize("name", list(SNAPSHOTS))
def test_snapshot_matches(name):
    path = SNAPSHOT_DIR / f"{name}.svg"
    assert path.is_file(), f"missing snapshot {path}; regenerate: {REGENERATE}"
    assert path.read_text("utf-8") == snapshot(name), (
        f"{path.name} differs from what the renderer draws; if the change is intended, "
        f"regenerate: {REGENERATE}"
    )


def test_snapshot_of_the_start_is_the_plain_board():
    assert snapshot("start") == svg(new_game()) == new_game()._repr_svg_()


def test_snapshot_check_notices_a_stale_file(tmp_path):
    assert snapshots_main([str(tmp_path)]) == 0
    assert stale_snapshots(tmp_path) == []
    assert snapshots_main(["--check", str(tmp_path)]) == 0
    (tmp_path / "midgame.svg").write_text("<svg/>", "utf-8")
    (tmp_path / "start.svg").unlink()
    assert stale_snapshots(tmp_path) == ["start", "midgame"]
    assert snapshots_main(["--check", str(tmp_path)]) == 1


# ---- ids and classes ------------------------------------------------------------------------
def test_cells_and_spaces_carry_data_ids():
    root = parse(svg(new_game()))
    cells = with_class(root, "cell")
    assert [el.get("data-cell") for el in cells] == [
        cell_name((x, y)) for y in range(8) for x in range(8)
    ]
    spaces = with_class(root, "space")
    assert [el.get("data-space") for el in spaces] == list(game_data().abbrev)
    assert [el.get("data-element") for el in spaces] == list(game_data().ring)
    assert not [el for el in root.iter() if el.get("id")]  # no ids unless asked


def test_id_prefix_gives_unique_ids():
    root = parse(svg(new_game("torus"), ids="p1-", legal=True))
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids)) == 36 + 8
    assert "p1-cell-f6" in ids and "p1-space-He" in ids


def test_body_tiles_read_straight_bent_and_tail():
    # white: a1 head, a2 (straight: a1 above, a3 below), a3 (bent: a2 above, b3 right), b3 tail
    state = State(
        "field/grasshopper/current 8/8/8/8/8/8/8/8 a1-a2-a3-b3:4:0 h8-h7-h6-h5:4:0 "
        "WW/-/BW/-/BB/-/WB/- 0:8 w 3"
    )
    root = parse(svg(state))
    white = with_class(root, "dragon", "white")[0]
    tiles = {el.get("data-cell"): el.get("class").split()[1] for el in with_class(white, "segment")}
    assert tiles == {"a2": "straight", "a3": "bent", "b3": "tail"}
    black = with_class(root, "dragon", "black")[0]
    kinds = [el.get("class").split()[1] for el in with_class(black, "segment")]
    assert kinds == ["straight", "straight", "tail"]


def test_tiles_beside_portals_and_across_the_torus():
    valley = State(
        "valley/grasshopper/current 8/3R2G1/8/3##3/3##1B1/8/1G6/8 b5-b6-[b7g2]-g3-g4:4:2 "
        "a8-b8-c8-d8:4:0 WWB/-/BW/-/BB/-/-/W 0:6 b 6"
    )
    white = with_class(parse(svg(valley)), "dragon", "white")[0]
    # b6 runs b5 -> b6 -> b7 (portal): straight; g3 runs g2 (portal) -> g3 -> g4: straight
    tiles = {el.get("data-cell"): el.get("class").split()[1] for el in with_class(white, "segment")}
    assert tiles == {"b6": "straight", "g3": "straight", "g4": "tail"}
    torus = State(
        "torus/grasshopper/current 6/6/6/6/6/6 f3-a3-a2-a1:4:0 c5-d5-e5-e4:3:1 "
        "-/W/BWW/-/-/-/WBBB/- 1:7 b 4"
    )
    white = with_class(parse(svg(torus)), "dragon", "white")[0]
    kinds = [el.get("class").split()[1] for el in with_class(white, "segment")]
    assert kinds == ["bent", "straight", "tail"]  # a3: f3 across the edge, then a2


# ---- the turn overlay --------------------------------------------------------------------
def test_route_of_a_simple_turn():
    start = new_game()
    root = parse(svg(start, turn="Wa>He a3,a4"))
    (route,) = with_class(root, "route")
    assert route.get("class").split() == ["route", "matter"]
    assert (route.get("data-from"), route.get("data-cells")) == ("a2", "a3 a4")
    assert route.get("data-colour") == "white"
    (line,) = with_class(route, "path")
    assert line.get("points") == " ".join(centre(c) for c in ("a2", "a3", "a4"))
    assert len(with_class(route, "arrowhead")) == 1
    # the picture is the position after the turn; show="before" draws the one it starts from
    assert "Turn 2: black" in svg(start, turn="Wa>He a3,a4")
    assert "Turn 1: white" in svg(start, turn="Wa>He a3,a4", show="before")
    after = start.play("Wa>He a3,a4")
    assert svg(after, turn="Wa>He a3,a4", before=start) == svg(start, turn="Wa>He a3,a4")


def test_turn_through_a_portal_with_an_expel():
    before = State(BUSY_BEFORE)
    root = parse(svg(before, turn=BUSY_TURN))
    routes = with_class(root, "route", "matter")
    assert [(r.get("data-phase"), r.get("data-from"), r.get("data-cells")) for r in routes] == [
        ("0", "f6", "f5"),
        ("1", "f5", "c7"),
    ]
    second = routes[1]
    (jump,) = with_class(second, "jump")
    assert (jump.get("x1"), jump.get("y1")) == tuple(centre("g5").split(","))
    assert (jump.get("x2"), jump.get("y2")) == tuple(centre("b7").split(","))
    pieces = [el.get("points") for el in with_class(second, "path")]
    assert pieces == [f"{centre('f5')} {centre('g5')}", f"{centre('b7')} {centre('c7')}"]
    (turn,) = with_class(root, "turn")
    assert turn.get("data-turn") == BUSY_TURN


def life(state: State, colour: str) -> int:
    return state.life(colour)


def test_attack_cells_match_the_damage_dealt():
    before = State(BUSY_BEFORE)
    after = before.play(BUSY_TURN)
    (attack,) = trace(before, BUSY_TURN).attacks
    assert (attack.colour, attack.head, attack.facing) == ("black", (2, 6), "E")
    root = parse(svg(before, turn=BUSY_TURN))
    (group,) = with_class(root, "attack")
    assert group.get("data-head") == "c7" and group.get("data-facing") == "E"
    drawn = {
        el.get("data-cell"): el.get("class").split()[1:] for el in with_class(root, "attack-cell")
    }
    assert drawn == {
        "d7": ["reached"],
        "d6": ["reached"],
        "e7": ["reached"],
        "f7": ["reached"],
        "d8": ["reached", "hit"],
    }
    assert [el.get("data-cell") for el in with_class(root, "attack-hit")] == ["d8"]
    # a Fire expel deals the ruler value plus the attacker's fire meter (A15)
    fire = before.dragon("black").fire
    assert life(before, "white") - life(after, "white") == attack.value + fire


def test_a_blocked_ruler_cell_does_not_hit():
    # black expels north from d6 on The Gorge: the white head on c5 stands in a ruler cell
    # (value 1) that d5's shadow does not reach, so the expel misses
    before = State(
        "gorge/grasshopper/current 6oo/6oo/8/3##3/3##3/8/oo6/oo6 c5-b5-b4-a4:4:0 "
        "d7-e7-e8-f8:4:0 -/-/W/BBW/-/-/BB/WW 0:8 b 6"
    )
    (attack,) = trace(before, "Th>Wa d6x").attacks
    assert attack.value == -1
    cells = {cell_name(c.cell): (c.reached, c.hit) for c in attack.cells}
    assert cells["d5"] == (True, False) and cells["c5"] == (False, False)
    assert before.play("Th>Wa d6x").life("white") == before.life("white")
    root = parse(svg(before, turn="Th>Wa d6x"))
    blocked = {el.get("data-cell") for el in with_class(root, "attack-cell", "blocked")}
    assert blocked == {"d4", "d3", "c5", "e5"}
    assert not with_class(root, "attack-hit")


@pytest.mark.parametrize(
    ("scenario", "mode"), [("field", "grasshopper"), ("valley", "master"), ("gorge", "monk")]
)
def test_every_expel_attack_explains_the_damage(scenario, mode):
    """Oracle: the damage an expel deals is the best ruler value reaching the target plus the
    bonus (fire meter for Fire, the centre's water for Water), capped by the target's life."""
    checked = 0
    for before in random_states(scenario, mode, seed=7, limit=40):
        mover = before.to_move
        other = "black" if mover == "white" else "white"
        for turn, after in before.successors():
            if len(turn.phases) != 1 or turn.phases[0].effect != "expel" or turn.phases[0].focus:
                continue
            (attack,) = trace(before, turn).attacks
            lost = life(before, other) - life(after, other)
            element = game_data().ring[turn.phases[0].element]
            bonus = before.dragon(mover).fire if element == "fire" else before.centre[0]
            expected = 0 if attack.value < 0 else min(attack.value + bonus, life(before, other))
            assert lost == expected, (before.to_tln(), str(turn), attack)
            hits = {c.cell for c in attack.cells if c.hit}
            portals = {xy for _, a, b in before.dragon(other).links for xy in (a, b)}
            tiles = set(before.cells(other)) | {before.tables.xy[c] for c in portals}
            assert hits <= tiles
            assert all(c.reached for c in attack.cells if c.hit)
            checked += 1
    assert checked > 5


def test_sowing_overlay_reproduces_the_ba_gua():
    """Oracle: dropping the traced stones on the stacks before the turn gives the stacks
    after it, in every mode and in solo."""
    count = 0
    for scenario, mode, solo in (
        ("field", "grasshopper", False),
        ("field", "master", False),
        ("valley", "monk", False),
        ("field", "monk", True),
        ("cave", "chosen-one", False),
    ):
        for before in random_states(scenario, mode, seed=3, limit=25, solo=solo):
            for turn, after in before.successors()[:12]:
                bagua = list(before.bagua)
                for sowing in trace(before, turn).sowings:
                    stack = bagua[sowing.space]
                    bagua[sowing.space] = ""
                    stones = "".join(d.stone for d in sowing.drops)
                    assert sorted(stones) == sorted(stack)
                    if mode == "grasshopper":
                        assert stones == stack  # base stone first
                    assert [d.order for d in sowing.drops] == list(range(1, len(stack) + 1))
                    for drop in sowing.drops:
                        bagua[drop.space] += drop.stone
                    assert sowing.drops[-1].space == sowing.element
                assert tuple(bagua) == after.bagua, (before.to_tln(), str(turn))
                count += 1
    assert count > 200


def test_sowing_drawn_on_the_wheel():
    root = parse(svg(new_game(), turn="Wa>He a3,a4"))
    (sowing,) = with_class(root, "sowing")
    assert (sowing.get("data-space"), sowing.get("data-landing")) == ("Wa", "He")
    drops = [
        (el.get("data-order"), el.get("data-space"), el.get("data-stone"))
        for el in with_class(root, "sow-drop")
    ]
    assert drops == [("1", "Wi", "W"), ("2", "He", "B")]  # Wa holds WB: base stone first
    assert [el.get("data-space") for el in with_class(root, "sow-from")] == ["Wa"]
    assert [el.get("data-space") for el in with_class(root, "sow-landing")] == ["He"]


def test_master_flow_is_drawn_clockwise():
    # Earth holds one white stone: a white majority flows clockwise (A27), so it lands on Thunder
    root = parse(svg(State(BUSY_BEFORE), turn=BUSY_TURN))
    first, second = with_class(root, "sowing")
    assert (first.get("data-space"), first.get("data-flow"), first.get("data-landing")) == (
        "Ea",
        "cw",
        "Th",
    )
    assert second.get("data-phase") == "1" and second.get("data-space") == "Th"


def test_solo_opponent_and_focus_routes():
    root = parse(svg(State(SOLO_BEFORE), turn=SOLO_TURN))
    opponent = with_class(root, "route", "opponent")
    assert [(r.get("data-colour"), r.get("data-from"), r.get("data-cells")) for r in opponent] == [
        ("black", "g8", "f8"),
        ("black", "f8", "f7"),
    ]
    (matter,) = with_class(root, "route", "matter")
    assert (matter.get("data-from"), matter.get("data-cells")) == ("a2", "a3")
    root = parse(svg(State(FOCUS_BEFORE), turn=FOCUS_TURN))
    (focus,) = with_class(root, "route", "focus")
    assert (focus.get("data-colour"), focus.get("data-from"), focus.get("data-cells")) == (
        "black",
        "d8",
        "d7",
    )
    assert [r.get("data-cells") for r in with_class(root, "route", "matter")] == ["b3", "b2"]


def test_trace_ends_where_the_head_is():
    for before in random_states("mist", "master", seed=5, limit=30):
        for turn, after in before.successors()[:10]:
            traced = trace(before, turn)
            matter = [r for r in traced.routes if r.kind == "matter"]
            if matter and not after.is_over():
                assert matter[-1].cells[-1] == after.cells(traced.colour)[0]


# ---- destinations, highlight ------------------------------------------------------------------
def expected_destinations(state: State, space: str | None = None) -> set[str]:
    head = state.cells(state.to_move)[0]
    out = set()
    for turn in state.legal_turns():
        phase = turn.phases[0]
        if space is not None and game_data().abbrev[phase.space] != space:
            continue
        if not (phase.penalty or phase.ended):
            out.add(cell_name(phase.path[-1] if phase.path else head))
    return out


@pytest.mark.parametrize("scenario", ["field", "valley", "torus", "wall"])
def test_legal_destinations_are_the_legal_turns_destinations(scenario):
    for state in random_states(scenario, "grasshopper", seed=11, limit=20):
        root = parse(svg(state, legal=True))
        drawn = {el.get("data-cell") for el in with_class(root, "destination")}
        assert drawn == expected_destinations(state)
        total = sum(int(el.get("data-turns")) for el in with_class(root, "destination"))
        assert total == sum(
            1 for t in state.legal_turns() if not (t.phases[0].penalty or t.phases[0].ended)
        )
        for space in {game_data().abbrev[t.phases[0].space] for t in state.legal_turns()}:
            root = parse(svg(state, legal=True, sow=space))
            drawn = {el.get("data-cell") for el in with_class(root, "destination")}
            assert drawn == expected_destinations(state, space)
            assert set(destinations(state, space)) == drawn


def test_start_destinations_and_stay():
    root = parse(svg(new_game(), legal=True))
    assert {el.get("data-cell") for el in with_class(root, "destination")} == {"a3", "a4"}
    assert not with_class(root, "stay")
    # black on The Wall can stay (Lake/Mountain facing the other axis): a ring on its head
    root = parse(svg(State(SNAPSHOTS["wall-damaged"][0]), legal=True))
    (stay,) = with_class(root, "destination", "stay")
    assert stay.get("data-cell") == "e1"


def test_explicit_destinations_and_highlight():
    root = parse(svg(new_game(), destinations=["c3", (3, 3)], highlight=["e5", "f6"]))
    assert [el.get("data-cell") for el in with_class(root, "destination")] == ["c3", "d4"]
    assert [el.get("data-cell") for el in with_class(root, "highlight")] == ["e5", "f6"]


def test_sow_preview_does_not_need_a_legal_turn():
    # sowing Fire at the start lands on Earth: white cannot go south-west... no legal turn
    state = new_game()
    assert not destinations(state, "Fi")
    root = parse(svg(state, sow="Fi", legal=True))
    assert not with_class(root, "destination")
    (sowing,) = with_class(root, "sowing")
    assert (sowing.get("data-space"), sowing.get("data-landing")) == ("Fi", "Ea")


# ---- Chosen One, options, errors --------------------------------------------------------------
def test_chosen_one_overlays_do_not_reveal_the_board():
    state = random_states("field", "chosen-one", seed=2, limit=8)[-1]
    turn = state.legal_turns()[0]
    hidden = svg(state, turn=turn, legal=True, highlight=["a1"])
    root = parse(hidden)
    for name in ("route", "destination", "attack", "highlight", "turn", "cell"):
        assert not with_class(root, name), name
    assert with_class(root, "sowing")  # the Ba Gua stays public
    after = state.play(turn)
    assert after.to_tln().split()[2] not in hidden and str(turn) not in hidden
    shown = parse(svg(state, turn=turn, legal=True, reveal=True))
    assert with_class(shown, "route") and with_class(shown, "destination")


def test_positions_as_tln_and_puzzles():
    tln = new_game().to_tln()
    assert svg(tln) == svg(new_game())
    puzzle = load_puzzles(ROOT / "puzzles" / "rulebook-solo.jsonl")[0]
    assert svg(puzzle) == svg(puzzle.start) != svg(new_game())


# ---- lines --------------------------------------------------------------------------------------
LINE_TURNS = ["Wa>He a3,a4", "Ea>Wa f8+", "Wa>Wi b4 ; Fi>Ea c4,d4"]


def test_a_line_is_drawn_as_its_end_with_its_last_turn():
    line = Line(new_game(), LINE_TURNS)
    states = line.states()
    picture = svg(line, legal=True)
    assert picture == svg(states[-1], turn=LINE_TURNS[-1], before=states[-2], legal=True)
    (turn,) = with_class(parse(picture), "turn")
    assert turn.get("data-turn") == str(line.turns[-1])
    assert line._repr_svg_() == svg(line)
    before = svg(line, show="before")
    assert before == svg(states[-2], turn=LINE_TURNS[-1], show="before")
    assert svg(line[:0]) == svg(new_game()) == Line(new_game())._repr_svg_()
    assert svg(line[:1]) == svg(new_game(), turn=LINE_TURNS[0])


def test_a_line_brings_its_own_turns():
    line = Line(new_game(), LINE_TURNS[:1])
    with pytest.raises(PictureError, match=r"^turn: a Line brings its own turns"):
        svg(line, turn="Ea>Wa f8+")
    with pytest.raises(PictureError, match=r"^before: "):
        svg(line, before=new_game())


# ---- the Overlay protocol -------------------------------------------------------------------
class Marks(Overlay):
    """A test overlay: one element in each layer, naming the layer and its geometry."""

    def under(self, grid):
        x, y = grid.centre((2, 2))
        return [element("rect", class_="mark-under", x=x, y=y, width=grid.cell, height=1)]

    def over(self, grid):
        x, y = grid.corner((7, 7))
        return [element("circle", class_="mark-over", cx=x, cy=y, r=grid.cell / 4)]

    def wheel(self, wheel):
        x, y = wheel.point(0)
        return [element("circle", class_="mark-wheel", cx=x, cy=y, r=wheel.cup)]


def test_an_overlay_draws_in_its_three_layers():
    picture = svg(new_game(), overlays=[Marks()])
    order = [
        cls
        for el in parse(picture).iter()
        for cls in (el.get("class") or "").split()[:1]
        if cls in ("cell", "mark-under", "features", "dragon", "mark-over", "bagua", "mark-wheel")
    ]
    first = {name: order.index(name) for name in set(order)}
    assert first["cell"] < first["mark-under"] < first["dragon"] < first["mark-over"]
    assert first["bagua"] < first["mark-wheel"]
    (under,) = with_class(parse(picture), "mark-under")
    assert [under.get("x"), under.get("y"), under.get("width")] == [
        *centre("c3").split(","),
        "44",
    ]
    (wheel,) = with_class(parse(picture), "mark-wheel")
    (heaven,) = [el for el in with_class(parse(picture), "space") if el.get("data-space") == "He"]
    cup = next(el for el in heaven if el.tag.endswith("circle"))
    assert (wheel.get("cx"), wheel.get("cy"), wheel.get("r")) == (
        cup.get("cx"),
        cup.get("cy"),
        cup.get("r"),
    )
    # the given overlays come after the ones the options ask for
    both = parse(svg(new_game(), highlight=["a1"], overlays=[Marks()]))
    kinds = [
        el.get("class") for el in both.iter() if el.get("class") in ("highlight", "mark-under")
    ]
    assert kinds == ["highlight", "mark-under"]


def test_a_hidden_board_keeps_only_the_wheel_layer():
    state = new_game("field", "chosen-one")
    root = parse(svg(state, overlays=[Marks()]))
    assert not with_class(root, "mark-under") and not with_class(root, "mark-over")
    assert len(with_class(root, "mark-wheel")) == 1
    assert len(with_class(parse(svg(state, overlays=[Marks()], reveal=True)), "mark-over")) == 1
    assert not with_class(parse(svg(state, overlays=[Marks()], panel=False)), "mark-wheel")


def test_the_default_layers_draw_nothing():
    class Empty(Overlay):
        pass

    assert svg(new_game(), overlays=[Empty()]) == svg(new_game())


def test_options_pass_through():
    bare = parse(svg(new_game(), size=300, coordinates=False, panel=False))
    assert bare.get("width") == "300"
    assert not with_class(bare, "bagua") and not with_class(bare, "coordinates")


def test_errors_are_clear():
    start = new_game()
    with pytest.raises(IllegalTurnError):
        svg(start, turn="He>Fi h8+")
    with pytest.raises(PictureError, match=r"^before: .* does not lead to this position"):
        svg(start, turn="Wa>He a3,a4", before=start)
    with pytest.raises(NotationError, match="nothing to sow"):
        svg(start, sow="La")
    with pytest.raises(NotationError):
        svg(start, sow="Xx")
    with pytest.raises(PictureError, match=r"^show: "):
        svg(start, turn="Wa>He a3,a4", show="later")


@pytest.mark.parametrize(
    ("options", "argument"),
    [
        ({"position": 42}, "position"),
        ({"position": None}, "position"),
        ({"size": 0}, "size"),
        ({"size": -300}, "size"),
        ({"size": float("nan")}, "size"),
        ({"size": float("inf")}, "size"),
        ({"size": 10**9}, "size"),
        ({"size": 10**5000}, "size"),
        ({"size": "300"}, "size"),
        ({"size": True}, "size"),
        ({"panel": "no"}, "panel"),
        ({"coordinates": None}, "coordinates"),
        ({"reveal": 1}, "reveal"),
        ({"legal": "yes"}, "legal"),
        ({"ids": 7}, "ids"),
        ({"show": "later", "turn": "Wa>He a3,a4"}, "show"),
        ({"before": new_game()}, "before"),
        ({"before": 42, "turn": "Wa>He a3,a4"}, "before"),
        ({"turn": 42}, "turn"),
        ({"highlight": ["z9"]}, "highlight"),
        ({"highlight": [(8, 0)]}, "highlight"),
        ({"highlight": [(1, 2, 3)]}, "highlight"),
        ({"highlight": [("a", 1)]}, "highlight"),
        ({"highlight": ["a" * 10**6]}, "highlight"),
        ({"highlight": "a1"}, "highlight"),
        ({"highlight": ["not a cell"]}, "highlight"),
        ({"highlight": 5}, "highlight"),
        ({"destinations": [(-1, 0)]}, "destinations"),
        ({"destinations": [3.5]}, "destinations"),
        ({"overlays": [object()]}, "overlays"),
        ({"overlays": ["<circle/>"]}, "overlays"),
        ({"overlays": Marks()}, "overlays"),
        ({"overlays": None}, "overlays"),
    ],
    ids=lambda v: v if isinstance(v, str) else None,
)
def test_a_bad_argument_is_named(options, argument):
    options = dict(options)
    position = options.pop("position", new_game())
    with pytest.raises(TaoLongError, match=f"^{argument}: ") as raised:
        svg(position, **options)
    if isinstance(raised.value, PictureError):
        assert raised.value.argument == argument


def test_cells_off_a_smaller_board_are_refused():
    torus = new_game("torus")
    assert with_class(parse(svg(torus, highlight=["f6"])), "highlight")
    with pytest.raises(PictureError, match=r"^highlight: 'g1' is off the 6x6 board"):
        svg(torus, highlight=["g1"])


def test_helpers_name_their_arguments():
    with pytest.raises(PictureError, match=r"^before: expected a State"):
        trace("Wa>He a3,a4", "Wa>He a3,a4")
    with pytest.raises(PictureError, match=r"^state: "):
        destinations(new_game().to_tln())
    with pytest.raises(PictureError, match=r"^drops: "):
        preview_sowing(new_game(), "Wa", drops=2)


def test_deterministic():
    state = random_states("valley", "master", seed=1, limit=30)[-1]
    turn = state.legal_turns()[-1]
    one = svg(state, turn=turn, legal=True, highlight=["a1"])
    assert one == svg(State(state.to_tln()), turn=str(turn), legal=True, highlight=["a1"])


def test_every_variant_with_overlays_is_well_formed():
    for scenario, mode in (("mist", "monk"), ("maze", "master"), ("cave", "grasshopper")):
        for state in random_states(scenario, mode, seed=9, limit=15)[::3]:
            for turn in state.legal_turns()[:4]:
                text = svg(state, turn=turn, legal=True, reveal=True)
                parse(text)
                assert "nan" not in text.lower()


# ---- laziness ---------------------------------------------------------------------------------
def test_pictures_are_imported_only_to_draw_and_matplotlib_only_for_figures():
    code = """
import random, sys
import taolong_lab
from taolong_lab import new_game
state, rng = new_game("valley", "master"), random.Random(1)
while not state.is_over():
    state = state.play(rng.choice(state.legal_turns()))
assert "taolong_lab.pictures" not in sys.modules, "playing a game imported the pictures"
state._repr_svg_()
print(str(state)[:1])
assert "taolong_lab.pictures" in sys.modules
assert "matplotlib" not in sys.modules, "drawing an SVG imported matplotlib"
import taolong_lab.pictures as pictures
pictures.svg(state, legal=True)
assert "matplotlib" not in sys.modules, "importing the pictures imported matplotlib"
pictures.figure
assert "matplotlib" in sys.modules
print("ok")
"""
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("ok")


def test_module_main_prints_a_picture(capsys):
    assert main(["--turn", "Wa>He a3,a4", "--legal"]) == 0
    assert capsys.readouterr().out == svg(new_game(), turn="Wa>He a3,a4", legal=True)


def test_module_main_names_a_bad_argument(capsys):
    assert main(["--size", "0"]) == 2
    out, err = capsys.readouterr()
    assert not out and err == "error: size: must be above 0 and at most 20000, not 0\n"
    assert main(["--highlight", "a1,z9"]) == 2
    assert capsys.readouterr().err.startswith("error: ")


def test_bench_script_runs(tmp_path):
    bench = Path(__file__).resolve().parents[2] / "bench" / "render.py"
    out = tmp_path / "render.json"
    done = subprocess.run(
        [sys.executable, str(bench), "--repeat", "1", "--limit", "2", "--json", str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "svg turn" in done.stdout and "goal: every SVG under 20 ms" in done.stdout
    import json

    results = json.loads(out.read_text("utf-8"))
    assert set(results) == {"svg", "svg legal", "svg turn", "figure"}
    assert results["svg"]["positions"] == 6

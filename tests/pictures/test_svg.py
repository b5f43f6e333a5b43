"""The SVG picture of a position (taolong_lab.pictures.svg): valid, deterministic, faithful."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from taolong_lab import State, new_game, pictures
from taolong_lab.pictures.__main__ import main
from taolong_lab.rules.data import game_data

NS = {"svg": "http://www.w3.org/2000/svg"}
TEXT = "{http://www.w3.org/2000/svg}text"
FINAL_TLN = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 h8:0:3 e7-d7-d6:1:0 B/W/B/WB/WB/-/W/- 7:5 w 451"
)
BIG_STACK_TLN = (
    "field/grasshopper/current 8/8/8/8/8/8/8/8 b4-b3-a3-a2:4:2 e7-e8-f8-g8:4:0 "
    "WBWBWBWB/-/-/-/-/-/-/- 0:6 w 7"
)


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    return root


def with_class(root: ET.Element, *names: str) -> list[ET.Element]:
    """Elements whose class attribute holds all of ``names``."""
    return [el for el in root.iter() if set(names) <= set((el.get("class") or "").split())]


def stones(root: ET.Element) -> dict[str, str]:
    """The Ba Gua stacks as drawn: space name -> 'W'/'B' string in drawing (stack) order."""
    found: dict[str, list[tuple[int, str]]] = {}
    for el in with_class(root, "stone"):
        assert el.tag == "{http://www.w3.org/2000/svg}circle"
        mark = "W" if "white" in el.get("class").split() else "B"
        found.setdefault(el.get("data-space"), []).append((int(el.get("data-index")), mark))
    return {space: "".join(mark for _, mark in sorted(marks)) for space, marks in found.items()}


def random_states(seed: int, limit: int = 400) -> list[State]:
    rng = random.Random(seed)
    state, out = new_game(), []
    while not state.is_over() and len(out) < limit:
        out.append(state)
        state = state.play(rng.choice(state.legal_turns()))
    out.append(state)
    return out


def test_start_is_valid_svg_with_title():
    svg = pictures.svg(new_game())
    root = parse(svg)
    title = root.find("svg:title", NS)
    assert title is not None and new_game().to_tln() in title.text
    assert root.get("viewBox").startswith("0 0 ")


def test_one_head_per_dragon_facing_its_way():
    root = parse(pictures.svg(new_game()))
    heads = with_class(root, "head")
    assert len(heads) == 2
    white, black = with_class(root, "head", "white"), with_class(root, "head", "black")
    assert len(white) == len(black) == 1
    assert white[0].get("data-facing") == "S"
    assert black[0].get("data-facing") == "W"
    assert "rotate(180 " in white[0].get("transform")
    assert "rotate(270 " in black[0].get("transform")
    assert not with_class(root, "defeated")
    # a body drawn through the cells of each dragon: 3 segments each
    assert len(with_class(root, "segment")) == 6
    bodies = with_class(root, "body")
    assert len(bodies) == 2
    assert all(len(b.get("points").split()) == 4 for b in bodies)


def test_start_stones_and_fills():
    root = parse(pictures.svg(new_game()))
    circles = with_class(root, "stone")
    assert len(circles) == 8
    assert len(with_class(root, "stone", "white")) == 4
    assert len(with_class(root, "stone", "black")) == 4
    fills = {el.get("fill") for el in with_class(root, "stone", "white")}
    assert len(fills) == 1
    assert fills != {el.get("fill") for el in with_class(root, "stone", "black")}
    # stack order, base first, as in the TLN field: Fire is black under white
    assert stones(root) == {"He": "WW", "Fi": "BW", "Ea": "BB", "Wa": "WB"}


def test_spaces_in_ring_order_heaven_on_top_sowing_to_the_left():
    root = parse(pictures.svg(new_game()))
    spaces = [el for el in root.iter() if el.get("class") == "space"]
    assert [el.get("data-space") for el in spaces] == list(game_data().abbrev)
    assert [el.get("data-element") for el in spaces] == list(game_data().ring)
    centres = []
    for el in spaces:
        cup = el.find("svg:circle", NS)
        centres.append((float(cup.get("cx")), float(cup.get("cy"))))
    (hx, hy), (lx, ly), (fx, fy) = centres[0], centres[1], centres[2]
    _, ey = centres[4]
    wx, _ = centres[6]
    assert hy < ly < fy < ey  # Heaven at the top, Earth at the bottom
    assert lx < hx and fx < lx  # Lake and Fire to the left: counterclockwise
    assert wx > hx  # Water on the right
    # each space carries its abbreviation
    labels = [el.findtext("svg:text", namespaces=NS) for el in spaces]
    assert labels == list(game_data().abbrev)


def test_meters_and_centre():
    state = State(FINAL_TLN)
    root = parse(pictures.svg(state))
    white = with_class(root, "card", "white")[0]
    black = with_class(root, "card", "black")[0]
    assert len(with_class(white, "meter-water", "full")) == 0
    assert len(with_class(white, "meter-fire", "full")) == 3
    assert len(with_class(black, "meter-water", "full")) == 1
    assert len(with_class(black, "segment-mark", "kept")) == 2
    assert len(with_class(white, "segment-mark")) == 3
    centre = with_class(root, "centre")[0]
    assert texts(centre) == ["centre", "7", "5"]
    assert "Game over: black wins" in texts(root)
    assert "white lost its last segment" in texts(root)


def test_defeated_head_is_marked():
    root = parse(pictures.svg(State(FINAL_TLN)))
    defeated = with_class(root, "head", "defeated")
    assert len(defeated) == 1 and "white" in defeated[0].get("class").split()
    assert len(with_class(root, "defeated-mark")) == 1
    assert len(with_class(root, "head")) == 2


def texts(root: ET.Element) -> list[str]:
    return [el.text for el in root.iter(TEXT)]


def test_whose_turn():
    assert "Turn 1: white (Tianlong) to move" in texts(parse(pictures.svg(new_game())))
    assert "Turn 2: black (Dilong) to move" in texts(
        parse(pictures.svg(new_game().play("Wa>He a3,a4")))
    )


def test_changes_after_a_move():
    start = new_game()
    after = start.play("Wa>He a3,a4")
    before_svg, after_svg = pictures.svg(start), pictures.svg(after)
    assert before_svg != after_svg
    root = parse(after_svg)
    assert stones(root) == {"He": "WWB", "Fi": "BW", "Ea": "BB", "Wi": "W"}
    white_body = with_class(root, "body")[0]
    assert white_body.get("points") == " ".join(
        f"{26 + (x + 0.5) * 44:g},{26 + (y + 0.5) * 44:g}" for x, y in after.cells("white")
    )


def test_big_stacks_keep_every_stone_in_order():
    root = parse(pictures.svg(State(BIG_STACK_TLN)))
    assert stones(root) == {"He": "WBWBWBWB"}


def test_deterministic_and_scalable():
    state = random_states(3)[40]
    assert pictures.svg(state) == pictures.svg(State(state.to_tln()))
    small = parse(pictures.svg(state, size=300))
    assert small.get("width") == "300"
    big = parse(pictures.svg(state))
    # the same width of units; drawn small, larger labels may make the caption longer
    assert small.get("viewBox").split()[:3] == big.get("viewBox").split()[:3]
    bare = parse(pictures.svg(state, coordinates=False, panel=False))
    assert not with_class(bare, "bagua") and not with_class(bare, "coordinates")
    assert len(with_class(bare, "head")) == 2


def test_repr_svg_hook():
    state = new_game()
    assert state._repr_svg_() == pictures.svg(state)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_position_of_a_game_renders(seed):
    for state in random_states(seed):
        root = parse(pictures.svg(state))
        assert len(with_class(root, "head")) == 2
        assert "".join(stones(root).values()).count("W") == 4
        assert len(with_class(root, "stone")) == 8
        drawn = stones(root)
        assert drawn == {
            name: s for name, s in zip(game_data().abbrev, state.bagua, strict=True) if s
        }


def test_no_unformatted_numbers():
    svg = pictures.svg(random_states(5)[25])
    assert not re.search(r"\d\.\d{3,}", svg)
    assert "nan" not in svg.lower()


def test_module_main_prints_the_start(capsys):
    assert main([]) == 0
    assert capsys.readouterr().out == pictures.svg(new_game())
    assert main(FINAL_TLN.split()) == 0
    assert capsys.readouterr().out == pictures.svg(State(FINAL_TLN))


# ---- the board's features (issue 3): rocks, the village, portals, the Torus, modes ---------
VALLEY_LINKED = (
    "valley/grasshopper/current 8/3R2G1/8/3##3/3##1B1/8/1G6/8 b5-b6-[b7g2]-g3-g4:4:2 "
    "a8-b8-c8-d8:4:0 WWB/-/BW/-/BB/-/-/W 0:6 b 6"
)
VALLEY_TWO_LINKS = (
    "valley/grasshopper/current 8/3R2G1/8/3##3/3##1B1/8/1G6/8 d3-[d2g5]-f5-f4-f3:2:3 "
    "e2-f2-[g2b7]-b6-c6:4:1 BB/WW/W/W/B/-/B/- 2:4 b 48"
)
WALL_DAMAGED = (
    "wall/master/current 7d/6d1/8/8/8/2o5/1o6/o7 h2-h3-h4-h5:2:1 e1-d1-d2-d3:2:0 "
    "B/-/-/WWB/-/WB/B/W@ccw 4:7 b 22"
)
TORUS_WRAPPED = (
    "torus/grasshopper/current 6/6/6/6/6/6 f3-a3-a2-a1:4:0 c5-d5-e5-e4:3:1 "
    "-/W/BWW/-/-/-/WBBB/- 1:7 b 4"
)
SCENARIOS = ("field", "valley", "gorge", "torus", "wall", "cave", "mist", "maze")
MODES = ("grasshopper", "monk", "master", "chosen-one")
PORTAL_NAMES = {"G": "green", "R": "red", "B": "blue", "Y": "yellow"}


def board_rows(state: State) -> list[str]:
    """The TLN board field, expanded: one symbol per cell."""
    rows = state.to_tln().split()[1].split("/")
    return [re.sub(r"\d", lambda m: "." * int(m[0]), row) for row in rows]


def symbol_cells(state: State, symbols: str) -> set[str]:
    return {
        f"{chr(97 + x)}{y + 1}"
        for y, row in enumerate(board_rows(state))
        for x, sym in enumerate(row)
        if sym in symbols
    }


def cells_of(elements) -> set[str]:
    return {cell for el in elements for cell in el.get("data-cells").split()}


def assert_features_match(state: State, root: ET.Element) -> None:
    """Every rock, village cell and portal of the TLN board is drawn once, with its state."""
    assert cells_of(with_class(root, "big-rock")) == symbol_cells(state, "#")
    assert cells_of(with_class(root, "village")) == symbol_cells(state, "V")
    rocks = with_class(root, "rock")
    assert sorted(el.get("data-cell") for el in rocks) == sorted(symbol_cells(state, "od"))
    assert {el.get("data-cell") for el in with_class(root, "rock", "damaged")} == symbol_cells(
        state, "d"
    )
    breakable = state.tables.breakable
    for el in rocks:
        assert ("breakable" in el.get("class").split()) == breakable
        hits = el.get("data-hits")
        if breakable:
            cell = el.get("data-cell")
            xy = (ord(cell[0]) - 97, int(cell[1:]) - 1)
            assert int(hits) == state.rocks[xy]
            assert len(with_class(el, "hit-pip", "left")) == int(hits)
            assert bool(with_class(el, "crack")) == (int(hits) == 1)
        else:
            assert hits is None
    portals = with_class(root, "portal")
    drawn = sorted((el.get("data-cell"), el.get("data-colour")) for el in portals)
    expected = sorted(
        (f"{chr(97 + x)}{y + 1}", PORTAL_NAMES[sym])
        for y, row in enumerate(board_rows(state))
        for x, sym in enumerate(row)
        if sym in PORTAL_NAMES
    )
    assert drawn == expected
    occupied = {}
    for colour in ("white", "black"):
        for _, exit_, entry in state.dragon(colour).links:
            for cell in (exit_, entry):
                occupied[state.tables.geo.name(cell)] = colour
    for el in portals:
        cell = el.get("data-cell")
        classes = el.get("class").split()
        assert ("occupied" in classes) == (cell in occupied) == ("free" not in classes)
        assert el.get("data-dragon") == occupied.get(cell)
    links = with_class(root, "portal-link")
    assert len(links) == sum(len(state.dragon(c).links) for c in ("white", "black"))


@pytest.mark.parametrize("scenario", SCENARIOS)
def test_every_scenario_start_draws_its_features(scenario):
    state = new_game(scenario)
    root = parse(pictures.svg(state))
    assert_features_match(state, root)
    width = len(board_rows(state)[0])
    coordinates = with_class(root, "coordinates")[0]
    assert len(texts(coordinates)) == width + len(board_rows(state))
    assert load_name(scenario) in " ".join(texts(root))


def load_name(scenario: str) -> str:
    from taolong_lab.rules.scenario import load_scenario

    return load_scenario(scenario).name


def test_start_feature_counts():
    valley = parse(pictures.svg(new_game("valley")))
    assert len(with_class(valley, "big-rock")) == 1  # one boulder over the 2x2 block
    assert len(with_class(valley, "portal")) == 4
    assert len(with_class(valley, "portal", "green")) == 2
    assert len(with_class(valley, "portal", "free")) == 4
    mist = parse(pictures.svg(new_game("mist")))
    for colour in PORTAL_NAMES.values():
        assert len(with_class(mist, "portal", colour)) == 2
    wall = parse(pictures.svg(new_game("wall")))
    assert len(with_class(wall, "rock", "breakable")) == 8
    assert not with_class(wall, "damaged")
    assert len(with_class(wall, "hit-pip", "left")) == 16
    gorge = parse(pictures.svg(new_game("gorge")))
    assert len(with_class(gorge, "rock")) == 8 and not with_class(gorge, "breakable")
    field = parse(pictures.svg(new_game()))
    for name in ("big-rock", "rock", "village", "portal", "portal-link", "flux-coin", "wrap"):
        assert not with_class(field, name), name


def test_occupied_portals_are_closed_and_joined_to_the_dragon():
    state = State(VALLEY_LINKED)
    root = parse(pictures.svg(state))
    assert_features_match(state, root)
    occupied = with_class(root, "portal", "occupied")
    assert sorted(el.get("data-cell") for el in occupied) == ["b7", "g2"]
    assert {el.get("data-dragon") for el in occupied} == {"white"}
    assert sorted(el.get("data-cell") for el in with_class(root, "portal", "free")) == [
        "d2",
        "g5",
    ]
    # closed: filled with the portal's colour, where a free portal is pale
    assert occupied[0].find("svg:circle[2]", NS).get("fill") != "none"
    # the white body runs b5-b6 into the exit portal b7, then from the entry portal g2 on
    white = with_class(root, "dragon", "white")[0]
    runs = [el.get("points") for el in with_class(white, "body")]

    def centre(name):
        x, y = ord(name[0]) - 97, int(name[1:]) - 1
        return f"{26 + (x + 0.5) * 44:g},{26 + (y + 0.5) * 44:g}"

    assert runs == [
        " ".join(centre(c) for c in ("b5", "b6", "b7")),
        " ".join(centre(c) for c in ("g2", "g3", "g4")),
    ]
    # the mouths of both portals are drawn over the body
    assert sorted(el.get("data-cell") for el in with_class(white, "portal-mouth")) == ["b7", "g2"]
    (link,) = with_class(root, "portal-link")
    assert (link.get("data-exit"), link.get("data-entry")) == ("b7", "g2")
    assert "white" in link.get("class").split()
    # scale marks: one per segment, none in the portals
    assert len(with_class(white, "segment")) == 3


def test_two_dragons_through_portals():
    state = State(VALLEY_TWO_LINKS)
    root = parse(pictures.svg(state))
    assert_features_match(state, root)
    owners = {el.get("data-cell"): el.get("data-dragon") for el in with_class(root, "portal")}
    assert owners == {"d2": "white", "g5": "white", "g2": "black", "b7": "black"}
    for colour in ("white", "black"):
        dragon = with_class(root, "dragon", colour)[0]
        assert len(with_class(dragon, "body")) == 2
        assert len(with_class(dragon, "portal-mouth")) == 2


def test_damaged_rocks_are_cracked_and_show_their_hits():
    state = State(WALL_DAMAGED)
    root = parse(pictures.svg(state))
    assert_features_match(state, root)
    damaged = with_class(root, "rock", "damaged")
    assert sorted(el.get("data-cell") for el in damaged) == ["g2", "h1"]
    assert all(el.get("data-hits") == "1" for el in damaged)
    assert all(len(with_class(el, "crack")) == 2 for el in damaged)
    assert all(len(with_class(el, "hit-pip")) == 2 for el in damaged)
    whole = [el for el in with_class(root, "rock") if el not in damaged]
    assert len(whole) == 3 and all(el.get("data-hits") == "2" for el in whole)
    assert not any(with_class(el, "crack") for el in whole)
    assert "rocks break after 2 hits (pips: hits left)" in texts(root)


def test_the_torus_is_six_by_six_and_wraps():
    state = State(TORUS_WRAPPED)
    root = parse(pictures.svg(state))
    coordinates = texts(with_class(root, "coordinates")[0])
    assert coordinates == list("abcdef") + [str(i) for i in range(1, 7)]
    board = with_class(root, "board")[0]
    assert "torus" in board.get("class").split()
    assert len([el for el in board if el.tag.endswith("rect") and el.get("width") == "44"]) == 36
    arrows = with_class(root, "wrap-arrow")
    assert sorted(el.get("data-edge") for el in arrows) == [
        "bottom",
        "bottom",
        "left",
        "right",
        "top",
        "top",
    ]
    assert "opposite edges are joined" in texts(root)
    # the white dragon f3-a3-a2-a1 crosses the east/west edge between its head and neck:
    # one stub out of f3 to the right edge, one in from the left edge to a3
    white = with_class(root, "dragon", "white")[0]
    stubs = [el.get("points") for el in with_class(white, "body-stub")]
    assert stubs == ["268,136 290,136", "26,136 48,136"]
    assert [el.get("points") for el in with_class(white, "body")] == ["48,136 48,92 48,48"]
    assert with_class(root, "head", "white")[0].get("data-facing") == "W"
    # the black dragon does not wrap
    black = with_class(root, "dragon", "black")[0]
    assert not with_class(black, "body-stub") and len(with_class(black, "body")) == 1


def test_the_village_and_its_protector():
    state = new_game("field", village="black")
    root = parse(pictures.svg(state))
    assert_features_match(state, root)
    (village,) = with_class(root, "village")
    assert village.get("data-cells") == "d4 e4 d5 e5"
    assert village.get("data-protector") == "black"
    assert with_class(village, "banner")[0].get("data-colour") == "black"
    assert len(with_class(village, "roof")) >= 4
    protector = with_class(root, "protector")
    assert [el.get("data-colour") for el in protector] == ["black"]
    assert with_class(root, "card", "black")[0].find(".//svg:g", NS) is protector[0]
    assert "the black dragon protects the village" in " ".join(texts(root))


@pytest.mark.parametrize("mode", MODES)
def test_flux_coin_only_in_master_and_chosen_one(mode):
    state = new_game(mode=mode)
    root = parse(pictures.svg(state, reveal=True))
    coins = with_class(root, "flux-coin")
    flows = with_class(root, "flow")
    assert len(flows) == 8
    if mode in ("master", "chosen-one"):
        assert [el.get("data-flux") for el in coins] == [state.flux] == ["ccw"]
        assert all("both" in el.get("class").split() for el in flows)
    else:
        assert not coins
        assert not any("both" in el.get("class").split() for el in flows)


def test_flux_coin_shows_both_sides():
    ccw = new_game(mode="master")
    cw = State(ccw.to_tln().replace("@ccw", "@cw"))
    sides = []
    for state in (ccw, cw):
        (coin,) = with_class(parse(pictures.svg(state)), "flux-coin")
        assert coin.get("data-flux") == state.flux
        assert state.flux in texts(coin)
        sides.append(coin.findall("svg:circle", NS)[1].get("fill"))
    assert sides[0] != sides[1]  # black side up, white side up


def test_chosen_one_hides_the_board_unless_revealed():
    state = random_playout("cave", "chosen-one", 1, 12)
    hidden = parse(pictures.svg(state))
    assert len(with_class(hidden, "board", "hidden")) == 1
    for name in ("head", "dragon", "rock", "portal", "coordinates", "features"):
        assert not with_class(hidden, name), name
    note = " ".join(texts(hidden))
    assert "The Board of Human" in note and "in the players' minds" in note
    # nothing in the picture gives the position away: no cell names, no TLN
    svg = pictures.svg(state)
    board_field = state.to_tln().split()[1]
    assert board_field not in svg and state.to_tln().split()[2] not in svg
    title = hidden.find("svg:title", NS).text
    assert "hidden" in title and state.to_tln() not in title
    # the Ba Gua, the meters and the flux coin stay
    assert len(with_class(hidden, "stone")) == 8 and with_class(hidden, "flux-coin")
    assert len(with_class(hidden, "card")) == 2
    shown = parse(pictures.svg(state, reveal=True))
    assert not with_class(shown, "hidden")
    assert len(with_class(shown, "head")) == 2
    assert_features_match(state, shown)
    assert state.to_tln() in shown.find("svg:title", NS).text
    # the same size either way
    assert hidden.get("viewBox") == shown.get("viewBox")
    # other modes ignore reveal
    other = new_game("cave", "master")
    assert pictures.svg(other) == pictures.svg(other, reveal=True)


def random_playout(scenario: str, mode: str, seed: int, turns: int, **options) -> State:
    rng = random.Random(f"{scenario}/{mode}/{seed}")
    state = new_game(scenario, mode, **options)
    for _ in range(turns):
        if state.is_over():
            break
        state = state.play(rng.choice(state.legal_turns()))
    return state


def variants():
    """Every scenario x mode, plus the Village where a scenario allows it."""
    for scenario in SCENARIOS:
        for mode in MODES:
            yield scenario, mode, {}
        if scenario in ("field", "valley", "mist"):
            yield scenario, "monk", {"village": "white"}


@pytest.mark.parametrize(
    ("scenario", "mode", "options"),
    list(variants()),
    ids=lambda v: v if isinstance(v, str) else ",".join(f"{k}={x}" for k, x in v.items()),
)
def test_random_positions_of_every_variant_render(scenario, mode, options):
    for seed, turns in ((1, 9), (2, 33), (3, 400)):
        state = random_playout(scenario, mode, seed, turns, **options)
        svg = pictures.svg(state, reveal=True)
        root = parse(svg)  # well-formed XML
        assert_features_match(state, root)
        assert len(with_class(root, "head")) == 2
        assert len(with_class(root, "stone")) == 8
        assert not re.search(r"\d\.\d{3,}", svg) and "nan" not in svg.lower()
        assert svg == pictures.svg(State(state.to_tln()), reveal=True)  # deterministic
        plain = parse(pictures.svg(state))
        assert bool(with_class(plain, "hidden")) == (mode == "chosen-one")
        assert bool(with_class(plain, "flux-coin")) == (mode in ("master", "chosen-one"))


def test_the_command_line_prints_the_picture(capsys):
    from taolong_lab.cli import main as taolong

    assert taolong(["show", "--svg"]) == 0
    assert capsys.readouterr().out == pictures.svg(new_game())
    assert taolong(["play", "--svg", "Wa>He a3,a4", "Ea>Wa f8+"]) == 0
    after = new_game().play("Wa>He a3,a4").play("Ea>Wa f8+")
    assert capsys.readouterr().out == pictures.svg(after)
    assert taolong(["show", "--svg", "--scenario", "cave", "--mode", "chosen-one"]) == 0
    hidden = capsys.readouterr().out
    assert hidden == pictures.svg(new_game("cave", "chosen-one")) and "hidden" in hidden
    assert taolong(["show", "--svg", "--json"]) == 2
    out, err = capsys.readouterr()
    assert not out and err.count("\n") == 1 and err.startswith("taolong: error: ")


def test_module_main_reveal(capsys):
    tln = new_game("cave", "chosen-one").to_tln()
    assert main(["--reveal", *tln.split()]) == 0
    assert capsys.readouterr().out == pictures.svg(State(tln), reveal=True)


# ---- readable at a small size: stones in their spaces, markers off the stones, a legend ----------
def _circle(el: ET.Element) -> tuple[float, float, float]:
    return float(el.get("cx")), float(el.get("cy")), float(el.get("r"))


@pytest.mark.parametrize("count", range(1, 9))
def test_every_stone_lies_inside_its_space(count):
    stones = "WB" * 4  # Heaven holds ``count`` of them, Lake the others
    tln = BIG_STACK_TLN.replace("WBWBWBWB/-/", f"{stones[:count]}/{stones[count:] or '-'}/")
    root = parse(pictures.svg(State(tln)))
    for space in with_class(root, "space"):
        cup = next(el for el in space if el.tag.endswith("circle"))
        cx, cy, r = _circle(cup)
        rim = r - float(cup.get("stroke-width")) / 2  # inside the space's outline
        for stone in with_class(space, "stone"):
            x, y, s = _circle(stone)
            outer = ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 + s + 0.65  # with half its outline
            assert outer <= rim, (count, space.get("data-space"))


@pytest.mark.parametrize("size", [None, 380])
def test_the_sowing_order_markers_do_not_cover_stones(size):
    for state in random_states(seed=3, limit=60):
        space = next((i for i, stack in enumerate(state.bagua) if len(stack) >= 3), None)
        if space is None:
            continue
        root = parse(pictures.svg(state, sow=space, size=size))
        discs = [_circle(el) for el in with_class(root, "stone")]
        for drop in with_class(root, "sow-drop"):
            x, y, r = _circle(next(el for el in drop if el.tag.endswith("circle")))
            for sx, sy, s in discs:
                assert ((x - sx) ** 2 + (y - sy) ** 2) ** 0.5 >= r + 1 + s, state.to_tln()


def test_an_expel_has_a_legend_and_other_turns_none():
    played = new_game().play("Wa>He a3,a4")
    expel = texts(parse(pictures.svg(played, turn="Ea>Wa f8x")))
    absorb = texts(parse(pictures.svg(played, turn="Ea>Wa f8+")))
    assert any(line.startswith("red squares: the expel's ruler") for line in expel)
    assert not any("red squares" in line for line in absorb)


@pytest.mark.parametrize(
    ("scenario", "mode", "options"),
    [
        ("field", "grasshopper", {"turn": "Ea>Wa f8x"}),  # an expel and its legend
        ("field", "grasshopper", {"sow": "Wa"}),  # the sowing-order markers
        ("torus", "master", {"legal": True}),  # the note under the Torus, the flux coin
        ("valley", "chosen-one", {}),  # the hidden board's note
    ],
)
def test_every_text_is_at_least_nine_pixels_at_size_380(scenario, mode, options):
    state = new_game(scenario, mode)
    if "turn" in options:
        state = state.play("Wa>He a3,a4")
    root = parse(pictures.svg(state, size=380, **options))
    scale = 380 / float(root.get("viewBox").split()[2])
    small = {}
    for parent in root.iter():
        for el in parent.iter(TEXT):
            size = el.get("font-size") or parent.get("font-size")
            if size is not None and round(float(size) * scale, 1) < 9:  # sizes are rounded
                small["".join(el.itertext())] = round(float(size) * scale, 1)
    assert small == {}
    natural = parse(pictures.svg(state, **options))  # the natural size keeps its fonts
    assert with_class(natural, "status")[0].get("font-size") == "13.5"

"""The SVG picture of a position (views/svg.py): valid, deterministic, faithful."""

from __future__ import annotations

import random
import re
import xml.etree.ElementTree as ET

import pytest

from taolong_lab import State, new_game
from taolong_lab.rules.data import game_data
from taolong_lab.views.svg import board_svg, main

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
    svg = board_svg(new_game())
    root = parse(svg)
    title = root.find("svg:title", NS)
    assert title is not None and new_game().to_tln() in title.text
    assert root.get("viewBox").startswith("0 0 ")


def test_one_head_per_dragon_facing_its_way():
    root = parse(board_svg(new_game()))
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
    root = parse(board_svg(new_game()))
    circles = with_class(root, "stone")
    assert len(circles) == 8
    assert len(with_class(root, "stone", "white")) == 4
    assert len(with_class(root, "stone", "black")) == 4
    fills = {el.get("fill") for el in with_class(root, "stone", "white")}
    assert len(fills) == 1
    assert fills != {el.get("fill") for el in with_class(root, "stone", "black")}
    # stack order, base first, as in the TLN field: Fire is black under white
    assert stones(root) == {"heaven": "WW", "fire": "BW", "earth": "BB", "water": "WB"}


def test_spaces_in_ring_order_heaven_on_top_sowing_to_the_left():
    root = parse(board_svg(new_game()))
    spaces = [el for el in root.iter() if el.get("class") == "space"]
    assert [el.get("data-space") for el in spaces] == list(game_data().ring)
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
    root = parse(board_svg(state))
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
    root = parse(board_svg(State(FINAL_TLN)))
    defeated = with_class(root, "head", "defeated")
    assert len(defeated) == 1 and "white" in defeated[0].get("class").split()
    assert len(with_class(root, "defeated-mark")) == 1
    assert len(with_class(root, "head")) == 2


def texts(root: ET.Element) -> list[str]:
    return [el.text for el in root.iter(TEXT)]


def test_whose_turn():
    assert "Turn 1: white (Tianlong) to move" in texts(parse(board_svg(new_game())))
    assert "Turn 2: black (Dilong) to move" in texts(
        parse(board_svg(new_game().play("Wa>He a3,a4")))
    )


def test_changes_after_a_move():
    start = new_game()
    after = start.play("Wa>He a3,a4")
    before_svg, after_svg = board_svg(start), board_svg(after)
    assert before_svg != after_svg
    root = parse(after_svg)
    assert stones(root) == {"heaven": "WWB", "fire": "BW", "earth": "BB", "wind": "W"}
    white_body = with_class(root, "body")[0]
    assert white_body.get("points") == " ".join(
        f"{26 + (x + 0.5) * 44:g},{26 + (y + 0.5) * 44:g}" for x, y in after.cells("white")
    )


def test_big_stacks_keep_every_stone_in_order():
    root = parse(board_svg(State(BIG_STACK_TLN)))
    assert stones(root) == {"heaven": "WBWBWBWB"}


def test_deterministic_and_scalable():
    state = random_states(3)[40]
    assert board_svg(state) == board_svg(State(state.to_tln()))
    small = parse(board_svg(state, size=300))
    assert small.get("width") == "300"
    big = parse(board_svg(state))
    assert small.get("viewBox") == big.get("viewBox")
    bare = parse(board_svg(state, coordinates=False, panel=False))
    assert not with_class(bare, "bagua") and not with_class(bare, "coordinates")
    assert len(with_class(bare, "head")) == 2


def test_repr_svg_hook():
    state = new_game()
    assert state._repr_svg_() == board_svg(state)


@pytest.mark.parametrize("seed", [1, 2])
def test_every_position_of_a_game_renders(seed):
    for state in random_states(seed):
        root = parse(board_svg(state))
        assert len(with_class(root, "head")) == 2
        assert "".join(stones(root).values()).count("W") == 4
        assert len(with_class(root, "stone")) == 8
        drawn = stones(root)
        assert drawn == {
            name: s for name, s in zip(game_data().ring, state.bagua, strict=True) if s
        }


def test_no_unformatted_numbers():
    svg = board_svg(random_states(5)[25])
    assert not re.search(r"\d\.\d{3,}", svg)
    assert "nan" not in svg.lower()


def test_module_main_prints_the_start(capsys):
    assert main([]) == 0
    assert capsys.readouterr().out == board_svg(new_game())
    assert main(FINAL_TLN.split()) == 0
    assert capsys.readouterr().out == board_svg(State(FINAL_TLN))

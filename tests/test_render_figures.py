"""taolong_lab.render's matplotlib figures: one position, film strips, animations (Agg)."""

from __future__ import annotations

import random

import matplotlib
import pytest

matplotlib.use("Agg")

from taolong_lab import Solution, State, new_game
from taolong_lab.render import WriterUnavailable, animate, figure, film_strip, trace
from taolong_lab.render import figures as figures_module
from taolong_lab.render.__main__ import SNAPSHOTS
from taolong_lab.render.figures import frames
from taolong_lab.rules.data import game_data

BUSY_BEFORE = SNAPSHOTS["midgame"][0]
BUSY_TURN = SNAPSHOTS["midgame"][1]["turn"]
LINE = ["Wa>He a3,a4", "Ea>Wa f8+", "Wa>Wi b4 ; Fi>Ea c4,d4"]


def gids(fig) -> list[str]:
    return [a.get_gid() for a in fig.findobj(lambda a: a.get_gid() is not None)]


def with_prefix(fig, prefix: str) -> set[str]:
    return {g for g in gids(fig) if g.startswith(prefix)}


def test_one_position_has_the_expected_artists():
    fig = figure(new_game())
    names = gids(fig)
    assert {"head-white", "head-black", "frame", "centre", "status"} <= set(names)
    assert with_prefix(fig, "space-") == {f"space-{a}" for a in game_data().abbrev}
    stones = with_prefix(fig, "stone-")
    assert stones == {"stone-He-0", "stone-He-1", "stone-Fi-0", "stone-Fi-1", "stone-Ea-0",
                      "stone-Ea-1", "stone-Wa-0", "stone-Wa-1"}  # fmt: skip
    (cells,) = fig.findobj(lambda a: a.get_gid() == "cells")
    assert len(cells.get_paths()) == 64
    (head,) = fig.findobj(lambda a: a.get_gid() == "head-white")
    assert head.numvertices == 3
    assert len(with_prefix(fig, "meter-white-water-")) == game_data().capacity
    assert len(with_prefix(fig, "body-white-")) == 1
    fig.canvas.draw()  # renders without error


def test_stones_in_stack_order():
    state = State(
        "field/grasshopper/current 8/8/8/8/8/8/8/8 b4-b3-a3-a2:4:2 e7-e8-f8-g8:4:0 "
        "WBWBWBWB/-/-/-/-/-/-/- 0:6 w 7"
    )
    fig = figure(state)
    colours = []
    for k in range(8):
        (stone,) = fig.findobj(lambda a, k=k: a.get_gid() == f"stone-He-{k}")
        colours.append(stone.get_facecolor()[0] > 0.5)
    assert colours == [True, False] * 4  # white, black, ... base first


def test_turn_overlay_artists_match_the_trace():
    before = State(BUSY_BEFORE)
    traced = trace(before, BUSY_TURN)
    fig = figure(before, turn=BUSY_TURN, legal=True)
    assert {"route-matter-0", "route-matter-1", "route-matter-1-1"} <= set(gids(fig))
    attack_cells = {f"attack-{name}" for name in traced.attack_cells(reached_only=False)}
    assert with_prefix(fig, "attack-") == attack_cells
    after = before.play(BUSY_TURN)
    expected = set()
    head = after.cells(after.to_move)[0]
    for turn in after.legal_turns():
        phase = turn.phases[0]
        if not (phase.penalty or phase.ended):
            x, y = phase.path[-1] if phase.path else head
            expected.add(f"destination-{chr(97 + x)}{y + 1}")
    assert with_prefix(fig, "destination-") == expected
    assert with_prefix(fig, "sow-") == {"sow-0-1", "sow-1-1"}
    assert {"portal-d2", "portal-g2", "portal-g5", "portal-b7", "big-rock", "flux"} <= set(
        gids(fig)
    )


def test_features_and_hidden_board():
    wall = State(SNAPSHOTS["wall-damaged"][0])
    assert len(with_prefix(figure(wall), "rock-")) == 5
    assert "village" in gids(figure(new_game(village="white")))
    assert "torus" in gids(figure(new_game("torus")))
    hidden = figure(new_game("cave", "chosen-one"))
    assert "hidden-board" in gids(hidden) and "head-white" not in gids(hidden)
    assert "head-white" in gids(figure(new_game("cave", "chosen-one"), reveal=True))


def test_defeated_dragon_is_crossed():
    state = State(
        "field/grasshopper/current 8/8/8/8/8/8/8/8 h8:0:3 e7-d7-d6:1:0 B/W/B/WB/WB/-/W/- 7:5 w 451"
    )
    fig = figure(state)
    (head,) = fig.findobj(lambda a: a.get_gid() == "head-white")
    assert head.get_marker() == "X"
    assert not with_prefix(fig, "body-white-")


def test_film_strip_of_turns_states_and_a_solution():
    start = new_game()
    fig = film_strip(LINE, start=start, columns=3)
    axes = [ax for ax in fig.axes if (ax.get_gid() or "").startswith("frame-")]
    assert [ax.get_title() for ax in axes] == [
        "start",
        *[f"{i}. {t}" for i, t in enumerate(LINE, 1)],
    ]
    assert len(fig.axes) == 6  # 4 frames on a 2 x 3 grid
    states = [start]
    for text in LINE:
        states.append(states[-1].play(text))
    shots = frames(states)
    assert [str(t) for _, t, _ in shots[1:]] == LINE
    solution = Solution("optimal", 3, tuple(LINE), 1, {}, {}, 3, start.to_tln())
    assert [s for s, _, _ in frames(solution)] == states
    assert len(film_strip(solution, columns=2).axes) == 4
    with pytest.raises(TypeError, match="start="):
        frames(LINE)


def test_animation_writes_a_gif(tmp_path):
    path = animate(LINE[:2], tmp_path / "line.gif", start=new_game(), size=3, dpi=40)
    data = path.read_bytes()
    assert data[:6] in (b"GIF89a", b"GIF87a")
    from PIL import Image

    with Image.open(path) as image:
        assert image.n_frames == 3


def test_missing_writer_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(figures_module.writers, "is_available", lambda name: False)
    with pytest.raises(WriterUnavailable, match="'ffmpeg' animation writer is not available"):
        animate(LINE, tmp_path / "line.mp4", start=new_game())
    with pytest.raises(WriterUnavailable, match="'pillow'"):
        animate(LINE, tmp_path / "line.gif", start=new_game())
    assert not list(tmp_path.iterdir())
    with pytest.raises(ValueError, match=r"\.gif or \.mp4"):
        animate(LINE, tmp_path / "line.avi", start=new_game())


def test_random_positions_draw():
    rng = random.Random(5)
    for scenario, mode in (("mist", "monk"), ("torus", "master"), ("valley", "grasshopper")):
        state = new_game(scenario, mode)
        for ply in range(30):
            if state.is_over():
                break
            turn = rng.choice(state.legal_turns())
            if ply % 6 == 5:
                fig = figure(state, turn=turn, legal=True, size=3, dpi=30, reveal=True)
                fig.canvas.draw()
            state = state.play(turn)

"""taolong_lab.pictures' matplotlib figures: one position, film strips, animations (Agg)."""

from __future__ import annotations

import random

import matplotlib
import pytest

matplotlib.use("Agg")

from taolong_lab import Line, State, new_game
from taolong_lab.pictures import (
    PictureError,
    WriterUnavailable,
    animate,
    figure,
    film_strip,
    frames,
    trace,
)
from taolong_lab.pictures import figures as figures_module
from taolong_lab.rules.data import game_data

BUSY_BEFORE = (
    "valley/master/current 8/3R2G1/8/3##3/3##1B1/8/1G6/8 e8-d8-c8-b8:4:0 f6-e6-d6-d7:4:1 "
    "-/-/WW/-/W/-/BBB/BW@cw 0:7 b 14"
)
BUSY_TURN = "Ea>Th f5 ; Th>Fi [g5b7]c7x"
WALL_DAMAGED = (
    "wall/master/current 7d/6d1/8/8/8/2o5/1o6/o7 h2-h3-h4-h5:2:1 e1-d1-d2-d3:2:0 "
    "B/-/-/WWB/-/WB/B/W@ccw 4:7 b 22"
)
TURNS = ["Wa>He a3,a4", "Ea>Wa f8+", "Wa>Wi b4 ; Fi>Ea c4,d4"]
LINE = Line(new_game(), TURNS)


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
    wall = State(WALL_DAMAGED)
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


def test_film_strip_of_a_line():
    fig = film_strip(LINE, columns=3)
    axes = [ax for ax in fig.axes if (ax.get_gid() or "").startswith("frame-")]
    assert [ax.get_title() for ax in axes] == [
        "start",
        *[f"{i}. {t}" for i, t in enumerate(TURNS, 1)],
    ]
    assert len(fig.axes) == 6  # 4 frames on a 2 x 3 grid
    shots = frames(LINE)
    assert [s for s, _, _ in shots] == LINE.states()
    assert [str(t) for _, t, _ in shots[1:]] == TURNS
    assert [b for _, _, b in shots[1:]] == LINE.states()[:-1]
    assert len(film_strip(LINE[:1], columns=2).axes) == 2


def test_figure_of_a_line_draws_its_last_turn():
    last = figure(LINE)
    assert with_prefix(last, "route-matter-")
    assert gids(last) == gids(figure(LINE.end, turn=TURNS[-1], before=LINE.states()[-2]))
    assert not with_prefix(figure(LINE[:0]), "route-")


def test_a_line_is_the_one_way_to_give_the_positions(monkeypatch):
    for value in (TURNS, LINE.states(), new_game(), None):
        with pytest.raises(PictureError, match=r"^line: expected a taolong_lab\.Line"):
            frames(value)
    monkeypatch.setattr(figures_module, "MAX_FRAMES", len(TURNS))
    with pytest.raises(PictureError, match=r"^line: 4 positions; at most 3"):
        film_strip(LINE)
    assert len(frames(LINE[:2])) == 3


@pytest.mark.parametrize(
    ("call", "argument"),
    [
        (lambda: film_strip(LINE, columns=0), "columns"),
        (lambda: film_strip(LINE, columns=2.5), "columns"),
        (lambda: film_strip(LINE, columns=10**6), "columns"),
        (lambda: film_strip(LINE, size=-1), "size"),
        (lambda: film_strip(LINE, turns="yes"), "turns"),
        (lambda: figure(new_game(), size=float("nan")), "size"),
        (lambda: figure(new_game(), dpi=0), "dpi"),
        (lambda: figure(new_game(), panel="no"), "panel"),
        (lambda: figure(new_game(), highlight=["i9"]), "highlight"),
        (lambda: figure(new_game(), title=3), "title"),
        (lambda: figure(42), "position"),
        (lambda: figure(new_game(), show="later", turn=TURNS[0]), "show"),
        (lambda: animate(LINE, "x.gif", fps=0), "fps"),
        (lambda: animate(LINE, "x.gif", fps=float("inf")), "fps"),
        (lambda: animate(LINE, "x.avi"), "path"),
        (lambda: animate(TURNS, "x.gif"), "line"),
    ],
)
def test_a_bad_argument_is_named(call, argument, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(PictureError, match=f"^{argument}: ") as raised:
        call()
    assert raised.value.argument == argument
    assert not list(tmp_path.iterdir())


def test_sow_by_index_as_in_the_svg():
    by_name, by_index = (
        figure(new_game(), sow="Wa", legal=True),
        figure(new_game(), sow=6, legal=True),
    )
    assert with_prefix(by_index, "sow-") == with_prefix(by_name, "sow-") == {"sow-0-1", "sow-0-2"}
    assert with_prefix(by_index, "destination-") == with_prefix(by_name, "destination-")


def test_animation_writes_a_gif(tmp_path):
    path = animate(LINE[:2], tmp_path / "line.gif", size=3, dpi=40)
    data = path.read_bytes()
    assert data[:6] in (b"GIF89a", b"GIF87a")
    from PIL import Image

    with Image.open(path) as image:
        assert image.n_frames == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["line.gif"]


def test_a_failed_animation_leaves_the_file_as_it_was(tmp_path, monkeypatch):
    target = tmp_path / "line.gif"
    target.write_bytes(b"the user's file")
    calls = []
    real_draw = figures_module.draw

    def failing_draw(ax, position, **options):
        calls.append(position)
        if len(calls) == 5:  # the figure, the first frame twice, then the second and third
            raise RuntimeError("the third frame fails")
        return real_draw(ax, position, **options)

    monkeypatch.setattr(figures_module, "draw", failing_draw)
    with pytest.raises(RuntimeError, match="third frame"):
        animate(LINE, target, size=3, dpi=40)
    assert target.read_bytes() == b"the user's file"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["line.gif"]


def test_missing_writer_is_a_clear_error(tmp_path, monkeypatch):
    monkeypatch.setattr(figures_module.writers, "is_available", lambda name: False)
    with pytest.raises(WriterUnavailable, match="'ffmpeg' animation writer is not available"):
        animate(LINE, tmp_path / "line.mp4")
    with pytest.raises(WriterUnavailable, match="'pillow'"):
        animate(LINE, tmp_path / "line.gif")
    assert not list(tmp_path.iterdir())


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


# ---- the atlas and the balance card ------------------------------------------------------------
def test_the_atlas_figure_names_both_dragons_and_counts_in_whole_starts():
    from taolong_lab.pictures import atlas_figure
    from taolong_lab.puzzles.atlas import Row

    rows = [
        Row("cave", "white", 31, {6: 29, 7: 2}, ("a",), None, None),
        Row("wall", "white", 2, {7: 2}, ("b",), None, None),  # one optimum: one narrow bar
    ]
    fig = atlas_figure(rows, starts=70)
    [legend] = fig.legends
    assert [t.get_text() for t in legend.get_texts()] == ["white", "black"]
    wall = fig.axes[1]
    assert wall.get_xlim() == (6, 8) and wall.get_title() == "wall (2 of 70)"
    ticks = [t for t in wall.get_yticks() if 0 <= t <= 2]
    assert ticks and all(float(t).is_integer() for t in ticks)  # never 0.5 of a start
    [bar] = [p for p in wall.patches if p.get_gid() == "bar-wall-white"]
    assert bar.get_width() == pytest.approx(0.4)
    with pytest.raises(PictureError, match="rows"):
        atlas_figure([])


def test_the_balance_plot_keeps_its_legend_off_the_bars_and_says_when_nothing_was_capped():
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from taolong_lab.agents.balance import plot, summarise_cell

    games = [
        {"turns": 40, "winner": "black", "winners": ["black"], "capped": False,
         "branching": 5.0, "lead_change": 0.1, "drama": 0.1, "decisiveness_moves": 0.5}
    ] * 4  # fmt: skip
    cell = {"rules": "field/grasshopper/current", "summary": summarise_cell(games)}
    card = {"settings": {"max_turns": 300}, "cells": [{**cell, "level": "greedy"}]}
    fig = plot(card)
    FigureCanvasAgg(fig).draw()
    rate, capped, _ = fig.axes
    assert rate.patches[0].get_width() == 0  # white won none: a bar of no length ...
    [dots] = [line for line in rate.lines if line.get_marker() == "o"]
    assert list(dots.get_xdata()) == [0]  # ... and the rate still shows, as a dot
    low, high = cell["summary"]["advantage_p1"]["interval"]
    assert low == 0 and high > 0.4  # Wilson: a sweep's interval is not empty
    assert any("no game reached the cap" in t.get_text() for t in capped.texts)
    assert "300 decisions" in capped.get_title()
    [legend] = fig.legends
    box = legend.get_window_extent()
    for ax in fig.axes:
        assert not box.overlaps(ax.get_window_extent())

"""Texel's method for Tao Long's evaluation (``taolong_lab.games.taolong.tuning``): the fit is a
logistic regression of the result on the features' differences, on the evaluation's own scale,
over quiet positions drawn at random from each game."""

from __future__ import annotations

import math
import random

import pytest

from taolong_lab.agents.matches import play_game
from taolong_lab.agents.registry import agent_from_spec
from taolong_lab.games import TAOLONG
from taolong_lab.games.taolong import Weights, default_weights, evaluate
from taolong_lab.games.taolong.tuning import differences, fit, loss, quiet_samples

SCALE = TAOLONG.heuristic_scale


def _synthetic(truth: Weights, count: int, seed: int) -> list:
    """Positions' differences drawn at random, each labelled by a draw from the logistic
    curve of ``truth`` (1 white won, 0 black won); the initiative is always 0, as in quiet
    positions."""
    rng = random.Random(seed)
    samples = []
    for _ in range(count):
        diff = tuple(0.0 if n == "initiative" else float(rng.randint(-3, 3)) for n in truth.names())
        z = sum(getattr(truth, n) * d for n, d in zip(truth.names(), diff, strict=True)) / SCALE
        samples.append((1.0 if rng.random() < 1 / (1 + math.exp(-z)) else 0.0, diff))
    return samples


def test_the_fit_recovers_the_weights_that_made_the_results():
    truth = Weights(life=20.0, fire=4.0, threat=-6.0, initiative=0.0, stacks=2.0, mobility=1.0)
    keep = default_weights()
    fitted = fit(_synthetic(truth, 20_000, seed=3), scale=SCALE, keep=keep, ridge=1e-6)
    for name in truth.names():
        if name == "initiative":
            assert fitted.initiative == keep.initiative  # never varies: kept as it was
        else:
            assert getattr(fitted, name) == pytest.approx(getattr(truth, name), abs=1.5), name
    samples = _synthetic(truth, 2_000, seed=4)
    assert loss(samples, fitted, SCALE) < loss(samples, keep, SCALE)


def test_quiet_samples_are_quiet_positions_labelled_with_the_result():
    agent = agent_from_spec("alphabeta:nodes=300")
    record = play_game(agent, agent, TAOLONG.new(scenario="torus"), seed=4, opening=4)
    trajectory = record.trajectory()
    drawn = quiet_samples(trajectory, 6, random.Random(1), skip=4)
    assert 0 < len(drawn) <= 6
    result = {None: 0.5, "white": 1.0, "black": 0.0}[record.winner]
    quiet = {
        differences(s.state): s
        for s in trajectory.states()[4:]
        if not s.is_terminal() and not TAOLONG.pending(s)
    }
    for label, diff in drawn:
        assert label == result
        assert diff in quiet  # one of the game's quiet positions after the opening
        state = quiet[diff].state
        assert evaluate(state) == pytest.approx(
            sum(
                getattr(default_weights(), n) * d
                for n, d in zip(Weights.names(), diff, strict=True)
            )
        )
    again = quiet_samples(trajectory, 6, random.Random(1), skip=4)
    assert again == drawn  # the draw is the random source's

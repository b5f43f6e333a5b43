"""Texel's method for Tao Long's evaluation: fit the weights to the results of played games.

The evaluation is linear in its weights: white's score is ``w · d`` where ``d`` holds each
feature's white value less black's (:func:`~.evaluation.features`). Read as the log-odds of
white's win on the heuristic's scale (:attr:`TaoLongGame.heuristic_scale
<taolong_lab.games.taolong.TaoLongGame.heuristic_scale>` points for odds of e to 1), the chance
that white wins a position is ``1 / (1 + exp(-w · d / scale))``. Fitting ``w`` to the results
of games is then a logistic regression of each result (1 white won, 0 black won, ½ a draw) on
``d``, over quiet positions of played games (the side to move has no blow to strike, so the
search would stand on the evaluation there), a few drawn at random from each game.

The fit maximises the likelihood (Newton's method, with a small ridge so that features that move
together stay defined); Texel's original minimises the squared error of the same curve. The
scale is fixed, so the fitted weights also calibrate the evaluation: a score of ``scale`` points
is odds of e to 1 in the games fitted.

>>> samples = [(1.0, (1.0, 0, 0, 0, 0, 0)), (0.0, (-1.0, 0, 0, 0, 0, 0))] * 4
>>> weights = fit(samples, scale=40.0, ridge=0.5)
>>> weights.life > 0, weights.fire
(True, 0.0)
"""

from __future__ import annotations

import math
import random

from ...errors import TaoLongError
from .evaluation import MAX_WEIGHT, Weights, features, weights_from

RIDGE = 1e-3
"""The ridge (an L2 penalty on the weights in log-odds units) of :func:`fit`, per position."""
ITERATIONS = 50
MAX_SAMPLES = 1_000_000


def differences(state) -> tuple[float, ...]:
    """Each feature of the evaluation, white's less black's, in :meth:`Weights.names` order.

    Parameters
    ----------
    state : taolong_lab.State
        A position of the two-player game.

    Returns
    -------
    tuple of float
    """
    found = features(state)
    return tuple(float(found[name][0] - found[name][1]) for name in Weights.names())


def quiet_samples(trajectory, count: int, rng: random.Random, skip: int = 0) -> list:
    """Up to ``count`` quiet positions of one finished or capped game, drawn at random, each
    with the game's result for white.

    Parameters
    ----------
    trajectory : taolong_lab.games.Trajectory
        A game of Tao Long's two-player variant.
    count : int
        How many positions to draw (fewer when the game has fewer quiet ones).
    rng : random.Random
        The random source of the draw.
    skip : int
        Leave out the first ``skip`` positions (the random opening).

    Returns
    -------
    list of (float, tuple of float)
        ``(result for white, differences(position))``, in the game's order.
    """
    end = trajectory.end
    if end.is_terminal():
        winner = end.result()[0]
        result = 0.5 if winner is None else 1.0 if winner == "white" else 0.0
    else:
        result = 0.5
    game = trajectory.start.game
    quiet = [
        state
        for state in trajectory.states()[skip:]
        if not state.is_terminal() and not game.pending(state)
    ]
    picked = sorted(rng.sample(range(len(quiet)), min(count, len(quiet))))
    return [(result, differences(quiet[i].state)) for i in picked]


def loss(samples, weights: Weights, scale: float) -> float:
    """The mean cross-entropy of the results under ``weights`` (lower is better).

    Parameters
    ----------
    samples : list of (float, tuple of float)
        ``(result for white, differences)`` as :func:`quiet_samples` gives them.
    weights : Weights
        The weights to score.
    scale : float
        Points for odds of e to 1.

    Returns
    -------
    float
    """
    w = [getattr(weights, name) for name in Weights.names()]
    total = 0.0
    for result, diff in samples:
        z = sum(a * b for a, b in zip(w, diff, strict=True)) / scale
        p = min(max(1.0 / (1.0 + math.exp(-max(min(z, 500.0), -500.0))), 1e-12), 1 - 1e-12)
        total -= result * math.log(p) + (1 - result) * math.log(1 - p)
    return total / max(len(samples), 1)


def fit(
    samples,
    *,
    scale: float,
    keep: Weights | None = None,
    ridge: float = RIDGE,
    iterations: int = ITERATIONS,
) -> Weights:
    """The weights that fit the results of ``samples`` best (see the module docstring).

    A feature that is 0 in every sample (the initiative, in quiet positions: it counts only a
    blow the side to move can strike) cannot be fitted: its weight stays ``keep``'s.

    Parameters
    ----------
    samples : list of (float, tuple of float)
        ``(result for white, differences)``, as :func:`quiet_samples` gives them.
    scale : float
        Points for odds of e to 1 (Tao Long's ``heuristic_scale``).
    keep : Weights or None
        The weights of the features the samples leave unfitted (default: 0).
    ridge : float
        The L2 penalty per position on the weights in log-odds units.
    iterations : int
        The most Newton steps.

    Returns
    -------
    Weights

    Raises
    ------
    TaoLongError
        No samples, too many, or a fitted weight beyond :data:`~.evaluation.MAX_WEIGHT`.
    """
    import numpy as np

    if not 0 < len(samples) <= MAX_SAMPLES:
        raise TaoLongError(f"a fit needs 1 to {MAX_SAMPLES:,} positions, not {len(samples)}")
    y = np.array([result for result, _ in samples], dtype=float)
    x = np.array([diff for _, diff in samples], dtype=float)
    beta = np.zeros(x.shape[1])
    penalty = ridge * len(y) * np.eye(x.shape[1])
    for _ in range(iterations):
        p = 1.0 / (1.0 + np.exp(-np.clip(x @ beta, -500, 500)))
        gradient = x.T @ (p - y) + penalty @ beta
        hessian = (x * (p * (1 - p))[:, None]).T @ x + penalty
        step = np.linalg.solve(hessian, gradient)
        beta -= step
        if float(np.max(np.abs(step))) < 1e-10:
            break
    names = Weights.names()
    values = {name: round(float(b) * scale, 4) for name, b in zip(names, beta, strict=True)}
    for column, name in enumerate(names):
        if not x[:, column].any():
            values[name] = getattr(keep, name) if keep is not None else 0.0
    for name, value in values.items():
        if not abs(value) <= MAX_WEIGHT:
            raise TaoLongError(f"the fitted weight {name} = {value:g} is beyond ±{MAX_WEIGHT:g}")
    return weights_from(values, "fit")


__all__ = ["RIDGE", "differences", "fit", "loss", "quiet_samples"]

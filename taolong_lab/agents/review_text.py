"""A review's report in words and its evaluation graph (:meth:`.review.Review.text` and
:meth:`.review.Review.plot`)."""

from __future__ import annotations

from ..games import MATE_BOUND, WIN
from .annotations import Annotation
from .review import SYMBOLS, THRESHOLDS

PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}

MARKS = {"inaccuracy": "#d9b310", "mistake": "#e07b00", "blunder": "#c0282d"}
"""The colour of each class the graph marks."""


def _budget(note) -> str:
    parts = []
    if note.nodes is not None:
        parts.append(f"{note.nodes:,} positions")
    if note.time is not None:
        parts.append(f"{note.time:g} s")
    return " and ".join(parts) + f" a position, seed {note.seed}"


def points(score: float) -> str:
    """A score in points, or the proved result it stands for (``win in 3``)."""
    if score > MATE_BOUND:
        return f"win in {round(WIN - score)}"
    if score < -MATE_BOUND:
        return f"loss in {round(WIN + score)}"
    return f"{score:+.1f}"


def turn_line(number: int, side: str, action: str, note: Annotation | None) -> str:
    """One turn of the report: its number (from 1), the mover, the turn, the win probability
    before and after it (and the scores in points, or the proved results), its class, the best
    turn and its line."""
    head = f"{number:>3}. {side:<6} {action}"
    if note is None:
        return head
    text = (
        f"{head}\n     {note.before:4.0%} -> {note.after:4.0%}"
        f" ({points(note.score)} -> {points(note.played)})  {note.kind} {SYMBOLS[note.kind]}"
    ).rstrip()
    if note.best is not None:
        text += f"\n     best {note.best}: {' '.join(note.line)}"
    return text


def report(review) -> str:
    """The review in words: the game, the budget, a line a turn, each side's accuracy and its
    inaccuracies, mistakes and blunders."""
    record, note = review.record, review.note
    players = ", ".join(f"{s}: {p}" for s, p in zip(record.sides, record.players, strict=False))
    result = f"{record.winner} wins" if record.winner else "no winner"
    lines = [
        f"Review of {record.start.game.title}, {record.date} ({players}): {result}, "
        f"{record.reason}.",
        f"Budget: {_budget(note)}. Win probabilities on the evaluation's scale "
        f"({note.scale:g} points for odds of e to 1); classes by the probability lost: "
        + ", ".join(f"{name} {least:.0%}" for name, least in reversed(THRESHOLDS))
        + ".",
        "",
    ]
    for index, (action, side, annotation) in enumerate(
        zip(record.turns, review.movers, review.notes, strict=True), start=1
    ):
        lines.append(turn_line(index, side or "chance", action, annotation))
    lines.append("")
    shown = ", ".join(f"{side} {value:.1f}" for side, value in note.accuracy)
    lines.append(f"Accuracy (lichess's definition, 0 to 100): {shown or 'no turn reviewed'}.")
    for side, counts in review.counts().items():
        worst = ", ".join(
            f"{counts[name]} {name if counts[name] == 1 else PLURALS[name]}"
            for name, _ in reversed(THRESHOLDS)
        )
        lines.append(f"{side}: {worst}.")
    return "\n".join(lines) + "\n"


def plot(review, ax=None):
    """The evaluation graph: the first side's win probability by turn, the inaccuracies,
    mistakes and blunders marked at the position they led to."""
    import matplotlib.pyplot as plt

    if ax is None:
        fig, ax = plt.subplots(figsize=(9, 3.2))
    else:
        fig = ax.figure
    points = review.series()
    first = review.record.sides[0]
    ax.axhline(0.5, color="grey", linewidth=0.8)
    if points:
        xs, ys = zip(*points, strict=True)
        ax.fill_between(xs, 0.5, ys, color="#d8d2c0", step=None)
        ax.plot(xs, ys, color="#333333", linewidth=1.4)
    for kind, colour in MARKS.items():
        marked = [
            (index + 1, n.after if side == first else 1.0 - n.after)
            for index, (n, side) in enumerate(zip(review.notes, review.movers, strict=True))
            if n is not None and n.kind == kind
        ]
        if marked:
            ax.scatter(*zip(*marked, strict=True), color=colour, zorder=3, label=kind)
    ax.set_ylim(0, 1)
    ax.set_xlabel("turns played")
    ax.set_ylabel(f"{first}'s win probability")
    shown = ", ".join(f"{side} {value:.1f}" for side, value in review.note.accuracy)
    ax.set_title(f"{review.record.start.game.title}: accuracy {shown}")
    if any(n is not None and n.kind in MARKS for n in review.notes):
        ax.legend(loc="best", fontsize="small")
    fig.tight_layout()
    return fig


__all__ = ["MARKS", "plot", "report", "turn_line"]

"""A reviewed game's notes, as a game record holds them: one :class:`Annotation` an action
(the optional field ``annotations`` of the record format) and a :class:`ReviewNote` on how they
were made (``review``). :mod:`.review` makes them; :mod:`.records` reads and writes them.

>>> note = Annotation("blunder", 0.52, 0.2, 3.0, -54.0, "Ea>Wa b3", ("Ea>Wa b3",), None, None,
...     1.4, 2)
>>> Annotation.from_json(note.to_json()) == note
True
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from ..errors import TaoLongError
from ..games import GameState, Trajectory

NoteKind = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
CLASSES: tuple[NoteKind, ...] = get_args(NoteKind)
"""The classes of a turn, from the best to the worst (:mod:`.review` says how each is given)."""


@dataclass(frozen=True)
class Annotation:
    """A review's note on one turn, from the mover's side.

    ``kind``: one of :data:`CLASSES`; ``before`` and ``after``: the win probability with the
    best turn and after the turn played; ``score`` and ``played``: the same in the
    evaluation's points; ``best``: the best turn when it is not the one played, and ``line``
    the best line from the position (the best turn first); ``proved`` and ``plies``: a result
    the search proved for the mover before the turn (``"win"`` or ``"loss"``) and the plies to
    it; ``accuracy``: the turn's accuracy (0 to 100); ``depth``: the plies searched.
    """

    kind: NoteKind
    before: float
    after: float
    score: float
    played: float
    best: str | None
    line: tuple[str, ...]
    proved: str | None
    plies: int | None
    accuracy: float
    depth: int

    def to_json(self) -> dict:
        """The note as the record format writes it (rounded: 4 places for a probability, 2
        for points and accuracy)."""
        doc = {
            "class": self.kind,
            "before": round(self.before, 4),
            "after": round(self.after, 4),
            "score": round(self.score, 2),
            "played": round(self.played, 2),
        }
        if self.best is not None:
            doc["best"] = self.best
            doc["line"] = list(self.line)
        if self.proved is not None:
            doc["proved"], doc["plies"] = self.proved, self.plies
        doc["accuracy"] = round(self.accuracy, 2)
        doc["depth"] = self.depth
        return doc

    @classmethod
    def from_json(cls, doc: dict) -> Annotation:
        """A note from a document the schema accepted."""
        return cls(
            doc["class"],
            float(doc["before"]),
            float(doc["after"]),
            float(doc["score"]),
            float(doc["played"]),
            doc.get("best"),
            tuple(doc.get("line", ())),
            doc.get("proved"),
            doc.get("plies"),
            float(doc["accuracy"]),
            doc["depth"],
        )

    def rounded(self) -> Annotation:
        """This note as it reads back from a record."""
        return Annotation.from_json(self.to_json())


@dataclass(frozen=True)
class ReviewNote:
    """How a review was made: its budget a position (``nodes``, ``time``), its ``seed``, the
    evaluation's ``scale`` (points for odds of e to 1), and each side's ``accuracy`` (0 to
    100) as ``(side, value)`` pairs."""

    nodes: int | None
    time: float | None
    seed: int
    scale: float
    accuracy: tuple[tuple[str, float], ...]

    def to_json(self) -> dict:
        return {
            "nodes": self.nodes,
            "time": self.time,
            "seed": self.seed,
            "scale": self.scale,
            "accuracy": {side: round(value, 2) for side, value in self.accuracy},
        }

    @classmethod
    def from_json(cls, doc: dict) -> ReviewNote:
        """A note from a document the schema accepted."""
        accuracy = tuple((side, float(value)) for side, value in doc["accuracy"].items())
        return cls(doc["nodes"], doc["time"], doc["seed"], float(doc["scale"]), accuracy)

    def rounded(self) -> ReviewNote:
        """This note as it reads back from a record."""
        return ReviewNote.from_json(self.to_json())


def read_annotations(doc: dict, played: Trajectory) -> tuple[tuple | None, list[tuple[str, str]]]:
    """The notes of a record document whose turns replayed as ``played``, and every
    ``(field, reason)`` problem: one note an action, and each best turn and line legal where
    the note says."""
    raw = doc.get("annotations")
    if raw is None:
        return None, []
    if len(raw) != len(played.actions):
        count = len(played.actions)
        return None, [("annotations", f"one note an action: {count}, not {len(raw)}")]
    states = played.states()
    notes = []
    for index, item in enumerate(raw):
        if item is None:
            notes.append(None)
            continue
        problem = _line_problem(states[index], item)
        if problem is not None:
            return None, [(f"annotations[{index}].{problem[0]}", problem[1])]
        notes.append(Annotation.from_json(item))
    return tuple(notes), []


def _line_problem(state: GameState, item: dict) -> tuple[str, str] | None:
    """Where a note's best turn or line is not legal from ``state``, or None."""
    if "best" not in item:
        return None
    try:
        state.parse_action(item["best"])
    except TaoLongError as exc:
        return "best", str(exc)
    if item.get("line") and item["line"][0] != item["best"]:
        return "line", "the line starts with the best turn"
    try:
        Trajectory(state, item.get("line", ()))
    except TaoLongError as exc:
        return "line", str(exc)
    return None


__all__ = ["CLASSES", "Annotation", "NoteKind", "ReviewNote", "read_annotations"]

"""The bounds every layer checks its input against, one name each, with the reason for each.

* :data:`MAX_SEED`, ``2**63 - 1``, the largest seed (seeds run from 0). Seeds are stored in
  records and puzzles as JSON integers, and the largest signed 64-bit integer is one that every
  JSON reader keeps exact; the records' schema (``data/game-record.schema.json``) says the same.
* :data:`MAX_TURNS`, 5000, the most turns (decisions) a game may be capped at or a record may
  hold. The longest cap a game has is Way of the Dragon's (2000 decisions, several a turn for
  up to five players); the records' schema allows 5000, so every stored record still reads.
* :data:`MAX_PUZZLE_TURNS`, 1000, the most turns a puzzle's solution, optimum or proved bound
  may count (``data/puzzle.schema.json``). A puzzle is a proved solo line, far shorter than a
  game, and its proof is rebuilt turn by turn: the smaller bound keeps that rebuild small.

>>> MAX_SEED == 2**63 - 1 and MAX_PUZZLE_TURNS < MAX_TURNS
True
"""

from __future__ import annotations

MAX_SEED = 2**63 - 1
MAX_TURNS = 5000
MAX_PUZZLE_TURNS = 1000

__all__ = ["MAX_PUZZLE_TURNS", "MAX_SEED", "MAX_TURNS"]

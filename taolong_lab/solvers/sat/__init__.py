"""The SAT solver for solo challenges (issues 6 and 34): shortest wins proved optimal by
incremental SAT with python-sat, the opponent's policy handled by CEGAR, in every mode.

- :mod:`.gates`: the Tseitin gate layer (structural hashing, constant folding, one IDPool);
- :mod:`.encode`: one turn as a circuit over one-hot values (:class:`~.encode.Encoder`), its
  board's part in :mod:`.board`;
- :mod:`.monk`: from Monk on, the Ba Gua one-hot over its reachable configurations (the drop
  priorities, Master's flow and coin) and the Focus and Balance effects;
- :mod:`.search`: one search (:class:`~.search.SatSearch`): the CEGAR refinements, the check
  of a candidate in the engine, the short searches, the first-turn count;
- :mod:`.solver`: deepening from the explicit solver's lower bound, budgets, and
  :func:`solve`, which returns a :class:`~taolong_lab.solvers.common.Solution`;
- :mod:`.check`: one turn of the encoding against the engine (the conformance tests).

>>> from taolong_lab import State
>>> s = solve(State("field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
...     "d3-d2-d1-e1:4:0 d4-d5:1:0 -/-/BB/-/W/-/BWW/WB 3:8 w 1"))
>>> s.status, s.optimum, s.line.notation()
('optimal', 1, ['Ea>Mo ='])
"""

from .solver import SOLVER, SatEncodingError, SatSearch, solve

__all__ = ["SOLVER", "SatEncodingError", "SatSearch", "solve"]

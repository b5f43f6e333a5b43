"""DRAT proofs of the SAT solver's UNSAT horizons (``solve(..., proof=FOLDER)``).

While a search runs with a :class:`ProofLog`, every clause handed to the incremental solver is
kept, labelled with what it is: a turn's layer (its gates after bounded variable elimination,
with the refinements and dead-end nogoods known when the layer was added), a horizon's damage
budget, a CEGAR refinement, a dead-end nogood. The log also keeps the **steps** of the search,
one letter each, in order (:data:`STEPS`): a layer added, a damage budget, a refinement, a
dead-end nogood, an UNSAT horizon. Those steps and the meanings of the refinements and nogoods
are all a checker needs to build the same clauses again with this encoder
(:mod:`.rebuild`): the CNF is then the lab's own, never the file's.

When horizon ``k`` is UNSAT, that exact clause set plus the goal ``won_k`` as a unit clause is
solved again by a fresh proof-logging CaDiCaL (PySAT's ``Cadical195(with_proof=True)``:
Glucose cannot log a proof in incremental mode), and the folder gets

- ``h{k}.cnf.gz``: the CNF in DIMACS, its header comments naming the start, the horizon and the
  settings, a comment before each labelled group of clauses, the goal unit last (a cache: the
  checker builds it again and compares the bytes);
- ``h{k}.drat.gz``: the solver's DRAT proof that the CNF is unsatisfiable;
- ``manifest.json`` (rewritten after each horizon): the start, the settings, the steps, each
  horizon's files (with the SHA-256 of their text) and clause counts by kind, and the meaning
  of every refinement and dead-end nogood in those CNFs, as positions in TLN, so that a checker
  can replay them in the engine (:mod:`taolong_lab.puzzles.proofs`).

``docs/proofs.md`` says what a proof covers and what it does not.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import time
from array import array
from collections import Counter
from itertools import pairwise
from pathlib import Path

import pysolvers
from pysat import __version__ as PYSAT_VERSION
from pysat.solvers import Cadical195

from ...engine import State
from ...files import write_atomic
from ...version import __version__
from ..common import SolverError
from .monk import split

FORMAT = "taolong-sat-proof"
VERSION = 2
MANIFEST = "manifest.json"
PROOF_SOLVER = "cd195"  # PySAT's CaDiCaL 1.9.5, which logs DRAT
KINDS = ("layer", "damage-budget", "refinement", "dead-end", "goal")
LAYER, BUDGET, REFINEMENT, DEAD_END, UNSAT = "L", "B", "R", "D", "U"
STEPS = LAYER + BUDGET + REFINEMENT + DEAD_END + UNSAT
"""The letters of a manifest's ``steps``: a layer added (the next turn), the damage budget of
the newest horizon, the next refinement of the list, the next dead-end nogood of the list, the
newest horizon proved UNSAT."""


def cnf_name(turns: int) -> str:
    """The CNF file of horizon ``turns``."""
    return f"h{turns}.cnf.gz"


def drat_name(turns: int) -> str:
    """The DRAT file of horizon ``turns``."""
    return f"h{turns}.drat.gz"


def sha256(text: bytes) -> str:
    return hashlib.sha256(text).hexdigest()


def cnf_header(start: str, turns: int, settings: dict) -> list[str]:
    """The comment lines that open horizon ``turns``'s CNF (without the ``c``)."""
    return [
        f"{FORMAT} {VERSION}: no win within {turns} turns",
        f"start {start}",
        f"horizon {turns}",
        "settings " + json.dumps(settings, sort_keys=True),
    ]


class ClauseLog:
    """Clauses in the order they were handed to a solver, in groups each with a label and a
    kind (:data:`KINDS`): one flat ``int32`` arena, each clause's literals then ``0``.

    A tautology (``x`` and ``-x`` in one clause) is left out: true in every assignment, it
    changes no model, and DIMACS readers drop it."""

    def __init__(self):
        self.arena = array("i")
        self.count = 0  # clauses
        self.labels: list[tuple[int, int, str]] = []  # (first clause, its offset, label)
        self.kinds: Counter = Counter()
        self.top = 0  # the largest variable in a clause

    def record(self, kind: str, label: str, clauses: list) -> None:
        """Keep ``clauses`` (lists of literals, as handed to the solver), of ``kind``."""
        clauses = [c for c in clauses if not _tautology(c)]
        if not clauses:
            return
        self.labels.append((self.count, len(self.arena), label))
        arena = self.arena
        for clause in clauses:
            arena.extend(clause)
            arena.append(0)
        self.count += len(clauses)
        self.kinds[kind] += len(clauses)
        self.top = max(self.top, max(abs(x) for c in clauses for x in c))

    def clauses(self):
        """The clauses, as lists of literals, in order."""
        clause: list[int] = []
        for x in self.arena:
            if x:
                clause.append(x)
            else:
                yield clause
                clause = []

    def dimacs_chunks(self, header: list[str], turns: int, goal):
        """The DIMACS text (ASCII bytes, in pieces) of the clauses and the goal literal
        ``goal`` (``won_turns``; True: none) as a unit clause, after the comment lines
        ``header``: a comment names each group of clauses."""
        units = [] if goal is True else [goal]
        top = max([self.top, *(abs(u) for u in units)])
        head = [f"c {line}" for line in header]
        head.append(f"p cnf {top} {self.count + len(units)}")
        yield ("\n".join(head) + "\n").encode("ascii")
        bounds = [*self.labels, (self.count, len(self.arena), "")]
        arena = self.arena
        for (_, at, label), (_, stop, _) in pairwise(bounds):
            text = " ".join(map(str, arena[at:stop]))[: -len(" 0")]
            yield (f"c {label}\n" + " 0\n".join(text.split(" 0 ")) + " 0\n").encode("ascii")
        if units:
            yield f"c goal: won_{turns}, the assumption, as a unit clause\n{units[0]} 0\n".encode()

    def dimacs(self, header: list[str], turns: int, goal) -> bytes:
        """The whole text of :meth:`dimacs_chunks`."""
        return b"".join(self.dimacs_chunks(header, turns, goal))


class ProofLog(ClauseLog):
    """What a search gave its solver, its steps, and the proofs of its UNSAT horizons, in
    ``folder``.

    Parameters
    ----------
    folder : path or None
        Created if missing; the files it holds are replaced. None: nothing is written (the
        checker's rebuild, :mod:`.rebuild`).
    start : State
        The challenge's start.
    settings : dict
        The solver settings the certificate also records (plain JSON).
    """

    def __init__(self, folder, start: State, settings: dict):
        super().__init__()
        self.folder = None if folder is None else Path(folder)
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
        self.start = start
        self.settings = dict(settings, proof_solver=PROOF_SOLVER, python_sat=PYSAT_VERSION)
        self.steps: list[str] = []
        self.refinements: list[dict] = []
        self.dead_ends: list[dict] = []
        self.horizons: list[dict] = []
        self.seconds = 0.0
        self._write_manifest()

    def step(self, letter: str) -> None:
        """Keep one step of the search (a letter of :data:`STEPS`)."""
        self.steps.append(letter)

    def _stacks_and_coin(self, bagua) -> tuple[tuple, int]:
        """The stacks and flux coin of ``bagua``: the stacks alone (the start's coin), or from
        Monk on a configuration, the coin after the stacks (:func:`.monk.config_of`)."""
        if len(bagua) == len(self.start.bagua) + 1:
            return split(bagua)
        return tuple(bagua), self.start.coin

    def position(self, walk, bagua) -> str:
        """The position ``walk`` with ``bagua`` (stacks, or stacks and coin), the start's
        mover, in TLN."""
        s = self.start
        stacks, coin = self._stacks_and_coin(bagua)
        return State.compose(s.tables, walk, stacks, coin, s.mover, s.ply).to_tln()

    def refinement(self, ref, bagua) -> None:
        """The meaning of refinement ``ref`` (found with ``bagua`` on the spaces): the
        opponent's ``"group"``, or from Monk on its ``"focus"`` (a group of one)."""
        self.step(REFINEMENT)
        if ref[0] in ("group", "focus"):
            kind, walk, (group, element), after, allowed = ref
            row = {
                "kind": kind,
                "position": self.position(walk, bagua),
                "group": list(group),
                "element": element,
                "after": None,
                "ends": [self.position(w, bagua) for w in allowed],
            }
            if after is not None:
                stacks, coin = self._stacks_and_coin(after)
                row["after"] = list(stacks)
                if len(stacks) < len(after):  # a configuration: the coin after the sowing too
                    row["after_coin"] = coin
            self.refinements.append(row)
        else:
            _, walk, bagua = ref
            self.refinements.append({"kind": "penalty", "position": self.position(walk, bagua)})

    def dead_end(self, walk, bagua, turns: int) -> None:
        """The meaning of a dead-end nogood: no win within ``turns`` from that position."""
        self.step(DEAD_END)
        self.dead_ends.append({"position": self.position(walk, bagua), "turns": turns})

    # ---- an UNSAT horizon -----------------------------------------------------------------
    def unsat(self, turns: int, goal) -> dict:
        """Horizon ``turns`` was UNSAT under the assumption ``goal`` (``won_turns``): prove it
        again with a proof-logging solver, write its CNF and DRAT files and the manifest.

        Raises
        ------
        SolverError
            The proof-logging solver finds a model (the two solvers disagree).
        """
        t0 = time.perf_counter()
        self.step(UNSAT)
        entry = {
            "turns": turns,
            "refinements": len(self.refinements),
            "dead_ends": len(self.dead_ends),
        }
        if goal is False:  # the encoding folded won_k to false: nothing for a solver to do
            entry["goal"] = False
            self.horizons.append(entry)
            self._write_manifest()
            return entry
        units = [] if goal is True else [[goal]]
        with Cadical195(with_proof=True) as sat:
            add, handle = pysolvers.cadical195_add_cl, sat.cadical
            for clause in self.clauses():
                add(handle, clause)
            for clause in units:
                add(handle, clause)
            if sat.solve():
                raise SolverError(
                    f"horizon {turns}: the proof-logging solver found a model of a clause set "
                    "the search's solver said is unsatisfiable"
                )
            proof = "\n".join(sat.get_proof()) + "\n"
        header = cnf_header(self.start.to_tln(), turns, self.settings)
        cnf = self.dimacs(header, turns, goal)
        drat = proof.encode("ascii")
        if self.folder is not None:
            write_atomic(self.folder / cnf_name(turns), gzip.compress(cnf, mtime=0))
            write_atomic(self.folder / drat_name(turns), gzip.compress(drat, mtime=0))
        kinds = dict(self.kinds, goal=len(units))
        entry.update(
            goal=units[0][0] if units else True,
            variables=max(self.top, *(abs(u[0]) for u in units)) if units else self.top,
            clauses=self.count + len(units),
            kinds={kind: kinds.get(kind, 0) for kind in KINDS},
            cnf=cnf_name(turns),
            cnf_sha256=sha256(cnf),
            drat=drat_name(turns),
            drat_sha256=sha256(drat),
            drat_lines=proof.count("\n"),
            drat_bytes=len(drat),
            seconds=round(time.perf_counter() - t0, 3),
        )
        self.horizons.append(entry)
        self._write_manifest()
        self.seconds += time.perf_counter() - t0
        return entry

    def _write_manifest(self) -> None:
        if self.folder is None:
            return
        doc = {
            "format": FORMAT,
            "version": VERSION,
            "generator": f"taolong_lab {__version__}",
            "start": self.start.to_tln(),
            "settings": self.settings,
            "steps": "".join(self.steps),
            "horizons": self.horizons,
            "refinements": self.refinements,
            "dead_ends": self.dead_ends,
        }
        text = json.dumps(doc, ensure_ascii=False, allow_nan=False, indent=1) + "\n"
        write_atomic(self.folder / MANIFEST, text.encode("utf-8"))


def _tautology(clause) -> bool:
    literals = set(clause)
    return any(-x in literals for x in literals)


__all__ = [
    "BUDGET",
    "DEAD_END",
    "FORMAT",
    "KINDS",
    "LAYER",
    "MANIFEST",
    "PROOF_SOLVER",
    "REFINEMENT",
    "STEPS",
    "UNSAT",
    "VERSION",
    "ClauseLog",
    "ProofLog",
    "cnf_header",
    "cnf_name",
    "drat_name",
    "sha256",
]

"""What a solver returns besides the line: its :class:`Status` and its certificate, the
evidence a checker can re-run, as typed values with exactly the JSON the puzzle files hold.

:class:`ExplicitCertificate` is the explicit solver's (for each number of turns below the
optimum, how many positions were proved without a win); :class:`SatCertificate` the SAT
solver's (which horizons an UNSAT answer proved, and what the search did).
:func:`certificate_from_json` reads either, by its ``solver`` field.

>>> cert = ExplicitCertificate(
...     lookahead="matter",
...     lower_bound=BoundParams(8, 0, False, True),
...     start_lower_bound=1,
...     proved_no_win_below=1,
...     no_win_within=(NoWinWithin(turns=0, positions=1),),
...     optimum=1,
... )
>>> certificate_from_json(cert.to_json()) == cert
True
>>> list(cert.to_json())[:3]
['solver', 'method', 'lookahead']
"""

from __future__ import annotations

from dataclasses import MISSING, dataclass, fields
from enum import StrEnum
from typing import ClassVar, NamedTuple, Self

from ..errors import TaoLongError
from ..rules.data import shown
from .bounds import BOUND_NAME, BoundParams


class CertificateError(TaoLongError):
    """A certificate's JSON that does not fit its solver's fields; names the field."""

    def __init__(self, field: str, reason: str):
        self.field, self.reason = field, reason
        super().__init__(f"certificate.{field}: {reason}")


class Status(StrEnum):
    """What a solver proved: ``OPTIMAL`` (the optimum and a line), ``UNKNOWN`` (a budget or
    an interrupt stopped it: only a bound), ``NO_WIN`` (no win exists). Each member is its
    JSON string, and equals it.

    >>> Status("no-win") is Status.NO_WIN, Status.OPTIMAL == "optimal"
    (True, True)
    """

    OPTIMAL = "optimal"
    UNKNOWN = "unknown"
    NO_WIN = "no-win"

    def __repr__(self) -> str:
        return repr(self.value)  # shown as the string it stands for, in tuples too


class NoWinWithin(NamedTuple):
    """The explicit solver's proof for ``turns``: this many positions, each expanded or
    deferred with ``f <= turns``, none of them won."""

    turns: int
    positions: int


class NoWinProof(NamedTuple):
    """The SAT solver's proof that no win exists in ``turns``: ``"sat-unsat"`` (an UNSAT
    answer at that horizon) or ``"lower-bound"`` (below the start's lower bound)."""

    turns: int
    by: str


class Lift(NamedTuple):
    """The SAT solver's searches at the ancestors of a dead end: expansions a search, and
    the dead ends an ancestor is above before it is searched."""

    budget: int
    after: int


@dataclass(frozen=True)
class HorizonRecord:
    """What the SAT solver did at one horizon: the layer's clauses and variables, then,
    once the horizon was asked (at or above the start's lower bound), its solver calls,
    conflicts, seconds and refinements (None below)."""

    turn: int
    clauses: int
    variables: int
    sat_calls: int | None = None
    conflicts: int | None = None
    sat_seconds: float | None = None
    refinements: int | None = None

    def to_json(self) -> dict:
        return {name: value for name, value in _fields(self) if value is not None}


class _JsonCertificate:
    """What both certificates do alike: their JSON both ways. ``_nested(doc)`` reads a
    certificate's fields that are not plain values."""

    def to_json(self) -> dict:
        """The certificate as plain JSON, keys in the order the puzzle files hold them."""
        return _to_json(self)

    @classmethod
    def from_json(cls, doc: dict) -> Self:
        """The inverse of :meth:`to_json`. Raises :class:`CertificateError` naming the field
        that does not fit."""
        found = _read(cls, doc)
        found.update(cls._nested(doc))
        return cls(**found)


@dataclass(frozen=True, kw_only=True)
class ExplicitCertificate(_JsonCertificate):
    """The explicit solver's certificate: its lower bound (``lower_bound`` and its value at
    the start), and for each ``k`` below ``proved_no_win_below`` the positions proved without
    a win within ``k`` turns (``no_win_within``); ``optimum`` for a solved challenge,
    ``stopped`` when a budget or an interrupt stopped the search."""

    SOLVER: ClassVar[str] = "taolong_lab.solvers.explicit"
    METHOD: ClassVar[str] = "explicit A* by turns, transposition table on State.key()"

    solver: str = SOLVER
    method: str = METHOD
    lookahead: str
    lower_bound: BoundParams
    start_lower_bound: int | None
    proved_no_win_below: int
    no_win_within: tuple[NoWinWithin, ...]
    optimum: int | None = None
    stopped: str | None = None

    @staticmethod
    def _nested(doc: dict) -> dict:
        return {"no_win_within": _rows(doc, "no_win_within", NoWinWithin)}


@dataclass(frozen=True, kw_only=True)
class SatCertificate(_JsonCertificate):
    """The SAT solver's certificate: its lower bound, how each ``k`` below
    ``proved_no_win_below`` was proved (``no_win_below_proofs``; ``unsat_horizons`` the UNSAT
    ones), what the encoding used (``damage_budget``, ``eliminate``, ``lift``, the PySAT
    solver ``sat_solver``), each horizon's work (``per_turn``) and the search's totals
    (refinements, dead ends, conflicts); ``optimum`` and ``stopped`` as the explicit
    solver's."""

    SOLVER: ClassVar[str] = "taolong_lab.solvers.sat"
    METHOD: ClassVar[str] = (
        "incremental SAT by turns (one layer a turn, latched goal literal), CEGAR on the "
        "opponent's policy, every candidate replayed in the engine"
    )

    solver: str = SOLVER
    method: str = METHOD
    lookahead: str
    lower_bound: BoundParams
    damage_budget: bool
    eliminate: bool = True
    lift: Lift
    start_lower_bound: int | None
    proved_no_win_below: int
    no_win_below_proofs: tuple[NoWinProof, ...]
    unsat_horizons: tuple[int, ...]
    sat_solver: str
    per_turn: tuple[HorizonRecord, ...]
    refinements: int
    seeded_refinements: int
    dead_ends: int
    conflicts: int
    optimum: int | None = None
    stopped: str | None = None

    @staticmethod
    def _nested(doc: dict) -> dict:
        return {
            "no_win_below_proofs": _rows(doc, "no_win_below_proofs", NoWinProof),
            "lift": _record(doc, "lift", Lift),
            "unsat_horizons": _numbers(doc, "unsat_horizons"),
            "per_turn": tuple(
                HorizonRecord(**_keyed(row, f"per_turn[{i}]", HorizonRecord, required=3))
                for i, row in enumerate(_listed(doc, "per_turn"))
            ),
        }


Certificate = ExplicitCertificate | SatCertificate
_KINDS = {kind.SOLVER: kind for kind in (ExplicitCertificate, SatCertificate)}


def certificate_from_json(doc: dict) -> Certificate:
    """The typed certificate of ``doc`` (a certificate's JSON), by its ``solver``.

    Parameters
    ----------
    doc : dict
        What :meth:`ExplicitCertificate.to_json` or :meth:`SatCertificate.to_json` gave.

    Returns
    -------
    ExplicitCertificate or SatCertificate

    Raises
    ------
    CertificateError
        When ``doc`` is not a certificate of a known solver, or a field does not fit.
    """
    if not isinstance(doc, dict):
        raise CertificateError("", f"a certificate is a JSON object, not {type(doc).__name__}")
    kind = _KINDS.get(doc.get("solver"))
    if kind is None:
        raise CertificateError(
            "solver", f"{shown(doc.get('solver'))} is not one of {sorted(_KINDS)}"
        )
    return kind.from_json(doc)


# ---- JSON ------------------------------------------------------------------------------------
def _fields(value):
    return ((f.name, getattr(value, f.name)) for f in fields(value))


def _plain(value):
    if isinstance(value, BoundParams | HorizonRecord):
        return value.to_json()
    if isinstance(value, tuple) and hasattr(value, "_asdict"):
        return dict(value._asdict())
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _to_json(cert) -> dict:
    doc = {name: _plain(value) for name, value in _fields(cert) if name not in _LAST}
    if cert.optimum is not None:
        doc["optimum"] = cert.optimum
    if cert.stopped:
        doc["stopped"] = cert.stopped
    return doc


_LAST = ("optimum", "stopped")  # written last, and only when there is one


_SIMPLE = {
    "solver": str,
    "method": str,
    "lookahead": str,
    "start_lower_bound": (int, type(None)),
    "proved_no_win_below": int,
    "damage_budget": bool,
    "eliminate": bool,
    "sat_solver": str,
    "refinements": int,
    "seeded_refinements": int,
    "dead_ends": int,
    "conflicts": int,
    "optimum": int,
    "stopped": str,
}


def _read(kind, doc: dict) -> dict:
    """The fields of ``kind`` that are plain values, checked, and the lower bound."""
    if not isinstance(doc, dict):
        raise CertificateError("", f"a certificate is a JSON object, not {type(doc).__name__}")
    known = {f.name: f for f in fields(kind)}
    unknown = sorted(set(doc) - set(known))
    if unknown:
        raise CertificateError(str(unknown[0])[:40], f"not a field of the {kind.__name__}")
    found = {}
    for name, spec in known.items():
        if name not in doc:
            if spec.default is MISSING:
                raise CertificateError(name, "missing")
            continue
        value = doc[name]
        want = _SIMPLE.get(name)
        if want is not None:
            if (isinstance(value, bool) and want is not bool) or not isinstance(value, want):
                raise CertificateError(name, f"{shown(value)} is not a {_kind_name(want)}")
            found[name] = value
    found["lower_bound"] = _bound(doc.get("lower_bound"))
    return found


def _kind_name(want) -> str:
    names = [t.__name__ for t in (want if isinstance(want, tuple) else (want,))]
    return " or ".join("null" if n == "NoneType" else n for n in names)


def _bound(doc) -> BoundParams:
    want = {"name", "player_matter", "portal_per_turn", "tramples", "modelled"}
    if not isinstance(doc, dict) or set(doc) != want or doc["name"] != BOUND_NAME:
        raise CertificateError("lower_bound", f"not the parameters of {BOUND_NAME!r}")
    try:
        return BoundParams.from_json(doc)
    except (TypeError, ValueError) as exc:
        raise CertificateError("lower_bound", str(exc)) from None


def _listed(doc: dict, name: str) -> list:
    value = doc.get(name)
    if not isinstance(value, list):
        raise CertificateError(name, "must be a list")
    return value


def _numbers(doc: dict, name: str) -> tuple[int, ...]:
    values = _listed(doc, name)
    for i, value in enumerate(values):
        if isinstance(value, bool) or not isinstance(value, int):
            raise CertificateError(f"{name}[{i}]", f"{shown(value)} is not a whole number")
    return tuple(values)


def _keyed(row, field: str, kind, required: int | None = None) -> dict:
    """``row``, an object with the fields of ``kind`` (the first ``required`` of them at
    least, all by default), each a number (``by`` a string)."""
    names = kind._fields if hasattr(kind, "_fields") else tuple(f.name for f in fields(kind))
    need = set(names[:required] if required is not None else names)
    if not isinstance(row, dict) or not need <= set(row) <= set(names):
        raise CertificateError(field, f"must be an object with the fields {list(names)}")
    for name, value in row.items():
        text = name == "by"
        if isinstance(value, bool) or not isinstance(value, str if text else int | float):
            raise CertificateError(
                f"{field}.{name}", f"{shown(value)} is not a {'string' if text else 'number'}"
            )
    return row


def _record(doc: dict, name: str, kind):
    return kind(**_keyed(doc.get(name), name, kind))


def _rows(doc: dict, name: str, kind) -> tuple:
    return tuple(
        kind(**_keyed(row, f"{name}[{i}]", kind)) for i, row in enumerate(_listed(doc, name))
    )


__all__ = [
    "Certificate",
    "CertificateError",
    "ExplicitCertificate",
    "HorizonRecord",
    "Lift",
    "NoWinProof",
    "NoWinWithin",
    "SatCertificate",
    "Status",
    "certificate_from_json",
]

"""Typed results: ``Solution.status`` a :class:`Status`, the certificates typed values whose
``to_json()`` is the JSON the puzzle files hold (same keys, same order), a short repr and a
one-line summary."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from small_wins import WIN_IN_1

from taolong_lab import State, load_puzzles, solo_game
from taolong_lab.solvers import ExplicitCertificate, SatCertificate, Solution, Status, solve
from taolong_lab.solvers.certificate import CertificateError, certificate_from_json

ROOT = Path(__file__).resolve().parents[2]
WIN_IN_4 = solo_game(segments={"black": 1}, water={"black": 1}, bagua="random", seed=5)

# the SAT certificate's keys, in the order the solver has always written them
SAT_KEYS = [
    "solver",
    "method",
    "lookahead",
    "lower_bound",
    "damage_budget",
    "eliminate",
    "lift",
    "start_lower_bound",
    "proved_no_win_below",
    "no_win_below_proofs",
    "unsat_horizons",
    "sat_solver",
    "per_turn",
    "refinements",
    "seeded_refinements",
    "dead_ends",
    "conflicts",
    "optimum",
]


def _stored_explicit_certificates():
    """The explicit solver's part of every certificate in the bundled generated sets."""
    names = [f.name for f in ExplicitCertificate.__dataclass_fields__.values()]
    for path in sorted((ROOT / "puzzles").glob("*-novice.jsonl")):
        for puzzle in load_puzzles(path, check_solutions=False):
            cert = puzzle.certificate or {}
            if cert.get("solver") == ExplicitCertificate.SOLVER:
                yield {key: value for key, value in cert.items() if key in names}


def test_stored_explicit_certificates_read_and_write_back_unchanged():
    found = list(_stored_explicit_certificates())
    assert len(found) >= 20
    for doc in found:
        typed = ExplicitCertificate.from_json(doc)
        assert json.dumps(typed.to_json()) == json.dumps(doc)  # the same keys, in order


def test_a_solution_goes_through_json_unchanged():
    for method in ("explicit", "sat"):
        s = solve(WIN_IN_4, method=method)
        doc = json.loads(json.dumps(s.to_json()))
        assert doc["status"] == "optimal" and type(doc["status"]) is str
        back = Solution.from_json(doc)
        assert back == s and back.certificate == s.certificate
        assert type(back.status) is Status and back.status is Status.OPTIMAL


def test_the_sat_certificate_keeps_its_keys_and_their_order():
    s = solve(WIN_IN_4, method="sat")
    assert isinstance(s.certificate, SatCertificate)
    doc = s.certificate.to_json()
    assert list(doc) == SAT_KEYS
    assert doc["lift"] == {"budget": s.certificate.lift.budget, "after": s.certificate.lift.after}
    assert all(list(row)[:3] == ["turn", "clauses", "variables"] for row in doc["per_turn"])
    assert [row["turns"] for row in doc["no_win_below_proofs"]] == list(range(s.optimum))
    stopped = solve(WIN_IN_4, method="sat", conflict_budget=0)
    assert list(stopped.certificate.to_json())[-1] == "stopped"
    assert "optimum" not in stopped.certificate.to_json()


def test_status_is_a_string_enum():
    s = solve(State(WIN_IN_1))
    assert s.status is Status.OPTIMAL and s.status == "optimal"
    assert json.dumps({"status": s.status}) == '{"status": "optimal"}'
    assert repr((s.status, s.optimum)) == "('optimal', 1)"  # as the doctests show it
    assert Solution.from_json({**s.to_json(), "status": "no-win"}).status is Status.NO_WIN


def test_repr_is_short_and_str_is_one_line():
    s = solve(WIN_IN_4)
    text = repr(s)
    assert text.startswith("Solution(status='optimal', optimum=") and "line=" in text
    assert "no_win_within" not in text and len(text) < 120
    summary = str(s)
    assert summary == s.summary() and "\n" not in summary
    assert summary.startswith(f"optimal: a win in {s.optimum} turns")
    stopped = solve(WIN_IN_4, max_states=0)
    assert str(stopped).startswith("unknown: no win in fewer than")
    assert stopped.certificate.stopped in str(stopped)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda d: d.pop("lookahead"), "lookahead"),
        (lambda d: d.update(proved_no_win_below="3"), "proved_no_win_below"),
        (lambda d: d.update(extra=1), "extra"),
        (lambda d: d["lower_bound"].update(tramples=1), "lower_bound"),
        (lambda d: d["no_win_within"][0].pop("positions"), "no_win_within[0]"),
        (lambda d: d.update(solver="another"), "solver"),
    ],
)
def test_a_certificate_that_does_not_fit_names_the_field(change, field):
    doc = solve(WIN_IN_4).certificate.to_json()
    change(doc)
    with pytest.raises(CertificateError) as caught:
        certificate_from_json(doc)
    assert caught.value.field == field


def test_a_typed_certificate_goes_into_a_puzzle_as_its_json():
    from taolong_lab.puzzles import Puzzle

    s = solve(WIN_IN_4)
    puzzle = Puzzle.from_state(
        "p", "p", WIN_IN_4, optimum=s.optimum, solution=s.line, certificate=s.certificate
    )
    assert puzzle.certificate == s.certificate.to_json()
    changed = replace(s.certificate, stopped="interrupted")
    assert changed.to_json()["stopped"] == "interrupted"

"""The engine against its conformance corpus (tests/engine_corpus.py): every recorded position
has the same legal turns, in the same order, leading to the same positions, with the same
outcome. The whole corpus runs in ``make test-full``; ``make test`` runs a seeded sample of
it that changes every day (the seed is in the test id)."""

from __future__ import annotations

import datetime
import hashlib
import random

import pytest
from engine_corpus import load, successors_digest

from taolong_lab import State

HEADER, RECORDS = load()
COMBOS = sorted({r["combo"] for r in RECORDS})
SAMPLE_PER_COMBO = 12
DAY = datetime.date.today().toordinal()


def check(record: dict) -> None:
    state = State(record["tln"])
    assert state.to_tln() == record["tln"]
    result = state.outcome()
    assert (None if result is None else str(result)) == record["outcome"], record["tln"]
    assert [str(turn) for turn, _ in state.successors()] == record["turns"], record["tln"]
    assert successors_digest(state) == record["successors"], record["tln"]


def test_corpus_covers_every_variant():
    """Two-player and solo (both lookaheads) for every scenario, mode and edition."""
    from conformance import combinations

    for combo in combinations():
        assert combo.id in COMBOS
        if combo.edition == "current":
            for lookahead in ("matter", "next-turn"):
                assert f"{combo.id}/solo/{lookahead}" in COMBOS
    assert HEADER["records"] == len(RECORDS) > 20_000
    assert len({r["tln"] for r in RECORDS}) > 0.9 * len(RECORDS)


@pytest.mark.parametrize("seed", [DAY], ids=lambda s: f"seed={s}")
@pytest.mark.parametrize("combo", COMBOS)
def test_corpus_sample(combo, seed):
    rng = random.Random(f"{seed}:{combo}")
    records = [r for r in RECORDS if r["combo"] == combo]
    for record in rng.sample(records, min(SAMPLE_PER_COMBO, len(records))):
        check(record)


@pytest.mark.slow
@pytest.mark.parametrize("combo", COMBOS)
def test_corpus_whole(combo):
    for record in RECORDS:
        if record["combo"] == combo:
            check(record)


def test_corpus_check_can_fail():
    """A changed turn text or successor is caught."""
    record = next(r for r in RECORDS if len(r["turns"]) > 1)
    swapped = {**record, "turns": record["turns"][::-1]}
    with pytest.raises(AssertionError):
        check(swapped)
    other = {**record, "successors": hashlib.sha256(b"other").hexdigest()}
    with pytest.raises(AssertionError):
        check(other)

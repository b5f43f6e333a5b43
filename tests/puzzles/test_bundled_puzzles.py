"""Every bundled puzzle file (``puzzles/*.jsonl``, globbed when the tests are collected, so a
file added later is covered) passes ``taolong verify``; ids are unique across the files; a
generated file's name ``{scenario}-{tier}.jsonl`` matches its puzzles; a seeded sample of the
short puzzles is fully re-proved by the other solver each run (seed: ``TAOLONG_SAMPLE_SEED``,
shown in the test id), and all of them up to 6 turns in the slow run (``make test-full``).

Plain ``verify`` does not prove that no shorter win exists, so the puzzles of more than 6 turns
are re-proved too: every one in the slow run, and each run a sample of two drawn with a seed
that changes every day (``TAOLONG_LONG_SAMPLE_SEED``, default today's date as a day number;
the seed and the ids are in the test id), among those whose certificate records a search of
at most ``LONG_SAMPLE_POSITIONS`` positions.

The same checks also run on temporary files made from ``bench/solo-set.jsonl``, so they are
exercised before the generated sets exist. Plus the rulebook file's own tests
(``taolong_lab.puzzles.rulebook``: ``--check``, merging results).
"""

from __future__ import annotations

import copy
import datetime
import itertools
import json
import os
import random
from pathlib import Path

import pytest
from tool_scripts import load

from taolong_lab import load_puzzles
from taolong_lab.cli import main
from taolong_lab.puzzles import Puzzle, rulebook, save_puzzles
from taolong_lab.puzzles.grade import tier_of
from taolong_lab.puzzles.verify import verify_puzzle

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
RULEBOOK = "rulebook-solo.jsonl"
rulebook_tool = load("rulebook")  # tools/rulebook.py
TIERS = ("novice", "intermediate", "advanced", "expert")
SEED = int(os.environ.get("TAOLONG_SAMPLE_SEED", "20261121"))
SAMPLE_SIZE, SAMPLE_MAX_OPTIMUM = 6, 4  # the sample's budget: puzzles, and turns each
SLOW_MAX_OPTIMUM = 6
LONG_SAMPLE_SEED = int(
    os.environ.get("TAOLONG_LONG_SAMPLE_SEED", datetime.date.today().toordinal())
)
LONG_SAMPLE_SIZE, LONG_SAMPLE_POSITIONS = 2, 100_000
LONG_METHOD = "explicit"  # the quickest solver on these puzzles (no first-turn count)


def bundled_files(folder: Path = PUZZLES) -> list[Path]:
    return sorted(folder.glob("*.jsonl"))


FILES = bundled_files()


def verify_cli(path: Path, *options: str, capsys) -> tuple[int, str, str]:
    """``taolong verify PATH OPTIONS`` in this process: exit status, stdout, stderr."""
    capsys.readouterr()
    code = main(["verify", str(path), *options])
    out, err = capsys.readouterr()
    return code, out, err


def name_problems(path: Path) -> list[str]:
    """How the puzzles of a generated file disagree with its name ``{scenario}-{tier}``."""
    scenario, sep, tier = path.stem.rpartition("-")
    if not sep or tier not in TIERS:
        return [f"{path.name}: not named {{scenario}}-{{tier}} with a tier in {TIERS}"]
    found = []
    for p in load_puzzles(path, check_solutions=False):
        got = (p.difficulty or {}).get("tier")
        if p.rules.scenario != scenario:
            found.append(f"{path.name}: {p.id} is a {p.rules.scenario!r} puzzle")
        if got != tier or (p.optimum is not None and tier_of(p.optimum) != tier):
            found.append(f"{path.name}: {p.id} has tier {got!r}, optimum {p.optimum}")
    return found


def duplicate_ids(paths: list[Path]) -> list[str]:
    """Ids found more than once across the files (``file:id`` of each later one)."""
    seen, found = {}, []
    for path in paths:
        for p in load_puzzles(path, check_solutions=False):
            if p.id in seen:
                found.append(f"{path.name}:{p.id} (also in {seen[p.id]})")
            seen.setdefault(p.id, path.name)
    return found


def pick_sample(paths: list[Path], seed: int, size=SAMPLE_SIZE, max_optimum=SAMPLE_MAX_OPTIMUM):
    """``size`` solved puzzles of optimum <= ``max_optimum`` from the files, drawn with
    ``random.Random(seed)`` (all of them when fewer; none is fine)."""
    pool = [
        p
        for path in paths
        for p in load_puzzles(path, check_solutions=False)
        if p.solution is not None and p.optimum is not None and p.optimum <= max_optimum
    ]
    return random.Random(seed).sample(pool, min(size, len(pool)))


def reprove(puzzles, tmp_path: Path, capsys) -> tuple[int, str, str]:
    """``taolong verify --full --method other`` on the puzzles (one temporary file)."""
    path = tmp_path / "sample.jsonl"
    save_puzzles(path, puzzles)
    return verify_cli(path, "--full", "--method", "other", capsys=capsys)


# ---- the bundled files ----------------------------------------------------------------------
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_bundled_file_verifies(path, capsys):
    assert load_puzzles(path), f"{path.name} has no puzzles"
    code, out, err = verify_cli(path, capsys=capsys)
    assert code == 0, err
    assert "FAIL" not in out


def test_bundled_ids_are_unique():
    assert RULEBOOK in [p.name for p in FILES]
    assert duplicate_ids(FILES) == []


GENERATED = [p for p in FILES if p.name != RULEBOOK]


@pytest.mark.parametrize("path", GENERATED, ids=[p.name for p in GENERATED])
def test_generated_file_name_matches_its_puzzles(path):
    assert name_problems(path) == []


@pytest.mark.parametrize("seed", [SEED], ids=[f"TAOLONG_SAMPLE_SEED={SEED}"])
def test_a_seeded_sample_is_fully_reproved(seed, tmp_path, capsys):
    sample = pick_sample(FILES, seed)
    print(f"TAOLONG_SAMPLE_SEED={seed}: {[p.id for p in sample]}")
    if not sample:
        return  # no short puzzle bundled yet: nothing to re-prove
    code, out, err = reprove(sample, tmp_path, capsys)
    assert code == 0, f"seed {seed}: {err}"
    assert out.count("optimum re-proved") == len(sample)


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_every_short_bundled_puzzle_is_reproved(path, tmp_path, capsys):
    short = pick_sample([path], 0, size=10**9, max_optimum=SLOW_MAX_OPTIMUM)
    if not short:
        return
    code, out, err = reprove(short, tmp_path, capsys)
    assert code == 0, err
    assert out.count("optimum re-proved") == len(short)


# ---- the puzzles of more than 6 turns ----------------------------------------------------------
def long_puzzles(paths: list[Path]) -> list[tuple[str, str, int | None]]:
    """``(file name, id, positions)`` of each solved puzzle of more than ``SLOW_MAX_OPTIMUM``
    turns; ``positions``: the search its certificate records (``no_win_within``, in all),
    None when it records none. Read as plain JSON: cheap enough to run at collection."""
    found = []
    for path in paths:
        for line in path.read_text("utf-8").splitlines():
            doc = json.loads(line)
            if doc.get("solution") is None or (doc.get("optimum") or 0) <= SLOW_MAX_OPTIMUM:
                continue
            rows = (doc.get("certificate") or {}).get("no_win_within")
            positions = sum(row["positions"] for row in rows) if rows else None
            found.append((path.name, doc["id"], positions))
    return found


def pick_long_sample(long, seed: int, size=LONG_SAMPLE_SIZE, most=LONG_SAMPLE_POSITIONS):
    """``size`` of the ``long`` puzzles whose recorded search is at most ``most`` positions,
    drawn with ``random.Random(seed)``."""
    pool = [item for item in long if item[2] is not None and item[2] <= most]
    return random.Random(seed).sample(pool, min(size, len(pool)))


def reprove_bundled(file: str, ident: str) -> list[str]:
    """``verify_puzzle(..., full=True)`` on one bundled puzzle."""
    puzzle = next(p for p in load_puzzles(PUZZLES / file, check_solutions=False) if p.id == ident)
    return verify_puzzle(puzzle, full=True, method=LONG_METHOD)


LONG = long_puzzles(FILES)
LONG_SAMPLE = pick_long_sample(LONG, LONG_SAMPLE_SEED)


@pytest.mark.parametrize(
    ("file", "ident"),
    [(file, ident) for file, ident, _ in LONG_SAMPLE],
    ids=[f"TAOLONG_LONG_SAMPLE_SEED={LONG_SAMPLE_SEED}:{f}:{i}" for f, i, _ in LONG_SAMPLE],
)
def test_a_daily_sample_of_long_puzzles_is_reproved(file, ident):
    assert reprove_bundled(file, ident) == [], f"TAOLONG_LONG_SAMPLE_SEED={LONG_SAMPLE_SEED}"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("file", "ident"),
    [(file, ident) for file, ident, _ in LONG],
    ids=[f"{file}:{ident}" for file, ident, _ in LONG],
)
def test_every_long_bundled_puzzle_is_reproved(file, ident):
    assert reprove_bundled(file, ident) == []


def test_the_long_puzzles_and_their_sample(tmp_path):
    assert len(LONG) >= LONG_SAMPLE_SIZE
    assert all(len(pick_long_sample(LONG, seed)) == LONG_SAMPLE_SIZE for seed in range(20))
    samples = {tuple(pick_long_sample(LONG, seed)) for seed in range(20)}
    assert len(samples) > 1  # the seed changes the sample
    assert all(p <= LONG_SAMPLE_POSITIONS for s in samples for _, _, p in s)
    path = tmp_path / "long-advanced.jsonl"
    save_puzzles(path, _solo_set(2))
    assert long_puzzles([path]) == []


# ---- the same checks on temporary files -----------------------------------------------------
def _solo_set(max_optimum: int, scenario: str | None = None) -> list[Puzzle]:
    found = []
    for p in load_puzzles(ROOT / "bench" / "solo-set.jsonl"):
        if p.optimum <= max_optimum and scenario in (None, p.rules.scenario):
            doc = p.to_json()
            doc["difficulty"] = {
                "tier": tier_of(p.optimum),
                "grade": tier_of(p.optimum),
                "score": p.optimum + 0.5,
            }
            found.append(Puzzle.from_json(doc))
    return found


@pytest.fixture
def generated_like(tmp_path) -> Path:
    """A folder like puzzles/: field-novice.jsonl and cave-novice.jsonl from the bench set."""
    for scenario in ("field", "cave"):
        save_puzzles(tmp_path / f"{scenario}-novice.jsonl", _solo_set(2, scenario))
    return tmp_path


def test_checks_on_temporary_files(generated_like, tmp_path, capsys):
    files = bundled_files(generated_like)
    assert [p.name for p in files] == ["cave-novice.jsonl", "field-novice.jsonl"]
    for path in files:
        assert verify_cli(path, capsys=capsys)[0] == 0
        assert name_problems(path) == []
    assert duplicate_ids(files) == []
    sample = pick_sample(files, SEED, size=3)
    assert len(sample) == 3 and all(p.optimum <= 2 for p in sample)
    assert [p.id for p in pick_sample(files, SEED, size=3)] == [p.id for p in sample]
    code, out, _ = reprove(sample, tmp_path, capsys)
    assert code == 0 and out.count("optimum re-proved") == 3


def test_a_wrong_file_name_or_tier_is_caught(generated_like):
    wrong = generated_like / "cave-intermediate.jsonl"
    (generated_like / "field-novice.jsonl").rename(wrong)
    problems = name_problems(wrong)
    assert any("is a 'field' puzzle" in p for p in problems)
    assert any("has tier 'novice'" in p for p in problems)
    bad = generated_like / "cave.jsonl"
    bad.write_text("")
    assert "not named" in name_problems(bad)[0]


def test_a_duplicate_id_across_files_is_caught(generated_like):
    copy_path = generated_like / "other-novice.jsonl"
    copy_path.write_bytes((generated_like / "cave-novice.jsonl").read_bytes())
    assert duplicate_ids(bundled_files(generated_like))


def test_a_corrupted_file_fails_verify(generated_like, capsys):
    path = generated_like / "field-novice.jsonl"
    docs = [json.loads(line) for line in path.read_text().splitlines()]
    docs[0]["certificate"]["proved_no_win_below"] += 1
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))
    code, _, err = verify_cli(path, capsys=capsys)
    assert code != 0 and "certificate.proved_no_win_below" in err


def test_an_empty_sample_is_fine(generated_like):
    assert pick_sample(bundled_files(generated_like), SEED, max_optimum=0) == []


# ---- the rulebook file (taolong_lab.puzzles.rulebook) ---------------------------------------
def test_the_rulebook_file_is_up_to_date():
    assert rulebook_tool.differences(rulebook.SHIPPED) == []


def test_every_rulebook_challenge_has_a_proved_result():
    for p in load_puzzles(PUZZLES / RULEBOOK):
        cert = p.certificate or {}
        assert p.optimum is not None or cert.get("proved_no_win_below", 0) >= 1, p.id
        assert "time_limit" in cert, p.id


def _record(optimum=None, bound=5, first=None) -> dict:
    """A bench/rulebook_results.py record (only the fields result_of reads)."""
    if optimum is None:
        return {
            "status": "unknown",
            "time_limit": 600,
            "stats": {"seconds": 600.1},
            "certificate": {"solver": "s", "method": "m", "proved_no_win_below": bound},
        }
    return {
        "status": "optimal",
        "optimum": optimum,
        "line": ["x"] * optimum,
        "optimal_first_turns": first,
        "time_limit": 600,
        "stats": {"seconds": 1.0},
        "certificate": {"solver": "s", "method": "m", "optimum": optimum},
    }


def test_rulebook_result_ranking():
    result_of = rulebook_tool.result_of
    bound5, bound9 = result_of(_record()), result_of(_record(bound=9))
    solved, counted = result_of(_record(7)), result_of(_record(7, first=3))
    assert bound5["certificate"]["status"] == "unknown" and "optimum" not in bound5
    assert bound5["certificate"]["time_limit"] == 600
    assert counted["certificate"]["optimal_first_turns"] == 3
    ladder = [None, bound5, bound9, solved, counted]
    for worse, best in itertools.pairwise(ladder):
        assert rulebook_tool.better(best, worse) and not rulebook_tool.better(worse, best)
    assert rulebook_tool.result_of({"status": "error", "error": "boom"}) is None
    merged = rulebook_tool.merge_results({"a": solved}, {"a": _record(bound=9), "b": _record(7)})
    assert merged == {"a": solved, "b": solved}


def test_a_better_rulebook_result_keeps_a_cross_check_of_its_optimum():
    """Counting the first turns of an optimum another solver also proved must not lose that
    proof (the records of bench/rulebook_results.py carry no cross_check); a cross-check of
    another optimum goes, since it no longer agrees."""
    solved = rulebook_tool.result_of(_record(7))
    cross = {"solver": "other", "optimum": 7, "agrees": True}
    solved["certificate"]["cross_check"] = cross
    merged = rulebook_tool.merge_results({"a": solved}, {"a": _record(7, first=3)})
    assert merged["a"]["certificate"]["optimal_first_turns"] == 3
    assert merged["a"]["certificate"]["cross_check"] == cross
    stale = rulebook_tool.result_of(_record(8))
    stale["certificate"]["cross_check"] = {**cross, "optimum": 8}
    merged = rulebook_tool.merge_results({"a": stale}, {"a": _record(7, first=3)})
    assert "cross_check" not in merged["a"]["certificate"]


def test_rebuilding_the_rulebook_file_keeps_its_results(tmp_path):
    path = tmp_path / RULEBOOK
    path.write_bytes(rulebook.SHIPPED.read_bytes())
    stored = rulebook_tool.stored_results(path)
    assert stored, "no results in the shipped file"
    assert rulebook_tool.main(["--output", str(path)]) == 0  # up to date: left alone
    save_puzzles(path, rulebook.rulebook_puzzles(results=stored))
    assert rulebook_tool.stored_results(path) == stored
    assert rulebook_tool.main(["--output", str(path), "--check"]) == 0


def test_a_changed_position_drops_its_stale_result(tmp_path):
    path = tmp_path / RULEBOOK
    puzzles = load_puzzles(rulebook.SHIPPED)
    solved = next(p for p in puzzles if p.solution is not None)
    other = next(p for p in puzzles if p.id != solved.id and p.rules == solved.rules)
    doc = copy.deepcopy(solved.to_json())
    doc["start"] = other.to_json()["start"]  # a result for another position
    doc.update(solution=other.to_json().get("solution"), optimum=other.optimum)
    doc["player"] = other.player
    swapped = [
        Puzzle.from_json(doc, check_solutions=False) if p.id == solved.id else p for p in puzzles
    ]
    save_puzzles(path, swapped)
    assert solved.id not in rulebook_tool.stored_results(path)
    assert rulebook_tool.main(["--output", str(path), "--check"]) == 1
    assert rulebook_tool.main(["--output", str(path)]) == 0
    rebuilt = {p.id: p for p in load_puzzles(path)}
    assert rebuilt[solved.id].solution is None and rebuilt[other.id].solution is not None

"""Checkable SAT proofs (issues 34 and 40): ``solve(..., method="sat", proof=FOLDER)`` writes a
DRAT proof for each UNSAT horizon and the steps of its search, and
:mod:`taolong_lab.puzzles.proofs` builds each CNF again with the lab's encoder, checks the DRAT
proof against that CNF (the lab's compiled checker or dratify), the refinements in the engine,
the dead ends with the explicit search, and forces engine lines into the rebuilt CNF.

Small challenges of the bench set (wins in 2 to 4). A tampered proof, CNF, refinement or
dead end, a forged CNF, a proof of another puzzle, and hostile files must each give a problem
that names the file and field; the default path must keep no clause and write nothing. The
stored proofs of the bundled puzzles are all checked under ``slow``.
"""

from __future__ import annotations

import datetime
import gzip
import hashlib
import importlib.util
import json
import os
import random
import shutil
import subprocess
import sys
import tracemalloc
import zlib
from pathlib import Path

import pytest

from taolong_lab import load_puzzles
from taolong_lab.errors import TaoLongError
from taolong_lab.puzzles import proofs
from taolong_lab.solvers.sat import drat, solve
from taolong_lab.solvers.sat import search as sat_search
from taolong_lab.solvers.sat import solver as sat_solver

ROOT = Path(__file__).resolve().parents[2]
BENCH = {p.id: p for p in load_puzzles(ROOT / "bench" / "solo-set.jsonl")}
# a refinement with five ends, dead ends, a horizon the encoding folds to false, two DRATs
PUZZLE = BENCH["wall-b1w1-win4"]
# the lab's compiled checker (when built) and dratify's two engines (the Rust one comes with
# the extra "proofs")
ENGINES = [
    pytest.param(
        "lab", marks=pytest.mark.skipif(drat.compiled() is None, reason="_drat not built")
    ),
    "python",
    pytest.param(
        "native",
        marks=pytest.mark.skipif(not proofs.native_engine(), reason="cdclkit-native missing"),
    ),
]


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("proof") / PUZZLE.id
    solve(PUZZLE, count_first_turns=False, proof=folder)
    return folder


@pytest.fixture
def proof(stored, tmp_path) -> Path:
    """A copy of the stored proof folder, to tamper with."""
    return Path(shutil.copytree(stored, tmp_path / PUZZLE.id))


def manifest(folder: Path) -> dict:
    return json.loads((folder / "manifest.json").read_text())


def save_manifest(folder: Path, doc: dict) -> None:
    (folder / "manifest.json").write_text(json.dumps(doc))


def rewrite(folder: Path, name: str, change) -> None:
    """Replace the text of the gzip file ``name`` by ``change(text)``, and its SHA-256 in the
    manifest: a tampering the digest does not catch."""
    text = gzip.decompress((folder / name).read_bytes()).decode()
    data = change(text).encode()
    (folder / name).write_bytes(gzip.compress(data))
    doc = manifest(folder)
    for row in doc["horizons"]:
        for key in ("cnf", "drat"):
            if row.get(key) == name:
                row[f"{key}_sha256"] = hashlib.sha256(data).hexdigest()
    save_manifest(folder, doc)


def drop_lemmas(text: str) -> str:
    """A DRAT proof without its lemmas: its deletions and the empty clause only."""
    return "\n".join(line for line in text.splitlines() if line.startswith("d ")) + "\n0\n"


def last_drat(folder: Path) -> dict:
    return [row for row in manifest(folder)["horizons"] if row["goal"] is not False][-1]


# ---- a proof is written and checks ----------------------------------------------------------
def test_proof_is_written_for_every_unsat_horizon_and_checks(stored):
    solution = solve(PUZZLE, count_first_turns=False)
    doc = manifest(stored)
    assert [row["turns"] for row in doc["horizons"]] == list(solution.certificate.unsat_horizons)
    assert doc["start"] == PUZZLE.start.to_tln()
    with_drat = [row for row in doc["horizons"] if row["goal"] is not False]
    assert len(with_drat) == 2
    for row in with_drat:
        assert (stored / row["cnf"]).is_file() and (stored / row["drat"]).is_file()
        assert sum(row["kinds"].values()) == row["clauses"]
        assert row["kinds"]["goal"] == 1 and row["kinds"]["layer"] > 0
    assert doc["dead_ends"] and max(len(r["ends"]) for r in doc["refinements"]) > 1
    assert proofs.check(PUZZLE, stored) == []


@pytest.mark.parametrize("engine", ENGINES)
def test_both_engines_accept_the_proof(stored, engine):
    assert proofs.check(PUZZLE, stored, engine=engine) == []


def test_an_unknown_engine_is_refused(stored):
    with pytest.raises(TaoLongError, match="engine: 'fast' is not one of auto, lab, dratify, pyt"):
        proofs.check(PUZZLE, stored, engine="fast")


def test_the_cnf_names_what_its_clauses_are(stored):
    row = last_drat(stored)
    text = gzip.decompress((stored / row["cnf"]).read_bytes()).decode()
    head = text.splitlines()
    assert head[1] == f"c start {PUZZLE.start.to_tln()}"
    assert head[2] == f"c horizon {row['turns']}"
    labels = [line for line in head if line.startswith("c ")]
    for kind in ("c layer 1:", "c damage budget under won_", "c goal: won_"):
        assert any(line.startswith(kind) for line in labels), kind
    assert head[-1] == f"{row['goal']} 0"


def test_default_path_keeps_no_clause_and_writes_nothing(tmp_path, monkeypatch):
    def no_log(*args, **kwargs):
        raise AssertionError("a proof log was made without proof=")

    monkeypatch.setattr(sat_solver, "ProofLog", no_log)
    monkeypatch.chdir(tmp_path)
    solution = solve(PUZZLE, count_first_turns=False)
    assert solution.optimum == PUZZLE.optimum
    assert "proof" not in solution.stats
    assert list(tmp_path.iterdir()) == []


def test_logging_a_proof_does_not_change_the_search(tmp_path, monkeypatch):
    """But for one thing: with a proof log no short search starts at the start, so that no
    dead-end nogood hands SAT the very claim it proves (tested below)."""
    monkeypatch.setattr(sat_solver.SatSearch, "SHORT_FROM", sat_solver.SatSearch.PROOF_SHORT_FROM)
    plain = solve(PUZZLE, count_first_turns=False)
    logged = solve(PUZZLE, count_first_turns=False, proof=tmp_path / "p")
    assert logged.line == plain.line
    for field in ("conflicts", "refinements", "dead_ends", "per_turn", "unsat_horizons"):
        mine, theirs = getattr(logged.certificate, field), getattr(plain.certificate, field)
        if field == "per_turn":  # the seconds differ
            mine = [(r.turn, r.clauses, r.conflicts, r.refinements) for r in mine]
            theirs = [(r.turn, r.clauses, r.conflicts, r.refinements) for r in theirs]
        assert mine == theirs, field


def test_stats_name_the_folder(tmp_path):
    solution = solve(BENCH["cave-b1w1-win2"], proof=tmp_path / "p")
    assert solution.stats["proof"] == str(tmp_path / "p")
    assert proofs.check(BENCH["cave-b1w1-win2"], tmp_path / "p") == []


def test_a_won_start_gets_a_manifest_without_horizons(tmp_path):
    start = BENCH["field-b1w1-win1"]
    won = start.start.play(start.solution[0])
    solution = solve(won, proof=tmp_path / "won")
    assert solution.optimum == 0
    doc = manifest(tmp_path / "won")
    assert (doc["start"], doc["horizons"], doc["refinements"]) == (won.to_tln(), [], [])
    assert proofs.check_folder(tmp_path / "won") == []


# ---- tampering ----------------------------------------------------------------------------
@pytest.mark.parametrize("engine", ENGINES)
def test_a_tampered_proof_fails_the_check(proof, engine):
    """Horizon 2's CNF is not refuted by unit propagation alone, so its proof's lemmas matter:
    without them, the empty clause is not derived."""
    row = _first_drat(proof)
    assert row["turns"] == 2
    rewrite(proof, row["drat"], drop_lemmas)
    assert proofs.check(PUZZLE, proof, engine=engine) == [
        f"{row['drat']}: the DRAT check failed: clause is neither RUP nor RAT with respect to "
        "the clauses available at this point"
    ]


def flip_a_literal(text: str) -> str:
    """The CNF with the first literal of its first clause negated."""
    lines = text.split("\n")
    i = next(i for i, line in enumerate(lines) if line and line[0] not in "cp")
    first, rest = lines[i].split(" ", 1)
    lines[i] = f"{-int(first)} {rest}"
    return "\n".join(lines)


CNF_EDITS = {
    "the goal negated": lambda goal: (
        lambda text: text[: text.rindex("\n", 0, -1) + 1] + f"{-goal} 0\n"
    ),
    "a literal flipped": lambda goal: flip_a_literal,
    "a lone unit clause added": lambda goal: lambda text: text + "1 0\n",
}


@pytest.mark.parametrize("edit", sorted(CNF_EDITS))
@pytest.mark.parametrize("digest", ["kept", "updated"])
def test_an_edited_stored_cnf_is_refused(proof, edit, digest):
    """A stored CNF is only a cache of the one the checker builds again with its encoder:
    edited, it is refused, whether the manifest's digest was updated to match or not."""
    row = last_drat(proof)
    before = row["cnf_sha256"]
    rewrite(proof, row["cnf"], CNF_EDITS[edit](row["goal"]))
    if digest == "kept":
        doc = manifest(proof)
        next(r for r in doc["horizons"] if r["turns"] == row["turns"])["cnf_sha256"] = before
        save_manifest(proof, doc)
        want = f"{row['cnf']}: not the CNF rebuilt here (a stored CNF is only a cache)"
    else:
        want = f"horizon {row['turns']}: the CNF rebuilt here is not the one the proof was for"
    assert proofs.check(PUZZLE, proof) == [want]


def test_counts_the_encoder_did_not_write_are_refused(proof):
    """The manifest's counts must be the rebuilt CNF's: one clause more (a lone unit clause
    that would make any CNF unsatisfiable) is refused, and so is another goal literal."""
    row = last_drat(proof)
    doc = manifest(proof)
    mine = next(r for r in doc["horizons"] if r["turns"] == row["turns"])
    mine["clauses"] += 1
    mine["kinds"]["goal"] += 1
    save_manifest(proof, doc)
    (problem,) = proofs.check(PUZZLE, proof)
    assert problem == (
        f"horizon {row['turns']}: clauses: the manifest says {row['clauses'] + 1}, the CNF "
        f"rebuilt here has {row['clauses']}: not the CNF of this start and horizon"
    )
    mine["clauses"] -= 1
    mine["kinds"]["goal"] -= 1
    mine["goal"] = -row["goal"]
    save_manifest(proof, doc)
    assert proofs.check(PUZZLE, proof)[0].startswith(f"horizon {row['turns']}: goal: ")


def test_a_stored_cnf_is_only_a_cache(proof):
    """Without its CNF files, a proof checks the same: the CNFs are built again."""
    for row in _drat_rows(proof):
        os.remove(proof / row["cnf"])
    assert proofs.check(PUZZLE, proof) == []


def four_turn_win(start) -> list[str]:
    """A real line winning in exactly 4 turns from ``start``, whose optimum is 3."""
    from taolong_lab.solvers.bounds import bound_params
    from taolong_lab.solvers.explicit import win_line_within, win_within

    params = bound_params(start)
    for turn, after in start.successors():
        if not after.is_over() and not win_within(after, 2, params):
            line = win_line_within(after, 3, params)
            if line is not None:
                return [str(turn), *map(str, line)]
    raise AssertionError("no 4-turn win")


@pytest.fixture
def forged(tmp_path) -> tuple:
    """Finding 1 of issue 40: torus-intermediate-01 (optimum 3) stored with optimum 4 and a
    legal 4-turn line, its proof folder given a horizon 3 whose CNF is ``1 0 / -1 0 / 2 0``
    and whose DRAT proof is ``0``, every digest and count made to match."""
    import dataclasses

    path = ROOT / "puzzles" / "torus-intermediate.jsonl"
    (real,) = [p for p in load_puzzles(path) if p.id == "torus-intermediate-01"]
    assert real.optimum == 3
    line = four_turn_win(real.start)
    puzzle = dataclasses.replace(real, optimum=4, solution=tuple(line))
    folder = Path(shutil.copytree(proofs.named_folder(real, path.parent), tmp_path / real.id))
    cnf, proof = b"c fake\np cnf 2 3\n1 0\n-1 0\n2 0\n", b"0\n"
    (folder / "h3.cnf.gz").write_bytes(gzip.compress(cnf))
    (folder / "h3.drat.gz").write_bytes(gzip.compress(proof))
    doc = manifest(folder)
    last = doc["horizons"][-1]
    doc["steps"] += "LBU" if "B" in doc["steps"] else "LU"
    doc["horizons"].append(
        {
            **last,
            "turns": 3,
            "goal": 1,
            "variables": 2,
            "clauses": 3,
            "kinds": {"layer": 2, "damage-budget": 0, "refinement": 0, "dead-end": 0, "goal": 1},
            "cnf": "h3.cnf.gz",
            "cnf_sha256": hashlib.sha256(cnf).hexdigest(),
            "drat": "h3.drat.gz",
            "drat_sha256": hashlib.sha256(proof).hexdigest(),
        }
    )
    save_manifest(folder, doc)
    return puzzle, folder


def test_a_forged_cnf_does_not_prove_a_false_optimum(forged):
    puzzle, folder = forged
    (problem,) = proofs.check(puzzle, folder)
    assert problem.startswith("horizon 3: ")
    assert problem.endswith("not the CNF of this start and horizon")


def test_a_forged_proof_with_the_rebuilt_counts_still_fails(forged):
    """The forger may compute the rebuilt CNF's counts and digest with the lab itself and drop
    the stored CNF: the DRAT proof is then checked against the rebuilt CNF, which has a model
    (the real win in 3), so no proof refutes it."""
    from taolong_lab.engine import State
    from taolong_lab.solvers.sat.rebuild import Rebuild, dead_end_of, refinement_of

    puzzle, folder = forged
    doc = manifest(folder)
    start = State(doc["start"])
    refs = [refinement_of(r, start, "r") for r in doc["refinements"]]
    dead = [dead_end_of(r, start, "d", 99) for r in doc["dead_ends"]]
    rebuilt = Rebuild(start, doc["settings"], doc["steps"], refs, dead).run(99)[-1]
    doc["horizons"][-1].update(
        goal=rebuilt.goal,
        variables=rebuilt.variables,
        clauses=rebuilt.clauses,
        kinds=rebuilt.kinds,
        cnf_sha256=rebuilt.sha256,
    )
    save_manifest(folder, doc)
    os.remove(folder / "h3.cnf.gz")
    assert proofs.check(puzzle, folder) == [
        "h3.drat.gz: the DRAT check failed: clause is neither RUP nor RAT with respect to the "
        "clauses available at this point"
    ]


def test_the_rebuilt_cnf_is_the_same_bytes_in_two_fresh_processes(tmp_path, stored):
    """Encoding the same start and steps in two fresh processes, with different hash seeds,
    gives the same DIMACS bytes (no set or dict order reaches a clause), and they are the
    writer's bytes too."""
    script = (
        "import json, sys\n"
        "from pathlib import Path\n"
        "from taolong_lab.engine import State\n"
        "from taolong_lab.solvers.sat.proof import cnf_header\n"
        "from taolong_lab.solvers.sat.rebuild import Rebuild, dead_end_of, refinement_of\n"
        "doc = json.loads(Path(sys.argv[1]).read_text())\n"
        "start = State(doc['start'])\n"
        "refs = [refinement_of(r, start, 'r') for r in doc['refinements']]\n"
        "dead = [dead_end_of(r, start, 'd', 99) for r in doc['dead_ends']]\n"
        "rebuild = Rebuild(start, doc['settings'], doc['steps'], refs, dead)\n"
        "top = rebuild.run(99)[-1]\n"
        "header = cnf_header(doc['start'], top.turns, doc['settings'])\n"
        "Path(sys.argv[2]).write_bytes(rebuild.log.dimacs(header, top.turns, top.goal))\n"
    )
    outputs = []
    for seed in ("1", "2"):
        out = tmp_path / f"h-{seed}.cnf"
        subprocess.run(
            [sys.executable, "-c", script, str(stored / "manifest.json"), str(out)],
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": str(ROOT)},
        )
        outputs.append(out.read_bytes())
    row = last_drat(stored)
    assert outputs[0] == outputs[1]
    assert outputs[0] == gzip.decompress((stored / row["cnf"]).read_bytes())


def test_a_wrong_refinement_is_caught(proof):
    doc = manifest(proof)
    i, ref = next((i, r) for i, r in enumerate(doc["refinements"]) if len(r["ends"]) > 1)
    ref["ends"] = ref["ends"][1:]  # one of the opponent's choices left out
    save_manifest(proof, doc)
    assert proofs.check(PUZZLE, proof) == [
        f"manifest.json: refinements[{i}]: the opponent may end its group on 1 board(s) the "
        "refinement leaves out (unsound)"
    ]


def test_a_refinement_allowing_a_board_the_policy_does_not_is_caught(proof):
    doc = manifest(proof)
    ref = doc["refinements"][0]
    ref["ends"].append(ref["position"])  # the opponent's group leaving the board as it was
    save_manifest(proof, doc)
    assert proofs.check(PUZZLE, proof) == [
        "manifest.json: refinements[0]: 1 of its boards are not the opponent's choices (the "
        "policy allows fewer)"
    ]


def test_a_buggy_policy_in_the_solver_is_caught(tmp_path, monkeypatch):
    """The solver's refinements drawn from a policy that keeps only the first of the
    opponent's tied choices: the engine's replay of the manifest catches it."""
    real = sat_search.choose_group
    monkeypatch.setattr(sat_search, "choose_group", lambda *a, **k: real(*a, **k)[:1])
    folder = tmp_path / "buggy"
    solve(PUZZLE, count_first_turns=False, proof=folder)
    found = proofs.check_folder(folder)
    assert found and all("leaves out (unsound)" in p for p in found)


def test_a_wrong_dead_end_is_caught(proof):
    doc = manifest(proof)
    doc["dead_ends"][0] = {"position": PUZZLE.start.to_tln(), "turns": PUZZLE.optimum}
    save_manifest(proof, doc)
    assert proofs.check(PUZZLE, proof) == [
        f"manifest.json: dead_ends[0]: a win within {PUZZLE.optimum} turns exists"
    ]


def test_a_dead_end_out_of_budget_is_reported(proof):
    doc = manifest(proof)
    doc["dead_ends"][0] = {"position": PUZZLE.start.to_tln(), "turns": PUZZLE.optimum - 1}
    save_manifest(proof, doc)
    found = proofs.check(PUZZLE, proof, budget=1)
    assert found[0] == (
        f"manifest.json: dead_ends[0]: not re-proved within 1 positions (no win within "
        f"{PUZZLE.optimum - 1} turns)"
    )
    assert all("not re-proved within 1 positions" in p for p in found)


def test_a_folded_horizon_with_a_win_is_caught(proof):
    doc = manifest(proof)
    doc["horizons"] = [{"turns": PUZZLE.optimum, "refinements": 0, "dead_ends": 0, "goal": False}]
    save_manifest(proof, doc)
    assert proofs.check_folder(proof) == [
        f"horizon {PUZZLE.optimum}: a win within {PUZZLE.optimum} turns exists"
    ]


# ---- the folder against the puzzle ----------------------------------------------------------
def test_a_proof_of_another_puzzle_is_refused(proof):
    other = BENCH["field-b1w1-win4"]
    found = proofs.check(other, proof)
    assert found == [f"manifest.json: start: not the puzzle's start {other.start.to_tln()!r}"]


def test_settings_and_horizons_must_be_the_certificates(proof):
    doc = manifest(proof)
    doc["settings"]["lookahead"] = "next-turn"
    doc["horizons"] = doc["horizons"][1:]
    save_manifest(proof, doc)
    found = proofs.check(PUZZLE, proof)
    assert any(p.startswith("manifest.json: horizons: ") for p in found)
    assert any(p.startswith("manifest.json: settings.lookahead: next-turn") for p in found)


def test_the_certificate_names_the_folder(tmp_path, stored):
    file = tmp_path / "one.jsonl"
    file.write_text(json.dumps(PUZZLE.to_json(), ensure_ascii=False) + "\n")
    before = file.read_text()
    (tmp_path / "proofs").mkdir()
    shutil.copytree(stored, tmp_path / "proofs" / PUZZLE.id)
    proofs.attach(file, PUZZLE.id, f"proofs/{PUZZLE.id}")
    (puzzle,) = load_puzzles(file)
    assert puzzle.certificate["proof"] == f"proofs/{PUZZLE.id}"
    doc = json.loads(file.read_text())
    del doc["certificate"]["proof"]
    assert json.dumps(doc, ensure_ascii=False) + "\n" == before
    assert proofs.check(puzzle, base=tmp_path) == []
    assert proofs.check(PUZZLE) == ["certificate.proof: missing (no stored proof)"]


@pytest.mark.parametrize("where", ["../elsewhere", "/abs/path", "a/../../b", "", 7])
def test_a_proof_folder_outside_the_puzzles_is_refused(where):
    doc = PUZZLE.to_json()
    doc["certificate"] = dict(doc["certificate"], proof=where)
    puzzle = type(PUZZLE).from_json(doc)
    assert proofs.check(puzzle) == [f"certificate.proof: {where!r} is not a relative folder name"]


# ---- hostile files --------------------------------------------------------------------------
def test_a_gzip_bomb_is_refused_as_it_unpacks(proof, monkeypatch):
    monkeypatch.setattr(proofs, "MAX_TEXT_BYTES", 1000)
    assert proofs.check(PUZZLE, proof) == [
        f"{row['cnf']}: unpacks to more than 1,000 bytes" for row in _drat_rows(proof)
    ]


def test_a_gzip_bomb_is_never_unpacked_whole(tmp_path):
    """The stored files are read and unpacked in pieces of a MiB: 32 MiB of text in a cached
    CNF is refused at the limit with a few MiB of Python memory."""
    bomb = tmp_path / "h1.cnf.gz"
    bomb.write_bytes(gzip.compress(b"1 " * 2**24))
    tracemalloc.start()
    try:
        with pytest.raises(proofs.ProofFileError, match="unpacks to more than 1,000 bytes"):
            limit = proofs.MAX_TEXT_BYTES
            proofs.MAX_TEXT_BYTES = 1000
            try:
                for _ in proofs._unpacked(tmp_path, "h1.cnf.gz", hashlib.sha256()):
                    pass
            finally:
                proofs.MAX_TEXT_BYTES = limit
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 2**23


PEAK = """
import json, resource, sys
from pathlib import Path
from taolong_lab import load_puzzles
from taolong_lab.puzzles import proofs
(puzzle,) = load_puzzles(sys.argv[1])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
memory = int(sys.argv[3]) if len(sys.argv) > 3 else proofs.MEMORY_BUDGET
found = proofs.stored_report(puzzle, Path(sys.argv[1]).parent, engine=sys.argv[2], memory=memory)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
print(json.dumps({"status": found.status, "problems": found.problems, "peak_kb": peak}))
"""


def peak_check(file: Path, engine: str, memory: int | None = None) -> dict:
    """What checking the proof of the one puzzle of ``file`` finds in a fresh process, and the
    growth of its peak resident memory (KiB)."""
    argv = [sys.executable, "-c", PEAK, str(file), engine]
    if memory is not None:
        argv.append(str(memory))
    done = subprocess.run(
        argv,
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    return json.loads(done.stdout)


def packed(*segments: tuple[bytes, int]) -> tuple[bytes, str]:
    """One gzip member of each ``(text, bytes)`` segment's text repeated to about that many
    bytes, made in pieces, and the SHA-256 of the whole text."""
    pack = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    digest, parts = hashlib.sha256(), []
    for text, size in segments:
        left, most = max(1, size // len(text)), max(1, (1 << 20) // len(text))
        while left:
            piece = text * min(left, most)
            left -= min(left, most)
            digest.update(piece)
            parts.append(pack.compress(piece))
    return b"".join([*parts, pack.flush()]), digest.hexdigest()


def test_a_cnf_bomb_costs_no_memory(tmp_path, stored):
    """Finding 2 of issue 40: a cached CNF of 64 MiB of text in 65 KB took 6.4 GB. It is now
    only streamed through a digest: refused, with the process a few MiB larger."""
    file = attached(tmp_path, stored)
    folder = tmp_path / "proofs" / PUZZLE.id
    row = last_drat(folder)
    (folder / row["cnf"]).write_bytes(packed((b"1 2 0\n", 64 << 20))[0])
    found = peak_check(file, "auto")
    assert found["status"] == proofs.FAILED
    assert found["problems"] == [
        f"{row['cnf']}: not the CNF rebuilt here (a stored CNF is only a cache)"
    ]
    assert found["peak_kb"] < 48 * 1024


@pytest.mark.skipif(drat.compiled() is None, reason="taolong_lab._drat not built")
def test_a_drat_bomb_stays_within_the_memory_budget(tmp_path, stored):
    """Finding 2 of issue 40: a DRAT proof of ``1 0`` repeated (65 KB packed) took 5.6 GB in
    dratify. Here the goal's unit clause repeated 16 million times, then the real proof (a
    valid proof: each copy is RUP): the compiled checker stores each copy, and stops at its
    memory budget, naming it; the process grows by about the budget."""
    file = attached(tmp_path, stored)
    folder = tmp_path / "proofs" / PUZZLE.id
    row = last_drat(folder)
    text = gzip.decompress((folder / row["drat"]).read_bytes())
    lemma = f"{row['goal']} 0\n".encode()
    flood, digest = packed((lemma, 16_000_000 * len(lemma)), (text, len(text)))
    assert len(flood) < 1 << 20
    (folder / row["drat"]).write_bytes(flood)
    doc = manifest(folder)
    next(r for r in doc["horizons"] if r["turns"] == row["turns"])["drat_sha256"] = digest
    save_manifest(folder, doc)
    budget = 64 << 20
    found = peak_check(file, "lab", budget)
    assert found["status"] == proofs.UNCHECKED
    (problem,) = found["problems"]
    assert problem == (
        f"{row['drat']}: the compiled checker needs more than its memory budget of {budget} bytes"
    )
    assert found["peak_kb"] < (budget >> 10) + 48 * 1024, found["peak_kb"]


def test_dratify_refuses_a_proof_over_the_budget_before_reading_it(tmp_path, stored):
    """The pure-Python fallback holds about 100 bytes a byte of text: a proof whose projection
    is over the budget is refused, one line, unchecked."""
    file = attached(tmp_path, stored)
    found = peak_check(file, "python", 1 << 20)
    assert found["status"] == proofs.UNCHECKED
    assert found["problems"][0].startswith(
        f"{_first_drat(tmp_path / 'proofs' / PUZZLE.id)['drat']}: dratify would need about "
    )
    assert found["problems"][0].endswith(
        "the lab's compiled checker checks it (taolong doctor says whether it is built and on)"
    )


def _drat_rows(folder: Path) -> list[dict]:
    return [row for row in manifest(folder)["horizons"] if row["goal"] is not False]


def _first_drat(folder: Path) -> dict:
    return _drat_rows(folder)[0]


def test_a_file_over_the_packed_limit_is_refused(proof, monkeypatch):
    monkeypatch.setattr(proofs, "MAX_PACKED_BYTES", 100)
    found = proofs.check(PUZZLE, proof)
    assert [p.split(":")[0] for p in found] == [row["cnf"] for row in _drat_rows(proof)]
    assert all(p.endswith("bytes, over the 100-byte limit") for p in found)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(format="other"), "format/version: expected 'taolong-sat-proof' 2"),
        (lambda d: d.update(steps="LLX"), "steps: not a string of at most"),
        (lambda d: d.update(horizons="all"), "horizons: not a list of objects"),
        (
            lambda d: d["horizons"][-1].update(cnf="../../etc/passwd"),
            "file '../../etc/passwd', expected",
        ),
        (lambda d: d["horizons"][-1].update(goal="x"), "goal: x is not a literal or false"),
        (lambda d: d["horizons"][-1].update(cnf_sha256=1), "cnf_sha256: not a SHA-256 digest"),
        (lambda d: d["horizons"][-1].update(turns=1), "turns and counts must grow"),
        (lambda d: d["horizons"][-1].update(dead_ends=10**6), "more refinements or dead ends"),
    ],
)
def test_a_bad_manifest_names_the_field(proof, change, message):
    doc = manifest(proof)
    change(doc)
    save_manifest(proof, doc)
    found = proofs.check(PUZZLE, proof)
    assert found and found[0].startswith(f"{PUZZLE.id}/manifest.json: ")
    assert any(message in p for p in found), found


def test_unreadable_files_name_themselves(proof):
    (proof / "manifest.json").write_text("{not json")
    assert proofs.check(PUZZLE, proof)[0].startswith(f"{PUZZLE.id}/manifest.json: not JSON")
    os.remove(proof / "manifest.json")
    (proof / "manifest.json").mkdir()
    assert proofs.check(PUZZLE, proof) == [
        f"{PUZZLE.id}/manifest.json: a directory, not a regular file"
    ]


def test_a_bad_drat_text_names_the_file(proof):
    row = last_drat(proof)
    rewrite(proof, row["drat"], lambda text: text + "1 2 x 0\n")
    assert proofs.check(PUZZLE, proof)[0].startswith(f"{row['drat']}: not a DRAT proof")
    rewrite(proof, row["drat"], lambda text: "\u00e9\n")
    assert proofs.check(PUZZLE, proof) == [f"{row['drat']}: not ASCII text"]


def test_a_bad_refinement_position_names_the_field(proof):
    doc = manifest(proof)
    doc["refinements"][0]["position"] = "not a position"
    doc["dead_ends"][0]["turns"] = "many"
    save_manifest(proof, doc)
    found = proofs.check(PUZZLE, proof)
    assert found[0].startswith("manifest.json: refinements[0].position: bad position")
    assert found[1] == "manifest.json: dead_ends[0].turns: many is not a whole number of turns"


# ---- every stored proof ---------------------------------------------------------------------
STORED = [
    (path, puzzle)
    for path in sorted((ROOT / "puzzles").glob("*.jsonl"))
    for puzzle in load_puzzles(path, check_solutions=False)
    if (puzzle.certificate or {}).get("proof")
]
SMALL_PROOF_LINES = 50_000  # make test checks the stored proofs up to this many DRAT lines
# make test checks every small rulebook proof and this many of the other puzzles', drawn with
# a seed that changes every day (TAOLONG_PROOF_SEED sets it); make test-full checks them all
BUNDLED_SAMPLE = 12
SEED = int(os.environ.get("TAOLONG_PROOF_SEED", datetime.date.today().toordinal()))
_BUNDLED_HERE = [
    p
    for path, p in STORED
    if path.name != "rulebook-solo.jsonl" and proofs.named_folder(p, path.parent).exists()
]
SAMPLED = {
    p.id for p in random.Random(SEED).sample(_BUNDLED_HERE, min(BUNDLED_SAMPLE, len(_BUNDLED_HERE)))
}


def _in_make_test(path: Path, puzzle) -> bool:
    if _drat_lines(path, puzzle) > SMALL_PROOF_LINES:
        return False
    return path.name == "rulebook-solo.jsonl" or puzzle.id in SAMPLED


def _drat_lines(path: Path, puzzle) -> int:
    """The proof's DRAT lines; 0 for one not present (a release artefact not unpacked)."""
    folder = proofs.named_folder(puzzle, path.parent)
    if not folder.exists():
        return 0
    return sum(row.get("drat_lines", 0) for row in manifest(folder)["horizons"])


@pytest.mark.parametrize(
    ("path", "puzzle"),
    [
        pytest.param(
            path,
            puzzle,
            id=puzzle.id,
            marks=[] if _in_make_test(path, puzzle) else [pytest.mark.slow],
        )
        for path, puzzle in STORED
    ],
)
def test_every_stored_proof_checks(path, puzzle):
    status, problems = proofs.check_stored(puzzle, path.parent)
    if status == proofs.NOT_PRESENT:
        pytest.skip(f"{puzzle.certificate['proof']}: {status}")
    assert (status, problems) == (proofs.CHECKED, [])


def test_every_bundled_puzzle_names_its_proof():
    """The bundled puzzles' optima are the explicit solver's; each also names the folder of
    SAT's checked proof of the same claim (docs/proofs.md, "Stored proofs"), named after it."""
    named = lines = 0
    for path in sorted((ROOT / "puzzles").glob("*-*.jsonl")):
        lines += sum(1 for line in path.read_text().splitlines() if line.strip())
        for puzzle in load_puzzles(path, check_solutions=False):
            folder = proofs.named_folder(puzzle, path.parent)
            assert folder is not None, f"{puzzle.id}: a puzzle without its proof: make its proof"
            assert folder.name == puzzle.id
            if folder.exists():
                assert (folder / "manifest.json").is_file(), puzzle.id
            named += 1
    assert named == lines > 0


def test_the_rulebook_names_its_proofs():
    """Every SAT-certified rulebook challenge names a proof folder; a folder that is there
    has its manifest."""
    rulebook = load_puzzles(ROOT / "puzzles" / "rulebook-solo.jsonl", check_solutions=False)
    for puzzle in rulebook:
        folder = proofs.named_folder(puzzle, ROOT / "puzzles")
        if puzzle.certificate["solver"] == "taolong_lab.solvers.sat":
            assert folder is not None, puzzle.id
        if folder is not None and folder.exists():
            assert (folder / "manifest.json").is_file(), puzzle.id


# ---- a proof folder that is not there, and the command line -------------------------------------
def attached(tmp_path: Path, stored: Path) -> Path:
    """A puzzle file in ``tmp_path`` whose certificate names ``proofs/<id>``, a copy of the
    stored proof."""
    file = tmp_path / "one.jsonl"
    file.write_text(json.dumps(PUZZLE.to_json(), ensure_ascii=False) + "\n")
    proofs.attach(file, PUZZLE.id, f"proofs/{PUZZLE.id}")
    shutil.copytree(stored, tmp_path / "proofs" / PUZZLE.id)
    return file


def test_a_folder_not_present_is_not_a_failed_check(tmp_path, stored):
    file = attached(tmp_path, stored)
    shutil.rmtree(tmp_path / "proofs")
    (puzzle,) = load_puzzles(file)
    with pytest.raises(proofs.ProofNotPresentError, match="`make proofs` makes every missing one"):
        proofs.check(puzzle, base=tmp_path)
    assert proofs.check_stored(puzzle, tmp_path) == (proofs.NOT_PRESENT, [])
    assert proofs.check_stored(PUZZLE, tmp_path) == (proofs.NO_PROOF, [])


def test_a_folder_not_present_fails_if_given_directly(tmp_path):
    (problem,) = proofs.check(PUZZLE, tmp_path / "nowhere")
    assert problem.startswith("nowhere/manifest.json: ")


def verify(capsys, *argv: str) -> tuple[int, list[str], str]:
    from taolong_lab.cli import main

    code = main(["verify", *argv])
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_verify_proof_checks_a_good_proof(capsys, tmp_path, stored):
    file = attached(tmp_path, stored)
    code, out, err = verify(capsys, str(file), "--proof")
    assert (code, err) == (0, "")
    (line,) = [line for line in out if line.startswith(f"{PUZZLE.id}: proof ")]
    assert line.startswith(f"{PUZZLE.id}: proof checked by ")
    assert line.endswith(f", {proofs.SPOT_LINES + 1} engine-legal lines forced into its CNF")
    rests = out[out.index(line) + 1 :]
    assert rests[:3] == [
        "  horizon 1: rests on the explicit search (the encoding folds the goal to false: "
        "re-proved from the start)",
        "  horizon 2: rests on DRAT (its CNF holds no dead-end nogood)",
        "  horizon 3: rests on DRAT and the explicit search (its CNF holds dead-end nogoods, "
        "each re-proved by the explicit search)",
    ]
    assert out[-1] == (
        "proofs: 1 checked, 0 missing, 0 failed, 0 not checked (over a budget), "
        "0 puzzles with none stored"
    )


def test_verify_proof_fails_on_a_tampered_proof(capsys, tmp_path, stored):
    file = attached(tmp_path, stored)
    folder = tmp_path / "proofs" / PUZZLE.id
    name = _first_drat(folder)["drat"]
    rewrite(folder, name, drop_lemmas)
    code, out, err = verify(capsys, str(file), "--proof")
    assert (code, err) == (1, "")
    failed = out.index(f"{PUZZLE.id}: proof {proofs.FAILED}")
    assert out[failed + 1].startswith(f"  {name}: the DRAT check failed: ")
    assert len(out) == failed + 3  # one line per problem, then the summary
    assert out[-1].startswith("proofs: 0 checked, 0 missing, 1 failed, ")


def test_verify_proof_says_a_folder_is_not_present(capsys, tmp_path, stored):
    file = attached(tmp_path, stored)
    shutil.rmtree(tmp_path / "proofs")
    code, out, err = verify(capsys, str(file), "--proof")
    assert (code, err) == (1, ""), "a proof that was asked for could not be checked"
    assert f"{PUZZLE.id}: proof {proofs.NOT_PRESENT}" in out
    assert out[-1].startswith("proofs: 0 checked, 1 missing, 0 failed, ")


def test_verify_proof_says_in_a_sentence_that_none_is_stored(capsys, tmp_path):
    file = tmp_path / "one.jsonl"
    file.write_text(json.dumps(PUZZLE.to_json(), ensure_ascii=False) + "\n")
    code, out, err = verify(capsys, str(file), "--proof")
    assert (code, err) == (0, "")
    assert f"{PUZZLE.id}: no proof stored: its certificate names none" in out
    assert out[-1].endswith(", 1 puzzles with none stored")


def bench_proofs():
    """bench/proofs.py (``make proofs``), loaded as a module."""
    spec = importlib.util.spec_from_file_location("bench_proofs", ROOT / "bench" / "proofs.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_make_proofs_makes_the_folders_not_present_the_same(tmp_path, stored):
    file = attached(tmp_path, stored)
    folder = tmp_path / "proofs" / PUZZLE.id
    shutil.rmtree(folder)
    partial = folder.with_name(f"{PUZZLE.id}.partial")  # what a stopped run left
    partial.mkdir()
    (partial / "h9.drat.gz").write_bytes(b"left over")
    puzzles = load_puzzles(file)
    make_missing = bench_proofs().make_missing
    assert make_missing({PUZZLE.id: file}, puzzles, None) == []
    assert not partial.exists()
    assert proofs.check_stored(puzzles[0], tmp_path) == (proofs.CHECKED, [])
    made = sorted(p.name for p in folder.iterdir())
    assert made == sorted(p.name for p in stored.iterdir())
    for name in made:
        if name.endswith(".gz"):  # byte for byte; the manifest holds seconds
            assert (folder / name).read_bytes() == (stored / name).read_bytes(), name
    (folder / "kept").write_text("a folder that is there is left alone")
    assert make_missing({PUZZLE.id: file}, puzzles, None) == []
    assert (folder / "kept").is_file()


# ---- Monk and Master: the opponent's Focus replayed too -----------------------------------------
FOCUS_PUZZLES = {
    p.id: p
    for name in ("field-intermediate.jsonl", "field-novice.jsonl")
    for p in load_puzzles(ROOT / "puzzles" / name)
    if p.id in ("field-intermediate-03", "field-novice-18")  # a Monk, a Master, each a Focus
}


@pytest.mark.parametrize("ident", sorted(FOCUS_PUZZLES))
def test_a_monk_or_master_proof_checks_with_its_focus_refinements(tmp_path, ident):
    puzzle = FOCUS_PUZZLES[ident]
    assert puzzle.rules.mode in ("monk", "master")
    folder = tmp_path / ident
    solution = solve(puzzle, count_first_turns=False, proof=folder)
    assert solution.optimum == puzzle.optimum
    assert proofs.check(puzzle, folder) == []
    doc = manifest(folder)
    i, ref = next((i, r) for i, r in enumerate(doc["refinements"]) if r["kind"] == "focus")
    assert len(ref["group"]) == 1
    ref["ends"].append(ref["position"])  # the Focus leaving the board as it was
    save_manifest(folder, doc)
    assert proofs.check(puzzle, folder) == [
        f"manifest.json: refinements[{i}]: 1 of its boards are not the opponent's choices (the "
        "policy allows fewer)"
    ]


def test_a_tautology_handed_to_the_solver_is_left_out_of_the_cnf(tmp_path):
    """gorge-novice-14's encoding hands its solver a clause ``-x x``: DIMACS readers drop it,
    so the CNF must not hold it (else its header counts one clause too many)."""
    from taolong_lab.solvers.sat.proof import ProofLog

    (puzzle,) = [
        p
        for p in load_puzzles(ROOT / "puzzles" / "gorge-novice.jsonl")
        if p.id == "gorge-novice-14"
    ]
    folder = tmp_path / puzzle.id
    solve(puzzle, count_first_turns=False, proof=folder)
    assert proofs.check(puzzle, folder) == []
    log = ProofLog(tmp_path / "log", puzzle.start, {})
    log.record("layer", "two clauses", [[3, -3, 4], [5, 6]])
    assert list(log.clauses()) == [[5, 6]] and log.kinds["layer"] == 1


def next_turn_master_proof(tmp_path) -> Path:
    """The proof folder of a Master challenge under the next-turn lookahead."""
    from taolong_lab import solo_game

    start = solo_game(
        "field",
        "master",
        player="white",
        segments={"black": 1},
        water={"black": 2},
        bagua="random",
        seed=1,
        solo_lookahead="next-turn",
    )
    folder = tmp_path / "master"
    found = solve(start, count_first_turns=False, proof=folder)
    assert found.status == "optimal"
    return folder


def test_a_master_proof_under_the_next_turn_lookahead_checks(tmp_path):
    """Its refinements name the Ba Gua and the flux coin after each sowing (``after``,
    ``after_coin``), which the opponent's second priority reads."""
    folder = next_turn_master_proof(tmp_path)
    rows = manifest(folder)["refinements"]
    assert any("after_coin" in row and len(row["after"]) == 8 for row in rows)
    assert proofs.check_folder(folder) == []


def test_a_refinement_after_a_bad_flux_coin_is_refused(tmp_path):
    """Under the next-turn lookahead a Master refinement names the Ba Gua and the flux coin
    after the sowing; a coin that is not 0 or 1 names the field. Under the Matter lookahead
    the policy reads no Ba Gua after the sowing: a refinement naming one is refused."""
    puzzle = FOCUS_PUZZLES["field-novice-18"]
    folder = tmp_path / puzzle.id
    solve(puzzle, count_first_turns=False, proof=folder)
    doc = manifest(folder)
    ref = doc["refinements"][0]
    ref["after"] = ["W"] * 8
    ref["after_coin"] = 1
    save_manifest(folder, doc)
    assert proofs.check(puzzle, folder) == [
        "manifest.json: refinements[0].after: only the next-turn lookahead reads it"
    ]
    folder = next_turn_master_proof(tmp_path)
    doc = manifest(folder)
    i, ref = next((i, r) for i, r in enumerate(doc["refinements"]) if "after_coin" in r)
    ref["after_coin"] = 7
    save_manifest(folder, doc)
    assert proofs.check_folder(folder) == [
        f"manifest.json: refinements[{i}].after_coin: 7 is not a flux coin (0 or 1)"
    ]


def test_a_focus_refinement_of_two_spaces_is_refused(tmp_path):
    puzzle = FOCUS_PUZZLES["field-novice-18"]
    folder = tmp_path / puzzle.id
    solve(puzzle, count_first_turns=False, proof=folder)
    doc = manifest(folder)
    i, ref = next((i, r) for i, r in enumerate(doc["refinements"]) if r["kind"] == "focus")
    ref["group"] = [ref["group"][0], (ref["group"][0] + 1) % 8]
    save_manifest(folder, doc)
    assert proofs.check(puzzle, folder) == [
        f"manifest.json: refinements[{i}]: group and element must be Ba Gua space indices (a "
        "focus: one space)"
    ]


# ---- budgets: the explicit search, the manifest's lists --------------------------------------
def test_a_dead_end_flood_stops_at_the_total_budget(proof, monkeypatch):
    """Finding 3 of issue 40: each dead end was re-proved within 200,000 positions, and a
    manifest could list 200,000 of them. Now they share a total budget: past it, the rest is a
    problem, not a pass, and the check stops there."""
    doc = manifest(proof)
    true = {"position": PUZZLE.start.to_tln(), "turns": PUZZLE.optimum - 1}  # costly, and true
    doc["dead_ends"] = [dict(true) for _ in range(50)] + doc["dead_ends"]
    save_manifest(proof, doc)
    spent = []
    real_no_win = proofs._no_win

    def counted(state, turns, params, memo, budget, total):
        found = real_no_win(state, turns, params, {}, budget, total)  # no memo: each costs
        spent.append(total.expanded)
        return found

    monkeypatch.setattr(proofs, "_no_win", counted)
    monkeypatch.setattr(proofs, "DEAD_END_TOTAL", 2000)
    found = proofs.check(PUZZLE, proof)
    assert found[-1].startswith(
        "manifest.json: dead_ends: the explicit search's budget for the whole proof (2,000 "
        "positions) is spent with "
    )
    assert max(spent) <= 2000 and 1 < len(spent) < 50


def test_a_manifest_lists_at_most_so_many_dead_ends(proof):
    doc = manifest(proof)
    doc["dead_ends"] = [doc["dead_ends"][0]] * (proofs.MAX_MEANINGS + 1)
    save_manifest(proof, doc)
    assert proofs.check(PUZZLE, proof) == [
        f"{PUZZLE.id}/manifest.json: dead_ends: {proofs.MAX_MEANINGS + 1} entries, too many"
    ]


def test_a_manifest_with_a_huge_number_is_one_problem(tmp_path, stored, capsys):
    """Finding 9 of issue 40: a 5,000-digit number in a manifest raised a ValueError."""
    file = attached(tmp_path, stored)
    folder = tmp_path / "proofs" / PUZZLE.id
    text = (folder / "manifest.json").read_text()
    (folder / "manifest.json").write_text(text.replace('"turns": 1', '"turns": 1' + "0" * 5000, 1))
    done = subprocess.run(
        [sys.executable, "-m", "taolong_lab.cli", "verify", str(file), "--proof"],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 1 and done.stderr == "" and "Traceback" not in done.stdout
    out = done.stdout.splitlines()
    assert out[1] == f"{PUZZLE.id}: proof FAILED"
    assert out[2].startswith(f"  {PUZZLE.id}/manifest.json: not JSON (Exceeds the limit")


# ---- what a horizon rests on -----------------------------------------------------------------
START_NOGOOD = ("valley-intermediate-04", ROOT / "puzzles" / "valley-intermediate.jsonl")


def test_no_proof_hands_sat_a_nogood_for_the_claim_it_proves(tmp_path, monkeypatch):
    """Issue 40: in six stored folders a dead-end nogood at the start refuted the top horizon
    by itself, so the DRAT proof added nothing to the explicit search. The writer no longer
    searches from the start; written the old way, the report says the claim rests on the
    explicit search alone."""
    ident, path = START_NOGOOD
    (puzzle,) = [p for p in load_puzzles(path) if p.id == ident]
    folder = tmp_path / "now"
    solve(puzzle, count_first_turns=False, proof=folder)
    now = proofs.report(puzzle, folder)
    assert now.status == proofs.CHECKED
    assert all(basis != proofs.SEARCH for _, basis, _ in now.horizons[1:])
    start = puzzle.start.to_tln()
    assert all(row["position"] != start for row in manifest(folder)["dead_ends"])
    monkeypatch.setattr(sat_solver.SatSearch, "PROOF_SHORT_FROM", 1)  # as the proofs were made
    folder = tmp_path / "before"
    solve(puzzle, count_first_turns=False, proof=folder)
    before = proofs.report(puzzle, folder)
    assert before.status == proofs.CHECKED
    assert before.horizons[-1] == (
        2,
        proofs.SEARCH,
        "a dead-end nogood at the start for this horizon: the DRAT adds nothing",
    )


# ---- the completeness spot-check -------------------------------------------------------------
def test_an_encoding_that_misses_a_legal_turn_is_caught(tmp_path, monkeypatch):
    """A proof is only as good as its encoding: one that leaves out a legal first sowing proves
    a false "no win". Written and checked with such an encoding, the DRAT proofs check, the
    CNFs rebuild the same, and the spot-check finds the line it cannot hold."""
    from taolong_lab.solvers.sat.encode import Encoder
    from taolong_lab.solvers.sat.rebuild import playouts

    first = playouts(PUZZLE.start, 1, 1, f"spot-check:{PUZZLE.start.to_tln()}")[0][1]
    pairs = enumerate(zip(PUZZLE.start.bagua, first.bagua, strict=True))
    space = next(i for i, (before, after) in pairs if before and not after)
    real = Encoder._sowing

    def without(self, prev, layer):
        real(self, prev, layer)
        if len(self.layers) == 1 and layer.space.get(space) not in (None, False):
            self.g.clause([-layer.space[space]])  # the first turn may not sow that space

    monkeypatch.setattr(Encoder, "_sowing", without)
    folder = tmp_path / "broken"
    solve(PUZZLE, count_first_turns=False, proof=folder)
    found = proofs.check_folder(folder)
    assert found and all("has no model in the rebuilt CNF" in p for p in found)
    assert found[0].startswith("line 1 (")


# ---- the compiled checker and dratify agree ----------------------------------------------------
def tampered(text: str, rng: random.Random) -> dict:
    """A proof text and edits of it: lemmas dropped, a literal negated, a lemma dropped or
    cut, the proof cut short, comments, line breaks, deletions alone, a bad token."""
    lines = text.splitlines()
    adds = [i for i, line in enumerate(lines) if line and not line.startswith("d") and line != "0"]
    out = {"as is": text, "no lemmas": drop_lemmas(text), "one line": text.replace("\n", " ")}
    out["comments, CRLF"] = "c a comment 1 2\r\n" + text.replace("\n", "\r\n")
    out["deletions alone"] = "\n".join(line for line in lines if line.startswith("d ")) + "\n"
    out["bad token"] = text + "1 x 0\n"
    if adds:
        i = rng.choice(adds)
        tokens = lines[i].split()
        j = rng.randrange(len(tokens) - 1)
        tokens[j] = str(-int(tokens[j]))
        out["a literal negated"] = "\n".join([*lines[:i], " ".join(tokens), *lines[i + 1 :]])
        out["a lemma dropped"] = "\n".join([*lines[:i], *lines[i + 1 :]]) + "\n"
        out["a lemma cut"] = "\n".join([*lines[:i], lines[i].split(" ", 1)[-1], *lines[i + 1 :]])
        out["cut short"] = "\n".join(lines[:i]) + "\n"
    return out


def verdict(rebuild, horizon, text: str, engine: str) -> str:
    try:
        found = drat.check_drat(
            rebuild.log.arena[: horizon.end],
            horizon.variables,
            horizon.goal,
            lambda: iter([text.encode()]),
            engine=engine,
        )
    except TaoLongError as exc:
        return f"refused: {str(exc).split(' (')[0]}"
    return f"{'accepted' if found.ok else 'rejected'}: {found.reason}"


def cross_checked(folder: Path, seed: int) -> int:
    """Check every DRAT proof of ``folder``, and edits of it, with the compiled checker and
    with dratify (its fastest engine): their verdicts must be the same. Returns the texts."""
    from taolong_lab.engine import State
    from taolong_lab.solvers.sat.rebuild import Rebuild, dead_end_of, refinement_of

    doc = manifest(folder)
    start = State(doc["start"])
    refs = [refinement_of(r, start, "r") for r in doc["refinements"]]
    dead = [dead_end_of(r, start, "d", 99) for r in doc["dead_ends"]]
    rebuild = Rebuild(start, doc["settings"], doc["steps"], refs, dead)
    count = 0
    for horizon in rebuild.run(99):
        if horizon.goal is False:
            continue
        text = gzip.decompress((folder / f"h{horizon.turns}.drat.gz").read_bytes()).decode()
        for name, edited in tampered(text, random.Random(seed + horizon.turns)).items():
            mine, theirs = (verdict(rebuild, horizon, edited, e) for e in ("lab", "dratify"))
            assert mine == theirs, (folder.name, horizon.turns, name)
            if name == "as is":
                assert mine.startswith("accepted")
            count += 1
    return count


CROSS = sorted(
    (p.id, folder) for path, p in STORED if (folder := proofs.named_folder(p, path.parent)).exists()
)
CROSS_SAMPLE = {name for name, _ in random.Random(SEED).sample(CROSS, min(6, len(CROSS)))}


@pytest.mark.skipif(drat.compiled() is None, reason="taolong_lab._drat not built")
@pytest.mark.parametrize(
    ("name", "folder"),
    [
        pytest.param(
            name, folder, id=name, marks=[] if name in CROSS_SAMPLE else [pytest.mark.slow]
        )
        for name, folder in CROSS
    ],
)
def test_the_compiled_checker_agrees_with_dratify(name, folder):
    """Accept and reject alike, on every stored proof (a seeded sample in make test) and on
    the edits of it (:func:`tampered`)."""
    assert cross_checked(folder, SEED) > 0 or not _drat_rows(folder)


@pytest.mark.skipif(drat.compiled() is None, reason="taolong_lab._drat not built")
def test_the_compiled_checker_agrees_with_dratify_on_the_bench_proof(stored):
    assert cross_checked(stored, 1) >= 2 * 10


def test_doctor_names_the_drat_checker(capsys, monkeypatch):
    from taolong_lab.cli import main

    def checker_line() -> str:
        assert main(["doctor"]) == 0
        out = capsys.readouterr().out.splitlines()
        (line,) = [line for line in out if line.startswith("DRAT proof checker: ")]
        return line

    built = drat.compiled() is not None
    assert checker_line().startswith(
        "DRAT proof checker: compiled (taolong_lab._drat)"
        if built
        else "DRAT proof checker: dratify"
    )
    monkeypatch.setenv("TAOLONG_PURE", "1")
    assert checker_line().endswith("the compiled checker is turned off by TAOLONG_PURE=1")
    assert drat.resolve("auto") in ("native", "python")
    with pytest.raises(TaoLongError, match="engine: 'lab' needs the compiled checker"):
        drat.resolve("lab")


@pytest.mark.skipif(drat.compiled() is None, reason="taolong_lab._drat not built")
def test_the_compiled_checker_refuses_what_its_budget_cannot_hold(stored):
    """Its own structures are bounded before they are made: a CNF whose variables alone pass
    the budget is refused, and so is a proof, as it grows (the bomb test above)."""
    from array import array

    with pytest.raises(drat.ProofBudgetError, match="its variables alone need more than"):
        drat.check_drat(array("i", [1, 0]), 10**8, 1, lambda: iter([b"0\n"]), memory=2**20)
    found = drat.check_drat(array("i", [1, 0]), 1, -1, lambda: iter([b"0\n"]), engine="lab")
    assert found.ok and found.reason == "input formula is refuted by unit propagation alone"

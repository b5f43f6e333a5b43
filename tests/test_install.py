"""The package installs whole: the bundled puzzle files ship as package data, a bundled puzzle
is named without a path (``SET:ID``, ``SET``, or its id alone where unique), and a wheel
installed into a fresh venv lists and solves them from another folder."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from tool_scripts import load

from taolong_lab.cli import main
from taolong_lab.puzzles import bundle, load_puzzles

ROOT = Path(__file__).resolve().parents[1]


def test_a_checkout_reads_the_repositorys_puzzles():
    assert bundle.folder() == ROOT / "puzzles"
    assert bundle.rulebook_file() == ROOT / "puzzles" / "rulebook-solo.jsonl"
    assert bundle.atlas_folder() == ROOT / "puzzles" / "atlas"


def test_the_sets_are_named_rulebook_first_then_generated_then_atlas():
    names = list(bundle.sets())
    assert names[0] == "rulebook"
    atlas = [n for n in names if n.startswith("atlas-")]
    assert atlas and names[-len(atlas) :] == atlas  # the atlas last
    assert "field-novice" in names and "atlas-field" in names
    assert bundle.sets()["atlas-field"] == ROOT / "puzzles" / "atlas" / "field.jsonl"
    assert not any(name.endswith("pending") for name in names)
    assert bundle.ids("rulebook")[:2] == ("cave-white", "cave-black")
    with pytest.raises(bundle.BundleError, match="no bundled set 'nope'"):
        bundle.ids("nope")


@pytest.mark.parametrize(
    ("spec", "ident"),
    [
        ("rulebook:torus-white", "torus-white"),  # SET:ID
        ("torus-white", "torus-white"),  # the id alone, unique
        ("rulebook", None),  # the whole set
    ],
)
def test_a_bundled_puzzle_is_named_without_a_path(spec, ident):
    assert bundle.locate(spec) == (ROOT / "puzzles" / "rulebook-solo.jsonl", ident)


@pytest.mark.parametrize(
    "spec", ["nope", "rulebook-solo.jsonl:x", "Wa>He a3,a4", "field-novice:bad id", ""]
)
def test_what_names_no_bundled_puzzle(spec):
    assert bundle.locate(spec) is None


def test_an_id_two_sets_hold_is_not_taken_alone(tmp_path, monkeypatch):
    source = (ROOT / "puzzles" / "rulebook-solo.jsonl").read_text().splitlines()[0]
    for name in ("a-novice.jsonl", "b-novice.jsonl"):
        (tmp_path / name).write_text(source + "\n")
    monkeypatch.setattr(bundle, "folder", lambda: tmp_path)
    assert list(bundle.sets()) == ["a-novice", "b-novice"]
    assert bundle.locate("cave-white") is None  # in both sets: name the set
    assert bundle.locate("b-novice:cave-white") == (tmp_path / "b-novice.jsonl", "cave-white")


def test_puzzles_with_no_file_lists_every_bundled_set(capsys):
    assert main(["puzzles", "--json", "--scenario", "torus"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    sets = {row["set"] for row in rows}
    assert {"rulebook", "torus-novice", "atlas-torus"} <= sets
    assert {row["id"] for row in rows if row["set"] == "rulebook"} == {
        "torus-white",
        "torus-black",
    }
    assert all(row["scenario"] == "torus" for row in rows)
    expected = sum(
        p.rules.scenario == "torus"
        for name, path in bundle.sets().items()
        for p in load_puzzles(path, check_solutions=False)
    )
    assert len(rows) == expected


def test_a_bundled_puzzle_is_shown_and_solved_by_its_name(capsys):
    assert main(["show", "torus-black"]) == 0
    assert "puzzle torus-black: The Torus" in capsys.readouterr().out
    assert main(["solve", "rulebook:torus-white", "--no-progress", "--json"]) == 0
    found = json.loads(capsys.readouterr().out)
    assert (found["id"], found["status"], found["optimum"]) == ("torus-white", "optimal", 5)


def test_a_bundled_set_with_a_wrong_id_lists_its_ids(capsys):
    assert main(["show", "rulebook:torus-grey"]) == 2
    err = capsys.readouterr().err
    assert "no puzzle 'torus-grey'" in err and "torus-white" in err


# ---- the wheel, installed ----------------------------------------------------------------------
WHEEL_TOOL = load("wheel")  # tools/wheel.py


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    """A fresh venv with the pure wheel installed (its dependencies from the package index)."""
    where = tmp_path_factory.mktemp("install")
    wheel = WHEEL_TOOL.build_wheel(where / "wheels", pure=True)
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-q", str(wheel)],
        capture_output=True,
        text=True,
    )
    if done.returncode != 0:
        pytest.fail(f"pip install of the wheel failed:\n{done.stderr[-2000:]}")
    return wheel, venv


def _taolong(venv: Path, cwd: Path, *args: str) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "TAOLONG_LAB_KEY")}
    done = subprocess.run(
        [str(venv / "bin" / "taolong"), *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_wheel_ships_the_puzzles_not_the_proofs(installed):
    wheel, _ = installed
    names = zipfile.ZipFile(wheel).namelist()
    assert "taolong_lab/_puzzles/rulebook-solo.jsonl" in names
    assert "taolong_lab/_puzzles/field-novice.jsonl" in names
    assert "taolong_lab/_puzzles/atlas/field.jsonl" in names
    assert not [n for n in names if "proofs/" in n or n.endswith(("pending.json", ".md"))]
    shipped = {n.rsplit("/", 1)[1] for n in names if n.startswith("taolong_lab/_puzzles/")}
    assert shipped == {p.name for p in bundle.sets().values()}


def test_the_installed_lab_lists_and_solves_its_bundled_puzzles(installed, tmp_path):
    _, venv = installed
    rows = _taolong(venv, tmp_path, "puzzles", "--json").splitlines()
    sets = {json.loads(row)["set"] for row in rows}
    assert sets == set(bundle.sets())  # every set, read from the installed package
    solved = _taolong(venv, tmp_path, "solve", "rulebook:torus-white", "--no-progress")
    assert solved.startswith("torus-white: optimal: win in 5")
    alone = _taolong(venv, tmp_path, "solve", "field-novice-01", "--no-progress", "--json")
    assert json.loads(alone)["status"] == "optimal"
    report = _taolong(venv, tmp_path, "doctor")
    assert f"bundled puzzles: {len(sets)} sets in {venv}" in report

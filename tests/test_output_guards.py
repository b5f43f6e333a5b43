"""Every output file guarded, every resumed file checked (issue 40, findings 6 to 11).

- One writer per output: a second ``generate``, ``atlas``, ``tournament`` or ``balance`` on the
  same file or folder gets one line naming the first run's process id (exit 2), and two real
  ``generate`` runs at once leave no duplicate puzzle.
- The temporary files a killed :func:`~taolong_lab.files.write_atomic` left are removed by the
  next run.
- Resume checks what it keeps: an atlas entry whose optimum was edited, a pending list naming
  another scenario's challenges or nested 200,000 deep, a balance card's game ``{}`` or from
  another card, a match record ``game-abc`` or from another match: each refused in one line.
- ``play --record F`` appends like the puzzles: a newline first when the last line has none,
  and a puzzle file refused before the game starts.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from tiny_games import PIG

import taolong_lab
from taolong_lab.agents import GreedyAgent, RandomAgent
from taolong_lab.agents.balance import balance_card
from taolong_lab.agents.matches import match
from taolong_lab.agents.records import RecordError
from taolong_lab.cli import main
from taolong_lab.errors import TaoLongError
from taolong_lab.files import OutputLockedError, lock_file, output_lock
from taolong_lab.puzzles import atlas
from taolong_lab.puzzles.atlas import AtlasError, challenges

ROOT = Path(taolong_lab.__file__).resolve().parents[1]
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}
HOLD = """
import sys, time
from taolong_lab.files import output_lock
with output_lock(sys.argv[1], folder=sys.argv[2] == "folder"):
    print("locked", flush=True)
    time.sleep(60)
"""


@pytest.fixture
def holder():
    """Start a process that holds the lock of an output (its pid is what the error names),
    and end it (by its pid) after the test."""
    started = []

    def hold(path: Path, folder: bool = False) -> int:
        child = subprocess.Popen(
            [sys.executable, "-c", HOLD, str(path), "folder" if folder else "file"],
            stdout=subprocess.PIPE,
            text=True,
            env=ENV,
        )
        started.append(child)
        assert child.stdout.readline().strip() == "locked"
        return child.pid

    yield hold
    for child in started:
        os.kill(child.pid, signal.SIGTERM)
        child.wait(timeout=30)


def cli(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def refused_by(err: str, path: Path, pid: int) -> bool:
    """``err`` is the one line that names ``path`` and the pid of the run writing it."""
    want = f"taolong: error: {path}: another run (pid {pid}) is writing it; wait for it to end"
    return err.count("\n") == 1 and err.startswith(want)


# ---- one writer per output ---------------------------------------------------------------
def test_a_second_generate_on_the_same_file_is_refused(tmp_path, capsys, holder):
    out = tmp_path / "set.jsonl"
    pid = holder(out)
    argv = ["generate", "--count", "1", "--turns", "1..1", "--out", str(out), "--no-progress"]
    code, printed, err = cli(capsys, *argv)
    assert (code, printed) == (2, "") and refused_by(err, out, pid)
    assert not out.exists()


def test_a_second_atlas_on_the_same_folder_is_refused(tmp_path, capsys, holder):
    pid = holder(tmp_path, folder=True)
    code, _, err = cli(capsys, "atlas", str(tmp_path), "--scenario", "torus", "--no-progress")
    assert code == 2 and refused_by(err, tmp_path, pid)
    assert sorted(p.name for p in tmp_path.iterdir()) == [".lock"]


def test_a_second_tournament_on_the_same_file_is_refused(tmp_path, capsys, holder):
    out = tmp_path / "t.json"
    pid = holder(out)
    argv = ["tournament", "random", "greedy", "--games", "2", "--out", str(out), "--no-progress"]
    code, _, err = cli(capsys, *argv)
    assert code == 2 and refused_by(err, out, pid)
    assert not out.exists()


def test_a_second_balance_on_the_same_card_is_refused(tmp_path, capsys, holder):
    out = tmp_path / "card.json"
    pid = holder(out)
    argv = ["balance", "--levels", "random", "--games", "1", "--out", str(out), "--no-progress"]
    code, _, err = cli(capsys, *argv, "--scenario", "field", "--mode", "grasshopper")
    assert code == 2 and refused_by(err, out, pid)
    assert not out.exists()


def test_the_lock_goes_with_its_process(tmp_path):
    """A run killed with ``kill -9`` leaves its lock file, not its lock: the next run works."""
    out = tmp_path / "set.jsonl"
    child = subprocess.Popen(
        [sys.executable, "-c", HOLD, str(out), "file"], stdout=subprocess.PIPE, text=True, env=ENV
    )
    assert child.stdout.readline().strip() == "locked"
    with pytest.raises(OutputLockedError, match=f"pid {child.pid}"), output_lock(out):
        pass
    os.kill(child.pid, signal.SIGKILL)
    child.wait(timeout=30)
    assert lock_file(out).exists()
    with output_lock(out):
        assert lock_file(out).read_text() == f"{os.getpid()}\n"


def test_two_generate_runs_at_once_write_no_duplicate(tmp_path):
    """Finding 6 of issue 40: two ``generate --out F`` at once wrote 30 lines holding 15
    puzzles. Now the second one is refused while the first writes (or resumes after it)."""
    out = tmp_path / "set.jsonl"
    argv = [sys.executable, "-m", "taolong_lab.cli", "generate", "--count", "4", "--turns", "1..2"]
    argv += ["--out", str(out), "--no-progress"]
    runs = [subprocess.Popen(argv, stderr=subprocess.PIPE, text=True, env=ENV) for _ in range(2)]
    results = [(run.wait(timeout=600), run.stderr.read(), run.pid) for run in runs]
    for code, err, _ in results:
        assert code == 0 or (code == 2 and "another run (pid " in err and err.count("\n") == 1)
    assert any(code == 0 for code, _, _ in results)
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines() if line.strip()]
    assert len(ids) == len(set(ids)) == 4


# ---- stale temporary files ---------------------------------------------------------------
def test_stale_temporaries_are_removed_by_the_next_run(tmp_path, monkeypatch):
    """Finding 11 of issue 40: the ``.<name>.<hex>.tmp`` a ``kill -9`` left in write_atomic
    were never removed. The next run on that output removes them, and nothing else."""
    stale = [
        tmp_path / ".torus.jsonl.0123456789ab.tmp",
        tmp_path / ".torus.pending.json.ba9876543210.tmp",
    ]
    kept = [tmp_path / ".torus.jsonl.tmp", tmp_path / "notes.0123456789ab.tmp"]
    for path in stale + kept:
        path.write_text("left over")
    few = list(challenges("torus"))[:1]
    monkeypatch.setattr(atlas, "challenges", lambda scenario: iter(few))
    atlas.run(tmp_path, ["torus"])
    assert [p.exists() for p in stale] == [False, False]
    assert all(p.exists() for p in kept)
    out = tmp_path / "cards" / "card.json"
    out.parent.mkdir()
    leftover = out.parent / ".card.json.00000000abcd.tmp"
    leftover.write_text("{")
    balance_card({"random": RandomAgent()}, game=PIG, games=1, out=out, max_turns=20)
    assert not leftover.exists() and json.loads(out.read_text())["cells"]


# ---- the atlas: what a run keeps ---------------------------------------------------------------
@pytest.fixture
def small_atlas(tmp_path, monkeypatch) -> list:
    """An atlas folder of two torus challenges, proved."""
    few = list(challenges("torus"))[:2]
    monkeypatch.setattr(atlas, "challenges", lambda scenario: iter(few))
    atlas.run(tmp_path, ["torus"])
    return few


def test_an_edited_atlas_entry_is_refused(tmp_path, capsys, small_atlas):
    """Finding 8 of issue 40: an entry edited to optimum 1, its line kept, showed in ``atlas
    --summary`` and was skipped on the rerun."""
    path = tmp_path / "torus.jsonl"
    lines = path.read_text().splitlines()
    doc = json.loads(lines[0])
    assert doc["optimum"] > 1
    doc["optimum"] = 1
    path.write_text("\n".join([json.dumps(doc), *lines[1:]]) + "\n")
    ident = small_atlas[0][0]
    with pytest.raises(AtlasError, match=f"{ident}: the solution wins in"):
        atlas.run(tmp_path, ["torus"])
    code, out, err = cli(capsys, "atlas", str(tmp_path), "--summary")
    assert (code, out) == (2, "") and err.count("\n") == 1 and f"{ident}: " in err


def test_an_atlas_entry_of_another_start_is_refused(tmp_path, small_atlas):
    path = tmp_path / "torus.jsonl"
    lines = path.read_text().splitlines()
    first, second = json.loads(lines[0]), json.loads(lines[1])
    first["id"], second["id"] = second["id"], first["id"]
    path.write_text(json.dumps(first) + "\n" + json.dumps(second) + "\n")
    with pytest.raises(AtlasError, match="start: not this challenge's start"):
        atlas.run(tmp_path, ["torus"])


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 200_000, "not the atlas's pending list"),
        (json.dumps({"field-white-BB.BB.WW.WW": {"error": "x"}}), "not a challenge of the torus"),
        (json.dumps({"torus-white-BB.BB.WW.WW": {"status": "unknown"}}), "not an entry of the"),
        ('{"a": 1' + "0" * 5000 + "}", "not the atlas's pending list"),
    ],
    ids=["deep", "foreign key", "bad entry", "huge number"],
)
def test_a_bad_pending_list_is_refused_in_one_line(tmp_path, capsys, small_atlas, text, words):
    (tmp_path / "torus.pending.json").write_text(text)
    code, _, err = cli(capsys, "atlas", str(tmp_path), "--scenario", "torus", "--no-progress")
    assert code == 2 and err.count("\n") == 1 and words in err and "Traceback" not in err


# ---- balance cards and matches: records of this run only ------------------------------------
CARD = {"game": PIG, "variants": [{"target": 8}], "games": 2, "seed": 3, "max_turns": 30}


@pytest.fixture
def card(tmp_path) -> Path:
    out = tmp_path / "card.json"
    balance_card({"random": RandomAgent()}, out=out, **CARD)
    return out


def resumed_card(out: Path) -> str:
    with pytest.raises(TaoLongError) as caught:
        balance_card({"random": RandomAgent()}, out=out, **CARD)
    assert "\n" not in str(caught.value)
    return str(caught.value)


def test_a_card_game_that_is_not_one_is_refused(card, capsys):
    """Finding 9 of issue 40: a balance-card game ``{}`` raised a KeyError."""
    doc = json.loads(card.read_text())
    doc["cells"][0]["games"][1] = {}
    card.write_text(json.dumps(doc))
    assert resumed_card(card).startswith(f"{card}: cells[0].games[1]: not a game's figures")


def test_a_card_game_of_another_card_is_refused(card, tmp_path):
    """Finding 8 of issue 40: games of another card with the same start were kept."""
    other = tmp_path / "other.json"
    balance_card({"random": RandomAgent()}, out=other, **{**CARD, "seed": 4})
    doc = json.loads(card.read_text())
    doc["cells"][0]["games"][0] = json.loads(other.read_text())["cells"][0]["games"][0]
    card.write_text(json.dumps(doc))
    assert resumed_card(card) == (
        f"{card}: cells[0].games[0]: not a game of this card's seed, turn cap and opening; use "
        "another file"
    )
    doc["cells"][0]["games"][0]["card_seed"] = CARD["seed"]  # its settings edited to pass
    card.write_text(json.dumps(doc))
    assert resumed_card(card) == (
        f"{card}: cells[0].games[0].seed: not this card's seed for this game; use another file"
    )


def test_a_card_summary_is_never_read_back(card):
    doc = json.loads(card.read_text())
    want = doc["cells"][0]["summary"]
    doc["cells"][0]["summary"] = {"games": 1000}
    card.write_text(json.dumps(doc))
    again = balance_card({"random": RandomAgent()}, out=card, **CARD)
    assert again["cells"][0]["summary"] == want


MATCH = {"games": 4, "seed": 5, "start": PIG.new(target=8), "max_turns": 30, "opening": 2}


@pytest.fixture
def games(tmp_path) -> Path:
    out = tmp_path / "match.jsonl"
    match(GreedyAgent(), RandomAgent(), out=out, **MATCH)
    return out


def resumed_match(out: Path, **changes) -> str:
    with pytest.raises(RecordError) as caught:
        match(GreedyAgent(), RandomAgent(), out=out, **{**MATCH, **changes})
    assert "\n" not in str(caught.value)
    return str(caught.value)


def test_a_record_id_that_is_not_a_game_number_is_refused(games):
    """Finding 9 of issue 40: a record id ``game-abc`` raised a ValueError."""
    lines = games.read_text().splitlines()
    doc = json.loads(lines[1])
    doc["id"] = "game-abc"
    games.write_text("\n".join([lines[0], json.dumps(doc), *lines[2:]]) + "\n")
    assert resumed_match(games) == (
        f"{games}: id: 'game-abc' is not a game of this match (game-0 to game-3): a record of "
        "another match; use another file"
    )


@pytest.mark.parametrize(
    ("changes", "forged", "field"),
    [
        ({"seed": 6}, False, r"game-0: settings: not this match's seed, turn cap and opening"),
        ({"opening": 4}, False, r"game-0: settings: not this match's seed, turn cap and opening"),
        ({"max_turns": 3}, False, r"game-0: settings: not this match's seed, turn cap and opening"),
        ({"seed": 6}, True, r"game-0: seed: not this match's seed for this game"),
        ({"opening": 4}, True, r"game-\d: turns\[\d\]: not this match's random opening"),
        ({"max_turns": 3}, True, r"game-\d: turns: not a game of this match's turn cap \(3\)"),
    ],
    ids=["seed", "opening", "turn cap", "forged seed", "forged opening", "forged turn cap"],
)
def test_records_of_another_match_are_refused(games, changes, forged, field):
    """Finding 8 of issue 40: records of another match with the same start were kept. A record
    carries its match's settings (seed, turn cap, opening) and its own seed and players; one
    whose settings were edited to pass is caught by its seed, its turns or its opening,
    replayed."""
    if forged:
        docs = [json.loads(line) for line in games.read_text().splitlines()]
        for doc in docs:
            doc["settings"].update(changes)
        games.write_text("".join(json.dumps(doc) + "\n" for doc in docs))
    found = resumed_match(games, **changes)
    assert re.fullmatch(
        f"{re.escape(str(games))}: {field}: a record of another match; use another file", found
    ), found


def test_records_of_other_agents_are_refused(games):
    with pytest.raises(RecordError, match="players: not this match's agents in these seats"):
        match(RandomAgent(), GreedyAgent(), out=games, **MATCH)


def test_a_match_resumes_its_own_records_without_playing(games, monkeypatch):
    import taolong_lab.agents.matches as matches

    before = games.read_bytes()
    monkeypatch.setattr(matches, "_play_job", lambda job: pytest.fail("a game was played again"))
    result = match(GreedyAgent(), RandomAgent(), out=games, **MATCH)
    assert result.games == 4 and games.read_bytes() == before


# ---- play --record ---------------------------------------------------------------------------
def play(capsys, monkeypatch, argv, entries: str) -> tuple[int, str, str]:
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO(entries))
    return cli(capsys, *argv)


def test_a_record_is_appended_after_a_torn_line(tmp_path, capsys, monkeypatch):
    """Finding 10 of issue 40: the record was glued onto a last line without its newline."""
    path = tmp_path / "games.jsonl"
    argv = ["play", "--vs", "human", "--record", str(path)]
    play(capsys, monkeypatch, argv, "1\n2\nq\n")
    whole = path.read_text()
    path.write_text(whole + whole[: len(whole) // 2])  # a torn last line, no newline
    code, out, _ = play(capsys, monkeypatch, argv, "1\nq\n")
    assert code == 0 and "appended" in out
    lines = path.read_text().split("\n")
    assert lines[0] == whole.rstrip("\n") and lines[1] == whole[: len(whole) // 2]
    assert json.loads(lines[2])["format"] == "taolong-game" and lines[3] == ""


def test_a_puzzle_file_is_not_a_record_file(tmp_path, capsys, monkeypatch):
    path = tmp_path / "puzzles.jsonl"
    path.write_text((ROOT / "puzzles" / "field-novice.jsonl").read_text().splitlines()[0] + "\n")
    before = path.read_bytes()
    code, out, err = play(capsys, monkeypatch, ["play", "--vs", "human", "--record", str(path)], "")
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert f"--record {path}:1: format: not a game record (taolong-game): not a record file" in err
    assert path.read_bytes() == before


def test_the_command_line_refuses_a_bad_card_or_record_in_one_line(tmp_path, capsys):
    """Finding 9 of issue 40 from the command line: a card game ``{}`` and a record id
    ``game-abc`` are one error line each, exit 2, no traceback."""
    card = tmp_path / "card.json"
    argv = ["balance", "--game", "tao", "--levels", "random", "--games", "1", "--max-turns", "6"]
    argv.append("--no-progress")
    assert cli(capsys, *argv, "--out", str(card))[0] == 0
    doc = json.loads(card.read_text())
    doc["cells"][0]["games"][0] = {}
    card.write_text(json.dumps(doc))
    code, out, err = cli(capsys, *argv, "--out", str(card))
    assert (code, out) == (2, "") and err.count("\n") == 1
    assert err.startswith(f"taolong: error: {card}: cells[0].games[0]: not a game's figures")
    results = tmp_path / "t.json"
    argv = ["tournament", "random", "greedy", "--game", "tao", "--games", "2", "--max-turns", "6"]
    argv.append("--no-progress")
    assert cli(capsys, *argv, "--out", str(results))[0] == 0
    (games,) = (tmp_path / "t.games").glob("*.jsonl")
    lines = games.read_text().splitlines()
    doc = json.loads(lines[0])
    doc["id"] = "game-abc"
    games.write_text("\n".join([json.dumps(doc), *lines[1:]]) + "\n")
    code, out, err = cli(capsys, *argv, "--out", str(results))
    assert (code, out) == (2, "") and err.count("\n") == 1 and "Traceback" not in err
    assert f"{games}: id: 'game-abc' is not a game of this match" in err

"""What a solver checkpoint file cannot do: run code, change an answer, or exhaust memory.

A checkpoint is a JSON header line and a gzip JSON body, signed with the user's key over the
compressed bytes (:mod:`taolong_lab.solvers.common`): the signature is checked before anything
is unpacked, and the body unpacks to no more than its header declares. The explicit solver
checks the search it holds and replays any answer from it before returning it
(:mod:`taolong_lab.solvers.explicit`). Files are forged here with :mod:`checkpoint_files`,
signed with the test's key (so the consistency checks must catch them) or not (the signature
must)."""

from __future__ import annotations

import gzip
import json
import os
import pickle
import stat
import subprocess
import sys
import warnings
import zlib
from pathlib import Path

import pytest
from checkpoint_files import own_key, read, write  # noqa: F401 (own_key: an autouse fixture)

import taolong_lab
from taolong_lab import State, solo_game
from taolong_lab.cli import main
from taolong_lab.errors import IllegalTurnError
from taolong_lab.puzzles import Puzzle, save_puzzles
from taolong_lab.solvers import common
from taolong_lab.solvers.bounds import BOUND_NAME, bound_params
from taolong_lab.solvers.common import Checkpoint, CheckpointError, SolverError
from taolong_lab.solvers.explicit import SOLVER, _Search, solve, win_line_within, win_within

START = solo_game(segments={"black": 1}, water={"black": 2})  # an optimum of 4
OTHER = solo_game(segments={"black": 1}, water={"black": 1})


class MakesMarker:
    """Unpickling this creates the file it names."""

    def __init__(self, marker: Path):
        self.marker = marker

    def __reduce__(self):
        return open, (str(self.marker), "w")


def finished(tmp_path) -> Path:
    path = tmp_path / "done.ckpt"
    assert solve(START, checkpoint=path).optimum == 4
    return path


def unfinished(tmp_path) -> Path:
    path = tmp_path / "half.ckpt"
    assert solve(START, checkpoint=path, max_states=12).status == "unknown"
    return path


def refused(path, field: str, *, start=START) -> str:
    """The message of the error solving from ``path`` raises; it names the file and ``field``."""
    before = path.read_bytes() if path.is_file() else None
    with pytest.raises(CheckpointError) as caught:
        solve(start, checkpoint=path)
    message = str(caught.value)
    assert message.startswith(f"checkpoint {path}: {field}: ")
    assert message.endswith("; pass fresh=True to start again")
    assert before is None or path.read_bytes() == before, "a refused file is left as it is"
    return message


def cli(capsys, *argv) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def puzzle_file(tmp_path) -> Path:
    path = tmp_path / "set.jsonl"
    save_puzzles(path, [Puzzle.from_state("weak", "weak black", START)])
    return path


# ---- no code runs ----------------------------------------------------------------------------
def test_a_pickle_checkpoint_runs_no_code(tmp_path, capsys, puzzle_file):
    marker = tmp_path / "marker"
    payload = pickle.dumps(MakesMarker(marker))
    pickle.loads(payload)  # the payload works: unpickling it makes the marker
    assert marker.exists()
    marker.unlink()
    path = tmp_path / "evil.ckpt"
    path.write_bytes(payload)
    assert "not a taolong checkpoint" in refused(path, "format")
    assert not marker.exists()

    ckpt = tmp_path / "dir"
    ckpt.mkdir()
    (ckpt / "weak.ckpt").write_bytes(payload)
    code, out, err = cli(capsys, "solve", str(puzzle_file), "--checkpoint", str(ckpt))
    assert (code, out) == (2, "") and len(err.splitlines()) == 1
    assert err.startswith(f"taolong: error: checkpoint {ckpt / 'weak.ckpt'}: format: ")
    assert err.rstrip().endswith("; pass --fresh to start again")
    assert not marker.exists() and (ckpt / "weak.ckpt").read_bytes() == payload

    root = Path(taolong_lab.__file__).parents[1]
    done = subprocess.run(
        [sys.executable, "-m", "taolong_lab.cli", "solve", str(puzzle_file), "--checkpoint", ckpt],
        capture_output=True,
        text=True,
        check=False,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.startswith("taolong: error: checkpoint ") and not marker.exists()


# ---- the signature ---------------------------------------------------------------------------
def test_the_key_is_made_once_private_and_where_the_user_says(tmp_path, monkeypatch):
    unfinished(tmp_path)
    key_file = common.checkpoint_key_path()
    assert key_file == tmp_path / "keys" / "checkpoint.key"
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    key = key_file.read_bytes()
    unfinished(tmp_path)
    assert key_file.read_bytes() == key and len(bytes.fromhex(key.decode())) == 32
    monkeypatch.delenv("TAOLONG_LAB_KEY")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert common.checkpoint_key_path() == tmp_path / "data" / "taolong_lab" / "checkpoint.key"
    assert common.checkpoint_key() != bytes.fromhex(key.decode())
    assert common.checkpoint_key_path().read_bytes() != key


def test_a_key_made_meanwhile_by_another_process_is_kept(monkeypatch):
    theirs = common.checkpoint_key()  # made by "another process" after this one looked
    real = common._read_key
    looks = []

    def missing_at_first(path):
        looks.append(path)
        if len(looks) == 1:
            raise FileNotFoundError(path)
        return real(path)

    monkeypatch.setattr(common, "_read_key", missing_at_first)
    assert common.checkpoint_key() == theirs
    assert sorted(p.name for p in common.checkpoint_key_path().parent.iterdir()) == [
        "checkpoint.key"
    ]


def test_a_file_signed_with_another_key_is_refused(tmp_path, monkeypatch):
    path = unfinished(tmp_path)
    monkeypatch.setenv("TAOLONG_LAB_KEY", str(tmp_path / "another.key"))
    assert "does not verify with this user's key" in refused(path, "signature")


def test_a_key_others_can_read_is_used_with_one_warning(tmp_path, monkeypatch):
    """Whoever can read the key can sign a checkpoint: a key file readable by the group or
    others is named once a process, with the fix."""
    unfinished(tmp_path)
    key_file = common.checkpoint_key_path()
    key_file.chmod(0o644)
    monkeypatch.setattr(common, "_WARNED_KEYS", set())
    warned = pytest.warns(common.CheckpointKeyWarning, match=r"readable by others \(mode 0644\)")
    with warned as seen:
        solve(START, checkpoint=tmp_path / "half.ckpt", max_states=12)
        solve(START, checkpoint=tmp_path / "other.ckpt", max_states=12)
    assert len(seen) == 1 and f"chmod 600 {key_file}" in str(seen[0].message)
    key_file.chmod(0o600)
    monkeypatch.setattr(common, "_WARNED_KEYS", set())
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        common.checkpoint_key()


def test_a_bad_key_file_is_named(tmp_path):
    key_file = common.checkpoint_key_path()
    key_file.parent.mkdir()
    key_file.write_text("not a key\n")
    with pytest.raises(SolverError, match=f"checkpoint key {key_file}: not a checkpoint key"):
        unfinished(tmp_path)


# ---- forged results --------------------------------------------------------------------------
def five_turn_win() -> list[str]:
    """A real winning line of 5 turns from START, whose optimum is 4."""
    params = bound_params(START)
    for turn, after in START.successors():
        if not win_within(after, 3, params):
            line = win_line_within(after, 4, params)
            if line is not None:
                return [str(turn), *map(str, line)]
    raise AssertionError("no 5-turn win")


def forgeries(line: list[str]) -> dict:
    """Edits of a saved result: (the field named, what the message says, the change)."""
    illegal = [*line[:2], line[0], line[3]]
    with pytest.raises(IllegalTurnError):  # the forged third turn is really illegal there
        START.play(line[0]).play(line[1]).play(line[0])
    longer = five_turn_win()
    end = START
    for turn in longer:
        end = end.play(turn)
    assert len(longer) == 5 and end.outcome().winner == START.to_move
    return {
        "no win in 3": (
            "result.line",
            "not over after its 3 turns",
            {"optimum": 3, "line": line[:3]},
        ),
        "a real 5": (
            "result.line",
            "not the line to the saved search's win (4 turns)",
            {"optimum": 5, "line": longer, "proved_no_win_below": 5},
        ),
        "no-win": (
            "result.status",
            "'no-win', but the saved search has positions left or a win",
            {"status": "no-win", "optimum": None, "line": []},
        ),
        "illegal turn 3": (
            "result.line",
            f"illegal turn {line[0]!r}: turn 3:",
            {"line": illegal},
        ),
        "optimum 3": ("result.optimum", "3, but result.line has 4 turns", {"optimum": 3}),
        "bound": (
            "result.proved_no_win_below",
            "5, the saved search proves 4",
            {"proved_no_win_below": 5},
        ),
        "first turns": (
            "result.optimal_first_turns",
            "1000000 is not",
            {"optimal_first_turns": 10**6},
        ),
        "certificate": (
            "result.certificate",
            "is not the certificate",
            {"certificate": {"optimum": 4}},
        ),
        "stats": ("result.stats", "non-negative numbers", {"stats": {"seconds": -1}}),
        "stats without seconds": (
            "result.stats",
            "fields missing ['seconds'], or too many or too long names",
            lambda result: {"stats": {k: v for k, v in result["stats"].items() if k != "seconds"}},
        ),
    }


@pytest.mark.parametrize(
    "forgery",
    [
        "no win in 3",
        "a real 5",
        "no-win",
        "illegal turn 3",
        "optimum 3",
        "bound",
        "first turns",
        "certificate",
        "stats",
        "stats without seconds",
    ],
)
@pytest.mark.parametrize("signed", [True, False])
def test_a_forged_result_is_refused(tmp_path, forgery, signed):
    path = finished(tmp_path)
    header, body = read(path)
    field, reason, change = forgeries(body["result"]["line"])[forgery]
    body["result"].update(change(body["result"]) if callable(change) else change)
    write(path, header, body, sign=signed)
    if signed:
        assert reason in refused(path, field)
    else:
        assert "does not verify with this user's key" in refused(path, "signature")


def test_the_checks_pass_an_honest_result_with_a_new_signature(tmp_path):
    path = finished(tmp_path)
    first = solve(START, checkpoint=path)
    header, body = read(path)
    write(path, header, body)
    assert solve(START, checkpoint=path) == first


def test_a_resumed_win_is_replayed_before_it_is_returned(tmp_path):
    path = finished(tmp_path)
    header, body = read(path)
    del body["result"]  # the search found its win, and would return its line
    found = body["found"]
    parent = body["info"][found][1]
    body["info"][found][2] = body["info"][parent][2]  # the last turn, made another
    write(path, header, body)
    assert "turn 4" in refused(path, "info")


# ---- tampered searches -----------------------------------------------------------------------
def open_entry(body) -> tuple[int, list]:
    """An open entry whose position was never expanded, at its position's g."""
    closed = {i for i, _ in body["closed"]}
    for j, (_, g, i) in enumerate(body["open"]):
        if i not in closed and body["info"][i][0] == g:
            return j, body["open"][j]
    raise AssertionError("no such entry")


def drop_entry(body):
    j, _ = open_entry(body)
    del body["open"][j]


def lower_g(body):
    j, (f, g, i) = open_entry(body)
    body["open"][j] = [f, g - 1, i]


def raise_g(body):
    j, (f, g, i) = open_entry(body)
    body["open"][j] = [f + 1, g + 1, i]


def lower_f(body):
    j, (_, g, i) = open_entry(body)
    body["open"][j] = [g, g, i]


def raise_bound(body):
    body["proved"] = min(f for f, _, _ in body["open"]) + 4


def shorten_info(body):
    body["info"][-1][0] -= 1


def move_start(body):
    body["info"][0], body["info"][1] = body["info"][1], body["info"][0]


def win_elsewhere(body):
    body["found"] = 1


def count_below_zero(body):
    body["generated"] = -1


def float_bound(body):
    body["proved"] = 2.0


def huge_number(body):
    body["expanded"] = 10**20


@pytest.mark.parametrize(
    ("tamper", "field"),
    [
        (drop_entry, r"info\[\d+\]"),
        (lower_g, r"open\[\d+\]\.g"),
        (raise_g, r"info\[\d+\]"),
        (lower_f, r"open\[\d+\]\.f"),
        (raise_bound, "proved"),
        (shorten_info, r"info\[\d+\]\.g"),
        (move_start, r"info\[0\]"),
        (win_elsewhere, "found"),
        (count_below_zero, "generated"),
        (float_bound, "proved"),
        (huge_number, "expanded"),
    ],
)
def test_a_tampered_search_with_a_valid_signature_is_refused(tmp_path, tamper, field):
    path = unfinished(tmp_path)
    header, body = read(path)
    tamper(body)
    write(path, header, body)
    with pytest.raises(CheckpointError, match=rf"half\.ckpt: {field}: "):
        solve(START, checkpoint=path)


def test_a_position_that_is_not_one_is_named(tmp_path):
    path = unfinished(tmp_path)
    header, body = read(path)
    body["positions"][2] = body["positions"][2].replace(" w ", " x ")
    write(path, header, body)
    assert "bad position: side" in refused(path, r"positions[2]")


def test_a_saved_search_round_trips(tmp_path):
    """What a snapshot saves is what a restored search saves again, the same data."""
    path = unfinished(tmp_path)
    _, saved = read(path)
    store = Checkpoint(path, solver=f"{SOLVER}/{BOUND_NAME}", start=START)
    search = _Search(START, bound_params(START))
    search.restore(store.load(), path)
    again = search.snapshot(0.0)
    assert again == saved and len(saved["positions"]) > 12
    assert sum(len(b) for b in search.buckets.values()) == len(saved["open"])


# ---- bounded reading -------------------------------------------------------------------------
def test_not_a_regular_file_is_refused_unread(tmp_path):
    folder = tmp_path / "folder.ckpt"
    folder.mkdir()
    assert "not a regular file" in refused(folder, "file")
    assert "not a regular file" in refused(Path("/dev/zero"), "file")


def test_a_file_over_the_size_cap_is_refused_unread(tmp_path, monkeypatch):
    path = unfinished(tmp_path)
    monkeypatch.setattr(common, "MAX_CHECKPOINT_BYTES", path.stat().st_size - 1)
    assert "more than a checkpoint's" in refused(path, "file")


def test_a_body_that_unpacks_past_its_declared_size_is_refused(tmp_path):
    path = unfinished(tmp_path)
    header, body = read(path)
    text = json.dumps(body, separators=(",", ":")).encode()
    write(path, header, body, size=len(text) // 2)
    assert f"unpacks past the {len(text) // 2} bytes its header declares" in refused(path, "file")
    write(path, header, body, size=2 * len(text))
    assert "not the size its header declares" in refused(path, "file")
    write(path, header, body, size=common.MAX_CHECKPOINT_INFLATED + 1)
    assert "must be a number of bytes up to" in refused(path, "size")


BOMB = """
import json, resource, sys
from pathlib import Path
from taolong_lab import State
from taolong_lab.solvers.bounds import BOUND_NAME
from taolong_lab.solvers.common import Checkpoint, CheckpointError
from taolong_lab.solvers.explicit import SOLVER

path, start = Path(sys.argv[1]), State(sys.argv[2])
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    Checkpoint(path, solver=f"{SOLVER}/{BOUND_NAME}", start=start).load()
    print(json.dumps({"error": None}))
except CheckpointError as exc:
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before
    print(json.dumps({"error": str(exc), "peak_kb": peak}))
"""


def gzip_bomb(unpacked: int) -> bytes:
    """Gzip data of ``unpacked`` zero bytes (about a thousandth of that, packed)."""
    pack = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    zeros = b"\0" * (1 << 20)
    parts = [pack.compress(zeros) for _ in range(unpacked >> 20)]
    return b"".join([*parts, pack.flush()])


@pytest.mark.parametrize("signed", [True, False])
def test_a_checkpoint_bomb_is_refused_with_little_memory(tmp_path, signed):
    """256 MiB of zeros in a quarter of a MiB: unsigned, it is refused by its signature before
    it is unpacked; signed (by a key holder) with a small declared size, it is unpacked no
    further than that size. Either way the process grows by a few MiB at most."""
    path = unfinished(tmp_path)
    header, _ = read(path)
    bomb = gzip_bomb(256 << 20)
    assert len(bomb) < 1 << 19
    write(path, header, None, packed=bomb, size=1000, sign=signed)
    root = Path(taolong_lab.__file__).parents[1]
    done = subprocess.run(
        [sys.executable, "-c", BOMB, str(path), START.to_tln()],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(root)},
    )
    found = json.loads(done.stdout)
    field = "file: unpacks past the 1000 bytes" if signed else "signature: does not verify"
    assert f": {field}" in found["error"]
    assert found["peak_kb"] < 32 * 1024


def test_a_truncated_file_is_refused(tmp_path):
    path = unfinished(tmp_path)
    whole = path.read_bytes()
    path.write_bytes(whole[:-20])
    assert "does not verify" in refused(path, "signature")
    path.write_bytes(whole)
    header, body = read(path)
    text = json.dumps(body, separators=(",", ":")).encode()
    write(path, header, None, packed=gzip.compress(text)[:-20], size=len(text))
    assert "damaged gzip data" in refused(path, "file")


def test_an_unknown_version_is_refused(tmp_path):
    path = unfinished(tmp_path)
    header, body = read(path)
    write(path, {**header, "version": 3}, body)
    assert "3 is not a version this lab reads (2)" in refused(path, "version")


def test_a_checkpoint_of_the_older_format_is_refused(tmp_path):
    """Version 1 was gzip all through, its signature over the unpacked text."""
    path = unfinished(tmp_path)
    header, body = read(path)
    header = {k: v for k, v in header.items() if k not in ("size", "signature")}
    old = json.dumps({**header, "version": 1}).encode() + b"\n" + json.dumps(body).encode()
    path.write_bytes(gzip.compress(old))
    assert "an older format (version 1)" in refused(path, "version")


def test_another_puzzles_file_is_refused(tmp_path):
    path = unfinished(tmp_path)
    assert f"this search needs {OTHER.to_tln()!r}" in refused(path, "start", start=OTHER)


def test_a_digest_that_does_not_match_is_refused(tmp_path):
    path = unfinished(tmp_path)
    header, body = read(path)
    write(path, {**header, "digest": "0" * 64}, body)
    refused(path, "digest")


@pytest.mark.parametrize(
    ("raw", "field", "reason"),
    [
        (b"[" * 100_000 + b"]" * 100_000, "body", "nested too deep"),
        (b'{"seconds": NaN}', "body", "NaN is not JSON"),
        (b'{"proved": ' + b"9" * 5000 + b"}", "body", "not valid JSON"),
        (b"[]", "body", "must be a JSON object"),
        (b'{"positions": []}', "body", "fields missing"),
    ],
)
def test_a_body_that_is_not_the_format_is_refused(tmp_path, raw, field, reason):
    path = unfinished(tmp_path)
    header, _ = read(path)
    write(path, header, None, raw=raw)
    assert reason in refused(path, field)


def test_a_deep_header_is_refused_before_the_signature(tmp_path):
    path = tmp_path / "deep.ckpt"
    path.write_bytes(b'{"a": ' + b"[" * 30_000 + b"]" * 30_000 + b"}\n{}")
    assert "nested too deep" in refused(path, "header")
    path.write_bytes(b"{" * (common.MAX_HEADER_BYTES + 1) + b"\n{}")
    assert "no header line" in refused(path, "format")


# ---- starting afresh -------------------------------------------------------------------------
def test_fresh_starts_again_on_a_refused_file(tmp_path):
    path = finished(tmp_path)
    header, body = read(path)
    body["result"]["optimum"] = 3
    write(path, header, body, sign=False)
    refused(path, "signature")
    again = solve(START, checkpoint=path, fresh=True)
    assert again.optimum == 4 and again.stats["search_expanded"] > 12
    assert solve(START, checkpoint=path) == again  # the file is whole again
    with pytest.raises(SolverError, match="pass checkpoint= too"):
        solve(START, fresh=True)
    folder = tmp_path / "folder.ckpt"
    folder.mkdir()
    with pytest.raises(SolverError, match=r"folder\.ckpt: cannot write it"):
        solve(START, checkpoint=folder, fresh=True)
    assert folder.is_dir()


def test_the_command_line_starts_afresh_only_when_asked(tmp_path, capsys, puzzle_file):
    ckpt = tmp_path / "ckpt"
    code, _, _ = cli(capsys, "solve", str(puzzle_file), "--checkpoint", str(ckpt))
    path = ckpt / "weak.ckpt"
    header, body = read(path)
    body["result"]["line"][2] = body["result"]["line"][0]
    write(path, header, body)
    tampered = path.read_bytes()
    code, out, err = cli(capsys, "solve", str(puzzle_file), "--checkpoint", str(ckpt))
    assert (code, out) == (2, "") and len(err.splitlines()) == 1
    turn = body["result"]["line"][2]
    assert err.startswith(
        f"taolong: error: checkpoint {path}: result.line: illegal turn {turn!r}: turn 3:"
    )
    assert err.rstrip().endswith("; pass --fresh to start again")
    assert path.read_bytes() == tampered
    code, out, err = cli(capsys, "solve", str(puzzle_file), "--checkpoint", str(ckpt), "--fresh")
    assert (code, err) == (0, "") and "weak: optimal: win in 4" in out
    assert path.read_bytes() != tampered
    code, out, _ = cli(capsys, "solve", str(puzzle_file), "--checkpoint", str(ckpt))
    assert code == 0 and "weak: optimal: win in 4" in out
    code, _, err = cli(capsys, "solve", str(puzzle_file), "--fresh")
    assert code == 2 and "--fresh starts a checkpointed search again" in err
    code, _, err = cli(capsys, "solve", str(puzzle_file), "--fresh", "--method", "sat")
    assert code == 2 and "--fresh does not apply to the sat solver" in err


def test_solve_help_names_fresh(capsys):
    code, out, _ = cli(capsys, "solve", "--help")
    assert code == 0 and "ignore a saved checkpoint and start the search" in " ".join(out.split())


def test_a_finished_start_is_answered_without_a_checkpoint(tmp_path):
    """A start already won or lost is answered at once, and nothing is saved."""
    won = State(
        "field/grasshopper/current/solo 8/8/8/8/8/8/8/8 "
        "d3-d2-d1-e1:4:0 d4-d5:1:0 -/-/BB/-/W/-/BWW/WB 3:8 w 1"
    ).play("Ea>Mo =")
    path = tmp_path / "won.ckpt"
    assert solve(won, checkpoint=path).optimum == 0
    assert not path.exists()

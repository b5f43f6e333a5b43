"""The engine conformance corpus: positions with every legal turn and successor, recorded once.

Not a test module. ``tests/corpus/engine-corpus.jsonl.gz`` was written by this file with the
engine of the commit it names (before the engine core was rewritten), and
``tests/engine/test_engine_corpus.py`` replays it against today's engine: for every position, the
legal turns (their notation, in order), the positions they lead to and the outcome must be
identical. Never rewrite the corpus to make that test pass; a deliberate rule change writes a
new corpus in the same commit, with the reason in the message.

    python tests/engine_corpus.py --write      # record (takes a few minutes)

Each line is one JSON object: ``combo`` (what was played), ``tln`` (the position), ``outcome``
(``str(state.outcome())`` or null), ``turns`` (``str(turn)`` of ``successors()`` in order) and
``successors`` (SHA-256 of the successors' TLN lines, joined by newlines, in the same order).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(Path(__file__).resolve().parent))

from conformance import (  # noqa: E402
    Combo,
    combinations,
    combo_playout,
    solo_playout,
    solo_start,
)

CORPUS = HERE / "corpus" / "engine-corpus.jsonl.gz"
TWO_PLAYER = 200  # positions per combination
SOLO = {"matter": 120, "next-turn": 30}  # positions per combination and lookahead
# extra rule options, each played on top of one combination
VARIANTS = (
    ("field/grasshopper/current", {"tail_vacates_first": True}),
    ("field/grasshopper/current", {"bite_on_stay": False}),
    ("field/master/current", {"extra_phases": 0}),
    ("field/grasshopper/earlier", {"tail_vacates_first": False}),
    ("maze/monk/current", {"bite_on_stay": False}),
)
SOLO_VARIANTS = (("gorge/monk/current", {"solo_focus_replaces_action": True}),)


def successors_digest(state) -> str:
    text = "\n".join(after.to_tln() for _, after in state.successors())
    return hashlib.sha256(text.encode()).hexdigest()


def record(combo: str, state) -> dict:
    result = state.outcome()
    return {
        "combo": combo,
        "tln": state.to_tln(),
        "outcome": None if result is None else str(result),
        "turns": [str(turn) for turn, _ in state.successors()],
        "successors": successors_digest(state),
    }


def _sample(paths, count: int):
    """``count`` distinct positions spread over the paths (every position of each, in turn)."""
    seen, out = set(), []
    for path in paths:
        for state in path:
            tln = state.to_tln()
            if tln not in seen:
                seen.add(tln)
                out.append(state)
    step = max(1, len(out) // count)
    return out[::step][:count]


def _two_player(combo: Combo, options: dict, label: str):
    from taolong_lab import new_game

    paths = []
    for seed in range(12):
        if options:
            import random

            rng = random.Random(seed)
            state = new_game(**combo.kwargs(), **options)
            path = [state]
            while len(path) <= 400 and not state.is_over():
                state = state.play(rng.choice(state.legal_turns()))
                path.append(state)
            paths.append(path)
        else:
            paths.append(combo_playout(combo, seed, 400))
    return [record(label, s) for s in _sample(paths, TWO_PLAYER)]


def _solo(combo: Combo, lookahead: str, options: dict, label: str):
    paths = []
    for seed in range(16 if lookahead == "matter" else 6):
        player = ("white", "black")[seed % 2]
        start = solo_start(combo, player, seed, solo_lookahead=lookahead, **options)
        paths.append(solo_playout(start, seed, 40, greed=0.5))
    return [record(label, s) for s in _sample(paths, SOLO[lookahead])]


def _combo(label: str) -> Combo:
    scenario, mode, edition = label.split("/")
    return Combo(scenario, mode, edition, None)


def build(progress: bool = True):
    rows = []
    jobs = [(c, {}, c.id) for c in combinations()]
    jobs += [(_combo(label), opts, _label(label, opts)) for label, opts in VARIANTS]
    for combo, options, label in jobs:
        rows += _two_player(combo, options, label)
        if progress:
            print(f"{label}: {len(rows)} records", file=sys.stderr)
    solo_jobs = [c for c in combinations() if c.edition == "current"]
    for combo in solo_jobs:
        for lookahead in SOLO:
            rows += _solo(combo, lookahead, {}, f"{combo.id}/solo/{lookahead}")
        if progress:
            print(f"{combo.id} solo: {len(rows)} records", file=sys.stderr)
    for label, options in SOLO_VARIANTS:
        for lookahead in SOLO:
            name = f"{_label(label, options)}/solo/{lookahead}"
            rows += _solo(_combo(label), lookahead, options, name)
    return rows


def _label(label: str, options: dict) -> str:
    return label + "".join(f"+{k}={v}" for k, v in sorted(options.items()))


def load():
    with gzip.open(CORPUS, "rt", encoding="utf-8") as handle:
        header = json.loads(handle.readline())
        return header, [json.loads(line) for line in handle]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="record the corpus")
    args = parser.parse_args(argv)
    if not args.write:
        parser.print_help()
        return 2
    commit = subprocess.run(
        ["git", "rev-parse", "HEAD"], capture_output=True, text=True, cwd=HERE, check=True
    ).stdout.strip()
    rows = build()
    CORPUS.parent.mkdir(exist_ok=True)
    header = {"corpus": "taolong engine conformance", "engine_commit": commit, "records": len(rows)}
    with gzip.open(CORPUS, "wt", encoding="utf-8", compresslevel=9) as handle:
        handle.write(json.dumps(header) + "\n")
        for row in rows:
            handle.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{CORPUS}: {len(rows)} records", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

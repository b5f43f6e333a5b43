"""Golden transcripts: seeded random games written out turn by turn, to pin the engine's output.

``python -m taolong_lab.tools.golden`` (or ``make golden``) rewrites ``tests/golden/*.txt``;
``python -m taolong_lab.tools.golden --check`` only compares, printing a diff and exiting 1 if a
file would change. ``tests/test_golden.py`` replays every file against the engine.

Each game is ``random.Random(seed).choice(state.legal_turns())`` from ``new_game(...)`` until the
game ends, so a transcript changes exactly when the rules, the order of ``legal_turns()``, the
notation, TLN or the text board change. Regenerate after an intended change and review the diff.

File format (one game per file)::

    # comment lines: what the file is and how to regenerate it
    game: current-seed-3                 header, "key: value" lines
    seed: 3
    rules: field/grasshopper/current
    start: <TLN of the start position>
                                         blank line
    1 white He>Fi a3+                    turn number, side that played it, the turn's notation
      field/grasshopper/current ...      the TLN after the turn (indented two spaces)
      | <board line>                     every 10th turn and after the last: str(state), rstripped
    ...
    result: black wins: white lost its last segment
    turns: 126
"""

from __future__ import annotations

import argparse
import difflib
import os
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path

from .. import new_game
from ..engine import State, Turn

BOARD_EVERY = 10
REGENERATE = "python -m taolong_lab.tools.golden"


@dataclass(frozen=True)
class Game:
    """One golden game: a seeded random playout from the start of a variant."""

    name: str
    seed: int
    edition: str = "current"
    options: tuple[tuple[str, object], ...] = field(default=())

    def start(self) -> State:
        return new_game(edition=self.edition, **dict(self.options))

    def filename(self) -> str:
        return f"{self.name}.txt"


# Seeds chosen for games of moderate length that end both ways and include penalties,
# Wind/Thunder extra phases and Lake/Mountain stays.
GAMES: tuple[Game, ...] = (
    Game("current-seed-3", 3),
    Game("current-seed-8", 8),
    Game("current-seed-13", 13),
    Game("earlier-seed-2", 2, edition="earlier"),
)


def play(game: Game) -> list[tuple[Turn, State]]:
    """The game's turns with the position after each, to the end of the game."""
    rng = random.Random(game.seed)
    state = game.start()
    out = []
    while not state.is_over():
        turn = rng.choice(state.legal_turns())
        state = state.play(turn)
        out.append((turn, state))
    return out


def board_lines(state: State) -> list[str]:
    """``str(state)`` as transcript lines (trailing blanks stripped)."""
    return [f"  | {line}".rstrip() for line in str(state).splitlines()]


def render(game: Game) -> str:
    """The full text of the game's golden file."""
    start = game.start()
    lines = [
        f"# Golden transcript {game.filename()}: a seeded random game of taolong_lab.",
        "# Every turn is random.Random(seed).choice(state.legal_turns()) from the start.",
        "# Each turn: '<number> <side> <notation>', then the TLN after it; every "
        f"{BOARD_EVERY}th turn and",
        "# the last, the text board (str(state)). Do not edit by hand; regenerate with",
        f"#     .venv/bin/{REGENERATE}            (or: make golden)",
        f"# and compare only with: .venv/bin/{REGENERATE} --check",
        f"game: {game.name}",
        f"seed: {game.seed}",
        f"rules: {start.rules.token()}",
        f"start: {start.to_tln()}",
        "",
    ]
    previous = start
    turns = play(game)
    for number, (turn, state) in enumerate(turns, start=1):
        lines.append(f"{number} {previous.to_move} {turn}")
        lines.append(f"  {state.to_tln()}")
        if number % BOARD_EVERY == 0 or number == len(turns):
            lines.extend(board_lines(state))
        previous = state
    lines.append(f"result: {previous.outcome()}")
    lines.append(f"turns: {len(turns)}")
    return "\n".join(lines) + "\n"


def golden_dir() -> Path:
    """``tests/golden`` of the source checkout this package lives in."""
    return Path(__file__).resolve().parents[2] / "tests" / "golden"


def _write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8", newline="\n")
    os.replace(tmp, path)


def check(directory: Path, out=None) -> int:
    """Compare every golden file with a fresh rendering; print diffs; 0 if all match."""
    out = out or sys.stdout
    bad = 0
    for game in GAMES:
        path = directory / game.filename()
        want = render(game)
        have = path.read_text(encoding="utf-8") if path.exists() else ""
        if have != want:
            bad += 1
            if not path.exists():
                print(f"missing: {path}", file=out)
            out.writelines(
                difflib.unified_diff(
                    have.splitlines(keepends=True),
                    want.splitlines(keepends=True),
                    fromfile=f"{path} (on disk)",
                    tofile=f"{path} (regenerated)",
                    n=2,
                )
            )
    known = {game.filename() for game in GAMES}
    for stray in sorted(directory.glob("*.txt")):
        if stray.name not in known:
            bad += 1
            print(f"stray golden file (no game generates it): {stray}", file=out)
    if bad:
        print(f"{bad} golden file(s) out of date; regenerate with: {REGENERATE}", file=out)
    else:
        print(f"{len(GAMES)} golden files up to date in {directory}", file=out)
    return 1 if bad else 0


def regenerate(directory: Path, out=None) -> int:
    out = out or sys.stdout
    directory.mkdir(parents=True, exist_ok=True)
    for game in GAMES:
        path = directory / game.filename()
        text = render(game)
        old = path.read_text(encoding="utf-8") if path.exists() else None
        if old != text:
            _write(path, text)
            print(f"wrote {path}", file=out)
        else:
            print(f"unchanged {path}", file=out)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=REGENERATE, description="Regenerate or check the golden game transcripts."
    )
    parser.add_argument(
        "--check", action="store_true", help="compare only; print a diff and exit 1 on mismatch"
    )
    parser.add_argument(
        "--dir", type=Path, default=None, help="golden directory (default: tests/golden)"
    )
    args = parser.parse_args(argv)
    directory = args.dir or golden_dir()
    return check(directory) if args.check else regenerate(directory)


if __name__ == "__main__":
    sys.exit(main())

"""The SVG snapshots of tests/snapshots: the pictures the test suite compares with what the
renderer draws today.

    python tools/svg_snapshots.py            # rewrite tests/snapshots/*.svg
    python tools/svg_snapshots.py --check    # exit 1 if a snapshot is out of date
    python tools/svg_snapshots.py DIR        # the same, in another folder

After an intended change to the pictures, rewrite them and review the diff.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from taolong_lab import State  # noqa: E402
from taolong_lab.files import write_atomic  # noqa: E402
from taolong_lab.pictures import svg  # noqa: E402

SNAPSHOT_DIR = ROOT / "tests" / "snapshots"
BUSY_BEFORE = (
    "valley/master/current 8/3R2G1/8/3##3/3##1B1/8/1G6/8 e8-d8-c8-b8:4:0 f6-e6-d6-d7:4:1 "
    "-/-/WW/-/W/-/BBB/BW@cw 0:7 b 14"
)
BUSY_TURN = "Ea>Th f5 ; Th>Fi [g5b7]c7x"
SOLO_BEFORE = (
    "field/monk/current/solo 8/8/8/8/8/8/8/8 a2-a1-b1-b2:4:0 g8-h8-h7-g7:4:0 "
    "WW/-/WW/-/BB/-/BB/- 0:8 w 1"
)
SOLO_TURN = "Ea>Wa (Mo:f8 Wa:f7+) a3x"
WALL_DAMAGED = (
    "wall/master/current 7d/6d1/8/8/8/2o5/1o6/o7 h2-h3-h4-h5:2:1 e1-d1-d2-d3:2:0 "
    "B/-/-/WWB/-/WB/B/W@ccw 4:7 b 22"
)
# name -> (position TLN or None for the standard start, svg() options)
SNAPSHOTS = {
    "start": (None, {}),
    "start-legal": (None, {"legal": True, "sow": "Wa", "ids": "start-"}),
    "midgame": (BUSY_BEFORE, {"turn": BUSY_TURN, "legal": True, "highlight": ["a1"]}),
    "solo-turn": (SOLO_BEFORE, {"turn": SOLO_TURN, "legal": True}),
    "wall-damaged": (WALL_DAMAGED, {"legal": True}),
}


def snapshot(name: str) -> str:
    """The picture ``name`` as the renderer draws it today."""
    tln, options = SNAPSHOTS[name]
    return svg(State() if tln is None else State(tln), **options)


def write_snapshots(directory: Path) -> list[Path]:
    """Rewrite every snapshot in ``directory``; the paths written."""
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SNAPSHOTS:
        path = directory / f"{name}.svg"
        write_atomic(path, snapshot(name).encode("utf-8"))
        written.append(path)
    return written


def stale_snapshots(directory: Path) -> list[str]:
    """The snapshots of ``directory`` that are missing or differ from today's pictures."""
    return [
        name
        for name in SNAPSHOTS
        if not (directory / f"{name}.svg").is_file()
        or (directory / f"{name}.svg").read_text("utf-8") != snapshot(name)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="tools/svg_snapshots.py",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("directory", nargs="?", type=Path, default=SNAPSHOT_DIR)
    parser.add_argument("--check", action="store_true", help="only say which are out of date")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_snapshots(args.directory)
        for name in stale:
            print(f"out of date: {name}.svg (rewrite: python tools/svg_snapshots.py)")
        return 1 if stale else 0
    for path in write_snapshots(args.directory):
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

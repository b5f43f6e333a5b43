"""``python -m taolong_lab.render``: print or snapshot SVG pictures.

    python -m taolong_lab.render [TLN] [--turn T] [--before TLN] [--legal] [--sow He]
                                 [--reveal] [--highlight c3,d4] [--no-panel]
    python -m taolong_lab.render --snapshots [DIR]   # rewrite the committed SVG snapshots
    python -m taolong_lab.render --check [DIR]       # exit 1 if a snapshot is out of date

The snapshots (tests/snapshots/*.svg) are the pictures of :data:`SNAPSHOTS`; the test suite
compares them with what the renderer draws today.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

# name -> (position TLN or None for the standard start, svg() options)
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
SNAPSHOTS = {
    "start": (None, {}),
    "start-legal": (None, {"legal": True, "sow": "Wa", "ids": "start-"}),
    "midgame": (BUSY_BEFORE, {"turn": BUSY_TURN, "legal": True, "highlight": ["a1"]}),
    "solo-turn": (SOLO_BEFORE, {"turn": SOLO_TURN, "legal": True}),
    "wall-damaged": (WALL_DAMAGED, {"legal": True}),
}


def default_dir() -> Path:
    return Path(__file__).resolve().parents[2] / "tests" / "snapshots"


def snapshot(name: str) -> str:
    from ..engine.state import State
    from .picture import svg

    tln, options = SNAPSHOTS[name]
    return svg(State() if tln is None else State(tln), **options)


def write_snapshots(directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    written = []
    for name in SNAPSHOTS:
        path = directory / f"{name}.svg"
        path.write_text(snapshot(name), "utf-8")
        written.append(path)
    return written


def stale_snapshots(directory: Path) -> list[str]:
    return [
        name
        for name in SNAPSHOTS
        if not (directory / f"{name}.svg").is_file()
        or (directory / f"{name}.svg").read_text("utf-8") != snapshot(name)
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m taolong_lab.render",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("tln", nargs="*", help="a position in TLN (default: the start)")
    parser.add_argument(
        "--snapshots",
        nargs="?",
        const="",
        metavar="DIR",
        help="rewrite the SVG snapshots (default: tests/snapshots)",
    )
    parser.add_argument(
        "--check",
        nargs="?",
        const="",
        metavar="DIR",
        help="exit 1 if a snapshot differs from the renderer's output",
    )
    parser.add_argument("--turn", help="overlay this turn (played from the position)")
    parser.add_argument("--before", help="the TLN the turn was played from")
    parser.add_argument("--legal", action="store_true", help="show the legal destinations")
    parser.add_argument("--sow", help="preview sowing this space (He, or He/WB)")
    parser.add_argument("--highlight", help="cells to highlight, comma-separated")
    parser.add_argument("--reveal", action="store_true", help="Chosen One: show the board")
    parser.add_argument("--no-panel", action="store_true", help="the board alone")
    parser.add_argument("--size", type=int, help="width in pixels")
    args = parser.parse_args(argv)
    if args.snapshots is not None:
        for path in write_snapshots(Path(args.snapshots) if args.snapshots else default_dir()):
            print(path)
        return 0
    if args.check is not None:
        stale = stale_snapshots(Path(args.check) if args.check else default_dir())
        for name in stale:
            print(f"out of date: {name}.svg (regenerate: python -m taolong_lab.render --snapshots)")
        return 1 if stale else 0
    from ..engine.state import State
    from .picture import svg

    state = State(" ".join(args.tln)) if args.tln else State()
    sys.stdout.write(
        svg(
            state,
            turn=args.turn,
            before=args.before,
            legal=args.legal,
            sow=args.sow,
            highlight=args.highlight.split(",") if args.highlight else None,
            reveal=args.reveal,
            panel=not args.no_panel,
            size=args.size,
        )
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``python -m taolong_lab.pictures``: print the SVG picture of a position.

    python -m taolong_lab.pictures [TLN] [--turn T] [--before TLN] [--legal] [--sow He]
                                   [--highlight c3,d4] [--reveal] [--no-panel] [--size PX]

Every bad input prints ``error: ...`` on stderr and exits with status 2.
"""

from __future__ import annotations

import argparse
import sys

from ..engine import State
from ..errors import TaoLongError
from .picture import svg


def main(argv: list[str] | None = None) -> int:
    """Print the SVG of a position (default: the start); return the exit status."""
    parser = argparse.ArgumentParser(
        prog="python -m taolong_lab.pictures",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("tln", nargs="*", help="a position in TLN (default: the start)")
    parser.add_argument("--turn", help="overlay this turn (played from the position)")
    parser.add_argument("--before", help="the TLN the turn was played from")
    parser.add_argument("--legal", action="store_true", help="show the legal destinations")
    parser.add_argument("--sow", help="preview sowing this space (He, or He/WB)")
    parser.add_argument("--highlight", help="cells to highlight, comma-separated")
    parser.add_argument("--reveal", action="store_true", help="Chosen One: show the board")
    parser.add_argument("--no-panel", action="store_true", help="the board alone")
    parser.add_argument("--size", type=int, help="width in pixels")
    args = parser.parse_args(argv)
    try:
        state = State(" ".join(args.tln)) if args.tln else State()
        picture = svg(
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
    except TaoLongError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    sys.stdout.write(picture)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

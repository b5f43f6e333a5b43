"""``taolong review RECORD[:N]``: a game reviewed like a chess site's (``taolong_lab.review``):
each turn's win probability before and after, its class, the best turn and its line, each
side's accuracy; ``--out`` writes the annotated record, ``--plot`` the evaluation graph."""

from __future__ import annotations

import io
from pathlib import Path

from ..agents import ReviewError, review, save_records
from ..agents.review import DEFAULT_NODES
from ..files import write_atomic
from ..rules.data import shown
from .common import EXIT_OK, Command, CommandError, add_progress_option, check_output
from .game_options import add_search_budget, search_budget
from .replay import record_of

PLOT_FORMATS = ("svg", "png", "pdf")


def _arguments(command) -> None:
    """The arguments of ``review``."""
    command.add_argument(
        "record", metavar="RECORD[:N]", help="a .jsonl record file, the N-th record (or its id)"
    )
    add_search_budget(
        command,
        per="a position",
        default_nodes=DEFAULT_NODES,
        seed_help="the analyses' seed: with --nodes the review is the same, byte for byte",
    )
    command.add_argument(
        "--out", metavar="FILE.jsonl", help="write the annotated record to a new file"
    )
    command.add_argument(
        "--plot", metavar="FILE", help="draw the evaluation graph (.svg, .png or .pdf)"
    )
    add_progress_option(command)


def run_review(args, out) -> int:
    """``taolong review``: print the review; write the annotated record and the graph.

    Raises
    ------
    CommandError
        A bad record, budget or file, named.
    """
    record = record_of(args.record, "review")
    search = search_budget(args)
    _check_out(args.out)
    plot_format = _plot_format(args.plot)
    try:
        found = review(record, **search)
    except ReviewError as exc:
        raise CommandError(f"review: {exc}") from None
    out.write(found.text())
    if args.out is not None:
        save_records(args.out, [found.annotated()])
        print(f"{args.out}: the annotated record (taolong play --replay {args.out})", file=out)
    if args.plot is not None:
        write_atomic(Path(args.plot), _figure_bytes(found, plot_format))
        print(f"{args.plot}: the evaluation graph", file=out)
    return EXIT_OK


def _check_out(path: str | None) -> None:
    """Refuse an ``--out`` that is not a new ``.jsonl`` file in a folder that exists (a
    review never writes over a record file)."""
    if path is None:
        return
    check_output("--out", path, ".jsonl")
    if Path(path).exists():
        raise CommandError(f"--out {shown(path)}: exists; the review writes a new file")


def _plot_format(path: str | None) -> str | None:
    if path is None:
        return None
    suffix = Path(path).suffix.lower().lstrip(".")
    if suffix not in PLOT_FORMATS:
        raise CommandError(f"--plot {shown(path)}: must end in .svg, .png or .pdf")
    check_output("--plot", path)
    return suffix


def _figure_bytes(found, plot_format: str) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure = found.plot()
    buffer = io.BytesIO()
    metadata = {"Date": None} if plot_format == "svg" else None
    figure.savefig(buffer, format=plot_format, metadata=metadata)
    plt.close(figure)
    return buffer.getvalue()


COMMAND = Command(
    "review",
    "review a game record: each turn's class, the best turns, each side's accuracy",
    run_review,
    _arguments,
)


__all__ = ["COMMAND", "run_review"]

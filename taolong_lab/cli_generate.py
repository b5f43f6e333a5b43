"""The ``generate`` subcommand of ``taolong``.

``taolong generate --count N --out FILE.jsonl [--scenario NAME.. | all] [--mode NAME.. | all]
[--source random|played|backward.. | all] [--turns MIN..MAX] [--seed S] [--workers K]
[--time-limit S] [--scheduler tcp://HOST:PORT] [--no-progress]``: generates puzzles
(:func:`taolong_lab.puzzles.generate.generate`) until FILE holds N of them; a rerun with the
same FILE resumes. Names may be given as several words or comma-separated. The Village is
drawn per candidate (no flag). Ctrl-C stops it (exit status 130); the same command resumes.
Bad input raises :class:`GenerateCommandError` naming the flag, which ``taolong`` prints as
``taolong: error: ...`` with exit status 2.
"""

from __future__ import annotations

from .errors import TaoLongError

EXIT_OK, EXIT_SHORT, EXIT_INTERRUPTED = 0, 1, 130


class GenerateCommandError(TaoLongError):
    """Bad input to ``taolong generate``."""


def add_commands(subparsers) -> None:
    """Add ``generate`` to ``subparsers`` (from ``add_subparsers``); does nothing if it is
    already there."""
    if "generate" in subparsers.choices:
        return
    gen = subparsers.add_parser("generate", help="generate proved, graded solo puzzles")
    gen.add_argument("--count", required=True, metavar="N", help="puzzles wanted in FILE in all")
    gen.add_argument("--out", required=True, metavar="FILE.jsonl")
    gen.add_argument("--scenario", nargs="+", default=["field"], metavar="NAME|all")
    gen.add_argument("--mode", nargs="+", default=["grasshopper"], metavar="NAME|all")
    gen.add_argument(
        "--source",
        nargs="+",
        default=["all"],
        metavar="NAME|all",
        help="candidate sources: random, played, backward (all: these three), line",
    )
    gen.add_argument("--turns", default="1..4", metavar="MIN..MAX")
    gen.add_argument("--seed", default="0", metavar="S")
    gen.add_argument("--workers", default="1", metavar="K")
    gen.add_argument("--time-limit", default="10", metavar="S", help="seconds per candidate")
    gen.add_argument(
        "--scheduler",
        default=None,
        metavar="tcp://HOST:PORT",
        help="run on this Dask distributed scheduler (pip install 'taolong_lab[dask]')",
    )
    gen.add_argument("--no-progress", action="store_true", help="no progress bar")
    gen.set_defaults(run=run_generate)


def _int(flag: str, text: str, low: int | None = None) -> int:
    try:
        value = int(text)
    except ValueError:
        raise GenerateCommandError(f"{flag} {text!r}: not a whole number") from None
    if low is not None and value < low:
        raise GenerateCommandError(f"{flag} {text!r}: must be >= {low}")
    return value


def _names(flag: str, words, known) -> tuple[str, ...] | str:
    names = [n.strip() for w in words for n in w.split(",") if n.strip()]
    if names == ["all"]:
        return "all"
    if not names or "all" in names:
        raise GenerateCommandError(f"{flag}: give names or 'all' alone")
    for name in names:
        if name not in known:
            raise GenerateCommandError(
                f"{flag} {name!r}: unknown; choose from {', '.join(known)}, or all"
            )
    return tuple(dict.fromkeys(names))


def _turns(text: str) -> tuple[int, int]:
    low, sep, high = text.partition("..")
    try:
        pair = (int(low), int(high)) if sep else (int(text), int(text))
    except ValueError:
        raise GenerateCommandError(f"--turns {text!r}: use MIN..MAX, e.g. 1..4") from None
    if not 1 <= pair[0] <= pair[1]:
        raise GenerateCommandError(f"--turns {text!r}: need 1 <= MIN <= MAX")
    return pair


def parse(args) -> dict:
    """The keyword arguments of :func:`generate` from the parsed command line."""
    from .puzzles.generate import SOURCE_NAMES
    from .rules import MODES, scenario_names

    if not args.out.lower().endswith(".jsonl"):
        raise GenerateCommandError(f"--out {args.out!r}: must be a .jsonl file")
    try:
        time_limit = float(args.time_limit)
    except ValueError:
        raise GenerateCommandError(f"--time-limit {args.time_limit!r}: not a number") from None
    if not time_limit > 0:
        raise GenerateCommandError(f"--time-limit {args.time_limit!r}: must be > 0 seconds")
    return {
        "count": _int("--count", args.count, 1),
        "out": args.out,
        "scenarios": _names("--scenario", args.scenario, list(scenario_names())),
        "modes": _names("--mode", args.mode, list(MODES)),
        "sources": _names("--source", args.source, list(SOURCE_NAMES)),
        "turns": _turns(args.turns),
        "seed": _int("--seed", args.seed),
        "workers": _int("--workers", args.workers, 1),
        "time_limit": time_limit,
        "progress": not args.no_progress,
        "scheduler": args.scheduler,
    }


def run_generate(args, out) -> int:
    from .puzzles.generate import generate
    from .puzzles.runner import RunnerError

    options = parse(args)
    count = options.pop("count")
    try:
        puzzles = generate(count, **options)
    except RunnerError as exc:
        raise GenerateCommandError(str(exc)) from None
    except OSError as exc:
        raise GenerateCommandError(f"--out {args.out}: {exc.strerror or exc}") from None
    except KeyboardInterrupt:  # what was kept is in the file and its sidecar
        print(f"{args.out}: interrupted; the same command resumes", file=out)
        return EXIT_INTERRUPTED
    print(f"{args.out}: {len(puzzles)} puzzles (wanted {count})", file=out)
    return EXIT_OK if len(puzzles) >= count else EXIT_SHORT


__all__ = ["GenerateCommandError", "add_commands", "parse", "run_generate"]

"""``taolong generate``: generate proved, graded solo puzzles
(:func:`taolong_lab.puzzles.generate.generate`) until a file holds N of them.

``taolong generate --count N --out FILE.jsonl [--scenario NAME.. | all] [--mode NAME.. | all]
[--source random|played|backward|line|deep.. | all] [--turns MIN..MAX] [--seed S] [--workers K]
[--time-limit S] [--scheduler [tcp://|tls://]HOST:PORT [--tls-ca-file F --tls-cert F
[--tls-key F]]] [--progress|--no-progress]``: a rerun with the same FILE resumes. Names may be
given as several words or comma-separated. The Village is drawn per candidate (no flag).
Ctrl-C stops it (exit status 130); the same command resumes. Bad input raises a
:class:`~taolong_lab.cli.common.CommandError` naming the flag; warnings are printed as one line
each, ``taolong: warning: ...``. A Dask cluster (``--scheduler``) is trusted code: see
:mod:`taolong_lab.runner`.
"""

from __future__ import annotations

import re
import sys
import warnings
from pathlib import Path

from ..errors import spelled
from ..puzzles import generate as generator
from ..rules import MODES, scenario_names
from ..rules.data import shown
from ..runner import MAX_WORKERS, Runner, RunnerError
from .common import (
    EXIT_OK,
    PROG,
    Command,
    CommandError,
    add_progress_option,
    cli_word,
    wants_progress,
    worded,
)

EXIT_SHORT, EXIT_INTERRUPTED = 1, 130


def _arguments(gen) -> None:
    """The arguments of ``generate``."""
    gen.add_argument("--count", required=True, metavar="N", help="puzzles wanted in FILE in all")
    gen.add_argument(
        "--out", required=True, metavar="FILE.jsonl", help="the puzzle file (a rerun resumes)"
    )
    for flag, default, what in (
        ("--scenario", "field", "the scenarios to draw from (default: field)"),
        ("--mode", "grasshopper", "the game modes to draw from (default: grasshopper)"),
        (
            "--source",
            "all",
            "candidate sources: random, played, backward (all: these three), line, deep",
        ),
    ):
        _add_names(gen, flag, default, what)
    gen.add_argument(
        "--turns",
        default="1..4",
        metavar="MIN..MAX",
        help="the range of the optimum wanted, in turns (default: 1..4)",
    )
    gen.add_argument(
        "--seed", default="0", metavar="S", help="the seed of the candidates (default: 0)"
    )
    gen.add_argument("--workers", default="1", metavar="K", help="processes at once (default: 1)")
    gen.add_argument(
        "--time-limit", default="10", metavar="S", help="seconds per candidate (at most a day)"
    )
    add_cluster_options(gen)
    add_progress_option(gen)


def add_cluster_options(parser) -> None:
    """Add ``--scheduler`` and the ``--tls-*`` options of a Dask cluster to ``parser``."""
    parser.add_argument(
        "--scheduler",
        default=None,
        metavar="tls://HOST:PORT",
        help="run on this Dask distributed scheduler (pip install 'taolong_lab[dask]'). The "
        "cluster is trusted code: its results are unpickled here, so whoever runs or reaches "
        "it can run code on this machine. Use a cluster you control, over tls:// off this "
        "machine (plain tcp:// to another machine is warned about)",
    )
    parser.add_argument(
        "--tls-ca-file", metavar="FILE", help="the cluster's CA certificate (PEM), for tls://"
    )
    parser.add_argument("--tls-cert", metavar="FILE", help="this client's certificate (PEM)")
    parser.add_argument(
        "--tls-key", metavar="FILE", help="this client's key (PEM), unless in --tls-cert"
    )


def _int(flag: str, text: str, low: int, high: int) -> int:
    digits = text.strip()
    if not re.fullmatch(r"[+-]?[0-9]+", digits):
        raise CommandError(f"{flag} {shown(text)}: not a whole number")
    if len(digits.lstrip("+-").lstrip("0")) > len(str(high)) or not low <= int(digits) <= high:
        raise CommandError(f"{flag} {shown(text)}: must be from {low} to {high}")
    return int(digits)


def _add_names(parser, flag: str, default: str, what: str) -> None:
    """Add ``flag NAME.. | all`` (names given as several words or comma-separated), read back
    by :func:`_names`."""
    parser.add_argument(flag, nargs="+", default=[default], metavar="NAME|all", help=what)


def _names(flag: str, words, known) -> tuple[str, ...] | str:
    names = [n.strip() for w in words for n in w.split(",") if n.strip()]
    if names == ["all"]:
        return "all"
    if not names or "all" in names:
        raise CommandError(f"{flag}: give names or 'all' alone")
    for name in names:
        if name not in known:
            raise CommandError(f"{flag} {name!r}: unknown; choose from {', '.join(known)}, or all")
    return tuple(dict.fromkeys(names))


def _turns(text: str) -> tuple[int, int]:
    low, sep, high = text.partition("..")
    if not re.fullmatch(r"[0-9]{1,3}", low.strip()) or not re.fullmatch(
        r"[0-9]{1,3}", (high if sep else low).strip()
    ):
        raise CommandError(f"--turns {shown(text)}: use MIN..MAX, e.g. 1..4")
    pair = (int(low), int(high if sep else low))
    if not 1 <= pair[0] <= pair[1] <= generator.MAX_ASKED_TURNS:
        raise CommandError(
            f"--turns {shown(text)}: need 1 <= MIN <= MAX <= {generator.MAX_ASKED_TURNS}"
        )
    return pair


def _time_limit(text: str) -> float:
    try:
        seconds = float(text)
    except ValueError:
        raise CommandError(f"--time-limit {shown(text)}: not a number") from None
    if not 0 < seconds <= generator.MAX_TIME_LIMIT:  # nan and inf too
        raise CommandError(
            f"--time-limit {shown(text)}: must be seconds, more than 0 and at most "
            f"{generator.MAX_TIME_LIMIT} (a day)"
        )
    return seconds


def _security(args) -> dict | None:
    """Dask's TLS settings from ``--tls-*`` (None: Dask's own config)."""
    given = {
        "--tls-ca-file": ("tls_ca_file", args.tls_ca_file),
        "--tls-cert": ("tls_client_cert", args.tls_cert),
        "--tls-key": ("tls_client_key", args.tls_key),
    }
    given = {flag: pair for flag, pair in given.items() if pair[1] is not None}
    if not given:
        return None
    flags = ", ".join(given)
    if args.scheduler is None:
        raise CommandError(f"{flags}: only with --scheduler tls://HOST:PORT")
    for flag, (_, path) in given.items():
        if not Path(path).is_file():
            raise CommandError(f"{flag} {shown(path)}: no such file")
    return {name: path for name, path in given.values()}


def the_runner(args, workers: int) -> Runner:
    """The :class:`~taolong_lab.runner.Runner` of ``--scheduler``, ``--tls-*`` and
    ``--progress`` with ``workers`` processes, checked before any work starts.

    Parameters
    ----------
    args : argparse.Namespace
        A command line with the cluster and progress options.
    workers : int
        Local processes.

    Returns
    -------
    Runner

    Raises
    ------
    CommandError
        A bad scheduler address or TLS setting, or a TLS file that is missing.
    """
    security = _security(args)
    try:
        return Runner(workers, args.scheduler, security, wants_progress(args))
    except RunnerError as exc:
        raise CommandError(worded(exc)) from None


def parse(args) -> dict:
    """The arguments of :func:`taolong_lab.puzzles.generate.generate` from the command line.

    Parameters
    ----------
    args : argparse.Namespace
        The parsed command line of ``generate``.

    Returns
    -------
    dict
        ``count`` and the keyword arguments.

    Raises
    ------
    CommandError
        A value out of its range, an unknown name, a TLS file that is missing; names the flag.
    """
    if not args.out.lower().endswith(".jsonl"):
        raise CommandError(f"--out {shown(args.out)}: must be a .jsonl file")
    return {
        "count": _int("--count", args.count, 1, generator.MAX_COUNT),
        "out": args.out,
        "scenarios": _names("--scenario", args.scenario, list(scenario_names())),
        "modes": _names("--mode", args.mode, list(MODES)),
        "sources": _names("--source", args.source, list(generator.SOURCE_NAMES)),
        "turns": _turns(args.turns),
        "seed": _int("--seed", args.seed, 0, generator.SEED_LIMIT - 1),
        "time_limit": _time_limit(args.time_limit),
        "runner": the_runner(args, _int("--workers", args.workers, 1, MAX_WORKERS)),
    }


def _print_warning(message, category, filename, lineno, file=None, line=None) -> None:
    parts = getattr(message, "parts", None)
    text = " ".join((str(message) if parts is None else spelled(parts, cli_word)).split())
    print(f"{PROG}: warning: {text}", file=sys.stderr)


def run(args, out) -> int:
    """``taolong generate``: generate (or resume) the run the command line asks for.

    Returns
    -------
    int
        The exit status: 0 when the file holds the puzzles wanted, 1 when the candidates ran out
        first, 130 when interrupted.

    Raises
    ------
    CommandError
        Bad input (:func:`parse`), a cluster that fails, a file that cannot be written.
    """
    options = parse(args)
    count = options.pop("count")
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _print_warning
            puzzles = generator.generate(count, **options)
    except RunnerError as exc:
        raise CommandError(worded(exc)) from None
    except OSError as exc:
        raise CommandError(f"--out {args.out}: {exc.strerror or exc}") from None
    except KeyboardInterrupt:  # what was kept is in the file and its sidecar
        print(f"{args.out}: interrupted; the same command resumes", file=out)
        return EXIT_INTERRUPTED
    print(f"{args.out}: {len(puzzles)} puzzles (wanted {count})", file=out)
    return EXIT_OK if len(puzzles) >= count else EXIT_SHORT


COMMAND = Command("generate", "generate proved, graded solo puzzles", run, _arguments)


__all__ = ["COMMAND", "parse", "run", "the_runner"]

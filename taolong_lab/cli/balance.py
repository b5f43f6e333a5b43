"""``taolong balance --levels SPEC ... --games N --out FILE.json [--plot FILE.svg]``: play (or
resume) the balance report card of a game and print it as a table."""

from __future__ import annotations

import io
from pathlib import Path

from ..agents import balance_card
from ..agents.balance import table
from ..agents.registry import agent_from_spec
from ..errors import TaoLongError
from ..files import read_bounded, write_atomic
from ..games import TAOLONG
from ..rules import EDITIONS, MODES, scenario_names
from ..rules.data import decode_json, json_decoder
from .common import EXIT_OK, Command, CommandError, check_output
from .game_options import (
    add_run_arguments,
    game_options,
    games_runner,
    say_resumed,
    the_game,
)

CARD_COLUMNS = (
    ("P1 wins", "the first player's win rate, 95 % Wilson interval (never of zero width)"),
    ("wins by seat", "each player's win rate, in seat order (the rest: draws and capped games)"),
    ("capped", "games stopped at the decision cap, not finished: draws that say nothing"),
    (
        "balance",
        "1 - (the highest seat's win rate - the lowest's) over the games that ended: 1 even, "
        "0 one seat wins all; 'of N' when capped games are left out, '-' when all were",
    ),
    ("turns, median", "decisions a game, mean and median"),
    ("branching", "legal actions a position, on average"),
    ("lead ch.", "the share of turns after which another player leads by the evaluation"),
    ("drama", "how far the winner's evaluation trails the leader's, on average (0: it led)"),
    ("decisive", "the share of the game played before the winner pulls clear for good"),
)


def _arguments(card) -> None:
    """The arguments of ``balance``."""
    card.add_argument(
        "--levels",
        nargs="+",
        required=True,
        metavar="AGENT",
        help="agent specs, each playing itself, e.g. greedy alphabeta:nodes=2000",
    )
    add_run_arguments(card, games=10)
    card.add_argument(
        "--scenario",
        nargs="+",
        metavar="S",
        help=f"Tao Long: the scenarios, of {', '.join(scenario_names())} (default: all)",
    )
    card.add_argument("--mode", nargs="+", metavar="M", help=f"Tao Long: {', '.join(MODES)}")
    card.add_argument("--edition", nargs="+", metavar="E", help=f"Tao Long: {', '.join(EDITIONS)}")
    card.add_argument(
        "--variant",
        action="append",
        metavar="K=V[,K=V]",
        help="another game's cell: its options (repeatable; default: its variants)",
    )
    card.add_argument(
        "--out",
        required=True,
        metavar="FILE.json",
        help="the card, written atomically after each game; a rerun resumes",
    )
    card.add_argument("--plot", metavar="FILE.svg", help="also draw the card")


def run_balance(args, out) -> int:
    """``taolong balance``: play (or resume) a balance card and print it as a table."""
    runner = games_runner(args)
    played = the_game(args)
    levels = {spec: agent_from_spec(spec) for spec in args.levels}
    if len(levels) != len(args.levels):
        raise CommandError("--levels: each agent once")
    check_output("--out", args.out, ".json")
    if args.plot is not None:
        check_output("--plot", args.plot, ".svg")
    if args.option:
        raise CommandError(
            "balance: the cells are --scenario/--mode/--edition or --variant, not --option"
        )
    options = {}
    if played is TAOLONG:
        if args.variant:
            raise CommandError("--variant: Tao Long's cells are --scenario, --mode, --edition")
        options.update(scenarios=args.scenario, modes=args.mode, editions=args.edition)
    else:
        if args.scenario or args.mode or args.edition:
            raise CommandError(
                f"--scenario, --mode, --edition: Tao Long's; {played.name}'s "
                "cells are --variant K=V,..."
            )
        if args.variant:
            options["variants"] = [
                game_options([p for p in v.split(",") if p.strip()]) for v in args.variant
            ]
    before = _card_games(args.out)
    card = balance_card(
        levels,
        games=args.games,
        game=played,
        seed=args.seed,
        max_turns=args.max_turns,
        out=args.out,
        runner=runner,
        **options,
    )
    say_resumed(before, args.out, out)
    print_card(card, played, out)
    if args.plot is not None:
        _plot(card, args.plot)
        print(f"{args.plot}: written", file=out)
    return EXIT_OK


def _card_games(path: str) -> int:
    """How many games the balance card in ``path`` already holds (0 if none reads)."""
    try:
        held = decode_json(json_decoder(), read_bounded(path).decode("utf-8"))
        return sum(len(cell["games"]) for cell in held["cells"])
    except (OSError, TaoLongError, ValueError, UnicodeDecodeError, KeyError, TypeError):
        return 0


def _percent(rate) -> str:
    return "-" if rate is None else f"{rate:.0%}"


def print_card(card: dict, played, out) -> None:
    """The card as a table, one row a cell and level, then a line a column saying what it
    is (:data:`CARD_COLUMNS`)."""
    first = "white" if played is TAOLONG else "P1"
    rows = [
        (
            "cell",
            "level",
            "games",
            f"{first} wins (95 %)",
            "wins by seat",
            "capped",
            "balance",
            "turns",
            "median",
            "branching",
            "lead ch.",
            "drama",
            "decisive",
        )
    ]
    for row in table(card):
        interval = row["white 95%"]
        wins = _percent(row["white wins"])
        if interval:
            wins += f" ({interval[0]:.0%}-{interval[1]:.0%})"
        seats = "/".join("-" if w is None else f"{w:.0%}" for w in row["wins"]) or "-"
        capped = _percent(row["capped"])
        balance = _number(row["balance"], 2)
        if row["ended"] < row["games"]:  # a capped game tells nothing of the balance
            balance = f"{balance} of {row['ended']}" if row["ended"] else "- (all capped)"
        rows.append(
            (
                row["rules"],
                row["level"],
                str(row["games"]),
                wins,
                seats,
                capped,
                balance,
                _number(row["length mean"], 1),
                _number(row["length median"], 1),
                _number(row["branching"], 1),
                _number(row["lead change"], 2),
                _number(row["drama"], 2),
                _number(row["decisiveness moves"], 2),
            )
        )
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    for r in rows:
        print("  ".join(f"{c:<{w}}" for c, w in zip(r, widths, strict=True)).rstrip(), file=out)
    print(file=out)
    for name, what in CARD_COLUMNS:
        print(f"{name.replace('P1', first)}: {what}", file=out)


def _number(value, digits: int) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _plot(card: dict, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from ..agents.balance import plot

    figure = plot(card)
    buffer = io.BytesIO()
    figure.savefig(buffer, format="svg")
    plt.close(figure)
    write_atomic(Path(path), buffer.getvalue())


COMMAND = Command(
    "balance",
    "the balance report card of a game",
    run_balance,
    _arguments,
    "The balance report card: each agent level plays itself in every cell of the game (a "
    "variant: a scenario, a player count, a version). The columns: "
    + " ".join(f"{name}: {what}." for name, what in CARD_COLUMNS).replace("%", "%%"),
)


__all__ = ["COMMAND", "print_card", "run_balance"]

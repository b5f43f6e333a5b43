"""``taolong openings [--scenario S] [--edition E] [--nodes N]``: the opening table, every first
turn of Tao Long's starts scored by a deep search (``taolong_lab.agents.openings``): its score,
the first player's win probability and its principal variation, and the spread between the
best and the worst first turn."""

from __future__ import annotations

from ..agents.openings import DEFAULT_NODES, OpeningError, opening_starts, opening_table
from ..rules import EDITIONS, scenario_names
from .common import EXIT_OK, Command, CommandError, add_progress_option, check_output, write_json
from .game_options import add_search_budget, search_budget


def _arguments(command) -> None:
    """The arguments of ``openings``."""
    command.add_argument(
        "--scenario",
        metavar="S",
        action="append",
        choices=scenario_names(),
        help="a scenario (repeatable; default: all, Grasshopper, and The Field of the earlier "
        "edition)",
    )
    command.add_argument("--edition", metavar="E", choices=EDITIONS, help="current or earlier")
    add_search_budget(
        command,
        per="after each first turn",
        default_nodes=DEFAULT_NODES,
        seed_help="the searches' seed: with --nodes the table is the same on every run",
    )
    command.add_argument("--json", metavar="FILE.json", help="also write the tables as JSON")
    add_progress_option(command)


def run_openings(args, out) -> int:
    """``taolong openings``: print each start's table, best first turn first.

    Raises
    ------
    CommandError
        A bad budget or file, or a start that does not exist (the earlier edition builds The
        Field and The Valley only; the table keeps The Field).
    """
    search = search_budget(args)
    if args.json is not None:
        check_output("--json", args.json, ".json")
    editions = None if args.edition is None else [args.edition]
    starts = opening_starts(args.scenario, editions)
    if not starts:
        raise CommandError("openings: the earlier edition's table has The Field only")
    budget = f"{args.nodes:,} positions" if args.nodes else ""
    if args.time:
        budget += (" and " if budget else "") + f"{args.time:g} s"
    budget = budget or f"{DEFAULT_NODES:,} positions"
    tables = []
    for start in starts:
        try:
            table = opening_table(start, **search)
        except OpeningError as exc:
            raise CommandError(f"openings: {exc}") from None
        tables.append(table)
        print_table(table, budget, out)
    if args.json is not None:
        write_json(
            args.json, {"command": "taolong openings", "tables": [t.to_json() for t in tables]}
        )
        print(f"{args.json}: written", file=out)
    return EXIT_OK


def print_table(table, budget: str, out) -> None:
    """One start's table: a row a first turn, best first, then the spread."""
    rules = table.start.state.rules
    print(
        f"{rules.scenario} ({rules.mode}, {rules.edition} edition): {len(table.rows)} first "
        f"turns, {budget} after each; white's win probability, score, depth, line",
        file=out,
    )
    for row in table.rows:
        shown_score = f"{row.proved} in {row.plies}" if row.proved else f"{row.score:+.1f}"
        print(
            f"  {row.turn:<22} {row.probability:5.1%}  {shown_score:>9}  d{row.depth:<2} "
            f"{' '.join(row.line[1:])}",
            file=out,
        )
    print(f"  spread (best - worst): {table.spread:.1%}\n", file=out)


COMMAND = Command(
    "openings",
    "every first turn of each scenario scored by a deep search",
    run_openings,
    _arguments,
)


__all__ = ["COMMAND", "print_table", "run_openings"]

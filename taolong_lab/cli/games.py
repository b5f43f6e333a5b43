"""``taolong games [NAME]``: the registered games (or one game's options)."""

from __future__ import annotations

from ..errors import TaoLongError
from ..games import game, games
from .common import EXIT_OK, Command, CommandError


def _arguments(listed) -> None:
    """The arguments of ``games``."""
    listed.add_argument("name", nargs="?", metavar="NAME", help="a game: list its options")


def run_games(args, out) -> int:
    """``taolong games``: each game's name, players, chance, hidden information and options;
    with a name, that game's options in full."""
    if args.name is not None:
        try:
            chosen = game(args.name)
        except TaoLongError as exc:
            raise CommandError(f"games: {exc}") from None
        print(f"{chosen.name}: {chosen.title}", file=out)
        cap = f"  the agents' games stop at {chosen.decision_cap} decisions (--max-turns)"
        print(cap, file=out)
        for option in chosen.options:
            values = (
                ", ".join(map(str, option.choices))
                if option.choices
                else f"a whole number from {option.low} to {option.high}"
            )
            print(f"  {option.name} = {option.default}  ({values}): {option.doc}", file=out)
        return EXIT_OK
    rows = [("NAME", "TITLE", "PLAYERS", "CHANCE", "HIDDEN", "OPTIONS")]
    for each in games():
        rows.append(
            (
                each.name,
                each.title,
                ",".join(map(str, sorted(each.players))),
                "yes" if each.chance else "no",
                "yes" if each.hidden else "no",
                ", ".join(o.name for o in each.options) or "-",
            )
        )
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    for row in rows:
        print(
            "  ".join(f"{c:<{w}}" for c, w in zip(row, widths, strict=False)) + "  " + row[5],
            file=out,
        )
    return EXIT_OK


COMMAND = Command("games", "list the registered games (or one's options)", run_games, _arguments)


__all__ = ["COMMAND", "run_games"]

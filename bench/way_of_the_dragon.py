"""Way of the Dragon: the agents' strength, the balance card per player count and the best
dice to keep (docs/games/way-of-the-dragon.md, "Agents", "Balance card", "The best dice to keep").

    .venv/bin/python bench/way_of_the_dragon.py --games 20 --card-games 8 --out wotd.json

Sections (``--only strength,card,keep``):

- ``strength``: two-player matches of ``--games`` games (seats alternating, no random opening):
  Greedy, AlphaBeta (``--nodes`` positions a move) and MCTS (``--nodes`` iterations a move)
  against Random, and AlphaBeta and MCTS against Greedy; each agent's score with its 95 %
  interval;
- ``card``: the balance card of every player count (2 to 5), Greedy in every seat,
  ``--card-games`` games a count;
- ``keep``: the best dice to keep at the first and second roll of a turn from the start, for
  a few rolls, by exact expectimax (the count of one element, and the best move).

Results go to ``--out`` (JSON, written atomically after each section; the match records and
the card beside it, so a rerun resumes them).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from taolong_lab.agents import AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent, match
from taolong_lab.agents.balance import balance_card, table
from taolong_lab.files import write_atomic
from taolong_lab.games import game
from taolong_lab.games.way_of_the_dragon import best_keep, best_move, element_count
from taolong_lab.runner import Runner

GAME = game("way-of-the-dragon")
KEEP_ROLLS = ("WWFMD", "WWFFD", "WFMEO", "WWWDD", "WDDDD", "WFMDD")


def strength(args, folder: Path) -> dict:
    agents = {
        "random": RandomAgent(),
        "greedy": GreedyAgent(),
        "alphabeta": AlphaBetaAgent(nodes=args.nodes),
        "mcts": MCTSAgent(nodes=args.nodes),
    }
    pairs = [("greedy", "random"), ("alphabeta", "random"), ("mcts", "random")]
    pairs += [("alphabeta", "greedy"), ("mcts", "greedy")]
    found = {}
    for a, b in pairs:
        result = match(
            agents[a],
            agents[b],
            games=args.games,
            seed=args.seed,
            start=GAME.new(),
            max_turns=args.max_turns,
            opening=0,
            out=folder / f"wotd-{a}-{b}.jsonl",
            runner=Runner(progress=True),
        )
        found[f"{a} vs {b}"] = {
            "games": result.games,
            "wins": result.wins,
            "losses": result.losses,
            "draws": result.draws,
            "score": result.score,
            "interval": list(result.interval),
        }
        print(result, flush=True)
    return found


def card(args, folder: Path) -> list[dict]:
    made = balance_card(
        {"greedy": GreedyAgent()},
        games=args.card_games,
        game=GAME,
        seed=args.seed,
        max_turns=args.max_turns,
        opening=0,
        out=folder / "wotd-card.json",
        runner=Runner(progress=True),
    )
    rows = table(made)
    for row in rows:
        print(row, flush=True)
    return rows


def keep(args, folder: Path) -> list[dict]:
    rows = []
    for roll in KEEP_ROLLS:
        first = GAME.new().apply(f"roll {roll}")
        for number, state in ((1, first), (2, first.apply("keep -").apply(f"roll {roll}"))):
            water, water_value = best_keep(state, element_count(0))
            move, move_value = best_keep(state, best_move)
            rows.append(
                {
                    "roll": roll,
                    "roll number": number,
                    "water count": water,
                    "expected water": f"{water_value} ({float(water_value):.3f})",
                    "best move": move,
                    "expected best move": round(float(move_value), 3),
                }
            )
            print(rows[-1], flush=True)
    return rows


SECTIONS = {"strength": strength, "card": card, "keep": keep}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--nodes", type=int, default=200)
    parser.add_argument("--card-games", type=int, default=8)
    parser.add_argument("--max-turns", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--only", default=",".join(SECTIONS))
    parser.add_argument("--out", type=Path, default=Path("wotd-bench.json"))
    args = parser.parse_args(argv)
    folder = args.out.resolve().parent
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    for name in args.only.split(","):
        results[name] = SECTIONS[name](args, folder)
        write_atomic(args.out, json.dumps(results, indent=1, default=str).encode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

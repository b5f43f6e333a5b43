"""Long Tau: the agents' strength, its balance card and its endgame tables
(docs/games/long-tau.md, "Agents", "Balance card" and "Endgames").

    .venv/bin/python bench/long_tau.py --only strength --games 20 --nodes 300
    .venv/bin/python bench/long_tau.py --only card --card-games 20 --nodes 300
    .venv/bin/python bench/long_tau.py --only endgames

Sections (``--only strength,card,endgames``):

- ``strength``: Greedy, AlphaBeta and MCTS (``--nodes`` positions a move) each against Random
  and, the search agents, against Greedy: ``--games`` games, sides alternating, 4 random
  opening plies, the game's default options (200 turns);
- ``card``: the balance card of the two- and four-player game played by Greedy, and of the
  two-player game by AlphaBeta at ``--nodes`` positions a move (alpha-beta plays two
  players), ``--card-games`` games a cell;
- ``endgames``: the retrograde tables of 2 v 1 pawns on the whole board, and of 3 v 1 and
  2 v 2 with the side areas closed.

Results go to ``--out`` (JSON, atomically, after each section; match records and the card
beside it, so a rerun resumes them).
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
from taolong_lab.games.long_tau.endgames import endgame
from taolong_lab.runner import Runner

LONG_TAU = game("long-tau")


def strength(args, folder: Path) -> dict:
    agents = {
        "random": RandomAgent(),
        "greedy": GreedyAgent(),
        "alphabeta": AlphaBetaAgent(nodes=args.nodes),
        "mcts": MCTSAgent(nodes=args.nodes),
    }
    pairs = [("greedy", "random"), ("alphabeta", "random"), ("mcts", "random")]
    pairs += [("alphabeta", "greedy"), ("mcts", "greedy")]
    out = []
    for first, second in pairs:
        result = match(
            agents[first],
            agents[second],
            games=args.games,
            seed=args.seed,
            start=LONG_TAU.new(),
            out=folder / f"{first}-vs-{second}.jsonl",
            runner=Runner(progress=True),
        )
        print(f"{first} vs {second}: {result}", flush=True)
        out.append(
            {
                "first": first,
                "second": second,
                "wins": result.wins,
                "losses": result.losses,
                "draws": result.draws,
                "score": result.score,
                "interval": list(result.interval),
            }
        )
    return {"nodes": args.nodes, "games": args.games, "matches": out}


def card(args, folder: Path) -> dict:
    """Greedy on two and four players; alpha-beta (two players only) on two."""
    rows = []
    for name, levels, variants in (
        ("greedy", {"greedy": GreedyAgent()}, [{"players": 2}, {"players": 4}]),
        ("alphabeta", {"alphabeta": AlphaBetaAgent(nodes=args.nodes)}, [{"players": 2}]),
    ):
        result = balance_card(
            levels,
            game=LONG_TAU,
            variants=variants,
            games=args.card_games,
            seed=args.seed,
            out=folder / f"long-tau-card-{name}.json",
            runner=Runner(progress=True),
        )
        rows += table(result)
    for row in rows:
        print(row, flush=True)
    return {"rows": rows}


def endgames(args) -> dict:
    out = {}
    for material, sides in (((2, 1), "open"), ((3, 1), "closed"), ((2, 2), "closed")):
        solved = endgame(material, sides=sides, progress=True)
        rows = {}
        for north in range(1, material[0] + 1):
            for south in range(1, material[1] + 1):
                for mover in (0, 1):
                    rows[f"{north} v {south}, to move {mover}"] = solved.summary(
                        (north, south), mover
                    )
        out[f"{material} {sides}"] = rows
        print(material, sides, json.dumps(rows), flush=True)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="strength,card,endgames")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--card-games", type=int, default=20)
    parser.add_argument("--nodes", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=Path("bench-long-tau/results.json"))
    args = parser.parse_args(argv)
    folder = args.out.parent
    folder.mkdir(parents=True, exist_ok=True)
    results = json.loads(args.out.read_text()) if args.out.exists() else {}
    sections = {"strength": lambda: strength(args, folder), "card": lambda: card(args, folder)}
    sections["endgames"] = lambda: endgames(args)
    for name in args.only.split(","):
        results[name] = sections[name]()
        write_atomic(args.out, json.dumps(results, indent=1).encode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

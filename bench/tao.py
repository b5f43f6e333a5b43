"""TAO: the agents' strength, each pair a small seeded match per version, or (``--balance``)
the balance card per version (docs/games/tao.md).

    .venv/bin/python bench/tao.py [--games 20] [--nodes 1000] [--version yin|yang]
    .venv/bin/python bench/tao.py --balance [--games 20] [--nodes 300]

Prints one line a pairing and version: the first agent's wins, losses and draws, its score and
the score's 95 % interval; or one line a cell and level of the card. Not a test: the figures
go in the doc with this command.
"""

from __future__ import annotations

import argparse

from taolong_lab.agents import AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent, match
from taolong_lab.agents.balance import balance_card, table
from taolong_lab.games import game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games a pairing and version")
    parser.add_argument("--nodes", type=int, default=1000, help="the search agents' budget")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--balance", action="store_true", help="the balance card instead")
    parser.add_argument(
        "--version", choices=("yin", "yang"), action="append", help="the versions (default both)"
    )
    args = parser.parse_args()
    tao = game("tao")
    if args.balance:
        levels = {"greedy": GreedyAgent(samples=4), "mcts": MCTSAgent(nodes=args.nodes)}
        card = balance_card(levels, game=tao, games=args.games, seed=args.seed, opening=0)
        for row in table(card):
            low, high = row["white 95%"]
            print(
                f"{row['rules']:<74} {row['level']:<6} first wins {row['white wins']:.0%} "
                f"({low:.0%}-{high:.0%}) capped {row['capped']:.0%} "
                f"length {row['length mean']:.0f} branching {row['branching']:.0f} "
                f"lead changes {row['lead change']:.2f} drama {row['drama'] or 0:.2f}",
                flush=True,
            )
        return
    agents = {
        "random": RandomAgent(),
        "greedy": GreedyAgent(samples=4),
        "alphabeta": AlphaBetaAgent(nodes=args.nodes),
        "mcts": MCTSAgent(nodes=args.nodes),
    }
    pairs = [
        ("greedy", "random"),
        ("alphabeta", "random"),
        ("mcts", "random"),
        ("mcts", "greedy"),
        ("mcts", "alphabeta"),
        ("alphabeta", "greedy"),
    ]
    for version in args.version or ("yin", "yang"):
        start = tao.new(version=version)
        for a, b in pairs:
            result = match(
                agents[a], agents[b], games=args.games, seed=args.seed, start=start, opening=0
            )
            low, high = result.interval
            print(
                f"{version:4} {a:>9} vs {b:<9} +{result.wins} -{result.losses} ={result.draws}"
                f"  score {result.score:.0%} (95 % {low:.0%}-{high:.0%})",
                flush=True,
            )


if __name__ == "__main__":
    main()

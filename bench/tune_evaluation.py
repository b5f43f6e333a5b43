"""Tune the evaluation's weights by self-play (docs/agents.md, "How the weights were tuned").

    .venv/bin/python bench/tune_evaluation.py                       # the committed run
    .venv/bin/python bench/tune_evaluation.py --rounds 1 --games 16 # a quick one

A coordinate search: in each round, each weight in turn is scaled up and down by ``--step``
(a weight at 0 tries ±0.5). A candidate plays a match against the current weights, both
sides greedy (one turn ahead, so the match measures the evaluation alone), ``--games`` games
on every scenario (Grasshopper, current edition), colours alternated, after 4 random opening
plies. It replaces the current weights when it scores at least ``--accept`` over all games.
The step halves after a round without a change. Seeded: the same command gives the same
weights. The log (every trial) and the final weights go to ``--out`` (JSON, atomically);
copy the weights into data/evaluation.toml by hand.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from taolong_lab import game_state, new_game
from taolong_lab.agents import GreedyAgent
from taolong_lab.agents.matches import match
from taolong_lab.files import write_atomic
from taolong_lab.games.taolong import default_weights
from taolong_lab.rules import scenario_names


def score(candidate, incumbent, games: int, seed: int, workers: int) -> float:
    """The candidate's score against the incumbent over every scenario."""
    points = total = 0.0
    for k, scenario in enumerate(scenario_names()):
        result = match(
            GreedyAgent(weights=candidate),
            GreedyAgent(weights=incumbent),
            games=games,
            seed=seed * 100 + k,
            start=game_state(new_game(scenario)),
            workers=workers,
        )
        points += result.score * result.games
        total += result.games
    return points / total


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=24, help="games a scenario a trial")
    parser.add_argument("--step", type=float, default=0.5)
    parser.add_argument("--accept", type=float, default=0.53)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--out", default="bench/results/tuning.json")
    args = parser.parse_args(argv)
    current = default_weights()
    log = {"settings": vars(args), "start": current.__dict__, "trials": []}
    step, trial = args.step, 0
    for round_number in range(args.rounds):
        changed = False
        for name in current.names():
            value = getattr(current, name)
            tries = [value * (1 + step), value * (1 - step)] if value else [0.5, -0.5]
            for new in tries:
                trial += 1
                candidate = current.replace(**{name: round(new, 3)})
                got = score(candidate, current, args.games, args.seed + trial, args.workers)
                accepted = got >= args.accept
                log["trials"].append(
                    {
                        "round": round_number,
                        "weight": name,
                        "value": new,
                        "score": got,
                        "accepted": accepted,
                    }
                )
                print(
                    f"round {round_number} {name}={new:.3f}: {got:.3f}"
                    + (" accepted" if accepted else ""),
                    flush=True,
                )
                if accepted:
                    current, changed = candidate, True
                    break
            log["weights"] = current.__dict__
            write_atomic(Path(args.out), (json.dumps(log, indent=1) + "\n").encode())
        if not changed:
            step /= 2
    print(json.dumps(current.__dict__, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

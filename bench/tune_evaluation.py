"""Fit the evaluation's weights to game results: Texel's method (docs/agents.md, "How the weights
were tuned").

    nice -n 10 .venv/bin/python bench/tune_evaluation.py --workers 2     # the committed run
    .venv/bin/python bench/tune_evaluation.py --games 4 --out /tmp/t.json  # a quick one

Self-play first: AlphaBeta at ``--nodes`` positions a move against itself, ``--games`` games
on each of the 8 scenarios (Grasshopper, current edition), colours alternated, each pair of
games opening with the same 4 random plies (``match``; the records go beside ``--out``, one
file a scenario, and a rerun resumes them). Then ``--per-game`` quiet positions are drawn at
random from each game (``taolong_lab.games.taolong.tuning.quiet_samples``), each labelled with
the game's result, and the weights are fitted by logistic regression on the evaluation's own
scale (``tuning.fit``) on the games of ``--train`` of the pairs; the rest are held out, and the
mean cross-entropy of both weightings is reported on each part. The fitted weights go to
``--out`` (JSON, atomically); ``bench/agents.py --only tuning`` plays the match that decides
whether they replace those of data/evaluation.toml.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from taolong_lab.agents import AlphaBetaAgent, match
from taolong_lab.files import write_atomic
from taolong_lab.games import TAOLONG
from taolong_lab.games.taolong import default_weights
from taolong_lab.games.taolong.tuning import fit, loss, quiet_samples
from taolong_lab.rules import scenario_names
from taolong_lab.runner import Runner

HERE = Path(__file__).resolve().parent
OPENING = 4


def self_play(args, folder: Path) -> dict:
    """Every scenario's self-play records, by scenario (resumed from ``folder``)."""
    folder.mkdir(parents=True, exist_ok=True)
    played = {}
    for k, scenario in enumerate(scenario_names()):
        agent = AlphaBetaAgent(nodes=args.nodes)
        result = match(
            agent,
            agent,
            games=args.games,
            seed=args.seed * 100 + k,
            start=TAOLONG.new(scenario=scenario),
            opening=OPENING,
            out=folder / f"{scenario}.jsonl",
            runner=Runner(workers=args.workers, progress=args.progress),
        )
        played[scenario] = result.records
        print(f"{scenario}: {len(result.records)} games", flush=True)
    return played


def samples_of(played: dict, args) -> tuple[list, list]:
    """The quiet positions drawn from each game: those of the training pairs, the held-out."""
    rng = random.Random(f"texel:{args.seed}")
    train, test = [], []
    for records in played.values():
        for index, record in enumerate(records):
            drawn = quiet_samples(record.trajectory(), args.per_game, rng, skip=OPENING)
            part = train if (index // 2) % 10 < round(10 * args.train) else test
            part.extend(drawn)
    return train, test


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=48, help="self-play games a scenario")
    parser.add_argument("--nodes", type=int, default=1000, help="AlphaBeta's positions a move")
    parser.add_argument("--per-game", type=int, default=10, help="quiet positions drawn a game")
    parser.add_argument("--train", type=float, default=0.8, help="the share of pairs fitted")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--progress", action="store_true")
    parser.add_argument("--out", default=str(HERE / "results" / "tuning.json"))
    args = parser.parse_args(argv)
    out = Path(args.out)
    played = self_play(args, out.with_suffix(""))
    train, test = samples_of(played, args)
    scale = TAOLONG.heuristic_scale
    current = default_weights()
    fitted = fit(train, scale=scale, keep=current)
    report = {
        "settings": vars(args),
        "positions": {"train": len(train), "test": len(test)},
        "current": current.__dict__,
        "fitted": fitted.__dict__,
        "loss": {
            "current": {"train": loss(train, current, scale), "test": loss(test, current, scale)},
            "fitted": {"train": loss(train, fitted, scale), "test": loss(test, fitted, scale)},
        },
    }
    write_atomic(out, (json.dumps(report, indent=1) + "\n").encode())
    print(json.dumps({k: report[k] for k in ("positions", "fitted", "loss")}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())

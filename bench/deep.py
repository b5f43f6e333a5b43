"""Deep solo challenges for the SAT solver (issue 6): win-in-8+ starts that make the explicit
solver's Ba Gua x board product blow up.

    .venv/bin/python bench/deep.py --screen --time-limit 240     # SAT on every candidate
    .venv/bin/python bench/deep.py --screen --ids gorge-w-r3     # a few of them
    .venv/bin/python bench/deep.py --screen --write              # ... and (re)write the set
    .venv/bin/python bench/compare.py --file bench/deep-set.jsonl --time-limit 600

How the candidates are made (the provenance of bench/deep-set.jsonl): the rulebook's solo
set-up (both dragons with 3 segments and 4 water, the scenario's own board and start cells,
``solo_game(scenario, player=..., bagua=..., seed=...)``) with the eight Ba Gua stones
**re-dealt** (``bagua="random"``: each stone on a random space, or ``"shuffled"``: stacks of
two on the main spaces, drawn once from ``random.Random(seed)``). A different Ba Gua changes
which elements come when, so the optimum moves (often up: the rulebook deal is a friendly
one), and the explicit solver meets a different set of Ba Gua configurations at every depth.
``--screen`` runs the SAT solver on each candidate with a time budget (one process, one
after the other) and prints one JSON line each; ``--write`` keeps the candidates SAT proved
with an optimum of at least ``--min-optimum`` (default 8) in bench/deep-set.jsonl, with the
proved optimum, the SAT line, and the provenance (generator, set-up, seed, SAT figures).
``--more SCENARIO ... --seeds N ...`` screens further random deals (both players) instead of
the candidates below, and ``--out FILE`` keeps them in ``FILE`` (bench/deep9-set.jsonl was
made so, see its provenance).
``--lookahead next-turn`` deals the same candidates under the other ``solo_lookahead``
reading (ids end in ``-nt``; ``--ids`` takes either form) and ``--write`` then keeps them in
bench/deep-next-turn-set.jsonl, the set whose optima are proved under that reading.
The explicit solver's figures come from ``bench/compare.py`` (600 s budget).

The current set (11 challenges, optima 8 and 9) was written by ``--screen --write
--time-limit 600 --ids`` with the eleven ids in the file, after screening 19 of the 36
candidates with ``--time-limit 400``: The Field and The Gorge (all six deals each), The Valley
as black (all three), The Valley as white (r1, r2) and The Wall as black (r1, r2); the ones
left out have optima 6 and 7. The Cave, The Maze, The Wall as white and The Valley as white
s3 were not screened again.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from taolong_lab import solo_game  # noqa: E402
from taolong_lab.files import write_atomic  # noqa: E402
from taolong_lab.rules import scenario_names  # noqa: E402
from taolong_lab.solvers.sat import solve as sat_solve  # noqa: E402

SETS = {"matter": HERE / "deep-set.jsonl", "next-turn": HERE / "deep-next-turn-set.jsonl"}

# (scenario, player, Ba Gua deal, seed): the candidates screened (see the module docstring)
CANDIDATES = [
    (scenario, player, bagua, seed)
    for scenario in ("gorge", "field", "valley", "maze", "wall", "cave")
    for player in ("white", "black")
    for bagua, seed in (("random", 1), ("random", 2), ("shuffled", 3))
]


def more_candidates(scenarios, seeds):
    """Further random deals (``--more``): each scenario, both players, these seeds."""
    return [
        (scenario, player, "random", seed)
        for scenario in scenarios
        for player in ("white", "black")
        for seed in seeds
    ]


def cid(scenario, player, bagua, seed, lookahead="matter") -> str:
    suffix = "" if lookahead == "matter" else "-nt"
    return f"{scenario}-{player[0]}-{bagua[0]}{seed}{suffix}"


def deal(scenario, player, bagua, seed, lookahead="matter"):
    """The candidate's start: the rulebook set-up, this Ba Gua deal, this reading."""
    return solo_game(scenario, player=player, bagua=bagua, seed=seed, solo_lookahead=lookahead)


def how(scenario, player, bagua, seed, lookahead="matter") -> str:
    """The call that deals the candidate, as the provenance records it."""
    reading = "" if lookahead == "matter" else f", solo_lookahead={lookahead!r}"
    return f"solo_game({scenario!r}, player={player!r}, bagua={bagua!r}, seed={seed}{reading})"


def puzzle_doc(scenario, player, bagua, seed, lookahead="matter", sat=None, seconds=None):
    state = deal(scenario, player, bagua, seed, lookahead)
    reading = "" if lookahead == "matter" else f", the {lookahead} lookahead"
    doc = {
        "format": "taolong-puzzle",
        "version": 1,
        "id": cid(scenario, player, bagua, seed, lookahead),
        "title": f"{scenario.title()}, playing {player}: the rulebook set-up with a "
        f"{bagua} Ba Gua (seed {seed}){reading}",
        "rules": {
            "scenario": scenario,
            "mode": "grasshopper",
            "edition": "current",
            "options": {"solo_lookahead": state.rules.option("solo_lookahead")},
        },
        "start": state.to_tln(),
        "player": player,
        "goal": "win",
        "provenance": {
            "generator": "bench/deep.py",
            "how": how(scenario, player, bagua, seed, lookahead),
            "note": "the rulebook solo set-up (3 segments, 4 water) with the Ba Gua stones "
            "re-dealt; optimum proved by the SAT solver",
        },
    }
    if sat is not None and sat.status == "optimal":
        doc["optimum"] = sat.optimum
        doc["solution"] = sat.line.notation()
        doc["provenance"]["sat"] = {
            "seconds": seconds,
            "cpu_seconds": sat.stats["cpu_seconds"],
            "unsat_horizons": list(sat.certificate.unsat_horizons),
            "refinements": sat.certificate.refinements,
            "conflicts": sat.certificate.conflicts,
        }
    return doc


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--screen", action="store_true", help="run SAT on the candidates")
    parser.add_argument("--ids", nargs="*")
    parser.add_argument("--time-limit", type=float, default=240.0)
    parser.add_argument("--min-optimum", type=int, default=8)
    parser.add_argument(
        "--write",
        action="store_true",
        help="rewrite bench/deep-set.jsonl (bench/deep-next-turn-set.jsonl under next-turn)",
    )
    parser.add_argument(
        "--lookahead",
        choices=("matter", "next-turn"),
        default="matter",
        help="the solo_lookahead reading the candidates are dealt under",
    )
    parser.add_argument(
        "--more",
        nargs="+",
        metavar="SCENARIO",
        choices=scenario_names(),
        help="screen further random deals of these scenarios instead (seeds: --seeds)",
    )
    parser.add_argument("--seeds", nargs="+", type=int, default=list(range(4, 10)))
    parser.add_argument("--out", type=Path, help="write the kept challenges here instead")
    args = parser.parse_args(argv)
    keep = []
    candidates = more_candidates(args.more, args.seeds) if args.more else CANDIDATES
    look = args.lookahead
    for c in candidates:
        if args.ids and not {cid(*c), cid(*c, look)} & set(args.ids):
            continue
        if not args.screen:
            print(json.dumps(puzzle_doc(*c, look)))
            continue
        state = deal(*c, look)
        t0 = time.perf_counter()
        sat = sat_solve(state, time_limit=args.time_limit, progress=False, count_first_turns=False)
        seconds = round(time.perf_counter() - t0, 1)
        row = {
            "id": cid(*c, look),
            "status": sat.status,
            "optimum": sat.optimum,
            "proved_no_win_below": sat.proved_no_win_below,
            "seconds": seconds,
            "cpu_seconds": sat.stats["cpu_seconds"],
            "refinements": sat.certificate.refinements,
            "conflicts": sat.certificate.conflicts,
        }
        print(json.dumps(row), flush=True)
        if sat.status == "optimal" and sat.optimum >= args.min_optimum:
            keep.append(puzzle_doc(*c, look, sat=sat, seconds=seconds))
    out = args.out or (SETS[look] if args.write else None)
    if out is not None:
        write_atomic(out, "".join(json.dumps(d) + "\n" for d in keep).encode())
        print(f"wrote {len(keep)} challenges to {out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

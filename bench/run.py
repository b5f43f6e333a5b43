"""Benchmark the engine on one core: legal-turn generation + play, and random playouts.

    .venv/bin/python bench/run.py                      # table on stdout (make bench)
    .venv/bin/python bench/run.py --json out.json      # also write the figures as JSON
    .venv/bin/python bench/run.py --repeat 9 --games 40

Workloads (best of ``--repeat`` runs each; no multiprocessing):

a. ``legal+play``: for each of the fixed mid-game positions in bench/positions.txt, build a
   fresh ``State(tln)`` (so no cached successors carry over between repetitions), call
   ``legal_turns()`` and then ``play(t)`` for every legal turn t; ``--rounds`` passes over the
   file per run. Rate = applied turns / s.
   ``parse`` times ``State(tln)`` alone; ``legal+play net`` subtracts it.
b. ``playouts``: ``--games`` random games from ``new_game()`` (current edition), seeds 0..G-1,
   ``random.Random(seed).choice(state.legal_turns())`` each turn until the game ends.
   Rates = games / s and turns / s.
c. ``scenarios``: workload a on each position of bench/positions-scenarios.txt (one mid-game
   position per scenario and per mode), ``--scenario-rounds`` passes per run, each position timed
   on its own (best of ``--repeat``) after one untimed warm-up pass over the file. Reported as a
   scenario x mode table of applied turns / s, with the totals per scenario and per mode.
   ``--skip-scenarios`` leaves it out.

Workloads a and b are unchanged since the foundation (commit 2b0bbcf), so their figures compare
with that commit's ``bench/run.py``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing

from taolong_lab import State, __version__, new_game  # noqa: E402

POSITIONS = HERE / "positions.txt"
SCENARIO_POSITIONS = HERE / "positions-scenarios.txt"
TARGET_TURNS_PER_S = 20_000


def load_positions(path: Path = POSITIONS) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [line.strip() for line in lines if line.strip() and not line.startswith("#")]


def parse_only(tlns: list[str], rounds: int = 1) -> int:
    for _ in range(rounds):
        for tln in tlns:
            State(tln)
    return len(tlns) * rounds


def legal_and_play(tlns: list[str], rounds: int = 1) -> int:
    applied = 0
    for _ in range(rounds):
        for tln in tlns:
            state = State(tln)
            turns = state.legal_turns()
            for turn in turns:
                state.play(turn)
            applied += len(turns)
    return applied


def playouts(games: int, edition: str = "current") -> tuple[int, int]:
    turns = 0
    for seed in range(games):
        rng = random.Random(seed)
        state = new_game(edition=edition)
        while not state.is_over():
            state = state.play(rng.choice(state.legal_turns()))
            turns += 1
    return games, turns


def scenario_table(repeat: int, rounds: int, path: Path = SCENARIO_POSITIONS) -> dict:
    """Workload c: legal+play on each scenario/mode position, timed one position at a time."""
    cells: dict[str, dict[str, dict]] = {}
    tlns = load_positions(path)
    legal_and_play(tlns)  # warm-up: builds each rules' tables once, before any timing
    for tln in tlns:
        scenario, mode = tln.split()[0].split("/")[:2]
        seconds, turns = best_of(repeat, legal_and_play, [tln], rounds)
        cells.setdefault(scenario, {})[mode] = {
            "tln": tln,
            "turns": turns,
            "best_s": seconds,
            "turns_per_s": turns / seconds,
        }
    modes = list(dict.fromkeys(m for row in cells.values() for m in row))

    def total(entries) -> dict:
        entries = list(entries)
        turns = sum(e["turns"] for e in entries)
        seconds = sum(e["best_s"] for e in entries)
        return {"turns": turns, "best_s": seconds, "turns_per_s": turns / seconds}

    every = [e for row in cells.values() for e in row.values()]
    return {
        "rounds": rounds,
        "modes": modes,
        "cells": cells,
        "by_scenario": {s: total(row.values()) for s, row in cells.items()},
        "by_mode": {m: total(row[m] for row in cells.values() if m in row) for m in modes},
        "all": total(every),
    }


def best_of(repeat: int, fn, *args):
    """(best wall time in s, fn's result) over ``repeat`` runs."""
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = fn(*args)
        best = min(best, time.perf_counter() - start)
    return best, result


def machine() -> dict:
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "platform": platform.platform(),
        "machine": platform.machine(),
        "processor": platform.processor() or platform.machine(),
        "cpu_count": os.cpu_count(),
        "taolong_lab": __version__,
    }


def run(repeat: int, games: int, rounds: int, scenario_rounds: int = 0) -> dict:
    tlns = load_positions()
    t_parse, n_parse = best_of(repeat, parse_only, tlns, rounds)
    t_legal, n_turns = best_of(repeat, legal_and_play, tlns, rounds)
    t_play, (n_games, n_play_turns) = best_of(repeat, playouts, games)
    net = max(t_legal - t_parse, 1e-9)
    report = {
        "machine": machine(),
        "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "repeat": repeat,
        "rounds": rounds,
        "target_turns_per_s": TARGET_TURNS_PER_S,
        "results": {
            "parse": {
                "positions": n_parse,
                "best_s": t_parse,
                "positions_per_s": n_parse / t_parse,
            },
            "legal_play": {
                "positions": len(tlns) * rounds,
                "turns": n_turns,
                "best_s": t_legal,
                "turns_per_s": n_turns / t_legal,
                "turns_per_s_net_of_parse": n_turns / net,
            },
            "playouts": {
                "games": n_games,
                "turns": n_play_turns,
                "best_s": t_play,
                "games_per_s": n_games / t_play,
                "turns_per_s": n_play_turns / t_play,
            },
        },
    }
    if scenario_rounds:
        report["results"]["scenarios"] = scenario_table(repeat, scenario_rounds)
    return report


def scenario_lines(c: dict) -> list[str]:
    """Workload c as a scenario x mode table of applied turns/s, with totals."""
    modes = c["modes"]
    width = max(12, *(len(m) + 2 for m in modes))
    lines = [
        f"c. legal+play per scenario and mode (applied turns/s; one position each, "
        f"{c['rounds']} passes)",
        "",
        f"{'scenario':<10}" + "".join(f"{m:>{width}}" for m in modes) + f"{'all':>{width}}",
        "-" * (10 + width * (len(modes) + 1)),
    ]
    for scenario, row in c["cells"].items():
        rates = "".join(
            f"{row[m]['turns_per_s']:>{width},.0f}" if m in row else f"{'-':>{width}}"
            for m in modes
        )
        lines.append(
            f"{scenario:<10}{rates}{c['by_scenario'][scenario]['turns_per_s']:>{width},.0f}"
        )
    lines.append("-" * (10 + width * (len(modes) + 1)))
    rates = "".join(f"{c['by_mode'][m]['turns_per_s']:>{width},.0f}" for m in modes)
    lines.append(f"{'all':<10}{rates}{c['all']['turns_per_s']:>{width},.0f}")
    return lines


def table(report: dict) -> str:
    m, r = report["machine"], report["results"]
    rows = [
        ("parse State(tln)", r["parse"]["positions"], "positions", r["parse"]["best_s"],
         f"{r['parse']['positions_per_s']:>10,.0f} positions/s"),
        ("a. legal+play", r["legal_play"]["turns"], "turns", r["legal_play"]["best_s"],
         f"{r['legal_play']['turns_per_s']:>10,.0f} turns/s"),
        ("a. legal+play net of parse", r["legal_play"]["turns"], "turns",
         r["legal_play"]["best_s"] - r["parse"]["best_s"],
         f"{r['legal_play']['turns_per_s_net_of_parse']:>10,.0f} turns/s"),
        ("b. random playouts", r["playouts"]["games"], "games", r["playouts"]["best_s"],
         f"{r['playouts']['games_per_s']:>10,.1f} games/s"),
        ("", r["playouts"]["turns"], "turns", r["playouts"]["best_s"],
         f"{r['playouts']['turns_per_s']:>10,.0f} turns/s"),
    ]  # fmt: skip
    lines = [
        f"taolong_lab {m['taolong_lab']} benchmark, best of {report['repeat']}, one core",
        f"Python {m['python']} ({m['implementation']}) on {m['platform']}, "
        f"{m['cpu_count']} CPUs ({m['processor']})",
        "",
        f"{'workload':<28} {'items':>7} {'':<9} {'best s':>8}  rate",
        "-" * 72,
    ]
    for name, count, unit, seconds, rate in rows:
        lines.append(f"{name:<28} {count:>7,} {unit:<9} {seconds:>8.4f}  {rate}")
    rate = r["legal_play"]["turns_per_s"]
    verdict = "meets" if rate >= report["target_turns_per_s"] else "MISSES"
    lines += ["", f"target >= {report['target_turns_per_s']:,} applied turns/s (a): {verdict}"]
    if "scenarios" in r:
        lines += ["", *scenario_lines(r["scenarios"])]
    return "\n".join(lines)


def write_json(path: Path, report: dict) -> None:
    """Write atomically: a temporary file in the same directory, then os.replace."""
    path = path.resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            json.dump(report, handle, indent=2, sort_keys=True)
            handle.write("\n")
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Benchmark taolong_lab on one core.")
    parser.add_argument("--repeat", type=int, default=5, help="runs per workload (best is kept)")
    parser.add_argument("--games", type=int, default=20, help="random playouts per run")
    parser.add_argument(
        "--rounds", type=int, default=5, help="passes over positions.txt per run of workload a"
    )
    parser.add_argument(
        "--scenario-rounds",
        type=int,
        default=50,
        help="passes over each position of positions-scenarios.txt per run of workload c",
    )
    parser.add_argument(
        "--skip-scenarios", action="store_true", help="leave out workload c (scenarios x modes)"
    )
    parser.add_argument("--json", type=Path, default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    if min(args.repeat, args.games, args.rounds, args.scenario_rounds) < 1:
        parser.error("--repeat, --games, --rounds and --scenario-rounds must be at least 1")
    report = run(
        args.repeat, args.games, args.rounds, 0 if args.skip_scenarios else args.scenario_rounds
    )
    print(table(report))
    if args.json:
        write_json(args.json, report)
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

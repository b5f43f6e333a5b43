"""Strength and speed of the agents, and the balance card (docs/agents.md, "Figures").

    .venv/bin/python bench/agents.py                        # the full run: hours on one core
    .venv/bin/python bench/agents.py --games 20 --time 0.1 --card-games 10 --card-nodes 300

Sections (``--only strength,speed,card``):

- ``strength``: matches of ``--games`` games, colours alternated, 4 random opening plies,
  ``--time`` seconds a move for the search agents: AlphaBeta against Greedy (goal: at least
  80 %) and against Random (goal: at least 99 %), then the round robin of Random, Greedy,
  AlphaBeta and MCTS with Bradley–Terry ratings and 95 % intervals;
- ``speed``: positions a second of AlphaBeta and MCTS, each searching ``--time`` seconds
  (at least 0.5) from the positions of bench/positions-scenarios.txt;
- ``card``: the balance card for every scenario × mode of the current edition, Greedy and
  AlphaBeta at ``--card-nodes`` positions a move, ``--card-games`` games a cell.

Results go to ``--out`` (JSON, atomically, after each section; the match records and the
card beside it, so a rerun resumes them).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from taolong_lab import State, game_state
from taolong_lab.agents import match
from taolong_lab.agents.balance import balance_card, summarise_cell, table
from taolong_lab.agents.matches import ratings
from taolong_lab.agents.registry import agent_from_spec, agents
from taolong_lab.files import write_atomic

HERE = Path(__file__).resolve().parent


def strength(args, folder: Path) -> dict:
    players = {kind.name: agent_from_spec(kind.name, time=args.time) for kind in agents()}
    results = []
    pairs = _pairs(list(players)) if not args.pairs else [p.split("-") for p in args.pairs]
    for first, second in pairs:
        result = match(
            players[first],
            players[second],
            games=args.games,
            seed=args.seed,
            out=folder / f"{first}-vs-{second}.jsonl",
            progress=True,
        )
        results.append(result)
        print(f"{first} vs {second}: {result}", flush=True)
    named = [_named(r, f, s) for r, (f, s) in zip(results, pairs, strict=True)]
    ladder = ratings(named, seed=args.seed)
    for rating in ladder:
        print(rating, flush=True)
    return {
        "matches": [
            {
                "first": r.first,
                "second": r.second,
                "wins": r.wins,
                "losses": r.losses,
                "draws": r.draws,
                "score": r.score,
                "interval": list(r.interval),
            }
            for r in named
        ],
        "ratings": [r.__dict__ for r in ladder],
    }


def _pairs(names):
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]


def _named(result, first, second):
    import dataclasses

    return dataclasses.replace(result, first=first, second=second)


def speed(args) -> dict:
    positions = [
        game_state(State(line.strip()))
        for line in (HERE / "positions-scenarios.txt").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ][: args.speed_positions]
    seconds = max(args.time, 0.5)
    out = {}
    for name, agent in (
        ("alphabeta", agent_from_spec("alphabeta", time=seconds)),
        ("mcts", agent_from_spec("mcts", time=seconds)),
    ):
        nodes = elapsed = 0.0
        for state in positions:
            start = time.perf_counter()
            agent.choose(state)
            elapsed += time.perf_counter() - start
            if name == "alphabeta":
                nodes += agent.last_search.budget.used
            else:
                nodes += _tree_positions(agent.last_root)
        out[name] = {"positions": len(positions), "nodes_per_second": nodes / elapsed}
        print(f"{name}: {nodes / elapsed:,.0f} positions a second", flush=True)
    return out


def _tree_positions(root) -> int:
    count, stack = 0, [root]
    while stack:
        node = stack.pop()
        count += len(node.children) + len(node.untried or ())
        stack.extend(node.children)
    return count


def card(args, folder: Path) -> dict:
    levels = {
        "greedy": agent_from_spec("greedy"),
        "alphabeta": agent_from_spec(f"alphabeta:nodes={args.card_nodes}"),
    }
    result = balance_card(
        levels,
        games=args.card_games,
        editions=["current"],
        seed=args.seed,
        out=folder / "balance-card.json",
        workers=args.workers,
        progress=True,
    )
    rows = table(result)
    for row in rows:
        print(row, flush=True)
    return {"file": str(folder / "balance-card.json"), "rows": rows}


def card_markdown(card: dict) -> str:
    """The card as docs/agents.md shows it: the games of every cell pooled per level, then a
    row per cell and level (white's win rate with its 95 % interval)."""
    head = (
        "| {first} | games | white wins (95 %) | at the turn cap | turns mean / median "
        "| branching | lead change | drama | decisiveness moves |\n"
        "|---|---:|---|---:|---|---:|---:|---:|---:|\n"
    )
    pooled = {}
    for cell in card["cells"]:
        pooled.setdefault(cell["level"], []).extend(cell["games"])
    out = head.format(first="level")
    for level, games in pooled.items():
        out += _row(level, summarise_cell(games, card["settings"]["seed"]))
    out += "\n" + head.format(first="scenario / mode · level")
    for cell in card["cells"]:
        label = cell["rules"].split("/current")[0]
        out += _row(f"{label} · {cell['level']}", cell["summary"])
    return out


def _row(name: str, s: dict) -> str:
    low, high = s["advantage_p1"]["interval"]

    def num(x, fmt="{:.2f}"):
        return "–" if x is None else fmt.format(x)

    return (
        f"| {name} | {s['games']} | {s['advantage_p1']['value']:.0%} ({low:.0%}–{high:.0%}) "
        f"| {s['capped']['value']:.1%} | {s['length']['mean']['value']:.0f} / "
        f"{s['length']['q50']:.0f} | {num(s['branching']['value'], '{:.1f}')} "
        f"| {num(s['lead_change']['value'])} | {num(s['drama']['value'])} "
        f"| {num(s['decisiveness_moves']['value'])} |\n"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--time", type=float, default=1.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--pairs", nargs="*", help="these pairings only, in this order (e.g. alphabeta-greedy)"
    )
    parser.add_argument("--card-games", type=int, default=100)
    parser.add_argument("--card-nodes", type=int, default=2000)
    parser.add_argument("--speed-positions", type=int, default=16)
    parser.add_argument("--workers", type=int, default=1, help="processes for the card's games")
    parser.add_argument("--only", default="strength,speed,card")
    parser.add_argument("--out", default=str(HERE / "results" / "agents.json"))
    parser.add_argument(
        "--markdown", action="store_true", help="print the stored card as Markdown and stop"
    )
    args = parser.parse_args(argv)
    out = Path(args.out)
    folder = out.with_suffix("")
    if args.markdown:
        print(card_markdown(json.loads((folder / "balance-card.json").read_text())), end="")
        return 0
    folder.mkdir(parents=True, exist_ok=True)
    report = {"settings": vars(args)}
    sections = {
        "strength": lambda: strength(args, folder),
        "speed": lambda: speed(args),
        "card": lambda: card(args, folder),
    }
    for name in args.only.split(","):
        started = time.perf_counter()
        report[name] = sections[name]()
        report[name]["seconds"] = time.perf_counter() - started
        write_atomic(out, (json.dumps(report, indent=1) + "\n").encode())
    return 0


if __name__ == "__main__":
    sys.exit(main())

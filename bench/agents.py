"""Strength and speed of the agents, the search's refinements, the tuned weights and the
balance card (docs/agents.md, "Figures").

    nice -n 10 .venv/bin/python bench/agents.py --only search,tuning,ladder --workers 2
    .venv/bin/python bench/agents.py --only ladder --games 4 --ab-nodes 100 200 400 \
        --mcts-nodes 200 --out /tmp/quick.json                 # a quick one

Every match is played on ``--scenario`` (default The Torus, Grasshopper, current edition: the
shortest games of the balance card), colours alternated, each pair of games opening with the
same 4 random plies drawn from the match's seed, at fixed node budgets (positions made a move),
so the games do not depend on the machine's load. Sections (``--only``, comma-separated):

- ``search``: each refinement of the alpha-beta search (``IMPROVEMENTS``, in that order)
  against the search without it, ``--search-games`` games at ``--search-nodes`` positions a
  move; a refinement is kept (and the next one measured on top of it) when it scores above
  50 %;
- ``tuning``: AlphaBeta with the weights fitted by bench/tune_evaluation.py (``--candidate``)
  against the committed weights, ``--tuning-games`` games at ``--tuning-nodes`` positions a
  move; the new weights are kept only when the lower end of the score's 95 % interval is
  above 50 %;
- ``ladder``: the round robin of Random, Greedy, MCTS at ``--mcts-nodes`` and AlphaBeta at
  each of ``--ab-nodes``, ``--games`` games a pairing, with Bradley–Terry ratings and their
  95 % intervals;
- ``speed``: positions a second of AlphaBeta and MCTS, each searching ``--time`` seconds
  (at least 0.5) from the positions of bench/positions-scenarios.txt; and for the plain search
  and each refinement alone, the positions made to finish depth 3 from each of them and the
  positions made a CPU second (a refinement that makes a position dearer plays worse at equal
  time than at an equal node budget);
- ``card``: the balance card for every scenario × mode of the current edition, Greedy and
  AlphaBeta at ``--card-nodes`` positions a move, ``--card-games`` games a cell.

The games run on ``--workers`` processes (``match`` through the lab's runner). Results go to
``--out`` (JSON, atomically, after each section and each match; the match records and the card
beside it, one file a match, so a rerun resumes them). ``--progress FILE`` appends a line a
finished match.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from taolong_lab import State, game_state
from taolong_lab.agents import MatchResult, match
from taolong_lab.agents.alphabeta import IMPROVEMENTS, Search, check_improvements
from taolong_lab.agents.balance import balance_card, summarise_cell, table
from taolong_lab.agents.base import Budget
from taolong_lab.agents.matches import ratings
from taolong_lab.agents.registry import agent_from_spec
from taolong_lab.files import write_atomic
from taolong_lab.games import TAOLONG
from taolong_lab.games.taolong import default_weights, weights_from
from taolong_lab.runner import Runner

HERE = Path(__file__).resolve().parent


def _start(args):
    return TAOLONG.new(scenario=args.scenario)


def _variant(spec: str, *, improvements=None, weights=None):
    """The agent of a registry spec, with other refinements of the search or other weights."""
    agent = agent_from_spec(spec)
    if improvements is not None:
        agent.improvements = check_improvements(improvements)
    if weights is not None:
        agent.weights = weights
    return agent


def _summary(result, first: str, second: str) -> dict:
    lengths = sorted(len(r.turns) for r in result.records)
    return {
        "first": first,
        "second": second,
        "games": result.games,
        "wins": result.wins,
        "losses": result.losses,
        "draws": result.draws,
        "score": result.score,
        "interval": list(result.interval),
        "turns": {"mean": sum(lengths) / len(lengths), "median": lengths[len(lengths) // 2]},
    }


def _match(args, folder: Path, name: str, a, b, games: int, seed: int) -> dict:
    """A match of ``a`` against ``b`` on the bench's start, resumed from ``folder/name``."""
    started = time.perf_counter()
    folder.mkdir(parents=True, exist_ok=True)
    result = match(
        a,
        b,
        games=games,
        seed=seed,
        start=_start(args),
        runner=Runner(workers=args.workers),
        out=folder / f"{name}.jsonl",
    )
    summary = _summary(result, *name.split("-vs-"))
    _log(args, f"{name}: {result} ({time.perf_counter() - started:.0f} s)")
    return summary


def _log(args, line: str) -> None:
    print(line, flush=True)
    if args.progress:
        with open(args.progress, "a", encoding="utf-8") as handle:
            handle.write(f"{time.strftime('%H:%M:%S')} {line}\n")


def search(args, folder: Path) -> dict:
    """Each refinement against the search without it, kept when it scores above 50 %."""
    kept: tuple = ()
    steps = []
    spec = f"alphabeta:nodes={args.search_nodes}"
    for k, name in enumerate(IMPROVEMENTS):
        trial = (*kept, name)
        label = f"{'+'.join(trial)}-vs-{'+'.join(kept) or 'plain'}"
        summary = _match(
            args,
            folder / "search",
            label,
            _variant(spec, improvements=trial),
            _variant(spec, improvements=kept),
            args.search_games,
            args.seed + k,
        )
        summary.update(improvement=name, against=list(kept), kept=summary["score"] > 0.5)
        steps.append(summary)
        if summary["kept"]:
            kept = trial
    return {"nodes": args.search_nodes, "steps": steps, "kept": list(kept)}


def tuning(args, folder: Path, report: dict) -> dict:
    """The fitted weights against the committed ones; kept when the interval clears 50 %.
    Both search with the refinements the ``search`` section kept, when it ran."""
    fitted = json.loads(Path(args.candidate).read_text(encoding="utf-8"))["fitted"]
    candidate = weights_from(fitted, args.candidate)
    spec = f"alphabeta:nodes={args.tuning_nodes}"
    used = report.get("search", {}).get("kept")
    summary = _match(
        args,
        folder / "tuning",
        "fitted-vs-committed",
        _variant(spec, improvements=used, weights=candidate),
        _variant(spec, improvements=used, weights=default_weights()),
        args.tuning_games,
        args.seed,
    )
    summary.update(
        improvements=used,
        nodes=args.tuning_nodes,
        candidate=candidate.__dict__,
        committed=default_weights().__dict__,
        keep=summary["interval"][0] > 0.5,
    )
    return summary


def ladder_agents(args) -> dict:
    """The ladder's agents by name: Random, Greedy, MCTS and AlphaBeta at each budget."""
    players = {
        "random": agent_from_spec("random"),
        "greedy": agent_from_spec("greedy"),
        f"mcts{args.mcts_nodes}": agent_from_spec(f"mcts:nodes={args.mcts_nodes}"),
    }
    for nodes in args.ab_nodes:
        players[f"alphabeta{nodes}"] = agent_from_spec(f"alphabeta:nodes={nodes}")
    return players


def ladder(args, folder: Path) -> dict:
    """Every pairing of the ladder's agents, then the ratings."""
    players = ladder_agents(args)
    names = list(players)
    pairs = _pairs(names) if not args.pairs else [p.split("-") for p in args.pairs]
    summaries, results = [], []
    for first, second in pairs:
        i, j = names.index(first), names.index(second)
        summary = _match(
            args,
            folder / "ladder",
            f"{first}-vs-{second}",
            players[first],
            players[second],
            args.games,
            args.seed + 1000 * i + j,
        )
        summaries.append(summary)
        results.append(_as_result(summary))
    rated = ratings(results)
    for rating in rated:
        _log(args, str(rating))
    return {
        "scenario": args.scenario,
        "agents": {name: repr(agent) for name, agent in players.items()},
        "matches": summaries,
        "ratings": [r.__dict__ for r in rated],
    }


def _as_result(summary: dict) -> MatchResult:
    return MatchResult(
        summary["first"],
        summary["second"],
        summary["wins"],
        summary["losses"],
        summary["draws"],
        summary["score"],
        tuple(summary["interval"]),
        (),
    )


def _pairs(names):
    return [(a, b) for i, a in enumerate(names) for b in names[i + 1 :]]


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
                nodes += agent.last_search.budget.expanded
            else:
                nodes += _tree_positions(agent.last_root)
        out[name] = {"positions": len(positions), "nodes_per_second": nodes / elapsed}
        print(f"{name}: {nodes / elapsed:,.0f} positions a second", flush=True)
    out["refinements"] = refinement_costs(positions, seconds)
    return out


def refinement_costs(positions, seconds: float) -> dict:
    """For the plain search and each refinement alone: the positions made to finish depth 3
    from each position (fewer: a smaller tree), and the positions made a CPU second while
    searching ``seconds`` from each (the cost of a position)."""
    out = {}
    for used in [(), *((name,) for name in IMPROVEMENTS)]:
        label = "+".join(used) or "plain"
        to_depth = 0
        for state in positions:
            search = Search(None, Budget(None, None), True, used)
            for _ in search.deepen(state, 3):
                pass
            to_depth += search.budget.expanded
        agent = _variant(f"alphabeta:time={seconds}", improvements=used)
        nodes = elapsed = 0.0
        for state in positions:
            start = time.process_time()
            agent.choose(state)
            elapsed += time.process_time() - start
            nodes += agent.last_search.budget.expanded
        out[label] = {"to_depth_3": to_depth, "per_cpu_second": nodes / elapsed}
        print(f"{label}: {to_depth:,} positions to depth 3, {nodes / elapsed:,.0f} a CPU second")
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
        runner=Runner(workers=args.workers, progress=True),
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
    parser.add_argument("--scenario", default="torus", help="the scenario of every match")
    parser.add_argument("--games", type=int, default=200, help="games a pairing of the ladder")
    parser.add_argument("--ab-nodes", type=int, nargs=3, default=[500, 2000, 8000])
    parser.add_argument("--mcts-nodes", type=int, default=2000)
    parser.add_argument("--search-games", type=int, default=200)
    parser.add_argument("--search-nodes", type=int, default=4000)
    parser.add_argument("--tuning-games", type=int, default=200)
    parser.add_argument("--tuning-nodes", type=int, default=4000)
    parser.add_argument("--candidate", default=str(HERE / "results" / "tuning.json"))
    parser.add_argument("--time", type=float, default=1.0, help="seconds a move (speed)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--pairs", nargs="*", help="these pairings of the ladder only (e.g. greedy-random)"
    )
    parser.add_argument("--progress", help="a file to append a line to after each match")
    parser.add_argument("--card-games", type=int, default=100)
    parser.add_argument("--card-nodes", type=int, default=2000)
    parser.add_argument("--speed-positions", type=int, default=16)
    parser.add_argument("--workers", type=int, default=1, help="processes for the games")
    parser.add_argument("--only", default="search,tuning,ladder,speed,card")
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
    report = json.loads(out.read_text()) if out.exists() else {}
    report["settings"] = vars(args)
    sections = {
        "search": lambda: search(args, folder),
        "tuning": lambda: tuning(args, folder, report),
        "ladder": lambda: ladder(args, folder),
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

"""Generate, publish and describe the bundled puzzle sets, ``puzzles/{scenario}-{tier}.jsonl``.

Each set is one :func:`~taolong_lab.puzzles.generate.generate` run per scenario and tier, with
the seed, modes and budgets of :data:`RECIPE` (data, not code: change a row to change a set)
and the turns of the tier (:data:`~taolong_lab.puzzles.grade.TIERS`, the one tier table). A run
writes to ``artifacts/bundle/{scenario}-{tier}.jsonl`` (resumable: rerunning the same command
carries on where it stopped); publishing copies the kept puzzles to
``puzzles/{scenario}-{tier}.jsonl``, sorted by difficulty score, with ids
``{scenario}-{tier}-{n}``. ``puzzles/README.md`` is then written from the files themselves.

    python tools/bundle.py                                generate what is missing, publish, README
    python tools/bundle.py --tier novice --scenario field
    python tools/bundle.py --readme                       only rewrite puzzles/README.md
    python tools/bundle.py --check                        exit 1 if the README is out of date
"""

from __future__ import annotations

import argparse
import math
import sys
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the taolong_lab of this checkout

from taolong_lab.errors import TaoLongError  # noqa: E402
from taolong_lab.files import write_atomic  # noqa: E402
from taolong_lab.puzzles.format import Puzzle, load_puzzles, save_puzzles  # noqa: E402
from taolong_lab.puzzles.generate import generate  # noqa: E402
from taolong_lab.puzzles.grade import TIERS as GRADE_TIERS  # noqa: E402
from taolong_lab.rules import scenario_names  # noqa: E402
from taolong_lab.runner import MAX_WORKERS, Runner  # noqa: E402

PUZZLES = ROOT / "puzzles"
WORK = ROOT / "artifacts" / "bundle"
README = PUZZLES / "README.md"
COMMAND = "python tools/bundle.py"


class RecipeError(TaoLongError):
    """A recipe row that does not fit the tier table; names the tier."""


def tier_span(name: str) -> tuple[int, float]:
    """The optima of a tier of :data:`~taolong_lab.puzzles.grade.TIERS`.

    Parameters
    ----------
    name : str
        The tier.

    Returns
    -------
    tuple
        The fewest and the most turns to win (``math.inf`` for the last tier).

    Raises
    ------
    RecipeError
        An unknown tier.

    >>> tier_span("intermediate"), tier_span("expert")
    ((3, 4), (8, inf))
    """
    low = 1
    for limit, tier in GRADE_TIERS:
        if tier == name:
            return low, limit
        low = limit + 1
    raise RecipeError(f"{name!r} is not a tier of {[t for _, t in GRADE_TIERS]}")


@dataclass(frozen=True)
class Tier:
    """One difficulty tier of the bundled sets: the runs made for it in every scenario.

    Its turns are the tier's span (:func:`tier_span`), up to ``longest`` when given; the last
    tier, which has no upper end, needs it.
    """

    name: str
    count: int  # puzzles wanted per scenario
    modes: tuple[str, ...]
    time_limit: float  # seconds per candidate
    max_states: int | None  # positions per candidate for the explicit solver
    max_candidates: int  # candidates tried per scenario, at most
    seed: int  # the run's seed is seed + the scenario's index
    scenarios: tuple[str, ...] | None = None  # None: every scenario
    sources: tuple[str, ...] = ("random", "played", "backward")
    longest: int | None = None  # the most turns asked for, below the tier's upper end

    def __post_init__(self) -> None:
        if self.longest is None and math.isinf(tier_span(self.name)[1]):
            raise RecipeError(f"tier {self.name!r} has no upper end: give it a longest")

    @property
    def turns(self) -> tuple[int, int]:
        """The fewest and the most turns to win the run asks for."""
        low, high = tier_span(self.name)
        return low, int(high if self.longest is None else min(high, self.longest))


_MODES = ("grasshopper", "monk", "master")
TIERS: tuple[Tier, ...] = (
    Tier("novice", 18, _MODES, 10.0, 20_000, 4000, 81_000),
    Tier("intermediate", 18, _MODES, 20.0, 50_000, 4000, 82_000),
    Tier("advanced", 4, _MODES, 90.0, 400_000, 400, 83_000),
    Tier(
        "expert",
        12,
        ("grasshopper",),
        900.0,
        5_000_000,
        300,
        84_000,
        scenarios=("cave", "field", "gorge", "maze", "valley", "wall"),
        sources=("deep", "played"),
        longest=12,
    ),
)
RECIPE = {tier.name: tier for tier in TIERS}


def set_path(scenario: str, tier: str, root: Path = PUZZLES) -> Path:
    """The file of one set, ``{root}/{scenario}-{tier}.jsonl``.

    Parameters
    ----------
    scenario, tier : str
    root : Path
        The folder (default: the repository's ``puzzles/``).

    Returns
    -------
    Path
    """
    return Path(root) / f"{scenario}-{tier}.jsonl"


def run(scenario: str, tier: Tier, *, workers: int = 2, work: Path = WORK, progress=True):
    """Generate (or resume) one set's run into ``work``.

    Parameters
    ----------
    scenario : str
    tier : Tier
        Its row of :data:`RECIPE`.
    workers : int
        Worker processes.
    work : Path
        The folder of the run's file and its sidecar.
    progress : bool
        Show a progress bar.

    Returns
    -------
    list of Puzzle
        The puzzles kept.
    """
    work.mkdir(parents=True, exist_ok=True)
    return generate(
        tier.count,
        scenarios=(scenario,),
        modes=tier.modes,
        sources=tier.sources,
        turns=tier.turns,
        seed=tier.seed + scenario_names().index(scenario),
        out=set_path(scenario, tier.name, work),
        time_limit=tier.time_limit,
        max_states=tier.max_states,
        max_candidates=tier.max_candidates,
        runner=Runner(workers=workers, progress=progress),
    )


def publish(scenario: str, tier: Tier, *, work: Path = WORK, root: Path = PUZZLES) -> int:
    """Copy a run's puzzles to the bundled file, easiest first, renamed
    ``{scenario}-{tier}-{n}``.

    Parameters
    ----------
    scenario : str
    tier : Tier
    work : Path
        Where the run wrote.
    root : Path
        Where the bundled file goes.

    Returns
    -------
    int
        The puzzles published (0 when the run wrote none).
    """
    source = set_path(scenario, tier.name, work)
    if not source.exists():
        return 0
    found = load_puzzles(source)
    found.sort(key=lambda p: ((p.difficulty or {}).get("score", p.optimum), p.id))
    width = max(2, len(str(len(found))))
    renamed = []
    for n, puzzle in enumerate(found, 1):
        doc = puzzle.to_json()
        doc["id"] = f"{scenario}-{tier.name}-{n:0{width}d}"
        renamed.append(Puzzle.from_json(doc, check_solutions=False))
    if renamed:
        save_puzzles(set_path(scenario, tier.name, root), renamed)
    return len(renamed)


# ---- the README table -----------------------------------------------------------------------
def bundled_sets(root: Path = PUZZLES) -> dict[tuple[str, str], list[Puzzle]]:
    """Every bundled generated set, read from ``root``.

    Parameters
    ----------
    root : Path

    Returns
    -------
    dict
        ``{(scenario, tier): puzzles}``.
    """
    sets = {}
    for scenario in scenario_names():
        for tier in TIERS:
            path = set_path(scenario, tier.name, root)
            if path.exists():
                sets[scenario, tier.name] = load_puzzles(path, check_solutions=False)
    return sets


def readme_text(root: Path = PUZZLES) -> str:
    """``puzzles/README.md`` as the files in ``root`` make it.

    Parameters
    ----------
    root : Path

    Returns
    -------
    str
    """
    sets = bundled_sets(root)
    names = [t.name for t in TIERS]
    total = sum(len(v) for v in sets.values())
    lines = [
        "# The bundled puzzle sets",
        "",
        f"<!-- Written by `{COMMAND} --readme`; do not edit. -->",
        "",
        f"{total} generated solo puzzles in {len(sets)} files `{{scenario}}-{{tier}}.jsonl`, "
        "plus `rulebook-solo.jsonl` (the rulebook's own 16 challenges with the best results "
        "proved). Every puzzle stores its proved optimum, one optimal line, the solver's "
        "certificate and a cross-check by a second, independent search, the number of optimal "
        "first turns and of optimal lines, a fairness and a non-triviality check, a difficulty "
        "score and its features, and its provenance (`docs/puzzles.md`, *Generating puzzles*).",
        "",
        "Tiers, by the optimum (turns to win): "
        + ", ".join(f"**{t.name}** {_span(t)}" for t in TIERS)
        + ".",
        "",
        "## Puzzles per scenario and tier",
        "",
        "| scenario | " + " | ".join(names) + " | total |",
        "|---|" + "---:|" * (len(names) + 1),
    ]
    for scenario in scenario_names():
        counts = [len(sets.get((scenario, t), ())) for t in names]
        lines.append(f"| {scenario} | " + " | ".join(map(str, counts)) + f" | {sum(counts)} |")
    column = [sum(len(sets.get((s, t), ())) for s in scenario_names()) for t in names]
    lines.append("| **all** | " + " | ".join(map(str, column)) + f" | {total} |")
    every = [p for group in sets.values() for p in group]
    optima = Counter(p.optimum for p in every)
    modes = Counter(p.rules.mode for p in every)
    village = sum(1 for p in every if dict(p.rules.options).get("village") is not None)
    sources = Counter((p.provenance or {}).get("source", "?") for p in every)
    lines += [
        "",
        "## What they hold",
        "",
        "- optimum: " + ", ".join(f"win in {k}: {optima[k]}" for k in sorted(optima)),
        "- modes: " + ", ".join(f"{k} {v}" for k, v in sorted(modes.items())),
        f"- the Village variant: {village} (it exists in The Field, The Valley and The Mist)",
        "- candidate sources: " + ", ".join(f"{k} {v}" for k, v in sorted(sources.items())),
        "",
        "## How they were made",
        "",
        "Each file is one `taolong_lab.puzzles.generate` run (seed, modes, turns and budgets "
        "below; the seed is the tier's plus the scenario's index in `data/scenarios/`), "
        "published sorted by difficulty score and renamed `{scenario}-{tier}-{n}`:",
        "",
        "| tier | turns | wanted per scenario | scenarios | modes | sources | seconds per "
        "candidate | positions per candidate | candidates at most | seed |",
        "|---|---|---:|---|---|---|---:|---:|---:|---:|",
    ]
    for t in TIERS:
        lines.append(
            f"| {t.name} | {t.turns[0]}..{t.turns[1]} | {t.count} | "
            f"{', '.join(t.scenarios) if t.scenarios else 'all'} | {', '.join(t.modes)} | "
            f"{', '.join(t.sources)} | {t.time_limit:g} | {t.max_states or 'no limit'} | "
            f"{t.max_candidates} | {t.seed} |"
        )
    lines += [
        "",
        "A tier may hold fewer puzzles than wanted when its candidates ran out (deep puzzles "
        "are rare and slow to prove). The expert tier takes its candidates from the sources "
        "`deep` (`deep-solo/v1`: both dragons whole, a random Ba Gua, at most one random turn) "
        "and `played`, in the six scenarios whose whole-dragon starts reach 8 turns or more "
        "(the atlas: The Mist and The Torus stop at 7); each is proved by the explicit "
        "solver's compiled kernel and cross-checked by SAT like any candidate.",
        "",
        "Regenerate (resumable; the work files go to `artifacts/bundle/`):",
        "",
        "```sh",
        f"{COMMAND}             # every scenario and tier, 2 workers",
        f"{COMMAND} --tier novice --scenario field",
        f"{COMMAND} --readme    # only this table",
        "```",
        "",
        "`make test` replays every stored line, checks every certificate "
        "(`taolong verify`), and fully re-proves a seeded sample; `taolong verify --full "
        "puzzles/FILE.jsonl` re-proves a whole file.",
        "",
    ]
    return "\n".join(lines)


def _span(tier: Tier) -> str:
    low, high = tier_span(tier.name)
    if math.isinf(high):
        return f"{low}+"
    return f"{low}" if low == high else f"{low}–{high}"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0])
    parser.add_argument(
        "--scenario", nargs="+", default=["all"], choices=["all", *scenario_names()]
    )
    parser.add_argument("--tier", nargs="+", default=["all"], choices=["all", *RECIPE])
    parser.add_argument(
        "--workers", type=int, default=2, choices=range(1, MAX_WORKERS + 1), metavar="K"
    )
    parser.add_argument("--readme", action="store_true", help="only rewrite puzzles/README.md")
    parser.add_argument("--check", action="store_true", help="exit 1 if the README is stale")
    parser.add_argument("--no-progress", action="store_true")
    args = parser.parse_args(argv)
    if args.check:
        if not README.exists() or README.read_text(encoding="utf-8") != readme_text():
            print(f"{README} is out of date; run {COMMAND} --readme", file=sys.stderr)
            return 1
        print(f"{README} is up to date")
        return 0
    if not args.readme:
        scenarios = scenario_names() if "all" in args.scenario else args.scenario
        tiers = TIERS if "all" in args.tier else [RECIPE[name] for name in args.tier]
        for tier in tiers:
            for scenario in scenarios:
                if tier.scenarios is not None and scenario not in tier.scenarios:
                    continue
                kept = run(scenario, tier, workers=args.workers, progress=not args.no_progress)
                n = publish(scenario, tier)
                print(f"{scenario}-{tier.name}: {len(kept)} kept, {n} published", flush=True)
    write_atomic(README, readme_text().encode("utf-8"))
    print(f"wrote {README}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The in-process half of the kernel-choice benchmark, run by run.py in its scratch venv
(where every variant is installed): checks every variant against the pure-Python reference
on the whole input set, times them side by side, and times a fresh process's import and
first call. Prints one JSON object.

    python measure.py --repeat 15 --fresh 7 --per-scenario 600
"""

from __future__ import annotations

import argparse
import gc
import importlib
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import inputs  # noqa: E402  (bench/kernel_choice/inputs.py)

VARIANTS = ("capi", "nanobind", "pybind11", "cython", "numba")
# In-process timings count this process's CPU time: on a shared machine a run of a few
# milliseconds that is put aside for another process would count that wait in wall time.
CLOCK = time.process_time
FRESH = ("numpy", "import", "first", "process", "cpu", "rss")

# A fresh process: numpy, then the module, then its board and its first distance.
FIRST_CALL = """
import sys, time
t0 = time.perf_counter()
import numpy as np
t1 = time.perf_counter()
import {module} as m
t2 = time.perf_counter()
data = np.load(sys.argv[1])
board = m.make_board(data["masks"], data["ints"])
t3 = time.perf_counter()
dist = m.approach(board, data["positions"], 0)
t4 = time.perf_counter()
peak = 0  # this process's high-water mark (ru_maxrss would count the parent's fork)
for line in open("/proc/self/status"):
    if line.startswith("VmHWM:"):
        peak = int(line.split()[1]) * 1024
print(t1 - t0, t2 - t1, t4 - t3, dist, peak)
"""


def load_variants() -> dict:
    """Each variant's module, and the pure-Python reference as a variant of its own."""
    return {name: importlib.import_module(f"kc_{name}") for name in VARIANTS}


def check(cases, modules) -> dict:
    """Every variant's distances equal the reference's on every row (else exits), and the
    reference's distances summed up."""
    counts = {"positions": 0, "unreachable": 0, "zero": 0, "distance_sum": 0}
    for case in cases:
        want = inputs.reference(case)
        for name, m in modules.items():
            board = m.make_board(case.masks, case.ints)
            one = [m.approach(board, case.positions, i) for i in range(len(want))]
            out = np.full(len(want), -1, dtype=np.int32)
            m.approach_all(board, case.positions, out)
            for how, got in (("approach", np.array(one)), ("approach_all", out)):
                bad = np.flatnonzero(got != want)
                if bad.size:
                    k = int(bad[0])
                    sys.exit(
                        f"{name}.{how} differs from the reference on {case.scenario} row {k}: "
                        f"{int(got[k])} != {int(want[k])}"
                    )
        counts["positions"] += len(want)
        counts["unreachable"] += int((want == 1000000).sum())
        counts["zero"] += int((want == 0).sum())
        counts["distance_sum"] += int(want[want < 1000000].sum())
    return counts


def time_python(cases) -> float:
    fn = inputs._approach.__wrapped__
    start = CLOCK()
    for case in cases:
        for call in case.calls:
            fn(*call)
    return CLOCK() - start


def time_per_call(m, boards, cases) -> float:
    approach = m.approach
    start = CLOCK()
    for board, case in zip(boards, cases, strict=True):
        positions = case.positions
        for i in range(len(positions)):
            approach(board, positions, i)
    return CLOCK() - start


def time_batch(m, boards, cases, outs) -> float:
    approach_all = m.approach_all
    start = CLOCK()
    for board, case, out in zip(boards, cases, outs, strict=True):
        approach_all(board, case.positions, out)
    return CLOCK() - start


def side_by_side(cases, modules, repeat: int) -> dict:
    """Seconds over the whole input set, ``repeat`` runs of each, the variants taking turns
    (in a rotated order each run): ``{name: {"call": [...], "batch": [...]}}``."""
    boards = {n: [m.make_board(c.masks, c.ints) for c in cases] for n, m in modules.items()}
    outs = [np.empty(len(c.positions), dtype=np.int32) for c in cases]
    times = {"python": {"call": [], "batch": []}}
    times.update({n: {"call": [], "batch": []} for n in modules})
    order = ["python", *modules]
    gc.disable()
    try:
        for run in range(repeat):
            for name in order[run % len(order) :] + order[: run % len(order)]:
                if name == "python":
                    t = time_python(cases)
                    times[name]["call"].append(t)
                    times[name]["batch"].append(t)  # the reference has no batch call
                    continue
                m, b = modules[name], boards[name]
                times[name]["call"].append(time_per_call(m, b, cases))
                times[name]["batch"].append(time_batch(m, b, cases, outs))
    finally:
        gc.enable()
    return times


def fresh_process(module: str, data: Path, env: dict, runs: int) -> dict:
    """Seconds for numpy's import, the module's import and its first call, each in a new
    process, the whole process's wall and CPU time and its peak resident memory in bytes:
    ``runs`` values each."""
    out = {key: [] for key in FRESH}
    code = FIRST_CALL.format(module=module)
    for _ in range(runs):
        start, cpu = time.perf_counter(), _children_cpu()
        done = subprocess.run(
            [sys.executable, "-c", code, str(data)], capture_output=True, text=True, env=env
        )
        out["process"].append(time.perf_counter() - start)
        out["cpu"].append(_children_cpu() - cpu)
        if done.returncode:
            sys.exit(f"a fresh process of {module} failed: {done.stderr[-2000:]}")
        t_numpy, t_import, t_first, _, peak = done.stdout.split()
        out["numpy"].append(float(t_numpy))
        out["import"].append(float(t_import))
        out["first"].append(float(t_first))
        out["rss"].append(int(peak))
    return out


def _children_cpu() -> float:
    """CPU seconds of this process's children that have ended, all added up."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def latencies(case, runs: int, scratch: Path) -> dict:
    """:func:`fresh_process` of every variant; numba three ways: without its cache, with
    an empty cache (the run that fills it) and with a full one."""
    data = scratch / "first-call.npz"
    np.savez(data, masks=case.masks, ints=case.ints, positions=case.positions[:1])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KC_", "NUMBA_"))}
    result = {n: fresh_process(f"kc_{n}", data, env, runs) for n in VARIANTS if n != "numba"}
    result["numba"] = fresh_process("kc_numba", data, env, runs)
    cached = {**env, "KC_NUMBA_CACHE": "1"}
    filling = {key: [] for key in FRESH}
    for k in range(runs):
        cached["NUMBA_CACHE_DIR"] = str(scratch / f"numba-cache-{k}")  # empty each time
        for key, values in fresh_process("kc_numba", data, cached, 1).items():
            filling[key] += values
    result["numba, cache filling"] = filling
    result["numba, cache full"] = fresh_process("kc_numba", data, cached, runs)
    return result


def summary(values: list[float]) -> dict:
    return {"min": min(values), "median": statistics.median(values), "runs": len(values)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=15, help="timed runs of each variant")
    parser.add_argument("--fresh", type=int, default=7, help="fresh processes of each variant")
    parser.add_argument("--per-scenario", type=int, default=600, help="boards a scenario")
    args = parser.parse_args(argv)
    if not (1 <= args.repeat <= 200 and 1 <= args.fresh <= 50 and 1 <= args.per_scenario <= 5000):
        parser.error("--repeat 1-200, --fresh 1-50, --per-scenario 1-5000")
    cases = inputs.make_cases(args.per_scenario)
    modules = load_variants()
    counts = check(cases, modules)
    times = side_by_side(cases, modules, args.repeat)
    with tempfile.TemporaryDirectory(prefix="kchoice-") as scratch:
        fresh = latencies(cases[0], args.fresh, Path(scratch))
    report = {
        "input": {"scenarios": list(inputs.SCENARIOS), **counts},
        "inprocess": {n: {k: summary(v) for k, v in t.items()} for n, t in times.items()},
        "fresh": {n: {k: summary(v) for k, v in t.items()} for n, t in fresh.items()},
    }
    json.dump(report, sys.stdout, indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())

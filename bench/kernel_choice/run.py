"""The kernel-choice benchmark: one hot function of the solo kernel, the opponent's
approach distance (priority 3), built five ways and measured against the pure-Python engine.

    nice -n 5 .venv/bin/python bench/kernel_choice/run.py            # the table on stdout
    nice -n 5 .venv/bin/python bench/kernel_choice/run.py --json /tmp/kchoice.json
    .venv/bin/python bench/kernel_choice/run.py --venv /tmp/kchoice --reuse  # keep the venv

It makes a scratch venv (``--venv``, under /tmp), pip-installs the build tools and the lab's
own dependencies there, builds a wheel of each variant from a clean copy of its sources
(``--builds`` times, with and without pip's build isolation), installs the wheels, and runs
measure.py in that venv for the speed and the first-call latency. Nothing here is a
dependency of the lab. README.md beside this file has the variants, the figures and the
reading of them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import time
import tomllib
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
VARIANTS = ("capi", "nanobind", "pybind11", "cython", "numba")
# What building the bench needs from PyPI, besides the lab's own dependencies.
TOOLS = ("pip", "setuptools", "wheel", "scikit-build-core", "nanobind", "pybind11", "cython")
TOOLS += ("numba", "numpy")
LABELS = {
    "python": "pure Python (engine)",
    "capi": "(a) C++ + CPython API, setuptools",
    "nanobind": "(b) C++ + nanobind, scikit-build-core",
    "pybind11": "(c) C++ + pybind11, scikit-build-core",
    "cython": "(d) Cython 3 port, setuptools",
    "numba": "(e) numba @njit port",
}
# What installing each needs on the user's machine, and what it brings at run time.
NEEDS = {
    "capi": ("C++ compiler", "none"),
    "nanobind": ("C++ compiler", "none"),
    "pybind11": ("C++ compiler", "none"),
    "cython": ("C compiler (Cython from PyPI)", "none"),
    "numba": ("none", "numba, llvmlite, numpy"),
}
RUNTIME_COMPILE = {
    "numba": "yes: at the first call, each process",
    "numba, cache filling": "yes, and writes the cache",
    "numba, cache full": "loads the cache (checks it, links it)",
}


def sh(cmd: list, **kw) -> subprocess.CompletedProcess:
    """``cmd`` run to its end; its output kept, shown on failure."""
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if done.returncode:
        sys.exit(f"failed: {' '.join(map(str, cmd))}\n{done.stdout[-3000:]}{done.stderr[-3000:]}")
    return done


def make_venv(venv: Path, reuse: bool) -> Path:
    """The scratch venv's python, with the build tools and the lab's dependencies."""
    python = venv / "bin" / "python"
    if reuse and python.exists():
        return python
    shutil.rmtree(venv, ignore_errors=True)
    sh([sys.executable, "-m", "venv", venv])
    lab = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    sh([python, "-m", "pip", "install", "-q", "--upgrade", *TOOLS])
    sh([python, "-m", "pip", "install", "-q", *lab["project"]["dependencies"]])
    return python


def source_copy(variant: str, where: Path) -> Path:
    """A clean copy of a variant's sources, with the kernel's headers as they are."""
    src = where / variant
    shutil.rmtree(src, ignore_errors=True)
    shutil.copytree(HERE / variant, src, ignore=shutil.ignore_patterns("build", "__pycache__"))
    shutil.copytree(ROOT / "native" / "kernel", src / "kernel")
    shutil.copytree(HERE / "common", src / "common")
    return src


def build(python: Path, variant: str, where: Path, isolated: bool) -> tuple[float, float, Path]:
    """Seconds of wall time and of CPU time (every process of it) for a clean wheel build of
    ``variant``, and the wheel."""
    src = source_copy(variant, where / "src")
    wheels = where / "wheels" / variant
    shutil.rmtree(wheels, ignore_errors=True)
    flags = [] if isolated else ["--no-build-isolation"]
    start, cpu = time.perf_counter(), children_cpu()
    sh([python, "-m", "pip", "wheel", "-q", "--no-deps", *flags, "-w", wheels, src])
    seconds, cpu = time.perf_counter() - start, children_cpu() - cpu
    (wheel,) = wheels.glob("*.whl")
    return seconds, cpu, wheel


def children_cpu() -> float:
    """CPU seconds of this process's children that have ended, all added up."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def extra_requires(python: Path, variant: str, where: Path, bare: bool) -> list[str]:
    """What the variant's build backend adds to its build requirements on this machine, or
    (``bare``) on one whose PATH has no cmake nor ninja: scikit-build-core then asks PyPI."""
    src = source_copy(variant, where / "src")
    backend = tomllib.loads((src / "pyproject.toml").read_text())["build-system"]["build-backend"]
    code = f"import {backend} as b, json; print(json.dumps(b.get_requires_for_build_wheel()))"
    env = {**os.environ, "PATH": str(python.parent)} if bare else None
    printed = sh([python, "-c", code], cwd=src, env=env).stdout  # setuptools talks first
    return json.loads(printed.strip().splitlines()[-1])


def wheel_sizes(wheel: Path) -> dict:
    """The wheel's size and the size of the extension inside it (0 for pure Python)."""
    with zipfile.ZipFile(wheel) as z:
        ext = [i.file_size for i in z.infolist() if i.filename.endswith(".so")]
    return {"wheel": wheel.stat().st_size, "so": max(ext, default=0)}


def installed_size(python: Path, dists: list[str]) -> int:
    """Bytes on disk of the installed distributions ``dists`` (numba's run-time weight)."""
    code = (
        "import sys, importlib.metadata as md\n"
        "print(sum(f.locate().stat().st_size for d in sys.argv[1:] "
        "for f in md.distribution(d).files if f.locate().exists()))"
    )
    return int(sh([python, "-c", code, *dists]).stdout)


def versions(python: Path) -> dict:
    code = (
        "import importlib.metadata as md, json, sys\n"
        "print(json.dumps({d: md.version(d) for d in sys.argv[1:]}))"
    )
    names = [t for t in TOOLS if t != "pip"] + ["llvmlite"]
    found = json.loads(sh([python, "-c", code, *names]).stdout)
    cmake = sh(["cmake", "--version"]).stdout.split()[2] if shutil.which("cmake") else None
    ninja = sh(["ninja", "--version"]).stdout.strip() if shutil.which("ninja") else None
    gxx = sh(["g++", "-dumpfullversion"]).stdout.strip() if shutil.which("g++") else None
    return {**found, "system cmake": cmake, "system ninja": ninja, "g++": gxx}


def build_all(python: Path, where: Path, builds: int) -> dict:
    """Per variant: build seconds (plain and isolated), sizes, and extra requirements."""
    out = {}
    for variant in VARIANTS:
        plain, plain_cpu, isolated = [], [], []
        for _ in range(builds):
            seconds, cpu, wheel = build(python, variant, where, isolated=False)
            plain.append(seconds)
            plain_cpu.append(cpu)
            isolated.append(build(python, variant, where, isolated=True)[0])
        sh([python, "-m", "pip", "install", "-q", "--no-deps", "--force-reinstall", wheel])
        out[variant] = {
            "build": plain,
            "build_cpu": plain_cpu,
            "build_isolated": isolated,
            **wheel_sizes(wheel),
            "extra_requires": extra_requires(python, variant, where, bare=False),
            "extra_requires_bare": extra_requires(python, variant, where, bare=True),
        }
    out["numba"]["runtime_deps"] = installed_size(python, ["numba", "llvmlite", "numpy"])
    return out


def mm(values: list[float], scale: float = 1.0, fmt: str = "{:.2f}") -> str:
    """``min / median`` of ``values`` times ``scale``."""
    lo, mid = min(values) * scale, statistics.median(values) * scale
    return f"{fmt.format(lo)} / {fmt.format(mid)}"


def table(report: dict) -> str:
    """The figures as markdown tables, after a line on the input and one on the tools."""
    got = report["measure"]["input"]
    head = [
        f"Input: {got['positions']} positions ({', '.join(got['scenarios'])}), "
        f"{got['zero']} at distance 0, {got['unreachable']} unreachable.",
        "Tools: " + ", ".join(f"{k} {v}" for k, v in report["versions"].items()) + ".",
    ]
    tables = (head, speed_table(report), cost_table(report), startup_table(report))
    return "\n\n".join("\n".join(t) for t in tables)


def speed_table(report: dict) -> list[str]:
    speed, n = report["measure"]["inprocess"], report["measure"]["input"]["positions"]
    py = speed["python"]["call"]["min"]
    lines = [
        "| variant | per call from Python, µs (min / median) | × Python | "
        "whole set in one call, µs a position (min / median) | × Python |",
        "|---|---|---|---|---|",
    ]
    for name, label in LABELS.items():
        call, batch = speed[name]["call"], speed[name]["batch"]
        cells = [f"{call['min'] / n * 1e6:.2f} / {call['median'] / n * 1e6:.2f}"]
        cells.append(f"{py / call['min']:.0f}×" if name != "python" else "1×")
        if name == "python":
            cells += ["(no batch call)", "1×"]
        else:
            cells += [f"{batch['min'] / n * 1e6:.3f} / {batch['median'] / n * 1e6:.3f}"]
            cells.append(f"{py / batch['min']:.0f}×")
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    return lines


def cost_table(report: dict) -> list[str]:
    built = report["build"]
    lines = [
        "| variant | clean build, wall s (min / median) | CPU s | pip-isolated, wall s | "
        ".so KB | wheel KB | run-time dependencies | compiler at install | "
        "cmake + ninja at install |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name in VARIANTS:
        b = built[name]
        so = f"{b['so'] / 1024:.0f}" if b["so"] else "— (pure Python)"
        compiler, deps = NEEDS[name]
        cmake = cmake_cell(b["extra_requires"], b["extra_requires_bare"])
        if "runtime_deps" in b:
            deps += f" ({b['runtime_deps'] / 2**20:.0f} MB installed)"
        cpu = mm(b["build_cpu"]) if "build_cpu" in b else "—"
        row = [LABELS[name], mm(b["build"]), cpu, mm(b["build_isolated"]), so]
        row += [f"{b['wheel'] / 1024:.0f}", deps, compiler, cmake]
        lines.append("| " + " | ".join(row) + " |")
    return lines


def cmake_cell(here: list[str], bare: list[str]) -> str:
    """Whether the build wants cmake and ninja: the system's, else what it takes from PyPI."""
    if not bare:
        return "no"
    return f"yes: the system's, else PyPI's ({', '.join(bare)})" if not here else ", ".join(here)


def startup_table(report: dict) -> list[str]:
    fresh = report["measure"]["fresh"]
    lines = [
        "| variant | import, ms (min / median) | first call, ms | whole process, wall ms | "
        "CPU ms | of which numpy's import, ms | peak memory, MB | compiles at run time |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for name, f in fresh.items():
        label = LABELS.get(name, f"(e) {name}")
        rss = f"{f['rss']['median'] / 2**20:.0f}"
        row = [label, ms(f["import"]), ms(f["first"]), ms(f["process"]), ms(f["cpu"])]
        row += [ms(f["numpy"]), rss]
        lines.append("| " + " | ".join([*row, RUNTIME_COMPILE.get(name, "no")]) + " |")
    return lines


def ms(summary: dict) -> str:
    return f"{summary['min'] * 1e3:.1f} / {summary['median'] * 1e3:.1f}"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--venv", type=Path, default=Path("/tmp/taolong-kchoice"))
    parser.add_argument("--reuse", action="store_true", help="keep an existing scratch venv")
    parser.add_argument("--builds", type=int, default=3, help="clean builds of each variant")
    parser.add_argument("--repeat", type=int, default=15, help="timed runs in the process")
    parser.add_argument("--fresh", type=int, default=7, help="fresh processes of each variant")
    parser.add_argument("--per-scenario", type=int, default=600, help="boards a scenario")
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--table", type=Path, help="only print the tables of a --json file")
    args = parser.parse_args(argv)
    if args.table:
        print(table(json.loads(args.table.read_text(encoding="utf-8"))))
        return 0
    if not 1 <= args.builds <= 20:
        parser.error("--builds takes 1 to 20")
    python = make_venv(args.venv, args.reuse)
    report = {"machine": {"python": platform.python_version(), "cpus": os.cpu_count()}}
    report["versions"] = versions(python)
    report["build"] = build_all(python, args.venv, args.builds)
    measure = [python, HERE / "measure.py", "--repeat", args.repeat, "--fresh", args.fresh]
    measure += ["--per-scenario", args.per_scenario]
    report["measure"] = json.loads(sh(measure).stdout)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(table(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())

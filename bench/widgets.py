"""Benchmark the Explorer widget: the time from a click (the method the button calls) to the
widget's updated state (buttons, tooltips, picture, status, move list). Goal: < 100 ms a click,
solver calls aside.

    .venv/bin/python bench/widgets.py                  # table on stdout (part of make bench)
    .venv/bin/python bench/widgets.py --json out.json  # also write the figures as JSON
    .venv/bin/python bench/widgets.py --repeat 5 --positions 5
    .venv/bin/python bench/widgets.py --browser        # also the round trip in JupyterLab

Workload: the start of the default game, then the first ``--positions`` positions of
bench/positions.txt (two-player) and of bench/positions-solo.txt (solo). For each position a
fresh Explorer is opened on a freshly parsed ``State`` (no cached successors), and one turn is
played by clicks: the first legal Ba Gua space, then the first option of each following choice
(the solo tie, the destination, absorb/expel) until the turn is played. The last click plays
the turn, so its time includes the new position's legal turns (every button's state depends on
them) and its picture. Then ``undo`` and ``redo`` (slider moves), and a puzzle load from the
dropdown. Each click kind is timed best of ``--repeat`` per position; the table gives the median
and the worst position. No kernel and no browser: the time to send the changed traits to a
front end (one comm message per changed trait) comes on top.

``--browser`` also measures that round trip: JupyterLab (token-less, a free local port, a
temporary folder) runs a notebook with an Explorer on the solo start, in Debian's chromium
driven by Playwright (as tests/explorer/test_browser.py does). In the page, a script clicks a
button and waits for the widget to show the result (the next buttons, or the move list of the
turn played): the opponent's tie, the destination, absorb, then undo, ``--clicks`` rounds;
every click is reported (not a best of): this is what the user waits for.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # run from a checkout without installing

from taolong_lab import State, new_game  # noqa: E402
from taolong_lab.explorer import Explorer, bundled_puzzles  # noqa: E402
from taolong_lab.pictures import svg  # noqa: E402

sys.path.insert(0, str(HERE))
from run import machine  # noqa: E402  (bench/run.py)

GOAL_MS = 100.0


def read_positions(path: Path, count: int) -> list[str]:
    lines = [line.strip() for line in path.read_text().splitlines()]
    return [line for line in lines if line and not line.startswith("#")][:count]


def play_by_clicks(tln: str) -> dict[str, float]:
    """Seconds per click for one turn played by clicks from a fresh position."""
    ex = Explorer(State(tln))
    times = {}
    space = next(b for b in ex.space_buttons if not b.disabled)
    index = ex.space_buttons.index(space)
    start = time.perf_counter()
    ex.choose_space(index)
    times["space"] = time.perf_counter() - start
    step = 0
    while ex.index == 0:
        step += 1
        kind = ex.options()[0].kind
        start = time.perf_counter()
        ex.choose(0)
        spent = time.perf_counter() - start
        label = "2nd-phase space" if kind == "space" else kind
        name = "play (last choice)" if ex.index == 1 else f"choose ({label})"
        times[name] = spent
    start = time.perf_counter()
    ex.undo()
    times["undo"] = time.perf_counter() - start
    start = time.perf_counter()
    ex.slider.value = 1  # what dragging the slider or a Play tick does
    times["slider / redo"] = time.perf_counter() - start
    return times


def best(repeat: int, tln: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for _ in range(repeat):
        for name, seconds in play_by_clicks(tln).items():
            out[name] = min(out.get(name, float("inf")), seconds)
    return out


_CLICK_JS = """async ([click, wait]) => {
    const t0 = performance.now();
    document.querySelector(click).click();
    while (!document.querySelector(wait)) {
        await new Promise((resolve) => setTimeout(resolve, 1));
        if (performance.now() - t0 > 10000) return -1;
    }
    return performance.now() - t0;
}"""
_KERNEL_IDLE = """() => {
    const panel = window.jupyterapp && window.jupyterapp.shell.currentWidget;
    const kernel = panel && panel.sessionContext && panel.sessionContext.session
        && panel.sessionContext.session.kernel;
    return !!kernel && kernel.connectionStatus === "connected" && kernel.status === "idle";
}"""


def browser_round_trips(rounds: int) -> dict[str, list[float]]:
    """ms from a click in chromium to the updated widget, per click kind (see the docstring)."""
    import os
    import shutil
    import socket
    import subprocess
    import tempfile
    import urllib.request

    import nbformat
    from playwright.sync_api import sync_playwright

    chromium = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    root = Path(tempfile.mkdtemp(prefix="taolong-bench-"))
    nb = nbformat.v4.new_notebook(  # a kernel named, or JupyterLab asks which one
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        }
    )
    nb.cells = [
        nbformat.v4.new_code_cell(
            "from taolong_lab import solo_game\nfrom taolong_lab.explorer import Explorer\n"
            "ex = Explorer(solo_game())\nex.choose_space('Ea')\nex"
        )
    ]
    nbformat.write(nb, root / "bench.ipynb")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [
        sys.executable, "-m", "jupyter", "lab", f"--ServerApp.port={port}",
        "--ServerApp.ip=127.0.0.1", "--ServerApp.open_browser=False",
        "--IdentityProvider.token=", "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True", "--LabApp.expose_app_in_browser=True",
        f"--ServerApp.root_dir={root}",
    ]  # fmt: skip
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")
    log = (root / "lab.log").open("w")
    server = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    steps = {
        "tie (solo)": (".taolong-choice:enabled", ".taolong-choice:enabled[title='step a3']"),
        "destination": (".taolong-choice:enabled[title='step a3']", ".taolong-effect:enabled"),
        "absorb (plays the turn)": (".taolong-effect:enabled", ".taolong-movelist[data-index='1']"),
        "undo": (
            ".taolong-explorer button[title='take back the last turn']",
            ".taolong-movelist[data-index='0']",
        ),
        "Ba Gua space": (".taolong-space-Ea", ".taolong-choice:enabled"),
    }
    out: dict[str, list[float]] = {name: [] for name in steps}
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                urllib.request.urlopen(f"{url}/api/status", timeout=2)
                break
            except OSError:
                if server.poll() is not None or time.monotonic() > deadline:
                    log.flush()
                    tail = (root / "lab.log").read_text()[-2000:]
                    raise RuntimeError(f"JupyterLab did not start:\n{tail}") from None
                time.sleep(0.5)
        args = ["--disable-gpu", "--disable-dev-shm-usage", "--no-first-run"]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.append("--no-sandbox")
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=args)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(f"{url}/lab/tree/bench.ipynb")
            page.wait_for_function(_KERNEL_IDLE, timeout=90_000)
            page.locator(".jp-Notebook .jp-Cell").first.click()
            page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
            page.locator(".taolong-choice:enabled").first.wait_for(timeout=60_000)
            page.wait_for_timeout(1000)
            for _ in range(rounds):
                for name, (click, wait) in steps.items():
                    page.wait_for_timeout(150)  # let the last update settle
                    out[name].append(page.evaluate(_CLICK_JS, [click, wait]))
            browser.close()
    finally:
        server.terminate()
        server.wait(20)
        log.close()
        shutil.rmtree(root, ignore_errors=True)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5, help="best of N (default 5)")
    parser.add_argument("--positions", type=int, default=10, help="per file (default 10)")
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--browser", action="store_true", help="also time clicks in chromium")
    parser.add_argument("--clicks", type=int, default=10, help="browser rounds (default 10)")
    args = parser.parse_args(argv)

    positions = [new_game().to_tln()]
    positions += read_positions(HERE / "positions.txt", args.positions)
    positions += read_positions(HERE / "positions-solo.txt", args.positions)
    per_kind: dict[str, list[float]] = {}
    for tln in positions:
        for name, seconds in best(args.repeat, tln).items():
            per_kind.setdefault(name, []).append(seconds * 1000)

    # a puzzle from the dropdown, and the parts: opening an Explorer, one picture
    catalogue = list(bundled_puzzles())
    ex = Explorer(new_game())
    load = []
    for key in catalogue[: args.positions]:
        spent = float("inf")
        for _ in range(args.repeat):
            ex.load(new_game(), quiet=True)
            start = time.perf_counter()
            ex.puzzle_menu.value = key
            spent = min(spent, time.perf_counter() - start)
        load.append(spent * 1000)
    if load:
        per_kind["load a puzzle (dropdown)"] = load
    opening, picture = [], []
    for tln in positions:
        spent = float("inf")
        for _ in range(args.repeat):
            state = State(tln)
            start = time.perf_counter()
            Explorer(state)
            spent = min(spent, time.perf_counter() - start)
        opening.append(spent * 1000)
        state = State(tln)
        spent = float("inf")
        for _ in range(args.repeat):
            start = time.perf_counter()
            svg(state, size=460)
            spent = min(spent, time.perf_counter() - start)
        picture.append(spent * 1000)
    per_kind["(open an Explorer)"] = opening
    per_kind["(its picture alone)"] = picture

    print(
        f"Explorer: ms from a click to the updated widget, best of {args.repeat}, over "
        f"{len(positions)} positions (1 start, two-player, solo); goal < {GOAL_MS:.0f} ms"
    )
    print(f"{'click':<26}{'n':>4}{'median':>9}{'worst':>9}  goal")
    rows = {}
    for name, values in per_kind.items():
        med, worst = statistics.median(values), max(values)
        ok = "" if name.startswith("(") else ("ok" if worst < GOAL_MS else "OVER")
        print(f"{name:<26}{len(values):>4}{med:>9.1f}{worst:>9.1f}  {ok}")
        rows[name] = {"n": len(values), "median_ms": round(med, 2), "worst_ms": round(worst, 2)}
    browser_rows = {}
    if args.browser:
        trips = browser_round_trips(args.clicks)
        print(
            f"\nIn JupyterLab + chromium: ms from a click to the updated widget, {args.clicks} "
            "clicks each (all kept, not a best of)"
        )
        print(f"{'click':<26}{'n':>4}{'median':>9}{'worst':>9}  goal")
        everything = []
        for name, values in trips.items():
            if any(v < 0 for v in values):
                print(f"{name:<26} timed out")
                continue
            everything += values
            med, worst = statistics.median(values), max(values)
            print(
                f"{name:<26}{len(values):>4}{med:>9.1f}{worst:>9.1f}  "
                + ("ok" if med < GOAL_MS else "OVER")
            )
            browser_rows[name] = {
                "n": len(values),
                "median_ms": round(med, 2),
                "worst_ms": round(worst, 2),
            }
        if everything:
            everything.sort()
            p90 = everything[int(0.9 * (len(everything) - 1))]
            print(
                f"{'all clicks':<26}{len(everything):>4}{statistics.median(everything):>9.1f}"
                f"{everything[-1]:>9.1f}  p90 {p90:.1f}"
            )
    if args.json:
        doc = {
            "machine": machine(),
            "repeat": args.repeat,
            "goal_ms": GOAL_MS,
            "clicks": rows,
            "browser": browser_rows,
        }
        args.json.write_text(json.dumps(doc, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

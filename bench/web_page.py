"""The web page (``make site``): its time to ready in chromium, and the explicit solver's time
in the page against the same solve natively (docs/performance.md, "The lab in a browser").

    python bench/web_page.py                       build the site, 3 loads, the default challenges
    python bench/web_page.py --ids torus-white field-white --loads 5
    python bench/web_page.py --site build/site     an already built site

Ready: from the page's navigation to the worker's "ready" (Pyodide loaded, the wheels unpacked,
the lab imported, the catalogue read), in seconds of wall clock; the worker's own count from
its start is printed too. The solver: ``Page.solve`` on a rulebook challenge (the search, the
count of optimal first turns and the line), timed inside the page around its call to the
worker, against the same call natively on the pure-Python path (``TAOLONG_PURE=1``, as the page
runs) and with the compiled kernel, each in a fresh process, best of ``--repeat``. Drives
Debian's chromium (``/usr/bin/chromium``) through Playwright; serves the site on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

DEFAULT_IDS = ("torus-white", "torus-black", "mist-black", "mist-white", "wall-black")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
NATIVE = """
import json, sys, time
from taolong_lab.explorer.page import Page
page = Page(solve_time=3600.0)
page.open_puzzle("rulebook", sys.argv[1])
t0 = time.perf_counter()
view = page.solve()
print(json.dumps({"seconds": time.perf_counter() - t0, "length": view["length"]}))
"""


def native(ident: str, pure: bool, repeat: int) -> float:
    """The best wall seconds of ``Page.solve`` on one challenge, natively."""
    env = dict(os.environ, TAOLONG_PURE="1" if pure else "0")
    best = []
    for _ in range(repeat):
        done = subprocess.run(
            [sys.executable, "-c", NATIVE, ident], env=env, capture_output=True, text=True
        )
        if done.returncode != 0:
            raise SystemExit(done.stderr[-2000:])
        best.append(json.loads(done.stdout)["seconds"])
    return min(best)


def in_chromium(url: str, loads: int, ids: list[str], repeat: int) -> dict:
    """Time to ready over ``loads`` fresh pages, then each challenge's solve in the page, each
    followed at once by the same solve natively (pure Python, then the compiled kernel), so
    that the machine's load changes little between the figures compared."""
    from playwright.sync_api import sync_playwright

    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    found = {"ready": [], "worker": [], "stages": [], "warm": [], "solve": {}}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        for _ in range(loads):
            context = browser.new_context()  # no cache shared between loads
            page = context.new_page()
            t0 = time.perf_counter()
            page.goto(url)
            page.wait_for_selector('#loading[data-ready="1"]', timeout=600_000)
            found["ready"].append(time.perf_counter() - t0)
            found["worker"].append(float(page.get_attribute("#loading", "data-seconds")))
            found["stages"].append(json.loads(page.get_attribute("#loading", "data-stages")))
            t0 = time.perf_counter()
            page.reload()  # a second visit: the browser's cache warm
            page.wait_for_selector('#loading[data-ready="1"]', timeout=600_000)
            found["warm"].append(time.perf_counter() - t0)
            context.close()
        page = browser.new_page()
        page.goto(url)
        page.wait_for_selector('#loading[data-ready="1"]', timeout=600_000)
        for ident in ids:
            times = []
            for _ in range(repeat):
                page.evaluate(f"window.taolongCall('open_puzzle', ['rulebook', '{ident}'])")
                seconds, length = page.evaluate(
                    """async () => {
                        const t0 = performance.now();
                        const view = await window.taolongCall('solve', []);
                        return [(performance.now() - t0) / 1000, view.length];
                    }"""
                )
                times.append(seconds)
            pure, kernel = native(ident, True, repeat), native(ident, False, repeat)
            found["solve"][ident] = (min(times), length, pure, kernel)
            print(f"{ident}: page {min(times):.2f} s, pure {pure:.2f} s", file=sys.stderr)
        browser.close()
    return found


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--site", type=Path, default=None, help="a built site (default: build)")
    parser.add_argument("--ids", nargs="+", default=list(DEFAULT_IDS), metavar="ID")
    parser.add_argument("--loads", type=int, default=3, help="page loads timed")
    parser.add_argument("--repeat", type=int, default=1, help="solves per challenge, best kept")
    args = parser.parse_args(argv)
    site = args.site
    if site is None:
        from build_site import build  # tools/build_site.py

        site = build(Path(tempfile.mkdtemp(prefix="taolong-site-")) / "site")
    from build_site import served  # tools/build_site.py

    with served(site) as url:
        found = in_chromium(url, args.loads, args.ids, args.repeat)
    ready, worker = found["ready"], found["worker"]
    stages = {k: statistics.median(s[k] for s in found["stages"]) for k in found["stages"][0]}
    print(
        "the worker's stages (median seconds from its start, each stage's end): "
        + ", ".join(f"{k} {v:.2f}" for k, v in stages.items())
    )
    print(f"a second visit (cache warm): median {statistics.median(found['warm']):.2f} s")
    print(
        f"ready in chromium, {len(ready)} loads: median {statistics.median(ready):.2f} s, "
        f"best {min(ready):.2f} s (the worker's own count: median "
        f"{statistics.median(worker):.2f} s)"
    )
    print(
        "| challenge | optimum | page (chromium) | native, pure Python | ratio | native, "
        "compiled kernel |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for ident in args.ids:
        page_s, length, pure, kernel = found["solve"][ident]
        print(
            f"| {ident} | {length} | {page_s:.2f} s | {pure:.2f} s | {page_s / pure:.1f}× "
            f"| {kernel:.2f} s |"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())

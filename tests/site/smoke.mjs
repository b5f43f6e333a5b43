// The lab in Pyodide under Node: node tests/site/smoke.mjs SITE_DIR
// Loads the site's Pyodide core and wheels (as the page's worker does), then runs the engine, a
// small solve and the page's session; prints one JSON object (tests/test_site.py reads it).
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const site = resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(join(site, "pyodide", "pyodide.mjs")).href);
const started = performance.now();
const pyodide = await loadPyodide({ indexURL: join(site, "pyodide") + "/" });
const loaded = (performance.now() - started) / 1000;
const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_paths()['purelib']");
const { wheels } = JSON.parse(readFileSync(join(site, "wheels.json"), "utf8"));
for (const name of wheels) {
  const bytes = new Uint8Array(readFileSync(join(site, "wheels", name)));
  pyodide.unpackArchive(bytes, "wheel", { extractDir: sitePackages });
}
const answer = pyodide.runPython(`
import json, os, sys, time, warnings
os.environ["TAOLONG_PURE"] = "1"
from taolong_lab import new_game, load_puzzles, solve
from taolong_lab.puzzles import bundle
from taolong_lab.explorer.page import Page, dispatch

game = new_game()
turns = [str(t) for t in game.legal_turns()]
after = game.play("Wa>He a3,a4")
puzzle = {p.id: p for p in load_puzzles(bundle.rulebook_file())}["torus-white"]
t0 = time.perf_counter()
seen = []
found = solve(puzzle, progress=seen.append)
seconds = time.perf_counter() - t0
with warnings.catch_warnings(record=True) as caught:
    warnings.simplefilter("always")
    raced = solve(puzzle, method="race")
from taolong_lab.solvers import SolverError
try:
    solve(puzzle, checkpoint="search.ckpt")
    refused = "not refused"
except SolverError as exc:
    refused = str(exc)
page = Page()
view = json.loads(dispatch(page, "open_puzzle", json.dumps(["rulebook", "torus-white"])))
clicked = json.loads(dispatch(page, "click", json.dumps(["space-He"])))
json.dumps({
    "platform": sys.platform,
    "turns": turns,
    "after": after.to_tln(),
    "status": found.status.value,
    "optimum": found.optimum,
    "line": found.line.notation(),
    "peak_memory_mb": found.stats["peak_memory_mb"],
    "progress_stages": sorted({r["stage"] for r in seen}),
    "solve_seconds": seconds,
    "race": raced.stats["race"],
    "race_warnings": [str(w.message) for w in caught],
    "checkpoint": refused,
    "page_title": view["title"],
    "page_next": clicked["next"],
    "svg": view["svg"][:4],
})
`);
const result = JSON.parse(answer);
result.load_seconds = loaded;
console.log(JSON.stringify(result));

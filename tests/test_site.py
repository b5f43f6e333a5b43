"""The lab's static web page (``make site``), built and run for real, offline:

- a Node smoke test runs the engine, a small solve and the page's session in Pyodide
  (``tests/site/smoke.mjs``), with the site's own Pyodide core and wheels;
- a Playwright test opens the page in Debian's chromium (``/usr/bin/chromium``; never a
  downloaded browser), plays a rulebook challenge to the win by clicking the board and the
  buttons, asks for a hint and looks up an atlas start.

Both skip, saying why, where node, npm (the first build installs the pinned Pyodide with
``npm ci``) or chromium are missing; ``.ci/run`` installs them.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.util
import io
import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from page_clicks import clicks
from tool_scripts import load

from taolong_lab import load_puzzles, new_game
from taolong_lab.puzzles import bundle

ROOT = Path(__file__).resolve().parents[1]
SMOKE = ROOT / "tests" / "site" / "smoke.mjs"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
PYODIDE = ROOT / "site" / "node_modules" / "pyodide"
CHALLENGE = "torus-white"  # a rulebook challenge of optimum 5
WAIT_MS = 180_000  # the page's Python is slow on a loaded machine: wait for answers, not time


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    if shutil.which("node") is None:
        pytest.skip("node is missing: apt-get install -y nodejs npm (.ci/run does)")
    if shutil.which("npm") is None and not PYODIDE.is_dir():
        pytest.skip("npm is missing, and it installs the pinned Pyodide: apt-get install -y npm")
    out = tmp_path_factory.mktemp("site") / "site"
    try:
        return load("build_site").build(out)
    except load("build_site").SiteError as exc:
        pytest.fail(f"make site failed: {exc}")


def test_the_site_holds_pyodide_the_wheels_and_the_page(site):
    lock = json.loads((ROOT / "site" / "package-lock.json").read_text())
    pinned = lock["packages"]["node_modules/pyodide"]["version"]
    assert json.loads((site / "pyodide" / "package.json").read_text())["version"] == pinned
    wheels = json.loads((site / "wheels.json").read_text())["wheels"]
    assert wheels[0].startswith("taolong_lab-") and wheels[0].endswith("-py3-none-any.whl")
    assert any(name.startswith("fastjsonschema-") for name in wheels)
    assert all((site / "wheels" / name).is_file() for name in wheels)
    for name in ("index.html", "app.js", "worker.js", "style.css"):
        assert (site / name).is_file()


def test_the_site_wheels_carry_pyodides_bytecode(site):
    """Every module of the lab's wheel has its pyc, of the page's interpreter (cpython-314)."""
    lab = json.loads((site / "wheels.json").read_text())["wheels"][0]
    names = set(zipfile.ZipFile(site / "wheels" / lab).namelist())
    modules = {n for n in names if n.endswith(".py")}
    assert "taolong_lab/explorer/page.py" in modules
    for module in modules:
        folder, _, stem = module.rpartition("/")
        assert f"{folder}/__pycache__/{stem[:-3]}.cpython-314.pyc" in names, module


def _wheel(files: dict[str, str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as wheel:
        for name, text in files.items():
            wheel.writestr(name, text)
        wheel.writestr("toy-1.dist-info/RECORD", "")
    return out.getvalue()


def test_bytecode_is_added_listed_and_used_without_the_source(tmp_path):
    """tools/site_bytecode.py under this CPython: each module gets an unchecked-hash pyc that
    the RECORD lists with its hash, and the interpreter runs it even when the source changed."""
    bytecode = load("site_bytecode")
    data = bytecode.with_bytecode(_wheel({"toy/__init__.py": "", "toy/m.py": "VALUE = 1\n"}))
    wheel = zipfile.ZipFile(io.BytesIO(data))
    rows = {row.split(",")[0]: row for row in wheel.read("toy-1.dist-info/RECORD").decode().split()}
    cached = importlib.util.cache_from_source("toy/m.py")
    assert set(wheel.namelist()) == set(rows) and cached in rows
    for name, row in rows.items():
        if not name.endswith("RECORD"):
            digest = hashlib.sha256(wheel.read(name)).digest()
            assert (
                row.split(",")[1]
                == "sha256=" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
            ), name
    wheel.extractall(tmp_path)
    (tmp_path / "toy" / "m.py").write_text("VALUE = 2\n")  # the pyc is not checked against it
    done = subprocess.run(
        [sys.executable, "-c", "import toy.m; print(toy.m.VALUE)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.stdout.strip() == "1", done.stderr
    with pytest.raises(ValueError, match="does not compile"):
        bytecode.with_bytecode(_wheel({"toy/bad.py": "def (:\n"}))


def test_the_lab_runs_in_pyodide_under_node(site):
    done = subprocess.run(
        ["node", str(SMOKE), str(site)], capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["platform"] == "emscripten"
    game = new_game()  # the engine in Pyodide agrees with the one here
    assert found["turns"] == [str(turn) for turn in game.legal_turns()]
    assert found["after"] == game.play("Wa>He a3,a4").to_tln()
    assert (found["status"], found["optimum"]) == ("optimal", 5)
    puzzle = {p.id: p for p in load_puzzles(bundle.rulebook_file())}[CHALLENGE]
    replayed = puzzle.start
    for turn in found["line"]:  # the line found in Pyodide wins here too
        replayed = replayed.play(turn)
    assert replayed.outcome().winner == "white" and len(found["line"]) == 5
    assert found["peak_memory_mb"] is None  # unknown in a page, and said so by the CLI
    assert found["progress_stages"] == ["optimal first turns", "positions"]
    assert found["race"]["winner"] == "explicit"
    assert "which starts no processes" in found["race_warnings"][0]
    assert "checkpoints cannot be kept in a web page" in found["checkpoint"]
    assert (found["page_title"], found["page_next"], found["svg"]) == (CHALLENGE, "move", "<svg")


# ---- the page in chromium -----------------------------------------------------------------------
@pytest.fixture(scope="module")
def served(site):
    with load("build_site").served(site) as url:
        yield url


@pytest.fixture(scope="module")
def page(served):
    if not Path(CHROMIUM).exists():
        pytest.skip(f"chromium not found at {CHROMIUM}: apt-get install -y chromium (.ci/run does)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (dev)")
    args = ["--no-sandbox"] if os.geteuid() == 0 else []
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=args)
        tab = browser.new_page(viewport={"width": 1400, "height": 1000})
        errors: list[str] = []
        tab.on("pageerror", lambda exc: errors.append(str(exc)))
        tab.goto(served)
        tab.wait_for_selector('#loading[data-ready="1"]', timeout=WAIT_MS)
        tab.errors = errors
        yield tab
        browser.close()


def _idle(tab) -> None:
    tab.wait_for_selector('#state[data-busy="0"]', timeout=WAIT_MS)


def _state(tab) -> dict:
    return tab.eval_on_selector("#state", "node => ({...node.dataset})")


def _click_board(tab, target: str) -> None:
    kind, _, name = target.partition("-")
    selector = (
        f'#board .space[data-space="{name}"]'
        if kind == "space"
        else (f'#board rect.cell[data-cell="{name}"]')
    )
    box = tab.locator(selector).first.bounding_box()
    tab.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)


def _press(tab, label: str) -> None:
    name = {"absorb": "absorb +", "expel": "expel x"}.get(label, label)
    tab.locator("#choices button, #effects button", has_text=name).first.click()


@pytest.mark.browser
def test_a_rulebook_challenge_is_won_by_clicking(page):
    puzzle = {p.id: p for p in load_puzzles(bundle.rulebook_file())}[CHALLENGE]
    page.select_option("#rulebook", CHALLENGE)
    page.click("#open-rulebook")
    page.wait_for_function(f"document.querySelector('#title').textContent === '{CHALLENGE}'")
    _idle(page)
    state = puzzle.start
    for turn in puzzle.solution:
        ply = int(_state(page)["ply"])
        for kind, how, target in clicks(state, turn):
            _idle(page)
            if _state(page)["next"] != kind:  # the page took a lone option itself
                continue
            picked = _state(page)["picked"]
            _click_board(page, target) if how == "click" else _press(page, target)
            page.wait_for_function(
                f"(s => s.dataset.busy === '0' && (s.dataset.picked !== '{picked}'"
                f" || s.dataset.ply !== '{ply}'))(document.querySelector('#state'))",
                timeout=WAIT_MS,
            )
        assert int(_state(page)["ply"]) == ply + 1, page.inner_text("#messages")
        state = state.play(turn)
    assert page.inner_text("#result") == "you win in 5 turns; the optimum is 5"
    moves = page.locator("#moves li")
    assert moves.count() == 5
    assert puzzle.solution[0] in moves.first.inner_text()
    assert page.locator("#board svg").count() == 1
    assert page.errors == []


@pytest.mark.browser
def test_a_hint_then_an_atlas_start(page):
    page.select_option("#rulebook", "mist-black")
    page.click("#open-rulebook")
    page.wait_for_function("document.querySelector('#title').textContent === 'mist-black'")
    _idle(page)
    page.click("#hint")
    page.wait_for_function(
        "document.querySelector('#messages').textContent.includes('wins in 5 turns')",
        timeout=WAIT_MS,
    )
    said = page.eval_on_selector("#messages", "node => node.textContent")  # details folded
    assert "from the puzzle's stored line" in said
    page.click("summary:has-text('An atlas start')")
    page.select_option("#atlas-scenario", "field")
    page.select_option("#atlas-player", "white")
    page.fill("#atlas-stacks", "WW.BW.BB.WB")
    page.click("#open-atlas")
    page.wait_for_function(
        "document.querySelector('#title').textContent === 'field-white-WW.BW.BB.WB'",
        timeout=WAIT_MS,
    )
    assert "the optimum is 7 turns" in page.inner_text("#messages")
    assert page.inner_text("#state").startswith("turn 1: white to move (solo)")
    assert page.errors == []

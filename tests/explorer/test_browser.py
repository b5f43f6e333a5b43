"""Real-browser tests: JupyterLab in Debian's chromium, driven by Playwright.

- The stored notebooks, opened as they are (not run, not trusted), show their pictures: the
  PNG stored beside each SVG renders as an ``<img>`` in the output area.
- JupyterLab runs notebooks/01-tour.ipynb and two turns are played in the Explorer: one by
  clicks on its picture (a space of the Ba Gua wheel, then a cell of the board), one by its
  buttons; after each click the newest message stands first, above the board.

The browser is ``/usr/bin/chromium`` (``apt-get install -y chromium``; ``CHROMIUM`` overrides the
path), launched through Playwright's ``executable_path``: Playwright's own browsers are never
downloaded. Without chromium the test skips, saying so; ``.ci/run`` installs it. JupyterLab runs
token-less on a free local port (``--allow-root`` when root), in a temporary folder holding a copy
of the notebooks, so the repository's files are never saved over, with its own Jupyter data
folder, so no notebook is trusted. The screenshot goes to
``artifacts/browser/01-tour.png`` (``TAOLONG_ARTIFACTS`` overrides ``artifacts/``).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = ROOT / "notebooks" / "01-tour.ipynb"
STORED = [ROOT / "notebooks" / name for name in ("00-quickstart.ipynb", "01-tour.ipynb")]
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
ARTIFACTS = Path(os.environ.get("TAOLONG_ARTIFACTS", ROOT / "artifacts")) / "browser"

pytestmark = pytest.mark.browser

if not Path(CHROMIUM).exists():
    pytest.skip(
        f"chromium not found at {CHROMIUM}: install it with `apt-get install -y chromium` "
        "(.ci/run does) or set CHROMIUM=/path/to/chromium",
        allow_module_level=True,
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="pip install playwright (dev extra)")
pytest.importorskip("jupyterlab", reason="pip install jupyterlab (dev extra)")

LAUNCH_ARGS = [  # a closed network: no background connections, no GPU
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
if hasattr(os, "geteuid") and os.geteuid() == 0:
    LAUNCH_ARGS.append("--no-sandbox")  # chromium's sandbox refuses to run as root


_KERNEL_IDLE = """() => {
    const panel = window.jupyterapp.shell.currentWidget;
    const kernel = panel && panel.sessionContext && panel.sessionContext.session
        && panel.sessionContext.session.kernel;
    return !!kernel && kernel.connectionStatus === "connected" && kernel.status === "idle";
}"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def lab(tmp_path):
    """A token-less JupyterLab on a free port serving copies of the notebooks: its URL."""
    work = tmp_path / "lab"
    work.mkdir()
    for notebook in {NOTEBOOK, *STORED}:
        shutil.copyfile(notebook, work / notebook.name)
    settings = tmp_path / "settings" / "@jupyterlab" / "apputils-extension"
    settings.mkdir(parents=True)
    # no "news" toast asking to fetch announcements (it could cover the widget)
    (settings / "notification.jupyterlab-settings").write_text(
        json.dumps({"fetchNews": "false", "checkForUpdates": False})
    )
    port = _free_port()
    cmd = [
        sys.executable, "-m", "jupyter", "lab",
        f"--ServerApp.port={port}", "--ServerApp.port_retries=0", "--ServerApp.ip=127.0.0.1",
        "--ServerApp.open_browser=False", "--IdentityProvider.token=", "--ServerApp.password=",
        "--ServerApp.disable_check_xsrf=True", "--LabApp.expose_app_in_browser=True",
        f"--ServerApp.root_dir={work}", f"--LabApp.workspaces_dir={tmp_path / 'workspaces'}",
    ]  # fmt: skip
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        cmd.append("--allow-root")  # JupyterLab refuses to run as root otherwise
    env = {
        **os.environ,
        "JUPYTERLAB_SETTINGS_DIR": str(tmp_path / "settings"),
        "JUPYTER_CONFIG_DIR": str(tmp_path / "config"),
        "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime"),
        "JUPYTER_DATA_DIR": str(tmp_path / "data"),  # its own trust database: none trusted
    }
    log = (tmp_path / "lab.log").open("w")
    proc = subprocess.Popen(cmd, cwd=work, stdout=log, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 90
        while True:
            if proc.poll() is not None or time.monotonic() > deadline:
                log.flush()
                output = (tmp_path / "lab.log").read_text()[-3000:]
                pytest.fail(f"JupyterLab did not start: {' '.join(cmd)}\n{output}")
            try:
                urllib.request.urlopen(f"{url}/api/status", timeout=2)
                break
            except OSError:
                time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(10)
        log.close()


SHOWN_PICTURES = """() => [...document.querySelectorAll('.jp-OutputArea-output img')]
    .filter((img) => img.complete && img.naturalWidth > 100)
    .map((img) => [img.src.slice(-80), img.naturalWidth])"""
SCROLL_DOWN = """() => {
    const box = document.querySelector('.jp-NotebookPanel .jp-WindowedPanel-outer')
        || document.querySelector('.jp-NotebookPanel .jp-Notebook');
    const before = box.scrollTop;
    box.scrollTop = before + 700;
    return box.scrollTop === before;
}"""


def _open(page, url: str) -> None:
    page.goto(url)
    page.wait_for_function("window.jupyterapp !== undefined", timeout=90_000)
    page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)


@pytest.mark.parametrize("stored", STORED, ids=lambda path: path.name)
def test_a_stored_notebook_shows_its_pictures_before_it_runs(lab, stored):
    """Opened as stored, never run and not trusted, the notebook's pictures are there: the
    PNG twin of each SVG output is an ``<img>`` in the output area (JupyterLab would show
    an untrusted SVG as nothing, and the text of its repr)."""
    import nbformat

    outputs = [o for c in nbformat.read(stored, as_version=4).cells for o in c.get("outputs", [])]
    twins = sum(1 for o in outputs if "image/png" in o.get("data", {}))
    assert twins >= 2
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            _open(page, f"{lab}/lab/tree/{stored.name}")
            images = page.locator(".jp-OutputArea-output img")
            images.first.wait_for(timeout=60_000)
            page.wait_for_function(
                """() => [...document.querySelectorAll('.jp-OutputArea-output img')]
                    .some((img) => img.complete && img.naturalWidth > 100)""",
                timeout=30_000,
            )
            seen: dict[str, int] = {}  # the pictures met scrolling down (cells render lazily)
            for _ in range(60):
                for tail, width in page.evaluate(SHOWN_PICTURES):
                    seen[tail] = width
                at_end = page.evaluate(SCROLL_DOWN)
                page.wait_for_timeout(250)
                if at_end:
                    break
            assert len(seen) >= min(twins, 3), f"{stored.name}: {len(seen)} pictures shown"
            if stored.name == "01-tour.ipynb":  # the scenario gallery: one wide picture
                assert max(seen.values()) >= 1200
            text = page.locator(".jp-OutputArea").first.inner_text()
            assert "IPython.core.display.SVG object" not in text
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{stored.stem}-stored.png"))
        except Exception:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(ARTIFACTS / f"{stored.stem}-failure.png"), full_page=True)
            raise
        finally:
            browser.close()


def _newest_message_first(page, explorer, played: str) -> None:
    """The newest message stands first, above the board, and tells the turn just played."""
    first = explorer.locator(".taolong-messages .taolong-msg").first
    assert first.get_attribute("data-age") == "0"
    message = first.bounding_box()
    board = explorer.locator(".taolong-board").bounding_box()
    assert message["y"] + message["height"] <= board["y"] + 1
    assert "now choose" not in explorer.locator(".taolong-messages").inner_text()
    assert played in first.inner_text()
    assert board["width"] >= 480  # a board a person clicks comfortably


def test_run_the_tour_and_play_a_turn_by_clicking(lab):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / "01-tour.png"
    for old in (shot, ARTIFACTS / "01-tour-failure.png"):
        old.unlink(missing_ok=True)
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=LAUNCH_ARGS)
        page = browser.new_page(viewport={"width": 1400, "height": 1000})
        try:
            page.goto(f"{lab}/lab/tree/{NOTEBOOK.name}")
            page.wait_for_function("window.jupyterapp !== undefined", timeout=90_000)
            page.wait_for_selector(".jp-Notebook .jp-Cell", timeout=60_000)
            # the kernel must be connected and idle before "run all", or nothing runs
            page.wait_for_function(_KERNEL_IDLE, timeout=90_000)
            page.locator(".jp-Notebook .jp-Cell").first.click()  # commands act on the focus
            page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
            page.wait_for_selector(".jp-InputPrompt:has-text('[1]')", timeout=60_000)

            explorer = page.locator(".taolong-explorer").last
            moves = explorer.locator(".taolong-movelist")
            # the notebook's last cell plays two turns in the Explorer
            sync_api.expect(moves).to_have_attribute("data-moves", "2", timeout=120_000)
            board = explorer.locator(".taolong-board")
            before = board.inner_html()
            assert "<svg" in before

            state = explorer.locator(".taolong-status .taolong-state")

            def click_and_wait(target, played: str) -> None:
                """Click (a locator, or a function that clicks), then wait until the kernel
                took it: one more choice picked, or the turn played (a fixed sleep is flaky on
                a loaded machine)."""
                picked = state.get_attribute("data-picked")
                target() if callable(target) else target.click()
                page.wait_for_function(
                    """([picked, played]) => {
                        const s = document.querySelectorAll('.taolong-explorer .taolong-state');
                        const m = document.querySelectorAll('.taolong-explorer .taolong-movelist');
                        const last = s[s.length - 1], moves = m[m.length - 1];
                        return (moves && moves.dataset.moves === played)
                            || (last && last.dataset.picked !== picked);
                    }""",
                    arg=[picked, played],
                    timeout=30_000,
                )

            def click_cell(cell: str) -> None:
                """A click where the cell is, whatever is drawn over it (the head, a mark)."""
                box = board.locator(f"svg rect.cell[data-cell='{cell}']").bounding_box()
                page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)

            def play_a_turn(played: str, on_picture: bool) -> list[str]:
                """Make the choices of one turn until the move list has ``played`` turns: the
                spaces and destinations on the picture or with the buttons (the keyboard's
                way), the other choices with the buttons. The clicks on the picture."""
                clicked = []
                for _ in range(8):
                    if moves.get_attribute("data-moves") == played:
                        break
                    kind = state.get_attribute("data-next")
                    if kind == "space":
                        space = explorer.locator("button.taolong-space:enabled").first
                        abbrev = space.inner_text().split()[0]
                        if on_picture:
                            click_and_wait(
                                board.locator(f"svg .space[data-space='{abbrev}']"), played
                            )
                            clicked.append(f"space {abbrev}")
                        else:
                            click_and_wait(space, played)
                    elif kind == "effect":
                        click_and_wait(
                            explorer.locator("button.taolong-effect:enabled").first, played
                        )
                    else:
                        choice = explorer.locator("button.taolong-choice:enabled").first
                        if on_picture and kind == "move":
                            cell = choice.inner_text().split(",")[-1].strip()
                            click_and_wait(lambda cell=cell: click_cell(cell), played)
                            clicked.append(f"cell {cell}")
                        else:
                            click_and_wait(choice, played)
                sync_api.expect(moves).to_have_attribute("data-moves", played, timeout=30_000)
                return clicked

            clicked = play_a_turn("3", on_picture=True)
            assert clicked[0].startswith("space ") and any(
                c.startswith("cell ") for c in clicked
            ), f"the turn by the picture needs a click on the wheel, then a cell: {clicked}"
            assert clicked[0].split()[1] in moves.locator("li").last.inner_text()
            third = moves.locator("li").last.inner_text().split(" ", 1)[1]
            _newest_message_first(page, explorer, f"played {third}")
            assert play_a_turn("4", on_picture=False) == []
            fourth = moves.locator("li").last.inner_text().split(" ", 1)[1]
            _newest_message_first(page, explorer, f"played {fourth}")
            assert moves.locator("li").count() == 4
            after = board.inner_html()
            assert after != before
            explorer.scroll_into_view_if_needed()
            page.screenshot(path=str(shot))
        except Exception:
            page.screenshot(path=str(ARTIFACTS / "01-tour-failure.png"), full_page=True)
            raise
        finally:
            browser.close()
    assert shot.stat().st_size > 10_000

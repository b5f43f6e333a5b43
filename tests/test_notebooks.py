"""Every notebook in notebooks/ is stored executed, still runs from top to bottom, draws what it
promises, and its stored outputs are current.

The runner is ``make notebooks``'s (``tools/notebooks.py``): nbclient in a fresh ``python3``
kernel of this environment, in notebooks/ as the working directory; the test never writes the
file. What "current" means is ``tools/notebooks.py``'s docstring: the same text outputs and the
same kinds of pictures as a fresh run, not the same bytes, and only the kinds of outputs for a
cell tagged ``volatile`` (a time, or the atlas that a background run adds to).
"""

from __future__ import annotations

import base64
from pathlib import Path

import nbformat
import pytest
from tool_scripts import load

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))

WIDGET = "application/vnd.jupyter.widget-view+json"
EXPECTED = [
    "00-quickstart.ipynb",
    "01-tour.ipynb",
    "02-solo-challenges.ipynb",
    "03-state-graph.ipynb",
    "04-puzzle-sets.ipynb",
    "06-atlas.ipynb",
]


def test_the_notebooks_are_there():
    assert set(EXPECTED) <= {path.name for path in NOTEBOOKS}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_is_stored_executed(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert all(cell.execution_count is not None for cell in code), (
        f"{path.name}: store it executed (make notebooks)"
    )
    assert any(cell.outputs for cell in code), f"{path.name}: store it executed (make notebooks)"
    assert "widgets" not in notebook.metadata, f"{path.name}: do not save the widget state"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_every_stored_picture_shows_in_a_notebook_not_trusted(path):
    """JupyterLab renders neither the SVG nor the SVG inside HTML of a notebook it does not
    trust, but it renders a PNG: each SVG output has its PNG twin, and no HTML output holds
    a picture."""
    notebook = nbformat.read(path, as_version=4)
    outputs = [out for cell in notebook.cells for out in cell.get("outputs", [])]
    for out in outputs:
        data = out.get("data", {})
        if "image/svg+xml" in data:
            png = base64.b64decode(data.get("image/png", ""))
            assert png.startswith(b"\x89PNG"), f"{path.name}: an SVG without its PNG twin"
        assert "<svg" not in data.get("text/html", ""), f"{path.name}: an SVG inside HTML"


def _run(path: Path):
    """The notebook run afresh (all its outputs), and its stored outputs' differences with it."""
    notebooks = load("notebooks")
    try:
        fresh = notebooks.execute(path)
    except Exception as exc:  # nbclient's CellExecutionError names the cell, with its traceback
        pytest.fail(f"{path.name}: {exc}", pytrace=False)
    stale = notebooks.differences(nbformat.read(path, as_version=4), notebooks.stored(fresh))
    outputs = [out for cell in fresh.cells for out in cell.get("outputs", [])]
    return outputs, stale


def _count(outputs, mime: str) -> int:
    return sum(1 for out in outputs if mime in out.get("data", {}))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_runs_and_its_stored_outputs_are_current(path):
    outputs, stale = _run(path)
    assert not stale, f"{path.name} is not current (make notebooks): " + "; ".join(stale)
    svgs, pngs, widgets = (_count(outputs, m) for m in ("image/svg+xml", "image/png", WIDGET))
    name = path.name
    if name == "00-quickstart.ipynb":
        assert svgs >= 2, "the start and final positions are drawn as SVG"
        assert pngs >= 1, "the life plot"
    elif name == "01-tour.ipynb":
        assert svgs >= 10, "every element, a bite, an expel, a portal, the scenarios"
        assert widgets >= 1, "the game played in the Explorer"
    elif name == "02-solo-challenges.ipynb":
        assert widgets >= 2, "the optimal line and the player's own line in Explorers"
        assert pngs >= 2, "the solver comparison and the film strip"
    elif name == "03-state-graph.ipynb":
        assert pngs >= 4, "per depth, degrees, the layered graph, the share of winnable states"
    elif name == "04-puzzle-sets.ipynb":
        assert pngs >= 1, "the difficulty histograms"
    elif name == "05-balance.ipynb":
        assert pngs >= 4, "the two cards, the review's evaluation graph, the opening table"
        assert svgs >= 2, "the best line, the turn the weaker side should have played"
        text = "".join(out.get("text", "") for out in outputs)
        assert "blunder" in text and "Accuracy (lichess's definition" in text, "the review"
    # every Explorer falls back to its SVG where widgets do not render (GitHub, nbconvert)
    for out in outputs:
        if WIDGET in out.get("data", {}) and "Explorer(" in out["data"].get("text/plain", ""):
            assert "image/svg+xml" in out["data"]

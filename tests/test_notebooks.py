"""Every notebook in notebooks/ runs from top to bottom under nbmake, is saved clean, and draws
what it promises.

nbmake's runner (``nbmake.nb_run.NotebookRun``, the one ``pytest --nbmake`` uses) executes each
notebook in memory, in notebooks/ as the working directory, with the ``python3`` kernel of this
environment: the file on disk is never written. One runner: ``pytest --nbmake notebooks/`` runs
the same notebooks the same way, but without the output checks below.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))
TIMEOUT = 120  # seconds per cell; each notebook runs in seconds

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
def test_notebook_is_saved_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: clear the outputs before saving"
            assert cell.execution_count is None, f"{path.name}: clear the execution counts"
    assert "widgets" not in notebook.metadata, f"{path.name}: do not save the widget state"


def _run(path: Path):
    from nbmake.nb_run import NotebookRun

    result = NotebookRun(path, TIMEOUT).execute()
    if result.error is not None:
        pytest.fail(
            f"{path.name}: cell {result.error.failing_cell_index}: {result.error.summary}\n"
            f"{result.error.trace}",
            pytrace=False,
        )
    return [out for cell in result.nb.cells for out in cell.get("outputs", [])]


def _count(outputs, mime: str) -> int:
    return sum(1 for out in outputs if mime in out.get("data", {}))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_runs(path):
    outputs = _run(path)
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
    # every Explorer falls back to its SVG where widgets do not render (GitHub, nbconvert)
    for out in outputs:
        if WIDGET in out.get("data", {}) and "Explorer(" in out["data"].get("text/plain", ""):
            assert "image/svg+xml" in out["data"]

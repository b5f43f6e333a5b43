"""Every notebook in notebooks/ runs from top to bottom without an error, and is saved clean.

Each notebook runs in a temporary copy (the repository's file is never touched) with the
``python3`` kernel of the running interpreter, at most 120 s per cell.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert any(path.name == "00-quickstart.ipynb" for path in NOTEBOOKS)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_is_saved_without_outputs(path):
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            assert cell.outputs == [], f"{path.name}: clear the outputs before saving"
            assert cell.execution_count is None, f"{path.name}: clear the execution counts"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.name)
def test_notebook_runs(path, tmp_path):
    copy = tmp_path / path.name
    shutil.copyfile(path, copy)
    notebook = nbformat.read(copy, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=120,
        kernel_name="python3",
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()  # raises CellExecutionError, naming the cell, on the first error
    errors = [
        output
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if output.output_type == "error"
    ]
    assert not errors
    if path.name == "00-quickstart.ipynb":
        outputs = [out for cell in notebook.cells for out in cell.get("outputs", [])]
        svgs = [out for out in outputs if "image/svg+xml" in out.get("data", {})]
        assert len(svgs) >= 2, "the start and final positions are drawn as SVG"
        assert any("image/png" in out.get("data", {}) for out in outputs), "the life plot"

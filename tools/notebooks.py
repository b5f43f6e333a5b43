"""The notebooks of notebooks/, stored executed: the repository's page shows their pictures.

    python tools/notebooks.py                 # execute every notebook in place (make notebooks)
    python tools/notebooks.py 01-tour.ipynb   # only these
    python tools/notebooks.py --check         # exit 1 if a stored notebook is not current

Each notebook runs top to bottom with nbclient in a fresh ``python3`` kernel of this
environment, in notebooks/ as the working directory, with ``PYTHONHASHSEED=0`` (the
notebooks seed their own random draws). What is stored is :func:`stored`: the outputs
without the live widget views (their model ids change on every run and no widget state is
saved: the Explorer's picture stays, as its SVG) and without the run's timings, and with a
PNG twin beside each SVG output (:func:`png_twin`): JupyterLab does not render the SVG of a
notebook it does not trust, but it shows a PNG, so the stored notebooks show their pictures as
soon as they are opened (``make lab`` trusts them as well, so the SVG shows there).

A stored notebook is *current* (:func:`differences` finds nothing) when each code cell has
the same outputs in the same order as a fresh run: the same kind (a stream and its name, a
display, a result, an error), the same text (a stream's text, its pieces joined, a display's
``text/plain``),
and the same image types (``image/png``, ``image/svg+xml``), whatever their bytes. A cell
tagged ``volatile`` (its text depends on the machine, as a time, or on files a background
run adds to, as the atlas) is compared by the kinds of its outputs and their image types
only, not by their text or their number.
"""

from __future__ import annotations

import argparse
import base64
import copy
import os
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # run from a checkout without installing

from taolong_lab.files import write_atomic  # noqa: E402

NOTEBOOKS = ROOT / "notebooks"
KERNEL = "python3"
CELL_SECONDS = 300  # a guard against a hang, per cell
WIDGET = "application/vnd.jupyter.widget-view+json"
PNG, SVG = "image/png", "image/svg+xml"
IMAGES = (PNG, SVG)
VOLATILE = "volatile"


def execute(path: Path) -> nbformat.NotebookNode:
    """The notebook at ``path`` run top to bottom in a fresh kernel, with all its outputs
    (:func:`stored` gives what is kept of them).

    Parameters
    ----------
    path : Path

    Returns
    -------
    NotebookNode

    Raises
    ------
    nbclient.exceptions.CellExecutionError
        A cell that failed, with its traceback.
    """
    from nbclient import NotebookClient

    notebook = nbformat.read(path, as_version=4)
    os.environ["PYTHONHASHSEED"] = "0"  # the kernel inherits it
    client = NotebookClient(
        notebook,
        timeout=CELL_SECONDS,
        kernel_name=KERNEL,
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
        store_widget_state=False,
    )
    client.execute()
    return notebook


def png_twin(svg: str) -> str:
    """The PNG of an SVG output, base64 as a notebook stores it: drawn by resvg (the resvg-py
    wheel: no browser, no system library) with matplotlib's DejaVu fonts only, so every
    machine draws the same picture."""
    import matplotlib
    import resvg_py

    fonts = Path(matplotlib.get_data_path()) / "fonts" / "ttf"
    png = resvg_py.svg_to_bytes(
        svg_string=svg,
        skip_system_fonts=True,
        font_dirs=[str(fonts)],
        font_family="DejaVu Sans",
        sans_serif_family="DejaVu Sans",
        serif_family="DejaVu Serif",
        monospace_family="DejaVu Sans Mono",
    )
    return base64.b64encode(bytes(png)).decode("ascii")


def stored(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``notebook`` as it is stored: live widget views and run metadata left out, a
    PNG twin beside each SVG."""
    notebook = copy.deepcopy(notebook)
    notebook.metadata.pop("widgets", None)
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        cell.metadata.pop("execution", None)
        kept = []
        for output in cell.outputs:
            data = output.get("data")
            if data is not None and WIDGET in data:
                data.pop(WIDGET)
                if not data:
                    continue
            if data is not None and SVG in data and PNG not in data:
                svg = data[SVG]
                data[PNG] = png_twin(svg if isinstance(svg, str) else "".join(svg))
            kept.append(output)
        cell.outputs = kept
    return notebook


def summary(cell: nbformat.NotebookNode) -> list[tuple] | set[tuple]:
    """What is compared of a code cell's outputs (see the module's docstring)."""
    volatile = VOLATILE in cell.metadata.get("tags", [])
    out = []
    for output in cell.outputs:
        kind = output.output_type
        if kind == "stream":
            text = None if volatile else output.text
            if out and out[-1][:2] == (kind, output.name):  # a stream may arrive in pieces
                text = None if volatile else out.pop()[2] + text
            out.append((kind, output.name, text))
        elif kind == "error":
            out.append((kind, output.ename, None if volatile else output.evalue))
        else:
            data = output.get("data", {})
            text = None if volatile else data.get("text/plain")
            out.append((kind, text, tuple(m for m in IMAGES if m in data)))
    return set(out) if volatile else out


def differences(stored_notebook, fresh) -> list[str]:
    """Where ``stored_notebook`` is not current with ``fresh``, a run of the same notebook:
    one line a code cell that differs (empty: it is current)."""
    old = [c for c in stored_notebook.cells if c.cell_type == "code"]
    new = [c for c in fresh.cells if c.cell_type == "code"]
    if [c.source for c in old] != [c.source for c in new]:
        return ["the code cells differ from the run's"]
    found = []
    for number, (a, b) in enumerate(zip(old, new, strict=True), 1):
        before, after = summary(a), summary(b)
        if before != after:
            found.append(f"code cell {number}: stored {before!r}, run {after!r}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("names", nargs="*", help="notebooks of notebooks/ (default: all)")
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    args = parser.parse_args(argv)
    paths = [NOTEBOOKS / name for name in args.names] or sorted(NOTEBOOKS.glob("*.ipynb"))
    stale = 0
    for path in paths:
        fresh = stored(execute(path))
        if args.check:
            found = differences(nbformat.read(path, as_version=4), fresh)
            stale += bool(found)
            print(f"{path.name}: " + ("; ".join(found) if found else "current"))
        else:
            write_atomic(path, (nbformat.writes(fresh) + "\n").encode())
            print(f"{path.name}: executed and stored")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())

"""Packaging smoke tests: the installed distribution matches pyproject.toml."""

from __future__ import annotations

import importlib
import importlib.metadata as md
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PYPROJECT = ROOT / "pyproject.toml"
DIST_NAME = "taolong_lab"


@pytest.fixture(scope="module")
def pyproject() -> dict:
    with PYPROJECT.open("rb") as fh:
        return tomllib.load(fh)


def _requirement(pyproject: dict, name: str) -> str:
    """Return the runtime requirement string for distribution *name*."""
    wanted = name.lower().replace("_", "-")
    for req in pyproject["project"]["dependencies"]:
        m = re.match(r"\s*([A-Za-z0-9._-]+)", req)
        assert m, f"unparsable requirement {req!r}"
        if m.group(1).lower().replace("_", "-") == wanted:
            return req
    raise AssertionError(f"{name} is not a runtime dependency in pyproject.toml")


def _version_tuple(version: str) -> tuple[int, ...]:
    return tuple(int(part) for part in re.findall(r"\d+", version)[:3])


def _minimum(req: str) -> str:
    m = re.search(r">=\s*([0-9][0-9.]*)", req)
    assert m, f"{req!r} has no >= lower bound"
    return m.group(1)


# (a) version -----------------------------------------------------------------


def test_version_matches_pyproject(pyproject):
    import taolong_lab

    project = pyproject["project"]
    assert project["name"] == DIST_NAME

    # The version is dynamic: setuptools reads it from taolong_lab/version.py.
    assert "version" in project.get("dynamic", []), "version should be dynamic"
    attr = pyproject["tool"]["setuptools"]["dynamic"]["version"]["attr"]
    assert attr == "taolong_lab.version.__version__"
    version_path = "taolong_lab/version.py"

    source = (ROOT / version_path).read_text(encoding="utf-8")
    m = re.search(r"""^__version__\s*=\s*["']([^"']+)["']""", source, re.MULTILINE)
    assert m, f"no __version__ assignment in {version_path}"

    assert isinstance(taolong_lab.__version__, str)
    assert taolong_lab.__version__ == m.group(1)
    # Installed metadata must agree (stale if the venv was not reinstalled).
    assert md.version(DIST_NAME) == taolong_lab.__version__


# (b) console script ------------------------------------------------------------


def test_console_script_declared(pyproject):
    assert pyproject["project"]["scripts"]["taolong"] == "taolong_lab.cli:main"

    eps = md.entry_points(group="console_scripts").select(name="taolong")
    targets = {ep.value for ep in eps}
    assert targets == {"taolong_lab.cli:main"}, f"console_scripts 'taolong' -> {targets}"
    (ep,) = eps
    assert ep.dist is not None
    assert ep.dist.metadata["Name"].replace("-", "_") == DIST_NAME


# (c) python-sat ----------------------------------------------------------------


def test_python_sat_pinned_version(pyproject):
    req = _requirement(pyproject, "python-sat")
    m = re.fullmatch(r"\s*python-sat\s*==\s*(\S+)\s*", req)
    assert m, f"python-sat must be pinned exactly, got {req!r}"
    assert md.version("python-sat") == m.group(1)


@pytest.mark.parametrize("solver_name", ["g3", "cadical153"])
def test_python_sat_solves(solver_name):
    from pysat.solvers import Solver

    with Solver(name=solver_name) as solver:
        solver.add_clause([1, 2])
        solver.add_clause([-1])
        assert solver.solve() is True
        model = solver.get_model()
        assert 2 in model
        assert -1 in model
        # ... and it can also say no.
        solver.add_clause([-2])
        assert solver.solve() is False


# (d) other runtime deps ------------------------------------------------------


@pytest.mark.parametrize(
    ("module", "dist"),
    [("networkx", "networkx"), ("matplotlib", "matplotlib"), ("tqdm", "tqdm")],
)
def test_runtime_dependency_imports(pyproject, module, dist):
    mod = importlib.import_module(module)
    minimum = _minimum(_requirement(pyproject, dist))
    installed = md.version(dist)
    assert _version_tuple(installed) >= _version_tuple(minimum), (
        f"{dist} {installed} < required {minimum}"
    )
    assert getattr(mod, "__version__", installed) == installed


def test_matplotlib_renders_headless(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([0, 1], [1, 0])
    out = tmp_path / "smoke.png"
    fig.savefig(out)
    plt.close(fig)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"

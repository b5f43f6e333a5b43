"""The module map (docs/architecture.md) as a test: imports point one way, down the layers.

Every module of ``taolong_lab`` is parsed with ``ast`` (nothing is imported) and checked for:

(a) an import from a higher layer, at module level or inside a function; the one exception is
    a function-level import in a value type's notebook hook, listed by name in ``HOOKS``;
(b) an import of a private name (a leading underscore) from another package;
(c) a private attribute of ``State`` (``._env``, ``._walk``, ...) read outside
    ``taolong_lab/engine/``;
(d) a check of a concrete game's type (``isinstance``, ``issubclass`` or ``type(x) is``
    on a class of ``games/`` that derives from ``Game`` or ``GameState``) outside
    ``taolong_lab/games/``: every other package reaches a game through the protocol.

The layer table is ``LAYERS``, one dict. ``ALLOWLIST`` held the violations left while the
packages moved to the target layout (a violation not in it fails, and so does one in it that
is gone, so the list only shrinks); it is empty now.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "taolong_lab"
DOC = ROOT / "docs" / "architecture.md"

PICTURES = "pictures"  # the one picture package: its name is set here only

# Each top-level module or package of taolong_lab -> its layer. A module may import from its
# own package, from the other packages of its layer and from every layer below; "" is the
# package root (taolong_lab/__init__.py), the facade above everything.
LAYERS = {
    "errors": 0,
    "files": 0,
    "readers": 0,
    "limits": 0,
    "markup": 0,
    "processes": 0,
    "runner": 0,
    "version": 0,
    "rules": 1,
    "engine": 2,
    "games": 2.5,  # the game protocol: above the engine, below the solvers and the agents
    "solvers": 3,
    "graph": 3,  # taolong_lab.graph re-exports solvers.graph
    "agents": 4,
    "puzzles": 5,
    PICTURES: 6,
    "cli": 7,
    "explorer": 7,
    "": 8,
}
# Imports allowed in any direction: a value type's notebook hooks draw it with the pictures
# ("module:qualified name" of the function).
HOOKS = {
    "engine.state:State.__str__",
    "engine.state:State._repr_svg_",
    "engine.line:Line._repr_svg_",
}
# Violations allowed while the packages moved to the target layout (see the module docstring):
# none are left, and a new one fails.
ALLOWLIST: set[str] = set()


@dataclass(frozen=True)
class Module:
    """One module of the package: its dotted name below taolong_lab, its package's and its
    path."""

    name: str  # "solvers.sat.encode", "errors", "" for the root
    package: str  # the innermost package: "solvers.sat"; a top-level module is its own
    path: Path

    @property
    def top(self) -> str:
        return self.name.split(".")[0]


def modules(base: Path = PACKAGE) -> list[Module]:
    found = []
    for path in sorted(base.rglob("*.py")):
        parts = list(path.relative_to(base).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
            package = ".".join(parts)
        elif len(parts) == 1:
            package = parts[0]
        else:
            package = ".".join(parts[:-1])
        found.append(Module(".".join(parts), package, path))
    return found


def _is_package(name: str, base: Path) -> bool:
    return (base.joinpath(*name.split(".")) / "__init__.py").is_file() if name else True


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _targets(node, module: Module, base: Path):
    """``(bound name, target module, imported name or None)`` for each name an import statement
    brings in from the package; the target is a dotted name below taolong_lab ("" for the
    root), the bound name what the module calls it (None for a plain ``import a.b``)."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name == "taolong_lab" or alias.name.startswith("taolong_lab."):
                yield alias.asname, alias.name.removeprefix("taolong_lab").lstrip("."), None
        return
    if node.level:
        here = module.name.split(".") if module.name else []
        if not _is_package(module.name, base):
            here = here[:-1]
        if node.level > 1:
            here = here[: len(here) - (node.level - 1)]
        target = ".".join(here + ([node.module] if node.module else []))
    elif node.module and (node.module == "taolong_lab" or node.module.startswith("taolong_lab.")):
        target = node.module.removeprefix("taolong_lab").lstrip(".")
    else:
        return
    for alias in node.names:
        sub = f"{target}.{alias.name}" if target else alias.name
        if _is_package(target, base) and (
            _is_package(sub, base) or base.joinpath(*sub.split(".")).with_suffix(".py").is_file()
        ):
            yield alias.asname or alias.name, sub, None  # a submodule
        else:
            yield alias.asname or alias.name, target, alias.name


def _package_of(target: str, base: Path) -> str:
    if _is_package(target, base):
        return target
    parts = target.split(".")
    return parts[0] if len(parts) == 1 else ".".join(parts[:-1])


def state_privates(base: Path = PACKAGE) -> set[str]:
    """The private attributes of ``State``: its slots and its own methods whose names start
    with one underscore."""
    tree = ast.parse((base / "engine" / "state.py").read_text(encoding="utf-8"))
    state = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "State")
    names = set()
    for node in state.body:
        if isinstance(node, ast.FunctionDef):
            names.add(node.name)
        elif isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == "__slots__" for t in node.targets
        ):
            names |= {e.value for e in node.value.elts if isinstance(e, ast.Constant)}
    return {n for n in names if _private(n) and not n.endswith("_")}


def _base_name(node) -> str:
    return node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "")


def game_classes(base: Path = PACKAGE) -> set[str]:
    """The concrete game classes: every class defined in ``games/`` that derives, directly or
    through another, from ``Game`` or ``GameState``."""
    parents: dict[str, set[str]] = {}
    for module in modules(base):
        if module.top != "games":
            continue
        tree = ast.parse(module.path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                parents[node.name] = {_base_name(b) for b in node.bases}
    found: set[str] = set()
    while True:
        more = {n for n, bases in parents.items() if bases & (found | {"Game", "GameState"})}
        if more <= found:
            return found - {"Game", "GameState"}
        found |= more


def _type_checked(node) -> list[str]:
    """The names a node checks a value's type against: the classes of ``isinstance(x, C)``,
    ``issubclass(x, C)`` (tuples and unions too) and ``type(x) is C``."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("isinstance", "issubclass")
        and len(node.args) == 2
    ):
        return [_base_name(n) for n in ast.walk(node.args[1])]
    if (
        isinstance(node, ast.Compare)
        and isinstance(node.left, ast.Call)
        and isinstance(node.left.func, ast.Name)
        and node.left.func.id == "type"
    ):
        return [_base_name(n) for c in node.comparators for n in ast.walk(c)]
    return []


def _walk(tree):
    """Every node with the qualified name of the function or class it sits in ("" at module
    level)."""
    stack = [(tree, "")]
    while stack:
        node, where = stack.pop()
        for child in ast.iter_child_nodes(node):
            inner = where
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                inner = f"{where}.{child.name}" if where else child.name
            yield child, where
            stack.append((child, inner))


def violations(base: Path = PACKAGE, layers=None, hooks=None) -> set[str]:
    """Every violation of (a), (b) and (c) in the package at ``base``, one line each."""
    layers = LAYERS if layers is None else layers
    hooks = HOOKS if hooks is None else hooks
    privates = state_privates(base)
    concrete = game_classes(base)
    found = set()
    for module in modules(base):
        tree = ast.parse(module.path.read_text(encoding="utf-8"), str(module.path))
        mine = layers[module.top]
        foreign = {}  # a name bound to another package's module -> that module
        for node, where in _walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                for bound, target, name in _targets(node, module, base):
                    if bound and name is None and _package_of(target, base) != module.package:
                        foreign[bound] = target
                    top = target.split(".")[0]
                    shown = target or "the package root"
                    hook = bool(where) and f"{module.name}:{where}" in hooks
                    if top != module.top and layers[top] > mine and not hook:
                        found.add(f"upward: {module.name} imports {shown}")
                    private = (name is not None and _private(name)) or any(
                        _private(part) for part in target.split(".")
                    )
                    if private and _package_of(target, base) != module.package:
                        found.add(f"private: {module.name} imports {target}.{name}")
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in foreign
                and _private(node.attr)
            ):
                found.add(f"private: {module.name} imports {foreign[node.value.id]}.{node.attr}")
            elif (
                isinstance(node, ast.Attribute)
                and node.attr in privates
                and module.top != "engine"
                and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
            ):
                found.add(f"state-private: {module.name} reads .{node.attr}")
            if module.top != "games":
                for name in set(_type_checked(node)) & concrete:
                    found.add(f"game-type: {module.name} checks the type {name}")
    return found


# ---- the package ---------------------------------------------------------------------------
def test_every_module_has_a_layer():
    """A new top-level module or package must be placed in LAYERS (and docs/architecture.md)."""
    missing = sorted({m.top for m in modules()} - set(LAYERS))
    assert not missing, f"add to LAYERS in tests/test_architecture.py: {missing}"


def test_no_new_violation():
    """Nothing imports upwards, imports another package's private names, reads a State
    private outside the engine or checks a concrete game's type outside the games, but what
    ALLOWLIST lists."""
    new = sorted(violations() - ALLOWLIST)
    assert not new, "\n".join(["new violations of the module map:", *new])


def test_the_allowlist_only_shrinks():
    """Every allowed violation still exists: a fixed one must leave ALLOWLIST."""
    fixed = sorted(ALLOWLIST - violations())
    assert not fixed, "\n".join(["fixed, remove from ALLOWLIST:", *fixed])


def test_the_concrete_games_are_known():
    """Rule (d) knows the game classes of the package: Tao Long's and the sister games'."""
    found = game_classes()
    assert {"TaoLongGame", "TaoLongState", "LongTauState", "TaoState"} <= found
    assert not {"Game", "GameState", "Trajectory"} & found


def test_the_hooks_exist():
    """Each hook allowed to import upwards is a function of the package."""
    defined = set()
    for module in modules():
        tree = ast.parse(module.path.read_text(encoding="utf-8"))
        for node, where in _walk(tree):
            if isinstance(node, ast.FunctionDef):
                qualified = f"{where}.{node.name}" if where else node.name
                defined.add(f"{module.name}:{qualified}")
    assert defined >= HOOKS, sorted(HOOKS - defined)


def test_the_doc_names_every_package_of_the_map():
    """docs/architecture.md names each package and module of the target layout."""
    text = DOC.read_text(encoding="utf-8")
    for name in set(LAYERS) - {""}:
        assert re.search(rf"`{name}[/`.]", text), name


def documented_modules(text: str) -> set[str]:
    """The modules the doc's "Every module" section lists: one bullet a package (its folder
    below ``taolong_lab/``, or ``taolong_lab/`` for the root), naming its ``.py`` files."""
    section = text.split("## Every module", 1)[1].split("\n## ", 1)[0]
    found = set()
    for line in section.splitlines():
        folder = re.match(r"- `([\w/]+)/`:", line)
        if folder:
            prefix = "" if folder.group(1) == "taolong_lab" else f"{folder.group(1)}/"
            found.update(prefix + name for name in re.findall(r"`(\w+\.py)`", line))
    return found


def test_the_doc_names_every_module():
    """docs/architecture.md lists every module of the package, and no module that is gone."""
    listed = documented_modules(DOC.read_text(encoding="utf-8"))
    actual = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if path.name != "__init__.py"
    }
    assert not actual - listed, f"name in docs/architecture.md: {sorted(actual - listed)}"
    assert not listed - actual, f"gone, remove from docs/architecture.md: {sorted(listed - actual)}"


# ---- short functions, short modules ---------------------------------------------------------
MAX_FUNCTION_LINES = 100  # a def's end_lineno - lineno + 1, its docstring included
MAX_MODULE_LINES = 900
# What is still over the limits ("module" or "module:qualified name"), each with its reason. A
# new one fails, and so does one listed here that is back under: the list only shrinks.
LONG: dict[str, str] = {}


def oversized() -> dict[str, int]:
    """Every module over :data:`MAX_MODULE_LINES` lines and every function (methods and
    nested functions included) over :data:`MAX_FUNCTION_LINES`, with its length."""
    found = {}
    for module in modules():
        text = module.path.read_text(encoding="utf-8")
        if len(text.splitlines()) > MAX_MODULE_LINES:
            found[module.name] = len(text.splitlines())
        for node, where in _walk(ast.parse(text)):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = node.end_lineno - node.lineno + 1
                if length > MAX_FUNCTION_LINES:
                    name = f"{where}.{node.name}" if where else node.name
                    found[f"{module.name}:{name}"] = length
    return found


def test_no_function_over_100_lines_and_no_module_over_900():
    """Short functions and modules: what is longer is split, or listed in LONG with a reason."""
    new = {name: n for name, n in oversized().items() if name not in LONG}
    assert not new, f"split these (lines): {new}"


def test_the_long_list_only_shrinks():
    """Every name in LONG is still over its limit: one split must leave LONG."""
    fixed = sorted(set(LONG) - set(oversized()))
    assert not fixed, f"now short enough, remove from LONG: {fixed}"


# ---- the checker on small packages -----------------------------------------------------------
STATE = """
class State:
    __slots__ = ("_env", "rules")
    def _walk(self):
        return self._env
    def _repr_svg_(self):
        from ..pictures import svg
        return svg(self)
"""


GAMES = {
    "games/protocol.py": "class Game:\n    pass\n\n\nclass GameState:\n    pass\n",
    "games/taolong.py": (
        "from .protocol import Game, GameState\n\n\nclass TaoLongState(GameState):\n    pass\n"
        "\n\nclass SoloState(TaoLongState):\n    pass\n"
    ),
}


def _package(tmp_path: Path, files: dict[str, str]) -> Path:
    base = tmp_path / "taolong_lab"
    files = {
        "engine/state.py": STATE,
        "solvers/shapes.py": "class _Grid:\n    pass\n",
        **GAMES,
        **files,
    }
    for name, text in files.items():
        path = base / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for folder in {p.parent for p in base.rglob("*.py")}:
        (folder / "__init__.py").touch()
    return base


CASES = [
    ("rules/data.py", "from ..engine import State\n", "upward: rules.data imports engine"),
    (
        "solvers/x.py",
        "def f():\n    from ..puzzles.format import load\n",
        "upward: solvers.x imports puzzles.format",
    ),
    ("puzzles/y.py", "from .. import solo_game\n", "upward: puzzles.y imports the package root"),
    (
        "solvers/x.py",
        "import taolong_lab.pictures.svg\n",
        "upward: solvers.x imports pictures.svg",
    ),
    (
        f"{PICTURES}/p.py",
        "from ..solvers.explicit import _start_of\n",
        "private: pictures.p imports solvers.explicit._start_of",
    ),
    (
        "solvers/sat/encode.py",
        "from ..common import _sow_one\n",
        "private: solvers.sat.encode imports solvers.common._sow_one",
    ),
    (
        f"{PICTURES}/f.py",
        "from ..solvers import shapes\n\nclass G(shapes._Grid):\n    pass\n",
        "private: pictures.f imports solvers.shapes._Grid",
    ),
    (
        "solvers/x.py",
        "def f(state):\n    return state._walk(), state._env\n",
        "state-private: solvers.x reads ._env",
    ),
    (
        "agents/x.py",
        "from ..games.taolong import TaoLongState\n\n\ndef f(s):\n"
        "    return isinstance(s, TaoLongState)\n",
        "game-type: agents.x checks the type TaoLongState",
    ),
    (
        "explorer/x.py",
        "from ..games import taolong\n\n\ndef f(s):\n"
        "    return isinstance(s, int | taolong.SoloState)\n",
        "game-type: explorer.x checks the type SoloState",
    ),
    (
        "cli/x.py",
        "from ..games.taolong import TaoLongState\n\n\ndef f(s):\n"
        "    return type(s) is TaoLongState\n",
        "game-type: cli.x checks the type TaoLongState",
    ),
]


@pytest.mark.parametrize(("name", "text", "expected"), CASES, ids=[c[2] for c in CASES])
def test_the_checker_finds_each_kind(tmp_path, name, text, expected):
    base = _package(tmp_path, {name: text})
    assert expected in violations(base)


def test_the_checker_allows_what_the_map_allows(tmp_path):
    """Downward and same-package imports, a package's own privates, a listed hook, the
    engine reading its own State privates, a check against the protocol's classes, and the
    games checking their own types are all fine."""
    base = _package(
        tmp_path,
        {
            "solvers/x.py": "from ..engine import State\nfrom ..errors import TaoLongError\n",
            "solvers/y.py": "from .x import _helper\nfrom . import x\n",
            "engine/solo.py": "def f(state):\n    return state._walk()\n",
            "puzzles/z.py": "from ..solvers import solve\nfrom ..files import write_atomic\n",
            "cli/main.py": "from ..engine import Line\nfrom ..puzzles import z\n",
            "errors.py": "",
            "files.py": "from .errors import TaoLongError\n",
            "agents/y.py": (
                "from ..games.protocol import GameState\n\n\ndef f(s):\n"
                "    return isinstance(s, GameState)\n"
            ),
            "games/z.py": (
                "from .taolong import TaoLongState\n\n\ndef f(s):\n"
                "    return isinstance(s, TaoLongState)\n"
            ),
        },
    )
    assert violations(base) == set()
    hooks = {"engine.state:State._repr_svg_"}
    assert violations(base, hooks=set()) == {"upward: engine.state imports pictures"}
    assert violations(base, hooks=hooks) == set()

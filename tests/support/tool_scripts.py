"""The maintenance scripts of ``tools/`` (run as ``python tools/NAME.py``), loaded as modules
for the tests."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def load(name: str):
    """The module of ``tools/{name}.py``, loaded once."""
    key = f"taolong_tools_{name}"
    if key not in sys.modules:
        spec = importlib.util.spec_from_file_location(key, TOOLS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[key] = module
        spec.loader.exec_module(module)
    return sys.modules[key]

"""Every docstring example in the package runs and shows what it says (the networkx
habit: small functions with examples that are tested)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import taolong_lab

MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(taolong_lab.__path__, prefix="taolong_lab.")
    if not info.name.endswith("__main__")
)


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"


def test_the_examples_are_found():
    """The collection above is not empty: the modules with examples are among them."""
    counted = {
        name: len(
            [t for t in doctest.DocTestFinder().find(importlib.import_module(name)) if t.examples]
        )
        for name in (
            "taolong_lab.files",
            "taolong_lab.pictures",
            "taolong_lab.solvers.explicit",
            "taolong_lab.solvers.sat",
        )
    }
    assert all(n > 0 for n in counted.values()), counted

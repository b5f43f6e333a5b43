"""The optional compiled parts, built when a C++ compiler is at hand: the solo kernel
(native/kernel) and the DRAT checker (native/drat).

Without one, or with ``TAOLONG_BUILD_PURE=1``, the install goes on without them and the lab
runs its pure-Python paths (``taolong doctor`` says which).
"""

import os
import sys

from setuptools import Extension, find_packages, setup
from setuptools.command.build_ext import build_ext

PURE = os.environ.get("TAOLONG_BUILD_PURE") == "1"


class OptionalBuild(build_ext):
    """Builds the extensions it can and says in one line which it could not."""

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:  # no compiler, no Python headers: the pure path runs
            first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
            print(f"taolong_lab: {ext.name} not built ({first}); the pure-Python path runs")

    def run(self):
        try:
            super().run()
        except Exception as exc:
            print(f"taolong_lab: compiled kernel not built ({exc}); the pure-Python path runs")


KERNEL = Extension(
    "taolong_lab.solvers._kernel",
    sources=["native/kernel/module.cpp"],
    depends=[
        f"native/kernel/{name}" for name in ("rules.hpp", "solo.hpp", "bounds.hpp", "search.hpp")
    ],
    language="c++",
    extra_compile_args=["-std=c++17", "-O2", "-g0", "-fvisibility=hidden"]
    if sys.platform != "win32"
    else [],
    optional=True,
)

DRAT = Extension(
    "taolong_lab._drat",
    sources=["native/drat/drat.cpp"],
    language="c++",
    extra_compile_args=["-std=c++17", "-O2", "-g0", "-fvisibility=hidden"]
    if sys.platform != "win32"
    else [],
    optional=True,
)

# The game's data and the bundled puzzle files ship inside the package (taolong_lab/_data,
# taolong_lab/_puzzles); in a git checkout the lab reads data/ and puzzles/ instead. The
# atlas's pending files and the SAT proofs (puzzles/proofs/) stay out.
DATA = {
    "taolong_lab._data": "data",
    "taolong_lab._puzzles": "puzzles",
    "taolong_lab._puzzles.atlas": "puzzles/atlas",
}

setup(
    packages=[*find_packages(include=["taolong_lab", "taolong_lab.*"]), *DATA],
    package_dir=DATA,
    package_data={
        "taolong_lab._data": ["*.toml", "*.json", "scenarios/*.toml", "games/*/*.toml"],
        "taolong_lab._puzzles": ["*.jsonl"],
        "taolong_lab._puzzles.atlas": ["*.jsonl"],
    },
    exclude_package_data={
        "taolong_lab._puzzles": ["README.md"],
        "taolong_lab._puzzles.atlas": ["*.pending.json"],
    },
    ext_modules=[] if PURE else [KERNEL, DRAT],
    cmdclass={"build_ext": OptionalBuild},
)

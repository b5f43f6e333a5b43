"""Write the solo atlas's table into README.md (between its ``atlas-table`` markers).

Run after the atlas run has added to ``puzzles/atlas/``: ``python tools/atlas_table.py``.
``tests/puzzles/test_atlas.py`` checks that the README's table is the stored atlas's.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from taolong_lab.files import write_atomic
from taolong_lab.puzzles.atlas import table

ROOT = Path(__file__).resolve().parents[1]
BLOCK = re.compile(r"(<!-- atlas-table:[^>]*-->\n)(.*?)(<!-- /atlas-table -->)", re.S)


def readme_table(text: str) -> str:
    """The table between the README's markers."""
    found = BLOCK.search(text)
    if found is None:
        raise SystemExit("README.md has no atlas-table markers")
    return found.group(2)


def main() -> int:
    readme = ROOT / "README.md"
    text = readme.read_text(encoding="utf-8")
    readme_table(text)
    new = BLOCK.sub(lambda m: m.group(1) + table(ROOT / "puzzles" / "atlas") + m.group(3), text)
    if new != text:
        write_atomic(readme, new.encode("utf-8"))
        print("README.md: atlas table rewritten")
    return 0


if __name__ == "__main__":
    sys.exit(main())

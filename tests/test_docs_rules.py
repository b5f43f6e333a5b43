"""docs/rules.md and the rule tests cannot drift apart.

- Every ``tests/<file>.py::test_name`` reference in docs/rules.md names a test that exists.
- Every test in ``tests/test_rules_*.py`` has a docstring quoting the rulebook on ``>`` lines
  (``> [earlier] ...`` for the earlier edition), and cites decisions only as A1..A32.
- Every quote, in the tests and in docs/rules.md (its ``>`` block quotes), appears verbatim in
  the rulebook (whitespace normalised; ``...`` separates fragments that must appear in order;
  a quote of several sentences may be cut at line ends into runs that each appear).
  The rulebooks' text is not part of the repository: this part reads it from the folder
  ``TAOLONG_RULEBOOKS`` names and is skipped, saying so, when there is none.

And the other docs: no page points at a file outside the repository, and every section of
docs/performance.md that the code, the tests or the docs cite by name is still there.
"""

from __future__ import annotations

import ast
import os
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "rules.md"
# The rulebooks' text is not in the repository: TAOLONG_RULEBOOKS names a folder holding the
# two rulebooks as text (current.txt and earlier.txt, or files named as the workplace names them).
SEEDS = Path(os.environ.get("TAOLONG_RULEBOOKS", "") or ROOT / "no-rulebooks")
RULEBOOKS = {
    edition: next((SEEDS / name for name in names if (SEEDS / name).is_file()), SEEDS / names[0])
    for edition, names in {
        "current": ("current.txt", "000_b25ffcede7904604.txt"),
        "earlier": ("earlier.txt", "001_fc32f23315b5fd86.txt"),
    }.items()
}
REF_RE = re.compile(r"(tests/[\w/]+\.py)::(\w+)")
DECISION_RE = re.compile(r"\bA(\d+)\b")
RULE_TEST_FILES = sorted((ROOT / "tests" / "engine").glob("test_rules_*.py"))


def _norm(text: str) -> str:
    return " ".join(text.split())


def _test_functions(path: Path) -> dict[str, ast.FunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name.startswith(
            "test"
        ):
            found[node.name] = node
    return found


def quotes(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """(edition, lines) for each quote in ``text``: a run of consecutive '>' lines. A line
    tagged ``[earlier]`` or ``[current]`` starts a new quote from that rulebook."""
    out: list[tuple[str, list[str]]] = []
    current: list[str] | None = None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped.startswith(">"):
            current = None
            continue
        body = stripped[1:].strip()
        tag = re.match(r"\[(earlier|current)\]\s*", body)
        if tag or current is None:
            edition = tag[1] if tag else "current"
            body = body[tag.end() :] if tag else body
            current = []
            out.append((edition, current))
        current.append(body)
    return [(edition, tuple(lines)) for edition, lines in out]


def test_doc_exists_and_references_tests():
    """docs/rules.md exists and pins its rules to tests."""
    assert DOC.is_file()
    refs = REF_RE.findall(DOC.read_text(encoding="utf-8"))
    assert len(refs) >= 50


def test_every_doc_reference_names_an_existing_test():
    """Each ``tests/x.py::test_name`` in docs/rules.md exists (collected with ast)."""
    missing = []
    cache: dict[str, dict] = {}
    for rel, name in REF_RE.findall(DOC.read_text(encoding="utf-8")):
        path = ROOT / rel
        if not path.is_file():
            missing.append(f"{rel} (no such file)")
            continue
        if rel not in cache:
            cache[rel] = _test_functions(path)
        if name not in cache[rel]:
            missing.append(f"{rel}::{name}")
    assert not missing, f"docs/rules.md names tests that do not exist: {missing}"


def test_every_rule_test_file_is_referenced_by_the_doc():
    """Each rule test module appears in docs/rules.md at least once."""
    text = DOC.read_text(encoding="utf-8")
    assert RULE_TEST_FILES
    for path in RULE_TEST_FILES:
        assert f"tests/engine/{path.name}::" in text, path.name


LAYOUT_RE = re.compile(
    r"^#### ([^\n]+)\n\n"  # the scenario's name
    r"`data/scenarios/(\w+)\.toml`(?:[^\n]*\n)+?\n"  # a paragraph naming its file
    r"```text\n(.*?)^```",  # the grid
    re.MULTILINE | re.DOTALL,
)


def test_scenario_layouts_are_copied_from_the_data_files():
    """Each scenario's layout in docs/rules.md (a ``#### The X`` heading, a line naming its
    file, then a ``text`` block) is that file's grid, and every scenario file is shown."""
    import tomllib

    text = DOC.read_text(encoding="utf-8")
    shown = {key: (title, grid) for title, key, grid in LAYOUT_RE.findall(text)}
    files = sorted((ROOT / "data" / "scenarios").glob("*.toml"))
    assert files and sorted(shown) == sorted(p.stem for p in files)
    for path in files:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        title, grid = shown[path.stem]
        assert title == data["name"], path.name
        assert grid.strip("\n").splitlines() == data["grid"].strip("\n").splitlines(), path.name


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to dashes."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_internal_links_resolve():
    """Every ``](#anchor)`` link in docs/rules.md points at one of its headings."""
    text = DOC.read_text(encoding="utf-8")
    anchors = {_slug(h) for h in re.findall(r"^#+\s+(.*)$", text, re.MULTILINE)}
    broken = sorted({a for a in re.findall(r"\]\(#([^)]+)\)", text) if a not in anchors})
    assert not broken, broken


@pytest.mark.parametrize("path", RULE_TEST_FILES, ids=lambda p: p.name)
def test_every_rule_test_quotes_the_rulebook(path):
    """Every test in a rule test module has a docstring with at least one '>' quote line and
    cites decisions only from A1..A32."""
    problems = []
    for name, node in _test_functions(path).items():
        doc = ast.get_docstring(node) or ""
        if not quotes(doc):
            problems.append(f"{name}: no '>' rulebook quote in its docstring")
        for line in doc.splitlines():
            if line.strip().startswith("Decision:"):
                ids = [int(n) for n in DECISION_RE.findall(line)]
                if not ids or not all(1 <= n <= 32 for n in ids):
                    problems.append(f"{name}: bad decision line {line.strip()!r}")
    assert not problems, problems


def _rulebook(edition: str) -> str:
    path = RULEBOOKS[edition]
    if not path.is_file():
        pytest.skip(
            f"the {edition} rulebook's text is not part of the repository: set "
            "TAOLONG_RULEBOOKS to a folder holding current.txt and earlier.txt to check the "
            "quotes against it"
        )
    return _norm(path.read_text(encoding="utf-8"))


def _found(book: str, quote: str) -> bool:
    at = 0
    for fragment in (f.strip() for f in quote.split("...")):
        if fragment:
            at = book.find(fragment, at)
            if at < 0:
                return False
            at += len(fragment)
    return True


def _check(edition: str, lines: tuple[str, ...]) -> bool:
    """Can the quote's lines be cut, at line ends, into runs that each appear verbatim?
    (Several sentences quoted one after another need not be adjacent in the book.)"""
    book = _rulebook(edition)
    ok = [True] + [False] * len(lines)  # ok[i]: lines[:i] can be cut that way
    for end in range(1, len(lines) + 1):
        ok[end] = any(
            ok[start] and _found(book, _norm(" ".join(lines[start:end]))) for start in range(end)
        )
    return ok[-1]


def _all_quotes():
    for path in RULE_TEST_FILES:
        for name, node in _test_functions(path).items():
            for edition, lines in quotes(ast.get_docstring(node) or ""):
                yield f"{path.name}::{name}", edition, lines
    if DOC.is_file():
        for edition, lines in quotes(DOC.read_text(encoding="utf-8")):
            yield "docs/rules.md", edition, lines


def test_quotes_are_verbatim():
    """Every quote in the rule tests and in docs/rules.md is in the rulebook word for word."""
    wrong = [
        f"{where} [{edition}]: {_norm(' '.join(lines))!r}"
        for where, edition, lines in _all_quotes()
        if not _check(edition, lines)
    ]
    assert not wrong, "quotes not found verbatim in the rulebook:\n" + "\n".join(wrong)


def test_quote_parser():
    """The quote reader used above: runs of '>' lines, an optional [earlier] tag."""
    text = "intro\n> one\n> two\nDecision: A1\n> [earlier] three\n\n> four\n> [earlier] five"
    text += "\n> [current] six"
    assert quotes(text) == [
        ("current", ("one", "two")),
        ("earlier", ("three",)),
        ("current", ("four",)),
        ("earlier", ("five",)),
        ("current", ("six",)),
    ]


# ---- the other docs -------------------------------------------------------------------------
OUTSIDE_RE = re.compile(r"\.\./shared|\bshared/(?:seeds|research|design)\b")
CITATION_RE = re.compile(r'performance\.md\)?,\s*(?:#\s*)?"([^"]+)"')


def test_the_docs_point_at_nothing_outside_the_repository():
    """The docs and the README say what the project's sources say, in its own words."""
    pages = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    found = [
        f"{page.relative_to(ROOT)}:{n}: {line.strip()}"
        for page in pages
        for n, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1)
        if OUTSIDE_RE.search(line)
    ]
    assert not found, found


def test_the_performance_sections_cited_by_name_exist():
    """A citation such as ``docs/performance.md, "Choosing a solver"`` (in the code, the
    tests, the benchmarks or the docs) names the start of one of the page's headings."""
    headings = re.findall(
        r"^#+\s+(.*)$", (ROOT / "docs" / "performance.md").read_text("utf-8"), re.M
    )
    files = [*ROOT.glob("taolong_lab/**/*.py"), *ROOT.glob("tests/*.py"), *ROOT.glob("bench/*")]
    files += [ROOT / "README.md", *ROOT.glob("docs/*.md")]
    cited = {}
    for path in files:
        if path.is_file() and path.suffix in (".py", ".md"):
            for name in CITATION_RE.findall(path.read_text(encoding="utf-8")):
                cited.setdefault(" ".join(name.split()), path.relative_to(ROOT))
    assert cited
    headings = [h.replace("`", "") for h in headings]
    missing = {n: str(p) for n, p in cited.items() if not any(h.startswith(n) for h in headings)}
    assert not missing, missing

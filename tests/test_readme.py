"""The README's examples really run: its Python doctest, its `taolong` commands, its picture."""

from __future__ import annotations

import doctest
import re
import shlex
from pathlib import Path

import pytest

from taolong_lab import new_game
from taolong_lab.cli import main
from taolong_lab.pictures import svg

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
FENCE = re.compile(r"^```(\S*)\n(.*?)^```", re.MULTILINE | re.DOTALL)


def fenced(kind: str) -> list[str]:
    return [body for lang, body in FENCE.findall(README.read_text("utf-8")) if lang == kind]


def test_readme_doctest():
    result = doctest.testfile(
        str(README),
        module_relative=False,
        optionflags=doctest.NORMALIZE_WHITESPACE,
        encoding="utf-8",
    )
    assert result.attempted > 0, "the README has no doctest examples"
    assert result.failed == 0, f"{result.failed} README example(s) failed; see the output above"


def console_examples() -> list[tuple[str, list[str]]]:
    """Each ``$ taolong ...`` line of the README's console blocks with the lines shown after it."""
    examples = []
    for block in fenced("console"):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            command, *shown = chunk.rstrip("\n").split("\n")
            examples.append((command, shown))
    return examples


def test_readme_has_console_examples():
    assert len(console_examples()) >= 4


@pytest.mark.parametrize(
    ("command", "shown"), console_examples(), ids=[c[:50] for c, _ in console_examples()]
)
def test_readme_console_example(capsys, command, shown, tmp_path, monkeypatch):
    """The output shown must match; a line ``...`` stands for any number of lines. Commands
    run in a scratch directory that sees the repository's bench/ and puzzles/ (they may
    write files)."""
    for name in ("bench", "puzzles"):
        (tmp_path / name).symlink_to(ROOT / name)
    monkeypatch.chdir(tmp_path)
    argv = shlex.split(command)
    assert argv[0] == "taolong"
    assert main(argv[1:]) == 0
    out = capsys.readouterr().out.splitlines()
    if "..." in shown:
        cut = shown.index("...")
        head, tail = shown[:cut], shown[cut + 1 :]
        assert out[: len(head)] == head
        assert out[len(out) - len(tail) :] == tail
    else:
        assert out == shown


def test_readme_picture_is_current():
    """docs/img/start.svg is what the renderer draws today."""
    picture = ROOT / "docs" / "img" / "start.svg"
    assert picture.read_text("utf-8") == svg(new_game()), (
        "regenerate it: .venv/bin/python -m taolong_lab.pictures > docs/img/start.svg"
    )


def test_readme_links_exist():
    text = README.read_text("utf-8")
    targets = re.findall(r"\]\(([^)#\s]+)\)", text)
    assert "docs/img/start.svg" in targets and "docs/notation.md" in targets
    missing = [t for t in targets if "://" not in t and not (ROOT / t).exists()]
    assert not missing, f"README links to missing files: {missing}"

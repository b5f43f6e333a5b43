"""Keep the large proof folders out of git: rewrite ``puzzles/proofs/.gitignore`` so that it
lists every folder there of more than ``--limit`` bytes (packed files) that git does not
track already, and keeps the folders it already lists that are not here (a release artefact
not unpacked).

    .venv/bin/python tools/proofs_gitignore.py           # after `bench/proofs.py --attach`

The small folders stay in the repository, next to the puzzles; the large ones are the release
artefact (docs/proofs.md, "Stored proofs").
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "puzzles" / "proofs"
HEAD = (
    "# The large proofs are a release artefact (docs/proofs.md): `make proofs` writes them here,\n"
    "# `make proofs-artefact` packs this folder. tools/proofs_gitignore.py writes this list.\n"
)
LIMIT = 128 * 1024


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.iterdir() if p.is_file())


def tracked(folder: Path) -> set[str]:
    """The proof folders git tracks: they stay in the repository whatever their size."""
    done = subprocess.run(
        ["git", "ls-files", "--", str(folder)], capture_output=True, text=True, cwd=ROOT
    )
    return {
        Path(line).relative_to(folder.relative_to(ROOT)).parts[0] for line in done.stdout.split()
    }


def large(folder: Path, limit: int, listed: set[str]) -> list[str]:
    """The folder names to leave out of git: those here over ``limit`` bytes that git does
    not track, and those ``listed`` before that are not here."""
    names = set()
    kept = tracked(folder)
    for sub in folder.iterdir():
        if sub.name in kept or not sub.is_dir() or sub.name.endswith(".partial"):
            continue
        if folder_bytes(sub) > limit:
            names.add(sub.name)
    names |= {name for name in listed if not (folder / name).is_dir()}
    return sorted(names)


def listed(path: Path) -> set[str]:
    if not path.exists():
        return set()
    lines = path.read_text().splitlines()
    return {ln.strip("/") for ln in lines if ln.startswith("/") and not ln.startswith("/*")}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=LIMIT, help="bytes a folder kept in git")
    args = parser.parse_args(argv)
    path = FOLDER / ".gitignore"
    names = large(FOLDER, args.limit, listed(path))
    text = HEAD + "".join(f"/{name}/\n" for name in names) + "/*.partial/\n"
    path.write_text(text)
    print(f"{len(names)} folders left to the release artefact")
    return 0


if __name__ == "__main__":
    sys.exit(main())

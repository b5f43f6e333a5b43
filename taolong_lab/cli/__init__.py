"""The ``taolong`` command: a package of small modules, each a thin layer over the library.

    taolong show                         the start position of the default game
    taolong show --edition earlier --tln the start of the earlier edition, with its TLN line
    taolong show --position TLN --json   any position, as JSON
    taolong show --svg > start.svg       the picture of a position (SVG)
    taolong turns [--position TLN]       the legal turns, numbered, with what each one does
    taolong play [--position TLN] TURN.. play turns (each quoted: 'Wa>He a3,a4') and show the board
    taolong show --puzzle FILE[:ID]      a puzzle's start (default: the file's first puzzle)
    taolong play --puzzle FILE[:ID]      play a solo challenge turn by turn in the terminal
    taolong scenarios                    the scenario files
    taolong solve FILE[:ID]              the fewest turns to win a solo challenge, proved
    taolong verify FILE [--full]         replay (and re-prove) every stored solution
    taolong graph --puzzle FILE[:ID] --depth D --out G.graphml   the state graph
    taolong generate --count N --out FILE.jsonl                  proved, graded puzzles
    taolong --version

Every bad input prints ``taolong: error: <message>`` on stderr and exits with status 2.

The modules: ``parser`` (the parser and :func:`main`), ``common`` (what the commands share),
``position`` (show, turns, play, scenarios), ``session`` (the interactive session of
``play``), ``solve``, ``verify``, ``graph`` and ``generate``.
"""

from .parser import build_parser, main

__all__ = ["build_parser", "main"]

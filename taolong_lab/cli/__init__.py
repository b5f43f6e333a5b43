"""The ``taolong`` command: a package of small modules, each a thin layer over the library.

    taolong show                         the start position of the default game
    taolong show --edition earlier --tln the start of the earlier edition, with its TLN line
    taolong show --position TLN --json   any position, as JSON
    taolong show --svg > start.svg       the picture of a position (SVG)
    taolong turns [--position TLN]       the legal turns, numbered, with what each one does
    taolong play [--position TLN] TURN.. play turns (each quoted: 'Wa>He a3,a4') and show the board
    taolong show FILE[:ID]               a puzzle's start (default: the file's first puzzle)
    taolong play FILE[:ID]               play a solo challenge turn by turn in the terminal
    taolong play FILE --random [--tier T] [--seed N]   one of the file's, picked at random
    taolong puzzles [FILE...] [--tier T] [--scenario S]  the puzzles of files (default: the
                                         bundled sets), one row each
    taolong scenarios                    the scenario files
    taolong solve FILE[:ID]              the fewest turns to win a solo challenge, proved
    taolong verify FILE... [--full]      replay (and re-prove) every stored solution
    taolong graph FILE[:ID] --depth D --out G.graphml   the state graph
    taolong generate --count N --out FILE.jsonl         proved, graded solo puzzles
    taolong atlas [DIR] [--scenario S]   the proved optimum of every shuffled solo start
    taolong play --vs SPEC|human [--game NAME] [--option k=v]   a game against an agent
    taolong play --replay FILE[:N]       step through a game's record
    taolong games [NAME]                 the registered games (or one game's options)
    taolong tournament SPEC SPEC ... --games N          a round robin of agents, rated
    taolong balance --levels SPEC ... --games N --out FILE.json   a game's balance card
    taolong review FILE[:N] [--nodes N] [--out F.jsonl] [--plot F.svg]  a game reviewed
    taolong openings [--scenario S] [--nodes N]        every first turn scored
    taolong doctor                       what this install runs on (the compiled kernel or not)
    taolong --version

A puzzle is ``FILE[:ID]`` for every command (``--puzzle FILE[:ID]`` is the same), or a
bundled one named without a path: ``SET:ID`` (``rulebook:torus-white``), or its id alone where
it is unique (``taolong puzzles`` lists the sets). The long
commands show a progress bar on stderr when it is a terminal (``--progress``/``--no-progress``
force it). Every bad input prints ``taolong: error: <message>`` on stderr and exits with
status 2; a message from the library names its arguments (:class:`~taolong_lab.errors.Arg`),
and the command line spells each as its option (:func:`~.common.cli_word`).

The modules: ``parser`` (the parser and :func:`main`), ``common`` (what the commands share),
``position`` (show, turns, play, scenarios), ``session`` (the interactive session of
``play FILE``), ``play_game`` (``play --vs/--game``), ``replay`` (``play --replay``),
``game_options`` (what the game commands share: the game, its options, agent specs),
``games``, ``tournament``, ``balance``, ``review``, ``openings``, ``puzzles``, ``solve``,
``verify``, ``graph``, ``generate``, ``atlas`` and ``doctor``: one module a command, each
declaring its :class:`~.common.Command` (``COMMAND``; ``position``: ``COMMANDS``), which
``parser`` adds in the order of its table.
"""

from .parser import build_parser, main

__all__ = ["build_parser", "main"]

"""Build hand-worked positions for the rule tests from readable pieces.

A position is written as TLN (see ``taolong_lab/engine/codec.py``); these helpers assemble
the TLN string from the parts a test cares about, so that a test reads like the position it
describes::

    position(
        white=D("d6 d7 d8 e8", fire=1),   # cells head first, then the meters
        black=D("d3 c3 b3 a3"),
        bagua={"Fi": "WWWWBBBB"},        # every other space empty
    )

Cells are named as in the notation: a column letter and a row number counted from the TOP,
so ``a1`` is the top-left cell (0, 0) and "north" means towards row 1. The centre of the Ba
Gua is worked out from stone conservation (8 water, 8 fire) unless given.

Other scenarios and modes pass their ``rules`` and, for a board with tiles, the ``board``
field (see :func:`board_of`); Master and Chosen One positions also pass the ``flux`` coin. A
dragon passing through portals lists the portal pair between two cells, head side first::

    position(D("b5 b6 [b7g2] g3 g4", fire=2), "a8 b8 c8 d8",
             rules="valley/grasshopper/current", board=board_of("valley"))
"""

from __future__ import annotations

from dataclasses import dataclass

from taolong_lab import State, new_game

RULES = "field/grasshopper/current"
EARLIER = "field/grasshopper/earlier"
MONK = "field/monk/current"
MASTER = "field/master/current"
EMPTY_BOARD = "8/8/8/8/8/8/8/8"
RING = ("He", "La", "Fi", "Th", "Ea", "Mo", "Wa", "Wi")
START_BAGUA = {"He": "WW", "Fi": "BW", "Ea": "BB", "Wa": "WB"}
ALL_STONES = "WWWWBBBB"
WATER_STONES = FIRE_STONES = 8


@dataclass(frozen=True)
class D:
    """A dragon: cell names head first (space or dash separated) and its two meters."""

    cells: str
    water: int = 4
    fire: int = 0

    @property
    def names(self) -> list[str]:
        return self.cells.replace("-", " ").split()

    def tln(self) -> str:
        return f"{'-'.join(self.names)}:{self.water}:{self.fire}"


def _dragon(spec: D | str) -> D:
    return spec if isinstance(spec, D) else D(spec)


def bagua_field(stacks: dict[str, str]) -> str:
    """The Ba Gua field from ``{"He": "WW", ...}`` (abbreviations; missing spaces are empty)."""
    unknown = set(stacks) - set(RING)
    assert not unknown, f"unknown Ba Gua spaces {unknown}"
    return "/".join(stacks.get(space) or "-" for space in RING)


def only_on(space: str) -> dict[str, str]:
    """All eight Ba Gua stones on one space: sowing it drops the last stone back on the same
    space (A12), so that space's element is the only Spirit choice."""
    return {space: ALL_STONES}


def tln(
    white: D | str,
    black: D | str,
    *,
    bagua: dict[str, str] | None = None,
    side: str = "w",
    turn: int = 1,
    rules: str = RULES,
    centre: tuple[int, int] | None = None,
    board: str = EMPTY_BOARD,
    flux: str | None = None,
) -> str:
    """A TLN string. ``centre`` defaults to the stones not held by either meter; ``flux``
    (``"ccw"`` or ``"cw"``) is the Master flux coin, written after the Ba Gua stacks."""
    w, b = _dragon(white), _dragon(black)
    if centre is None:
        centre = (WATER_STONES - w.water - b.water, FIRE_STONES - w.fire - b.fire)
    stacks = START_BAGUA if bagua is None else bagua
    return " ".join(
        [
            rules,
            board,
            w.tln(),
            b.tln(),
            bagua_field(stacks) + (f"@{flux}" if flux else ""),
            f"{centre[0]}:{centre[1]}",
            side,
            str(turn),
        ]
    )


def position(white: D | str, black: D | str, **kwargs) -> State:
    """The :class:`State` of :func:`tln` (validated by the engine while reading)."""
    return State.from_tln(tln(white, black, **kwargs))


def board_of(scenario: str, **options) -> str:
    """The TLN board field of a scenario's start (options such as ``village="white"``)."""
    return new_game(scenario, **options).to_tln().split()[1]


def turns(state: State) -> list[str]:
    """The legal turns in notation, in the engine's order."""
    return [str(t) for t in state.legal_turns()]


def first_phases(state: State) -> set[str]:
    """The distinct first phases of the legal turns (notation)."""
    return {str(t.phases[0]) for t in state.legal_turns()}


def fields(state: State) -> dict[str, str]:
    """The TLN fields of a position by name."""
    names = ("rules", "board", "white", "black", "bagua", "centre", "side", "turn")
    return dict(zip(names, state.to_tln().split(), strict=True))


def pieces(state: State) -> tuple[str, str, str]:
    """(white, black, centre) TLN fields: the dragons with their meters and the centre."""
    f = fields(state)
    return f["white"], f["black"], f["centre"]


def shapes(length: int):
    """Every dragon shape of ``length`` cells as (dx, dy) offsets, head first at (0, 0):
    the self-avoiding orthogonal chains, used to check geometric facts for every body."""
    steps = ((0, -1), (1, 0), (0, 1), (-1, 0))

    def grow(chain):
        if len(chain) == length:
            yield chain
            return
        x, y = chain[-1]
        for dx, dy in steps:
            nxt = (x + dx, y + dy)
            if nxt not in chain:
                yield from grow((*chain, nxt))

    yield from grow(((0, 0),))

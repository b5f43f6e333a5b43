"""What a turn did, for drawing it: the head routes, the sowing drops, the ruler attacks.

A :class:`~taolong_lab.engine.state.State` does not remember the turn that led to it, so
:func:`trace` takes the position the turn was played from. It replays the turn with the
engine's own enumeration (nothing here re-implements a rule): each phase is matched among
the phases the engine generates, which gives the Ba Gua before and after each sowing and,
for an expel, the position the ruler was measured on.

:func:`destinations` lists where the side to move can end its first Matter phase.
"""

from __future__ import annotations

from typing import NamedTuple

from ..engine import ABSORB, EXPEL, Phase, State, Turn
from ..engine.core import CW, occupancy
from ..engine.geometry import DIRECTIONS, cell_name
from ..engine.solo import solo_phases, solo_sowings
from ..engine.spirit import flow_for, phases, sowings
from ..engine.turns import space_index
from ..errors import NotationError
from ..rules.data import COLOURS, game_data, shown
from .errors import PictureError

Cell = tuple[int, int]


class Route(NamedTuple):
    """A dragon's head moving: ``cells`` is where the head started, then each step's cell.

    ``kind``: ``"matter"`` (the mover's Matter phase), ``"focus"`` (a Focus action) or
    ``"opponent"`` (the solo opponent's group). ``portals`` holds ``(step, entry, exit)``:
    step ``step`` went into ``entry`` and came out beside ``exit``.
    """

    phase: int
    colour: str
    kind: str
    element: int
    cells: tuple[Cell, ...]
    portals: tuple[tuple[int, Cell, Cell], ...]
    effect: str | None


class Drop(NamedTuple):
    """One stone of a sowing: the ``order``-th dropped (1 first), its colour, its space."""

    phase: int
    order: int
    space: int
    stone: str  # "W" or "B"


class Sowing(NamedTuple):
    """A sowing: the space sown, the way the stones went, each stone dropped."""

    phase: int
    space: int  # the space sown
    flow: str  # "ccw" or "cw"
    drops: tuple[Drop, ...]
    element: int  # the space of the last stone: the element of the Matter phase


class RulerCell(NamedTuple):
    """A cell of an expel's ruler, with its value."""

    cell: Cell
    value: int
    reached: bool  # no tile stands between the head and this cell
    hit: bool  # reached and holding the target (the opponent, or the village it protects)


class Attack(NamedTuple):
    """An expel: the ruler laid in front of the head, each of its cells on the board."""

    phase: int
    colour: str
    head: Cell
    facing: str
    cells: tuple[RulerCell, ...]
    value: int  # the highest ruler value hitting the target, -1 for a miss


class TurnTrace(NamedTuple):
    """What a turn did (see :func:`trace`): its sowings, the heads' routes, the rulers."""

    turn: Turn  # as the engine writes it (elements and the solo group filled in)
    colour: str  # the side that played it
    sowings: tuple[Sowing, ...]
    routes: tuple[Route, ...]
    attacks: tuple[Attack, ...]

    def path(self) -> list[str]:
        """The cells the mover's head went through in its Matter phases, in order."""
        return [cell_name(c) for r in self.routes if r.kind == "matter" for c in r.cells[1:]]

    def attack_cells(self, *, reached_only: bool = True) -> list[str]:
        """The cells of the expels' rulers (only those the expel reached, by default)."""
        return [
            cell_name(c.cell)
            for a in self.attacks
            for c in a.cells
            if c.reached or not reached_only
        ]


def as_space(value) -> int:
    """A ring index from an index, an abbreviation (``"He"``) or a name (``"heaven"``).

    Raises
    ------
    NotationError
        Naming the value that is not a Ba Gua space.

    >>> as_space("Wa"), as_space("heaven"), as_space(3)
    (6, 0, 3)
    """
    if isinstance(value, int) and not isinstance(value, bool):
        if not 0 <= value < len(game_data().ring):
            raise NotationError(f"{value} is not a Ba Gua space index (0-7)")
        return value
    return space_index(str(value))


def _check_state(value, argument: str = "state") -> None:
    if not isinstance(value, State):
        raise PictureError(argument, f"expected a State, not {type(value).__name__}")


def _options(state, walk, bagua, coin):
    """``(Phase, walk, bagua, flow)`` for every phase the engine generates from here."""
    env, colour = state.tables, state.mover
    if env.solo:
        return solo_phases(env, walk, bagua, coin, colour)
    return [entry[:4] for entry in phases(env, walk, bagua, coin, colour)]


def _drops(before: tuple[str, ...], after: tuple[str, ...], space: int, flow: int):
    """The stones of a sowing in drop order, read off the stacks before and after it."""
    n = len(before)
    count = len(before[space])
    step = 1 if flow != CW else n - 1
    added = {i: after[i][len(before[i]) if i != space else 0 :] for i in range(n)}
    seen = dict.fromkeys(range(n), 0)
    out = []
    for j in range(1, count + 1):
        target = (space + step * j) % n
        stones = added[target]
        k = seen[target]
        seen[target] += 1
        out.append((target, stones[k] if k < len(stones) else "?"))
    return out


def trace(before, turn) -> TurnTrace:
    """What ``turn`` did, played from the position ``before``.

    Parameters
    ----------
    before : State
        The position the turn is played from.
    turn : Turn or str
        The turn, or its notation.

    Returns
    -------
    TurnTrace
        The turn as the engine writes it, its sowings, the heads' routes and the expels' rulers.

    Raises
    ------
    PictureError
        ``before`` is not a State.
    NotationError, IllegalTurnError
        The turn does not read, or is not legal there.

    >>> from taolong_lab import new_game
    >>> trace(new_game(), "Wa>He a3,a4").path()
    ['a3', 'a4']
    """
    _check_state(before, "before")
    full = before.parse_turn(turn)
    env = before.tables
    mover = before.mover
    xy = env.xy
    heads = {c: xy[before.dragons[c].cells[0]] for c in (0, 1)}
    walk, bagua, coin = before.board, before.bagua, before.coin
    sowings, routes, attacks = [], [], []

    def route(index, colour, kind, element, action: Phase):
        start = heads[colour]
        routes.append(
            Route(
                index,
                COLOURS[colour],
                kind,
                element,
                (start, *action.path),
                action.portals,
                action.effect,
            )
        )
        if action.path:
            heads[colour] = action.path[-1]

    for index, phase in enumerate(full.phases):
        options = _options(before, walk, bagua, coin)
        entry = next((o for o in options if o[0] == phase), None)
        if entry is None:  # pragma: no cover - parse_turn found it among the same options
            raise ValueError(f"phase {phase} not generated from this position")
        _, after_walk, after_bagua, flow = entry
        drops = tuple(
            Drop(index, k + 1, target, stone)
            for k, (target, stone) in enumerate(_drops(bagua, after_bagua, phase.space, flow))
        )
        sowings.append(Sowing(index, phase.space, ("ccw", "cw")[flow], drops, phase.element))
        for who, action in phase.focus:
            route(index, "wb".index(who), "focus", -1, action)
        for element, action in phase.opponent or ():
            if action is not None:
                route(index, 1 - mover, "opponent", element, action)
        if not (phase.penalty or phase.ended):
            route(index, mover, "matter", phase.element, phase)
        if phase.effect == EXPEL:
            twin = phase._replace(effect=ABSORB)
            found = next((o for o in options if o[0] == twin), None)
            if found is not None:
                attacks.append(_attack(env, found[1], mover, index))
        walk, bagua, coin = after_walk, after_bagua, flow
    return TurnTrace(full, COLOURS[mover], tuple(sowings), tuple(routes), tuple(attacks))


def _attack(env, walk, colour: int, index: int) -> Attack:
    """The ruler of an expel, measured as the engine does (A15): ``walk`` is the position
    after the move, before the expel (the absorb twin of the turn: only a meter differs)."""
    me = walk[0][colour]
    head = me.cells[0]
    facing = env.facing(me)
    occ = occupancy(env, walk)
    if not env.plain:
        occ |= env.portal_mask | env.mask(c for c, _ in walk[3])
    target = env.targets(walk[0], 1 - colour)
    entries = env.ruler[head * 4 + facing]
    cells, best = [], -1
    for cell, value, blocked_by in entries:
        if cell < 0:
            continue
        reached = not any(entries[b][0] < 0 or occ >> entries[b][0] & 1 for b in blocked_by)
        hit = reached and bool(target >> cell & 1)
        if hit:
            best = max(best, value)
        cells.append(RulerCell(env.xy[cell], value, reached, hit))
    return Attack(index, COLOURS[colour], env.xy[head], DIRECTIONS[facing], tuple(cells), best)


def preview_sowing(state, space, drops: str = "") -> Sowing:
    """The sowing of ``space`` from ``state`` (the first phase), as :func:`trace` draws it.

    The sowing does not need to be legal (it may lead to no legal Matter phase).

    Parameters
    ----------
    state : State
        The position sown from.
    space : int or str
        The space: a ring index, an abbreviation (``"He"``) or a name (``"heaven"``).
    drops : str
        From Monk on, where the player may choose the drop order, the stones in the order
        dropped (``"WB"``); empty for the first order the rules allow.

    Returns
    -------
    Sowing

    Raises
    ------
    PictureError
        ``state`` is not a State, or ``drops`` not a string.
    NotationError
        Not a space, an empty space, or drops the rules do not allow there.
    """
    _check_state(state)
    if not isinstance(drops, str):
        raise PictureError("drops", f"expected stones like 'WB', not {shown(drops)}")
    index = as_space(space)
    if not state.bagua[index]:
        raise NotationError(f"{game_data().abbrev[index]} is empty: there is nothing to sow")
    env = state.tables
    flow = flow_for(state.bagua[index], state.coin, env.rules.mode)
    if env.solo:
        options = [o.sowing for o in solo_sowings(env, state.bagua, index, flow)]
    else:
        options = list(sowings(env, state.bagua, index, flow))
    wanted = drops.upper()
    chosen = next((o for o in options if not wanted or o.drops == wanted), None)
    if chosen is None:
        known = ", ".join(o.drops for o in options if o.drops) or "none"
        raise NotationError(
            f"{game_data().abbrev[index]} cannot be sown dropping {wanted} (choices: {known})"
        )
    stones = _drops(state.bagua, chosen.bagua, index, flow)
    return Sowing(
        0,
        index,
        ("ccw", "cw")[flow],
        tuple(Drop(0, k + 1, t, stone) for k, (t, stone) in enumerate(stones)),
        chosen.element,
    )


def destinations(state, space=None) -> dict[str, list[Turn]]:
    """Where the side to move can end its first Matter phase.

    A Lake/Mountain stay ends on the head's own cell; a penalty turn (``-``) or a game ended
    in the Spirit phase (``#``) ends nowhere.

    Parameters
    ----------
    state : State
        The position.
    space : int or str, optional
        Keep only the turns sowing this space (index, ``"He"`` or ``"heaven"``).

    Returns
    -------
    dict of str to list of Turn
        Cell name -> the legal turns ending there, in the engine's order.

    Raises
    ------
    PictureError
        ``state`` is not a State.
    NotationError
        ``space`` is not a Ba Gua space.

    >>> from taolong_lab import new_game
    >>> sorted(destinations(new_game()))
    ['a3', 'a4']
    """
    _check_state(state)
    wanted = None if space is None else as_space(space)
    head = state.cells(state.to_move)[0] if not state.is_over() else None
    out: dict[str, list[Turn]] = {}
    for turn in state.legal_turns():
        phase = turn.phases[0]
        if wanted is not None and phase.space != wanted:
            continue
        if phase.penalty or phase.ended:
            continue
        cell = phase.path[-1] if phase.path else head
        out.setdefault(cell_name(cell), []).append(turn)
    return out


__all__ = [
    "Attack",
    "Drop",
    "Route",
    "RulerCell",
    "Sowing",
    "TurnTrace",
    "as_space",
    "destinations",
    "preview_sowing",
    "trace",
]

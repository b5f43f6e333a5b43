"""The position value type, ``State``: immutable, hashable, with its legal turns."""

from __future__ import annotations

import bisect
import functools
from itertools import repeat
from typing import NamedTuple

from ..errors import IllegalTurnError, InvariantError, NotationError
from ..rules.data import COLOURS, game_data
from ..rules.options import Rules
from .core import Dragon, life, village_damage
from .geometry import DIRECTIONS, cell_name
from .solo import option_end, solo_options, solo_phase
from .spirit import EXEC, bagua_after, carry, options, phase_of
from .turns import Phase, Turn, _LazyTurn, lazy_turn, parse_turn

_COLOUR_INDEX = {colour: i for i, colour in enumerate(COLOURS)}


class Board(NamedTuple):
    """The board part of a position (:attr:`State.board`)."""

    dragons: tuple[Dragon, Dragon]
    water: int  # water stones in the centre of the Ba Gua
    fire: int  # fire stones in the centre
    rocks: tuple[tuple[int, int], ...]  # breakable rocks left: (cell, hits)


_board = functools.partial(tuple.__new__, Board)


class Result(NamedTuple):
    """How a finished game ended."""

    winner: str  # "white" or "black"
    reason: str

    def __str__(self) -> str:
        return f"{self.winner} wins: {self.reason}"


class State:
    """A Tao Long position. Immutable and hashable; equal positions have equal ``key()``.

    ``State()`` is the start of the default game; ``State(tln)`` reads a TLN string.

    >>> s = State()
    >>> [str(t) for t in s.legal_turns()][:2]
    ['He>Fi a3+', 'He>Fi a3x']
    >>> s.play("Wa>He a3,a4").to_move
    'black'
    """

    __slots__ = (
        "_bagua",
        "_dragons",
        "_env",
        "_fire",
        "_flux",
        "_hash",
        "_index",
        "_key",
        "_moves",
        "_ply",
        "_rocks",
        "_succ",
        "_to_move",
        "_water",
        "rules",
    )

    def __init__(self, tln: str | None = None):
        from .codec import from_tln
        from .setup import start_state

        other = start_state(Rules()) if tln is None else from_tln(tln)
        for slot in State.__slots__:
            object.__setattr__(self, slot, getattr(other, slot))

    @classmethod
    def _make(cls, env, walk, bagua, flux, to_move, ply) -> State:
        self = object.__new__(_Building)  # a State whose attributes may be set, see below
        self._dragons, self._water, self._fire, self._rocks = walk
        self.rules = env.rules
        self._env = env
        self._flux = flux
        self._bagua = bagua
        self._to_move = to_move
        self._ply = ply
        self._key = self._hash = self._succ = self._index = self._moves = None
        self.__class__ = cls
        return self

    def __setattr__(self, name, value):
        raise AttributeError("State is immutable; play() returns a new position")

    def __copy__(self) -> State:
        return self

    def __deepcopy__(self, memo) -> State:
        return self

    def __reduce__(self):
        return (State, (self.to_tln(),))

    # ---- read access -------------------------------------------------------------------
    @property
    def to_move(self) -> str:
        return COLOURS[self._to_move]

    @property
    def player(self) -> str | None:
        """Solo: the colour of the player's dragon (always to move); None in the 2-player game."""
        return COLOURS[self._to_move] if self.rules.solo else None

    @property
    def ply(self) -> int:
        """Turns played since the start."""
        return self._ply

    @property
    def bagua(self) -> tuple[str, ...]:
        """The eight stacks in ring order, each base first (``"W"`` white, ``"B"`` black)."""
        return self._bagua

    @property
    def centre(self) -> tuple[int, int]:
        """(water, fire) stones in the centre of the Ba Gua."""
        return self._water, self._fire

    def dragon(self, colour: str) -> Dragon:
        return self._dragons[COLOURS.index(colour)]

    def cells(self, colour: str) -> list[tuple[int, int]]:
        """The dragon's cells as (x, y), head first."""
        return [self._env.xy[c] for c in self.dragon(colour).cells]

    def facing(self, colour: str) -> str:
        """``"N"``, ``"E"``, ``"S"`` or ``"W"``: the direction from the neck to the head."""
        d = self.dragon(colour)
        return DIRECTIONS[self._env.facing(d)] if d.alive else "-"

    def life(self, colour: str) -> int:
        """Damage the dragon can still take before it is defeated: 4 per segment beyond the
        first, plus its water meter (12 at the start)."""
        return life(self._env, (self._dragons,), _COLOUR_INDEX[colour])

    @property
    def flux(self) -> str:
        """The flux coin (Master, Chosen One): ``"ccw"`` (black side) or ``"cw"`` (white side)."""
        return ("ccw", "cw")[self._flux]

    @property
    def rocks(self) -> dict[tuple[int, int], int]:
        """Breakable rocks left (The Wall, The Cave): cell -> hits still needed."""
        return {self._env.xy[c]: h for c, h in self._rocks}

    @property
    def layout(self) -> tuple[str, ...]:
        """The fixed tiles, row by row: "." "#" "o" "V" or a portal colour letter."""
        return self._env.layout.rows

    # ---- the engine's model, for solvers and pictures ------------------------------------
    @property
    def tables(self):
        """The engine's precomputed tables for these rules on this layout (read-only): the
        board geometry, neighbours, portals, the ruler's cells, what the rules functions of
        :mod:`taolong_lab.engine` take as ``env``."""
        return self._env

    @property
    def board(self) -> Board:
        """The board part of the position: ``Board(dragons, water, fire, rocks)``, with the
        dragons' cells as cell indices and the breakable rocks as ``(cell, hits)`` pairs; what
        the rules functions of :mod:`taolong_lab.engine` take as ``walk``."""
        return _board((self._dragons, self._water, self._fire, self._rocks))

    @property
    def dragons(self) -> tuple[Dragon, Dragon]:
        """Both dragons, white first."""
        return self._dragons

    @property
    def mover(self) -> int:
        """The colour to move as an index of ``COLOURS``: 0 white, 1 black."""
        return self._to_move

    @property
    def coin(self) -> int:
        """The flux coin as the engine holds it (see :attr:`flux`)."""
        return self._flux

    @classmethod
    def compose(cls, tables, board, bagua, coin: int, mover: int, ply: int) -> State:
        """The position made of these parts, as a solver rebuilds one (the inverse of
        :attr:`tables`, :attr:`board`, :attr:`bagua`, :attr:`coin`, :attr:`mover` and
        :attr:`ply`). The parts are not checked: :meth:`validate` does that."""
        return cls._make(tables, board, bagua, coin, mover, ply)

    # ---- identity ------------------------------------------------------------------------
    def _walk(self) -> tuple:
        """The board part of the position, ``(dragons, water, fire, rocks)``: what the rule
        functions take, and what :meth:`_make` builds a position from."""
        return (self._dragons, self._water, self._fire, self._rocks)

    def key(self) -> tuple:
        """Canonical identity: everything but the turn counter."""
        if self._key is None:
            object.__setattr__(
                self,
                "_key",
                (
                    self._dragons,
                    self._bagua,
                    self._water,
                    self._fire,
                    self._to_move,
                    self._rocks,
                    self._flux,
                    self._env.layout,
                ),
            )
        return self._key

    def __hash__(self) -> int:
        if self._hash is None:
            object.__setattr__(self, "_hash", hash(self.key()))
        return self._hash

    def __eq__(self, other) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self.key() == other.key() and self.rules == other.rules

    def __repr__(self) -> str:
        return f"State({self.to_tln()!r})"

    def __str__(self) -> str:
        from ..pictures.text import board_text

        return board_text(self)

    def _repr_svg_(self) -> str:
        from ..pictures import svg

        return svg(self)

    # ---- turns ---------------------------------------------------------------------------
    def outcome(self) -> Result | None:
        """``None`` while both dragons live, else who won and how."""
        white, black = self._dragons
        if len(white[0]) > 1 and len(black[0]) > 1:
            return None
        for colour, dragon in enumerate(self._dragons):
            if len(dragon[0]) < 2:
                return Result(COLOURS[1 - colour], f"{COLOURS[colour]} lost its last segment")
        return None

    def is_over(self) -> bool:
        white, black = self._dragons
        return len(white[0]) < 2 or len(black[0]) < 2

    def successors(self) -> list[tuple[Turn, State]]:
        """Every legal turn with the position it leads to, in a deterministic order."""
        if self._succ is None:
            object.__setattr__(self, "_succ", list(self._pairs()))
        return self._succ

    def iter_successors(self):
        """Like :meth:`successors`, but the positions are made as they are read and not kept
        (for big searches)."""
        return iter(self._succ) if self._succ is not None else self._pairs()

    def legal_turns(self) -> list[Turn]:
        """Every legal turn, in a deterministic order (ring order, then N/E/S/W, then
        one step before two, absorb before expel)."""
        count = self._move_list()[0]
        return list(map(lazy_turn, zip(repeat(self, count), range(count), strict=True)))

    def _pairs(self):
        child = self._child
        for i, move in enumerate(self._each_move()):
            yield lazy_turn((self, i)), child(move)

    # The legal turns, not yet carried out, are held as ``(count, starts, blocks)``: the turns
    # from ``starts[b]`` on come from ``blocks[b]``, which is one of
    #   (spirit, plans, None)    a turn for each plan (see .spirit.options);
    #   (spirit, (plan,), walk)  a Wind or Thunder that ended the game, ``walk`` after it;
    #   (spirit, plan, spirits)  a Wind or Thunder, then a turn for each plan of each of the
    #                            extra phase's spirits (a list).
    # Solo: ``(count, None, [SoloOption, ...])``. A move, as :meth:`_child` takes it, is
    # ``(spirit, plan, extra spirit, extra plan, walk or None)`` (solo: the SoloOption).
    def _move_list(self) -> tuple:
        moves = self._moves
        if moves is None:
            moves = (0, [], []) if self.is_over() else self._expand()
            object.__setattr__(self, "_moves", moves)
        return moves

    def _expand(self) -> tuple:
        env, colour = self._env, self._to_move
        walk = self._walk()
        if env.solo:
            lookahead = self.rules.option("solo_lookahead")
            found = solo_options(env, walk, self._bagua, self._flux, colour, lookahead)
            return len(found), None, found
        starts, blocks, count = [], [], 0
        extra = env.extra_elements if env.extra_phases else ()
        for spirit in options(env, walk, self._bagua, self._flux, colour):
            ways = spirit.plans
            if spirit.element not in extra or spirit.kind != EXEC:
                starts.append(count)
                blocks.append((spirit, ways, None))
                count += len(ways)
                continue
            after = bagua_after(spirit)
            for plan in ways:  # Wind or Thunder: an extra phase, unless the game is over
                w1 = carry(env, spirit, plan, colour)
                starts.append(count)
                if len(w1[0][0][0]) > 1 and len(w1[0][1][0]) > 1:
                    groups = options(env, w1, after, spirit.flow, colour)
                    blocks.append((spirit, plan, groups))
                    for second in groups:
                        count += len(second.plans)
                else:
                    blocks.append((spirit, (plan,), w1))
                    count += 1
        return count, starts, blocks

    def _move(self, index: int) -> tuple:
        """The ``index``-th legal turn as a move (see :meth:`_move_list`)."""
        _, starts, blocks = self._move_list()
        if starts is None:
            return blocks[index]
        b = bisect.bisect_right(starts, index) - 1
        spirit, ways, more = blocks[b]
        j = index - starts[b]
        if type(more) is not list:
            return spirit, ways[j], None, None, more
        for second in more:
            if j < len(second.plans):
                return spirit, ways, second, second.plans[j], None
            j -= len(second.plans)
        raise IndexError(index)

    def _each_move(self):
        """Every move, in turn order (see :meth:`_move_list`)."""
        _, starts, blocks = self._move_list()
        if starts is None:
            yield from blocks
            return
        for spirit, ways, more in blocks:
            if type(more) is not list:
                for plan in ways:
                    yield spirit, plan, None, None, more
            else:
                for second in more:
                    for plan in second.plans:
                        yield spirit, ways, second, plan, None

    def _child(self, move) -> State:
        """The position after ``move`` (see :meth:`_move_list`)."""
        env, colour = self._env, self._to_move
        if env.solo:
            walk = option_end(env, move, colour)
            if env.protector is not None:
                walk = village_damage(env, walk, colour)
            return State._make(env, walk, move.sowing.bagua, move.flow, colour, self._ply + 1)
        spirit, plan, second, extra, walk = move
        if second is not None:
            spirit, walk = second, carry(env, second, extra, colour)
        elif walk is None:
            walk = carry(env, spirit, plan, colour)
        if env.protector is not None:
            walk = village_damage(env, walk, colour)
        after = bagua_after(spirit)
        return State._make(env, walk, after, spirit.flow, 1 - colour, self._ply + 1)

    def _turn_phases(self, index: int) -> tuple[Phase, ...]:
        move = self._move(index)
        if self._env.solo:
            return (solo_phase(self._env, move),)
        spirit, plan, second, extra, _ = move
        if second is None:
            return (phase_of(self._env, spirit, plan),)
        return (phase_of(self._env, spirit, plan), phase_of(self._env, second, extra))

    def parse_turn(self, text: str | Turn) -> Turn:
        """Read turn notation against this position; raise if it is not a legal turn, or if
        it leaves out a solo opponent group that the opponent's priorities leave open."""
        return self._find(_as_turn(text))[0]

    def play(self, turn: str | Turn) -> State:
        """The position after ``turn`` (a :class:`Turn` or its notation). ``self`` is unchanged."""
        if type(turn) is _LazyTurn and turn[0] is self:  # one of this position's legal_turns()
            if self._succ is not None:
                return self._succ[turn[1]][1]
            return self._child(self._move(turn[1]))
        wanted = _as_turn(turn)
        if self._succ is not None:
            if self._index is None:
                object.__setattr__(self, "_index", dict(self._succ))
            after = self._index.get(wanted)
            if after is not None:
                return after
        return self._find(wanted)[1]

    def _find(self, wanted: Turn) -> tuple[Turn, State]:
        found = [
            (turn, self._child(self._move(i)))
            for i, turn in enumerate(self.legal_turns())
            if turn.matches(wanted)
        ]
        if not found:
            raise IllegalTurnError(str(wanted), self.explain_illegal(wanted))
        if any(s != found[0][1] for _, s in found):
            options = " or ".join(repr(str(t)) for t, _ in found)
            raise IllegalTurnError(
                str(wanted),
                f"ambiguous: the opponent's priorities leave the choice to you; write {options}",
            )
        return found[0]

    def explain_illegal(self, turn: Turn) -> str:
        """Why ``turn`` is not legal here, in words (used by the errors)."""
        from .explain import explain

        return explain(self, turn)

    # ---- invariants --------------------------------------------------------------------
    def problems(self) -> list[str]:
        """Every broken invariant, named; empty for a valid position."""
        from .codec import invariant_problems

        return invariant_problems(self)

    def validate(self) -> None:
        """Raise :class:`InvariantError` naming every broken invariant."""
        found = self.problems()
        if found:
            raise InvariantError(found)

    # ---- serialisation ---------------------------------------------------------------------
    def to_tln(self) -> str:
        from .codec import to_tln

        return to_tln(self)

    @classmethod
    def from_tln(cls, text: str) -> State:
        from .codec import from_tln

        return from_tln(text)

    def to_json(self) -> dict:
        from .codec import to_json

        return to_json(self)

    @classmethod
    def from_json(cls, doc: dict | str) -> State:
        from .codec import from_json

        return from_json(doc)

    def describe_turn(self, turn: Turn) -> str:
        """A sentence for a whole turn, phases joined by '; then '."""
        return "; then ".join(self.describe_phase(p) for p in turn.phases)

    def describe_phase(self, phase: Phase) -> str:
        """A sentence for a phase, e.g. 'sow Heaven -> Fire, step a3, expel'."""
        ring = game_data().ring
        words = f"sow {ring[phase.space].title()}"
        if phase.drops:
            words += f" dropping {phase.drops}"
        if phase.element >= 0:
            words += f" -> {ring[phase.element].title()}"
        for who, action in phase.focus:
            words += f", Focus: {COLOURS['wb'.index(who)]} {action.execution()}"
        if phase.opponent:
            words += f"; {self.describe_group(phase.opponent)}"
        sep = "; then " if phase.opponent else ", "
        if phase.ended:
            return words + ": the game ends before the Matter phase"
        if phase.penalty:
            return words + ": every action impossible, lose 1 life"
        return words + sep + _action_words(phase)

    def describe_group(self, group: tuple[tuple[int, Phase | None], ...]) -> str:
        """The solo opponent's group (:attr:`Phase.opponent`) in words, e.g. 'the black dragon
        acts: Mountain step f8, Water step e8, absorb'."""
        opponent = COLOURS[1 - self._to_move]
        if not group:
            return f"the {opponent} dragon does not act"
        ring = game_data().ring
        done = ", ".join(
            f"{ring[e].title()} " + ("impossible, skipped" if a is None else _action_words(a))
            for e, a in group
        )
        return f"the {opponent} dragon acts: {done}"


class _Building(State):
    """A State being built by :meth:`State._make`: the same slots, but settable (plain
    attribute stores are much cheaper than ``object.__setattr__``); it then becomes a State."""

    __slots__ = ()
    __setattr__ = object.__setattr__


def _action_words(phase: Phase) -> str:
    """A Matter execution in words: 'stay', 'step a3 a4', 'step c3, expel'."""
    if not phase.path:
        return "stay"
    via = {i: f"through {cell_name(a)}-{cell_name(b)} to " for i, a, b in phase.portals}
    words = "step " + " ".join(via.get(i, "") + cell_name(c) for i, c in enumerate(phase.path))
    return words + (f", {phase.effect}" if phase.effect else "")


def _as_turn(value) -> Turn:
    """A Turn from a Turn or its notation; anything else is a NotationError."""
    if isinstance(value, Turn):
        return value
    if isinstance(value, str):
        return parse_turn(value)
    raise NotationError(f"a turn is a Turn or its notation, not {type(value).__name__}")

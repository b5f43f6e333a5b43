"""Turns and their notation.

A turn is one or two phases: a Spirit choice (the Ba Gua space sown) and the Matter
execution of the element it lands on; a Wind or Thunder may add a second phase.

Notation of one phase: ``<sown>[><element>] <execution>``:

- ``He>Fi c3x``: sow Heaven, the last stone lands on Fire, step to c3 and expel;
- ``Wa>He a3,a4``: sow Water, land on Heaven, step to a3 then a4;
- ``Fi>La =``: land on Lake while facing the other axis, stay put;
- ``Fi>Ea -``: every choice was impossible, so skip the Matter phase and lose 1 life.

Absorb is ``+``, expel is ``x``. Two phases are joined with ``" ; "``. A step through a
portal names the two portals first: ``[d2f6]g6`` enters d2, leaves by f6 and lands on g6.

Solo: the opponent's group comes in parentheses before the player's Matter part, one
``element:execution`` per action in drop order, ``~`` for an impossible action it skips:
``He>Fi (Fi:c3x La:= Wa:~) a3+``. A turn written without the group matches any group.

A turn's notation is at most 1,000 characters long; it is read in linear time.

>>> t = parse_turn("Wa>He a3,a4")
>>> t.phases[0].path
((0, 2), (0, 3))
>>> str(t)
'Wa>He a3,a4'
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from ..errors import NotationError
from ..rules.data import game_data, shown
from .geometry import cell_name, parse_cell

ABSORB, EXPEL = "absorb", "expel"
_EFFECT_MARK = {ABSORB: "+", EXPEL: "x"}
MAX_TURN_CHARS = 1000
MAX_PHASES = 2
_VIA_RE = re.compile(r"\[([a-z][0-9]+)([a-z][0-9]+)\](.*)\Z", re.IGNORECASE)
# A phase is its head, the Focus groups, the solo group, then the Matter part. No two
# quantifiers can share a character, so each part is read in one pass.
_HEAD_RE = re.compile(r"\s*([A-Za-z]+)(?:/([WBwb]+))?(?:\s*>\s*([A-Za-z]+))?\s+")
_GROUPS_RE = re.compile(r"((?:\{[^}]*\}\s*)*)(?:\(([^)]*)\)\s*)?")
_FOCUS_RE = re.compile(r"\{\s*([wbWB])\s*:\s*([^}]*)\}")


def space_abbrev(space: int) -> str:
    abbrev = game_data().abbrev
    return abbrev[space] if 0 <= space < len(abbrev) else f"#{space}"


def space_index(text: str) -> int:
    """Ring index of a space given by its abbreviation or its full name (any case)."""
    data = game_data()
    lowered = text.lower()
    for i, (name, ab) in enumerate(zip(data.ring, data.abbrev, strict=True)):
        if lowered in (name, ab.lower()):
            return i
    known = ", ".join(f"{ab} ({name})" for name, ab in zip(data.ring, data.abbrev, strict=True))
    raise NotationError(f"{shown(text)} is not a Ba Gua space; spaces: {known}")


class Phase(NamedTuple):
    """One Spirit choice and its Matter execution.

    ``element`` is the space that received the last stone (-1 when not yet known, as
    after parsing notation that omits it). ``path`` lists the head's cells after each
    step; an empty path is a Lake/Mountain stay, or a penalty when ``penalty`` is set.
    """

    space: int
    element: int = -1
    path: tuple[tuple[int, int], ...] = ()
    effect: str | None = None
    penalty: bool = False
    portals: tuple[tuple[int, tuple[int, int], tuple[int, int]], ...] = ()  # (step, entry, exit)
    drops: str = ""  # Monk on: the colours dropped, in order, when the player chose them
    focus: tuple[tuple[str, Phase], ...] = ()  # Monk on: ("w"|"b", action) of each Focus
    ended: bool = False  # the game ended during the Spirit phase: no Matter phase
    # Solo: the opponent's group in drop order, (element, action or None if skipped);
    # None when it has no action (or, after parsing, when the group was not written).
    opponent: tuple[tuple[int, Phase | None], ...] | None = None

    def __str__(self) -> str:
        head = space_abbrev(self.space) + (f"/{self.drops}" if self.drops else "")
        if self.element >= 0:
            head += ">" + space_abbrev(self.element)
        focus = "".join(f"{{{who}:{action.execution()}}} " for who, action in self.focus)
        return f"{head} {focus}{self.group()}{self.execution()}"

    def group(self) -> str:
        """The solo opponent's group with a trailing space, or ``""``."""
        if not self.opponent:
            return ""
        actions = " ".join(
            f"{space_abbrev(e)}:{'~' if a is None else a.execution()}" for e, a in self.opponent
        )
        return f"({actions}) "

    def execution(self) -> str:
        """The Matter part of the notation: cells and effect, ``=``, ``-`` or ``#``."""
        if self.ended:
            return "#"
        if self.penalty:
            return "-"
        if not self.path:
            return "="
        via = {i: f"[{cell_name(a)}{cell_name(b)}]" for i, a, b in self.portals}
        cells = ",".join(via.get(i, "") + cell_name(c) for i, c in enumerate(self.path))
        return cells + _EFFECT_MARK.get(self.effect, "")

    def matches(self, other: Phase) -> bool:
        """Equal, treating an unknown element (-1) on either side, and a solo group that
        ``other`` (the turn as written) leaves out, as wildcards."""
        blank = {"element": -1}
        if other.opponent is None:
            blank["opponent"] = None
        same = self._replace(**blank) == other._replace(**blank)
        return same and (self.element == other.element or -1 in (self.element, other.element))


class Turn(tuple):
    """A whole turn: one or two :class:`Phase` values, ``phases``.

    ``Turn((phase,))`` builds one; :meth:`State.legal_turns` returns turns whose phases are
    worked out only when first read (their notation is not needed to play them). Turns are
    immutable, and equal when their phases are.
    """

    __slots__ = ()

    def __new__(cls, phases: tuple[Phase, ...]):
        return tuple.__new__(cls, (tuple(phases),))

    @property
    def phases(self) -> tuple[Phase, ...]:
        return self[0]

    def __eq__(self, other) -> bool:
        if not isinstance(other, Turn):
            return NotImplemented
        return self.phases == other.phases

    def __ne__(self, other) -> bool:
        if not isinstance(other, Turn):
            return NotImplemented
        return self.phases != other.phases

    def __hash__(self) -> int:
        return hash(self.phases)

    def __reduce__(self):
        return (Turn, (self.phases,))

    def __str__(self) -> str:
        return " ; ".join(str(p) for p in self.phases)

    def __repr__(self) -> str:
        return f"Turn.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Turn:
        """Read turn notation (no position needed). ``Turn.parse(str(t)) == t``."""
        return parse_turn(text)

    def matches(self, other: Turn) -> bool:
        mine, theirs = self.phases, other.phases
        return len(mine) == len(theirs) and all(
            a.matches(b) for a, b in zip(mine, theirs, strict=True)
        )


class _LazyTurn(Turn):
    """One of a position's legal turns, held as ``(position, index)``: its phases are worked
    out (and kept) when first read."""

    @functools.cached_property
    def phases(self) -> tuple[Phase, ...]:
        return self[0]._turn_phases(self[1])


lazy_turn = functools.partial(tuple.__new__, _LazyTurn)  # lazy_turn((position, index))


def _parse_action(body: str, text: str) -> Phase:
    """The Matter part of a phase (see :meth:`Phase.execution`), with no space yet."""
    body = body.replace(" ", "")
    if body == "-":
        return Phase(-1, penalty=True)
    if body == "=":
        return Phase(-1)
    if body == "#":
        return Phase(-1, ended=True)
    effect = None
    lowered = body.lower()
    for word, eff in (("absorb", ABSORB), ("expel", EXPEL), ("+", ABSORB), ("x", EXPEL)):
        if lowered.endswith(word):
            effect, body = eff, body[: -len(word)]
            break
    if not body:
        raise NotationError(f"phase {shown(text, 80)} names no cell to move to")
    path, portals = [], []
    for i, part in enumerate(body.split(",")):
        via = _VIA_RE.match(part)
        if via:
            portals.append((i, parse_cell(via[1]), parse_cell(via[2])))
            part = via[3]
        path.append(parse_cell(part))
    return Phase(-1, -1, tuple(path), effect, portals=tuple(portals))


def parse_phase(text: str) -> Phase:
    """Read one phase's notation (see the module docstring)."""
    head = _HEAD_RE.match(text)
    groups = _GROUPS_RE.match(text, head.end()) if head else None
    execution = text[groups.end() :].rstrip() if groups else ""
    if not execution or "\n" in execution:
        raise NotationError(
            f"cannot read phase {shown(text, 80)}: a phase is the space sown, '>' and the "
            "element, then what the dragon does, e.g. 'He>Fi c3x'"
        )
    space = space_index(head[1])
    drops = (head[2] or "").upper()
    element = space_index(head[3]) if head[3] else -1
    focus = tuple(
        (who.lower(), _parse_action(action, text)) for who, action in _FOCUS_RE.findall(groups[1])
    )
    opponent = None
    if groups[2] is not None:
        opponent = tuple(_parse_group_action(part, text) for part in groups[2].split()) or None
    action = _parse_action(execution, text)
    return action._replace(
        space=space, element=element, drops=drops, focus=focus, opponent=opponent
    )


def _parse_group_action(part: str, text: str) -> tuple[int, Phase | None]:
    element, colon, body = part.partition(":")
    if not colon or not body:
        raise NotationError(
            f"phase {shown(text, 80)}: opponent action {shown(part)} must read element:execution, "
            "e.g. Fi:c3x"
        )
    return space_index(element), None if body == "~" else _parse_action(body, text)


def parse_turn(text: str) -> Turn:
    """Parse turn notation without a position. See :meth:`State.parse_turn` to check it."""
    if not isinstance(text, str) or not text.strip():
        raise NotationError("empty turn notation")
    if len(text) > MAX_TURN_CHARS:
        raise NotationError(f"turn notation longer than {MAX_TURN_CHARS} characters")
    parts = text.split(";")
    if len(parts) > MAX_PHASES:
        raise NotationError(f"{shown(text)}: a turn has at most two phases")
    return Turn(tuple(parse_phase(part) for part in parts))


__all__ = [
    "ABSORB",
    "EXPEL",
    "MAX_PHASES",
    "MAX_TURN_CHARS",
    "Phase",
    "Turn",
    "lazy_turn",
    "parse_phase",
    "parse_turn",
    "space_abbrev",
    "space_index",
]

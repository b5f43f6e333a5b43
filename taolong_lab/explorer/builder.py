"""The Explorer's turn builder: one legal turn chosen a step at a time, with no view.

A turn is made of choices, asked in this order: a Ba Gua space to sow, then, as the legal turns
require, the drop order (Monk and later), a Focus action, the solo opponent's tie, the
destination (a cell, ``stay`` or the 1-life penalty) and absorb or expel. Only the choices
some legal turn continues with are offered (:meth:`TurnBuilder.options`); every other button
of the Explorer comes with the reason it is not (:meth:`TurnBuilder.space_offers`,
:meth:`TurnBuilder.choice_offers`, :meth:`TurnBuilder.effect_offers`). Choices that are not the
player's to make (a single drop order, Focus action or tie) are made for them, and so is a lone
legal destination (:attr:`TurnBuilder.lone` lists it). When the choices name exactly one legal
turn, the turn is complete.

The words come from the engine (:meth:`~taolong_lab.engine.State.describe_phase`,
:meth:`~taolong_lab.engine.State.describe_group`, :meth:`~taolong_lab.engine.State.explain_illegal`)
and the stacks from its own sowings (:func:`~taolong_lab.engine.spirit.sowings`,
:func:`~taolong_lab.engine.solo.solo_sowings` in solo, :func:`~taolong_lab.engine.sow`).

>>> from taolong_lab import new_game
>>> builder = TurnBuilder(new_game())
>>> builder.choose_space("Wa") is None      # sow Water: the last stone lands on Heaven
True
>>> [option.label for option in builder.options()]
['a3', 'a3,a4']
>>> str(builder.choose("a3,a4"))            # the turn is complete
'Wa>He a3,a4'
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from ..engine import State, Turn, cell_name, sow
from ..engine.geometry import VECTORS
from ..engine.solo import solo_sowings
from ..engine.spirit import Sowing, flow_for, sowings
from ..engine.turns import Phase, space_abbrev, space_index
from ..errors import TaoLongError
from ..rules.data import game_data, shown


class ChoiceKind(StrEnum):
    """What a :class:`Choice` chooses, in the order a turn is built (equal to its name as a
    string, the way the page and the tests spell it).

    >>> ChoiceKind.MOVE == "move", f"{ChoiceKind.SPACE}"
    (True, 'space')
    """

    SPACE = "space"
    DROPS = "drops"
    FOCUS = "focus"
    GROUP = "group"
    MOVE = "move"
    EFFECT = "effect"

    def __repr__(self) -> str:
        return repr(self.value)  # shown as the string it stands for, in a Choice too


KIND_TITLES = {
    ChoiceKind.SPACE: "sow a Ba Gua space",
    ChoiceKind.DROPS: "choose the drop order",
    ChoiceKind.FOCUS: "choose the Focus action",
    ChoiceKind.GROUP: "break the opponent's tie",
    ChoiceKind.MOVE: "choose the destination",
    ChoiceKind.EFFECT: "absorb or expel",
}
EFFECTS = {"absorb": "absorb +", "expel": "expel x"}  # the effects and their buttons' labels
_FORCED_KINDS = frozenset(
    {ChoiceKind.DROPS, ChoiceKind.FOCUS, ChoiceKind.GROUP, ChoiceKind.MOVE}
)  # taken when the only option
_ALIASES = {"+": "absorb", "x": "expel", "=": "stay", "-": "skip (-1 life)"}


class ExplorerError(TaoLongError):
    """A choice the Explorer cannot make here (the message says why)."""


class Choice(NamedTuple):
    """One option for the next choice of the turn being built."""

    kind: ChoiceKind
    value: Any  # hashable, compared with the legal turns
    label: str  # what its button says; :meth:`TurnBuilder.choose` accepts it
    tooltip: str  # the same in words


class Offer(NamedTuple):
    """A button of the Explorer: what it says, what it does or why it cannot, and the choice it
    makes (None: not offered now)."""

    label: str
    tooltip: str
    choice: Choice | None


def sentence(text: str) -> str:
    """``text`` as a sentence, for a tooltip: a capital first letter, a full stop at the end.

    >>> sentence("sow Heaven: the last stone lands on Fire")
    'Sow Heaven: the last stone lands on Fire.'
    """
    text = text.strip()
    if not text:
        return text
    if text[1:2].isalpha() or text[1:2] == " ":  # not a cell's name ("b2 is ...")
        text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?", ")")) and not text.endswith(" )") else text + "."


def _key(choice: Choice) -> tuple:
    return choice.kind, choice.value


def _move_label(phase: Phase) -> str:
    if phase.ended:
        return "game over"
    if phase.penalty:
        return "skip (-1 life)"
    if not phase.path:
        return "stay"
    return phase._replace(effect=None).execution()


def choices_of(state: State, turn: Turn) -> list[Choice]:
    """The choices that build ``turn`` from ``state``, in the order they are asked for.

    Parameters
    ----------
    state : State
        The position the turn is played from.
    turn : Turn
        One of its legal turns.

    Returns
    -------
    list of Choice
    """
    ring = game_data().ring
    out = []
    for phase in turn.phases:
        name = ring[phase.space].title()
        out.append(Choice(ChoiceKind.SPACE, phase.space, space_abbrev(phase.space), f"sow {name}"))
        if phase.drops:
            out.append(
                Choice(
                    ChoiceKind.DROPS, phase.drops, phase.drops, f"drop {phase.drops} in this order"
                )
            )
        if phase.focus:
            label = " ".join(f"{{{who}:{a.execution()}}}" for who, a in phase.focus)
            out.append(Choice(ChoiceKind.FOCUS, phase.focus, label, f"Focus: {label}"))
        if phase.opponent is not None:
            group = Phase(0, opponent=phase.opponent).group().strip()
            out.append(
                Choice(
                    ChoiceKind.GROUP, phase.opponent, group, state.describe_group(phase.opponent)
                )
            )
        matter = Phase(
            phase.space,
            phase.element,
            phase.path,
            penalty=phase.penalty,
            portals=phase.portals,
            ended=phase.ended,
        )
        move = (phase.path, phase.portals, phase.penalty, phase.ended)
        out.append(Choice(ChoiceKind.MOVE, move, _move_label(phase), state.describe_phase(matter)))
        if phase.effect:
            out.append(Choice(ChoiceKind.EFFECT, phase.effect, phase.effect, phase.effect))
    return out


class _Sowed(NamedTuple):
    sowing: Sowing  # the engine's: the stacks after, the element, the drop order if chosen
    colours: str  # the stones in drop order
    targets: tuple[int, ...]  # the space each stone landed on


def _ways(state: State, bagua: tuple[str, ...], space: int, flow: int) -> list[_Sowed]:
    """Each way the side to move may sow ``space``: the engine's
    :func:`~taolong_lab.engine.solo.solo_sowings` in solo (A28), else
    :func:`~taolong_lab.engine.spirit.sowings`."""
    if state.rules.solo:
        return [
            _Sowed(way.sowing, way.pattern, way.targets)
            for way in solo_sowings(state.tables, bagua, space, flow)
        ]
    targets = sow(bagua, space, flow).targets
    return [
        _Sowed(sowing, sowing.drops or bagua[space], targets)
        for sowing in sowings(state.tables, bagua, space, flow)
    ]


def _followed(state: State, phases) -> list[_Sowed] | None:
    """How the engine sows each phase from ``state`` (the drop order the phase chose, or the
    one the rules leave); None when a phase's sowing is not one of the ways."""
    bagua, coin, found = state.bagua, state.coin, []
    for phase in phases:
        if not 0 <= phase.space < len(bagua) or not bagua[phase.space]:
            return None
        flow = flow_for(bagua[phase.space], coin, state.rules.mode)
        ways = [
            way
            for way in _ways(state, bagua, phase.space, flow)
            if way.sowing.element == phase.element and way.sowing.drops == phase.drops
        ]
        if len(ways) != 1:
            return None
        found.append(ways[0])
        bagua, coin = ways[0].sowing.bagua, flow  # the flux coin shows the last flow
    return found


def stacks_after(state: State, phases) -> tuple[str, ...] | None:
    """The Ba Gua stacks after sowing ``phases`` from ``state``.

    Parameters
    ----------
    state : State
    phases : iterable of Phase
        The first phases of a legal turn.

    Returns
    -------
    tuple of str or None
        None when the phases are not sowings of ``state``.
    """
    phases = list(phases)
    if not phases:
        return state.bagua
    found = _followed(state, phases)
    return None if found is None else found[-1].sowing.bagua


def sowing_words(state: State, turn: Turn, number: int) -> str:
    """Where the stones of phase ``number`` of ``turn`` fell and the element they name, e.g.
    'sowing Water: black on Wind, white on Heaven; the last stone names Heaven'.

    Parameters
    ----------
    state : State
        The position the turn is played from.
    turn : Turn
    number : int
        The phase, from 0.

    Returns
    -------
    str
        Empty when the phases are not sowings of ``state``.
    """
    found = _followed(state, turn.phases[: number + 1])
    if found is None:
        return ""
    way, space, ring = found[-1], turn.phases[number].space, game_data().ring
    falls = ", ".join(
        f"{'white' if stone == 'W' else 'black'} on {ring[target].title()}"
        for stone, target in zip(way.colours, way.targets, strict=True)
    )
    return (
        f"sowing {ring[space].title()}: {falls}; the last stone names "
        f"{ring[way.sowing.element].title()}"
    )


class TurnBuilder:
    """A turn of ``state`` built one choice at a time.

    ``picked`` holds the choices made so far; :meth:`choose_space` and :meth:`choose` add one
    (and the forced ones after it) and return the turn once it is complete. A choice that is not
    offered raises :class:`ExplorerError` saying why, and changes nothing.
    """

    def __init__(self, state: State):
        if not isinstance(state, State):
            raise ExplorerError(f"a turn is built from a State, not {type(state).__name__}")
        self.state = state
        self.picked: list[Choice] = []
        self.last_choice: Choice | None = None  # the latest choice the player made
        self.lone: list[Choice] = []  # destinations taken after it because each was the only one
        self._sequences: list[tuple[Turn, list[Choice]]] | None = None

    # ---- the legal turns as sequences of choices -------------------------------------------
    def _all(self) -> list[tuple[Turn, list[Choice]]]:
        if self._sequences is None:
            self._sequences = [(t, choices_of(self.state, t)) for t in self.state.legal_turns()]
        return self._sequences

    def candidates(self, picked: list[Choice] | None = None) -> list[tuple[Turn, list[Choice]]]:
        """The legal turns that begin with ``picked`` (default: the choices made), each with
        its choices."""
        keys = [_key(c) for c in (self.picked if picked is None else picked)]
        n = len(keys)
        return [(t, s) for t, s in self._all() if [_key(c) for c in s[:n]] == keys]

    def _options_after(self, picked: list[Choice]) -> list[Choice]:
        n = len(picked)
        seen, out = set(), []
        for _turn, seq in self.candidates(picked):
            if len(seq) > n and _key(seq[n]) not in seen:
                seen.add(_key(seq[n]))
                out.append(seq[n])
        return out

    def options(self) -> list[Choice]:
        """The choices some legal turn continues with, in the engine's turn order."""
        return self._options_after(self.picked)

    def next_kind(self) -> ChoiceKind | None:
        """The kind of the next choice (a key of :data:`KIND_TITLES`); None when no turn is
        left to build."""
        options = self.options()
        return options[0].kind if options else None

    def _phase_start(self) -> list[Choice]:
        """The choices before the phase being built (its space may be chosen again)."""
        starts = [i for i, c in enumerate(self.picked) if c.kind == ChoiceKind.SPACE]
        if starts and self.next_kind() != ChoiceKind.SPACE:
            return self.picked[: starts[-1]]
        return self.picked

    # ---- choosing -----------------------------------------------------------------------------
    def choose_space(self, space: int | str) -> Turn | None:
        """Sow a Ba Gua space: its ring index, abbreviation or name. While the phase's choices
        are pending, another space of the same phase starts the phase again.

        Parameters
        ----------
        space : int or str

        Returns
        -------
        Turn or None
            The turn, once the choices name exactly one.

        Raises
        ------
        ExplorerError
            A space no legal turn sows here, with the reason.
        """
        ring = game_data().ring
        if isinstance(space, int) and not isinstance(space, bool):
            if not 0 <= space < len(ring):
                raise ExplorerError(f"no Ba Gua space {space}: the spaces are 0 to {len(ring) - 1}")
            index = space
        else:
            try:
                index = space_index(str(space))
            except TaoLongError as exc:
                raise ExplorerError(str(exc)) from None
        if self.state.is_over():
            raise ExplorerError(f"the game is over ({self.state.outcome()})")
        base = self._phase_start()
        offered = {c.value: c for c in self._options_after(base) if c.kind == ChoiceKind.SPACE}
        if index not in offered:
            raise ExplorerError(f"cannot sow {space_abbrev(index)}: {self.space_reason(index)}")
        self.picked = list(base)
        return self._pick(offered[index])

    def choose(self, option: str | int | Choice) -> Turn | None:
        """Make the next choice.

        Parameters
        ----------
        option : str, int or Choice
            A destination (``"a3"``, ``"a3,a4"``, ``"stay"``, ``"skip (-1 life)"``; a cell
            that ends one path alone), ``"absorb"``/``"expel"`` (or ``+``/``x``), a drop order,
            a Focus action or an opponent's tie (their labels), a :class:`Choice`, or an index
            into :meth:`options`. A space's name sows it (:meth:`choose_space`).

        Returns
        -------
        Turn or None
            The turn, once the choices name exactly one.

        Raises
        ------
        ExplorerError
            Nothing to choose, or a choice that is not offered, with the ones that are.
        """
        options = self.options()
        if not options:
            what = "the game is over" if self.state.is_over() else "no choice is pending"
            raise ExplorerError(f"nothing to choose: {what}")
        kind = options[0].kind
        if isinstance(option, Choice):
            found = [c for c in options if _key(c) == _key(option)]
        elif isinstance(option, int) and not isinstance(option, bool):
            found = [options[option]] if 0 <= option < len(options) else []
        else:
            text = str(option).strip()
            text = _ALIASES.get(text, text)
            found = [c for c in options if c.label.lower() == text.lower()]
            if not found and kind == ChoiceKind.MOVE:  # the one path ending on that cell
                found = [c for c in options if c.label.split(",")[-1].endswith(text)]
                found = found if len(found) == 1 else []
            if not found and kind != ChoiceKind.SPACE:
                try:
                    space = space_index(text)
                except TaoLongError:
                    space = None
                if space is not None:
                    return self.choose_space(space)
        if not found:
            offered = ", ".join(c.label for c in options)
            raise ExplorerError(
                f"{shown(option)} is not a legal choice now ({KIND_TITLES[kind]}): {offered}"
            )
        return self._pick(found[0])

    def _pick(self, choice: Choice) -> Turn | None:
        self.picked.append(choice)
        self.last_choice = choice
        self.lone = []
        while True:  # the forced choices, and a lone destination: nothing to choose
            options = self.options()
            if len(options) != 1 or options[0].kind not in _FORCED_KINDS:
                break
            forced = options[0]
            self.picked.append(forced)
            if forced.kind == ChoiceKind.MOVE and not forced.value[3]:  # not a game ending: say it
                self.lone.append(forced)
        done = [t for t, s in self.candidates() if len(s) == len(self.picked)]
        return done[0] if done else None

    def cancel(self) -> None:
        """Forget the choices made."""
        self.picked = []
        self.last_choice = None
        self.lone = []

    # ---- where the turn stands ------------------------------------------------------------------
    def phase_number(self) -> int:
        """The phase being built, from 0 (a new phase when the next choice is its space)."""
        spaces = sum(1 for c in self.picked if c.kind == ChoiceKind.SPACE)
        return spaces if self.next_kind() == ChoiceKind.SPACE or spaces == 0 else spaces - 1

    def phases_done(self) -> list[Phase]:
        """The complete phases chosen so far."""
        candidates = self.candidates()
        if not candidates:
            return []
        return list(candidates[0][0].phases[: self.phase_number()])

    def current_space(self) -> int | None:
        """The space of the phase chosen last, if any."""
        spaces = [c.value for c in self.picked if c.kind == ChoiceKind.SPACE]
        return spaces[-1] if spaces else None

    def stacks(self) -> tuple[str, ...]:
        """The Ba Gua stacks before the phase being built: after the turn's first phase when
        choosing the second."""
        return stacks_after(self.state, self.phases_done()) or self.state.bagua

    def prompt(self) -> str:
        """What was chosen so far and what to choose next, in words ("" before any choice)."""
        candidates = self.candidates()
        if not candidates or not self.picked:
            return ""
        turn = candidates[0][0]
        number = sum(1 for c in self.picked if c.kind == ChoiceKind.SPACE) - 1
        phase = turn.phases[number]
        parts = [
            sowing_words(self.state, turn, number)
            or f"sow {space_abbrev(phase.space)}: lands on {space_abbrev(phase.element)}"
        ]
        group = [c for c in self.picked if c.kind == ChoiceKind.GROUP]
        if group and group[-1].value is not None:
            parts.append(group[-1].tooltip)
        if self.lone:
            parts.append(f"{', '.join(c.label for c in self.lone)}: the only destination, taken")
        kind = self.next_kind()
        if kind:
            parts.append(f"now {KIND_TITLES[kind]}: {', '.join(c.label for c in self.options())}")
        return "; ".join(parts)

    # ---- the reasons: why a choice is, or is not, offered ------------------------------------
    def space_reason(self, space: int) -> str:
        """Why no legal turn sows ``space`` in the phase being built."""
        if self.state.is_over():
            return f"the game is over ({self.state.outcome()})"
        reason = self.state.explain_illegal(Turn((*self.phases_done(), Phase(space))))
        for prefix in ("the turn: ", "phase 1: ", "phase 2: "):
            reason = reason.removeprefix(prefix)
        if "allows only" in reason or reason.startswith("no legal turn"):
            reason = f"no legal turn sows {space_abbrev(space)} now"
        return reason

    def lands(self, space: int) -> str:
        """'sow Heaven: the last stone lands on Fire' for a space offered in this phase."""
        ring = game_data().ring
        base = self._phase_start()
        n = len(base)
        for turn, seq in self.candidates(base):
            if len(seq) > n and _key(seq[n]) == (ChoiceKind.SPACE, space):
                number = sum(1 for c in seq[: n + 1] if c.kind == ChoiceKind.SPACE) - 1
                element = turn.phases[number].element
                return f"sow {ring[space].title()}: the last stone lands on {ring[element].title()}"
        return f"sow {ring[space].title()}"

    def neighbours(self) -> list[tuple[int, int]]:
        """The cells next to the head of the dragon to move, on the board."""
        state = self.state
        if not state.dragon(state.to_move).alive:
            return []
        rows = state.layout
        height, width = len(rows), len(rows[0]) if rows else 0
        x, y = state.cells(state.to_move)[0]
        return [
            (x + dx, y + dy) for dx, dy in VECTORS if 0 <= x + dx < width and 0 <= y + dy < height
        ]

    def cell_reason(self, cell: tuple[int, int]) -> str:
        """Why the head cannot go to the neighbouring ``cell`` now."""
        state = self.state
        moves = [c for c in self.options() if c.kind == ChoiceKind.MOVE]
        candidates = self.candidates()
        number = self.phase_number()
        element = candidates[0][0].phases[number].element if candidates else -1
        name = game_data().ring[element].title() if element >= 0 else "this action"
        why = f"{name} goes to {', '.join(c.label for c in moves) or 'nowhere'} only"
        for colour in ("white", "black"):
            cells = state.cells(colour)
            if cell in cells:
                part = "head" if cells[0] == cell else "body"
                why = f"the {colour} dragon's {part} is there; {why}"
                break
        else:
            tile = {"#": "a rock", "o": "a rock", "V": "the village"}.get(
                state.layout[cell[1]][cell[0]]
            )
            if cell in state.rocks or tile:
                why = f"{tile or 'a rock'} is there; {why}"
        return f"{cell_name(cell)} is not a legal destination: {why}"

    def space_offers(self) -> list[Offer]:
        """One offer a Ba Gua space, in ring order: the space and its stack, and what sowing
        it does or why it cannot be sown in the phase being built."""
        ring = game_data().ring
        offered = {
            c.value: c
            for c in self._options_after(self._phase_start())
            if c.kind == ChoiceKind.SPACE
        }
        stacks = self.stacks()
        offers = []
        for space, name in enumerate(ring):
            stack = stacks[space]
            choice = offered.get(space)
            why = self.lands(space) if choice else self.space_reason(space)
            label = f"{space_abbrev(space)} {stack}" if stack else space_abbrev(space)
            tip = f"{name.title()} ({stack or 'empty'}). {sentence(why)}"
            offers.append(Offer(label, tip, choice))
        return offers

    def choice_offers(self) -> list[Offer]:
        """The offers for the next choice but a space or an effect: each option, and for a
        destination the head's other neighbours, not offered, with the reason."""
        options = self.options()
        kind = options[0].kind if options else None
        if kind in (None, ChoiceKind.SPACE, ChoiceKind.EFFECT):
            return []
        offers = [Offer(c.label, sentence(c.tooltip), c) for c in options]
        if kind == ChoiceKind.MOVE:
            ends = {c.value[0][-1] for c in options if c.value[0]}
            offers += [
                Offer(cell_name(cell), sentence(self.cell_reason(cell)), None)
                for cell in self.neighbours()
                if cell not in ends
            ]
        return offers

    def effect_offers(self) -> dict[str, Offer]:
        """Absorb and expel (the keys of :data:`EFFECTS`): offered after the step of a Fire or
        Water action, else the reason."""
        options = self.options()
        kind = options[0].kind if options else None
        offered = {c.value: c for c in options if c.kind == ChoiceKind.EFFECT}
        over = self.state.outcome()
        offers = {}
        for effect, label in EFFECTS.items():
            if effect in offered:
                tip = f"{effect} the element"
            elif over:
                tip = f"the game is over ({over})"
            elif kind == ChoiceKind.EFFECT:
                tip = f"only {', '.join(sorted(offered))} is legal here"
            else:
                tip = f"{effect} follows the step of a Fire or Water action" + (
                    "; choose a destination first" if kind == ChoiceKind.MOVE else ""
                )
            offers[effect] = Offer(label, sentence(tip), offered.get(effect))
        return offers

    def overlay(self) -> dict:
        """The picture's options for the turn being built
        (:func:`taolong_lab.pictures.svg`): the sowing of its first phase, the destinations
        offered and the path chosen; empty before any choice."""
        if not self.picked:
            return {}
        ends = {c.value[0][-1] for c in self.options() if c.kind == ChoiceKind.MOVE and c.value[0]}
        chosen = [cell for c in self.picked if c.kind == ChoiceKind.MOVE for cell in c.value[0]]
        found = {"destinations": sorted(ends) or None, "highlight": chosen or None}
        if sum(1 for c in self.picked if c.kind == ChoiceKind.SPACE) == 1:
            drops = [c.value for c in self.picked if c.kind == ChoiceKind.DROPS]
            found["sow"] = space_abbrev(self.picked[0].value) + (f"/{drops[0]}" if drops else "")
        return {name: value for name, value in found.items() if value is not None}


__all__ = [
    "EFFECTS",
    "KIND_TITLES",
    "Choice",
    "ChoiceKind",
    "ExplorerError",
    "Offer",
    "TurnBuilder",
    "choices_of",
    "sowing_words",
    "stacks_after",
]

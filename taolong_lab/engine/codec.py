"""Positions as text: TLN (one line) and JSON; the start position; invariant checks.

TLN has eight space-separated fields; the start of the default game is::

    field/grasshopper/current 8/8/8/8/8/8/8/8 a2-a1-b1-b2:4:0 g8-h8-h7-g7:4:0 \
        WW/-/BW/-/BB/-/WB/- 0:8 w 1

(on one line).

1. rules: ``scenario/mode/edition[/solo]`` then ``+option=value`` for each non-default option;
2. board: the Board of Human row by row from the top, ``/`` between rows, a digit for a run of
   empty cells (the Field has no tiles);
3. white dragon, 4. black dragon: cells head first joined by ``-``, then ``:water:fire``;
5. Ba Gua: the eight stacks in ring order from Heaven, base first, ``-`` for empty;
6. centre: ``water:fire`` stones in the centre;
7. side to move: ``w`` or ``b``;
8. turn number, from 1.
"""

from __future__ import annotations

import json
import re

from ..errors import PositionError, RulesError
from ..rules.data import COLOURS, game_data
from ..rules.options import Rules
from .core import Dragon, env_for
from .geometry import cell_name, parse_cell
from .state import State

FIELDS = ("rules", "board", "white", "black", "bagua", "centre", "side", "turn")
JSON_FORMAT = "taolong-position"
JSON_VERSION = 1
_INT_RE = re.compile(r"\d+\Z")


def start_state(rules: Rules) -> State:
    data = game_data()
    env = env_for(rules)
    dragons = tuple(
        Dragon(tuple(env.geo.index(xy) for xy in cells), data.start_water, data.start_fire)
        for cells in data.start_cells
    )
    water = data.water_stones - sum(d.water for d in dragons)
    fire = data.fire_stones - sum(d.fire for d in dragons)
    return State._make(rules, dragons, data.setup_stacks, water, fire, 0, 0, env)


# ---- TLN -----------------------------------------------------------------------------------
def _board_field(state: State) -> str:
    geo = state._env.geo
    return "/".join(str(geo.width) for _ in range(geo.height))


def to_tln(state: State) -> str:
    env = state._env
    parts = [state.rules.token(), _board_field(state)]
    for d in state._dragons:
        cells = "-".join(env.geo.name(c) for c in d.cells)
        parts.append(f"{cells}:{d.water}:{d.fire}")
    parts.append("/".join(stack or "-" for stack in state._bagua))
    parts.append(f"{state._water}:{state._fire}")
    parts.append("wb"[state._to_move])
    parts.append(str(state._ply + 1))
    return " ".join(parts)


def _int(text: str, field: str, what: str) -> int:
    if not _INT_RE.match(text):
        raise PositionError(field, f"{what} must be a whole number, not {text!r}")
    return int(text)


def _rules(token: str, field: str = "rules") -> Rules:
    try:
        return Rules.from_token(token)
    except RulesError as exc:
        raise PositionError(field, str(exc)) from None


def _check_board(rows: list[str], state_env, field: str) -> None:
    geo = state_env.geo
    if len(rows) != geo.height:
        raise PositionError(field, f"has {len(rows)} rows, the board has {geo.height}")
    for y, row in enumerate(rows):
        x = 0
        for ch in row:
            if ch.isdigit():
                x += int(ch)
            elif ch == ".":
                x += 1
            else:
                raise PositionError(
                    field,
                    f"unknown symbol {ch!r} at {cell_name((x, y))} (this scenario has no tiles)",
                )
        if x != geo.width:
            raise PositionError(
                field, f"row {y + 1} covers {x} cells, the board is {geo.width} wide"
            )


def _dragon(cells: list[str], water: int, fire: int, env, field: str) -> Dragon:
    if not cells or len(cells) > 4:
        raise PositionError(
            field, f"a dragon has a head and at most 3 segments, got {len(cells)} cells"
        )
    out = []
    for i, name in enumerate(cells):
        try:
            out.append(env.geo.index(parse_cell(name)))
        except ValueError as exc:  # NotationError is a ValueError too
            raise PositionError(f"{field}.cells[{i}]", str(exc)) from None
    return Dragon(tuple(out), water, fire)


def _bagua(stacks: list[str], field: str) -> tuple[str, ...]:
    ring = game_data().ring
    if len(stacks) != len(ring):
        raise PositionError(field, f"needs {len(ring)} stacks, got {len(stacks)}")
    for name, stack in zip(ring, stacks, strict=True):
        if set(stack) - {"W", "B"}:
            raise PositionError(f"{field}.{name}", f"stones are W or B, got {stack!r}")
    return tuple(stacks)


def from_tln(text: str) -> State:
    if not isinstance(text, str):
        raise PositionError("tln", f"expected a string, got {type(text).__name__}")
    parts = text.split()
    if len(parts) != len(FIELDS):
        raise PositionError(
            "tln", f"expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(parts)}", text
        )
    fields = dict(zip(FIELDS, parts, strict=True))
    rules = _rules(fields["rules"])
    env = env_for(rules)
    _check_board(fields["board"].split("/"), env, "board")
    dragons = []
    for colour in COLOURS:
        body, *meters = fields[colour].split(":")
        if len(meters) != 2:
            raise PositionError(colour, "must read cells:water:fire, e.g. a2-a1-b1-b2:4:0")
        dragons.append(
            _dragon(
                body.split("-"),
                _int(meters[0], colour, "water"),
                _int(meters[1], colour, "fire"),
                env,
                colour,
            )
        )
    bagua = _bagua([("" if s == "-" else s) for s in fields["bagua"].split("/")], "bagua")
    centre = fields["centre"].split(":")
    if len(centre) != 2:
        raise PositionError("centre", "must read water:fire, e.g. 0:8")
    water, fire = (
        _int(v, "centre", what) for v, what in zip(centre, ("water", "fire"), strict=True)
    )
    if fields["side"] not in ("w", "b"):
        raise PositionError("side", f"must be 'w' or 'b', not {fields['side']!r}")
    turn = _int(fields["turn"], "turn", "turn number")
    if turn < 1:
        raise PositionError("turn", "turn numbers start at 1")
    state = State._make(
        rules, tuple(dragons), bagua, water, fire, "wb".index(fields["side"]), turn - 1, env
    )
    state.validate()
    return state


# ---- JSON ----------------------------------------------------------------------------------
def to_json(state: State) -> dict:
    env = state._env
    ring = game_data().ring
    rules = state.rules
    return {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "rules": {
            "scenario": rules.scenario,
            "mode": rules.mode,
            "edition": rules.edition,
            "solo": rules.solo,
            "options": dict(rules.options),
        },
        "board": ["." * env.geo.width for _ in range(env.geo.height)],
        "dragons": {
            colour: {"cells": [env.geo.name(c) for c in d.cells], "water": d.water, "fire": d.fire}
            for colour, d in zip(COLOURS, state._dragons, strict=True)
        },
        "bagua": dict(zip(ring, state._bagua, strict=True)),
        "centre": {"water": state._water, "fire": state._fire},
        "to_move": COLOURS[state._to_move],
        "turn": state._ply + 1,
    }


def _need(doc: dict, key: str, kind, path: str):
    if not isinstance(doc, dict) or key not in doc:
        raise PositionError(path, "missing")
    value = doc[key]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        raise PositionError(path, f"expected {getattr(kind, '__name__', kind)}, got {value!r}")
    return value


def from_json(doc: dict | str) -> State:
    if isinstance(doc, str):
        try:
            doc = json.loads(doc)
        except json.JSONDecodeError as exc:
            raise PositionError("json", f"not valid JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise PositionError("json", "a position is a JSON object")
    if doc.get("format") != JSON_FORMAT:
        raise PositionError("format", f"expected {JSON_FORMAT!r}, got {doc.get('format')!r}")
    if doc.get("version") != JSON_VERSION:
        raise PositionError("version", f"expected {JSON_VERSION}, got {doc.get('version')!r}")
    r = _need(doc, "rules", dict, "rules")
    options = _need(r, "options", dict, "rules.options")
    try:
        rules = Rules(
            _need(r, "scenario", str, "rules.scenario"),
            _need(r, "mode", str, "rules.mode"),
            _need(r, "edition", str, "rules.edition"),
            _need(r, "solo", bool, "rules.solo"),
            tuple(options.items()),
        )
    except RulesError as exc:
        raise PositionError("rules", str(exc)) from None
    env = env_for(rules)
    board = _need(doc, "board", list, "board")
    if not all(isinstance(row, str) for row in board):
        raise PositionError("board", "rows must be strings")
    _check_board(board, env, "board")
    dragons_doc = _need(doc, "dragons", dict, "dragons")
    dragons = []
    for colour in COLOURS:
        path = f"dragons.{colour}"
        d = _need(dragons_doc, colour, dict, path)
        cells = _need(d, "cells", list, f"{path}.cells")
        for i, c in enumerate(cells):
            if not isinstance(c, str):
                raise PositionError(
                    f"{path}.cells[{i}]", f"expected a cell name like 'a2', got {c!r}"
                )
        water = _need(d, "water", int, f"{path}.water")
        fire = _need(d, "fire", int, f"{path}.fire")
        dragons.append(_dragon(cells, water, fire, env, path))
    bagua_doc = _need(doc, "bagua", dict, "bagua")
    ring = game_data().ring
    unknown = set(bagua_doc) - set(ring)
    if unknown:
        raise PositionError("bagua", f"unknown spaces {sorted(unknown)}")
    bagua = _bagua([_need(bagua_doc, name, str, f"bagua.{name}") for name in ring], "bagua")
    centre = _need(doc, "centre", dict, "centre")
    water = _need(centre, "water", int, "centre.water")
    fire = _need(centre, "fire", int, "centre.fire")
    to_move = _need(doc, "to_move", str, "to_move")
    if to_move not in COLOURS:
        raise PositionError("to_move", f"must be 'white' or 'black', not {to_move!r}")
    turn = _need(doc, "turn", int, "turn")
    if turn < 1:
        raise PositionError("turn", "turn numbers start at 1")
    state = State._make(
        rules, tuple(dragons), bagua, water, fire, COLOURS.index(to_move), turn - 1, env
    )
    state.validate()
    return state


# ---- invariants --------------------------------------------------------------------------
def invariant_problems(state: State) -> list[str]:
    env = state._env
    data = game_data()
    cap = env.cap
    problems = []
    seen: dict[int, str] = {}
    for colour, d in zip(COLOURS, state._dragons, strict=True):
        if not 1 <= len(d.cells) <= 4:
            problems.append(f"{colour} dragon: {len(d.cells)} cells (head plus 0-3 segments)")
        for c in d.cells:
            if c in seen:
                problems.append(f"overlap: {env.geo.name(c)} holds {seen[c]} and {colour}")
            seen[c] = colour
        for a, b in zip(d.cells, d.cells[1:], strict=False):
            if (b, a) not in env.geo.direction:
                problems.append(
                    f"broken body: {colour} {env.geo.name(a)} and {env.geo.name(b)} "
                    "are not adjacent"
                )
        if d.alive and not 1 <= d.water <= cap:
            problems.append(f"{colour} water meter {d.water}: a living dragon holds 1-{cap}")
        if not d.alive and d.water != 0:
            problems.append(f"{colour} water meter {d.water}: a defeated dragon's meter is empty")
        if not 0 <= d.fire <= cap:
            problems.append(f"{colour} fire meter {d.fire}: must be 0-{cap}")
    if not any(d.alive for d in state._dragons):
        problems.append("both dragons are defeated")
    water_total = state._water + sum(d.water for d in state._dragons)
    fire_total = state._fire + sum(d.fire for d in state._dragons)
    if state._water < 0 or water_total != data.water_stones:
        problems.append(f"water stones: {water_total} in play, must be {data.water_stones}")
    if state._fire < 0 or fire_total != data.fire_stones:
        problems.append(f"fire stones: {fire_total} in play, must be {data.fire_stones}")
    stones = "".join(data.setup_stacks)
    for colour, mark in (("white", "W"), ("black", "B")):
        have = sum(stack.count(mark) for stack in state._bagua)
        if have != stones.count(mark):
            problems.append(f"Ba Gua stones: {have} {colour}, must be {stones.count(mark)}")
    return problems


__all__ = ["from_json", "from_tln", "invariant_problems", "start_state", "to_json", "to_tln"]

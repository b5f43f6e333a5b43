"""Positions as text: TLN (one line) and JSON; invariant checks.

TLN has eight space-separated fields; the start of the default game is::

    field/grasshopper/current 8/8/8/8/8/8/8/8 a2-a1-b1-b2:4:0 g8-h8-h7-g7:4:0 \
        WW/-/BW/-/BB/-/WB/- 0:8 w 1

(on one line).

1. rules: ``scenario/mode/edition[/solo]`` then ``+option=value`` for each non-default option;
2. board: the Board of Human row by row from the top, ``/`` between rows, a digit for a run of
   empty cells; ``#`` big rock, ``o`` small rock, ``d`` damaged small rock, ``V`` village,
   ``G`` ``R`` ``B`` ``Y`` portals;
3. white dragon, 4. black dragon: its tiles head first joined by ``-``, then ``:water:fire``;
   ``[f6d2]`` between two cells means the body passes through the portals f6 (head side) and d2;
5. Ba Gua: the eight stacks in ring order from Heaven, base first, ``-`` for empty; in Master
   and Chosen One mode followed by ``@ccw`` or ``@cw``, the flux coin;
6. centre: ``water:fire`` stones in the centre;
7. side to move: ``w`` or ``b``;
8. turn number, from 1 to 999,999,999.

A TLN is at most 10,000 characters long.
"""

from __future__ import annotations

import functools
import re

from ..errors import PositionError, RulesError
from ..rules.data import (
    COLOURS,
    BoundError,
    check_bounds,
    decode_json,
    game_data,
    json_decoder,
    shown,
)
from ..rules.options import Rules
from ..rules.scenario import (
    MAX_DRAGON_CELLS,
    MAX_HEIGHT,
    MAX_WIDTH,
    PORTAL_COLOURS,
    load_scenario,
)
from .core import CCW, CW, ROCK_HITS, Dragon, Layout, env_for
from .geometry import cell_name, parse_cell
from .state import State

FIELDS = ("rules", "board", "white", "black", "bagua", "centre", "side", "turn")
JSON_FORMAT = "taolong-position"
JSON_VERSION = 1
_INT_RE = re.compile(r"(0|[1-9][0-9]*)\Z")
MAX_TURN = 999_999_999
MAX_TLN_CHARS = 10_000


# ---- TLN -----------------------------------------------------------------------------------
_LINK_RE = re.compile(r"\[([a-z]\d+)([a-z]\d+)\]\Z")
FLUX_MODES = ("master", "chosen-one")


def board_rows(state: State) -> list[str]:
    """The board as rows of symbols, breakable rocks included."""
    rows = [list(row) for row in state._env.layout.rows]
    width = state._env.layout.width
    for cell, hits in state._rocks:
        rows[cell // width][cell % width] = "o" if hits == ROCK_HITS else "d"
    return ["".join(row) for row in rows]


def _compress(row: str) -> str:
    return re.sub(r"\.+", lambda m: str(len(m[0])), row)


def _chain(env, dragon: Dragon) -> list[str]:
    links = {i: (q, e) for i, q, e in dragon.links}
    out = []
    for i, cell in enumerate(dragon.cells):
        out.append(env.geo.name(cell))
        if i in links:
            q, e = links[i]
            out.append(f"[{env.geo.name(q)}{env.geo.name(e)}]")
    return out


def to_tln(state: State) -> str:
    env = state._env
    parts = [state.rules.token(), "/".join(_compress(r) for r in board_rows(state))]
    for d in state._dragons:
        parts.append(f"{'-'.join(_chain(env, d))}:{d.water}:{d.fire}")
    bagua = "/".join(stack or "-" for stack in state._bagua)
    if state.rules.mode in FLUX_MODES:
        bagua += "@" + state.flux
    parts.append(bagua)
    parts.append(f"{state._water}:{state._fire}")
    parts.append("wb"[state._to_move])
    parts.append(str(state._ply + 1))
    return " ".join(parts)


def _int(text: str, field: str, what: str, high: int) -> int:
    """A whole number 0..``high`` written in decimal; longer digit runs never reach ``int``."""
    if not _INT_RE.match(text):
        raise PositionError(field, f"{what} must be a whole number, not {shown(text)}")
    if len(text) > len(str(high)) or int(text) > high:
        raise PositionError(field, f"{what} must be at most {high}, not {shown(text)}")
    return int(text)


def _turn_number(value: int, field: str) -> int:
    if value < 1:
        raise PositionError(field, "turn numbers start at 1")
    if value > MAX_TURN:
        raise PositionError(field, f"turn numbers go up to {MAX_TURN}, not {shown(value)}")
    return value


def _rules(token: str, field: str = "rules") -> Rules:
    try:
        return Rules.from_token(token)
    except RulesError as exc:
        raise PositionError(field, str(exc)) from None


def _board(rows: list[str], rules: Rules, field: str, expand: bool):
    """Read board rows into the fixed layout and the breakable rocks."""
    if len(rows) > MAX_HEIGHT or any(len(row) > MAX_WIDTH for row in rows):
        raise PositionError(
            field, f"a board has at most {MAX_HEIGHT} rows of at most {MAX_WIDTH} cells"
        )
    return _read_board(tuple(rows), rules, field, expand)


@functools.lru_cache(maxsize=4096)
def _read_board(rows: tuple[str, ...], rules: Rules, field: str, expand: bool):
    scenario = load_scenario(rules.scenario)
    width, height = scenario.width, scenario.height
    if len(rows) != height:
        raise PositionError(field, f"has {len(rows)} rows, the {scenario.name} has {height}")
    layout, rocks = [], []
    known = "#oVd" + "".join(PORTAL_COLOURS)
    for y, row in enumerate(rows):
        cells = []
        if expand and re.search(r"[0-9]{2}", row):
            raise PositionError(field, f"row {y + 1}: write a run of empty cells as one digit")
        for ch in row:
            if expand and ch in "123456789":
                cells.extend("." * int(ch))
            elif (ch == "." and not expand) or ch in known:
                cells.append(ch)
            else:
                raise PositionError(field, f"unknown symbol {ch!r} at {cell_name((len(cells), y))}")
        if len(cells) != width:
            raise PositionError(field, f"row {y + 1} covers {len(cells)} cells, not {width}")
        for x, ch in enumerate(cells):
            if ch in "od" and scenario.breakable_rocks:
                rocks.append((y * width + x, ROCK_HITS if ch == "o" else 1))
                cells[x] = "."
            elif ch == "d":
                raise PositionError(
                    field,
                    f"damaged rock at {cell_name((x, y))}: rocks only break in "
                    "scenarios with breakable rocks",
                )
        layout.append("".join(cells))
    village = any("V" in row for row in layout)
    if village != (rules.option("village") is not None):
        raise PositionError(
            field, "the village tile is on the board exactly when the village option is set"
        )
    portals: dict[str, list] = {}
    for y, row in enumerate(layout):
        for x, ch in enumerate(row):
            if ch in PORTAL_COLOURS:
                portals.setdefault(ch, []).append((x, y))
    for colour, cells in portals.items():
        if scenario.portal_rule(colour).destination == "twin" and len(cells) != 2:
            raise PositionError(
                field,
                f"unpaired portal: {PORTAL_COLOURS[colour]} at "
                f"{', '.join(cell_name(c) for c in cells)} needs exactly one twin",
            )
    return Layout(width, height, tuple(layout)), tuple(sorted(rocks))


def _dragon(tokens: list[str], water: int, fire: int, env, field: str) -> Dragon:
    cells, links = [], []
    for i, token in enumerate(tokens):
        link = _LINK_RE.match(token.lower())
        try:
            if link:
                if not cells:
                    raise ValueError("a portal pair cannot come before the head")
                pair = [env.geo.index(parse_cell(link[k])) for k in (1, 2)]
                links.append((len(cells) - 1, *pair))
            else:
                cells.append(env.geo.index(parse_cell(token)))
        except ValueError as exc:  # NotationError is a ValueError too
            raise PositionError(f"{field}.cells[{i}]", str(exc)) from None
    if not cells or len(cells) > MAX_DRAGON_CELLS:
        raise PositionError(
            field, f"a dragon has a head and at most 3 segments, got {len(cells)} cells"
        )
    return Dragon(tuple(cells), water, fire, tuple(links))


def _bagua(stacks: list[str], field: str) -> tuple[str, ...]:
    ring = game_data().ring
    if len(stacks) != len(ring):
        raise PositionError(field, f"needs {len(ring)} stacks, got {len(stacks)}")
    for name, stack in zip(ring, stacks, strict=True):
        if set(stack) - {"W", "B"}:
            raise PositionError(f"{field}.{name}", f"stones are W or B, got {shown(stack)}")
    return tuple(stacks)


def _flux(rules: Rules, text: str | None, field: str) -> int:
    if rules.mode in FLUX_MODES:
        if text not in ("ccw", "cw"):
            raise PositionError(field, f"{rules.mode} mode needs the flux coin, 'ccw' or 'cw'")
        return CW if text == "cw" else CCW
    if text is not None:
        raise PositionError(field, f"the flux coin is only used in Master mode, not {rules.mode}")
    return CCW


def from_tln(text: str) -> State:
    if not isinstance(text, str):
        raise PositionError("tln", f"expected a string, got {type(text).__name__}")
    if len(text) > MAX_TLN_CHARS:
        raise PositionError("tln", f"longer than {MAX_TLN_CHARS} characters")
    parts = text.split()
    if len(parts) != len(FIELDS):
        raise PositionError(
            "tln", f"expected {len(FIELDS)} fields ({' '.join(FIELDS)}), got {len(parts)}", text
        )
    fields = dict(zip(FIELDS, parts, strict=True))
    rules = _rules(fields["rules"])
    layout, rocks = _board(fields["board"].split("/"), rules, "board", expand=True)
    env = env_for(rules, layout)
    data = game_data()
    dragons = []
    for colour in COLOURS:
        body, *meters = fields[colour].split(":")
        if len(meters) != 2:
            raise PositionError(colour, "must read cells:water:fire, e.g. a2-a1-b1-b2:4:0")
        dragons.append(
            _dragon(
                body.split("-"),
                _int(meters[0], colour, "water", data.water_stones),
                _int(meters[1], colour, "fire", data.fire_stones),
                env,
                colour,
            )
        )
    stacks, at, coin = fields["bagua"].partition("@")
    if any(not part for part in stacks.split("/")):
        raise PositionError("bagua", "write an empty stack as '-'")
    bagua = _bagua([("" if s == "-" else s) for s in stacks.split("/")], "bagua")
    flux = _flux(rules, coin if at else None, "bagua")
    centre = fields["centre"].split(":")
    if len(centre) != 2:
        raise PositionError("centre", "must read water:fire, e.g. 0:8")
    water = _int(centre[0], "centre", "water", data.water_stones)
    fire = _int(centre[1], "centre", "fire", data.fire_stones)
    if fields["side"] not in ("w", "b"):
        raise PositionError("side", f"must be 'w' or 'b', not {shown(fields['side'])}")
    turn = _turn_number(_int(fields["turn"], "turn", "turn number", MAX_TURN), "turn")
    state = State._make(
        env, (tuple(dragons), water, fire, rocks), bagua, flux, "wb".index(fields["side"]), turn - 1
    )
    state.validate()
    return state


# ---- JSON ----------------------------------------------------------------------------------
_JSON_DECODER = json_decoder()


def to_json(state: State) -> dict:
    env = state._env
    ring = game_data().ring
    rules = state.rules
    doc = {
        "format": JSON_FORMAT,
        "version": JSON_VERSION,
        "rules": {
            "scenario": rules.scenario,
            "mode": rules.mode,
            "edition": rules.edition,
            "solo": rules.solo,
            "options": dict(rules.options),
        },
        "board": board_rows(state),
        "dragons": {
            colour: {"cells": _chain(env, d), "water": d.water, "fire": d.fire}
            for colour, d in zip(COLOURS, state._dragons, strict=True)
        },
        "bagua": dict(zip(ring, state._bagua, strict=True)),
        "centre": {"water": state._water, "fire": state._fire},
        "to_move": COLOURS[state._to_move],
        "turn": state._ply + 1,
    }
    if rules.mode in FLUX_MODES:
        doc["flux"] = state.flux
    return doc


def _need(doc: dict, key: str, kind, path: str):
    if not isinstance(doc, dict) or key not in doc:
        raise PositionError(path, "missing")
    value = doc[key]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        raise PositionError(path, f"expected {getattr(kind, '__name__', kind)}, got {shown(value)}")
    return value


def _count(doc: dict, key: str, path: str, high: int) -> int:
    """A whole number of stones, 0..``high``."""
    value = _need(doc, key, int, path)
    if not 0 <= value <= high:
        raise PositionError(path, f"must be 0-{high}, got {shown(value)}")
    return value


def from_json(doc: dict | str) -> State:
    try:
        doc = decode_json(_JSON_DECODER, doc) if isinstance(doc, str) else doc
        check_bounds(doc)
    except BoundError as exc:
        raise PositionError(exc.path or "json", exc.reason) from None
    except ValueError as exc:
        raise PositionError("json", f"not valid JSON: {exc}") from None
    if not isinstance(doc, dict):
        raise PositionError("json", "a position is a JSON object")
    if doc.get("format") != JSON_FORMAT:
        raise PositionError("format", f"expected {JSON_FORMAT!r}, got {shown(doc.get('format'))}")
    if doc.get("version") != JSON_VERSION:
        raise PositionError("version", f"expected {JSON_VERSION}, got {shown(doc.get('version'))}")
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
    board = _need(doc, "board", list, "board")
    if not all(isinstance(row, str) for row in board):
        raise PositionError("board", "rows must be strings")
    layout, rocks = _board(board, rules, "board", expand=False)
    env = env_for(rules, layout)
    dragons_doc = _need(doc, "dragons", dict, "dragons")
    data = game_data()
    dragons = []
    for colour in COLOURS:
        path = f"dragons.{colour}"
        d = _need(dragons_doc, colour, dict, path)
        cells = _need(d, "cells", list, f"{path}.cells")
        for i, c in enumerate(cells):
            if not isinstance(c, str):
                raise PositionError(
                    f"{path}.cells[{i}]", f"expected a cell name like 'a2', got {shown(c)}"
                )
        water = _count(d, "water", f"{path}.water", data.water_stones)
        fire = _count(d, "fire", f"{path}.fire", data.fire_stones)
        dragons.append(_dragon(cells, water, fire, env, path))
    bagua_doc = _need(doc, "bagua", dict, "bagua")
    ring = game_data().ring
    unknown = set(bagua_doc) - set(ring)
    if unknown:
        raise PositionError("bagua", f"unknown spaces {shown(sorted(unknown, key=repr), 200)}")
    bagua = _bagua([_need(bagua_doc, name, str, f"bagua.{name}") for name in ring], "bagua")
    flux = _flux(rules, doc.get("flux"), "flux")
    centre = _need(doc, "centre", dict, "centre")
    water = _count(centre, "water", "centre.water", data.water_stones)
    fire = _count(centre, "fire", "centre.fire", data.fire_stones)
    to_move = _need(doc, "to_move", str, "to_move")
    if to_move not in COLOURS:
        raise PositionError("to_move", f"must be 'white' or 'black', not {shown(to_move)}")
    turn = _turn_number(_need(doc, "turn", int, "turn"), "turn")
    state = State._make(
        env, (tuple(dragons), water, fire, rocks), bagua, flux, COLOURS.index(to_move), turn - 1
    )
    state.validate()
    return state


# ---- invariants --------------------------------------------------------------------------
def invariant_problems(state: State) -> list[str]:
    env = state._env
    geo = env.geo
    data = game_data()
    cap = env.cap
    problems = []
    seen: dict[int, str] = {}
    fixed = {c: sym for c, sym in enumerate("".join(env.layout.rows)) if sym != "."}
    for cell, hits in state._rocks:
        seen[cell] = "a rock"
        if not 1 <= hits <= ROCK_HITS:
            problems.append(f"rock at {geo.name(cell)} has {hits} hits left, must be 1-{ROCK_HITS}")
    for colour, d in zip(COLOURS, state._dragons, strict=True):
        if not 1 <= len(d.cells) <= 4:
            problems.append(f"{colour} dragon: {len(d.cells)} cells (head plus 0-3 segments)")
        tiles = list(d.cells) + [p for _, q, e in d.links for p in (q, e)]
        for c in tiles:
            if c in seen:
                problems.append(f"overlap: {geo.name(c)} holds {seen[c]} and {colour}")
            seen[c] = colour
        for c in d.cells:
            if c in fixed:
                problems.append(
                    f"overlap: {colour} dragon on the {fixed[c]!r} tile at {geo.name(c)}"
                )
        links = {i: (q, e) for i, q, e in d.links}
        for i, (a, b) in enumerate(zip(d.cells, d.cells[1:], strict=False)):
            if i in links:
                q, e = links.pop(i)
                ok = (
                    fixed.get(q, ".") in PORTAL_COLOURS
                    and fixed.get(e, ".") in PORTAL_COLOURS
                    and (q, a) in geo.direction
                    and (e, b) in geo.direction
                    and q != e
                )
                if ok and env.scenario.portal_rule(fixed[e]).destination == "twin":
                    ok = fixed[q] == fixed[e]
                if not ok:
                    problems.append(
                        f"broken body: {colour} {geo.name(a)} and {geo.name(b)} are not joined "
                        f"by the portals {geo.name(q)} and {geo.name(e)}"
                    )
            elif (b, a) not in geo.direction:
                problems.append(
                    f"broken body: {colour} {geo.name(a)} and {geo.name(b)} are not adjacent"
                )
        if links:
            problems.append(f"broken body: {colour} portal pair after its tail")
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


__all__ = ["from_json", "from_tln", "invariant_problems", "to_json", "to_tln"]

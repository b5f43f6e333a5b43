"""Long Tau (Thomassen, 1943) behind the game protocol (docs/games/long-tau.md).

Two players on two opposite areas (north moves first, 22 pawns each), or four with 12 pawns
each, the opposite players partners with one colour. A move slides one of the player's pawns
along a straight line as far as it can. At the start of its turn a player removes the enemy
groups it has besieged, and the four enemy pawns farthest from the Golden Chair if its last
move completed the chair; a side left without pawns has lost. Removals belong to the player
who earned them: with partners, a siege or the chair one partner made waits for that
partner's next turn.

>>> start = LONG_TAU.new()
>>> start.player_names(), start.current_player(), len(start.legal_actions())
(('north', 'south'), 0, 10)
>>> [str(a) for a in start.legal_actions()][:4]
['d11-d5', 'i11-i5', 'e9-e6', 'e9-a9']
>>> after = start.apply("f8-f6")
>>> LONG_TAU.from_string(after.to_string()) == after
True
"""

from __future__ import annotations

from dataclasses import dataclass

from ...markup import escape
from ..protocol import TERMINAL, Game, GameError, GameOption, GameState
from .board import AREAS, long_tau_board
from .rules import EMPTY, besieged_groups, play, slides, start_of_turn

NAMES = {2: ("north", "south"), 4: ("north", "east", "south", "west")}
GLYPHS = {2: "XO", 4: "NESW"}  # a colour's pawns in the text picture, by colour count
FILLS = ("#c0392b", "#1f1f1f", "#2e86c1", "#27ae60")
MAX_LIMIT = 10_000
MAX_TEXT = 600
FIELDS = (
    "players",
    "four",
    "chair",
    "farthest",
    "sides",
    "lines",
    "limit",
    "ply",
    "to",
    "pending",
    "claims",
)


@dataclass(frozen=True)
class Move:
    """A move: the pawn on square ``origin`` slides to ``target`` (square indices of its
    board); a pass (when no pawn can move) has both -1. ``notation`` is how it is written:
    ``f8-f6`` or ``pass``."""

    origin: int
    target: int
    notation: str

    def __str__(self) -> str:
        return self.notation


PASS = Move(-1, -1, "pass")


@dataclass(frozen=True)
class Settings:
    """The option values of a game, checked (see :attr:`LongTauGame.options`)."""

    players: int = 2
    four: str = "partners"
    chair: str = "through"
    farthest: str = "euclidean"
    sides: str = "open"
    lines: str = "across"
    limit: int = 200

    @property
    def colours(self) -> int:
        """How many colours of pawns are in play."""
        return 4 if self.players == 4 and self.four == "each" else 2

    def colour(self, player: int) -> int:
        """The colour of ``player``'s pawns (partners share one)."""
        return player % self.colours

    @property
    def partners(self) -> bool:
        """Whether two players share a colour (four players, partners)."""
        return self.colours < self.players

    def enemies(self, colour: int) -> tuple[int, ...]:
        return tuple(c for c in range(self.colours) if c != colour)

    @property
    def board(self):
        """The board in play: with closed sides, the chair and the two used areas only."""
        areas = AREAS if self.sides == "open" else ("north", "south")
        return long_tau_board(areas, self.lines == "across")


def _checked(settings: dict) -> Settings:
    """The settings of a full set of option values, refusing options that do not apply."""
    chosen = Settings(**settings)
    if chosen.players == 2 and chosen.four != "partners":
        raise GameError("option 'four' only applies to 4 players")
    if chosen.players == 4 and chosen.sides != "open":
        raise GameError("option 'sides' only applies to 2 players: 4 use every area")
    return chosen


class LongTauGame(Game):
    """Long Tau: 2 players, or 4 (partners, or each for itself). Options as data."""

    name = "long-tau"
    title = "Long Tau"
    players = (2, 4)
    options = (
        GameOption("players", 2, "how many play: 2 (22 pawns each) or 4 (12 each)", (2, 4)),
        GameOption(
            "four",
            "partners",
            "4 players: 'partners' (the rulebook: opposite players share a colour and may "
            "move any pawn of it) or 'each' (every player for itself)",
            ("partners", "each"),
        ),
        GameOption(
            "chair",
            "through",
            "a pawn slides 'through' the Golden Chair like any square, or 'stop's on entering it",
            ("through", "stop"),
        ),
        GameOption(
            "farthest",
            "euclidean",
            "'farthest from the Golden Chair': 'euclidean' (straight distance from its "
            "centre) or 'steps' (fewest steps along the lines)",
            ("euclidean", "steps"),
        ),
        GameOption(
            "sides",
            "open",
            "2 players: the two unused areas stay 'open' to the pawns, or are 'closed'",
            ("open", "closed"),
        ),
        GameOption(
            "lines",
            "across",
            "the straight lines run 'across' the spaces between the areas (the grid's rows and "
            "columns, edge to edge) or end 'within' the squares",
            ("across", "within"),
        ),
        GameOption(
            "limit",
            200,
            "turns before the game stops, decided by the pawns left; 0: none",
            low=0,
            high=MAX_LIMIT,
        ),
    )

    def start(self, settings: dict) -> LongTauState:
        chosen = _checked(settings)
        board = chosen.board
        cells = [EMPTY] * len(board.cells)
        if chosen.players == 2:
            for colour, area in enumerate(("north", "south")):
                for square in board.areas[area]:
                    cells[square] = colour
        else:
            for player, area in enumerate(AREAS):
                for square in board.homes[area]:
                    cells[square] = chosen.colour(player)
        return LongTauState(chosen, tuple(cells), 0, -1, 0)

    def from_string(self, text: str) -> LongTauState:
        if not isinstance(text, str) or len(text) > MAX_TEXT:
            raise GameError(f"a Long Tau position is a string of at most {MAX_TEXT} characters")
        fields = text.split()
        if len(fields) == len(FIELDS) + 1 and fields[-2].startswith("pending="):
            fields.insert(-1, "claims=-")  # no claims field: none (only partners write it)
        if len(fields) != len(FIELDS) + 2 or fields[0] != self.name:
            keys = " ".join(f"{k}=..." for k in (*FIELDS, "board"))
            raise GameError(f"a Long Tau position reads 'long-tau {keys}', not {text[:60]!r}")
        values = {}
        for key, field in zip((*FIELDS, "board"), fields[1:], strict=True):
            name, _, value = field.partition("=")
            if name != key:
                raise GameError(f"Long Tau position: field {key!r} expected, not {field[:30]!r}")
            values[key] = value
        numbers = {}
        for key in ("players", "limit", "ply", "to"):
            if not values[key].isdigit() or len(values[key]) > 6:
                raise GameError(f"Long Tau position: {key}: a whole number, not {values[key]!r}")
            numbers[key] = int(values[key])
        settings = {
            "players": numbers["players"],
            **{k: values[k] for k in ("four", "chair", "farthest", "sides", "lines")},
            "limit": numbers["limit"],
        }
        try:
            chosen = _checked(self.settings(settings))
        except GameError as exc:
            raise GameError(f"Long Tau position: {exc}") from None
        board = chosen.board
        glyphs = "".join(str(c + 1) for c in range(chosen.colours))
        if len(values["board"]) != len(board.cells) or set(values["board"]) - set("." + glyphs):
            raise GameError(
                f"Long Tau position: board: {len(board.cells)} squares, each '.' or one of "
                f"{glyphs!r}"
            )
        pending = values["pending"]
        seats = "".join(str(p + 1) for p in range(chosen.players))
        if pending != "-" and (len(pending) != 1 or pending not in seats):
            raise GameError(f"Long Tau position: pending: '-' or a player of {seats!r}")
        cells = tuple(EMPTY if ch == "." else int(ch) - 1 for ch in values["board"])
        claims = _read_claims(values["claims"], board, seats)
        state = LongTauState(
            chosen,
            cells,
            numbers["to"],
            -1 if pending == "-" else int(pending) - 1,
            numbers["ply"],
            claims,
        )
        found = state.problems()
        if found:
            raise GameError(f"Long Tau position: {'; '.join(found)}")
        return state

    def compose(self, pawns: dict, to: int = 0, pending: str | None = None, **options):
        """A position built by hand: each player's pawns by square name.

        Parameters
        ----------
        pawns
            Player name -> its pawns' squares, e.g. ``{"north": "e11 f10", "south": "e10"}``
            (partners share their colour's pawns).
        to
            The player to move.
        pending
            The player whose last move completed the Golden Chair, if any (its removal is
            due on its next turn).
        **options
            The game's options.

        Returns
        -------
        LongTauState

        Raises
        ------
        GameError
            An unknown player or square, a square given twice, or a position that breaks an
            invariant, named.

        >>> LONG_TAU.compose({"north": "e11 f10 e9", "south": "e10 d1"}).removals()
        (12,)
        """
        chosen = _checked(self.settings(options))
        board = chosen.board
        names = NAMES[chosen.players]
        cells = [EMPTY] * len(board.cells)
        for player, squares in pawns.items():
            if player not in names or not isinstance(squares, str):
                raise GameError(
                    f"compose: pawns: a player of {names} and its squares, not {player!r}"
                )
            for square in squares.split():
                if board.names.get(square) is None or cells[board.names[square]] != EMPTY:
                    raise GameError(
                        f"compose: {player}: square {square!r} is off the board or taken"
                    )
                cells[board.names[square]] = chosen.colour(names.index(player))
        if pending is not None and pending not in names:
            raise GameError(f"compose: pending: a player of {names}, not {pending!r}")
        mark = -1 if pending is None else names.index(pending)
        state = LongTauState(chosen, tuple(cells), to, mark, 0)
        found = state.problems()
        if found:
            raise GameError(f"compose: {'; '.join(found)}")
        return state

    def variants(self) -> list[dict]:
        """The two-player game and the four-player one (partners, as the rulebook has it)."""
        return [{"players": 2}, {"players": 4}]

    def heuristic(self, state: LongTauState, weights=None) -> tuple[float, ...]:
        """Each player's pawns after the removals due, less the strongest enemy's, plus a
        pawn for holding the chair's squares (a quarter each)."""
        after = state.board_after_removals()
        settings = state.settings
        board = settings.board
        score = []
        for colour in range(settings.colours):
            pawns = sum(1 for held in after if held == colour)
            chair = sum(1 for s in board.chair if after[s] == colour) / 4
            score.append(pawns + chair)
        return tuple(
            score[settings.colour(p)] - max(score[c] for c in settings.enemies(settings.colour(p)))
            for p in range(state.players)
        )

    heuristic_scale = 3.0


LONG_TAU = LongTauGame()


class LongTauState(GameState):
    """A Long Tau position: the pawns on the board, the player to move, the player whose last
    move completed the Golden Chair (its removal is due, -1 for none), the turns played and,
    with partners, the sieges each player earned that wait for its next turn (``claims``:
    sorted ``(square, player)`` pairs, the squares of the besieged enemy pawns).

    The board is as the last move left it: the removals the player to move makes at the start
    of its turn are not made yet (:meth:`board_after_removals`)."""

    __slots__ = ("_actions", "_after", "cells", "claims", "pending", "ply", "settings", "to")

    game = LONG_TAU

    def __init__(
        self,
        settings: Settings,
        cells: tuple,
        to: int,
        pending: int,
        ply: int,
        claims: tuple[tuple[int, int], ...] = (),
    ):
        self.settings, self.cells, self.to, self.pending, self.ply = (
            settings,
            cells,
            to,
            pending,
            ply,
        )
        self.claims = tuple(sorted(claims))
        self._after = None
        self._actions = None

    def __getstate__(self):
        return (self.settings, self.cells, self.to, self.pending, self.ply, self.claims)

    def __setstate__(self, values):
        self.__init__(*values)

    @property
    def players(self) -> int:
        return self.settings.players

    @property
    def colour(self) -> int:
        """The colour of the player to move."""
        return self.settings.colour(self.to)

    def removals(self) -> tuple[int, ...]:
        """The squares the player to move empties at the start of its turn."""
        return self._start()[1]

    def board_after_removals(self) -> tuple[int, ...]:
        """The board once the player to move has made its removals."""
        return self._start()[0]

    def reserved(self) -> frozenset[int]:
        """The squares of the sieges the partner of the player to move earned: they wait for
        the partner's next turn ("he, on his next turn")."""
        mine = {square for square, player in self.claims if player == self.to}
        return frozenset(
            square
            for square, player in self.claims
            if player != self.to and self.settings.colour(player) == self.colour
        ).difference(mine)

    def _start(self):
        if self._after is None:
            self._after = start_of_turn(
                self.cells,
                self.settings.board,
                self.colour,
                self.settings.enemies(self.colour),
                self.pending == self.to,
                self.settings.farthest,
                self.reserved(),
            )
        return self._after

    def pawns(self, colour: int, after: bool = True) -> int:
        """How many pawns ``colour`` has (after the removals due, or as the board shows)."""
        cells = self.board_after_removals() if after else self.cells
        return sum(1 for held in cells if held == colour)

    def _eliminated(self) -> list[int]:
        return [c for c in range(self.settings.colours) if self.pawns(c) == 0]

    def current_player(self) -> int:
        if self._eliminated():
            return TERMINAL
        if self.settings.limit and self.ply >= self.settings.limit:
            return TERMINAL
        return self.to

    def legal_actions(self) -> list:
        if self._actions is None:
            if self.current_player() == TERMINAL:
                self._actions = []
            else:
                board = self.settings.board
                found = slides(
                    self.board_after_removals(), board, self.colour, self.settings.chair == "stop"
                )
                self._actions = [
                    Move(a, b, f"{board.name(a)}-{board.name(b)}") for a, b in found
                ] or [PASS]
        return list(self._actions)

    def apply(self, action) -> LongTauState:
        move = self.parse_action(action)
        before = self.board_after_removals()
        after = before
        pending = -1 if self.pending == self.to else self.pending
        if move != PASS:
            after, completed = play(before, self.settings.board, move.origin, move.target)
            if completed:
                pending = self.to
        nxt = (self.to + 1) % self.players
        claims = self._claims_after(before, after) if self.settings.partners else ()
        return LongTauState(self.settings, after, nxt, pending, self.ply + 1, claims)

    def _claims_after(self, before: tuple, after: tuple) -> tuple[tuple[int, int], ...]:
        """The claims once the player to move has made its removals (its own claims are
        spent) and its move from ``before`` to ``after``: the earlier claims on groups still
        besieged, and the mover's on the enemy groups its move besieged."""
        settings, board = self.settings, self.settings.board
        kept = []
        for player in range(self.players):
            if player == self.to:
                continue
            theirs = {square for square, p in self.claims if p == player}
            enemies = settings.enemies(settings.colour(player))
            for group in besieged_groups(after, board, enemies):
                if theirs.intersection(group):
                    kept += [(square, player) for square in group]
        enemies = settings.enemies(self.colour)
        already = {square for group in besieged_groups(before, board, enemies) for square in group}
        for group in besieged_groups(after, board, enemies):
            if not already.issuperset(group):
                kept += [(square, self.to) for square in group]
        return tuple(kept)

    def returns(self) -> tuple[float, ...]:
        if not self.is_terminal():
            raise GameError("no returns: the game is not over")
        settings = self.settings
        out = self._eliminated()
        if out:
            left = [c for c in range(settings.colours) if c not in out]
            share = min(1.0, len(out) / len(left)) if left else 0.0
            by_colour = [-1.0 if c in out else share for c in range(settings.colours)]
        else:
            counts = [self.pawns(c) for c in range(settings.colours)]
            by_colour = []
            for c in range(settings.colours):
                best = max(counts[e] for e in settings.enemies(c))
                total = counts[c] + best
                by_colour.append((counts[c] - best) / total if total else 0.0)
        return tuple(by_colour[settings.colour(p)] for p in range(self.players))

    def to_string(self) -> str:
        s = self.settings
        board = "".join("." if held == EMPTY else str(held + 1) for held in self.cells)
        pending = "-" if self.pending < 0 else str(self.pending + 1)
        names = s.board.name
        claims = ",".join(f"{names(square)}@{player + 1}" for square, player in self.claims)
        claims = f" claims={claims or '-'}" if s.partners else ""  # only partners keep claims
        return (
            f"long-tau players={s.players} four={s.four} chair={s.chair} "
            f"farthest={s.farthest} sides={s.sides} lines={s.lines} limit={s.limit} ply={self.ply} "
            f"to={self.to} pending={pending}{claims} board={board}"
        )

    def player_names(self) -> tuple[str, ...]:
        return NAMES[self.players]

    def problems(self) -> list[str]:
        s, found = self.settings, []
        board = self.settings.board
        if len(self.cells) != len(board.cells):
            return [f"the board has {len(self.cells)} squares, not {len(board.cells)}"]
        if not 0 <= self.to < s.players:
            found.append(f"to: player {self.to} is not 0 to {s.players - 1}")
        if s.limit and self.ply > s.limit:
            found.append(f"ply {self.ply} is past the limit {s.limit}")
        if self.pending >= s.players or self.pending < -1:
            found.append(f"pending: player {self.pending} is not in play")
        found += self._claim_problems()
        most = 22 if s.players == 2 else 24 if s.colours == 2 else 12
        for colour in range(s.colours):
            count = self.pawns(colour, after=False)
            if count > most:
                found.append(f"colour {colour + 1} has {count} pawns, more than {most}")
            if count == 0:
                found.append(f"colour {colour + 1} has no pawn on the board")
        return found

    def _claim_problems(self) -> list[str]:
        s, board = self.settings, self.settings.board
        if self.claims and not s.partners:
            return ["claims: only partners keep the sieges each earned"]
        for square, player in self.claims:
            held = self.cells[square] if 0 <= square < len(self.cells) else EMPTY
            if not 0 <= player < s.players or held not in s.enemies(s.colour(player)):
                return [f"claims: {board.name(square)} is not an enemy pawn of player {player + 1}"]
            if not any(square in g for g in besieged_groups(self.cells, board, (held,))):
                return [f"claims: the pawn on {board.name(square)} is not besieged"]
        return []

    # ---- pictures ------------------------------------------------------------------------
    def _header(self) -> str:
        s = self.settings
        names = self.player_names()
        limit = f"/{s.limit}" if s.limit else ""
        if self.is_terminal():
            values = self.returns()
            best = max(values)
            won = [names[p] for p in range(self.players) if values[p] == best and best > 0]
            state = f"over: {' and '.join(won) or 'a draw'}"
        else:
            state = f"{names[self.to]} to move"
        return f"Long Tau, {s.players} players: {state} (turn {self.ply}{limit})"

    def text(self) -> str:
        board = self.settings.board
        glyphs = GLYPHS[self.settings.colours]
        removed = set(self.removals())
        rows = [self._header()]
        grid = {cell: i for i, cell in enumerate(board.cells)}
        for y in range(board.size):
            line = []
            for x in range(board.size):
                i = grid.get((x, y))
                if i is None:
                    line.append(" ")
                elif self.cells[i] != EMPTY:
                    glyph = glyphs[self.cells[i]]
                    line.append(glyph.lower() if i in removed else glyph)
                else:
                    line.append("+" if i in board.chair else ".")
            rows.append(f"{board.size - y:>2} {' '.join(line).rstrip()}")
        rows.append("   " + " ".join(chr(ord("a") + x) for x in range(board.size)))
        legend = ", ".join(
            f"{glyphs[self.settings.colour(p)]} {name}"
            for p, name in enumerate(self.player_names())
        )
        rows.append(f"{legend}; + the Golden Chair; lower case: removed at the start of the turn")
        return "\n".join(rows)

    def svg(self) -> str:
        board = self.settings.board
        unit, margin = 36, 28
        side = board.size * unit + 2 * margin
        removed = set(self.removals())

        def centre(i):
            x, y = board.cells[i]
            return margin + x * unit + unit / 2, margin + y * unit + unit / 2

        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side + 24}" '
            f'viewBox="0 0 {side} {side + 24}" font-family="sans-serif" font-size="11">',
            f'<rect width="{side}" height="{side + 24}" fill="#fbf6e9"/>',
            f'<text x="{margin}" y="18" font-size="13">{escape(self._header())}</text>',
        ]
        for i in range(len(board.cells)):
            x, y = board.cells[i]
            fill = "#f2c94c" if i in board.chair else "#ffffff"
            parts.append(
                f'<rect x="{margin + x * unit + 3}" y="{margin + y * unit + 3}" '
                f'width="{unit - 6}" height="{unit - 6}" fill="{fill}" stroke="#8a7a5a"/>'
            )
        for i in range(len(board.cells)):
            for ray in board.rays[i][1:3]:  # right and down: each line segment once
                if ray:
                    j = ray[0]
                    (ax, ay), (bx, by) = centre(i), centre(j)
                    parts.append(
                        f'<line x1="{ax}" y1="{ay}" x2="{bx}" y2="{by}" stroke="#000" '
                        f'stroke-width="1.5"/>'
                    )
        for i, held in enumerate(self.cells):
            if held == EMPTY:
                continue
            cx, cy = centre(i)
            ring = ' stroke="#e74c3c" stroke-width="4"' if i in removed else ' stroke="#555"'
            parts.append(
                f'<circle cx="{cx}" cy="{cy}" r="{unit * 0.36}" fill="{FILLS[held]}"{ring}/>'
            )
        for x in range(board.size):
            parts.append(
                f'<text x="{margin + x * unit + unit / 2}" y="{side - 8}" '
                f'text-anchor="middle">{chr(ord("a") + x)}</text>'
            )
        for y in range(board.size):
            parts.append(
                f'<text x="{margin / 2}" y="{margin + y * unit + unit / 2 + 4}" '
                f'text-anchor="middle">{board.size - y}</text>'
            )
        names = self.player_names()
        legend = "  ".join(
            f"{names[p]}: {['red', 'black', 'blue', 'green'][self.settings.colour(p)]}"
            for p in range(self.players)
        )
        parts.append(
            f'<text x="{margin}" y="{side + 14}">{escape(legend)}; gold: the Golden Chair; '
            f"red ring: removed at the start of the turn</text>"
        )
        parts.append("</svg>")
        return "".join(parts)


def _read_claims(text: str, board, seats: str) -> tuple[tuple[int, int], ...]:
    """The claims of a position string: ``-`` or ``square@player`` joined by commas."""
    if text == "-":
        return ()
    claims = []
    for item in text.split(",")[: len(board.cells) + 1]:
        square, _, player = item.partition("@")
        if board.names.get(square) is None or len(player) != 1 or player not in seats:
            raise GameError(
                f"Long Tau position: claims: '-' or square@player joined by commas, "
                f"not {item[:20]!r}"
            )
        claims.append((board.names[square], int(player) - 1))
    if len(set(claims)) != len(claims) or len(claims) > len(board.cells):
        raise GameError("Long Tau position: claims: a square claimed twice by one player")
    return tuple(claims)


__all__ = ["LONG_TAU", "PASS", "LongTauGame", "LongTauState", "Move", "Settings"]

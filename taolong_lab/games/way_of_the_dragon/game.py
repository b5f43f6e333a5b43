"""Way of the Dragon (Nestor Romeral Andres, nestorgames) on the game protocol: a dice race of
2 to 5 players along five element paths (docs/games/way-of-the-dragon.md).

A turn: roll the five chindice (a chance event), keep some and roll the others again up to
three rolls in all, then move the piece of one path by the count of that element, or call the
Great Dragon on four or five dragons and swap two pieces of a path. Perfection (five of one
element) gives a turn again; equilibrium (the five elements) moves each piece one space. The
game ends when a player has all five pieces on numbered spaces; the numbers under the pieces
score.

>>> from taolong_lab.games import game
>>> start = game("way-of-the-dragon").new(players=3)
>>> start.current_player(), start.player_names()
(-1, ('black', 'red', 'white'))
>>> rolled = start.apply("roll WWWFD")
>>> rolled.legal_actions()[:3]
['stop', 'keep -', 'keep W']
>>> moved = rolled.apply("stop").apply("move W")
>>> moved.board[0][:4], moved.current_player()
('..k.', -1)
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from ..protocol import CHANCE, TERMINAL, Game, GameError, GameOption, GameState
from .data import paths_data
from .dice import DICE, DRAGON, FACES, Dice, add, dice_text, keeps, read_dice, rolls

EMPTY, DEAD = ".", "x"
PATHS = 5
NUMBERED = 5
ROLLS = 3
"""Rolls a turn (as in Yahtzee); the eye of the tiger adds a fourth."""
MAX_LENGTH = 30
MAX_DEAD = 20
PHASES = ("setup", "roll", "keep", "move", "after")
# The advanced game's powers, by element (and so by colour): water's fear, fire's re-birth,
# metal's eye of the tiger, earth's anxiety, wood's dragon.
FEAR, REBIRTH, TIGER, ANXIETY, SUBSTITUTE = range(5)
ZERO: Dice = (0,) * FACES


@dataclass(frozen=True)
class Settings:
    """The option values of a game (see :data:`OPTIONS`)."""

    players: int = 2
    advanced: bool = False
    immunity: bool = False
    dead: int = 0
    length: int = 10
    equilibrium: str = "board"

    @property
    def cells(self) -> int:
        """Spaces of a path after its symbol space: the plain ones, then the numbered ones."""
        return self.length + NUMBERED


def _options() -> tuple[GameOption, ...]:
    plain = paths_data().plain_spaces
    return (
        GameOption("players", 2, "how many play", low=2, high=5),
        GameOption("advanced", False, "the advanced game: one power an element", (False, True)),
        GameOption("immunity", False, "a piece is immune on its own path", (False, True)),
        GameOption("dead", 0, "dead pieces placed at random on plain spaces", low=0, high=MAX_DEAD),
        GameOption("length", plain, "plain spaces a path (inferred)", low=3, high=MAX_LENGTH),
        GameOption(
            "equilibrium",
            "board",
            "equilibrium moves the pieces on the board ('board') or enters the others too",
            ("board", "enter"),
        ),
    )


class WayOfTheDragonGame(Game):
    """Way of the Dragon: 2 to 5 players, dice rolls as chance events."""

    name = "way-of-the-dragon"
    title = "Way of the Dragon"
    players = (2, 3, 4, 5)
    chance = True
    heuristic_scale = 3.0
    decision_cap = 2000  # a turn is several decisions (rolls kept, a move, an end), by 5 players

    def __init__(self):
        self.options = _options()

    def start(self, settings: dict) -> WayOfTheDragonState:
        s = Settings(**settings)
        if s.dead > s.length * PATHS // 2:
            raise GameError(
                f"option 'dead': at most half the plain spaces ({s.length * PATHS // 2})"
            )
        board = (EMPTY * s.cells,) * PATHS
        return WayOfTheDragonState(s, board, "setup" if s.dead else "roll", 0, 0, ZERO, frozenset())

    def from_string(self, text: str) -> WayOfTheDragonState:
        return _read(self, text)

    def variants(self) -> list[dict]:
        return [{"players": n} for n in self.players]

    def heuristic(self, state: GameState, weights=None) -> tuple[float, ...]:
        """Each player's :func:`progress` less the best other player's; the player holding
        five dice also counts the best gain of a plain move with them (so a choice of dice
        is scored by the moves it leads to)."""
        own = [progress(state, seat) for seat in range(state.players)]
        if state.phase in ("keep", "move") and not state.finished():
            own[state.player] += _best_gain(state.board, state.dice, state.player, state.settings)
        return tuple(
            mine - max(v for other, v in enumerate(own) if other != seat)
            for seat, mine in enumerate(own)
        )


WAY_OF_THE_DRAGON = WayOfTheDragonGame()


class WayOfTheDragonState(GameState):
    """A position: the options, the five paths, the phase of the turn, the player, the rolls
    made this turn, the dice (during a roll: the dice kept) and the powers used."""

    __slots__ = ("_over", "_text", "board", "dice", "phase", "player", "rolls", "settings", "used")

    def __init__(self, settings, board, phase, player, rolls, dice, used):
        self.settings: Settings = settings
        self.board: tuple[str, ...] = board
        self.phase: str = phase
        self.player: int = player
        self.rolls: int = rolls
        self.dice: Dice = dice
        self.used: frozenset[int] = frozenset(used)
        self._over: bool | None = None
        self._text: str | None = None

    game = WAY_OF_THE_DRAGON

    @property
    def players(self) -> int:
        return self.settings.players

    def _with(self, **changes) -> WayOfTheDragonState:
        fields = {s: getattr(self, s) for s in self.__slots__ if s[0] != "_"} | changes
        return WayOfTheDragonState(**fields)

    # ---- pieces --------------------------------------------------------------------------
    def cell(self, path: int, seat: int) -> int:
        """Where the piece of ``seat`` stands on ``path``: 1 for the first space after the
        symbol space, 0 when it has not entered."""
        return self.board[path].find(paths_data().colour_letters[seat]) + 1

    def numbered(self, cell: int) -> bool:
        return cell > self.settings.length

    def value(self, cell: int) -> int:
        """The number of a numbered space (0 for any other)."""
        return _worth(cell, self.settings.length) if self.numbered(cell) else 0

    def score(self, seat: int) -> tuple[int, int]:
        """The sum of the numbers under the pieces of ``seat``, and how many stand on one."""
        cells = [self.cell(path, seat) for path in range(PATHS)]
        return sum(self.value(c) for c in cells), sum(self.numbered(c) for c in cells)

    def finished(self) -> bool:
        """A player has all five pieces on numbered spaces."""
        if self._over is None:
            self._over = any(self.score(seat)[1] == PATHS for seat in range(self.players))
        return self._over

    def has_power(self, power: int) -> bool:
        """The player to move has this power of the advanced game, unused."""
        s = self.settings
        return s.advanced and self.player == power and power not in self.used

    # ---- the protocol --------------------------------------------------------------------
    def current_player(self) -> int:
        if self.finished():
            return TERMINAL
        return CHANCE if self.phase in ("setup", "roll") else self.player

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if self.current_player() != CHANCE:
            return []
        if self.phase == "setup":
            free = self._free_plain()
            return [(f"dead {self._where(p, c)}", 1 / len(free)) for p, c in free]
        return list(_roll_outcomes(DICE - sum(self.dice)))

    def legal_actions(self) -> list[str]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE and self.phase == "roll":
            return list(_roll_names(DICE - sum(self.dice)))
        if player == CHANCE:
            return [action for action, _ in self.chance_outcomes()]
        if self.phase == "keep":
            return ["stop", *_keep_actions(self.dice)]
        if self.phase == "after":
            extra = "again" if self.perfection() else "rebirth"
            return ["end", extra]
        return self._moves()

    def apply(self, action) -> WayOfTheDragonState:
        action = self.parse_action(action)
        word, *rest = action.split()
        if word == "dead":
            path, cell = self._read_where(rest[0])
            board = _put(self.board, path, cell, DEAD)
            done = sum(b.count(DEAD) for b in board) == self.settings.dead
            return self._with(board=board, phase="roll" if done else "setup")
        if word == "roll":
            dice = add(self.dice, read_dice(rest[0]))
            rolled = self.rolls + 1
            more = rolled < ROLLS or (rolled == ROLLS and self.has_power(TIGER))
            return self._with(dice=dice, rolls=rolled, phase="keep" if more else "move")
        if word == "stop":
            return self._with(phase="move")
        if word == "keep":
            used = self.used | ({TIGER} if self.rolls == ROLLS else set())
            return self._with(dice=read_dice(rest[0]), phase="roll", used=used)
        if word in ("end", "again", "rebirth"):
            if word == "end":
                return self._with(
                    phase="roll", player=(self.player + 1) % self.players, rolls=0, dice=ZERO
                )
            used = self.used | ({REBIRTH} if word == "rebirth" else set())
            return self._with(phase="roll", rolls=0, dice=ZERO, used=used)
        return self._after_move(self._do(word, rest))

    def parse_action(self, text):
        if isinstance(text, str) and text in self.legal_actions():
            return text
        return super().parse_action(text)

    def returns(self) -> tuple[float, ...]:
        if not self.is_terminal():
            raise GameError("no returns: the game is not over")
        scores = [self.score(seat) for seat in range(self.players)]
        best = max(scores)
        top = scores.count(best)
        return tuple((1.0 if top == 1 else 0.0) if score == best else -1.0 for score in scores)

    def to_string(self) -> str:
        if self._text is None:
            self._text = self._write()
        return self._text

    def _write(self) -> str:
        s = self.settings
        paths = " ".join(
            f"{letter}={row}" for letter, row in zip(paths_data().letters, self.board, strict=True)
        )
        letters = paths_data().colour_letters
        used = "".join(letters[seat] for seat in sorted(self.used)) or "-"
        return (
            f"wotd players={s.players} advanced={int(s.advanced)} immunity={int(s.immunity)} "
            f"dead={s.dead} length={s.length} "
            f"equilibrium={s.equilibrium} {paths} phase={self.phase} player={self.player} "
            f"rolls={self.rolls} dice={dice_text(self.dice)} used={used}"
        )

    def player_names(self) -> tuple[str, ...]:
        return paths_data().colours[: self.players]

    def problems(self) -> list[str]:
        return _problems(self)

    def text(self) -> str:
        from .picture import text

        return text(self)

    def svg(self) -> str:
        from .picture import svg

        return svg(self)

    # ---- dice ----------------------------------------------------------------------------
    def perfection(self) -> bool:
        """All five dice show one element (not the dragon)."""
        return max(self.dice[:DRAGON]) == DICE

    def equilibrium(self) -> bool:
        """The five dice show the five elements."""
        return self.dice[:DRAGON] == (1,) * PATHS

    # ---- moves ---------------------------------------------------------------------------
    def destination(self, path: int, steps: int, anxiety: bool = False) -> int | None:
        """Where the mover's piece of ``path`` would land ``steps`` spaces on (entering from
        the symbol space when it is not on the board), or None when it cannot move."""
        s = self.settings
        start = self.cell(path, self.player)
        if self.numbered(start) or steps <= 0:
            return None
        target = start + steps
        if target > s.cells:  # never from a plain space: five dice move five spaces at most
            return None
        row = self.board[path]
        if row[target - 1] == EMPTY:
            return target
        if anxiety:
            free = row.find(EMPTY, target)
            return free + 1 if free >= 0 else None
        return None

    def _equilibrium_steps(self, anxiety: bool) -> tuple[tuple[int, int], ...]:
        """The (path, cell) of each of the mover's pieces that equilibrium moves."""
        found = []
        for path in range(PATHS):
            start = self.cell(path, self.player)
            if start == 0 and self.settings.equilibrium == "board":
                continue
            target = self.destination(path, 1, anxiety)
            if target is not None:
                found.append((path, target))
        return tuple(found)

    def swappable(self, path: int) -> list[int]:
        """The seats whose pieces on ``path`` the Great Dragon may swap (never a dead piece;
        with immunity, never a piece on the path of its own element)."""
        letters = paths_data().colour_letters
        return [
            seat
            for seat in range(self.players)
            if letters[seat] in self.board[path] and not (self.settings.immunity and seat == path)
        ]

    def _moves(self) -> list[str]:
        letters, colours = paths_data().letters, paths_data().colours
        dice = self.dice
        forced: list[str] = []
        powers: list[str] = []
        if self.equilibrium():
            if self._equilibrium_steps(False):
                forced.append("equilibrium")
            if self.has_power(ANXIETY) and self._equilibrium_steps(True) != self._equilibrium_steps(
                False
            ):
                powers.append("equilibrium anxiety")
        else:
            for path in range(PATHS):
                count = dice[path]
                moves = count and self.destination(path, count) is not None
                if moves:
                    forced.append(f"move {letters[path]}")
                elif count and self.has_power(ANXIETY) and self.destination(path, count, True):
                    powers.append(f"move {letters[path]} anxiety")
                if (
                    dice[DRAGON]
                    and self.has_power(SUBSTITUTE)
                    and self.destination(path, count + dice[DRAGON]) is not None
                ):
                    powers.append(f"move {letters[path]} dragon")
        swaps = []
        if dice[DRAGON] >= DICE - 1:
            paths = range(PATHS) if dice[DRAGON] == DICE else [dice.index(1)]
            for path in paths:
                seats = self.swappable(path)
                for i, a in enumerate(seats):
                    for b in seats[i + 1 :]:
                        swaps.append(f"swap {letters[path]} {colours[a]} {colours[b]}")
        ending = (["fear"] if self.has_power(FEAR) else []) if forced else ["pass"]
        return [*forced, *powers, *swaps, *ending]

    def _do(self, word: str, rest: list[str]) -> WayOfTheDragonState:
        """The position after a move-phase action (already checked legal)."""
        letters = paths_data().letters
        me = paths_data().colour_letters[self.player]
        board, used = self.board, set(self.used)
        if word == "move":
            path = letters.index(rest[0])
            power = rest[1] if len(rest) > 1 else None
            steps = self.dice[path] + (self.dice[DRAGON] if power == "dragon" else 0)
            target = self.destination(path, steps, power == "anxiety")
            board = _move(board, path, self.cell(path, self.player), target, me)
            used |= {ANXIETY} if power == "anxiety" else {SUBSTITUTE} if power else set()
        elif word == "equilibrium":
            anxiety = bool(rest)
            for path, target in self._equilibrium_steps(anxiety):
                board = _move(board, path, self.cell(path, self.player), target, me)
            used |= {ANXIETY} if anxiety else set()
        elif word == "swap":
            path = letters.index(rest[0])
            colours = paths_data().colour_letters
            a, b = (colours[paths_data().colours.index(name)] for name in rest[1:])
            row = self.board[path]
            i, j = row.index(a), row.index(b)
            board = _put(_put(board, path, i + 1, b), path, j + 1, a)
        elif word == "fear":
            used |= {FEAR}
        return self._with(board=board, used=frozenset(used))

    def _after_move(self, moved: WayOfTheDragonState) -> WayOfTheDragonState:
        if moved.perfection() or moved.has_power(REBIRTH):
            return moved._with(phase="after")
        return moved._with(
            phase="roll", player=(self.player + 1) % self.players, rolls=0, dice=ZERO
        )

    # ---- dead pieces ---------------------------------------------------------------------
    def _free_plain(self) -> list[tuple[int, int]]:
        return [
            (path, cell)
            for path in range(PATHS)
            for cell in range(1, self.settings.length + 1)
            if self.board[path][cell - 1] == EMPTY
        ]

    def _where(self, path: int, cell: int) -> str:
        return f"{paths_data().letters[path]}{cell}"

    def _read_where(self, text: str) -> tuple[int, int]:
        return paths_data().letters.index(text[0]), int(text[1:])


@functools.cache
def _roll_outcomes(count: int) -> tuple[tuple[str, float], ...]:
    return tuple((f"roll {dice_text(roll)}", float(p)) for roll, p in rolls(count))


@functools.cache
def _roll_names(count: int) -> tuple[str, ...]:
    return tuple(action for action, _ in _roll_outcomes(count))


@functools.cache
def _keep_actions(dice: Dice) -> tuple[str, ...]:
    return tuple(f"keep {dice_text(kept)}" for kept in keeps(dice))


def _put(board: tuple[str, ...], path: int, cell: int, piece: str) -> tuple[str, ...]:
    row = board[path]
    return (*board[:path], row[: cell - 1] + piece + row[cell:], *board[path + 1 :])


def _move(board, path: int, start: int, target: int, piece: str) -> tuple[str, ...]:
    if start:
        board = _put(board, path, start, EMPTY)
    return _put(board, path, target, piece)


def progress(state: WayOfTheDragonState, seat: int) -> float:
    """The heuristic's worth of one player's pieces: a numbered space's number, and up to two
    points for a piece on its way, by how far it has come."""
    return _progress(state.board, seat, state.settings.length)


def _worth(cell: int, length: int) -> float:
    """A numbered space's number; on a plain space, two points by how far it has come."""
    return paths_data().values[cell - length - 1] if cell > length else 2.0 * cell / length


@functools.lru_cache(maxsize=65536)
def _progress(board: tuple[str, ...], seat: int, length: int) -> float:
    letter = paths_data().colour_letters[seat]
    return sum(_worth(row.find(letter) + 1, length) for row in board)


@functools.lru_cache(maxsize=65536)
def _best_gain(board: tuple[str, ...], dice: Dice, seat: int, settings: Settings) -> float:
    """The most a plain move with ``dice`` adds to the progress of ``seat``'s pieces."""
    letter, length = paths_data().colour_letters[seat], settings.length
    best = 0.0
    for path, row in enumerate(board):
        start = row.find(letter) + 1
        target = start + dice[path]
        if dice[path] and start <= length and target <= settings.cells and row[target - 1] == EMPTY:
            best = max(best, _worth(target, length) - _worth(start, length))
    return best


# ---- the position string ----------------------------------------------------------------
KEYS = ("players", "advanced", "immunity", "dead", "length", "equilibrium")


def _number(field: str, text: str, low: int, high: int) -> int:
    if not (text.isascii() and text.isdigit()) or len(text) > 3 or not low <= int(text) <= high:
        raise GameError(
            f"way-of-the-dragon position: {field}: a number from {low} to {high}, not {text[:20]!r}"
        )
    return int(text)


def _read(game: WayOfTheDragonGame, text: str) -> WayOfTheDragonState:
    if not isinstance(text, str) or len(text) > 2000:
        raise GameError("way-of-the-dragon position: a string of at most 2000 characters")
    tokens = text.split(" ")
    letters = paths_data().letters
    names = [*KEYS, *letters, "phase", "player", "rolls", "dice", "used"]
    if len(tokens) != len(names) + 1 or tokens[0] != "wotd":
        raise GameError(
            f"way-of-the-dragon position: 'wotd' then {len(names)} fields "
            f"({' '.join(n + '=...' for n in names)}), not {text[:60]!r}"
        )
    values = {}
    for name, token in zip(names, tokens[1:], strict=True):
        key, sep, value = token.partition("=")
        if key != name or not sep:
            raise GameError(
                f"way-of-the-dragon position: expected field {name!r}, not {token[:30]!r}"
            )
        values[name] = value
    options = {o.name: o for o in game.options}
    flags = {}
    for name in ("advanced", "immunity"):
        if values[name] not in ("0", "1"):
            raise GameError(
                f"way-of-the-dragon position: {name}: 0 or 1, not {values[name][:20]!r}"
            )
        flags[name] = values[name] == "1"
    settings = {
        "players": _number("players", values["players"], 2, 5),
        **flags,
        "dead": _number("dead", values["dead"], 0, MAX_DEAD),
        "length": _number("length", values["length"], 3, MAX_LENGTH),
        "equilibrium": values["equilibrium"],
    }
    for name, value in settings.items():
        options[name].check(value)
    s = Settings(**settings)
    board = tuple(values[letter] for letter in letters)
    allowed = set(EMPTY + DEAD + "".join(paths_data().colour_letters[: s.players]))
    for letter, row in zip(letters, board, strict=True):
        if len(row) != s.cells or set(row) - allowed:
            raise GameError(
                f"way-of-the-dragon position: path {letter}: {s.cells} spaces of "
                f"{''.join(sorted(allowed))}, not {row[:40]!r}"
            )
    phase = values["phase"]
    if phase not in PHASES:
        raise GameError(f"way-of-the-dragon position: phase: one of {PHASES}, not {phase[:20]!r}")
    player = _number("player", values["player"], 0, s.players - 1)
    rolled = _number("rolls", values["rolls"], 0, ROLLS + 1)
    dice = read_dice(values["dice"], "way-of-the-dragon position: dice")
    colour_letters = paths_data().colour_letters
    used_text = values["used"]
    if used_text != "-" and (
        set(used_text) - set(colour_letters[: s.players]) or len(set(used_text)) != len(used_text)
    ):
        raise GameError(
            f"way-of-the-dragon position: used: colour letters or '-', not {used_text[:20]!r}"
        )
    used = frozenset(colour_letters.index(ch) for ch in used_text if ch != "-")
    state = WayOfTheDragonState(s, board, phase, player, rolled, dice, used)
    found = state.problems()
    if found:
        raise GameError(f"way-of-the-dragon position: {'; '.join(found)}")
    return state


def _problems(state: WayOfTheDragonState) -> list[str]:
    s = state.settings
    found = []
    letters = paths_data().letters
    colours = paths_data().colour_letters
    for path, row in enumerate(state.board):
        for seat in range(s.players):
            if row.count(colours[seat]) > 1:
                found.append(f"path {letters[path]}: two pieces of {paths_data().colours[seat]}")
        if DEAD in row[s.length :]:
            found.append(f"path {letters[path]}: a dead piece on a numbered space")
    if s.dead > s.length * PATHS // 2:
        found.append(f"{s.dead} dead pieces: more than half the {s.length * PATHS} plain spaces")
    dead = sum(row.count(DEAD) for row in state.board)
    if dead > s.dead or (dead < s.dead) != (state.phase == "setup"):
        found.append(f"{dead} dead pieces placed of {s.dead} in phase {state.phase}")
    placed = any(ch in colours for row in state.board for ch in row)
    if state.phase == "setup" and (placed or state.rolls or sum(state.dice) or state.player):
        found.append("pieces, dice or a turn before the dead pieces are placed")
    dice = sum(state.dice)
    if state.phase in ("setup", "roll"):
        if dice >= DICE or (state.rolls == 0 and dice) or state.rolls > ROLLS:
            found.append(f"{state.rolls} rolls with {dice} dice kept before a roll")
    elif dice != DICE or not 1 <= state.rolls <= ROLLS + 1:
        found.append(f"{dice} dice after {state.rolls} rolls in phase {state.phase}")
    limit = ROLLS + (TIGER in state.used and state.player == TIGER)
    if state.phase == "roll" and state.rolls == ROLLS and limit == ROLLS:
        found.append("a fourth roll without the eye of the tiger")
    if state.rolls > limit or (state.phase == "keep" and state.rolls == limit and limit > ROLLS):
        found.append(f"{state.rolls} rolls: more than the turn allows")
    if state.phase == "keep" and state.rolls == ROLLS and not state.has_power(TIGER):
        found.append("a choice of dice after the third roll without the eye of the tiger")
    if state.used and not s.advanced:
        found.append("a power used outside the advanced game")
    if state.phase == "after" and not (state.perfection() or state.has_power(REBIRTH)):
        found.append("a turn's end with neither perfection nor re-birth to choose")
    return found


__all__ = ["WAY_OF_THE_DRAGON", "Settings", "WayOfTheDragonGame", "WayOfTheDragonState", "progress"]

"""TAO (Giulia Barbieri) behind the game protocol: two players, hidden hands, docs/games/tao.md.

Each player has an area of seven slots: the five portal columns (1 to 5) and a border space
at each end (0 and 6); its five cards always lie side by side, so the two empty slots are at
the ends. A turn is two moves (one action each). After each move the mover opens a portal that
still holds its coin when its own area shows a door flanked by two guardians of the door's
faction at that portal, or five guardians of the animal or colour the current guardian card
names (then any portal facing one of them); with several such portals it chooses one with an
``open`` action. The first to take three coins wins.

>>> start = TAO.new(version="yang")
>>> start.current_player()  # the hands are dealt in a random order: a chance event
-1
>>> state = start.apply(start.legal_actions()[0])
>>> state.current_player(), state.legal_actions()[:3]
(0, ['swap 1 2', 'swap 1 3', 'swap 1 4'])
>>> TAO.from_string(state.to_string()) == state
True
"""

from __future__ import annotations

import itertools
import random
import re
from collections import Counter

from ..protocol import CHANCE, TERMINAL, Game, GameError, GameOption, GameState
from .cards import CARDS
from .picture import state_svg, state_text

EMPTY = "--"  # an empty slot of an area
UNDEALT = "__"  # a slot the deal has not reached yet
HIDDEN = "??"  # a card the observer cannot see (observations only)
BOTH = 3  # a card both players know: bit 1 the first player, bit 2 the second
MAX_TEXT = 1000  # the longest position string read

OPTIONS = (
    GameOption("version", "yin", "YIN (random set-up, face-down decks) or YANG", ("yin", "yang")),
    GameOption("open_hands", False, "YANG: both hands lie face up", (False, True)),
    GameOption(
        "first_turn", False, "variant: no portal opens in a player's first turn", (False, True)
    ),
    GameOption(
        "one_coin",
        False,
        "variant: after a coin, no move that would open a portal in the same turn",
        (False, True),
    ),
    GameOption("one_across", False, "variant: one move a turn on the other area", (False, True)),
    GameOption(
        "no_mirror",
        False,
        "variant: no swapping back the two cards of the other's last swap (action 3 or 6)",
        (False, True),
    ),
    GameOption(
        "reveal",
        "five",
        "the next guardian card shows after a point of five guardians "
        "('five') or after any point ('any')",
        ("five", "any"),
    ),
    GameOption(
        "ban",
        "used",
        "the animal or colour barred next: the one that scored the last "
        "five ('used') or the previous guardian card's ('card')",
        ("used", "card"),
    ),
    GameOption(
        "limit", 120, "turns before the game is drawn (a bound of the lab)", low=10, high=1000
    ),
)
ORDER = tuple(o.name for o in OPTIONS)


class TaoGame(Game):
    """TAO: two players; YIN and YANG, the four variants and the two readings as options."""

    name = "tao"
    title = "TAO"
    players = (2,)
    options = OPTIONS
    chance = True
    hidden = True
    heuristic_scale = 1.0
    decision_cap = 400  # two moves a turn and some openings, up to its own 120-turn limit

    def start(self, settings: dict) -> TaoState:
        if settings["open_hands"] and settings["version"] != "yang":
            raise GameError("option 'open_hands' takes True only with version 'yang'")
        options = tuple(settings[name] for name in ORDER)
        n, h = CARDS.slots, CARDS.hand
        if settings["version"] == "yang":
            areas = tuple((EMPTY, *CARDS.yang_table[p], EMPTY) for p in (0, 1))
            decks = ((None,) * h, (None,) * h)
            row, at = CARDS.yang_row, 0
        else:
            areas = ((EMPTY, *(UNDEALT,) * (n - 2), EMPTY),) * 2
            decks = ((None,) * h, (None,) * h)
            row, at = (UNDEALT,) * CARDS.guardian_deck, 0
        return TaoState(options, areas, decks, row, at, (-1,) * CARDS.portals)

    def from_string(self, text: str) -> TaoState:
        return read_position(text)

    def variants(self) -> list[dict]:
        every = {"first_turn": True, "one_coin": True, "one_across": True, "no_mirror": True}
        return [
            {"version": "yin"},
            {"version": "yang"},
            {"version": "yang", "open_hands": True},
            {"version": "yin", **every},
            {"version": "yang", **every},
        ]

    def heuristic(self, state: GameState, weights=None) -> tuple[float, ...] | None:
        if not isinstance(state, TaoState):
            return None
        score = [state.coins.count(p) + 0.5 * state.promise(p) for p in (0, 1)]
        return (score[0] - score[1], score[1] - score[0])


TAO = TaoGame()


class TaoState(GameState):
    """A position of TAO. Cards are codes (see :mod:`taolong_lab.games.tao.cards`); a deck card
    is ``(code, known)``, ``known`` the players who know it (bit 1 the first, bit 2 the second),
    its top first."""

    __slots__ = (
        "across",
        "areas",
        "at",
        "ban",
        "coins",
        "decks",
        "last",
        "mirror",
        "mover",
        "options",
        "pending",
        "row",
        "step",
        "took",
        "turn",
    )

    def __init__(
        self,
        options,
        areas,
        decks,
        row,
        at,
        coins,
        mover=0,
        step=0,
        turn=0,
        took=False,
        across=False,
        ban="",
        last="",
        mirror="",
        pending="",
    ):
        self.options, self.areas, self.decks, self.row, self.at = options, areas, decks, row, at
        self.coins, self.mover, self.step, self.turn = coins, mover, step, turn
        self.took, self.across, self.ban = took, across, ban
        self.last, self.mirror, self.pending = last, mirror, pending

    game, players = TAO, 2

    def _replace(self, **changes) -> TaoState:
        fields = {name: getattr(self, name) for name in self.__slots__}
        return TaoState(**{**fields, **changes})

    def __reduce__(self):
        return (TaoState, tuple(getattr(self, name) for name in _INIT))

    def option(self, name: str):
        """The value of option ``name`` in this game."""
        return self.options[ORDER.index(name)]

    # ---- whose turn ----------------------------------------------------------------------
    def _undealt(self) -> bool:
        return (
            UNDEALT in self.areas[0]
            or UNDEALT in self.areas[1]
            or None in self.decks[0]
            or None in self.decks[1]
            or UNDEALT in self.row
        )

    def winner(self) -> int | None:
        """The player who took the coins that win, if one did."""
        for player in (0, 1):
            if self.coins.count(player) >= CARDS.coins_to_win:
                return player
        return None

    def current_player(self) -> int:
        if self.winner() is not None or self.turn >= self.option("limit"):
            return TERMINAL
        if self._undealt():
            return CHANCE
        return self.mover

    # ---- chance --------------------------------------------------------------------------
    def _pool(self) -> Counter:
        """The cards not dealt yet (the deal's pool)."""
        left = Counter(CARDS.deck)
        left.subtract(c for area in self.areas for c in area if c not in (EMPTY, UNDEALT))
        left.subtract(c[0] for deck in self.decks for c in deck if c is not None)
        left.subtract(c for c in self.row if c != UNDEALT)
        return left

    def chance_outcomes(self) -> list[tuple[str, float]]:
        if self.current_player() != CHANCE:
            return []
        if self.option("version") == "yang":
            orders = [_hand_orders(p) for p in (0, 1)]
            share = 1 / (len(orders[0]) * len(orders[1]))
            return [(f"{a}|{b}", share) for a in orders[0] for b in orders[1]]
        pool = self._pool()
        if UNDEALT in self.areas[0] or UNDEALT in self.areas[1]:  # the table: no doors yet
            for door in CARDS.doors:
                pool[door] = 0
        total = sum(n for n in pool.values() if n > 0)
        return [(card, pool[card] / total) for card in sorted(pool) if pool[card] > 0]

    def _deal(self, card: str) -> TaoState:
        """The position after the next YIN slot is dealt ``card``."""
        for p in (0, 1):
            if UNDEALT in self.areas[p]:
                i = self.areas[p].index(UNDEALT)
                areas = _put(self.areas, p, _put(self.areas[p], i, card))
                return self._replace(areas=areas)
        for p in (0, 1):
            if None in self.decks[p]:
                i = self.decks[p].index(None)
                return self._replace(decks=_put(self.decks, p, _put(self.decks[p], i, (card, 0))))
        row = _put(self.row, self.row.index(UNDEALT), card)
        dealt = self._replace(row=row)
        return dealt._replace(at=dealt._next_rule(-1)) if UNDEALT not in row else dealt

    def _next_rule(self, at: int) -> int:
        """The guardian card after ``at`` that names a rule (the special card names none);
        ``at`` itself when none is left."""
        for i in range(at + 1, len(self.row)):
            if self.row[i] != CARDS.special:
                return i
        return at

    # ---- the legal actions ---------------------------------------------------------------
    def legal_actions(self) -> list[str]:
        player = self.current_player()
        if player == TERMINAL:
            return []
        if player == CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        if self.pending:
            return [f"open {portal}" for portal in self._pending_portals()]
        return self._moves()

    def _moves(self) -> list[str]:
        me, you = self.mover, 1 - self.mover
        mine, yours = self.areas[me], self.areas[you]
        cards = [i for i, c in enumerate(mine) if c != EMPTY]
        empty = [i for i, c in enumerate(mine) if c == EMPTY]
        moves = [f"swap {a} {b}" for a, b in itertools.combinations(cards, 2) if mine[a] != mine[b]]
        moves += [f"move {a} {b}" for a in cards for b in empty]
        across = not (self.option("one_across") and self.across)
        facing = [i for i in cards if yours[i] != EMPTY]
        if across:
            moves += [f"cross {i}" for i in facing if mine[i] != yours[i]]
        moves += [f"draw {i}" for i in cards]
        if across:
            moves += [f"deal {i}" for i, c in enumerate(yours) if c != EMPTY]
            moves += [
                f"special {a} {b}"
                for a in cards
                if mine[a] == CARDS.special
                for b, c in enumerate(yours)
                if c not in (EMPTY, CARDS.special)
            ]
        if self.option("no_mirror") and self.mirror:
            moves = [m for m in moves if not self._mirrors(m)]
        if self.option("one_coin") and self.took:
            moves = [m for m in moves if not self._would_open(m)] or moves
        return moves

    def _mirrors(self, move: str) -> bool:
        """Whether ``move`` exchanges back the two cards of the other player's last swap, by
        action 3 (``cross``) or 6 (``special``), whichever action made the swap."""
        word, *numbers = move.split()
        if word not in ("cross", "special"):
            return False
        action, mine, yours = self.mirror.split(":")
        where = [int(n) for n in action.split("_")[1:]]
        slots = [int(n) for n in numbers]
        return (slots[0], slots[-1]) == (where[0], where[-1]) and (
            self.areas[self.mover][where[0]] == mine
            and self.areas[1 - self.mover][where[-1]] == yours
        )

    def _would_open(self, move: str) -> bool:
        """Whether ``move`` would open a portal, as far as the mover can see: a draw or a deal
        brings the top card of its deck, and when the mover cannot see that card it cannot
        know (False; should it open one, it opens nothing, :meth:`_with_pending`)."""
        if move.split()[0] in ("draw", "deal"):
            _card, known = self.decks[self.mover][0]
            if not known >> self.mover & 1:
                return False
        return bool(self._move(move, judging=True).pending)

    # ---- apply ---------------------------------------------------------------------------
    def apply(self, action) -> TaoState:
        action = self.parse_action(action)
        if self.current_player() == CHANCE:
            if self.option("version") == "yang":
                hands = tuple(
                    tuple((c, BOTH if self.option("open_hands") else 1 << p) for c in h.split("."))
                    for p, h in enumerate(action.split("|"))
                )
                return self._replace(decks=hands)
            return self._deal(action)
        if self.pending:
            return self._open(int(action.split()[1]))._end_move()
        moved = self._move(action)
        portals = moved._pending_portals() if moved.pending else []
        if len(portals) == 1:
            return moved._open(portals[0])._end_move()
        return moved if portals else moved._end_move()

    def _move(self, action: str, judging: bool = False) -> TaoState:
        """The position after the move ``action`` (no portal opened yet); ``pending`` holds
        how a portal could open ('door' or 'five') when one can (``judging``: whether it
        would, the variant ``one_coin`` aside)."""
        word, *numbers = action.split()
        a, b = (int(n) for n in (*numbers, numbers[0])[:2])
        me, you = self.mover, 1 - self.mover
        mine, yours = list(self.areas[me]), list(self.areas[you])
        decks = list(self.decks)
        swapped = ""
        if word == "swap":
            mine[a], mine[b] = mine[b], mine[a]
        elif word == "move":
            card = mine[a]
            rest = [c for i, c in enumerate(mine) if c != EMPTY and i != a]
            first = b if b < mine.index(next(c for c in mine if c != EMPTY)) else b - len(rest)
            block = [card, *rest] if b == first else [*rest, card]
            mine = [EMPTY] * len(mine)
            mine[first : first + len(block)] = block
        elif word == "cross":
            mine[a], yours[a] = yours[a], mine[a]
            swapped = f"cross_{a}:{yours[a]}:{mine[a]}"
        elif word in ("draw", "deal"):
            side = mine if word == "draw" else yours
            deck = decks[me]
            decks[me] = (*deck[1:], (side[a], BOTH))
            side[a] = deck[0][0]
        elif word == "special":
            mine[a], yours[b] = yours[b], mine[a]
            swapped = f"special_{b}_{a}:{yours[b]}:{mine[a]}"
        areas = [None, None]
        areas[me], areas[you] = tuple(mine), tuple(yours)
        crossed = word in ("cross", "deal", "special")
        return self._replace(
            areas=tuple(areas),
            decks=tuple(decks),
            across=self.across or crossed,
            last=swapped,
            pending="",
        )._with_pending(judging)

    def _with_pending(self, judging: bool = False) -> TaoState:
        if self.option("first_turn") and self.turn < 2:
            return self
        if self.option("one_coin") and self.took and not judging:
            return self
        if self._door_portals():
            return self._replace(pending="door")
        if self._five_portals():
            return self._replace(pending="five")
        return self

    def _pending_portals(self) -> list[int]:
        return self._door_portals() if self.pending == "door" else self._five_portals()

    def _door_portals(self, player: int | None = None) -> list[int]:
        """The portals (1 to 5) with a coin where ``player``'s area shows a door between two
        guardians of its faction."""
        area = self.areas[self.mover if player is None else player]
        return [
            i
            for i in range(1, CARDS.portals + 1)
            if self.coins[i - 1] < 0
            and CARDS.is_door(area[i])
            and area[i - 1] == area[i + 1] == CARDS.faction(area[i])
        ]

    def five_kinds(self, player: int | None = None) -> str:
        """The animal or colour letters (of the current guardian card, not barred) that all
        five cards of ``player``'s area share as guardians: '' when they make no five."""
        area = [c for c in self.areas[self.mover if player is None else player] if c != EMPTY]
        if not all(CARDS.is_guardian(c) for c in area):
            return ""
        rule = self.row[self.at]
        kinds = (CARDS.animal(rule), CARDS.colour(rule))
        return "".join(
            k
            for k, read in zip(kinds, (CARDS.animal, CARDS.colour), strict=True)
            if k not in self.ban and all(read(c) == k for c in area)
        )

    def _five_portals(self) -> list[int]:
        if not self.five_kinds():
            return []
        area = self.areas[self.mover]
        return [
            i for i in range(1, CARDS.portals + 1) if self.coins[i - 1] < 0 and area[i] != EMPTY
        ]

    def _open(self, portal: int) -> TaoState:
        coins = _put(self.coins, portal - 1, self.mover)
        opened = self._replace(coins=coins, took=True)
        if self.pending == "five":
            used = self.five_kinds()
            opened = opened._advance(used)
        elif self.option("reveal") == "any":
            opened = opened._advance("")
        return opened._replace(pending="")

    def _advance(self, used: str) -> TaoState:
        """The next guardian card shows; the ban is set by the option ``ban``."""
        at = self._next_rule(self.at)
        if self.option("ban") == "used":
            ban = "".join(sorted(used)) if used else self.ban
        else:
            rule = self.row[self.at]
            ban = (
                "".join(sorted(CARDS.animal(rule) + CARDS.colour(rule)))
                if at != self.at
                else self.ban
            )
        return self._replace(at=at, ban=ban)

    def _end_move(self) -> TaoState:
        if self.winner() is not None:
            return self
        if self.step == 0:
            return self._replace(step=1)
        return self._replace(
            step=0,
            mover=1 - self.mover,
            turn=self.turn + 1,
            took=False,
            across=False,
            mirror=self.last,
            last="",
        )

    def promise(self, player: int) -> float:
        """How near ``player``'s area is to opening a portal, from 0 to 1 (the heuristic's)."""
        area = self.areas[player]
        best = 0.0
        for i in range(1, CARDS.portals + 1):
            if self.coins[i - 1] >= 0:
                continue
            door = CARDS.is_door(area[i])
            sides = sum(area[j] == CARDS.faction(area[i]) for j in (i - 1, i + 1)) if door else 0
            best = max(best, (1 + sides) / 3 if door else 0.0)
        rule = self.row[self.at] if UNDEALT not in self.row else ""
        for read in (CARDS.animal, CARDS.colour):
            if rule and read(rule) not in self.ban:
                share = sum(CARDS.is_guardian(c) and read(c) == read(rule) for c in area) / 5
                best = max(best, share * 0.8)
        return best

    # ---- the end -------------------------------------------------------------------------
    def returns(self) -> tuple[float, ...]:
        if not self.is_terminal():
            raise GameError("no returns: the game is not over")
        won = self.winner()
        if won is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if won == 0 else (-1.0, 1.0)

    # ---- what a player sees --------------------------------------------------------------
    def _row_known(self, i: int) -> bool:
        return self.option("version") == "yang" or (i <= self.at and UNDEALT not in self.row)

    def to_string(self, player: int | None = None) -> str:
        """The position string; for ``player``, what that player sees (its observation)."""

        def card(code, known=BOTH):
            if code is None:
                return UNDEALT
            return code if player is None or known >> player & 1 else HIDDEN

        options = ",".join(
            f"{name}={_word(v)}" for name, v in zip(ORDER, self.options, strict=True)
        )
        areas = [".".join(area) for area in self.areas]
        decks = [
            ".".join(UNDEALT if c is None else f"{card(*c)}{c[1]}" for c in deck)
            for deck in self.decks
        ]
        row = ".".join(
            c if c == UNDEALT or self._row_known(i) else card(c, 0) for i, c in enumerate(self.row)
        )
        coins = "".join("." if c < 0 else str(c) for c in self.coins)
        flags = f"p{self.mover}s{self.step}t{self.turn}c{int(self.took)}a{int(self.across)}"
        rest = [self.ban or "-", self.last or "-", self.mirror or "-", self.pending or "-"]
        return " ".join(["tao", options, *areas, *decks, f"{row}@{self.at}", coins, flags, *rest])

    def observation(self, player: int) -> str:
        return self.to_string(player)

    def _unknown(self, player: int) -> list[tuple[str, int, int]]:
        """The slots whose card ``player`` cannot see: ('deck', owner, index) or ('row', 0, i)."""
        slots = [
            ("deck", p, i)
            for p in (0, 1)
            for i, c in enumerate(self.decks[p])
            if c is not None and not c[1] >> player & 1
        ]
        slots += [
            ("row", 0, i) for i, c in enumerate(self.row) if c != UNDEALT and not self._row_known(i)
        ]
        return slots

    def sample(self, player: int, rng: random.Random) -> TaoState:
        slots = self._unknown(player)
        if not slots:
            return self
        seen = Counter(CARDS.deck)
        unseen = {(kind, p, i) for kind, p, i in slots}
        seen.subtract(c for area in self.areas for c in area if c not in (EMPTY, UNDEALT))
        for p in (0, 1):
            seen.subtract(
                c[0] for i, c in enumerate(self.decks[p]) if c and ("deck", p, i) not in unseen
            )
        seen.subtract(
            c for i, c in enumerate(self.row) if c != UNDEALT and ("row", 0, i) not in unseen
        )
        pool = sorted(seen.elements())
        rng.shuffle(pool)
        decks = [list(deck) for deck in self.decks]
        row = list(self.row)
        for (kind, p, i), code in zip(slots, pool, strict=False):
            if kind == "deck":
                decks[p][i] = (code, decks[p][i][1])
            else:
                row[i] = code
        return self._replace(decks=tuple(map(tuple, decks)), row=tuple(row))

    # ---- invariants and pictures ---------------------------------------------------------
    def problems(self) -> list[str]:
        found = []
        every = Counter(CARDS.deck)
        held = Counter(c for area in self.areas for c in area if c not in (EMPTY, UNDEALT))
        held.update(c[0] for deck in self.decks for c in deck if c is not None)
        held.update(c for c in self.row if c != UNDEALT)
        if held - every:
            found.append(f"cards beyond the deck: {sorted((held - every).elements())}")
        for p, area in enumerate(self.areas):
            filled = [i for i, c in enumerate(area) if c != EMPTY]
            if len(area) != CARDS.slots or len(filled) != CARDS.portals:
                found.append(f"area {p + 1}: not five cards in seven slots")
            elif filled[-1] - filled[0] != CARDS.portals - 1:
                found.append(f"area {p + 1}: a gap between the cards")
        found += self._deal_problems()
        if any(area[i] == UNDEALT for area in self.areas for i in (0, CARDS.slots - 1)):
            found.append("a border slot waits for a card")
        for p in (0, 1):
            if len(self.decks[p]) != CARDS.hand:
                found.append(f"deck {p + 1}: not {CARDS.hand} cards")
        if len(self.row) != CARDS.guardian_deck or not 0 <= self.at < len(self.row):
            found.append("the guardian deck or its current card is out of place")
        elif UNDEALT not in self.row and self.row[self.at] == CARDS.special:
            found.append("the current guardian card is the special card")
        if all(self.coins.count(p) >= CARDS.coins_to_win for p in (0, 1)):
            found.append("both players took the coins that win")
        if self.pending and not self._pending_portals():
            found.append(f"a pending {self.pending} opening with no portal to open")
        return found

    def _deal_problems(self) -> list[str]:
        found = []
        if self.option("version") == "yang":
            dealt = [c is not None for deck in self.decks for c in deck]
            if any(dealt) and not all(dealt):
                found.append("YANG: a hand dealt in part")
            start = self.game.start(dict(zip(ORDER, self.options, strict=True)))
            if not any(dealt) and (self.areas, self.row) != (start.areas, start.row):
                found.append("YANG: the table is not the set-up before the hands are dealt")
            if UNDEALT in self.areas[0] + self.areas[1] + self.row:
                found.append("YANG: a table card or guardian card not dealt")
        else:
            order = [c != UNDEALT for area in self.areas for c in area[1:-1]]
            order += [c is not None for deck in self.decks for c in deck]
            order += [c != UNDEALT for c in self.row]
            if order != sorted(order, reverse=True):
                found.append("YIN: the cards are not dealt in order (areas, decks, guardian deck)")
            if any(c in CARDS.doors for area in self.areas for c in area) and not all(order[:10]):
                found.append("YIN: a door on the table before the table is dealt")
        if self._undealt() and (
            self.turn
            or self.step
            or self.mover
            or self.took
            or self.across
            or self.pending
            or self.last
            or self.mirror
            or self.ban
            or self.at
            or any(c >= 0 for c in self.coins)
        ):
            found.append("play before the deal is done")
        return found

    def player_names(self) -> tuple[str, ...]:
        return ("first", "second")

    def text(self) -> str:
        return state_text(self)

    def text_for(self, player: int) -> str:
        """The text picture as ``player`` sees it: the cards it cannot see written ``??``."""
        return state_text(self, player)

    def svg(self) -> str:
        return state_svg(self)


_INIT = (
    "options",
    "areas",
    "decks",
    "row",
    "at",
    "coins",
    "mover",
    "step",
    "turn",
    "took",
    "across",
    "ban",
    "last",
    "mirror",
    "pending",
)


def _put(values: tuple, index: int, value) -> tuple:
    return (*values[:index], value, *values[index + 1 :])


def _word(value) -> str:
    return {True: "1", False: "0"}.get(value, str(value)) if isinstance(value, bool) else str(value)


def _hand_orders(player: int) -> list[str]:
    """Every order of a YANG hand, as ``a.b.c.d`` (top first), sorted."""
    return sorted({".".join(order) for order in itertools.permutations(CARDS.yang_hands[player])})


# ---- reading a position string ------------------------------------------------------------------
def _bad(field: str, reason: str) -> GameError:
    return GameError(f"TAO position: {field}: {reason}")


def read_position(text: str) -> TaoState:
    """Read a TAO position string (:meth:`TaoState.to_string`).

    Parameters
    ----------
    text
        The position string.

    Returns
    -------
    TaoState

    Raises
    ------
    GameError
        A bad string, naming the field at fault (or the invariants it breaks).
    """
    if not isinstance(text, str) or len(text) > MAX_TEXT:
        raise _bad("text", f"a string of at most {MAX_TEXT} characters")
    fields = text.split(" ")
    if len(fields) != 13 or fields[0] != "tao":
        raise _bad(
            "text",
            "'tao', the options, two areas, two decks, the guardian deck, the "
            "coins, the turn, the ban, the last swap, the barred swap, the pending opening",
        )
    options = _read_options(fields[1])
    areas = tuple(_read_area(fields[2 + p], p) for p in (0, 1))
    decks = tuple(_read_deck(fields[4 + p], p) for p in (0, 1))
    row, at = _read_row(fields[6])
    coins = fields[7]
    if len(coins) != CARDS.portals or any(c not in ".01" for c in coins):
        raise _bad("coins", f"{CARDS.portals} characters of '.', '0' and '1', not {coins!r}")
    flags = fields[8]
    parts = _FLAGS.fullmatch(flags) if len(flags) < 40 else None
    if parts is None:
        raise _bad("turn", f"'p<0|1>s<0|1>t<turns>c<0|1>a<0|1>', not {flags[:40]!r}")
    mover, step, turn, took, across = (int(x) for x in parts.groups())
    ban = "" if fields[9] == "-" else fields[9]
    if ban not in ("", *("".join(sorted(b)) for b in _BANS)):
        raise _bad("ban", f"'-' or the barred letters of D, T, R, B, not {fields[9][:20]!r}")
    last, mirror = ("" if f == "-" else f for f in fields[10:12])
    for name, swap in (("last", last), ("mirror", mirror)):
        if swap and _SWAP.fullmatch(swap) is None:
            raise _bad(name, f"'-' or a swap such as 'cross_3:RD:BT', not {swap[:40]!r}")
    pending = "" if fields[12] == "-" else fields[12]
    if pending not in ("", "door", "five"):
        raise _bad("pending", f"'-', 'door' or 'five', not {pending[:20]!r}")
    coin_values = tuple(-1 if c == "." else int(c) for c in coins)
    state = TaoState(
        options,
        areas,
        decks,
        row,
        at,
        coin_values,
        mover,
        step,
        turn,
        bool(took),
        bool(across),
        ban,
        last,
        mirror,
        pending,
    )
    if turn > options[ORDER.index("limit")]:
        raise _bad("turn", f"{turn} turns is beyond the limit")
    broken = state.problems()
    if broken:
        raise _bad("invariants", "; ".join(broken))
    return state


_FLAGS = re.compile(r"p([01])s([01])t([0-9]{1,4})c([01])a([01])")
_CODE = "|".join(sorted({*CARDS.deck}))
_SWAP = re.compile(rf"(cross_[0-6]|special_[0-6]_[0-6]):({_CODE}):({_CODE})")
_BANS = [a + b for a in "DT" for b in "RB"] + list("DTRB")
_WORDS = {True: "1", False: "0"}


def _read_options(text: str) -> tuple:
    pairs = text.split(",")
    names = [pair.split("=", 1)[0] for pair in pairs]
    if names != list(ORDER) or any("=" not in pair for pair in pairs):
        raise _bad("options", f"'name=value' for each of {', '.join(ORDER)}, in that order")
    values = []
    for option, pair in zip(OPTIONS, pairs, strict=True):
        word = pair.split("=", 1)[1]
        if isinstance(option.default, bool):
            value = {"1": True, "0": False}.get(word, word)
        elif isinstance(option.default, int):
            value = int(word) if word.isdigit() and len(word) < 6 else word
        else:
            value = word
        option.check(value)
        values.append(value)
    settings = dict(zip(ORDER, values, strict=True))
    if settings["open_hands"] and settings["version"] != "yang":
        raise GameError("option 'open_hands' takes True only with version 'yang'")
    return tuple(values)


def _read_area(text: str, player: int) -> tuple[str, ...]:
    tokens = text.split(".")
    known = {*CARDS.deck, EMPTY, UNDEALT}
    if len(tokens) != CARDS.slots or any(t not in known for t in tokens):
        raise _bad(f"area {player + 1}", f"{CARDS.slots} slots of card codes, '--' or '__'")
    return tuple(tokens)


def _read_deck(text: str, player: int) -> tuple:
    tokens = text.split(".")
    if len(tokens) != CARDS.hand:
        raise _bad(f"deck {player + 1}", f"{CARDS.hand} cards, top first")
    deck = []
    for token in tokens:
        if token == UNDEALT:
            deck.append(None)
        elif token[:-1] in CARDS.deck and token[-1:] in "0123" and len(token) == 3:
            deck.append((token[:-1], int(token[-1])))
        else:
            raise _bad(
                f"deck {player + 1}", f"a card code and who knows it (0 to 3), not {token[:20]!r}"
            )
    return tuple(deck)


def _read_row(text: str) -> tuple[tuple[str, ...], int]:
    cards, _, at = text.partition("@")
    tokens = cards.split(".")
    if len(tokens) != CARDS.guardian_deck or any(t not in {*CARDS.deck, UNDEALT} for t in tokens):
        raise _bad("guardian deck", f"{CARDS.guardian_deck} card codes or '__'")
    if at not in [str(i) for i in range(CARDS.guardian_deck)]:
        raise _bad("guardian deck", f"'@' and the current card's index, not {at[:20]!r}")
    return tuple(tokens), int(at)


__all__ = ["OPTIONS", "TAO", "TaoGame", "TaoState", "read_position"]

"""Two tiny games on the game protocol, to prove it is not Tao-Long-shaped (not tests).

- :data:`PIG`, a dice game: two players race to ``target`` points; on a turn a player rolls a
  die (a chance event) as often as it likes, adding the pips to the turn's total, until it
  holds (the total is banked) or rolls a 1 (the total is lost). It gives its own evaluation.
- :data:`KUHN`, a hidden-card game (Kuhn poker): three cards J < Q < K, one dealt to each
  player face down (a chance event); each antes 1; the first player passes or bets 1, then the
  second, and a bet is called or folded. The higher card wins the pot at a showdown. A player
  sees its own card and the betting; the returns are the chips won, halved, so they lie in
  [-1, 1]. It has no evaluation of its own: the agents score it by random playouts.
"""

from __future__ import annotations

from taolong_lab.games import CHANCE, TERMINAL, Game, GameError, GameOption, GameState


# ---- Pig: chance ----------------------------------------------------------------------------
class PigGame(Game):
    name, title, players, chance = "pig", "Pig", (2,), True
    options = (GameOption("target", 12, "the points that win", low=5, high=100),)
    heuristic_scale = 4.0

    def start(self, settings):
        return PigState(settings["target"], (0, 0), 0, 0, False)

    def from_string(self, text):
        fields = text.split() if isinstance(text, str) else []
        if len(fields) != 6 or fields[0] != "pig":
            raise GameError(f"a Pig position reads 'pig T A B TURN PLAYER+R', not {text!r}")
        try:
            numbers = [int(f) for f in fields[1:5]]
        except ValueError:
            raise GameError(f"Pig: the target, scores and turn are numbers: {text!r}") from None
        if fields[5] not in ("0-", "1-", "0r", "1r"):
            raise GameError(f"Pig: player: '0-', '1-', '0r' or '1r', not {fields[5]!r}")
        target, a, b, turn = numbers
        state = PigState(target, (a, b), turn, int(fields[5][0]), "r" in fields[5])
        if state.problems():
            raise GameError(f"Pig: {'; '.join(state.problems())}")
        return state

    def heuristic(self, state, weights=None):
        mine = [s + (state.turn if p == state.player else 0) for p, s in enumerate(state.scores)]
        return (mine[0] - mine[1], mine[1] - mine[0])


PIG = PigGame()


class PigState(GameState):
    __slots__ = ("player", "rolling", "scores", "target", "turn")

    def __init__(self, target, scores, turn, player, rolling):
        self.target, self.scores, self.turn = target, scores, turn
        self.player, self.rolling = player, rolling

    game, players = PIG, 2

    def current_player(self):
        if max(self.scores) >= self.target:
            return TERMINAL
        return CHANCE if self.rolling else self.player

    def legal_actions(self):
        if self.current_player() == CHANCE:
            return [str(pips) for pips in range(1, 7)]
        if self.current_player() == TERMINAL:
            return []
        return ["roll", "hold"] if self.turn else ["roll"]

    def chance_outcomes(self):
        return [(a, 1 / 6) for a in self.legal_actions()] if self.rolling else []

    def apply(self, action):
        action = self.parse_action(action)
        t, s, p = self.target, self.scores, self.player
        if action == "roll":
            return PigState(t, s, self.turn, p, True)
        if action == "hold":
            banked = tuple(v + self.turn if i == p else v for i, v in enumerate(s))
            return PigState(t, banked, 0, p if max(banked) >= t else 1 - p, False)
        if action == "1":
            return PigState(t, s, 0, 1 - p, False)
        return PigState(t, s, self.turn + int(action), p, False)

    def returns(self):
        if not self.is_terminal():
            raise GameError("no returns: the game is not over")
        return (1.0, -1.0) if self.scores[0] >= self.target else (-1.0, 1.0)

    def to_string(self):
        a, b = self.scores
        roll = "r" if self.rolling else "-"
        return f"pig {self.target} {a} {b} {self.turn} {self.player}{roll}"

    def problems(self):
        found = []
        if not 5 <= self.target <= 100:
            found.append(f"target {self.target} is not 5 to 100")
        if min(self.scores) < 0 or sorted(self.scores)[0] >= self.target:
            found.append(f"scores {self.scores}: both reached the target, or one is negative")
        if self.turn < 0 or (self.turn and max(self.scores) >= self.target):
            found.append(f"turn total {self.turn} out of place")
        return found

    def text(self):
        a, b = self.scores
        return f"Pig to {self.target}: {a} - {b}, player {self.player + 1} holds {self.turn}"


# ---- Kuhn poker: hidden cards ------------------------------------------------------------------
CARDS = "JQK"
DEALS = [a + b for a in CARDS for b in CARDS if a != b]
ENDS = {"pp": 1, "pbp": 1, "pbb": 2, "bp": 1, "bb": 2}  # the betting that ends, and its stake


class KuhnGame(Game):
    name, title, players, chance, hidden = "kuhn", "Kuhn poker", (2,), True, True

    def start(self, settings):
        return KuhnState("", "")

    def from_string(self, text):
        fields = text.split() if isinstance(text, str) else []
        if len(fields) != 3 or fields[0] != "kuhn":
            raise GameError(f"a Kuhn position reads 'kuhn DEAL BETS', not {text!r}")
        deal, bets = (f.strip("-") for f in fields[1:])
        if deal not in ("", *DEALS) or (not deal and bets):
            raise GameError(f"Kuhn: deal: two different cards of {CARDS}, not {fields[1]!r}")
        if bets and not any(end.startswith(bets) for end in ENDS):
            raise GameError(f"Kuhn: bets: not a betting sequence: {fields[2]!r}")
        return KuhnState(deal, bets)


KUHN = KuhnGame()


class KuhnState(GameState):
    __slots__ = ("bets", "deal")

    def __init__(self, deal, bets):
        self.deal, self.bets = deal, bets

    game, players = KUHN, 2

    def current_player(self):
        if not self.deal:
            return CHANCE
        return TERMINAL if self.bets in ENDS else len(self.bets) % 2

    def legal_actions(self):
        if not self.deal:
            return list(DEALS)
        return [] if self.bets in ENDS else ["pass", "bet"]

    def chance_outcomes(self):
        return [(deal, 1 / 6) for deal in DEALS] if not self.deal else []

    def apply(self, action):
        action = self.parse_action(action)
        if not self.deal:
            return KuhnState(action, "")
        return KuhnState(self.deal, self.bets + action[0])

    def returns(self):
        if not self.is_terminal():
            raise GameError("no returns: the game is not over")
        if self.bets in ("pbp", "bp"):  # a fold: the one who bet last takes the antes
            won = 1 if self.bets == "pbp" else 0
        else:
            won = 0 if CARDS.index(self.deal[0]) > CARDS.index(self.deal[1]) else 1
        stake = ENDS[self.bets] / 2
        return (stake, -stake) if won == 0 else (-stake, stake)

    def to_string(self):
        return f"kuhn {self.deal or '-'} {self.bets or '-'}"

    def observation(self, player):
        card = self.deal[player] if self.deal else "-"
        return f"kuhn card {card} bets {self.bets or '-'}"

    def sample(self, player, rng):
        if not self.deal:
            return self
        mine = self.deal[player]
        other = rng.choice([card for card in CARDS if card != mine])
        return KuhnState(mine + other if player == 0 else other + mine, self.bets)

    def text(self):
        return f"Kuhn poker: cards {self.deal or 'not dealt'}, bets {self.bets or 'none'}"


TINY_GAMES = (PIG, KUHN)

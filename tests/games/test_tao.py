"""TAO's rules, one test per rule sentence of the rulebook (docs/games/tao.md maps each sentence
to its test), on hand-built positions where the rule applies and where it must not; hypothesis
invariants; the exact chance of an opening area that opens a portal at once.

Each rule test's docstring quotes the rulebook (Italian) on ``>`` lines;
``test_the_quotes_are_the_rulebooks`` checks them against the rulebook's text when the folder
``TAOLONG_RULEBOOKS`` names holds it.
"""

from __future__ import annotations

import ast
import doctest
import itertools
import os
import random
import re
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taolong_lab.errors import DataError, TaoLongError
from taolong_lab.games import CHANCE, TERMINAL, GameError, game, random_action
from taolong_lab.games.tao import CARDS, TAO, TaoState, opening_chance, read_position
from taolong_lab.games.tao.cards import read_cards
from taolong_lab.rules.data import load_toml

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "games" / "tao.md"
SEEDS = Path(os.environ.get("TAOLONG_RULEBOOKS", "") or ROOT / "no-rulebooks")
RULEBOOK = next(
    (SEEDS / n for n in ("tao.txt", "002_86213ca1bed0b3e3.txt") if (SEEDS / n).is_file()),
    SEEDS / "tao.txt",
)
DEFAULTS = "version=yin,open_hands=0,first_turn=0,one_coin=0,one_across=0,no_mirror=0"


def position(
    mine: str,
    yours: str = "-- BT RT SP RD BD --",
    *,
    rule: str = "RD",
    deck: str = "",
    coins: str = ".....",
    turn: str = "p0s0t4c0a0",
    ban: str = "-",
    mirror: str = "-",
    options: str = DEFAULTS,
    reveal: str = "five",
    banned: str = "used",
    known: int = 3,
    row: str = "",
) -> TaoState:
    """A hand-built position: the first player's area ``mine``, the second's ``yours`` (slots
    0 to 6), ``deck`` the first cards of the first player's deck (top first), the guardian deck
    starting with ``rule`` (or ``row``); the other cards fill the decks and the guardian deck."""
    areas = [mine.split(), yours.split()]
    left = Counter(CARDS.deck)
    left.subtract(c for area in areas for c in area if c != "--")
    top = deck.split()
    left.subtract(top)
    first_row = row.split() if row else [rule]
    left.subtract(first_row)
    assert min(left.values()) >= 0, f"more cards than the deck holds: {-left}"
    rest = sorted(left.elements(), key=lambda c: (c == "SP", c.islower(), c))
    row_cards = [*first_row, *rest[: CARDS.guardian_deck - len(first_row)]]  # guardians first
    rest = rest[CARDS.guardian_deck - len(first_row) :]
    hands = [top + rest[: CARDS.hand - len(top)], rest[CARDS.hand - len(top) :]]
    decks = [".".join(f"{c}{known}" for c in hand) for hand in hands]
    text = " ".join(
        [
            "tao",
            f"{options},reveal={reveal},ban={banned},limit=120",
            ".".join(areas[0]),
            ".".join(areas[1]),
            *decks,
            ".".join(row_cards) + "@0",
            coins,
            turn,
            ban,
            "-",
            mirror,
            "-",
        ]
    )
    return read_position(text)


def after(state: TaoState, *moves: str) -> TaoState:
    for move in moves:
        state = state.apply(move)
    return state


# ---- the cards and the set-up ---------------------------------------------------------------
def test_the_cards():
    """> 4 tigre blu ... 4 tigre rossa ... 4 drago blu ... 4 drago rosso ... 2 jolly
    > 1 porta tigre blu ... 1 porta tigre rossa ... 1 porta drago blu ... 1 porta drago rosso"""
    count = Counter(CARDS.deck)
    assert [count[g] for g in ("BT", "RT", "BD", "RD")] == [4, 4, 4, 4]
    assert [count[d] for d in ("bt", "rt", "bd", "rd")] == [1, 1, 1, 1]
    assert count["SP"] == 2 and len(CARDS.deck) == 22
    assert CARDS.faction("rd") == "RD" and not CARDS.is_guardian("rd") and not CARDS.is_door("RD")


def test_a_bad_card_file_names_its_field():
    doc = load_toml("games/tao/cards.toml")
    broken = {**doc, "special": {"code": "SP", "count": "two"}}
    with pytest.raises(DataError, match=r"special\.count"):
        read_cards(broken)
    row = {**doc["yang"]["row"], "cards": ["RD", "RD", "BD", "RT"]}
    with pytest.raises(DataError, match="yang"):
        read_cards({**doc, "yang": {**doc["yang"], "row": row}})
    unmarked = {**doc["yang"]["hands"], "inferred": False}
    with pytest.raises(DataError, match=r"yang\.hands\.inferred"):
        read_cards({**doc, "yang": {**doc["yang"], "hands": unmarked}})
    assert read_cards(doc) == CARDS


def test_five_portals_each_with_a_coin_and_two_borders():
    """> 5 portali + 2 bordi ...
    > Ad ogni portale viene associato un token dorato (moneta ching)."""
    start = TAO.new()
    assert start.coins == (-1,) * 5
    assert all(len(area) == 7 and area[0] == area[6] == "--" for area in start.areas)


def test_yin_deals_the_table_without_doors_then_the_doors_go_into_the_rest():
    """> Si rimuovono le 4 porte dal mazzo delle azioni e si mescolano le carte rimanenti.
    > Si posizionano 5 carte azione in corrispondenza dei 5 portali per ogni giocatore.
    > Le rimanenti carte vengono mescolate insieme alle 4 porte e distribuite 4 carte azione a
    > faccia in giù per ogni giocatore."""
    state = TAO.new()
    for _ in range(10):
        assert state.is_chance()
        assert not {str(a) for a in state.legal_actions()} & set(CARDS.doors)
        state = state.apply("SP" if "SP" in state.legal_actions() else state.legal_actions()[0])
    assert set(CARDS.doors) <= set(state.legal_actions())
    outcomes = dict(state.chance_outcomes())
    assert outcomes["rd"] == Fraction(1, 12) or abs(outcomes["rd"] - 1 / 12) < 1e-12


def test_yin_decks_are_face_down_even_to_their_owner():
    """> distribuite 4 carte azione a faccia in giù per ogni giocatore."""
    state = dealt(0)
    for player in (0, 1):
        seen = state.observation(player).split(" ")
        assert seen[4].count("??") == seen[5].count("??") == 4
    assert "??" not in state.to_string()


def test_the_deck_is_an_ordered_pile():
    """> Ogni giocatore avrà il proprio mazzo di 4 carte sempre a portata di mano in una pila
    > ordinata davanti a sé."""
    state = position("-- RD BD SP BT RT --", deck="RT BD")
    drawn = state.apply("draw 1")
    assert drawn.areas[0][1] == "RT" and [c for c, _ in drawn.decks[0]][:1] == ["BD"]
    assert drawn.decks[0][-1] == ("RD", 3)


def test_the_player_who_did_not_deal_starts():
    """> Inizia chi non ha mescolato e distribuito le carte."""
    state = dealt(1)
    assert state.current_player() == 0 and state.player_names()[0] == "first"


def test_yin_guardian_deck_shows_only_its_first_card():
    """> Le rimanenti 4 carte guardiano vengono mescolate e posizionate a destra dell'area
    > principale a faccia in giù. Viene scoperta solo la prima carta del mazzo che definisce la
    > regola che condiziona alcuni risultati del gioco."""
    state = dealt(2)
    row = state.observation(0).split(" ")[6].split("@")[0].split(".")
    assert row[state.at] != "??" and row[state.at] != "SP"
    assert row[state.at + 1 :].count("??") == len(row) - state.at - 1 > 0


def dealt(seed: int, **options) -> TaoState:
    state, rng = TAO.new(**options), random.Random(seed)
    while state.is_chance():
        state = state.apply(random_action(state, rng))
    return state


# ---- opening a portal: a door between two guardians ------------------------------------------
def test_a_door_between_two_guardians_of_its_faction_opens_its_portal():
    """> In corrispondenza del portale che si vuole aprire dovranno esserci 1 carta porta e 2
    > carte guardiano della stessa fazione e colore ai suoi lati.
    > Ogni volta che un giocatore realizza la combinazione corretta in corrispondenza del
    > portale che vuole aprire, può prendere la moneta ching"""
    state = position("-- RD rd BT RD RT --")
    opened = state.apply("swap 3 4")
    assert opened.coins == (-1, 0, -1, -1, -1)
    wrong = position("-- RD rd BT BD RT --").apply("swap 3 4")  # a blue dragon: no
    assert wrong.coins == (-1,) * 5


def test_the_special_card_is_not_a_joker():
    """> La carta speciale non ha la valenza di un jolly e quindi non può essere mai utilizzata
    > nelle combinazioni al posto di altre carte."""
    state = position("-- RD rd BT SP RT --", "-- BT RT SP RD BD --")
    assert state.apply("swap 3 4").coins == (-1,) * 5
    assert position("-- RD rd BT RD RT --").apply("swap 3 4").coins[1] == 0


def test_a_portal_without_its_coin_gives_nothing():
    """> può prendere la moneta ching in essa contenuto (se ancora presente)"""
    state = position("-- RD rd BT RD RT --", coins=".1...")
    opened = state.apply("swap 3 4")
    assert opened.coins == (-1, 1, -1, -1, -1) and opened.current_player() == 0
    assert opened.step == 1


# ---- opening a portal: five guardians -------------------------------------------------------
def test_five_guardians_of_the_named_animal_or_colour_open_a_portal_facing_them():
    """> Se un giocatore riesce a creare una combinazione di 5 guardiani dello stesso animale o
    > colore indicati ... può aprire un portale a scelta dei rimanenti, purché sia in
    > corrispondenza ad uno dei guardiani della sua combinazione, prendere la moneta"""
    five = position("-- RD BD RD RD BT --", "-- BT RT SP BD BD --", rule="RD")
    moved = five.apply("cross 5")  # the blue tiger goes across: five dragons
    assert moved.current_player() == 0 and moved.pending == "five"
    assert moved.legal_actions() == [f"open {p}" for p in range(1, 6)]
    assert moved.apply("open 4").coins == (-1, -1, -1, 0, -1)
    reds = position("-- RD RT RD RT BD --", "-- BT BD SP BT RD --", rule="BT")
    assert reds.apply("cross 5").pending == ""  # red, but the card names tigers and blue
    assert position("-- RD RT RD RT BD --", "-- BT BD SP BT RD --", rule="RT").apply(
        "cross 5"
    ).legal_actions() == [f"open {p}" for p in range(1, 6)]


def test_five_guardians_open_only_the_portals_facing_them():
    """> purché sia in corrispondenza ad uno dei guardiani della sua combinazione"""
    shifted = position("RD BD RD RD BT -- --", "-- BT RT SP BD BD --", rule="RD")
    assert shifted.apply("cross 4").legal_actions() == ["open 1", "open 2", "open 3", "open 4"]


def test_four_guardians_and_a_door_make_no_five():
    """> la combinazione potrà essere dichiarata valida solo se presenta 5 guardiani drago
    > oppure 5 guardiani rossi."""
    state = position("-- RD BD RD RD BT --", "-- BT RT SP BD rd --", rule="RD")
    assert state.apply("cross 5").pending == "" and state.apply("cross 5").step == 1


def test_after_a_five_the_next_guardian_card_shows():
    """> Una volta consumato il punto, viene rivelata la carta successiva del mazzo guardiani e
    > stabilita la nuova regola per la combinazione valida."""
    state = position("-- RD BD RD RD BT --", "-- BT RT SP BD BD --", row="RD BT")
    opened = after(state, "cross 5", "open 2")
    assert opened.at == 1 and opened.row[opened.at] == "BT"
    door = position("-- RD rd BT RD RT --", row="RD BT").apply("swap 3 4")
    assert door.at == 0  # a door's point does not turn the guardian card (the option 'reveal')
    anyway = position("-- RD rd BT RD RT --", row="RD BT", reveal="any").apply("swap 3 4")
    assert anyway.at == 1


def test_the_animal_or_colour_of_the_last_five_is_barred():
    """> Non é mai possibile utilizzare colore o animale utilizzati nel giro precedente."""
    state = position("-- RD BD RD RD BT --", "-- BT RT SP BD BD --", row="RD BD")
    opened = after(state, "cross 5", "open 2")
    assert opened.ban == "D" and opened.row[opened.at] == "BD"
    assert opened.five_kinds(0) == ""  # five dragons, but dragons scored the last five
    blues = position("-- BD BT BD BT BD --", "-- BT RT SP RD RT --", ban="D", rule="BD")
    assert blues.five_kinds(0) == "B"
    by_card = position("-- RD BD RD RD BT --", "-- BT RT SP BD BD --", row="RD BD", banned="card")
    assert after(by_card, "cross 5", "open 2").ban == "DR"


# ---- YIN: the turn and the six moves --------------------------------------------------------
def test_a_turn_is_two_moves_of_any_kinds_repeated_or_not():
    """> Ad ogni turno il giocatore è obbligato ad eseguire 2 mosse che può liberamente
    > scegliere tra 6 tipi di azioni. È possibile ripetere due volte lo stesso tipo di azione."""
    state = position("-- RD BD SP BT RT --")
    once = state.apply("swap 1 5")
    assert once.current_player() == 0 and "swap 1 4" in once.legal_actions()
    twice = once.apply("swap 1 4")
    assert twice.current_player() == 1 and twice.turn == state.turn + 1


def test_action_1_swaps_any_two_cards_of_ones_own_area():
    """> Scambiare in orizzontale una carta da una posizione ad un'altra della propria area
    > Le carte della propria area da scambiare non devono per forza essere adiacenti."""
    state = position("-- RD BD SP BT RT --")
    assert state.apply("swap 1 5").areas[0] == ("--", "RT", "BD", "SP", "BT", "RD", "--")
    assert "swap 0 1" not in state.legal_actions()  # slot 0 is empty
    same = position("-- RD RD SP BT RT --")
    assert "swap 1 2" not in same.legal_actions()  # two equal cards: no move


def test_action_2_moves_a_card_into_an_empty_space_and_the_others_close_up():
    """> Scegliere una delle carte nella propria area di gioco e spostarla in uno spazio vuoto.
    > Nel caso in cui spostando la carta dovesse rimanere uno spazio vuoto tra le 5 carte,
    > tutte le carte si riavvicinano muovendosi nella direzione della carta appena spostata"""
    state = position("-- RD BD SP BT RT --")
    assert state.apply("move 3 0").areas[0] == ("SP", "RD", "BD", "BT", "RT", "--", "--")
    assert state.apply("move 2 6").areas[0] == ("--", "--", "RD", "SP", "BT", "RT", "BD")
    left = position("RD BD SP BT RT -- --")
    assert left.apply("move 0 6").areas[0] == ("--", "--", "BD", "SP", "BT", "RT", "RD")
    assert left.apply("move 4 5").areas[0] == ("--", "RD", "BD", "SP", "BT", "RT", "--")
    assert "move 1 0" not in left.legal_actions()  # slot 0 is not empty


def test_the_two_empty_spaces_are_always_at_the_ends():
    """> Gli spazi vuoti sono sempre e solo due. Ad inizio partita gli spazi vuoti sono quelli
    > all'estrema destra e all'estrema sinistra nella propria area in corrispondenza delle
    > carte spazio. Durante la partita possono crearsi situazioni in cui i due spazi vuoti
    > siano entrambi a destra o entrambi a sinistra, non esistono altre situazioni tranne
    > quelle descritte."""
    assert TAO.new().areas[0][0] == TAO.new().areas[0][6] == "--"
    with pytest.raises(GameError, match="a gap"):
        position("RD BD -- BT RT SP --")
    assert position("-- -- RD BD SP BT RT").areas[0][0] == "--"


def test_action_3_swaps_a_card_with_the_one_facing_it():
    """> Scambiare in verticale una carta della propria area con quella dell'avversario
    > Lo spostamento avviene con la carta di fronte dell'area dell'avversario. Se non è
    > presente una carta di fronte nell'area dell'avversario non è possibile effettuare questa
    > azione."""
    state = position("RD BD SP BT RT -- --", "-- BT SP RT RD BD --")
    crossed = state.apply("cross 1")
    assert crossed.areas[0][1] == "BT" and crossed.areas[1][1] == "BD"
    assert "cross 0" not in state.legal_actions()  # nothing faces slot 0
    assert "cross 5" not in state.legal_actions()  # slot 5 of one's own area is empty
    assert "cross 2" not in state.legal_actions()  # the special faces the special


def test_action_4_replaces_a_card_with_the_top_of_ones_deck():
    """> Sostituire una carta della propria area con la prima carta del proprio mazzo
    > Per prima cosa scegliere dalla propria area una carta da sostituire che viene riposta
    > sotto tutte le carte del proprio mazzo a faccia in giù. Solo dopo averlo fatto prendere
    > la prima carta dal proprio mazzo e riporla al suo posto."""
    state = position("-- RD BD SP BT RT --", deck="rt RD")
    drawn = state.apply("draw 4")
    assert drawn.areas[0][4] == "rt"
    assert [c for c, _ in drawn.decks[0]] == ["RD", *[c for c, _ in state.decks[0]][2:], "BT"]


def test_action_5_replaces_an_opponents_card_with_the_top_of_ones_deck():
    """> Sostituire una carta dell'area dell'avversario con la prima carta del proprio mazzo.
    > Per prima cosa scegliere dall'area dell'avversario una carta da sostituire che viene
    > riposta sotto tutte le carte del proprio mazzo a faccia in giù. Dopo averlo fatto
    > prendere la prima carta dal proprio mazzo e riporla al suo posto."""
    state = position("-- RD BD SP BT RT --", "-- BT RT SP RD BD --", deck="rt")
    dealt_to = state.apply("deal 5")
    assert dealt_to.areas[1][5] == "rt" and dealt_to.areas[0] == state.areas[0]
    assert dealt_to.decks[0][-1] == ("BD", 3) and dealt_to.decks[1] == state.decks[1]
    assert "deal 0" not in state.legal_actions()


def test_action_6_swaps_ones_special_card_with_any_card_of_the_opponent():
    """> Scambiare una carta speciale dalla propria area con una carta qualsiasi
    > dell'avversario.
    > Solo se è presente una carta speciale nella propria area, è possibile scambiare
    > direttamente la carta speciale con una carta qualsiasi presa dall'area dell'avversario."""
    state = position("-- RD BD SP BT RT --", "-- BT RT RD BD SP --")
    swapped = state.apply("special 3 1")
    assert swapped.areas[0][3] == "BT" and swapped.areas[1][1] == "SP"
    assert "special 3 5" not in state.legal_actions()  # special for special: nothing changes
    none = position("-- RD BD RD BT RT --", "-- BT RT SP SP BD --")
    assert not [m for m in none.legal_actions() if m.startswith("special")]


def test_the_first_to_take_three_coins_wins():
    """> Il primo giocatore che recupera 3 monete ching vince."""
    state = position("-- RD rd BT RD RT --", coins="0.0..")
    won = state.apply("swap 3 4")
    assert won.current_player() == TERMINAL and won.returns() == (1.0, -1.0)
    assert position("-- RD rd BT RD RT --", coins="1.0..").apply("swap 3 4").returns
    with pytest.raises(GameError, match="not over"):
        position("-- RD rd BT RD RT --", coins="1.0..").apply("swap 3 4").returns()


# ---- YANG ----------------------------------------------------------------------------------
def test_yang_hands_are_held_in_order_and_seen_by_their_owner_only():
    """> La variante prevede che le 4 carte del mazzo davanti al giocatore possano essere
    > tenute in mano. Il giocatore deve rispettare l'ordine delle carte in mano."""
    state = dealt(3, version="yang")
    mine, yours = state.observation(0).split(" ")[4:6]
    assert "??" not in mine and yours.count("??") == 4
    drawn = state.apply("draw 1")
    assert drawn.areas[0][1] == state.decks[0][0][0]  # the hand's order is kept


def test_yang_hands_may_be_shown_to_both():
    """> E' anche possibile decidere per entrambi i giocatori di rivelare le proprie carte in
    > mano, posizionandole direttamente sul tavolo come da setup a seguire."""
    state = dealt(3, version="yang", open_hands=True)
    assert "??" not in state.observation(0) and "??" not in state.observation(1)
    with pytest.raises(GameError, match="open_hands"):
        TAO.new(open_hands=True)


def test_yang_table_is_fixed_and_the_hands_order_random():
    """> Il setup sul tavolo é fisso. L'ordine delle 4 carte del giocatore (coperte o visibili
    > sul tavolo) é invece casuale.
    > Ogni giocatore ha sul tavolo un guardiano per tipo e la carta speciale ... In mano due
    > portali e i guardiani opposti."""
    start = TAO.new(version="yang")
    assert start.areas[0][1:6] == CARDS.yang_table[0] and start.current_player() == CHANCE
    assert sorted(start.areas[0][1:6]) == ["BD", "BT", "RD", "RT", "SP"]
    outcomes = start.chance_outcomes()
    assert len(outcomes) == 24 * 24 and abs(sum(p for _, p in outcomes) - 1) < 1e-9
    hand = dealt(0, version="yang").decks[0]
    assert sorted(c for c, _ in hand) == sorted(CARDS.yang_hands[0])
    assert sum(CARDS.is_door(c) for c, _ in hand) == 2


def test_yang_row_ends_hold_the_four_factions_beside_their_other_colour():
    """> l'ordine dei guardiani è studiato in modo che ai lati delle due file ci siano i 4 tipi
    > di guardiano e a fianco lo stesso animale di colore diverso."""
    rows = CARDS.yang_table
    ends = {rows[p][i] for p in (0, 1) for i in (0, -1)}
    assert ends == set(CARDS.guardians)
    for p in (0, 1):
        for end, beside in ((0, 1), (-1, -2)):
            a, b = rows[p][end], rows[p][beside]
            assert CARDS.animal(a) == CARDS.animal(b) and CARDS.colour(a) != CARDS.colour(b)


def test_yang_a_taken_card_goes_to_the_left_of_the_hand_its_replacement_from_the_right():
    """> Ogni volta che si prende una carta dalla propria area di gioco o da quella
    > dell'avversario la si deve posizionare nella parte sinistra della mano.
    > La carta, che sostituisce quella prelevata dalla propria area di gioco o da quella
    > dell'avversario, va posizionata"""
    state = dealt(5, version="yang")
    hand = [c for c, _ in state.decks[0]]  # the hand's right end first
    taken = state.apply("deal 2")
    assert taken.areas[1][2] == hand[0]
    assert [c for c, _ in taken.decks[0]] == [*hand[1:], state.areas[1][2]]
    assert taken.decks[0][-1][1] == 3  # both saw the card taken


def test_yang_guardian_row_is_revealed_and_the_first_card_rules():
    """> Le rimanenti 4 carte guardiano vengono rivelate a destra dell'area principale di gioco
    > alternando draghi e tigri, rossi e blu come nell'esempio riportato.
    > La prima carta a destra decide la modalità con cui potrà essere dichiarata valida la
    > combinazione dei 5 guardiani.
    > Una volta consumato il punto, il guardiano nel primo spazio vien capovolto e si passa a
    > quello successivo."""
    state = dealt(1, version="yang")
    row = state.observation(1).split(" ")[6]
    assert "??" not in row and state.at == 0 and state.row == CARDS.yang_row
    animals = [CARDS.animal(c) for c in CARDS.yang_row]
    assert all(a != b for a, b in itertools.pairwise(animals))
    yang = "version=yang,open_hands=0,first_turn=0,one_coin=0,one_across=0,no_mirror=0"
    five = position("-- RD BD RD RD BT --", "-- BT RT SP RT BD --", row="RD BT BD RT", options=yang)
    assert after(five, "cross 5", "open 1").at == 1


# ---- the variants ---------------------------------------------------------------------------
VARIANT = "version=yin,open_hands=0,first_turn={},one_coin={},one_across={},no_mirror={}"


def test_variant_no_portal_opens_in_a_players_first_turn():
    """> Durante il primo turno di gioco per ogni giocatore non è possibile usare mosse per
    > aprire un portale"""
    on = VARIANT.format(1, 0, 0, 0)
    first = position("-- RD rd BT RD RT --", turn="p0s0t0c0a0", options=on)
    assert first.apply("swap 3 4").coins == (-1,) * 5
    second = position("-- BT RT SP RD BD --", "-- RD rd BT RD RT --", turn="p1s0t1c0a0", options=on)
    assert second.apply("swap 3 4").coins == (-1,) * 5
    later = position("-- RD rd BT RD RT --", turn="p0s0t2c0a0", options=on)
    assert later.apply("swap 3 4").coins == (-1, 0, -1, -1, -1)


def test_variant_no_coin_on_the_move_after_a_coin():
    """> Non è possibile effettuare una mossa che aprirebbe un portale dove è presente una
    > moneta se è già stata conquistata una moneta nella mossa precedente dello stesso turno."""
    on = VARIANT.format(0, 1, 0, 0)
    state = position("-- RD rd BT RD RT --", options=on).apply("swap 3 4")
    assert state.took and state.coins == (-1, 0, -1, -1, -1)
    # "move 5 6" would put rd between two RD at portal 3: a move that would open a portal
    assert "move 5 6" not in state.legal_actions() and "swap 1 5" in state.legal_actions()
    with pytest.raises(TaoLongError, match="move 5 6"):
        state.apply("move 5 6")
    free = position("-- RD rd BT RD RT --").apply("swap 3 4")
    assert free.apply("move 5 6").coins == (-1, 0, 0, -1, -1)
    # a standing tris at portal 1: every move that keeps it would open it, and is not made
    twice = position("RD rd RD BT RT -- --", options=on, turn="p0s1t4c1a0", deck="BD")
    assert "swap 3 4" not in twice.legal_actions() and "swap 0 1" in twice.legal_actions()
    assert "draw 4" not in twice.legal_actions()  # the mover sees its deck's top card (BD)
    unseen = position("RD rd RD BT RT -- --", options=on, turn="p0s1t4c1a0", known=0)
    assert "draw 4" in unseen.legal_actions()  # it cannot know what the draw brings
    assert unseen.apply("draw 4").coins == (-1,) * 5  # and the draw opens nothing
    later = position("RD rd RD BT RT -- --", options=on, turn="p0s0t4c0a0")
    assert later.apply("swap 3 4").coins == (0, -1, -1, -1, -1)  # a new turn: it opens


def test_variant_no_coin_keeps_every_move_when_every_move_would_open(monkeypatch):
    on = VARIANT.format(0, 1, 0, 0)
    twice = position("RD rd RD BT RT -- --", options=on, turn="p0s1t4c1a0")
    every = position("RD rd RD BT RT -- --", turn="p0s1t4c1a0").legal_actions()
    monkeypatch.setattr(TaoState, "_would_open", lambda self, move: True)
    assert twice.legal_actions() == every  # a player is never left without a move


def test_variant_one_move_a_turn_on_the_opponents_area():
    """> È possibile effettuare solo una mossa per turno che coinvolga l'area dell'avversario
    > (azioni 3, 5 e 6)."""
    on = VARIANT.format(0, 0, 1, 0)
    state = position("-- RD BD SP BT RT --", options=on)
    once = state.apply("deal 1")
    kinds = {m.split()[0] for m in once.legal_actions()}
    assert kinds == {"swap", "move", "draw"}
    free = position("-- RD BD SP BT RT --").apply("deal 1")
    assert {"cross", "deal", "special"} <= {m.split()[0] for m in free.legal_actions()}


def test_variant_no_swapping_back_the_opponents_last_swap():
    """> Nel proprio turno non è possibile fare una mossa speculare a quella appena fatta
    > dall'avversario con l'azione 3 (scambiare una carta in verticale) o 6 (scambiare una
    > carta speciale con una qualsiasi dell'avversario) in modo da ricambiare le stesse
    > identiche due carte scambiate dall'avversario."""
    on = VARIANT.format(0, 0, 0, 1)
    state = position("-- RD BD SP BT RT --", "-- BT RT SP RD BD --", options=on)
    crossed = after(state, "swap 1 2", "cross 1")
    assert crossed.current_player() == 1 and "cross 1" not in crossed.legal_actions()
    assert "cross 4" in crossed.legal_actions()
    special = after(state, "swap 1 2", "special 3 4")
    assert "special 4 3" not in special.legal_actions()
    plain = after(position("-- RD BD SP BT RT --", "-- BT RT SP RD BD --"), "swap 1 2", "cross 1")
    assert "cross 1" in plain.legal_actions()
    # the same two cards, swapped back by the other action: 6 after 3, and 3 after 6
    special_first = position("-- SP RD BD BT RT --", "-- BT RT SP RD BD --", options=on)
    crossed = after(special_first, "swap 4 5", "cross 1")  # the second player now holds SP at 1
    assert crossed.areas[1][1] == "SP" and "special 1 1" not in crossed.legal_actions()
    assert "special 1 2" in crossed.legal_actions()  # other cards: allowed
    by_special = after(special_first, "swap 4 5", "special 1 1")
    assert "cross 1" not in by_special.legal_actions()
    off = position("-- SP RD BD BT RT --", "-- BT RT SP RD BD --")
    assert "special 1 1" in after(off, "swap 4 5", "cross 1").legal_actions()


# ---- the observations, the position string, the pictures ------------------------------------
def test_a_drawn_position_keeps_what_the_player_saw():
    state = dealt(4)
    for player in (0, 1):
        drawn = state.sample(player, random.Random(1))
        assert drawn.observation(player) == state.observation(player)
        assert drawn.areas == state.areas
        assert Counter(c for deck in drawn.decks for c, _ in deck) == Counter(
            c for deck in state.decks for c, _ in deck
        ) + Counter(state.row) - Counter(drawn.row)
    hand = dealt(4, version="yang")
    assert hand.sample(0, random.Random(2)).decks[0] == hand.decks[0]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        (lambda f: f.__setitem__(1, "version=yon" + f[1][11:]), "version"),
        (lambda f: f.__setitem__(2, "RD.RD"), "area 1"),
        (lambda f: f.__setitem__(4, "RD9.BD3.BD3.BD3"), "deck 1"),
        (lambda f: f.__setitem__(6, "RD.BT.BD.RT@7"), "guardian deck"),
        (lambda f: f.__setitem__(7, "..2.."), "coins"),
        (lambda f: f.__setitem__(8, "p2s0t0c0a0"), "turn"),
        (lambda f: f.__setitem__(9, "DD"), "ban"),
        (lambda f: f.__setitem__(11, "cross_9:RD:BT"), "mirror"),
        (lambda f: f.__setitem__(12, "many"), "pending"),
        (lambda f: f.__setitem__(2, "RD.RD.RD.RD.RD.--.--"), "invariants"),
    ],
)
def test_a_bad_position_string_names_its_field(change, field):
    fields = position("-- RD BD SP BT RT --").to_string().split(" ")
    change(fields)
    with pytest.raises(TaoLongError, match=field):
        read_position(" ".join(fields))


def test_the_pictures_show_the_cards_and_coins():
    state = position("-- RD rd BT RD RT --", coins="1....")
    text = state.text()
    assert "RD rd BT RD RT" in text and "guardian deck" in text
    svg = state.svg()
    doors = 1 + sum(CARDS.is_door(c) for deck in state.decks for c, _ in deck)
    assert svg.count("<circle") == 4 and "portal 5" in svg and svg.count(">door<") == doors


# ---- invariants ---------------------------------------------------------------------------
@settings(max_examples=25, deadline=None, derandomize=True)
@given(
    seed=st.integers(0, 10**6),
    variant=st.sampled_from(TAO.variants()),
    length=st.integers(0, 80),
)
def test_random_play_keeps_every_card_and_the_areas_whole(seed, variant, length):
    rng, state = random.Random(seed), TAO.new(**variant)
    for _ in range(length):
        if state.is_terminal():
            break
        state = state.apply(random_action(state, rng))
        assert state.problems() == []
        held = Counter(c for area in state.areas for c in area if c not in ("--", "__"))
        held.update(c for deck in state.decks for c, _ in filter(None, deck))
        held.update(c for c in state.row if c != "__")
        assert held <= Counter(CARDS.deck)
        assert max(state.coins.count(0), state.coins.count(1)) <= 3
    if not state.is_chance():
        assert sum(held.values()) == len(CARDS.deck)
        for player in (0, 1):
            assert state.sample(player, random.Random(seed)).observation(
                player
            ) == state.observation(player)


# ---- the exact result -------------------------------------------------------------------------
def test_the_chance_that_an_opening_area_opens_a_portal_at_once():
    """The enumeration agrees with deals drawn through the game's own chance events, within
    four standard errors (seeded, so the test is repeatable)."""
    exact = opening_chance()
    assert isinstance(exact, Fraction) and 0 < exact < Fraction(1, 20)
    rng, hits, deals = random.Random(35), 0, 4000
    for _ in range(deals):
        state = TAO.new()
        while state.is_chance():
            state = state.apply(random_action(state, rng))
        hits += bool(state.five_kinds(0))
    p = float(exact)
    assert abs(hits / deals - p) < 4 * (p * (1 - p) / deals) ** 0.5 + 1 / deals


# ---- the doc and the rulebook ------------------------------------------------------------------
QUOTE = re.compile(r"^\s*>\s?(.*)$", re.MULTILINE)


def _rule_tests() -> dict[str, str]:
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    return {
        node.name: ast.get_docstring(node) or ""
        for node in tree.body
        if isinstance(node, ast.FunctionDef) and node.name.startswith("test")
    }


def test_the_doc_maps_every_rule_test_and_names_only_tests_that_exist():
    tests = _rule_tests()
    text = DOC.read_text(encoding="utf-8")
    named = set(re.findall(r"tests/games/test_tao\.py::(\w+)", text))
    assert named <= set(tests), named - set(tests)
    quoting = {name for name, doc in tests.items() if QUOTE.search(doc)}
    assert quoting and quoting <= named, quoting - named
    assert "../shared" not in text


def _fragments(quote: str) -> list[str]:
    """The runs that must each appear: the parts between '...', cut at sentence ends (a quote
    may join sentences that stand apart in the rulebook)."""
    parts = [p for part in quote.split("...") for p in re.split(r"(?<=[.!?])\s+", part)]
    return [" ".join(part.split()) for part in parts if part.strip()]


@pytest.mark.skipif(not RULEBOOK.is_file(), reason="TAOLONG_RULEBOOKS holds no TAO rulebook")
def test_the_quotes_are_the_rulebooks():
    book = " ".join(RULEBOOK.read_text(encoding="utf-8").replace("*", "").split())
    quotes = [" ".join(QUOTE.findall(doc)) for doc in _rule_tests().values()]
    quotes += re.findall(r"^\| «(.+?)»", DOC.read_text(encoding="utf-8"), re.MULTILINE)
    missing = [
        fragment
        for quote in quotes
        if quote
        for fragment in _fragments(quote)
        if fragment not in book
    ]
    assert not missing, missing


def test_registered_as_tao():
    assert game("tao") is TAO and TAO.players == (2,) and TAO.hidden and TAO.chance


def test_the_doc_shows_what_it_says():
    result = doctest.testfile(str(DOC), module_relative=False)
    assert result.attempted > 0 and result.failed == 0


# ---- the agents --------------------------------------------------------------------------------
@pytest.mark.parametrize("version", ["yin", "yang"])
def test_every_agent_plays_tao(version):
    from taolong_lab.agents import AlphaBetaAgent, GreedyAgent, MCTSAgent, RandomAgent

    state = dealt(6, version=version)
    agents = [
        RandomAgent(),
        GreedyAgent(samples=2),
        AlphaBetaAgent(nodes=200),
        MCTSAgent(nodes=200),
    ]
    for agent in agents:
        assert agent.choose(state) in state.legal_actions()
    hidden = next(s for k in range(20) if (s := state.sample(0, random.Random(k))) != state)
    assert MCTSAgent(nodes=200).choose(hidden) == MCTSAgent(nodes=200).choose(state)


def test_the_heuristic_counts_coins_and_combinations_in_the_making():
    ahead = position("-- RD rd BT RD RT --", coins="0....")
    behind = position("-- RD rd BT RD RT --", coins="1....")
    assert TAO.heuristic(ahead)[0] > 0 > TAO.heuristic(behind)[0]
    near = position("-- RD rd BT RD RT --")  # a door with one guardian beside it
    far = position("-- RD BT rd RT RD --", "-- BT RT SP RD BD --")
    assert TAO.heuristic(near)[0] > TAO.heuristic(far)[0]
    assert TAO.heuristic(near)[0] == -TAO.heuristic(near)[1]

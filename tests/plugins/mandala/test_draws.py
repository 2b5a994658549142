"""Spec §13.3 (draws and legality, D1-D7), the reshuffle of the discard pile as a chance
node, and the draw rule of the Draw four variant."""

from __future__ import annotations

from gamechecks import refused

from hedgerow.core import Action, Chance, Shuffle
from hedgerow.core.playout import play as play_game
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.mandala.cards import NO_CARDS
from hedgerow.plugins.mandala.choices import PASS
from hedgerow.plugins.mandala.drawing import DRAW_FOUR, STANDARD
from hedgerow.plugins.mandala.state import PLAY, RESHUFFLE, State

from .conftest import applied, deck_of, hand, make_state, play, tiles

DECK = deck_of(*["orange"] * 10)


def _after(ruleset: Ruleset, start: dict[str, int], action: Action, deck=DECK,
           discard=NO_CARDS) -> State:
    s = make_state(players=2, hands={0: hand(**start)}, deck=deck, discard=discard)
    return applied(ruleset, s, 0, action)


def test_d1_hand_7_play_1_draws_2(standard: Ruleset) -> None:
    assert sum(_after(standard, {"red": 7}, play(0, "red", 1)).hands[0]) == 8


def test_d2_hand_8_play_1_draws_1_with_either_rule(standard: Ruleset, drawfour: Ruleset) -> None:
    for ruleset in (standard, drawfour):
        assert sum(_after(ruleset, {"red": 8}, play(0, "red", 1)).hands[0]) == 8


def test_d3_several_cards_draw_nothing(standard: Ruleset) -> None:
    s = _after(standard, {"red": 3, "gray": 2}, play(0, "red", 3))
    assert s.hands[0] == hand(gray=2) and len(s.deck) == len(DECK)


def test_d4_never_play_your_last_card_away(standard: Ruleset) -> None:
    s = make_state(players=2, hands={0: hand(red=3)}, deck=DECK)
    legal = standard.gamedef.legal_actions(s, 0)
    assert play(0, "red", 1) in legal and play(0, "red", 2) in legal
    assert refused(standard, s, 0, play(0, "red", 3)).code == "mandala.keep_one"
    assert list(legal) == [play(m, "red", q) for m in range(3) for q in (1, 2)]


def test_d5_one_card_and_nothing_to_draw_passes(standard: Ruleset) -> None:
    s = make_state(players=2, hands={0: hand(red=1)})
    assert standard.gamedef.legal_actions(s, 0) == (PASS,)
    assert refused(standard, s, 0, play(0, "red", 1)).code == "mandala.keep_one"
    after = applied(standard, s, 0, PASS)
    assert after.passes == 1 and after.turn == 1 and after.hands == s.hands


def test_d5_one_card_plays_when_the_discard_pile_can_be_drawn(standard: Ruleset) -> None:
    s = make_state(players=2, hands={0: hand(red=1)}, discard=hand(gray=2))
    assert PASS not in standard.gamedef.legal_actions(s, 0)
    after = applied(standard, s, 0, play(0, "red", 1))
    assert after.phase == RESHUFFLE and after.owed == 2


def test_no_pass_while_a_play_is_legal(standard: Ruleset) -> None:
    s = make_state(players=2, hands={0: hand(red=2)}, deck=DECK)
    assert refused(standard, s, 0, PASS).code == "mandala.must_play"


def test_d6_draw_four_draws_up_to_four(drawfour: Ruleset) -> None:
    assert sum(_after(drawfour, {"red": 3}, play(0, "red", 1)).hands[0]) == 6
    assert sum(_after(drawfour, {"red": 6}, play(0, "red", 1)).hands[0]) == 8  # limit


def test_draw_rules() -> None:
    assert [STANDARD.wanted(1, h) for h in (0, 5, 6, 7, 8, 12)] == [2, 2, 2, 1, 0, 0]
    assert [DRAW_FOUR.wanted(1, h) for h in (2, 4, 5, 7)] == [4, 4, 3, 1]
    assert STANDARD.wanted(2, 0) == 0 and DRAW_FOUR.wanted(3, 1) == 0
    assert STANDARD.keeps_one(1, 1, 1) and not STANDARD.keeps_one(1, 1, 0)
    assert not STANDARD.keeps_one(3, 3, 50) and STANDARD.keeps_one(3, 2, 0)


def test_d7_returned_cards_ignore_the_hand_limit(standard: Ruleset) -> None:
    purple2, orange1 = tiles("purple-2", "orange-1")
    s = make_state(players=2, hands={0: hand(red=2, gray=1, green=1, yellow=1, orange=3),
                                     1: hand(purple=5, yellow=8)},
                   mandalas=[(purple2, orange1)], deck=DECK, dark=tiles("red-1"),
                   light=tiles("green-2"))
    s = applied(standard, s, 0, play(0, "red", 2))
    s = applied(standard, s, 1, play(0, "purple", 5))  # face-down: not eligible
    assert sum(s.hands[1]) == 8
    for colour in ("gray", "green"):
        s = applied(standard, s, 0, play(0, colour, 1))
        s = applied(standard, s, 1, play(1, "yellow", 1))  # 8 -> 7, draws 1 -> 8
        assert sum(s.hands[1]) == 8
    s = applied(standard, s, 0, play(0, "yellow", 1))  # six colours: seat 0 takes both
    assert s.tiles[0] == (purple2, orange1)
    assert sum(s.hands[1]) == 13 and s.known[1] == hand(purple=5)


def test_reshuffle_waits_for_chance_then_finishes_the_draw(standard: Ruleset) -> None:
    game = standard.gamedef
    s = make_state(players=2, hands={0: hand(red=7)}, deck=deck_of("orange"),
                   discard=hand(red=2, green=1))
    s = applied(standard, s, 0, play(1, "red", 1))
    assert s.phase == RESHUFFLE and s.owed == 1 and s.hands[0] == hand(red=6, orange=1)
    assert game.chance is not None and game.resolve is not None
    assert game.chance(s) == Chance((Shuffle(3),), "shuffle the discard pile into a new deck")
    assert game.active_seats(s) == ()
    # the pile in colour order is (red, red, green); this order puts green at the bottom,
    # and the top (the end) is red
    after = game.resolve(s, ((2, 0, 1),))
    assert after.deck == deck_of("green", "red") and after.discard == NO_CARDS
    assert after.hands[0] == hand(red=7, orange=1)
    assert after.phase == PLAY and after.turn == 1 and game.chance(after) is None
    assert after.mandalas[1].claim == 0  # the claim check ran after the draw


def test_empty_deck_and_discard_stop_the_draw(standard: Ruleset) -> None:
    s = make_state(players=2, hands={0: hand(gray=7)}, deck=deck_of("orange"))
    s = applied(standard, s, 0, play(1, "gray", 1))
    assert s.phase == PLAY and s.turn == 1 and s.hands[0] == hand(gray=6, orange=1)


def test_reshuffles_happen_in_real_games_and_replay(plugins, standard: Ruleset) -> None:
    ruleset = plugins.ruleset("mandala", [], players=2)
    bots = [plugins.bot("random")]
    for n in range(20):
        table = play_game(ruleset, 2, seed_from_int(n), bots)
        chances = [e for e in table.entries if e.is_chance]
        if len(chances) > 1:
            break
    else:
        raise AssertionError("no reshuffle in 20 random games")
    assert chances[0].index == 0 and all(e.seat == -1 for e in chances)
    replayed = Table.replay(ruleset, 2, seed_from_int(n),
                            [(e.seat, e.action) for e in table.entries])
    assert replayed.state_hash() == table.state_hash() and replayed.head == table.head

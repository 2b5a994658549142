"""Spec §10, §11 and §13.4: when the game ends, and who wins (E2 and the tie-breaks)."""

from __future__ import annotations

from hedgerow.core import Ranked
from hedgerow.core.ruleset import Ruleset
from hedgerow.plugins.mandala.choices import PASS
from hedgerow.plugins.mandala.ranking import standard_outcome
from hedgerow.plugins.mandala.state import CHOOSE, OVER, State

from .conftest import applied, deck_of, hand, make_state, play, take, tiles

RED1, GREEN1 = tiles("red-1", "green-1")
DECK = deck_of(*["orange"] * 10)


def _complete_m0(ruleset: Ruleset, s: State) -> State:
    """Seat 0 claims M0 (red-1, green-1) with 3 cards, seat 1 is second with 2: choose."""
    s = applied(ruleset, s, 0, play(0, "gray", 2))
    s = applied(ruleset, s, 1, play(0, "purple", 1))
    s = applied(ruleset, s, 0, play(0, "orange", 1))
    return applied(ruleset, s, 1, play(0, "yellow", 1))


def _hands() -> dict[int, tuple[int, ...]]:
    return {0: hand(gray=3, orange=2), 1: hand(purple=2, yellow=3)}


def test_third_flower_ends_the_game_after_the_whole_resolution(standard: Ruleset) -> None:
    held = {0: tiles("gray-1", "gray-2", "purple-1", "purple-2", "red-2"),
            1: tiles("orange-1", "orange-2", "yellow-1", "yellow-2", "green-2")}
    s = make_state(players=2, hands=_hands(), mandalas=[(RED1, GREEN1)], deck=DECK,
                   dark=tiles("red-3"), light=tiles("green-3"), held=held)
    s = _complete_m0(standard, s)
    assert s.phase == CHOOSE and s.second == 1
    s = applied(standard, s, 0, take("red-1"))
    assert s.phase == OVER and s.ended == "seats 0 and 1 hold 3 complete flowers"
    assert standard.gamedef.active_seats(s) == ()  # nobody gets a final turn
    assert s.tiles[1][-1] == GREEN1  # the second tile is handed out before the end check
    outcome = standard.gamedef.outcome(s)
    assert isinstance(outcome, Ranked)
    assert outcome.scores == (4 + 4 + 4, 4 + 4 + 4)
    assert outcome.winners == (0, 1) and "share the victory" in outcome.explanation
    assert "seats 0 and 1 hold 3 complete flowers" in outcome.explanation


def test_the_game_goes_on_below_three_flowers(standard: Ruleset) -> None:
    s = make_state(players=2, hands=_hands(), mandalas=[(RED1, GREEN1)], deck=DECK,
                   dark=tiles("red-3"), light=tiles("green-3"))
    s = applied(standard, _complete_m0(standard, s), 0, take("green-1"))
    assert s.phase != OVER and s.ended == "" and standard.gamedef.outcome(s) is None
    assert s.tiles == ((GREEN1,), (RED1,)) and s.turn == 0  # seat 1 completed; seat 0 next


def test_all_mandalas_closed_ends_the_game(standard: Ruleset) -> None:
    s = make_state(players=2, hands=_hands(), mandalas=[(RED1, GREEN1), (), ()], deck=DECK)
    s = applied(standard, _complete_m0(standard, s), 0, take("red-1"))
    assert s.mandalas[0].tiles == () and s.last is not None and s.last.closed
    assert s.phase == OVER and s.ended == "all three mandalas are closed"


def test_a_closed_mandala_takes_no_play(standard: Ruleset) -> None:
    s = make_state(players=2, hands=_hands(), mandalas=[(RED1, GREEN1), (), ()], deck=DECK)
    legal = standard.gamedef.legal_actions(s, 0)
    assert legal and all(a["mandala"] == 0 for a in legal)
    result = standard.gamedef.apply(s, 0, play(1, "gray", 1))
    assert getattr(result, "code", None) == "mandala.closed"


def test_a_round_of_passes_ends_the_game(standard: Ruleset) -> None:
    s = make_state(players=3, hands={0: hand(red=1), 1: hand(red=1), 2: hand(red=1)})
    for seat in range(3):
        assert standard.gamedef.legal_actions(s, seat if seat == s.turn else s.turn) == (PASS,)
        s = applied(standard, s, seat, PASS)
    assert s.phase == OVER and s.passes == 3
    assert s.ended == "every player passed in turn, so nobody can play any more"
    assert standard.gamedef.outcome(s) is not None


def test_a_play_resets_the_passes(standard: Ruleset) -> None:
    s = make_state(players=2, hands={0: hand(red=1), 1: hand(red=3)})
    s = applied(standard, s, 0, PASS)
    s = applied(standard, s, 1, play(0, "red", 2))
    assert s.passes == 0 and s.phase != OVER


def test_e2_more_complete_flowers_break_a_tie() -> None:
    p0 = tiles("green-x3", "green-3", "orange-2", "orange-2")  # 9 + 6, 2 flowers
    p1 = tiles("gray-1", "gray-1", "purple-1", "purple-1", "red-x3", "red-3")  # 3+3+9, 3
    outcome = standard_outcome((p0, p1), "test")
    assert outcome.scores == (15, 15) and outcome.winners == (1,)
    assert outcome.ranking == (2, 1)
    assert "wins on complete flowers: 3 against 2" in outcome.explanation


def test_e2_then_more_tiles_then_a_shared_win() -> None:
    p0 = tiles("green-x3", "green-3", "orange-2", "orange-2", "yellow-x3")  # 15, 2, 5 tiles
    p1 = tiles("gray-x3", "gray-3", "purple-2", "purple-2")  # 15, 2 flowers, 4 tiles
    outcome = standard_outcome((p0, p1), "test")
    assert outcome.winners == (0,) and "wins on tiles held: 5 against 4" in outcome.explanation
    shared = standard_outcome((p1, tiles("red-x3", "red-3", "yellow-2", "yellow-2")), "test")
    assert shared.winners == (0, 1) and shared.ranking == (1, 1)


def test_breakdown_columns() -> None:
    held = tiles("gray-x3", "gray-2", "green-1", "green-2", "red-3")
    outcome = standard_outcome((held, ()), "test")
    columns = dict(outcome.breakdown)
    assert columns["Flower points"] == (10, 0) and columns["Single points"] == (3, 0)
    assert columns["Complete flowers"] == (2, 0) and columns["Tiles"] == (5, 0)
    assert outcome.scores == (13, 0)

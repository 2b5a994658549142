"""Spec §13.2 (claim, completion and second place, step by step), its variant, and the claim
rules of §6 step 3 and §12.2."""

from __future__ import annotations

from gamechecks import refused

from hedgerow.core.ruleset import Ruleset
from hedgerow.plugins.mandala.cards import NO_CARDS, colour_named
from hedgerow.plugins.mandala.claims import cards_to_claim, claims, preview, second_place
from hedgerow.plugins.mandala.state import CHOOSE, PLAY, State

from .conftest import applied, deck_of, hand, make_state, play, take, tiles

A, B, C = 0, 1, 2
PURPLE2, ORANGE1 = tiles("purple-2", "orange-1")
NEXT = tiles("red-3", "yellow-3")  # the stacks' tops, for the refill


def _start() -> State:
    return make_state(
        players=3,
        hands={A: hand(red=3, gray=2), B: hand(purple=1, yellow=2, gray=2),
               C: hand(gray=3, green=1, yellow=2)},
        mandalas=[(PURPLE2, ORANGE1)],
        deck=deck_of(*["orange"] * 20),
        dark=(NEXT[0],), light=(NEXT[1],),
    )


def _present(state: State) -> set[str]:
    names = ("gray", "purple", "red", "green", "orange", "yellow")
    return {names[c] for c in range(6) if state.mandalas[0].present >> c & 1}


def _steps_one_to_four(standard: Ruleset) -> State:
    s = _start()
    assert _present(s) == {"purple", "orange"}
    # 1. A plays 2 red: new colour, face-up; nobody else eligible, so A claims; no draw.
    s = applied(standard, s, A, play(0, "red", 2))
    m = s.mandalas[0]
    assert (m.totals[A], m.ups[A], m.claim) == (2, 2, A)
    assert _present(s) == {"purple", "orange", "red"} and sum(s.hands[A]) == 3
    # 2. B plays 1 purple: present (a tile), face-down; not eligible; draws 2.
    s = applied(standard, s, B, play(0, "purple", 1))
    m = s.mandalas[0]
    assert (m.totals[B], m.ups[B], m.claim) == (1, 0, A)
    assert sum(s.hands[B]) == 6
    # 3. C plays 3 gray: face-up; 3 > A's 2 (B is ignored), so C claims.
    s = applied(standard, s, C, play(0, "gray", 3))
    assert (s.mandalas[0].claim, len(_present(s))) == (C, 4)
    # 4. A plays 1 red: present now, face-down; 3 = 3 is not more, so C keeps the claim.
    s = applied(standard, s, A, play(0, "red", 1))
    m = s.mandalas[0]
    assert (m.totals[A], m.ups[A], m.claim) == (3, 2, C)
    assert sum(s.hands[A]) == 4  # 3 - 1 + 2 drawn
    return s


def test_worked_example_13_2(standard: Ruleset) -> None:
    s = _steps_one_to_four(standard)
    # 5. B plays 2 yellow: face-up; B has 3 against 3 and 3: no claim.
    s = applied(standard, s, B, play(0, "yellow", 2))
    m = s.mandalas[0]
    assert (m.totals[B], m.ups[B], m.claim) == (3, 2, C) and len(_present(s)) == 5
    # 6. C plays 1 green: face-up, C has 4; six colours: resolve at once.  A and B are
    # level on cards (3) and face-up cards (2), so C takes both tiles without a choice.
    s = applied(standard, s, C, play(0, "green", 1))
    assert s.phase == PLAY and s.turn == A
    assert s.tiles == ((), (), (PURPLE2, ORANGE1))
    assert s.last is not None and not s.last.chosen
    assert s.discard == hand(gray=3, green=1)  # C's 4 cards
    assert s.last.returned == (hand(red=3), hand(purple=1, yellow=2), NO_CARDS)
    assert sum(s.hands[A]) == 4 + 3 and sum(s.hands[B]) == 4 + 3
    assert sum(s.hands[C]) == 2 + 2  # played 1 of 3 left, drew 2, nothing came back
    # the returned cards were revealed: every seat knows them now
    assert s.known == (hand(red=3), hand(purple=1, yellow=2), NO_CARDS)
    m = s.mandalas[0]
    assert m.tiles == NEXT and m.claim == -1 and m.plays == () and sum(m.totals) == 0


def test_worked_example_13_2_variant_second_place(standard: Ruleset) -> None:
    s = _steps_one_to_four(standard)
    # 5'. B plays only 1 yellow: B has 2 cards, 1 face-up.
    s = applied(standard, s, B, play(0, "yellow", 1))
    # 6. C completes M; A (3 cards) is second, so C must choose a tile.
    s = applied(standard, s, C, play(0, "green", 1))
    assert s.phase == CHOOSE and (s.at, s.second) == (0, A)
    game = standard.gamedef
    assert game.active_seats(s) == (C,)
    assert list(game.legal_actions(s, C)) == [take("purple-2"), take("orange-1")]
    assert game.legal_actions(s, A) == () and game.legal_actions(s, B) == ()
    assert refused(standard, s, C, play(1, "gray", 1)).code == "mandala.choose_tile"
    assert refused(standard, s, A, take("orange-1")).code == "mandala.not_your_turn"
    assert refused(standard, s, C, take("red-3")).code == "mandala.not_a_tile"
    s = applied(standard, s, C, take("purple-2"))
    assert s.tiles == ((ORANGE1,), (), (PURPLE2,))
    assert s.last is not None and s.last.chosen
    assert s.last.taken == ((C, PURPLE2), (A, ORANGE1))
    assert s.last.discarded == (hand(red=3), NO_CARDS, hand(gray=3, green=1))
    assert s.last.returned == (NO_CARDS, hand(purple=1, yellow=1), NO_CARDS)
    assert s.phase == PLAY and s.turn == A  # the turn passes on from C


def test_a_face_down_colour_is_seen_by_everyone(standard: Ruleset) -> None:
    """Spec §5, §12.3: face-down colours are public (they were shown as they were played)."""
    s = _steps_one_to_four(standard)
    game = standard.gamedef
    b_play = (B, colour_named("purple"), 1, False)
    for seat in (A, B, C):
        assert b_play in game.view(s, seat).mandalas[0].plays
        assert game.view(s, seat).mandalas[0].totals[B] == 1


def test_tying_the_holder_never_takes_the_claim() -> None:
    assert claims((3, 2), (1, 1), 0) and not claims((3, 3), (1, 1), 1)
    assert not claims((3, 5), (1, 0), 1)  # no face-up card: not eligible
    assert claims((1, 5), (1, 0), 0)  # the ineligible seat is ignored


def test_second_place_ties() -> None:
    assert second_place((4, 3, 3), (1, 2, 2), 0) == -1  # tied on cards and face-up cards
    assert second_place((4, 3, 3), (1, 2, 1), 0) == 1  # more face-up cards
    assert second_place((4, 3, 2), (1, 1, 2), 0) == 1  # more cards first
    assert second_place((4, 3, 9), (1, 0, 0), 0) == -1  # nobody eligible


def test_preview_says_what_a_play_does(standard: Ruleset) -> None:
    s = _steps_one_to_four(standard)
    m = s.mandalas[0]
    yellow, green = colour_named("yellow"), colour_named("green")
    one = preview(m, B, yellow, 2)
    assert one.face_up and one.claim == C and not one.completes and one.totals[B] == 3
    assert cards_to_claim(m, B) == 3  # needs 4 against 3 and 3
    big = preview(m, B, green, 3)  # 4 cards: B would claim
    assert big.claim == B and not big.completes
    assert not preview(m, A, colour_named("red"), 1).face_up


def test_first_face_up_play_always_claims(standard: Ruleset) -> None:
    s = make_state(players=2, hands={0: hand(yellow=3, red=2), 1: hand(red=5)},
                   mandalas=[(PURPLE2, ORANGE1)], deck=deck_of(*["gray"] * 9))
    s = applied(standard, s, 0, play(0, "red", 2))
    assert s.mandalas[0].claim == 0
    s = applied(standard, s, 1, play(0, "red", 4))  # face-down: not eligible
    assert s.mandalas[0].claim == 0 and s.mandalas[0].ups[1] == 0


def test_status_and_sides_for_a_client(standard: Ruleset) -> None:
    from hedgerow.plugins.mandala.claims import status
    from hedgerow.plugins.mandala.view import side

    s = _steps_one_to_four(standard)
    assert status(s.mandalas[0]) == (C, (A, C), A, 2)  # A: 3 cards, 2 up; B not eligible
    view = standard.gamedef.view(s, A)
    assert side(view.mandalas[0], A) == (hand(red=2), hand(red=1))
    assert side(view.mandalas[0], B) == (NO_CARDS, hand(purple=1))  # face-down: public
    assert side(view.mandalas[0], C) == (hand(gray=3), NO_CARDS)
    assert status(view.mandalas[0]) == status(s.mandalas[0])

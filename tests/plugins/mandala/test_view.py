"""Hidden information: views, known cards, states dealt from a view (spec §14; every card on
a mandala is public with its colour, face-down ones too: spec §5, §12.3)."""

from __future__ import annotations

from collections import Counter

from gamechecks import redeal

from hedgerow.core import Rng
from hedgerow.core.ruleset import Ruleset
from hedgerow.plugins.mandala.cards import NO_CARDS, colour_named
from hedgerow.plugins.mandala.state import Play, State, View

from .conftest import applied, complete, deck_of, hand, make_state, play, tiles

PURPLE2, ORANGE1 = tiles("purple-2", "orange-1")
PURPLE, ORANGE = colour_named("purple"), colour_named("orange")


def _cards(state: State) -> Counter[int]:
    """Every card of a state by colour: hands, deck, discard, mandalas."""
    total: Counter[int] = Counter()
    for h in state.hands:
        total.update({c: n for c, n in enumerate(h)})
    total.update(state.deck)
    total.update({c: n for c, n in enumerate(state.discard)})
    for m in state.mandalas:
        for p in m.plays:
            total[p.colour] += p.cards
    return +total


def _with_face_down() -> State:
    s = make_state(players=3, hands={0: hand(red=3, gray=3), 1: hand(purple=3, orange=3),
                                     2: hand(gray=2, yellow=4)},
                   mandalas=[(PURPLE2, ORANGE1)], deck=deck_of(*["green", "yellow"] * 8))
    return s


def test_view_is_its_own_type_and_shows_own_hand_only(standard: Ruleset) -> None:
    game = standard.gamedef
    s = _with_face_down()
    view = game.view(s, 1)
    assert isinstance(view, View) and not isinstance(view, State)
    assert view.hand == hand(purple=3, orange=3) and view.hand_sizes == (6, 6, 6)
    assert view.deck_count == 16 and view.active == (0,)


def test_face_down_colours_are_public(standard: Ruleset) -> None:
    """Spec §5: a face-down card's colour was shown when it was played, so every seat sees
    it (the engine once hid it from the others, a house rule the spec does not have)."""
    game = standard.gamedef
    s = applied(standard, _with_face_down(), 0, play(0, "red", 2))
    s = applied(standard, s, 1, play(0, "purple", 2))  # purple is a tile: face-down
    for seat in (0, 1, 2):
        seen = game.view(s, seat).mandalas[0]
        assert seen.plays[-1] == (1, PURPLE, 2, False)
        assert seen.totals[1] == 2 and seen.ups[1] == 0


def test_a_face_down_play_is_logged_with_its_colour(standard: Ruleset) -> None:
    """The log's words name a face-down play's colour too: it is public (spec §5)."""
    game = standard.gamedef
    s = applied(standard, _with_face_down(), 0, play(0, "red", 2))
    assert game.describe(s, 1, play(0, "purple", 2)) == "seat 1 plays 2 purple face-down on M0"


def test_known_cards_shrink_only_as_far_as_plays_allow(standard: Ruleset) -> None:
    game = standard.gamedef
    s = _with_face_down()._replace(known=(NO_CARDS, hand(purple=2, orange=3), NO_CARDS))
    s = applied(standard, s, 0, play(1, "red", 1))
    # seat 1 plays 1 orange face-up on M1: one known orange fewer
    s = applied(standard, s, 1, play(1, "orange", 1))
    assert s.known[1] == hand(purple=2, orange=2)
    s = applied(standard, s, 2, play(1, "yellow", 1))
    # seat 1 plays 1 orange face-down on M0 (orange is present there): its colour is public,
    # so one known orange fewer, and purple stays known
    s = applied(standard, s, 0, play(1, "red", 1))
    s = applied(standard, s, 1, play(0, "orange", 1))
    assert s.known[1] == hand(purple=2, orange=1)
    assert game.view(s, 2).known[1] == hand(purple=2, orange=1)


def test_a_redeal_keeps_the_view_and_re_deals_the_rest(standard: Ruleset) -> None:
    game = standard.gamedef
    assert standard.bots is not None
    s = applied(standard, _with_face_down(), 0, play(0, "red", 2))
    s = applied(standard, s, 1, play(0, "purple", 2))
    s = applied(standard, s, 2, play(0, "gray", 1))
    s = applied(standard, s, 0, play(0, "gray", 2))  # gray present now: face-down
    s = complete(s)  # sampling reads the whole table's cards and tiles
    rng = Rng(b"redeal")
    for i in range(40):
        for seat in range(3):
            other = redeal(standard, s, seat, rng.fork(f"{i}/{seat}"))
            assert game.view(other, seat) == game.view(s, seat)
            assert list(game.legal_actions(other, seat)) == list(game.legal_actions(s, seat))
            assert _cards(other) == _cards(s)
            assert other.hands[seat] == s.hands[seat]
            assert other.mandalas == s.mandalas  # every play, face-down ones too, is public


def test_a_redeal_keeps_known_cards_and_respects_supply(standard: Ruleset) -> None:
    game = standard.gamedef
    assert standard.bots is not None
    # seat 1 played 3 purple cards face-down (public: spec §5), and seat 1's known yellow
    # stays in its hand; the rest seat 0 cannot see (seat 1's unknown card, the deck) is
    # dealt from what is left.
    s = make_state(players=2, hands={0: hand(orange=10), 1: hand(yellow=2)},
                   mandalas=[(PURPLE2, ORANGE1)], deck=deck_of("yellow", "orange"))
    m = s.mandalas[0]
    m = m._replace(plays=(Play(1, PURPLE, 3, False, m.present),), totals=(0, 3))
    s = s._replace(mandalas=(m, *s.mandalas[1:]), known=(NO_CARDS, hand(yellow=1)))
    s = complete(s)  # sampling reads the whole table's cards and tiles
    for i in range(10):
        other = redeal(standard, s, 0, Rng(b"tight", str(i)))
        assert other.mandalas[0].plays[0].colour == PURPLE
        assert other.hands[1][colour_named("yellow")] >= 1
        assert game.view(other, 0) == game.view(s, 0)

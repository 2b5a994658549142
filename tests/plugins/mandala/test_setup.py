"""Spec §4: the table before the deal, the deal as one chance node, and what it deals."""

from __future__ import annotations

import pytest

from hedgerow.core import Chance, SetupContext, Shuffle
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.mandala.cards import (
    CARDS,
    DARK_TILES,
    LIGHT_TILES,
    NO_CARDS,
    count_of,
    is_dark,
)
from hedgerow.plugins.mandala.state import DEAL, PLAY, State


def _dealt(ruleset: Ruleset, players: int) -> State:
    game = ruleset.gamedef
    state = game.setup(SetupContext(players))
    identity = (tuple(range(90)), tuple(range(18)), tuple(range(18)))
    assert game.resolve is not None
    return game.resolve(state, identity)


def test_setup_waits_for_one_chance_node(standard: Ruleset) -> None:
    game = standard.gamedef
    state = game.setup(SetupContext(3))
    assert state.phase == DEAL and game.active_seats(state) == ()
    label = "shuffle the cards and both tile stacks, then deal"
    assert game.pending_chance(state) == Chance((Shuffle(90), Shuffle(18), Shuffle(18)), label)
    with pytest.raises(ValueError):
        game.setup(SetupContext(5))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_starting_hands_5_6_7_8_and_two_tiles_a_mandala(standard: Ruleset, players: int) -> None:
    state = _dealt(standard, players)
    assert state.phase == PLAY and state.turn == 0
    assert [sum(h) for h in state.hands] == [5, 6, 7, 8][:players]
    assert len(state.deck) == 90 - sum([5, 6, 7, 8][:players])
    assert len(state.dark) == len(state.light) == 15
    for mandala in state.mandalas:
        dark, light = mandala.tiles
        assert is_dark(dark) and not is_dark(light)
        assert mandala.claim == -1 and mandala.plays == () and sum(mandala.totals) == 0
    assert state.known == (NO_CARDS,) * players and state.discard == NO_CARDS


def test_deal_order_from_the_top_of_the_deck(standard: Ruleset) -> None:
    # With the identity order the top (the end) of the deck is the yellow cards: the start
    # player gets the last 5, seat 1 the 6 before them, seat 2 the 7 before those.
    state = _dealt(standard, 3)
    assert state.hands[0] == count_of(CARDS[85:])
    assert state.hands[1] == count_of(CARDS[79:85])
    assert state.hands[2] == count_of(CARDS[72:79])
    assert state.deck == CARDS[:72]
    assert [m.tiles for m in state.mandalas] == [
        (DARK_TILES[-1], LIGHT_TILES[-1]), (DARK_TILES[-2], LIGHT_TILES[-2]),
        (DARK_TILES[-3], LIGHT_TILES[-3])]


def test_the_deal_is_entry_zero_and_reproducible(plugins) -> None:
    ruleset = plugins.ruleset("mandala", [], players=4)
    one, two = (Table(ruleset, 4, seed_from_int(7)) for _ in range(2))
    assert [e.index for e in one.entries] == [0] and one.entries[0].is_chance
    assert one.state_hash() == two.state_hash()
    assert Table(ruleset, 4, seed_from_int(8)).state_hash() != one.state_hash()

"""``sample``: a complete state from one seat's view alone (the bots' sampler).

Along random games of every variant and several player counts, at every decision point
(inside simultaneous steps too, after passes and compost reshuffles) and for every seat:
the sample's view is the view it came from, every card is in one place, each re-dealt card
stays where the seat's memory allows, different streams deal different hidden cards, and
a sampled state plays on to an outcome.  Then: the deal is uniform where the spec says
nothing is known, and bad views are refused.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

import hedgerow.plugins.flourish.bots.sample as sampling
from hedgerow.core import GameDef, Refusal, Rng
from hedgerow.core.chance import draw_all
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.flourish.bots.sample import sample
from hedgerow.plugins.flourish.knowledge import COMPOST, DECK
from hedgerow.plugins.flourish.state import RESHUFFLE, Config, State
from hedgerow.plugins.flourish.view import view

from .conftest import make_state, ruleset, step, turn
from .invariants import every_card_once, memory_is_true

#: (players, variants, games): every variant, solo and 2-7 players.
RUNS = [
    (1, (), 2),
    (1, ("compost",), 2),
    (2, (), 2),
    (2, ("compost", "cooperative"), 1),
    (3, ("compost",), 1),
    (3, ("garden-show",), 1),
    (4, ("cooperative",), 1),
    (5, ("compost",), 1),
    (7, ("compost",), 2),
]


def hidden(state: State, seat: int) -> tuple[object, ...]:
    """Where the cards ``seat`` cannot see are: other hands and choices, the piles."""
    return (tuple(h for j, h in enumerate(state.hands) if j != seat),
            tuple(c for j, c in enumerate(state.choices) if j != seat),
            state.deck, state.compost, state.discard, state.mcg)


def play_on(game: GameDef[Any, Any], state: State, rng: Rng) -> object:
    """Random legal play (random chance) from ``state`` to the outcome."""
    for _ in range(1000):
        chance = game.pending_chance(state)
        if chance is not None:
            assert game.resolve is not None
            state = game.resolve(state, draw_all(rng, chance))
            continue
        seats = game.active_seats(state)
        if not seats:
            return game.outcome(state)
        seat = seats[0]
        legal = game.legal_actions(state, seat)
        after = game.apply(state, seat, legal[rng.randbelow(len(legal))])
        assert not isinstance(after, Refusal), after
        state = after
    raise AssertionError("the sampled game did not end")


def check_point(rules: Ruleset, state: State, rng: Rng, play: bool) -> None:
    """Every check of one decision point, for every seat."""
    game, bots = rules.gamedef, rules.bots
    assert bots is not None
    for seat in range(state.cfg.players):
        seen = view(state, seat)
        first = bots.sample(seen, seat, rng.fork(f"a{seat}"))
        every_card_once(first)
        memory_is_true(first)
        assert view(first, seat) == seen
        assert game.active_seats(first) == game.active_seats(state)
        assert len(game.legal_actions(first, seat)) == len(game.legal_actions(state, seat))
        lots_hidden = seen.deck_count + sum(seen.hand_sizes) - seen.hand_sizes[seat] >= 10
        if lots_hidden:  # a re-deal really re-deals
            second = bots.sample(seen, seat, rng.fork(f"b{seat}"))
            assert view(second, seat) == seen
            assert hidden(second, seat) != hidden(first, seat)
        if play and seat == (state.turn + state.game) % state.cfg.players:
            assert play_on(game, first, rng.fork(f"play{seat}")) is not None


@pytest.mark.parametrize(("players", "variants", "games"), RUNS,
                         ids=[f"{p}p-{'+'.join(v) or 'standard'}" for p, v, _ in RUNS])
def test_sample_along_random_games(plugins: PluginHost, players: int,
                                   variants: tuple[str, ...], games: int) -> None:
    rules = ruleset(plugins, *variants, players=players)
    game = rules.gamedef
    reshuffled = 0
    for seed in range(games):
        table = Table(rules, players, seed_from_int(seed))
        rng = Rng(seed_from_int(seed), "sample")
        while table.active_seats():
            state = table.state
            check_point(rules, state, rng.fork(f"{table.index}"), play=True)
            choices = {}
            for s in table.active_seats():
                legal = game.legal_actions(state, s)
                choices[s] = legal[rng.randbelow(len(legal))]
            inside = state
            for s in sorted(choices)[:-1]:  # the step's inner states: some seats have chosen
                after = game.apply(inside, s, choices[s])
                assert not isinstance(after, Refusal)
                inside = after
                check_point(rules, inside, rng.fork(f"{table.index}/{s}"), play=s == 0)
            before = len(state.compost)
            table.submit_step(choices)
            if len(table.state.compost) < before:
                reshuffled += 1
        check_point(rules, table.state, rng.fork("over"), play=False)
    if "compost" in variants and players == 7:
        assert reshuffled  # the compost pile became the deck, and play went on from there


def test_the_deal_is_uniform_when_nothing_is_known() -> None:
    state = make_state(Config(2), [list(range(1, 7)), list(range(7, 13))])
    seen = view(state, 0)
    counts = [0] * 99
    top = [0] * 99
    runs = 900
    for n in range(runs):
        other = sample(seen, 0, Rng(b"uniform", str(n)))
        for c in other.hands[1]:
            counts[c] += 1
        top[other.deck[0]] += 1
    hidden_cards = range(7, 99)  # 92 cards: 6 in the other hand, 86 in the deck
    expected = runs * 6 / 92
    assert all(abs(counts[c] - expected) < 6 * expected ** 0.5 for c in hidden_cards)
    assert sum(counts[c] for c in hidden_cards) == runs * 6
    assert max(top) < 8 * runs / 92 and sum(1 for c in hidden_cards if top[c]) > 80


def test_a_card_unsure_between_two_hands_goes_to_each_as_often(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=5)
    hands = [list(range(1 + 6 * s, 7 + 6 * s)) for s in range(5)]
    state = step(rules, make_state(Config(5), hands), {s: turn(*hands[s][:3]) for s in range(5)})
    # seat 1 passes card 2 (from seat 0) on to seat 2: seat 0 no longer knows where it is
    moves = {s: turn(*state.hands[s][:3]) for s in range(5)}
    others = [c for c in state.hands[1] if c != 2]
    moves[1] = turn(others[0], 2, others[1])
    state = step(rules, state, moves)
    assert (2, (1 << 1) | (1 << 2)) in view(state, 0).unsure
    seen = view(state, 0)
    runs = 400
    in_one = sum(2 in sample(seen, 0, Rng(b"unsure", str(n))).hands[1] for n in range(runs))
    assert 0.4 * runs < in_one < 0.6 * runs  # both hands hold six cards


def test_the_placement_by_augmenting_paths_fits_too(plugins: PluginHost,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sampling, "TRIES", 0)  # no rejection round: straight to _assign
    rules = ruleset(plugins, "compost", players=5)
    game = rules.gamedef
    table = Table(rules, 5, seed_from_int(2))
    rng = Rng(b"fallback")
    unsure = 0
    while table.active_seats():
        state = table.state
        for seat in range(5):
            seen = view(state, seat)
            unsure += len(seen.unsure)
            other = sample(seen, seat, rng.fork(f"{table.index}/{seat}"))
            every_card_once(other)
            memory_is_true(other)
            assert view(other, seat) == seen
        choices = {}
        for s in table.active_seats():
            legal = game.legal_actions(state, s)
            choices[s] = legal[rng.randbelow(len(legal))]
        table.submit_step(choices)
    assert unsure > 20  # cards with several possible places were placed that way


def test_cards_known_in_the_deck_go_anywhere_in_it(plugins: PluginHost) -> None:
    rules = ruleset(plugins, "compost", players=2)
    state = make_state(Config(2, compost=True), [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]],
                       compost=[60])
    state = state._replace(memory=(((50, 1 << DECK), (60, 1 << COMPOST)), ()))
    memory_is_true(state)
    seen = view(state, 0)
    assert seen.known == ((50, DECK), (60, COMPOST))
    where = set()
    for n in range(60):
        other = sample(seen, 0, Rng(b"deck", str(n)))
        assert other.compost == (60,) and 50 in other.deck
        where.add(other.deck.index(50))
    assert len(where) > 30  # anywhere in a deck of 85, not always on top
    assert rules.gamedef.view(other, 0) == seen


def test_a_view_that_is_not_whole_is_refused(plugins: PluginHost) -> None:
    state = make_state(Config(3), [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12],
                                   [13, 14, 15, 16, 17, 18]])
    seen = view(state, 0)
    bad = [
        (seen, 1, "seat 0's view"),
        (replace(seen, deck_count=seen.deck_count + 1), 0, "out of seat 0's sight"),
        (replace(seen, hand=(1, 1, 3, 4, 5, 6)), 0, "shown twice"),
        (replace(seen, known=((7, 8),), deck_count=0), 0, "no room"),
        (replace(seen, known=((2, DECK),)), 0, "remembers card 2"),
        (replace(seen, luck=RESHUFFLE), 0, "waits for chance"),
        (replace(seen, chosen=(True, False, False)), 0, "disagree"),
        (replace(seen, gardens=((), ())), 0, "gardens"),
    ]
    for wrong, seat, words in bad:
        with pytest.raises(ValueError, match=words):
            sample(wrong, seat, Rng(b"bad"))
    assert view(state, 0) == seen  # nothing changed


def test_a_seat_that_chose_gets_a_choice_from_its_dealt_hand(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=3)
    state = make_state(Config(3), [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12],
                                   [13, 14, 15, 16, 17, 18]])
    inside = step(rules, state, {1: turn(7, 8, 9)})
    seen = view(inside, 0)
    assert seen.chosen == (False, True, False) and seen.choice is None
    other = sample(seen, 0, Rng(b"chose"))
    choice = other.choices[1]
    assert choice is not None and other.choices[2] is None
    assert len(choice.play) == 1 and len(choice.passes) == 2 and choice.compost == -1
    assert len(other.hands[1]) == 3 and not set(other.hands[1]) & {*choice.play, *choice.passes}
    after = step(rules, other, {0: turn(1, 2, 3), 2: turn(*other.hands[2][:3])})
    assert after.turn == 1 and len(after.gardens[1]) == 1



"""Hidden information across passes: what a seat's view holds, what it remembers, and what
a state re-dealt from the view (the bots' sampler) may and may not move."""

from __future__ import annotations

from hedgerow.core import Refusal, Rng
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.flourish.bots.sample import sample
from hedgerow.plugins.flourish.knowledge import COMPOST, DISCARD, zone_name
from hedgerow.plugins.flourish.state import FINAL, Config, State
from hedgerow.plugins.flourish.view import view

from .conftest import final, make_state, ruleset, step, turn
from .invariants import every_card_once, memory_is_true, redeal_keeps_memory


def redeal(state: State, seat: int, rng: Rng) -> State:
    """A state ``seat`` cannot tell from ``state``: its view sampled again."""
    return sample(view(state, seat), seat, rng)


HANDS5 = [list(range(1 + 6 * s, 7 + 6 * s)) for s in range(5)]


def _first_turn(plugins: PluginHost, **moves):
    rules = ruleset(plugins, players=5)
    state = make_state(Config(5), HANDS5)
    choices = {s: turn(*HANDS5[s][:3]) for s in range(5)}
    choices.update(moves)
    return rules, step(rules, state, choices)


def _mentions(v, card: int) -> bool:
    found = card in v.hand or any(c == card for c, _ in v.known + v.unsure)
    return found or any(c == card for c, _ in v.last.passed + v.last.received)


def test_a_pass_is_seen_by_the_passer_and_the_receiver_only(plugins: PluginHost) -> None:
    _, state = _first_turn(plugins)
    # seat 0 passed card 2 left (to seat 1) and card 3 right (to seat 4)
    mine = view(state, 0)
    assert mine.known == ((2, 1), (3, 4))
    assert mine.last.passed == ((2, 1), (3, 4))
    assert (2, 0) in view(state, 1).last.received and 2 in view(state, 1).hand
    for other in (2, 3):
        assert not _mentions(view(state, other), 2) and not _mentions(view(state, other), 3)
    assert zone_name(1) == "seat 1's hand" and zone_name(COMPOST) == "the compost pile"


def test_memory_widens_when_the_holder_moves_unseen(plugins: PluginHost) -> None:
    rules, state = _first_turn(plugins)
    hand1 = state.hands[1]
    others = [c for c in hand1 if c != 2]
    moves = {s: turn(*state.hands[s][:3]) for s in range(5)}
    moves[1] = turn(others[0], 2, others[1])  # seat 1 passes card 2 on, to seat 2
    after = step(rules, state, moves)
    assert dict(after.memory[0])[2] == (1 << 1) | (1 << 2)  # kept, or passed away from me
    assert (2, (1 << 1) | (1 << 2)) in view(after, 0).unsure
    memory_is_true(after)


def test_a_card_seen_again_is_forgotten(plugins: PluginHost) -> None:
    rules, state = _first_turn(plugins)
    others = [c for c in state.hands[1] if c != 2]
    moves = {s: turn(*state.hands[s][:3]) for s in range(5)}
    moves[1] = turn(others[0], others[1], 2)  # seat 1 passes card 2 back to seat 0
    back = step(rules, state, moves)
    assert 2 in back.hands[0] and 2 not in dict(back.memory[0])
    moves[1] = turn(2, others[0], others[1])  # or plays it: public in its garden
    played = step(rules, state, moves)
    assert 2 in played.gardens[1] and 2 not in dict(played.memory[0])


def test_the_final_discards(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=3)
    hands = [h[:5] for h in HANDS5[:3]]
    gardens = [list(range(40 + 9 * s, 49 + 9 * s)) for s in range(3)]
    state = make_state(Config(3), hands, gardens, turn=FINAL)
    after = step(rules, state, {s: final(*hands[s][:3]) for s in range(3)})
    assert dict(after.memory[0]) == {4: 1 << DISCARD, 5: 1 << DISCARD}


def test_a_redeal_keeps_what_the_seat_knows_and_redeals_the_rest(plugins: PluginHost) -> None:
    _, state = _first_turn(plugins)
    seen_hands = set()
    for n in range(8):
        other = redeal(state, 0, Rng(b"t", str(n)))
        every_card_once(other)
        assert view(other, 0) == view(state, 0)
        assert 2 in other.hands[1] and 3 in other.hands[4]
        assert other.hands[0] == state.hands[0] and other.gardens == state.gardens
        seen_hands.add(other.hands[2])
    assert len(seen_hands) > 1  # the hidden hands really are re-dealt


def test_a_redeal_inside_a_step(plugins: PluginHost) -> None:
    rules = ruleset(plugins, players=3)
    state = make_state(Config(3), HANDS5[:3])
    inside = rules.gamedef.apply(state, 0, turn(1, 2, 3))
    inside = rules.gamedef.apply(inside, 1, turn(7, 8, 9))
    assert not isinstance(inside, Refusal)
    other = redeal(inside, 2, Rng(b"inside"))
    every_card_once(other)
    assert view(other, 2) == view(inside, 2)
    assert other.choices[2] is None and other.choices[0] is not None
    assert len(other.choices[0].passes) == 2 and other.choices[1] is not None


def test_memory_holds_in_random_games(plugins: PluginHost) -> None:
    for players, variants in ((1, ()), (2, ("compost",)), (4, ()), (6, ("compost",))):
        rules = ruleset(plugins, *variants, players=players)
        game = rules.gamedef
        for seed in range(3):
            table = Table(rules, players, seed_from_int(seed))
            rng = Rng(seed_from_int(seed), "knowledge")
            while table.active_seats():
                memory_is_true(table.state)
                redeal_keeps_memory(table.state, range(players))
                choices = {}
                for s in table.active_seats():
                    legal = game.legal_actions(table.state, s)
                    choices[s] = legal[rng.randbelow(len(legal))]
                table.submit_step(choices)
            memory_is_true(table.state)

"""``sample`` (a state built from one seat's view) and ``score`` (a seat's figure now).

Along seeded random games of every player count, with and without Harmony, at every
decision (effect choices included: half the seats prefer placements that make a symbol
pair), before the deal and at the end, for every seat: the sampled state shows the seat
the very view it came from, keeps every card in exactly one place, plays on to an outcome,
and really re-deals what is hidden.  ``score`` is the outcome's score of every seat at the
end, and the rule's figure of the trackers on the worked examples of rules §10.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

import pytest

from hedgerow.core import Action, Rng, SetupContext
from hedgerow.core.chance import draw_all
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.plugins.petals.bots.sample import sample, unseen_cards
from hedgerow.plugins.petals.geometry import SIDES, frontier, placed
from hedgerow.plugins.petals.state import DEAL, OVER, PLAY, State
from hedgerow.plugins.petals.view import hash_data, view

GAMES = 3  # seeded games per player count and variant
ALL = list(range(1, 39))


def cards_of(state: State) -> list[int]:
    """Every card of ``state``, wherever it is, sorted."""
    cards = [v >> 2 for v in state.garden.values()]
    cards += [c for h in state.hands for c in h] + list(state.pile)
    cards += [*state.out_of_play, *state.set_aside]
    cards += [c for h in state.scored_directly for c in h]
    return sorted(cards)


def hidden_layout(state: State, seat: int) -> tuple[object, ...]:
    """Where the cards ``seat`` cannot see are: each other hand (as a set), the pile in
    order, the set-aside cards (as a set)."""
    others = tuple(tuple(sorted(h)) for i, h in enumerate(state.hands) if i != seat)
    return (others, state.pile, tuple(sorted(state.set_aside)))


def anything_hidden(state: State, seat: int) -> bool:
    """True when more than one `hidden_layout` fits ``seat``'s view: after the deal, at least
    two unseen cards, not all in one unordered place (before it, the pile is in id order)."""
    if state.phase == DEAL:
        return False
    places = [len(h) for i, h in enumerate(state.hands) if i != seat and h]
    places += [1] * len(state.pile) + ([len(state.set_aside)] if state.set_aside else [])
    return len(places) > 1


def _triggers(state: State, action: Action) -> bool:
    """Does this placement make a symbol pair?"""
    sides = SIDES[placed(action["card"], action["rot"])]
    x, y = action["x"], action["y"]
    for side, cell in enumerate(((x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y))):
        other = state.garden.get(cell)
        if other is not None and not sides[side] & 3 and not SIDES[other][side ^ 2] & 3:
            return True
    return False


def dealt(ruleset: Ruleset, players: int, seed: bytes) -> tuple[State, State]:
    """The table before and after the deal."""
    game = ruleset.gamedef
    fresh = game.setup(SetupContext(players))
    chance = game.pending_chance(fresh)
    assert chance is not None
    return fresh, game.resolve(fresh, draw_all(Rng(seed, "chance/0"), chance))


def game_states(ruleset: Ruleset, players: int, seed: bytes) -> list[State]:
    """Every state of one seeded game: before the deal, every decision, the end."""
    game = ruleset.gamedef
    fresh, state = dealt(ruleset, players, seed)
    rng = Rng(seed, "moves")
    states = [fresh]
    while game.active_seats(state):
        states.append(state)
        seat = state.active
        legal = game.legal_actions(state, seat)
        if state.pending is None and seat % 2 == 0:
            listed = [a for a in legal if _triggers(state, a)] or list(legal)
            action = listed[rng.randbelow(len(listed))]
        else:
            action = legal[rng.randbelow(len(legal))]
        after = game.apply(state, seat, action)
        assert isinstance(after, State), after
        state = after
    states.append(state)
    return states


def play_out(ruleset: Ruleset, state: State, rng: Rng) -> object:
    """Random play from ``state`` (chance drawn from ``rng`` too) to its outcome."""
    game = ruleset.gamedef
    chance = game.pending_chance(state)
    if chance is not None:
        state = game.resolve(state, draw_all(rng, chance))
    while game.active_seats(state):
        seat = state.active
        legal = game.legal_actions(state, seat)
        assert len(legal) > 0
        after = game.apply(state, seat, legal[rng.randbelow(len(legal))])
        assert isinstance(after, State), after
        state = after
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome


@pytest.mark.parametrize("variants", [(), ("harmony",)], ids=["standard", "harmony"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_a_sample_is_the_seats_view_and_plays_on(plugins: PluginHost, players: int,
                                                 variants: tuple[str, ...]) -> None:
    ruleset = plugins.ruleset("petals", variants, players=players)
    game = ruleset.gamedef
    bots = ruleset.bots
    assert bots.sample is not None and bots.score is not None
    seen: Counter[str] = Counter()
    for g in range(GAMES):
        seed = seed_from_int(1000 * players + g)
        states = game_states(ruleset, players, seed)
        for n, state in enumerate(states):
            seen[state.phase] += 1
            seen["effect"] += state.pending is not None
            for seat in range(players):
                rng = Rng(seed, f"sample/{n}/{seat}")
                seat_view = game.view(state, seat)
                made = bots.sample(seat_view, seat, rng)
                assert game.view(made, seat) == seat_view
                assert cards_of(made) == ALL  # every card in exactly one place
                assert made.frontier == frontier(made.garden)
                assert made.hands[seat] == state.hands[seat]
                assert [len(h) for h in made.hands] == [len(h) for h in state.hands]
                mine, real = game.legal_actions(made, seat), game.legal_actions(state, seat)
                assert len(mine) == len(real)
                assert all(mine[i] == real[i] for i in range(0, len(real), 1 + len(real) // 9))
                if state.phase == DEAL:  # nothing is dealt, so nothing is hidden
                    assert hash_data(made) == hash_data(state)
                if (n + seat) % 9 == 0:  # the sampled state plays on to an outcome
                    play_out(ruleset, made, rng.fork("play"))
                if (n + seat) % 4 == 0 and anything_hidden(state, seat):  # sampling re-deals
                    layouts = {hidden_layout(bots.sample(seat_view, seat, rng.fork(str(k))),
                                             seat) for k in range(8)}
                    assert len(layouts) > 1
    assert seen[DEAL] == GAMES and seen[OVER] == GAMES and seen["effect"], seen
    assert seen["final"] >= GAMES * players


def test_the_sample_comes_from_the_view_alone(standard: Ruleset) -> None:
    """Two real states a seat cannot tell apart give it the same samples."""
    _, state = dealt(standard, 3, b"alone")
    for seat in range(3):
        twin = sample(view(state, seat), seat, Rng(b"twin", str(seat)))
        assert hidden_layout(twin, seat) != hidden_layout(state, seat)
        one = sample(view(state, seat), seat, Rng(b"same"))
        other = sample(view(twin, seat), seat, Rng(b"same"))
        assert hash_data(one) == hash_data(other)
        # a fresh copy of the view (no memo) gives the same state again
        copy = dataclasses.replace(view(state, seat))
        assert hash_data(sample(copy, seat, Rng(b"same"))) == hash_data(one)


def test_every_unseen_card_can_be_anywhere_hidden(standard: Ruleset) -> None:
    """Over many samples, each unseen card turns up in the other hand and on the pile's top:
    the deal is over all of them, not a few."""
    _, state = dealt(standard, 2, b"spread")
    seen = view(state, 0)
    unseen = unseen_cards(seen)
    assert len(unseen) == 30
    in_hand: Counter[int] = Counter()
    on_top: Counter[int] = Counter()
    rng = Rng(b"spread")
    for _ in range(600):
        made = sample(seen, 0, rng)
        in_hand.update(made.hands[1])
        on_top[made.pile[-1]] += 1
    assert set(in_hand) == set(unseen) and set(on_top) == set(unseen)
    assert max(on_top.values()) < 3 * 600 / 30  # no card favoured grossly


def test_a_view_that_does_not_add_up_is_refused(standard: Ruleset) -> None:
    _, state = dealt(standard, 2, b"bad")
    seen = view(state, 0)
    with pytest.raises(ValueError, match="seat 0's view, not seat 1's"):
        sample(seen, 1, Rng(b"x"))
    for bad in (dataclasses.replace(seen, pile_count=seen.pile_count + 1),
                dataclasses.replace(seen, hand_sizes=(2, 3)),
                dataclasses.replace(seen, hand=(seen.hand[0],)),
                dataclasses.replace(seen, phase="halftime"),
                dataclasses.replace(seen, garden=(*seen.garden, seen.garden[0]))):
        with pytest.raises(ValueError):
            sample(bad, 0, Rng(b"x"))
    assert view(state, 0) == seen  # nothing changed


@pytest.mark.parametrize("variants", [(), ("harmony",)], ids=["standard", "harmony"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_score_is_the_outcomes_score_at_the_end(plugins: PluginHost, players: int,
                                                variants: tuple[str, ...]) -> None:
    ruleset = plugins.ruleset("petals", variants, players=players)
    game = ruleset.gamedef
    bots = ruleset.bots
    assert bots.score is not None
    for g in range(4):
        _, state = dealt(ruleset, players, seed_from_int(g))
        rng = Rng(seed_from_int(g), "moves")
        while game.active_seats(state):
            before = [bots.score(state, s) for s in range(players)]
            legal = game.legal_actions(state, state.active)
            after = game.apply(state, state.active, legal[rng.randbelow(len(legal))])
            assert isinstance(after, State)
            if after.phase != OVER:  # mid-game a score moves only with the trackers
                for s in range(players):
                    changed = after.trackers[s] != state.trackers[s]
                    assert changed or bots.score(after, s) == before[s]
            state = after
        outcome = game.outcome(state)
        assert outcome is not None
        assert tuple(bots.score(state, s) for s in range(players)) == outcome.scores


EX17 = ((12, 9, 7, 15), (10, 11, 9, 8), (6, 11, 4, 20))
EX18 = ((10, 10, 10, 10), (20, 2, 3, 25), (5, 12, 11, 3))
EX20 = ((10, 10, 10, 0), (11, 11, 11, 0))
EX21 = ((10, 12, 11, 13), (14, 12, 13, 11))


@pytest.mark.parametrize(("trackers", "standard_scores", "spreads"), [
    (EX17, (16, 17, 10), (8, 3, 16)),
    (EX18, (20, 5, 8), (0, 23, 9)),  # seat 0 keeps its points; eliminated is the ranking's
    (EX20, (10, 11), (10, 11)),
    (EX21, (21, 23), (3, 3)),
])
def test_score_on_the_winner_examples(board, plugins: PluginHost, trackers, standard_scores,
                                      spreads) -> None:
    players = len(trackers)
    standard = plugins.ruleset("petals", [], players=players).bots
    harmony = plugins.ruleset("petals", ["harmony"], players=players).bots
    for phase in (PLAY, OVER):  # mid-game or at the end, the figure of the trackers
        state = board({(0, 0): (1, 0)}, players=players)._replace(trackers=trackers,
                                                                  phase=phase)
        assert tuple(standard.score(state, s) for s in range(players)) == standard_scores
        assert tuple(harmony.score(state, s) for s in range(players)) == tuple(
            -s for s in spreads)


@pytest.mark.parametrize(("rot", "standard_score", "harmony_score"), [
    (2, 7, -3),  # Water +4: (5, 4, 3, 6) -> 3 + 4; spread 6 - 3
    (3, 9, -4),  # Water +7, Fire +1: (6, 7, 3, 6) -> 3 + 6; spread 7 - 3
])
def test_score_after_example_9(board, plugins: PluginHost, rot: int, standard_score: int,
                               harmony_score: int) -> None:
    rules = plugins.ruleset("petals", [], players=2).gamedef
    standard = plugins.ruleset("petals", [], players=2).bots
    harmony = plugins.ruleset("petals", ["harmony"], players=2).bots
    state = board({(0, 0): (1, 0), (1, 1): (9, 0), (2, 2): (13, 0)},
                  hands=((7, 20), (21, 22)))._replace(trackers=((5, 0, 3, 6), (0, 0, 0, 0)))
    assert standard.score(state, 0) == 3 and harmony.score(state, 0) == -6
    after = rules.apply(state, 0, Action.of("place", card=7, x=1, y=0, rot=rot))
    assert isinstance(after, State)
    assert standard.score(after, 0) == standard_score
    assert harmony.score(after, 0) == harmony_score
    assert standard.score(after, 1) == 0


def test_score_after_example_11_move(board, play, plugins: PluginHost) -> None:
    """Option (b) of example 11: moving #13 to (2,1) at r1 scores Earth +3 for seat 0."""
    standard = plugins.ruleset("petals", [], players=2).bots
    start = {(0, 0): (1, 0), (1, 1): (9, 0), (2, 2): (13, 0), (1, 0): (16, 1)}
    state = board(start, hands=((25, 20), (21, 22)))._replace(
        trackers=((4, 4, 1, 5), (0, 0, 0, 0)))
    waiting = play(state, 0, Action.of("place", card=25, x=2, y=0, rot=2))
    assert standard.score(waiting, 0) == 5  # nothing scored before the choice: 1 + 4
    moved = play(waiting, 0, Action.of("move", from_x=2, from_y=2, to_x=2, to_y=1, rot=1))
    assert moved.trackers[0] == (4, 4, 4, 5) and standard.score(moved, 0) == 8

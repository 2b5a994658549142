"""``evaluate``: the score now plus what the hands promise, judged as the table's result is.

* Once nothing is left to come (the game over) it is ``score`` exactly, in every variant.
* A card's gain is what the real scoring gives when the card joins the garden.
* Half-built positions from the worked examples (spec §13) rank as a player expects: a
  Sundial in hand is worth its 9 once a tree is planted; giving it to the opponent is worse
  than giving a card worth nothing to them, keeping it better; a partner should get it in
  the cooperative game; McGregor should not; the final round counts the three best cards.
* It is deterministic, and never raises on states sampled from any seat's view, inside a
  step or not, in any variant.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from hedgerow.core import GameDef, Rng
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.flourish.bots.evaluate import RANKED, SOLO, TEAM, WEIGHTS, Potential
from hedgerow.plugins.flourish.cards import IDS
from hedgerow.plugins.flourish.state import FINAL, OVER, Config, State

from .conftest import make_state, pair, ruleset

RUNS = [
    (1, ()),
    (1, ("compost",)),
    (2, ()),
    (2, ("cooperative",)),
    (3, ("garden-show",)),
    (4, ("compost", "cooperative")),
    (7, ("compost",)),
]
IDS_OF_RUNS = [f"{p}p-{'+'.join(v) or 'standard'}" for p, v in RUNS]

SUNDIAL, BENCH, MOSS_PATH, OAK, BEECH, MAPLE, WALL = 91, 93, 53, 43, 44, 45, 73


def _game(plugins: PluginHost, players: int, *variants: str) -> Ruleset:
    return ruleset(plugins, *variants, players=players)


def _evaluate(game: Ruleset) -> Potential:
    assert game.bots is not None and isinstance(game.bots.evaluate, Potential)
    return game.bots.evaluate


def _score(game: Ruleset, state: State, seat: int) -> float:
    assert game.bots is not None and game.bots.score is not None
    return game.bots.score(state, seat)


# -- nothing left to come ------------------------------------------------------------------


@pytest.mark.parametrize(("players", "variants"), RUNS, ids=IDS_OF_RUNS)
def test_evaluate_is_score_once_over_and_never_raises_on_samples(
        plugins: PluginHost, players: int, variants: tuple[str, ...]) -> None:
    game = _game(plugins, players, *variants)
    evaluate = _evaluate(game)
    assert game.bots is not None
    table = Table(ruleset(plugins, *variants, players=players), players, seed_from_int(11))
    rng = Rng(b"evaluate")
    steps = 0
    while table.active_seats():
        state = table.state
        choices = {}
        for s in table.active_seats():
            legal = game.gamedef.legal_actions(state, s)
            choices[s] = legal[rng.randbelow(len(legal))]
        positions = [state]
        if len(choices) > 1:  # inside the step: the first seat has chosen
            inside = game.gamedef.apply(state, min(choices), choices[min(choices)])
            assert isinstance(inside, State)
            positions.append(inside)
        for position in positions:  # every seat samples what it sees and judges it
            for seat in range(players):
                sampled = game.bots.sample(game.gamedef.view(position, seat), seat, rng)
                value = evaluate(sampled, seat)
                assert math.isfinite(value)
                assert value == evaluate(sampled, seat)  # asked again: the same
        table.submit_step(choices)
        steps += 1
    final = table.state
    assert final.turn == OVER and steps >= 10
    for seat in range(players):
        assert evaluate(final, seat) == _score(game, final, seat)


def test_evaluate_is_score_when_no_hand_holds_anything(plugins: PluginHost) -> None:
    game = _game(plugins, 3)
    state = make_state(Config(3), [[], [], []], [[MOSS_PATH, OAK], [1], [9]], turn=2)
    assert [_evaluate(game)(state, s) for s in range(3)] == [
        _score(game, state, s) for s in range(3)]


# -- a card's gain is the real scoring's --------------------------------------------------


def test_a_gain_is_what_the_scoring_gives_the_card(plugins: PluginHost) -> None:
    # F1 and F2's gardens after round 1 (round 1 scored): whatever card joins seat 0's
    # garden as the first card of round 2, its gain is the score's difference (its own
    # end-of-round ability, and every end-of-game ability of the garden, its own included)
    game = _game(plugins, 3)
    evaluate = _evaluate(game)
    gardens = [[MOSS_PATH, OAK, SUNDIAL], [17, 18, 21], [44, 1]]
    used = {c for g in gardens for c in g}
    state = make_state(Config(3), [[], [], []], gardens, turn=3)
    state = state._replace(points=((5, 0, 0, 0, 0),) + ((0,) * 5,) * 2)
    before = _score(game, state, 0)
    for card in IDS:
        if card in used:
            continue
        grown = state._replace(gardens=(state.gardens[0] + (card,), *state.gardens[1:]))
        assert evaluate.gain(state, 0, card) == _score(game, grown, 0) - before, card
        assert evaluate.gain(state, 0, card) >= 0


# -- half-built positions ------------------------------------------------------------------


def test_a_sundial_in_hand_is_worth_nine_once_a_tree_is_planted(plugins: PluginHost) -> None:
    # F1 half built: Moss Path and Oak planted, the Sundial (9 with a tree) still in hand.
    # Against a Beekeeper's Bench (9 with three hives: none) it is worth its 9 points, as
    # the card to be played next.
    game = _game(plugins, 3)
    evaluate = _evaluate(game)
    gardens = [[MOSS_PATH, OAK], [], []]
    rest = [2, 3, 4, 5, 6]
    with_sundial = make_state(Config(3), [[SUNDIAL, *rest], [], []], gardens, turn=2)
    with_bench = make_state(Config(3), [[BENCH, *rest], [], []], gardens, turn=2)
    assert _score(game, with_sundial, 0) == _score(game, with_bench, 0)
    assert evaluate(with_sundial, 0) > evaluate(with_bench, 0)
    alone = make_state(Config(3), [[SUNDIAL], [], []], gardens, turn=2)
    assert evaluate(alone, 0) == _score(game, alone, 0) + 9
    assert evaluate.kind(alone) == RANKED


def _two_player(plugins: PluginHost, opponent_holds: int, *variants: str,
                ) -> tuple[GameDef[Any, Any], State]:
    # F10's gardens: you {Moss Path, Oak}, your opponent {Beech, Maple} (two trees); the
    # opponent's other cards are worth nothing to them (an Apiary Sign without hives, a
    # Gazebo without every colour)
    game = _game(plugins, 2, *variants)
    state = make_state(Config(2), [[2, 3, 4], [opponent_holds, 94, 97]],
                       [[MOSS_PATH, OAK], [BEECH, MAPLE]], turn=2)
    return game, state


def test_a_card_held_by_the_opponent_counts_for_them(plugins: PluginHost) -> None:
    # two players: the opponent (two trees) holding a Sundial has 9 points to come; you
    # judge your seat lower by those 9 than when they hold a Bench worth nothing to them
    game, sundial = _two_player(plugins, SUNDIAL)
    _, bench = _two_player(plugins, BENCH)
    evaluate = _evaluate(game)
    assert _score(game, sundial, 0) == _score(game, bench, 0)
    assert evaluate(sundial, 0) == evaluate(bench, 0) - 9
    assert evaluate(sundial, 1) == evaluate(bench, 1) + 9


def test_give_the_card_worth_least_to_the_opponent_and_keep_the_best(
        plugins: PluginHost) -> None:
    # inside a step: you (a tree planted) plant a Wall and pass two cards.  Passing the
    # Sundial away (9 for you, 9 for them) judges 18 worse than passing the Bench (0 for
    # both); your other cards and the opponent's are worth nothing to either
    game = _game(plugins, 2)
    evaluate = _evaluate(game)
    state = make_state(Config(2), [[SUNDIAL, BENCH, 94, WALL, 97, 98], [95, 96]],
                       [[MOSS_PATH, OAK], [BEECH, MAPLE]], turn=2)
    give_sundial = game.gamedef.apply(state, 0, pair(WALL, SUNDIAL, 94))
    give_bench = game.gamedef.apply(state, 0, pair(WALL, BENCH, 94))
    assert isinstance(give_sundial, State) and isinstance(give_bench, State)
    assert evaluate(give_sundial, 0) == evaluate(give_bench, 0) - 18
    # with a real hand for the opponent and the step resolved the same way (the opponent
    # plays and passes the same cards, the same draws): still worse
    state = state._replace(hands=(state.hands[0], (4, 5, 6, 8, 95, 96)))
    reply = pair(4, 5, 6)
    after = []
    for given in (SUNDIAL, BENCH):
        inside = game.gamedef.apply(state, 0, pair(WALL, given, 94))
        assert isinstance(inside, State)
        resolved = game.gamedef.apply(inside, 1, reply)
        assert isinstance(resolved, State) and resolved.turn == 3 and not resolved.luck
        after.append(evaluate(resolved, 0))
    assert after[0] < after[1]


def test_in_the_cooperative_game_the_partner_should_get_it(plugins: PluginHost) -> None:
    game, sundial = _two_player(plugins, SUNDIAL, "cooperative")
    _, bench = _two_player(plugins, BENCH, "cooperative")
    evaluate = _evaluate(game)
    assert evaluate.kind(sundial) == TEAM
    assert evaluate(sundial, 0) == evaluate(bench, 0) + 9
    assert evaluate(sundial, 0) == evaluate(sundial, 1)  # one team, one judgement


def test_solo_mcgregor_should_not_get_it(plugins: PluginHost) -> None:
    # McGregor has two trees and plays the top card of his shuffled deck: a Sundial in his
    # deck of two (the other card an Apiary Sign, worth nothing) is half a Sundial per
    # card he plays, weighted as a seat's best cards are
    game = _game(plugins, 1)
    evaluate = _evaluate(game)
    gardens = [[MOSS_PATH, OAK], [BEECH, MAPLE]]
    sundial = make_state(Config(1, solo=True), [[2, 3, 4]], gardens, turn=2,
                         mcg=[SUNDIAL, 94])
    bench = make_state(Config(1, solo=True), [[2, 3, 4]], gardens, turn=2, mcg=[BENCH, 94])
    assert evaluate.kind(sundial) == SOLO
    assert _score(game, sundial, 0) == _score(game, bench, 0)
    assert evaluate(sundial, 0) == evaluate(bench, 0) - 9 / 2 * sum(WEIGHTS)


def test_the_final_round_counts_the_three_best_cards(plugins: PluginHost) -> None:
    # round 4: nine cards planted, five in hand, three to play: the three best gains count
    # in full, the two others (discarded) not at all
    game = _game(plugins, 3)
    evaluate = _evaluate(game)
    garden = [MOSS_PATH, OAK, WALL, 74, 1, 9, 17, 25, 33]
    hand = [SUNDIAL, 92, 75, BENCH, 94]
    state = make_state(Config(3), [hand, [], []], [garden, [], []], turn=FINAL)
    gains = [evaluate.gain(state, 0, c) for c in hand]
    # Sundial and Tree Swing 9 each (a tree); the third wall 3 x 3 and 3 more for each of
    # the two walls planted; no hives for the Bench or the Apiary Sign
    assert gains == [9, 9, 15, 0, 0]
    assert evaluate(state, 0) == _score(game, state, 0) + 9 + 9 + 15


def test_deterministic_and_the_memory_changes_nothing(plugins: PluginHost) -> None:
    game, state = _two_player(plugins, SUNDIAL)
    first = [_evaluate(game)(state, s) for s in range(2)]
    _evaluate(game).forget()
    again = [_evaluate(game)(state, s) for s in range(2)]
    other = _game(plugins, 2)  # a table of its own
    assert first == again == [_evaluate(other)(state, s) for s in range(2)]

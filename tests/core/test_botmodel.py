"""`BotModel`: sampled states only, chance settled at random, rewards from every outcome."""

from __future__ import annotations

import dataclasses

import pytest
from toygames import PLUGINS

from hedgerow.core.botmodel import BotModel, BotModelError, estimate, rewards
from hedgerow.core.outcome import Cooperative, Match, Ranked, Solo
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.rng import Rng
from hedgerow.core.table import Table


@pytest.fixture(scope="module")
def plugins() -> PluginHost:
    return PluginHost(autoload=False, extra=PLUGINS)


def test_a_sampled_state_agrees_with_the_view_and_plays_to_the_end(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("tokens", players=2)
    table = Table(ruleset, 2, b"model")
    (seat,) = table.active_seats()
    model = BotModel(ruleset.gamedef, ruleset.bots, seat, 2)
    assert model.can_sample and model.has_score
    view = table.view(seat)
    rng = Rng(b"bot")
    state = model.sample(view, rng)
    assert model.view(state, seat) == view
    assert model.active_seats(state) == (seat,)
    while model.active_seats(state):
        (who,) = model.active_seats(state)
        legal = model.legal_actions(state, who)
        after = model.apply(state, who, legal[0])
        assert not isinstance(after, type(None))
        assert model.chance_pending(after) or model.outcome(after) is not None \
            or model.active_seats(after)
        state = model.step(state, who, legal[0], rng)  # chance settled at random
        assert not model.chance_pending(state)
    outcome = model.outcome(state)
    assert outcome is not None
    assert model.rewards(outcome) == rewards(outcome, 2)
    assert model.score(state, 0) == float(outcome.scores[0])


def test_an_illegal_action_is_the_bots_error(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("tokens", players=2)
    table = Table(ruleset, 2, b"model")
    (seat,) = table.active_seats()
    model = BotModel(ruleset.gamedef, ruleset.bots, seat, 2)
    state = model.sample(table.view(seat), Rng(b"bot"))
    from hedgerow.core import Action

    refused = model.apply(state, seat, Action.of("play", card="nope"))
    assert refused.__class__.__name__ == "Refusal"
    with pytest.raises(BotModelError, match="cannot play"):
        model.step(state, seat, Action.of("play", card="nope"), Rng(b"bot"))


def test_without_a_sampler_or_a_score_the_model_says_so(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("relay", players=2)
    table = Table(ruleset, 2, b"model")
    assert ruleset.bots is None
    model = BotModel(ruleset.gamedef, None, 0, 2)
    assert not model.can_sample and not model.has_score
    assert model.lookahead == 1 and model.for_themselves is False
    with pytest.raises(BotModelError, match="cannot sample"):
        model.sample(table.view(0), Rng(b"x"))


def test_rewards_for_every_outcome_kind() -> None:
    ranked = Ranked((10, 7, 10), (1, 3, 1), (0, 2), "tie")
    assert rewards(ranked, 3) == (0.5, 0.0, 0.5)
    assert rewards(Match((ranked,), ((10, 7, 10),), ranked), 3) == (0.5, 0.0, 0.5)
    won = Cooperative((5, 5), 10, True, "Gold", "", (("Bronze", 8),))
    assert rewards(won, 2) == (1.0, 1.0)
    lost = Cooperative((2, 2), 4, False, "", "", (("Bronze", 8),))
    assert rewards(lost, 2) == (0.25, 0.25)
    assert rewards(Solo(3, "", "", won=False), 1) == (0.0,)
    graded = rewards(Solo(20, "Master", ""), 1)[0]
    assert 0.5 < graded < 1.0


def test_estimate_ranks_by_lead_and_keeps_a_gradient() -> None:
    ahead, behind = estimate((30.0, 20.0))
    assert ahead > 0.5 > behind
    far, farther = estimate((-10.0, 5.0))[0], estimate((-12.0, 5.0))[0]
    assert far > farther  # far behind, losing less still counts
    assert estimate((4.0, 4.0)) == estimate((4.0, 4.0))


def test_judge_prefers_the_games_evaluate(plugins: PluginHost) -> None:
    from dataclasses import replace

    ruleset = plugins.ruleset("tokens", players=2)
    table = Table(ruleset, 2, b"judge")
    (seat,) = table.active_seats()
    plain = BotModel(ruleset.gamedef, ruleset.bots, seat, 2)
    state = plain.sample(table.view(seat), Rng(b"j"))
    assert plain.judge(state, seat) == plain.score(state, seat) == 0.0
    judged = BotModel(ruleset.gamedef, replace(ruleset.bots, evaluate=lambda s, who: 40.0 + who),
                      seat, 2)
    state = judged.sample(table.view(seat), Rng(b"j"))
    assert judged.judge(state, 1) == 41.0 and judged.score(state, 1) == 0.0
    assert judged.estimate(state)[1] > 0.5 > judged.estimate(state)[0]


@pytest.mark.parametrize("lookahead", [0, -1, 1.5, True])
def test_a_game_lookahead_must_be_a_whole_number_of_turns(plugins: PluginHost,
                                                         lookahead: object) -> None:
    bots = plugins.ruleset("tokens", players=2).bots
    with pytest.raises(ValueError, match="lookahead must be a whole number of turns"):
        dataclasses.replace(bots, lookahead=lookahead)


def test_a_game_gives_evaluate_each_only_with_evaluate(plugins: PluginHost) -> None:
    bots = plugins.ruleset("tokens", players=2).bots
    assert bots is not None and bots.evaluate is None
    with pytest.raises(ValueError, match="evaluate_each needs evaluate"):
        dataclasses.replace(bots, evaluate_each=lambda s, seat, actions: [None])


def test_the_model_tells_a_bot_the_games_lookahead(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("tokens", players=2)
    rules, bots = ruleset.gamedef, ruleset.bots
    assert BotModel(rules, bots, 0, 2).lookahead == 1
    assert BotModel(rules, dataclasses.replace(bots, lookahead=2), 0, 2).lookahead == 2


def test_the_model_tells_a_bot_whether_the_others_play_for_themselves(
        plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("tokens", players=2)
    rules, bots = ruleset.gamedef, ruleset.bots
    assert BotModel(rules, bots, 0, 2).for_themselves is False
    assert BotModel(rules, dataclasses.replace(bots, for_themselves=True), 0, 2).for_themselves
    flowers = plugins.ruleset("flowers", players=2).bots
    assert flowers is not None and flowers.for_themselves
    with pytest.raises(ValueError, match="for_themselves must be True or False"):
        dataclasses.replace(bots, for_themselves=1)


def test_judge_each_is_judge_after_each_action_with_the_same_draws(plugins: PluginHost) -> None:
    """Through the game's ``evaluate_each`` where it answers, stepping the rest: the same
    figures, and the bot's stream draws what stepping every action would have drawn."""
    ruleset = plugins.ruleset("tokens", players=2)
    game, bots = ruleset.gamedef, ruleset.bots
    assert bots is not None and bots.score is not None
    score = bots.score

    def evaluate(state: object, seat: int) -> float:
        return float(score(state, seat)) + 0.5

    def each(state: object, seat: int, actions: list) -> list[float | None]:
        out: list[float | None] = []
        for i, action in enumerate(actions):
            after = game.apply(state, seat, action)
            answered = i % 2 == 0 and game.pending_chance(after) is None
            out.append(evaluate(after, seat) if answered else None)
        return out

    table = Table(ruleset, 2, b"model")
    (seat,) = table.active_seats()
    figures, draws = [], []
    for support in (dataclasses.replace(bots, evaluate=evaluate),
                    dataclasses.replace(bots, evaluate=evaluate, evaluate_each=each)):
        model = BotModel(game, support, seat, 2)
        rng = Rng(b"bot")
        state = model.sample(table.view(seat), rng)
        legal = list(model.legal_actions(state, seat))
        assert len(legal) > 2
        figures.append(model.judge_each(state, seat, legal, rng))
        draws.append(rng.randbelow(1 << 30))
    model = BotModel(game, bots, seat, 2)
    rng = Rng(b"bot")
    state = model.sample(table.view(seat), rng)
    stepped = [evaluate(model.step(state, seat, a, rng)._state, seat)
               for a in model.legal_actions(state, seat)]
    assert figures[0] == figures[1] == stepped
    assert draws[0] == draws[1] == rng.randbelow(1 << 30)

    short = dataclasses.replace(bots, evaluate=evaluate,
                                evaluate_each=lambda s, seat, actions: [None])
    model = BotModel(game, short, seat, 2)
    state = model.sample(table.view(seat), Rng(b"bot"))
    with pytest.raises(BotModelError, match="evaluate_each gave 1 figures"):
        model.judge_each(state, seat, list(model.legal_actions(state, seat)), Rng(b"bot"))


def test_a_search_weighs_the_seats_prospects_where_the_game_gives_them(
        plugins: PluginHost) -> None:
    """`judges` and `estimate` read ``prospects`` (each seat's outlook without a term for the
    others', which their own figures hold); `judge`, for a bot that sees one figure, keeps
    ``evaluate``."""
    ruleset = plugins.ruleset("tokens", players=2)
    table = Table(ruleset, 2, b"prospects")
    (seat,) = table.active_seats()
    bots = dataclasses.replace(ruleset.bots, evaluate=lambda s, who: 10.0 - 3 * who,
                               prospects=lambda s, who: 10.0 + who)
    model = BotModel(ruleset.gamedef, bots, seat, 2)
    state = model.sample(table.view(seat), Rng(b"p"))
    assert model.judges(state) == (10.0, 11.0)
    assert (model.judge(state, 0), model.judge(state, 1)) == (10.0, 7.0)
    assert model.estimate(state)[1] > 0.5 > model.estimate(state)[0]
    plain = BotModel(ruleset.gamedef, dataclasses.replace(bots, prospects=None), seat, 2)
    assert plain.judges(state) == (10.0, 7.0)
    with pytest.raises(ValueError, match="prospects needs evaluate"):
        dataclasses.replace(ruleset.bots, prospects=lambda s, who: 0.0)


def test_the_model_tells_a_bot_whether_the_seat_to_move_has_an_edge(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("tokens", players=2)
    rules, bots = ruleset.gamedef, ruleset.bots
    assert BotModel(rules, bots, 0, 2).tempo is False
    assert BotModel(rules, dataclasses.replace(bots, tempo=True), 0, 2).tempo
    assert BotModel(rules, None, 0, 2).tempo is False
    mandala = plugins.ruleset("mandala", players=2).bots
    assert mandala is not None and mandala.tempo and mandala.prospects is not None
    with pytest.raises(ValueError, match="tempo must be True or False"):
        dataclasses.replace(bots, tempo=1)

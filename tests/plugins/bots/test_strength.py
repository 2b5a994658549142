"""What ``greedy`` and ``ismcts`` promise: they play better than ``random``, they are
deterministic for a seed (ismcts with an iteration budget), they keep to their budgets, and
they fall back to uniform play where a game offers them nothing to think with."""

from __future__ import annotations

import pytest
from toygames import PLUGINS

from hedgerow.core.botchoice import resolve
from hedgerow.core.playout import make_bot, play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Table
from hedgerow.plugins.bots.ismcts import IsmctsBot


@pytest.fixture(scope="module")
def plugins() -> PluginHost:
    return PluginHost(autoload=False, extra=PLUGINS)


def _match(plugins: PluginHost, game: str, mine: str, other: str, games: int) -> float:
    """Games won by ``mine`` (half for a shared win), seats alternating."""
    ruleset = plugins.ruleset(game, players=2)
    a, b = resolve(plugins, mine, game), resolve(plugins, other, game)
    won = 0.0
    for number in range(games):
        seat = number % 2
        table = play(ruleset, 2, f"match/{number}".encode(), [a, b] if seat == 0 else [b, a])
        outcome = table.outcome()
        assert outcome is not None
        if seat in outcome.winners:
            won += 1 / len(outcome.winners)
    return won


def test_greedy_beats_random_clearly(plugins: PluginHost) -> None:
    # random against random wins about half; greedy plays its best card every turn
    assert _match(plugins, "tokens", "greedy", "random", 60) >= 40


def test_ismcts_beats_random_in_a_simultaneous_game(plugins: PluginHost) -> None:
    assert _match(plugins, "duel", "ismcts:60", "random", 12) >= 10


def test_ismcts_finds_the_best_card_behind_hidden_cards_and_chance(plugins: PluginHost) -> None:
    # In tokens the best play is always the highest card in hand (the rest of the hand never
    # scores, draws are luck): a search through sampled hands and chance draws must find it.
    ruleset = plugins.ruleset("tokens", players=2)
    rules = ruleset.gamedef
    spec = resolve(plugins, "ismcts:40", "tokens")
    best = decisions = 0
    for number in range(6):
        table = Table(ruleset, 2, f"best/{number}".encode())
        while table.active_seats():
            (seat,) = table.active_seats()
            legal = rules.legal_actions(table.state, seat)
            bot = make_bot(ruleset, 2, f"best/{number}/{table.index}".encode(), spec, seat)
            action = bot.choose(table.view(seat), legal)
            hand = dict(table.view(seat).hand)
            best += hand[action["card"]] == max(hand.values())
            decisions += 1
            assert table.play(seat, action) is None
    assert decisions == 48 and best >= 44


def _log(ruleset: Ruleset, seed: bytes, specs: list) -> list:
    return [(e.seat, e.action) for e in play(ruleset, 2, seed, specs).entries]


@pytest.mark.parametrize("bot", ["greedy", "ismcts:40"])
def test_same_seed_same_game(plugins: PluginHost, bot: str) -> None:
    ruleset = plugins.ruleset("tokens", players=2)
    specs = [resolve(plugins, bot, "tokens"), resolve(plugins, "random", "tokens")]
    first = _log(ruleset, b"again", specs)
    assert first == _log(ruleset, b"again", specs)
    assert first != _log(ruleset, b"other", specs)


def test_ismcts_keeps_to_its_budgets(plugins: PluginHost) -> None:
    ruleset = plugins.ruleset("tokens", players=2)
    table = Table(ruleset, 2, b"budget")
    (seat,) = table.active_seats()
    legal = ruleset.gamedef.legal_actions(table.state, seat)
    counted = make_bot(ruleset, 2, b"budget", resolve(plugins, "ismcts:37", "tokens"), seat)
    assert isinstance(counted, IsmctsBot)
    assert counted.choose(table.view(seat), legal) in legal
    assert counted.last_iterations == 37
    timed = make_bot(ruleset, 2, b"budget", resolve(plugins, "ismcts:20ms", "tokens"), seat)
    assert isinstance(timed, IsmctsBot)
    assert timed.choose(table.view(seat), legal) in legal
    assert timed.last_iterations >= 1
    small = make_bot(ruleset, 2, b"budget", resolve(plugins, "ismcts:300,nodes=12", "tokens"),
                     seat)
    assert isinstance(small, IsmctsBot)
    small.choose(table.view(seat), legal)
    assert small._nodes <= 12 and small._cached <= 3  # the memory bound holds


@pytest.mark.parametrize("bot", ["greedy", "ismcts:20"])
def test_without_a_sampler_a_bot_plays_like_random(plugins: PluginHost, bot: str) -> None:
    # relay offers no bot support: nothing to think with, so the bot picks uniformly, with
    # the random bot's very stream
    ruleset = plugins.ruleset("relay", players=3)
    assert ruleset.bots is None
    thinking = _log3(ruleset, resolve(plugins, bot, "relay"))
    assert thinking == _log3(ruleset, resolve(plugins, "random", "relay"))


def _log3(ruleset: Ruleset, spec) -> list:
    return [(e.seat, e.action) for e in play(ruleset, 3, b"relay", [spec]).entries]


def test_ismcts_without_time_to_search_plays_greedy_s_choice(plugins: PluginHost) -> None:
    # Before its first iteration the search ranks the root actions by their one-ply value,
    # as greedy does; with one iteration (or none that changes its mind) it keeps that
    # choice: in tokens the highest card in hand, at every decision.
    ruleset = plugins.ruleset("tokens", players=2)
    rules = ruleset.gamedef
    spec = resolve(plugins, "ismcts:1", "tokens")
    best = decisions = 0
    for number in range(6):
        table = Table(ruleset, 2, f"tiny/{number}".encode())
        while table.active_seats():
            (seat,) = table.active_seats()
            legal = rules.legal_actions(table.state, seat)
            bot = make_bot(ruleset, 2, f"tiny/{number}/{table.index}".encode(), spec, seat)
            action = bot.choose(table.view(seat), legal)
            hand = dict(table.view(seat).hand)
            best += hand[action["card"]] == max(hand.values())
            decisions += 1
            assert table.play(seat, action) is None
    assert decisions == 48 and best == 48


def test_ismcts_top_keeps_the_best_candidates_only(plugins: PluginHost) -> None:
    # top=1 searches the one best action by its one-ply value: greedy's choice, whatever
    # the budget
    ruleset = plugins.ruleset("tokens", players=2)
    rules = ruleset.gamedef
    table = Table(ruleset, 2, b"top")
    (seat,) = table.active_seats()
    legal = rules.legal_actions(table.state, seat)
    bot = make_bot(ruleset, 2, b"top", resolve(plugins, "ismcts:50,top=1", "tokens"), seat)
    action = bot.choose(table.view(seat), legal)
    hand = dict(table.view(seat).hand)
    assert hand[action["card"]] == max(hand.values())
    assert isinstance(bot, IsmctsBot) and bot.last_iterations == 50


@pytest.mark.parametrize("params", ["40,top=2", "40,bias=0", "40,parity=0", "40,samples=0",
                                    "40,turns=0", "40,order=0"])
def test_ismcts_variants_are_deterministic(plugins: PluginHost, params: str) -> None:
    ruleset = plugins.ruleset("tokens", players=2)
    specs = [resolve(plugins, f"ismcts:{params}", "tokens"), resolve(plugins, "random", "tokens")]
    assert _log(ruleset, b"variant", specs) == _log(ruleset, b"variant", specs)

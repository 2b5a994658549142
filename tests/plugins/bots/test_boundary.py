"""The information boundary: a bot, whatever it does with what it is handed, cannot reach a
card hidden from its seat.

The toy game ``tokens`` gives every card a unique token dealt by chance, so "can the bot
find another seat's hidden card" is "is one of those tokens among the strings reachable
from what the bot holds" (its view, its legal actions, its context with its `BotModel`,
and the bot object itself).  The control test shows the walk finds them in a state.
"""

from __future__ import annotations

import pytest
from toygames import PLUGINS, hidden_tokens, reachable_strings

from hedgerow.core.botchoice import resolve
from hedgerow.core.botmodel import BotModel, Sampled
from hedgerow.core.playout import make_bots
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.table import Table


@pytest.fixture(scope="module")
def host() -> PluginHost:
    return PluginHost(autoload=False, extra=PLUGINS)


def test_the_walk_finds_hidden_tokens_in_a_state(host: PluginHost) -> None:
    ruleset = host.ruleset("tokens", players=3)
    table = Table(ruleset, 3, b"control")
    seat = table.active_seats()[0]
    hidden = hidden_tokens(table.state, seat)
    assert len(hidden) == 6
    assert hidden <= reachable_strings(table.state)
    assert not hidden & reachable_strings(table.view(seat))


@pytest.mark.parametrize("bot", ["random", "greedy", "ismcts:30"])
def test_no_bot_can_reach_another_seats_hidden_card(host: PluginHost, bot: str) -> None:
    ruleset = host.ruleset("tokens", players=3)
    seed = f"boundary-{bot}".encode()
    table = Table(ruleset, 3, seed)
    bots = make_bots(ruleset, 3, seed, [resolve(host, bot, "tokens")])
    rules = ruleset.gamedef
    decisions = 0
    while table.active_seats():
        (seat,) = table.active_seats()
        view, legal = table.view(seat), rules.legal_actions(table.state, seat)
        hidden = hidden_tokens(table.state, seat)
        assert hidden  # there is always something to hide until the last turn
        assert not hidden & reachable_strings(view, legal, bots[seat]), "a hidden card leaked"
        # nor the table seed, from which every card can be computed
        assert seed not in reachable_strings(view, legal, bots[seat], kind=bytes)
        assert table.play(seat, bots[seat].choose(view, legal)) is None
        # ... and nothing the bot kept from its thinking holds one either
        assert not hidden & reachable_strings(bots[seat])
        decisions += 1
        if decisions == 6:
            break


def test_a_bot_cannot_make_a_sampled_state_from_a_real_one(host: PluginHost) -> None:
    ruleset = host.ruleset("tokens", players=2)
    table = Table(ruleset, 2, b"forge")
    with pytest.raises(TypeError, match=r"BotModel\.sample"):
        Sampled(table.state)
    model = BotModel(ruleset.gamedef, ruleset.bots, 0, 2)
    with pytest.raises(AttributeError):
        model.active_seats(table.state)  # type: ignore[arg-type]
    assert "_state" not in dir(model) and not hasattr(model, "gamedef")

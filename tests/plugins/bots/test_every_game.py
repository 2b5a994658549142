"""Every bot plays only legal actions in every installed game and variant.

Parametrised over what ``hedgerow games`` lists (the built-in plugins): each game alone at
2 players (1 for a solo-only variant), and each variant alone at a player count it allows.
Tiny budgets and one seeded game each keep it to seconds; a bot that chose an action not in
its legal list fails at once, naming the game and the action.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest

from hedgerow.core import Action, BotContext, BotSpec
from hedgerow.core.botchoice import resolve
from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost

HOST = PluginHost(autoload=False)
BOTS = ("random", "greedy", "ismcts:6,samples=2")


def _tables() -> list[tuple[str, tuple[str, ...], int]]:
    out = []
    for game in sorted(HOST.games):
        spec = HOST.game(game)
        out.append((game, (), max(2, spec.min_players)))
        for variant in HOST.variants_of(game):
            low = variant.players[0] if variant.players else spec.min_players
            out.append((game, (variant.name,), max(low, min(2, spec.max_players))
                        if not variant.players or variant.players[1] >= 2 else low))
    return out


class Checked:
    """A bot that asserts its inner bot's choice is one of the legal actions."""

    def __init__(self, inner: Any, where: str) -> None:
        self.inner = inner
        self.where = where

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        action = self.inner.choose(view, legal)
        assert action in legal, f"{self.where}: {action} is not legal"
        return action


@pytest.mark.parametrize("bot", BOTS)
@pytest.mark.parametrize(("game", "variants", "players"), _tables(),
                         ids=lambda v: "+".join(v) if isinstance(v, tuple) else str(v))
def test_bot_plays_only_legal_actions(bot: str, game: str, variants: tuple[str, ...],
                                      players: int) -> None:
    ruleset = HOST.ruleset(game, variants, players=players)
    inner = resolve(HOST, bot, game)
    where = f"{bot} at {ruleset.fingerprint}"

    def make(ctx: BotContext) -> Checked:
        return Checked(inner.make(ctx), where)

    checked = BotSpec(inner.name, inner.version, make, params=inner.params)
    others = resolve(HOST, "random", game)  # the bot under test in seat 0, random elsewhere
    table = play(ruleset, players, f"legal/{bot}/{game}".encode(), [checked, others])
    assert table.outcome() is not None

"""A bot that thinks never blocks the loop it plays on (the screen at a local table)."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from typing import Any

from toygames import PLUGINS

from hedgerow.clients.app.local import LocalSeat
from hedgerow.core import Action, BotContext, BotSpec
from hedgerow.core.pluginhost import PluginHost


class SlowBot:
    """Thinks until the test, running on the loop, answers (or 10 s pass)."""

    started = threading.Event()
    answered = threading.Event()
    answered_in_time: list[bool] = []

    def __init__(self, ctx: BotContext) -> None:
        pass

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        SlowBot.started.set()
        SlowBot.answered_in_time.append(SlowBot.answered.wait(10.0))
        return legal[0]


def test_the_loop_runs_while_a_local_bot_thinks() -> None:
    plugins = PluginHost(autoload=False, extra=PLUGINS)
    ruleset = plugins.ruleset("tokens", players=2)
    spec = BotSpec("slow", "1.0.0", SlowBot)

    async def scenario() -> None:
        seat = LocalSeat(ruleset, 2, b"thinking", bots=[spec])
        moved = asyncio.Event()
        seat.subscribe(moved.set)
        try:
            assert await seat.submit(seat.legal_actions()[0]) is None  # seat 0 plays first
            # the bot at seat 1 starts thinking; the loop must still run to answer it
            assert await asyncio.to_thread(SlowBot.started.wait, 10.0)
            SlowBot.answered.set()
            while len(seat.history()) < 4:  # the deal, our play, our draw, the bot's play
                moved.clear()
                await asyncio.wait_for(moved.wait(), 10.0)
        finally:
            await seat.close()

    asyncio.run(scenario())
    assert SlowBot.answered_in_time == [True]

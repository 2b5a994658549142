"""A bot's give-up is for headless tables: it waits for a connected person however long.

Real peers in one process over CURVE sockets on 127.0.0.1 (the toy game posy).  The give-up
is made short; the person "thinks" for several times as long (a person's pace, not a wait
for an event), then plays on, and the bot is still there.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Awaitable
from typing import Any

import toygames

from hedgerow.clients.botrunner import person_alive, play_bot
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.keys import generate
from hedgerow.net.launch import host_table, join_table
from hedgerow.net.peer import Peer
from hedgerow.net.seat import Link, Phase

WAIT = 20.0
GIVE_UP = 0.2
THINK = 1.5  # several give-ups long


def plugins() -> PluginHost:
    """The toy games and the random bot."""
    return PluginHost(builtins=(("random-bot", "hedgerow.plugins.bots.random_bot"),),
                      autoload=False, extra=tuple(toygames.PLUGINS))


def run(coro: Awaitable[Any]) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, WAIT * 3)
    return asyncio.run(bounded())


async def seated(host_bot: str | None) -> list[Peer]:
    """A posy table: the host (a person, or a bot seat) and a joining bot seat, playing."""
    ruleset = plugins().ruleset("posy", (), 2)
    host = await host_table(ruleset, 2, identity=generate(), seat_name="ann", bot=host_bot,
                            announce=False)
    joiner = await join_table(host.address, identity=generate(), plugins=plugins(),
                              seat_name="bot", bot="random")
    peers = [host, joiner]
    for peer in peers:
        assert await peer.wait_until(lambda p=peer: p.phase() == Phase.PLAYING, WAIT)
    return peers


def test_a_bot_waits_for_a_person_who_thinks_longer_than_its_give_up() -> None:
    async def main() -> None:
        person, bot_peer = await seated(None)
        try:
            assert person_alive(bot_peer) and not person_alive(person)
            bot = asyncio.create_task(play_bot(bot_peer, plugins().bot("random"),
                                               give_up=GIVE_UP))
            choose = random.Random(1)
            while person.phase() == Phase.PLAYING:
                legal = person.legal_actions()
                if not legal:
                    await asyncio.wait_for(person.changed(), WAIT)
                    continue
                await asyncio.sleep(THINK if person.index < 3 else 0)  # reading the rules
                assert not bot.done() and not bot_peer.closed
                assert await person.submit(choose.choice(list(legal))) is None
            assert person.phase() == Phase.FINISHED
            assert await asyncio.wait_for(bot, WAIT) == 0
        finally:
            for peer in (person, bot_peer):
                with contextlib.suppress(Exception):
                    await peer.close()

    run(main())


def test_at_a_headless_table_the_bot_gives_up_and_says_so() -> None:
    async def main() -> None:
        host, bot_peer = await seated("random")  # a bot seat that never plays
        try:
            assert not person_alive(bot_peer)
            code = await play_bot(bot_peer, None, give_up=GIVE_UP)
            assert code == 1 and bot_peer.closed
            assert await host.wait_until(lambda: host.seats()[1].link == Link.LEFT, WAIT)
            assert host.seats()[1].left_why == "gave_up"
        finally:
            for peer in (host, bot_peer):
                with contextlib.suppress(Exception):
                    await peer.close()

    run(main())

"""Faults a table survives, in one process over real CURVE sockets (toy games, fast).

The multi-process versions (real SIGKILLs, a stranger's flood) are in
tests/e2e/test_net_faults.py.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import goofspiel
import pytest
import toygames

from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.keys import generate
from hedgerow.net.launch import host_table, join_table
from hedgerow.net.messages import ErrorCode
from hedgerow.net.peer import JoinRefused, Peer

WAIT = 20.0
RANDOM_BOT = (("random-bot", "hedgerow.plugins.bots.random_bot"),)


def plugins() -> PluginHost:
    return PluginHost(builtins=RANDOM_BOT, autoload=False,
                      extra=(*toygames.PLUGINS, goofspiel))


def run(coro: Awaitable[Any]) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, WAIT * 3)

    return asyncio.run(bounded())


async def close_all(peers: list[Peer]) -> None:
    for peer in peers:
        await peer.close()


def test_a_hello_with_the_hosts_own_key_is_refused_saying_so() -> None:
    async def main() -> None:
        me = generate()
        host = await host_table(plugins().ruleset("posy", (), 2), 2, identity=me,
                                seat_name="ann", announce=False)
        try:
            with pytest.raises(JoinRefused, match=r"this table's own identity .*--as NAME"):
                await join_table(host.address, identity=me, plugins=plugins(), timeout=5)
            assert host.refusals[-1].code == ErrorCode.STRANGER
            assert [m.seat for m in host.members()] == [0]  # nothing changed at the table
        finally:
            await host.close()

    run(main())

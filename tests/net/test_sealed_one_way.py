"""A link that fails one way only, at a sealed table: the messages lost on it come back.

Three real peers over CURVE on 127.0.0.1, in one process, a sealed Flourish table (its
steps are simultaneous, and its resting points open cards to all) played by random bots.
Mid-game one peer stops hearing the others (``in``), or the others stop hearing it
(``out``), for two seconds; neither side of a one-way failure can see from its own
messages that they were lost.  What must bring them back (docs/protocol.md §10.8):

* ``in``: the cut peer waits for the keys of its own new cards, which the others sent once
  and have no reason to send again; its `Heartbeat` says it waits (``waiting``), and they
  send it again what they made.
* ``out``: the cut peer finished a step the others lack its choice of, and it cannot serve
  the step's entries by catch-up (they are not sealed: their resting point waits for the
  others' keys, which they send only once they have applied the step).  Their heartbeats
  say they stay behind it, and it sends its commitment and reveal again.

Before these rules both tables stood still until the bots gave up.  The cut is the peer
dropping what it would hear (or send): `cut`.
"""

from __future__ import annotations

import asyncio

import pytest
from departing import close_all, fast, sealed_table

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.peer import Peer
from hedgerow.net.seat import Phase

WAIT = 120.0


def cut(peer: Peer, way: str) -> list[bool]:
    """Cut ``peer``'s hearing (``in``) or speaking (``out``) until the flag is cleared."""
    on = [True]
    if way == "in":
        accept = peer._accept
        peer._accept = lambda rx, env: None if on[0] else accept(rx, env)  # type: ignore
    else:
        send, reply = peer.ctx.node.send, peer.ctx.node.reply
        peer.ctx.node.send = lambda key, data: False if on[0] else send(key, data)  # type: ignore
        peer.ctx.node.reply = (  # type: ignore
            lambda route, data: False if on[0] else reply(route, data))
    return on


@pytest.mark.parametrize("way, at", [("in", 3), ("in", 9), ("out", 3), ("out", 9)])
def test_a_sealed_table_finishes_across_a_one_way_cut(way: str, at: int) -> None:
    async def main() -> None:
        peers = await sealed_table("flourish", (), 3)
        fast(peers)
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
            spec = PluginHost().bot("random")
            bots = [asyncio.ensure_future(play_bot(p, spec, delay=0.05)) for p in peers]
            victim = peers[2]
            assert await victim.wait_until(lambda: victim.index >= at, WAIT)
            link = cut(victim, way)
            await asyncio.sleep(2.0)
            link[0] = False
            codes = await asyncio.wait_for(asyncio.gather(*bots), WAIT)
            assert codes == [0, 0, 0], [p.problem() for p in peers]
            assert all(p.phase() == Phase.FINISHED for p in peers)
            assert len({p.state_hash() for p in peers}) == 1
            assert {p.verdict() for p in peers} == {"every shuffle, key and action checks out"}
        finally:
            await close_all(peers)

    asyncio.run(asyncio.wait_for(main(), 2 * WAIT))

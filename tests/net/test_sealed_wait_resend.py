"""An own action that waits for a public reveal round, lost on its way, is sent again
(docs/protocol.md §10.8).

At a sealed table an action whose rules read a card nobody was shown (a Mandala claim reads
the hidden tiles) is sent at once but applied only once every party's key to that card is
in (§10.6): its author's table stays at the action's index.  If the action is lost on a
cut link, the other peer never learns that it must send its key, and its heartbeat says it
stands at that very index, the author's table's end: a rule that sent our messages again
only to a peer behind our table's end never sent it again, and both peers waited for good
(tests/reliability/test_chaos.py, mandala-cuts, stalled so about once in 30 runs).  Two
peers in one process over real CURVE sockets (tests/departing.py); the first such action
of either seat is dropped on its way out, and the game is played a few entries past it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from departing import WAIT, close_all, fast, run, sealed_table, stop_bots

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.sealedtable import Waiting
from hedgerow.net.messages import ActionMsg
from hedgerow.net.peer import Peer


def lose_first_waiting_action(peer: Peer, lost: list[ActionMsg]) -> None:
    """Drop the first action of ``peer``'s seat that waits for cards (once, for the table)."""
    table = peer.ctx.table
    assert table is not None
    submit, broadcast = table.submit, peer.ctx.broadcast
    waited = [False]

    def submitted(*args: Any, **kwargs: Any) -> Any:
        result = submit(*args, **kwargs)
        waited[0] = isinstance(result, Waiting)
        return result

    def lossy(body: Any) -> None:
        if (not lost and waited[0] and isinstance(body, ActionMsg)
                and body.seat == peer.seat):
            lost.append(body)  # (a cut link loses it)
            return
        broadcast(body)

    table.submit = submitted  # type: ignore[method-assign]
    peer.ctx.broadcast = lossy  # type: ignore[method-assign]


def test_an_action_waiting_for_its_cards_lost_on_its_way_is_sent_again() -> None:
    spec = PluginHost().bot("random")

    async def main() -> None:
        peers = await sealed_table("mandala", (), 2)
        fast(peers)
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
            lost: list[ActionMsg] = []
            for p in peers:
                lose_first_waiting_action(p, lost)
            bots = [asyncio.ensure_future(play_bot(p, spec, delay=0.0)) for p in peers]

            def past_the_loss() -> bool:  # (a few entries past the lost action)
                return bool(lost) and all(p.index > lost[0].index + 3 for p in peers)
            try:
                moved = await peers[0].wait_until(
                    lambda: past_the_loss() or all(b.done() for b in bots), 2 * WAIT)
                assert lost, "no action waited for its cards: the test did not test it"
                assert moved and past_the_loss(), \
                    f"the table stalled at #{peers[0].index} after losing {lost}"
                for p in peers:
                    assert p.problem() is None, p.problem()
                    p.sync.seal()
                upto = lost[0].index + 3
                assert peers[0].entries()[:upto] == peers[1].entries()[:upto]
                assert peers[0].ctx.hashes is not None and peers[1].ctx.hashes is not None
                assert peers[0].ctx.hashes.own[:upto] == peers[1].ctx.hashes.own[:upto]
                assert not any(r.what == "ActionMsg" for p in peers for r in p.ctx.refusals)
            finally:
                await stop_bots(bots)
        finally:
            await close_all(peers)

    run(main())

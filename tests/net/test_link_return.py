"""A seat whose link was cut both ways (no restart) is taken over by a bot, and takes its seat
back when the link returns (docs/protocol.md §5.9).

The cut peer saw the runner lost, so it believes the runner's ``SeatTaken``; the runner
hands the seat back at once, and the game finishes with one hash and the takeover and
reclaim in every log.  And a peer that never lost touch with the "runner" does not believe
it (a forged takeover, tests/net/test_departures.py).  Peers in one process over real CURVE
sockets; the cut is the peer dropping everything it would send or hear.
"""

from __future__ import annotations

import asyncio

from departing import WAIT, close_all, events_of, fast, plugins, run, table
from forking import cut

from hedgerow.clients.botrunner import play_bot
from hedgerow.net.messages import MotionKind, SeatEventKind, SeatMotion
from hedgerow.net.seat import Link, Phase


def test_a_cut_off_seat_taken_over_by_a_bot_is_its_own_again_when_the_link_returns() -> None:
    spec = plugins().bot("random")

    async def main() -> None:
        peers = await table("posy", 3)
        fast(peers)
        runner, other, victim = peers
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
            link = cut(victim)
            for p in (runner, other):
                assert await p.wait_until(lambda p=p: p.seats()[2].link == Link.LOST, WAIT)
            assert await victim.wait_until(lambda: 0 in victim.departures.lost_seen, WAIT)
            other.departures.accept = lambda motion: True
            assert isinstance(runner.departures.propose(MotionKind.TAKEOVER, 2, "random"),
                              SeatMotion)
            assert await other.wait_until(lambda: 2 in other.departures.runs, WAIT)
            bots = [asyncio.ensure_future(play_bot(p, spec, delay=0.05))
                    for p in (runner, other)]
            start = runner.index
            assert await runner.wait_until(  # the bot plays seat 2 meanwhile
                lambda: any(e.seat == 2 and e.index >= start for e in runner.entries())
                or runner.phase() == Phase.FINISHED, WAIT)
            link[0] = False  # the link returns
            assert await victim.wait_until(lambda: victim.departures.handed_back is not None,
                                           WAIT)
            assert not any(r.what in ("SeatTaken", "SeatHandback") for r in victim.ctx.refusals)
            codes = await asyncio.gather(play_bot(victim, spec, delay=0.01), *bots)
            assert codes == [0, 0, 0]
            assert victim.state_hash() == runner.state_hash() == other.state_hash()
            for p in peers:
                p.sync.seal()
                assert events_of(p.log_path()) == [(SeatEventKind.TAKEOVER, 2, 0),
                                                   (SeatEventKind.RECLAIM, 2, 0)]
        finally:
            await close_all(peers)

    run(main())

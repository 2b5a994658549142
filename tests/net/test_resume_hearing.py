"""A resumed process hears the table out before it acts for its seat (docs/protocol.md §5.9).

Found in CI: the runner of a bot that played the returning player's seat sat behind a slow
link; another peer, whose takeover had already ended, answered the returning player's
catch-up first, and the returning process acted for its seat before the runner's
``SeatTaken`` arrived, then refused the true ``SeatTaken`` and handback (its log lost the
takeover).  Now it waits for every other seat's catch-up answer, or `ANSWER_WAIT_S`.

Peers in one process over real CURVE sockets; the runner's slow link is its intake held
back for a while (every message from the returning peer handled late, in order).
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from departing import WAIT, close_all, crash, events_of, fast, plugins, run, table

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.game import BotSpec
from hedgerow.net import departures
from hedgerow.net.launch import resume_table
from hedgerow.net.messages import SeatEventKind
from hedgerow.net.peer import Peer


def slow_intake_from(peer: Peer, sender: bytes, seconds: float) -> None:
    """Hold every message ``peer`` gets from ``sender`` for ``seconds``, keeping their order."""
    accept = peer._accept
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds

    def held(rx, env) -> None:  # type: ignore[no-untyped-def]
        if rx.sender == sender and loop.time() < until:
            loop.call_at(until, accept, rx, env)
        else:
            accept(rx, env)

    peer._accept = held  # type: ignore[method-assign]


async def taken_over(spec: BotSpec) -> tuple[list[Peer], Path, list[asyncio.Future[int]]]:
    """Three posy peers; seat 2 is killed and seat 0's bot takes it over by agreement:
    (the peers, the killed seat's log, the two bot tasks)."""
    peers = await table("posy", 3)
    fast(peers)
    runner, other, victim = peers
    assert await victim.wait_until(lambda: victim.ready, WAIT)  # in play: dealt
    await crash(victim)
    bots = [asyncio.ensure_future(play_bot(runner, spec, delay=0.2, take_over=0.3)),
            asyncio.ensure_future(play_bot(other, spec, delay=0.2))]
    assert await other.wait_until(lambda: 2 in other.departures.runs, WAIT), "takeover"
    log_path = victim.log_path()
    assert log_path is not None
    return peers, log_path, bots


def test_a_resumed_player_waits_for_the_runner_behind_a_slow_link() -> None:
    spec = plugins().bot("random")

    async def main() -> None:
        peers, log_path, bots = await taken_over(spec)
        runner, other, victim = peers
        # The other peer tells nothing of the takeover (as one whose takeover already
        # ended would), and the runner hears the returning peer 2 s late.
        other.departures.peer_back = lambda member, resumed=True: None  # type: ignore
        slow_intake_from(runner, victim.identity.public, 2.0)
        back = await resume_table(log_path, identity=victim.identity, plugins=plugins())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.0
        try:
            assert await back.wait_until(lambda: other.seat in back.departures.answered, WAIT)
            assert not back.departures.may_act() and back.legal_actions() == []
            assert back.departures.held is None  # nobody has said a bot runs it yet
            # The runner's answer: SeatTaken, then the handback; the seat is its own again.
            assert await back.wait_until(lambda: back.departures.handed_back is not None, WAIT)
            assert await back.wait_until(back.departures.may_act, WAIT)
            codes = await asyncio.gather(play_bot(back, spec, delay=0.02), *bots)
            assert codes == [0, 0, 0]
            assert back.state_hash() == runner.state_hash() == other.state_hash()
            assert events_of(log_path) == [(SeatEventKind.TAKEOVER, 2, 0),
                                           (SeatEventKind.RECLAIM, 2, 0)]
            # The true SeatTaken and handback were believed.  (The bot's actions for seat 2
            # that reached it before the SeatTaken were refused; catch-up brought them.)
            refused = {r.what for r in back.ctx.refusals}
            assert refused <= {"ActionMsg"}, refused
        finally:
            await close_all([back, runner, other])

    run(main())


def test_a_resumed_player_stops_waiting_for_a_silent_seat(monkeypatch) -> None:
    """A seat that never answers (its process died too) holds the returning player up for
    `ANSWER_WAIT_S` at most."""
    monkeypatch.setattr(departures, "ANSWER_WAIT_S", 1.0)

    async def main() -> None:
        peers = await table("posy", 3)
        fast(peers)
        host, silent, victim = peers
        assert await victim.wait_until(lambda: victim.ready, WAIT)  # in play: dealt
        log_path = victim.log_path()
        await crash(victim)
        await crash(silent)
        back = await resume_table(log_path, identity=victim.identity, plugins=plugins())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.0
        try:
            assert await back.wait_until(lambda: host.seat in back.departures.answered, WAIT)
            assert not back.departures.may_act()
            assert await back.wait_until(back.departures.may_act, WAIT)  # after the wait
            assert back.departures.answered == {host.seat}
        finally:
            await close_all([back, host])

    run(main())

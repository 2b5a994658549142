"""A player reclaims a seat while the bot that took it over has committed for the open
simultaneous step (docs/protocol.md §5.9).

Only the runner holds that commitment's salt, so it cannot hand the seat back in the middle
of the step (the returning player's own commitment would be refused as a second one, and no
one could reveal the bot's): the bot stops choosing, the step finishes with its choice, and
the handback names the entry after the step.  Peers in one process over real CURVE
sockets, Goofspiel (every turn a simultaneous step of all seats).
"""

from __future__ import annotations

import asyncio

from departing import WAIT, close_all, crash, events_of, fast, plugins, run, table

from hedgerow.clients.botrunner import play_bot
from hedgerow.net.launch import resume_table
from hedgerow.net.messages import MotionKind, SeatEventKind, SeatMotion
from hedgerow.net.seat import Link


def test_a_seat_reclaimed_mid_step_is_handed_back_after_the_step_its_bot_committed_to() -> None:
    spec = plugins().bot("random")

    async def main() -> None:
        peers = await table("goofspiel", 3)
        fast(peers)
        runner, other, victim = peers
        assert await victim.wait_until(lambda: victim.ready, WAIT)  # in play: dealt
        log_path = victim.log_path()
        assert log_path is not None
        await crash(victim)
        # Nobody chooses for their own seat; the others agree that a bot takes seat 2.
        for p in (runner, other):  # (a peer that still sees seat 2 would vote no)
            assert await p.wait_until(lambda p=p: p.seats()[2].link == Link.LOST, WAIT)
        other.departures.accept = lambda motion: True
        motion = runner.departures.propose(MotionKind.TAKEOVER, 2, "random")
        assert isinstance(motion, SeatMotion)
        assert await other.wait_until(lambda: 2 in other.departures.runs, WAIT), "takeover"
        assert await runner.wait_until(
            lambda: runner.sync.step is not None and 2 in runner.sync.step.hosted, WAIT)
        step = runner.sync.step
        assert step is not None
        # The player comes back while the bot's commitment for its seat is open.
        back = await resume_table(log_path, identity=victim.identity, plugins=plugins())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.0
        try:
            assert await back.wait_until(lambda: back.departures.held is not None, WAIT)
            assert await runner.wait_until(lambda: 2 in runner.departures._handing_back, WAIT)
            assert back.legal_actions() == [] and 2 in runner.departures.runs
            # The others choose; the step finishes with the bot's choice for seat 2.
            for peer in (runner, other):
                assert await peer.submit(peer.legal_actions()[0]) is None
            assert await back.wait_until(lambda: back.departures.handed_back is not None, WAIT)
            assert back.departures.handed_back > step.index  # after the step, not in it
            assert await back.wait_until(back.departures.may_act, WAIT)
            codes = await asyncio.gather(*(play_bot(p, spec, delay=0.01)
                                           for p in (back, runner, other)))
            assert codes == [0, 0, 0]
            assert back.state_hash() == runner.state_hash() == other.state_hash()
            assert events_of(log_path) == [(SeatEventKind.TAKEOVER, 2, 0),
                                           (SeatEventKind.RECLAIM, 2, 0)]
            assert not any(r.what in ("ActionCommit", "ActionReveal")
                           for p in (runner, other) for r in p.ctx.refusals)
            # The returning process may refuse the bot's first commitment: sent to the dead
            # process's address, it waited in the sender's queue and arrived before the
            # SeatTaken.  The one re-sent after the SeatTaken was taken.  A repeat of a step
            # it has already caught up past is over there (§3.3: BAD_INDEX, "the step at #i
            # is over"; seen 1 in 25 runs beside load); nothing else is refused.
            for r in back.ctx.refusals:
                if r.what in ("ActionCommit", "ActionReveal"):
                    assert r.code.name == "WRONG_SEAT" or (
                        r.code.name == "BAD_INDEX" and "is over" in r.message), r
        finally:
            await close_all([back, runner, other])

    run(main())


def test_a_commitment_that_died_with_its_process_is_made_afresh_by_the_bot() -> None:
    """Seat 2 commits in a step and its process dies before revealing (its salt is gone):
    when a bot takes the seat over, every peer drops that commitment, the bot commits
    afresh, and the step finishes."""
    spec = plugins().bot("random")

    async def main() -> None:
        peers = await table("goofspiel", 3)
        fast(peers)
        runner, other, victim = peers
        for p in peers:
            assert await p.wait_until(lambda p=p: p.ready, WAIT)
        assert await victim.submit(victim.legal_actions()[0]) is None
        for p in (runner, other):
            assert await p.wait_until(lambda p=p: 2 in p.sync.committed(), WAIT)
        await crash(victim)
        start = runner.index
        for p in (runner, other):  # (a peer that still sees seat 2 would vote no)
            assert await p.wait_until(lambda p=p: p.seats()[2].link == Link.LOST, WAIT)
        other.departures.accept = lambda motion: True
        assert isinstance(runner.departures.propose(MotionKind.TAKEOVER, 2, "random"),
                          SeatMotion)
        try:
            for p in (runner, other):
                assert await p.wait_until(lambda p=p: 2 in p.departures.runs, WAIT)
                assert await p.submit(p.legal_actions()[0]) is None
            for p in (runner, other):
                assert await p.wait_until(lambda p=p: p.index > start, WAIT), "step"
            codes = await asyncio.gather(*(play_bot(p, spec, delay=0.01)
                                           for p in (runner, other)))
            assert codes == [0, 0]
            assert runner.state_hash() == other.state_hash()
        finally:
            await close_all([runner, other])

    run(main())


def test_a_bot_stopped_for_a_handback_acts_no_more_though_its_wake_up_was_on_its_way() -> None:
    """The runner stops its bot for a handback (a task cancelled) in the turn of the loop
    after a change woke it: the wake-up and the cancel coincide, and ``asyncio.wait_for``
    lets the wake-up win (it returns the done result and drops the cancel).  The bot must
    still act no more: had it gone on, it would commit for the seat in the step after the
    one it had committed to, the very step handed back, where the returning player commits
    too (two commitments; the table halts).  Every turn of the loop after the wake-up is
    tried (``turns``), each at a fresh table."""

    async def once(turns: int) -> None:
        peers = await table("goofspiel", 3)
        fast(peers)
        runner, other, victim = peers
        try:
            assert await victim.wait_until(lambda: victim.ready, WAIT)
            await crash(victim)
            for p in (runner, other):
                assert await p.wait_until(lambda p=p: p.seats()[2].link == Link.LOST, WAIT)
            other.departures.accept = lambda motion: True
            assert isinstance(runner.departures.propose(MotionKind.TAKEOVER, 2, "random"),
                              SeatMotion)
            assert await runner.wait_until(
                lambda: runner.sync.step is not None and 2 in runner.sync.step.hosted, WAIT)
            step = runner.sync.step
            assert step is not None
            bot = runner.departures._bots[2]
            await asyncio.sleep(0.05)  # the bot waits for the next change
            member = runner.ctx.roster.by_seat(2) if runner.ctx.roster else None
            assert member is not None
            runner.ctx.notify()  # a change wakes the bot ...
            for _ in range(turns):
                await asyncio.sleep(0)
            runner.departures.peer_back(member)  # ... as the player comes back
            assert 2 in runner.departures._handing_back
            for peer in (runner, other):  # the step finishes with the bot's choice
                assert await peer.submit(peer.legal_actions()[0]) is None
            assert await runner.wait_until(lambda: 2 not in runner.departures.runs, WAIT)
            handback = runner.departures.events[-1]
            assert handback.kind == SeatEventKind.RECLAIM and handback.index > step.index
            assert await other.wait_until(lambda: other.index >= handback.index, WAIT)
            await asyncio.sleep(0.3)  # (a bot still running would have chosen by now)
            now = runner.sync.step
            assert now is None or 2 not in now.hosted, \
                f"the stopped bot committed for seat 2 in the step at #{now.index} ({turns=})"
            assert bot.done(), f"the stopped bot still runs ({turns=})"
            assert not any(r.what == "ActionCommit" for r in other.ctx.refusals)
        finally:
            await close_all([runner, other])

    for turns in range(4):
        run(once(turns))

"""Departed seats (docs/protocol.md §5.9): told to every remaining peer, taken over by a bot
by agreement, reclaimed by the returning player, or the game ended by agreement.

Peers in one process over real CURVE sockets (toy games, fast); the multi-process version
is tests/e2e/test_net_takeover.py.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from departing import WAIT, close_all, crash, events_of, fast, plugins, run, table, verified

from hedgerow.clients.botrunner import play_bot
from hedgerow.net.launch import resume_table
from hedgerow.net.logfile import read_log
from hedgerow.net.messages import MotionKind, MotionVote, SeatEventKind, SeatMotion
from hedgerow.net.seat import Link, Phase


@pytest.mark.parametrize("deck", ["sealed", "open"])
@pytest.mark.parametrize("game, gone", [("posy", 2), ("goofspiel", 2), ("posy", 0)])
def test_a_lost_seat_is_announced_taken_over_by_agreement_and_reclaimed(game: str, gone: int,
                                                                       deck: str) -> None:
    """Seat ``gone`` (2: a joiner; 0: the host) is killed; the lowest remaining seat runs
    its bot (at a sealed table, once the others recovered the seat's keys from the escrow);
    the player resumes and reclaims it."""

    async def main() -> None:
        peers = await table(game, 3, open_deck=deck == "open")
        fast(peers)
        victim = peers[gone]
        assert await victim.wait_until(lambda: victim.ready, WAIT)  # in play: dealt
        log_path: Path = victim.log_path()
        await crash(victim)
        spec = plugins().bot("random")
        rest = [p for p in peers if p is not victim]
        runner = rest[0].seat
        told: dict[int, list[dict[str, Any]]] = {p.seat: [] for p in rest}

        def emitter(seat: int) -> Any:
            def emit(event: str, text: str, **fields: Any) -> None:
                told[seat].append({"event": event, "text": text, **fields})
            return emit

        honest = [asyncio.ensure_future(play_bot(p, spec, emit=emitter(p.seat), delay=0.02,
                                                 take_over=0.3))
                  for p in rest]
        first = rest[0]
        # Both remaining seats are told who left and what the table can do; then the lowest
        # proposes, the other agrees, and the lowest's process plays the seat with a bot.
        for p in rest:
            assert await p.wait_until(lambda p=p: gone in p.departures.runs, WAIT), "takeover"
        for seat in told:
            departed = [e for e in told[seat] if e["event"] == "departed"]
            assert departed and departed[0]["seat"] == gone and "hedgerow resume" in \
                departed[0]["text"]
        assert all(p.departures.runs[gone].runner == runner for p in rest)
        assert first.seats()[gone].bot == "random"
        assert all(p.seats()[gone].run_by == runner for p in rest)  # shown as "bot"
        # The bot plays: the table moves on past the seat's turns.
        start = first.index
        assert await first.wait_until(
            lambda: any(e.seat == gone and e.index >= start for e in first.entries())
            or first.phase() == Phase.FINISHED, WAIT)
        # The player comes back while the game is on and reclaims the seat.
        assert first.phase() == Phase.PLAYING
        back = await resume_table(log_path, identity=victim.identity, plugins=plugins())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.0
        try:
            assert await back.wait_until(lambda: back.departures.may_act(), WAIT)
            for p in rest:
                assert await p.wait_until(lambda p=p: gone not in p.departures.runs, WAIT)
                assert p.seats()[gone].run_by is None
            codes = await asyncio.gather(play_bot(back, spec), *honest)
            assert codes == [0, 0, 0]
            assert len({p.state_hash() for p in (back, *rest)}) == 1
            kinds = [k for k, _, _ in events_of(log_path)]
            assert kinds == [SeatEventKind.TAKEOVER, SeatEventKind.RECLAIM]
            verified(back, log_path)
        finally:
            await close_all([back])
        try:
            for p in rest:
                assert events_of(p.log_path()) == [(SeatEventKind.TAKEOVER, gone, runner),
                                                   (SeatEventKind.RECLAIM, gone, 0)]
                verified(p, p.log_path())
        finally:
            await close_all(rest)

    run(main())


def test_every_peer_checks_a_motion_and_a_refusal_stops_it() -> None:
    async def main() -> None:
        peers = await table("posy", 4)
        fast(peers)
        host, one, two, victim = peers
        assert await victim.wait_until(lambda: victim.ready, WAIT)  # in play: dealt
        for p in peers:
            assert await p.wait_until(lambda p=p: p.ready, WAIT)
        # Nobody has left: a motion about a connected seat cannot even be proposed.
        refusal = host.departures.propose(MotionKind.TAKEOVER, 3, "random")
        assert not isinstance(refusal, SeatMotion) and refusal.code == "not_departed"
        await crash(victim)
        try:
            for p in (host, one, two):
                assert await p.wait_until(lambda p=p: p.seats()[3].link == Link.LOST, WAIT)
            # Seat 2's player declines: the motion fails everywhere and changes nothing.
            one.departures.accept = lambda m: True
            two.departures.accept = lambda m: False
            motion = host.departures.propose(MotionKind.TAKEOVER, 3, "random")
            assert isinstance(motion, SeatMotion) and motion.voters == (0, 1, 2)
            assert await host.wait_until(lambda: not host.departures.motions, WAIT)
            assert await one.wait_until(lambda: not one.departures.motions, WAIT)
            assert all(3 not in p.departures.runs for p in (host, one, two))
            # The checks every voter makes, on the motion as it arrives.
            table_index = host.index
            wrong = [
                SeatMotion(9, MotionKind.TAKEOVER, 3, 0, "random", table_index + 1, (0, 1, 2)),
                SeatMotion(9, MotionKind.TAKEOVER, 3, 0, "random", table_index, (0, 1)),
                SeatMotion(9, MotionKind.TAKEOVER, 3, 1, "random", table_index, (0, 1, 2)),
                SeatMotion(9, MotionKind.TAKEOVER, 2, 0, "random", table_index, (0, 1, 3)),
            ]
            problems = [one.departures.check(m, 0) for m in wrong]
            assert "is at #" in problems[0]
            assert "voters differ" in problems[1]
            assert "lowest voting seat" in problems[2]
            assert "has not left" in problems[3]
            # A person's seat (no policy) is asked, and the motion waits for its answer; all
            # accept: an agreed end; the game is over with no winner, and logged.
            two.departures.accept = lambda m: True
            motion = one.departures.propose(MotionKind.END, 3)
            assert isinstance(motion, SeatMotion)
            assert await host.wait_until(lambda: bool(host.departures.asked), WAIT)
            assert one.phase() == Phase.PLAYING
            # A seat outside the voters votes too (no, as §5.9 tells a non-voter, e.g. the
            # departed seat back and finding the motion queued): its vote counts for
            # nothing, and it is not refused (no Error for doing what the document asks).
            refused: list[Any] = []
            host.ctx.refuse = lambda *args, **kwargs: refused.append(args)  # type: ignore[method-assign]
            asked = host.departures.asked[0]
            outsider = host.ctx.roster.by_seat(3)
            host.departures.on_vote(None, None, outsider, MotionVote(  # type: ignore[arg-type]
                1, motion.number, False, "this peer is not among the voters"))
            assert refused == [] and 3 not in asked.votes
            assert host.departures.asked == [asked] and host.phase() == Phase.PLAYING
            host.departures.vote(host.departures.asked[0], True)
            for p in (host, one, two):
                assert await p.wait_until(lambda p=p: p.phase() == Phase.FINISHED, WAIT)
                assert p.departures.ended is not None
                p.sync.seal()
                assert events_of(p.log_path()) == [(SeatEventKind.END, 3, 0)]
                assert await p.wait_until(p.confirmed_end, WAIT)
            assert len({p.state_hash() for p in (host, one, two)}) == 1
        finally:
            await close_all([host, one, two])

    run(main())


def test_a_runner_that_resumes_runs_the_bot_again_from_its_log() -> None:
    async def main() -> None:
        peers = await table("posy", 3)
        fast(peers)
        runner, other, victim = peers
        assert await victim.wait_until(lambda: victim.ready, WAIT)  # in play: dealt
        await crash(victim)
        spec = plugins().bot("random")
        bots = [asyncio.ensure_future(play_bot(runner, spec, delay=0.05, take_over=0.3)),
                asyncio.ensure_future(play_bot(other, spec, delay=0.05))]
        assert await other.wait_until(lambda: 2 in other.departures.runs, WAIT), "takeover"
        start = other.index
        assert await other.wait_until(
            lambda: any(e.seat == 2 and e.index >= start for e in other.entries()), WAIT)
        # The runner's process dies too; it comes back from its own log and plays on.
        bots[0].cancel()
        for task in list(runner.departures._bots.values()):
            task.cancel()
        await crash(runner)
        log_path: Path = runner.log_path()
        back = await resume_table(log_path, identity=runner.identity, plugins=plugins())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.0
        try:
            assert 2 in back.departures.runs and back.departures.runs[2].runner == 0
            resumed_at = back.index
            codes = await asyncio.gather(play_bot(back, spec, delay=0.02), bots[1])
            assert codes == [0, 0]
            assert back.state_hash() == other.state_hash()
            assert any(e.seat == 2 and e.index >= resumed_at for e in back.entries())
            assert events_of(log_path) == [(SeatEventKind.TAKEOVER, 2, 0)]
            verified(back, log_path)
        finally:
            await close_all([back, other])

    run(main())


def test_an_open_motion_expires_and_its_proposer_proposes_again(monkeypatch) -> None:
    """§5.9 "Expiry": a voter that departs, or silence past the expiry time, ends an open
    motion at every peer; late votes count for nothing; a new motion can pass."""
    import hedgerow.net.departures as departures
    from hedgerow.net.messages import MotionVote

    async def main() -> None:
        peers = await table("posy", 4)
        fast(peers)
        host, one, two, victim = peers
        for p in peers:
            assert await p.wait_until(lambda p=p: p.ready, WAIT)
        await crash(victim)
        try:
            for p in (host, one, two):
                assert await p.wait_until(lambda p=p: p.seats()[3].link == Link.LOST, WAIT)
            # Seats 1 and 2 are people who do not answer; then seat 2 goes too.
            first = host.departures.propose(MotionKind.END, 3)
            assert isinstance(first, SeatMotion) and first.voters == (0, 1, 2)
            assert await one.wait_until(lambda: bool(one.departures.asked), WAIT)
            await crash(two)
            for p in (host, one):
                assert await p.wait_until(lambda p=p: not p.departures.motions, WAIT)
                assert p.departures.expired[(0, first.number)] == "voter seat 2 is gone"
            assert not one.departures.asked  # the box stops asking
            # Nobody answers within the expiry time: it expires too, the same way everywhere.
            monkeypatch.setattr(departures, "MOTION_EXPIRY_S", 1.0)
            second = host.departures.propose(MotionKind.TAKEOVER, 3, "random")
            assert isinstance(second, SeatMotion) and second.voters == (0, 1)
            assert second.number == first.number + 1
            for p in (host, one):
                assert await p.wait_until(lambda p=p: (0, second.number) in p.departures.expired,
                                          WAIT)
                assert "no answer" in p.departures.expired[(0, second.number)]
            # A late yes counts for nothing, and is not kept as an early vote.
            one.ctx.broadcast(MotionVote(0, second.number, True, ""))
            await asyncio.sleep(0.3)
            assert 3 not in host.departures.runs and not host.departures.early
            # The proposer is free to propose again, and this time the table agrees.
            one.departures.accept = lambda m: True
            third = host.departures.propose(MotionKind.TAKEOVER, 3, "random")
            assert isinstance(third, SeatMotion)
            for p in (host, one):
                assert await p.wait_until(lambda p=p: 3 in p.departures.runs, WAIT)
        finally:
            await close_all([host, one])

    run(main())


def test_a_seated_peer_cannot_tell_a_playing_peer_its_seat_was_taken() -> None:
    """Forged seat news (found by fuzzing a live peer): a peer that is playing its own seat
    does not believe another peer's word that a bot took the seat from before its own last
    action, nor a takeover named by anyone but the runner itself (even before its first
    move, unless it resumed), nor one whose runner is its own seat, nor a handback of a seat
    no bot ran; and a second, different Start from a seat that started is refused without
    halting.  It goes on playing, and nothing is written to its log."""
    from dataclasses import replace

    from hedgerow.net.messages import ErrorCode, SeatHandback, SeatTaken, Start

    async def main() -> None:
        peers = await table("posy", 3)
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
            mover = next(p for p in peers if p.legal_actions())
            forger, runner = [p for p in peers if p is not mover]
            # A peer that has authored nothing yet but did not resume (the CI fuzz run:
            # the host, before its first move, was told a bot it runs plays its own seat).
            assert runner.departures.authored == -1 and not runner.departures.resumed
            to_runner = forger.ctx.roster.by_seat(runner.seat)
            forger.ctx.send(to_runner, SeatTaken(runner.seat, runner.seat, "x", 2**32 - 1))
            forger.ctx.send(to_runner, SeatTaken(runner.seat, mover.seat, "random", 1))
            assert await runner.wait_until(lambda: len(runner.ctx.refusals) >= 2, WAIT)
            codes = [(r.code, r.message) for r in list(runner.ctx.refusals)[-2:]]
            assert codes[0][0] == codes[1][0] == ErrorCode.WRONG_SEAT
            assert "cannot run a bot" in codes[0][1] and "runner named" in codes[1][1]
            assert runner.departures.held is None and runner.departures.may_act()
            assert await mover.submit(mover.legal_actions()[0]) is None
            assert mover.departures.authored == mover.index - 1 >= 1
            to_mover = forger.ctx.roster.by_seat(mover.seat)
            at = mover.index
            # a takeover from before the mover's own move; one that names another runner
            forger.ctx.send(to_mover, SeatTaken(mover.seat, forger.seat, "random", 0))
            forger.ctx.send(to_mover, SeatTaken(mover.seat, runner.seat, "random", at))
            # (the CI fuzz run) the forger names itself, with a takeover after our move: but
            # the mover never lost touch with it, so no bot of its can have taken the seat
            forger.ctx.send(to_mover, SeatTaken(mover.seat, forger.seat, "random", at))
            assert await mover.wait_until(lambda: len(mover.ctx.refusals) >= 3, WAIT)
            codes = [(r.code, r.message) for r in list(mover.ctx.refusals)[-3:]]
            assert codes[0][0] == codes[1][0] == codes[2][0] == ErrorCode.WRONG_SEAT
            assert "authored entry" in codes[0][1] and "runner named" in codes[1][1]
            assert "has not lost touch" in codes[2][1]
            # a handback of the mover's seat that no takeover came before
            forger.ctx.send(to_mover, SeatHandback(mover.seat, at))
            # a second Start from a seat whose first one matched, now with another seed
            header = mover.ctx.table.header
            forger.ctx.send(to_mover, Start(replace(header, seed=b"\x01" * 32), bytes(32),
                                            forger.ctx.round))
            assert await mover.wait_until(lambda: len(mover.ctx.refusals) >= 5, WAIT)
            codes = [(r.code, r.message) for r in list(mover.ctx.refusals)[-2:]]
            assert codes[0][0] == ErrorCode.WRONG_SEAT and "no bot runs" in codes[0][1]
            assert codes[1][0] == ErrorCode.WRONG_PHASE and "already started" in codes[1][1]
            assert mover.departures.held is None and mover.departures.may_act()
            assert mover.seat not in mover.departures.runs
            assert mover.phase() == Phase.PLAYING
            mover.sync.seal()
            assert events_of(mover.log_path()) == []  # no seat event was written
        finally:
            await close_all(peers)

    run(main())


def test_a_seat_that_departs_again_is_a_new_departure() -> None:
    """Issue 27, dead end 1: a player who comes back and drops again is departed anew (a
    new `Departed.number`), so a client that chose to wait the first time is told again."""

    async def main() -> None:
        host, joiner = await table("posy", 2, open_deck=True)
        fast([host, joiner])
        assert await joiner.wait_until(lambda: joiner.ready, WAIT)
        log_path: Path = joiner.log_path()
        await crash(joiner)
        assert await host.wait_until(lambda: bool(host.departures.departed()), WAIT)
        first = host.departures.departed()
        assert [(d.seat, d.link, d.unheard) for d in first] == [(1, Link.LOST, False)]
        back = await resume_table(log_path, identity=joiner.identity, plugins=plugins())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.0
        try:
            assert await host.wait_until(lambda: not host.departures.departed(), WAIT)
            await crash(back)
            assert await host.wait_until(lambda: bool(host.departures.departed()), WAIT)
            again = host.departures.departed()
            assert [(d.seat, d.link) for d in again] == [(1, Link.LOST)]
            assert again[0].number != first[0].number  # news again
            assert host.departures.departed() == again  # (the same departure, while it lasts)
        finally:
            await close_all([host])

    run(main())


@pytest.mark.parametrize("deck", ["sealed", "open"])
def test_a_resumed_player_is_told_who_is_still_away_and_may_end_the_game(
        deck: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 27, dead end 2: the host quits while the joiner is away; the joiner resumes.
    Once the table had its time to answer, the host's seat is departed at the joiner (not
    heard since it came back: its player must resume), the joiner may not seat a bot (it
    has not caught up with anyone; at a sealed table of two nobody could open the host's
    cards anyway), and it may end the game alone: the end is logged and the game is over."""
    import hedgerow.net.departures as departures

    monkeypatch.setattr(departures, "ANSWER_WAIT_S", 1.0)

    async def main() -> None:
        host, joiner = await table("posy", 2, open_deck=deck == "open")
        fast([host, joiner])
        assert await joiner.wait_until(lambda: joiner.ready, WAIT)
        log_path: Path = joiner.log_path()
        await crash(joiner)
        await host.close()
        back = await resume_table(log_path, identity=joiner.identity, plugins=plugins())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.0
        try:
            assert back.departures.departed() == []  # (hearing the table out first)
            assert await back.wait_until(lambda: bool(back.departures.departed()), WAIT)
            gone = back.departures.departed()
            assert [(d.seat, d.link, d.unheard) for d in gone] == [(0, Link.LOST, True)]
            assert back.seats()[0].link == Link.LOST
            problem = back.departures.takeover_problem(0)
            assert problem is not None
            assert ("two players" if deck == "sealed" else "caught up") in problem
            refused = back.departures.propose(MotionKind.TAKEOVER, 0, "random")
            assert not isinstance(refused, SeatMotion) and refused.code == "no_takeover"
            ended = back.departures.propose(MotionKind.END, 0)
            assert isinstance(ended, SeatMotion) and ended.voters == (1,)
            assert back.phase() == Phase.FINISHED and back.departures.ended is not None
            assert back.departures.departed() == []
        finally:
            await close_all([back])
        assert events_of(log_path) == [(SeatEventKind.END, 0, 0)]
        from hedgerow.clients.resumable import read_table

        saved = read_table(log_path, plugins())
        assert saved.finished and saved.outcome is None and saved.ended is not None

    run(main())


def test_a_resumed_player_waiting_for_an_absent_host_plays_on_once_it_resumes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The joiner that came back to an empty table waits; the host resumes too: the joiner
    catches up from it and the game is played to its end by both."""
    import hedgerow.net.departures as departures

    monkeypatch.setattr(departures, "ANSWER_WAIT_S", 1.0)

    async def main() -> None:
        host, joiner = await table("posy", 2, open_deck=True)
        fast([host, joiner])
        assert await joiner.wait_until(lambda: joiner.ready, WAIT)
        host_log: Path = host.log_path()
        joiner_log: Path = joiner.log_path()
        await crash(joiner)
        await crash(host)
        back = await resume_table(joiner_log, identity=joiner.identity, plugins=plugins())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.0
        try:
            assert await back.wait_until(lambda: bool(back.departures.departed()), WAIT)
            host_back = await resume_table(host_log, identity=host.identity,
                                           plugins=plugins())
            host_back.links.heartbeat, host_back.links.lost_after = 0.1, 1.0
            try:
                assert await back.wait_until(lambda: not back.departures.departed(), WAIT)
                assert await back.wait_until(lambda: not back.sync.syncing, WAIT)
                spec = plugins().bot("random")
                codes = await asyncio.gather(play_bot(back, spec), play_bot(host_back, spec))
                assert codes == [0, 0]
                assert back.state_hash() == host_back.state_hash()
            finally:
                await close_all([host_back])
        finally:
            await close_all([back])

    run(main())


def test_a_player_back_after_the_table_agreed_to_end_is_told_the_game_is_over() -> None:
    """The end is outside the chain: a peer where it is in force tells the returning peer it
    has left a game that is over (`Leave`, `GAME_OVER`); the returning peer, caught up, sees
    that seat gone and ends the game too.  Both logs record the end at the same entry."""

    async def main() -> None:
        host, joiner = await table("posy", 2, open_deck=True)
        fast([host, joiner])
        assert await joiner.wait_until(lambda: joiner.ready, WAIT)
        log_path: Path = joiner.log_path()
        await crash(joiner)
        assert await host.wait_until(lambda: bool(host.departures.departed()), WAIT)
        assert isinstance(host.departures.propose(MotionKind.END, 1), SeatMotion)
        assert host.phase() == Phase.FINISHED
        back = await resume_table(log_path, identity=joiner.identity, plugins=plugins())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.0
        try:
            assert await back.wait_until(lambda: bool(back.departures.departed()), WAIT)
            [gone] = back.departures.departed()
            assert (gone.seat, gone.link, gone.why) == (0, Link.LEFT, "game_over")
            assert await back.wait_until(lambda: not back.sync.syncing, WAIT)
            assert back.index == host.index
            assert isinstance(back.departures.propose(MotionKind.END, 0), SeatMotion)
            assert back.phase() == Phase.FINISHED
        finally:
            await close_all([back, host])
        assert [e.index for e in read_log(log_path).events] == \
            [e.index for e in read_log(host.log_path()).events]

    run(main())

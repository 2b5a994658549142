"""Helpers for the tests of a seat cut off at its own turn (docs/protocol.md §5.9): cut a
peer off, play to a seat's turn, fork the table (the cut seat's own #N, a bot's other #N).
Peers in one process (tests/departing.py)."""

from __future__ import annotations

import asyncio
from typing import Any

from departing import WAIT, crash, fast, plugins

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.actions import Action
from hedgerow.core.game import BotSpec
from hedgerow.core.playout import make_bots
from hedgerow.net.launch import resume_table
from hedgerow.net.messages import MotionKind, SeatMotion
from hedgerow.net.peer import Peer
from hedgerow.net.seat import Link


def cut(peer: Peer) -> list[bool]:
    """Cut ``peer`` off both ways until the returned flag's first item is set to False."""
    on = [True]
    accept, send, reply = peer._accept, peer.ctx.node.send, peer.ctx.node.reply
    peer._accept = lambda rx, env: None if on[0] else accept(rx, env)  # type: ignore
    peer.ctx.node.send = lambda key, data: False if on[0] else send(key, data)  # type: ignore
    peer.ctx.node.reply = lambda route, data: False if on[0] else reply(route, data)  # type: ignore
    return on


async def to_turn_of(peers: list[Peer], seat: int) -> None:
    """Play each seat's first legal action until it is ``seat``'s turn (every peer agrees)."""
    for _ in range(50):
        for p in peers:
            assert await p.wait_until(lambda p=p: p.index == peers[0].index and p.ready, WAIT)
        active = peers[0].active_seats()
        if active == (seat,):
            return
        mover = next(p for p in peers if p.seat == active[0])
        assert await mover.wait_until(lambda m=mover: bool(m.legal_actions()), WAIT)
        assert await mover.submit(mover.legal_actions()[0]) is None
        index = mover.index
        for p in peers:
            assert await p.wait_until(lambda p=p, i=index: p.index >= i, WAIT)
    raise AssertionError(f"never seat {seat}'s turn")


def other_than_the_bot(peer: Peer, spec: BotSpec) -> Action:
    """A legal action of ``peer``'s seat other than the one a bot taking the seat over now
    would choose first (its stream is the table's: `hedgerow.core.playout.make_bots`)."""
    table = peer.ctx.table
    assert table is not None and peer.seed is not None
    legal = list(peer.legal_actions())
    bot = make_bots(peer.ruleset, peer.players, peer.seed, [spec])[peer.seat]
    theirs = bot.choose(table.view(peer.seat), table.legal_actions(peer.seat))
    return next(a for a in legal if a != theirs)


class SlowLink:
    """``peer`` holds back what ``sender`` sends it, in order, until `release` (a slow link
    from that one peer)."""

    def __init__(self, peer: Peer, sender: Peer) -> None:
        self.held: list[tuple[Any, Any]] | None = []
        self.accept, key = peer._accept, sender.identity.public

        def accept(rx: Any, env: Any) -> None:
            if self.held is not None and rx.sender == key:
                self.held.append((rx, env))
            else:
                self.accept(rx, env)
        peer._accept = accept  # type: ignore[method-assign]

    def release(self) -> None:
        held, self.held = self.held or [], None
        for rx, env in held:
            self.accept(rx, env)


async def taken_over(peers: list[Peer], spec: BotSpec, *, bot_delay: float = 0.0
                     ) -> tuple[int, list[bool], SlowLink]:
    """Seat 2 cut off at its own turn plays its own #N; the others, who see it lost, seat a
    bot for it run by seat 0, which waits ``bot_delay`` seconds before each move.  (N, the
    cut, the runner's slow link to seat 2.)"""
    runner, other, victim = peers
    await to_turn_of(peers, 2)
    fork = victim.index
    link = cut(victim)
    deaf = SlowLink(victim, runner)
    assert await victim.submit(other_than_the_bot(victim, spec)) is None
    for p in (runner, other):
        assert await p.wait_until(lambda p=p: p.seats()[2].link == Link.LOST, WAIT)
    assert await victim.wait_until(
        lambda: {0, 1} <= victim.departures.rollback.lost_since(fork, victim.departures.lost_seen),
        WAIT)
    other.departures.accept = lambda motion: True
    runner.departures.delay = bot_delay
    assert isinstance(runner.departures.propose(MotionKind.TAKEOVER, 2, "random"), SeatMotion)
    assert await other.wait_until(lambda: 2 in other.departures.runs, WAIT)
    return fork, link, deaf


async def forked(peers: list[Peer], spec: BotSpec) -> tuple[int, list[bool], SlowLink,
                                                            list[asyncio.Future[int]]]:
    """Seat 2 cut off at its own turn plays its own #N; the others seat a bot that plays
    another #N.  (N, the cut, the runner's slow link to seat 2, the others' bot runners.)"""
    runner, other, _ = peers
    fork, link, deaf = await taken_over(peers, spec)
    bots = [asyncio.ensure_future(play_bot(p, spec, delay=0.05)) for p in (runner, other)]
    assert await other.wait_until(
        lambda: any(e.seat == 2 and e.index == fork for e in other.entries()), WAIT)
    return fork, link, deaf, bots


async def restarted(victim: Peer) -> Peer:
    """``victim``'s process dies (still cut off) and its player resumes it (heartbeats as
    `departing.fast`)."""
    log_path = victim.log_path()
    assert log_path is not None
    await crash(victim)
    back = await resume_table(log_path, identity=victim.identity, plugins=plugins())
    assert isinstance(back, Peer), back
    fast([back])
    return back

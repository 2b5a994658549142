"""A seat whose own move waits for cards may not move again until it rests
(docs/protocol.md §10.7; `hedgerow.net.peer.Peer.submit`).

At a sealed table a move whose rules read a card nobody was shown (a Mandala take refills
the mandala from the hidden tile stacks) is sent at once, but its author's table holds it
only once every other player's key to that card is in.  Meanwhile the seat is still the
one the table names to act.  A second move then (a key pressed twice, a bot that looks
again) is refused at once as "move_waits", with nothing sent or queued, and the seat is
offered nothing until the move rests; the screen says the move turns a card face up
(`Peer.deck_wait`).  Before, the refusal said "waiting for every peer to start the
table", and so did the seat client's status line.

Two peers in one process over real CURVE sockets (tests/departing.py), random bots; the
other peer's public card keys are held back from the moment a seat's own move waits, so
the wait lasts as long as the test needs, then they go out as they were made.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

import pytest
from departing import WAIT, close_all, sealed_table, stop_bots

from hedgerow.clients.botrunner import make_bot, play_bot
from hedgerow.core.actions import Action
from hedgerow.core.errors import Refusal
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.sealedtable import Waiting
from hedgerow.net.messages import ActionMsg, CardKeys
from hedgerow.net.peer import Peer
from hedgerow.net.seat import DeckWaits

GAMES = 3  # whole games to find a seat's own move that waits (one is nearly always enough)
GAME_S = 300.0  # at most, for one game (a sealed game is slow beside a loaded machine)


def run(game: Any) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(game, GAME_S)

    return asyncio.run(bounded())


class KeyHold:
    """Once a seat's own move waits for cards (its table's `submit` says `Waiting` for its
    own seat), the other peer's public card keys are held back until `release`."""

    def __init__(self, peers: list[Peer]) -> None:
        self.peers = peers
        self.mover: Peer | None = None  # the peer whose own move waits
        self.released = False
        self.held: list[Callable[[], None]] = []
        self.sent: dict[int, list[ActionMsg]] = {p.seat: [] for p in peers}
        for peer in peers:
            self._watch(peer)

    def _watch(self, peer: Peer) -> None:
        table, play = peer.ctx.table, peer.sealing
        assert table is not None
        submit, send, broadcast, ctx_broadcast = (table.submit, play.send, play.broadcast,
                                                  peer.ctx.broadcast)

        def submitted(*args: Any, **kwargs: Any) -> Any:
            result = submit(*args, **kwargs)
            if isinstance(result, Waiting) and result.seat == peer.seat and self.mover is None:
                self.mover = peer
            return result

        def holding() -> bool:
            return self.mover is not None and self.mover is not peer and not self.released

        def sent(party: int, body: Any) -> None:
            if holding() and isinstance(body, CardKeys) and body.public:
                self.held.append(lambda: send(party, body))
            else:
                send(party, body)

        def broadcasted(body: Any) -> None:
            if holding() and isinstance(body, CardKeys) and body.public:
                self.held.append(lambda: broadcast(body))
            else:
                broadcast(body)

        def told(body: Any) -> None:
            if isinstance(body, ActionMsg):
                self.sent[peer.seat].append(body)
            ctx_broadcast(body)

        table.submit = submitted  # type: ignore[method-assign]
        play.send = sent  # type: ignore[method-assign]
        play.broadcast = broadcasted  # type: ignore[method-assign]
        peer.ctx.broadcast = told  # type: ignore[method-assign]

    def release(self) -> None:
        """Send the keys held back, in the order they were made; hold no more."""
        self.released = True
        held, self.held = self.held, []
        for send in held:
            send()


async def until(peers: list[Peer], predicate: Callable[[], bool], timeout: float) -> bool:
    """Wait until ``predicate()`` holds, looking again after a change of any of ``peers``
    (one peer's `Peer.wait_until` misses what only the other sees: its keys arriving, say)
    and at least twice a second; False on timeout."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not predicate():
        left = deadline - loop.time()
        if left <= 0:
            return False
        changes = [asyncio.ensure_future(p.changed()) for p in peers]
        await asyncio.wait(changes, timeout=min(left, 0.5),
                           return_when=asyncio.FIRST_COMPLETED)
        for change in changes:
            change.cancel()
    return True


def refusals(peers: list[Peer]) -> list[Any]:
    return [r for p in peers for r in p.ctx.refusals]


def test_a_second_move_while_the_own_move_waits_for_cards_is_refused_at_once(
        caplog: pytest.LogCaptureFixture) -> None:
    spec = PluginHost().bot("random")
    caplog.set_level(logging.WARNING)

    async def game() -> bool:
        peers = await sealed_table("mandala", (), 2)
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
            hold = KeyHold(peers)
            bots = {p.seat: make_bot(p, spec) for p in peers}
            while True:
                moved = await until(peers, lambda: any(p.legal_actions() for p in peers)
                                    or any(p.outcome() is not None or p.problem() for p in peers),
                                    WAIT)
                assert moved, f"the table stands still at #{peers[0].index}"
                for p in peers:
                    assert p.problem() is None, p.problem()
                if any(p.outcome() is not None for p in peers):
                    return False  # (no own move waited in this game)
                mover = next(p for p in peers if p.legal_actions())
                legal = list(mover.legal_actions())
                action = bots[mover.seat].choose(mover.view(), legal)
                index = mover.index
                assert await mover.submit(action) is None
                if hold.mover is not None and hold.mover.seat == mover.seat:
                    await waits_then_rests(peers, hold, mover, index, action, legal)
                    return True
        finally:
            await close_all(peers)

    for _ in range(GAMES):
        if run(game()):
            break
    else:
        pytest.fail(f"no seat's own move waited for cards in {GAMES} games: nothing tested")
    assert not [r for r in caplog.records if "refused" in r.getMessage()], \
        [r.getMessage() for r in caplog.records]


async def waits_then_rests(peers: list[Peer], hold: KeyHold, mover: Peer, index: int,
                           action: Action, legal: list[Action]) -> None:
    """While ``mover``'s move waits: refused at once, nothing sent or queued, nothing
    offered, the screen told why; once the keys are in: the move rests everywhere."""
    other = next(p for p in peers if p is not mover)
    await asyncio.sleep(0.3)  # (time for the other peer's keys to be held back)
    assert mover.index == index and mover.seat in mover.active_seats()
    assert mover.sync.waits_own(mover.seat)
    sent_before = list(hold.sent[mover.seat])
    waiting_before = len(mover.sync._waiting)
    assert sent_before and sent_before[-1].index == index and sent_before[-1].seat == mover.seat

    held = mover.held_back()
    assert held is not None and held.code == "move_waits", held
    assert list(mover.legal_actions()) == []
    wait = mover.deck_wait()
    assert wait is not None and wait.what == DeckWaits.SHOW and wait.stops_play, wait
    assert other.seat in wait.seats, wait  # (its keys are the ones missing)
    for again in [action, *[a for a in legal if a != action][:2]]:
        refused = await mover.submit(again)
        assert isinstance(refused, Refusal) and refused.code == "move_waits", refused
    assert hold.sent[mover.seat] == sent_before, "a second move went on the wire"
    assert len(mover.sync._waiting) == waiting_before, "a second move was queued"
    assert mover.index == index

    hold.release()
    assert await until(peers, lambda: all(p.index > index for p in peers), WAIT), \
        f"the move at #{index} never rested"
    assert mover.held_back() is None or mover.held_back().code != "move_waits"  # type: ignore[union-attr]
    assert not mover.sync.waits_own(mover.seat)
    assert [e.action for e in peers[0].entries()[:index + 1]] == \
        [e.action for e in peers[1].entries()[:index + 1]]
    assert peers[0].entries()[index].seat == mover.seat
    if mover.seat in mover.active_seats():  # the rules give it the next action too
        assert await until(peers, lambda: bool(mover.legal_actions()), WAIT)
    for p in peers:
        assert p.problem() is None, p.problem()
    assert not refusals(peers), refusals(peers)


def test_a_bot_whose_move_waits_for_cards_waits_without_submitting_again() -> None:
    spec = PluginHost().bot("random")

    async def game() -> bool:
        peers = await sealed_table("mandala", (), 2)
        events: list[tuple[str, str]] = []
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
            hold = KeyHold(peers)
            tries: list[tuple[int, Refusal | None]] = []
            for p in peers:
                submit = p.submit

                async def counted(action: Action, p: Peer = p, submit: Any = submit
                                  ) -> Refusal | None:
                    refused = await submit(action)
                    tries.append((p.seat, refused))
                    return refused

                p.submit = counted  # type: ignore[method-assign,unused-ignore]
            bots = [asyncio.ensure_future(play_bot(
                p, spec, delay=0.0, emit=lambda e, t, **f: events.append((e, t))))
                for p in peers]
            try:
                found = await until(
                    peers, lambda: hold.mover is not None or all(b.done() for b in bots), GAME_S)
                assert found
                mover = hold.mover
                if mover is None:
                    return False
                index = mover.index
                before = len(tries)
                await asyncio.sleep(0.5)  # the bot looks at every change meanwhile
                assert mover.index == index and mover.sync.waits_own(mover.seat)
                assert tries[before:] == [], "the bot submitted again while its move waited"
                hold.release()
                assert await until(
                    peers, lambda: all(p.index > index + 3 for p in peers) or all(
                        b.done() for b in bots), 3 * WAIT)
                assert not [t for t in tries if t[1] is not None], tries
                assert not [e for e in events if e[0] in ("refused", "halted")], events
                for p in peers:
                    assert p.problem() is None, p.problem()
                return True
            finally:
                await stop_bots(bots)
        finally:
            await close_all(peers)

    for _ in range(GAMES):
        if run(game()):
            return
    pytest.fail(f"no seat's own move waited for cards in {GAMES} games: nothing tested")

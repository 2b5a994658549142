"""A bot that takes over a seat of a sealed table plays it only once the seat's cards are
open to its runner (docs/protocol.md §10.11).

A takeover passes before the departed party's secret is recovered: the runner needs every
other party's share of it (``EscrowOpen``), and only then is it shown the seat's hand.
Until then the seat's legal actions cannot be listed (the rules would read a card nobody
opened here: `hedgerow.core.sealed.SealedRead`), so the hosted bot waits instead of
failing, and plays once the cards are open.  Peers in one process over real CURVE sockets
(tests/departing.py); the other party's shares are held back at the runner for a while.
Posy (a toy game, tests/toygames.py) reads the cards of a hand to list its actions;
Petals lists them unread, and the bot would play a card nobody here can see: the action
waits for the card, and a bot that looked again at once queued another, and another,
without ever giving the loop back (the peer froze).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from departing import WAIT, close_all, crash, fast, run, sealed_table, table

from hedgerow.net.messages import EscrowOpen, MotionKind, SeatMotion
from hedgerow.net.peer import Peer
from hedgerow.net.seat import Link


async def _to_turn_of(seat: int, movers: list[Peer], watch: Peer) -> None:
    """Play the ``movers``' seats (their first legal action) until ``seat`` is to move."""
    for _ in range(200):
        table = watch.ctx.table
        assert table is not None
        if table.active_seats() == (seat,):
            return
        for p in movers:
            legal = p.legal_actions()
            if legal:
                assert await p.submit(legal[0]) is None
        await asyncio.sleep(0.05)
    raise AssertionError(f"seat {seat} never came to move")


@pytest.mark.parametrize("game", ["posy", "petals"])
def test_a_hosted_bot_waits_for_its_sealed_seats_cards_before_it_lists_its_actions(
        game: str) -> None:
    async def main() -> None:
        peers = await (table(game, 3) if game == "posy" else sealed_table(game, (), 3))
        fast(peers)
        runner, other, victim = peers
        try:
            for p in peers:
                assert await p.wait_until(lambda p=p: p.ready, WAIT)
            await _to_turn_of(2, [runner, other], runner)
            assert await victim.wait_until(lambda: victim.legal_actions() != [], WAIT)
            await crash(victim)
            for p in (runner, other):
                assert await p.wait_until(lambda p=p: p.seats()[2].link == Link.LOST, WAIT)
            # The other party's shares of seat 2's secret are held back at the runner.
            sealing = runner.sealing.sealing
            assert sealing is not None
            held: list[tuple[int, EscrowOpen]] = []
            taken = sealing.on_escrow_open

            def hold(party: int, msg: EscrowOpen) -> Any:
                held.append((party, msg))
                return None
            sealing.on_escrow_open = hold  # type: ignore[method-assign]
            authored: list[int] = []  # the bot's actions, each authored once
            author = runner.sync.author

            def counted(seat: int, action: Any) -> Any:
                authored.append(seat)
                if len(authored) > 20:
                    raise RuntimeError("the hosted bot authors again and again")
                return author(seat, action)
            runner.sync.author = counted  # type: ignore[method-assign]
            start = runner.index
            other.departures.accept = lambda motion: True
            assert isinstance(runner.departures.propose(MotionKind.TAKEOVER, 2, "random"),
                              SeatMotion)
            assert await runner.wait_until(lambda: 2 in runner.departures.runs, WAIT)
            assert await runner.wait_until(lambda: bool(held), WAIT)
            await asyncio.sleep(0.5)  # the bot looks at its seat meanwhile
            assert 2 not in sealing.recovered and runner.index == start
            bot = runner.departures._bots.get(2)
            assert bot is not None and not bot.done(), "the hosted bot failed"
            assert authored == []
            sealing.on_escrow_open = taken  # type: ignore[method-assign]
            for party, msg in held:
                assert taken(party, msg) is None
            assert await runner.wait_until(
                lambda: any(e.seat == 2 and e.index >= start for e in runner.entries()),
                WAIT), "the hosted bot never played seat 2"
            assert await other.wait_until(lambda: other.index >= runner.index, WAIT)
            played = [e for e in runner.entries() if e.seat == 2 and e.index >= start]
            assert len(authored) == len(played), (authored, played)
        finally:
            await close_all([runner, other])

    run(main())

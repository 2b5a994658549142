"""A seat of a sealed table of three killed, taken over by a bot and reclaimed
(docs/protocol.md §5.9, §10.11): the others recover the seat's secret from the escrow, the
runner's party makes the seat's passes and keys while the bot plays, and the player resumes
from its log and takes the seat back.  Every peer finishes on one state hash, every log
verifies, and no card of a seat is shown to a party that does not hold the seat.

Peers in one process over real CURVE sockets (tests/departing.py), built-in games: Petals
(one shuffle, cards drawn all game) and Mandala (the discard reshuffled into a new deck).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from departing import WAIT, close_all, crash, events_of, fast, sealed_table, verified

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.context import RefusalRecord
from hedgerow.net.launch import resume_table
from hedgerow.net.messages import SeatEventKind
from hedgerow.net.peer import Peer
from hedgerow.net.seat import Phase

LONG = 6 * WAIT


async def taken_over(game: str, spec: Any) -> tuple[list[Peer], Path, list[Any]]:
    """A sealed table of three with seat 2 dealt, then killed, and taken over by a bot on
    the other two (their bot runners going on): the peers, seat 2's log, the runners."""
    peers = await sealed_table(game, (), 3)
    fast(peers)
    victim = peers[2]
    assert await victim.wait_until(lambda: victim.ready, WAIT)  # dealt
    log_path = victim.log_path()
    assert log_path is not None
    await crash(victim)
    honest = [asyncio.ensure_future(play_bot(p, spec, delay=0.005, take_over=0.3))
              for p in peers[:2]]
    for p in peers[:2]:
        assert await p.wait_until(lambda p=p: 2 in p.departures.runs, WAIT), "takeover"
    return peers, log_path, honest


def shown_only_to_holders(peer: Peer, lent: set[object] = frozenset()) -> None:
    """``peer`` opened no card but the public ones, those its own seats saw, and ``lent``:
    those of a seat its bot ran (shown to the runner by the takeover)."""
    sealing = peer.sealing.sealing
    assert sealing is not None and peer.ctx.roster is not None
    table = sealing.table
    own = {card for seat in peer.ctx.roster.seats_of(peer.identity.public)
           for card in table.seen_by(seat)}
    extra = set(table.mine) - own - set(table.public) - set(lent)
    assert not extra, (peer.seat, sorted(extra))


def acted_twice_or_early(refusal: RefusalRecord) -> bool:
    """An action refused as at any table: sent before a takeover or handback was in force
    at the receiver, or a repeat of an entry it holds (see the first test)."""
    return refusal.what == "ActionMsg" and refusal.code.name in ("WRONG_SEAT", "BAD_INDEX")


@pytest.mark.parametrize("game", ["petals", "mandala"])
def test_a_sealed_seat_killed_taken_over_and_resumed_plays_to_the_end(game: str) -> None:
    spec = PluginHost().bot("random")

    async def main() -> None:
        peers, log_path, honest = await taken_over(game, spec)
        rest, first = peers[:2], peers[0]
        # The bot plays the seat a while: cards drawn to it, cards it shows, and at Mandala
        # a reshuffle of the discard while the runner makes the seat's passes.
        start = first.index

        def far_enough() -> bool:
            if first.phase() == Phase.FINISHED:
                return True
            entries = first.entries()
            if game == "mandala":
                chances = [e.index for e in entries if e.is_chance and e.index > start]
                return bool(chances) and any(e.seat == 2 and e.index > chances[0]
                                             for e in entries)
            return sum(1 for e in entries if e.seat == 2 and e.index > start) >= 4

        assert await first.wait_until(far_enough, LONG)
        assert first.phase() == Phase.PLAYING, "the game ended before the player came back"
        back = await resume_table(log_path, identity=peers[2].identity, plugins=PluginHost())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.0
        try:
            assert await back.wait_until(lambda: back.departures.may_act(), WAIT), "reclaim"
            for p in rest:
                assert await p.wait_until(lambda p=p: 2 not in p.departures.runs, WAIT)
            # What the runner was shown of seat 2 while its bot ran it (and no more later).
            assert first.sealing.sealing is not None
            lent = set(first.sealing.sealing.table.mine)
            codes = await asyncio.wait_for(
                asyncio.gather(play_bot(back, spec, delay=0.005), *honest), LONG)
            assert codes == [0, 0, 0]
            everyone = [back, *rest]
            assert len({p.state_hash() for p in everyone}) == 1
            for p in everyone:
                assert await p.wait_until(lambda p=p: p.sealing.verdict is not None, WAIT)
                verdict = p.sealing.verdict
                assert verdict is not None and verdict.ok, verdict.message
            assert [k for k, _, _ in events_of(log_path)] == [SeatEventKind.TAKEOVER,
                                                               SeatEventKind.RECLAIM]
            # No pass, no key, no escrow message refused anywhere.  Of actions only what an
            # open table refuses too: the bot's before the takeover (or the handback) is in
            # force at the receiver (WRONG_SEAT, docs/protocol.md §5.9; at the returning
            # process, those sent to the dead process's address), and under load a repeat
            # of an entry the peer already holds (BAD_INDEX, sent again to a peer that
            # looked behind, §10.8).
            refused = [(p.seat, r.what, r.message) for p in everyone for r in p.ctx.refusals
                       if not acted_twice_or_early(r)]
            assert not refused, refused
            shown_only_to_holders(back)
            shown_only_to_holders(rest[1])
            shown_only_to_holders(first, lent)
        finally:
            await close_all([back, *rest])
        for p in (back, *rest):
            path = p.log_path()
            assert path is not None
            verified(p, path)

    asyncio.run(asyncio.wait_for(main(), 3 * LONG))


@pytest.mark.parametrize("game", ["petals", "mandala"])
def test_a_sealed_seat_reclaimed_then_killed_again_is_taken_over_again(game: str) -> None:
    """After a reclaim the seat's secret is still known to the others: killed again, it is
    taken over again at once (its party absent again, the runner making its passes and
    keys from the next one due), and the table plays to the end."""
    spec = PluginHost().bot("random")

    async def main() -> None:
        peers, log_path, honest = await taken_over(game, spec)
        rest, first = peers[:2], peers[0]
        back = await resume_table(log_path, identity=peers[2].identity, plugins=PluginHost())
        back.links.heartbeat, back.links.lost_after = 0.1, 1.0
        try:
            assert await back.wait_until(lambda: back.departures.may_act(), WAIT), "reclaim"
            for p in rest:
                assert await p.wait_until(lambda p=p: 2 not in p.departures.runs, WAIT)
            mine = asyncio.ensure_future(play_bot(back, spec, delay=0.005))
            start = first.index
            assert await first.wait_until(
                lambda: sum(1 for e in first.entries() if e.seat == 2 and e.index > start) >= 2
                or first.phase() == Phase.FINISHED, LONG)
            assert first.phase() == Phase.PLAYING, "the game ended before the seat left again"
            mine.cancel()
            await crash(back)
        finally:
            await close_all([back])
        try:
            for p in rest:
                assert await p.wait_until(lambda p=p: 2 in p.departures.runs, WAIT), "again"
            codes = await asyncio.wait_for(asyncio.gather(*honest), LONG)
            assert codes == [0, 0]
            assert len({p.state_hash() for p in rest}) == 1
            for p in rest:
                assert await p.wait_until(lambda p=p: p.sealing.verdict is not None, WAIT)
                verdict = p.sealing.verdict
                assert verdict is not None and verdict.ok, verdict.message
                path = p.log_path()
                assert path is not None
                assert [k for k, _, _ in events_of(path)] == [
                    SeatEventKind.TAKEOVER, SeatEventKind.RECLAIM, SeatEventKind.TAKEOVER]
                verified(p, path)
            assert not [r for p in rest for r in p.ctx.refusals
                        if not acted_twice_or_early(r)]
            shown_only_to_holders(rest[1])
        finally:
            await close_all(rest)

    asyncio.run(asyncio.wait_for(main(), 3 * LONG))

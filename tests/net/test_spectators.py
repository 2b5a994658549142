"""Spectators at a live table (docs/protocol.md §3.4), real peers over CURVE on 127.0.0.1.

* Two spectators of a sealed three-seat table of random bots: one watches from the
  seating, the other arrives in the middle of the game (it catches up from the host's log)
  and the first leaves before the end; the players see who watches as it changes, the game
  is the one it would have been (every seat's hash the same, the deck verifies), and the
  spectator that stayed ends on the players' state hash.
* A curious spectator keeps every frame it was sent: nothing in them is a key meant for one
  seat or a secret, and replaying everything it holds (as `hedgerow replay` would, with no
  secret) opens no card of any hand it was not shown with everyone.
* The host's limits: a table that refuses spectators (``WRONG_PHASE``), the ninth spectator
  (``TABLE_FULL``), a spectator at a peer that is not the host (``STRANGER``).
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from departing import sealed_table

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.address import parse_address
from hedgerow.net.codec import decode_envelope, decode_log_record
from hedgerow.net.context import JoinRefused
from hedgerow.net.keys import generate
from hedgerow.net.launch import host_table, join_table
from hedgerow.net.logfile import LogReadResult
from hedgerow.net.messages import LoggedEntry, LogHeader, SealRecord, SeatEvent, SpectatorFeed
from hedgerow.net.peer import Peer
from hedgerow.net.sealreplay import replay_sealed
from hedgerow.net.spectators import MAX_SPECTATORS
from hedgerow.net.transport import Received
from hedgerow.net.watching import Spectator

WAIT = 120.0


def spectator(name: str) -> Spectator:
    return Spectator(generate(), PluginHost(), name=name)


async def watch(peer: Peer, name: str) -> Spectator:
    s = spectator(name)
    await s.watch(parse_address(peer.address))
    return s


def run(coro: Any) -> Any:
    return asyncio.run(asyncio.wait_for(coro, WAIT))


def recording(s: Spectator) -> list[bytes]:
    """Every frame ``s`` receives from now on, as it came."""
    frames: list[bytes] = []
    handle = s.node._handler

    def keep(rx: Received) -> None:
        if rx.data is not None:
            frames.append(rx.data)
        handle(rx)

    s.node._handler = keep
    return frames


def test_spectators_arrive_and_leave_and_the_game_is_the_same() -> None:
    async def main() -> None:
        plugins = PluginHost()
        host = await host_table(plugins.ruleset("petals", (), 3), 3, identity=generate(),
                                seat_name="host", announce=False)
        early = await watch(host, "Early")  # before anyone else sat down
        assert host.watchers() == ("Early",)
        peers = [host] + [await join_table(host.address, identity=generate(),
                                           plugins=PluginHost(), seat_name=f"joiner{i}")
                          for i in (1, 2)]
        joiner = peers[1]
        assert await joiner.wait_until(lambda: joiner.watchers() == ("Early",), 5)
        spec = PluginHost().bot("random")
        bots = [asyncio.ensure_future(play_bot(p, spec, delay=0.05)) for p in peers]
        assert await host.wait_until(lambda: host.index >= 12, 60)
        late = spectator("Late")  # in the middle of the game: it catches up
        frames = recording(late)  # everything it is sent, kept
        await late.watch(parse_address(host.address))
        assert await joiner.wait_until(lambda: joiner.watchers() == ("Early", "Late"), 5)
        assert await host.wait_until(lambda: host.index >= 18, 60)
        assert await late.wait_until(lambda: late.live is not None
                                     and len(late.live.history) >= 18, 10)
        check_curious(list(frames), host, hands=True)  # in the middle of the game
        await early.close()  # leaving changes nothing at the table
        assert await joiner.wait_until(lambda: joiner.watchers() == ("Late",), 5)
        assert await asyncio.gather(*bots) == [0, 0, 0], [p.problem() for p in peers]
        assert {p.state_hash() for p in peers} == {host.state_hash()}
        assert {p.verdict() for p in peers} == {"every shuffle, key and action checks out"}
        for s in (early, late):  # (the early one followed until it left)
            assert s.live is not None and s.live.mismatch is None, s.live
        assert await late.wait_until(lambda: late.live is not None
                                     and len(late.live.history) == host.index, 10)
        live = late.live
        assert live is not None and live.mismatch is None
        assert live.state_hash() == host.state_hash()
        assert live.table is not None and live.table.outcome() == host.outcome()
        # It was sent no card of anyone's hand (the table holds none of its own) ...
        assert not getattr(live.table, "mine", {})
        check_curious(frames, host, hands=False)  # and at the end
        await late.close()
        for p in peers:
            await p.close()

    run(main())


def check_curious(frames: list[bytes], host: Peer, *, hands: bool) -> None:
    """What a spectator received opens no card that was not shown to everyone (``hands``:
    the seats hold cards now, which must stay sealed)."""
    records: list[Any] = []
    for data in frames:
        body = decode_envelope(data).body
        if isinstance(body, SpectatorFeed):
            records += [decode_log_record(r) for r in body.records]
    seals = [r for r in records if isinstance(r, SealRecord)]
    assert seals and all(r.disclose is None for r in seals)  # no secret
    assert all(r.keys is None or r.keys.public for r in seals)  # no key for one seat
    header = next(r for r in records if isinstance(r, LogHeader))
    entries = tuple(r for r in records if isinstance(r, LoggedEntry))
    ordered: list[tuple[int, SealRecord]] = []
    count = 0
    for r in records:
        if isinstance(r, LoggedEntry):
            count += 1
        elif isinstance(r, SealRecord):
            ordered.append((count, r))
    result = LogReadResult(header, entries, None, 0, (), tuple(r for r in records
                                                            if isinstance(r, SeatEvent)),
                           tuple(ordered))
    replayed = replay_sealed(host.ruleset, result, parties=host.players,
                             party_of=lambda seat: seat)
    assert replayed.mismatch is None and replayed.table is not None
    table, sealing = replayed.table, replayed.sealing
    assert sealing is not None and not sealing.disclosed
    hidden = {k for seat in range(host.players) for k in table.seen_by(seat)
              if k not in table.public}
    assert hidden or not hands  # hands were dealt, and they stay sealed
    for card in hidden:
        assert len(sealing._keys_for(card)) < host.players, card


def test_the_host_refuses_spectators_when_it_must() -> None:
    async def main() -> None:
        peers = await sealed_table("petals", (), 2)
        host, joiner = peers
        watchers = [await watch(host, f"W{i}") for i in range(MAX_SPECTATORS)]
        with pytest.raises(JoinRefused, match=f"already has {MAX_SPECTATORS} spectators"):
            await watch(host, "One too many")
        with pytest.raises(JoinRefused, match="does not seat anyone"):
            await watch(joiner, "At a joiner")
        host.spectators.allowed = False
        await watchers[0].close()
        with pytest.raises(JoinRefused, match="takes no spectators"):
            await watch(host, "Refused")
        for w in watchers[1:]:
            await w.close()
        for p in peers:
            await p.close()

    run(main())

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
* A hostile spectator (raw sockets, tests/rogue.py): an action, a state hash, a motion, a
  vote, seed and sealed-deck messages, a seating, a feed of its own... each refused with
  ``WRONG_SEAT``, an ``Error`` never answered, the other peers refusing it as a stranger;
  and a burst of fuzz (tests/reliability/fuzz.py's three kinds) from its key: the game ends
  on one hash, the deck verifies, the host answers to the end.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from departing import sealed_table
from rogue import Rogue
from spectating import check_curious

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.actions import Action
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net import rulesmatch
from hedgerow.net.address import parse_address
from hedgerow.net.context import JoinRefused
from hedgerow.net.keys import generate
from hedgerow.net.launch import host_table, join_table
from hedgerow.net.livetable import LiveTable
from hedgerow.net.messages import (
    ActionCommit,
    ActionMsg,
    ActionReveal,
    CardKey,
    CardKeys,
    CatchUpRequest,
    Disclose,
    Envelope,
    ErrorCode,
    ErrorMsg,
    Heartbeat,
    Hello,
    LoggedEntry,
    LogHeader,
    MotionKind,
    MotionVote,
    SeatAssignment,
    SeatEvent,
    SeatEventKind,
    SeatHandback,
    SeatMotion,
    SeatTaken,
    SeedCommit,
    SeedReveal,
    SpectatorFeed,
    StateHash,
)
from hedgerow.net.peer import Peer
from hedgerow.net.spectators import MAX_SPECTATORS, NO_SEAT
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
        check_curious(list(frames), host.ruleset, host.players, hands=True)  # mid-game
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
        check_curious(frames, host.ruleset, host.players, hands=False)  # and at the end
        await late.close()
        for p in peers:
            await p.close()

    run(main())


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


async def rogue_spectator(host: Peer) -> tuple[Rogue, Envelope]:
    """A spectator made of raw sockets (tests/rogue.py), watching ``host``: its seating."""
    rogue = Rogue("spy")
    rogue.dial(host.identity.public, host.endpoint)
    hello = Hello("*", rulesmatch.installed(PluginHost()), "Spy", address=rogue.endpoint,
                  spectator=True)
    await rogue.send(host.identity.public, rogue.envelope(hello, table_id=b""))
    _, seating = await asyncio.wait_for(rogue.next_message(SeatAssignment), 10)
    rogue.table_id = seating.table_id
    return rogue, seating


def forged(host: Peer) -> list[Any]:
    """A spectator's try at each thing only a seat may do (and a feed of its own)."""
    index, head = host.index, host.entries()[-1].digest
    h32 = bytes(32)
    return [ActionMsg(index, head, 0, Action.of("pass")), StateHash(max(0, index - 1), h32),
            ActionCommit(index, 0, h32), ActionReveal(index, 0, Action.of("pass"), h32),
            SeedCommit(0, h32), SeedReveal(0, h32), CatchUpRequest(0),
            SeatMotion(1, MotionKind.END, 1, 0, "", index, (0,)), MotionVote(0, 1, True),
            SeatTaken(0, 1, "random", index), SeatHandback(1, index),
            SeatAssignment(0, 2, "petals@2.1.0"), SpectatorFeed(0, (b"x",)),
            Disclose(0, h32), CardKeys((CardKey(0, 0, 0, h32),), True)]


def test_a_hostile_spectator_is_refused_and_changes_nothing() -> None:
    async def main() -> None:
        peers = await sealed_table("petals", (), 2)
        host, joiner = peers
        rogue, seating = await rogue_spectator(host)
        assert seating.body.seat is None and [p.seat for p in seating.body.peers] == [0, 1]
        spec = PluginHost().bot("random")
        bots = [asyncio.ensure_future(play_bot(p, spec, delay=0.05)) for p in peers]
        assert await host.wait_until(lambda: host.index >= 6, 60)
        bodies = forged(host)
        for body in bodies:
            await rogue.send(host.identity.public, rogue.envelope(body))
        codes = [await asyncio.wait_for(rogue.errors.get(), 10) for _ in bodies]
        assert {(c.code, c.message) for _, c in codes} == {(ErrorCode.WRONG_SEAT, NO_SEAT)}
        assert sorted(c.ref_seq for _, c in codes) == list(range(2, 2 + len(bodies)))
        # An Error from a spectator is never answered; the other peers do not know it.
        await rogue.send(host.identity.public, rogue.envelope(ErrorMsg(ErrorCode.DESYNC, "x")))
        joiner_info = next(p for p in seating.body.peers if p.seat == 1)
        rogue.dial(joiner_info.public_key, joiner_info.address)
        await rogue.send(joiner_info.public_key, rogue.envelope(bodies[0]))
        _, error = await asyncio.wait_for(rogue.errors.get(), 10)
        assert error.code == ErrorCode.STRANGER
        assert await asyncio.gather(*bots) == [0, 0], [p.problem() for p in peers]
        assert host.state_hash() == joiner.state_hash() and host.problem() is None
        assert {p.verdict() for p in peers} == {"every shuffle, key and action checks out"}
        assert host.watchers() == ("Spy",)
        await rogue.close()
        for p in peers:
            await p.close()

    run(main())


def test_a_burst_of_fuzz_from_a_spectator_changes_nothing() -> None:
    """Every kind of bad input (tests/reliability/fuzz.py) from a spectator's key, in the
    middle of a game: the game ends on one hash, the host answers to the end."""
    from reliability.fuzz import inputs

    async def main() -> None:
        peers = await sealed_table("petals", (), 2)
        host, joiner = peers
        rogue, _ = await rogue_spectator(host)
        spec = PluginHost().bot("random")
        bots = [asyncio.ensure_future(play_bot(p, spec, delay=0.05)) for p in peers]
        assert await host.wait_until(lambda: host.index >= 4, 60)
        corpus = [rogue.envelope(body) for body in forged(host)]
        for i, (_, data) in enumerate(inputs(600, 7, corpus, rogue.table_id, rogue.key)):
            await rogue.send(host.identity.public, data)
            if i % 100 == 99:
                await asyncio.sleep(0)
        probe = rogue.envelope(Heartbeat(0), table_id=b"\xff" * 16)
        await rogue.send(host.identity.public, probe)
        while True:  # the host still answers, in order, after the burst
            _, error = await asyncio.wait_for(rogue.errors.get(), 30)
            if error.code == ErrorCode.WRONG_TABLE and error.ref_seq == rogue.seq:
                break
        assert await asyncio.gather(*bots) == [0, 0], [p.problem() for p in peers]
        assert host.state_hash() == joiner.state_hash() and host.problem() is None
        assert {p.verdict() for p in peers} == {"every shuffle, key and action checks out"}
        await rogue.close()
        for p in peers:
            await p.close()

    run(main())


@pytest.mark.parametrize("deck", ["sealed", "open"])
def test_a_spectator_sees_a_seat_lost_and_taken_over(deck: str) -> None:
    """A joiner is killed; the spectator sees the seat lost, then the takeover in force (the
    seat event, the bot's moves: at a sealed table the runner's party shows the seat's
    cards), and ends on the players' hash."""
    from departing import WAIT, close_all, crash, fast, table
    from departing import plugins as toy_plugins

    async def main() -> None:
        peers = await table("posy", 3, open_deck=deck == "open")
        fast(peers)
        host, victim = peers[0], peers[2]
        watching = Spectator(generate(), toy_plugins(), name="Viv", heartbeat=0.1,
                             lost_after=1.0)  # (as fast as the peers: `fast`)
        await watching.watch(parse_address(host.address))
        assert await victim.wait_until(lambda: victim.ready, WAIT)
        await crash(victim)
        rest = peers[:2]
        spec = toy_plugins().bot("random")
        bots = [asyncio.ensure_future(play_bot(p, spec, delay=0.02, take_over=0.3))
                for p in rest]
        assert await watching.wait_until(lambda: 2 in watching.lost, WAIT), (
            watching.lost, watching.left, watching.host, host.seats(), watching.live)
        assert await watching.wait_until(
            lambda: watching.live is not None
            and any(e.kind == SeatEventKind.TAKEOVER and e.seat == 2
                    for e in watching.live.events), WAIT)
        assert await asyncio.gather(*bots) == [0, 0]
        assert host.state_hash() == peers[1].state_hash()
        live = watching.live
        assert await watching.wait_until(lambda: live is not None
                                         and len(live.history) == host.index, 10)
        assert live is not None and live.mismatch is None
        took = next(e for e in live.events if e.kind == SeatEventKind.TAKEOVER)
        bot_moves = [e for e in host.entries() if e.seat == 2 and e.index >= took.index]
        assert [a.entry for a in live.history if a.entry.seat == 2
                and a.entry.index >= took.index] == bot_moves  # (the same entries, whole)
        assert live.state_hash() == host.state_hash()
        await watching.close()
        await close_all(rest)

    run(main())


def test_a_rollback_in_the_stream_voids_the_entries_it_names() -> None:
    """An open-deck table's records with a ``ROLLBACK`` seat event (a seat cut off at its own
    turn took back its entries, docs/protocol.md §5.9): the spectator's table replays
    without the void entries, then takes the entries that replace them."""
    import random

    from hedgerow.core.seeding import seed_from_int
    from hedgerow.core.table import Table
    from hedgerow.net.rulesmatch import table_fingerprint

    plugins = PluginHost()
    ruleset = plugins.ruleset("petals", (), 2)
    fingerprint = table_fingerprint(ruleset, open_deck=True)
    seed = seed_from_int(3)
    header = LogHeader.for_table(ruleset, 2, seed, table_id=bytes(range(16)), own_seat=0,
                                 fingerprint=fingerprint)

    def played(choose: random.Random, moves: int, table: Table) -> list[LoggedEntry]:
        out = [LoggedEntry(a.entry, table.hash_of(a.after)) for a in table.opening]
        for _ in range(moves):
            step = table.submit_step({s: choose.choice(list(table.legal_actions(s)))
                                      for s in table.active_seats()})
            assert isinstance(step, tuple)
            out += [LoggedEntry(a.entry, table.hash_of(a.after)) for a in step]
        return out

    first = played(random.Random(1), 6, Table(ruleset, 2, seed, fingerprint=fingerprint))
    again = Table(ruleset, 2, seed, fingerprint=fingerprint)
    kept = played(random.Random(1), 4, again)  # the same first moves ...
    taken = len(kept)
    other = kept + played(random.Random(9), 3, again)[len(again.opening):]  # ... then others
    assert [e.entry for e in first[:taken]] == [e.entry for e in other[:taken]]
    live = LiveTable(ruleset, header, ())
    for item in first:
        live.add(item)
    assert len(live.history) == len(first) and live.mismatch is None
    live.add(SeatEvent(SeatEventKind.ROLLBACK, 1, index=taken))
    assert len(live.history) == taken and live.mismatch is None
    for item in other[taken:]:
        live.add(item)
    assert live.mismatch is None and len(live.history) == len(other)
    assert live.state_hash() == other[-1].state_hash

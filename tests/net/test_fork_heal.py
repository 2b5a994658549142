"""A seat cut off during its own turn does not fork from the table (docs/protocol.md §5.9,
"A seat cut off at its own turn").

The cut seat authors its own entry #N while nobody hears it; the others, who saw it lost,
seat a bot that authors another #N.  When the link returns, the runner's ``SeatTaken``
names #N: the cut seat takes back its own entry (nobody else applied it), logs the rollback,
waits for the handback, catches up the table's entries and plays on.  Every log verifies and
holds the same entries; the cut seat's file still holds its own void entry, before the
rollback record.  A lone cut-off seat cannot seat bots for the others (it is no majority);
an entry another peer acknowledged is never taken back; at a sealed table the cut seat
stops cleanly instead.  Peers in one process over real CURVE sockets (tests/departing.py);
the cut is the peer dropping everything it would send or hear.  The same fault between
real processes on a simulated LAN is tests/reliability/test_lan_fork.py.
"""

from __future__ import annotations

import asyncio

from departing import WAIT, close_all, fast, plugins, run, table, verified
from forking import cut, forked, other_than_the_bot, restarted, to_turn_of

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.errors import Refusal
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.table import Table
from hedgerow.net.keys import generate
from hedgerow.net.launch import host_table, join_table
from hedgerow.net.logfile import read_log
from hedgerow.net.messages import (
    LogHeader,
    MotionKind,
    SeatEventKind,
    SeatMotion,
    SeatTaken,
    StateHash,
)
from hedgerow.net.peer import Peer
from hedgerow.net.seat import Link, Phase


def test_a_seat_cut_off_at_its_own_turn_takes_its_entry_back_and_plays_on() -> None:
    spec = plugins().bot("random")

    async def main() -> None:
        peers = await table("posy", 3, open_deck=True)
        fast(peers)
        runner, other, victim = peers
        try:
            await to_turn_of(peers, 2)
            fork = victim.index
            link = cut(victim)
            own = other_than_the_bot(victim, spec)
            assert await victim.submit(own) is None  # our own #N, heard by nobody
            assert victim.index > fork
            for p in (runner, other):
                assert await p.wait_until(lambda p=p: p.seats()[2].link == Link.LOST, WAIT)
            assert await victim.wait_until(
                lambda: {0, 1} <= victim.departures.lost_seen
                or {0, 1} <= {s for s in victim.departures.rollback.lost_since(fork, set())},
                WAIT)
            # Alone, the cut seat is no majority: it cannot seat bots for the others.
            lone = victim.departures.propose(MotionKind.TAKEOVER, 0, "random")
            assert isinstance(lone, Refusal) and "more than half" in lone.message
            # ... nor end the game the others play on.
            lone_end = victim.departures.propose(MotionKind.END, 0)
            assert isinstance(lone_end, Refusal) and "more than half" in lone_end.message
            assert victim.departures.end_problem(0) == lone_end.message
            other.departures.accept = lambda motion: True
            assert isinstance(runner.departures.propose(MotionKind.TAKEOVER, 2, "random"),
                              SeatMotion)
            assert await other.wait_until(lambda: 2 in other.departures.runs, WAIT)
            bots = [asyncio.ensure_future(play_bot(p, spec, delay=0.05)) for p in (runner, other)]
            assert await runner.wait_until(  # the bot authors another #N for seat 2
                lambda: any(e.seat == 2 and e.index == fork for e in runner.entries()), WAIT)
            theirs = runner.entries()[fork]
            mine = victim.entries()[fork]
            assert theirs.digest != mine.digest  # two different entries #N: a fork
            link[0] = False  # the link returns
            assert await victim.wait_until(lambda: victim.departures.handed_back is not None,
                                           WAIT)
            assert victim.phase() == Phase.PLAYING, victim.problem()
            assert not any(r.what in ("SeatTaken", "SeatHandback") for r in victim.ctx.refusals)
            assert [e.kind for e in victim.departures.events] == [
                SeatEventKind.ROLLBACK, SeatEventKind.TAKEOVER, SeatEventKind.RECLAIM]
            assert victim.departures.events[0].index == fork
            codes = await asyncio.gather(play_bot(victim, spec, delay=0.01), *bots)
            assert codes == [0, 0, 0], victim.problem()
            assert victim.state_hash() == runner.state_hash() == other.state_hash()
            assert victim.entries()[fork] == theirs  # the table's #N stands
            for p in peers:
                p.sync.seal()
                verified(p, p.log_path())
                assert list(read_log(p.log_path()).entries) == \
                    list(read_log(runner.log_path()).entries)
            # Nothing written is lost: the void entry is still in the victim's file, before
            # the rollback record that voids it.
            raw = victim.log_path().read_bytes()
            assert mine.digest in raw
        finally:
            await close_all(peers)

    run(main())


def test_a_differing_hash_before_the_takeover_is_told_is_doubted_not_a_desync() -> None:
    """Messages sent during the cut arrive in any order across links: another seat's hash
    of the table's #N (here a StateHash; at a simultaneous step a commitment carries them)
    may come before the runner's SeatTaken.  The cut seat does not halt on it: it stops
    acting, tells nobody, and takes its entry back once the SeatTaken comes."""
    spec = plugins().bot("random")

    async def main() -> None:
        peers = await table("posy", 3, open_deck=True)
        fast(peers)
        runner, other, victim = peers
        try:
            fork, link, deaf, bots = await forked(peers, spec)
            link[0] = False  # the link returns, but the runner's messages are slow
            other.sync.seal()  # (the bot's #N is in its table: its hash, once sealed)
            assert other.ctx.hashes is not None
            member = other.ctx.roster.by_seat(2) if other.ctx.roster else None
            assert member is not None
            other.ctx.send(member, StateHash.of(fork, [other.ctx.hashes.own[fork]]))
            assert await victim.wait_until(
                lambda: victim.departures.rollback.doubted is not None, WAIT)
            assert victim.phase() == Phase.PLAYING and victim.held_back() is not None
            await asyncio.sleep(0.3)
            assert runner.phase() == other.phase() == Phase.PLAYING  # nobody was told
            deaf.release()  # the runner's SeatTaken comes
            assert await victim.wait_until(lambda: victim.departures.handed_back is not None,
                                           WAIT)
            assert victim.departures.rollback.doubted is None
            codes = await asyncio.gather(play_bot(victim, spec, delay=0.01), *bots)
            assert codes == [0, 0, 0], victim.problem()
            assert victim.state_hash() == runner.state_hash() == other.state_hash()
            for p in peers:
                p.sync.seal()
                verified(p, p.log_path())
        finally:
            await close_all(peers)

    run(main())


def test_a_doubt_no_takeover_explains_halts_as_a_desync(monkeypatch) -> None:
    import hedgerow.net.rollback as rollback

    monkeypatch.setattr(rollback, "DOUBT_S", 0.5)
    spec = plugins().bot("random")

    async def main() -> None:
        peers = await table("posy", 3, open_deck=True)
        fast(peers)
        _, other, victim = peers
        try:
            fork, link, _deaf, bots = await forked(peers, spec)
            link[0] = False  # (the runner's messages never come)
            other.sync.seal()
            assert other.ctx.hashes is not None
            member = other.ctx.roster.by_seat(2) if other.ctx.roster else None
            assert member is not None
            other.ctx.send(member, StateHash.of(fork, [other.ctx.hashes.own[fork]]))
            assert await victim.wait_until(
                lambda: victim.departures.rollback.doubted is not None, WAIT)
            assert victim.phase() == Phase.PLAYING  # doubted first
            assert await victim.wait_until(lambda: victim.phase() == Phase.HALTED, WAIT)
            # (the line may have been refined since by a later report, as any desync's)
            assert f"desync after entry #{fork}" in (victim.problem() or "")
            for bot in bots:
                bot.cancel()
        finally:
            await close_all(peers)

    run(main())


def test_an_entry_another_peer_holds_is_never_taken_back() -> None:
    """The protection of §5.9 stays: a SeatTaken from a runner the seat saw lost, naming an
    entry of the seat's own that the others acknowledged, is refused and changes nothing."""

    async def main() -> None:
        peers = await table("posy", 3, open_deck=True)
        fast(peers)
        runner, _, victim = peers
        try:
            await to_turn_of(peers, 2)
            fork = victim.index
            assert await victim.submit(victim.legal_actions()[0]) is None
            await to_turn_of(peers, 2)  # the others played on: they hold our #N
            assert victim.ctx.hashes is not None
            assert await victim.wait_until(  # (their hashes of it came back on their actions)
                lambda: victim.ctx.hashes is not None and victim.ctx.hashes.agreed > fork, WAIT)
            link = cut(victim)
            assert await victim.wait_until(lambda: 0 in victim.departures.lost_seen, WAIT)
            link[0] = False
            before = list(victim.entries())
            member = runner.ctx.roster.by_seat(2) if runner.ctx.roster else None
            assert member is not None
            runner.ctx.send(member, SeatTaken(2, 0, "random", fork))
            assert await victim.wait_until(
                lambda: any(r.what == "SeatTaken" for r in victim.ctx.refusals), WAIT)
            assert list(victim.entries()) == before
            assert victim.departures.held is None and victim.phase() == Phase.PLAYING
            assert not any(e.kind == SeatEventKind.ROLLBACK for e in victim.departures.events)
        finally:
            await close_all(peers)

    run(main())


def test_a_sealed_seat_cut_off_at_its_own_turn_stops_cleanly() -> None:
    """At a sealed table the cut seat's own entry may have shown cards: it does not take it
    back, but stops with a clear message, without halting the others."""

    async def main() -> None:
        peers = await table("posy", 3)
        fast(peers)
        runner, other, victim = peers
        try:
            await to_turn_of(peers, 2)
            fork = victim.index
            link = cut(victim)
            assert await victim.submit(victim.legal_actions()[0]) is None
            assert await victim.wait_until(lambda: victim.index > fork, WAIT)
            for p in (runner, other):
                assert await p.wait_until(lambda p=p: p.seats()[2].link == Link.LOST, WAIT)
            assert await victim.wait_until(lambda: 0 in victim.departures.lost_seen
                                           or 0 in victim.departures.rollback.lost_since(
                                               fork, set()), WAIT)
            other.departures.accept = lambda motion: True
            assert isinstance(runner.departures.propose(MotionKind.TAKEOVER, 2, "random"),
                              SeatMotion)
            assert await other.wait_until(lambda: 2 in other.departures.runs, WAIT)
            link[0] = False
            assert await victim.wait_until(lambda: victim.phase() == Phase.HALTED, WAIT)
            assert "sealed table" in (victim.problem() or "")
            await asyncio.sleep(0.5)
            assert runner.phase() == other.phase() == Phase.PLAYING
            header: LogHeader | None = read_log(victim.log_path()).header
            assert header is not None
        finally:
            await close_all(peers)

    run(main())


def ends_the_game(peer: Peer) -> bool:
    """True when ``peer``'s next move (its first legal one) ends the game (tried on a
    table of its own, rebuilt from the entries)."""
    table = peer.ctx.table
    assert table is not None
    trial = Table(peer.ruleset, peer.players, table.header.seed,
                  fingerprint=table.header.fingerprint)
    for entry in peer.entries():
        trial.follow(entry.index, entry.seat, entry.action)
    assert not isinstance(trial.submit(peer.seat, peer.legal_actions()[0]), Refusal)
    return trial.over()


async def open_table(game: str, players: int) -> list[Peer]:
    """A host and ``players - 1`` joiners of a built-in ``game`` at an open-deck table."""
    ruleset = PluginHost().ruleset(game, (), players)
    host = await host_table(ruleset, players, identity=generate(), seat_name="host",
                            announce=False, open_deck=True)
    peers = [host]
    for i in range(players - 1):
        peers.append(await join_table(host.address, identity=generate(), plugins=PluginHost(),
                                      seat_name=f"joiner{i + 1}"))
    return peers


def test_a_seat_whose_own_move_ends_the_game_while_cut_off_waits_and_takes_it_back() -> None:
    """The cut seat's own move ends the game there.  It does not send its end report (the
    others hold no such entry: its hash would halt them) nor leave the game as over while
    the others are only lost; when the runner's SeatTaken shows a bot played that turn, it
    takes its move back, play goes on there from the table's entry, and the game ends for
    everyone with one hash."""
    spec = PluginHost().bot("random")

    async def main() -> None:
        peers = await open_table("petals", 3)  # (a last move with a choice: posy has one)
        fast(peers)
        try:
            for _ in range(200):  # play on until the next move ends the game
                for p in peers:
                    assert await p.wait_until(
                        lambda p=p: p.index == peers[0].index and p.ready
                        and bool(p.active_seats()), WAIT)
                seat = peers[0].active_seats()[0]
                if ends_the_game(peers[seat]):
                    break
                mover = peers[seat]
                assert await mover.wait_until(lambda m=mover: bool(m.legal_actions()), WAIT)
                assert await mover.submit(mover.legal_actions()[0]) is None
                for p in peers:
                    assert await p.wait_until(lambda p=p, i=mover.index: p.index >= i, WAIT)
            victim = peers[seat]
            runner, other = [p for p in peers if p is not victim]
            fork = victim.index
            link = cut(victim)
            assert await victim.submit(other_than_the_bot(victim, spec)) is None
            assert victim.phase() == Phase.FINISHED  # the game is over here
            for p in (runner, other):
                assert await p.wait_until(lambda p=p: p.seats()[seat].link == Link.LOST, WAIT)
            assert await victim.wait_until(
                lambda: all(s.link == Link.LOST for s in victim.seats() if s.seat != seat),
                WAIT)
            assert not victim.confirmed_end()  # nobody holds its last move: it waits
            other.departures.accept = lambda motion: True
            assert isinstance(runner.departures.propose(MotionKind.TAKEOVER, seat, "random"),
                              SeatMotion)
            bots = [asyncio.ensure_future(play_bot(p, spec, delay=0.05)) for p in (runner, other)]
            for p in (runner, other):
                assert await p.wait_until(lambda p=p: p.phase() == Phase.FINISHED, WAIT)
            link[0] = False  # the link returns
            assert await victim.wait_until(lambda: victim.departures.handed_back is not None,
                                           WAIT)
            assert [e.kind for e in victim.departures.events] == [
                SeatEventKind.ROLLBACK, SeatEventKind.TAKEOVER, SeatEventKind.RECLAIM]
            codes = await asyncio.gather(play_bot(victim, spec, delay=0.01), *bots)
            assert codes == [0, 0, 0], victim.problem()
            assert victim.state_hash() == runner.state_hash() == other.state_hash()
            assert victim.entries()[fork] == runner.entries()[fork]
            for p in peers:
                p.sync.seal()
                verified(p, p.log_path())
        finally:
            await close_all(peers)

    run(main())


def test_a_seat_cut_off_at_its_own_turn_that_restarts_takes_its_entry_back() -> None:
    """The cut seat's process dies with its own #N in its log, and its player resumes it:
    the resumed process cannot know from its log whether anyone applied #N, so it asks every
    other seat for the entries from the takeover's index; every one holds the bot's #N, so
    nobody holds ours, and it takes its entry back as a live cut seat does, then reclaims its
    seat and plays on (docs/protocol.md §5.9)."""
    spec = plugins().bot("random")

    async def main() -> None:
        peers = await table("posy", 3, open_deck=True)
        fast(peers)
        runner, other, victim = peers
        back: Peer | None = None
        try:
            fork, _, _, bots = await forked(peers, spec)
            mine = victim.entries()[fork]
            log_path = victim.log_path()
            assert log_path is not None
            back = await restarted(victim)  # still cut off, the process dies; resumed
            assert await back.wait_until(lambda: back.departures.handed_back is not None,
                                         WAIT), back.problem()
            assert back.phase() == Phase.PLAYING, back.problem()
            assert [e.kind for e in back.departures.events] == [
                SeatEventKind.ROLLBACK, SeatEventKind.TAKEOVER, SeatEventKind.RECLAIM]
            assert back.departures.events[0].index == fork
            codes = await asyncio.gather(play_bot(back, spec, delay=0.01), *bots)
            assert codes == [0, 0, 0], back.problem()
            assert back.state_hash() == runner.state_hash() == other.state_hash()
            assert back.entries()[fork] == runner.entries()[fork] != mine
            for p in (back, runner, other):
                p.sync.seal()
                verified(p, p.log_path())
                assert list(read_log(p.log_path()).entries) == \
                    list(read_log(runner.log_path()).entries)
            assert mine.digest in log_path.read_bytes()  # (the void entry stays in the file)
        finally:
            await close_all([p for p in (back, runner, other) if p is not None])

    run(main())

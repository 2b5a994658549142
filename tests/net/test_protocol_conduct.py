"""What docs/protocol.md says about links, refusals and the edges of seating and seeding,
checked on real CURVE sockets against the reference peer by a peer written from the
document: bare `Node` sockets and the codec, no `Peer`.

Each test names the section it checks.  "No reply" is observed without waiting on a clock:
after the message under test the raw peer sends a probe that is always refused (a table id
that is not the table's) over the same link; the reference handles a link's envelopes in
order and answers over the connection they came in on, so an Error for the message under
test would arrive before the probe's.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import toygames

from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.table import TableHeader
from hedgerow.net import rulesmatch
from hedgerow.net.address import TableAddress, split_endpoint
from hedgerow.net.codec import decode_envelope, encode_envelope
from hedgerow.net.keys import Identity, generate
from hedgerow.net.launch import host_table, join_table
from hedgerow.net.messages import (
    PROTOCOL_VERSION,
    ActionMsg,
    Body,
    CatchUpRequest,
    Envelope,
    ErrorCode,
    ErrorMsg,
    Heartbeat,
    Hello,
    Leave,
    PeerInfo,
    SeatAssignment,
    SeedCommit,
    SeedReveal,
    Start,
)
from hedgerow.net.peer import Peer
from hedgerow.net.seat import Phase
from hedgerow.net.seedround import SeedRound
from hedgerow.net.transport import Node, Received
from hedgerow.proto import hedgerow_pb2 as pb

WAIT = 20.0
NOT_THE_TABLE = b"\xff" * 16
Match = Callable[[Received, Envelope], bool]


def plugins() -> PluginHost:
    return PluginHost(autoload=False, extra=toygames.PLUGINS)


def run(coro: Awaitable[Any]) -> Any:
    async def bounded() -> Any:
        return await asyncio.wait_for(coro, WAIT * 3)

    return asyncio.run(bounded())


def is_body(kind: type) -> Match:
    return lambda rx, env: isinstance(env.body, kind)


class RawPeer:
    """A peer made of a CURVE ROUTER, one DEALER per peer and the codec; it sends only what
    a test tells it to, and remembers on which socket each envelope came."""

    def __init__(self, identity: Identity | None = None) -> None:
        self.identity = identity or generate()
        self.key = self.identity.public
        self.node = Node(self.identity, self._got)
        self.inbox: asyncio.Queue[tuple[Received, Envelope]] = asyncio.Queue()
        self.backlog: list[tuple[Received, Envelope]] = []
        self.seq = 0
        self.table_id = b""
        self.endpoint = ""

    async def start(self) -> RawPeer:
        self.endpoint = await self.node.start()
        return self

    def _got(self, rx: Received) -> None:
        assert rx.data is not None
        self.inbox.put_nowait((rx, decode_envelope(rx.data)))

    def send(self, key: bytes, body: Body, *, table_id: bytes | None = None) -> int:
        """Send ``body`` over our DEALER to ``key``; the envelope's seq."""
        self.seq += 1
        tid = self.table_id if table_id is None else table_id
        self.send_raw(key, encode_envelope(Envelope(tid, self.key, self.seq, body)))
        return self.seq

    def send_raw(self, key: bytes, data: bytes) -> None:
        assert self.node.send(key, data), "no link to that peer"

    async def next(self, match: Match) -> tuple[Received, Envelope]:
        """The first envelope (kept or new) that ``match`` accepts; the others are kept."""
        for i, item in enumerate(self.backlog):
            if match(*item):
                return self.backlog.pop(i)
        while True:
            item = await asyncio.wait_for(self.inbox.get(), WAIT)
            if match(*item):
                return item
            self.backlog.append(item)

    async def errors_before_probe(self, key: bytes) -> list[ErrorMsg]:
        """Every Error from ``key`` that arrives before the answer to an always-refused probe."""
        probe = self.send(key, Heartbeat(0), table_id=NOT_THE_TABLE)
        errors: list[ErrorMsg] = []
        while True:
            _, env = await self.next(lambda rx, env: rx.sender == key
                                     and isinstance(env.body, ErrorMsg))
            assert isinstance(env.body, ErrorMsg)
            if env.body.ref_seq == probe:
                assert env.body.code == ErrorCode.WRONG_TABLE
                return errors
            errors.append(env.body)

    async def error(self, key: bytes) -> tuple[Received, ErrorMsg]:
        rx, env = await self.next(lambda rx, env: rx.sender == key
                                  and isinstance(env.body, ErrorMsg))
        assert isinstance(env.body, ErrorMsg)
        return rx, env.body

    def hello(self, fingerprint: str = "*") -> Hello:
        return Hello(fingerprint, rulesmatch.installed(plugins()), "raw", None, False,
                     self.endpoint)

    async def join(self, host: Peer) -> SeatAssignment:
        """Take a seat at ``host``'s table; the host's first SeatAssignment."""
        self.node.connect(host.identity.public, host.endpoint)
        self.send(host.identity.public, self.hello(), table_id=b"")
        _, env = await self.next(is_body(SeatAssignment))
        self.table_id = env.table_id
        assert isinstance(env.body, SeatAssignment)
        return env.body

    async def seating(self, players: int) -> SeatAssignment:
        """The SeatAssignment that lists every seat (the final one)."""
        _, env = await self.next(lambda rx, env: isinstance(env.body, SeatAssignment)
                                 and len(env.body.peers) == players)
        assert isinstance(env.body, SeatAssignment)
        return env.body

    async def close(self) -> None:
        await self.node.close()


async def open_table(players: int) -> Peer:
    """A host at a table of posy; open-deck, as the raw peers speak no sealed deck."""
    host = await host_table(plugins().ruleset("posy", (), players), players,
                            identity=generate(), seat_name="host", announce=False,
                            open_deck=True)
    host.links.lost_after = 600.0  # the raw peers send no heartbeats
    return host


async def closing(*things: Peer | RawPeer) -> None:
    for thing in things:
        with contextlib.suppress(Exception):
            await thing.close()


# -- §1: which link a message travels on --------------------------------------------------


def test_a_refusal_comes_back_on_the_joiners_link_its_seat_assignment_on_a_new_one() -> None:
    async def main() -> None:
        host = await open_table(2)
        raw = await RawPeer().start()
        try:
            key = host.identity.public
            raw.node.connect(key, host.endpoint)
            seq = raw.send(key, raw.hello("posy@0.0.1"), table_id=b"")
            rx, error = await raw.error(key)
            assert error.code == ErrorCode.RULES_MISMATCH and error.ref_seq == seq
            assert rx.route is None  # on our DEALER: the connection the Hello came in on
            raw.send(key, raw.hello(), table_id=b"")
            rx, env = await raw.next(is_body(SeatAssignment))
            assert rx.sender == key and env.table_id == host.ctx.table_id
            assert rx.route is not None  # on our ROUTER: the host dialed Hello.address
            assert rx.peer_ip == "127.0.0.1"
        finally:
            await closing(raw, host)

    run(main())


# -- §3.1, §5.8: nothing but Hello before the SeatAssignment --------------------------------


def test_a_joiner_sends_heartbeats_only_once_seated() -> None:
    async def main() -> None:
        host = await open_table(2)
        raw = await RawPeer().start()
        try:
            key = host.identity.public
            raw.node.connect(key, host.endpoint)
            raw.seq += 1
            seq = raw.seq
            beat = pb.Envelope.FromString(encode_envelope(
                Envelope(NOT_THE_TABLE, raw.key, seq, Heartbeat(0))))
            beat.table_id = b""  # no table id yet (the codec would not encode this)
            raw.send_raw(key, beat.SerializeToString())
            _, error = await raw.error(key)
            assert (error.code, error.message) == (ErrorCode.MALFORMED,
                                                   "table_id must be 16 bytes")
            assert error.ref_seq == seq
            seq = raw.send(key, Heartbeat(0), table_id=host.ctx.table_id)  # known from discovery
            _, error = await raw.error(key)
            assert (error.code, error.ref_seq) == (ErrorCode.STRANGER, seq)
            raw.backlog.clear()
            await raw.join(host)
            raw.send(key, Heartbeat(3))
            assert await raw.errors_before_probe(key) == []
            assert host.members()[1].next_index == 3
        finally:
            await closing(raw, host)

    run(main())


# -- §2.3: ref_seq and ref_index ---------------------------------------------------------


def malformed_action(raw: RawPeer, seq: int, index: int,
                     version: int = PROTOCOL_VERSION) -> bytes:
    """An ActionMsg envelope whose action has no kind (MALFORMED), built on protobuf."""
    msg = pb.Envelope(protocol_version=version, table_id=raw.table_id, sender=raw.key, seq=seq)
    msg.action.index = index
    msg.action.prev = bytes(32)
    msg.action.seat = 1
    msg.action.action.SetInParent()
    return msg.SerializeToString()


def test_every_refusal_names_the_envelope_and_an_action_its_index() -> None:
    async def main() -> None:
        host = await open_table(3)
        raw = await RawPeer().start()
        stranger = await RawPeer().start()
        try:
            key = host.identity.public
            await raw.join(host)
            refusals: dict[str, tuple[ErrorCode, int | None, int | None]] = {}

            async def refused(what: str, data: bytes, sender: RawPeer = raw) -> None:
                sender.send_raw(key, data)
                _, error = await sender.error(key)
                refusals[what] = (error.code, error.ref_seq, error.ref_index)

            await refused("not protobuf", b"\xff" * 12)
            await refused("malformed action", malformed_action(raw, 41, 4))
            await refused("another version", malformed_action(raw, 42, 4,
                                                               version=PROTOCOL_VERSION + 1))
            stranger.node.connect(key, host.endpoint)
            action = ActionMsg(5, bytes(32), 1, toygames_play())
            await refused("stranger's action", encode_envelope(
                Envelope(host.ctx.table_id, stranger.key, 43, action)), stranger)
            await refused("action for another table", encode_envelope(
                Envelope(NOT_THE_TABLE, raw.key, 44, action)))
            assert refusals == {
                "not protobuf": (ErrorCode.MALFORMED, None, None),
                "malformed action": (ErrorCode.MALFORMED, 41, 4),
                "another version": (ErrorCode.PROTOCOL_MISMATCH, 42, None),
                "stranger's action": (ErrorCode.STRANGER, 43, 5),
                "action for another table": (ErrorCode.WRONG_TABLE, 44, 5),
            }
        finally:
            await closing(raw, stranger, host)

    run(main())


def toygames_play() -> Any:
    from hedgerow.core.actions import Action

    return Action.of("play", card=1)


# -- §5.3: who may send what --------------------------------------------------------------


def test_a_key_without_a_seat_may_only_say_hello() -> None:
    async def main() -> None:
        host = await open_table(2)
        stranger = await RawPeer().start()
        try:
            key = host.identity.public
            stranger.node.connect(key, host.endpoint)
            stranger.table_id = host.ctx.table_id
            codes = {}
            for body in (Heartbeat(0), CatchUpRequest(0), Leave("bye")):
                seq = stranger.send(key, body)
                _, error = await stranger.error(key)
                assert error.ref_seq == seq
                codes[type(body).__name__] = (error.code, error.message)
            assert codes == dict.fromkeys(
                ("Heartbeat", "CatchUpRequest", "Leave"),
                (ErrorCode.STRANGER, "the sender holds no seat at this table"))
            stranger.send(key, ErrorMsg(ErrorCode.UNKNOWN, "hi"))
            assert await stranger.errors_before_probe(key) == []  # an Error is never answered
            assert len(host.members()) == 1
        finally:
            await closing(stranger, host)

    run(main())


def test_a_seat_assignment_from_anyone_but_the_host_is_wrong_seat() -> None:
    async def main() -> None:
        host = await open_table(3)
        raw = await RawPeer().start()
        joiner: Peer | None = None
        try:
            await raw.join(host)
            joiner = await join_table(host.address, identity=generate(), plugins=plugins(),
                                      seat_name="ann")
            joiner.links.lost_after = 600.0
            final = await raw.seating(3)
            ann = next(p for p in final.peers if p.seat == 2)
            raw.node.connect(ann.public_key, ann.address)
            forged = SeatAssignment(2, 3, final.fingerprint, final.peers)
            for key in (host.identity.public, ann.public_key):
                seq = raw.send(key, forged)
                _, error = await raw.error(key)
                assert (error.code, error.message, error.ref_seq) == (
                    ErrorCode.WRONG_SEAT, "only the host assigns seats", seq)
        finally:
            await closing(*(p for p in (joiner, raw, host) if p is not None))

    run(main())


# -- §3.2: seed messages after a failed agreement, and before the final seating ------------


def test_after_a_bad_share_halts_the_table_honest_reveals_get_no_reply() -> None:
    async def main() -> None:
        host = await open_table(3)
        cheat, honest = await RawPeer().start(), await RawPeer().start()
        try:
            key = host.identity.public
            rounds = {}
            for raw in (cheat, honest):
                rounds[raw] = SeedRound(3, (await raw.join(host)).seat or 0)
            for raw in (cheat, honest):
                raw.send(key, SeedCommit(rounds[raw].own_seat, rounds[raw].own_commitment))
            await cheat.next(is_body(SeedReveal))  # the host holds every commitment
            seq = cheat.send(key, SeedReveal(rounds[cheat].own_seat, bytes(32)))
            _, error = await cheat.error(key)
            assert (error.code, error.ref_seq) == (ErrorCode.BAD_REVEAL, seq)
            assert host.phase() == Phase.HALTED
            assert host.problem() == ("cannot agree on the seed: seat 1's seed share does "
                                      "not match its commitment")
            honest.send(key, SeedReveal(rounds[honest].own_seat, rounds[honest].share))
            honest.send(key, SeedCommit(rounds[honest].own_seat, bytes(32)))
            assert await honest.errors_before_probe(key) == []
        finally:
            await closing(cheat, honest, host)

    run(main())


def test_seed_messages_before_the_final_seating_are_kept() -> None:
    async def main() -> None:
        host = await open_table(3)
        raw = await RawPeer().start()
        joiner: Peer | None = None
        try:
            key = host.identity.public
            seat = (await raw.join(host)).seat
            assert seat == 1
            mine = SeedRound(3, seat)
            raw.send(key, SeedCommit(seat, mine.own_commitment))
            wrong = Start(TableHeader(rulesmatch.table_fingerprint(host.ruleset, open_deck=True),
                                      3, bytes(32)), bytes(32))
            raw.send(key, wrong)
            assert await raw.errors_before_probe(key) == []  # kept, not refused
            assert host.phase() == Phase.SEATING
            joiner = await join_table(host.address, identity=generate(), plugins=plugins(),
                                      seat_name="ann")
            joiner.links.lost_after = 600.0
            final = await raw.seating(3)
            ann = next(p for p in final.peers if p.seat == 2)
            await raw.next(lambda rx, env: isinstance(env.body, SeedReveal)
                           and rx.sender == key)
            # The host revealed: it counted our commitment from before the table was full.
            raw.node.connect(ann.public_key, ann.address)
            raw.send(ann.public_key, SeedCommit(seat, mine.own_commitment))
            for peer_key in (key, ann.public_key):
                raw.send(peer_key, SeedReveal(seat, mine.share))
            # The Start that came early is compared once the host has its own seed.
            assert await host.wait_until(lambda: host.phase() == Phase.HALTED, WAIT)
            problem = host.problem() or ""
            assert problem.startswith("seat 1 started the table with other rules or another "
                                      "seed (seed "), problem
        finally:
            await closing(*(p for p in (joiner, raw, host) if p is not None))

    run(main())


def test_seed_messages_of_an_abandoned_round_are_ignored_and_a_later_rounds_kept() -> None:
    """§3.2 "Seed rounds": a seat lost before play abandons the round; the host's next
    seating names the next round, and messages of the old one count for nothing."""

    async def main() -> None:
        host = await open_table(3)
        raw, leaver = await RawPeer().start(), await RawPeer().start()
        try:
            key = host.identity.public
            seat = (await raw.join(host)).seat or 0
            await leaver.join(host)
            final = await raw.seating(3)
            assert final.round == 1
            old = SeedRound(3, seat)
            raw.send(key, SeedCommit(seat, old.own_commitment, 1))
            _, env = await raw.next(lambda rx, env: isinstance(env.body, SeedCommit))
            assert isinstance(env.body, SeedCommit) and env.body.round == 1
            leaver.send(key, Leave("gone"))  # before play: the table goes back to seating
            _, env = await raw.next(lambda rx, env: isinstance(env.body, SeatAssignment)
                                    and len(env.body.peers) == 2)
            assert isinstance(env.body, SeatAssignment) and env.body.round == 2
            assert host.phase() == Phase.SEATING
            # Round 1's share and a different round-1 commitment: no reply, nothing counted.
            raw.send(key, SeedReveal(seat, old.share, 1))
            raw.send(key, SeedCommit(seat, bytes(32), 1))
            # A commitment for round 3, which nobody has reached: kept, not refused.
            raw.send(key, SeedCommit(seat, bytes(32), 3))
            assert await raw.errors_before_probe(key) == []
            assert 1 not in host.startup.round.commits
            joiner = await join_table(host.address, identity=generate(), plugins=plugins(),
                                      seat_name="ann")
            joiner.links.lost_after = 600.0
            try:
                final = await raw.seating(3)
                assert final.round == 2
                new = SeedRound(3, seat)
                raw.send(key, SeedCommit(seat, new.own_commitment, 2))
                _, env = await raw.next(lambda rx, env: isinstance(env.body, SeedReveal)
                                        and rx.sender == key)
                assert isinstance(env.body, SeedReveal) and env.body.round == 2
                assert host.startup.round.commits[seat] == new.own_commitment
                assert await raw.errors_before_probe(key) == []
            finally:
                await closing(joiner)
        finally:
            await closing(raw, leaver, host)

    run(main())


# -- §1, §3.1: the join link is the joiner's mesh link to the host --------------------------


def test_a_joiner_keeps_its_join_link_unless_the_host_is_listed_elsewhere() -> None:
    async def seeded_route(listed: Callable[[str], str]) -> tuple[bytes | None, bytes | None]:
        """A reference joiner at a raw host that lists itself at ``listed(endpoint)``:
        the routes its Hello and its SeedCommit came in on."""
        raw = await RawPeer().start()
        joiner: Peer | None = None
        try:
            host, port = split_endpoint(raw.endpoint)
            joining = asyncio.ensure_future(join_table(
                TableAddress(host, port, raw.key), identity=generate(), plugins=plugins()))
            hello_rx, env = await raw.next(is_body(Hello))
            assert isinstance(env.body, Hello)
            raw.table_id = secrets.token_bytes(16)
            raw.node.connect(hello_rx.sender, env.body.address)
            fingerprint = plugins().ruleset("posy", (), 2).fingerprint
            peers = (PeerInfo(0, raw.key, listed(raw.endpoint), "raw"),
                     PeerInfo(1, hello_rx.sender, env.body.address, ""))
            raw.send(hello_rx.sender, SeatAssignment(1, 2, fingerprint, peers))
            joiner = await joining
            commit_rx, _ = await raw.next(is_body(SeedCommit))
            return hello_rx.route, commit_rx.route
        finally:
            await closing(*(p for p in (joiner, raw) if p is not None))

    async def main() -> None:
        hello, commit = await seeded_route(lambda endpoint: endpoint)
        assert hello is not None and commit == hello  # one connection: the join link
        elsewhere = await seeded_route(lambda e: e.replace("127.0.0.1", "localhost"))
        assert elsewhere[1] is not None and elsewhere[1] != elsewhere[0]

    run(main())


def test_the_host_takes_a_seated_peers_envelopes_over_any_of_its_connections() -> None:
    async def main() -> None:
        host = await open_table(2)
        raw = await RawPeer().start()
        second = RawPeer(raw.identity)  # the same key, another connection
        try:
            key = host.identity.public
            await raw.join(host)
            second.table_id = raw.table_id
            second.node.connect(key, host.endpoint)
            second.send(key, Heartbeat(7))
            assert await second.errors_before_probe(key) == []
            assert host.members()[1].next_index == 7
        finally:
            await closing(second, raw, host)

    run(main())


# -- §5.9: a departed seat taken over by agreement, then reclaimed --------------------------


def test_a_takeover_is_voted_by_every_remaining_seat_then_the_runner_authors_the_seat() -> None:
    from hedgerow.core.table import Table
    from hedgerow.net.messages import (
        MotionKind,
        MotionVote,
        SeatHandback,
        SeatMotion,
        SeatTaken,
    )
    from hedgerow.net.startup import setup_hash

    async def main() -> None:
        ps = plugins()
        ruleset = ps.ruleset("posy", (), 3)
        host = await host_table(ruleset, 3, seed=7, identity=generate(), announce=False)
        host.links.lost_after = 600.0  # the raw peer sends no heartbeats
        victim = await join_table(host.address, identity=generate(), plugins=ps,
                                  seat_name="vic", accept_host_seed=True)
        victim.links.lost_after = 600.0
        raw = await RawPeer().start()
        returning: RawPeer | None = None
        try:
            key = host.identity.public
            seating = await raw.join(host)
            assert seating.seat == 2 and victim.seat == 1
            final = seating if len(seating.peers) == 3 else await raw.seating(3)
            vic = next(p for p in final.peers if p.seat == 1)
            raw.node.connect(vic.public_key, vic.address)
            _, env = await raw.next(is_body(Start))
            assert isinstance(env.body, Start)
            header = env.body.header
            mine = Start(header, setup_hash(Table(ruleset, 3, header.seed,
                                                  fingerprint=header.fingerprint)))
            for peer_key in (key, vic.public_key):
                raw.send(peer_key, mine)
            assert await host.wait_until(lambda: host.ready, WAIT)
            assert await victim.wait_until(lambda: victim.ready, WAIT)
            index = host.index
            assert host.active_seats() == (1,)
            # A motion about a seat still at the table is refused by a vote, with the reason.
            raw.send(key, SeatMotion(1, MotionKind.TAKEOVER, 1, 0, "random", index, (0, 2)))
            _, env = await raw.next(is_body(MotionVote))
            assert isinstance(env.body, MotionVote)
            assert (env.body.proposer, env.body.number, env.body.accept) == (2, 1, False)
            assert env.body.reason == "seat 1 has not left the table here"
            await victim.close()  # seat 1 leaves (Leave: QUIT)
            assert await host.wait_until(lambda: host.departures.departed() != [], WAIT)
            host.departures.accept = lambda motion: True
            # Every voter checks the motion against its own view (§5.9).
            wrong = {
                2: (SeatMotion(2, MotionKind.TAKEOVER, 1, 2, "random", index, (0, 2)),
                    "the runner must be the lowest voting seat, 0"),
                3: (SeatMotion(3, MotionKind.TAKEOVER, 1, 0, "random", index + 1, (0, 2)),
                    f"the motion is for entry #{index + 1}, this peer is at #{index}"),
                4: (SeatMotion(4, MotionKind.TAKEOVER, 1, 0, "random", index, (2,)),
                    "the voters differ: this peer sees seats 0, 2 at the table"),
            }
            for number, (motion, reason) in wrong.items():
                raw.send(key, motion)
                _, env = await raw.next(is_body(MotionVote))
                assert isinstance(env.body, MotionVote)
                assert (env.body.number, env.body.accept, env.body.reason) == (
                    number, False, reason)
            # A motion of a kind this version does not know does not decode.
            bad = pb.Envelope(protocol_version=PROTOCOL_VERSION, table_id=raw.table_id,
                              sender=raw.key, seq=99,
                              seat_motion=pb.SeatMotion(number=5, kind=0, seat=1, voters=[0, 2]))
            raw.send_raw(key, bad.SerializeToString())
            _, error = await raw.error(key)
            assert (error.code, error.ref_seq) == (ErrorCode.MALFORMED, 99)
            # The good motion: the host accepts and tells every seated peer; with both votes
            # in, seat 0's process runs the bot for seat 1 and authors its actions.
            raw.send(key, SeatMotion(6, MotionKind.TAKEOVER, 1, 0, "random", index, (0, 2)))
            _, env = await raw.next(is_body(MotionVote))
            assert env.body == MotionVote(2, 6, True, "")
            assert await host.wait_until(lambda: 1 in host.departures.runs, WAIT)
            _, env = await raw.next(lambda rx, env: isinstance(env.body, ActionMsg)
                                    and env.body.seat == 1)
            assert env.sender == key  # seat 1's action, from seat 0's key
            # The departed player's own key may no longer act for the seat.
            returning = await RawPeer(victim.identity).start()
            returning.table_id = raw.table_id
            returning.node.connect(key, host.endpoint)
            seq = returning.send(key, ActionMsg(host.index, host.ctx.table.head, 1,
                                                toygames_play()))
            _, error = await returning.error(key)
            assert (error.code, error.ref_seq) == (ErrorCode.WRONG_SEAT, seq)
            assert error.message == "seat 1 (vic) cannot act for seat 1"
            # It comes back (§5.7 Hello with its key): the host tells it who runs the seat,
            # the runner hands the seat back to every seated peer, then the seating follows.
            returning.send(key, Hello(header.fingerprint, rulesmatch.installed(ps), "vic", 1,
                                      False, returning.endpoint), table_id=raw.table_id)
            order = []
            while len(order) < 3:
                _, env = await returning.next(lambda rx, env: not isinstance(
                    env.body, (Heartbeat, ErrorMsg, ActionMsg, Start)) and rx.sender == key)
                order.append(env.body)
            assert isinstance(order[0], SeatTaken)
            assert (order[0].seat, order[0].runner, order[0].bot) == (1, 0, "random")
            assert isinstance(order[1], SeatHandback) and order[1].seat == 1
            assert isinstance(order[2], SeatAssignment)
            _, env = await raw.next(is_body(SeatHandback))
            assert env.body == order[1]
            assert 1 not in host.departures.runs
        finally:
            await closing(*(p for p in (returning, raw, victim, host) if p is not None))

    run(main())

"""A rogue peer for tests: raw pyzmq sockets and the codec, following the protocol only as
far as a test chooses.

`Rogue` is the socket side (a CURVE ROUTER, one DEALER per peer); `rogue_game` takes a seat
at a table of ``posy`` (tests/toygames.py), agrees on the seed, hands its first own turn to
the test (misbehaving, fuzzing) while every honest peer waits for it, then plays legally to
the end.  It speaks no sealed deck: the tables it joins are hosted with ``--open-deck``.
Used by tests/net/test_misbehaving.py and tests/reliability/ (fuzzing).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import toygames
import zmq
import zmq.asyncio
from zmq.auth import CURVE_ALLOW_ANY
from zmq.auth.asyncio import AsyncioAuthenticator
from zmq.utils import z85

from hedgerow.core.errors import Refusal
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.table import Applied
from hedgerow.core.table import Table as GameTable
from hedgerow.net import rulesmatch
from hedgerow.net.address import parse_address
from hedgerow.net.codec import decode_envelope, encode_envelope
from hedgerow.net.messages import (
    ActionMsg,
    Envelope,
    ErrorCode,
    ErrorMsg,
    Heartbeat,
    Hello,
    Leave,
    SeatAssignment,
    SeedCommit,
    SeedReveal,
    Start,
    StateHash,
)
from hedgerow.net.seedround import SeedRound
from hedgerow.net.startup import setup_hash

WAIT = 20.0
#: What a test does at the rogue's first turn: ``(rogue, other peers' keys, the rogue's own
#: copy of the table, its seat) -> verdicts`` (any data the test wants back).
AtTurn = Callable[[Any, list[bytes], Any, int], Awaitable[dict[str, Any]]]
#: What a test does once the seed is agreed, before the rogue's Start: ``(rogue, other
#: peers' keys, send_start) -> verdicts``; it must await ``send_start()`` at least once.
BeforeStart = Callable[[Any, list[bytes], Callable[[], Awaitable[None]]],
                       Awaitable[dict[str, Any]]]


class Rogue:
    """A peer built from raw sockets: it follows the protocol only as far as it chooses."""

    def __init__(self, name: str = "rogue") -> None:
        self.name = name
        self.ctx = zmq.asyncio.Context()
        self.auth = AsyncioAuthenticator(self.ctx)
        self.auth.start()
        self.auth.configure_curve(domain="*", location=CURVE_ALLOW_ANY)
        public, secret = zmq.curve_keypair()
        self.public, self.secret = public, secret
        self.key = z85.decode(public)
        self.router = self._socket(zmq.ROUTER)
        self.router.curve_server = True
        self.router.bind("tcp://127.0.0.1:0")
        self.endpoint = self.router.last_endpoint.decode()
        self.dealers: dict[bytes, zmq.asyncio.Socket] = {}
        self.inbox: asyncio.Queue[tuple[bytes, Envelope | None]] = asyncio.Queue()
        self.errors: asyncio.Queue[tuple[bytes, ErrorMsg]] = asyncio.Queue()
        #: The highest entry each peer reported a state hash for (kept here as they come:
        #: `next_message` drops what it is not waiting for, and a peer's last StateHash can
        #: overtake the last action sent by another peer).
        self.sealed: dict[bytes, int] = {}
        self.tasks = [asyncio.ensure_future(self._read(self.router, None))]
        self.seq = 0
        self.table_id = b""

    def _socket(self, kind: int) -> zmq.asyncio.Socket:
        sock = self.ctx.socket(kind)
        sock.linger = 500
        sock.curve_publickey, sock.curve_secretkey = self.public, self.secret
        return sock

    def dial(self, key: bytes, endpoint: str) -> None:
        if key in self.dealers:
            return
        sock = self._socket(zmq.DEALER)
        sock.curve_serverkey = z85.encode(key)
        sock.connect(endpoint)
        self.dealers[key] = sock
        self.tasks.append(asyncio.ensure_future(self._read(sock, key)))

    async def _read(self, sock: zmq.asyncio.Socket, key: bytes | None) -> None:
        while True:
            frames = await sock.recv_multipart(copy=False)
            sender = key if key is not None else z85.decode(frames[-1].get("User-Id").encode())
            env = decode_envelope(frames[-1].bytes)
            if isinstance(env.body, ErrorMsg):
                await self.errors.put((sender, env.body))
            else:
                if isinstance(env.body, StateHash):
                    self.sealed[sender] = max(self.sealed.get(sender, -1), env.body.index)
                await self.inbox.put((sender, env))

    def envelope(self, body: Any, *, sender: bytes | None = None, seq: int | None = None,
                 table_id: bytes | None = None) -> bytes:
        if seq is None:
            self.seq += 1
            seq = self.seq
        tid = self.table_id if table_id is None else table_id
        return encode_envelope(Envelope(tid, sender or self.key, seq, body))

    async def send(self, key: bytes, data: bytes) -> None:
        await self.dealers[key].send(data)

    async def broadcast(self, keys: list[bytes], body: Any) -> None:
        data = self.envelope(body)
        for key in keys:
            await self.send(key, data)

    async def next_message(self, kind: type, *, keep: bool = False) -> tuple[bytes, Any]:
        """The next message whose body is a ``kind``; the others that came first are dropped,
        or with ``keep`` put back, in order, for whoever reads the inbox next (while seating:
        a seat's SeedCommit can overtake the host's last SeatAssignment)."""
        skipped: list[tuple[bytes, Envelope | None]] = []
        while True:
            sender, env = await self.inbox.get()
            if env is not None and isinstance(env.body, kind):
                if keep:
                    later = []
                    while not self.inbox.empty():
                        later.append(self.inbox.get_nowait())
                    for item in [*skipped, *later]:
                        self.inbox.put_nowait(item)
                return sender, env
            skipped.append((sender, env))

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for sock in [self.router, *self.dealers.values()]:
            sock.close()
        self.auth.stop()
        self.ctx.term()

def toy_plugins() -> PluginHost:
    return PluginHost(builtins=(("random-bot", "hedgerow.plugins.bots.random_bot"),),
                      autoload=False, extra=toygames.PLUGINS)

async def rogue_game(address: str, at_first_turn: AtTurn,
                     before_start: BeforeStart | None = None) -> dict[str, Any]:
    """Take a seat at the table at ``address``, call ``at_first_turn`` at the rogue's first
    own turn (while every other seat waits for it), then play legally to the end.
    ``before_start``, if given, runs once the seed is agreed and sends the rogue's Start
    itself, when and as often as the test likes.

    Returns ``at_first_turn``'s verdicts (and ``before_start``'s, as ``"before_start"``),
    the final state hash and the rogue's seat."""
    plugins = toy_plugins()
    where = parse_address(address)
    rogue = Rogue()
    try:
        rogue.dial(where.key, where.endpoint)
        hello = Hello("*", rulesmatch.installed(plugins), "rogue", None, True, rogue.endpoint)
        await rogue.send(where.key, rogue.envelope(hello, table_id=b""))
        _, env = await rogue.next_message(SeatAssignment, keep=True)
        rogue.table_id = env.table_id
        seating: SeatAssignment = env.body
        while len(seating.peers) < seating.players:
            _, env = await rogue.next_message(SeatAssignment, keep=True)
            seating = env.body
        seat, players = seating.seat, seating.players
        others = [p.public_key for p in seating.peers if p.seat != seat]
        for p in seating.peers:
            if p.seat != seat:
                rogue.dial(p.public_key, p.address)
        heartbeat = asyncio.ensure_future(_beat(rogue, others))
        rogue.tasks.append(heartbeat)  # cancelled by close, before the sockets go
        ruleset = rulesmatch.ruleset_for(plugins, seating.fingerprint, players)
        # The rogue speaks no sealed deck (docs/protocol.md §10): its tables are open.
        assert rulesmatch.split_deck(seating.fingerprint)[1], "host the table with --open-deck"
        # Seed: commit, then reveal once every commitment is in.
        seed_round = SeedRound(players, seat)
        await rogue.broadcast(others, SeedCommit(seat, seed_round.own_commitment))
        pending: list[tuple[bytes, Envelope]] = []
        while not seed_round.all_committed or seed_round.seed() is None:
            sender, env = await rogue.inbox.get()
            if isinstance(env.body, SeedCommit):
                seed_round.commit(env.body.seat, env.body.commitment)
                if seed_round.all_committed and seat not in seed_round.reveals:
                    seed_round.reveal(seat, seed_round.share)
                    await rogue.broadcast(others, SeedReveal(seat, seed_round.share))
            elif isinstance(env.body, SeedReveal):
                seed_round.reveal(env.body.seat, env.body.share)
            else:
                pending.append((sender, env))
        table = GameTable(ruleset, players, seed_round.seed(), fingerprint=seating.fingerprint)
        start = Start(table.header, setup_hash(table))
        early_verdicts: dict[str, Any] | None = None
        if before_start is None:
            await rogue.broadcast(others, start)
        else:
            for item in pending:
                rogue.inbox.put_nowait(item)
            pending = []
            early_verdicts = await before_start(rogue, others,
                                                lambda: rogue.broadcast(others, start))
        await seal(rogue, others, table, table.opening)  # the deal: chance entry #0
        for item in pending:
            rogue.inbox.put_nowait(item)
        verdicts: dict[str, list[tuple[ErrorCode, str, str]]] = {}
        early: dict[int, ActionMsg] = {}
        misbehaved = False
        while table.active_seats():
            if table.active_seats() == (seat,):
                if not misbehaved:
                    verdicts = await at_first_turn(rogue, others, table, seat)
                    misbehaved = True
                action = table.legal_actions(seat)[0]
                result = table.submit(seat, action)
                assert not isinstance(result, Refusal), result
                entry = result[0].entry
                await rogue.broadcast(others, ActionMsg(entry.index, entry.prev, seat, action))
                await seal(rogue, others, table, result)
                if len(verdicts) == 7 and table.active_seats():
                    # Out of turn: our seat again, while the next seat is to act.
                    verdicts["out of turn"] = await refused_by_all(
                        rogue, others, rogue.envelope(ActionMsg(table.index, table.head, seat,
                                                                action)))
                continue
            while table.index not in early:  # actions may come out of order (two authors)
                _, env = await rogue.next_message(ActionMsg)
                early[env.body.index] = env.body
            msg: ActionMsg = early.pop(table.index)
            result = table.submit(msg.seat, msg.action, index=msg.index, prev=msg.prev)
            assert not isinstance(result, Refusal), result
            await seal(rogue, others, table, result)
        # Leave only once every honest peer has sealed the last entry: one still catching up
        # would otherwise see a seat leave before the end.
        last = table.index - 1
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(WAIT):
                while any(rogue.sealed.get(key, -1) < last for key in others):
                    await rogue.next_message(StateHash)
        heartbeat.cancel()
        await rogue.broadcast(others, Leave("done"))
        return {"verdicts": verdicts, "state_hash": table.state_hash().hex(), "seat": seat,
                "before_start": early_verdicts}
    finally:
        await rogue.close()

async def seal(rogue: Rogue, others: list[bytes], table: GameTable,
               applied: Sequence[Applied]) -> None:
    """Report the state hash after each entry (the action's and any chance after it)."""
    for item in applied:
        await rogue.broadcast(others, StateHash(item.entry.index, table.hash_of(item.after)))


async def _beat(rogue: Rogue, others: list[bytes]) -> None:
    while True:
        await asyncio.sleep(0.5)
        await rogue.broadcast(others, Heartbeat(0))


async def refused_by_all(rogue: Rogue, others: list[bytes], data: bytes
                         ) -> list[tuple[ErrorCode, str, str]]:
    """Send ``data`` to every honest peer; each one's refusal (code, message, rules code)."""
    for key in others:
        await rogue.send(key, data)
    got: dict[bytes, ErrorMsg] = {}
    while len(got) < len(others):
        sender, error = await asyncio.wait_for(rogue.errors.get(), WAIT)
        got[sender] = error
    return [(got[k].code, got[k].message, got[k].refusal) for k in others]

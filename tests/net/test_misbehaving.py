"""A misbehaving peer against honest ones: every bad message is refused identically by every
honest peer, with a reason in its log, and the game goes on.

The honest peers are real ``hedgerow host`` / ``hedgerow join`` bot processes.  The rogue
is written here with raw pyzmq sockets and the codec: it takes a seat, agrees on the seed
and plays its turns legally, but first sends, at its own turn (when everyone waits for
it): random bytes, a truncated envelope, an envelope naming another sender, a seed
commitment during play, an action claiming another seat, one with a broken chain, an
illegal one, and, right after its move, one out of turn.  A stranger with no seat tries too.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Sequence
from typing import Any

import pytest
import toygames
import zmq
import zmq.asyncio
from e2e.helpers import Table, peer_env
from zmq.auth import CURVE_ALLOW_ANY
from zmq.auth.asyncio import AsyncioAuthenticator
from zmq.utils import z85

from hedgerow.core.actions import Action
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

pytestmark = pytest.mark.e2e
WAIT = 20.0


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

    async def next_message(self, kind: type) -> tuple[bytes, Any]:
        while True:
            sender, env = await self.inbox.get()
            if isinstance(env.body, kind):
                return sender, env

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


async def rogue_game(address: str, honest: int) -> dict[str, Any]:
    """Take a seat, misbehave at the first own turn, then play legally to the end."""
    plugins = toy_plugins()
    where = parse_address(address)
    rogue = Rogue()
    try:
        rogue.dial(where.key, where.endpoint)
        hello = Hello("*", rulesmatch.installed(plugins), "rogue", None, True, rogue.endpoint)
        await rogue.send(where.key, rogue.envelope(hello, table_id=b""))
        _, env = await rogue.next_message(SeatAssignment)
        rogue.table_id = env.table_id
        seating: SeatAssignment = env.body
        while len(seating.peers) < seating.players:
            _, env = await rogue.next_message(SeatAssignment)
            seating = env.body
        seat, players = seating.seat, seating.players
        others = [p.public_key for p in seating.peers if p.seat != seat]
        for p in seating.peers:
            if p.seat != seat:
                rogue.dial(p.public_key, p.address)
        heartbeat = asyncio.ensure_future(_beat(rogue, others))
        ruleset = rulesmatch.ruleset_for(plugins, seating.fingerprint, players)
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
        table = GameTable(ruleset, players, seed_round.seed())
        await rogue.broadcast(others, Start(table.header, setup_hash(table)))
        await seal(rogue, others, table, table.opening)  # the deal: chance entry #0
        for item in pending:
            rogue.inbox.put_nowait(item)
        verdicts: dict[str, list[tuple[ErrorCode, str, str]]] = {}
        early: dict[int, ActionMsg] = {}
        misbehaved = False
        while table.active_seats():
            if table.active_seats() == (seat,):
                if not misbehaved:
                    verdicts = await misbehave(rogue, others, table, seat)
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
        heartbeat.cancel()
        await rogue.broadcast(others, Leave("done"))
        return {"verdicts": verdicts, "state_hash": table.state_hash().hex(), "seat": seat}
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


async def misbehave(rogue: Rogue, others: list[bytes], table: GameTable, seat: int
                    ) -> dict[str, list[tuple[ErrorCode, str, str]]]:
    legal = table.legal_actions(seat)[0]
    other_seat = next(s for s in range(table.players) if s != seat)
    valid = rogue.envelope(ActionMsg(table.index, table.head, seat, legal))
    return {
        "random bytes": await refused_by_all(rogue, others, os.urandom(64)),
        "truncated": await refused_by_all(rogue, others, valid[: len(valid) // 2]),
        "another sender": await refused_by_all(rogue, others, rogue.envelope(
            ActionMsg(table.index, table.head, seat, legal), sender=others[0])),
        "late seed": await refused_by_all(rogue, others, rogue.envelope(
            SeedCommit(seat, bytes(32)))),
        "another seat": await refused_by_all(rogue, others, rogue.envelope(
            ActionMsg(table.index, table.head, other_seat, legal))),
        "broken chain": await refused_by_all(rogue, others, rogue.envelope(
            ActionMsg(table.index, bytes(32), seat, legal))),
        "illegal": await refused_by_all(rogue, others, rogue.envelope(
            ActionMsg(table.index, table.head, seat, Action.of("play", card=99)))),
    }


EXPECTED = {
    "random bytes": ErrorCode.MALFORMED,
    "truncated": ErrorCode.MALFORMED,
    "another sender": ErrorCode.STRANGER,
    "late seed": ErrorCode.WRONG_PHASE,
    "another seat": ErrorCode.WRONG_SEAT,
    "broken chain": ErrorCode.BROKEN_CHAIN,
    "illegal": ErrorCode.ILLEGAL,
    "out of turn": ErrorCode.OUT_OF_TURN,
}


def test_every_honest_peer_refuses_bad_messages_identically_and_play_goes_on() -> None:
    procs = Table()
    env = peer_env(plugins="toygames")
    try:
        host, address = procs.host("posy", 3, "--bot", "random", env=env)
        joiner = procs.join(address, "--bot", "random", env=peer_env(plugins="toygames"))
        result = asyncio.run(asyncio.wait_for(rogue_game(address, 2), WAIT * 2))
        verdicts = result["verdicts"]
        assert set(verdicts) == set(EXPECTED)
        for what, refusals in verdicts.items():
            assert len(refusals) == 2
            assert refusals[0] == refusals[1], what  # identical at every honest peer
            assert refusals[0][0] == EXPECTED[what], (what, refusals[0])
        assert verdicts["illegal"][0][2] == "posy.not_in_hand"
        finals = [p.finish() for p in (host, joiner)]
        assert [code for code, _ in finals] == [0, 0]
        assert {r["state_hash"] for _, r in finals} == {result["state_hash"]}
        for peer in (host, joiner):
            err = peer.stderr
            for code in ("MALFORMED", "STRANGER", "WRONG_PHASE", "WRONG_SEAT", "BROKEN_CHAIN",
                         "ILLEGAL", "OUT_OF_TURN"):
                assert f": {code}: " in err, (code, err)
            assert f"refused ActionMsg from seat {result['seat']} (rogue): BROKEN_CHAIN" in err
    finally:
        procs.close()


def test_a_peer_without_a_seat_cannot_inject_anything() -> None:
    import json
    from pathlib import Path

    procs = Table()
    try:
        slow = ("--bot", "random", "--delay", "0.3")
        host, address = procs.host("posy", 2, *slow, env=peer_env(plugins="toygames"))
        procs.join(address, *slow, env=peer_env(plugins="toygames"))
        log = host.wait_event("start")["log"]
        table_id = bytes.fromhex(json.loads(Path(log + ".table.json").read_text())["table_id"])
        where = parse_address(address)

        async def stranger() -> ErrorMsg:
            rogue = Rogue("stranger")
            try:
                rogue.dial(where.key, where.endpoint)
                data = rogue.envelope(ActionMsg(0, bytes(32), 1, Action.of("play", card=1)),
                                      table_id=table_id)
                await rogue.send(where.key, data)
                _, error = await asyncio.wait_for(rogue.errors.get(), WAIT)
                return error
            finally:
                await rogue.close()

        error = asyncio.run(stranger())
        assert error.code == ErrorCode.STRANGER
        assert host.finish()[0] == 0  # the game went on
        assert "refused ActionMsg from stranger" in host.stderr
        assert "STRANGER: the sender holds no seat at this table" in host.stderr
    finally:
        procs.close()

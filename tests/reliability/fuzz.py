"""Fuzzing a live peer: what a seated rogue can throw at honest peers in one burst.

`inputs(n, seed, ...)` makes ``n`` wire inputs of three kinds, in turn:

* **random bytes** (empty to 4 KiB, sometimes far past the 4 MiB envelope limit);
* **mutated valid envelopes**: a real envelope of every message type (the bodies of
  docs/protocol.md, built with the codec and the table's true ids and chain head), then
  bits flipped, bytes overwritten, cut short, spliced with another envelope, or repeated;
  all but ``Leave`` and ``StateHash``: a well-formed Leave from a seated peer is its
  departure, which the table rightly records, and a StateHash is the peer's own claim about
  its state, which halts the table by design when it differs (a desync names the seat;
  tests/net covers it).  So a mutation that comes out as such a message of the rogue's own
  (or as a ``CatchUpReply`` whose intact entry carries a state hash other than the true
  one: the same claim) is drawn again, and extreme Leaves and StateHashes carry a wrong table id;
* **well-formed messages with extreme values**: protobuf messages built field by field from
  the schema's descriptors, for every body type, each field drawn from its type's edges
  (0, -1, 2**31, 2**63 - 1, 2**64 - 1, empty and over-long text and bytes, control and
  bidi characters, invalid UTF-8, lists 0 or thousands long, values nested past the limit).

`fuzz_at_turn` is a `rogue.AtTurn`: at the rogue's first turn, with every honest peer
waiting on it, it sends the inputs to every honest peer, then an always-refused probe, and
returns how many went out.  What must hold afterwards (checked by the tests and by
``python -m reliability.run fuzz``): the game then plays to one final hash equal to the
rogue's own table (nothing the fuzz sent was applied), every honest peer's log verifies,
memory stays bounded, and every line the peer wrote is escaped text (no control bytes).
The one other ending allowed is the table stopping on the rogue's own word, as the protocol
says it must: a desync that names the rogue (a mutated message can still be a well-formed
claim about its state) or its seat leaving (a mutated message can still be a Leave); the
report says so (``stopped_by_the_rogue``).  A table that stalls is a failure.
The generator's randomness is test tooling, seeded (`random.Random(seed)`).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
from collections.abc import Iterator
from typing import Any

from google.protobuf.descriptor import FieldDescriptor
from rogue import Rogue

from hedgerow.core.actions import Action
from hedgerow.core.table import Table as GameTable
from hedgerow.net.codec import CodecError, decode_envelope
from hedgerow.net.messages import (
    ActionCommit,
    ActionMsg,
    ActionReveal,
    CatchUpReply,
    CatchUpRequest,
    ErrorCode,
    ErrorMsg,
    Heartbeat,
    Hello,
    Leave,
    LoggedEntry,
    MotionKind,
    MotionVote,
    PeerInfo,
    SeatAssignment,
    SeatHandback,
    SeatMotion,
    SeatTaken,
    SeedCommit,
    SeedReveal,
    Start,
    StateHash,
)
from hedgerow.net.wirerules import MAX_ENVELOPE_SIZE
from hedgerow.proto import hedgerow_pb2 as pb

DEBUG = False
PROBE_WAIT = 120.0  # seconds the honest peers may take to answer the probe
GAME_WAIT = 120.0  # seconds the whole fuzzed game may take (plus 1 s per 50 inputs)
#: HEDGEROW_FUZZ_VERBOSE=1 shows what the honest peers do (their -v log lines).
VERBOSE: tuple[str, ...] = ("-v",) if os.environ.get("HEDGEROW_FUZZ_VERBOSE") else ()
KINDS = ("random bytes", "mutated envelope", "extreme message")
EDGE_INTS = (0, 1, -1, 2**31 - 1, 2**31, -(2**31), 2**32 - 1, 2**63 - 1, -(2**63), 2**64 - 1)
EDGE_TEXT = ("", "a" * 64, "a" * 4096, "\x1b[2J\x1b[31mred", "\x00\x07\x08", "\u202eevil",
             "é" * 300, "\ud7ff", "\n\r\t", "x" * 70_000)
EDGE_BYTES = (b"", b"\x00", b"\xff" * 16, b"\x00" * 32, b"\xff" * 33, b"\x80" * 1000,
              b"\xc3\x28", bytes(range(256)) * 64)


def valid_bodies(table: GameTable, seat: int, key: bytes, other: int) -> list[Any]:
    """One plausible body of every message type, for the rogue at ``seat`` of ``table``.

    The action names another seat (``other``): at its own turn the rogue may of course play,
    so an action of its own that a mutation turned legal would be a move, not an attack."""
    action = Action.of("play", card=1)
    entry = table.entries[-1] if table.entries else None
    logged = (LoggedEntry(entry, table.state_hash()),) if entry is not None else ()
    peer = PeerInfo(other, key, "tcp://127.0.0.1:1", "x", True)
    return [
        Hello("*", (), "fuzz", None, True, "tcp://127.0.0.1:1"),
        SeatAssignment(seat, table.players, "*", (peer,)),
        SeedCommit(seat, bytes(32)),
        SeedReveal(seat, bytes(32)),
        Start(table.header, bytes(32)),
        ActionMsg(table.index, table.head, other, action),  # not ours: see `valid_bodies`
        CatchUpRequest(0),
        CatchUpReply(table.header, entry.index if entry else 0, logged, table.index),
        Heartbeat(table.index),
        ErrorMsg(ErrorCode.MALFORMED, "fuzz"),
        ActionCommit(table.index, seat, bytes(32)),
        ActionReveal(table.index, seat, action, bytes(32)),
        SeatMotion(1, MotionKind.TAKEOVER, other, seat, "random", table.index, (seat,)),
        MotionVote(other, 1, True, ""),
        SeatTaken(other, seat, "random", table.index),
        SeatHandback(other, table.index),
    ]


def _mutate(rng: random.Random, data: bytes, corpus: list[bytes]) -> bytes:
    buf = bytearray(data)
    how = rng.randrange(6)
    if how == 0 and buf:  # flip bits
        for _ in range(rng.randint(1, 8)):
            buf[rng.randrange(len(buf))] ^= 1 << rng.randrange(8)
    elif how == 1 and buf:  # overwrite bytes with edges
        for _ in range(rng.randint(1, 4)):
            buf[rng.randrange(len(buf))] = rng.choice((0, 0x7F, 0x80, 0xFF))
    elif how == 2:  # cut short
        del buf[rng.randrange(len(buf) + 1):]
    elif how == 3:  # splice with another envelope
        other = rng.choice(corpus)
        cut = rng.randrange(len(buf) + 1)
        buf = buf[:cut] + other[rng.randrange(len(other) + 1):]
    elif how == 4:  # repeat a piece
        if buf:
            a = rng.randrange(len(buf))
            b = rng.randrange(a, len(buf) + 1)
            buf[b:b] = buf[a:b] * rng.randint(1, 50)
    else:  # insert random bytes
        cut = rng.randrange(len(buf) + 1)
        buf[cut:cut] = rng.randbytes(rng.randint(1, 64))
    return bytes(buf)


def _extreme_scalar(rng: random.Random, field: FieldDescriptor) -> Any:
    t = field.type
    if t in (FieldDescriptor.TYPE_STRING,):
        return rng.choice(EDGE_TEXT)
    if t == FieldDescriptor.TYPE_BYTES:
        return rng.choice(EDGE_BYTES)
    if t == FieldDescriptor.TYPE_BOOL:
        return rng.random() < 0.5
    if t == FieldDescriptor.TYPE_ENUM:
        values = [v.number for v in field.enum_type.values]
        return rng.choice([*values, max(values) + 1, 2**31 - 1, -1])
    unsigned = t in (FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_UINT64,
                     FieldDescriptor.TYPE_FIXED32, FieldDescriptor.TYPE_FIXED64)
    bits = 32 if t in (FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_UINT32,
                       FieldDescriptor.TYPE_SINT32, FieldDescriptor.TYPE_FIXED32,
                       FieldDescriptor.TYPE_SFIXED32) else 64
    low, high = (0, 2**bits - 1) if unsigned else (-(2 ** (bits - 1)), 2 ** (bits - 1) - 1)
    return min(high, max(low, rng.choice(EDGE_INTS)))


def _fill(rng: random.Random, msg: Any, depth: int = 0, budget: list[int] | None = None) -> None:
    """Fill ``msg`` field by field with extreme values (one branch of each oneof), in at most
    about ``budget[0]`` bytes of text and bytes fields altogether (a bit past the limit)."""
    budget = [2 * MAX_ENVELOPE_SIZE] if budget is None else budget
    oneof_done: set[str] = set()
    for field in msg.DESCRIPTOR.fields:
        group = field.containing_oneof
        if group is not None:
            if group.name in oneof_done or rng.random() < 0.5:
                continue
            oneof_done.add(group.name)
        elif rng.random() < 0.2:
            continue  # leave some fields unset
        repeated = field.is_repeated
        count = rng.choice((0, 1, 2, 300, 5000)) if repeated else 1
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            if depth > 40:
                continue
            count = min(count, 3 if depth else 60)  # wide at the top, narrow below
            for _ in range(count):
                sub = getattr(msg, field.name).add() if repeated else getattr(msg, field.name)
                if not repeated:
                    sub.SetInParent()
                _fill(rng, sub, depth + 1, budget)
        else:
            values = []
            for _ in range(count):
                value = _extreme_scalar(rng, field)
                if isinstance(value, str | bytes):
                    if len(value) > budget[0]:
                        value = value[:16]
                    budget[0] -= len(value)
                values.append(value)
            if repeated:
                getattr(msg, field.name).extend(values)
            elif values:
                setattr(msg, field.name, values[0])


def _extreme(rng: random.Random, body: str, table_id: bytes, key: bytes) -> bytes:
    env = pb.Envelope()
    budget = [2 * MAX_ENVELOPE_SIZE]
    _fill(rng, env, 0, budget)
    env.ClearField("body")
    _fill(rng, getattr(env, body), 0, budget)
    getattr(env, body).SetInParent()
    if rng.random() < 0.7 and body not in ("leave", "state_hash"):  # mostly true ids
        env.protocol_version, env.table_id, env.sender = 2, table_id, key
        env.seq = rng.choice((1, 2**63 - 1, rng.randrange(1, 1 << 40)))
    data = env.SerializeToString()
    return data if len(data) <= MAX_ENVELOPE_SIZE * 2 else data[: MAX_ENVELOPE_SIZE * 2]


def _own_claim(data: bytes, table_id: bytes, key: bytes,
               truth: dict[int, bytes] | None = None) -> bool:
    """True when a mutation came out as the rogue's own word at this table, which the table
    rightly acts on, not an attack: a well-formed ``StateHash`` (a claim about its state: a
    desync naming it), a ``Leave`` (its seat leaving), or a ``CatchUpReply`` holding an
    intact entry whose state hash is not ``truth``'s for that index (a claim too)."""
    try:
        env = decode_envelope(data)
    except CodecError:
        return False
    if env.table_id != table_id or env.sender != key:
        return False
    if isinstance(env.body, StateHash | Leave):
        return True
    if isinstance(env.body, CatchUpReply):
        known = truth or {}
        return any(item.entry.intact and known.get(item.entry.index) != item.state_hash
                   for item in env.body.entries)
    return False


def body_names() -> list[str]:
    """The envelope's body fields, one per message type."""
    return [f.name for f in pb.Envelope.DESCRIPTOR.oneofs_by_name["body"].fields]


def inputs(n: int, seed: int, corpus: list[bytes], table_id: bytes, key: bytes,
           truth: dict[int, bytes] | None = None) -> Iterator[tuple[str, bytes]]:
    """``n`` fuzz inputs (kind, bytes), the three kinds in turn, every body type in turn."""
    rng = random.Random(seed)
    bodies = body_names()
    for i in range(n):
        kind = KINDS[i % 3]
        if kind == "random bytes":
            size = rng.choice((0, 1, 7, 64, 512, 4096)) if i % 300 else MAX_ENVELOPE_SIZE + 1
            yield kind, rng.randbytes(size)
        elif kind == "mutated envelope":
            data = _mutate(rng, corpus[(i // 3) % len(corpus)], corpus)
            while _own_claim(data, table_id, key, truth):  # see the module docstring
                data = _mutate(rng, corpus[(i // 3) % len(corpus)], corpus)
            yield kind, data
        else:
            yield kind, _extreme(rng, bodies[(i // 3) % len(bodies)], table_id, key)


def fuzz_at_turn(n: int, seed: int) -> Any:
    """A `rogue.AtTurn` that sends ``n`` inputs to every honest peer, then a probe."""

    async def at_turn(rogue: Rogue, others: list[bytes], table: GameTable,
                      seat: int) -> dict[str, Any]:
        other = next(s for s in range(table.players) if s != seat)
        corpus = [rogue.envelope(body) for body in
                  valid_bodies(table, seat, rogue.key, other)]
        sent = {k: 0 for k in KINDS}
        last = table.entries[-1].index if table.entries else -1
        truth = {last: table.state_hash()}  # the one entry the corpus's CatchUpReply holds
        for i, (kind, data) in enumerate(inputs(n, seed, corpus, rogue.table_id, rogue.key,
                                                truth)):
            for key in others:
                await rogue.send(key, data)
            sent[kind] += 1
            if i % 200 == 199:
                await asyncio.sleep(0)  # let the rogue's reader drain the refusals
            if DEBUG:
                print("sent", i, kind, len(data), flush=True)
        # Every honest peer still answers, in order, after the whole burst.
        probe = rogue.envelope(Heartbeat(table.index), table_id=b"\xff" * 16)
        probe_seq = rogue.seq
        if DEBUG:
            print("probe", probe_seq, flush=True)
        for key in others:
            await rogue.send(key, probe)
        answered: set[bytes] = set()
        refusals = 0
        while answered != set(others):
            sender, error = await asyncio.wait_for(rogue.errors.get(), PROBE_WAIT)
            if DEBUG:
                print("got", error.code, error.ref_seq, error.message[:80], flush=True)
            refusals += 1
            if error.code == ErrorCode.WRONG_TABLE and error.ref_seq == probe_seq:
                answered.add(sender)
        return {"sent": sent, "refusals_seen": refusals}

    return at_turn


def peak_rss_kib(pid: int) -> int:
    """The process's peak resident set (VmHWM), in KiB."""
    with open(f"/proc/{pid}/status", encoding="ascii") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0


def unescaped(text: str) -> list[str]:
    """Lines of ``text`` holding a control character other than tab (a terminal hazard)."""
    return [line for line in text.splitlines()
            if any((ord(c) < 32 and c != "\t") or ord(c) == 127 or 0x80 <= ord(c) < 0xA0
                   or c in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                   for c in line)]


#: Seconds the rogue's game may still take to end once every honest peer has exited.
EXIT_GRACE = 5.0


async def rogue_until_gone(game: Any, procs: list[Any], limit: float) -> Any:
    """The rogue's game result; None once ``limit`` seconds passed, or when every honest
    process exited and the rogue's game still did not end within `EXIT_GRACE` seconds (a
    table that stopped early is reported at once, not after the whole wait; the grace is
    for a game that did end: the honest peers finish and exit the moment the last action
    is applied, and the rogue may not have read that action yet)."""
    task = asyncio.ensure_future(game)
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not task.done():
        over = loop.time() > deadline
        if not over and all(p.poll() is not None for p in procs):
            await asyncio.wait({task}, timeout=EXIT_GRACE)
            over = not task.done()
        if over:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            return None
        await asyncio.wait({task}, timeout=1.0)
    return task.result()


def run_fuzz(n: int, seed: int) -> dict[str, Any]:
    """A table of two honest bot processes and the fuzzing rogue; what held (see module)."""
    from e2e.helpers import Table, hedgerow, peer_env
    from rogue import rogue_game

    from hedgerow.net.logfile import read_log

    procs = Table()
    problems: list[str] = []
    try:
        envs = [peer_env(plugins="toygames") for _ in range(2)]
        host, address = procs.host("posy", 3, "--bot", "random", "--open-deck", *VERBOSE,
                                   env=envs[0])
        joiner = procs.join(address, "--bot", "random", *VERBOSE, env=envs[1])
        honest = [host, joiner]
        joiner.wait_event("joined")
        before = [peak_rss_kib(p.proc.pid) for p in honest]
        stopped = ""
        result = asyncio.run(rogue_until_gone(rogue_game(address, fuzz_at_turn(n, seed)),
                                              [p.proc for p in honest], GAME_WAIT + n / 50))
        after = [peak_rss_kib(p.proc.pid) if p.proc.poll() is None else b
                 for p, b in zip(honest, before, strict=True)]
        finals = []
        for peer in honest:
            try:
                finals.append(peer.finish(timeout=60))
            except AssertionError as exc:  # it hung: say what every honest peer wrote
                raise AssertionError(f"{exc}\n--- every honest peer:\n" + "\n---\n".join(
                    "".join(p.lines)[-4000:] + p.stderr[-3000:] for p in honest)) from None
        if result is None:
            # The rogue's game did not end.  Acceptable only when the table stopped on the
            # rogue's own word, as the protocol says it must: a desync naming the rogue (it
            # claimed a state it cannot have) or the rogue's seat leaving (a Leave it sent).
            ends = [(f or {}).get("problem") or "" for _, f in finals]
            left = any(e.get("event") == "link" and e.get("link") == "left"
                       and e.get("seat") == 2 for p in honest for e in p.events)
            if all("(rogue)" in why for why in ends) or left:
                stopped = ends[0] or "the rogue's seat left"
            else:
                said = ["\n".join(line for line in (p.stderr + "".join(p.lines)).splitlines()
                                   if "refused" not in line)[-3000:] for p in honest]
                problems.append("the table stalled; the honest peers wrote:\n"
                                + "\n---\n".join(said))
        for peer, (code, final) in zip(honest, finals, strict=True):
            if final is None or (not stopped and code != 0):
                problems.append(f"an honest peer exited {code}: {peer.stderr[-300:]}")
                continue
            if result is not None and final["state_hash"] != result["state_hash"]:
                problems.append("an honest peer ended on another hash than the rogue's table")
            verified = hedgerow("replay", final["log"], "--verify", env=peer.env)
            if verified.returncode != 0 and not stopped:
                problems.append(f"a log does not verify: {verified.stdout[-200:]}")
            if len(read_log(final["log"]).entries) != final["actions"]:
                problems.append("a log misses entries")
            if "Traceback" in peer.stderr:
                problems.append(f"a traceback: {peer.stderr[-500:]}")
            bad = unescaped(peer.stderr)
            if bad:
                problems.append(f"{len(bad)} unescaped lines, e.g. {bad[0][:120]!r}")
        if result is None:
            sent = {k: len(range(i, n, 3)) for i, k in enumerate(KINDS)}
            result = {"verdicts": {"sent": sent, "refusals_seen": 0}}
        grown = [(a - b) // 1024 for a, b in zip(after, before, strict=True)]
        return {"inputs": n, "seed": seed, "sent": result["verdicts"]["sent"],
                "refusals_seen": result["verdicts"]["refusals_seen"],
                "peak_rss_mib": [a // 1024 for a in after], "rss_growth_mib": grown,
                "stderr_lines": [p.stderr.count("\n") for p in honest],
                "stopped_by_the_rogue": stopped, "problems": problems}
    finally:
        procs.close()

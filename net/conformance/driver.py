"""The checker's own side of the wire: one raw peer that sends exactly what a scenario
tells it to and keeps everything it receives.

A `Driver` is a `Node` (a CURVE ROUTER and one DEALER per peer) and the codec, nothing of
`Peer`: it never answers, refuses or resends anything by itself, so what the peer under
test does is all its own.  Whatever arrives is kept, in order, until a scenario asks for
it (`next`); bytes that do not decode are kept too, and are a deviation (§2) when a
scenario meets them.

`refusal` observes an answer, or its absence, without waiting on a clock alone: after the
envelope under test it sends a *sentinel* that every peer refuses (a `Heartbeat` with a
table id that is not the table's, `WRONG_TABLE`) over the same link.  A peer handles one
link's envelopes in order and answers over the connection they came in on (§1), so the
answer to the envelope under test arrives before the sentinel's; a peer that handles them
out of order gets a short grace period more.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from hedgerow.net.codec import CodecError, decode_envelope, encode_envelope
from hedgerow.net.keys import Identity, generate, key_text
from hedgerow.net.messages import (
    PROTOCOL_VERSION,
    Body,
    Envelope,
    ErrorCode,
    ErrorMsg,
    Heartbeat,
    Leave,
    SealHeld,
)
from hedgerow.net.transport import Node, Received

from .report import Deviation

#: The table id of the sentinel: no table has it (a table's id is random, §2).
NOT_THE_TABLE = b"\xff" * 16
#: How long an answer that comes after the sentinel's is still waited for.
GRACE = 0.5


@dataclass(frozen=True, slots=True)
class Incoming:
    """One frame from the peer under test: decoded (``env``), or why it did not
    (``undecodable``)."""

    rx: Received
    env: Envelope | None
    undecodable: str = ""


Match = Callable[[Incoming], bool]


def body_is(kind: type, sender: bytes | None = None) -> Match:
    """A match for an envelope with a ``kind`` body (from ``sender``, when given)."""
    return lambda item: (item.env is not None and isinstance(item.env.body, kind)
                         and (sender is None or item.rx.sender == sender))


def describe(item: Incoming) -> str:
    """One line about a received frame, for a deviation's *got*."""
    if item.env is None:
        return f"bytes that do not decode ({item.undecodable})"
    body = item.env.body
    if isinstance(body, ErrorMsg):
        return describe_error(body)
    return f"{type(body).__name__} {body}"[:400]


class Driver:
    """The checker's raw peer.  ``timeout`` bounds every wait for the peer under test."""

    def __init__(self, timeout: float, identity: Identity | None = None) -> None:
        self.identity = identity or generate()
        self.key = self.identity.public
        self.timeout = timeout
        self.node = Node(self.identity, self._got)
        self.inbox: asyncio.Queue[Incoming] = asyncio.Queue()
        self.backlog: list[Incoming] = []
        self.seq = 0
        self.table_id = b""
        self.endpoint = ""
        self._tasks: list[asyncio.Task[None]] = []
        #: The latest Heartbeat from each key (heartbeats are not kept in the inbox).
        self.beats: dict[bytes, Heartbeat] = {}
        #: The highest envelope seq from each key (a `SealHeld`'s ``seen``, §10.8).
        self.seen: dict[bytes, int] = {}

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> Driver:
        """Bind the ROUTER on ``host``, at ``port`` (0: a free one)."""
        self.endpoint = await self.node.start(host, port)
        return self

    def _got(self, rx: Received) -> None:
        if rx.data is None:
            self.inbox.put_nowait(Incoming(rx, None, "a ZeroMQ message of several frames"))
            return
        try:
            env = decode_envelope(rx.data)
        except CodecError as exc:
            self.inbox.put_nowait(Incoming(rx, None, str(exc)))
            return
        self.seen[rx.sender] = max(self.seen.get(rx.sender, 0), env.seq)
        if isinstance(env.body, Heartbeat):  # kept aside: a sign of life, not a step
            self.beats[rx.sender] = env.body
            return
        self.inbox.put_nowait(Incoming(rx, env))

    # -- sending -----------------------------------------------------------------------

    def connect(self, key: bytes, address: str) -> None:
        """A DEALER to ``key``'s ROUTER at ``address`` (once)."""
        self.node.connect(key, address)

    def envelope(self, body: Body, *, table_id: bytes | None = None,
                 sender: bytes | None = None) -> tuple[int, bytes]:
        """A new envelope (its seq, its bytes); the table's id and our key by default."""
        self.seq += 1
        tid = self.table_id if table_id is None else table_id
        return self.seq, encode_envelope(Envelope(tid, sender or self.key, self.seq, body))

    def send(self, key: bytes, body: Body, *, table_id: bytes | None = None) -> int:
        """Send ``body`` over our DEALER to ``key``; the envelope's seq."""
        seq, data = self.envelope(body, table_id=table_id)
        self.send_raw(key, data)
        return seq

    def broadcast(self, keys: Sequence[bytes], body: Body) -> None:
        """One envelope to each of ``keys``."""
        _, data = self.envelope(body)
        for key in keys:
            self.send_raw(key, data)

    def send_raw(self, key: bytes, data: bytes) -> None:
        """Bytes as they are, over our DEALER to ``key``."""
        if not self.node.send(key, data):
            raise Deviation("1", f"a link to {key_text(key)[:8]} that takes envelopes",
                            "the link refused to queue the envelope (full or gone)")

    def with_version(self, body: Body, version: int) -> tuple[int, bytes]:
        """An envelope whose ``protocol_version`` is ``version`` (< 128; §9).  The codec
        writes field 1 first, as protobuf does (tag 0x08, then the version as a one-byte
        varint); only that byte changes."""
        seq, data = self.envelope(body)
        assert data[:2] == bytes([0x08, PROTOCOL_VERSION]) and 0 < version < 128
        return seq, bytes([0x08, version]) + data[2:]

    def beat(self, keys: Callable[[], Sequence[bytes]], next_index: Callable[[], int],
             held: Callable[[bytes], SealHeld | None] | None = None) -> None:
        """Send ``Heartbeat(next_index())`` to ``keys()`` once a second (§5.8); at a sealed
        table with ``held(key)``, what the checker holds of the deck, for each (§10.8)."""
        async def loop() -> None:
            while True:
                await asyncio.sleep(1.0)
                if held is None:
                    self.broadcast(keys(), Heartbeat(next_index()))
                    continue
                for key in keys():
                    self.send(key, Heartbeat(next_index(), held=held(key)))

        self._tasks.append(asyncio.create_task(loop()))

    # -- receiving ---------------------------------------------------------------------

    async def next(self, match: Match, section: str, expected: str,
                   timeout: float | None = None) -> Incoming:
        """The first frame (kept or new) that ``match`` accepts, the others kept; a
        `Deviation` of ``section`` when none comes within the timeout."""
        for i, item in enumerate(self.backlog):
            if match(item):
                return self.backlog.pop(i)
        wait = self.timeout if timeout is None else timeout
        try:
            async with asyncio.timeout(wait):
                while True:
                    item = await self.inbox.get()
                    if match(item):
                        return item
                    self.backlog.append(item)
        except TimeoutError:
            raise Deviation(section, expected, f"nothing of the kind within {wait:g} s"
                            + self._lately()) from None

    def _lately(self) -> str:
        if not self.backlog:
            return ""
        return " (the last frame that came: " + describe(self.backlog[-1]) + ")"

    def take(self, match: Match) -> list[Incoming]:
        """Every frame received so far that ``match`` accepts (they leave the backlog)."""
        while not self.inbox.empty():
            self.backlog.append(self.inbox.get_nowait())
        taken = [item for item in self.backlog if match(item)]
        self.backlog = [item for item in self.backlog if not match(item)]
        return taken

    async def answers(self, key: bytes, data: bytes, section: str) -> list[ErrorMsg]:
        """Send ``data`` to ``key`` and then the sentinel; every Error from ``key`` that
        arrives before the sentinel's answer (and, when there is none, within the grace
        period after it)."""
        self.send_raw(key, data)
        sentinel = self.send(key, Heartbeat(0), table_id=NOT_THE_TABLE)
        errors: list[ErrorMsg] = []
        from_key = body_is(ErrorMsg, key)
        while True:
            try:
                item = await self.next(from_key, section,
                                       "an Error(WRONG_TABLE) for a Heartbeat whose table_id "
                                       "is not the table's (the checker's sentinel)")
            except Deviation as unanswered:
                raise self._left_instead(key, unanswered) from None
            assert item.env is not None and isinstance(item.env.body, ErrorMsg)
            error = item.env.body
            if error.ref_seq == sentinel:
                if error.code != ErrorCode.WRONG_TABLE:
                    raise Deviation("2", "Error(WRONG_TABLE) for a table_id that is not the "
                                    "table's", describe(item))
                break
            errors.append(error)
        if not errors:
            with contextlib.suppress(Deviation):
                item = await self.next(from_key, section, "", timeout=GRACE)
                assert item.env is not None and isinstance(item.env.body, ErrorMsg)
                errors.append(item.env.body)
        return errors

    def _left_instead(self, key: bytes, unanswered: Deviation) -> Deviation:
        """``unanswered``, naming the `Leave` ``key`` sent meanwhile when there is one: a
        peer that left the table answers no sentinel, and its `Leave` says why."""
        leave = next((item for item in self.backlog if body_is(Leave, key)(item)), None)
        if leave is None:
            return unanswered
        return Deviation(unanswered.section, unanswered.expected,
                         "nothing: the peer left the table instead, " + describe(leave))

    async def refusal(self, key: bytes, data: bytes, seq: int | None, code: ErrorCode,
                      section: str, *, ref_index: int | None = None,
                      refusal: bool = False) -> ErrorMsg:
        """Send ``data`` (envelope ``seq``; None when it carries none) to ``key`` and check
        the answer: one `Error` with ``code``, naming ``seq`` in ``ref_seq`` and, when
        given, ``ref_index``; with ``refusal``, a non-empty rules' code in ``refusal``."""
        errors = await self.answers(key, data, section)
        want = f"Error({code.name})"
        if not errors:
            raise Deviation(section, want, "no answer (the peer answered the sentinel sent "
                            "after it, so it is alive and ignored this envelope)")
        error = errors[0]
        got = describe_error(error)
        if error.code != code:
            raise Deviation(section, want, got)
        if error.ref_seq != seq:
            raise Deviation("2.3", f"{want} with ref_seq={seq}", got)
        if ref_index is not None and error.ref_index != ref_index:
            raise Deviation("2.3", f"{want} with ref_index={ref_index}", got)
        if refusal and not error.refusal:
            raise Deviation("2.3", f"{want} naming the rules' refusal code in refusal", got)
        if len(errors) > 1:
            raise Deviation("2.3", f"one {want}", f"{len(errors)} Errors: "
                            + "; ".join(describe_error(e) for e in errors))
        return error

    async def close(self) -> None:
        """Stop the heartbeats and free the sockets."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.node.close()


def describe_error(error: ErrorMsg) -> str:
    """An Error as a deviation's *got*."""
    return (f"Error({error.code.name}: {error.message!r}, ref_seq={error.ref_seq}, "
            f"ref_index={error.ref_index}, refusal={error.refusal!r})")


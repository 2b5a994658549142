"""`Spectator`: watching a live table from its host (docs/protocol.md §3.4).

A spectator binds its own ROUTER (CURVE, as any peer), dials the host and says ``Hello``
with ``spectator`` set; the host answers with a ``SeatAssignment`` without ``seat`` (the
seating, and who else watches) and then streams ``SpectatorFeed``s: its log's public
records, which `hedgerow.net.livetable.LiveTable` replays as they come.  The spectator
sends nothing but its ``Heartbeat`` each second (how many records it holds, so that the
host sends again what was lost) and a ``Leave`` when it stops watching: it holds no seat,
no key of the table's deck and no vote, and leaving changes nothing at the table.

It talks to the host alone: anything from another key is refused (``STRANGER``).  A host
silent for the lost time is shown as away (the table may still be playing: the spectator
waits for it), a host that leaves ends the watch.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path

from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.net import rulesmatch
from hedgerow.net.address import TableAddress, advertised_host, endpoint, split_endpoint
from hedgerow.net.codec import CodecError, decode_envelope, decode_log_record, encode_envelope
from hedgerow.net.context import HEARTBEAT_S, LOST_AFTER_S, JoinRefused
from hedgerow.net.keys import Identity
from hedgerow.net.livetable import LiveTable
from hedgerow.net.messages import (
    Body,
    Envelope,
    ErrorCode,
    ErrorMsg,
    Heartbeat,
    Hello,
    Leave,
    LeaveReason,
    LogHeader,
    PeerInfo,
    SeatAssignment,
    SpectatorFeed,
)
from hedgerow.net.seat import Changes, Link
from hedgerow.net.shown import shown
from hedgerow.net.transport import Node, Received, unreachable

log = logging.getLogger(__name__)


class Spectator:
    """A spectator of the table at an address (see the module docstring).  Everything it
    knows is public: ``live`` (the table replayed from the host's records, None before the
    game's log begins), ``peers`` (the seating), ``watchers`` (every spectator's name),
    ``lost``/``left`` (seats away, as the host sees them), ``halted`` (why the table
    stopped), ``host`` (the host's link: CONNECTED, LOST or LEFT) and ``host_left`` (its
    ``Leave``)."""

    def __init__(self, identity: Identity, plugins: PluginHost, *, name: str = "",
                 heartbeat: float = HEARTBEAT_S, lost_after: float = LOST_AFTER_S) -> None:
        self.identity = identity
        self.plugins = plugins
        self.name = shown(name, None)[:64]
        self.heartbeat = heartbeat
        self.lost_after = lost_after
        self.node = Node(identity, self._on_frame)
        self.changes = Changes()
        self.address: TableAddress | None = None
        self.table_id = b""
        self.players = 0
        self.ruleset: Ruleset | None = None
        self.peers: tuple[PeerInfo, ...] = ()
        self.watchers: tuple[str, ...] = ()
        self.live: LiveTable | None = None
        self.held = 0  # records of the host's stream taken
        self.lost: tuple[int, ...] = ()
        self.left: tuple[int, ...] = ()
        self.halted = ""
        self.host = Link.CONNECTED
        self.host_left: Leave | None = None
        self._heard = 0.0
        self._asked = 0.0  # when we last said Hello again (dropped by the host)
        self._hello: Hello | None = None
        self._seq = 0
        self._seated: asyncio.Future[None] | None = None
        self._beat: asyncio.Task[None] | None = None
        self._closed = False

    # -- arriving and leaving ----------------------------------------------------------------

    async def watch(self, address: TableAddress, *, bind: str = "127.0.0.1",
                    timeout: float = 10.0) -> None:
        """Ask the table at ``address`` to be watched; returns once the host answered.
        `JoinRefused` with the host's reason (no spectators, too many, rules not installed
        here...), or when nothing answers there."""
        try:
            await self._watch(address, bind=bind, timeout=timeout)
        except BaseException:
            self._closed = True
            await self.node.close()
            raise

    async def _watch(self, address: TableAddress, *, bind: str, timeout: float) -> None:
        loop = asyncio.get_running_loop()
        bound = await self.node.start(bind, 0)
        host, port = split_endpoint(bound)
        where = endpoint(advertised_host(host, address.host), port)
        self.address = address
        seated: asyncio.Future[None] = loop.create_future()
        self._seated = seated
        self.node.connect(address.key, address.endpoint, watch=True)
        hello = self._hello = Hello(rulesmatch.ANY_RULES, rulesmatch.installed(self.plugins),
                                    self.name, None, False, where, spectator=True)
        self._send(hello, table_id=b"")
        shaken = loop.create_task(self.node.handshake(address.key, timeout))
        try:
            await asyncio.wait({seated, shaken}, timeout=timeout,  # type: ignore[type-var]
                               return_when=asyncio.FIRST_COMPLETED)
            if not seated.done() and shaken.done():
                problem = unreachable(address, shaken.result())
                if problem is not None:
                    raise JoinRefused(problem)
            await asyncio.wait_for(asyncio.shield(seated), timeout)
        except TimeoutError:
            raise JoinRefused(f"no answer from the table at {address.host}:{address.port} "
                              f"within {timeout:g} s (is it running, and can it reach this "
                              f"machine at {where}?)") from None
        finally:
            shaken.cancel()
        self._heard = loop.time()
        self._beat = loop.create_task(self._beating())

    async def close(self, reason: str = "stopped watching") -> None:
        """Stop watching: the host is told (``Leave``), the sockets are freed."""
        if self._closed:
            return
        self._closed = True
        if self.address is not None and self.table_id and self.host != Link.LEFT:
            self._send(Leave(reason[:200], LeaveReason.QUIT))
        if self._beat is not None:
            self._beat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._beat
        await self.node.close()
        self.changes.notify()

    @property
    def closed(self) -> bool:
        """True once `close` ran."""
        return self._closed

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call ``callback()`` after every change."""
        self.changes.subscribe(callback)

    async def wait_until(self, predicate: Callable[[], bool], timeout: float | None = None
                         ) -> bool:
        """Wait until ``predicate()`` holds (checked after every change); False on timeout."""
        return await self.changes.wait_until(predicate, timeout)

    def changed(self) -> Awaitable[bool]:
        """An awaitable for the next change."""
        return self.changes.changed()

    # -- the wire -----------------------------------------------------------------------

    def _send(self, body: Body, *, table_id: bytes | None = None) -> None:
        assert self.address is not None
        self._seq += 1
        env = Envelope(self.table_id if table_id is None else table_id,
                       self.identity.public, self._seq, body)
        self.node.send(self.address.key, encode_envelope(env))

    def _refuse(self, rx: Received, env: Envelope | None, code: ErrorCode, message: str) -> None:
        if env is not None and isinstance(env.body, ErrorMsg):
            return  # never an Error for an Error
        log.warning("refused a message from %s: %s", rx.sender.hex()[:8], message)
        self._seq += 1
        error = Envelope(self.table_id, self.identity.public, self._seq,
                         ErrorMsg(code, message, env.seq if env is not None else None))
        data = encode_envelope(error)
        if rx.route is not None:
            self.node.reply(rx.route, data)
        else:
            self.node.send(rx.sender, data)

    def _on_frame(self, rx: Received) -> None:
        if self._closed or self.address is None:
            return
        if rx.data is None:
            self._refuse(rx, None, ErrorCode.MALFORMED, "a message must be exactly one frame")
            return
        try:
            env = decode_envelope(rx.data)
        except CodecError as exc:
            self._refuse(rx, None, exc.code, exc.message)
            return
        if env.sender != rx.sender or rx.sender != self.address.key:
            self._refuse(rx, env, ErrorCode.STRANGER, "a spectator listens to the host alone")
            return
        if self.table_id and env.table_id != self.table_id:
            self._refuse(rx, env, ErrorCode.WRONG_TABLE, "this is not the table of that id")
            return
        self._heard = asyncio.get_running_loop().time()
        if self.host == Link.LOST:
            self.host = Link.CONNECTED
        body = env.body
        if isinstance(body, SeatAssignment) and body.seat is None:
            self._on_seating(env, body)
        elif isinstance(body, ErrorMsg):
            self._on_error(body)
        elif isinstance(body, SpectatorFeed) and self.ruleset is not None:
            self._on_feed(body)
        elif isinstance(body, Leave):
            self.host, self.host_left = Link.LEFT, body
        elif not isinstance(body, Heartbeat):
            self._refuse(rx, env, ErrorCode.WRONG_PHASE,
                         f"{type(body).__name__} is not expected by a spectator")
            return
        self.changes.notify()

    def _on_seating(self, env: Envelope, body: SeatAssignment) -> None:
        if self.ruleset is None:
            try:
                self.ruleset = rulesmatch.ruleset_for(self.plugins, body.fingerprint,
                                                      body.players)
            except HedgerowError as exc:
                self._answered(JoinRefused(exc.message))
                return
            self.table_id, self.players = env.table_id, body.players
        self.peers, self.watchers = body.peers, body.watchers
        self._answered(None)

    def _on_error(self, body: ErrorMsg) -> None:
        text = shown(body.message, None)
        if self._seated is not None and not self._seated.done():
            self._answered(JoinRefused(f"the table refused: {text}"))
            return
        log.warning("the host refused our message: %s: %s", body.code.name, text)
        now = asyncio.get_running_loop().time()
        if body.code == ErrorCode.STRANGER and self._hello is not None \
                and now - self._asked > self.lost_after:
            # The host dropped us (it heard nothing for a while): say Hello again, and the
            # stream starts over from its first record.
            self._asked = now
            self._send(self._hello)

    def _answered(self, problem: JoinRefused | None) -> None:
        if self._seated is None or self._seated.done():
            return
        if problem is None:
            self._seated.set_result(None)
        else:
            self._seated.set_exception(problem)

    def _on_feed(self, feed: SpectatorFeed) -> None:
        self.lost, self.left, self.halted = feed.lost, feed.left, shown(feed.halted, None)
        if feed.first > self.held:
            return  # a feed before it was lost: our heartbeat says where we are
        if feed.first == 0 and feed.records and self.held:
            self.live, self.held = None, 0  # the log began again (a seed round abandoned)
        for payload in feed.records[self.held - feed.first:]:
            try:
                record = decode_log_record(payload)
            except CodecError as exc:
                log.warning("the host sent a record that does not decode: %s", exc.message)
                return
            self.held += 1
            if isinstance(record, LogHeader):
                assert self.ruleset is not None
                if self.live is None:
                    self.live = LiveTable(self.ruleset, record, self.peers)
                    continue
            if self.live is not None:
                self.live.add(record)

    async def _beating(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(self.heartbeat)
            if self.host == Link.LEFT:
                continue
            self._send(Heartbeat(self.held))
            if self.host == Link.CONNECTED and loop.time() - self._heard > self.lost_after:
                self.host = Link.LOST
                self.changes.notify()

    def log_path(self) -> Path | None:
        """None: a spectator keeps no log of its own."""
        return None

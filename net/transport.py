"""`Node`: the one object that owns a peer's ZeroMQ sockets.

Each node binds one ROUTER and keeps one DEALER to each other peer it talks to, all on one
asyncio loop (``zmq.asyncio``).  Every link is CURVE-encrypted: the ROUTER is a CURVE
server with ZAP on (``AsyncioAuthenticator``, any client key allowed: who may *act* is the
table's business, not the socket's), and each DEALER is a CURVE client pinned to the key of
the peer it dials.  So every frame that arrives has a proven sender key:

* on the ROUTER, the ZAP ``User-Id`` of the connection (the client's Z85 public key);
* on a DEALER, the server key that DEALER was pinned to.

The node moves opaque bytes; it knows nothing of messages.  Sends never block: a frame a
full queue (high-water mark) cannot take is dropped, and the table protocol
recovers it (catch-up).  `close` lingers briefly so the last frames (a final action, a
Leave) still go out.

Each socket is read by a `_Reader`: a callback on the loop for the socket's file
descriptor takes every frame queued (up to `READ_BATCH` a turn) and hands each to the
handler at once, and sends go straight to libzmq.  No future, task or wake-up per frame, as
pyzmq's asyncio sockets make (their per-frame machinery was a third of a peer's CPU for an
action's frame, bench/README.md "Per-action CPU").  libzmq's descriptor is
edge-triggered: a send may take in the socket's pending input without it signalling again,
so after every send the socket is asked (``EVENTS``) and read on the next turn if it holds
frames.

A CURVE client pinned to a key the server does not hold never completes its handshake: the
server drops the connection and libzmq dials again, forever, and nothing is ever received.
So a DEALER can be watched (``connect(..., watch=True)``, then `Node.handshake`): libzmq's
socket monitor says whether the first handshake succeeded, failed on a connection that was
made (something listens there, but not with that key), or no connection was accepted at
all (nothing listens there).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import cast

import zmq
import zmq.asyncio
from zmq.auth import CURVE_ALLOW_ANY
from zmq.auth.asyncio import AsyncioAuthenticator
from zmq.utils import z85
from zmq.utils.monitor import parse_monitor_message

from hedgerow.net.address import TableAddress, endpoint, split_endpoint
from hedgerow.net.keys import Identity, key_from_z85, key_text

log = logging.getLogger(__name__)

ZAP_DOMAIN = b"hedgerow"
#: Frames queued per socket before sends are dropped.
HWM = 1000
#: How long close() waits to deliver frames still queued, in milliseconds.
LINGER_MS = 1000
#: The largest frame a socket accepts; a peer sending more is disconnected by libzmq.
MAX_FRAME = 4 * 1024 * 1024 + 1024
#: A link's health is TCP's, not ZMTP's: no ZMTP heartbeats (their PING and PONG each way on
#: every connection, with the acknowledgements they cost, were most of an idle table's bytes,
#: and on a slow link a PONG stuck behind data cut a healthy connection).  Table liveness is
#: the Heartbeat message, which keeps every outgoing connection carrying data: a connection
#: whose data stays unacknowledged this long is dropped and dialled again (TCP_USER_TIMEOUT:
#: a peer unplugged or gone), and one that hears nothing at all for `KEEPALIVE_IDLE_S` is
#: probed by TCP keepalive (an accepted connection whose dialler vanished).
UNACKNOWLEDGED_MS = 15_000
KEEPALIVE_IDLE_S = 20
KEEPALIVE_INTERVAL_S = 5
KEEPALIVE_PROBES = 3
RECONNECT_MS = 100
RECONNECT_MAX_MS = 1000
#: Frames a socket's reader takes in one turn of the loop before it lets the rest run.
READ_BATCH = 64
#: A watched link (`Node.handshake`) whose handshake failed this many times in a row on
#: connections that were made is talking to something that does not hold the key.
HANDSHAKE_FAILURES = 3
#: A watched link that could not make a single connection for this long (each one refused,
#: or no route) has nothing listening at the other end.
REFUSED_S = 3.0


class Handshake(Enum):
    """How the first CURVE handshake of a watched link went (`Node.handshake`)."""

    DONE = "done"  # it succeeded: the server holds the key this link is pinned to
    WRONG_KEY = "wrong key"  # connections were made, but every handshake on them failed
    REFUSED = "refused"  # no connection was accepted (nothing listens there, or no route)
    PENDING = "pending"  # none of the above yet (the deadline came first)


def unreachable(address: TableAddress, handshake: Handshake) -> str | None:
    """Why the table at ``address`` cannot be reached, as its handshake showed (a sentence
    that says what to check), or None when nothing is known to be wrong yet."""
    where = f"{address.host}:{address.port}"
    if handshake == Handshake.WRONG_KEY:
        return (f"nobody at {where} answers to the table key {key_text(address.key)[:8]}…: "
                "something listens there, but not that table; check the key after the / "
                "against the address `hedgerow host` printed")
    if handshake == Handshake.REFUSED:
        return (f"nothing listens at {where}: check the address against the one `hedgerow "
                "host` printed, and that the table is still open")
    return None


_FAILED = (zmq.EVENT_HANDSHAKE_FAILED_NO_DETAIL | zmq.EVENT_HANDSHAKE_FAILED_PROTOCOL
           | zmq.EVENT_HANDSHAKE_FAILED_AUTH)
_WATCHED = (zmq.EVENT_CONNECTED | zmq.EVENT_CONNECT_RETRIED | zmq.EVENT_HANDSHAKE_SUCCEEDED
            | _FAILED)


@dataclass(frozen=True, slots=True)
class Received:
    """One frame from an authenticated link.

    ``data`` is None when the message had an unexpected number of frames (malformed);
    ``route`` is the ROUTER routing id to answer through (None when it came on a DEALER);
    ``peer_ip`` is the remote IP address of a ROUTER connection.
    """

    sender: bytes
    data: bytes | None
    route: bytes | None
    peer_ip: str | None = None


Handler = Callable[[Received], None]


class _Reader:
    """Reads one socket from the loop: each time its descriptor says so (or a send left
    frames queued, `after_send`), every queued frame, up to `READ_BATCH` a turn, goes to
    ``take`` (the frames of one message) at once."""

    def __init__(self, sock: zmq.asyncio.Socket, take: Callable[[list[zmq.Frame]], None]
                 ) -> None:
        self.loop = asyncio.get_running_loop()
        # A plain socket on the same libzmq socket: reads and sends without pyzmq's futures.
        self.raw: zmq.Socket[bytes] = zmq.Socket.shadow(sock.underlying)
        self.fd = cast(int, self.raw.getsockopt(zmq.FD))
        self.take = take
        self.due = False  # a read is scheduled on the loop
        self.stopped = False
        self.loop.add_reader(self.fd, self.read)
        self.soon()  # (frames queued before the descriptor was watched signal nothing)

    def read(self) -> None:
        self.due = False
        recv = self.raw.recv_multipart
        for _ in range(READ_BATCH):
            if self.stopped:
                return
            try:
                frames = recv(zmq.NOBLOCK, copy=False)
            except zmq.Again:
                return  # everything queued is taken; the descriptor signals the next
            except zmq.ZMQError as exc:
                log.warning("reading a socket failed: %s", exc)
                return
            try:
                self.take(frames)
            except Exception:  # a bug must not leave the frames behind it unread
                log.exception("a frame could not be taken")
        self.soon()  # more may be queued: after the loop's other work

    def soon(self) -> None:
        """Read on the next turn of the loop."""
        if not self.due and not self.stopped:
            self.due = True
            self.loop.call_soon(self.read)

    def send(self, data: bytes | list[bytes]) -> bool:
        """Queue ``data`` (one frame, or the frames of one message) without blocking; False
        when libzmq refuses it (a full queue, a route the ROUTER does not know)."""
        try:
            if isinstance(data, list):
                self.raw.send_multipart(data, zmq.DONTWAIT)
            else:
                self.raw.send(data, zmq.DONTWAIT)
        except zmq.ZMQError:
            return False
        finally:
            self.after_send()
        return True

    def after_send(self) -> None:
        # (The send may have taken in pending input without the descriptor signalling.)
        if self.stopped:
            return
        try:
            events = cast(int, self.raw.getsockopt(zmq.EVENTS))
        except zmq.ZMQError:
            return
        if events & zmq.POLLIN:
            self.soon()

    def stop(self) -> None:
        """Stop reading (before the socket closes)."""
        if not self.stopped:
            self.stopped = True
            self.loop.remove_reader(self.fd)


def _set_common(sock: zmq.Socket, ident: Identity, max_frame: int = MAX_FRAME,
                hwm: int = HWM) -> None:
    sock.linger = LINGER_MS
    sock.sndhwm = hwm
    sock.rcvhwm = hwm
    sock.maxmsgsize = max_frame
    sock.tcp_maxrt = UNACKNOWLEDGED_MS
    sock.tcp_keepalive = 1
    sock.tcp_keepalive_idle = KEEPALIVE_IDLE_S
    sock.tcp_keepalive_intvl = KEEPALIVE_INTERVAL_S
    sock.tcp_keepalive_cnt = KEEPALIVE_PROBES
    sock.curve_secretkey = ident.secret_z85
    sock.curve_publickey = ident.public_z85


class Node:
    """A peer's sockets: a CURVE ROUTER it listens on and a CURVE DEALER per other peer.

    ``handler`` is called on the loop for every frame received, in arrival order per link.
    ``router_max``/``dealer_max`` are the largest frames the ROUTER and the DEALERs accept,
    ``hwm`` the frames each socket queues (another service than a table's, the shared
    leaderboard, takes small requests and larger answers).
    """

    def __init__(self, identity: Identity, handler: Handler, *, router_max: int = MAX_FRAME,
                 dealer_max: int = MAX_FRAME, hwm: int = HWM) -> None:
        self.identity = identity
        self._handler = handler
        self._limits = (router_max, dealer_max, hwm)
        self._ctx = zmq.asyncio.Context()
        self._auth: AsyncioAuthenticator | None = None
        self._router: zmq.asyncio.Socket | None = None
        self._dealers: dict[bytes, tuple[str, zmq.asyncio.Socket, _Reader]] = {}
        self._monitors: dict[bytes, zmq.asyncio.Socket] = {}  # watched DEALERs' monitors
        self._reader: _Reader | None = None  # the ROUTER's
        self._keys: dict[str, bytes] = {}  # User-Id -> raw key (Z85 decoding is slow)
        self.endpoint: str | None = None
        self._closed = False

    # -- life --------------------------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> str:
        """Start ZAP and bind the ROUTER on ``host:port`` (0: any free port); the endpoint."""
        if self._auth is None:
            self._auth = AsyncioAuthenticator(self._ctx, log=logging.getLogger("hedgerow.net.zap"))
            self._auth.start()
            self._auth.configure_curve(domain="*", location=CURVE_ALLOW_ANY)
        router = self._ctx.socket(zmq.ROUTER)
        _set_common(router, self.identity, self._limits[0], self._limits[2])
        router.curve_server = True
        router.zap_domain = ZAP_DOMAIN
        router.router_mandatory = True
        try:
            router.bind(endpoint(host, port))  # port 0: the system picks a free one
        except zmq.ZMQError as exc:
            router.close(0)
            raise OSError(f"cannot listen on {host}:{port}: {exc}") from exc
        self._router = router
        self.endpoint = endpoint(*split_endpoint(cast(bytes, router.last_endpoint).decode()))
        self._reader = _Reader(router, self._from_router)
        return self.endpoint

    async def close(self) -> None:
        """Stop reading, deliver what is queued (up to the linger time) and free everything."""
        if self._closed:
            return
        self._closed = True
        for _, _, reader in self._dealers.values():
            reader.stop()
        if self._reader is not None:
            self._reader.stop()
        for key in list(self._monitors):
            self._unwatch(key)
        socks = [sock for _, sock, _ in self._dealers.values()]
        if self._router is not None:
            socks.append(self._router)
        self._dealers.clear()
        # Closing with linger > 0 hands queued frames to libzmq's I/O thread; term() waits
        # for them (at most LINGER_MS), so run it off the loop.
        for sock in socks:
            sock.close()
        if self._auth is not None:
            self._auth.stop()
        await self._term()

    async def _term(self) -> None:
        """Terminate the context off the loop (it blocks while frames linger).

        A daemon thread rather than the loop's executor: should libzmq ever hang on to a
        socket, the process can still exit.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()

        def term() -> None:
            try:
                self._ctx.term()
            finally:
                with contextlib.suppress(RuntimeError):  # the loop may be gone already
                    loop.call_soon_threadsafe(done.set_result, None)

        threading.Thread(target=term, name="hedgerow-zmq-term", daemon=True).start()
        try:
            await asyncio.wait_for(done, LINGER_MS / 1000 + 2)
        except TimeoutError:
            log.warning("the ZeroMQ context did not terminate; leaving it to the exit")

    # -- links -------------------------------------------------------------------------

    def connect(self, key: bytes, address: str, *, watch: bool = False) -> None:
        """Keep a DEALER to the peer with public ``key`` at ``address`` (``tcp://h:p``).

        Connecting again to the same address is a no-op; to a new address, the old
        DEALER is replaced.  libzmq reconnects by itself after a link drops.  With
        ``watch`` the new link's first handshake is watched from the start (`handshake`).
        """
        current = self._dealers.get(key)
        if current is not None:
            if current[0] == address:
                return
            self.disconnect(key)
        sock = self._ctx.socket(zmq.DEALER)
        _set_common(sock, self.identity, self._limits[1], self._limits[2])
        sock.curve_serverkey = z85.encode(key)
        sock.reconnect_ivl = RECONNECT_MS
        sock.reconnect_ivl_max = RECONNECT_MAX_MS
        if watch:
            self._monitors[key] = cast(zmq.asyncio.Socket, sock.get_monitor_socket(_WATCHED))
        sock.connect(address)
        self._dealers[key] = (address, sock, _Reader(sock, lambda frames: self._from_dealer(
            key, frames)))

    async def handshake(self, key: bytes, timeout: float) -> Handshake:
        """How the first handshake of the watched link to ``key`` goes, within ``timeout``
        seconds: `Handshake.DONE` once one succeeded; `Handshake.WRONG_KEY` once
        `HANDSHAKE_FAILURES` failed in a row on connections that were made; `Handshake.REFUSED`
        when no connection was made for `REFUSED_S` seconds though libzmq kept dialling;
        else `Handshake.PENDING` at the deadline.  The watch ends with the answer."""
        monitor = self._monitors.get(key)
        if monitor is None:
            raise ValueError("that link is not watched (connect it with watch=True)")
        loop = asyncio.get_running_loop()
        start = loop.time()
        deadline = start + timeout
        failures = 0
        connected = retried = False
        verdict = Handshake.PENDING
        try:
            while (left := deadline - loop.time()) > 0:
                try:
                    frames = await asyncio.wait_for(monitor.recv_multipart(),
                                                    min(left, REFUSED_S / 4))
                except TimeoutError:
                    frames = None
                if frames is not None:
                    event = parse_monitor_message(frames)["event"]
                    if event == zmq.EVENT_HANDSHAKE_SUCCEEDED:
                        verdict = Handshake.DONE
                        break
                    if event == zmq.EVENT_CONNECTED:
                        connected = True
                    elif event == zmq.EVENT_CONNECT_RETRIED:
                        retried = True
                    elif event & _FAILED:
                        failures += 1
                        if failures >= HANDSHAKE_FAILURES:
                            verdict = Handshake.WRONG_KEY
                            break
                if not connected and retried and loop.time() - start >= REFUSED_S:
                    verdict = Handshake.REFUSED
                    break
        finally:
            self._unwatch(key)
        return verdict

    def _unwatch(self, key: bytes) -> None:
        monitor = self._monitors.pop(key, None)
        if monitor is None:
            return
        entry = self._dealers.get(key)
        if entry is not None:
            with contextlib.suppress(zmq.ZMQError):
                entry[1].disable_monitor()
        monitor.close(0)

    def disconnect(self, key: bytes) -> None:
        """Drop the DEALER to ``key`` (queued frames are discarded)."""
        self._unwatch(key)
        entry = self._dealers.pop(key, None)
        if entry is not None:
            entry[2].stop()
            entry[1].close(0)

    def send(self, key: bytes, data: bytes) -> bool:
        """Queue ``data`` on the DEALER to ``key``; False when there is none or it is full."""
        entry = self._dealers.get(key)
        return entry is not None and not self._closed and entry[2].send(data)

    def reply(self, route: bytes, data: bytes) -> bool:
        """Send ``data`` back through the ROUTER to the connection ``route``."""
        if self._reader is None or self._closed:
            return False
        return self._reader.send([route, data])

    # -- reading -----------------------------------------------------------------------

    def _from_router(self, frames: list[zmq.Frame]) -> None:
        user = str(frames[-1].get("User-Id"))
        sender = self._keys.get(user)
        if sender is None:
            try:
                sender = key_from_z85(user)
            except (TypeError, ValueError):
                log.warning("dropped a frame with no CURVE identity (User-Id %r)", user)
                return
            if len(self._keys) < 1024:
                self._keys[user] = sender
        data = frames[1].bytes if len(frames) == 2 else None
        address = str(frames[-1].get("Peer-Address"))
        self._dispatch(Received(sender, data, frames[0].bytes, address))

    def _from_dealer(self, key: bytes, frames: list[zmq.Frame]) -> None:
        data = frames[0].bytes if len(frames) == 1 else None
        self._dispatch(Received(key, data, None))

    def _dispatch(self, received: Received) -> None:
        try:
            self._handler(received)
        except Exception:  # a handler bug must not kill the socket's reader
            log.exception("handler failed on a frame from %s", key_text(received.sender)[:8])

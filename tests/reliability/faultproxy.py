"""A transparent TCP proxy that injects faults: delay and jitter, stalls, connection cuts.

Run inside one host namespace of a `lan.Lan`: an nftables rule there redirects every TCP
connection the host opens towards another host to this proxy, which reads the connection's
original destination (``SO_ORIGINAL_DST``), dials it itself (its own sockets carry a
firewall mark the rule lets through) and copies bytes both ways.  Bytes keep their order,
as TCP guarantees; each chunk is held ``delay ± jitter`` ms (never overtaking the chunk
before it), so a peer sees a slow, jittery link, not a broken one.

Commands, one line each on the control socket (a Unix socket, reachable from outside the
namespace), answered with one line:

* ``delay MS JITTER`` — hold every chunk from now on MS ± JITTER milliseconds;
* ``stall SECONDS`` — forward nothing for SECONDS (then everything held goes at once);
* ``cut`` — reset every open connection (the peers see a dropped link and reconnect);
* ``cut-random`` — reset one open connection chosen by the proxy's seeded generator;
* ``stats`` — ``connections=N bytes=B cuts=C``.

    python -m faultproxy --port 7777 --mark 119 --control /tmp/p.sock [--delay MS]
        [--jitter MS] [--seed N]

It prints ``ready`` on stdout once it listens.  It is test tooling: a chaos trial's
randomness comes from ``--seed`` (the rules' determinism rules are about the games).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import socket
import struct
import sys
import time
from dataclasses import dataclass, field

SO_ORIGINAL_DST = 80
CHUNK = 65536


@dataclass
class Faults:
    """What the proxy does to traffic now."""

    delay: float = 0.0  # seconds
    jitter: float = 0.0  # seconds
    stalled_until: float = 0.0  # monotonic time
    rng: random.Random = field(default_factory=random.Random)
    connections: set[Link] = field(default_factory=set)
    sent: int = 0
    cuts: int = 0

    def hold(self) -> float:
        """How long one chunk is held."""
        if not self.delay and not self.jitter:
            return 0.0
        return max(0.0, self.delay + self.rng.uniform(-self.jitter, self.jitter))


@dataclass(eq=False)
class Link:
    """One proxied connection: the peer's socket and ours to the destination."""

    inner: socket.socket
    outer: socket.socket
    tasks: list[asyncio.Task[None]] = field(default_factory=list)

    def reset(self) -> None:
        """Close both sides with a TCP reset (SO_LINGER 0)."""
        for sock in (self.inner, self.outer):
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            with contextlib.suppress(OSError):
                sock.close()
        for task in self.tasks:
            task.cancel()


def original_destination(sock: socket.socket) -> tuple[str, int]:
    """Where the redirected connection was going."""
    raw = sock.getsockopt(socket.SOL_IP, SO_ORIGINAL_DST, 16)
    port = struct.unpack_from("!H", raw, 2)[0]
    return socket.inet_ntoa(raw[4:8]), port


async def _pump(loop: asyncio.AbstractEventLoop, src: socket.socket, dst: socket.socket,
                faults: Faults, link: Link) -> None:
    """Copy ``src`` to ``dst`` chunk by chunk, each held as the faults say, in order."""
    queue: asyncio.Queue[tuple[float, bytes]] = asyncio.Queue()

    async def deliver() -> None:
        while True:
            due, data = await queue.get()
            while True:
                now = time.monotonic()
                wait = max(due, faults.stalled_until) - now
                if wait <= 0:
                    break
                await asyncio.sleep(wait)
            if not data:
                with contextlib.suppress(OSError):
                    dst.shutdown(socket.SHUT_WR)
                return
            await loop.sock_sendall(dst, data)
            faults.sent += len(data)

    writer = asyncio.ensure_future(deliver())
    link.tasks.append(writer)
    last = 0.0
    try:
        while True:
            data = await loop.sock_recv(src, CHUNK)
            last = max(last, time.monotonic() + faults.hold())
            queue.put_nowait((last, data))
            if not data:
                break
        await writer
    except (OSError, asyncio.CancelledError):
        pass
    finally:
        link.reset()
        faults.connections.discard(link)


async def _serve_peer(loop: asyncio.AbstractEventLoop, inner: socket.socket, mark: int,
                      faults: Faults) -> None:
    inner.setblocking(False)
    outer = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    outer.setsockopt(socket.SOL_SOCKET, socket.SO_MARK, mark)
    outer.setblocking(False)
    try:
        await asyncio.wait_for(loop.sock_connect(outer, original_destination(inner)), 10)
    except (TimeoutError, OSError):
        inner.close()
        outer.close()
        return
    link = Link(inner, outer)
    faults.connections.add(link)
    link.tasks.append(asyncio.ensure_future(_pump(loop, inner, outer, faults, link)))
    link.tasks.append(asyncio.ensure_future(_pump(loop, outer, inner, faults, link)))


async def _control(faults: Faults, reader: asyncio.StreamReader,
                   writer: asyncio.StreamWriter) -> None:
    line = (await reader.readline()).decode().split()
    answer = "ok"
    match line:
        case ["delay", ms, jitter]:
            faults.delay, faults.jitter = float(ms) / 1000, float(jitter) / 1000
        case ["stall", seconds]:
            faults.stalled_until = time.monotonic() + float(seconds)
        case ["cut"]:
            for link in list(faults.connections):
                link.reset()
            faults.cuts += len(faults.connections)
            faults.connections.clear()
        case ["cut-random"]:
            links = sorted(faults.connections, key=lambda li: li.inner.fileno())
            if links:
                victim = links[faults.rng.randrange(len(links))]
                victim.reset()
                faults.connections.discard(victim)
                faults.cuts += 1
            else:
                answer = "none"
        case ["stats"]:
            answer = f"connections={len(faults.connections)} bytes={faults.sent} cuts={faults.cuts}"
        case _:
            answer = f"unknown command: {' '.join(line)}"
    writer.write(answer.encode() + b"\n")
    await writer.drain()
    writer.close()


async def main(argv: list[str] | None = None) -> None:
    """Serve until killed."""
    parser = argparse.ArgumentParser(prog="faultproxy")
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--mark", type=int, required=True)
    parser.add_argument("--control", required=True)
    parser.add_argument("--delay", type=float, default=0.0, help="ms")
    parser.add_argument("--jitter", type=float, default=0.0, help="ms")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    faults = Faults(delay=args.delay / 1000, jitter=args.jitter / 1000,
                    rng=random.Random(args.seed))
    loop = asyncio.get_running_loop()
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    server.bind(("0.0.0.0", args.port))
    server.listen(128)
    server.setblocking(False)
    control = await asyncio.start_unix_server(
        lambda r, w: _control(faults, r, w), path=args.control)
    print("ready", flush=True)
    serving: set[asyncio.Task[None]] = set()
    async with control:
        while True:
            inner, _ = await loop.sock_accept(server)
            task = asyncio.ensure_future(_serve_peer(loop, inner, args.mark, faults))
            serving.add(task)
            task.add_done_callback(serving.discard)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        asyncio.run(main(sys.argv[1:]))

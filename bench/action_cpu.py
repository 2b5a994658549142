"""Where a peer's CPU for one action goes, piece by piece (bench/README.md "Per-action CPU").

Two parts, each CPU time of the measuring thread (``time.thread_time_ns``):

1. **The message path's pieces**, in this process: Petals games (4 seats, open deck) of
   random actions, each action taken through what a peer does with it, the same calls the
   peers make: the author encodes its ``ActionMsg`` envelope (once, for every receiver) and
   applies it; a receiver decodes it, applies it (`Table.submit` with index and chain), and
   compares the author's hashes; every peer seals each entry (the state hash, the entry's
   words, the log record and its checks, the hash book).  No sockets: this is the
   floor a peer's loop cannot go under without changing what is checked.
2. **Receiving a frame**: a peer process takes CURVE frames from another (one every 0.3 ms,
   as in play), through pyzmq's asyncio sockets (a future per frame, what the peers used
   before) and through a reader on the socket's descriptor (`hedgerow.net.transport`,
   now); CPU per frame of the loop's thread and of the whole process (ZeroMQ's I/O thread
   decrypting).

    python bench/action_cpu.py [--games 30] [--frames 3000] [--rounds 5]
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any


def pieces(games: int) -> dict[str, list[int]]:
    """CPU ns of each piece of the message path, per call, over ``games`` Petals games."""
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.core.table import Table
    from hedgerow.net import codec
    from hedgerow.net import messages as m
    from hedgerow.net.hashbook import HashBook

    ruleset = PluginHost().ruleset("petals", (), 4)
    clock = time.thread_time_ns
    out: dict[str, list[int]] = {}

    def timed(name: str, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        t0 = clock()
        result = call(*args, **kwargs)
        out.setdefault(name, []).append(clock() - t0)
        return result

    rng = random.Random(1)
    for game in range(games):
        seed = bytes([game]) * 32
        author, receiver = Table(ruleset, 4, seed), Table(ruleset, 4, seed)
        book = HashBook(4, 1)
        own: list[bytes] = []
        seq = 0
        while not author.over():
            seat = author.active_seats()[0]
            legal = author.legal_actions(seat)
            action = legal[rng.randrange(len(legal))]
            index, prev = author.index, author.head
            report = m.StateHash.of(index - 1, own[-1:]) if own else None
            seq += 1
            envelope = m.Envelope(bytes(16), bytes(32), seq,
                                  m.ActionMsg(index, prev, seat, action, hashes=report))
            data = timed("author: encode the ActionMsg envelope (once)",
                         codec.encode_envelope, envelope)
            timed("author: apply (Table.submit)", author.submit, seat, action, index=index,
                  prev=prev)
            body = timed("receiver: decode the envelope", codec.decode_envelope, data).body
            applied = timed("receiver: apply (Table.submit: gate, rules, chain digest)",
                            receiver.submit, body.seat, body.action, index=body.index,
                            prev=body.prev)
            if body.hashes is not None:
                timed("receiver: compare the author's hashes", book.report_all, seat,
                      body.hashes.reported())
            for item in applied:
                state_hash = timed("seal: state hash (canonical encoding + BLAKE2b)",
                                   receiver.entry_hash, item.entry, item.after)
                own.append(state_hash)
                timed("seal: the entry in words (describe)", receiver.describe_entry,
                      item.entry, item.before)
                timed("seal: log record encoded (with its checks)", codec.encode_log_record,
                      m.LoggedEntry(item.entry, state_hash, ()))
                timed("seal: the log writer's chain check (digest again)", getattr,
                      item.entry, "intact")
                timed("seal: hash book", book.record_own, len(book.own), state_hash)
    return out


# -- receiving frames ------------------------------------------------------------------------


def sender(endpoint: str, key: str, frames: int) -> None:
    import zmq

    ctx = zmq.Context()
    sock = ctx.socket(zmq.DEALER)
    sock.curve_publickey, sock.curve_secretkey = zmq.curve_keypair()
    sock.curve_serverkey = key.encode()
    sock.connect(endpoint)
    time.sleep(0.3)
    for _ in range(frames):
        sock.send(b"x" * 250)
        time.sleep(0.0003)
    time.sleep(0.5)


async def receive(way: str, frames: int) -> tuple[float, float]:
    """CPU us per frame (loop thread, whole process) taking ``frames`` frames ``way``."""
    import zmq
    import zmq.asyncio
    from zmq.auth import CURVE_ALLOW_ANY
    from zmq.auth.asyncio import AsyncioAuthenticator

    ctx = zmq.asyncio.Context()
    auth = AsyncioAuthenticator(ctx)
    auth.start()
    auth.configure_curve(domain="*", location=CURVE_ALLOW_ANY)
    router = ctx.socket(zmq.ROUTER)
    public, secret = zmq.curve_keypair()
    router.curve_server = True
    router.curve_publickey, router.curve_secretkey = public, secret
    router.zap_domain = b"bench"
    router.linger = 0
    router.bind("tcp://127.0.0.1:0")
    proc = subprocess.Popen([sys.executable, __file__, "--send",
                             str(router.getsockopt_string(zmq.LAST_ENDPOINT)), public.decode(),
                             str(frames)])
    await router.recv_multipart(copy=False)  # the first one, before the clocks start
    loop = asyncio.get_running_loop()
    c0, p0 = time.thread_time_ns(), time.process_time_ns()
    if way == "futures":
        for _ in range(frames - 1):
            got = await router.recv_multipart(copy=False)
            got[-1].get("User-Id")
    else:
        raw: zmq.Socket[bytes] = zmq.Socket.shadow(router.underlying)
        done = loop.create_future()
        count = [0]

        def read() -> None:
            while True:
                try:
                    got = raw.recv_multipart(zmq.NOBLOCK, copy=False)
                except zmq.Again:
                    return
                got[-1].get("User-Id")
                count[0] += 1
                if count[0] == frames - 1 and not done.done():
                    done.set_result(None)

        fd = int(raw.getsockopt(zmq.FD))
        loop.add_reader(fd, read)
        read()
        await done
        loop.remove_reader(fd)
    c1, p1 = time.thread_time_ns(), time.process_time_ns()
    proc.wait()
    router.close()
    auth.stop()
    ctx.term()
    return (c1 - c0) / (frames - 1) / 1000, (p1 - p0) / (frames - 1) / 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--frames", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--send", nargs=3, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.send:
        sender(args.send[0], args.send[1], int(args.send[2]))
        return
    found = pieces(args.games)
    actions = len(found["author: apply (Table.submit)"])
    print(f"{args.games} Petals games, 4 seats, open deck: {actions} actions; CPU us per "
          "action (calls per action, median us per call)")
    for name, values in found.items():
        print(f"  {name:58} {sum(values) / actions / 1000:6.1f}  ({len(values) / actions:.2f}, "
              f"{statistics.median(values) / 1000:.1f})")
    print(f"receiving a CURVE frame, {args.frames} frames 0.3 ms apart, {args.rounds} rounds "
          "each way in turn: CPU us per frame, median of the rounds (the loop's thread, the "
          "whole process; each round's loop figure)")
    rounds: dict[str, list[tuple[float, float]]] = {"futures": [], "reader": []}
    for _ in range(args.rounds):
        for way, got in rounds.items():
            got.append(asyncio.run(receive(way, args.frames)))
    for way, got in rounds.items():
        name = ("pyzmq asyncio (a future per frame)" if way == "futures"
                else "a reader on the descriptor")
        each = " ".join(f"{loop_us:.0f}" for loop_us, _ in got)
        print(f"  {name:58} {statistics.median(g[0] for g in got):6.1f}  "
              f"{statistics.median(g[1] for g in got):6.1f}  ({each})")


if __name__ == "__main__":
    main()

"""One instrumented bot peer for the network benchmarks (run as a process by them).

    python bench/netpeer.py [OPTIONS] host GAME PLAYERS    prints {"address": ...} first
    python bench/netpeer.py [OPTIONS] join ADDRESS

    --open-deck       (host) an open-deck table; sealed by default
    --bind HOST       (host) listen on HOST (default 127.0.0.1)
    --idle SECONDS    take the seat and play nothing: measure an idle table for SECONDS
    --settle SECONDS  with --idle: wait this long after play is possible first (the deal)
    --limit SECONDS   stop playing after SECONDS (the report says ``code`` "limit")

It plays with the ``random`` bot through the real code path (`hedgerow.net.launch` and
`hedgerow.clients.botrunner`) and prints one JSON object at the end: the seed, the final state
hash, the monotonic time (ns, CLOCK_MONOTONIC, comparable between processes on Linux) at
which it submitted each of its own actions and at which each entry was applied here, when
the seed was agreed here (the table built), when play became possible (every Start matched
and, at a sealed table, this seat's cards open and nothing held) and, per entry, when the
state after it settled here (the peer ready again: the cards it showed open), when it
finished, its peak RSS and CPU time, its log, the wall time of each fsync it made, and at a
sealed table the verdict of the end-of-game verification with the time `Sealing.verdict`
took (wall and CPU) and when each shuffle pass was made or received here before play.  The
table is sealed unless the host is given ``--open-deck``.

It also records every envelope it sent (``sent``: time, body kind and size in bytes, one per
receiver; ``to``: per receiver's key and body kind, envelopes and bytes, and of those the
sealed-deck and play messages it had sent that receiver before, the repeats), when each
frame reached its loop (``received``: time, size and the loop's CPU handling it), the CPU
of each seal (``seal_ns``) and of the loop thread in play (``loop_cpu_ns``), and what its network
interfaces counted (``wire``: bytes and packets each way, every interface but loopback,
over ``window``: from play possible to the end, or with
``--idle`` the idle time after ``--settle``); the interfaces are its links' own when the peer
has a network namespace of its own (bench/wire_bytes.py).  ``HEDGEROW_BENCH_PROFILE=PATH``
profiles play (the loop thread's CPU) into ``PATH.PID``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

#: HEDGEROW_BENCH_PROFILE=PATH: profile play (from ready to finished) into PATH.PID.
PROFILE = None
if os.environ.get("HEDGEROW_BENCH_PROFILE"):
    import cProfile

    PROFILE = cProfile.Profile(time.thread_time)  # CPU of the loop thread, not waits


def instrument(ready: list[int]) -> tuple[list[dict[str, Any]], list[tuple[str, int, str, int]],
                                          list[int]]:
    """Wrap what the benchmarks time (this process only): `Sealing.verdict` (wall and CPU of
    each call), the shuffle passes made (until ``ready`` holds a time) and received, and
    ``os.fsync`` (the wall time of each).  The lists they fill."""
    from hedgerow.net import mentalpoker, sealing

    verdicts: list[dict[str, Any]] = []
    verdict = sealing.Sealing.verdict

    def timed_verdict(self: sealing.Sealing, watch: Any = None) -> Any:
        wall, cpu0 = time.perf_counter_ns(), time.process_time_ns()
        found = verdict(self, watch)
        verdicts.append({"ok": found.ok, "message": found.message, "at": time.monotonic_ns(),
                         "wall_ns": time.perf_counter_ns() - wall,
                         "cpu_ns": time.process_time_ns() - cpu0})
        return found

    sealing.Sealing.verdict = timed_verdict  # type: ignore[method-assign]
    passes: list[tuple[str, int, str, int]] = []  # (phase, party, "made"/"received", ns)
    make_step, on_shuffle_step = mentalpoker.make_step, sealing.Sealing.on_shuffle_step

    def timed_make_step(*args: Any) -> Any:
        step = make_step(*args)
        if not ready:  # (the verification at the end makes them all again)
            passes.append((step.phase, step.party, "made", time.monotonic_ns()))
        return step

    def timed_on_shuffle_step(self: sealing.Sealing, party: int, msg: Any) -> Any:
        passes.append((sealing._NAMES[msg.phase], msg.party, "received", time.monotonic_ns()))
        return on_shuffle_step(self, party, msg)

    mentalpoker.make_step = timed_make_step  # type: ignore[assignment]
    sealing.Sealing.on_shuffle_step = timed_on_shuffle_step  # type: ignore[method-assign]
    fsyncs: list[int] = []  # the wall ns of each fsync of this process (its log, its secret)
    fsync = os.fsync

    def timed_fsync(fd: int) -> None:
        t0 = time.perf_counter_ns()
        fsync(fd)
        fsyncs.append(time.perf_counter_ns() - t0)

    os.fsync = timed_fsync  # type: ignore[assignment]
    return verdicts, passes, fsyncs


#: The bodies whose repeats `count_sends` tells apart from first sends: the sealed deck's,
#: and the play messages a sealed table sends again to a peer behind them (§10.8).
SEALED = ("ShuffleStep", "CardKeys", "Disclose", "EscrowKey", "EscrowShares", "EscrowOpen",
          "ActionMsg", "ActionCommit", "ActionReveal")


def count_sends(peer: Any, sent: list[tuple[int, str, int]],
                to_peers: dict[str, dict[str, list[int]]] | None = None) -> None:
    """Record every envelope ``peer`` sends (time, body kind, bytes), one per receiver; and
    into ``to_peers``, per receiver (its key, hex) and kind: [envelopes, bytes, repeated
    envelopes, repeated bytes] — a sealed-deck or play message is a repeat when everything in
    it (a pass; each card key of a `CardKeys`) went to that receiver before."""
    ctx = peer.ctx
    encode, node = ctx.encode, ctx.node
    current: list[Any] = ["?", None]
    items: set[tuple[bytes, object]] = set()

    def counting_encode(body: Any, **kwargs: Any) -> bytes:
        current[0], current[1] = type(body).__name__, body
        return encode(body, **kwargs)  # type: ignore[no-any-return]

    def repeated(to: bytes, body: Any) -> bool:
        if type(body).__name__ not in SEALED:
            return False
        kind = type(body).__name__
        if kind == "CardKeys":
            parts: list[object] = [(k.card, body.public) for k in body.keys]
        elif kind.startswith("Action"):  # (an action holds sealed cards, which refuse a hash)
            parts = [(kind, body.index, body.seat)]
        else:
            parts = [body]
        again = all((to, part) in items for part in parts)
        items.update((to, part) for part in parts)
        return again

    def counting(send: Any) -> Any:
        def wrapped(to: bytes, data: Any) -> bool:
            size = len(data[-1]) if isinstance(data, list) else len(data)
            sent.append((time.monotonic_ns(), current[0], size))
            if to_peers is not None:
                row = to_peers.setdefault(to.hex(), {}).setdefault(current[0], [0, 0, 0, 0])
                row[0] += 1
                row[1] += size
                if repeated(to, current[1]):
                    row[2] += 1
                    row[3] += size
            return send(to, data)  # type: ignore[no-any-return]
        return wrapped

    ctx.encode = counting_encode
    node.send = counting(node.send)
    node.reply = counting(node.reply)


def count_receipts(peer: Any, received: list[tuple[int, int, int]]) -> None:
    """Record when each frame reaches ``peer``'s loop (time, its size, before it is decoded)
    and the CPU its handling took there (ns: decoding, checking, applying, showing)."""
    node = peer.ctx.node
    handle = node._handler

    def timed(rx: Any) -> None:
        t0 = time.monotonic_ns()
        c0 = time.thread_time_ns()
        handle(rx)
        received.append((t0, len(rx.data or b""), time.thread_time_ns() - c0))

    node._handler = timed


def wire() -> dict[str, int]:
    """Bytes and packets every network interface but loopback counted so far, each way."""
    out = {"tx_bytes": 0, "rx_bytes": 0, "tx_packets": 0, "rx_packets": 0}
    root = Path("/sys/class/net")
    for device in (root.iterdir() if root.exists() else ()):
        if device.name == "lo":
            continue
        for name in out:
            with contextlib.suppress(OSError, ValueError):
                out[name] += int((device / "statistics" / name).read_text())
    return out


async def main(argv: list[str]) -> dict[str, Any]:
    from hedgerow.clients.botrunner import play_bot
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.net.launch import host_table, join_table

    applied: dict[int, int] = {}
    submitted: dict[int, int] = {}
    settled: dict[int, int] = {}
    ready: list[int] = []
    seeded: list[int] = []
    cpu: dict[str, int] = {}
    verdicts, passes, fsyncs = instrument(ready)
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["host", "join"])
    parser.add_argument("where", nargs="+")
    parser.add_argument("--open-deck", action="store_true")
    parser.add_argument("--bind", default="127.0.0.1")
    parser.add_argument("--idle", type=float, default=0.0)
    parser.add_argument("--settle", type=float, default=0.0)
    parser.add_argument("--limit", type=float, default=0.0)
    args = parser.parse_args(argv)
    plugins = PluginHost()
    if args.mode == "host":
        game, players = args.where[0], int(args.where[1])
        ruleset = plugins.ruleset(game, (), players)
        peer = await host_table(ruleset, players, bot="random", announce=False,
                                open_deck=args.open_deck, bind=args.bind)
        print(json.dumps({"address": peer.address}), flush=True)
    else:
        peer = await join_table(args.where[0], bot="random", plugins=plugins)
    sent: list[tuple[int, str, int]] = []
    to_peers: dict[str, dict[str, list[int]]] = {}
    count_sends(peer, sent, to_peers)
    received: list[tuple[int, int, int]] = []
    count_receipts(peer, received)
    sealing: list[int] = []  # CPU ns of each seal (hash, log, compare)
    seal = peer.sync.seal

    def timed_seal() -> None:
        c0 = time.thread_time_ns()
        seal()
        sealing.append(time.thread_time_ns() - c0)

    peer.sync.seal = timed_seal  # type: ignore[method-assign]
    loop_cpu: list[int] = []  # the loop thread's CPU ns at ready and at the end
    counted: list[dict[str, int]] = []  # the interfaces' counters: window start, end
    window: list[int] = []

    def on_change() -> None:
        now = time.monotonic_ns()
        if peer.seed is not None:  # (the table is there)
            if not seeded:
                seeded.append(now)
                cpu["seeded"] = time.process_time_ns()
            for i in range(len(applied), peer.index):
                applied[i] = now
            if peer.ready:
                if not ready:
                    ready.append(now)
                    cpu["ready"] = time.process_time_ns()
                    loop_cpu.append(time.thread_time_ns())
                    if not args.idle:
                        counted.append(wire())
                        window.append(now)
                    if PROFILE is not None:
                        PROFILE.enable()
                for i in range(len(settled), peer.index):
                    settled[i] = now

    peer.subscribe(on_change)
    submit = peer.submit

    async def timed_submit(action: Any) -> Any:
        assert peer.seed is not None
        submitted[peer.index] = time.monotonic_ns()
        return await submit(action)

    peer.submit = timed_submit  # type: ignore[method-assign]
    if args.idle:
        await peer.wait_until(lambda: peer.ready)
        await asyncio.sleep(args.settle)
        counted.append(wire())
        window.append(time.monotonic_ns())
        await asyncio.sleep(args.idle)
        code = 0
    elif args.limit:
        try:
            code = await asyncio.wait_for(play_bot(peer, plugins.bot("random")), args.limit)
        except TimeoutError:
            code = "limit"
    else:
        code = await play_bot(peer, plugins.bot("random"))
    finished = time.monotonic_ns()
    loop_cpu.append(time.thread_time_ns())
    if PROFILE is not None:
        PROFILE.disable()
    counted.append(wire())
    window.append(finished)
    result = {
        "code": code, "seat": peer.seat, "key": peer.identity.public.hex(),
        "entries": peer.index if peer.seed is not None else 0,
        "seed": peer.seed.hex() if peer.seed else None,
        "state_hash": (peer.state_hash() or b"").hex(), "applied": applied,
        "submitted": submitted, "settled": settled, "seeded": seeded[0] if seeded else None,
        "ready": ready[0] if ready else None, "finished": finished,
        "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "cpu_ns": {**cpu, "finished": time.process_time_ns()}, "sealed": peer.sealed,
        "log": str(peer.log_path()), "verdicts": verdicts, "fsync_ns": fsyncs, "passes": passes,
        "actions": {e.index: [e.seat, e.action.kind, str(dict(e.action.args).get("stack"))]
                    for e in peer.entries()},
        "sent": sent, "to": to_peers, "received": received, "seal_ns": sealing,
        "loop_cpu_ns": loop_cpu[-1] - loop_cpu[0] if len(loop_cpu) > 1 else None,
        "window": window if len(window) == 2 else None,
        "wire": ({k: counted[1][k] - counted[0][k] for k in counted[0]}
                 if len(counted) == 2 else None),
    }
    await peer.close()
    return result


if __name__ == "__main__":
    out = asyncio.run(main(sys.argv[1:]))
    if PROFILE is not None:
        PROFILE.dump_stats(f"{os.environ['HEDGEROW_BENCH_PROFILE']}.{os.getpid()}")
    print(json.dumps(out), flush=True)

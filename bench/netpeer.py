"""One instrumented bot peer for the network benchmarks (run as a process by them).

    python bench/netpeer.py host GAME PLAYERS [--open-deck]    prints {"address": ...} first
    python bench/netpeer.py join ADDRESS

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
"""

from __future__ import annotations

import asyncio
import json
import os
import resource
import sys
import time
from typing import Any


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
    plugins = PluginHost()
    if argv[0] == "host":
        ruleset = plugins.ruleset(argv[1], (), int(argv[2]))
        peer = await host_table(ruleset, int(argv[2]), bot="random", announce=False,
                                open_deck="--open-deck" in argv[3:])
        print(json.dumps({"address": peer.address}), flush=True)
    else:
        peer = await join_table(argv[1], bot="random", plugins=plugins)

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
                for i in range(len(settled), peer.index):
                    settled[i] = now

    peer.subscribe(on_change)
    submit = peer.submit

    async def timed_submit(action: Any) -> Any:
        assert peer.seed is not None
        submitted[peer.index] = time.monotonic_ns()
        return await submit(action)

    peer.submit = timed_submit  # type: ignore[method-assign]
    code = await play_bot(peer, plugins.bot("random"))
    finished = time.monotonic_ns()
    result = {
        "code": code, "seat": peer.seat, "seed": peer.seed.hex() if peer.seed else None,
        "state_hash": (peer.state_hash() or b"").hex(), "applied": applied,
        "submitted": submitted, "settled": settled, "seeded": seeded[0] if seeded else None,
        "ready": ready[0] if ready else None, "finished": finished,
        "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
        "cpu_ns": {**cpu, "finished": time.process_time_ns()}, "sealed": peer.sealed,
        "log": str(peer.log_path()), "verdicts": verdicts, "fsync_ns": fsyncs, "passes": passes,
        "actions": {e.index: [e.seat, e.action.kind, str(dict(e.action.args).get("stack"))]
                    for e in peer.entries()},
    }
    await peer.close()
    return result


if __name__ == "__main__":
    out = asyncio.run(main(sys.argv[1:]))
    print(json.dumps(out), flush=True)

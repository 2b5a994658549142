"""One instrumented bot peer for the network benchmarks (run as a process by them).

    python bench/netpeer.py host GAME PLAYERS    prints {"address": ...} first
    python bench/netpeer.py join ADDRESS

It plays with the ``random`` bot through the real code path (`hedgerow.net.launch` and
`hedgerow.clients.botrunner`) and prints one JSON object at the end: the seed, the final state
hash, the monotonic time (ns, CLOCK_MONOTONIC, comparable between processes on Linux) at
which it submitted each of its own actions and at which each entry was applied here, when
play became possible (every Start matched) and when it finished, and its peak RSS.
"""

from __future__ import annotations

import asyncio
import json
import resource
import sys
import time
from typing import Any


async def main(argv: list[str]) -> dict[str, Any]:
    from hedgerow.clients.botrunner import play_bot
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.net.launch import host_table, join_table

    plugins = PluginHost()
    if argv[0] == "host":
        ruleset = plugins.ruleset(argv[1], (), int(argv[2]))
        peer = await host_table(ruleset, int(argv[2]), bot="random", announce=False)
        print(json.dumps({"address": peer.address}), flush=True)
    else:
        peer = await join_table(argv[1], bot="random", plugins=plugins)
    applied: dict[int, int] = {}
    submitted: dict[int, int] = {}
    ready: list[int] = []

    def on_change() -> None:
        now = time.monotonic_ns()
        if peer.seed is not None:  # (the table is there)
            for i in range(len(applied), peer.index):
                applied[i] = now
            if peer.ready and not ready:
                ready.append(now)

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
        "submitted": submitted, "ready": ready[0] if ready else None, "finished": finished,
        "maxrss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss,
    }
    await peer.close()
    return result


if __name__ == "__main__":
    out = asyncio.run(main(sys.argv[1:]))
    print(json.dumps(out), flush=True)

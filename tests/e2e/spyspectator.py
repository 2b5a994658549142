"""A curious spectator process for tests: it watches a table as ``hedgerow watch`` does
(`hedgerow.net.launch.watch_table`) and writes down every frame it receives, as it comes,
one hex line each, to a file (``python tests/e2e/spyspectator.py ADDRESS FILE``), until
the game is over or the host leaves.  It runs the real spectator; it only keeps more.
"""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.launch import watch_table
from hedgerow.net.seat import Link
from hedgerow.net.transport import Received


async def main(address: str, out: Path) -> int:
    spectator = await watch_table(address, plugins=PluginHost(), name="Spy")
    handle = spectator.node._handler
    with out.open("a", encoding="ascii") as file:
        def keep(rx: Received) -> None:
            if rx.data is not None:
                file.write(rx.data.hex() + "\n")
                file.flush()
            handle(rx)

        spectator.node._handler = keep
        file.write("watching\n")
        file.flush()

        def over() -> bool:
            live = spectator.live
            done = live is not None and live.table is not None and bool(live.history) \
                and len(live.history) == live.table.index and live.table.outcome() is not None
            return done or spectator.host == Link.LEFT

        await spectator.wait_until(over, 300)
    await spectator.close()
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], Path(sys.argv[2]))))

"""``hedgerow play --local`` saves a table log that ``hedgerow replay`` reads."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from pathlib import Path

from hedgerow.clients.app.local import LocalSeat
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int


def test_the_local_log_replays_to_the_same_state(tmp_path: Path) -> None:
    plugins = PluginHost()
    ruleset = plugins.ruleset("petals", players=2)

    async def play() -> LocalSeat:
        seat = LocalSeat(ruleset, 2, seed_from_int(3), bots=[plugins.bot("random", "petals")],
                         name="Ann")
        seat.subscribe(lambda: None)  # starts the bots
        while seat.outcome() is None:
            legal = seat.legal_actions()
            if legal:
                assert await seat.submit(legal[0]) is None
            else:
                await asyncio.sleep(0)
        await seat.close()
        return seat

    seat = asyncio.run(play())
    path = seat.log_path()
    assert path is not None and path.suffix == ".hlog"
    done = subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", "replay", str(path),
                           "--json"], capture_output=True, text=True, timeout=60,
                          env=dict(os.environ))
    assert done.returncode == 0, done.stdout + done.stderr
    verdict = json.loads(done.stdout)
    assert verdict["ok"] and verdict["state_hash"] == seat.table.state_hash().hex()
    assert verdict["entries"] == seat.table.index
    shown = subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", "replay", str(path)],
                           capture_output=True, text=True, timeout=60, env=dict(os.environ))
    # every seat by the name it had at the table, as the screen showed it
    assert "\n#1 Ann " in shown.stdout and "Bot Aster " in shown.stdout
    assert "Seat 0" not in shown.stdout and "Seat 1" not in shown.stdout
    # Another game with the same seed gets a log of its own (a log is never continued).
    again = LocalSeat(ruleset, 2, seed_from_int(3), bots=[plugins.bot("random", "petals")])
    assert again.log_path() != path
    asyncio.run(again.close())

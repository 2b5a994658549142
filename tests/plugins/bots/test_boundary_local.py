"""A bot at a local table (``hedgerow play --local``) finds no table on its call stack either:
the table asks its bots on a thread of their own (`hedgerow.core.botcall.BotThread`), where a
worker thread of the event loop led back to the loop, the seat and its table."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest
from framespy import FRAMESPY, records
from toygames import PLUGINS

from hedgerow.clients.app.local import LocalSeat
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int


def test_a_local_tables_bots_find_no_table_on_their_call_stack(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRAMESPY_SEEDS", "31337")
    ruleset = PluginHost(autoload=False, extra=PLUGINS).ruleset("tokens", players=3)

    async def scenario() -> None:
        seat = LocalSeat(ruleset, 3, seed_from_int(31337), bots=[FRAMESPY])
        moved = asyncio.Event()
        seat.subscribe(moved.set)
        try:
            while seat.outcome() is None:
                if seat.seat in seat.active_seats():
                    assert await seat.submit(seat.legal_actions()[0]) is None
                    continue
                moved.clear()
                await asyncio.wait_for(moved.wait(), 10.0)
        finally:
            await seat.close()

    asyncio.run(scenario())
    seen = records(Path(os.environ["HEDGEROW_HOME"]))
    assert len(seen) > 4
    assert all(r["tables"] == 0 and r["seeds"] == [] and r["hidden"] == [] for r in seen), [
        (r["tables"], r["seeds"], len(r["hidden"]), r["frames"]) for r in seen
        if r["tables"] or r["seeds"] or r["hidden"]][:2]

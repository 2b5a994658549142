"""The host's open-table file (docs/protocol.md §3.2, "A host lost before play"): written
when the table opens, kept current while seats fill, gone once the log exists or when the
host leaves on purpose; damaged files are refused with a clear message."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import toygames

from hedgerow.core.datadir import logs_dir
from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net import openfile
from hedgerow.net.keys import generate
from hedgerow.net.launch import host_table, join_table
from hedgerow.net.seat import Phase

WAIT = 20.0


def plugins() -> PluginHost:
    return PluginHost(autoload=False, extra=toygames.PLUGINS)


def test_the_open_table_file_lives_until_the_log_exists() -> None:
    async def main() -> None:
        host = await host_table(plugins().ruleset("posy", (), 2), 2, identity=generate(),
                                seat_name="host", name="the table", announce=False)
        joiner = None
        try:
            (path,) = logs_dir().glob(f"*{openfile.SUFFIX}")
            saved = openfile.load(path)
            assert (saved.table_id, saved.players, saved.round) == (host.ctx.table_id, 2, 1)
            assert saved.name == "the table"
            assert [p.seat for p in saved.peers] == [0]
            assert saved.peers[0].address == host.endpoint
            joiner = await join_table(host.address, identity=generate(), plugins=plugins())
            assert await host.wait_until(lambda: host.phase() == Phase.PLAYING, WAIT)
            assert not path.exists()  # the log and its table file took over
            assert host.log_path() is not None and host.log_path().exists()
        finally:
            for peer in (joiner, host):
                if peer is not None:
                    await peer.close()

    asyncio.run(main())


def test_a_host_that_leaves_on_purpose_leaves_nothing_to_reopen() -> None:
    async def main() -> None:
        host = await host_table(plugins().ruleset("posy", (), 2), 2, identity=generate(),
                                announce=False)
        assert list(logs_dir().glob(f"*{openfile.SUFFIX}"))
        await host.close()
        assert not list(logs_dir().glob(f"*{openfile.SUFFIX}"))

    asyncio.run(main())


def test_a_damaged_open_table_file_is_refused_saying_so(tmp_path: Path) -> None:
    path = tmp_path / f"x{openfile.SUFFIX}"
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(HedgerowError, match="is damaged"):
        openfile.load(path)
    with pytest.raises(HedgerowError, match="no such file"):
        openfile.load(tmp_path / "missing.open.json")

"""``hedgerow resume`` of a sealed game already over: what the check found in its log.

Real peers over CURVE on 127.0.0.1, in one process (tests/departing.py), play a sealed
Petals table to its end; the finished log is then read as ``hedgerow resume LOG`` reads it.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from departing import sealed_table

from hedgerow.clients.botrunner import play_bot
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net.messages import SeatEvent, SeatEventKind

WAIT = 150.0
CHECKS_OUT = "every shuffle, key and action checks out"


def test_resume_of_a_finished_sealed_game_says_what_the_check_found(
        capsys: pytest.CaptureFixture[str]) -> None:
    """``hedgerow resume LOG`` of a game already over prints its result and what the check
    of every shuffle, key and action found in the log (the secrets disclosed at its end)."""
    import dataclasses

    from hedgerow.clients.cmd_resume import _over
    from hedgerow.clients.resumable import read_table, unfinished

    async def main() -> list[str]:
        peers = await sealed_table("petals", (), 2)
        try:
            spec = PluginHost().bot("random")
            assert await asyncio.gather(*(play_bot(p, spec) for p in peers)) == [0, 0]
            return [str(p.log_path()) for p in peers]
        finally:
            for p in peers:
                await p.close()

    logs = asyncio.run(asyncio.wait_for(main(), WAIT))
    plugins = PluginHost()
    table = read_table(Path(logs[1]), plugins)
    assert table.finished and table.sealed and table.checked == CHECKS_OUT
    _over(table, plugins)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Game over") and lines[1] == f"Sealed deck: {CHECKS_OUT}."
    # A table that agreed to end its game is over too: how far its deck was checked.
    end = SeatEvent(SeatEventKind.END, 0, 1, "", 9, (1,))
    ended = dataclasses.replace(table, outcome=None, ended=end, checked=None)
    assert ended.finished and unfinished([ended]) == []
    _over(ended, plugins)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("The game ended by agreement at action #9")
    assert lines[1] == "Sealed deck: not checked: not every player's secret is in this log."
    _over(dataclasses.replace(ended, checked=CHECKS_OUT), plugins)
    assert capsys.readouterr().out.splitlines()[1] == \
        "Sealed deck: every shuffle, key and action up to the agreed end checks out."

"""The state hash ``hedgerow replay --json`` prints, and the one ``hedgerow resume`` puts in
the result of a game already over, is the hash after the log's last entry as its players
reported it: at a sealed table, of the public state at that entry's resting point
(docs/protocol.md §10.4), not of the replayed table's state after every record of the file.

A seat's log holds, after an entry, the keys of a public reveal round for the next action
(Mandala's take reads the hidden tiles, §10.7) before that action's entry.  A log that ends
there (the game under way, or its writer stopped) replays to a table that holds those
cards; no hash of its last entry covers them.  One real sealed Mandala game (two peers over
CURVE in this process, random bots: `watchlogs.play_sealed`), each seat's log cut after
every entry that such records follow (`watchlogs.cut`: the log as its writer had it then).
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from watchlogs import cut, play_sealed

from hedgerow.clients.cmd_resume import finished_record
from hedgerow.core.pluginhost import PluginHost
from hedgerow.net import rulesmatch
from hedgerow.net.logfile import read_log
from hedgerow.net.logverify import replay
from hedgerow.net.messages import CardKeys


@pytest.fixture(scope="module")
def mandala_logs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Every seat's log of one finished sealed Mandala game."""
    home = tmp_path_factory.mktemp("sealed-mandala")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("HEDGEROW_HOME", str(home))
        return play_sealed("mandala", 2)


def read_rounds(path: Path) -> list[int]:
    """The counts ``k`` of entries after which the log holds cards opened to every seat
    before its entry ``k`` (a resting point's cards, or a read round for entry ``k``)."""
    read = read_log(path)
    return sorted({count for count, record in read.seals
                   if isinstance(record.body, CardKeys) and record.body.public
                   and 0 < count < len(read.entries)})


def test_a_cut_sealed_log_replays_to_the_hash_of_its_last_entry(
        mandala_logs: list[Path], tmp_path: Path) -> None:
    plugins = PluginHost()
    ahead = []
    for seat, source in enumerate(mandala_logs):
        for k in read_rounds(source):
            path = cut(source, k, tmp_path / f"seat{seat}-{k}.hlog")
            read = read_log(path)
            assert len(read.entries) == k and read.header is not None
            ruleset = rulesmatch.ruleset_for(plugins, read.header.fingerprint,
                                             read.header.players)
            done = replay(ruleset, read)
            assert done.mismatch is None and done.table is not None, done.mismatch
            logged = read.entries[-1].state_hash
            assert done.state_hash == logged, f"seat {seat}'s log cut after #{k - 1}"
            if done.table.reported_hash() != logged:  # its table holds later cards
                ahead.append(path)
    assert ahead, "no cut log held a read round's cards: the test did not test it"
    # The command prints it so (a process of its own, as a person runs it).
    shown = subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", "replay",
                            str(ahead[0]), "--json"], capture_output=True, text=True,
                           timeout=120)
    record = json.loads(shown.stdout.splitlines()[-1])
    assert record["ok"], (record, shown.stderr)
    assert record["state_hash"] == read_log(ahead[0]).entries[-1].state_hash.hex()


def test_a_finished_sealed_log_replays_and_resumes_to_the_hash_its_players_ended_on(
        mandala_logs: list[Path]) -> None:
    plugins = PluginHost()
    ends = set()
    for seat, path in enumerate(mandala_logs):
        read = read_log(path)
        assert read.header is not None
        ruleset = rulesmatch.ruleset_for(plugins, read.header.fingerprint, read.header.players)
        done = replay(ruleset, read)
        assert done.mismatch is None and done.table is not None and done.table.over()
        logged = read.entries[-1].state_hash
        assert done.state_hash == done.table.reported_hash() == logged
        assert finished_record(path, seat, plugins)["state_hash"] == logged.hex()
        ends.add(logged)
    assert len(ends) == 1  # every seat ended on one hash

"""The soak's CI slice (tests/reliability/soak.py): tables in a row in one process with nothing
growing, and one networked game of every game across processes with nothing failing."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path
from types import SimpleNamespace

import pytest
from reliability.soak import (
    GameRecord,
    InProcessReport,
    PeerRecord,
    Sample,
    SoakReport,
    _judge,
    _watch,
    combinations,
    grew,
    pick_games,
    soak,
    soak_in_process,
)


def test_growth_is_a_rising_floor_not_noise() -> None:
    assert grew([10] * 5 + list(range(10, 40)))  # one more per table: a leak
    assert not grew([10] * 5 + [10, 12, 10, 11, 12, 10, 11, 10, 12] * 3)  # up and down
    assert not grew([10] * 5 + [10, 11] * 12)  # a count that moves by one, back and forth
    assert not grew([50, 40, 30, 20, 10] + [10] * 30)  # the warm-up is not judged
    assert not grew([1, 2, 3, 4, 5, 6, 7])  # too few samples after the warm-up
    assert grew([0] * 5 + [100, 101, 102] * 4 + [5000] * 6, slack=4000)
    assert not grew([0] * 5 + [100, 101, 102] * 4 + [5000] * 6, slack=5000)
    # In a report: the loop's worker pool starting one more thread is no leak; one more fd
    # per table is.
    steps = InProcessReport(samples=[Sample(40_000, 11, 2 + (i > 20), 1, 0) for i in range(30)])
    assert not any(steps.growth().values())
    fds = InProcessReport(samples=[Sample(40_000, 11 + i, 2, 1, 0) for i in range(30)])
    assert fds.growth() == {"rss_kib": False, "fds": True, "threads": False, "tasks": False,
                            "zmq_sockets": False}


def test_a_game_is_judged_by_every_peer() -> None:
    def game(*peers: PeerRecord) -> GameRecord:
        rec = GameRecord(0, "posy", [], len(peers), peers=list(peers))
        _judge(rec)
        return rec

    assert game(PeerRecord(0, 0, state_hash="a"), PeerRecord(1, 0, state_hash="a")).held
    assert game(PeerRecord(0, 0, state_hash="a"),
                PeerRecord(1, 0, state_hash="b")).failures == ["desync: 2 different final hashes"]
    halted = game(PeerRecord(0, 1, halted="seat 1 diverged"), PeerRecord(1, 1, halted="x"))
    assert [f.split(":")[0] for f in halted.failures] == ["halt", "halt", "no result"]
    crashed = game(PeerRecord(0, 0, state_hash="a"),
                   PeerRecord(1, 1, exceptions=["Traceback ...\nKeyError: 3"]))
    assert crashed.failures[:2] == ["exception: seat 1: KeyError: 3",
                                    "exit status: seat 1 exited 1"]
    report = SoakReport([halted, crashed])
    assert report.failures_by_kind() == {"halt": 2, "no result": 1, "exception": 1,
                                         "exit status": 1, "desync": 1}


def test_a_peer_that_exits_between_the_poll_and_the_sample_keeps_its_last_sample() -> None:
    """A peer that exits right after `_watch` polled it is a zombie when sampled: no VmHWM
    and no fds (CI once saw a peer's fds counted as 0 that way).  Its last live sample
    stands."""
    proc = subprocess.Popen(["true"])
    status = Path(f"/proc/{proc.pid}/status")
    while "zombie" not in status.read_text(encoding="ascii"):
        time.sleep(0.01)
    polls = [None]  # the first poll misses the exit; the next ones reap it
    fake = SimpleNamespace(proc=SimpleNamespace(
        pid=proc.pid, poll=lambda: polls.pop() if polls else proc.poll()), lines=[])
    rec = PeerRecord(0, peak_rss_kib=38_000, fds=24, fds_max=25)
    assert _watch([fake], [rec], time.monotonic() + 10)
    assert (rec.peak_rss_kib, rec.fds, rec.fds_max) == (38_000, 24, 25)


def test_tables_in_a_row_in_one_process_leak_nothing() -> None:
    """~30 toy tables (two of them with a simultaneous step): the process's memory, fds,
    threads, asyncio tasks and ZeroMQ sockets stay flat after the warm-up."""
    import toygames

    from hedgerow.core.pluginhost import PluginHost

    def plugins() -> PluginHost:
        return PluginHost(builtins=(("random-bot", "hedgerow.plugins.bots.random_bot"),),
                          autoload=False, extra=toygames.PLUGINS)

    report = soak_in_process(30, [("posy", (), 2), ("posy", (), 3), ("duel", (), 2)],
                             plugins=plugins)
    print(report.summary())
    assert report.failures == []
    assert len(report.samples) == 30
    assert not any(report.growth().values()), report.summary()
    # Nothing of a closed table stays: no socket, no task beyond the run's own.
    assert report.samples[-1].zmq_sockets == 0
    assert report.samples[-1].tasks == 1


def test_every_game_and_variant_set_is_in_the_rotation() -> None:
    specs = combinations()
    games = {s[0] for s in specs}
    assert {"petals", "flowers", "mandala", "flourish"} <= games
    firsts = pick_games(len(games), specs)
    assert {s[0] for s in firsts} == games  # the first games of a run cover every game
    assert len(set(specs)) == len(specs)
    assert any(s[1] for s in specs)  # variant sets, not only the plain games


@pytest.mark.e2e
def test_one_networked_game_of_every_game_holds() -> None:
    specs = combinations()
    report = soak(len({s[0] for s in specs}), parallel=4, specs=specs)
    print(report.summary())
    assert [g.failures for g in report.games] == [[]] * len(report.games), report.summary()
    assert all(g.final_hash for g in report.games)
    assert all(p.peak_rss_kib > 0 and p.fds > 0 for g in report.games for p in g.peers)

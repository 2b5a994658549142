"""``hedgerow resume`` without a path: this user's unfinished tables, and their bots.

Logs are written here as peers write them (a log and its table file), some finished, some
not, some played by bots; the list offers the unfinished ones a person played, and a
table's own bot logs are found for it.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hedgerow.clients.resumable import (
    bots_of,
    describe,
    find_table_logs,
    find_tables,
    unfinished,
)
from hedgerow.clients.spawn import bot_key_file
from hedgerow.core.datadir import bot_logs_dir, logs_dir
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.net import tablefile
from hedgerow.net.keys import generate, load_identity
from hedgerow.net.logfile import LogWriter
from hedgerow.net.messages import LogHeader, PeerInfo
from hedgerow.net.rulesmatch import table_fingerprint

NAMES = ("ann", "random bot 1")


def write_seat(plugins: PluginHost, table_id: bytes, seat: int, *, moves: int | None,
               bot: str | None = None, key_file: str | None = None,
               folder: Path | None = None) -> Path:
    """A seat's log of a 2-player open-deck Petals table after ``moves`` moves (None: to
    the end; a sealed table's log would hold its shuffles and keys too)."""
    ruleset = plugins.ruleset("petals", (), 2)
    seed = seed_from_int(int.from_bytes(table_id[:2]))
    fingerprint = table_fingerprint(ruleset, open_deck=True)
    table = Table(ruleset, 2, seed, fingerprint=fingerprint)
    applied = list(table.opening)
    done = 0
    while table.active_seats() and (moves is None or done < moves):
        who = table.active_seats()[0]
        result = table.submit(who, table.legal_actions(who)[0])
        assert isinstance(result, tuple), result
        applied += result
        done += 1
    folder = folder or logs_dir()
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"petals-{table_id.hex()[:8]}-seat{seat}.hlog"
    header = LogHeader.for_table(ruleset, 2, seed, table_id=table_id, own_seat=seat,
                                 seat_names=NAMES, fingerprint=fingerprint)
    with LogWriter(path, header, sync=False) as writer:
        for item in applied:
            writer.append(item.entry, table.hash_of(item.after))
    mine = load_identity(key_file).public  # this seat's identity, created on first use
    peers = tuple(PeerInfo(s, mine if s == seat else generate().public,
                           f"tcp://127.0.0.1:{3000 + s}", NAMES[s], s == 1) for s in range(2))
    tablefile.save(path, tablefile.TableFile(table_id, seat, peers, key_file, bot))
    return path


@pytest.fixture
def plugins() -> PluginHost:
    return PluginHost()


def test_the_list_holds_unfinished_tables_a_person_played(plugins: PluginHost) -> None:
    under_way = write_seat(plugins, b"\x01" * 16, 0, moves=3)
    bot_seat = write_seat(plugins, b"\x01" * 16, 1, moves=3, bot="random",
                          key_file=str(bot_key_file(1)))
    write_seat(plugins, b"\x02" * 16, 0, moves=None)  # finished: not offered
    tables = find_tables(plugins)
    assert len(tables) == 3
    offered = unfinished(tables)
    assert [t.log for t in offered] == [under_way]
    (table,) = offered
    assert table.players == 2 and table.own_seat == 0 and not table.finished
    assert table.actions == 4  # the deal and three moves
    what, progress = describe(table)
    assert what.startswith("petals@") and what.endswith(
        ", 2 players, open deck: ann (you), random bot 1")  # (the logs' deck is open)
    assert progress.startswith("today ") and progress.endswith("after 4 actions; your turn")
    assert bots_of(table, tables) == [(1, bot_seat)]


def test_bot_logs_are_kept_apart_and_still_found_for_their_table(plugins: PluginHost) -> None:
    mine = write_seat(plugins, b"\x06" * 16, 0, moves=3)
    theirs = write_seat(plugins, b"\x06" * 16, 1, moves=3, bot="random",
                        key_file=str(bot_key_file(1)), folder=bot_logs_dir())
    for n in range(7, 9):  # other tables' bots, newer
        write_seat(plugins, bytes([n]) * 16, 1, moves=1, bot="random",
                   key_file=str(bot_key_file(1)), folder=bot_logs_dir())
    assert [t.log for t in find_tables(plugins)] == [mine]  # the person's folder: theirs only
    (table,) = unfinished(find_tables(plugins))
    logs = find_table_logs(plugins, table.table_id, (bot_logs_dir(), logs_dir()))
    assert sorted(t.log for t in logs) == [theirs, mine]
    assert bots_of(table, logs) == [(1, theirs)]


def test_resume_without_a_path_and_no_terminal_lists_and_asks_for_one(plugins: PluginHost) -> None:
    env = dict(os.environ)
    command = [sys.executable, "-m", "hedgerow.clients.cli", "resume"]
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0 and "No unfinished table to resume" in done.stdout
    path = write_seat(plugins, b"\x03" * 16, 0, moves=2)
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "1. petals@" in done.stdout and str(path) in done.stdout
    assert "hedgerow resume LOGFILE" in done.stderr


def test_resume_of_a_finished_game_prints_the_result_and_ends(plugins: PluginHost) -> None:
    path = write_seat(plugins, b"\x04" * 16, 1, moves=None, bot="random",
                      key_file=str(bot_key_file(1)))
    done = subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", "resume", str(path)],
                          capture_output=True, text=True, env=dict(os.environ), timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 0, done.stderr
    assert "already over" in done.stdout and "hedgerow replay" in done.stdout
    assert done.stdout.splitlines()[0].startswith("Game over")
    as_json = subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", "resume", str(path),
                              "--json"], capture_output=True, text=True, env=dict(os.environ),
                             timeout=60, stdin=subprocess.DEVNULL)
    assert as_json.returncode == 0, as_json.stderr
    over, record = (json.loads(line) for line in as_json.stdout.splitlines())
    assert over["event"] == "over" and over["outcome"] and over["seat"] == 1
    # ... then the result record a seat prints at its end (tests/e2e/test_net_game.py
    # compares it with a live seat's).
    assert record["event"] == "result" and record["phase"] == "finished"
    assert record["seat"] == 1 and record["outcome"] == over["outcome"]
    assert record["log"] == str(path) and record["problem"] is None


def test_the_list_offers_a_table_this_user_hosted_that_was_lost_before_it_began() -> None:
    from hedgerow.clients.resumable import describe_open, find_open_tables
    from hedgerow.net import openfile

    me = load_identity(None).public
    path = openfile.path_for(logs_dir(), "petals", "20261203-101500", b"\x05" * 16)
    openfile.save(path, openfile.OpenTable(
        b"\x05" * 16, "petals@2.1.0", 3, "ann's petals", 2,
        (PeerInfo(0, me, "tcp://127.0.0.1:4000", "ann", False),
         PeerInfo(1, generate().public, "tcp://127.0.0.1:4001", "bob", False))))
    (found,) = find_open_tables()
    assert found.log == path and found.players == 3
    what, progress = describe_open(found)
    assert what == "petals@2.1.0, 3 players, sealed deck: ann (you), bob"
    assert "lost before the game began" in progress
    done = subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", "resume"],
                          capture_output=True, text=True, env=dict(os.environ), timeout=60,
                          stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "1. petals@2.1.0, 3 players, sealed deck: ann (you), bob" in done.stdout
    assert str(path) in done.stdout

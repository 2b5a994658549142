"""A full disk from the start: a seat that cannot write its log never takes a seat it cannot
play (issue 27).  Each peer is a real ``hedgerow`` process; the full disk is a real tmpfs
(`reliability.disk.SmallDisk`) given as the peer's ``HEDGEROW_HOME``.

* a joiner whose disk is full says so in one line and never says ``Hello``: the host keeps
  the seat free, and the next joiner takes it and plays;
* a host with less room than a table needs (`hedgerow.net.logfile.TABLE_ROOM`) says so
  before it opens anything;
* a disk that fills after the joiner sat down (its check passed) but before the seed is
  agreed: the joiner cannot begin its log, stops before the first entry (no traceback, no
  half-written log left behind) and leaves; the host takes the table back to seating
  (docs/protocol.md §3.2, "A seat lost before play"), and a new joiner plays the seat.
"""

from __future__ import annotations

import subprocess
import sys

import pytest
from e2e.helpers import Table, hedgerow, peer_env
from reliability.disk import SmallDisk, disk_available

from hedgerow.net.logfile import TABLE_ROOM

pytestmark = pytest.mark.e2e
WAIT = 60.0


@pytest.fixture(scope="module", autouse=True)
def disk_ok() -> None:
    reason = disk_available()
    if reason is not None:
        pytest.skip(f"no small disk: {reason}")


@pytest.fixture
def table():
    t = Table()
    yield t
    t.close()


def test_a_joiner_on_a_full_disk_refuses_to_sit_and_the_seat_stays_free(table: Table) -> None:
    with SmallDisk(256) as disk:
        full = peer_env(disk.path)
        # Its identity is already there (it played before); then the disk filled up.
        subprocess.run([sys.executable, "-c", "from hedgerow.net.keys import load_identity; "
                        "load_identity()"], env=full, check=True, timeout=60)
        disk.fill()
        host, address = table.host("posy", 2, "--bot", "random",
                                   env=peer_env(plugins="toygames"))
        done = hedgerow("join", address, "--bot", "random", env=dict(full,
                        HEDGEROW_PLUGINS="toygames"))
        assert done.returncode == 2, done.stdout + done.stderr
        assert done.stderr.startswith("hedgerow: error: cannot keep this table's log in "
                                      f"{disk.path}/logs"), done.stderr
        assert "(No space left on device): free some space there, or set HEDGEROW_HOME to a " \
            "folder on another disk" in done.stderr
        assert done.stderr.count("\n") == 1, done.stderr  # one line, no traceback
        assert not list(disk.path.rglob("*.hlog"))
        # It never said Hello: the seat is still free, and the next joiner plays it.
        assert not [e for e in host.events if e.get("event") == "seat"]
        good = table.join(address, "--bot", "random", env=peer_env(plugins="toygames"))
        assert good.finish(timeout=WAIT)[0] == 0
        code, result = host.finish(timeout=WAIT)
        assert code == 0 and result is not None and result["phase"] == "finished"


def test_a_host_with_too_little_room_says_so_before_it_opens(table: Table) -> None:
    with SmallDisk(TABLE_ROOM // 1024 // 2) as disk:  # half the room a table needs
        done = hedgerow("host", "posy", "--players", "2", "--bot", "random", "--bind",
                        "127.0.0.1", "--port", "0", env=peer_env(disk.path, plugins="toygames"))
        assert done.returncode == 2, done.stdout + done.stderr
        # (a bot seat's log goes to logs/bots, apart from the person's own)
        assert done.stderr.startswith("hedgerow: error: cannot keep this table's log in "
                                      f"{disk.path}/logs/bots (only "), done.stderr
        assert "free, a table needs 1 MiB): free some space there" in done.stderr
        assert done.stderr.count("\n") == 1, done.stderr
        assert "table open" not in done.stdout


def test_a_disk_that_fills_before_the_start_frees_the_seat(table: Table) -> None:
    with SmallDisk(2 * TABLE_ROOM // 1024) as disk:  # room enough to sit down
        host, address = table.host("posy", 3, "--bot", "random", "-v",
                                   env=peer_env(plugins="toygames"))
        doomed = table.join(address, "--bot", "random", "--name", "doomed", "-v",
                            env=peer_env(disk.path, plugins="toygames"))
        seat = doomed.wait_event("joined")["seat"]
        disk.fill()  # ... and then the disk fills up, before the seed is agreed
        other = table.join(address, "--bot", "random", env=peer_env(plugins="toygames"))
        code, result = doomed.finish(timeout=WAIT)
        assert code == 1, doomed.stderr
        assert result is not None and result["phase"] == "halted" and result["actions"] == 0
        assert result["problem"].startswith("cannot write this seat's log: No space left on "
                                            "device; free some space"), result["problem"]
        assert "Traceback" not in doomed.stderr, doomed.stderr
        assert not list(disk.path.rglob("*.hlog")) and not list(disk.path.rglob("*.json"))
        # The host saw the seat go before anyone could act, and seats the table again.
        host.wait_event(lambda e: e.get("event") == "seated" and "1 more" in e["text"],
                        timeout=WAIT)
        again = table.join(address, "--bot", "random", env=peer_env(plugins="toygames"))
        assert again.wait_event("joined")["seat"] == seat
        finals = [p.finish(timeout=WAIT) for p in (host, other, again)]
        assert [code for code, _ in finals] == [0, 0, 0], [p.stderr for p in (host, other)]
        assert len({r["state_hash"] for _, r in finals if r}) == 1
        assert "(doomed) left the table (halted: cannot write this seat's log" in host.stderr

"""A full disk: a seat that cannot write its log never takes a seat it cannot play, and one
whose disk fills mid-game loses nothing (issue 27).  Each peer is a real ``hedgerow``
process; the full disk is a real tmpfs (`reliability.disk.SmallDisk`) given as the peer's
``HEDGEROW_HOME``.

* a joiner whose disk is full says so in one line and never says ``Hello``: the host keeps
  the seat free, and the next joiner takes it and plays;
* a host with less room than a table needs (`hedgerow.net.logfile.TABLE_ROOM`) says so
  before it opens anything;
* a disk that fills after the joiner sat down (its check passed) but before the seed is
  agreed: the joiner cannot begin its log, stops before the first entry (no traceback, no
  half-written log left behind) and leaves; the host takes the table back to seating
  (docs/protocol.md §3.2, "A seat lost before play"), and a new joiner plays the seat;
* a disk that fills mid-game: the seat stops in one line before it reports or acts on an
  entry it has not logged and goes silent, so the others see it lost (not left) and seat a
  bot; its log is a whole prefix of the table's; with room again, ``hedgerow resume``
  takes the seat back and plays to the end, every log verifying.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from e2e.helpers import Table, hedgerow, peer_env
from reliability.disk import SmallDisk, disk_available

from hedgerow.net.logfile import TABLE_ROOM, read_log
from hedgerow.net.messages import SeatEventKind

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


@pytest.mark.timeout(300)
@pytest.mark.parametrize("deck", ["open", "sealed"])
def test_a_disk_that_fills_mid_game_leaves_the_seat_lost_and_resume_loses_nothing(
        table: Table, deck: str) -> None:
    """Issue 27: the log of a seat fills its disk mid-game.  The seat says so in one line
    (no traceback), stops before it reports or acts on an entry it has not logged, and goes
    silent: the others see it lost, not left, and a bot takes the seat by agreement (the
    table goes on).  Its log is a whole prefix of the table's.  Once there is room again,
    ``hedgerow resume`` takes the seat back and plays to the end: every log verifies and
    holds the same entries.  At a sealed table the others recovered the seat's secret from
    the escrow for their bot; the seat comes back, makes its own passes again and finishes
    (docs/protocol.md §10.11)."""
    room = 2 * TABLE_ROOM // 1024
    extra = ("--open-deck",) if deck == "open" else ()
    with SmallDisk(room) as disk:
        # (Mandala: some 150 actions at three, time enough for the seat to stop, be seen
        # lost, be taken over and come back: the last page of its log takes a few entries
        # more after the disk is full.)
        host, address = table.host("mandala", 3, "--bot", "random", "--delay", "0.15",
                                   "--take-over-after", "1", "-v", *extra, env=peer_env())
        other = table.join(address, "--bot", "random", "--delay", "0.15", "-v", env=peer_env())
        full = peer_env(disk.path)
        doomed = table.join(address, "--bot", "random", "--delay", "0.15", "--name", "doomed",
                            "-v", env=full)
        seat = doomed.wait_event("joined")["seat"]
        doomed.wait_event(lambda e: e.get("event") == "action" and e.get("seat") == seat)
        disk.fill()  # mid-game, after the seat has played
        code, result = doomed.finish(timeout=WAIT)
        assert code == 1 and result is not None and result["phase"] == "halted", doomed.stderr
        assert result["problem"].startswith("this seat cannot write its log (No space left "
                                            "on device): the others see it lost"), \
            result["problem"]
        assert "hedgerow resume" in result["problem"]
        assert "Traceback" not in doomed.stderr, doomed.stderr
        [log] = list(disk.path.rglob("*.hlog"))
        mine = read_log(log)
        assert mine.problem is None, mine.problem  # whole records only: cut back, not torn
        # The others saw the seat lost (not left) and seated a bot in its place.
        took_event = host.wait_event(lambda e: e.get("event") == "seat_event"
                                     and e.get("kind") == "takeover" and e.get("seat") == seat,
                                     timeout=WAIT)
        before = host.events[:host.events.index(took_event)]
        links = [e["link"] for e in before if e.get("event") == "link" and e.get("seat") == seat]
        assert links == ["lost"], links
        assert "(doomed) is lost" in host.stderr, host.stderr
        assert read_log(Path(host.wait_event("start")["log"])).entries[:len(mine.entries)] \
            == mine.entries  # (what it logged is the table's, entry for entry)
        # Room again: the seat comes back where its log ends, and plays to the end.
        disk.free()
        back = table.start(["resume", str(log), "--json", "--delay", "0.1"], full)
        results = [p.finish(timeout=3 * WAIT) for p in (back, host, other)]
        assert [c for c, _ in results] == [0, 0, 0], back.stderr + host.stderr
        assert len({r["state_hash"] for _, r in results if r}) == 1
        # Nothing lost, nothing acted on unlogged: the seat's own log is whole and the same
        # as the others', and while its log stood still no action of its seat was authored
        # by its own process (only by the bot the others agreed on).
        logs = [read_log(Path(r["log"])) for _, r in results if r]
        assert all(r.ok for r in logs)
        assert len({tuple(e.entry.digest for e in r.entries) for r in logs}) == 1
        took = [e for e in read_log(Path(results[1][1]["log"])).events
                if e.kind == SeatEventKind.TAKEOVER and e.seat == seat]
        assert took, "a takeover"
        stalled = len(mine.entries)
        assert not [e for e in logs[0].entries if e.entry.seat == seat
                    and stalled < e.index < took[0].index]
        for who, (_, r) in zip(("resumed", "host", "other"), results, strict=True):
            verified = hedgerow("replay", "--verify", r["log"], env=full)
            assert verified.returncode == 0, (who, verified.stdout + verified.stderr)


@pytest.mark.timeout(240)
def test_a_persons_seat_whose_disk_fills_says_so_and_leaves_without_a_traceback(
        tmp_path: Path) -> None:
    """The seat client at 80x24: the line that says what happened and what to do, the title
    ``Stopped``, and ``q`` leaving at once with exit status 0 and no traceback (its own
    ``client.log`` is on the full disk too)."""
    import re

    from e2e.test_tmux_dead_ends import command
    from e2e.test_tmux_leave_and_resume import scrollback, terminal, wait_exit
    from e2e.test_tmux_play import TMUX, ready, title

    if TMUX is None:
        pytest.skip("tmux is not installed")
    table = Table()
    with SmallDisk(2 * TABLE_ROOM // 1024) as disk:
        term = terminal(tmp_path, command(disk.path, "host mandala --players 3 --open-deck",
                                          "--bind 127.0.0.1 --name Ana"))
        try:
            screen = term.wait(lambda s: "hedgerow join 127.0.0.1:" in s, "the seating screen")
            address = re.search(r"hedgerow join (127\.0\.0\.1:\S+)", screen).group(1)
            for name in ("Ben", "Cat"):
                table.join(address, "--bot", "random", "--name", name, "--delay", "0.2",
                           env=peer_env())
            term.wait(ready, "Ana's turn", WAIT)
            disk.fill()
            for _ in range(60):  # (the log's last page takes a few records more)
                screen = term.wait(lambda s: ready(s) or "Stopped" in title(s), "a turn", WAIT)
                if "Stopped" in title(screen):
                    break
                before = screen
                term.keys("Enter")
                term.wait(lambda s, before=before: s != before and "Sending" not in s, "a move")
            screen = term.wait(lambda s: "hedgerow resume" in s, "the whole line")
            rows = screen.splitlines()
            assert len(rows) <= 24 and all(len(r) <= 80 for r in rows), screen
            said = " ".join(" ".join(rows[-6:-1]).split())
            assert said.startswith("Stopped: this seat cannot write its log (No space left on "
                                   "device): the others see it lost"), screen
            assert "then run hedgerow resume: nothing is lost" in said, screen
            term.keys("q")  # the table stopped here: nothing to lose, it leaves at once
            assert wait_exit(term) == "0"
            term.wait(lambda s: "log is saved" in s, "the goodbye")
            assert "Traceback" not in scrollback(term), scrollback(term)
        finally:
            term.close()
            table.close()

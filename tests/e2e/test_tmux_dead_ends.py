"""No dead ends (issue 27), in a real terminal (tmux, 80x24) against real peer processes.

Every wait names who and offers a way out:

* **a player who drops a second time** is a departure again: the box opens each time, `w`
  closes it and says whom the table waits for, `s` opens it again while the seat is empty;
  when the player is back on our turn, the line says what to do, not whom we waited for
  (the name once: "Ben", never "Ben (Ben)"); `e` ends the game, and **an agreed end is an
  end**: the results say so, `q` leaves at once saying how it ended, the table is not in
  `hedgerow resume`'s list, `hedgerow resume LOG` prints the end and `hedgerow replay` says
  it in its result line;
* **a returning player whose table is away**: the host quits while the joiner is gone; the
  joiner resumes, is told who is missing and that they must run `hedgerow resume`, with the
  table's choices (wait / end; no bot at a sealed table of two); it waits, the host comes
  back, and the game goes on.

Ana and Ben are each a user of their own (a ``HEDGEROW_HOME`` each); the person's seat
is in tmux, the other one a headless bot peer (``--bot random``), killed with SIGKILL as a
crash would.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest
from e2e.helpers import PeerProcess, Table, hedgerow, peer_env
from e2e.test_tmux_leave_and_resume import scrollback, terminal, wait_exit
from e2e.test_tmux_play import TMUX, Terminal, no_process_left, ready, title

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (CI installs it: .ci/run)"),
]

LOST = 25.0  # a killed peer is seen lost after 5 s without a heartbeat (a margin for load)


def command(home: Path, *args: str) -> str:
    return (f"env HEDGEROW_HOME={home} HEDGEROW_NO_DISCOVERY=1 {sys.executable} "
            f"-m hedgerow.clients.cli {' '.join(args)}")


def box(screen: str) -> str:
    """The departure box's words, its lines joined (its frame taken off)."""
    lines = [line for line in screen.splitlines() if "│" in line]
    inside = [line.split("│")[1] for line in lines if line.count("│") >= 2]
    return " ".join(" ".join(inside).split())


def box_up(screen: str) -> bool:
    return "A seat is empty" in screen


def message(screen: str) -> str:
    """The prompt pane's first line (three lines above the key line)."""
    return screen.rstrip("\n").splitlines()[-4]


def bot_log(home: Path) -> Path:
    [log] = sorted(home.rglob("*.hlog"))
    return log


def fits(screen: str) -> None:
    rows = screen.splitlines()
    assert len(rows) <= 24 and all(len(row) <= 80 for row in rows), screen


@pytest.mark.timeout(240)
def test_a_second_departure_a_wait_that_ends_and_an_agreed_end(tmp_path: Path) -> None:
    ana, ben = tmp_path / "ana", tmp_path / "ben"
    ben_env = peer_env(ben)
    table = Table()
    term = terminal(tmp_path, command(ana, "host petals --players 2 --bind 127.0.0.1",
                                      "--name Ana"))
    try:
        screen = term.wait(lambda s: "hedgerow join 127.0.0.1:" in s, "the seating screen")
        address = re.search(r"hedgerow join (127\.0\.0\.1:\S+)", screen).group(1)
        bot = table.join(address, "--bot", "random", "--name", "Ben", "--delay", "0.3",
                         env=ben_env)
        term.wait(lambda s: "you are Ana" in title(s) and "[1]" in s, "the table, dealt")

        def drop(peer: PeerProcess) -> str:
            peer.kill()
            screen = term.wait(box_up, "the departure box", LOST)
            fits(screen)
            words = box(screen)
            assert "Ben is lost (no word from them for a while)." in words, screen
            assert "(Ben)" not in screen, screen
            assert "w wait for them to come back (hedgerow resume)" in words, screen
            assert "e end the game here, no winner (all agree)" in words, screen
            # a sealed table of two (the default): no bot can open Ben's cards, said whole
            assert "A bot cannot take a seat at a sealed table of two players" in words
            return screen

        drop(bot)
        term.keys("w")
        screen = term.wait(lambda s: not box_up(s), "the box to close")
        assert "Waiting for Ben to come back (hedgerow resume); s shows the choices" in \
            " ".join(screen.splitlines()[-4:-1]), screen
        assert " s " in screen.splitlines()[-1], screen  # the key line offers it
        term.keys("s")
        term.wait(box_up, "the box again, on s")
        term.keys("w")
        term.wait(lambda s: not box_up(s), "the box to close again")

        # Ben comes back and plays on; on Ana's turn the line says what to do.
        back = table.start(["resume", str(bot_log(ben)), "--json", "--delay", "0.3"], ben_env)
        back.wait_event("resumed")
        screen = term.wait(lambda s: ready(s) and "lost" not in s, "Ana's turn, Ben back", 40)
        assert "Waiting for Ben" not in screen and "(Ben)" not in screen, screen
        assert message(screen).startswith("Your turn"), screen
        before = screen
        term.keys("Enter")
        term.wait(lambda s: s != before and "Sending" not in s, "Ana's move")
        term.wait(lambda s: ready(s) and "lost" not in s, "Ben's move, then Ana's turn", 40)

        # Ben drops again: a new departure, a new box.
        drop(back)
        term.keys("e")
        screen = term.wait(lambda s: "Ended by agreement" in s, "the end, on the results")
        fits(screen)
        assert "Game over" in title(screen), screen
        text = " ".join(screen.split())
        assert "You agreed to end the game at action #" in text and "without Ben" in text
        assert "nobody won" in text and "Waiting for" not in text, screen
        assert "Where the game stood" in screen and "Score" in screen, screen
        term.keys("q")  # over: it leaves without asking
        assert wait_exit(term) == "0"
        term.wait(lambda s: "log is saved" in s, "the goodbye")
        said = scrollback(term)
        assert "The game ended by agreement at action #" in said, said
        assert "before the end" not in said and "Come back" not in said, said
    finally:
        term.close()
        table.close()
    no_process_left(ana)
    env = peer_env(ana)
    listed = hedgerow("resume", env=env)
    assert "No unfinished table to resume" in listed.stdout, listed.stdout + listed.stderr
    [log] = (ana / "logs").glob("*.hlog")
    resumed = hedgerow("resume", str(log), env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert "The game ended by agreement at action #" in resumed.stdout, resumed.stdout
    assert "nothing to resume" in resumed.stdout, resumed.stdout
    replayed = hedgerow("replay", str(log), env=env)
    assert "Result: ended by agreement at entry #" in replayed.stdout, replayed.stdout
    assert "without Ben; nobody won." in replayed.stdout, replayed.stdout


@pytest.mark.timeout(240)
def test_a_returning_player_is_told_who_is_away_and_the_game_goes_on(tmp_path: Path) -> None:
    ana, ben = tmp_path / "ana", tmp_path / "ben"
    ana_env = peer_env(ana)
    table = Table()
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    try:
        host, address = table.host("petals", 2, "--bot", "random", "--name", "Ana",
                                   "--delay", "0.3", env=ana_env)
        term = Terminal(first, command(ben, "join", address, "--name", "Ben"))
        try:
            term.wait(lambda s: "you are Ben" in title(s) and "Log" in s, "Ben's table")
            term.wait(ready, "Ben's turn")
            before = term.screen()
            term.keys("Enter")
            term.wait(lambda s: s != before and "Sending" not in s, "Ben's move")
            term.tmux("kill-server")  # Ben's terminal goes, and his program with it
        finally:
            term.close()
        host.proc.terminate()  # the host quits while Ben is away
        assert host.proc.wait(timeout=30) is not None
        no_process_left(ben)

        term = Terminal(second, command(ben, "resume"))
        try:
            term.wait(lambda s: "Resume which table?" in s, "the list")
            term.keys("Enter")
            screen = term.wait(box_up, "the box about Ana", LOST)
            fits(screen)
            words = box(screen)
            assert "Ana has not come back since you returned: they must run hedgerow " \
                "resume." in words, screen
            assert "w wait for them to come back (hedgerow resume)" in words, screen
            assert "e end the game here, no winner" in words, screen
            assert "A bot cannot take a seat" in words, screen
            term.keys("w")
            screen = term.wait(lambda s: not box_up(s), "the box to close")
            assert "Waiting for Ana" in " ".join(screen.splitlines()[-4:-1]), screen
            # Ana comes back: the table goes on, and Ben plays his turn.
            [log] = sorted(ana.rglob("*.hlog"))
            table.start(["resume", str(log), "--json", "--delay", "0.3"], ana_env)
            screen = term.wait(lambda s: ready(s) and "lost" not in s, "Ben's turn again", 60)
            assert "Waiting for Ana" not in screen, screen
            before = screen
            term.keys("Enter")
            term.wait(lambda s: s != before and "Sending" not in s, "Ben's move")
            term.keys("q")
            term.wait(lambda s: "Leave the table?" in s, "the question")
            term.keys("y")
            term.wait(lambda s: "hedgerow resume" in s, "the way back")
        finally:
            term.close()
    finally:
        table.close()


def test_a_wrong_table_key_is_named_within_seconds_in_whole_words(tmp_path: Path) -> None:
    # Dead end 5: a well-formed key that is not the host's.  Within a few seconds (not the
    # join's 30 s) the terminal says nobody at that address answers to that key and what to
    # check, broken between words at 80 columns.
    from hedgerow.net.address import parse_address
    from hedgerow.net.keys import generate, key_text

    procs = Table()
    try:
        _host, address = procs.host("petals", 2, "--bot", "random", env=peer_env())
        port = parse_address(address).port
        wrong = f"127.0.0.1:{port}/{key_text(generate().public)}"
        term = Terminal(tmp_path, f"env HEDGEROW_HOME={tmp_path / 'home'} {sys.executable} -m "
                        f"hedgerow.clients.cli join {wrong} --name Ben; sleep 60")
        try:
            started = time.monotonic()
            screen = term.wait(lambda s: "hedgerow: error:" in s, "the error", timeout=20)
            assert time.monotonic() - started < 15, screen
            text = screen[screen.index("hedgerow: error:"):].rstrip()
            rows = text.split("\n")
            assert len(rows) > 1, screen
            joined = " ".join(row.strip() for row in rows)
            assert f"nobody at 127.0.0.1:{port} answers to the table key" in joined, screen
            assert "something listens there, but not that table; check the key after the / " \
                   "against the address `hedgerow host` printed" in joined, screen
        finally:
            term.close()
    finally:
        procs.close()

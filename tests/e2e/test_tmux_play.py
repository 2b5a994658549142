"""``hedgerow play petals`` in a real terminal (tmux), played by keys.

Each test starts the command in a detached tmux session of its own (its own tmux server
socket, ``HEDGEROW_HOME`` in a temporary folder).  At 80x24 it checks the screen shows the
garden, the hand and the trackers, plays the whole game by pressing Enter on each
previewed move, checks the results screen (the chart of where the points came from, the
players by the names the table knows), quits with ``q`` ``y``, and then checks that the
command exited with status 0 and that no process of that ``HEDGEROW_HOME`` is left (the
bot peers included).  At 60x20, with Harmony, it checks that the pile count, the log's
last line and the whole key bar are on screen, that the players table and the help speak
of the spread, and that at 40x12 the screen says the size it needs.  Every wait polls
the screen with a timeout.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (CI installs it: .ci/run)"),
]


class Terminal:
    """One detached tmux session on a private server."""

    def __init__(self, tmp: Path, command: str, *, width: int = 80, height: int = 24) -> None:
        self.width, self.height = width, height
        self.socket = str(tmp / "tmux.sock")
        self.name = "hedgerow-e2e"
        self.exit_file = tmp / "exit-status"
        wrapped = f"{command}; echo $? > {self.exit_file}"
        self.tmux("new-session", "-d", "-s", self.name, "-x", str(width), "-y", str(height),
                  "sh", "-c", wrapped)

    def tmux(self, *args: str) -> subprocess.CompletedProcess[str]:
        assert TMUX is not None
        return subprocess.run([TMUX, "-S", self.socket, *args], capture_output=True, text=True,
                              timeout=10)

    def screen(self) -> str:
        """The visible screen, as text."""
        return self.tmux("capture-pane", "-p", "-t", self.name).stdout

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.name, *keys)

    def resize(self, width: int, height: int) -> None:
        self.tmux("resize-window", "-t", self.name, "-x", str(width), "-y", str(height))

    def alive(self) -> bool:
        return self.tmux("has-session", "-t", self.name).returncode == 0

    def wait(self, condition: Callable[[str], bool], what: str, timeout: float = 20.0) -> str:
        """Poll the screen until ``condition(screen)`` holds on a settled screen (the same
        on two captures 0.03 s apart, or the last one before the program ended: a capture
        can fall in the middle of a redraw, and a half-written status line once failed a
        test under load); the screen."""
        deadline = time.monotonic() + timeout
        held: str | None = None  # the last screen on which the condition held
        while True:
            screen = self.screen()
            if condition(screen):
                held = screen
                time.sleep(0.03)
                if self.screen() == screen:
                    return screen
            if not self.alive():
                if held is not None:  # the program ended after showing it
                    return held
                raise AssertionError(f"the session ended while waiting for {what}")
            if time.monotonic() > deadline:
                raise AssertionError(f"timed out waiting for {what}; the screen:\n{screen}")
            time.sleep(0.05)  # a poll interval, not a wait for something to happen

    def close(self) -> None:
        self.tmux("kill-server")


def processes_of(home: Path) -> list[str]:
    """Processes whose environment has this ``HEDGEROW_HOME`` (Linux /proc), or whose
    command line names it (the bot peers' key files live under it)."""
    found = []
    marker = f"HEDGEROW_HOME={home}".encode()
    for proc in Path("/proc").glob("[0-9]*"):
        try:
            environ = (proc / "environ").read_bytes()
            cmdline = (proc / "cmdline").read_bytes()
        except OSError:
            continue
        if int(proc.name) != os.getpid() and (marker in environ.split(b"\0")
                                               or str(home).encode() in cmdline):
            words = cmdline.replace(b"\0", b" ").decode(errors="replace")
            found.append(f"{proc.name}: {words}")
    return found


def no_process_left(home: Path) -> None:
    """Wait (up to 10 s) until no process of ``home`` runs any more, then check it."""
    deadline = time.monotonic() + 10
    while processes_of(home) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert processes_of(home) == []


def leave_table(term: Terminal, home: Path) -> None:
    """``q`` after the game is over (no question: there is nothing to lose): the command
    ends with status 0 and every process of ``home`` (its bot peers too) is gone."""
    assert "Game over" in title(term.screen()), term.screen()
    term.keys("q")
    deadline = time.monotonic() + 15
    while term.alive() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not term.alive(), term.screen()
    assert term.exit_file.read_text().strip() == "0"
    no_process_left(home)


def title(screen: str) -> str:
    return screen.splitlines()[0] if screen.strip() else ""


def ready(screen: str) -> bool:
    """Our turn, and the client is not busy sending a move."""
    return "Your turn" in title(screen) and "Sending" not in screen


@pytest.mark.timeout(120)
def test_play_petals_against_a_bot_peer_in_tmux(tmp_path: Path) -> None:
    home = tmp_path / "home"
    command = (f"env HEDGEROW_HOME={home} {sys.executable} -m hedgerow.clients.cli "
               "play petals --players 2 --seed 5 --bot-delay 0 --name Ann")
    term = Terminal(tmp_path, command)
    try:
        screen = term.wait(lambda s: "Your" in s and "Players" in s, "the table screen")
        assert "Draw pile" in screen, screen  # the garden
        assert "hand" in screen and "[1]" in screen and "[2]" in screen, screen  # the hand
        assert "F  W  E  A" in screen and "Score" in screen, screen  # the trackers
        assert "quit" in screen.splitlines()[-1], screen  # the keys that work now
        assert all(len(line) <= 80 for line in screen.splitlines())
        turns = 0
        over = "Where the points came from"
        while over not in screen:
            screen = term.wait(lambda s: ready(s) or over in s, "our turn or the results")
            if over in screen:
                break
            before = screen
            term.keys("Enter")
            turns += 1
            screen = term.wait(lambda s, before=before: s != before and "Sending" not in s,
                               "the move to show")
            assert turns < 60, "the game does not end"
        assert turns >= 15
        screen = term.wait(lambda s: over in s, "the results screen")
        for label in ("Fire", "Water", "Earth", "Air"):
            assert label in screen, screen
        assert "★ tracker won" in screen and " = " in screen, screen  # the figure, as a sum
        assert "Ann" in screen and "Bot Aster" in screen, screen  # the table's names
        assert "Seat 0" not in screen and "Seat 1" not in screen, screen
        assert "best in its column" not in screen, screen
        term.keys("PageDown")
        term.keys("PageDown")
        screen = term.wait(lambda s: "Log saved to" in s, "the end of the results")
        assert "Seat 0" not in screen and "Seat 1" not in screen, screen
        leave_table(term, home)
    finally:
        term.close()


@pytest.mark.timeout(60)
def test_harmony_at_60x20_then_40x12(tmp_path: Path) -> None:
    home = tmp_path / "home"
    command = (f"env HEDGEROW_HOME={home} {sys.executable} -m hedgerow.clients.cli "
               "play petals --variant harmony --seed 1 --bot-delay 0 --name Ann")
    term = Terminal(tmp_path, command, width=60, height=20)
    try:
        screen = term.wait(lambda s: ready(s) and "Draw pile" in s, "our turn")
        lines = screen.splitlines()
        assert "Spread" in screen and "Score" not in screen, screen  # Harmony's figure
        assert any(line.lstrip()[:1].isdigit() and "plays" in line for line in lines), screen
        assert lines[-1].rstrip().endswith("q") and "Enter" in lines[-1], screen  # every key
        assert all(len(line) <= 60 for line in lines)
        term.keys("?")
        screen = term.wait(lambda s: "How to play" in s, "the help")
        assert "spread" in screen and "SMALLEST" in screen, screen
        assert "two LOWEST" not in screen, screen
        term.keys("Escape")
        term.wait(lambda s: "How to play" not in s, "the table again")
        term.resize(40, 12)
        screen = term.wait(lambda s: "at least 60 x 20" in s, "the size it needs")
        assert "40 x 12" in screen, screen
        term.resize(60, 20)
        term.wait(lambda s: "Draw pile" in s, "the table at 60x20 again")
        term.keys("q")
        term.wait(lambda s: "Leave the table?" in s, "the question")
        term.keys("y")
        deadline = time.monotonic() + 15
        while term.alive() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not term.alive(), term.screen()
    finally:
        term.close()


@pytest.mark.timeout(150)
def test_play_petals_sealed_by_default_in_tmux(tmp_path: Path) -> None:
    """``hedgerow play petals`` with no seed is a sealed table (every bot a process that
    sees only its own cards): the title says so, the greedy bots play their moves, and the
    results say that every shuffle, key and action checked out."""
    home = tmp_path / "home"
    command = (f"env HEDGEROW_HOME={home} {sys.executable} -m hedgerow.clients.cli "
               "play petals --players 2 --bot-delay 0 --name Ann")
    term = Terminal(tmp_path, command)
    try:
        screen = term.wait(lambda s: "Your" in s and "Players" in s, "the table screen",
                           timeout=40)
        assert "sealed deck" in title(screen), screen
        assert "seat:" not in screen, screen  # no plain-text dump of a view being dealt
        over = "Where the points came from"
        turns = 0
        while over not in screen:
            screen = term.wait(lambda s: ready(s) or over in s, "our turn or the results",
                               timeout=40)
            if over in screen:
                break
            before = screen
            term.keys("Enter")
            turns += 1
            screen = term.wait(lambda s, before=before: s != before and "Sending" not in s,
                               "the move to show")
            assert "Play #00 at (0,0)" not in screen, screen  # the preview names the card
            assert turns < 60, "the game does not end"
        screen = term.wait(lambda s: "Sealed deck: every shuffle, key and action checks out."
                           in s, "the check of the sealed deck", timeout=40)
        assert "Log saved to" in screen.splitlines()[-2], screen
        leave_table(term, home)
    finally:
        term.close()

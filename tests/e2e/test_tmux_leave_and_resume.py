"""People who think, leave and come back, in a real terminal (tmux, 80x24).

* A player who thinks for longer than the bots' headless give-up still has bots to play
  against: the give-up clock only runs while no person at the table is connected.
* A player who leaves a bot game mid-way is told how to come back; ``hedgerow resume``
  without a path lists the unfinished table, resumes it on Enter, the bots come back too,
  and the game is played to its end.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from e2e.test_tmux_play import TMUX, Terminal, no_process_left, ready, title

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (CI installs it: .ci/run)"),
]

GIVE_UP = 1.0  # the bots' headless give-up, in seconds
THINK = 4.0  # how long the player thinks: longer than GIVE_UP (a person's pace, not a wait)


def hedgerow(home: Path, *args: str) -> str:
    return (f"env HEDGEROW_HOME={home} HEDGEROW_NO_DISCOVERY=1 {sys.executable} "
            f"-m hedgerow.clients.cli {' '.join(args)}")


def terminal(tmp: Path, command: str) -> Terminal:
    """A tmux session whose pane stays on screen after the command ends (to read goodbyes)."""
    term = Terminal(tmp, command)
    term.tmux("set-option", "-t", term.name, "remain-on-exit", "on")
    return term


def wait_exit(term: Terminal) -> str:
    """The command's exit status, once it has ended."""
    deadline = time.monotonic() + 15
    while not term.exit_file.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    return term.exit_file.read_text().strip()


def scrollback(term: Terminal) -> str:
    """The screen and the lines scrolled off above it."""
    return term.tmux("capture-pane", "-p", "-S", "-100", "-t", term.name).stdout


def over(screen: str) -> bool:
    """The results screen shows (its title says the game is over)."""
    return "Game over" in title(screen)


def play_to_the_end(term: Terminal) -> str:
    """Press Enter on each previewed move until the results show; the results screen."""
    screen = term.screen()
    turns = 0
    while not over(screen):
        screen = term.wait(lambda s: ready(s) or over(s), "our turn or the results")
        if over(screen):
            break
        before = screen
        term.keys("Enter")
        turns += 1
        screen = term.wait(lambda s, before=before: s != before and "Sending" not in s,
                           "the move to show")
        assert turns < 60, "the game does not end"
    return screen


@pytest.mark.timeout(120)
def test_bots_wait_for_a_player_who_thinks_longer_than_their_give_up(tmp_path: Path) -> None:
    home = tmp_path / "home"
    term = terminal(tmp_path, hedgerow(home, "play petals --players 2 --seed 5 --bot-delay 0",
                                       f"--bot-give-up {GIVE_UP}"))
    try:
        term.wait(ready, "our turn")
        time.sleep(THINK)  # the player reads the rules
        out = (home / "logs" / "bots" / "bot-1.out").read_text()
        assert "giving up" not in out, out
        assert "Your turn" in title(term.screen())
        play_to_the_end(term)
        term.keys("q")  # over: it leaves without asking
        assert wait_exit(term) == "0"
        assert "giving up" not in (home / "logs" / "bots" / "bot-1.out").read_text()
    finally:
        term.close()


@pytest.mark.timeout(150)
def test_leave_a_bot_game_and_come_back_with_resume_without_a_path(tmp_path: Path) -> None:
    home = tmp_path / "home"
    first = tmp_path / "first"
    first.mkdir()
    term = terminal(first, hedgerow(home, "play petals --players 2 --seed 5 --bot-delay 0"))
    try:
        for _ in range(3):  # a few moves, then leave mid-game
            screen = term.wait(ready, "our turn")
            term.keys("Enter")
            term.wait(lambda s, before=screen: s != before and "Sending" not in s, "the move")
        term.wait(ready, "our turn")
        term.keys("q")
        term.wait(lambda s: "Leave the table?" in s, "the question")
        term.keys("y")
        assert wait_exit(term) == "0"
        term.wait(lambda s: "hedgerow resume" in s, "the way back")
        screen = scrollback(term)
        assert "before the end" in screen, screen
        assert "Come back to this game with: hedgerow resume" in screen, screen
    finally:
        term.close()
    no_process_left(home)
    # The logs folder holds the person's own table; the bot's log is kept apart.
    assert [p.name.rsplit("-", 1)[1] for p in (home / "logs").glob("*.hlog")] == ["seat0.hlog"]
    assert [p.name.rsplit("-", 1)[1] for p in (home / "logs" / "bots").glob("*.hlog")] == [
        "seat1.hlog"]

    second = tmp_path / "second"
    second.mkdir()
    term = terminal(second, hedgerow(home, "resume"))
    try:
        screen = term.wait(lambda s: "Resume which table?" in s, "the list of tables")
        assert "Your unfinished tables" in screen and "1. petals" in screen, screen
        assert "(you)" in screen and "today" in screen, screen
        term.keys("Enter")
        term.wait(ready, "our turn at the resumed table (the bots are back)")
        screen = play_to_the_end(term)
        term.keys("q")  # over: it leaves without asking
        assert wait_exit(term) == "0"
        term.wait(lambda s: "log is saved" in s, "the goodbye")
        screen = scrollback(term)
        assert "Game over" in screen and "catching up" not in screen, screen
    finally:
        term.close()
    no_process_left(home)

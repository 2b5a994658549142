"""Watching a game again in a real terminal (tmux, 80x24): each of the four games, played
live, then stepped through entry by entry, forward and back, landing on the same final
screen as the live game's.

For each game ``hedgerow play GAME`` runs in a detached tmux session of its own (the
`Terminal` of test_tmux_play.py) at a sealed table (the default) against random bot peer
processes, and the whole game is played by keys (Enter on each previewed move; Flourish:
plant and pass with Enter, ``1 2 3`` Enter in the final round).  The live results screen
and the players table of the final board are kept.  Then ``w`` on the results opens the
replay of the table's log in the viewer: it starts on the deal, → steps through every
entry to the last (the title counting each), where the results show again — the same
screen as the live one, row for row, but for the title and the line naming the log — ←
steps back through every entry to the deal, End goes to the last again, and ``b`` shows
the final board, whose players table is the live one's.  ``q`` leaves the viewer and the
command ends with status 0, nothing left running.  For Flourish the log is then opened
again with ``hedgerow watch LOG --as SEAT``: another seat's hand is shown (every hand is
known after a sealed game ends).  Every wait polls the screen with a timeout.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "tmux_terminal", Path(__file__).with_name("test_tmux_play.py"))
assert _spec is not None and _spec.loader is not None
_tmux = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tmux)
Terminal, leave_table, title = _tmux.Terminal, _tmux.leave_table, _tmux.title
no_process_left = _tmux.no_process_left

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(_tmux.TMUX is None, reason="tmux is not installed (CI installs it)"),
]

#: The entry shown, in the viewer's title: "entry 4 of 33" (or "4/33" when short of room).
WHERE = re.compile(r"(?:entry (\d+) of (\d+)|· (\d+)/(\d+))")


def ready(screen: str) -> bool:
    """Our turn, and the client is not busy sending a move."""
    return "Your turn" in title(screen) and "Sending" not in screen


def live_results(screen: str) -> bool:
    """The live results, once the check of a sealed deck has said what it found (its line
    says "checking…" while the players' secrets arrive; the replay's says what was found)."""
    return "Log saved to" in screen and "Sealed deck: checking" not in screen


def where(screen: str) -> tuple[int, int] | None:
    """(entry shown, entries) from the viewer's title, or None."""
    found = WHERE.search(title(screen)) if "Replay" in title(screen) else None
    if found is None:
        return None
    shown, total = (found.group(1), found.group(2)) if found.group(1) else \
        (found.group(3), found.group(4))
    return int(shown), int(total)


def players_table(screen: str, players: int) -> list[str]:
    """The players table's rows (the sidebar's first rows, right of its ``│``)."""
    return [line.rpartition("│")[2].rstrip() for line in screen.splitlines()[1:2 + players]]


def play_live(term: Terminal, keys: Callable[[str], tuple[str, ...]]) -> str:
    """Play every turn by keys until the results show; the results screen."""
    turns = 0
    while True:
        screen = term.wait(lambda s: ready(s) or live_results(s), "our turn or the results",
                           timeout=60)
        if live_results(screen):
            return screen
        before = screen
        term.keys(*keys(screen))
        turns += 1
        term.wait(lambda s, before=before: s != before and "Sending" not in s,
                  "the move to show", timeout=30)
        assert turns < 200, "the game does not end"


def step_to(term: Terminal, key: str, target: int, total: int) -> None:
    """Press ``key`` once per entry until the viewer shows entry ``target``, checking the
    title counts each step."""
    shown = where(term.screen())
    assert shown is not None and shown[1] == total, term.screen()
    at = shown[0]
    step = 1 if target > at else -1
    while at != target:
        term.keys(key)
        at += step
        term.wait(lambda s, at=at: where(s) == (at, total), f"entry {at} of {total}",
                  timeout=15)


def same_results(live: str, replayed: str) -> None:
    """The results screens agree row for row, but for the title (the viewer's says where it
    is), the line naming the log and the key line."""
    live_rows, replay_rows = live.splitlines(), replayed.splitlines()
    assert len(live_rows) == len(replay_rows), (live, replayed)
    assert live_rows[1:-2] == replay_rows[1:-2], f"live:\n{live}\nreplay:\n{replayed}"
    assert live_rows[-2].startswith("Log saved to") and replay_rows[-2].startswith("Replay of")


def watch_again(tmp_path: Path, game: str, players: int,
                keys: Callable[[str], tuple[str, ...]], *extra: str) -> Path:
    """Play ``game`` live, watch it again from its results (see the module docstring);
    the log."""
    home = tmp_path / "home"
    command = (f"env HEDGEROW_HOME={home} {sys.executable} -m hedgerow.clients.cli "
               f"play {game} --players {players} --bots random --bot-delay 0 --name Ann "
               + " ".join(extra))
    term = Terminal(tmp_path, command)
    try:
        results = play_live(term, keys)
        assert "w  watch the replay" in results.splitlines()[-1], results
        term.keys("b")
        board = term.wait(lambda s: "Game over" in title(s) and "Players" in s,
                          "the live final board")
        table = players_table(board, players)
        assert "Ann" in "".join(table), board
        term.keys("b")
        term.wait(live_results, "the live results again")
        term.keys("w")
        screen = term.wait(lambda s: where(s) is not None, "the replay", timeout=60)
        assert "Chance:" in screen and "as Ann" in title(screen), screen
        assert all(len(line) <= 80 for line in screen.splitlines())
        shown = where(screen)
        assert shown is not None and shown[0] == 1
        total = shown[1]
        assert total > players * 5, screen
        step_to(term, "Right", total, total)
        replayed = term.wait(lambda s: "Replay of" in s, "the results at the end")
        same_results(results, replayed)
        step_to(term, "Left", 1, total)
        screen = term.screen()
        assert "1. Chance:" in screen and "Game over" not in title(screen), screen
        term.keys("End")
        replayed = term.wait(lambda s: "Replay of" in s and where(s) == (total, total),
                             "the end again")
        same_results(results, replayed)
        term.keys("b")
        board = term.wait(lambda s: "The end of the game" in s, "the final board")
        assert players_table(board, players) == table, (table, board)
        term.keys("q")  # the viewer, then the command, end
        deadline_gone(term)
        assert term.exit_file.read_text().strip() == "0"
        no_process_left(home)
        logs = sorted((home / "logs").glob("*.hlog"))
        assert len(logs) == 1, logs
        return logs[0]
    finally:
        term.close()


def deadline_gone(term: Terminal, timeout: float = 15.0) -> None:
    """Wait until the command in ``term`` has ended."""
    import time

    deadline = time.monotonic() + timeout
    while term.alive() and time.monotonic() < deadline:
        time.sleep(0.05)  # a poll interval, not a wait for something to happen
    assert not term.alive(), term.screen()


def enter(screen: str) -> tuple[str, ...]:
    return ("Enter",)


def flourish_turn(screen: str) -> tuple[str, ...]:
    """Plant and pass with the cursor's cards; in the final round, three cards."""
    return ("1", "2", "3", "Enter") if "Final round" in screen else ("Enter",) * 3


@pytest.mark.timeout(300)
def test_watch_a_petals_game_again(tmp_path: Path) -> None:
    watch_again(tmp_path, "petals", 2, enter)


@pytest.mark.timeout(300)
def test_watch_a_flowers_game_again(tmp_path: Path) -> None:
    watch_again(tmp_path, "flowers", 2, enter)


@pytest.mark.timeout(400)
def test_watch_a_mandala_game_again(tmp_path: Path) -> None:
    watch_again(tmp_path, "mandala", 2, enter)


@pytest.mark.timeout(400)
def test_watch_a_flourish_game_again_and_as_another_seat(tmp_path: Path) -> None:
    log = watch_again(tmp_path, "flourish", 3, flourish_turn)
    home = tmp_path / "home"
    other = tmp_path / "again"
    other.mkdir()
    command = (f"env HEDGEROW_HOME={home} {sys.executable} -m hedgerow.clients.cli "
               f"watch {log} --as 2")
    term = Terminal(other, command)
    try:
        screen = term.wait(lambda s: where(s) is not None, "the viewer", timeout=60)
        assert "Your hand (6 cards)" in screen and "as Ann" not in title(screen), screen
        assert "sealed" not in screen, screen
        term.keys("s")
        screen = term.wait(lambda s: "as Ann" in title(s), "Ann's eyes")
        assert "Your hand (6 cards)" in screen, screen
        term.keys("?")
        screen = term.wait(lambda s: "Keys" in s, "the help")
        assert "every hand can be shown" in " ".join(screen.split()), screen
        term.keys("Escape", "q")
        deadline_gone(term)
        assert term.exit_file.read_text().strip() == "0"
    finally:
        term.close()

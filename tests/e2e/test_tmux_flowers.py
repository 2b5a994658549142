"""``hedgerow play flowers`` in a real terminal (tmux, 80x24), played by keys to the results.

Two games, each in a detached tmux session of its own (its own tmux server socket,
``HEDGEROW_HOME`` in a temporary folder): a solo game (``--players 1``: no bot process)
and a 2-player game against a bot peer process.  Each checks the table screen shows the
gardens, the stacks and the score columns, composes a turn by keys (a face-down take, then
a planting aimed with the arrows), plays the rest by pressing Enter on each previewed
move, checks the results screen shows how each garden scored (scrolling to its end), then
quits with ``q`` ``y`` and checks the command exited with status 0 and left no process of
that ``HEDGEROW_HOME`` running.  Every wait polls the screen with a timeout.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest
from e2e.test_tmux_play import TMUX, Terminal, leave_table, ready, title

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (CI installs it: .ci/run)"),
]


def over(screen: str) -> bool:
    return "Game over" in title(screen)


def play_flowers(tmp_path: Path, players: int, seed: int) -> str:
    """Play a whole game of FLOWERS in tmux; the results screen's text, top to bottom."""
    home = tmp_path / "home"
    command = (f"env HEDGEROW_HOME={home} {sys.executable} -m hedgerow.clients.cli "
               f"play flowers --players {players} --seed {seed} --bot-delay 0")
    term = Terminal(tmp_path, command)
    try:
        screen = term.wait(lambda s: "Your garden" in s and ready(s), "the table screen")
        assert "A [1] " in screen and "face down" in screen, screen  # the stacks
        assert "score now" in screen and "Now" in screen.splitlines()[1], screen
        assert all(len(line) <= 80 for line in screen.splitlines())
        term.keys("?")
        help_ = term.wait(lambda s: "How to play FLOWERS" in s, "the help")
        assert "four 4s" in help_, help_
        term.keys("Escape")
        term.wait(lambda s: "How to play" not in s, "the help to close")
        down = "B" if players == 1 else "C"
        # The second kind, take the face-down card: "2" highlights it and Enter confirms
        # it, as the key line says (were "2" to go on at once, Enter would take the card).
        term.keys("2", "Enter")
        screen = term.wait(lambda s: f"Take {down}'s face-down top card" in s,
                           "the take previewed")
        assert "In your hand:" not in screen, screen
        term.keys("Enter")
        screen = term.wait(lambda s: "In your hand:" in s and ready(s), "the card taken")
        assert f"you took from {down}" in screen, screen
        term.keys("i")  # the card under the cursor in full: words that read
        screen = term.wait(lambda s: "garden (0,0)" in s, "the start card in full")
        assert "Its a " not in screen and "Its 1" not in screen, screen
        term.keys("Left")
        term.wait(lambda s: "at (-1,0)" in s, "the planting aimed left of the start")
        term.keys("Enter")
        presses = 0
        while True:
            screen = term.wait(lambda s: ready(s) or over(s), "our turn or the end",
                               timeout=30)
            if over(screen):
                break
            before = screen
            term.keys("Enter")
            presses += 1
            term.wait(lambda s, before=before: s != before and "Sending" not in s,
                      "the key to show", timeout=30)
            assert presses < 400, "the game does not end"
        assert presses >= 10
        screen = term.wait(lambda s: "Removed" in s, "the results screen")
        seen = [screen]
        for _ in range(12):  # scroll down to the end of the results
            term.keys("NPage")
            time.sleep(0.05)  # a poll interval, not a wait for something to happen
            seen.append(term.screen())
            if "Log saved to" in seen[-1]:
                break
        results = "\n".join(seen)
        assert "How each garden scored" in results and "Log saved to" in results, results
        leave_table(term, home)
        return results
    finally:
        term.close()


@pytest.mark.timeout(180)
def test_play_a_solo_flowers_game_in_tmux_to_its_rank(tmp_path: Path) -> None:
    results = play_flowers(tmp_path, 1, 4)
    assert "Grade" in results and "Ranks: Beginner up to 10" in results, results


@pytest.mark.timeout(180)
def test_play_flowers_against_a_bot_peer_in_tmux(tmp_path: Path) -> None:
    results = play_flowers(tmp_path, 2, 5)
    assert "wins" in results or "share the victory" in results, results

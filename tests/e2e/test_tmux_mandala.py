"""``hedgerow play mandala --players 2`` in a real terminal (tmux, 80x24), played by keys.

The command runs in a detached tmux session of its own (the `Terminal` of
test_tmux_play.py) against a bot peer process.  The test checks the table screen (the
three mandalas, the tiles taken, the hand, the players table), opens the help, plays every
turn by keys — Enter on the previewed play; on a tile choice ``2`` (the other tile than
the one the cursor starts on) then Enter, checking the preview names that tile and the log
then says it was taken — and checks the results screen, then quits and checks that the
command exited with 0 and that nothing is left running.  Every wait polls the screen with a
timeout.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location(
    "tmux_terminal", Path(__file__).with_name("test_tmux_play.py"))
assert _spec is not None and _spec.loader is not None
_tmux = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tmux)
Terminal, leave_table, title = _tmux.Terminal, _tmux.leave_table, _tmux.title

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(_tmux.TMUX is None, reason="tmux is not installed (CI installs it)"),
]

#: A deal in which seat 0, playing the previewed move each turn, holds a claim when its
#: mandala completes with a runner-up: a real tile choice comes up.
SEED = 5
CHOICE = "keep one tile (1, 2, Enter)"
KEEP = re.compile(r"▶ Keep (\S+):")


def ready(screen: str) -> bool:
    """Our turn, with a preview shown, and the client is not sending a move."""
    return ("Your turn" in title(screen) and "Sending" not in screen
            and any(line.startswith("▶ ") for line in screen.splitlines()))


def over(screen: str) -> bool:
    return "Log saved to" in screen


def log_text(screen: str) -> str:
    """The log pane (right of the last ``│`` of each row) as one line of words."""
    return " ".join(" ".join(line.rpartition("│")[2].split()) for line in screen.splitlines())


@pytest.mark.timeout(150)
def test_play_mandala_with_a_tile_choice_against_a_bot_peer_in_tmux(tmp_path: Path) -> None:
    home = tmp_path / "home"
    command = (f"env HEDGEROW_HOME={home} {sys.executable} -m hedgerow.clients.cli "
               f"play mandala --players 2 --seed {SEED} --bot-delay 0")
    term = Terminal(tmp_path, command)
    try:
        screen = term.wait(lambda s: "needs" in s and "Players" in s, "the table screen")
        for label in ("M0", "M1", "M2", "tiles", "claim", "Tiles taken", "Your hand", "[1]",
                      "Pts Fl Hand"):
            assert label in screen, (label, screen)
        assert all(len(line) <= 80 for line in screen.splitlines())
        # names whole in the table's rows; orange is "og", never the word "or"
        assert any(line.startswith("Bot Aster ") for line in screen.splitlines()), screen
        needs = next(line for line in screen.splitlines() if line.startswith("needs"))
        assert " or " not in needs.replace("│", " ") + " ", screen
        screen = term.wait(ready, "our first turn")
        assert "Enter plays" in screen and " on M" in screen, screen
        term.keys("?")
        screen = term.wait(lambda s: "How to play" in s, "the help")
        assert "ONE colour" in screen and "claim" in screen, screen
        term.keys("Escape")
        term.wait(lambda s: "How to play" not in s, "the help to close")
        turns, kept = 0, []
        while True:
            screen = term.wait(lambda s: ready(s) or over(s), "our turn or the results")
            if over(screen):
                break
            if CHOICE in screen:
                first = KEEP.search(screen)
                assert first is not None, screen
                term.keys("2")
                screen = term.wait(lambda s, first=first: (m := KEEP.search(s)) is not None
                                   and m.group(1) != first.group(1), "the other tile")
                found = KEEP.search(screen)
                assert found is not None
                tile = found.group(1)
                # the tile kept if Enter is pressed: marked as tentative in the tiles taken
                assert "Tiles taken (? = if you make this move)" in screen, screen
                assert re.search(r"\b\w\w(\u00d7|\d)\d?\?", screen), screen
                kept.append(tile)
                before = screen
                term.keys("Enter")
                term.wait(lambda s, tile=tile: f"takes {tile}" in log_text(s) or over(s),
                          "the tile taken, in the log")
            else:
                before = screen
                term.keys("Enter")
            turns += 1
            term.wait(lambda s, before=before: s != before and "Sending" not in s,
                      "the move to show")
            assert turns < 150, "the game does not end"
        assert turns >= 10 and kept, (turns, kept)
        screen = term.wait(over, "the results screen")
        for label in ("Flower", "Complete", "Tiles taken", "wins"):
            assert label in screen, (label, screen)
        # the points the ranking is read from, as the table's last column
        head = next(line for line in screen.splitlines() if "Single" in line)
        assert head.split()[-1] == "Score", screen
        leave_table(term, home)
    finally:
        term.close()

"""``hedgerow play flourish --players 3`` in a real terminal (tmux, 80x24), played by keys.

The command runs in a detached tmux session of its own (the `Terminal` of
test_tmux_play.py) against two bot peer processes.  The test checks the table screen (the
gardens, the hand, the scores by round), reads a card in full with ``i``, plays every turn
by keys — Enter three times in rounds 1-3 (plant, pass left, pass right: the cursor's
cards), ``1 2 3`` then Enter in the final round — and checks the results screen, then
quits and checks that nothing is left running.
"""

from __future__ import annotations

import importlib.util
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


def ready(screen: str) -> bool:
    """Our turn, with the turn's prompt shown, and the client is not sending a move."""
    return ("Your turn" in title(screen) and "Sending" not in screen
            and ("plant a card" in screen or "Final round" in screen))


@pytest.mark.timeout(150)
def test_play_flourish_against_two_bot_peers_in_tmux(tmp_path: Path) -> None:
    home = tmp_path / "home"
    command = (f"env HEDGEROW_HOME={home} {sys.executable} -m hedgerow.clients.cli "
               "play flourish --players 3 --seed 3 --bot-delay 0")
    term = Terminal(tmp_path, command)
    try:
        screen = term.wait(lambda s: "Your hand" in s and "Players" in s, "the table screen")
        lines = screen.splitlines()
        assert lines[1].startswith("Round 1 of 4, turn 1 of 3"), screen
        assert "You · 0 points" in screen and "(your left) · 0 points" in screen, screen
        assert "R1 R2 R3 R4 Tot" in screen, screen
        assert all(len(line) <= 80 for line in lines)
        screen = term.wait(ready, "our first turn")
        assert "plant a card, pass one left and one right." in screen, screen
        term.keys("i")
        screen = term.wait(lambda s: "In your hand." in s, "the card under the cursor in full")
        assert "End of " in screen, screen
        term.keys("Escape")  # any key puts the prompt back
        # rounds 1-3: Enter three times (plant, pass left, pass right: the cursor's cards)
        play_game(term, ("Enter", "Enter", "Enter"), games=1)
        screen = term.wait(lambda s: "Log saved to" in s, "the results screen")
        assert "Round" in screen and "Total" in screen and "wins" in screen, screen
        term.keys("b")
        screen = term.wait(lambda s: "Game over" in s and " at game end" in s,
                           "the final gardens")
        leave_table(term, home)
    finally:
        term.close()


def play_game(term: Terminal, turn: tuple[str, ...], games: int) -> str:
    """Play every turn of ``games`` games by keys: ``turn`` in rounds 1-3, ``1 2 3`` then
    Enter in the final round; returns the results screen."""
    turns = 0
    screen = term.screen()
    while "Log saved to" not in screen:
        screen = term.wait(lambda s: ready(s) or "Log saved to" in s,
                           "our turn or the results", timeout=30)
        if "Log saved to" in screen:
            break
        stage = screen.splitlines()[1]  # the board's first line: game, round and turn
        if "Final round" in screen:
            term.keys("1", "2", "3", "Enter")
        else:
            term.keys(*turn)
        turns += 1
        screen = term.wait(lambda s, stage=stage: s.splitlines()[1:2] != [stage]
                           or "Log saved to" in s, "the turn to be played")
        assert turns <= 10 * games, "the game does not end"
    assert turns == 10 * games, turns
    return screen


#: The passes go to one seat (solo, or two players): card 1 planted, 2 and 3 marked.
TWO_PASS = ("1", "Enter", "2", "3", "Enter")


@pytest.mark.timeout(150)
def test_play_flourish_solo_against_mcgregor_in_tmux(tmp_path: Path) -> None:
    home = tmp_path / "home"
    command = (f"env HEDGEROW_HOME={home} {sys.executable} -m hedgerow.clients.cli "
               "play flourish --variant solo --seed 3 --name Ann")
    term = Terminal(tmp_path, command)
    try:
        screen = term.wait(ready, "our first turn")
        assert "Flourish + solo" in screen.splitlines()[0], screen
        assert "You 0 - McGregor 0 = +0" in screen, screen
        assert "Medals: Bronze 30 · Silver 40 · Gold 50" in screen, screen
        assert "then give McGregor two (Space marks them)." in screen, screen
        screen = play_game(term, TWO_PASS, games=1)
        assert "McGregor" in screen and "Total" in screen, screen
        assert "End-of-game points, card by card" in screen, screen
        # the explanation is below the fold: the edge row says so, and PgDn shows it
        assert "more lines below: ↓ or PgDn" in screen, screen
        term.keys("NPage")
        screen = term.wait(lambda s: "You scored " in s, "the explanation")
        assert "(Bronze 30, Silver 40, Gold 50)" in " ".join(screen.split()), screen
        leave_table(term, home)
    finally:
        term.close()


@pytest.mark.timeout(240)
def test_play_a_garden_show_match_to_its_results_in_tmux(tmp_path: Path) -> None:
    home = tmp_path / "home"
    command = (f"env HEDGEROW_HOME={home} {sys.executable} -m hedgerow.clients.cli "
               "play flourish --players 2 --variant garden-show --seed 5 --bot-delay 0 "
               "--name Ann")
    term = Terminal(tmp_path, command)
    try:
        screen = term.wait(ready, "our first turn")
        assert "Flourish + garden-show" in screen.splitlines()[0], screen
        assert "Game 1 of 3" in screen, screen
        screen = play_game(term, TWO_PASS, games=3)  # one match: three games, one log
        assert "You win the match!" in screen or " wins the match" in screen, screen
        assert "Points per game" in screen and "Running totals" in screen, screen
        assert "Total Total" not in screen and "Ribbons w " not in screen, screen
        assert "Game 1: " in screen and "Game 3: " in screen, screen
        leave_table(term, home)
    finally:
        term.close()

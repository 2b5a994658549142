"""Watching a live table in a real terminal (tmux, 80x24): ``hedgerow watch HOST:PORT/KEY``.

A sealed Petals table of three bot peer processes (``hedgerow host`` / ``join --bot
random`` with a delay, so a person can follow); the spectator runs ``hedgerow watch
ADDRESS --name Viv`` in a detached tmux session before the last seat is taken.  Until the
cards are dealt the terminal says which seats are taken; then the table screen opens on
the newest move: the title says Live, the game, how many watch, whose eyes, and who is to
play; the hand pane says the seat's cards are sealed to a spectator.  ``s`` looks through
the next seat's eyes; ← steps back (the title says Watching and how to get back), End
returns to the live end.  The game ends on the results, for nobody in particular, naming
the table watched; ``q`` leaves, the command ends with status 0, nothing left running.
Every wait polls the screen with a timeout.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from e2e.helpers import Table, peer_env

_spec = importlib.util.spec_from_file_location(
    "tmux_terminal", Path(__file__).with_name("test_tmux_play.py"))
assert _spec is not None and _spec.loader is not None
_tmux = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_tmux)
Terminal, title, no_process_left = _tmux.Terminal, _tmux.title, _tmux.no_process_left

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif(_tmux.TMUX is None, reason="tmux is not installed (CI installs it)"),
]


def test_watching_a_live_table_at_80x24(table: Table, tmp_path: Path) -> None:
    slow = ("--bot", "random", "--delay", "0.6")
    host, address = table.host("petals", 3, *slow, "--name", "Ann", env=peer_env())
    table.join(address, *slow, "--name", "Bob", env=peer_env())
    home = tmp_path / "home"
    command = (f"env HEDGEROW_HOME={home} HEDGEROW_NO_DISCOVERY=1 {sys.executable} -m "
               f"hedgerow.clients.cli watch {address} --name Viv")
    term = Terminal(tmp_path, command)
    try:
        term.wait(lambda s: "2 of 3 seats taken: Ann, Bob" in s, "the seats so far")
        table.join(address, *slow, "--name", "Cy", env=peer_env())
        screen = term.wait(lambda s: title(s).startswith(" Live · Petals · 3 players · "
                                                         "1 watching · as Ann")
                           and "to play" in title(s), "the live table")
        assert "Ann's cards are sealed: a spectator is shown" in screen
        assert all(name in screen for name in ("Ann", "Bob", "Cy"))
        term.keys("s")
        term.wait(lambda s: " as Bob " in title(s), "Bob's eyes")
        term.wait(lambda s: "entry 3" in title(s) or "entry 4" in title(s)
                  or "entry 5" in title(s), "a few moves", timeout=30)
        term.keys("Left")
        screen = term.wait(lambda s: title(s).startswith(" Watching") and "End: back to live"
                           in title(s), "a step back")
        term.keys("End")
        term.wait(lambda s: title(s).startswith(" Live"), "back to live")
        screen = term.wait(lambda s: "Game over" in title(s) and "Watched live at" in s,
                           "the results", timeout=120)
        assert "(you)" not in screen and "You win" not in screen
        assert address[:20] in screen
        host.finish(timeout=60)
        term.keys("q")
        term.wait(lambda s: not term.alive() or term.exit_file.exists(), "the end",
                  timeout=20)
        assert term.exit_file.read_text().strip() == "0"
        no_process_left(home)
    finally:
        term.close()

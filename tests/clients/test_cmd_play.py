"""``hedgerow play``: set-up mistakes give one clear line (the game itself: test_app, e2e)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from hedgerow.core.pluginhost import PluginHost

#: Every built-in game, as the error message lists them.
GAMES = sorted(PluginHost(autoload=False).games)


def hedgerow(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", *args],
                          capture_output=True, text=True, stdin=subprocess.DEVNULL,
                          env=dict(os.environ), timeout=60)


@pytest.mark.parametrize(("args", "message"), [
    (["play", "chess"], f"unknown game 'chess' (choose from: {', '.join(GAMES)})"),
    (["play", "petals", "--players", "9"], "petals is for 2 to 5 players, not 9"),
    (["play", "petals", "--bots", "deep"],
     "unknown bot 'deep' for petals (choose from: greedy, ismcts, random)"),
    (["play", "petals"], "hedgerow play needs a terminal (for bots only, use hedgerow simulate)"),
])
def test_set_up_mistakes_print_one_line(args: list[str], message: str) -> None:
    out = hedgerow(*args)
    assert out.returncode == 2
    assert out.stderr.strip() == f"hedgerow: error: {message}"


"""Where a user's Hedgerow data lives: keys, table logs and the leaderboard.

``HEDGEROW_HOME`` wins when set (tests always set it to a temporary folder); otherwise the
platform's user data directory (platformdirs).  This module only computes paths; the code
that writes a file creates its folder.
"""

from __future__ import annotations

import os
from pathlib import Path

ENV = "HEDGEROW_HOME"


def data_dir() -> Path:
    """The root of the user's Hedgerow data."""
    home = os.environ.get(ENV)
    if home:
        return Path(home).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("hedgerow", appauthor=False))


def keys_dir() -> Path:
    """Where the user's CURVE keypair lives."""
    return data_dir() / "keys"


def logs_dir() -> Path:
    """Where table logs (save, replay and resume files) are written."""
    return data_dir() / "logs"


def bot_logs_dir() -> Path:
    """Where the logs of seats a bot plays go (``logs/bots``): apart from the person's own,
    so that ``hedgerow resume`` and the logs folder show the tables a person played."""
    return logs_dir() / "bots"


def leaderboard_path() -> Path:
    """The user's leaderboard: one SQLite database of finished games (FLOWERS' leaderboard).

    The code that keeps the leaderboard opens it with `sqlite3` and creates its tables; this
    module only names the file.
    """
    return data_dir() / "leaderboard.sqlite3"

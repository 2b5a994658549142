"""Where a user's Hedgerow data lives: keys, table logs, leaderboard and settings.

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


def settings_path() -> Path:
    """The user's settings file."""
    return data_dir() / "settings.json"


def leaderboard_path() -> Path:
    """The user's leaderboard of finished games."""
    return data_dir() / "leaderboard.json"

"""The seal file keeps a table's secret for its owner alone, once, and says when it is lost."""

from __future__ import annotations

import stat
from pathlib import Path

import pytest

from hedgerow.core.errors import HedgerowError
from hedgerow.net import sealfile


def test_a_secret_is_kept_owner_only_and_read_back(tmp_path: Path) -> None:
    log = tmp_path / "table.hlog"
    secret = sealfile.create(log)
    assert len(secret) == 32
    path = sealfile.path_for(log)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert sealfile.load(log) == secret


def test_a_secret_is_drawn_once(tmp_path: Path) -> None:
    log = tmp_path / "table.hlog"
    sealfile.create(log)
    with pytest.raises(HedgerowError, match="exists already"):
        sealfile.create(log)


def test_a_missing_or_damaged_seal_file_is_a_clear_error(tmp_path: Path) -> None:
    log = tmp_path / "table.hlog"
    with pytest.raises(HedgerowError, match="missing"):
        sealfile.load(log)
    sealfile.path_for(log).write_text("hedgerow seal 1\nnothex\n")
    with pytest.raises(HedgerowError, match="damaged"):
        sealfile.load(log)
    sealfile.path_for(log).write_text("hedgerow seal 1\n" + "ab" * 16 + "\n")
    with pytest.raises(HedgerowError, match="damaged"):
        sealfile.load(log)

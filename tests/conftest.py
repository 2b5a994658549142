"""Shared fixtures: every test gets its own HEDGEROW_HOME and no third-party plugin autoload."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
EXAMPLES = ROOT / "docs" / "examples"
if str(TESTS) not in sys.path:  # lets tests import the toy games as `toygames`
    sys.path.insert(0, str(TESTS))
if str(EXAMPLES) not in sys.path:  # and the documented example game as `goofspiel`
    sys.path.insert(0, str(EXAMPLES))


@pytest.fixture(autouse=True)
def hedgerow_home(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> Path:
    """A fresh user data directory for each test."""
    home = tmp_path_factory.mktemp("hedgerow-home")
    monkeypatch.setenv("HEDGEROW_HOME", str(home))
    monkeypatch.delenv("HEDGEROW_PLUGINS", raising=False)
    monkeypatch.delenv("HEDGEROW_BLOCK_PLUGINS", raising=False)
    return home


@pytest.fixture
def toy_host():
    """A host with only the toy games of tests/toygames.py."""
    import toygames

    return toygames.toy_host()


@pytest.fixture
def goofspiel_host():
    """A host with the built-ins and the example game of docs/examples/goofspiel.py."""
    import goofspiel

    from hedgerow.core.host import Host

    return Host(autoload=False, extra=[goofspiel])


def subprocess_env(**extra: str) -> dict[str, str]:
    """The environment for a `hedgerow` subprocess in a test."""
    env = dict(os.environ)
    env.update(extra)
    return env

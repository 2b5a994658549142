"""Fixtures for the end-to-end tests: real `hedgerow` processes over real sockets."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from e2e.helpers import Table


@pytest.fixture
def table() -> Iterator[Table]:
    """The processes a test starts (`e2e.helpers.Table`), all stopped when it ends."""
    t = Table()
    yield t
    t.close()

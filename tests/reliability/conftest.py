"""Reliability tests need a simulated LAN (root, iproute2, nftables): skip with the reason
where this machine cannot build one."""

from __future__ import annotations

import pytest
from reliability.lan import lan_available


@pytest.fixture(scope="session")
def lan_ok() -> None:
    """Skip the test (with why) when network namespaces are not available here."""
    reason = lan_available()
    if reason is not None:
        pytest.skip(f"no simulated LAN: {reason}")

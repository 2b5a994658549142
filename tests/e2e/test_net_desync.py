"""A peer running different rules under the same fingerprint is caught at the first action
whose state hash differs, and every peer names it (real processes over the network).

Entry #0 is posy's deal (a chance entry, the same everywhere); the cheat scores the first
play, entry #1."""

from __future__ import annotations

import pytest
from e2e.helpers import Table, peer_env

pytestmark = pytest.mark.e2e


def test_different_rules_halt_the_table_naming_the_divergent_peer() -> None:
    table = Table()
    try:
        honest = "toygames"
        host, address = table.host("posy", 3, "--bot", "random", "--table", "table",
                                   "--name", "ann", env=peer_env(plugins=honest))
        bob = table.join(address, "--bot", "random", "--name", "bob",
                         env=peer_env(plugins=honest))
        cheat = table.join(address, "--bot", "random", "--name", "cheater",
                           env=peer_env(plugins="toygames,cheatplugin"))
        seat = cheat.wait_event("joined")["seat"]
        results = []
        for peer in (host, bob, cheat):
            code, result = peer.finish()
            assert code == 1, peer.stderr
            assert result["phase"] == "halted"
            results.append(result)
        for result in results:
            assert result["problem"].startswith(
                f"desync after entry #1: seat {seat} (cheater)"), result["problem"]
            assert "diverged" in result["problem"]
        assert "this peer" in results[2]["problem"]  # the cheater knows it is the odd one
        assert "table halted: desync after entry #1" in host.stderr
    finally:
        table.close()

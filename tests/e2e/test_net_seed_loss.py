"""A host lost during seed agreement, between real peer processes (issue 10, point 11).

The joiners hold a link to the host only, and only the host seats anyone: they wait for it,
saying so, and the host's ``hedgerow resume`` re-opens the same table at the same address
from its open-table file; the seed is agreed again in a new round and the game plays to one
final hash everywhere (docs/protocol.md §3.2, "A host lost before play").
"""

from __future__ import annotations

import signal
from pathlib import Path

import pytest
from e2e.helpers import Table, peer_env

pytestmark = pytest.mark.e2e


def open_files(env: dict[str, str]) -> list[Path]:
    """A bot host's open-table files (in the bots' logs folder, apart from a person's)."""
    return sorted((Path(env["HEDGEROW_HOME"]) / "logs" / "bots").glob("*.open.json"))


def test_a_host_killed_during_seed_agreement_reopens_the_table_and_it_plays(
        table: Table) -> None:
    host, address = table.host("petals", 3, "--bot", "random", env=peer_env())
    k = table.join(address, "--bot", "random", env=peer_env())
    k.wait_event("joined")
    k.proc.send_signal(signal.SIGSTOP)  # frozen before it can commit to a share...
    a = table.join(address, "--bot", "random", env=peer_env())
    a.wait_event("joined")
    host.wait_event("seeding")  # ...so the seed cannot be agreed without it
    assert len(open_files(host.env)) == 1  # the host's table, before any log
    host.kill()  # the host dies: no log, no share
    k.proc.send_signal(signal.SIGCONT)
    # The joiners wait for it, and say so.
    a.wait_event("host_gone")
    k.wait_event("host_gone")
    # The host comes back at the same address, with the same table.
    (saved,) = open_files(host.env)
    back = table.start(["resume", str(saved), "--json"], host.env)
    assert back.wait_event("open")["address"] == address
    results = []
    for peer in (back, a, k):
        code, result = peer.finish(timeout=60)
        assert code == 0, peer.stderr
        assert result is not None and result["phase"] == "finished"
        results.append(result)
    assert len({r["state_hash"] for r in results}) == 1
    assert open_files(host.env) == []  # the log took over
    # Everybody started over in the host's next seed round.
    for peer in (a, k):
        assert "seed round 1 abandoned" in peer.stderr, peer.stderr[-2000:]


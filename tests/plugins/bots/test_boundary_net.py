"""The information boundary over the protocol: a headless bot peer (``join --bot``), handed
its view by the real peer from what came over the wire, cannot reach another seat's hidden
card either (see tokenspy.py for what it looks at)."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from e2e.helpers import Table, peer_env

HERE = Path(__file__).resolve().parent


@pytest.fixture
def table() -> Iterator[Table]:
    t = Table()
    yield t
    t.close()


@pytest.mark.e2e
def test_a_bot_peer_cannot_reach_another_seats_hidden_card(table: Table,
                                                           tmp_path: Path) -> None:
    def env(i: int) -> dict[str, str]:
        home = tmp_path / f"peer{i}"
        home.mkdir()
        found = peer_env(home, plugins="tokenspy")
        found["PYTHONPATH"] = os.pathsep.join([str(HERE), found["PYTHONPATH"]])
        return found

    host, address = table.host("tokens", 2, "--bot", "tokenspy", env=env(0))
    joiner = table.join(address, "--bot", "tokenspy", env=env(1))
    records = []
    for peer in (host, joiner):
        code, result = peer.finish()
        assert code == 0, peer.stderr
        assert result is not None and result["phase"] == "finished", result
        lines = (peer.home / "tokenspy.jsonl").read_text().splitlines()
        records += [json.loads(line) for line in lines]
    assert len(records) == 8  # four turns a seat
    assert {r["seat"] for r in records} == {0, 1}
    assert all(r["hidden"] > 0 and r["seen"] > 0 for r in records)  # the walk sees cards
    assert [r["leaked"] for r in records] == [[]] * 8

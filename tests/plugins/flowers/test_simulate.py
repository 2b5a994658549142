"""``hedgerow simulate flowers`` plays 3 players, Summer and solo, the same in every process."""

from __future__ import annotations

import json

import pytest
from gamechecks import simulate

from hedgerow.clients.cli import main
from hedgerow.core.pluginhost import DEFAULT_PLUGINS

#: Other built-in games are left out, so that work on them never breaks these runs.
OTHERS = ",".join(n for n, _ in DEFAULT_PLUGINS if n not in ("flowers", "summer", "random-bot"))


@pytest.fixture(autouse=True)
def _only_flowers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HEDGEROW_BLOCK_PLUGINS", OTHERS)


RUNS = (
    ("--players", "3"),
    ("--variant", "summer"),
    ("--players", "1"),
    ("--players", "1", "--variant", "summer"),
)


def _simulate(args: tuple[str, ...], capsys: pytest.CaptureFixture[str]) -> list[dict]:
    assert main(["simulate", "flowers", *args, "--seed", "4", "--games", "3", "--json"]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def test_simulate_runs_and_reads_the_results(capsys: pytest.CaptureFixture[str]) -> None:
    three, summer, solo, solo_summer = (_simulate(args, capsys) for args in RUNS)
    assert [r["players"] for r in three] == [3, 3, 3]
    assert all(r["outcome"]["kind"] == "ranked" for r in three + summer)
    assert summer[0]["fingerprint"] == "flowers@1.0.0+summer@1.0.0" and summer[0]["players"] == 2
    for record in solo + solo_summer:
        outcome = record["outcome"]
        assert outcome["kind"] == "solo" and outcome["won"] is None and outcome["winners"] == []
        assert outcome["grade"] in ("Beginner", "Apprentice", "Expert", "Master")
        assert sum(outcome["breakdown"][c][0] for c in ("Colour groups", "Butterflies",
                                                        "Removed")) == outcome["score"]
    assert len({r["state_hash"] for r in three}) == 3
    assert main(["simulate", "flowers", "--players", "1", "--games", "2"]) == 0
    assert "grades: " in capsys.readouterr().out


def test_simulate_is_reproducible_across_processes(capsys: pytest.CaptureFixture[str]) -> None:
    here = [[r["state_hash"] for r in _simulate(args, capsys)] for args in RUNS]
    there = [[r["state_hash"] for r in simulate("flowers", *args, "--seed", "4", "--games", "3",
                                                hash_seed="12345")] for args in RUNS]
    assert there == here

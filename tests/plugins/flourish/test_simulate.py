"""``hedgerow simulate flourish`` is reproducible from ``--seed``, with every variant and
every allowed combination, and across processes with different hash seeds."""

from __future__ import annotations

import json

import pytest
from gamechecks import simulate

from hedgerow.clients.cli import main

COMBINATIONS = [
    ("7", ()),
    ("1", ()),
    ("1", ("compost",)),
    ("3", ("compost",)),
    ("3", ("cooperative",)),
    ("2", ("garden-show",)),
    ("5", ("cooperative", "compost")),
    ("4", ("garden-show", "compost")),
]


def _simulate(capsys: pytest.CaptureFixture[str], players: str, variants: tuple[str, ...],
              seed: str) -> list[dict[str, object]]:
    args = ["simulate", "flourish", "--players", players, "--seed", seed, "--games", "2",
            "--json"]
    for variant in variants:
        args += ["--variant", variant]
    assert main(args) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


@pytest.mark.parametrize(("players", "variants"), COMBINATIONS,
                         ids=[f"{p}p-{'+'.join(v) or 'standard'}" for p, v in COMBINATIONS])
def test_simulate_is_reproducible(capsys: pytest.CaptureFixture[str], players: str,
                                  variants: tuple[str, ...]) -> None:
    first = _simulate(capsys, players, variants, "21")
    again = _simulate(capsys, players, variants, "21")
    other = _simulate(capsys, players, variants, "22")
    assert first == again
    assert [r["state_hash"] for r in first] != [r["state_hash"] for r in other]
    kind = first[0]["outcome"]["kind"]  # type: ignore[index]
    assert kind == ("solo" if players == "1" else "match" if "garden-show" in variants
                    else "cooperative" if "cooperative" in variants else "ranked")


def test_simulate_across_processes_and_hash_seeds() -> None:
    args = ("--players", "7", "--variant", "compost", "--seed", "4", "--games", "2")
    hashes = [[r["state_hash"] for r in simulate("flourish", *args, hash_seed=s)]
              for s in ("1", "2")]
    assert hashes[0] == hashes[1] and len(hashes[0]) == 2

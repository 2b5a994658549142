"""``hedgerow simulate mandala`` is reproducible: the same seeds give the same games in new
processes, whatever the hash seed; Draw four plays other games from the same seeds."""

from __future__ import annotations

from gamechecks import simulate

ARGS = ("--players", "3", "--seed", "21", "--games", "3")
NO_AUTOLOAD = {"HEDGEROW_DISABLE_PLUGIN_AUTOLOAD": "1"}


def _simulate(*args: str, hash_seed: str) -> list[dict]:
    return simulate("mandala", *args, hash_seed=hash_seed, env=NO_AUTOLOAD)


def test_simulate_is_reproducible_across_processes() -> None:
    first, second = _simulate(*ARGS, hash_seed="1"), _simulate(*ARGS, hash_seed="2")
    assert first == second
    assert len({r["state_hash"] for r in first}) == 3
    for record in first:
        assert record["game"] == "mandala" and record["fingerprint"] == "mandala@1.1.0"
        outcome = record["outcome"]
        assert outcome["kind"] == "ranked" and outcome["winners"]
        assert "Complete flowers" in outcome["breakdown"]
    four = _simulate(*ARGS, "--variant", "draw-four", hash_seed="3")
    assert [r["fingerprint"] for r in four] == ["mandala@1.1.0+draw-four@1.0.0"] * 3
    assert [r["state_hash"] for r in four] != [r["state_hash"] for r in first]

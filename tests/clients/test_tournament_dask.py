"""``hedgerow tournament`` on Dask: a local cluster of its own (the default when
hedgerow[cluster] is installed), and an existing cluster named with ``--scheduler`` (here a
`distributed.LocalCluster` of two worker processes that the test starts), both giving
exactly the games and the summary of a run in one process.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest
from tournament_helpers import run_json, without_timing

distributed = pytest.importorskip("distributed")

GAMES = "24"


@pytest.fixture
def cluster() -> Iterator[Any]:
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=":0", silence_logs=logging.ERROR) as made:
        yield made


@pytest.fixture(scope="module")
def alone() -> list[dict[str, Any]]:
    return run_json("--games", GAMES, "--workers", "1")


def test_an_existing_cluster_named_by_scheduler_plays_the_same_games(
    cluster: Any, alone: list[dict[str, Any]]
) -> None:
    address = cluster.scheduler_address
    assert address.startswith("tcp://127.0.0.1:")
    on_cluster = run_json("--games", GAMES, "--scheduler", address)
    assert on_cluster[0]["backend"] == f"on the Dask cluster at {address}"
    assert on_cluster[0]["workers"] == 2
    assert without_timing(on_cluster) == without_timing(alone)
    # the cluster is left running for whoever else uses it
    assert len(cluster.scheduler_info["workers"]) == 2


def test_a_local_cluster_of_its_own_plays_the_same_games(alone: list[dict[str, Any]]) -> None:
    local = run_json("--games", GAMES, "--workers", "2")
    assert local[0]["backend"] == "on a local Dask cluster of 2 worker processes"
    assert without_timing(local) == without_timing(alone)

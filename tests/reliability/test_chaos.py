"""Chaos trials in CI: one per game, each with a different fault (the whole matrix, every
game x every fault, is ``python -m reliability.run chaos``; docs/reliability.md).

Each trial is a complete networked bot game on a simulated LAN (one namespace per seat, real
processes, real ZeroMQ over CURVE) while the fault strikes; it must end with one final hash,
every log complete and verified, and no give-up waited out (`chaos.run_trial`).

A fault of drawn length takes its kind's shortest here (``stop``: 10 s, where the whole
matrix draws 10-30 s): any of these lengths is past the 5 s after which the others count a
silent peer lost (net/context.py, LOST_AFTER_S) and far below any give-up or motion expiry,
so the stopped peer goes through the same loss and return, and the slice does not sit
through up to 20 s more of the wait."""

from __future__ import annotations

import pytest
from reliability.chaos import GIVE_UP, run_trial

pytestmark = [pytest.mark.e2e, pytest.mark.usefixtures("lan_ok")]

SLICE = [
    ("petals", 3, "kill"),
    ("flowers", 2, "stop"),
    ("mandala", 2, "cuts"),
    ("flourish", 3, "partition-5"),  # a simultaneous step across a cut link
]


@pytest.mark.parametrize("game, players, fault", SLICE, ids=[f"{g}-{f}" for g, _, f in SLICE])
def test_a_game_survives_its_fault(game: str, players: int, fault: str) -> None:
    result = run_trial(game, players, fault, seed=1, shortest=True)
    assert result.held, f"{result.summary()}\n{result.said()}"
    # Nobody waited out a give-up: the trial is over well before the fault plus one give-up.
    assert result.seconds < result.fault_seconds + GIVE_UP - 10, \
        f"{result.summary()}\n{result.said()}"

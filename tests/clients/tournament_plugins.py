"""Bots for the tournament tests: one that fails in seat 0 (to see the failure named)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hedgerow.core import Action, BotContext, BotSpec, hookimpl


class SeatZeroFails:
    """Plays the first legal action, except in seat 0, where it raises."""

    def __init__(self, ctx: BotContext) -> None:
        self.seat = ctx.seat

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        if self.seat == 0:
            raise ValueError("this bot cannot play seat 0")
        return legal[0]


@hookimpl
def hedgerow_register_bots(register) -> None:
    register(BotSpec(name="seat-zero-fails", version="0.0.1", make=SeatZeroFails))

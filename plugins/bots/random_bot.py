"""The ``random`` bot: picks a legal action uniformly with its own seeded stream.

It sees only its view and the legal actions, so it plays any game; with the same table
seed it makes the same choices in any process.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hedgerow.core import Action, BotContext, BotSpec, hookimpl


class RandomBot:
    """Uniform choice among the legal actions."""

    def __init__(self, ctx: BotContext) -> None:
        self.rng = ctx.rng

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        """One of ``legal``, uniformly at random."""
        return legal[self.rng.randbelow(len(legal))]


@hookimpl
def hedgerow_register_bots(register: Callable[[BotSpec], None]) -> None:
    """The ``random`` bot."""
    register(
        BotSpec(
            name="random",
            version="1.0.0",
            make=RandomBot,
            summary="picks a legal action uniformly at random (seeded)",
        )
    )

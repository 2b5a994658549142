"""A bot for the LAN tests: ``first`` plays the first legal action, so the bot a runner
seats for a cut peer makes the very move the cut peer's own bot made."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hedgerow.core import Action, BotContext, BotSpec, hookimpl


class First:
    """Always the first legal action."""

    def __init__(self, ctx: BotContext) -> None:
        self.seat = ctx.seat

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        return legal[0]


@hookimpl
def hedgerow_register_bots(register: Any) -> None:
    register(BotSpec(name="first", version="0.0.1", make=First))

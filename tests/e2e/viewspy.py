"""A test plugin: the ``viewspy`` bot plays exactly as ``random`` and writes down what it saw.

Loaded with ``HEDGEROW_PLUGINS=viewspy`` and used with ``--bot viewspy``: the bot is the
``random`` bot made with the same context (so the same seeded stream and the very same
choices: a table of ``viewspy`` bots plays the game ``hedgerow simulate`` plays with
``random``), and at each of its decisions it appends one JSON line to
``$HEDGEROW_HOME/views.jsonl``: its seat, the view it was handed (as plain data), the number
of legal actions and the action it chose.  In a networked peer that view is what the seat
was shown, built by the real peer from what came over the wire.  It changes no rule and no
part of the peer; the table fingerprint does not name bots.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from e2e.helpers import plain_data

from hedgerow.core import Action, BotContext, BotSpec, hookimpl
from hedgerow.plugins.bots.random_bot import RandomBot

FILE = "views.jsonl"


class ViewSpy:
    """The random bot, writing down each view and choice."""

    def __init__(self, ctx: BotContext) -> None:
        self.seat = ctx.seat
        self.bot = RandomBot(ctx)
        self.path = Path(os.environ["HEDGEROW_HOME"]) / FILE

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        """The random bot's choice; the view and the choice go to the file first."""
        action = self.bot.choose(view, legal)
        record = {"seat": self.seat, "view": plain_data(view), "legal": len(legal),
                  "action": [action.kind, plain_data(action.args)]}
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")
        return action


@hookimpl
def hedgerow_register_bots(register: Callable[[BotSpec], None]) -> None:
    """The ``viewspy`` bot."""
    register(BotSpec(name="viewspy", version="1.0.0", make=ViewSpy,
                     summary="plays as random and writes down each view (tests only)"))

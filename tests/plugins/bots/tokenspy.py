"""A test plugin for bot peers: the ``tokens`` toy game and the ``tokenspy`` bot.

Loaded with ``HEDGEROW_PLUGINS=tokenspy`` (this folder and ``tests/`` on ``PYTHONPATH``).
The bot plays as ``random`` (the same stream, the same choices) and, at each decision,
walks everything reachable from what it was handed (view, legal actions, its context and
itself) for card tokens.  Every token it finds that its own view does not show (its hand,
the cards played face up) is a hidden card that leaked; it appends one JSON line per
decision to ``$HEDGEROW_HOME/tokenspy.jsonl``: its seat, the leaked tokens and how many
cards the other seats hid at that moment.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from toygames import TokensPlugin, reachable_strings

from hedgerow.core import Action, BotContext, BotSpec, hookimpl
from hedgerow.plugins.bots.random_bot import RandomBot

TOKEN = re.compile(r"tok\d{9}")
FILE = "tokenspy.jsonl"


class TokenSpy:
    """The random bot, looking for hidden cards in what it holds."""

    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx
        self.bot = RandomBot(ctx)
        self.path = Path(os.environ["HEDGEROW_HOME"]) / FILE

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        """Look, write down what leaked, then play as random."""
        found = {s for s in reachable_strings(view, legal, self.ctx, self) if TOKEN.fullmatch(s)}
        visible = {token for token, _ in view.hand}
        visible |= {token for played in view.played for token, _ in played}
        hidden = sum(size for seat, size in enumerate(view.hand_sizes) if seat != view.seat)
        record = {"seat": view.seat, "leaked": sorted(found - visible), "hidden": hidden,
                  "seen": len(found & visible)}
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")
        return self.bot.choose(view, legal)


@hookimpl
def hedgerow_register_games(register: Callable[[Any], None]) -> None:
    """The ``tokens`` toy game."""
    TokensPlugin.hedgerow_register_games(None, register)  # type: ignore[arg-type]


@hookimpl
def hedgerow_register_bots(register: Callable[[BotSpec], None]) -> None:
    """The ``tokenspy`` bot."""
    register(BotSpec(name="tokenspy", version="1.0.0", make=TokenSpy,
                     summary="plays as random and looks for hidden cards (tests only)"))

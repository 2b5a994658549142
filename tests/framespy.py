"""A test plugin: the ``framespy`` bot, which looks for the table on its own call stack.

Loaded with ``-p framespy`` (``tests/`` is on the path; it brings the ``tokens`` toy game
too) or used directly (`FRAMESPY`).  It plays as ``random`` (the same stream, the same
choices) and, at each decision, walks every frame of its call stack (``sys._getframe``, then
``f_back`` up to the thread's first frame) and everything reachable from the frames' locals,
and from what it was handed (its context, itself, its view and legal actions): the walk of
`toygames.reachable`, which does not import anything or read module globals.  It writes one
JSON line per decision to ``$HEDGEROW_HOME/framespy.jsonl``:

* ``tables``: how many `hedgerow.core.table.Table` objects it reached;
* ``seeds``: the 32-byte strings it reached that are a seed ``seed_from_int(n)`` for one of
  the numbers in ``$FRAMESPY_SEEDS`` (comma separated), and those numbers it reached as ints;
* ``hidden``: at the ``tokens`` toy game, the tokens it reached that its view does not show
  (another seat's hidden cards; any other game: empty);
* ``frames``: the names of the functions on its stack (to see what it walked).
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from toygames import TokensPlugin, reachable

from hedgerow.core import Action, BotContext, BotSpec, hookimpl
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.plugins.bots.random_bot import RandomBot

TOKEN = re.compile(r"tok\d{9}")
FILE = "framespy.jsonl"


def stack_locals(frame: Any) -> tuple[list[object], list[str]]:
    """The values of every local of ``frame`` and the frames below it (its callers), and
    the names of their functions."""
    roots: list[object] = []
    names: list[str] = []
    while frame is not None:
        names.append(frame.f_code.co_name)
        roots.extend(frame.f_locals.values())
        frame = frame.f_back
    return roots, names


def look(roots: Sequence[object], view: Any) -> dict[str, Any]:
    """What a bot reaches from ``roots``: tables, the seeds named in ``$FRAMESPY_SEEDS``,
    hidden tokens of the ``tokens`` game (see the module docstring)."""
    numbers = [int(n) for n in os.environ.get("FRAMESPY_SEEDS", "").split(",") if n]
    seeds = {seed_from_int(n): n for n in numbers}
    found = reachable(*roots, limit=2_000_000)
    visible: set[str] = set()
    if hasattr(view, "played") and hasattr(view, "hand"):  # the tokens game
        visible = {token for token, _ in view.hand}
        visible |= {token for played in view.played for token, _ in played}
    return {
        "tables": sum(1 for obj in found if isinstance(obj, Table)),
        "seeds": sorted({seeds[obj] for obj in found if isinstance(obj, bytes) and obj in seeds}
                        | {obj for obj in found if type(obj) is int and obj in numbers}),
        "hidden": sorted(obj for obj in found if isinstance(obj, str) and TOKEN.fullmatch(obj)
                         and obj not in visible),
    }


class FrameSpy:
    """The random bot, looking for the table on its call stack and in what it holds."""

    def __init__(self, ctx: BotContext) -> None:
        self.ctx = ctx
        self.bot = RandomBot(ctx)
        self.path = Path(os.environ["HEDGEROW_HOME"]) / FILE

    def choose(self, view: Any, legal: Sequence[Action]) -> Action:
        """Look, write down what it reached, then play as random."""
        roots, names = stack_locals(sys._getframe(1))
        record = look([*roots, self.ctx, self, view, legal], view)
        record["frames"] = names
        del roots
        with self.path.open("a", encoding="utf-8") as out:
            out.write(json.dumps(record) + "\n")
        return self.bot.choose(view, legal)


FRAMESPY = BotSpec(name="framespy", version="0.0.1", make=FrameSpy,
                   summary="random, looking for the table on its call stack (tests)")


def records(home: Path) -> list[dict[str, Any]]:
    """Every decision the spies at ``home`` wrote down."""
    path = home / FILE
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines()]


@hookimpl
def hedgerow_register_games(register: Callable[[Any], None]) -> None:
    """The ``tokens`` toy game (so that ``-p framespy`` alone can play it)."""
    TokensPlugin.hedgerow_register_games(None, register)  # type: ignore[arg-type]


@hookimpl
def hedgerow_register_bots(register: Callable[[BotSpec], None]) -> None:
    """The ``framespy`` bot."""
    register(FRAMESPY)

"""The Hedgerow rules kernel: plugin host, game contract, RNG, hashing and the table engine.

Nothing here does network or terminal I/O, and nothing here imports zmq, protobuf or
prompt_toolkit (``tests/core/test_import_boundaries.py`` checks it).  Game plugins import
what they need from this package::

    from hedgerow.core import Action, GameDef, GameSpec, Outcome, Refusal, hookimpl
"""

from hedgerow.core.actions import Action
from hedgerow.core.errors import Code, HedgerowError, Refusal
from hedgerow.core.game import (
    BotContext,
    BotSpec,
    GameDef,
    GameSpec,
    Outcome,
    SetupContext,
    VariantSpec,
)
from hedgerow.core.hookspecs import hookimpl, hookspec
from hedgerow.core.rng import Rng

__all__ = [
    "Action",
    "BotContext",
    "BotSpec",
    "Code",
    "GameDef",
    "GameSpec",
    "HedgerowError",
    "Outcome",
    "Refusal",
    "Rng",
    "SetupContext",
    "VariantSpec",
    "hookimpl",
    "hookspec",
]

"""The Hedgerow rules kernel: plugin host, game contract, RNG, hashing and the table engine.

Nothing here does network or terminal I/O, and nothing here imports zmq, protobuf or
prompt_toolkit (``tests/core/test_import_boundaries.py`` checks it).  Game plugins import
what they need from this package::

    from hedgerow.core import Action, GameDef, GameSpec, Ranked, Refusal, hookimpl
"""

from hedgerow.core.actions import Action
from hedgerow.core.botsupport import BotSupport
from hedgerow.core.chance import CHANCE_SEAT, Chance, ChanceOutcome, Pick, Shuffle, permute
from hedgerow.core.errors import Code, HedgerowError, Refusal, RulesError
from hedgerow.core.game import (
    BotContext,
    BotSpec,
    GameDef,
    GameSpec,
    SetupContext,
    VariantSpec,
)
from hedgerow.core.hookspecs import hookimpl, hookspec
from hedgerow.core.outcome import Cooperative, Match, Outcome, Ranked, Solo
from hedgerow.core.rng import Rng

__all__ = [
    "CHANCE_SEAT",
    "Action",
    "BotContext",
    "BotSpec",
    "BotSupport",
    "Chance",
    "ChanceOutcome",
    "Code",
    "Cooperative",
    "GameDef",
    "GameSpec",
    "HedgerowError",
    "Match",
    "Outcome",
    "Pick",
    "Ranked",
    "Refusal",
    "Rng",
    "RulesError",
    "SetupContext",
    "Shuffle",
    "Solo",
    "VariantSpec",
    "hookimpl",
    "hookspec",
    "permute",
]

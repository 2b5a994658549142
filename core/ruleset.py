"""`Ruleset`: a game bound with the variants one table chose, and its fingerprint.

The fingerprint names the rules exactly (game and variant names with their versions), so
peers compare it before the first action.  Variant hooks reach the game through a per-table
`ExtensionRelay`: only the chosen variants' implementations are called
(``PluginManager.subset_hook_caller``), so variants at one table never leak into another.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pluggy

from hedgerow.core.botsupport import BotSupport
from hedgerow.core.canon import digest
from hedgerow.core.errors import HedgerowError
from hedgerow.core.game import GameDef, GameSpec, VariantSpec


class ExtensionRelay:
    """Calls a game's extension hooks with only a table's chosen variants active."""

    def __init__(
        self, pm: pluggy.PluginManager, inactive: Sequence[object], active: tuple[str, ...]
    ):
        self._pm = pm
        self._inactive = list(inactive)
        self.active = active
        self._callers: dict[str, Callable[..., Any]] = {}

    def __getattr__(self, name: str) -> Callable[..., Any]:
        if name.startswith("_"):
            raise AttributeError(name)
        caller = self._callers.get(name)
        if caller is None:
            if not hasattr(self._pm.hook, name):
                raise AttributeError(f"no extension hook named {name!r}")
            caller = self._pm.subset_hook_caller(name, remove_plugins=self._inactive)
            self._callers[name] = caller
        return caller


@dataclass(frozen=True, slots=True)
class Ruleset:
    """The rules one table runs: the game, its chosen variants, the bound `GameDef`, and
    beside it what the game offers its bots (`BotSupport`, when it offers any)."""

    spec: GameSpec
    variants: tuple[VariantSpec, ...]
    gamedef: GameDef[Any, Any]
    #: The table's relay to the game's extension hooks (the ``ext`` its rules were built
    #: with), for code outside the rules that must answer as this table's variants would,
    #: e.g. a UI previewing a score under a variant's scoring rule.
    ext: ExtensionRelay | None = None
    #: What the game offers its bots at this table (``GameSpec.bots(ext)``), or None: read
    #: by the bots' `hedgerow.core.botmodel.BotModel` only, never by the engine.
    bots: BotSupport[Any, Any] | None = None

    @property
    def variant_names(self) -> tuple[str, ...]:
        """The chosen variants' names, sorted."""
        return tuple(v.name for v in self.variants)

    @property
    def fingerprint(self) -> str:
        """``game@version`` then ``+variant@version`` for each variant by name."""
        parts = [f"{self.spec.name}@{self.spec.version}"]
        parts += [f"+{v.name}@{v.version}" for v in self.variants]
        return "".join(parts)

    @property
    def fingerprint_hash(self) -> bytes:
        """BLAKE2b-256 of the fingerprint string: a fixed-size name for the rules (the wire
        carries the string itself; see docs/protocol.md)."""
        return digest(b"hedgerow-rules-v1", self.fingerprint.encode())

    @property
    def player_range(self) -> tuple[int, int]:
        """The seat counts the game and every chosen variant allow: ``(low, high)``."""
        low, high = self.spec.min_players, self.spec.max_players
        for v in self.variants:
            if v.players is not None:
                low, high = max(low, v.players[0]), min(high, v.players[1])
        return low, high

    @property
    def players_default(self) -> int:
        """The seat count used when none is given: the game's default, moved into the
        range the chosen variants allow (Flourish's cooperative variant starts at 2)."""
        low, high = self.player_range
        return min(max(self.spec.players_default, low), high)

    def check_players(self, players: int) -> None:
        """Raise `HedgerowError` unless the game and every variant allow ``players`` seats."""
        low, high = self.player_range
        if not low <= players <= high:
            what = self.spec.name + "".join(f" + {v.name}" for v in self.variants)
            seats = f"{low} player{'s' if low != 1 else ''}" if low == high else \
                f"{low} to {high} players"
            raise HedgerowError(f"{what} is for {seats}, not {players}", code="bad_players")


def make_ruleset(
    pm: pluggy.PluginManager,
    spec: GameSpec,
    chosen: Sequence[VariantSpec],
    inactive: Sequence[object],
    players: int | None,
) -> Ruleset:
    """Check the chosen variants fit together and bind the game's rules for them."""
    variants = tuple(sorted(chosen, key=lambda v: v.name))
    names = {v.name for v in variants}
    for v in variants:
        clash = sorted(names.intersection(v.conflicts))
        if clash:
            raise HedgerowError(
                f"variant {v.name!r} cannot be combined with {', '.join(clash)}",
                code="variant_conflict",
            )
    relay = ExtensionRelay(pm, inactive, tuple(v.name for v in variants))
    bots = spec.bots(relay) if spec.bots is not None else None
    ruleset = Ruleset(spec, variants, spec.build(relay), relay, bots)
    if players is not None:
        ruleset.check_players(players)
    return ruleset

"""The plugin host: the one object that owns the pluggy manager and touches ``pm.hook``.

It loads the built-in plugins from `DEFAULT_PLUGINS` and third-party ones from the
``hedgerow`` entry-point group, collects what they register (games, variants, bots, each
with the distribution it came from), and binds a game with a chosen set of variants into
a `Ruleset` for one table.

Loading works like pytest's:

* ``HEDGEROW_DISABLE_PLUGIN_AUTOLOAD`` (any non-empty value) skips entry points;
* ``HEDGEROW_BLOCK_PLUGINS="a,b"`` or ``block=("a", "b")`` blocks plugins by name (a
  built-in's name in `DEFAULT_PLUGINS`, or an entry point's name);
* ``HEDGEROW_PLUGINS="pkg.mod,other.mod"`` or ``extra=(...)`` registers modules by import path.
"""

from __future__ import annotations

import importlib
import os
import types
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import pluggy

from hedgerow.core import botchoice, entrypoints, hookspecs
from hedgerow.core.errors import HedgerowError
from hedgerow.core.game import BotSpec, GameSpec, VariantSpec

if TYPE_CHECKING:  # imported when a table or a seat client asks; `hedgerow games` never does
    from hedgerow.core.ruleset import Ruleset
    from hedgerow.core.ui import GameUI

#: Built-in plugins as (name, module), registered exactly as third-party plugins are.
DEFAULT_PLUGINS: tuple[tuple[str, str], ...] = (
    ("random-bot", "hedgerow.plugins.bots.random_bot"),
    ("greedy-bot", "hedgerow.plugins.bots.greedy"),
    ("ismcts-bot", "hedgerow.plugins.bots.ismcts"),
    ("petals", "hedgerow.plugins.petals"),
    ("petals-ui", "hedgerow.plugins.petals.ui_plugin"),
    ("harmony", "hedgerow.plugins.petals.harmony"),
    ("flowers", "hedgerow.plugins.flowers"),
    ("summer", "hedgerow.plugins.flowers.summer"),
    ("mandala", "hedgerow.plugins.mandala"),
    ("draw-four", "hedgerow.plugins.mandala.drawfour"),
    ("flourish", "hedgerow.plugins.flourish"),
    ("flourish-cooperative", "hedgerow.plugins.flourish.cooperative"),
    ("flourish-garden-show", "hedgerow.plugins.flourish.garden_show"),
    ("flourish-compost", "hedgerow.plugins.flourish.compost"),
    ("flourish-solo", "hedgerow.plugins.flourish.solo"),
)

ENTRY_POINT_GROUP = hookspecs.PROJECT


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a registration came from: the plugin's name and its distribution."""

    plugin: str
    distribution: str
    version: str


def _csv_env(name: str) -> tuple[str, ...]:
    return tuple(p.strip() for p in os.environ.get(name, "").split(",") if p.strip())


def _hedgerow_version() -> str:
    # "0+unknown": running from a source tree that is not installed
    return entrypoints.version("hedgerow") or "0+unknown"


_HOOKABLE_WRAPPERS = (staticmethod, classmethod, types.MethodType)
_ABSENT = object()


class _Manager(pluggy.PluginManager):
    """pluggy's manager, finding a module plugin's hook implementations sooner.

    pluggy looks at every name a registered object has with `inspect.getattr_static`
    (so that no property runs); a game's module holds a few hundred names, its imports
    included, and that look-up was most of building a host.  For a plain module the value
    is its ``__dict__`` entry and nothing runs to read it, so a plain function is judged by
    its ``hedgerow_impl`` marker here and a value pluggy can never call is skipped; anything
    else (a class, an instance, a wrapped method) is pluggy's own `parse_hookimpl_opts`.
    The same implementations are found (tests/core/test_pluginhost.py checks it).
    """

    def parse_hookimpl_opts(self, plugin: object, name: str) -> pluggy.HookimplOpts | None:
        if type(plugin) is types.ModuleType:
            value = plugin.__dict__.get(name, _ABSENT)
            if type(value) is types.FunctionType:
                opts = getattr(value, self.project_name + "_impl", None)
                return opts if isinstance(opts, dict) else None  # type: ignore[return-value]
            if value is not _ABSENT and not isinstance(value, _HOOKABLE_WRAPPERS):
                return None
        return super().parse_hookimpl_opts(plugin, name)


class PluginHost:
    """Loads plugins and answers: which games, variants and bots exist, and with what rules."""

    def __init__(
        self,
        *,
        builtins: Sequence[tuple[str, str]] = DEFAULT_PLUGINS,
        autoload: bool | None = None,
        block: Iterable[str] = (),
        extra: Iterable[str | object] = (),
    ) -> None:
        self.pm: pluggy.PluginManager = _Manager(hookspecs.PROJECT)
        self.pm.add_hookspecs(hookspecs)
        # Historic: every plugin registered from now on gets its hedgerow_addhooks call.
        self.pm.hook.hedgerow_addhooks.call_historic(kwargs={"pluginmanager": self.pm})
        self._origins: dict[str, Origin] = {}
        blocked = set(block) | set(_csv_env("HEDGEROW_BLOCK_PLUGINS"))
        for name in sorted(blocked):
            self.pm.set_blocked(name)
        own = Origin("", "hedgerow", _hedgerow_version())
        for name, module in builtins:
            if name not in blocked:
                self._register(importlib.import_module(module), name, own)
        for item in (*_csv_env("HEDGEROW_PLUGINS"), *extra):
            plugin = importlib.import_module(item) if isinstance(item, str) else item
            local = item if isinstance(item, str) else None
            self._register(plugin, local, Origin("", "(local)", ""))
        if autoload is None:
            autoload = not os.environ.get("HEDGEROW_DISABLE_PLUGIN_AUTOLOAD")
        #: plugins that failed to load, as (name, one-line reason); `hedgerow games` shows them
        self.broken: list[tuple[str, str]] = []
        if autoload:
            self._load_entry_points()
        self.games: dict[str, GameSpec] = {}
        self.variants: dict[tuple[str, str], VariantSpec] = {}
        self.bots: dict[str, BotSpec] = {}
        self.origin_of: dict[object, Origin] = {}
        self._collect()

    # -- loading -------------------------------------------------------------------------

    def _register(self, plugin: object, name: str | None, origin: Origin) -> None:
        registered = self.pm.register(plugin, name=name)
        if registered is None:
            return
        self._origins[registered] = Origin(registered, origin.distribution, origin.version)

    def _load_entry_points(self) -> None:
        """Register every ``hedgerow`` entry point; one that fails to load is reported.

        The first distribution on the path that declares a name wins; the scan is
        `hedgerow.core.entrypoints` (what `importlib.metadata` finds, without its import).
        """
        seen: set[str] = set()
        for ep in entrypoints.entry_points(ENTRY_POINT_GROUP):
            if ep.name in seen:
                continue
            seen.add(ep.name)
            if self.pm.is_blocked(ep.name) or self.pm.has_plugin(ep.name):
                continue
            origin = Origin(ep.name, ep.distribution, ep.version)
            try:
                plugin = ep.load()
                self._register(plugin, ep.name, origin)
            except Exception as exc:  # a third party's bug must not stop Hedgerow
                self.broken.append(
                    (
                        ep.name,
                        f"{origin.distribution} {origin.version}: {type(exc).__name__}: {exc}",
                    )
                )

    def _each_impl(self, hook_name: str, make_register: Callable[[Origin], Callable[[Any], None]]):
        caller = getattr(self.pm.hook, hook_name)
        for impl in caller.get_hookimpls():
            origin = self._origins.get(impl.plugin_name, Origin(impl.plugin_name, "?", "?"))
            impl.function(make_register(origin))

    def _collect(self) -> None:
        def register_game(origin: Origin) -> Callable[[GameSpec], None]:
            def register(spec: GameSpec) -> None:
                if spec.name in self.games:
                    raise HedgerowError(
                        f"game {spec.name!r} from {origin.plugin} is already registered "
                        f"by {self.origin_of[self.games[spec.name]].plugin}"
                    )
                self.games[spec.name] = spec
                self.origin_of[spec] = origin

            return register

        def register_variant(origin: Origin) -> Callable[[VariantSpec], None]:
            def register(spec: VariantSpec) -> None:
                key = (spec.game, spec.name)
                if key in self.variants:
                    raise HedgerowError(f"variant {spec.name!r} of {spec.game!r} registered twice")
                self.variants[key] = spec
                self.origin_of[spec] = origin
                self.pm.register(spec.impl, name=f"variant:{spec.game}:{spec.name}")

            return register

        def register_bot(origin: Origin) -> Callable[[BotSpec], None]:
            def register(spec: BotSpec) -> None:
                if spec.name in self.bots:
                    raise HedgerowError(f"bot {spec.name!r} registered twice")
                self.bots[spec.name] = spec
                self.origin_of[spec] = origin

            return register

        self._each_impl("hedgerow_register_games", register_game)
        self._each_impl("hedgerow_register_variants", register_variant)
        for key in [k for k in self.variants if k[0] not in self.games]:
            spec = self.variants.pop(key)
            self.pm.unregister(spec.impl)
            origin = self.origin_of.pop(spec)
            self.broken.append(
                (
                    origin.plugin,
                    f"variant {spec.name!r} needs game {spec.game!r}, which is not installed",
                )
            )
        self._each_impl("hedgerow_register_bots", register_bot)

    # -- questions -----------------------------------------------------------------------

    def game(self, name: str) -> GameSpec:
        """The game called ``name``, or a `HedgerowError` naming the installed ones."""
        try:
            return self.games[name]
        except KeyError:
            choices = ", ".join(sorted(self.games)) or "none installed"
            raise HedgerowError(
                f"unknown game {name!r} (choose from: {choices})", code="unknown_game"
            ) from None

    def variants_of(self, game: str) -> list[VariantSpec]:
        """The variants installed for ``game``, by name."""
        return sorted((v for (g, _), v in self.variants.items() if g == game), key=lambda v: v.name)

    def bot(self, name: str, game: str | None = None) -> BotSpec:
        """The bot called ``name`` (that can play ``game``), or a `HedgerowError`.

        ``name`` may carry the bot's parameters, ``"ismcts:1s"`` (`hedgerow.core.botchoice`):
        the spec comes back with them chosen, once the bot accepts them."""
        name, params = botchoice.parse(name)
        spec = self.bots.get(name)
        if spec is None or (game is not None and not spec.plays(game)):
            names = sorted(b.name for b in self.bots.values() if game is None or b.plays(game))
            where = f" for {game}" if game else ""
            raise HedgerowError(
                f"unknown bot {name!r}{where} (choose from: {', '.join(names)})", code="unknown_bot"
            )
        return botchoice.bind(spec, params) if params else spec

    def ruleset(
        self, game: str, variants: Iterable[str] = (), players: int | None = None
    ) -> Ruleset:
        """Bind ``game`` with ``variants`` for a table of ``players`` seats.

        Raises `HedgerowError` for an unknown game or variant, a variant named twice,
        conflicting variants, or a player count outside what the game and variants allow.
        """
        spec = self.game(game)
        chosen: list[VariantSpec] = []
        for name in variants:
            found = self.variants.get((game, name))
            if found is None:
                names = ", ".join(v.name for v in self.variants_of(game)) or "none installed"
                raise HedgerowError(
                    f"unknown variant {name!r} for {game} (choose from: {names})",
                    code="unknown_variant",
                )
            if found in chosen:
                raise HedgerowError(f"variant {name!r} is named twice", code="bad_variant")
            chosen.append(found)
        from hedgerow.core.ruleset import make_ruleset

        # A variant's `impl` is the very object registered with the plugin manager.
        inactive = [v.impl for v in self.variants.values() if v not in chosen]
        return make_ruleset(self.pm, spec, chosen, inactive, players)

    # -- the seat client's hook (typed; the client never touches pm.hook) -----------------

    def game_ui(self, game: str, ruleset: Ruleset | None = None) -> GameUI | None:
        """The UI object a plugin registers for ``game`` at a table with ``ruleset``
        (``hedgerow_game_ui``), or None.

        Raises `HedgerowError` when the answer is not a `hedgerow.core.ui.GameUI`.
        """
        from hedgerow.core.ui import GameUI

        found = self.pm.hook.hedgerow_game_ui(game=game, ruleset=ruleset)
        if found is not None and not isinstance(found, GameUI):
            raise HedgerowError(
                f"hedgerow_game_ui for {game!r} returned {type(found).__name__}, not a GameUI"
            )
        return found

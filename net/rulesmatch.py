"""Do two peers run the same rules?  What a joiner declares, and how the host compares.

A joiner may not know a table's rules before it asks (joining by address), so its `Hello`
lists every game and variant it has installed, with versions (``Hello.plugins``):

* a game as ``(GAME, VERSION)``, e.g. ``("petals", "1.0.0")``;
* a variant as ``(GAME+VARIANT, VERSION)``, e.g. ``("petals+harmony", "1.0.0")``.

``Hello.fingerprint`` is the table fingerprint the joiner expects, or ``*`` when it does not
know yet.  The host refuses the Hello (``RULES_MISMATCH``) when the fingerprint is neither
``*`` nor its own, or when the list lacks, or has another version of, the game or a variant
the table runs; the refusal, sent to the joiner, names what differs and where to get it
("you lack variant harmony 1.0.0 (install the package hedgerow 0.1.0)").
A seated joiner then binds the rules from the table's fingerprint (`ruleset_for`) and
checks that it reproduces the fingerprint exactly.
"""

from __future__ import annotations

from collections.abc import Callable

from hedgerow.core.errors import HedgerowError
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset

ANY_RULES = "*"
#: The distribution `PluginHost` gives a plugin it was handed or loaded by module name.
LOCAL = "(local)"
#: What a networked table's fingerprint ends with when its deck is open (§10.12); a table
#: without it is sealed.
OPEN_DECK = "#open-deck"


def table_fingerprint(ruleset: Ruleset, *, open_deck: bool) -> str:
    """The fingerprint of a networked table of ``ruleset``: the rules', marked when the deck
    is open."""
    return ruleset.fingerprint + (OPEN_DECK if open_deck else "")


def split_deck(fingerprint: str) -> tuple[str, bool]:
    """``(rules fingerprint, open deck)`` of a table fingerprint."""
    if fingerprint.endswith(OPEN_DECK):
        return fingerprint[: -len(OPEN_DECK)], True
    return fingerprint, False


def installed(plugins: PluginHost) -> tuple[tuple[str, str], ...]:
    """Every game and variant ``plugins`` has loaded, as ``Hello.plugins`` lists them."""
    items = [(name, spec.version) for name, spec in plugins.games.items()]
    items += [(f"{game}+{name}", spec.version) for (game, name), spec in plugins.variants.items()]
    return tuple(sorted(items))


def required(ruleset: Ruleset) -> tuple[tuple[str, str, str], ...]:
    """What a table needs from a peer: (kind, plugin key, version) for its game and variants."""
    game = ruleset.spec
    out = [("game", game.name, game.version)]
    out += [("variant", f"{game.name}+{v.name}", v.version) for v in ruleset.variants]
    return tuple(out)


def mismatch(ruleset: Ruleset, fingerprint: str, plugins: tuple[tuple[str, str], ...],
             package: Callable[[str], str | None] | None = None, *,
             table: str | None = None) -> str | None:
    """Why a joiner whose ``Hello`` says ``fingerprint`` and ``plugins`` cannot sit at a
    table of ``ruleset`` (in words for the joiner: "you lack ..."), or None if it can.
    ``table`` is the table's fingerprint (the rules', marked when its deck is open).

    ``package(key)`` says where a game or variant came from on the host (`packages`:
    "install the package hedgerow-petals-wilt 1.0.0"), so the joiner learns what to get.
    """
    table = table or ruleset.fingerprint
    if fingerprint not in (ANY_RULES, table):
        return f"you asked for {fingerprint}, but the table runs {table}"
    have = dict(plugins)
    problems = []
    for kind, key, version in required(ruleset):
        label = key.split("+", 1)[1] if kind == "variant" else key
        source = package(key) if package is not None else None
        where = f" ({source})" if source else ""
        theirs = have.get(key)
        if theirs is None:
            problems.append(f"you lack {kind} {label} {version}{where}")
        elif theirs != version:
            problems.append(f"you have {kind} {label} {theirs}, the table runs {version}"
                            f"{where}")
    if not problems:
        return None
    return "; ".join(problems) + f" (table rules: {ruleset.fingerprint})"


def packages(plugins: PluginHost) -> Callable[[str], str | None]:
    """``package(key)`` for `mismatch`: where a game (``petals``) or variant
    (``petals+harmony``) came from on ``plugins``, as advice to a joiner that lacks it ("install
    the package hedgerow-petals-wilt 1.0.0", or for a plugin module loaded by name "load the
    plugin module wilt: hedgerow -p wilt ..."), or None when the host cannot say."""

    def package(key: str) -> str | None:
        game, _, variant = key.partition("+")
        spec = plugins.variants.get((game, variant)) if variant else plugins.games.get(game)
        origin = plugins.origin_of.get(spec) if spec is not None else None
        if origin is None or origin.distribution in ("", "?"):
            return None
        if origin.distribution == LOCAL:  # a module path, or an object handed over (no name)
            module = origin.plugin
            named = bool(module) and all(part.isidentifier() for part in module.split("."))
            return f"load the plugin module {module}: hedgerow -p {module} ..." if named else None
        return f"install the package {origin.distribution} {origin.version}".strip()

    return package


def parse_fingerprint(fingerprint: str) -> tuple[tuple[str, str], tuple[tuple[str, str], ...]]:
    """``((game, version), ((variant, version), ...))`` from ``game@v+variant@v...``."""
    parts = fingerprint.split("+")
    try:
        split = [p.rsplit("@", 1) for p in parts]
        if any(len(p) != 2 or not p[0] or not p[1] for p in split):
            raise ValueError
        pairs = [(p[0], p[1]) for p in split]
    except ValueError:
        raise HedgerowError(f"the table's rules {fingerprint!r} are not a fingerprint") from None
    game, *variants = pairs
    return game, tuple(variants)


def ruleset_for(plugins: PluginHost, fingerprint: str, players: int) -> Ruleset:
    """Bind the rules a table's fingerprint names (an open deck's mark aside);
    `HedgerowError` saying what is missing."""
    fingerprint, _ = split_deck(fingerprint)
    (game, version), variants = parse_fingerprint(fingerprint)
    have = dict(installed(plugins))
    problems = []
    if have.get(game) != version:
        mine = have.get(game)
        problems.append(f"game {game} {version}" + (f" (you have {mine})" if mine else ""))
    for name, v in variants:
        mine = have.get(f"{game}+{name}")
        if mine != v:
            problems.append(f"variant {name} {v}" + (f" (you have {mine})" if mine else ""))
    if problems:
        raise HedgerowError(f"this table runs {fingerprint}; you lack " + ", ".join(problems),
                            code="rules_mismatch")
    ruleset = plugins.ruleset(game, [name for name, _ in variants], players)
    if ruleset.fingerprint != fingerprint:
        raise HedgerowError(f"this table runs {fingerprint}, but your plugins bind "
                            f"{ruleset.fingerprint}", code="rules_mismatch")
    return ruleset

"""Choosing a bot by name: ``"name"`` or ``"name:params"`` -> a checked `BotSpec`.

Every place a person names a bot (``hedgerow play --bots``, ``simulate --bots``,
``host``/``join --bot``, a tournament) goes through `parse` and `resolve`, so the same text
means the same bot everywhere and a mistake gets the same clear error: an unknown bot
names the installed ones, bad parameters say what the bot accepts.

The parameters are the text after the first ``:``, passed as written to the bot's
``BotSpec.check`` and, once accepted, to the bot as ``BotContext.params``
(``ismcts:1s`` -> ``"1s"``).  What they mean is each bot's own business.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Protocol

from hedgerow.core.errors import HedgerowError
from hedgerow.core.game import BotSpec


class BotFinder(Protocol):
    """What `resolve` needs of the plugin host: ``PluginHost.bot``."""

    def bot(self, name: str, game: str | None = None) -> BotSpec: ...


def parse(text: str) -> tuple[str, str]:
    """``"ismcts:1s"`` -> ``("ismcts", "1s")``; ``"greedy"`` -> ``("greedy", "")``.

    Raises `HedgerowError` (code ``bad_bot``) for an empty name or an empty parameter part.
    """
    name, sep, params = text.strip().partition(":")
    name, params = name.strip(), params.strip()
    if not name:
        raise HedgerowError(f"a bot choice needs a name before any ':' (got {text!r})",
                            code="bad_bot")
    if sep and not params:
        raise HedgerowError(f"bot {name!r}: nothing after ':' (write {name} or "
                            f"{name}:PARAMS)", code="bad_bot")
    return name, params


def resolve(plugins: BotFinder, text: str, game: str | None = None) -> BotSpec:
    """The bot ``text`` names (``name[:params]``), its parameters checked, for ``game``.

    Raises `HedgerowError`: ``unknown_bot`` (naming the installed bots) or ``bad_bot``
    (what is wrong with the parameters and what the bot accepts).
    """
    name, params = parse(text)
    return bind(plugins.bot(name, game), params)


#: The longest `BotSpec.params_help` an error about a bot's parameters repeats.
SHORT_HELP = 80


def bind(spec: BotSpec, params: str) -> BotSpec:
    """``spec`` with ``params`` chosen, once its ``check`` accepts them; `HedgerowError`
    (code ``bad_bot``) saying what is wrong and what the bot accepts otherwise."""
    try:
        spec.check(params)
    except ValueError as exc:
        # One line: the problem, and what the bot accepts when that is short; a long help
        # (ismcts's) is one command away rather than appended.
        if len(spec.params_help) > SHORT_HELP:
            more = " (hedgerow games lists the parameters it takes)"
        else:
            more = f" (it accepts: {spec.params_help})" if spec.params_help else ""
        raise HedgerowError(f"bot {spec.name!r}: {exc}{more}", code="bad_bot") from None
    return replace(spec, params=params) if params != spec.params else spec


def split_list(text: str) -> list[str]:
    """Comma-separated bot choices, as written: ``"ismcts:2000,c=1.0,greedy"`` ->
    ``["ismcts:2000,c=1.0", "greedy"]``.

    A bot's own parameters are comma separated too (``ismcts:2000,c=1.0``), so a piece
    with an ``=`` and no ``:`` (a ``key=value`` parameter: a bot's name never holds an
    ``=``) belongs to the bot before it.  Empty pieces are kept, for the caller to refuse;
    a leading ``key=value`` stays a piece of its own (no bot to belong to), which then
    fails as an unknown bot.
    """
    out: list[str] = []
    for piece in text.split(","):
        bare = piece.strip()
        if out and out[-1] and "=" in bare and ":" not in bare:
            out[-1] = f"{out[-1]},{bare}"
        else:
            out.append(bare)
    return out


def resolve_list(plugins: BotFinder, text: str, game: str | None = None,
                 option: str = "--bots") -> list[BotSpec]:
    """Comma-separated choices (``"ismcts:1s,greedy"``, `split_list`), each resolved; at
    least one."""
    parts = [p for p in split_list(text) if p]
    if not parts:
        raise HedgerowError(f"{option} needs at least one bot name", code="bad_bot")
    return [resolve(plugins, p, game) for p in parts]


#: The built-in bots, best first, where Hedgerow picks one for a player: the opponents of
#: ``hedgerow play`` (without ``--bots``), the lobby's seats, the bot that takes a departed
#: player's seat.  ``greedy`` first: it moves at once and, measured in bench/README.md, plays
#: as well as or better than ``ismcts`` at a second a move in most games today.
PREFERENCE = ("greedy", "ismcts", "random")


def best_first(names: Iterable[str]) -> list[str]:
    """``names`` (bots that play the game) best first: `PREFERENCE`, then the others by
    name."""
    rank = {name: i for i, name in enumerate(PREFERENCE)}
    return sorted(set(names), key=lambda n: (rank.get(n, len(rank)), n))

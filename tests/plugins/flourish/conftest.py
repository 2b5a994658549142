"""Fixtures for the Flourish tests: the host, rulesets by variants, and hand-built tables."""

from __future__ import annotations

from collections.abc import Sequence

from hedgerow.core import Action, Refusal
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.plugins.flourish.cards import IDS
from hedgerow.plugins.flourish.setup import fresh_game
from hedgerow.plugins.flourish.state import NO_LUCK, Config, State


def ruleset(plugins: PluginHost, *variants: str, players: int | None = None) -> Ruleset:
    """Flourish with ``variants``."""
    return plugins.ruleset("flourish", variants, players=players)


def make_state(cfg: Config, hands: Sequence[Sequence[int]],
               gardens: Sequence[Sequence[int]] | None = None, *, turn: int = 0,
               deck: Sequence[int] | None = None, mcg: Sequence[int] = (),
               compost: Sequence[int] = ()) -> State:
    """A table mid-game: the given hands and gardens; by default every other card is in the
    deck in id order."""
    gardens = gardens if gardens is not None else [()] * cfg.gardens
    used = {c for h in hands for c in h} | {c for g in gardens for c in g}
    used |= set(mcg) | set(compost)
    if deck is None:
        deck = [c for c in IDS if c not in used]
    return fresh_game(cfg, 0)._replace(
        luck=NO_LUCK, turn=turn, hands=tuple(tuple(sorted(h)) for h in hands),
        gardens=tuple(tuple(g) for g in gardens), deck=tuple(deck), mcg=tuple(mcg),
        compost=tuple(compost))


def step(rules: Ruleset, state: State, choices: dict[int, Action]) -> State:
    """Apply a whole simultaneous step (in seat order), every choice legal."""
    for seat in sorted(choices):
        result = rules.gamedef.apply(state, seat, choices[seat])
        assert not isinstance(result, Refusal), result
        state = result
    return state


def turn(play: int, left: int, right: int, compost: int | None = None) -> Action:
    """``turn(play, left, right)`` (three or more players)."""
    extra = {} if compost is None else {"compost": compost}
    return Action.of("turn", play=play, left=left, right=right, **extra)


def pair(play: int, a: int, b: int, compost: int | None = None) -> Action:
    """``turn(play, passed=(a, b))`` (two players, solo)."""
    extra = {} if compost is None else {"compost": compost}
    return Action.of("turn", play=play, passed=tuple(sorted((a, b))), **extra)


def final(*cards: int) -> Action:
    """``final(play=(a, b, c))``."""
    return Action.of("final", play=tuple(sorted(cards)))

"""Binding the Flourish rules for one table: ``build(ext)``.

The `GameDef` functions are the pure rules of the sibling modules; ``build`` adds the
table's extension relay ``ext``, called only at setup (compost allowed? how many games?),
around the variant's own luck, at the end of each game and for the outcome — never per
move.  `bind` is that binding, which the bots' judgement shares
(`hedgerow.plugins.flourish.bots`: its ``score`` asks the end-of-game hooks too, once per
set of gardens it is asked about).  One seat plays solo against McGregor: that is the
rules for one player, not a variant.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

from hedgerow.core import (
    Action,
    Chance,
    ChanceOutcome,
    GameDef,
    Outcome,
    Refusal,
    SetupContext,
)
from hedgerow.core.game import Extensions
from hedgerow.plugins.flourish import describe, setup, turn, view
from hedgerow.plugins.flourish.choices import legal_actions
from hedgerow.plugins.flourish.state import (
    DEAL,
    EXTRA,
    MCGREGOR,
    OVER,
    RESHUFFLE,
    Config,
    GameEnd,
    Result,
    State,
    View,
)

NAME = "flourish"


def active_seats(state: State) -> tuple[int, ...]:
    """Every seat still to choose this turn; () while chance is pending or once over."""
    if state.luck or state.turn >= OVER:
        return ()
    return tuple(s for s, c in enumerate(state.choices) if c is None)


def chance(state: State) -> Chance | None:
    """The luck ``state`` waits for, if any (see `hedgerow.plugins.flourish.state.State`)."""
    luck = state.luck
    if not luck:
        return None
    if luck == DEAL:
        return setup.deal_chance(state)
    if luck == RESHUFFLE:
        return turn.reshuffle_chance(state)
    if luck == MCGREGOR:
        return turn.mcgregor_chance(state)
    return state.extra_luck


class Bound(NamedTuple):
    """A table's extension hooks as the rules call them (`bind`)."""

    hooks: turn.Hooks
    #: ``outcome_of(result)``: the table's ``flourish_outcome``.
    outcome_of: Callable[[Result], Outcome]
    #: ``medal_raise(players)``: the sum of the table's ``flourish_medal_raise`` answers.
    medal_raise: Callable[[int], int]


def bind(ext: Extensions) -> Bound:
    """The hooks of the table behind ``ext``, bound once."""

    def game_end(players: int, game: int, gardens: tuple[tuple[int, ...], ...],
                 extras: tuple[object, ...]) -> GameEnd:
        answer: GameEnd = ext.flourish_game_end(players=players, game=game, gardens=gardens,
                                                extras=extras)
        return answer

    def extra_chance(players: int, extras: tuple[object, ...]) -> Chance | None:
        answer: Chance | None = ext.flourish_extra_chance(players=players, extras=extras)
        return answer

    def extra_resolve(players: int, extras: tuple[object, ...], outcome: ChanceOutcome,
                      ) -> tuple[object, ...]:
        answer: tuple[object, ...] = ext.flourish_extra_resolve(
            players=players, extras=extras, outcome=outcome)
        return answer

    def medal_raise(players: int) -> int:
        return sum(r for r in ext.flourish_medal_raise(players=players) if r)

    def outcome_of(result: Result) -> Outcome:
        answer: Outcome = ext.flourish_outcome(result=result)
        return answer

    return Bound(turn.Hooks(game_end, extra_chance, extra_resolve), outcome_of, medal_raise)


def build(ext: Extensions) -> GameDef[State, View]:
    """The Flourish rules with the variants behind ``ext``."""
    hooks, outcome_of, medal_raise = bind(ext)

    def setup_(ctx: SetupContext) -> State:
        players = ctx.players
        cfg = Config(players=players, solo=players == 1,
                     compost=bool(ext.flourish_compost(players=players)),
                     games=int(ext.flourish_games(players=players)))
        return setup.setup(cfg)

    def resolve(state: State, outcome: ChanceOutcome) -> State:
        luck = state.luck
        if luck == DEAL:
            dealt = setup.deal(state, outcome)
            return turn.extra_settled(dealt, hooks) if state.game == 0 else dealt
        if luck == RESHUFFLE:
            return turn.reshuffle(state, outcome)
        if luck == MCGREGOR:
            return turn.mcgregor_shuffle(state, outcome)
        assert luck == EXTRA
        return turn.extra_resolve(state, outcome, hooks)

    def apply(state: State, seat: int, action: Action) -> State | Refusal:
        return turn.apply(state, seat, action, hooks)

    def outcome(state: State) -> Outcome | None:
        if state.luck or state.turn < OVER:
            return None
        return outcome_of(Result(state.cfg, state.history, state.extras,
                                 medal_raise(state.cfg.players)))

    def legal(state: State, seat: int) -> Sequence[Action]:
        return legal_actions(state, seat)

    return GameDef(
        name=NAME,
        setup=setup_,
        active_seats=active_seats,
        legal_actions=legal,
        apply=apply,
        view=view.view,
        outcome=outcome,
        describe=describe.describe,
        hash_data=view.hash_data,
        chance=chance,
        resolve=resolve,
    )


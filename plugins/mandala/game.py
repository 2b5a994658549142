"""Binding the Mandala rules for one table: ``build(ext)``.

The `GameDef` functions are the pure rules of the other modules; ``build`` adds the table's
extension relay ``ext``: it asks ``ext.mandala_draw_rule`` once for the table's `DrawRule`,
and binds ``ext.mandala_game_end`` (called after each resolution and each pass) and
``ext.mandala_winner`` (the outcome, through `ranker`, which the bots' judgement shares:
`hedgerow.plugins.mandala.bots`).  No hook is called per move.

Chance: the deal after setup, and a reshuffle of the discard pile whenever a draw finds
the deck empty (``"deal"`` and ``"reshuffle"`` phases).  At a sealed table a play names the
hidden cards it takes (``name_cards`` is `choices.name_cards`; see `hands`).
"""

from __future__ import annotations

from hedgerow.core import (
    Action,
    Chance,
    ChanceOutcome,
    GameDef,
    Outcome,
    Ranked,
    Refusal,
)
from hedgerow.core.game import Extensions
from hedgerow.plugins.mandala import choices, describe, setup, turn, view
from hedgerow.plugins.mandala.drawing import STANDARD, DrawRule
from hedgerow.plugins.mandala.ranking import Rank, standard_end, standard_outcome
from hedgerow.plugins.mandala.state import DEAL, OVER, RESHUFFLE, State, View


def chance(state: State) -> Chance | None:
    """The deal before play, a reshuffle when a draw found the deck empty, else None."""
    if state.phase == DEAL:
        return setup.deal_chance(state)
    if state.phase == RESHUFFLE:
        return turn.reshuffle_chance(state)
    return None


def ranker(ext: Extensions) -> Rank:
    """The table's final scoring of the tiles (``ext.mandala_winner``, else the standard)."""

    def rank(tiles: tuple[tuple[int, ...], ...], ended: str) -> Ranked:
        found = ext.mandala_winner(tiles=tiles, ended=ended)
        return found if found is not None else standard_outcome(tiles, ended)

    return rank


def build(ext: Extensions) -> GameDef[State, View]:
    """The Mandala rules with the variants behind ``ext``."""
    found = ext.mandala_draw_rule()
    rule: DrawRule = found if found is not None else STANDARD

    def end(tiles: tuple[tuple[int, ...], ...], open_mandalas: int, passes: int,
            players: int) -> str:
        reason = ext.mandala_game_end(tiles=tiles, open_mandalas=open_mandalas,
                                      passes=passes, players=players)
        return standard_end(tiles, open_mandalas, passes, players) if reason is None else reason

    def apply(state: State, seat: int, action: Action) -> State | Refusal:
        return turn.apply(state, seat, action, rule, end)

    def legal_actions(state: State, seat: int) -> tuple[Action, ...]:
        return choices.legal_actions(state, seat, rule)

    rank = ranker(ext)

    def outcome(state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        return rank(state.tiles, state.ended)

    def resolve(state: State, drawn: ChanceOutcome) -> State:
        if state.phase == DEAL:
            return setup.deal(state, drawn)
        return turn.reshuffled(state, drawn, end)

    return GameDef(
        name="mandala",
        setup=setup.setup,
        active_seats=choices.active_seats,
        legal_actions=legal_actions,
        apply=apply,
        view=view.view,
        outcome=outcome,
        describe=describe.describe,
        hash_data=view.hash_data,
        chance=chance,
        resolve=resolve,
        name_cards=choices.name_cards,
    )


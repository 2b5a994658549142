"""Binding the Petals rules for one table: ``build(ext)``.

The `GameDef` functions are the pure rules of the other modules; the only thing ``build``
adds is the table's extension relay ``ext``, which the rules call at the end of a game:
``ext.petals_final_scoring`` when the final round is over (`final_scoring`) and
``ext.petals_winner`` for the outcome.  Nothing calls a hook per move.  `score_rule` asks
``ext.petals_score_rule`` for the figure a seat ranks by, which the bots' judgement counts
(`hedgerow.plugins.petals.bots`); the rules themselves never need it.
"""

from __future__ import annotations

from hedgerow.core import Action, GameDef, Outcome, Refusal
from hedgerow.core.game import Extensions
from hedgerow.plugins.petals import choices, describe, setup, turn, view
from hedgerow.plugins.petals.scorerule import DEFAULT, ScoreRule
from hedgerow.plugins.petals.scoring import Points
from hedgerow.plugins.petals.state import DEAL, OVER, State, View
from hedgerow.plugins.petals.turn import Finish


def _keep(trackers: tuple[Points, ...], remaining: tuple[tuple[int, ...], ...],
          ) -> tuple[Points, ...]:
    return trackers


def active_seats(state: State) -> tuple[int, ...]:
    """The seat to act, or () once the game is over (or before the deal)."""
    return () if state.phase in (OVER, DEAL) else (state.active,)


def final_scoring(ext: Extensions) -> Finish:
    """The table's final scoring (``ext.petals_final_scoring``), as `turn` calls it."""

    def finish(trackers: tuple[Points, ...], remaining: tuple[tuple[int, ...], ...],
               ) -> tuple[Points, ...]:
        return tuple(ext.petals_final_scoring(trackers=trackers, remaining=remaining))

    return finish


def score_rule(ext: Extensions) -> ScoreRule:
    """The figure a seat ranks by at this table (``ext.petals_score_rule``, asked once)."""
    rule = ext.petals_score_rule()
    return rule if isinstance(rule, ScoreRule) else DEFAULT


def build(ext: Extensions) -> GameDef[State, View]:
    """The Petals rules with the variants behind ``ext``."""
    finish = final_scoring(ext)

    def apply(state: State, seat: int, action: Action) -> State | Refusal:
        return turn.apply(state, seat, action, finish)

    def outcome(state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        return ext.petals_winner(trackers=state.trackers)

    def check(state: State, seat: int, action: Action) -> object:
        return turn.apply(state, seat, action, _keep)

    def describe_action(state: State, seat: int, action: Action) -> str:
        return describe.describe(state, seat, action, check)

    return GameDef(
        name="petals",
        setup=setup.setup,
        active_seats=active_seats,
        legal_actions=choices.legal_actions,
        apply=apply,
        view=view.view,
        outcome=outcome,
        describe=describe_action,
        hash_data=view.hash_data,
        chance=setup.deal_chance,
        resolve=setup.deal,
    )

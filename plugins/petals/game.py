"""Binding the Petals rules for one table: ``build(ext)`` and the `GameSpec`.

The `GameDef` functions are the pure rules of the other modules; the only thing ``build``
adds is the table's extension relay ``ext``, which the rules call at the end of a game:
``ext.petals_final_scoring`` when the final round is over and ``ext.petals_winner`` for
the outcome.  ``ext.petals_score_rule`` is asked once, here, for the figure ``score``
counts (`standing`).  Nothing calls a hook per move.
"""

from __future__ import annotations

from hedgerow.core import Action, GameDef, GameSpec, Outcome, Refusal
from hedgerow.core.game import Extensions
from hedgerow.plugins.petals import choices, describe, setup, turn, view
from hedgerow.plugins.petals.evaluate import evaluator
from hedgerow.plugins.petals.preview import previewer
from hedgerow.plugins.petals.sample import sample
from hedgerow.plugins.petals.scorerule import DEFAULT, ScoreRule
from hedgerow.plugins.petals.scoring import Points
from hedgerow.plugins.petals.standing import scorer
from hedgerow.plugins.petals.state import DEAL, OVER, State, View


def _keep(trackers: tuple[Points, ...], remaining: tuple[tuple[int, ...], ...],
          ) -> tuple[Points, ...]:
    return trackers


def active_seats(state: State) -> tuple[int, ...]:
    """The seat to act, or () once the game is over (or before the deal)."""
    return () if state.phase in (OVER, DEAL) else (state.active,)


def build(ext: Extensions) -> GameDef[State, View]:
    """The Petals rules with the variants behind ``ext``."""

    def finish(trackers: tuple[Points, ...], remaining: tuple[tuple[int, ...], ...],
               ) -> tuple[Points, ...]:
        return tuple(ext.petals_final_scoring(trackers=trackers, remaining=remaining))

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

    rule = ext.petals_score_rule()
    if not isinstance(rule, ScoreRule):
        rule = DEFAULT
    evaluate = evaluator(rule, finish)

    return GameDef(
        name="petals",
        setup=setup.setup,
        active_seats=active_seats,
        legal_actions=choices.legal_actions,
        apply=apply,
        view=view.view,
        outcome=outcome,
        describe=describe_action,
        determinize=view.determinize,
        hash_data=view.hash_data,
        chance=setup.deal_chance,
        resolve=setup.deal,
        sample=sample,
        score=scorer(rule),
        evaluate=evaluate,
        evaluate_each=previewer(evaluate, finish),
    )


SPEC = GameSpec(
    name="petals",
    title="Petals",
    # 2.0.0: the deal is a chance node (log entry #0); 2.1.0: at 3 players the two cards
    # set aside come from the shuffled deck (sealed at a sealed table), not from picks.
    version="2.1.0",
    min_players=setup.MIN_PLAYERS,
    max_players=setup.MAX_PLAYERS,
    build=build,
    summary="Grow one shared garden of four-flowered cards; your score is the sum of your "
            "two weakest elements, so keep Fire, Water, Earth and Air in balance.",
    default_players=4,
)

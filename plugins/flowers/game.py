"""Binding the FLOWERS rules for one table: ``build(ext)``.

The `GameDef` functions are the pure rules of the other modules.  ``build`` adds the table's
extension relay ``ext`` at the three points variants change (`hookspecs`), none of them per
move: ``ext.flowers_coverable`` is asked once per card here, and the answers become the
table the planting check reads; ``ext.flowers_setup`` is asked by the first ``setup`` for
each player count (the answer is kept: a table's variants never change);
``ext.flowers_colour_points`` once per garden when the game is over (``outcome``, and the
final scores a view shows).  `Rules` is that binding, with `Rules.score` the full scoring
detail of a garden under the table's variants; the bots' support
(`hedgerow.plugins.flowers.bots`) binds the same `Rules` for its sampler and judgement.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from hedgerow.core import Action, GameDef, Outcome, SetupContext
from hedgerow.core.chance import ChanceOutcome
from hedgerow.core.game import Extensions
from hedgerow.plugins.flowers import choices, describe, ranking, setup, turn, view
from hedgerow.plugins.flowers.cards import ALL_CARDS
from hedgerow.plugins.flowers.garden import Garden
from hedgerow.plugins.flowers.scoring import ColourGroup, GardenScore, Visible, score_garden
from hedgerow.plugins.flowers.setup import Layout
from hedgerow.plugins.flowers.state import OVER, State, View


class Rules(NamedTuple):
    """One table's variant-dependent rules, fixed when its `GameDef` is built.

    * ``layout(players)``: what the table deals (``flowers_setup``, asked once per count);
    * ``coverable[card]``: may ``card`` be covered (``flowers_coverable``, for every id);
    * ``colour_points(groups, visible)``: what each colour group scores
      (``flowers_colour_points``).
    """

    layout: Callable[[int], Layout]
    coverable: tuple[bool, ...]
    colour_points: Callable[[tuple[ColourGroup, ...], Visible], tuple[int, ...]]

    def score(self, garden: Garden, detail: bool = True) -> GardenScore:
        """The final scoring detail of ``garden`` under these rules (see `score_garden`)."""
        return score_garden(garden, self.colour_points, detail)

    def final(self, state: State, detail: bool = True) -> tuple[GardenScore, ...]:
        """Every seat's final scoring detail."""
        return tuple([score_garden(g, self.colour_points, detail) for g in state.gardens])


def bind(ext: Extensions) -> Rules:
    """The `Rules` a table runs, asked of its extension hooks."""

    layouts: dict[int, Layout] = {}  # the answer for each player count, asked once

    def layout(players: int) -> Layout:
        found = layouts.get(players)
        if found is None:
            found = layouts[players] = Layout(*ext.flowers_setup(players=players))
        return found

    def colour_points(groups: tuple[ColourGroup, ...], visible: Visible) -> tuple[int, ...]:
        return tuple(ext.flowers_colour_points(groups=groups, visible=visible))

    coverable = tuple(bool(ext.flowers_coverable(card=card)) for card in ALL_CARDS)
    return Rules(layout, coverable, colour_points)


#: ``active_seats`` by ``state.active + 1``: nobody (-1: before the deal, once over), or one seat.
_ACTIVE: tuple[tuple[int, ...], ...] = ((), *((seat,) for seat in range(setup.MAX_PLAYERS)))


def active_seats(state: State) -> tuple[int, ...]:
    """The seat to act, or () before the deal and once the game is over (no seat is active
    then: ``state.active`` is -1)."""
    return _ACTIVE[state.active + 1]


def build(ext: Extensions) -> GameDef[State, View]:
    """The FLOWERS rules with the variants behind ``ext``."""
    rules = bind(ext)
    coverable = rules.coverable
    apply = turn.make_apply(coverable)

    def setup_table(ctx: SetupContext) -> State:
        return setup.setup(ctx, rules.layout(ctx.players))

    def resolve(state: State, outcome: ChanceOutcome) -> State:
        return setup.deal(state, outcome, coverable)

    def outcome(state: State) -> Outcome | None:
        if state.phase != OVER:
            return None
        final = rules.final(state, detail=False)
        if state.players == 1:
            return ranking.solo_outcome(final[0])
        return ranking.ranked_outcome(final)

    def seat_view(state: State, seat: int) -> View:
        return view.view(state, seat, rules.final(state) if state.phase == OVER else ())

    def describe_action(state: State, seat: int, action: Action) -> str:
        return describe.describe(state, seat, action, apply)

    return GameDef(
        name="flowers",
        setup=setup_table,
        active_seats=active_seats,
        legal_actions=choices.legal_actions,
        apply=apply,
        view=seat_view,
        outcome=outcome,
        describe=describe_action,
        hash_data=view.hash_data,
        chance=setup.deal_chance,
        resolve=resolve,
    )


"""Binding the FLOWERS rules for one table: ``build(ext)`` and the `GameSpec`.

The `GameDef` functions are the pure rules of the other modules.  ``build`` adds the table's
extension relay ``ext`` at the three points variants change (`hookspecs`), none of them per
move: ``ext.flowers_coverable`` is asked once per card here, and the answers become the
table the planting check reads; ``ext.flowers_setup`` is asked by the first ``setup`` for
each player count (the answer is kept: a table's variants never change);
``ext.flowers_colour_points`` once per garden when the game is over (``outcome``, and the
final scores a view shows), and by ``score`` (a seat's total if the game were scored now,
for bots) for each garden it has not just scored.
`Rules` is that binding, with `Rules.score` the full scoring detail of a garden under the
table's variants.  ``sample`` is `sample.make_sample` bound to the table's covering rule
and deal, and ``determinize`` is ``sample`` of the seat's view.  ``evaluate`` (what a
garden promises, for bots) is `evaluate.make_evaluate` bound to the colour rule and ``score``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from hedgerow.core import Action, GameDef, GameSpec, Outcome, Rng, SetupContext
from hedgerow.core.chance import ChanceOutcome
from hedgerow.core.game import Extensions
from hedgerow.plugins.flowers import choices, describe, ranking, setup, turn, view
from hedgerow.plugins.flowers.cards import ALL_CARDS
from hedgerow.plugins.flowers.evaluate import make_evaluate
from hedgerow.plugins.flowers.garden import Garden
from hedgerow.plugins.flowers.sample import make_sample
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


#: How many gardens ``score`` remembers (then it forgets them all and starts again).
SCORED_GARDENS = 256

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

    sample = make_sample(coverable, rules.layout)

    def determinize(state: State, seat: int, rng: Rng) -> State:
        return sample(view.view(state, seat), seat, rng)

    scored: dict[int, tuple[Garden, int]] = {}  # id(garden) -> (garden, total): see score

    def score(state: State, seat: int) -> float:
        """``seat``'s total if the game were scored now (its final score once over).

        A garden dict is never changed once a state holds it, and a search's states share
        most of theirs (an action changes one garden; every sample of one view shares the
        view's), so the last gardens scored are remembered by identity: the cache holds the
        garden itself, so an id is never mistaken for a later object's.
        """
        garden = state.gardens[seat]
        found = scored.get(id(garden))
        if found is not None and found[0] is garden:
            return found[1]
        total = rules.score(garden, detail=False).total
        if len(scored) >= SCORED_GARDENS:
            scored.clear()
        scored[id(garden)] = (garden, total)
        return total

    return GameDef(
        name="flowers",
        setup=setup_table,
        active_seats=active_seats,
        legal_actions=choices.legal_actions,
        apply=apply,
        view=seat_view,
        outcome=outcome,
        describe=describe_action,
        determinize=determinize,
        hash_data=view.hash_data,
        chance=setup.deal_chance,
        resolve=resolve,
        sample=sample,
        score=score,
        evaluate=make_evaluate(rules.colour_points, score),
        # A card taken from a face-up stack is one the others cannot take, and the card
        # it uncovers is theirs to take: that shows at the next turn (bench/README.md,
        # ISMCTS: the search spanning two turns beat greedy where one turn did not).
        lookahead=2,
        # Each seat plants in its own garden; the others touch it only through the stacks,
        # so a seat's best reply is what its own judgement finds (bench/README.md, ISMCTS:
        # the others played for themselves beat their replies searched).
        for_themselves=True,
    )


SPEC = GameSpec(
    name="flowers",
    title="FLOWERS",
    version="1.0.0",
    min_players=setup.MIN_PLAYERS,
    max_players=setup.MAX_PLAYERS,
    build=build,
    summary="Take a card from a stack and plant it in your own garden, next to a card or on "
            "top of one; at the end, number groups of the wrong size are removed and colour "
            "groups of five or more score. Alone, earn a rank.",
    default_players=2,
)

"""FLOWERS in the seat client: its `GameUI` object, `FlowersUI`, one per table.

The FLOWERS plugin answers ``hedgerow_game_ui`` with `flowers_ui(ruleset)`: the object
scores a garden "as if the game ended now" with the table's own rules (the ruleset's
extension relay: under Summer only the groups touching the purple card score).  It
declares:

* the parts: ``stacks`` (hand area: the stacks, the card held, the solo discards),
  ``gardens`` (board area: every garden, yours first) and ``final`` (results area: each
  garden's score in detail), all drawn by `hedgerow.plugins.flowers.render`;
* the roles: ``"stack"`` (a stack index), ``"cell"`` (a cell ``(x, y)`` of your own
  garden), ``"plot"`` (a cell of another garden, ``(seat, x, y)``: only read, with
  ``i``) and ``"seat"`` (another player's name, which the client fills in);
* the forms: ``plant`` = the stack (free: number keys 1, 2 at any time), then the cell
  (its cursor starts on the first empty cell drawn, `FlowersUI.start`);
  ``take`` = the face-down stack (one choice: Enter takes it);
* the words (`hedgerow.plugins.flowers.words`): a planting with the score it leaves and
  what it does to its groups, a line while you hold a face-down card, a card or a stack
  in full, how to play, the cards and score so far (alone: the rank).

It reads only the seat's `View` and never imports the client.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hedgerow.core import Action
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.ui import (
    BOARD,
    HAND,
    RESULTS,
    Choose,
    Column,
    DrawContext,
    Drawing,
    Form,
    GameUI,
    Part,
    Target,
)
from hedgerow.plugins.flowers.cards import PURPLES, card_text
from hedgerow.plugins.flowers.choices import plant_args, take_args
from hedgerow.plugins.flowers.game import bind
from hedgerow.plugins.flowers.garden import from_cells
from hedgerow.plugins.flowers.ranking import solo_rank
from hedgerow.plugins.flowers.render import (
    CELL,
    PLOT,
    STACK,
    draw_final,
    draw_gardens,
    draw_stacks,
    is_summer,
)
from hedgerow.plugins.flowers.scoring import (
    ColourPoints,
    GardenScore,
    score_garden,
    standard_colour_points,
)
from hedgerow.plugins.flowers.setup import stack_name
from hedgerow.plugins.flowers.state import OVER, PLANT, GardenCells, View
from hedgerow.plugins.flowers.summer import summer_colour_points
from hedgerow.plugins.flowers.words import (
    cell_text,
    planting_text,
    stack_text,
    take_text,
    where,
)

GAME = "flowers"

HELP = ("Each turn, take a stack's top card and plant it in your garden: on an empty spot "
        "beside one of your cards, or on top of any of them (only top cards count). A face-up "
        "card is planted at once, a face-down one seen first. A stack running out ends the "
        "game. Then touching equal numbers must form exact groups (a 1 alone, two 2s, three "
        "3s, four 4s) or go, with the cards under them, at -1 a card. Colour groups of 5+ "
        "score 1 a card; a butterfly beside its colour scores 1. Alone, A's top card is "
        "discarded after each turn and your score earns a rank.")
SUMMER_HELP = " Summer: only colour groups touching the purple card score."

STACK_STEP = Choose(STACK, ("stack",), "the stack", free=True)


def _score(cells: GardenCells, points: ColourPoints) -> GardenScore:
    return score_garden(from_cells(cells), points, detail=True)


def _ints(value: object) -> list[int]:
    """A target's value as ints (a cell, a seat's cell); empty when it is not that."""
    if not isinstance(value, tuple):
        return []
    numbers = [v for v in value if type(v) is int]
    return numbers if len(numbers) == len(value) else []


class FlowersUI(GameUI):
    """FLOWERS' face in the seat client (see the module docstring).

    ``colour_points`` is the table's colour rule (None: read the view, Summer's rule when a
    purple card is in play); ``coverable`` says which cards may be covered; ``summer``
    whether the help explains Summer.
    """

    game = GAME
    parts = (Part("gardens", BOARD), Part("stacks", HAND), Part("final", RESULTS))
    forms = {
        "plant": Form((STACK_STEP, Choose(CELL, ("x", "y"), "where to plant")),
                      "plant a face-up card"),
        "take": Form((Choose(STACK, ("stack",), "the face-down stack"),),
                     "take the face-down card"),
    }
    help = HELP

    def __init__(self, colour_points: ColourPoints | None = None,
                 coverable: Callable[[int], bool] | None = None, summer: bool = True) -> None:
        super().__init__()
        self.help = HELP + (SUMMER_HELP if summer else "")
        self._points = colour_points
        self._coverable = coverable
        #: The scores so far of the last view scored (every redraw asks several times).
        self._scored: tuple[View | None, dict[int, GardenScore]] = (None, {})

    # -- the table's rules, as far as the screen needs them --------------------------------

    def points_for(self, view: View) -> ColourPoints:
        """The colour rule: the table's, else the one the view shows (Summer's purple)."""
        if self._points is not None:
            return self._points
        return summer_colour_points if is_summer(view) else standard_colour_points

    def coverable(self, card: int) -> bool:
        """True when ``card`` may be covered (the table's rule; else all but purple)."""
        if self._coverable is not None:
            return self._coverable(card)
        return card not in PURPLES

    def score(self, view: View, seat: int) -> GardenScore:
        """``seat``'s garden scored as if the game ended now (the final score once over)."""
        if view.phase == OVER and seat < len(view.final):
            return view.final[seat]
        last, scores = self._scored
        if last is not view:
            scores = {}
            self._scored = (view, scores)
        found = scores.get(seat)
        if found is None:
            found = scores[seat] = _score(view.gardens[seat], self.points_for(view))
        return found

    # -- drawing ---------------------------------------------------------------------------

    def draw(self, part: str, ctx: DrawContext) -> Drawing | None:
        """The gardens, the stacks or the final detail (`render`)."""
        view: View = ctx.view
        if part == "gardens":
            return draw_gardens(view, ctx.seat, lambda seat: self.score(view, seat),
                                preview=ctx.preview, reading=ctx.reading,
                                coverable=self.coverable, width=ctx.width)
        if part == "stacks":
            return draw_stacks(view, ctx.seat, ctx.reading)
        if part == "final":
            return draw_final(view, ctx.seat, ctx.width)
        return None

    def start(self, view: Any, seat: int, step: Choose, options: Sequence[Target],
              ) -> Target | None:
        """Where to plant starts on the first empty cell as drawn (top left), not on the card
        just planted: a card goes on an empty cell far more often than on another card."""
        if step.role != CELL or not 0 <= seat < len(view.gardens):
            return None
        taken = {(x, y) for x, y, _ in view.gardens[seat]}
        return next((t for t in options if t.value not in taken), None)

    def score_columns(self, view: Any) -> Sequence[Column]:
        """Cards planted and the score if the game ended now (alone: the rank it earns)."""
        scores = tuple(self.score(view, s).total for s in range(view.players))
        label = "Final" if view.phase == OVER else "Now"
        if view.players == 1:
            return (Column(label, scores, "bold"),
                    Column("Rank", tuple(solo_rank(s) for s in scores), "fg:ansicyan"))
        cards = tuple(sum(len(stack) for _, _, stack in g) for g in view.gardens)
        return (Column("Cards", cards), Column(label, scores, "bold"))

    # -- words -----------------------------------------------------------------------------

    def preview(self, view: Any, seat: int, action: Action) -> str | None:
        """A planting with the score it leaves and what it does to its groups; a take."""
        if action.kind == "take":
            index = take_args(action)
            if index is None or not 0 <= index < len(view.sizes):
                return None
            return take_text(view, index)
        found = plant_args(action)
        if action.kind != "plant" or found is None:
            return None
        stack, cell = found
        card = view.holding if view.holding >= 0 else view.tops[stack]
        if card < 0:
            return None
        garden = {(x, y): pile for x, y, pile in view.gardens[seat]}
        garden[cell] = (*garden.get(cell, ()), card)
        after = _score(tuple((x, y, p) for (x, y), p in sorted(garden.items())),
                       self.points_for(view))
        return planting_text(view, seat, stack, cell, card, self.score(view, seat), after)

    def prompt(self, view: Any, seat: int) -> str | None:
        """While holding the face-down card taken: what to do with it."""
        if view.phase == PLANT and view.active == seat and view.holding >= 0:
            return (f"Plant the {card_text(view.holding)} you took from "
                    f"{stack_name(view.source)}: on an empty spot beside one of your cards, "
                    "or on top of one (arrows, Enter).")
        return None

    def target_text(self, target: Target) -> str:
        """``A`` for a stack, ``(1,0)`` for a cell, ``seat 2 (1,0)`` for another's cell."""
        value = target.value
        if target.role == STACK and isinstance(value, int):
            return stack_name(value)
        numbers = _ints(value)
        if target.role == CELL and len(numbers) == 2:
            return where((numbers[0], numbers[1]))
        if target.role == PLOT and len(numbers) == 3:
            return f"seat {numbers[0]} {where((numbers[1], numbers[2]))}"
        return super().target_text(target)

    def details(self, view: Any, seat: int, target: Target) -> str | None:
        """A cell (its pile, its number group now, its butterfly) or a stack, in full."""
        value = target.value
        if target.role == STACK and isinstance(value, int):
            return stack_text(view, value)
        numbers = _ints(value)
        if target.role == CELL and len(numbers) == 2:
            owner, cell = seat, (numbers[0], numbers[1])
        elif target.role == PLOT and len(numbers) == 3:
            owner, cell = numbers[0], (numbers[1], numbers[2])
        else:
            return None
        if not 0 <= owner < view.players:
            return None
        return cell_text(view, seat, owner, cell, self.score(view, owner))


def flowers_ui(ruleset: Ruleset | None) -> FlowersUI:
    """The UI object for a table with ``ruleset`` (None: no table, the rules read from the
    view).  With a ruleset, scores use its colour rule and its covering rule."""
    ext = getattr(ruleset, "ext", None) if ruleset is not None else None
    if ext is None:
        return FlowersUI()
    rules = bind(ext)
    coverable = rules.coverable
    return FlowersUI(rules.colour_points,
                     lambda card: coverable[card] if 0 <= card < len(coverable) else False,
                     summer="summer" in getattr(ruleset, "variant_names", ()))


"""Petals in the seat client: its `GameUI` object.

The built-in plugin ``petals-ui`` (`hedgerow.plugins.petals.ui_plugin`, registered the way a
third party's would be) answers ``hedgerow_game_ui`` for ``"petals"`` with `ui_for`, importing
this module only then.  The object declares:

* the parts: the garden (board area), the hand (hand area), and at the end the chart of
  where each player's points came from and the cards scored directly (results area), all
  drawn by `hedgerow.plugins.petals.render`;
* the roles: ``"card"`` (a hand card, by id) and ``"cell"`` (a garden cell, ``(x, y)``);
* the forms: ``place`` = a card (free: number keys at any time), then a cell, the rotation
  cycled with ``r``; ``move`` = the cell of the card to move, then where it goes, the
  rotation cycled; ``score`` and ``decline`` take no argument;
* the words: a move in words with its points, a line on symbol effects and the final
  round, how to play, and the trackers with the figure so far as the players table.

The figure players are ranked by is the table's `ScoreRule`, asked once from the variants in
force (the ``petals_score_rule`` extension hook through ``ruleset.ext``): the help, the
players table and the results chart all show the same rule (Harmony: the spread).  It
reads only the seat's `View` and never imports the client.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, cast

from hedgerow.core import Action, Ranked
from hedgerow.core.ui import (
    BOARD,
    HAND,
    RESULTS,
    Choose,
    Column,
    Cycle,
    DrawContext,
    Drawing,
    Form,
    GameUI,
    Part,
    Target,
)
from hedgerow.plugins.petals.cards import ELEMENTS
from hedgerow.plugins.petals.choices import MOVE_ARGS, PLACE_ARGS, int_args
from hedgerow.plugins.petals.describe import points_text
from hedgerow.plugins.petals.ranking import standard_outcome
from hedgerow.plugins.petals.render import (
    CARD,
    CELL,
    ELEMENT_STYLES,
    ROW_LABEL,
    draw_chart,
    draw_garden,
    draw_hand,
    draw_scored,
    garden_after,
)
from hedgerow.plugins.petals.scorerule import DEFAULT, ScoreRule
from hedgerow.plugins.petals.scoring import DIFFERENT, IDENTICAL, Points, score_at, symbol_pairs
from hedgerow.plugins.petals.state import FINAL, OVER, View

GAME = "petals"

PLAY_HELP = ("Play a card from your hand next to the garden (sharing a side), turned as you "
             "like. Facing flowers score on your trackers (one per element): the same "
             "element scores both numbers; equal numbers score each for its element. Two "
             "symbols (shown reversed) facing let you move a card. Your last card is not "
             "played: its numbers score at the end.")


def help_for(rule: ScoreRule) -> str:
    """How to play, ending with how ``rule`` decides the winner."""
    return f"{PLAY_HELP} {rule.help}"


HELP = help_for(DEFAULT)

ROTATE = Cycle("rot", "rotate")


def _turned(rot: int) -> str:
    return "" if rot == 0 else f", turned {90 * rot}°"


def preview_text(view: View, action: Action) -> str:
    """What ``action`` would do, in words, with the points it would score."""
    garden, cell = garden_after(view, action)
    if action.kind == "place":
        ident, rot, x, y = int_args(action, PLACE_ARGS) or (0, 0, 0, 0)
        text = f"Play #{ident:02d} at ({x},{y}){_turned(rot)}: "
        effect, _ = symbol_pairs(garden, (x, y))
        points = points_text(score_at(garden, (x, y)))
        if effect == DIFFERENT:
            return text + ("different symbols meet: you then choose to score it "
                           f"({points}) or move another card")
        if effect == IDENTICAL:
            return text + f"{points}, and identical symbols let you move another card"
        return text + points
    if action.kind == "move" and cell is not None:
        fx, fy, rot, tx, ty = int_args(action, MOVE_ARGS) or (0, 0, 0, 0, 0)
        ident = garden[cell] >> 2
        return (f"Move #{ident:02d} from ({fx},{fy}) to ({tx},{ty}){_turned(rot)}: "
                f"{points_text(score_at(garden, cell))}")
    if action.kind == "score" and cell is not None:
        return f"Score the card you played: {points_text(score_at(garden, cell))}"
    if action.kind == "decline":
        return "Move nothing"
    return str(action)


def turn_prompt(view: View) -> str | None:
    """What a newcomer needs to know about the decision at hand."""
    pending = view.pending
    if pending is not None and pending.kind == "different":
        return ("Different symbols met! Score the card you played (1), or move another "
                "card and score that instead (2).")
    if pending is not None:
        return ("Identical symbols met! You may move another card and score it too (1), "
                "or move nothing (2).")
    if view.phase == FINAL and len(view.hand) == 2:
        return ("Final round: play one card (number, arrows, r, Enter); "
                "the other card then scores its numbers directly.")
    return None


class PetalsUI(GameUI):
    """Petals' face in the seat client (see the module docstring)."""

    game = GAME
    # the garden's column labels (its first line) and row labels (its first columns)
    # stay on screen while it scrolls
    parts = (Part("garden", BOARD, head_rows=1, head_columns=ROW_LABEL), Part("hand", HAND),
             Part("chart", RESULTS), Part("scored", RESULTS))
    forms = {
        "place": Form((Choose(CARD, ("card",), "a card", free=True),
                       Choose(CELL, ("x", "y"), "a cell"), ROTATE), "play a card"),
        "move": Form((Choose(CELL, ("from_x", "from_y"), "the card to move"),
                      Choose(CELL, ("to_x", "to_y"), "where it goes"), ROTATE), "move a card"),
        "score": Form((), "score the card you played"),
        "decline": Form((), "move nothing"),
    }
    help = HELP

    def __init__(self, rule: ScoreRule = DEFAULT,
                 winner: Callable[[tuple[Points, ...]], Ranked] = standard_outcome) -> None:
        super().__init__()
        self.rule = rule
        self.winner = winner
        self.help = help_for(rule)

    def draw(self, part: str, ctx: DrawContext) -> Drawing | None:
        """The garden, the hand, the results chart or the cards scored directly (`render`)."""
        view: View = ctx.view
        if part == "garden":
            return draw_garden(view, ctx.width, ctx.preview)
        if part == "hand":
            return draw_hand(view, ctx.preview, ctx.partial)
        if part == "chart":
            ranking = self.winner(view.trackers).ranking if view.phase == OVER else None
            return draw_chart(view, ctx.width, self.rule, ranking)
        if part == "scored":
            return draw_scored(view)
        return None

    def focus(self, view: Any, seat: int) -> Target | None:
        """Between your turns the garden shows the latest turn's card."""
        last = view.last
        return Target(CELL, last.placed) if last is not None else None

    def score_columns(self, view: Any) -> Sequence[Column]:
        """The four trackers of every seat, then the figure so far under the table's rule
        (the two lowest added; Harmony: the spread)."""
        columns = [Column(ELEMENTS[e][0], tuple(t[e] for t in view.trackers), ELEMENT_STYLES[e])
                   for e in range(4)]
        columns.append(Column(self.rule.label, tuple(self.rule.figure(t) for t in view.trackers),
                              "bold"))
        return columns

    def preview(self, view: Any, seat: int, action: Action) -> str | None:
        """A Petals move in words with its points, before it is made."""
        return preview_text(view, action)

    def prompt(self, view: Any, seat: int) -> str | None:
        """Explains symbol effects and the final round."""
        return turn_prompt(view)

    def target_text(self, target: Target) -> str:
        """``#07`` for a card, ``(1,0)`` for a cell."""
        if target.role == CARD and isinstance(target.value, int):
            return f"#{target.value:02d}"
        if target.role == CELL and isinstance(target.value, tuple):
            x, y = target.value
            return f"({x!s},{y!s})"
        return super().target_text(target)


UI = PetalsUI()


def score_rule(ruleset: Any) -> ScoreRule:
    """The score rule of the variants in force at ``ruleset``'s table (`DEFAULT` without a
    table, or when no variant answers)."""
    ext = getattr(ruleset, "ext", None)
    if ext is None:
        return DEFAULT
    found = ext.petals_score_rule()
    return found if isinstance(found, ScoreRule) else DEFAULT


def ui_for(ruleset: Any) -> PetalsUI:
    """Petals' UI object for the table's rules (its score rule, and its winner for the
    order of the results chart): what the ``petals-ui`` plugin answers for Petals."""
    ext = getattr(ruleset, "ext", None)
    if ext is None:
        return UI

    def winner(trackers: tuple[Points, ...]) -> Ranked:
        return cast(Ranked, ext.petals_winner(trackers=trackers))

    return PetalsUI(score_rule(ruleset), winner)

"""Flowers: A Mandala Game in the seat client: its `GameUI` object, one per table.

The host asks for it through ``hedgerow_game_ui`` (answered by the Mandala plugin,
``hedgerow.plugins.mandala``) and gets a `MandalaUI` built for the table's `Ruleset`, so
that a preview draws as many cards as the table's draw rule does (Draw four).  The object
declares:

* the parts: ``mandalas`` (board: the three mandalas side by side with their tiles, the
  colours each still needs, the claim, every seat's cards there, face-up and face-down),
  ``tiles`` (board; ``gardens`` draws it again under the results: the tiles in front of
  every player, complete flowers marked), ``hand`` (hand: your cards by colour,
  numbered); all drawn by `hedgerow.plugins.mandala.render`, as the previewed move would
  leave them;
* the roles: ``"mandala"``, ``"colour"`` and ``"tile"`` for the forms; ``"side"``,
  ``"board-tile"`` and ``"held"`` only to read a piece in full with ``i``;
* the forms: ``play`` = a colour of your hand (free: the number keys), a mandala (the
  arrows), how many cards (``+`` / ``-``); ``take`` = the tile the claim holder keeps;
  ``pass`` takes no argument;
* the words (`hedgerow.plugins.mandala.words`): a move with what it does to the majority
  and what it draws, the tile choice explained, how to play, points, complete flowers and
  hand sizes as the players table.

It reads only the seat's `View` and never imports the client.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hedgerow.core import Action
from hedgerow.core.ruleset import Ruleset
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
from hedgerow.plugins.mandala.cards import COLOURS, tile_name
from hedgerow.plugins.mandala.drawing import STANDARD, DrawRule
from hedgerow.plugins.mandala.render import (
    COLOUR,
    MANDALA,
    TILE,
    draw_hand,
    draw_mandalas,
    draw_tiles,
)
from hedgerow.plugins.mandala.scoring import complete_flowers
from hedgerow.plugins.mandala.state import View
from hedgerow.plugins.mandala.words import action_text, details_text, prompt_text

GAME = "mandala"

HELP = ("Each turn, lay cards of ONE colour from your hand at one mandala. A colour it "
        "still needs lies face-up (■), one it already shows face-down (□). Lay a single "
        "card to draw {draw} (hand limit {limit}). With a face-up card there and more cards "
        "than anyone else with one, you take its claim. Once all six colours show, the "
        "claim holder keeps a tile, the runner-up the other. Two tiles of a colour make a "
        "flower (✿); three flowers end the game. Most points win.")

PLAY_FORM = Form((Choose(MANDALA, ("mandala",), "a mandala"),
                  Choose(COLOUR, ("colour",), "a colour", free=True),
                  Cycle("count", "how many", key="+", back="-")), "play cards")
TAKE_FORM = Form((Choose(TILE, ("tile",), "the tile you keep"),), "keep a tile")
PASS_FORM = Form((), "pass")


class MandalaUI(GameUI):
    """Mandala's face in the seat client (see the module docstring)."""

    game = GAME
    parts = (Part("mandalas", BOARD), Part("tiles", BOARD), Part("hand", HAND),
             Part("gardens", RESULTS))
    forms = {"play": PLAY_FORM, "take": TAKE_FORM, "pass": PASS_FORM}

    def __init__(self, rule: DrawRule = STANDARD) -> None:
        super().__init__()
        self.rule = rule
        self.help = HELP.format(draw=rule.after_single, limit=rule.hand_limit)

    def draw(self, part: str, ctx: DrawContext) -> Drawing | None:
        """The mandalas, the tiles taken or the hand (`render`)."""
        view: View = ctx.view
        reading = ctx.reading
        if part == "mandalas":
            return draw_mandalas(view, ctx.width, ctx.preview, reading)
        if part in ("tiles", "gardens"):
            return draw_tiles(view, ctx.width, ctx.preview, reading)
        if part == "hand":
            return draw_hand(view, ctx.width, ctx.preview, self.rule, reading)
        return None

    def score_columns(self, view: Any) -> Sequence[Column]:
        """Points, complete flowers and cards in hand, for every seat."""
        return (Column("Pts", tuple(view.scores), "bold"),
                Column("Fl", tuple(complete_flowers(t) for t in view.tiles)),
                Column("Hand", tuple(view.hand_sizes)))

    def preview(self, view: Any, seat: int, action: Action) -> str | None:
        """A move in words: how the cards lie, the claim, the draw; or a tile's points."""
        return action_text(view, self.rule, action)

    def prompt(self, view: Any, seat: int) -> str | None:
        """Explains the tile choice, and a turn that can only pass."""
        return prompt_text(view)

    def target_text(self, target: Target) -> str:
        """``M1`` for a mandala, ``purple-2`` for a tile, ``red`` for a colour."""
        value = target.value
        if target.role == MANDALA and isinstance(value, int):
            return f"M{value}"
        if target.role == TILE and isinstance(value, int):
            return tile_name(value)
        if target.role == COLOUR and isinstance(value, int):
            return COLOURS[value]
        return super().target_text(target)

    def details(self, view: Any, seat: int, target: Target) -> str | None:
        """A mandala, a tile, a side, a tile taken or a colour of your hand, in full."""
        return details_text(view, target)


def ui_for(ruleset: Ruleset | None) -> MandalaUI:
    """The UI object for a table with ``ruleset`` (its draw rule), or the standard one."""
    rule: DrawRule = STANDARD
    ext = ruleset.ext if ruleset is not None else None
    if ext is not None:
        found = ext.mandala_draw_rule()
        if isinstance(found, DrawRule):
            rule = found
    return MandalaUI(rule)

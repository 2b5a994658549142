"""Flourish in the seat client: its `GameUI` object, one per table (it knows the variants).

The host asks for it through ``hedgerow_game_ui`` (answered by the Flourish plugin,
``hedgerow.plugins.flourish``) and gets a `FlourishUI` built for the table's `Ruleset`:
which variants are on (the cooperative team total and medals, the Garden Show's match and
ribbons, compost), and how far the medals are raised.  The object declares:

* the parts: ``gardens`` (board: the round, the piles and how the variant stands, then
  every garden in rows by round with each card's symbols and abilities in short form and
  each round's points), ``hand`` (your cards, each marked with its part in the turn
  being composed, where new ones came from, and what you passed last turn) and
  ``endgame`` (results: each garden's end-of-game points, card by card), drawn by
  `hedgerow.plugins.flourish.uidraw`;
* the roles: ``"card"`` (a card of your hand, by id: what the forms choose),
  ``"planted"`` (a card in a garden: only read in full, `details`, with the ``i`` key) and
  ``"seat"`` (a seat named in the drawing, so that a client can show the player's name);
* the forms: ``turn`` = the card to plant, then the card passed left and the card passed
  right (with one neighbour or McGregor: the two cards passed, chosen together), then with
  compost an optional card to compost (`declared` fits the form to the table);
  ``final`` = the three cards to plant;
* the words (`hedgerow.plugins.flourish.uiwords`): a turn in words, a prompt for each kind
  of turn, how to play, score columns by round (the Garden Show: this game, ribbons, the
  match), and any card in full.

It reads only the seat's `View` and never imports the client.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import Any

from hedgerow.core import Action
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.ui import (
    BOARD,
    HAND,
    RESULTS,
    Choose,
    ChooseMany,
    Column,
    DrawContext,
    Drawing,
    Form,
    GameUI,
    Part,
    Target,
)
from hedgerow.plugins.flourish.cooperative import MEDALS, medals
from hedgerow.plugins.flourish.garden_show import RIBBON_POINTS
from hedgerow.plugins.flourish.ranking import SOLO_GRADES, raised
from hedgerow.plugins.flourish.scoring import CARDS_PER_ROUND, ROUNDS
from hedgerow.plugins.flourish.state import FINAL, OVER, View
from hedgerow.plugins.flourish.uidraw import (
    CARD,
    PLANTED,
    SEAT,
    draw_endgame,
    draw_gardens,
    draw_hand,
    draw_table,
)
from hedgerow.plugins.flourish.uiwords import (
    card_words,
    cards_of,
    fits,
    match_totals,
    names,
    place_words,
    ribbon_points,
    round_points_now,
    short_name,
)

GAME = "flourish"
__all__ = ["CARD", "PLANTED", "SEAT", "FlourishUI", "card_words", "ui_for"]

PLAY = Choose(CARD, ("play",), "card to plant")
LEFT = Choose(CARD, ("left",), "card to pass left")
RIGHT = Choose(CARD, ("right",), "card to pass right")
PASSED = ChooseMany(CARD, "passed", "two cards to pass")
COMPOST = Choose(CARD, ("compost",), "card to compost (Backspace: none)")
THREE = ChooseMany(CARD, "play", "three cards to plant")
TURN_LABEL = "plant and pass"

HELP = ("Everyone chooses at once. Each turn, plant a card from your hand and pass one to "
        "each neighbour (with one neighbour or McGregor, pass two); then take what was "
        "passed to you and draw. Every third turn ends a round: the cards "
        "planted in it score their round ability (r). In round 4, plant three of your last "
        "five; then every game ability (e) scores. Symbols: plants G R B Y P, W (Rosa alba, "
        "any colour), stones Tree Path Wall Hive Lawn Feat. 1/G: 1 point per green; nb: a "
        "neighbour's garden; >=: at least as many as. +5 now: what a card would score if the "
        "round ended now.")
COOPERATIVE_HELP = " Cooperative: the team adds its scores and aims for a medal."
SHOW_HELP = (" Garden Show: three games in a row; a ribbon of yours scores "
             f"{RIBBON_POINTS} if your garden has strictly the most of its symbol.")
COMPOST_HELP = (" Compost: each turn you may also compost a card and draw one more.")



class FlourishUI(GameUI):
    """Flourish's face in the seat client (see the module docstring)."""

    game = GAME
    parts = (Part("gardens", BOARD), Part("hand", HAND), Part("endgame", RESULTS))
    forms = {
        "turn": Form((PLAY, LEFT, RIGHT, COMPOST), TURN_LABEL),
        "final": Form((THREE,), "plant three cards"),
    }
    help = HELP

    def __init__(self, ruleset: Ruleset | None = None) -> None:
        super().__init__(GAME)
        names = ruleset.variant_names if ruleset is not None else ()
        self.cooperative = "cooperative" in names
        self.garden_show = "garden-show" in names
        self.compost = "compost" in names
        self._ext = ruleset.ext if ruleset is not None else None
        self.help = (HELP + (COOPERATIVE_HELP if self.cooperative else "")
                     + (SHOW_HELP if self.garden_show else "")
                     + (COMPOST_HELP if self.compost else ""))

    # -- forms -------------------------------------------------------------------------------

    def declared(self, kind: str, names: Collection[str]) -> Form | None:
        """``turn`` with the arguments this table's turns have: ``left``/``right`` with two
        neighbours, ``passed`` with one (or McGregor), ``compost`` when it is allowed."""
        if kind != "turn":
            return self.forms.get(kind)
        steps: list[Choose | ChooseMany] = [PLAY]
        if "passed" in names:
            steps.append(PASSED)
        else:
            steps += [LEFT, RIGHT]
        if "compost" in names:
            steps.append(COMPOST)
        return Form(tuple(steps), TURN_LABEL)

    # -- medals ------------------------------------------------------------------------------

    def medal_raise(self, players: int) -> int:
        """How far the table's variants raise the medal thresholds (Compost: 5 a player)."""
        if self._ext is None:
            return 0
        try:
            answers = self._ext.flourish_medal_raise(players=players)
        except Exception:  # no such hook on a table of another game: no raise
            return 0
        return sum(r for r in answers if r)

    def medals(self, view: View) -> tuple[tuple[str, int], ...]:
        """The medal thresholds at this table: the team's (cooperative) or your margin's
        over McGregor (solo); () when there are none."""
        up = self.medal_raise(view.players)
        if view.solo:
            return raised(SOLO_GRADES, up)
        if self.cooperative and view.players in MEDALS:
            return medals(view.players, up)
        return ()

    # -- drawing -----------------------------------------------------------------------------

    def draw(self, part: str, ctx: DrawContext) -> Drawing | None:
        """The table's state and every garden, or your hand (`hedgerow.plugins.flourish.
        uidraw`)."""
        view: View = ctx.view
        if part == "gardens":
            return [*draw_table(view, ctx.width, self.cooperative, self.medals(view)),
                    ("", "\n"),
                    *draw_gardens(view, ctx.width, ctx.reading, ctx.partial, self.garden_show)]
        if part == "hand":
            return draw_hand(view, ctx.width, ctx.partial, ctx.reading)
        if part == "endgame" and view.turn >= OVER:
            return draw_endgame(view, ctx.width)
        return None

    # -- words -------------------------------------------------------------------------------

    def score_columns(self, view: Any) -> Sequence[Column]:
        """Each round's points and the total (the end-of-game points count in the total; the
        gardens' headings show them apart); in a Garden Show, this game's total, the ribbon
        points and the match total instead."""
        v: View = view
        seats = range(v.players)
        if v.games > 1:
            game = tuple(sum(v.points[s]) for s in seats)
            bonus = ribbon_points(v)
            match = match_totals(v)
            return [Column("Game", game), Column("Rib", bonus), Column("Match", match, "bold")]
        columns = [Column(f"R{r}", tuple(v.points[s][r - 1] for s in seats))
                   for r in range(1, ROUNDS + 1)]
        columns.append(Column("Tot", tuple(sum(v.points[s]) for s in seats), "bold"))
        return columns

    def preview(self, view: Any, seat: int, action: Action) -> str | None:
        """The turn in words: what is planted (with what its round ability would score if
        the round ended now), passed to whom, composted or discarded."""
        v: View = view
        args = dict(action.args)
        plant = cards_of(args.get("play"))
        now = round_points_now(v, plant)
        gain = "" if now is None else f" (+{now} now)"
        if action.kind == "final":
            rest = [c for c in v.hand if c not in plant]
            return f"Plant {names(plant)}{gain}, discard {names(rest)}"
        if action.kind != "turn":
            return None
        words = f"Plant {names(plant)}{gain}"
        if "passed" in args:
            to = "McGregor" if v.solo else "your neighbour"
            words += f", give {names(cards_of(args['passed']))} to {to}"
        else:
            words += (f", pass {names(cards_of(args.get('left')))} left and "
                      f"{names(cards_of(args.get('right')))} right")
        if "compost" in args:
            words += f", compost {names(cards_of(args['compost']))}"
        return words

    def prompt(self, view: Any, seat: int) -> str | None:
        """What this turn asks of you, naming who your passes go to."""
        v: View = view
        if v.turn == FINAL:
            return "Final round: Space marks the 3 cards to plant; the other 2 are discarded."
        if v.turn >= OVER:
            return None
        head = f"Round {v.round}, turn {v.turn % CARDS_PER_ROUND + 1}: "
        if v.solo:
            give, short = "give McGregor two (Space marks them)", "give McGregor two (Space)"
        elif v.players == 2:
            give, short = "give your neighbour two (Space marks them)", "pass two (Space)"
        else:
            give, short = "pass one left and one right", "pass left, pass right"
        if v.compost:
            return head + f"plant, {short}, then compost one or none."
        return head + f"plant a card, {'then ' if v.players < 3 else ''}{give}."

    def target_text(self, target: Target) -> str:
        """A card by name."""
        if target.role in (CARD, PLANTED) and isinstance(target.value, int):
            return short_name(target.value)
        return super().target_text(target)

    def details(self, view: Any, seat: int, target: Target) -> str | None:
        """A card in full: name, type, symbols, each ability in words, and where it is."""
        if target.role not in (CARD, PLANTED) or not isinstance(target.value, int):
            return None
        v: View = view
        ident = target.value
        text = card_words(ident, one_neighbour=len(v.gardens) == 2)
        for where in (place_words(v, ident), place_words(v, ident, points=False)):
            if where and fits(f"{text} {where}"):
                return f"{text} {where}"
        return text


def ui_for(ruleset: Ruleset | None) -> FlourishUI:
    """The UI object for a table with ``ruleset`` (its variants)."""
    return FlourishUI(ruleset)

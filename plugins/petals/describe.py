"""Every Petals action in plain words (``GameDef.describe``), for logs and the client.

The words are computed against the state the action applies to, so a placement says what
it scores and whether it triggers an effect.  An action that is not legal is still
described, followed by the reason it would be refused.
"""

from __future__ import annotations

from collections.abc import Callable

from hedgerow.core import Action, Refusal
from hedgerow.plugins.petals.cards import ELEMENTS, card
from hedgerow.plugins.petals.choices import MOVE_ARGS, PLACE_ARGS, int_args
from hedgerow.plugins.petals.geometry import placed
from hedgerow.plugins.petals.scoring import IDENTICAL, NO_SYMBOLS, Points, score_at, symbol_pairs
from hedgerow.plugins.petals.state import State


def points_text(points: Points) -> str:
    """``"Water +7, Fire +1"`` (largest first), or ``"nothing"``."""
    parts = sorted(((p, -e) for e, p in enumerate(points) if p), reverse=True)
    return ", ".join(f"{ELEMENTS[-e]} +{p}" for p, e in parts) or "nothing"


def _card(ident: int) -> str:
    try:
        return str(card(ident))
    except KeyError:
        return f"#{ident} (no such card)"


def describe(state: State, seat: int, action: Action,
             check: Callable[[State, int, Action], object]) -> str:
    """``action`` by ``seat`` in words; ``check`` is ``apply`` (used only to find refusals)."""
    who = f"Seat {seat}"
    result = check(state, seat, action)
    if isinstance(result, Refusal):
        return f"{who}: {action} (refused: {result.message})"
    kind = action.kind
    if kind == "place":
        ident, rot, x, y = int_args(action, PLACE_ARGS) or (0, 0, 0, 0)
        garden = dict(state.garden)
        garden[(x, y)] = placed(ident, rot)
        text = f"{who} plays {_card(ident)} at ({x}, {y}), rotation {rot}"
        effect, _ = symbol_pairs(garden, (x, y))
        if effect == NO_SYMBOLS:
            return f"{text}: {points_text(score_at(garden, (x, y)))}"
        if effect == IDENTICAL:
            return (f"{text}: {points_text(score_at(garden, (x, y)))}, and identical symbols "
                    "meet: it may then move another card")
        return f"{text}: different symbols meet: score it or move another card instead"
    if kind == "move":
        fx, fy, rot, tx, ty = int_args(action, MOVE_ARGS) or (0, 0, 0, 0, 0)
        garden = dict(state.garden)
        ident = garden.pop((fx, fy)) >> 2
        garden[(tx, ty)] = placed(ident, rot)
        return (f"{who} moves {_card(ident)} from ({fx}, {fy}) to ({tx}, {ty}), rotation {rot}: "
                f"{points_text(score_at(garden, (tx, ty)))}")
    if kind == "score":
        pending = state.pending
        assert pending is not None
        ident = state.garden[pending.played] >> 2
        return (f"{who} scores the card just played, #{ident:02d}: "
                f"{points_text(score_at(state.garden, pending.played))}")
    return f"{who} declines to move a card"

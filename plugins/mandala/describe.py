"""Actions in plain words (``GameDef.describe``), for logs and the seat client.

``describe(state, seat, action)`` reads the state the action applies to, so it can say how
the cards will lie and what the play does to the claim ("seat 1 plays 2 red face-up on M0
and takes the claim").  The words are meant for every seat (a table's log pane); a play's
colour is public, face-down or not (spec §5: every card is seen as it is played), so a
face-down play names it too ("2 red face-down").  A play at a sealed table names the
hidden cards it takes (`choices.play_cards`); the words are the same.
"""

from __future__ import annotations

from hedgerow.core import Action
from hedgerow.plugins.mandala.cards import COLOURS, NCOLOURS, tile_name
from hedgerow.plugins.mandala.choices import play_cards, tile_arg
from hedgerow.plugins.mandala.claims import preview
from hedgerow.plugins.mandala.state import MANDALAS, State


def describe(state: State, seat: int, action: Action) -> str:
    """``action`` by ``seat`` in words, given the state it applies to."""
    kind = action.kind
    if kind == "play":
        values = play_cards(action)
        if values is None:
            return f"seat {seat}: malformed play {action}"
        at, colour, count, _ = values
        if not (0 <= at < MANDALAS and 0 <= colour < NCOLOURS and count >= 1):
            return f"seat {seat}: play {action} (no such mandala or colour)"
        after = preview(state.mandalas[at], seat, colour, count)
        lies = "face-up" if after.face_up else "face-down"
        words = f"seat {seat} plays {count} {COLOURS[colour]} {lies} on M{at}"
        if after.claim == seat and state.mandalas[at].claim != seat:
            words += " and takes the claim"
        if after.completes:
            words += f", completing M{at}"
        return words
    if kind == "take":
        tile = tile_arg(action)
        if tile is None or not 0 <= tile < 36:
            return f"seat {seat}: malformed take {action}"
        where = f" from M{state.at}" if state.at >= 0 else ""
        return f"seat {seat} takes {tile_name(tile)}{where}"
    if kind == "pass":
        return f"seat {seat} has no legal play and passes"
    return f"seat {seat}: {action}"

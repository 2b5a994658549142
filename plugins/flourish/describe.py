"""Every Flourish action in plain words (``GameDef.describe``), for logs and the client.

The words say only what becomes public when the turn is revealed: the card(s) played and
that cards were passed (and one composted), never *which* cards were passed or composted:
``describe`` is not told who reads it, so its words must suit every seat.  A seat's own
passes are in its view (``View.last``).  An action that is not legal is still described,
followed by the reason it would be refused.
"""

from __future__ import annotations

from hedgerow.core import Action, Refusal
from hedgerow.plugins.flourish.choices import parse
from hedgerow.plugins.flourish.hidden import NO_CARD
from hedgerow.plugins.flourish.state import State
from hedgerow.plugins.flourish.words import card_name


def _names(cards: tuple[int, ...]) -> str:
    names = [card_name(c) for c in cards]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def describe(state: State, seat: int, action: Action) -> str:
    """``action`` by ``seat`` in words that any seat may read."""
    who = f"Seat {seat}"
    if not 0 <= seat < state.cfg.players:
        return f"{who}: {action} (refused: there is no seat {seat})"
    choice = parse(state, seat, action)
    if isinstance(choice, Refusal):
        return f"{who}: {action} (refused: {choice.message})"
    if len(choice.play) == 3:
        return f"{who} plays {_names(choice.play)} and discards the other two cards"
    if state.cfg.solo:
        given = "passes two cards to McGregor"
    elif state.cfg.gardens == 2:
        given = "passes two cards to the other player"
    else:
        given = "passes a card to each neighbour"
    extra = " and composts a card" if choice.compost != NO_CARD else ""
    return f"{who} plays {_names(choice.play)}, {given}{extra}"

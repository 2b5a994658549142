"""The actions of Mandala and which of them a seat may take now (``GameDef.legal_actions``).

**How a play is an action.**  Cards of one colour are interchangeable (they show nothing
but their colour, see `cards`), so a play is fully said by *where, which colour, how many*:
``play(mandala, colour, count)``.  A turn therefore offers at most 3 x (hand size) plays,
listed in a fixed order: mandala, then colour, then count, all ascending.

Action kinds and arguments (all ints):

* ``play(colour, count, mandala)``: put ``count`` cards of ``colour`` from your hand on
  your side of ``mandala`` (0-2); they lie face-up or face-down by the rules, not by choice;
* ``take(tile)``: as the claim holder of a completed mandala, take one of its two tiles
  (the other goes to the second player); offered dark tile first;
* ``pass()``: the only action of a seat that has no legal play (spec §7).
"""

from __future__ import annotations

from hedgerow.core import Action, Refusal
from hedgerow.plugins.mandala.cards import COLOURS, NCOLOURS, PER_COLOUR
from hedgerow.plugins.mandala.drawing import DrawRule
from hedgerow.plugins.mandala.state import CHOOSE, MANDALAS, PLAY, State

PASS = Action.of("pass")
_MAX_COUNT = len(COLOURS) * PER_COLOUR


def play_action(mandala: int, colour: int, count: int) -> Action:
    """``play(colour, count, mandala)``."""
    return Action("play", (("colour", colour), ("count", count), ("mandala", mandala)))


def take_action(tile: int) -> Action:
    """``take(tile)``."""
    return Action("take", (("tile", tile),))


#: Every play action, made once: ``_PLAYS[mandala][colour][count]``.
_PLAYS: tuple[tuple[tuple[Action, ...], ...], ...] = tuple(
    tuple(tuple(play_action(m, c, q) for q in range(_MAX_COUNT + 1)) for c in range(NCOLOURS))
    for m in range(MANDALAS))


def play_args(action: Action) -> tuple[int, int, int] | None:
    """``(mandala, colour, count)`` of a well-formed ``play`` action, else None."""
    args = action.args
    if len(args) != 3:
        return None
    (k0, colour), (k1, count), (k2, mandala) = args
    if (k0 == "colour" and k1 == "count" and k2 == "mandala" and type(colour) is int
            and type(count) is int and type(mandala) is int):
        return mandala, colour, count
    return None


def tile_arg(action: Action) -> int | None:
    """The ``tile`` of a well-formed ``take`` action, else None."""
    args = action.args
    if len(args) != 1 or args[0][0] != "tile" or type(args[0][1]) is not int:
        return None
    return args[0][1]


def available(state: State) -> int:
    """Cards a seat could still draw: the deck and the discard pile together."""
    return len(state.deck) + sum(state.discard)


def check_play(state: State, seat: int, mandala: int, colour: int, count: int,
               rule: DrawRule) -> Refusal | None:
    """Why ``seat`` may not play ``count`` cards of ``colour`` on ``mandala`` now, or None.

    Checks the card and the mandala only (the caller checks the phase and the turn).
    """
    if not 0 <= mandala < MANDALAS:
        return Refusal("mandala.bad_action", f"there is no mandala {mandala} (they are 0, 1, 2)")
    if not 0 <= colour < NCOLOURS:
        return Refusal("mandala.bad_action", f"there is no colour {colour} (0-5: "
                       + ", ".join(COLOURS) + ")")
    if count < 1:
        return Refusal("mandala.bad_action", "a play puts at least one card down")
    if not state.mandalas[mandala].tiles:
        return Refusal("mandala.closed", f"mandala M{mandala} is closed: its tile stacks ran "
                       "out (spec §8.5)")
    hand = state.hands[seat]
    if hand[colour] < count:
        return Refusal("mandala.not_in_hand", f"seat {seat} holds {hand[colour]} "
                       f"{COLOURS[colour]} card(s), not {count}")
    if not rule.keeps_one(sum(hand), count, available(state)):
        return Refusal("mandala.keep_one", "you must still hold a card after drawing "
                       "(spec §7: the keep-one rule)")
    return None


def plays(state: State, seat: int, rule: DrawRule) -> list[Action]:
    """Every legal play of ``seat`` (its turn assumed), in the documented order."""
    hand = state.hands[seat]
    most = max(hand)
    size = sum(hand)
    left = available(state)
    keeps = rule.keeps_one
    # whether a play keeps a card depends on how many cards it lays, not on their colour
    ok = [False, *(keeps(size, count, left) for count in range(1, most + 1))]
    allowed = [(colour, count) for colour in range(NCOLOURS)
               for count in range(1, hand[colour] + 1) if ok[count]]
    out: list[Action] = []
    for m, mandala in enumerate(state.mandalas):
        if mandala.tiles:
            table = _PLAYS[m]
            out.extend([table[c][q] for c, q in allowed])
    return out


def active_seats(state: State) -> tuple[int, ...]:
    """The seat to act: the seat whose turn it is, or the claim holder choosing a tile; ()
    before the deal, while waiting for a reshuffle and once the game is over."""
    if state.phase == PLAY:
        return (state.turn,)
    if state.phase == CHOOSE:
        return (state.mandalas[state.at].claim,)
    return ()


def legal_actions(state: State, seat: int, rule: DrawRule) -> tuple[Action, ...]:
    """Every action ``seat`` may take now, in a fixed order; empty when it is not its turn."""
    if state.phase == PLAY:
        if seat != state.turn:
            return ()
        return tuple(plays(state, seat, rule)) or (PASS,)
    if state.phase == CHOOSE and seat == state.mandalas[state.at].claim:
        return tuple(take_action(t) for t in state.mandalas[state.at].tiles)
    return ()

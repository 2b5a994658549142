"""The actions of Mandala and which of them a seat may take now (``GameDef.legal_actions``).

**How a play is an action.**  Cards of one colour are interchangeable (they show nothing
but their colour, see `cards`), so a play is fully said by *where, which colour, how many*:
``play(mandala, colour, count)``.  A turn therefore offers at most 3 x (hand size) plays,
listed in a fixed order: mandala, then colour, then count, all ascending.

Action kinds and arguments (all ints):

* ``play(colour, count, mandala)``: put ``count`` cards of ``colour`` from your hand on
  your side of ``mandala`` (0-2); they lie face-up or face-down by the rules, not by choice.
  At a sealed table the play also names the hidden cards it takes (``cards``, a tuple of
  sealed cards, added by `name_cards`; see below);
* ``take(tile)``: as the claim holder of a completed mandala, take one of its two tiles
  (the other goes to the second player); offered dark tile first;
* ``pass()``: the only action of a seat that has no legal play (spec §7).

**At a sealed table** (`hands`) a seat's cards from the deck are sealed tokens in the
public state, so the other peers cannot tell which of them "two red cards" are.  The seat
lists its legal actions on its own information state (where it reads its cards) and the
actions are the open game's; `name_cards` (``GameDef.name_cards``, called by the table on
the seat's information state) then adds ``cards``: the hidden cards the play takes, after
whatever the counted cards of that colour supply (`take_from`), first ones first.  Applied
to the public state, the play checks that it names exactly that many of the seat's hidden
cards, each once, before it reads any, and then reads their colours: reading shows them
to every seat, as the rules do with played cards (spec §5: their colour is public), and a
card of another colour is refused (a peer that plays a card it does not hold is caught).
At an open table a play has no ``cards``.
"""

from __future__ import annotations

from operator import index
from typing import Any

from hedgerow.core import Action, Refusal
from hedgerow.core.sealed import Known, Sealed
from hedgerow.plugins.mandala.cards import COLOURS, NCOLOURS, PER_COLOUR
from hedgerow.plugins.mandala.drawing import DrawRule
from hedgerow.plugins.mandala.hands import hand_of, hand_size, hidden_of
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
    """``(mandala, colour, count)`` of a well-formed ``play`` action as `legal_actions`
    lists it, else None (a play that names its cards: `play_cards`)."""
    args = action.args
    if len(args) != 3:
        return None
    (k0, colour), (k1, count), (k2, mandala) = args
    if (k0 == "colour" and k1 == "count" and k2 == "mandala" and type(colour) is int
            and type(count) is int and type(mandala) is int):
        return mandala, colour, count
    return None


#: What a named card may be: a sealed card, or its face once shown (a known face in an
#: information state).
_CARD_TYPES = (Sealed, int, Known)


def play_cards(action: Action) -> tuple[int, int, int, tuple[object, ...]] | None:
    """``(mandala, colour, count, cards)`` of a well-formed ``play`` action, ``cards`` being
    the hidden cards it names at a sealed table (``()`` when it names none), else None.  A
    ``cards`` argument names at least one card."""
    args = action.args
    if len(args) != 4 or args[0][0] != "cards":
        values = play_args(action)
        return None if values is None else (*values, ())
    cards = args[0][1]
    if (type(cards) is not tuple or not cards
            or not all(type(card) in _CARD_TYPES for card in cards)):
        return None
    values = play_args(Action(action.kind, args[1:]))
    return None if values is None else (*values, cards)


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
               rule: DrawRule, cards: tuple[object, ...] = ()) -> Refusal | None:
    """Why ``seat`` may not play ``count`` cards of ``colour`` on ``mandala`` now, or None.

    Checks the card and the mandala only (the caller checks the phase and the turn).
    ``cards``: the hidden cards the play names (a sealed table; module docstring): exactly
    those `take_from` takes beyond the counted cards, each one of the seat's hidden cards,
    once.  Their colours are not read here: `take_from` reads them.
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
    if hand[colour] < count or cards:
        bad = _check_named(state, seat, colour, count, cards)
        if bad is not None:
            return bad
    hidden = state.hidden
    size = sum(hand) + len(hidden[seat]) if hidden else sum(hand)
    if not rule.keeps_one(size, count, available(state)):
        return Refusal("mandala.keep_one", "you must still hold a card after drawing "
                       "(spec §7: the keep-one rule)")
    return None


def _check_named(state: State, seat: int, colour: int, count: int,
                 cards: tuple[object, ...]) -> Refusal | None:
    """Why a play of ``count`` cards of ``colour`` that the counted cards do not supply
    alone (or that names ``cards``) may not take them, or None (`check_play`)."""
    counted = state.hands[seat][colour]
    hidden = hidden_of(state, seat)
    wanted = count - min(count, counted)
    if not hidden and wanted:
        return Refusal("mandala.not_in_hand", f"seat {seat} holds {counted} "
                       f"{COLOURS[colour]} card(s), not {count}")
    if len(cards) != wanted:
        return Refusal("mandala.not_in_hand", f"a play of {count} {COLOURS[colour]} card(s) "
                       f"by seat {seat} names {wanted} of its hidden cards (the cards beyond "
                       f"the {counted} every seat can count), not {len(cards)}")
    if cards and _unheld(hidden, cards):
        return Refusal("mandala.not_in_hand", f"the play names a card seat {seat} does not "
                       "hold, or one card twice")
    return None


def _unheld(hidden: tuple[object, ...], cards: tuple[object, ...]) -> bool:
    """True unless ``cards`` are distinct cards of ``hidden`` (compared as cards: a sealed
    card equals itself only, a face its face; nothing is read)."""
    left = list(hidden)
    for card in cards:
        at = next((i for i, held in enumerate(left) if held == card), -1)
        if at < 0:
            return True
        del left[at]
    return False


def take_from(state: State, seat: int, colour: int, count: int,
              cards: tuple[Any, ...]) -> tuple[list[int], tuple[object, ...]] | Refusal:
    """``seat``'s colour counts (a new list) and hidden cards once a checked play
    (`check_play`) took ``count`` cards of ``colour``: the counted ones first, then the
    named ``cards``, whose colours are read here (so shown to every seat); a named card of
    another colour is refused."""
    for card in cards:
        face = index(card)  # a sealed card: read, so shown to every seat
        if face != colour:
            return Refusal("mandala.not_in_hand", f"the play names a {_colour_name(face)} "
                           f"card as {COLOURS[colour]}")
    counted = list(state.hands[seat])
    counted[colour] -= count - len(cards)
    left = list(hidden_of(state, seat))
    for card in cards:
        del left[left.index(card)]
    return counted, tuple(left)


def _colour_name(face: int) -> str:
    return COLOURS[face] if 0 <= face < NCOLOURS else f"colour {face}"


def plays(state: State, seat: int, rule: DrawRule) -> list[Action]:
    """Every legal play of ``seat`` (its turn assumed), in the documented order.  Reads the
    seat's whole hand (`hand_of`): its own information state at a sealed table."""
    hidden = state.hidden
    hand = hand_of(state, seat) if hidden and hidden[seat] else state.hands[seat]
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


def can_play(state: State, seat: int, rule: DrawRule) -> bool:
    """True when ``seat`` has a legal play, from public facts alone (what a pass is checked
    against at a sealed table): a mandala is open, and the seat may play one card.

    The same answer as ``bool(plays(...))``: a seat with a card may always play one of
    them, and when that one card would break the keep-one rule the seat holds a single
    card, so no larger play exists (a `DrawRule` never draws a negative number).
    """
    cards = hand_size(state, seat)
    return (cards >= 1 and any(m.tiles for m in state.mandalas)
            and rule.keeps_one(cards, 1, available(state)))


def name_cards(state: State, seat: int, action: Action) -> Action:
    """``action`` with the hidden cards it takes named (``GameDef.name_cards``, module
    docstring): on ``seat``'s information state at a sealed table, a play's ``cards``.
    Any other action, and a play that takes no hidden card, comes back as it is (so does a
    play the seat cannot make: the rules refuse it with the reason)."""
    parsed = play_cards(action) if action.kind == "play" else None
    if parsed is None or parsed[3]:
        return action
    _, colour, count, _ = parsed
    hidden = hidden_of(state, seat)
    if not hidden or not 0 <= colour < NCOLOURS or count < 1:
        return action
    wanted = count - min(count, state.hands[seat][colour])
    if not wanted:
        return action
    # Only the seat's own known faces are compared (a sealed card equals no face anyway).
    named = tuple([card for card in hidden if type(card) is not Sealed and card == colour]
                  [:wanted])
    if len(named) < wanted:
        return action
    return Action(action.kind, (("cards", named), *action.args))


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

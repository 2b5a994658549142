"""What each seat knows about the cards it has seen but cannot see now (hidden information
across passes), and where every card is.

A card is somewhere in a *zone*: a seat's hand (zone = the seat number, 0-6; a card chosen
inside a step is still in its seat's hand), the draw deck `DECK`, the compost pile
`COMPOST`, the final-round discards `DISCARD`, or McGregor's deck `MCG` (the cards passed to
him count as his deck: they are shuffled into it).  Cards in gardens are public.

A seat's *memory* holds, for every card it has had in its hand and no longer sees, the set
of zones the card may be in now, as a bit mask (bit ``z`` for zone ``z``).  The mask is
sound (the card is always in one of its zones) and follows each card on its own: every
move the seat could not see is allowed for it.  What ties cards together is not kept — a
neighbour passes only one card each way per turn, so two cards it got from this seat
cannot both have gone left in the same turn — and a re-deal may break such a constraint.

* A card it passes is in the receiving hand (one zone, certain); one it composts is in the
  compost pile; one it discards in the final round is in the discards; one it passes to
  McGregor is in his deck.
* When the seat cannot see a card move, every move the rules allow is added: a hand that
  held the card may keep it, pass it to either neighbour (not to this seat: it would have
  seen it arrive), or compost it if that seat composted this turn (public: it draws one
  more).  After the final round a card still hidden in a hand has been discarded.
* A draw from the deck may take a card the deck may hold; a reshuffle turns the compost pile
  into the deck.
* A card that shows up in the seat's hand or in a garden is forgotten: it is seen again.

The bots' sampler (`hedgerow.plugins.flourish.bots.sample`) deals hidden cards only into
zones their masks allow, so a sampled state is one the seat cannot tell from the real one.

At a sealed table the memories are part of the public state: which cards (tokens) a seat
remembers and where they may be is public, their faces are not (a seat's information
state shows it its own).  Nothing here reads a card: cards are told apart by equality and
`card_id`, and kept in `in_order`.  A shuffle that takes in a remembered card (the compost
pile becoming the deck, the cards passed to McGregor shuffled into his) gives it a new
token that nobody can tie to the old one, so the public memory keeps the old token, with
the masks the open game gives the card, after the card is seen again under its new token;
the seat's view, which can tell them apart by their faces, drops it
(``hedgerow.plugins.flourish.view``).
"""

from __future__ import annotations

from collections.abc import Sequence

from hedgerow.core.sealed import SealedRead
from hedgerow.plugins.flourish.abilities import left_of, right_of
from hedgerow.plugins.flourish.hidden import NO_CARD, ByCard, card_id, card_ids
from hedgerow.plugins.flourish.state import Choice, Config, State

DECK, COMPOST, DISCARD, MCG = 8, 9, 10, 11
#: The zone of a card in a garden (public; never in a memory).
GARDEN = -1
ZONE_NAMES = {DECK: "the deck", COMPOST: "the compost pile", DISCARD: "the discards",
              MCG: "McGregor's deck", GARDEN: "a garden"}
PILES = (1 << DECK) | (1 << COMPOST) | (1 << DISCARD) | (1 << MCG)
HANDS = (1 << 8) - 1

Memory = tuple[tuple[int, int], ...]


def zone_name(zone: int) -> str:
    """A zone in words: ``"seat 2's hand"``, ``"the compost pile"``."""
    return ZONE_NAMES.get(zone, f"seat {zone}'s hand")


def zones_of(mask: int) -> tuple[int, ...]:
    """The zones in a mask, lowest first."""
    return tuple(z for z in range(12) if mask >> z & 1)


def pass_zone(cfg: Config, seat: int, which: int) -> int:
    """Where ``seat``'s pass number ``which`` goes (0: left, 1: right; McGregor's deck in
    solo; with two players both go to the other seat)."""
    if cfg.solo:
        return MCG
    gardens = cfg.gardens
    return left_of(seat, gardens) if which == 0 else right_of(seat, gardens)


def locations(state: State) -> dict[int, int]:
    """Card -> zone for every card of the table (`GARDEN` for cards in gardens); for an
    open table's state (a sealed card is not a dict key)."""
    where: dict[int, int] = {}
    for seat, hand in enumerate(state.hands):
        for c in hand:
            where[c] = seat
        choice = state.choices[seat]
        if choice is not None:
            for c in chosen_cards(choice):
                where[c] = seat
    for zone, cards in ((DECK, state.deck), (COMPOST, state.compost),
                        (DISCARD, state.discard), (MCG, state.mcg), (MCG, state.aside)):
        for c in cards:
            where[c] = zone
    for garden in state.gardens:
        for c in garden:
            where[c] = GARDEN
    return where


def chosen_cards(choice: Choice) -> tuple[int, ...]:
    """Every card a choice takes out of its hand."""
    extra = (choice.compost,) if choice.compost != NO_CARD else ()
    return (*choice.play, *choice.passes, *extra)


def after_moves(state: State, choices: Sequence[Choice]) -> tuple[Memory, ...]:
    """Every seat's memory once the step's ``choices`` are revealed and the cards moved
    (before the draws).  ``state`` is the state the step started from."""
    cfg = state.cfg
    final = state.turn >= 9
    gardens = cfg.gardens
    composted = [c.compost != NO_CARD for c in choices]
    spread = []  # per holder: the zones a card it held may be in after this turn
    for holder in range(cfg.players):
        if final:
            spread.append(1 << DISCARD)
            continue
        reach = 1 << holder
        if gardens >= 3 and not cfg.solo:
            reach |= (1 << left_of(holder, gardens)) | (1 << right_of(holder, gardens))
        if composted[holder]:
            reach |= 1 << COMPOST
        spread.append(reach)
    out = []
    for seat in range(cfg.players):
        try:
            entries: dict[int, int] = {}
            _remember(state, seat, choices[seat], spread, entries)
            out.append(tuple(sorted(entries.items())))
        except SealedRead:  # a sealed table: a token is told apart by its position
            sealed = ByCard()
            _remember(state, seat, choices[seat], spread, sealed)
            out.append(sealed.memory())
    return tuple(out)


def _remember(state: State, seat: int, choice: Choice, spread: Sequence[int],
              entries: dict[int, int] | ByCard) -> None:
    """Put in ``entries`` (card -> mask) what ``seat`` remembers once the step's moves are
    made (`after_moves`): each remembered card moved as ``spread`` allows, the cards it
    just passed, composted or discarded where they went."""
    cfg = state.cfg
    for card, mask in state.memory[seat]:
        new = mask & PILES
        hands = mask & HANDS
        holder = 0
        while hands:
            if hands & 1:
                new |= spread[holder] & ~(1 << seat)
            hands >>= 1
            holder += 1
        entries[card] = new
    if choice.passes:
        first, second = choice.passes
        entries[first] = 1 << pass_zone(cfg, seat, 0)
        entries[second] = 1 << pass_zone(cfg, seat, 1)
    if choice.compost != NO_CARD:
        entries[choice.compost] = 1 << COMPOST
    if state.turn >= 9:
        for card in state.hands[seat]:
            if card not in choice.play:
                entries[card] = 1 << DISCARD


def after_draw(memory: tuple[Memory, ...], drawer: int) -> tuple[Memory, ...]:
    """Memories once ``drawer`` drew from the deck: a card the deck may hold may now be in
    the drawer's hand (the drawer itself sees what it drew: `forget_seen` drops it)."""
    deck = 1 << DECK
    add = 1 << drawer
    out = []
    for seat, entries in enumerate(memory):
        if seat == drawer or not any(m & deck for _, m in entries):
            out.append(entries)
            continue
        out.append(tuple((c, m | add if m & deck else m) for c, m in entries))
    return tuple(out)


def after_reshuffle(memory: tuple[Memory, ...]) -> tuple[Memory, ...]:
    """Memories once the compost pile became the new deck."""
    compost, deck = 1 << COMPOST, 1 << DECK
    return tuple(tuple((c, (m & ~compost) | deck if m & compost else m) for c, m in entries)
                 for entries in memory)


def forget_seen(memory: tuple[Memory, ...], hands: Sequence[Sequence[int]],
                gardens: Sequence[Sequence[int]]) -> tuple[Memory, ...]:
    """Drop every remembered card the seat sees again: in its hand or in any garden."""
    try:
        public = {c for g in gardens for c in g}
        out = []
        for seat, entries in enumerate(memory):
            seen = public.union(hands[seat])
            out.append(tuple((c, m) for c, m in entries if c not in seen))
        return tuple(out)
    except SealedRead:  # a sealed table: a token is told apart by its position
        shown = card_ids(*gardens)
        return tuple(tuple((c, m) for c, m in entries if card_id(c) not in seen)
                     for seat, entries in enumerate(memory)
                     for seen in (shown | card_ids(hands[seat]),))

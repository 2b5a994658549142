"""What a seat knows (``view``) and the plain data that names a state for its hash
(``hash_data``).

Public: every garden and the points, hand sizes, the sizes of the deck, the compost pile,
the discards and McGregor's deck, the variant's data and the finished games.  Private to a
seat: its hand, its own choice inside a step, what it passed, received and drew last turn,
and its memory of the cards it has seen (``hedgerow.plugins.flourish.knowledge``): the
view lists each remembered card with the one place it must be (``known``: the one zone of
its mask, where the card always is) or the places it may be (``unsure``); both by card id,
like the hand.

Public too: who has already chosen inside a step (not what), and the chance the table
waits for.

The other way, a state dealt from a view (other hands with their choices inside a step,
the deck, the compost pile, the discards, McGregor's deck re-dealt, each card the seat
remembers kept within the places its memory allows), is the bots' sampler
(`hedgerow.plugins.flourish.bots.sample`).

At a sealed table (``hedgerow.plugins.flourish.hidden``) ``view`` runs on a seat's
information state, whose cards are in the public state's order: it sorts the hand and the
memory by id itself, and copies cards without reading any.  A card the public memory keeps
under an old token after a reshuffle (``hedgerow.plugins.flourish.knowledge``) is known to
the seat by its face: the view drops it where the seat sees the card again (its hand, its
choice, a garden) and keeps only the newest entry of a card remembered twice, so that the
seat sees exactly what the open game shows it.  ``hash_data`` packs runs of cards with
`hedgerow.core.sealed.packed` (bytes while they are faces, as in the open game).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from hedgerow.core.sealed import SealedRead, packed
from hedgerow.plugins.flourish.hidden import card_id, card_ids, in_order, merged
from hedgerow.plugins.flourish.knowledge import Memory, chosen_cards
from hedgerow.plugins.flourish.state import State, View


def view(state: State, seat: int) -> View:
    """``seat``'s view of ``state``."""
    memory = state.memory[seat]
    known: tuple[tuple[int, int], ...] = ()
    unsure: tuple[tuple[int, int], ...] = ()
    if memory:
        memory = _current(state, seat, memory)
        known = tuple((c, m.bit_length() - 1) for c, m in memory if not m & (m - 1))
        unsure = tuple((c, m) for c, m in memory if m & (m - 1))
    return View(
        seat=seat,
        players=state.cfg.players,
        solo=state.cfg.solo,
        compost=state.cfg.compost,
        game=state.game,
        games=state.cfg.games,
        turn=state.turn,
        round=state.round,
        hand=in_order(state.hands[seat]),
        choice=state.choices[seat],
        gardens=state.gardens,
        points=state.points,
        hand_sizes=hand_sizes(state),
        deck_count=len(state.deck),
        compost_count=len(state.compost),
        discard_count=len(state.discard),
        mcg_count=len(state.mcg) + len(state.aside),
        last=state.last[seat],
        known=known,
        unsure=unsure,
        extras=state.extras,
        history=state.history,
        chosen=tuple(c is not None for c in state.choices),
        luck=state.luck,
    )


def _current(state: State, seat: int, memory: Memory) -> Memory:
    """``seat``'s memory as the open game keeps it (see the module docstring): without the
    cards the seat sees again, each card once (its newest entry: the public state keeps a
    memory in token order, and a card's new token comes from a later shuffle than its old
    one), in id order.  In the open game that is the memory as it is."""
    choice = state.choices[seat]
    own = state.hands[seat] if choice is None else state.hands[seat] + chosen_cards(choice)
    seen = card_ids(own, *state.gardens)
    return merged([(c, m) for c, m in memory if card_id(c) not in seen])


def hand_sizes(state: State) -> tuple[int, ...]:
    """Each seat's hand size, counting the cards it chose inside a step."""
    return tuple(len(h) + (0 if c is None else len(chosen_cards(c)))
                 for h, c in zip(state.hands, state.choices, strict=True))


# -- hash -----------------------------------------------------------------------------------


Pack = Callable[[Sequence[int]], object]


def hash_data(state: State) -> tuple[object, ...]:
    """Plain data naming ``state`` exactly, compact so that hashing after every step stays
    cheap: card ids (1-98) and zones (0-11) as bytes, memory masks as two bytes each, the
    variant's pending chance as its label and draws.  At a sealed table a run of cards
    that holds a sealed card is the tuple itself, its tokens encoded as such (`packed`)."""
    try:
        return _hash_data(state, bytes)
    except SealedRead:
        return _hash_data(state, packed)


def _hash_data(state: State, pack: Pack) -> tuple[object, ...]:
    """`hash_data` with each run of cards (and zones, masks) made compact by ``pack``."""
    chance = state.extra_luck
    luck = None if chance is None else (chance.label, tuple(
        (type(d).__name__, d.n) for d in chance.draws))
    choices = tuple(None if c is None else (pack(c.play), pack(c.passes), c.compost)
                    for c in state.choices)
    memory = tuple(pack([x for c, m in entries for x in (c, m & 255, m >> 8)])
                   for entries in state.memory)
    last = tuple((pack([x for pair in e.passed for x in pair]),
                  pack([x for pair in e.received for x in pair]), pack(e.drawn))
                 for e in state.last)
    history = tuple((tuple(pack(g) for g in r.gardens), sum(r.points, ()), r.bonus, r.note)
                    for r in state.history)
    return (tuple(state.cfg), state.luck, state.game, state.turn,
            tuple(pack(h) for h in state.hands), tuple(pack(g) for g in state.gardens),
            pack(state.deck), pack(state.compost), pack(state.discard), pack(state.mcg),
            pack(state.aside), choices, sum(state.points, ()), memory, last, state.draws,
            state.extras, luck, history)

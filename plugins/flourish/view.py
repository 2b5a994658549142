"""What a seat knows (``view``), a state it cannot tell from the real one (``determinize``),
and the plain data that names a state for its hash (``hash_data``).

Public: every garden and the points, hand sizes, the sizes of the deck, the compost pile,
the discards and McGregor's deck, the variant's data and the finished games.  Private to a
seat: its hand, its own choice inside a step, what it passed, received and drew last turn,
and its memory of the cards it has seen (``hedgerow.plugins.flourish.knowledge``): the
view lists each remembered card with the one place it must be (``known``, read from the
state, so that a re-deal that moved it shows) or the places it may be (``unsure``).

Public too: who has already chosen inside a step (not what), and the chance the table
waits for.

``determinize`` is ``sample`` (``hedgerow.plugins.flourish.sample``) of the seat's view: one
implementation of "re-deal what the seat cannot know" — other hands (with their choices
inside a step), the deck, the compost pile, the discards, McGregor's deck — keeping each
card it remembers within the places its memory allows.
"""

from __future__ import annotations

from hedgerow.core import Rng
from hedgerow.plugins.flourish.knowledge import chosen_cards, locations
from hedgerow.plugins.flourish.sample import sample
from hedgerow.plugins.flourish.state import GameRecord, State, View


def view(state: State, seat: int) -> View:
    """``seat``'s view of ``state``."""
    memory = state.memory[seat]
    known: tuple[tuple[int, int], ...] = ()
    unsure: tuple[tuple[int, int], ...] = ()
    if memory:
        where = locations(state)
        known = tuple((c, where[c]) for c, m in memory if not m & (m - 1))
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
        hand=state.hands[seat],
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


def hand_sizes(state: State) -> tuple[int, ...]:
    """Each seat's hand size, counting the cards it chose inside a step."""
    return tuple(len(h) + (0 if c is None else len(chosen_cards(c)))
                 for h, c in zip(state.hands, state.choices, strict=True))


# -- determinize ----------------------------------------------------------------------------


def determinize(state: State, seat: int, rng: Rng) -> State:
    """A state ``seat`` cannot tell from ``state``: its view sampled again
    (``sample(view(state, seat), seat, rng)``), so everything hidden from it is re-dealt
    within what its memory allows and nothing else is read from ``state``."""
    return sample(view(state, seat), seat, rng)


# -- hash -----------------------------------------------------------------------------------


def _flat(pairs: tuple[tuple[int, int], ...]) -> bytes:
    return bytes(x for pair in pairs for x in pair)


def _record(record: GameRecord) -> tuple[object, ...]:
    return (tuple(bytes(g) for g in record.gardens), sum(record.points, ()), record.bonus,
            record.note)


def hash_data(state: State) -> tuple[object, ...]:
    """Plain data naming ``state`` exactly, compact so that hashing after every step stays
    cheap: card ids (1-98) and zones (0-11) as bytes, memory masks as two bytes each, the
    variant's pending chance as its label and draws."""
    chance = state.extra_luck
    luck = None if chance is None else (chance.label, tuple(
        (type(d).__name__, d.n) for d in chance.draws))
    choices = tuple(None if c is None else (bytes(c.play), bytes(c.passes), c.compost)
                    for c in state.choices)
    memory = tuple(bytes(x for c, m in entries for x in (c, m & 255, m >> 8))
                   for entries in state.memory)
    last = tuple((_flat(e.passed), _flat(e.received), bytes(e.drawn)) for e in state.last)
    return (tuple(state.cfg), state.luck, state.game, state.turn,
            tuple(bytes(h) for h in state.hands), tuple(bytes(g) for g in state.gardens),
            bytes(state.deck), bytes(state.compost), bytes(state.discard), bytes(state.mcg),
            bytes(state.aside), choices, sum(state.points, ()), memory, last, state.draws,
            state.extras, luck, tuple(_record(r) for r in state.history))

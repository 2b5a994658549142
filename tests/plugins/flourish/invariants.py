"""Invariants of every Flourish state, for the conformance kit and the knowledge tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from hedgerow.core import Action, Rng
from hedgerow.plugins.flourish.bots.sample import sample
from hedgerow.plugins.flourish.knowledge import GARDEN, chosen_cards, locations, zones_of
from hedgerow.plugins.flourish.state import FINAL, OVER, State
from hedgerow.plugins.flourish.view import hand_sizes, view

RNG = Rng(b"flourish-invariants")


def every_card_once(state: State) -> None:
    """Each of the 98 cards is in exactly one place."""
    cards = [c for h in state.hands for c in h] + [c for g in state.gardens for c in g]
    cards += [c for ch in state.choices if ch is not None for c in chosen_cards(ch)]
    cards += [*state.deck, *state.compost, *state.discard, *state.mcg, *state.aside]
    assert sorted(cards) == list(range(1, 99)), Counter(cards).most_common(2)


def memory_is_true(state: State) -> None:
    """Every remembered card is out of its seat's sight, in a zone its mask allows."""
    where = locations(state)
    for seat, entries in enumerate(state.memory):
        for card, mask in entries:
            assert mask, f"seat {seat} remembers card {card} nowhere"
            assert where[card] not in (seat, GARDEN), f"seat {seat} sees card {card}"
            assert where[card] in zones_of(mask), (
                f"seat {seat} thinks card {card} is in {zones_of(mask)}, it is in {where[card]}")


def sizes(state: State) -> None:
    """Hands of six on turns 1-9, five in the final round; gardens grow one card a turn."""
    if state.luck:
        return
    want = 6 if state.turn < FINAL else 5 if state.turn == FINAL else 0
    assert hand_sizes(state) == (want,) * state.cfg.players, hand_sizes(state)
    cards = 12 if state.turn == OVER else state.turn
    assert all(len(g) == cards for g in state.gardens), [len(g) for g in state.gardens]


def redeal_keeps_memory(state: State, seats: range | None = None) -> None:
    """A state re-dealt from a seat's view (the bots' sampler) keeps every card within the
    zones each seat's memory allows (for ``seats``; by default one seat, a different one
    each turn)."""
    if state.luck or state.turn >= OVER:
        return
    players = state.cfg.players
    if seats is None:
        one = (state.turn + state.game) % players
        seats = range(one, one + 1)
    for seat in seats:
        other = sample(view(state, seat), seat, RNG.fork(f"{seat}"))
        every_card_once(other)
        memory_is_true(other)
        assert hand_sizes(other) == hand_sizes(state)
        assert view(other, seat) == view(state, seat)
        assert (len(other.deck), len(other.mcg)) == (len(state.deck), len(state.mcg))


def check_step(before: Any, after: Any, seat: int, action: Action | None) -> None:
    """All of the above, after every step (a conformance-kit invariant)."""
    every_card_once(after)
    memory_is_true(after)
    sizes(after)
    redeal_keeps_memory(after)

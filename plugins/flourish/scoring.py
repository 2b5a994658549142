"""End-of-round and end-of-game scoring (spec §8), and the per-card figures a UI shows.

Gardens are tuples of card ids in the order played; every round each garden grows by
exactly three cards, so the card at position ``i`` was played in round ``i // 3 + 1``
(`round_of`) and a garden "as it stood after round r" is its first ``3 r`` cards.

* End of round r: each card played in round r that has an end-of-round ability scores it,
  counting the whole gardens as they stand after the round's reveals (`round_points`);
  earlier rounds' cards count as symbols only.
* End of game: every card with an end-of-game ability scores it once, on the final
  gardens (`end_points`).
"""

from __future__ import annotations

from collections.abc import Sequence

from hedgerow.plugins.flourish.abilities import score
from hedgerow.plugins.flourish.cards import CARDS
from hedgerow.plugins.flourish.tally import Tally, tally

Gardens = Sequence[tuple[int, ...]]
CARDS_PER_ROUND = 3
ROUNDS = 4


def round_of(index: int) -> int:
    """The round (1-4) in which the card at position ``index`` of a garden was played."""
    return index // CARDS_PER_ROUND + 1


def tallies(gardens: Gardens) -> list[Tally]:
    """Every garden's tally, in the same order."""
    return [tally(g) for g in gardens]


def round_points(gardens: Gardens, rnd: int, counts: Sequence[Tally] | None = None,
                 ) -> tuple[int, ...]:
    """Each garden's end-of-round score for round ``rnd`` (its cards of that round only);
    ``counts`` are the gardens' tallies when the caller has them."""
    counts = counts if counts is not None else tallies(gardens)
    out = []
    for garden, cards in enumerate(gardens):
        total = 0
        for ident in cards[(rnd - 1) * CARDS_PER_ROUND:rnd * CARDS_PER_ROUND]:
            card = CARDS[ident]
            if card.eor is not None:
                total += score(card.eor, card.kind, garden, counts)
        out.append(total)
    return tuple(out)


def end_points(gardens: Gardens, counts: Sequence[Tally] | None = None) -> tuple[int, ...]:
    """Each garden's end-of-game score: every end-of-game ability in it, once."""
    counts = counts if counts is not None else tallies(gardens)
    out = []
    for garden, cards in enumerate(gardens):
        total = 0
        for ident in cards:
            card = CARDS[ident]
            if card.eog is not None:
                total += score(card.eog, card.kind, garden, counts)
        out.append(total)
    return tuple(out)


def card_points(gardens: Gardens, garden: int, index: int) -> tuple[int | None, int | None]:
    """What the card at ``index`` of ``garden`` scores: its end-of-round ability as it was
    scored at the end of its round (None before that round is over, or when it has none),
    and its end-of-game ability on the gardens as they stand now (None when it has none)."""
    ident = gardens[garden][index]
    card = CARDS[ident]
    rnd = round_of(index)
    eor = eog = None
    upto = rnd * CARDS_PER_ROUND
    if card.eor is not None and all(len(g) >= upto for g in gardens):
        then = tallies([g[:upto] for g in gardens])
        eor = score(card.eor, card.kind, garden, then)
    if card.eog is not None:
        eog = score(card.eog, card.kind, garden, tallies(gardens))
    return eor, eog

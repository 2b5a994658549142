"""``BotSupport.evaluate`` for Flourish: the score now plus what the hands promise.

``score`` (`hedgerow.plugins.flourish.bots.scorenow`) counts only the gardens.  A card in a
hand is worth nothing to it, so a bot judging by ``score`` keeps and passes cards blindly.
``evaluate(state, seat)`` is ``score(state, seat)`` plus each garden's **potential**:

* A card's **gain** for a garden is what that garden scores more if the card joined it now:
  the card's own end-of-round ability, plus the change in every end-of-game ability of
  the garden (its own included), on the gardens as they stand (`Potential.gain`).  No
  ability loses by a card added to its own garden, so a gain is never negative.
* A seat's potential is the sum of the best gains in its hand, weighted by how surely it
  will play them: `WEIGHTS` while passing goes on (its best card is played next turn, the
  others may be passed away), and the best three at full weight in the final round (three
  of the five are played).  At most as many cards as it still has to play are counted.
  Inside a step a seat that has chosen plays its chosen card(s) for sure, and the cards
  it passes count in the hands that will receive them.
* McGregor (solo) plays the top card of his shuffled deck: his potential is the mean gain
  of his deck (the cards passed to him included) weighted as a seat's would be.

How the potentials join the score follows the kind of result the table's own
``flourish_outcome`` gives (asked once per table configuration), so a variant's result is
respected as ``score`` respects it:

* ranked (and a Garden Show match): the seat's potential minus the mean potential of the
  other seats: a card passed to a neighbour is judged by what it is worth to the
  neighbour, and the least useful is given;
* cooperative: the team's score plus every seat's potential: the most useful card is given;
* solo: your total minus McGregor's, plus your potential minus his.

Once the game is over (or nothing is left in any hand) every potential is zero and
``evaluate`` is ``score`` exactly.  Only what is in hands counts, never the deck: cards
not yet drawn are the same unknown for everyone.  Gains are remembered by gardens, since a
search meets the same gardens again and again.
"""

from __future__ import annotations

from hedgerow.core import Cooperative, Solo
from hedgerow.plugins.flourish.abilities import score as ability_score
from hedgerow.plugins.flourish.bots.scorenow import ScoreNow
from hedgerow.plugins.flourish.cards import CARDS
from hedgerow.plugins.flourish.knowledge import MCG, pass_zone
from hedgerow.plugins.flourish.state import FINAL, OVER, Config, State
from hedgerow.plugins.flourish.tally import VECTORS, Tally, plus, tally

#: Weights of a seat's best gains, best first, while passing goes on.
WEIGHTS = (1.0, 0.5, 0.25)
#: Weights in the final round: three of the hand are played.
FINAL_WEIGHTS = (1.0, 1.0, 1.0)
#: Cards a garden holds at the end of a game.
GARDEN_SIZE = 12
#: Remembered gardens at most; the memory starts afresh beyond (answers never change).
LIMIT = 1 << 12

#: How the potentials join the score, by the kind of result.
RANKED, TEAM, SOLO = "ranked", "team", "solo"

Gardens = tuple[tuple[int, ...], ...]


class _Table:
    """Every garden's tally and end-of-game total for one set of gardens, and the gains
    worked out so far (garden, card) -> points."""

    __slots__ = ("base", "counts", "gains", "gardens")

    def __init__(self, gardens: Gardens) -> None:
        self.gardens = gardens
        self.counts: list[Tally] = [tally(g) for g in gardens]
        self.base = [_end_total(g, i, self.counts) for i, g in enumerate(gardens)]
        self.gains: dict[tuple[int, int], int] = {}

    def gain(self, garden: int, card: int) -> int:
        key = (garden, card)
        found = self.gains.get(key)
        if found is not None:
            return found
        counts = list(self.counts)
        counts[garden] = plus(counts[garden], VECTORS[card])
        info = CARDS[card]
        value = _end_total((*self.gardens[garden], card), garden, counts) - self.base[garden]
        if info.eor is not None:
            value += ability_score(info.eor, info.kind, garden, counts)
        self.gains[key] = value
        return value


def _end_total(cards: tuple[int, ...], garden: int, counts: list[Tally]) -> int:
    total = 0
    for ident in cards:
        card = CARDS[ident]
        if card.eog is not None:
            total += ability_score(card.eog, card.kind, garden, counts)
    return total


def _weighted(gains: list[int], weights: tuple[float, ...], count: int) -> float:
    """The best ``count`` gains weighted by ``weights`` (best first)."""
    gains.sort(reverse=True)
    return sum(w * g for w, g in zip(weights[:count], gains, strict=False))


class Potential:
    """``evaluate(state, seat)``: ``score`` plus the hands' potential (module docstring);
    ``weights`` replaces `WEIGHTS` (for experiments)."""

    __slots__ = ("_kinds", "_last", "_memo", "_score", "_weights")

    def __init__(self, score: ScoreNow, weights: tuple[float, ...] = WEIGHTS) -> None:
        self._score = score
        self._weights = weights
        self._kinds: dict[Config, str] = {}
        self._memo: dict[Gardens, _Table] = {}
        #: The last state judged and its potentials (a search asks for every seat in turn).
        self._last: tuple[State | None, tuple[float, ...]] = (None, ())

    def forget(self) -> None:
        """Drop every remembered gain (for measuring the work an answer takes)."""
        self._memo.clear()
        self._last = (None, ())
        self._score.forget()

    def kind(self, state: State) -> str:
        """How potentials join the score at this table: `RANKED`, `TEAM` or `SOLO`, from the
        kind of result the table's outcome hook gives (asked once per configuration)."""
        key = state.cfg
        found = self._kinds.get(key)
        if found is None:
            outcome = self._score.outcome_now(state)
            found = (TEAM if isinstance(outcome, Cooperative)
                     else SOLO if isinstance(outcome, Solo) else RANKED)
            self._kinds[key] = found
        return found

    def table(self, gardens: Gardens) -> _Table:
        """The tallies and gains of one set of gardens (remembered)."""
        found = self._memo.get(gardens)
        if found is None:
            if len(self._memo) >= LIMIT:
                self._memo.clear()
            found = self._memo[gardens] = _Table(gardens)
        return found

    def gain(self, state: State, garden: int, card: int) -> int:
        """What ``garden`` scores more if ``card`` joined it now (its end-of-round ability
        and the change in the garden's end-of-game abilities)."""
        return self.table(state.gardens).gain(garden, card)

    def potentials(self, state: State) -> tuple[float, ...]:
        """Every garden's potential (seats, then McGregor's in solo); zeros once over."""
        cfg = state.cfg
        if state.turn >= OVER or state.luck:
            return (0.0,) * cfg.gardens
        table = self.table(state.gardens)
        final = state.turn == FINAL
        weights = FINAL_WEIGHTS if final else self._weights
        seats = cfg.players
        hands = [list(h) for h in state.hands]
        sure = [0.0] * seats
        playing = [0] * seats
        incoming: list[int] = []
        for seat, choice in enumerate(state.choices):
            if choice is None:
                continue
            sure[seat] = float(sum(table.gain(seat, c) for c in choice.play))
            playing[seat] = len(choice.play)
            if final:
                hands[seat] = []  # the two cards not played are discarded
            for which, card in enumerate(choice.passes):
                zone = pass_zone(cfg, seat, which)
                if zone == MCG:
                    incoming.append(card)
                else:
                    hands[zone].append(card)
        out = []
        for seat in range(seats):
            left = GARDEN_SIZE - len(state.gardens[seat]) - playing[seat]
            gains = [table.gain(seat, c) for c in hands[seat]]
            out.append(sure[seat] + _weighted(gains, weights, left))
        if cfg.solo:
            deck = (*state.mcg, *state.aside, *incoming)
            left = GARDEN_SIZE - len(state.gardens[1])
            if deck and left > 0:
                mean = sum(table.gain(1, c) for c in deck) / len(deck)
                out.append(mean * sum(weights[:left]))
            else:
                out.append(0.0)
        return tuple(out)

    def __call__(self, state: State, seat: int) -> float:
        now = self._score(state, seat)
        if state.turn >= OVER or state.luck:
            return now
        last, pots = self._last
        if last is not state:
            pots = self.potentials(state)
            self._last = (state, pots)
        kind = self.kind(state)
        if kind == TEAM:
            return now + sum(pots[:state.cfg.players])
        if kind == SOLO:
            return now + pots[0] - pots[1]
        others = [p for s, p in enumerate(pots[:state.cfg.players]) if s != seat]
        return now + pots[seat] - (sum(others) / len(others) if others else 0.0)

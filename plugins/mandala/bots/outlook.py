"""``BotSupport.evaluate`` for Mandala: a seat's points now plus what its open mandalas promise.

Mandala's score moves only when a mandala is resolved, so a bot that judged positions by
the score alone would see nothing between resolutions.  `Outlook` judges a position the way
a player reads the board (all of it public, so it looks at nothing a seat could not see):

* **the score now** (`scorenow.ScoreNow`, the table's ``mandala_winner`` hook);
* **each open mandala, as if it were completed now** (`claims.second_place`): the claim
  holder would take the tile worth more to it and the runner-up the other one, or the
  holder both when there is no runner-up (spec §8).  What each tile adds to a seat's points
  is asked of the same ranking hook, so a variant that changes scoring changes this too.
  The seat's own share counts, and what the others would get counts against it (``rival``
  of the best other seat's share); both weighed by how likely the mandala is to be completed as it
  stands: ``ahead[k]`` with ``k`` colours still missing (1 when the holder is choosing a
  tile: nothing is left to chance).  An unclaimed mandala promises nothing yet;
* **cards in hand**: ``card`` points a card (they are the only means to play on); cards a
  seat has on a mandala where it would take no tile come back to its hand on completion,
  so they count as in hand, weighed like the tiles.

Once the game is over nothing is left to come and the evaluation is exactly the score.
The others' share counts against a seat only while it is to come: once a mandala is
resolved their tiles are in *their* score, which a search compares (`BotModel.estimate`)
and greedy does not see.  Measured, also subtracting the others' scores made greedy no
stronger (46 of 100 games against this one).

The weights are fixed numbers (`Weights`), chosen by playing greedy bots with other
weights against these (100 two-player games each; ``bench/mandala_bots.py`` takes weights
too): without the rivals' share greedy won 25 of 100, and halving or doubling the other
weights stayed within noise (42 to 52).  The gains of the tiles on the table are
remembered by the gardens and the tiles (they change only at resolutions), so a call costs
a few look-ups and a pass over the three mandalas: about a third of an ``apply`` (CPU
time).  The first call on a new garden or a new pair of tiles asks the ranking hook
``1 + 3 x players`` times, which builds a whole result each time: 4 to 5 ``apply`` then
(``bench/mandala_bots.py`` prints both).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from hedgerow.core import Action
from hedgerow.plugins.mandala.bots.scorenow import LIMIT, ScoreNow
from hedgerow.plugins.mandala.choices import check_play, play_args
from hedgerow.plugins.mandala.claims import claims, is_complete, second_place
from hedgerow.plugins.mandala.drawing import DrawRule
from hedgerow.plugins.mandala.ranking import Rank
from hedgerow.plugins.mandala.state import CHOOSE, OVER, PLAY, Mandala, State, put


class Weights(NamedTuple):
    """How much the parts of a position weigh (module doc).

    ``ahead[k]``: the weight of a mandala's tiles with ``k`` colours missing (index 0: the
    holder is choosing); ``rival``: how much the best other seat's share counts against the
    seat; ``card``: points per card in hand (and per card due back from a mandala).
    """

    ahead: tuple[float, ...]
    rival: float
    card: float


#: The weights the game uses (measured with bench/mandala_bots.py).
STANDARD = Weights(ahead=(1.0, 0.6, 0.35, 0.2, 0.1, 0.05, 0.0), rival=0.5, card=0.1)

#: Per seat: the gain of the dark tile, of the light tile, of both.
Gains = tuple[tuple[float, float, float], ...]


class Outlook:
    """``evaluate(state, seat)``: ``seat``'s points now plus what is likely to come."""

    __slots__ = ("_gains", "_rank", "_score", "weights")

    def __init__(self, rank: Rank, score: ScoreNow | None = None,
                 weights: Weights = STANDARD) -> None:
        self._rank = rank
        self._score = score if score is not None else ScoreNow(rank)
        self._gains: dict[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], Gains] = {}
        self.weights = weights

    def with_weights(self, weights: Weights) -> Outlook:
        """The same judgement with other weights (for benches that tune them)."""
        return Outlook(self._rank, self._score, weights)

    def gains(self, held: tuple[tuple[int, ...], ...], pair: tuple[int, ...]) -> Gains:
        """What each seat's points would gain with the dark tile of ``pair``, the light one,
        or both, the gardens being ``held`` (remembered)."""
        key = (held, pair)
        found = self._gains.get(key)
        if found is None:
            if len(self._gains) >= LIMIT:
                self._gains.clear()
            found = self._gains[key] = self._count(held, pair)
        return found

    def _count(self, held: tuple[tuple[int, ...], ...], pair: tuple[int, ...]) -> Gains:
        rank = self._rank
        now = rank(held, "").scores
        dark, light = pair
        out = []
        for seat, mine in enumerate(held):
            row = []
            for extra in ((dark,), (light,), (dark, light)):
                garden = (*held[:seat], (*mine, *extra), *held[seat + 1:])
                row.append(float(rank(garden, "").scores[seat] - now[seat]))
            out.append((row[0], row[1], row[2]))
        return tuple(out)

    def _terms(self, tiles: tuple[tuple[int, ...], ...], mandala: Mandala, chosen: bool,
               seat: int) -> tuple[float, float, float]:
        """What one mandala adds for ``seat``: to its own share, to the best other seat's
        share counted against it, and to the cards due back to its hand (0.0 each where
        the mandala promises nothing); ``chosen``: its holder is choosing a tile now."""
        holder = mandala.claim
        if holder < 0 or not mandala.tiles:
            return NOTHING
        chance = 1.0 if chosen else self.weights.ahead[6 - mandala.present.bit_count()]
        if not chance:
            return NOTHING
        gains = self.gains(tiles, mandala.tiles)
        dark, light, both = gains[holder]
        second = second_place(mandala.totals, mandala.ups, holder)
        if second < 0:  # the holder takes both tiles
            if seat == holder:
                return (chance * both, 0.0, 0.0)
            return (0.0, chance * both, chance * mandala.totals[seat])
        # the holder keeps the tile worth more to it, the runner-up takes the other
        kept, left = (dark, gains[second][1]) if dark >= light else (light, gains[second][0])
        if seat == holder:
            return (chance * kept, chance * left, 0.0)
        if seat == second:
            return (chance * left, chance * kept, 0.0)
        return (0.0, chance * max(kept, left), chance * mandala.totals[seat])

    def _total(self, base: float, hand: int, terms: list[tuple[float, float, float]]) -> float:
        """The outlook from the score now, the cards in hand and each mandala's terms (summed
        in mandala order, so that every way of working it out gives the same float)."""
        mine = 0.0
        rival = 0.0
        back = 0.0
        for t_mine, t_rival, t_back in terms:
            mine += t_mine
            rival += t_rival
            back += t_back
        w = self.weights
        cards = hand + back
        return base + mine - w.rival * rival + w.card * cards

    def __call__(self, state: State, seat: int) -> float:
        base = self._score(state, seat)
        if state.phase == OVER:
            return base
        choosing = state.at if state.phase == CHOOSE else -1
        tiles = state.tiles
        return self._total(base, sum(state.hands[seat]),
                           [self._terms(tiles, mandala, at == choosing, seat)
                            for at, mandala in enumerate(state.mandalas)])

    def each(self, state: State, seat: int, actions: Sequence[Action],
             rule: DrawRule) -> list[float | None]:
        """``BotSupport.evaluate_each``: for each of ``actions`` by ``seat``, exactly this
        outlook of the state ``apply`` would give, without building it: a play that
        completes no mandala changes one mandala (its cards, colours and claim) and the
        seat's hand size, and leaves the tiles, so the score, alone.  None for a play that
        completes a mandala (its resolution changes everything), one whose draw waits for
        the discard pile to be reshuffled (chance), one the rules refuse, and any action
        but a play (``rule``: the table's draw rule, as the rules have it)."""
        out: list[float | None] = [None] * len(actions)
        if state.phase != PLAY or state.turn != seat or state.hidden:
            return out
        base = self._score(state, seat)
        tiles = state.tiles
        mandalas = state.mandalas
        terms = [self._terms(tiles, mandala, False, seat) for mandala in mandalas]
        hand = state.hands[seat]
        size = sum(hand)
        deck = len(state.deck)
        reshuffles = any(state.discard)
        for i, action in enumerate(actions):
            args = play_args(action)
            if args is None:
                continue
            at, colour, count = args
            if check_play(state, seat, at, colour, count, rule) is not None:
                continue
            mandala = mandalas[at]
            present = mandala.present
            up = not present >> colour & 1
            if up and is_complete(present | 1 << colour):
                continue
            left = size - count
            wanted = rule.wanted(count, left)
            if wanted > deck and reshuffles:
                continue
            totals = put(mandala.totals, seat, mandala.totals[seat] + count)
            ups = put(mandala.ups, seat, mandala.ups[seat] + count) if up else mandala.ups
            claim = (seat if mandala.claim != seat and claims(totals, ups, seat)
                     else mandala.claim)
            placed = Mandala(mandala.tiles, claim, mandala.plays,
                             present | 1 << colour if up else present, totals, ups)
            changed = list(terms)
            changed[at] = self._terms(tiles, placed, False, seat)
            out[i] = self._total(base, left + min(wanted, deck), changed)
        return out


#: A mandala that promises nothing: no share, nothing against, no cards due back.
NOTHING = (0.0, 0.0, 0.0)

"""How good a Petals position is for one seat (``BotSupport.evaluate``), for bots.

``score`` is the figure a seat would rank by if the game stopped now; ``evaluate`` is the
figure it is likely to end with.  Both are in the same points, signed so that more is
better, and both come from the table's `ScoreRule` (the extension hook
``petals_score_rule``), so a variant that changes the figure changes the judgement too.
Four things are added to the trackers as they stand, each from the rules:

1. **A symbol effect waiting for the seat's choice.**  After different symbols the card
   just laid has not scored yet, but the seat will score at least that much (it may score
   the card, or move another one instead): its points are counted now.  After identical
   symbols the card has scored already and the move is a free extra: nothing is added.
2. **The card the seat keeps to the end.**  In the final round, once the seat has laid its
   last card, the card left in its hand will be scored directly: its points are counted
   now, as the table's final scoring (``petals_final_scoring``) adds them.  Earlier, the
   seat will keep one of the cards it holds then; a share (`Tuning.hand`) of the best gain
   one of its cards in hand would bring is counted.
3. **The turns still to come.**  Only some trackers will count at the end (the two lowest,
   or the highest and the lowest under Harmony), and a point laid now on a tracker that is
   far from counting is worth less than one that surely will.  The seat's trackers are
   judged as they may end: the figure is averaged over 12 ways of adding to the four
   trackers the spread of what the remaining turns may add (`Tuning.spread`: four
   quantiles of a normal law, in the 12 even orders, so that every two trackers meet every
   pair of them once).  With no turn left this is the figure
   itself; with many, every tracker near the bottom counts, which is what a player
   balancing four trackers weighs.  The points themselves the turns will add (the same for
   every action) are not counted: a seat with more turns to play is not judged ahead.
4. **Leading a tracker.**  A seat that leads no tracker at the end is out, whatever its
   figure.  A seat that leads none now loses ``LEAD`` points for every point it is short
   of the nearest lead; this term stays once the game is over (it is the only difference
   from ``score`` then), so a bot never prefers a finish where it is eliminated.

The cost is at most 36 figure calls and no ``apply``: about as much as one ``apply``
(``python bench/petals_bots.py --cost`` measures it).  A search asks again and again
about positions that differ only where the figure does not look (the garden), so an
evaluator remembers each figure by what it reads: the seat, every seat's trackers, whose
turn and which phase, the pile's size, the final-round turns left, the seat's hand and
whether an effect waits (`MEMO` of them at most; never a position whose different-symbols
effect waits for the seat, whose figure reads the garden).  The final scoring hook is asked
once per card and player count, the first time a card's direct points are needed, and
remembered: a call through a table's relay costs several ``apply`` s.  This assumes the
final scoring adds a fixed amount per card whatever the trackers, as the standard rule
does; a variant that scores the last card otherwise is judged by what each card adds to
empty trackers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import permutations

from hedgerow.plugins.petals.scorerule import ScoreRule
from hedgerow.plugins.petals.scoring import Points, score_at
from hedgerow.plugins.petals.state import FINAL, OVER, PLAY, State

Evaluate = Callable[[State, int], float]
#: ``final(trackers, remaining) -> trackers``: the table's final scoring (a hook relay).
Final = Callable[[tuple[Points, ...], tuple[tuple[int, ...], ...]], tuple[Points, ...]]

#: Normal quantiles of the four quarters' midpoints (1/8, 3/8, 5/8, 7/8).
QUANTILES = (-1.1503, -0.3186, 0.3186, 1.1503)
#: The even orders of the quantiles: every tracker meets every quantile three times and
#: every two trackers every ordered pair of distinct quantiles once (as in all 24 orders).
#: Each order is scaled by its own factor (0.45 to 1.55, mean 1, assigned out of step with
#: the orders), so that no gap between trackers falls between the same offsets every time:
#: with one scale, a spread much wider than the trackers' differences would put the same
#: trackers at the bottom in every order and tie positions a player tells apart.
ORDERS: tuple[tuple[float, float, float, float], ...] = tuple(
    (scale * QUANTILES[p[0]], scale * QUANTILES[p[1]], scale * QUANTILES[p[2]],
     scale * QUANTILES[p[3]])
    for scale, p in zip(
        (0.45 + 0.1 * ((5 * k) % 12) for k in range(12)),
        (p for p in permutations(range(4))
         if sum(p[i] > p[j] for i in range(4) for j in range(i + 1, 4)) % 2 == 0),
        strict=True,
    )
)
@dataclass(frozen=True, slots=True)
class Tuning:
    """The two measured constants of a judgement (bench/petals_bots.py, greedy against
    greedy, 100 two-player games a comparison).

    * ``spread``: how far what one turn may add to one tracker spreads (points): the
      spread of the remaining turns is ``spread * sqrt(turns)``;
    * ``hand``: the share of the best hand card's gain counted before the final round;
    * ``tie``: the share of the figure now in the judgement of the turns to come: where the
      12 orders cannot tell two positions apart, the figure now decides, as ``score``
      would.
    """

    spread: float
    hand: float
    tie: float


#: Per score rule (`ScoreRule.name`), greedy against greedy, 100 two-player games a
#: comparison.  Standard, one scale for every order and no ``tie``: spread 6 beat 4 (60 of
#: 100), which beat 2.5 (62.5), which beat 1.6 (62); hand 0.5 beat 0 (60 of 100); as
#: tuned, it beat greedy with score 200 of 200.  Harmony, against greedy with score:
#: spread 1.6 and hand 0.5 won 100 of 100 with tie 0 but 86 with tie 0.1 (the figure
#: now pulls towards laying cards that score nothing), and 71 with hand 0.
TUNING: dict[str, Tuning] = {
    "standard": Tuning(spread=6.0, hand=0.5, tie=0.1),
    "harmony": Tuning(spread=1.6, hand=0.5, tie=0.0),
}
#: A rule this module was not tuned for is judged with the standard rule's constants.
UNTUNED = TUNING["standard"]
#: Points lost per point a seat is short of leading its nearest tracker.
LEAD = 1.0
#: The most averaged judgements an evaluator remembers (a search meets the same trackers
#: and turns left again and again); it forgets them all when full.  At about 250 bytes an
#: entry (the key's tuple and floats, the value, the dict's slot) that is 4 MiB at most.
MEMO = 1 << 14


def turns_left(state: State, seat: int) -> int:
    """How many more cards ``seat`` will lay (a turn whose card is down counts as done)."""
    players, active = state.players, state.active
    if state.phase == OVER or active < 0:
        return 0
    behind = (seat - active) % players
    if state.phase == PLAY:
        pile = len(state.pile)
        left = (pile - behind + players - 1) // players if behind < pile else 0
        left += 1  # the final round
    elif state.phase == FINAL:
        left = 1 if behind < state.final_left else 0
    else:
        return 0
    if behind == 0 and state.pending is not None:
        left -= 1
    return max(0, left)


def evaluator(rule: ScoreRule, final: Final, *, spread: float | None = None,
              hand: float | None = None, tie: float | None = None,
              lead: float = LEAD) -> Evaluate:
    """``evaluate(state, seat)`` for a table whose figure is ``rule`` and whose final scoring
    is ``final`` (see the module docstring for what it counts).  ``spread`` and ``hand``
    and ``tie`` replace the rule's `TUNING` (for experiments)."""
    tuned = TUNING.get(rule.name, UNTUNED)
    if spread is None:
        spread = tuned.spread
    if hand is None:
        hand = tuned.hand
    if tie is None:
        tie = tuned.tie
    figure = rule.figure
    sign = -1.0 if rule.lower_wins else 1.0
    direct: dict[tuple[int, int], Points] = {}

    def direct_points(card: int, players: int) -> Points:
        key = (card, players)
        found = direct.get(key)
        if found is None:
            zero = ((0, 0, 0, 0),) * players
            hands = ((card,),) + ((),) * (players - 1)
            found = final(zero, hands)[0]
            direct[key] = found
        return found

    offsets: dict[int, tuple[tuple[float, float, float, float], ...]] = {}

    memo: dict[tuple[float, float, float, float, int], float] = {}

    def judged(points: tuple[float, float, float, float], left: int) -> float:
        if left <= 0 or spread <= 0.0:
            return sign * figure(points)  # type: ignore[arg-type]
        key = (*points, left)
        known = memo.get(key)
        if known is not None:
            return known
        if len(memo) >= MEMO:
            memo.clear()
        memo[key] = value = _averaged(points, left)
        return value

    def _averaged(points: tuple[float, float, float, float], left: int) -> float:
        shifts = offsets.get(left)
        if shifts is None:
            width = spread * left ** 0.5
            shifts = tuple((width * qa, width * qb, width * qc, width * qd)
                           for qa, qb, qc, qd in ORDERS)
            offsets[left] = shifts
        a, b, c, d = points
        total = 0.0
        for sa, sb, sc, sd in shifts:
            total += figure((a + sa, b + sb, c + sc, d + sd))  # type: ignore[arg-type]
        now = figure(points)  # type: ignore[arg-type]
        return sign * ((1.0 - tie) * total / len(shifts) + tie * now)

    known: dict[tuple[object, ...], float] = {}

    def evaluate(state: State, seat: int) -> float:
        # Remembered by everything the figure reads (the garden only while a different-
        # symbols effect waits for this seat: then it is worked out each time).
        pending = state.pending
        if pending is not None and state.active == seat and pending.kind == "different":
            return figured(state, seat)
        key = (seat, state.trackers, state.active, state.phase, len(state.pile),
               state.final_left, state.hands[seat], pending is None)
        value = known.get(key)
        if value is None:
            if len(known) >= MEMO:
                known.clear()
            value = known[key] = figured(state, seat)
        return value

    def figured(state: State, seat: int) -> float:
        mine = state.trackers[seat]
        f, w, e, a = float(mine[0]), float(mine[1]), float(mine[2]), float(mine[3])
        pending = state.pending
        if pending is not None and state.active == seat and pending.kind == "different":
            gain = score_at(state.garden, pending.played)
            f, w, e, a = f + gain[0], w + gain[1], e + gain[2], a + gain[3]
        left = turns_left(state, seat)
        held = state.hands[seat] if state.phase != OVER else ()
        base = (f, w, e, a)
        if state.phase == FINAL and len(held) == 1 and left == 0:
            gain = direct_points(held[0], state.players)
            value = judged((f + gain[0], w + gain[1], e + gain[2], a + gain[3]), left)
        else:
            value = judged(base, left)
            if held and hand > 0.0:
                best = None
                for card in held:
                    gain = direct_points(card, state.players)
                    v = judged((f + gain[0], w + gain[1], e + gain[2], a + gain[3]), left)
                    if best is None or v > best:
                        best = v
                assert best is not None
                value += hand * (best - value)
        if lead > 0.0 and state.players > 1:
            short = _short(state.trackers, seat)
            if short > 0:
                value -= lead * short
        return value

    return evaluate


def _short(trackers: tuple[Points, ...], seat: int) -> int:
    """How many points ``seat`` is short of leading its nearest tracker (0 or less: it
    leads one, ties counting)."""
    mine = trackers[seat]
    if len(trackers) == 2:
        other = trackers[1 - seat]
        return min(other[0] - mine[0], other[1] - mine[1], other[2] - mine[2],
                   other[3] - mine[3])
    rest = [t for s, t in enumerate(trackers) if s != seat]
    return min(max(t[k] for t in rest) - mine[k] for k in range(4))

"""Colouring other seats' face-down plays at random, as a card counter would (for `sample`).

A seat sees another seat's face-down play only as ``count`` cards of one colour that was
present on the mandala when they were laid (`View`).  Sampling a state gives every such play
a colour out of the *pool*: the cards the seat cannot see.  Drawn uniformly over physical
deals, a colouring ``c`` (one colour per play) is worth ``W(c) = prod over colours of
S!/(S-U)!`` (``S`` the pool's cards of that colour, ``U`` the cards ``c`` lays of it): the
ways to pick those very cards; the rest of the pool is then dealt the same number of ways
for every colouring.  `colour_plays` draws with these weights:

1. **Exact, by acceptance.**  The plays (largest first) take a colour one after the other,
   each with weight ``L!/(L-k)!`` (``L`` what the pool still holds of it, ``k`` the play's
   cards).  Such a draw has probability ``W(c) / prod Z`` (``Z`` each step's total weight),
   so accepting it with probability ``prod (Z / Zmax)`` (``Zmax``: the step's total on the
   whole pool, a bound on ``Z``) leaves exactly ``W``.  A few tries are enough while the
   hidden plays are few (about 85% are accepted with up to 4 plays, 35% with 5 to 9, on
   views of random games).
2. **Exact, by counting.**  When those tries fail and the pool is tight (one of them ran
   out of cards on the way, or the plays hold half the pool or more: there a Markov chain
   would mix slowly), the weighted number of ways to colour the plays still to come out
   of each pool left is counted (a dynamic programme over the plays, remembered per view,
   since a search samples one view again and again), and the plays take their colours one
   by one with exactly the right odds.  That count is small when the pool is tight (few
   colourings fit); it is given up beyond `COUNT_BUDGET` entries.
3. **Close to exact, by a short Markov chain**, otherwise (acceptance falls under 1%
   beyond 15 plays): the last complete sequential draw (or, if every try ran out of
   cards, a colouring found by a depth-first search) is improved by a few sweeps of a
   Gibbs sampler whose stationary distribution is ``W``: each play in turn re-draws its
   colour given all the others (weight ``L!/(L-k)!`` over what the others leave), then
   pairs of plays try to exchange colours (Metropolis).  A large pool is exactly where
   such a chain mixes fast; its answer is not exactly ``W`` but close to it (measured:
   see `SWEEPS`), and always a colouring the pool can supply.

Every random draw comes from the given `Rng`, through one `Digits` per call: several exact
uniform draws out of each 64-bit word (the draws here are mostly below 100), which made
colouring about 15-25% cheaper than one ``randbelow`` word a draw (measured on the views
of 30 random games with 2 and 4 players, 0.75-0.89 of the time).  The order of everything
is fixed.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from hedgerow.core import Rng

#: A hidden face-down play: its number of cards and the colours it may have (present then).
Group = tuple[int, tuple[int, ...]]

#: A product of ranges drawn at once stays below this, so that ``randbelow`` draws again
#: (rejection) less than once in 64 calls.
BATCH = 1 << 58
#: Exact draws tried before the Markov chain, by the number of hidden plays: 3 up to 4
#: plays, 2 up to 9, 1 beyond (acceptance falls under 10%: that draw mostly starts the
#: chain).
TRIES = ((4, 3), (9, 2))
#: Entries the exact count of colourings may hold before the Markov chain is used instead.
COUNT_BUDGET = 200
#: Sweeps of the Markov chain: measured on real views of 5 to 7 hidden plays against exact
#: enumeration, each play's colour frequencies are within sampling noise (about 0.01 in
#: total variation) after 2 sweeps, and off by up to 0.13 with none.
SWEEPS = 2


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(n - k + 1, n + 1):
        out *= i
    return out if k <= n else 0


_MOST = 15  # cards of one colour: no pool or play holds more
_FALLING = tuple(tuple(_falling(n, k) for k in range(_MOST + 1)) for n in range(_MOST + 1))


def falling(n: int, k: int) -> int:
    """``n! / (n - k)!``: the ways to pick ``k`` ordered cards out of ``n`` (0 if k > n)."""
    if n <= _MOST and k <= _MOST:
        return _FALLING[n][k]
    return _falling(n, k)


def below(rng: Rng, n: int) -> int:
    """A uniform integer in ``[0, n)`` for any ``n >= 1`` (``Rng.randbelow`` stops at 2**64)."""
    if n <= BATCH:
        return rng.randbelow(n)
    words = (n.bit_length() + 63) // 64 + 1
    space = 1 << (64 * words)
    limit = space - space % n
    while True:
        value = 0
        for _ in range(words):
            value = value << 64 | rng.next_u64()
        if value < limit:
            return value % n


class Digits:
    """Uniform integers below any bound, several out of each 64-bit word, exactly.

    It holds a number uniform below some range.  A draw below ``n`` takes the number's
    last digit in base ``n`` when the number falls in the largest multiple of ``n`` under
    the range (then that digit and the rest are uniform and independent), else keeps the
    overshoot, itself uniform below what is left of the range, and tries again; words are
    appended whenever the range is under ``n``.  So every draw is exactly uniform, and the
    draws the colouring makes (mostly below 100) cost a fraction of a word each instead of
    one word (``Rng.randbelow``).
    """

    __slots__ = ("_next", "_span", "_value")

    def __init__(self, rng: Rng) -> None:
        self._next = rng.next_u64
        self._value = 0
        self._span = 1

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (``n >= 1``)."""
        value, span = self._value, self._span
        while True:
            while span < n:
                value = value << 64 | self._next()
                span <<= 64
            keep = span - span % n
            if value < keep:
                self._value, self._span = value // n, keep // n
                return value % n
            value -= keep
            span -= keep


#: ``draw(n)``: a uniform integer below ``n`` (`Digits.below`).
Draw = Callable[[int], int]


def pick(weights: list[int], rng: Rng) -> int:
    """An index drawn with probability proportional to ``weights`` (their sum > 0)."""
    return _index(weights, below(rng, sum(weights)))


def _sequential(groups: list[Group], order: list[int], pool: list[int],
                draw: Draw) -> tuple[list[int] | None, bool]:
    """One sequential draw (module doc, 1): the colouring (None when the pool ran out on the
    way) and whether it was accepted."""
    left = list(pool)
    chosen = [-1] * len(groups)
    z_all, z_max = 1, 1
    for g in order:
        count, allowed = groups[g]
        weights = [_FALLING[left[c]][count] for c in allowed]
        total = sum(weights)
        if not total:
            return None, False
        z_all *= total
        z_max *= sum([_FALLING[pool[c]][count] for c in allowed])
        c = allowed[_index(weights, draw(total))]
        chosen[g] = c
        left[c] -= count
    return chosen, z_all == z_max or draw(z_max) < z_all


def _index(weights: list[int], draw: int) -> int:
    """The index whose stretch of the cumulated ``weights`` holds ``draw``."""
    for i, w in enumerate(weights):
        draw -= w
        if draw < 0:
            return i
    raise AssertionError("unreachable: the draw is below the sum")


def _search(groups: list[Group], order: list[int], pool: list[int], rng: Rng) -> list[int]:
    """Some colouring the pool can supply (a depth-first search in a random order, dead
    ends remembered by position and pool left); ValueError when there is none."""
    chosen = [-1] * len(groups)
    left = list(pool)
    dead: set[tuple[int, tuple[int, ...]]] = set()  # membership only: order never matters

    def search(i: int) -> bool:
        if i == len(order):
            return True
        key = (i, tuple(left))
        if key in dead:
            return False
        g = order[i]
        count, allowed = groups[g]
        options = [c for c in allowed if left[c] >= count]
        rng.shuffle(options)
        for c in options:
            left[c] -= count
            chosen[g] = c
            if search(i + 1):
                return True
            left[c] += count
        dead.add(key)
        return False

    if not search(0):
        raise ValueError("no colouring of the face-down plays fits the unknown cards: "
                         "not a view of a real Mandala table")
    return chosen


def _chain(groups: list[Group], chosen: list[int], pool: list[int], draw: Draw) -> None:
    """A few sweeps of the Markov chain (module doc, 2) from ``chosen``, changed in place."""
    left = list(pool)
    for (count, _), c in zip(groups, chosen, strict=True):
        left[c] -= count
    n = len(groups)
    for _ in range(SWEEPS):
        for g, (count, allowed) in enumerate(groups):
            left[chosen[g]] += count
            weights = [_FALLING[left[c]][count] for c in allowed]
            c = allowed[_index(weights, draw(sum(weights)))]
            chosen[g] = c
            left[c] -= count
        for _ in range(n // 2 if n > 1 else 0):
            g, step = divmod(draw(n * (n - 1)), n - 1)  # two different plays at once
            _exchange(groups, chosen, left, g, (g + 1 + step) % n, draw)


def _exchange(groups: list[Group], chosen: list[int], left: list[int], g: int, h: int,
              draw: Draw) -> None:
    """Plays ``g`` and ``h`` swap colours, with the Metropolis acceptance for ``W``."""
    (kg, ag), (kh, ah) = groups[g], groups[h]
    cg, ch = chosen[g], chosen[h]
    if cg == ch or ch not in ag or cg not in ah:
        return
    if kg != kh:
        # W = prod S!/(S-U)! changes in colours cg and ch only; with B the pool each has
        # without its play, W'/W = B_g!/(B_g-k_h)! * B_h!/(B_h-k_g)! over the same now
        before = falling(left[cg] + kg, kg) * falling(left[ch] + kh, kh)
        after_g, after_h = left[cg] + kg - kh, left[ch] + kh - kg
        if after_g < 0 or after_h < 0:
            return
        after = falling(left[cg] + kg, kh) * falling(left[ch] + kh, kg)
        if after < before and draw(before) >= after:
            return
        left[cg], left[ch] = after_g, after_h
    chosen[g], chosen[h] = ch, cg


class _TooMany(Exception):
    """The exact count needs more entries than `COUNT_BUDGET`."""


Table = dict[tuple[int, tuple[int, ...]], int]


@lru_cache(maxsize=64)
def _counted(groups: tuple[Group, ...], pool: tuple[int, ...]) -> Table | None:
    """The weighted number of ways to colour plays ``i`` onwards out of each pool left,
    ``{(i, left): ways}`` over every reachable pair, or None beyond `COUNT_BUDGET` entries.
    Remembered: a search samples the same view again and again."""
    memo: Table = {}

    def ways(i: int, left: tuple[int, ...]) -> int:
        if i == len(groups):
            return 1
        key = (i, left)
        found = memo.get(key)
        if found is None:
            if len(memo) >= COUNT_BUDGET:
                raise _TooMany
            count, allowed = groups[i]
            found = 0
            for c in allowed:
                if left[c] >= count:
                    found += _FALLING[left[c]][count] * ways(i + 1, _less(left, c, count))
            memo[key] = found
        return found

    try:
        ways(0, pool)
    except _TooMany:
        return None
    return memo


def _less(left: tuple[int, ...], colour: int, count: int) -> tuple[int, ...]:
    return (*left[:colour], left[colour] - count, *left[colour + 1:])


def _from_table(groups: tuple[Group, ...], pool: tuple[int, ...], table: Table,
                draw: Draw) -> list[int]:
    """A colouring drawn exactly from the counts (module doc, 2)."""
    if not table[(0, pool)]:
        raise ValueError("no colouring of the face-down plays fits the unknown cards: "
                         "not a view of a real Mandala table")
    chosen: list[int] = []
    left = pool
    last = len(groups) - 1
    for i, (count, allowed) in enumerate(groups):
        options = [c for c in allowed if left[c] >= count]
        weights = [_FALLING[left[c]][count]
                   * (table[(i + 1, _less(left, c, count))] if i < last else 1)
                   for c in options]
        c = options[_index(weights, draw(sum(weights)))]
        chosen.append(c)
        left = _less(left, c, count)
    return chosen


def colour_plays(groups: list[Group], pool: list[int], rng: Rng) -> list[int]:
    """A colour for each hidden play (module doc); ``pool`` loses the cards they lay.
    Raises ValueError when the pool cannot colour them all."""
    if not groups:
        return []
    order = sorted(range(len(groups)), key=lambda g: -groups[g][0])  # big plays first
    start: list[int] | None = None
    tries = next((t for most, t in TRIES if len(groups) <= most), 1)
    tight = False  # a draw ran out of cards on the way
    draw = Digits(rng).below
    for _ in range(tries):
        chosen, accepted = _sequential(groups, order, pool, draw)
        if accepted and chosen is not None:
            start = chosen
            break
        if chosen is not None:
            start = chosen
        else:
            tight = True
    else:
        ordered = tuple(groups[g] for g in order)
        tight = tight or sum(pool) < 2 * sum(count for count, _ in groups)
        table = _counted(ordered, tuple(pool)) if tight else None
        if table is not None:
            drawn = _from_table(ordered, tuple(pool), table, draw)
            start = [-1] * len(groups)
            for g, c in zip(order, drawn, strict=True):
                start[g] = c
        else:
            if start is None:
                start = _search(groups, order, pool, rng)
            _chain(groups, start, pool, draw)
    assert start is not None
    for (count, _), c in zip(groups, start, strict=True):
        pool[c] -= count
    return start

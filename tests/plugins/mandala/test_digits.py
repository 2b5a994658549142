"""`colouring.Digits`: several uniform draws out of each 64-bit word, exactly uniform.

The face-down colouring of `sample` draws with it; its uniformity on whole colourings is
checked against exact enumeration in test_sample.  Here: each bound's frequencies, bounds
above one word, and the same stream giving the same draws.
"""

from __future__ import annotations

from collections import Counter

import pytest

from hedgerow.core import Rng
from hedgerow.plugins.mandala.bots.colouring import Digits


def test_draws_of_mixed_bounds_are_uniform() -> None:
    digits = Digits(Rng(b"digits"))
    bounds = (3, 10, 97, 2)
    seen: dict[int, Counter[int]] = {n: Counter() for n in bounds}
    rounds = 6000
    for _ in range(rounds):
        for n in bounds:
            seen[n][digits.below(n)] += 1
    for n in bounds:
        assert set(seen[n]) == set(range(n))
        for value in range(n):
            assert seen[n][value] / rounds == pytest.approx(1 / n, abs=max(0.02, 2.5 / n ** 1.5))


def test_bounds_beyond_one_word() -> None:
    digits = Digits(Rng(b"digits/wide"))
    n = 3 ** 50  # about 2**79
    values = [digits.below(n) for _ in range(2000)]
    assert all(0 <= v < n for v in values)
    above = sum(1 for v in values if v >= n // 2)
    assert 900 < above < 1100  # the high half as often as the low half
    assert digits.below(1) == 0


def test_the_same_stream_gives_the_same_draws() -> None:
    first, second = Digits(Rng(b"digits", "s")), Digits(Rng(b"digits", "s"))
    bounds = [7, 2 ** 64, 5, 3 ** 45, 90, 1, 11] * 20
    assert [first.below(n) for n in bounds] == [second.below(n) for n in bounds]


def test_several_draws_come_out_of_one_word() -> None:
    class Counting(Rng):
        __slots__ = ("words",)

        def next_u64(self) -> int:
            self.words += 1
            return super().next_u64()

    rng = Counting(b"digits/count")
    rng.words = 0
    digits = Digits(rng)
    for _ in range(1000):
        digits.below(90)
    assert rng.words < 200  # about 6.5 bits a draw: under a quarter of a word

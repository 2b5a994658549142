"""The counter-based RNG: reproducible, uniform by construction, independent streams."""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hedgerow.core.rng import Rng

SEED = bytes(range(32))


def test_first_word_is_the_documented_blake2b_block() -> None:
    block = hashlib.blake2b(b"setup\x00" + (0).to_bytes(8, "little"), key=SEED, digest_size=64)
    expected = [int.from_bytes(block.digest()[i : i + 8], "little") for i in range(0, 64, 8)]
    rng = Rng(SEED, "setup")
    assert [rng.next_u64() for _ in range(8)] == expected


def test_ninth_word_comes_from_the_next_counter_block() -> None:
    block = hashlib.blake2b(b"setup\x00" + (1).to_bytes(8, "little"), key=SEED, digest_size=64)
    rng = Rng(SEED, "setup")
    for _ in range(8):
        rng.next_u64()
    assert rng.next_u64() == int.from_bytes(block.digest()[:8], "little")


def test_same_seed_and_stream_same_numbers_different_stream_different() -> None:
    a, b, c = Rng(SEED, "x"), Rng(SEED, "x"), Rng(SEED, "y")
    xs = [a.randbelow(1000) for _ in range(50)]
    assert xs == [b.randbelow(1000) for _ in range(50)]
    assert xs != [c.randbelow(1000) for _ in range(50)]


def test_fork_is_the_named_substream() -> None:
    assert Rng(SEED).fork("bot").stream == "bot"
    assert Rng(SEED, "bot").fork("2").stream == "bot/2"
    assert Rng(SEED, "bot").fork("2").next_u64() == Rng(SEED, "bot/2").next_u64()


def test_randbelow_rejects_words_at_or_over_the_limit() -> None:
    class Scripted(Rng):
        def __init__(self, words: list[int]) -> None:
            super().__init__(SEED)
            self.script = list(words)

        def next_u64(self) -> int:
            return self.script.pop(0)

    n = 3
    limit = (1 << 64) - ((1 << 64) % n)
    assert Scripted([limit, limit + 1, 7]).randbelow(n) == 7 % n


@given(st.integers(min_value=1, max_value=10**12), st.binary(min_size=1, max_size=64))
def test_randbelow_stays_in_range(n: int, seed: bytes) -> None:
    rng = Rng(seed, "t")
    assert all(0 <= rng.randbelow(n) < n for _ in range(5))


def test_randbelow_is_roughly_uniform() -> None:
    rng = Rng(SEED, "uniform")
    counts = Counter(rng.randbelow(6) for _ in range(60_000))
    assert set(counts) == set(range(6))
    assert all(9_400 < c < 10_600 for c in counts.values())


@given(st.lists(st.integers(), max_size=40), st.binary(min_size=1, max_size=8))
def test_shuffle_is_a_permutation(items: list[int], seed: bytes) -> None:
    out = Rng(seed).shuffled(items)
    assert sorted(out) == sorted(items)


def test_shuffle_is_fisher_yates_from_the_end() -> None:
    a, b = Rng(SEED, "s"), Rng(SEED, "s")
    items = list(range(10))
    expected = list(items)
    for i in range(len(expected) - 1, 0, -1):
        j = b.randbelow(i + 1)
        expected[i], expected[j] = expected[j], expected[i]
    a.shuffle(items)
    assert items == expected


def test_every_permutation_of_three_appears_evenly() -> None:
    rng = Rng(SEED, "perm")
    counts = Counter(tuple(rng.shuffled([0, 1, 2])) for _ in range(12_000))
    assert len(counts) == 6
    assert all(1_800 < c < 2_200 for c in counts.values())


@pytest.mark.parametrize("seed", [b"", bytes(65), "text"])
def test_bad_seed_is_refused(seed: object) -> None:
    with pytest.raises(ValueError):
        Rng(seed)  # type: ignore[arg-type]


def test_bad_arguments_are_refused() -> None:
    with pytest.raises(ValueError):
        Rng(SEED, "a\x00b")
    with pytest.raises(ValueError):
        Rng(SEED).randbelow(0)


def test_randint_and_choice() -> None:
    rng = Rng(SEED, "c")
    assert {rng.randint(3, 5) for _ in range(200)} == {3, 4, 5}
    assert {rng.choice("ab") for _ in range(100)} == {"a", "b"}

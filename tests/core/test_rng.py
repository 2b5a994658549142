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


# -- quick_shuffle (bots' sampling; not the protocol's shuffle) ---------------------------


def test_quick_shuffle_reaches_every_order_alike_and_keeps_the_items() -> None:
    """All 24 orders of 4 items, about equally often; a long list stays a permutation, and
    over many streams every item can land first."""
    rng = Rng(b"perm")
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(2400):
        items = [1, 2, 3, 4]
        rng.quick_shuffle(items)
        counts[tuple(items)] += 1
    assert len(counts) == 24
    assert min(counts.values()) > 50 and max(counts.values()) < 150
    firsts = set()
    for n in range(200):
        deck = list(range(90))
        Rng(b"shuffle", str(n)).quick_shuffle(deck)
        assert sorted(deck) == list(range(90))
        firsts.add(deck[0])
    assert len(firsts) > 80


def test_quick_shuffle_of_a_tail_draws_every_ordered_choice_alike() -> None:
    """``tail=m``: the last m positions hold a uniformly random ordered choice of m items
    (3 of 5 in order), and a long deal draws many words, each read in a batch."""
    rng = Rng(b"uniform")
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(3000):
        items = list(range(5))
        rng.quick_shuffle(items, 3)
        assert sorted(items) == list(range(5))
        counts[tuple(items[2:])] += 1
    assert len(counts) == 60
    assert all(25 < c < 75 for c in counts.values()), counts
    long = list(range(104))
    rng.quick_shuffle(long, 76)
    assert sorted(long) == list(range(104)) and long != list(range(104))


def test_quick_shuffle_is_reproducible_and_not_the_protocol_shuffle() -> None:
    a, b = list(range(30)), list(range(30))
    Rng(b"same").quick_shuffle(a)
    Rng(b"same").quick_shuffle(b)
    assert a == b
    assert a != Rng(b"same").shuffled(range(30))  # the rules' deal is never this one


def test_randbelow_refuses_a_bound_past_64_bits() -> None:
    with pytest.raises(ValueError, match="2\\*\\*64"):
        Rng(b"x").randbelow(2**64 + 1)
    assert 0 <= Rng(b"x").randbelow(2**64) < 2**64

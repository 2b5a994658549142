"""The only source of randomness in Hedgerow's rules: a counter-based generator over BLAKE2b.

Algorithm (version 1, specified with test vectors in docs/protocol.md so that another
implementation can reproduce every deck):

* A generator is a ``seed`` (1 to 64 bytes, used as the BLAKE2b key) and a ``stream`` name
  (UTF-8, no NUL).  Block ``n`` (n = 0, 1, 2, ...) is
  ``BLAKE2b-512(key=seed, data=stream_utf8 || 0x00 || u64le(n))``, read as eight 64-bit
  little-endian words.  Words are consumed in order, block after block.
* ``randbelow(n)``: ``limit = 2**64 - (2**64 mod n)``; draw words until one is below
  ``limit``; return ``word mod n``.  (Rejection sampling: no modulo bias.)
* ``shuffle(items)``: Fisher-Yates from the end: for ``i`` from ``len-1`` down to 1,
  ``j = randbelow(i + 1)``, swap items ``i`` and ``j``.
* ``fork(name)`` is the independent generator with the same seed and the stream
  ``stream + "/" + name`` (or just ``name`` from the root stream ``""``).

No global state, no wall clock: the same seed and stream give the same numbers in any
process, on any machine.

``quick_shuffle`` is not part of the algorithm above: it is a cheaper uniform shuffle for
bots that sample hidden cards thousands of times a second (every game's ``sample``).  It
reads several Fisher-Yates steps from one word, so it gives *other* orders than
``shuffle`` for the same stream; rules never use it (a deck is dealt with ``shuffle``).
"""

from __future__ import annotations

import hashlib
import struct
from collections.abc import MutableSequence, Sequence
from functools import lru_cache
from typing import TypeVar

T = TypeVar("T")

_TWO64 = 1 << 64
#: A block's eight little-endian 64-bit words.
_WORDS = struct.Struct("<8Q").unpack
#: The bounds of the Fisher-Yates steps one ``quick_shuffle`` word draws multiply to at most
#: this, so a word is redrawn less than once in 256 tries.
_BATCH = 1 << 56


@lru_cache(maxsize=256)
def _batches(n: int, tail: int) -> tuple[tuple[int, int, tuple[int, ...]], ...]:
    """How ``quick_shuffle`` draws the last ``tail`` positions of ``n`` items: batches of
    (product of the bounds, the largest multiple of it up to 2**64, the positions ``i``,
    each swapped with a uniform index below ``i + 1``), from the end."""
    lowest = max(n - tail, 1)  # position 0 has nothing left to swap with
    out: list[tuple[int, int, tuple[int, ...]]] = []
    i = n - 1
    while i >= lowest:
        steps: list[int] = []
        product = 1
        while i >= lowest and product * (i + 1) <= _BATCH:
            steps.append(i)
            product *= i + 1
            i -= 1
        out.append((product, _TWO64 - _TWO64 % product, tuple(steps)))
    return tuple(out)


class Rng:
    """A deterministic stream of random numbers named by ``(seed, stream)``."""

    __slots__ = ("_block", "_counter", "_pos", "_words", "seed", "stream")

    def __init__(self, seed: bytes, stream: str = "") -> None:
        if not isinstance(seed, bytes) or not 1 <= len(seed) <= 64:
            raise ValueError("an Rng seed is 1 to 64 bytes")
        if "\x00" in stream:
            raise ValueError("an Rng stream name may not contain NUL")
        self.seed = seed
        self.stream = stream
        self._block = stream.encode("utf-8") + b"\x00"
        self._counter = 0
        self._words: tuple[int, ...] = ()
        self._pos = 8

    def fork(self, name: str) -> Rng:
        """An independent generator for the sub-stream ``name`` (same seed)."""
        return Rng(self.seed, f"{self.stream}/{name}" if self.stream else name)

    def _refill(self) -> None:
        """Read the next block's eight words (``_pos`` back to 0)."""
        digest = hashlib.blake2b(
            self._block + self._counter.to_bytes(8, "little"), key=self.seed, digest_size=64
        ).digest()
        self._counter += 1
        self._words = _WORDS(digest)
        self._pos = 0

    def next_u64(self) -> int:
        """The next 64-bit word."""
        if self._pos == 8:
            self._refill()
        word = self._words[self._pos]
        self._pos += 1
        return word

    def randbelow(self, n: int) -> int:
        """A uniform integer in ``[0, n)``, by rejection sampling."""
        if not 1 <= n <= _TWO64:
            raise ValueError("randbelow needs 1 <= n <= 2**64")
        limit = _TWO64 - (_TWO64 % n)
        while True:  # next_u64, inlined: a random playout draws once a decision
            pos = self._pos
            if pos == 8:
                self._refill()
                pos = 0
            word = self._words[pos]
            self._pos = pos + 1
            if word < limit:
                return word % n

    def randint(self, low: int, high: int) -> int:
        """A uniform integer in ``[low, high]`` (both ends included)."""
        return low + self.randbelow(high - low + 1)

    def choice(self, items: Sequence[T]) -> T:
        """One element of a non-empty sequence, uniformly."""
        return items[self.randbelow(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Shuffle ``items`` in place (Fisher-Yates from the end)."""
        for i in range(len(items) - 1, 0, -1):
            j = self.randbelow(i + 1)
            items[i], items[j] = items[j], items[i]

    def quick_shuffle(self, items: MutableSequence[T], tail: int | None = None) -> None:
        """Shuffle ``items`` in place, uniformly, with about one word per eight steps.

        Fisher-Yates from the end, as ``shuffle``, but the swap partners of consecutive
        steps are the mixed-radix digits of one uniform number below the product of their
        bounds (drawn by rejection, like ``randbelow``): each digit is uniform and
        independent, so the result is exactly uniform.  With ``tail``, only the last
        ``tail`` positions are drawn: they end up holding a uniformly random ordered choice
        of ``tail`` of the items (the rest stay in some order).  Not the protocol's
        ``shuffle``: for bots' sampling, never for rules (see the module docstring).
        """
        n = len(items)
        draw = self.next_u64
        for product, limit, steps in _batches(n, n if tail is None else tail):
            word = draw()
            while word >= limit:
                word = draw()
            word %= product
            for i in steps:
                word, j = divmod(word, i + 1)
                items[i], items[j] = items[j], items[i]

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy of ``items``."""
        out = list(items)
        self.shuffle(out)
        return out

"""Mental poker: the cryptography of the sealed deck (docs/protocol.md §10), and nothing else.

Cards are points of the prime-order subgroup of edwards25519, through libsodium (PyNaCl's
``crypto_core_ed25519_*`` and ``crypto_scalarmult_ed25519_noclamp``); masking a card is
multiplying its point by a secret scalar, which commutes, so every peer can lock and
unlock its own layer in any order (SRA on an elliptic curve).

* **Card points** (`card_point`): item ``j`` of draw ``d`` of chance entry ``e`` is
  ``from_uniform(digest("hedgerow-card-v1", table_id, canon((e, d, j))))``: hash-to-curve,
  never a known scalar times the base point, so nobody knows any relation between cards.
* **A peer's scalars** come from one 32-byte secret per peer and table (`PeerSecret`):
  ``reduce(BLAKE2b-512(key=secret, data="hedgerow-sealed-v1/" + label))``, so a peer that
  crashes resumes with everything it had (the secret is kept on disk), and at the end of
  the game disclosing the secret discloses every key it used, for everyone to verify.
* **A shuffle** (`relock`, `lock`, `rekey`) of ``n`` items goes through the parties (one
  per peer, in seat order) in up to three passes; each pass is one party's `Step`:
  1. *relock* (only when some items are sealed cards of an earlier deck): each party in
     turn removes its own card key from those items and puts a lock ``g`` on every item;
  2. *lock*: each party in turn multiplies every point by its lock ``h`` and permutes them
     (a permutation drawn from its secret);
  3. *rekey*: each party in turn replaces its locks at each position ``i`` by a card key
     ``k_i``, and commits to every ``k_i`` with ``K_i = k_i B``.
  The deck is the last rekey's output: position ``i`` holds ``(prod_p k_p,i) C`` for the
  card point ``C`` of the card that lies there, which no party knows.
* **Opening** position ``i`` to a seat: every other party sends it its ``k_p,i``; each key
  is checked against its commitment (`check_key`), then the card is ``(prod k)^-1`` times
  the deck's point, looked up among the card points (`open_card`).
* **Verifying** (`verify_step`) replays a step from the party's disclosed secret: at the end
  of the game every party discloses its secret and every peer checks every step of every
  shuffle, naming the first party whose step does not follow from its secret.

Every point received is checked (`check_points`): a canonical encoding of a point of the
main subgroup, not of small order, and no two alike in one deck — a party that duplicates
a card in its step is caught at once.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from nacl import bindings as sodium
from nacl.exceptions import RuntimeError as SodiumError

from hedgerow.core.canon import digest, encode
from hedgerow.core.rng import Rng

POINT = 32
SCALAR = 32
SECRET = 32

#: The passes of a shuffle, in order.
RELOCK, LOCK, REKEY = "relock", "lock", "rekey"
PHASES = (RELOCK, LOCK, REKEY)


class MentalPokerError(ValueError):
    """Received cryptographic data that is malformed or inconsistent (the message says how)."""


# -- group arithmetic ------------------------------------------------------------------------


def reduce64(data: bytes) -> bytes:
    """A scalar from 64 uniform bytes (reduced modulo the group order)."""
    return bytes(sodium.crypto_core_ed25519_scalar_reduce(data))


def mul(scalar: bytes, point: bytes) -> bytes:
    """``scalar`` times ``point``."""
    try:
        return bytes(sodium.crypto_scalarmult_ed25519_noclamp(scalar, point))
    except SodiumError as exc:
        raise MentalPokerError("a point that cannot be multiplied (not a curve point)") from exc


def base(scalar: bytes) -> bytes:
    """``scalar`` times the base point ``B``."""
    return bytes(sodium.crypto_scalarmult_ed25519_base_noclamp(scalar))


def smul(a: bytes, b: bytes) -> bytes:
    """The product of two scalars."""
    return bytes(sodium.crypto_core_ed25519_scalar_mul(a, b))


def invert(scalar: bytes) -> bytes:
    """The inverse of a scalar."""
    return bytes(sodium.crypto_core_ed25519_scalar_invert(scalar))


def product(scalars: Iterable[bytes]) -> bytes:
    """The product of scalars (1 for none)."""
    out = ONE
    for s in scalars:
        out = smul(out, s)
    return out


ONE = (1).to_bytes(SCALAR, "little")


def valid_point(point: bytes) -> bool:
    """True for the canonical encoding of a point of the main subgroup, not of small order."""
    return (type(point) is bytes and len(point) == POINT
            and bool(sodium.crypto_core_ed25519_is_valid_point(point)))


def check_points(points: Sequence[bytes], what: str) -> None:
    """Raise `MentalPokerError` unless every point is valid and no two are alike."""
    for i, point in enumerate(points):
        if not valid_point(point):
            raise MentalPokerError(f"{what}: position {i} is not a valid point")
    if len(set(points)) != len(points):
        raise MentalPokerError(f"{what}: two positions hold the same point (a card duplicated)")


# -- cards -----------------------------------------------------------------------------------


def card_point(table_id: bytes, entry: int, draw: int, index: int) -> bytes:
    """The point of item ``index`` of draw ``draw`` of chance entry ``entry``."""
    seed = digest(b"hedgerow-card-v1", table_id, encode((entry, draw, index)))
    return bytes(sodium.crypto_core_ed25519_from_uniform(seed))


# -- a party's secret ------------------------------------------------------------------------


class PeerSecret:
    """One party's secret for one table, and every scalar derived from it."""

    __slots__ = ("_cache", "secret")

    def __init__(self, secret: bytes) -> None:
        if type(secret) is not bytes or len(secret) != SECRET:
            raise MentalPokerError("a party's secret is 32 bytes")
        self.secret = secret
        self._cache: dict[str, bytes] = {}

    def scalar(self, label: str) -> bytes:
        """The scalar named ``label`` (never zero)."""
        found = self._cache.get(label)
        if found is None:
            wide = hashlib.blake2b(b"hedgerow-sealed-v1/" + label.encode("ascii"),
                                   key=self.secret, digest_size=64).digest()
            found = reduce64(wide)
            if found == bytes(SCALAR):  # probability 2**-252: the protocol calls it a bug
                raise MentalPokerError(f"the scalar {label} is zero")
            self._cache[label] = found
        return found

    def relock(self, entry: int, draw: int) -> bytes:
        """``g``: the lock this party puts on every item in a relock pass."""
        return self.scalar(f"relock/{entry}/{draw}")

    def lock(self, entry: int, draw: int) -> bytes:
        """``h``: the lock this party puts on every point in its lock pass."""
        return self.scalar(f"lock/{entry}/{draw}")

    def card_key(self, entry: int, draw: int, pos: int) -> bytes:
        """``k``: this party's key for position ``pos`` of the deck of (entry, draw)."""
        return self.scalar(f"card/{entry}/{draw}/{pos}")

    def permutation(self, entry: int, draw: int, n: int) -> list[int]:
        """The order this party shuffles ``n`` points into in its lock pass:
        ``out[i] = locked[perm[i]]``."""
        seed = hashlib.blake2b(f"hedgerow-sealed-v1/perm/{entry}/{draw}".encode("ascii"),
                               key=self.secret, digest_size=32).digest()
        order = list(range(n))
        Rng(seed, "perm").shuffle(order)
        return order


# -- the three passes ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Step:
    """One party's pass over a deck: the points it publishes, and in a rekey pass its
    commitments ``K_i = k_i B``."""

    phase: str
    party: int
    points: tuple[bytes, ...]
    commitments: tuple[bytes, ...] = ()

    def digest_part(self) -> bytes:
        """The bytes this step adds to the deck's digest."""
        return encode((self.phase, self.party, b"".join(self.points), b"".join(self.commitments)))


@dataclass(frozen=True, slots=True)
class Item:
    """An item being shuffled, as the first pass takes it: a fresh card point (``sealed`` is
    None), or the deck point of a card of an earlier deck (``sealed`` = its entry, draw and
    position there, whose card keys the relock pass takes off)."""

    point: bytes
    sealed: tuple[int, int, int] | None = None


def relock_step(secret: PeerSecret, party: int, entry: int, draw: int,
                items: Sequence[Item], deck: Sequence[bytes]) -> Step:
    """Party ``party``'s relock pass over ``deck`` (the items' points so far)."""
    g = secret.relock(entry, draw)
    out = []
    for item, point in zip(items, deck, strict=True):
        factor = g if item.sealed is None else smul(g, invert(secret.card_key(*item.sealed)))
        out.append(mul(factor, point))
    return Step(RELOCK, party, tuple(out))


def lock_step(secret: PeerSecret, party: int, entry: int, draw: int,
              deck: Sequence[bytes]) -> Step:
    """Party ``party``'s lock pass: every point times ``h``, then permuted."""
    h = secret.lock(entry, draw)
    locked = [mul(h, point) for point in deck]
    order = secret.permutation(entry, draw, len(deck))
    return Step(LOCK, party, tuple(locked[j] for j in order))


def rekey_step(secret: PeerSecret, party: int, entry: int, draw: int, deck: Sequence[bytes],
               relocked: bool) -> Step:
    """Party ``party``'s rekey pass: at each position its locks (``h``, and ``g`` when the
    shuffle had a relock pass) replaced by the card key ``k_i``."""
    locks = secret.lock(entry, draw)
    if relocked:
        locks = smul(locks, secret.relock(entry, draw))
    unlock = invert(locks)
    points, commitments = [], []
    for pos, point in enumerate(deck):
        k = secret.card_key(entry, draw, pos)
        points.append(mul(smul(k, unlock), point))
        commitments.append(base(k))
    return Step(REKEY, party, tuple(points), tuple(commitments))


def make_step(secret: PeerSecret, phase: str, party: int, entry: int, draw: int,
              items: Sequence[Item], deck: Sequence[bytes], relocked: bool) -> Step:
    """The step ``party`` takes in ``phase`` over ``deck`` (what every party computes for
    itself, and what a verifier recomputes from a disclosed secret)."""
    if phase == RELOCK:
        return relock_step(secret, party, entry, draw, items, deck)
    if phase == LOCK:
        return lock_step(secret, party, entry, draw, deck)
    if phase == REKEY:
        return rekey_step(secret, party, entry, draw, deck, relocked)
    raise MentalPokerError(f"no shuffle pass is called {phase!r}")


def passes(items: Sequence[Item], parties: int) -> list[tuple[str, int]]:
    """Every (phase, party) step of a shuffle of ``items`` among ``parties``, in order."""
    phases = PHASES if any(item.sealed is not None for item in items) else (LOCK, REKEY)
    return [(phase, party) for phase in phases for party in range(parties)]


def check_step(step: Step, n: int) -> None:
    """Raise `MentalPokerError` unless ``step`` is well formed for a deck of ``n``: ``n``
    distinct valid points (and ``n`` valid commitments in a rekey pass)."""
    what = f"the {step.phase} pass of party {step.party}"
    if len(step.points) != n:
        raise MentalPokerError(f"{what} has {len(step.points)} points for {n} cards")
    check_points(step.points, what)
    if step.phase == REKEY:
        if len(step.commitments) != n:
            raise MentalPokerError(f"{what} has {len(step.commitments)} commitments for {n}")
        for i, c in enumerate(step.commitments):
            if not valid_point(c):
                raise MentalPokerError(f"{what}: commitment {i} is not a valid point")
    elif step.commitments:
        raise MentalPokerError(f"{what} carries commitments")


def deck_digest(steps: Iterable[Step]) -> bytes:
    """The digest of a finished shuffle (every step in order): what its chance entry logs."""
    return digest(b"hedgerow-deck-v1", *(step.digest_part() for step in steps))


def verify_step(secret: PeerSecret, step: Step, entry: int, draw: int, items: Sequence[Item],
                deck: Sequence[bytes], relocked: bool) -> bool:
    """True when ``step`` is exactly what the party with ``secret`` had to publish."""
    return make_step(secret, step.phase, step.party, entry, draw, items, deck,
                     relocked) == step


# -- opening ---------------------------------------------------------------------------------


def check_key(key: bytes, commitment: bytes) -> bool:
    """True when ``key`` is the card key committed to (``key B == commitment``)."""
    return (type(key) is bytes and len(key) == SCALAR and key != bytes(SCALAR)
            and base(key) == commitment)


def open_card(point: bytes, keys: Iterable[bytes]) -> bytes:
    """The card point under ``point``, given every party's key for its position."""
    return mul(invert(product(keys)), point)


def shuffle_all(secrets: Sequence[PeerSecret], entry: int, draw: int,
                items: Sequence[Item]) -> list[Step]:
    """Every step of a shuffle made by ``secrets`` (party ``p`` holds ``secrets[p]``), in
    order: for tests, benchmarks and the test vectors; peers make their own steps."""
    deck = [item.point for item in items]
    relocked = any(item.sealed is not None for item in items)
    steps = []
    for phase, party in passes(items, len(secrets)):
        step = make_step(secrets[party], phase, party, entry, draw, items, deck, relocked)
        steps.append(step)
        deck = list(step.points)
    return steps


# -- escrow: a departed party's secret, recovered by every remaining party together ---------


def escrow_key(secret: PeerSecret) -> bytes:
    """``E = e B``: the point a party publishes so that the others can seal its shares to it
    (``e`` = the scalar ``escrow`` of its secret: whoever recovers the secret can open them
    too)."""
    return base(secret.scalar("escrow"))


def escrow_shares(secret: PeerSecret, holders: Sequence[int]) -> dict[int, bytes]:
    """The secret split among ``holders`` (XOR shares: all of them are needed to recover
    it; any fewer say nothing of it)."""
    if not holders:
        raise MentalPokerError("a secret is shared among at least one other party")
    shares: dict[int, bytes] = {}
    rest = secret.secret
    for holder in holders[:-1]:
        share = hashlib.blake2b(f"hedgerow-sealed-v1/escrow-share/{holder}".encode("ascii"),
                                key=secret.secret, digest_size=SECRET).digest()
        shares[holder] = share
        rest = _xor(rest, share)
    shares[holders[-1]] = rest
    return shares


def share_commitment(share: bytes) -> bytes:
    """What the dealer publishes of a share, to check it when it is opened."""
    return digest(b"hedgerow-escrow-share-v1", share)


def seal_share(secret: PeerSecret, holder: int, holder_key: bytes, share: bytes
               ) -> tuple[bytes, bytes]:
    """``(R, c)``: ``share`` sealed to the party whose escrow key is ``holder_key``
    (ECIES: ``R = r B``, ``c = share XOR BLAKE2b-256(r E || R || E)``)."""
    r = secret.scalar(f"escrow-ephemeral/{holder}")
    ephemeral = base(r)
    return ephemeral, _xor(share, _share_pad(mul(r, holder_key), ephemeral, holder_key))


def open_share(holder: PeerSecret, ephemeral: bytes, sealed: bytes) -> bytes:
    """The share sealed to ``holder``'s escrow key."""
    e = holder.scalar("escrow")
    return _xor(sealed, _share_pad(mul(e, ephemeral), ephemeral, base(e)))


def combine_shares(shares: Iterable[bytes]) -> bytes:
    """The secret from all its shares."""
    out = bytes(SECRET)
    for share in shares:
        out = _xor(out, share)
    return out


def _share_pad(shared: bytes, ephemeral: bytes, key: bytes) -> bytes:
    return hashlib.blake2b(b"hedgerow-escrow-v1" + shared + ephemeral + key,
                           digest_size=SECRET).digest()


def _xor(a: bytes, b: bytes) -> bytes:
    return bytes(x ^ y for x, y in zip(a, b, strict=True))

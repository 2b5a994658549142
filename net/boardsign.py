"""Signatures made with a player's CURVE identity key: XEdDSA over Curve25519.

A player's identity is the X25519 (CURVE) keypair of `hedgerow.net.keys`.  The shared
leaderboard binds a game's record to that very key, so that the key the board shows is the
key that sits at tables: no second signing key exists, and nothing has to vouch that two
keys belong together.  X25519 keys cannot sign by themselves; XEdDSA (the Signal
specification, "The XEdDSA and VXEdDSA Signature Schemes", revision 1, 2016) signs with
the Edwards form of the same secret scalar, and the signature verifies as a standard
Ed25519 signature under the Edwards form of the Montgomery public key, sign bit 0.

* `sign(identity, message)`: a 64-byte signature ``R || s``.  The nonce is derived from the
  secret scalar, the message and a 64-byte ``Z``; Hedgerow takes ``Z`` from the secret key
  itself (``SHA-512("hedgerow-xeddsa-z-v1" || k)``), so a signature is deterministic, as
  Ed25519's are.  Determinism is a convenience, not a promise: verifiers accept any valid
  nonce.
* `verify(public, message, signature)`: True or False, never raises for bad input.
* `edwards_public(public)`: the Ed25519 public key a verifier uses (``y = (u-1)/(u+1)``).

libsodium (PyNaCl) does the group arithmetic and the Ed25519 verification; only the field
inversion of the key conversion is done here, with Python integers.
"""

from __future__ import annotations

import hashlib

from nacl import bindings as sodium
from nacl.exceptions import BadSignatureError, CryptoError

from hedgerow.net.keys import KEY_SIZE, Identity

#: A signature: ``R`` (32 bytes) then ``s`` (32 bytes).
SIGNATURE_SIZE = 64

_P = 2**255 - 19
_HASH1_PREFIX = b"\xfe" + b"\xff" * 31  # hash_1 of the XEdDSA specification
_Z_DOMAIN = b"hedgerow-xeddsa-z-v1"


def edwards_public(public: bytes) -> bytes | None:
    """The Ed25519 public key (sign bit 0) of the X25519 public key ``public``, or None for
    bytes that are not a usable key (wrong size, ``u >= p``, ``u = -1``)."""
    if len(public) != KEY_SIZE:
        return None
    u = int.from_bytes(public, "little")
    if u >= _P or (u + 1) % _P == 0:
        return None
    y = (u - 1) * pow(u + 1, _P - 2, _P) % _P
    return y.to_bytes(32, "little")


def _scalar(secret: bytes) -> tuple[bytes, bytes]:
    """``(a, A)``: the Edwards secret scalar and public key of the X25519 secret, with
    ``A``'s sign bit 0 (``a`` is negated when the point's sign bit is 1)."""
    clamped = bytearray(secret)  # X25519's clamping: the scalar the key really is
    clamped[0] &= 248
    clamped[31] &= 127
    clamped[31] |= 64
    a = sodium.crypto_core_ed25519_scalar_reduce(bytes(clamped) + bytes(32))
    # a is never 0: the clamped scalar is a multiple of 8 below 2**255 < 8 * (group order)
    point = sodium.crypto_scalarmult_ed25519_base_noclamp(a)
    if point[31] & 0x80:
        a = sodium.crypto_core_ed25519_scalar_negate(a)
        point = point[:31] + bytes([point[31] & 0x7F])
    return a, point


def sign(identity: Identity, message: bytes) -> bytes:
    """The XEdDSA signature of ``message`` by ``identity``'s secret key."""
    a, public = _scalar(identity.secret)
    z = hashlib.sha512(_Z_DOMAIN + identity.secret).digest()
    r = sodium.crypto_core_ed25519_scalar_reduce(
        hashlib.sha512(_HASH1_PREFIX + a + message + z).digest())
    big_r = sodium.crypto_scalarmult_ed25519_base_noclamp(r)
    h = sodium.crypto_core_ed25519_scalar_reduce(
        hashlib.sha512(big_r + public + message).digest())
    s = sodium.crypto_core_ed25519_scalar_add(r, sodium.crypto_core_ed25519_scalar_mul(h, a))
    return big_r + s


def verify(public: bytes, message: bytes, signature: bytes) -> bool:
    """Whether ``signature`` is ``public``'s (an X25519 key) signature of ``message``."""
    edwards = edwards_public(public)
    if edwards is None or len(signature) != SIGNATURE_SIZE:
        return False
    try:
        sodium.crypto_sign_open(signature + message, edwards)
    except (BadSignatureError, CryptoError, ValueError, TypeError):
        return False
    return True

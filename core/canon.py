"""Canonical bytes for rules data, and the hashes built on them.

Encoding (version 1; docs/protocol.md has the same table and test vectors).  ``varint`` is
unsigned LEB128.

======================  ===========================================================
value                   bytes
======================  ===========================================================
None                    ``N``
False / True            ``F`` / ``T``
int                     ``I`` varint(len(d)) d, where d is the ASCII decimal (``-`` sign)
str                     ``S`` varint(len(u)) u, where u is UTF-8
bytes                   ``B`` varint(len(b)) b
tuple / list            ``L`` varint(count) items...
dict / mapping          ``D`` varint(count) then key, value pairs sorted by encoded key
set / frozenset         ``U`` varint(count) items sorted by their encodings
dataclass instance      ``R`` str(class name) varint(count) then (str(field), value)
                        pairs sorted by field name
enum member             ``V`` str(class name) value(member.value)
======================  ===========================================================

Floats and other types are refused: rules state is made of integers and names.  Nothing
here depends on dict or set iteration order or on ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import dataclasses
import hashlib
from enum import Enum

HASH_SIZE = 32


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte = n & 0x7F
        n >>= 7
        if n:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def _blob(tag: bytes, data: bytes) -> bytes:
    return tag + _varint(len(data)) + data


def encode(value: object) -> bytes:
    """The canonical bytes of ``value`` (see the module docstring for the format)."""
    out: list[bytes] = []
    _encode(value, out)
    return b"".join(out)


def _encode(value: object, out: list[bytes]) -> None:
    if value is None:
        out.append(b"N")
    elif value is True:
        out.append(b"T")
    elif value is False:
        out.append(b"F")
    elif isinstance(value, Enum):
        out.append(b"V")
        out.append(_blob(b"S", type(value).__name__.encode()))
        _encode(value.value, out)
    elif isinstance(value, int):
        out.append(_blob(b"I", str(value).encode("ascii")))
    elif isinstance(value, str):
        out.append(_blob(b"S", value.encode("utf-8")))
    elif isinstance(value, (bytes, bytearray, memoryview)):
        out.append(_blob(b"B", bytes(value)))
    elif isinstance(value, (tuple, list)):
        out.append(b"L" + _varint(len(value)))
        for item in value:
            _encode(item, out)
    elif isinstance(value, dict):
        pairs = sorted((encode(k), encode(v)) for k, v in value.items())
        out.append(b"D" + _varint(len(pairs)))
        for k, v in pairs:
            out.append(k)
            out.append(v)
    elif isinstance(value, (set, frozenset)):
        items = sorted(encode(v) for v in value)
        out.append(b"U" + _varint(len(items)))
        out.extend(items)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = sorted(f.name for f in dataclasses.fields(value))
        out.append(b"R")
        out.append(_blob(b"S", type(value).__name__.encode()))
        out.append(_varint(len(fields)))
        for name in fields:
            out.append(_blob(b"S", name.encode()))
            _encode(getattr(value, name), out)
    else:
        raise TypeError(f"cannot canonically encode a {type(value).__name__}")


def digest(domain: bytes, *parts: bytes) -> bytes:
    """BLAKE2b-256 of ``domain`` followed by each part (parts are length-prefixed)."""
    h = hashlib.blake2b(domain, digest_size=HASH_SIZE)
    for part in parts:
        h.update(_varint(len(part)))
        h.update(part)
    return h.digest()


def state_hash(data: object) -> bytes:
    """The canonical hash of a game state's hash data."""
    return digest(b"hedgerow-state-v1", encode(data))

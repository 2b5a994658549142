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
sealed card             a record: ``R`` str("Sealed") 3, then ``draw``, ``entry``,
                        ``pos`` with their int values (`hedgerow.core.sealed.Sealed`)
======================  ===========================================================

Floats and other types are refused: rules state is made of integers and names.  Nothing
here depends on dict or set iteration order or on ``PYTHONHASHSEED``.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable
from enum import Enum
from typing import Any

from hedgerow.core.sealed import Sealed

HASH_SIZE = 32


_SMALL = [bytes((n,)) for n in range(128)]


def _varint(n: int) -> bytes:
    if n < 128:
        return _SMALL[n]
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


def _enc_none(value: None, out: list[bytes]) -> None:
    out.append(b"N")


def _enc_bool(value: bool, out: list[bytes]) -> None:
    out.append(b"T" if value else b"F")


def _int_bytes(value: int) -> bytes:
    digits = str(value).encode("ascii")
    return b"I" + _varint(len(digits)) + digits


#: Encodings of the small ints rules state is mostly made of (card ids, cells, scores).
_SMALL_INTS = {n: _int_bytes(n) for n in range(-64, 1024)}


def _enc_int(value: int, out: list[bytes]) -> None:
    out.append(_SMALL_INTS.get(value) or _int_bytes(value))


def _str_bytes(value: str) -> bytes:
    data = value.encode("utf-8")
    return b"S" + _varint(len(data)) + data


def _enc_str(value: str, out: list[bytes]) -> None:
    out.append(_str_bytes(value))


def _enc_bytes(value: bytes, out: list[bytes]) -> None:
    out.append(_blob(b"B", bytes(value)))


def _enc_seq(value: tuple | list, out: list[bytes]) -> None:
    out.append(b"L" + _varint(len(value)))
    small, exact, append = _SMALL_INTS, _EXACT, out.append
    for item in value:
        kind = type(item)
        if kind is int:
            append(small.get(item) or _int_bytes(item))
            continue
        enc = exact.get(kind)
        if enc is None:
            _encode(item, out)
        else:
            enc(item, out)


def _enc_dict(value: dict, out: list[bytes]) -> None:
    pairs = sorted((encode(k), encode(v)) for k, v in value.items())
    out.append(b"D" + _varint(len(pairs)))
    for k, v in pairs:
        out.append(k)
        out.append(v)


def _enc_set(value: set | frozenset, out: list[bytes]) -> None:
    items = sorted(encode(v) for v in value)
    out.append(b"U" + _varint(len(items)))
    out.extend(items)


#: A sealed card's record up to its first int, and the names between its ints.
_SEALED_HEAD = b"R" + _str_bytes("Sealed") + b"\x03" + _str_bytes("draw")
_SEALED_ENTRY = _str_bytes("entry")
_SEALED_POS = _str_bytes("pos")


def _enc_sealed(value: Sealed, out: list[bytes]) -> None:
    # A record like a dataclass's: R S("Sealed") 3, then draw, entry, pos (by name).
    small = _SMALL_INTS
    out.append(_SEALED_HEAD)
    out.append(small.get(value.draw) or _int_bytes(value.draw))
    out.append(_SEALED_ENTRY)
    out.append(small.get(value.entry) or _int_bytes(value.entry))
    out.append(_SEALED_POS)
    out.append(small.get(value.pos) or _int_bytes(value.pos))


#: For each dataclass encoded so far: its record's head (``R``, name, field count) and
#: each field's name, encoded, in sorted order (worked out once per class).
_RECORDS: dict[type, tuple[bytes, tuple[tuple[str, bytes], ...]]] = {}


def _record_shape(kind: type) -> tuple[bytes, tuple[tuple[str, bytes], ...]]:
    shape = _RECORDS.get(kind)
    if shape is None:
        names = sorted(f.name for f in dataclasses.fields(kind))
        shape = (b"R" + _str_bytes(kind.__name__) + _varint(len(names)),
                 tuple((name, _str_bytes(name)) for name in names))
        _RECORDS[kind] = shape
    return shape


#: Exact types first (the common case, one dict look-up); subclasses go the long way.
_EXACT: dict[type, Callable[[Any, list[bytes]], None]] = {
    Sealed: _enc_sealed,
    type(None): _enc_none,
    bool: _enc_bool,
    int: _enc_int,
    str: _enc_str,
    bytes: _enc_bytes,
    tuple: _enc_seq,
    list: _enc_seq,
    dict: _enc_dict,
    set: _enc_set,
    frozenset: _enc_set,
}


def _encode(value: object, out: list[bytes]) -> None:
    enc = _EXACT.get(type(value))
    if enc is not None:
        enc(value, out)
    elif isinstance(value, Enum):
        out.append(b"V")
        _enc_str(type(value).__name__, out)
        _encode(value.value, out)
    elif isinstance(value, int):  # an int subclass (bool is final, and exact in _EXACT)
        _enc_int(value, out)
    elif isinstance(value, str):
        _enc_str(value, out)
    elif isinstance(value, (bytes, bytearray, memoryview)):
        _enc_bytes(bytes(value), out)
    elif isinstance(value, (tuple, list)):
        _enc_seq(value, out)
    elif isinstance(value, dict):
        _enc_dict(value, out)
    elif isinstance(value, (set, frozenset)):
        _enc_set(value, out)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        head, fields = _record_shape(type(value))
        out.append(head)
        for name, name_bytes in fields:
            out.append(name_bytes)
            _encode(getattr(value, name), out)
    else:
        raise TypeError(f"cannot canonically encode a {type(value).__name__}")


def encode_entry(index: int, seat: int, kind: str, args: tuple) -> bytes:
    """``encode((index, seat, kind, args))`` for an action's ``(name, value)`` args, faster.

    The hash chain encodes one of these per action; this is the same bytes with the common
    int and str values handled inline (tests/core/test_canon.py checks the equivalence).
    """
    out: list[bytes] = [b"L\x04"]
    _enc_int(index, out)
    _enc_int(seat, out)
    _enc_str(kind, out)
    out.append(b"L" + _varint(len(args)))
    for name, value in args:
        data = name.encode("utf-8")
        out.append(b"L\x02S" + _varint(len(data)) + data)
        kind_of = type(value)
        if kind_of is int:
            digits = str(value).encode("ascii")
            out.append(b"I" + _varint(len(digits)) + digits)
        else:
            _encode(value, out)
    return b"".join(out)


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

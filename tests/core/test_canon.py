"""Canonical encoding and hashes: independent of dict/set order and of PYTHONHASHSEED."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from enum import Enum

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hedgerow.core.canon import digest, encode, encode_entry, state_hash


@dataclass(frozen=True)
class Point:
    y: int
    x: int


class Colour(Enum):
    RED = "red"


def test_known_encodings() -> None:
    assert encode(None) == b"N"
    assert encode(True) == b"T"
    assert encode(False) == b"F"
    assert encode(-12) == b"I\x03-12"
    assert encode("é") == b"S\x02\xc3\xa9"
    assert encode(b"\x00") == b"B\x01\x00"
    assert encode((1, "a")) == b"L\x02I\x011S\x01a"
    assert encode([1, "a"]) == encode((1, "a"))
    assert encode(Colour.RED) == b"V" + encode("Colour") + encode("red")


def test_dataclass_fields_are_sorted_by_name() -> None:
    assert encode(Point(y=2, x=1)) == b"R" + encode("Point") + b"\x02" + encode("x") + encode(
        1
    ) + encode("y") + encode(2)


def test_long_lengths_use_varints() -> None:
    assert encode("a" * 200)[:3] == b"S\xc8\x01"


def test_bool_is_not_an_int() -> None:
    assert encode(True) != encode(1)


@given(st.dictionaries(st.text(max_size=4), st.integers(), max_size=8))
def test_dict_order_does_not_matter(d: dict[str, int]) -> None:
    assert encode(d) == encode(dict(reversed(list(d.items()))))


@given(st.sets(st.text(max_size=4), max_size=8))
def test_set_order_does_not_matter(s: set[str]) -> None:
    assert encode(s) == encode(frozenset(sorted(s, reverse=True)))


@pytest.mark.parametrize("bad", [1.5, object(), {1, 2.0}])
def test_floats_and_objects_are_refused(bad: object) -> None:
    with pytest.raises(TypeError):
        encode(bad)


def test_digest_length_prefixes_parts() -> None:
    assert digest(b"d", b"ab", b"c") != digest(b"d", b"a", b"bc")
    assert len(state_hash((1, 2))) == 32


def test_hash_does_not_depend_on_pythonhashseed() -> None:
    code = (
        "from hedgerow.core.canon import state_hash;"
        "print(state_hash({'b': {3, 1, 2}, 'a': frozenset({'x', 'y', 'z'})}).hex())"
    )
    outs = {
        subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            check=True,
            env={**os.environ, "PYTHONHASHSEED": seed},
        ).stdout
        for seed in ("0", "1", "12345")
    }
    assert len(outs) == 1


@given(
    st.integers(min_value=0, max_value=10**6),
    st.integers(min_value=0, max_value=31),
    st.text(min_size=1, max_size=5),
    st.dictionaries(
        st.text(min_size=1, max_size=4),
        st.one_of(st.integers(), st.text(max_size=3), st.booleans(), st.binary(max_size=3),
                  st.tuples(st.integers(), st.text(max_size=2))),
        max_size=5,
    ),
)
def test_encode_entry_is_encode_of_the_tuple(index: int, seat: int, kind: str, args: dict) -> None:
    pairs = tuple(sorted(args.items()))
    assert encode_entry(index, seat, kind, pairs) == encode((index, seat, kind, pairs))


@pytest.mark.parametrize("n", [-65, -64, -1, 0, 1, 127, 128, 1023, 1024, 10**30, -(10**30)])
def test_ints_inside_and_outside_the_small_int_cache(n: int) -> None:
    digits = str(n).encode()
    assert encode(n) == b"I" + bytes([len(digits)]) + digits
    assert encode((n,)) == b"L\x01" + encode(n)

"""Commit-reveal seed agreement."""

from __future__ import annotations

import pytest

from hedgerow.core.seeding import commitment, seed_from_int, table_seed, verify_reveal

A, B = bytes([1]) * 32, bytes([2]) * 32


def test_reveal_matches_its_commitment_only() -> None:
    assert verify_reveal(commitment(A), A)
    assert not verify_reveal(commitment(A), B)
    assert not verify_reveal(commitment(A), A[:31])


def test_seed_depends_on_every_share_and_on_seat_order() -> None:
    assert table_seed([A, B]) != table_seed([B, A])
    assert table_seed([A, B]) != table_seed([A, A])
    assert len(table_seed([A, B])) == 32


@pytest.mark.parametrize("shares", [[], [A[:5]], [A, b"x" * 33]])
def test_bad_shares_are_refused(shares: list[bytes]) -> None:
    with pytest.raises(ValueError):
        table_seed(shares)


def test_commitment_needs_a_full_share() -> None:
    with pytest.raises(ValueError):
        commitment(b"short")


def test_local_seeds_differ_per_number() -> None:
    assert seed_from_int(1) != seed_from_int(2)
    assert seed_from_int(1) == seed_from_int(1)

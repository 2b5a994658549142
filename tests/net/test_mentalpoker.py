"""Mental poker: shuffles nobody can follow, cards only every key opens, cheats that show."""

from __future__ import annotations

import pytest

from hedgerow.net.mentalpoker import (
    LOCK,
    REKEY,
    RELOCK,
    Item,
    MentalPokerError,
    PeerSecret,
    Step,
    card_point,
    check_key,
    check_points,
    check_step,
    deck_digest,
    invert,
    mul,
    open_card,
    passes,
    shuffle_all,
    smul,
    valid_point,
    verify_step,
)

TABLE = bytes(range(16))
SECRETS = [PeerSecret(bytes([p + 1]) * 32) for p in range(3)]


def fresh(n: int, entry: int = 0, draw: int = 0) -> list[Item]:
    return [Item(card_point(TABLE, entry, draw, j)) for j in range(n)]


def test_card_points_are_distinct_valid_points_of_their_table_and_draw() -> None:
    points = {card_point(TABLE, 0, 0, j) for j in range(200)}
    assert len(points) == 200 and all(valid_point(p) for p in points)
    assert card_point(TABLE, 0, 0, 1) != card_point(TABLE, 0, 1, 1)
    assert card_point(TABLE, 0, 0, 1) != card_point(bytes(16), 0, 0, 1)


def test_masking_commutes_and_unmasks() -> None:
    point = card_point(TABLE, 0, 0, 0)
    a, b = SECRETS[0].lock(0, 0), SECRETS[1].lock(0, 0)
    assert mul(a, mul(b, point)) == mul(b, mul(a, point)) == mul(smul(a, b), point)
    assert mul(invert(a), mul(a, point)) == point


def test_a_shuffle_deals_every_card_once_and_only_every_key_opens_one() -> None:
    items = fresh(12)
    steps = shuffle_all(SECRETS, 0, 0, items)
    assert [(s.phase, s.party) for s in steps] == passes(items, 3) == [
        (LOCK, 0), (LOCK, 1), (LOCK, 2), (REKEY, 0), (REKEY, 1), (REKEY, 2)]
    for step in steps:
        check_step(step, 12)
    deck = steps[-1].points
    cards = {item.point: j for j, item in enumerate(items)}
    opened = []
    for pos in range(12):
        keys = [s.card_key(0, 0, pos) for s in SECRETS]
        for party, key in enumerate(keys):
            assert check_key(key, steps[3 + party].commitments[pos])
        opened.append(cards[open_card(deck[pos], keys)])
        assert open_card(deck[pos], keys[:2]) not in cards  # one key short: no card
    assert sorted(opened) == list(range(12))
    assert opened != list(range(12))  # shuffled


def test_a_deck_holding_cards_of_an_earlier_deck_is_relocked_first() -> None:
    first = shuffle_all(SECRETS, 0, 0, fresh(8))
    under = {}
    for pos in range(8):
        keys = [s.card_key(0, 0, pos) for s in SECRETS]
        under[pos] = open_card(first[-1].points[pos], keys)
    items = [Item(first[-1].points[pos], (0, 0, pos)) for pos in (1, 4, 6)] + fresh(2, 9, 0)
    steps = shuffle_all(SECRETS, 9, 0, items)
    assert [s.phase for s in steps] == [RELOCK] * 3 + [LOCK] * 3 + [REKEY] * 3
    opened = {open_card(steps[-1].points[pos], [s.card_key(9, 0, pos) for s in SECRETS])
              for pos in range(5)}
    assert opened == {under[1], under[4], under[6], items[3].point, items[4].point}


def test_every_step_verifies_from_its_secret_and_a_wrong_one_is_caught() -> None:
    items = fresh(10)
    steps = shuffle_all(SECRETS, 0, 0, items)
    deck = [item.point for item in items]
    for step in steps:
        assert verify_step(SECRETS[step.party], step, 0, 0, items, deck, False)
        assert not verify_step(SECRETS[(step.party + 1) % 3], step, 0, 0, items, deck, False)
        deck = list(step.points)
    # a party that substitutes a card (its step is not h times a permutation of the input)
    bad = Step(LOCK, 1, (steps[0].points[0], *steps[1].points[1:]))
    assert not verify_step(SECRETS[1], bad, 0, 0, items, list(steps[0].points), False)


def test_a_duplicated_card_is_caught_on_arrival() -> None:
    step = shuffle_all(SECRETS, 0, 0, fresh(6))[0]
    dup = Step(step.phase, step.party, (step.points[0], *step.points[:-1]))
    with pytest.raises(MentalPokerError, match="duplicated"):
        check_step(dup, 6)


@pytest.mark.parametrize("bad", [b"\x00" * 32, b"\x01" + b"\x00" * 31, b"\xff" * 32])
def test_points_off_the_main_subgroup_or_malformed_are_refused(bad: bytes) -> None:
    assert not valid_point(bad)
    with pytest.raises(MentalPokerError, match="not a valid point"):
        check_points([card_point(TABLE, 0, 0, 0), bad], "a deck")


def test_a_point_with_a_small_order_part_is_refused() -> None:
    # The point of order 2 is (0, -1): y = p - 1, encoded little-endian with x's sign 0.
    order_two = (2**255 - 19 - 1).to_bytes(32, "little")
    assert not valid_point(order_two)


def test_a_wrong_key_is_caught_by_its_commitment() -> None:
    steps = shuffle_all(SECRETS, 0, 0, fresh(4))
    right = SECRETS[0].card_key(0, 0, 2)
    assert check_key(right, steps[3].commitments[2])
    assert not check_key(SECRETS[0].card_key(0, 0, 1), steps[3].commitments[2])
    assert not check_key(bytes(32), steps[3].commitments[2])


def test_the_deck_digest_covers_every_step() -> None:
    steps = shuffle_all(SECRETS, 0, 0, fresh(4))
    other = shuffle_all([PeerSecret(b"\x09" * 32), *SECRETS[1:]], 0, 0, fresh(4))
    assert deck_digest(steps) != deck_digest(other) and len(deck_digest(steps)) == 32


def test_secrets_are_32_bytes() -> None:
    with pytest.raises(MentalPokerError):
        PeerSecret(b"short")

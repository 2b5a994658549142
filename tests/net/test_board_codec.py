"""The shared leaderboard's bytes: XEdDSA signatures with the CURVE key, records and the
board's messages (docs/protocol.md §11).

The signature is checked against an independent implementation of the XEdDSA
specification written here with Python integers (the Edwards curve's group law, RFC 8032's
encoding), so that the documented vectors do not rest on libsodium's word alone.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import given
from hypothesis import strategies as st
from nacl.bindings import crypto_scalarmult_base

from hedgerow.net import boardsign
from hedgerow.net.boardrecord import (
    MAX_LOG,
    BadRecord,
    GameRecord,
    deal_seed,
    record_digest,
    sign_record,
)
from hedgerow.net.boardwire import (
    MAX_ANSWER,
    MAX_GROUP_IDS,
    MAX_REQUEST,
    MAX_WANT,
    BoardError,
    BoardErrorCode,
    BoardMessage,
    BoardWireError,
    Games,
    Group,
    Ids,
    IdsRequest,
    Index,
    IndexRequest,
    Nudge,
    Want,
    decode_game,
    decode_message,
    encode_game,
    encode_message,
    group_digest,
)
from hedgerow.net.keys import Identity, generate
from hedgerow.proto import board_pb2 as pb

# --------------------------------------------------------------------------- a reference

P = 2**255 - 19
L = 2**252 + 27742317777372353535851937790883648493
D = -121665 * pow(121666, P - 2, P) % P
SQRT_M1 = pow(2, (P - 1) // 4, P)


def _add(p1: tuple[int, int, int, int], p2: tuple[int, int, int, int]) -> tuple[int, ...]:
    x1, y1, z1, t1 = p1
    x2, y2, z2, t2 = p2
    a, b = (y1 - x1) * (y2 - x2) % P, (y1 + x1) * (y2 + x2) % P
    c, dd = 2 * t1 * t2 * D % P, 2 * z1 * z2 % P
    e, f, g, h = b - a, dd - c, dd + c, b + a
    return (e * f % P, g * h % P, f * g % P, e * h % P)


def _mul(scalar: int, point: tuple[int, ...]) -> tuple[int, ...]:
    result: tuple[int, ...] = (0, 1, 1, 0)
    while scalar:
        if scalar & 1:
            result = _add(result, point)  # type: ignore[arg-type]
        point = _add(point, point)  # type: ignore[arg-type]
        scalar >>= 1
    return result


def _x(y: int, sign: int) -> int:
    x2 = (y * y - 1) * pow(D * y * y + 1, P - 2, P) % P
    x = pow(x2, (P + 3) // 8, P)
    if (x * x - x2) % P:
        x = x * SQRT_M1 % P
    return P - x if x % 2 != sign else x


BASE_Y = 4 * pow(5, P - 2, P) % P
BASE = (_x(BASE_Y, 0), BASE_Y, 1, _x(BASE_Y, 0) * BASE_Y % P)


def _affine(point: tuple[int, ...]) -> tuple[int, int]:
    zinv = pow(point[2], P - 2, P)
    return point[0] * zinv % P, point[1] * zinv % P


def _encode(point: tuple[int, ...]) -> bytes:
    x, y = _affine(point)
    return (y | (x & 1) << 255).to_bytes(32, "little")


def _h(*parts: bytes) -> int:
    return int.from_bytes(hashlib.sha512(b"".join(parts)).digest(), "little") % L


def reference_sign(secret: bytes, message: bytes, z: bytes) -> bytes:
    """XEdDSA (Signal's specification, rev. 1) with integers: ``calculate_key_pair`` then
    ``xeddsa_sign``."""
    k = int.from_bytes(secret, "little")
    k = (k & ~7 & ~(1 << 255)) | (1 << 254)  # X25519's clamping
    e = _mul(k, BASE)
    x, y = _affine(e)
    a = (L - k % L) % L if x & 1 else k % L
    big_a = y.to_bytes(32, "little")  # sign bit 0
    r = _h(b"\xfe" + b"\xff" * 31, a.to_bytes(32, "little"), message, z)
    big_r = _encode(_mul(r, BASE))
    s = (r + _h(big_r, big_a, message) * a) % L
    return big_r + s.to_bytes(32, "little")


def reference_verify(montgomery: bytes, message: bytes, signature: bytes) -> bool:
    """``xeddsa_verify``: the Edwards key of ``u`` (sign 0), then ``sB == R + hA``."""
    u = int.from_bytes(montgomery, "little")
    if u >= P:
        return False
    y = (u - 1) * pow(u + 1, P - 2, P) % P
    big_a = (_x(y, 0), y, 1, _x(y, 0) * y % P)
    big_r, s = signature[:32], int.from_bytes(signature[32:], "little")
    if s >= L:
        return False
    ry = int.from_bytes(big_r, "little")
    r_point = (_x(ry & ~(1 << 255), ry >> 255), ry & ~(1 << 255), 1, 0)
    r_point = (r_point[0], r_point[1], 1, r_point[0] * r_point[1] % P)
    h = _h(big_r, y.to_bytes(32, "little"), message)
    return _affine(_mul(s, BASE)) == _affine(_add(r_point, _mul(h, big_a)))  # type: ignore[arg-type]


def identity_of(secret: bytes) -> Identity:
    return Identity(crypto_scalarmult_base(secret), secret)


# --------------------------------------------------------------------------- signatures


@given(st.binary(min_size=32, max_size=32), st.binary(max_size=300))
def test_signatures_are_the_xeddsa_specifications(secret: bytes, message: bytes) -> None:
    me = identity_of(secret)
    signature = boardsign.sign(me, message)
    z = hashlib.sha512(b"hedgerow-xeddsa-z-v1" + secret).digest()
    assert signature == reference_sign(secret, message, z)
    assert boardsign.verify(me.public, message, signature)
    assert reference_verify(me.public, message, signature)


def test_the_edwards_key_is_the_montgomery_keys() -> None:
    """u = (1 + y) / (1 - y): the X25519 key a table knows names the Ed25519 key that
    verifies (sign bit 0)."""
    for _ in range(8):
        me = generate()
        edwards = boardsign.edwards_public(me.public)
        assert edwards is not None and edwards[31] & 0x80 == 0
        y = int.from_bytes(edwards, "little")
        assert (1 + y) * pow(1 - y, P - 2, P) % P == int.from_bytes(me.public, "little")


def test_a_signature_proves_its_key_and_its_message() -> None:
    me, other = generate(), generate()
    signature = boardsign.sign(me, b"game")
    assert boardsign.verify(me.public, b"game", signature)
    assert not boardsign.verify(other.public, b"game", signature)
    assert not boardsign.verify(me.public, b"gamE", signature)
    flipped = bytes([signature[0] ^ 1]) + signature[1:]
    assert not boardsign.verify(me.public, b"game", flipped)
    # bad input is a plain "no", never an exception
    for key, sig in [(b"", signature), (me.public, signature[:63]), (b"\xff" * 32, signature),
                     ((P - 1).to_bytes(32, "little"), signature), (me.public, b"\x00" * 64)]:
        assert not boardsign.verify(key, b"game", sig)
    # s not reduced below the group order: another encoding of the same signature
    s = int.from_bytes(signature[32:], "little") + L
    assert s < 2**256 and not boardsign.verify(me.public, b"game",
                                               signature[:32] + s.to_bytes(32, "little"))


# --------------------------------------------------------------------------- records


def test_a_record_binds_key_week_number_and_log() -> None:
    me = generate()
    record = sign_record(me, "2026-W49", 3, b"log bytes")
    assert record.signed() and record.problem() is None
    for changed in [GameRecord(me.public, "2026-W50", 3, b"log bytes", record.signature),
                    GameRecord(me.public, "2026-W49", 4, b"log bytes", record.signature),
                    GameRecord(me.public, "2026-W49", 3, b"log byteS", record.signature),
                    GameRecord(me.public, "2026-W49", 3, b"log byte", record.signature),
                    GameRecord(generate().public, "2026-W49", 3, b"log bytes",
                               record.signature)]:
        assert not changed.signed()
    assert decode_game(encode_game(record)) == record
    # the id names the content: one game signed twice (any valid nonce) has one id
    assert record.id == GameRecord(me.public, "2026-W49", 3, b"log bytes", b"\0" * 64).id


def test_deals_differ_by_key_game_board_week_and_number() -> None:
    me = generate()
    base = ("flowers", "", "2026-W49", 0)
    seeds = {deal_seed(me.public, *base)}
    for changed in [("flowers", "summer", "2026-W49", 0), ("flowers", "", "2026-W50", 0),
                    ("flowers", "", "2026-W49", 1), ("petals", "", "2026-W49", 0)]:
        seeds.add(deal_seed(me.public, *changed))
    seeds.add(deal_seed(generate().public, *base))
    assert len(seeds) == 6
    assert deal_seed(me.public, *base) == deal_seed(me.public, *base)


@pytest.mark.parametrize(("fields", "problem"), [
    (dict(player=b"\1" * 31), "the player key is 31 bytes, not 32"),
    (dict(week="2026-49"), "the week '2026-49' is not YYYY-Www"),
    (dict(week="2026-W54"), "2026-W54 is not a week"),
    (dict(number=512), "game number 512 is not below 512"),
    (dict(log=b""), "the record carries no log"),
    (dict(log=b"x" * (MAX_LOG + 1)), f"the log is {MAX_LOG + 1} bytes, more than {MAX_LOG}"),
    (dict(signature=b"\0" * 63), "the signature is 63 bytes, not 64"),
])
def test_a_malformed_record_is_named(fields: dict, problem: str) -> None:
    record = dict(player=b"\1" * 32, week="2026-W49", number=0, log=b"log",
                  signature=b"\0" * 64)
    record.update(fields)
    assert GameRecord(**record).problem() == problem
    msg = pb.BoardGame(**record)
    with pytest.raises(BadRecord, match="^" + problem.replace("(", r"\(").replace(")", r"\)")):
        decode_game(msg.SerializeToString())
    assert not GameRecord(**record).signed()


def test_garbage_is_not_a_record() -> None:
    with pytest.raises(BadRecord, match="not a BoardGame"):
        decode_game(b"\xff\xff\xff")
    with pytest.raises(BadRecord, match="more than"):
        decode_game(b"\0" * (MAX_LOG + 2000))
    assert record_digest(b"k" * 32, "2026-W49", 0, b"x") != record_digest(b"k" * 32,
                                                                          "2026-W49", 1, b"x")


# --------------------------------------------------------------------------- messages


def _group(**changes: object) -> Group:
    fields: dict[str, object] = dict(game="flowers", variants="summer", week="2026-W49",
                                     player=b"\7" * 32)
    fields.update(changes)
    return Group(**fields)  # type: ignore[arg-type]


def test_every_message_goes_and_comes_back() -> None:
    me = generate()
    records = tuple(sign_record(me, "2026-W49", n, b"log %d" % n) for n in range(3))
    ids = tuple(sorted(r.id for r in records))
    for body in [IndexRequest(), Index((_group(count=3, digest=group_digest(ids)),)),
                 IdsRequest((_group(), _group(week="2026-W48"))),
                 Ids((_group(count=3, digest=group_digest(ids), ids=ids),)), Want(ids),
                 Games(records), Nudge(47001), BoardError(BoardErrorCode.IGNORED, "ignored")]:
        message = BoardMessage(7, body)
        assert decode_message(encode_message(message), limit=MAX_ANSWER) == message


def _frame(**fields: object) -> bytes:
    return pb.BoardMessage(**fields).SerializeToString()


@pytest.mark.parametrize(("data", "why"), [
    (b"\xff\xfe", "not a board message"),
    (_frame(protocol=1), "a board message without a body"),
    (_frame(protocol=2, index_request=pb.BoardIndexRequest()), "board protocol 2, this peer "
                                                                "speaks 1"),
    (_frame(index_request=pb.BoardIndexRequest()), "board protocol 0"),
    (_frame(protocol=1, want=pb.BoardWant(ids=[b"\1" * 31])), "at most 32 ids of 32 bytes"),
    (_frame(protocol=1, want=pb.BoardWant(ids=[b"\1" * 32] * (MAX_WANT + 1))),
     "at most 32 ids"),
    (_frame(protocol=1, nudge=pb.BoardNudge(port=0)), "a nudge names port 0"),
    (_frame(protocol=1, nudge=pb.BoardNudge(port=70000)), "a nudge names port 70000"),
    (_frame(protocol=1, error=pb.BoardError(code=9)), "unknown board error code 9"),
    (_frame(protocol=1, error=pb.BoardError(code=1, message="a\x1b[2Jb")),
     "control characters"),
    (_frame(protocol=1, ids_request=pb.BoardIdsRequest(groups=[pb.BoardGroup(
        game="flowers", week="2026-W49", player=b"\1" * 32)] * 2)), "a group is named twice"),
    (_frame(protocol=1, ids_request=pb.BoardIdsRequest(groups=[pb.BoardGroup(
        game="flowers", week="W49", player=b"\1" * 32)])), "is not YYYY-Www"),
    (_frame(protocol=1, ids_request=pb.BoardIdsRequest(groups=[pb.BoardGroup(
        game="flowers", week="2026-W49", player=b"\1" * 32, ids=[b"\2" * 32])])),
     "ids are only sent in an ids answer"),
    (_frame(protocol=1, ids=pb.BoardIds(groups=[pb.BoardGroup(
        game="flowers", week="2026-W49", player=b"\1" * 32, ids=[b"\3" * 32, b"\2" * 32])])),
     "not ascending and unique"),
    (_frame(protocol=1, ids=pb.BoardIds(groups=[pb.BoardGroup(
        game="flowers", week="2026-W49", player=b"\1" * 32, count=MAX_GROUP_IDS + 1)])),
     "more than 1024 records"),
    (_frame(protocol=1, index=pb.BoardIndex(groups=[pb.BoardGroup(
        game="f" * 200, week="2026-W49", player=b"\1" * 32)])), "longer than 128"),
    (_frame(protocol=1, games=pb.BoardGames(games=[pb.BoardGame(
        player=b"\1" * 32, week="2026-W49", log=b"x", signature=b"\0" * 10)])),
     "a malformed record: the signature is 10 bytes"),
])
def test_a_malformed_message_is_refused_with_one_line(data: bytes, why: str) -> None:
    with pytest.raises(BoardWireError, match=why.replace("(", r"\(")) as caught:
        decode_message(data, limit=MAX_ANSWER)
    assert "\n" not in str(caught.value)


def test_a_frame_over_the_limit_is_refused_before_it_is_parsed() -> None:
    big = _frame(protocol=1, want=pb.BoardWant(ids=[b"\1" * 32] * 3000))
    assert len(big) > MAX_REQUEST
    with pytest.raises(BoardWireError, match=f"at most {MAX_REQUEST}"):
        decode_message(big)
    with pytest.raises(BoardWireError):  # and nothing that would not decode is ever sent
        encode_message(BoardMessage(1, Want((b"\1" * 32,) * (MAX_WANT + 1))))


@given(st.binary(max_size=400))
def test_any_bytes_decode_or_raise_the_one_error(data: bytes) -> None:
    try:
        message = decode_message(data, limit=MAX_ANSWER)
    except BoardWireError as exc:
        assert "\n" not in str(exc)
    else:
        assert decode_message(encode_message(message), limit=MAX_ANSWER) == message


def test_another_protocol_version_is_named_as_such() -> None:
    with pytest.raises(BoardWireError) as caught:
        decode_message(_frame(protocol=2, index_request=pb.BoardIndexRequest()))
    assert caught.value.code is BoardErrorCode.PROTOCOL_MISMATCH
    with pytest.raises(BoardWireError) as caught:
        decode_message(b"\xff")
    assert caught.value.code is BoardErrorCode.MALFORMED

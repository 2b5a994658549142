"""docs/protocol.md §11's test vectors (the shared leaderboard), for
tests/net/test_protocol_vectors.py: keys and signatures, a record, the board's messages.

Each function returns a ```` ```vector NAME ```` block's body exactly as the document
holds it.
"""

from __future__ import annotations

from collections.abc import Callable

from nacl.bindings import crypto_scalarmult_base

from hedgerow.net.boardrecord import deal_seed, record_digest, record_id, sign_record
from hedgerow.net.boardsign import edwards_public
from hedgerow.net.boardwire import (
    BoardError,
    BoardErrorCode,
    BoardMessage,
    Games,
    Group,
    Ids,
    IdsRequest,
    Index,
    IndexRequest,
    Nudge,
    Want,
    encode_game,
    encode_message,
    group_digest,
)
from hedgerow.net.keys import Identity, key_text

SECRET = bytes(range(32))
#: A record's log is a whole table log file; these bytes stand for one in the vectors.
LOG = b"HDRWLOG1 (a table log file)"
WEEK = "2026-W49"


def identity() -> Identity:
    """The vectors' player: the X25519 keypair of `SECRET`."""
    return Identity(crypto_scalarmult_base(SECRET), SECRET)


def hexlines(data: bytes, width: int = 32) -> str:
    """Hex, ``width`` bytes a line."""
    return "\n".join(data[i: i + width].hex() for i in range(0, len(data), width))


def board_keys() -> str:
    me = identity()
    edwards = edwards_public(me.public)
    assert edwards is not None
    return "\n".join([
        f"secret key (X25519)      = {SECRET.hex()}",
        f"public key (X25519)      = {me.public.hex()}",
        f"  as text                = {key_text(me.public)}",
        f"  fingerprint            = {key_text(me.public)[:8]}",
        f"Ed25519 verifying key    = {edwards.hex()}",
    ]) + "\n"


def board_record() -> str:
    me = identity()
    record = sign_record(me, WEEK, 2, LOG)
    digest = record_digest(me.public, WEEK, 2, LOG)
    assert record.digest == digest and record.signed()
    lines = [
        f"player = the public key of board-keys, week = {WEEK!r}, number = 2 (game 3)",
        'deal seed ("flowers", board "")',
        f"    {deal_seed(me.public, 'flowers', '', WEEK, 2).hex()}",
        'deal seed ("flowers", board "summer")',
        f"    {deal_seed(me.public, 'flowers', 'summer', WEEK, 2).hex()}",
        f"log = {LOG!r} ({len(LOG)} bytes)",
        "record digest",
        f"    {digest.hex()}",
        "record id",
        f"    {record_id(digest).hex()}",
        "signature (R || s)",
        f"    {record.signature[:32].hex()}",
        f"    {record.signature[32:].hex()}",
        "BoardGame bytes",
        hexlines(encode_game(record)),
    ]
    return "\n".join(lines) + "\n"


def _sample_group(**changes: object) -> Group:
    fields: dict[str, object] = dict(game="flowers", variants="", week=WEEK,
                                     player=identity().public)
    fields.update(changes)
    return Group(**fields)  # type: ignore[arg-type]


def board_messages() -> str:
    me = identity()
    first = sign_record(me, WEEK, 0, LOG)
    ids = sorted([first.id, sign_record(me, WEEK, 1, LOG).id])
    full = _sample_group(count=2, digest=group_digest(ids))
    samples: list[tuple[str, BoardMessage]] = [
        ("request 1, BoardIndexRequest", BoardMessage(1, IndexRequest())),
        ("request 1, BoardIndex (the group of games 1 and 2 of board-keys' player)",
         BoardMessage(1, Index((full,)))),
        ("request 2, BoardIdsRequest (that group)",
         BoardMessage(2, IdsRequest((_sample_group(),)))),
        ("request 2, BoardIds (that group, with its ids)",
         BoardMessage(2, Ids((_sample_group(count=2, digest=full.digest, ids=tuple(ids)),)))),
        ("request 3, BoardWant (the first id)", BoardMessage(3, Want((ids[0],)))),
        ("request 3, BoardGames (the record of game 1)", BoardMessage(3, Games((first,)))),
        ("request 0, BoardNudge (port 47001)", BoardMessage(0, Nudge(47001))),
        ("request 4, BoardError (3, ignored)",
         BoardMessage(4, BoardError(BoardErrorCode.IGNORED, "ignored for the rest of this week"))),
    ]
    lines = ["record ids of games 1 and 2 (numbers 0 and 1), ascending",
             f"    {ids[0].hex()}", f"    {ids[1].hex()}",
             "their group digest", f"    {full.digest.hex()}"]
    for label, message in samples:
        lines.append(f"{label}:")
        lines.append(hexlines(encode_message(message)))
    return "\n".join(lines) + "\n"


BOARD_VECTORS: dict[str, Callable[[], str]] = {
    "board-keys": board_keys,
    "board-record": board_record,
    "board-messages": board_messages,
}

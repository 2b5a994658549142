"""The shared leaderboard's codec: its messages and their bytes (docs/protocol.md §11).

The board service has its own envelope, ``BoardMessage`` (proto/board.proto): a protocol
version, a request number the answer echoes, and one body.  Bodies here are small frozen
dataclasses; the codec is explicit (a handful of messages), checks every limit on decode
and on encode, and raises only `BoardWireError`.  A record (`GameRecord`,
`hedgerow.net.boardrecord`) is a ``BoardGame``, on the wire and in the store
(`encode_game`, `decode_game`).  This module is the only user of ``board_pb2``.

Limits (a stranger's message cannot make a peer hold more than these):

* a request frame is at most `MAX_REQUEST` bytes, an answer at most `MAX_ANSWER`;
* an index lists at most `MAX_GROUPS` groups; an ids request names at most `MAX_ASK`
  groups; a group lists at most `MAX_GROUP_IDS` ids;
* a want names at most `MAX_WANT` ids, and the answer carries at most that many records.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import IntEnum

from google.protobuf.message import DecodeError

from hedgerow.core.canon import digest
from hedgerow.net.boardrecord import MAX_GAMES_A_WEEK, MAX_RECORD, BadRecord, GameRecord
from hedgerow.net.keys import KEY_SIZE
from hedgerow.proto import board_pb2 as pb

#: The board protocol version (``BoardMessage.protocol``).
BOARD_PROTOCOL = 1
#: Most groups in one index.
MAX_GROUPS = 2048
#: Most groups one ids request names.
MAX_ASK = 64
#: Most ids in one group: two records per slot at most (a slot and its conflict).
MAX_GROUP_IDS = 2 * MAX_GAMES_A_WEEK
#: Most ids one want names, and most records in one answer.
MAX_WANT = 32
#: Largest request frame (what a board server accepts from anyone).
MAX_REQUEST = 64 * 1024
#: Largest answer frame (what an asker accepts from the peer it asked): a server fills a
#: `Games` answer up to `ANSWER_BUDGET` bytes of records (at least one record).
ANSWER_BUDGET = 3 * 1024 * 1024
MAX_ANSWER = ANSWER_BUDGET + MAX_RECORD + 64 * 1024
#: Longest game or variants name, and longest error message.
MAX_NAME = 128
MAX_MESSAGE = 500
ID_SIZE = 32

_WEEK = re.compile(r"[0-9]{4}-W[0-9]{2}")


class BoardErrorCode(IntEnum):
    """Why a board server did not answer a request."""

    MALFORMED = 1  # not a board request this version reads (the refusal counts, §11.8)
    PROTOCOL_MISMATCH = 2  # another board protocol version (it does not count)
    IGNORED = 3  # this sender was refused too often this week: nothing more is answered


class BoardWireError(Exception):
    """Bytes that are not a valid board message; ``str()`` says why in one line, ``code``
    what a server answers (`BoardErrorCode.MALFORMED`, or ``PROTOCOL_MISMATCH``)."""

    def __init__(self, message: str,
                 code: BoardErrorCode = BoardErrorCode.MALFORMED) -> None:
        super().__init__(message)
        self.code = code


@dataclass(frozen=True, slots=True)
class Group:
    """The records held for one player on one board in one week: how many, their digest
    (`group_digest`), and, in an `Ids` answer, the ids themselves (ascending)."""

    game: str
    variants: str
    week: str
    player: bytes
    count: int = 0
    digest: bytes = b""
    ids: tuple[bytes, ...] = ()

    @property
    def key(self) -> tuple[str, str, str, bytes]:
        """What names the group: (game, variants, week, player)."""
        return (self.game, self.variants, self.week, self.player)


def group_digest(ids: Iterable[bytes]) -> bytes:
    """``BLAKE2b-256("hedgerow-board-group-v1", id...)`` over a group's ids, ascending: two
    machines holding the same records of a group compute the same digest."""
    return digest(b"hedgerow-board-group-v1", *sorted(ids))


@dataclass(frozen=True, slots=True)
class IndexRequest:
    """"What do you hold?"."""


@dataclass(frozen=True, slots=True)
class Index:
    """Every group held (up to `MAX_GROUPS`, the latest weeks first)."""

    groups: tuple[Group, ...]


@dataclass(frozen=True, slots=True)
class IdsRequest:
    """"Which records are in these groups?"."""

    groups: tuple[Group, ...]


@dataclass(frozen=True, slots=True)
class Ids:
    """The groups asked for that are held, each with its ids."""

    groups: tuple[Group, ...]


@dataclass(frozen=True, slots=True)
class Want:
    """"Send me these records."."""

    ids: tuple[bytes, ...]


@dataclass(frozen=True, slots=True)
class Games:
    """The wanted records that are held."""

    records: tuple[GameRecord, ...]


@dataclass(frozen=True, slots=True)
class Nudge:
    """"I hold records you may lack": the receiver pulls from the sender, whose board
    service listens on ``port`` at the link's remote address."""

    port: int


@dataclass(frozen=True, slots=True)
class BoardError:
    """A request not answered, and why."""

    code: BoardErrorCode
    message: str


BoardBody = IndexRequest | Index | IdsRequest | Ids | Want | Games | Nudge | BoardError

#: The bodies an asker sends (a server answers each with one message).
REQUESTS = (IndexRequest, IdsRequest, Want, Nudge)


@dataclass(frozen=True, slots=True)
class BoardMessage:
    """One frame of the board service."""

    request: int
    body: BoardBody
    protocol: int = BOARD_PROTOCOL


# --------------------------------------------------------------------------- records


def game_to_pb(record: GameRecord, out: pb.BoardGame) -> None:
    """Fill ``out`` (a ``BoardGame``) with ``record``."""
    out.player = record.player
    out.week = record.week
    out.number = record.number
    out.log = record.log
    out.signature = record.signature


def game_from_pb(msg: pb.BoardGame) -> GameRecord:
    """The record in ``msg``; `BadRecord` if it is not well formed (the signature is not
    checked here: `GameRecord.signed`)."""
    record = GameRecord(bytes(msg.player), msg.week, msg.number, bytes(msg.log),
                        bytes(msg.signature))
    if (problem := record.problem()) is not None:
        raise BadRecord(problem)
    return record


def encode_game(record: GameRecord) -> bytes:
    """The record as ``BoardGame`` bytes (how the store keeps it)."""
    msg = pb.BoardGame()
    game_to_pb(record, msg)
    return msg.SerializeToString(deterministic=True)


def decode_game(data: bytes) -> GameRecord:
    """`encode_game`'s inverse; `BadRecord` for anything else."""
    if len(data) > MAX_RECORD:
        raise BadRecord(f"the record is {len(data)} bytes, more than {MAX_RECORD}")
    msg = pb.BoardGame()
    try:
        msg.ParseFromString(data)
    except (DecodeError, ValueError) as exc:  # bad UTF-8 in a string field is a ValueError
        raise BadRecord(f"not a BoardGame: {exc}") from None
    return game_from_pb(msg)


# --------------------------------------------------------------------------- checks


def _text(what: str, value: str, limit: int) -> str:
    if len(value) > limit or any(ord(c) < 32 or c == "\x7f" for c in value):
        raise BoardWireError(f"{what} is longer than {limit} characters or has control "
                             "characters")
    return value


def _group(msg: pb.BoardGroup, *, with_ids: bool) -> Group:
    if not _WEEK.fullmatch(msg.week):
        raise BoardWireError(f"a group's week {msg.week[:20]!r} is not YYYY-Www")
    if len(msg.player) != KEY_SIZE:
        raise BoardWireError("a group's player key is not 32 bytes")
    if msg.digest and len(msg.digest) != ID_SIZE:
        raise BoardWireError("a group's digest is not 32 bytes")
    if msg.count > MAX_GROUP_IDS or len(msg.ids) > MAX_GROUP_IDS:
        raise BoardWireError(f"a group holds more than {MAX_GROUP_IDS} records")
    if msg.ids and not with_ids:
        raise BoardWireError("ids are only sent in an ids answer")
    ids = tuple(bytes(i) for i in msg.ids)
    if any(len(i) != ID_SIZE for i in ids):
        raise BoardWireError("a record id is not 32 bytes")
    if list(ids) != sorted(set(ids)):
        raise BoardWireError("a group's ids are not ascending and unique")
    return Group(_text("a game name", msg.game, MAX_NAME),
                 _text("a variants name", msg.variants, MAX_NAME), msg.week,
                 bytes(msg.player), msg.count, bytes(msg.digest), ids)


def _groups(items: object, limit: int, *, with_ids: bool = False) -> tuple[Group, ...]:
    seq = list(items)  # type: ignore[call-overload]
    if len(seq) > limit:
        raise BoardWireError(f"more than {limit} groups")
    groups = tuple(_group(g, with_ids=with_ids) for g in seq)
    if len({g.key for g in groups}) != len(groups):
        raise BoardWireError("a group is named twice")
    return groups


def _group_to_pb(group: Group, out: pb.BoardGroup) -> None:
    out.game = group.game
    out.variants = group.variants
    out.week = group.week
    out.player = group.player
    out.count = group.count
    out.digest = group.digest
    out.ids.extend(group.ids)


# --------------------------------------------------------------------------- codec


def encode_message(message: BoardMessage) -> bytes:
    """The frame for ``message``; `BoardWireError` for one that would not decode."""
    msg = pb.BoardMessage(protocol=message.protocol, request=message.request)
    body = message.body
    if isinstance(body, IndexRequest):
        msg.index_request.SetInParent()
    elif isinstance(body, Index | Ids | IdsRequest):
        target: pb.BoardIndex | pb.BoardIds | pb.BoardIdsRequest = (
            msg.index if isinstance(body, Index) else
            msg.ids if isinstance(body, Ids) else msg.ids_request)
        target.SetInParent()
        for group in body.groups:
            _group_to_pb(group, target.groups.add())
    elif isinstance(body, Want):
        msg.want.SetInParent()
        msg.want.ids.extend(body.ids)
    elif isinstance(body, Games):
        msg.games.SetInParent()
        for record in body.records:
            game_to_pb(record, msg.games.games.add())
    elif isinstance(body, Nudge):
        msg.nudge.SetInParent()
        msg.nudge.port = body.port
    else:
        msg.error.code = int(body.code)
        msg.error.message = body.message[:MAX_MESSAGE]
    data = msg.SerializeToString(deterministic=True)
    decode_message(data, limit=MAX_ANSWER)  # the same rules both ways
    return data


def decode_message(data: bytes, *, limit: int = MAX_REQUEST) -> BoardMessage:
    """The message in ``data`` (at most ``limit`` bytes); `BoardWireError` for anything else."""
    if len(data) > limit:
        raise BoardWireError(f"a board frame of {len(data)} bytes (at most {limit})")
    msg = pb.BoardMessage()
    try:
        msg.ParseFromString(data)
    except (DecodeError, ValueError) as exc:
        raise BoardWireError(f"not a board message: {exc}") from None
    if msg.protocol != BOARD_PROTOCOL:
        raise BoardWireError(f"board protocol {msg.protocol}, this peer speaks "
                             f"{BOARD_PROTOCOL}", BoardErrorCode.PROTOCOL_MISMATCH)
    kind = msg.WhichOneof("body")
    body: BoardBody
    if kind == "index_request":
        body = IndexRequest()
    elif kind == "index":
        body = Index(_groups(msg.index.groups, MAX_GROUPS))
    elif kind == "ids_request":
        body = IdsRequest(_groups(msg.ids_request.groups, MAX_ASK))
    elif kind == "ids":
        body = Ids(_groups(msg.ids.groups, MAX_ASK, with_ids=True))
    elif kind == "want":
        ids = tuple(bytes(i) for i in msg.want.ids)
        if len(ids) > MAX_WANT or any(len(i) != ID_SIZE for i in ids):
            raise BoardWireError(f"a want names at most {MAX_WANT} ids of 32 bytes")
        body = Want(ids)
    elif kind == "games":
        if len(msg.games.games) > MAX_WANT:
            raise BoardWireError(f"more than {MAX_WANT} records in one answer")
        try:
            body = Games(tuple(game_from_pb(g) for g in msg.games.games))
        except BadRecord as exc:
            raise BoardWireError(f"a malformed record: {exc}") from None
    elif kind == "nudge":
        if not 0 < msg.nudge.port < 65536:
            raise BoardWireError(f"a nudge names port {msg.nudge.port}")
        body = Nudge(msg.nudge.port)
    elif kind == "error":
        try:
            code = BoardErrorCode(msg.error.code)
        except ValueError:
            raise BoardWireError(f"unknown board error code {msg.error.code}") from None
        body = BoardError(code, _text("an error message", msg.error.message, MAX_MESSAGE))
    else:
        raise BoardWireError("a board message without a body")
    return BoardMessage(msg.request, body, msg.protocol)

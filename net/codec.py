"""Pure conversions between wire bytes and Hedgerow's messages: the only user of the protobuf code.

* `encode_envelope` / `decode_envelope`: an `Envelope` (one ZeroMQ frame) and its body.
* `encode_log_record` / `decode_log_record`: one record of a log file (a `LogHeader` or a
  `LoggedEntry`); `hedgerow.net.logfile` adds the framing.
* `encode_action` / `decode_action`: a bare `Action`.

Decoding never trusts its input and never raises anything but `CodecError`, whose ``code`` is
the `ErrorCode` to answer with: ``PROTOCOL_MISMATCH`` for a version this implementation does
not speak, ``MALFORMED`` for everything else (bytes that are not protobuf, a missing body,
a hash of the wrong size, an out-of-range seat, an action `Action.problem` refuses ...).
Encoding checks the same rules and raises `CodecError` for a message that would not decode,
so ``decode(encode(m)) == m`` for every message ``encode`` accepts.  The rules are listed in
docs/protocol.md; the limits are the constants of `hedgerow.net.messages`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NoReturn

from google.protobuf.message import Message

from hedgerow.core.actions import Action, Value
from hedgerow.core.chance import CHANCE_SEAT, outcome_of
from hedgerow.core.table import LogEntry, TableHeader
from hedgerow.net.messages import (
    DIGEST_SIZE,
    LOG_FORMAT_VERSION,
    LOG_FORMATS_READ,
    MAX_ADDRESS_LENGTH,
    MAX_ENVELOPE_SIZE,
    MAX_NAME_LENGTH,
    MAX_PLAYERS,
    MAX_SEED_SIZE,
    MAX_VALUE_DEPTH,
    PROTOCOL_VERSION,
    PUBLIC_KEY_SIZE,
    SHARE_SIZE,
    TABLE_ID_SIZE,
    ActionCommit,
    ActionMsg,
    ActionReveal,
    Body,
    CatchUpReply,
    CatchUpRequest,
    Envelope,
    ErrorCode,
    ErrorMsg,
    Heartbeat,
    Hello,
    Leave,
    LoggedEntry,
    LogHeader,
    PeerInfo,
    SeatAssignment,
    SeedCommit,
    SeedReveal,
    Start,
    StateHash,
)
from hedgerow.proto import hedgerow_pb2 as pb

__all__ = [
    "CodecError",
    "ErrorCode",
    "decode_action",
    "decode_envelope",
    "decode_log_record",
    "encode_action",
    "encode_envelope",
    "encode_log_record",
]

_U32 = 1 << 32
_U64 = 1 << 64
_I64 = 1 << 63


class CodecError(Exception):
    """Bytes that are not a valid message, or a message that cannot be encoded.

    ``code`` is the `ErrorCode` a peer answers with; ``message`` says what is wrong.
    """

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message


def _bad(message: str) -> NoReturn:
    raise CodecError(ErrorCode.MALFORMED, message)


# --------------------------------------------------------------------------------------
# Field rules (applied to the Python values, on encode and on decode alike)


def _uint(name: str, value: object, limit: int = _U64, low: int = 0) -> int:
    if type(value) is not int or not low <= value < limit:
        _bad(f"{name} must be an integer in [{low}, {limit})")
    return value


def _seat(name: str, value: object, players: int = MAX_PLAYERS) -> int:
    return _uint(name, value, players)


def _opt_uint(name: str, value: object, limit: int = _U64) -> int | None:
    return None if value is None else _uint(name, value, limit)


def _blob(name: str, value: object, size: int) -> bytes:
    if type(value) is not bytes or len(value) != size:
        _bad(f"{name} must be {size} bytes")
    return value


def _text(name: str, value: object, max_length: int | None = None, *,
          required: bool = False) -> str:
    if type(value) is not str:
        _bad(f"{name} must be a string")
    if required and not value:
        _bad(f"{name} must not be empty")
    if max_length is not None and len(value) > max_length:
        _bad(f"{name} is longer than {max_length} characters")
    return value


def _flag(name: str, value: object) -> bool:
    if type(value) is not bool:
        _bad(f"{name} must be a bool")
    return value


def _seed(value: object) -> bytes:
    if type(value) is not bytes or not 1 <= len(value) <= MAX_SEED_SIZE:
        _bad(f"a seed must be 1 to {MAX_SEED_SIZE} bytes")
    return value


def _players(value: object) -> int:
    return _uint("players", value, MAX_PLAYERS + 1, 1)


def _sorted_unique(name: str, keys: list[str]) -> None:
    if any(not k for k in keys):
        _bad(f"{name} must be non-empty")
    if keys != sorted(set(keys)):
        _bad(f"{name} must be unique and sorted")


# --------------------------------------------------------------------------------------
# Actions


def _value_to_pb(value: object, out: pb.Value, depth: int) -> None:
    # Exact types only: a subclass (an IntEnum, a StrEnum, a bool-like) would arrive as its
    # base type, and the canonical encoding (hence the chain digest) would change in transit.
    kind = type(value)
    if kind is bool:
        out.flag = value
    elif kind is int:
        if not -_I64 <= value < _I64:
            _bad(f"integer {value} does not fit in 64 bits")
        out.int = value
    elif kind is str:
        out.str = value
    elif kind is bytes:
        out.blob = value
    elif kind is tuple:
        if depth >= MAX_VALUE_DEPTH:
            _bad(f"lists nest more than {MAX_VALUE_DEPTH} deep")
        out.list.SetInParent()
        for item in value:
            _value_to_pb(item, out.list.items.add(), depth + 1)
    else:
        _bad(f"argument values must be exactly int, str, bool, bytes or tuple, "
             f"not {kind.__name__}")


def _value_from_pb(msg: pb.Value, depth: int) -> Value:
    which = msg.WhichOneof("v")
    if which == "int":
        return msg.int
    if which == "str":
        return msg.str
    if which == "flag":
        return msg.flag
    if which == "blob":
        return msg.blob
    if which == "list":
        if depth >= MAX_VALUE_DEPTH:
            _bad(f"lists nest more than {MAX_VALUE_DEPTH} deep")
        return tuple(_value_from_pb(item, depth + 1) for item in msg.list.items)
    _bad("an argument value has none of int, str, flag, blob, list")


def _check_action(action: object) -> Action:
    if not isinstance(action, Action) or not isinstance(action.args, tuple):
        _bad("an action must be an Action")
    if not all(isinstance(a, tuple) and len(a) == 2 for a in action.args):
        _bad("action arguments must be (name, value) pairs")
    problem = action.problem()
    if problem is not None:
        _bad(f"invalid action: {problem}")
    return action


def _action_to_pb(action: object, out: pb.Action) -> None:
    action = _check_action(action)
    out.kind = action.kind
    for name, value in action.args:
        arg = out.args.add()
        arg.name = name
        _value_to_pb(value, arg.value, 0)


def _action_from_pb(msg: pb.Action) -> Action:
    args = []
    for arg in msg.args:
        if not arg.HasField("value"):
            _bad(f"argument {arg.name!r} has no value")
        args.append((arg.name, _value_from_pb(arg.value, 0)))
    return _check_action(Action(msg.kind, tuple(args)))


# --------------------------------------------------------------------------------------
# Table header and log entries


def _check_table_header(header: object) -> TableHeader:
    if not isinstance(header, TableHeader):
        _bad("a table header must be a TableHeader")
    _text("fingerprint", header.fingerprint, required=True)
    _players(header.players)
    _seed(header.seed)
    return header


def _header_to_pb(header: TableHeader, out: pb.TableHeader) -> None:
    _check_table_header(header)
    out.fingerprint = header.fingerprint
    out.players = header.players
    out.seed = header.seed


def _header_from_pb(parent: Message, field: str) -> TableHeader:
    if not parent.HasField(field):
        _bad(f"{field} is missing")
    msg: pb.TableHeader = getattr(parent, field)
    return _check_table_header(TableHeader(msg.fingerprint, msg.players, msg.seed))


def _check_logged(item: object) -> LoggedEntry:
    if not isinstance(item, LoggedEntry) or not isinstance(item.entry, LogEntry):
        _bad("a log entry must be a LoggedEntry holding a LogEntry")
    entry = item.entry
    _uint("entry index", entry.index)
    if entry.seat != CHANCE_SEAT:
        _seat("entry seat", entry.seat)
    _check_action(entry.action)
    if entry.seat == CHANCE_SEAT:
        _check_draws(entry.action)
    _blob("entry prev", entry.prev, DIGEST_SIZE)
    _blob("entry digest", entry.digest, DIGEST_SIZE)
    _blob("entry state_hash", item.state_hash, DIGEST_SIZE)
    return item


def _check_draws(action: Action) -> None:
    """A chance entry's action is ``chance(draws=(...))``: one result per draw, each a
    non-negative int (a pick) or a tuple of them (a shuffle)."""
    draws = outcome_of(action)
    if draws is None:
        _bad("a chance entry's action must be chance(draws=(...))")
    for result in draws:
        items = result if type(result) is tuple else (result,)
        if not all(type(x) is int and x >= 0 for x in items):
            _bad("a chance entry's draws are non-negative integers or tuples of them")


def _entry_to_pb(item: LoggedEntry, out: pb.LogEntry) -> None:
    _check_logged(item)
    entry = item.entry
    out.index = entry.index
    if entry.seat == CHANCE_SEAT:
        out.chance = True  # the seat field stays 0 (absent): the wire has no seat -1
    else:
        out.seat = entry.seat
    _action_to_pb(entry.action, out.action)
    out.prev = entry.prev
    out.digest = entry.digest
    out.state_hash = item.state_hash


def _entry_from_pb(msg: pb.LogEntry) -> LoggedEntry:
    if not msg.HasField("action"):
        _bad("a log entry has no action")
    if msg.chance and msg.seat != 0:
        _bad("a chance entry has no seat (seat must be 0 when chance is set)")
    seat = CHANCE_SEAT if msg.chance else msg.seat
    entry = LogEntry(msg.index, seat, _action_from_pb(msg.action), msg.prev, msg.digest)
    return _check_logged(LoggedEntry(entry, msg.state_hash))


# --------------------------------------------------------------------------------------
# Bodies: one (check, to_pb, from_pb) triple per body type


def _check_hello(m: Hello) -> None:
    _text("fingerprint", m.fingerprint, required=True)
    if not isinstance(m.plugins, tuple) or not all(
        isinstance(p, tuple) and len(p) == 2 for p in m.plugins
    ):
        _bad("plugins must be (name, version) pairs")
    for name, version in m.plugins:
        _text("plugin name", name)
        _text("plugin version", version)
    _sorted_unique("plugin names", [name for name, _ in m.plugins])
    _text("display_name", m.display_name, MAX_NAME_LENGTH)
    if m.wanted_seat is not None:
        _seat("wanted_seat", m.wanted_seat)
    _flag("bot", m.bot)
    _text("address", m.address, MAX_ADDRESS_LENGTH)
    _flag("spectator", m.spectator)


def _hello_to_pb(m: Hello, out: pb.Hello) -> None:
    out.fingerprint = m.fingerprint
    for name, version in m.plugins:
        out.plugins.add(name=name, version=version)
    out.display_name = m.display_name
    if m.wanted_seat is not None:
        out.wanted_seat = m.wanted_seat
    out.bot = m.bot
    out.address = m.address
    out.spectator = m.spectator


def _hello_from_pb(msg: pb.Hello) -> Hello:
    return Hello(
        msg.fingerprint,
        tuple((p.name, p.version) for p in msg.plugins),
        msg.display_name,
        msg.wanted_seat if msg.HasField("wanted_seat") else None,
        msg.bot,
        msg.address,
        msg.spectator,
    )


def _check_seating(m: SeatAssignment) -> None:
    players = _players(m.players)
    if m.seat is not None:
        _seat("seat", m.seat, players)
    _text("fingerprint", m.fingerprint, required=True)
    if not isinstance(m.peers, tuple) or not all(isinstance(p, PeerInfo) for p in m.peers):
        _bad("peers must be PeerInfo values")
    seats = [_seat("peer seat", p.seat, players) for p in m.peers]
    if seats != sorted(set(seats)):
        _bad("peers must be sorted by seat, each seat at most once")
    for p in m.peers:
        _blob("peer public_key", p.public_key, PUBLIC_KEY_SIZE)
        _text("peer address", p.address, MAX_ADDRESS_LENGTH)
        _text("peer display_name", p.display_name, MAX_NAME_LENGTH)
        _flag("peer bot", p.bot)


def _seating_to_pb(m: SeatAssignment, out: pb.SeatAssignment) -> None:
    if m.seat is not None:
        out.seat = m.seat
    out.players = m.players
    out.fingerprint = m.fingerprint
    for p in m.peers:
        out.peers.add(seat=p.seat, public_key=p.public_key, address=p.address,
                      display_name=p.display_name, bot=p.bot)


def _seating_from_pb(msg: pb.SeatAssignment) -> SeatAssignment:
    return SeatAssignment(
        msg.seat if msg.HasField("seat") else None,
        msg.players,
        msg.fingerprint,
        tuple(PeerInfo(p.seat, p.public_key, p.address, p.display_name, p.bot) for p in msg.peers),
    )


def _check_seed_commit(m: SeedCommit) -> None:
    _seat("seat", m.seat)
    _blob("commitment", m.commitment, DIGEST_SIZE)


def _seed_commit_to_pb(m: SeedCommit, out: pb.SeedCommit) -> None:
    out.seat = m.seat
    out.commitment = m.commitment


def _seed_commit_from_pb(msg: pb.SeedCommit) -> SeedCommit:
    return SeedCommit(msg.seat, msg.commitment)


def _check_seed_reveal(m: SeedReveal) -> None:
    _seat("seat", m.seat)
    _blob("share", m.share, SHARE_SIZE)


def _seed_reveal_to_pb(m: SeedReveal, out: pb.SeedReveal) -> None:
    out.seat = m.seat
    out.share = m.share


def _seed_reveal_from_pb(msg: pb.SeedReveal) -> SeedReveal:
    return SeedReveal(msg.seat, msg.share)


def _check_start(m: Start) -> None:
    _check_table_header(m.header)
    _blob("setup_hash", m.setup_hash, DIGEST_SIZE)


def _start_to_pb(m: Start, out: pb.Start) -> None:
    _header_to_pb(m.header, out.header)
    out.setup_hash = m.setup_hash


def _start_from_pb(msg: pb.Start) -> Start:
    return Start(_header_from_pb(msg, "header"), msg.setup_hash)


def _check_action_msg(m: ActionMsg) -> None:
    _uint("index", m.index)
    _blob("prev", m.prev, DIGEST_SIZE)
    _seat("seat", m.seat)
    _check_action(m.action)


def _action_msg_to_pb(m: ActionMsg, out: pb.ActionMsg) -> None:
    out.index = m.index
    out.prev = m.prev
    out.seat = m.seat
    _action_to_pb(m.action, out.action)


def _action_msg_from_pb(msg: pb.ActionMsg) -> ActionMsg:
    if not msg.HasField("action"):
        _bad("the action message has no action")
    return ActionMsg(msg.index, msg.prev, msg.seat, _action_from_pb(msg.action))


def _check_state_hash(m: StateHash) -> None:
    _uint("index", m.index)
    _blob("state_hash", m.state_hash, DIGEST_SIZE)


def _state_hash_to_pb(m: StateHash, out: pb.StateHash) -> None:
    out.index = m.index
    out.state_hash = m.state_hash


def _state_hash_from_pb(msg: pb.StateHash) -> StateHash:
    return StateHash(msg.index, msg.state_hash)


def _check_action_commit(m: ActionCommit) -> None:
    _uint("index", m.index)
    _seat("seat", m.seat)
    _blob("commitment", m.commitment, DIGEST_SIZE)


def _action_commit_to_pb(m: ActionCommit, out: pb.ActionCommit) -> None:
    out.index = m.index
    out.seat = m.seat
    out.commitment = m.commitment


def _action_commit_from_pb(msg: pb.ActionCommit) -> ActionCommit:
    return ActionCommit(msg.index, msg.seat, msg.commitment)


def _check_action_reveal(m: ActionReveal) -> None:
    _uint("index", m.index)
    _seat("seat", m.seat)
    _check_action(m.action)
    _blob("salt", m.salt, SHARE_SIZE)


def _action_reveal_to_pb(m: ActionReveal, out: pb.ActionReveal) -> None:
    out.index = m.index
    out.seat = m.seat
    _action_to_pb(m.action, out.action)
    out.salt = m.salt


def _action_reveal_from_pb(msg: pb.ActionReveal) -> ActionReveal:
    if not msg.HasField("action"):
        _bad("the action reveal has no action")
    return ActionReveal(msg.index, msg.seat, _action_from_pb(msg.action), msg.salt)


def _check_catch_up_request(m: CatchUpRequest) -> None:
    _uint("from_index", m.from_index)


def _catch_up_request_to_pb(m: CatchUpRequest, out: pb.CatchUpRequest) -> None:
    out.from_index = m.from_index


def _catch_up_request_from_pb(msg: pb.CatchUpRequest) -> CatchUpRequest:
    return CatchUpRequest(msg.from_index)


def _check_catch_up_reply(m: CatchUpReply) -> None:
    _check_table_header(m.header)
    first = _uint("from_index", m.from_index)
    if not isinstance(m.entries, tuple):
        _bad("entries must be a tuple")
    for offset, item in enumerate(m.entries):
        if _check_logged(item).entry.index != first + offset:
            _bad("catch-up entries must have consecutive indices from from_index")
    if _uint("next_index", m.next_index) < first + len(m.entries):
        _bad("next_index is below the last entry sent")


def _catch_up_reply_to_pb(m: CatchUpReply, out: pb.CatchUpReply) -> None:
    _header_to_pb(m.header, out.header)
    out.from_index = m.from_index
    for item in m.entries:
        _entry_to_pb(item, out.entries.add())
    out.next_index = m.next_index


def _catch_up_reply_from_pb(msg: pb.CatchUpReply) -> CatchUpReply:
    return CatchUpReply(_header_from_pb(msg, "header"), msg.from_index,
                        tuple(_entry_from_pb(e) for e in msg.entries), msg.next_index)


def _check_heartbeat(m: Heartbeat) -> None:
    _uint("next_index", m.next_index)


def _heartbeat_to_pb(m: Heartbeat, out: pb.Heartbeat) -> None:
    out.next_index = m.next_index


def _heartbeat_from_pb(msg: pb.Heartbeat) -> Heartbeat:
    return Heartbeat(msg.next_index)


def _check_leave(m: Leave) -> None:
    _text("reason", m.reason)


def _leave_to_pb(m: Leave, out: pb.Leave) -> None:
    out.reason = m.reason


def _leave_from_pb(msg: pb.Leave) -> Leave:
    return Leave(msg.reason)


def _check_error(m: ErrorMsg) -> None:
    if not isinstance(m.code, ErrorCode):
        _bad("an error code must be an ErrorCode")
    _text("message", m.message)
    _opt_uint("ref_seq", m.ref_seq)
    _opt_uint("ref_index", m.ref_index)
    _text("refusal", m.refusal)


def _error_to_pb(m: ErrorMsg, out: pb.Error) -> None:
    out.code = int(m.code)
    out.message = m.message
    if m.ref_seq is not None:
        out.ref_seq = m.ref_seq
    if m.ref_index is not None:
        out.ref_index = m.ref_index
    out.refusal = m.refusal


def _error_from_pb(msg: pb.Error) -> ErrorMsg:
    try:
        code = ErrorCode(msg.code)
    except ValueError:  # a code from a newer peer: still an error, of unknown kind
        code = ErrorCode.UNKNOWN
    return ErrorMsg(code, msg.message,
                    msg.ref_seq if msg.HasField("ref_seq") else None,
                    msg.ref_index if msg.HasField("ref_index") else None,
                    msg.refusal)


# body type -> (oneof field name, check, to_pb, from_pb)
_BODIES: dict[type, tuple[str, Callable[[Any], None], Callable[[Any, Any], None],
                          Callable[[Any], Body]]] = {
    Hello: ("hello", _check_hello, _hello_to_pb, _hello_from_pb),
    SeatAssignment: ("seat_assignment", _check_seating, _seating_to_pb, _seating_from_pb),
    SeedCommit: ("seed_commit", _check_seed_commit, _seed_commit_to_pb, _seed_commit_from_pb),
    SeedReveal: ("seed_reveal", _check_seed_reveal, _seed_reveal_to_pb, _seed_reveal_from_pb),
    Start: ("start", _check_start, _start_to_pb, _start_from_pb),
    ActionMsg: ("action", _check_action_msg, _action_msg_to_pb, _action_msg_from_pb),
    StateHash: ("state_hash", _check_state_hash, _state_hash_to_pb, _state_hash_from_pb),
    ActionCommit: ("action_commit", _check_action_commit, _action_commit_to_pb,
                   _action_commit_from_pb),
    ActionReveal: ("action_reveal", _check_action_reveal, _action_reveal_to_pb,
                   _action_reveal_from_pb),
    CatchUpRequest: ("catch_up_request", _check_catch_up_request, _catch_up_request_to_pb,
                     _catch_up_request_from_pb),
    CatchUpReply: ("catch_up_reply", _check_catch_up_reply, _catch_up_reply_to_pb,
                   _catch_up_reply_from_pb),
    Heartbeat: ("heartbeat", _check_heartbeat, _heartbeat_to_pb, _heartbeat_from_pb),
    Leave: ("leave", _check_leave, _leave_to_pb, _leave_from_pb),
    ErrorMsg: ("error", _check_error, _error_to_pb, _error_from_pb),
}
_BY_FIELD = {field: (check, from_pb) for field, check, _, from_pb in _BODIES.values()}


def _check_envelope(env: Envelope) -> None:
    if isinstance(env.body, Hello) and env.table_id == b"":
        pass  # a Hello sent by address, before the joiner knows the table id
    else:
        _blob("table_id", env.table_id, TABLE_ID_SIZE)
    _blob("sender", env.sender, PUBLIC_KEY_SIZE)
    _uint("seq", env.seq, low=1)


# --------------------------------------------------------------------------------------
# Public API


def _guarded(what: str, func: Callable[[], Any]) -> Any:
    """Run ``func``; any failure other than a `CodecError` becomes a MALFORMED `CodecError`.

    Input is untrusted and the protobuf runtime raises several exception types (DecodeError,
    ValueError, TypeError, RecursionError ...), so the promise "only CodecError" is kept here.
    """
    try:
        return func()
    except CodecError:
        raise
    except Exception as exc:
        raise CodecError(ErrorCode.MALFORMED, f"{what}: {type(exc).__name__}: {exc}") from exc


def _as_bytes(data: object) -> bytes:
    if isinstance(data, (bytearray, memoryview)):
        data = bytes(data)
    if not isinstance(data, bytes):
        _bad(f"expected bytes, not {type(data).__name__}")
    return data


def encode_envelope(envelope: Envelope) -> bytes:
    """The wire bytes of ``envelope``; `CodecError` if it breaks a protocol rule."""

    def run() -> bytes:
        if not isinstance(envelope, Envelope):
            _bad("expected an Envelope")
        _check_envelope(envelope)
        spec = _BODIES.get(type(envelope.body))
        if spec is None:
            _bad(f"{type(envelope.body).__name__} is not a message body")
        field, check, to_pb, _ = spec
        check(envelope.body)
        msg = pb.Envelope(protocol_version=PROTOCOL_VERSION, table_id=envelope.table_id,
                          sender=envelope.sender, seq=envelope.seq)
        body = getattr(msg, field)
        body.SetInParent()  # a body whose fields all have default values is still present
        to_pb(envelope.body, body)
        data = msg.SerializeToString(deterministic=True)
        if len(data) > MAX_ENVELOPE_SIZE:
            _bad(f"the envelope is larger than {MAX_ENVELOPE_SIZE} bytes")
        return data

    return _guarded("cannot encode the envelope", run)


def decode_envelope(data: bytes) -> Envelope:
    """The `Envelope` in ``data``; `CodecError` for anything else (never another exception)."""

    def run() -> Envelope:
        raw = _as_bytes(data)
        if len(raw) > MAX_ENVELOPE_SIZE:
            _bad(f"the envelope is larger than {MAX_ENVELOPE_SIZE} bytes")
        msg = pb.Envelope.FromString(raw)
        if msg.protocol_version == 0:
            _bad("not a Hedgerow envelope (no protocol version)")
        if msg.protocol_version != PROTOCOL_VERSION:
            raise CodecError(
                ErrorCode.PROTOCOL_MISMATCH,
                f"protocol version {msg.protocol_version} is not supported "
                f"(this peer speaks version {PROTOCOL_VERSION})",
            )
        field = msg.WhichOneof("body")
        if field is None:
            _bad("the envelope has no body (or one this version does not know)")
        check, from_pb = _BY_FIELD[field]
        body = from_pb(getattr(msg, field))
        check(body)
        env = Envelope(msg.table_id, msg.sender, msg.seq, body)
        _check_envelope(env)
        return env

    return _guarded("cannot decode the envelope", run)


def encode_action(action: Action) -> bytes:
    """The protobuf ``Action`` bytes of ``action``; `CodecError` for an invalid action."""

    def run() -> bytes:
        msg = pb.Action()
        _action_to_pb(action, msg)
        return msg.SerializeToString(deterministic=True)

    return _guarded("cannot encode the action", run)


def decode_action(data: bytes) -> Action:
    """The `Action` in protobuf ``Action`` bytes; `CodecError` for anything else."""
    return _guarded("cannot decode the action",
                    lambda: _action_from_pb(pb.Action.FromString(_as_bytes(data))))


def _check_log_header(h: LogHeader) -> None:
    _text("game", h.game, required=True)
    if not isinstance(h.variants, tuple):
        _bad("variants must be a tuple")
    for name in h.variants:
        _text("variant", name)
    _sorted_unique("variants", list(h.variants))
    _text("fingerprint", h.fingerprint, required=True)
    players = _players(h.players)
    _seed(h.seed)
    if h.table_id != b"":
        _blob("table_id", h.table_id, TABLE_ID_SIZE)
    if h.own_seat is not None:
        _seat("own_seat", h.own_seat, players)
    if not isinstance(h.seat_names, tuple) or len(h.seat_names) not in (0, players):
        _bad("seat_names must be empty or one per seat")
    for name in h.seat_names:
        _text("seat name", name, MAX_NAME_LENGTH)


def encode_log_record(record: LogHeader | LoggedEntry) -> bytes:
    """The ``LogRecord`` bytes of a log header or a log entry; `CodecError` if invalid."""

    def run() -> bytes:
        msg = pb.LogRecord()
        if isinstance(record, LogHeader):
            _check_log_header(record)
            h = msg.header
            h.format_version = LOG_FORMAT_VERSION
            h.game = record.game
            h.variants.extend(record.variants)
            h.fingerprint = record.fingerprint
            h.players = record.players
            h.seed = record.seed
            h.table_id = record.table_id
            if record.own_seat is not None:
                h.own_seat = record.own_seat
            h.seat_names.extend(record.seat_names)
        elif isinstance(record, LoggedEntry):
            msg.entry.SetInParent()
            _entry_to_pb(record, msg.entry)
        else:
            _bad(f"a log record is a LogHeader or a LoggedEntry, not {type(record).__name__}")
        return msg.SerializeToString(deterministic=True)

    return _guarded("cannot encode the log record", run)


def decode_log_record(data: bytes) -> LogHeader | LoggedEntry:
    """The `LogHeader` or `LoggedEntry` in ``LogRecord`` bytes; `CodecError` for anything else."""

    def run() -> LogHeader | LoggedEntry:
        msg = pb.LogRecord.FromString(_as_bytes(data))
        which = msg.WhichOneof("record")
        if which == "entry":
            return _entry_from_pb(msg.entry)
        if which != "header":
            _bad("the log record is neither a header nor an entry")
        h = msg.header
        if h.format_version == 0:
            _bad("the log header has no format version")
        if h.format_version not in LOG_FORMATS_READ:
            raise CodecError(
                ErrorCode.PROTOCOL_MISMATCH,
                f"log format version {h.format_version} is not supported "
                f"(this version reads formats "
                f"{', '.join(str(v) for v in LOG_FORMATS_READ)})",
            )
        header = LogHeader(h.game, tuple(h.variants), h.fingerprint, h.players, h.seed,
                           h.table_id, h.own_seat if h.HasField("own_seat") else None,
                           tuple(h.seat_names))
        _check_log_header(header)
        return header

    return _guarded("cannot decode the log record", run)

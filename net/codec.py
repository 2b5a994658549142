"""Pure conversions between wire bytes and Hedgerow's messages: the only user of the protobuf code.

* `encode_envelope` / `decode_envelope`: an `Envelope` (one ZeroMQ frame) and its body.
* `encode_log_record` / `decode_log_record`: one record of a log file (a `LogHeader` or a
  `LoggedEntry`); `hedgerow.net.logfile` adds the framing.
* `encode_action` / `decode_action`: a bare `Action`.

There is no per-message code here.  A message of `hedgerow.net.messages` is converted field
by field, by name, to and from the generated message of the same name (``ErrorMsg`` is
``Error``, ``PeerInfo`` is ``Peer``), guided by the proto descriptor: an optional scalar is
None when absent, a repeated field a tuple, a required sub-message refused when missing.
Only the core values that travel (`Action`, `LoggedEntry`) have converters of their own.
The validation rules are the fields' annotations (`hedgerow.net.wirerules`) plus a
message's ``problem()``; they run on encode and on decode alike.

Decoding never trusts its input and never raises anything but `CodecError`, whose ``code`` is
the `ErrorCode` to answer with: ``PROTOCOL_MISMATCH`` for a version this implementation does
not speak, ``MALFORMED`` for everything else (bytes that are not protobuf, a missing body,
a hash of the wrong size, an out-of-range seat, an action `Action.problem` refuses ...).
Encoding checks the same rules and raises `CodecError` for a message that would not decode,
so ``decode(encode(m)) == m`` for every message ``encode`` accepts.  The rules are listed in
docs/protocol.md; the limits are the constants of `hedgerow.net.wirerules`.
"""

from __future__ import annotations

import dataclasses
import types
import typing
from collections.abc import Callable
from enum import IntEnum
from typing import Any, NoReturn

from google.protobuf.message import Message

from hedgerow.core.actions import Action, Value
from hedgerow.core.chance import CHANCE_SEAT
from hedgerow.core.sealed import Sealed
from hedgerow.core.table import LogEntry
from hedgerow.net import wirerules as W
from hedgerow.net.messages import (
    LOG_FORMAT_VERSION,
    LOG_FORMATS_READ,
    PROTOCOL_VERSION,
    Body,
    CardReveal,
    Envelope,
    ErrorCode,
    LoggedEntry,
    LogHeader,
    SealRecord,
    SeatEvent,
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

_I64 = 1 << 63


class CodecError(Exception):
    """Bytes that are not a valid message, or a message that cannot be encoded.

    ``code`` is the `ErrorCode` a peer answers with; ``message`` says what is wrong.  From
    `decode_envelope`, ``ref_seq`` and ``ref_index`` are what the refusal's ``Error`` carries
    (docs/protocol.md §2.3): the envelope's ``seq`` whenever the bytes parse as an envelope
    (None for 0, i.e. absent), and the body's log ``index`` when the body has one and parses
    in this protocol version (an ``ActionMsg``, ``ActionCommit``, ``ActionReveal`` or
    ``StateHash``); None when unknown.
    """

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(f"{code.name}: {message}")
        self.code = code
        self.message = message
        self.ref_seq: int | None = None
        self.ref_index: int | None = None


def _bad(message: str) -> NoReturn:
    raise CodecError(ErrorCode.MALFORMED, message)


# --------------------------------------------------------------------------------------
# Actions (a core value with a converter of its own: Value is a oneof, tuples nest)


def _value_to_pb(value: object, out: pb.Value, depth: int) -> None:
    # Exact types only: a subclass (an IntEnum, a StrEnum, a bool-like) would arrive as its
    # base type, and the canonical encoding (hence the chain digest) would change in transit.
    kind = type(value)
    if kind is bool:
        out.flag = typing.cast(bool, value)
    elif kind is int:
        number = typing.cast(int, value)
        if not -_I64 <= number < _I64:
            _bad(f"integer {number} does not fit in 64 bits")
        out.int = number
    elif kind is str:
        out.str = typing.cast(str, value)
    elif kind is bytes:
        out.blob = typing.cast(bytes, value)
    elif kind is tuple:
        if depth >= W.MAX_VALUE_DEPTH:
            _bad(f"lists nest more than {W.MAX_VALUE_DEPTH} deep")
        out.list.SetInParent()
        for item in typing.cast(tuple[object, ...], value):
            _value_to_pb(item, out.list.items.add(), depth + 1)
    elif kind is Sealed:
        card = typing.cast(Sealed, value)
        _sealed_rules(card.entry, card.draw, card.pos)
        out.card.SetInParent()
        out.card.entry, out.card.draw, out.card.pos = card.entry, card.draw, card.pos
    else:
        _bad(f"argument values must be exactly int, str, bool, bytes, a sealed card or "
             f"tuple, not {kind.__name__}")


def _sealed_rules(entry: int, draw: int, pos: int) -> None:
    _rule(W.INDEX, "card entry", entry)
    _rule(W.DRAW, "card draw", draw)
    _rule(W.POSITION, "card pos", pos)


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
        if depth >= W.MAX_VALUE_DEPTH:
            _bad(f"lists nest more than {W.MAX_VALUE_DEPTH} deep")
        return tuple(_value_from_pb(item, depth + 1) for item in msg.list.items)
    if which == "card":
        _sealed_rules(msg.card.entry, msg.card.draw, msg.card.pos)
        return Sealed(msg.card.entry, msg.card.draw, msg.card.pos)
    _bad("an argument value has none of int, str, flag, blob, list, card")


def _action_to_pb(action: Action, out: Message) -> None:
    """(Checked by the caller: the message's own rules, or `encode_action`.)"""
    assert isinstance(out, pb.Action)
    out.kind = action.kind
    for name, value in action.args:
        arg = out.args.add()
        arg.name = name
        _value_to_pb(value, arg.value, 0)


def _action_from_pb(msg: Message) -> Action:
    assert isinstance(msg, pb.Action)
    args = []
    for arg in msg.args:
        if not arg.HasField("value"):
            _bad(f"argument {arg.name!r} has no value")
        args.append((arg.name, _value_from_pb(arg.value, 0)))
    return Action(msg.kind, tuple(args))  # (checked by the caller, as in _action_to_pb)


# A log entry travels flat: the proto LogEntry holds the entry's fields and the state hash,
# and a chance entry is seat 0 (absent) with `chance` set (the wire has no seat -1).


def _logged_to_pb(item: LoggedEntry, out: Message) -> None:
    assert isinstance(out, pb.LogEntry)
    entry = item.entry
    out.index = entry.index
    if entry.seat == CHANCE_SEAT:
        out.chance = True
    else:
        out.seat = entry.seat
    out.action.SetInParent()
    _action_to_pb(entry.action, out.action)
    out.prev = entry.prev
    out.digest = entry.digest
    out.state_hash = item.state_hash
    for reveal in item.reveals:
        _to_pb(reveal, CardReveal, out.reveals.add())


def _logged_from_pb(msg: Message) -> LoggedEntry:
    assert isinstance(msg, pb.LogEntry)
    if not msg.HasField("action"):
        _bad("a log entry has no action")
    if msg.chance and msg.seat != 0:
        _bad("a chance entry has no seat (seat must be 0 when chance is set)")
    seat = CHANCE_SEAT if msg.chance else msg.seat
    entry = LogEntry(msg.index, seat, _action_from_pb(msg.action), msg.prev, msg.digest)
    reveals = tuple(_from_pb(CardReveal, r) for r in msg.reveals)
    return LoggedEntry(entry, msg.state_hash, reveals)


#: Python type -> (to_pb, from_pb), for the values not converted field by field.
_CONVERTERS: dict[type, tuple[Callable[[Any, Message], None], Callable[[Message], Any]]] = {
    Action: (_action_to_pb, _action_from_pb),
    LoggedEntry: (_logged_to_pb, _logged_from_pb),
}


# --------------------------------------------------------------------------------------
# Messages, field by field


@dataclasses.dataclass(frozen=True, slots=True)
class _Field:
    """One field of a message class: its name, its Python type and its rules, and how it
    travels (worked out once per class: a message is converted on every send and receipt)."""

    name: str
    kind: Any  # the type without Annotated and without `| None`
    optional: bool
    rules: tuple[W.Rule, ...]
    item_kind: Any  # a tuple's item type (else ``kind``)
    nested: bool  # a message of its own (checked by its own rules)
    nested_items: bool  # a tuple that may hold messages
    enum: type[IntEnum] | None  # an enum travels as its number


_FIELDS: dict[Any, tuple[_Field, ...]] = {}
#: Message class -> its ``problem`` method (None: it has none).
_PROBLEMS: dict[Any, Callable[[Any], str | None] | None] = {}


def _fields(cls: Any) -> tuple[_Field, ...]:
    """The fields of message class ``cls`` (cached)."""
    known = _FIELDS.get(cls)
    if known is not None:
        return known
    hints = typing.get_type_hints(cls, include_extras=True)
    out = []
    for f in dataclasses.fields(cls):
        hint = hints[f.name]
        rules: tuple[W.Rule, ...] = ()
        if typing.get_origin(hint) is typing.Annotated:
            rules = hint.__metadata__
            hint = hint.__origin__
        optional = False
        if isinstance(hint, types.UnionType) and type(None) in hint.__args__:
            optional = True
            rest = [a for a in hint.__args__ if a is not type(None)]
            hint = rest[0] if len(rest) == 1 else hint
        enum = hint if isinstance(hint, type) and issubclass(hint, IntEnum) else None
        out.append(_Field(f.name, hint, optional, rules, _item_kind(hint), _is_message(hint),
                          typing.get_origin(hint) is tuple, enum))
    _FIELDS[cls] = tuple(out)
    _PROBLEMS[cls] = getattr(cls, "problem", None)
    return _FIELDS[cls]


def _rule(rule: W.Rule, name: str, value: object) -> None:
    try:
        rule(name, value)
    except W.Malformed as exc:
        _bad(str(exc))


def _check(obj: object) -> None:
    """Apply every field rule of ``obj`` (recursing into nested messages), then its problem()."""
    cls = type(obj)
    fields = _FIELDS.get(cls) or _fields(cls)
    for f in fields:
        value = getattr(obj, f.name)
        try:
            for rule in f.rules:
                rule(f.name, value)
        except W.Malformed as exc:
            _bad(str(exc))
        if f.nested:
            if value is not None:
                _check(value)
        elif f.nested_items and isinstance(value, tuple):
            for item in value:
                if _is_message(type(item)):
                    _check(item)
    problem = _PROBLEMS[cls]
    if problem is not None:
        found = problem(obj)
        if found is not None:
            _bad(found)


_MESSAGE_TYPES: dict[object, bool] = {}


def _is_message(kind: object) -> bool:
    known = _MESSAGE_TYPES.get(kind)
    if known is None:
        known = _MESSAGE_TYPES[kind] = (
            isinstance(kind, type) and dataclasses.is_dataclass(kind)
            and kind.__module__ == LogHeader.__module__)
    return known


def _item_kind(kind: Any) -> Any:
    args = typing.get_args(kind)
    return args[0] if len(args) == 2 and args[1] is Ellipsis else kind


@dataclasses.dataclass(frozen=True, slots=True)
class _Wire:
    """How one field of a message class sits in its proto message."""

    field: _Field
    repeated: bool
    message: bool  # a proto message (or a repeated one)
    presence: bool  # absent and default are told apart


_WIRES: dict[Any, tuple[_Wire, ...]] = {}


def _wires(cls: Any, msg: Message) -> tuple[_Wire, ...]:
    """The fields of message class ``cls`` as they sit in proto message ``msg`` (cached)."""
    known = _WIRES.get(cls)
    if known is not None:
        return known
    by_name = msg.DESCRIPTOR.fields_by_name
    out = []
    for f in _fields(cls):
        fd = by_name[f.name]
        out.append(_Wire(f, fd.is_repeated, fd.message_type is not None, fd.has_presence))
    _WIRES[cls] = tuple(out)
    return _WIRES[cls]


def _to_pb(value: object, kind: Any, out: Message) -> None:
    """Fill ``out`` from ``value`` of Python type ``kind`` (a message, a core value, a pair)."""
    if kind in _CONVERTERS:
        _CONVERTERS[kind][0](value, out)
    elif dataclasses.is_dataclass(kind):
        for w in _WIRES.get(kind) or _wires(kind, out):
            _field_to_pb(getattr(value, w.field.name), w, out)
    else:  # a plain tuple: the proto message's fields in order, e.g. (name, version)
        fields = out.DESCRIPTOR.fields
        for fd, item in zip(fields, typing.cast(tuple[object, ...], value), strict=True):
            setattr(out, fd.name, item)


def _field_to_pb(value: object, w: _Wire, out: Message) -> None:
    if value is None:
        return  # an optional field, absent
    f = w.field
    if w.repeated:
        container = getattr(out, f.name)
        if w.message:
            for item in typing.cast(tuple[object, ...], value):
                _to_pb(item, f.item_kind, container.add())
        else:
            container.extend(typing.cast(tuple[object, ...], value))
    elif w.message:
        sub = getattr(out, f.name)
        sub.SetInParent()
        _to_pb(value, f.kind, sub)
    elif f.enum is not None:
        setattr(out, f.name, int(typing.cast(int, value)))
    else:
        setattr(out, f.name, value)


def _from_pb(kind: Any, msg: Message) -> Any:
    """The Python value of type ``kind`` that ``msg`` holds (not yet checked)."""
    if kind in _CONVERTERS:
        return _CONVERTERS[kind][1](msg)
    if dataclasses.is_dataclass(kind) and isinstance(kind, type):
        return kind(*[_field_from_pb(w, msg) for w in _WIRES.get(kind) or _wires(kind, msg)])
    return tuple(getattr(msg, fd.name) for fd in msg.DESCRIPTOR.fields)


def _field_from_pb(w: _Wire, msg: Message) -> object:
    f = w.field
    if w.repeated:
        items = getattr(msg, f.name)
        if not w.message:
            return tuple(items)
        return tuple(_from_pb(f.item_kind, item) for item in items)
    if w.message:
        if not msg.HasField(f.name):
            if f.optional:
                return None
            _bad(f"the {msg.DESCRIPTOR.name} has no {f.name} (it is required)")
        return _from_pb(f.kind, getattr(msg, f.name))
    if w.presence and f.optional and not msg.HasField(f.name):
        return None
    value = getattr(msg, f.name)
    if f.enum is not None:
        try:
            return f.enum(value)
        except ValueError:  # a number from a newer peer: member 0, "unknown"
            return f.enum(0)
    return value


def _body_fields() -> dict[type, str]:
    """Body class -> its field of the Envelope's ``body`` oneof (matched by message name)."""
    by_message = {fd.message_type.name: fd.name
                  for fd in pb.Envelope.DESCRIPTOR.oneofs_by_name["body"].fields}
    out = {}
    for cls in typing.get_args(Body):
        name = cls.__name__
        out[cls] = by_message.get(name) or by_message[name.removesuffix("Msg")]
    return out


#: Body class -> Envelope oneof field, and back.
_BODY_FIELD = _body_fields()
_BODY_CLASS = {field: cls for cls, field in _BODY_FIELD.items()}


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
        field = _BODY_FIELD.get(type(envelope.body))
        if field is None:
            _bad(f"{type(envelope.body).__name__} is not a message body")
        _check(envelope)
        _check(envelope.body)
        msg = pb.Envelope(protocol_version=PROTOCOL_VERSION, table_id=envelope.table_id,
                          sender=envelope.sender, seq=envelope.seq)
        body = getattr(msg, field)
        body.SetInParent()  # a body whose fields all have default values is still present
        _to_pb(envelope.body, type(envelope.body), body)
        data = msg.SerializeToString(deterministic=True)
        if len(data) > W.MAX_ENVELOPE_SIZE:
            _bad(f"the envelope is larger than {W.MAX_ENVELOPE_SIZE} bytes")
        return data

    return typing.cast(bytes, _guarded("cannot encode the envelope", run))


def decode_envelope(data: bytes) -> Envelope:
    """The `Envelope` in ``data``; `CodecError` for anything else (never another exception).

    A `CodecError` for bytes that parse as an envelope names its ``seq`` (and the body's
    ``index``, see `CodecError`), so that the refusal can point at the refused message.
    """
    refs: dict[str, int] = {}

    def run() -> Envelope:
        raw = _as_bytes(data)
        if len(raw) > W.MAX_ENVELOPE_SIZE:
            _bad(f"the envelope is larger than {W.MAX_ENVELOPE_SIZE} bytes")
        msg = pb.Envelope.FromString(raw)
        if msg.seq:
            refs["seq"] = msg.seq
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
        sub = getattr(msg, field)
        if "index" in sub.DESCRIPTOR.fields_by_name:
            refs["index"] = sub.index
        cls = _BODY_CLASS[field]
        body = _from_pb(cls, sub)
        _check(body)
        env = Envelope(msg.table_id, msg.sender, msg.seq, body)
        _check(env)
        return env

    try:
        return typing.cast(Envelope, _guarded("cannot decode the envelope", run))
    except CodecError as exc:
        exc.ref_seq = refs.get("seq")
        exc.ref_index = refs.get("index")
        raise


def encode_action(action: Action) -> bytes:
    """The protobuf ``Action`` bytes of ``action``; `CodecError` for an invalid action."""

    def run() -> bytes:
        _rule(W.action, "action", action)
        msg = pb.Action()
        _action_to_pb(action, msg)
        return msg.SerializeToString(deterministic=True)

    return typing.cast(bytes, _guarded("cannot encode the action", run))


def decode_action(data: bytes) -> Action:
    """The `Action` in protobuf ``Action`` bytes; `CodecError` for anything else."""
    def run() -> Action:
        action = _action_from_pb(pb.Action.FromString(_as_bytes(data)))
        _rule(W.action, "action", action)
        return action

    return typing.cast(Action, _guarded("cannot decode the action", run))


LogRecord = LogHeader | LoggedEntry | SeatEvent | SealRecord


def encode_log_record(record: LogRecord) -> bytes:
    """The ``LogRecord`` bytes of a log header, a log entry, a seat event or a seal record;
    `CodecError` if invalid."""

    def run() -> bytes:
        msg = pb.LogRecord()
        if isinstance(record, LogHeader):
            _check(record)
            msg.header.format_version = LOG_FORMAT_VERSION
            _to_pb(record, LogHeader, msg.header)
        elif isinstance(record, LoggedEntry):
            _check(record)
            msg.entry.SetInParent()
            _to_pb(record, LoggedEntry, msg.entry)
        elif isinstance(record, SeatEvent):
            _check(record)
            msg.seat_event.SetInParent()
            _to_pb(record, SeatEvent, msg.seat_event)
        elif isinstance(record, SealRecord):
            _check(record)
            msg.seal.SetInParent()
            _to_pb(record, SealRecord, msg.seal)
        else:
            _bad(f"a log record is a LogHeader, a LoggedEntry, a SeatEvent or a SealRecord, "
                 f"not {type(record).__name__}")
        return msg.SerializeToString(deterministic=True)

    return typing.cast(bytes, _guarded("cannot encode the log record", run))


def decode_log_record(data: bytes) -> LogRecord:
    """The `LogHeader`, `LoggedEntry`, `SeatEvent` or `SealRecord` in ``LogRecord`` bytes;
    `CodecError` for anything else."""

    def run() -> LogRecord:
        msg = pb.LogRecord.FromString(_as_bytes(data))
        which = msg.WhichOneof("record")
        if which == "entry":
            entry: LoggedEntry = _from_pb(LoggedEntry, msg.entry)
            _check(entry)
            return entry
        if which == "seat_event":
            event: SeatEvent = _from_pb(SeatEvent, msg.seat_event)
            _check(event)
            return event
        if which == "seal":
            seal: SealRecord = _from_pb(SealRecord, msg.seal)
            _check(seal)
            return seal
        if which != "header":
            _bad("the log record is neither a header, an entry nor a seat event")
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
        header: LogHeader = _from_pb(LogHeader, h)
        _check(header)
        return header

    return typing.cast(LogRecord, _guarded("cannot decode the log record", run))

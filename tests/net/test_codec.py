"""The wire codec: every message round-trips, and bad bytes only ever give `CodecError`."""

from __future__ import annotations

import contextlib
import enum
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hedgerow.core.actions import Action
from hedgerow.core.canon import encode
from hedgerow.core.chance import CHANCE_SEAT, chance_action
from hedgerow.core.table import LogEntry, TableHeader
from hedgerow.net import codec, messages
from hedgerow.net.codec import (
    CodecError,
    decode_action,
    decode_envelope,
    decode_log_record,
    encode_action,
    encode_envelope,
    encode_log_record,
)
from hedgerow.net.messages import (
    PROTOCOL_VERSION,
    ActionCommit,
    ActionMsg,
    ActionReveal,
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
    MotionVote,
    PeerInfo,
    SeatAssignment,
    SeatEvent,
    SeatEventKind,
    SeatHandback,
    SeatMotion,
    SeatTaken,
    SeedCommit,
    SeedReveal,
    Start,
    StateHash,
    action_commitment,
    error_code_for_refusal,
)
from hedgerow.net.wirerules import MAX_ENVELOPE_SIZE, MAX_PLAYERS, MAX_VALUE_DEPTH
from hedgerow.proto import hedgerow_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]

# --------------------------------------------------------------------------------------
# Strategies

U64 = st.integers(0, 2**64 - 1)
SEAT = st.integers(0, MAX_PLAYERS - 1)
H32 = st.binary(min_size=32, max_size=32)
#: Text a peer's names, addresses and fingerprints may hold: no control character.
PLAIN = st.characters(blacklist_categories=("Cc", "Zl", "Zp", "Cs"))
NAME = st.text(PLAIN, max_size=64)

leaf = st.one_of(
    st.integers(-(2**63), 2**63 - 1),
    st.text(max_size=20),
    st.booleans(),
    st.binary(max_size=20),
)
values = st.recursive(leaf, lambda inner: st.lists(inner, max_size=4).map(tuple), max_leaves=12)
actions = st.builds(
    lambda kind, args: Action(kind, tuple(sorted(args.items()))),
    st.text(min_size=1, max_size=16),
    st.dictionaries(st.text(min_size=1, max_size=8), values, max_size=5),
)
headers = st.builds(TableHeader, st.text(PLAIN, min_size=1, max_size=40),
                    st.integers(1, MAX_PLAYERS), st.binary(min_size=1, max_size=64))


#: What chance can answer: per draw a pick (an int) or a shuffle (a tuple of ints).
chance_actions = st.lists(
    st.integers(0, 2**63 - 1) | st.lists(st.integers(0, 100), max_size=8).map(tuple),
    min_size=1, max_size=4).map(lambda draws: chance_action(tuple(draws)))


def logged(index: int) -> st.SearchStrategy[LoggedEntry]:
    seats_and_actions = st.tuples(SEAT, actions) | st.tuples(st.just(CHANCE_SEAT),
                                                             chance_actions)
    return st.builds(lambda seat_action, prev, dig, sh: LoggedEntry(
        LogEntry(index, *seat_action, prev, dig), sh), seats_and_actions, H32, H32, H32)


@st.composite
def seatings(draw: st.DrawFn) -> SeatAssignment:
    players = draw(st.integers(1, MAX_PLAYERS))
    seats = sorted(draw(st.sets(st.integers(0, players - 1), max_size=players)))
    peers = tuple(PeerInfo(s, draw(H32), draw(st.text(PLAIN, max_size=40)), draw(NAME),
                           draw(st.booleans())) for s in seats)
    seat = draw(st.none() | st.integers(0, players - 1))
    watchers = tuple(draw(st.lists(NAME, max_size=8)))  # (a spectator's seating has no seat)
    return SeatAssignment(seat, players, draw(st.text(PLAIN, min_size=1, max_size=40)), peers,
                          watchers=watchers)


@st.composite
def feeds(draw: st.DrawFn) -> messages.SpectatorFeed:
    """A spectator's feed: records (any bytes: the spectator decodes them), away seats."""
    seats = st.sets(SEAT, max_size=4).map(lambda s: tuple(sorted(s)))
    return messages.SpectatorFeed(draw(U64), tuple(draw(st.lists(st.binary(max_size=40),
                                                                 max_size=4))),
                                  draw(seats), draw(seats), draw(st.text(max_size=40)))


@st.composite
def reports(draw: st.DrawFn, before: int | None = None) -> StateHash:
    """A StateHash: an entry's hash and up to 5 of the entries just before it."""
    index = draw(st.integers(0, (before - 1) if before is not None else 2**64 - 1))
    earlier = draw(st.lists(H32, max_size=min(5, index)))
    return StateHash(index, draw(H32), b"".join(earlier))


@st.composite
def play_messages(draw: st.DrawFn) -> ActionMsg | ActionCommit:
    """An ActionMsg or ActionCommit, with the hashes of earlier entries or without."""
    index = draw(U64)
    hashes = draw(st.none() | reports(before=index)) if index else None
    if draw(st.booleans()):
        return ActionMsg(index, draw(H32), draw(SEAT), draw(actions), hashes=hashes)
    return ActionCommit(index, draw(SEAT), draw(H32), hashes)


@st.composite
def catch_up_replies(draw: st.DrawFn) -> CatchUpReply:
    first = draw(st.integers(0, 2**40))
    count = draw(st.integers(0, 4))
    entries = tuple(draw(logged(first + i)) for i in range(count))
    return CatchUpReply(draw(headers), first, entries,
                        draw(st.integers(first + count, 2**63)))


MASKS = st.integers(0, 2**32 - 1)


@st.composite
def seal_helds(draw: st.DrawFn) -> messages.SealHeld:
    """What a party holds of the sealed deck: decks and wanted cards ascending, masks."""
    decks = sorted(draw(st.sets(st.tuples(U64, st.integers(0, 63)), max_size=4)))
    cards = sorted(draw(st.sets(st.tuples(U64, st.integers(0, 63), st.integers(0, 1023)),
                                max_size=4)))
    return messages.SealHeld(
        draw(U64),
        tuple(messages.DeckHeld(e, d, draw(MASKS), draw(MASKS), draw(MASKS)) for e, d in decks),
        tuple(messages.CardWant(e, d, p, draw(st.integers(1, 2**32 - 1))) for e, d, p in cards),
        draw(MASKS), draw(MASKS), draw(MASKS))


plugin_lists = st.dictionaries(st.text(PLAIN, min_size=1, max_size=12),
                               st.text(PLAIN, max_size=8),
                               max_size=4).map(lambda d: tuple(sorted(d.items())))

bodies = st.one_of(
    st.builds(Hello, st.text(PLAIN, min_size=1, max_size=40), plugin_lists, NAME,
              st.none() | SEAT, st.booleans(), st.text(PLAIN, max_size=60), st.booleans()),
    seatings(),
    st.builds(SeedCommit, SEAT, H32),
    st.builds(SeedReveal, SEAT, H32),
    st.builds(Start, headers, H32),
    st.builds(ActionMsg, U64, H32, SEAT, actions),
    st.builds(StateHash, U64, H32),
    st.builds(ActionCommit, U64, SEAT, H32),
    reports(),
    play_messages(),
    st.builds(ActionReveal, U64, SEAT, actions, H32),
    st.builds(CatchUpRequest, U64),
    catch_up_replies(),
    feeds(),
    st.builds(Heartbeat, U64),
    st.builds(Heartbeat, U64, st.booleans(), st.none() | seal_helds()),
    st.builds(Leave, st.text(max_size=40), st.sampled_from(messages.LeaveReason)),
    st.builds(ErrorMsg, st.sampled_from(ErrorCode), st.text(max_size=40),
              st.none() | U64, st.none() | U64, st.text(max_size=20)),
)
envelopes = st.builds(Envelope, st.binary(min_size=16, max_size=16), H32,
                      st.integers(1, 2**64 - 1), bodies)

log_headers = st.builds(
    lambda game, variants, fp, players, seed, tid, seat, named, names: LogHeader(
        game, tuple(sorted(variants)), fp, players, seed, tid,
        None if seat is None else seat % players,
        tuple(names[i % len(names)] for i in range(players)) if named and names else ()),
    st.text(min_size=1, max_size=12), st.sets(st.text(min_size=1, max_size=8), max_size=3),
    st.text(min_size=1, max_size=40), st.integers(1, MAX_PLAYERS),
    st.binary(min_size=1, max_size=64), st.just(b"") | st.binary(min_size=16, max_size=16),
    st.none() | SEAT, st.booleans(), st.lists(NAME, max_size=3),
)


def strictly(value: object) -> bytes:
    """Compare with types: True == 1 in Python, but not on the wire or in the hash chain."""
    return encode(value)


def envelope(body: object, *, table_id: bytes = b"\x01" * 16) -> Envelope:
    return Envelope(table_id, b"\x02" * 32, 1, body)  # type: ignore[arg-type]


# --------------------------------------------------------------------------------------
# Round trips


@given(actions)
def test_action_round_trip(action: Action) -> None:
    back = decode_action(encode_action(action))
    assert back == action
    assert strictly((back.kind, back.args)) == strictly((action.kind, action.args))


@given(envelopes)
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_envelope_round_trip(env: Envelope) -> None:
    data = encode_envelope(env)
    back = decode_envelope(data)
    assert back == env
    assert encode_envelope(back) == data  # deterministic bytes


@given(log_headers)
def test_log_header_round_trip(header: LogHeader) -> None:
    assert decode_log_record(encode_log_record(header)) == header


@given(st.integers(0, 2**64 - 1).flatmap(logged))
def test_log_entry_round_trip(item: LoggedEntry) -> None:
    back = decode_log_record(encode_log_record(item))
    assert back == item
    assert isinstance(back, LoggedEntry)
    assert strictly(back.entry.action.args) == strictly(item.entry.action.args)


def test_every_body_type_is_covered() -> None:
    assert set(codec._BODY_FIELD) == {Hello, SeatAssignment, SeedCommit, SeedReveal, Start,
                                      ActionMsg, StateHash, ActionCommit, ActionReveal,
                                      CatchUpRequest, CatchUpReply, Heartbeat, Leave, ErrorMsg,
                                      SeatMotion, MotionVote, SeatTaken, SeatHandback,
                                      messages.ShuffleStep, messages.CardKeys,
                                      messages.Disclose, messages.EscrowKey,
                                      messages.EscrowShares, messages.EscrowOpen,
                                      messages.SpectatorFeed}
    fields = {f.name for f in pb.Envelope.DESCRIPTOR.oneofs_by_name["body"].fields}
    assert fields == set(codec._BODY_FIELD.values())


# Fields the codec writes itself (framing), and messages with a converter of their own.
FRAMING = {("Envelope", "protocol_version"), ("LogHeader", "format_version")}


def _message_pairs() -> list[tuple[type, object]]:
    """Every message class with its generated descriptor, found from the bodies down."""
    import typing

    pairs: list[tuple[type, object]] = [(Envelope, pb.Envelope.DESCRIPTOR),
                                        (messages.LogHeader, pb.LogHeader.DESCRIPTOR)]
    pairs += [(cls, pb.Envelope.DESCRIPTOR.fields_by_name[f].message_type)
              for cls, f in codec._BODY_FIELD.items()]
    for cls, desc in list(pairs):
        for f in codec._fields(cls):
            kind = f.kind
            args = typing.get_args(kind)
            if args and args[-1] is Ellipsis:
                kind = args[0]
            if codec._is_message(kind):
                fd = desc.fields_by_name[f.name]  # type: ignore[attr-defined]
                pairs.append((kind, fd.message_type))
    return pairs


def test_each_message_class_is_its_proto_message_field_for_field_with_a_rule() -> None:
    """One model per message: the .proto declares the fields, the message class gives each
    one its rule; nothing else mirrors them, and they cannot drift apart."""
    for cls, desc in _message_pairs():
        if cls is messages.LoggedEntry:
            continue  # travels flat as the proto LogEntry (its own converter in the codec)
        ours = {f.name for f in codec._fields(cls)}
        theirs = {fd.name for fd in desc.fields  # type: ignore[attr-defined]
                  if (desc.name, fd.name) not in FRAMING}  # type: ignore[attr-defined]
        if cls is Envelope:
            theirs = {n for n in theirs if n not in codec._BODY_FIELD.values()} | {"body"}
        assert ours == theirs, cls.__name__
        for f in codec._fields(cls):
            if cls is Envelope and f.name in ("table_id", "body"):
                continue  # checked by Envelope.problem() and by the body's own rules
            assert f.rules, f"{cls.__name__}.{f.name} has no validation rule"


def test_wire_enums_match_the_proto_enums() -> None:
    for ours, theirs, prefix in ((ErrorCode, pb.ErrorCode, ""),
                                 (messages.LeaveReason, pb.LeaveReason, "LEAVE_")):
        assert {m.name: m.value for m in ours} == {
            name.removeprefix(prefix): number for name, number in theirs.items()}


def test_bodies_with_only_default_fields_are_still_present() -> None:
    for body in (Heartbeat(), Leave(), CatchUpRequest(0), ErrorMsg(ErrorCode.UNKNOWN, ""),
                 StateHash(0, bytes(32))):
        assert decode_envelope(encode_envelope(envelope(body))).body == body


def test_bool_and_int_stay_distinct() -> None:
    action = Action.of("x", a=True, b=1, c=(False, 0), d=())
    back = decode_action(encode_action(action))
    assert [type(v) for _, v in back.args] == [bool, int, tuple, tuple]
    assert [type(v) for v in back["c"]] == [bool, int]  # type: ignore[union-attr]


# --------------------------------------------------------------------------------------
# Bad input gives CodecError, and only CodecError


def decode_any(data: bytes) -> None:
    try:
        decode_envelope(data)
    except CodecError as exc:
        assert isinstance(exc.code, ErrorCode)
        assert exc.message


@given(st.binary(max_size=300))
def test_random_bytes_give_codec_error(data: bytes) -> None:
    decode_any(data)
    for decoder in (decode_log_record, decode_action):
        with contextlib.suppress(CodecError):
            decoder(data)


@given(envelopes, st.data())
@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=60)
def test_truncations_give_codec_error(env: Envelope, data: st.DataObject) -> None:
    raw = encode_envelope(env)
    cut = data.draw(st.integers(0, len(raw) - 1))
    with pytest.raises(CodecError):
        decode_envelope(raw[:cut])


@given(envelopes, st.data())
@settings(suppress_health_check=[HealthCheck.too_slow], max_examples=60)
def test_corrupted_bytes_never_raise_anything_else(env: Envelope, data: st.DataObject) -> None:
    raw = bytearray(encode_envelope(env))
    for _ in range(data.draw(st.integers(1, 4))):
        raw[data.draw(st.integers(0, len(raw) - 1))] = data.draw(st.integers(0, 255))
    decode_any(bytes(raw))


def raw_envelope(**fields: object) -> pb.Envelope:
    base: dict[str, object] = {"protocol_version": PROTOCOL_VERSION, "table_id": b"\x01" * 16,
                               "sender": b"\x02" * 32, "seq": 1}
    base.update(fields)
    return pb.Envelope(**base)  # type: ignore[arg-type]


def good_action_msg() -> pb.ActionMsg:
    return pb.ActionMsg(index=0, prev=bytes(32), seat=0, action=pb.Action(kind="pass"))


@pytest.mark.parametrize(
    ("msg", "pattern"),
    [
        (raw_envelope(), "no body"),
        (raw_envelope(protocol_version=0, heartbeat=pb.Heartbeat()), "no protocol version"),
        (raw_envelope(table_id=b"\x01" * 15, heartbeat=pb.Heartbeat()), "table_id"),
        (raw_envelope(table_id=b"", heartbeat=pb.Heartbeat()), "table_id"),
        (raw_envelope(sender=b"\x02" * 31, heartbeat=pb.Heartbeat()), "sender"),
        (raw_envelope(seq=0, heartbeat=pb.Heartbeat()), "seq"),
        (raw_envelope(heartbeat=pb.Heartbeat(held=pb.SealHeld(wants=[pb.CardWant(pos=3)]))),
         "names the parties"),
        (raw_envelope(heartbeat=pb.Heartbeat(held=pb.SealHeld(
            decks=[pb.DeckHeld(entry=5), pb.DeckHeld(entry=2)]))), "ascending"),
        (raw_envelope(heartbeat=pb.Heartbeat(held=pb.SealHeld(
            wants=[pb.CardWant(pos=1024, parties=1)]))), "pos"),
        (raw_envelope(action=pb.ActionMsg(index=0, prev=bytes(31), seat=0,
                                          action=pb.Action(kind="pass"))), "prev"),
        (raw_envelope(action=pb.ActionMsg(index=0, prev=bytes(32), seat=0)), "no action"),
        (raw_envelope(action=pb.ActionMsg(index=0, prev=bytes(32), seat=MAX_PLAYERS,
                                          action=pb.Action(kind="pass"))), "seat"),
        (raw_envelope(action=pb.ActionMsg(index=0, prev=bytes(32), seat=0,
                                          action=pb.Action(kind=""))), "kind"),
        (raw_envelope(action=pb.ActionMsg(index=0, prev=bytes(32), seat=0, action=pb.Action(
            kind="x", args=[pb.Arg(name="b", value=pb.Value(int=1)),
                            pb.Arg(name="a", value=pb.Value(int=2))]))), "sorted"),
        (raw_envelope(action=pb.ActionMsg(index=0, prev=bytes(32), seat=0, action=pb.Action(
            kind="x", args=[pb.Arg(name="a", value=pb.Value(int=1)),
                            pb.Arg(name="a", value=pb.Value(int=2))]))), "unique"),
        (raw_envelope(action=pb.ActionMsg(index=0, prev=bytes(32), seat=0, action=pb.Action(
            kind="x", args=[pb.Arg(name="a")]))), "no value"),
        (raw_envelope(action=pb.ActionMsg(index=0, prev=bytes(32), seat=0, action=pb.Action(
            kind="x", args=[pb.Arg(name="a", value=pb.Value())]))), "none of"),
        (raw_envelope(state_hash=pb.StateHash(index=3, state_hash=bytes(33))), "state_hash"),
        # A report of earlier entries: whole hashes, none before entry #0, and a play
        # message reports only entries before its own (docs/protocol.md §3.3).
        (raw_envelope(state_hash=pb.StateHash(index=3, state_hash=bytes(32), earlier=bytes(33))),
         "earlier must be 32-byte hashes"),
        (raw_envelope(state_hash=pb.StateHash(index=1, state_hash=bytes(32), earlier=bytes(64))),
         "before entry #0"),
        (raw_envelope(action=pb.ActionMsg(index=4, prev=bytes(32), seat=0,
                                          action=pb.Action(kind="pass"),
                                          hashes=pb.StateHash(index=4, state_hash=bytes(32)))),
         "at #4 reports state hashes up to #4"),
        (raw_envelope(action_commit=pb.ActionCommit(index=4, seat=0, commitment=bytes(32),
                                                    hashes=pb.StateHash(index=2))),
         "state_hash must be 32 bytes"),
        (raw_envelope(seed_commit=pb.SeedCommit(seat=0, commitment=b"")), "commitment"),
        (raw_envelope(seed_reveal=pb.SeedReveal(seat=0, share=bytes(16))), "share"),
        (raw_envelope(start=pb.Start(setup_hash=bytes(32))), "header"),
        (raw_envelope(start=pb.Start(header=pb.TableHeader(fingerprint="g@1", players=0,
                                                           seed=b"s"),
                                     setup_hash=bytes(32))), "players"),
        (raw_envelope(start=pb.Start(header=pb.TableHeader(fingerprint="g@1", players=2,
                                                           seed=bytes(65)),
                                     setup_hash=bytes(32))), "seed"),
        (raw_envelope(hello=pb.Hello()), "fingerprint"),
        (raw_envelope(hello=pb.Hello(fingerprint="g@1", display_name="x" * 65)), "display_name"),
        # Every text a peer sends is bounded, and names hold no control character.
        (raw_envelope(hello=pb.Hello(fingerprint="g@1" * 100)), "fingerprint is longer"),
        (raw_envelope(hello=pb.Hello(fingerprint="g@1", display_name="\x1b[2J")),
         "display_name holds a control character"),
        (raw_envelope(hello=pb.Hello(fingerprint="g@1\x00")), "control character"),
        (raw_envelope(hello=pb.Hello(fingerprint="g@1", address="tcp://a:1\x07")),
         "address holds a control character"),
        (raw_envelope(hello=pb.Hello(fingerprint="g@1", plugins=[
            pb.PluginVersion(name="p" * 65, version="1")])), "plugin name is longer"),
        (raw_envelope(hello=pb.Hello(fingerprint="g@1", plugins=[
            pb.PluginVersion(name=f"p{i:03}", version="1") for i in range(257)])),
         "more than 256 plugins"),
        (raw_envelope(leave=pb.Leave(reason="x" * 257)), "reason is longer than 256"),
        (raw_envelope(error=pb.Error(message="x" * 1025)), "message is longer than 1024"),
        (raw_envelope(hello=pb.Hello(fingerprint="g@1", plugins=[
            pb.PluginVersion(name="b"), pb.PluginVersion(name="a")])), "plugin"),
        (raw_envelope(seat_assignment=pb.SeatAssignment(seat=2, players=2, fingerprint="g",
                                                        round=1)), "seat"),
        (raw_envelope(seat_assignment=pb.SeatAssignment(players=2, fingerprint="g", round=1,
                                                        peers=[
            pb.Peer(seat=1, public_key=bytes(32)), pb.Peer(seat=0, public_key=bytes(32))])),
         "sorted by seat"),
        # Seed rounds count from 1 (docs/protocol.md §3.2), and are bounded.
        (raw_envelope(seed_commit=pb.SeedCommit(seat=0, commitment=bytes(32))), "round"),
        (raw_envelope(seed_reveal=pb.SeedReveal(seat=0, share=bytes(32), round=(1 << 20) + 1)),
         "round"),
        (raw_envelope(start=pb.Start(header=pb.TableHeader(fingerprint="g@1", players=2,
                                                           seed=b"s"), setup_hash=bytes(32))),
         "round"),
        (raw_envelope(seat_assignment=pb.SeatAssignment(players=2, fingerprint="g")), "round"),
        (raw_envelope(seat_assignment=pb.SeatAssignment(players=2, fingerprint="g", peers=[
            pb.Peer(seat=0, public_key=bytes(8))])), "public_key"),
        (raw_envelope(catch_up_reply=pb.CatchUpReply(
            header=pb.TableHeader(fingerprint="g@1", players=2, seed=b"s"), from_index=5,
            entries=[pb.LogEntry(index=6, action=pb.Action(kind="x"), prev=bytes(32),
                                 digest=bytes(32), state_hash=bytes(32))],
            next_index=7)), "consecutive"),
        (raw_envelope(catch_up_reply=pb.CatchUpReply(
            header=pb.TableHeader(fingerprint="g@1", players=2, seed=b"s"), from_index=5,
            next_index=4)), "next_index"),
    ],
)
def test_invalid_messages_are_malformed(msg: pb.Envelope, pattern: str) -> None:
    with pytest.raises(CodecError, match=pattern) as info:
        decode_envelope(msg.SerializeToString())
    assert info.value.code is ErrorCode.MALFORMED


# 1: before chance entries and whole steps; 2: before the sealed deck; 3: before the lean
# wire (a StateHash from every peer after every entry)
@pytest.mark.parametrize("version", [1, 2, 3, 5])
def test_other_protocol_versions_are_a_protocol_mismatch(version: int) -> None:
    assert PROTOCOL_VERSION == 4
    data = raw_envelope(protocol_version=version, heartbeat=pb.Heartbeat()).SerializeToString()
    with pytest.raises(CodecError, match=f"protocol version {version} is not supported "
                                         r"\(this peer speaks version 4\)") as info:
        decode_envelope(data)
    assert info.value.code is ErrorCode.PROTOCOL_MISMATCH


@pytest.mark.parametrize("data, ref_seq, ref_index", [
    (b"\xff" * 12, None, None),  # not protobuf: nothing to name
    (raw_envelope(seq=0, heartbeat=pb.Heartbeat()).SerializeToString(), None, None),
    (raw_envelope(seq=9, table_id=b"", heartbeat=pb.Heartbeat()).SerializeToString(), 9, None),
    (raw_envelope(seq=9, action=pb.ActionMsg(index=4, prev=bytes(32), seat=1,
                                             action=pb.Action())).SerializeToString(), 9, 4),
    (raw_envelope(seq=9, state_hash=pb.StateHash(index=3, state_hash=b"x")
                  ).SerializeToString(), 9, 3),
    (raw_envelope(protocol_version=2, seq=9, action=pb.ActionMsg(index=4)
                  ).SerializeToString(), 9, None),  # another version's body is not read
])
def test_a_decoding_failure_names_the_envelope_and_its_index(
        data: bytes, ref_seq: int | None, ref_index: int | None) -> None:
    with pytest.raises(CodecError) as info:
        decode_envelope(data)
    assert (info.value.ref_seq, info.value.ref_index) == (ref_seq, ref_index)


def chance_reply(**entry: object) -> pb.Envelope:
    fields: dict[str, object] = {"index": 0, "prev": bytes(32), "digest": bytes(32),
                                 "state_hash": bytes(32), "chance": True}
    fields.update(entry)
    return raw_envelope(catch_up_reply=pb.CatchUpReply(
        header=pb.TableHeader(fingerprint="g@1", players=2, seed=b"s"), from_index=0,
        entries=[pb.LogEntry(**fields)], next_index=1))  # type: ignore[arg-type]


def draws(*values: pb.Value) -> pb.Action:
    return pb.Action(kind="chance", args=[pb.Arg(name="draws", value=pb.Value(
        list=pb.ValueList(items=list(values))))])


def test_a_chance_entry_is_seat_zero_with_the_chance_flag_on_the_wire() -> None:
    shuffle = pb.Value(list=pb.ValueList(items=[pb.Value(int=1), pb.Value(int=0)]))
    env = decode_envelope(chance_reply(action=draws(pb.Value(int=3), shuffle))
                          .SerializeToString())
    body = env.body
    assert isinstance(body, CatchUpReply)
    entry = body.entries[0].entry
    assert entry.seat == CHANCE_SEAT and entry.is_chance
    assert entry.action == chance_action((3, (1, 0)))
    raw = pb.Envelope.FromString(encode_envelope(env))
    assert raw.catch_up_reply.entries[0].chance and raw.catch_up_reply.entries[0].seat == 0


@pytest.mark.parametrize(
    ("entry", "pattern"),
    [
        ({"seat": 1, "action": draws(pb.Value(int=1))}, "a chance entry has no seat"),
        ({"action": pb.Action(kind="pass")}, r"chance\(draws=\(\.\.\.\)\)"),
        ({"action": pb.Action(kind="chance")}, r"chance\(draws=\(\.\.\.\)\)"),
        ({"action": draws(pb.Value(int=-1))}, "non-negative"),
        ({"action": draws(pb.Value(str="x"))}, "non-negative"),
        ({"action": draws(pb.Value(list=pb.ValueList(items=[pb.Value(flag=True)])))},
         "non-negative"),
    ],
)
def test_a_malformed_chance_entry_is_refused(entry: dict[str, object], pattern: str) -> None:
    with pytest.raises(CodecError, match=pattern) as info:
        decode_envelope(chance_reply(**entry).SerializeToString())
    assert info.value.code is ErrorCode.MALFORMED


def test_a_seat_below_zero_is_only_the_chance_seat() -> None:
    for seat, action in ((CHANCE_SEAT, Action.of("pass")), (-2, chance_action((1,))),
                         (-2, Action.of("pass"))):
        item = LoggedEntry(LogEntry(0, seat, action, bytes(32), bytes(32)), bytes(32))
        with pytest.raises(CodecError):
            encode_log_record(item)


def test_hello_may_omit_the_table_id_and_nothing_else_may() -> None:
    hello = envelope(Hello("petals@1.0"), table_id=b"")
    assert decode_envelope(encode_envelope(hello)) == hello
    with pytest.raises(CodecError, match="table_id"):
        encode_envelope(envelope(Heartbeat(), table_id=b""))


def test_unknown_error_codes_decode_as_unknown() -> None:
    data = raw_envelope(error=pb.Error(code=999, message="from the future")).SerializeToString()
    body = decode_envelope(data).body
    assert body == ErrorMsg(ErrorCode.UNKNOWN, "from the future")


def test_unknown_fields_are_ignored() -> None:
    known = raw_envelope(heartbeat=pb.Heartbeat(next_index=3)).SerializeToString()
    extra = known + bytes([0xF8, 0x06, 0x01])  # field 111, varint 1
    assert decode_envelope(extra).body == Heartbeat(3)


def test_nesting_limit() -> None:
    deep: object = 1
    for _ in range(MAX_VALUE_DEPTH):
        deep = (deep,)
    assert decode_action(encode_action(Action.of("x", v=deep))) == Action.of("x", v=deep)
    with pytest.raises(CodecError, match="nest"):
        encode_action(Action.of("x", v=(deep,)))
    msg = pb.Action(kind="x")
    value = msg.args.add(name="v").value
    for _ in range(MAX_VALUE_DEPTH + 1):
        value = value.list.items.add()
    value.int = 1
    with pytest.raises(CodecError, match="nest"):
        decode_action(msg.SerializeToString())


def test_very_deep_protobuf_nesting_is_malformed() -> None:
    value = b"\x08\x02"  # Value{int: 1}
    for _ in range(300):  # Value{list: ValueList{items: [value]}}
        items = b"\x0a" + _varint(len(value)) + value
        value = b"\x2a" + _varint(len(items)) + items
    arg = b"\x0a\x01v\x12" + _varint(len(value)) + value
    with pytest.raises(CodecError):
        decode_action(b"\x0a\x01x\x12" + _varint(len(arg)) + arg)


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        out.append((n & 0x7F) | (0x80 if n > 0x7F else 0))
        n >>= 7
        if not n:
            return bytes(out)


class Colour(enum.IntEnum):
    RED = 1


class Suit(enum.StrEnum):
    FIRE = "fire"


@pytest.mark.parametrize(
    ("action", "pattern"),
    [
        (Action.of("x", n=2**63), "64 bits"),
        (Action.of("x", n=-(2**63) - 1), "64 bits"),
        (Action.of("x", s="\ud800"), "surrogates"),
        (Action.of("x", c=Colour.RED), "exactly"),
        (Action.of("x", c=Suit.FIRE), "exactly"),
        (Action.of("x", f=1.5), "unsupported"),  # type: ignore[arg-type]
        (Action("x", (("b", 1), ("a", 2))), "sorted"),
        (Action("", ()), "kind"),
        ("not an action", "Action"),
    ],
)
def test_unencodable_actions(action: Action, pattern: str) -> None:
    with pytest.raises(CodecError, match=pattern):
        encode_action(action)


@pytest.mark.parametrize(
    "body",
    [
        ActionMsg(-1, bytes(32), 0, Action.of("x")),
        ActionMsg(0, bytes(31), 0, Action.of("x")),
        ActionMsg(0, bytes(32), MAX_PLAYERS, Action.of("x")),
        ActionMsg(True, bytes(32), 0, Action.of("x")),  # type: ignore[arg-type]
        StateHash(2**64, bytes(32)),
        SeedCommit(0, "not bytes"),  # type: ignore[arg-type]
        Hello(""),
        Hello("g", (("b", "1"), ("a", "1"))),
        SeatAssignment(0, 0, "g"),
        SeatAssignment(0, 2, "g", (PeerInfo(0, bytes(32), "a"), PeerInfo(0, bytes(32), "b"))),
        Start(TableHeader("", 2, b"s"), bytes(32)),
        CatchUpReply(TableHeader("g", 2, b"s"), 3, (), 2),
        ErrorMsg(4, "plain int code"),  # type: ignore[arg-type]
        Heartbeat(0, False, messages.SealHeld(0, (messages.DeckHeld(2, 0),
                                                  messages.DeckHeld(1, 0)))),  # not ascending
        Heartbeat(0, False, messages.SealHeld(0, (messages.DeckHeld(1, 0),
                                                  messages.DeckHeld(1, 0)))),  # twice
        Heartbeat(0, False, messages.SealHeld(0, wants=(messages.CardWant(0, 0, 1, 0),))),
        Heartbeat(0, False, messages.SealHeld(0, escrow_keys=2**32)),
        Heartbeat(0, False, messages.SealHeld(0, (messages.DeckHeld(0, 64),))),
        "not a body",
    ],
)
def test_invalid_bodies_are_not_encoded(body: object) -> None:
    with pytest.raises(CodecError):
        encode_envelope(envelope(body))


def test_invalid_envelope_fields_are_not_encoded() -> None:
    for env in (Envelope(b"\x01" * 16, b"\x02" * 32, 0, Heartbeat()),
                Envelope(b"\x01" * 16, b"\x02" * 30, 1, Heartbeat()),
                Envelope(b"\x01" * 17, b"\x02" * 32, 1, Heartbeat())):
        with pytest.raises(CodecError):
            encode_envelope(env)
    with pytest.raises(CodecError):
        encode_envelope("nope")  # type: ignore[arg-type]


def test_size_limit() -> None:
    huge = Action("play", (("blob", b"x" * MAX_ENVELOPE_SIZE),))
    big = envelope(ActionMsg(0, bytes(32), 0, huge))
    with pytest.raises(CodecError, match="larger"):
        encode_envelope(big)
    with pytest.raises(CodecError, match="larger"):
        decode_envelope(bytes(MAX_ENVELOPE_SIZE + 1))


def test_log_records() -> None:
    header = LogHeader("petals", ("harmony",), "petals@1+harmony@1", 3, b"seed")
    assert decode_log_record(encode_log_record(header)) == header
    for bad in (
        LogHeader("", (), "f", 2, b"s"),
        LogHeader("g", ("b", "a"), "f", 2, b"s"),
        LogHeader("g", (), "f", 2, b"s", own_seat=2),
        LogHeader("g", (), "f", 2, b"s", seat_names=("only one",)),
        LogHeader("g", (), "f", 2, b"s", table_id=b"short"),
        LogHeader("g", (), "f", 2, b""),
    ):
        with pytest.raises(CodecError):
            encode_log_record(bad)
    with pytest.raises(CodecError, match="neither"):
        decode_log_record(b"")
    future = pb.LogRecord(header=pb.LogHeader(format_version=6, game="g", fingerprint="f",
                                              players=2, seed=b"s"))
    with pytest.raises(CodecError, match="format version 6 is not supported "
                                         r"\(this version reads formats 1, 2, 3, 4, 5\)") as info:
        decode_log_record(future.SerializeToString())
    assert info.value.code is ErrorCode.PROTOCOL_MISMATCH
    # Format 1 (before chance entries) reads the same; format 5 is what is written.
    older = pb.LogRecord(header=pb.LogHeader(format_version=1, game="g", fingerprint="f",
                                             players=2, seed=b"s"))
    assert decode_log_record(older.SerializeToString()) == LogHeader("g", (), "f", 2, b"s")
    written = pb.LogRecord.FromString(encode_log_record(LogHeader("g", (), "f", 2, b"s")))
    assert written.header.format_version == 5
    with pytest.raises(CodecError):
        encode_log_record("nope")  # type: ignore[arg-type]
    # A seat event (format 3) round-trips; one with an unknown kind or unsorted voters does not.
    event = SeatEvent(SeatEventKind.TAKEOVER, 2, 0, "random", 7, (0, 1))
    assert decode_log_record(encode_log_record(event)) == event
    rollback = SeatEvent(SeatEventKind.ROLLBACK, 2, 0, "random", 7)  # (format 5)
    assert decode_log_record(encode_log_record(rollback)) == rollback
    for bad_event in (SeatEvent(SeatEventKind.UNSPECIFIED, 2),
                      SeatEvent(SeatEventKind.END, 2, voters=(1, 0))):
        with pytest.raises(CodecError):
            encode_log_record(bad_event)
    # A seal record (format 4) round-trips, holding exactly one message.
    step = messages.ShuffleStep(0, 1, messages.ShufflePhase.REKEY, 2, b"\x02" * 64,
                                b"\x03" * 64)
    for seal in (messages.SealRecord.of(2, step), messages.SealRecord.of(0, messages.CardKeys(
            (messages.CardKey(0, 1, 1, b"\x04" * 32),), public=True)),
                 messages.SealRecord.of(1, messages.Disclose(1, b"\x05" * 32))):
        assert decode_log_record(encode_log_record(seal)) == seal
    for bad_seal in (messages.SealRecord(0), messages.SealRecord(
            0, step=step, disclose=messages.Disclose(0, b"\x05" * 32))):
        with pytest.raises(CodecError, match="exactly one"):
            encode_log_record(bad_seal)


# --------------------------------------------------------------------------------------
# Agreement with the .proto and the rest of the code base


def test_error_codes_match_the_proto_enum() -> None:
    proto_codes = {v.name: v.number for v in pb.ErrorCode.DESCRIPTOR.values}
    assert proto_codes == {c.name: c.value for c in ErrorCode}


def test_refusal_codes_map_to_error_codes() -> None:
    from hedgerow.core.errors import Code

    assert error_code_for_refusal(Code.NOT_YOUR_TURN) is ErrorCode.OUT_OF_TURN
    assert error_code_for_refusal(Code.BROKEN_CHAIN) is ErrorCode.BROKEN_CHAIN
    assert error_code_for_refusal("petals.not_adjacent") is ErrorCode.ILLEGAL
    for code in Code:
        assert error_code_for_refusal(code) is not ErrorCode.UNKNOWN


def test_action_commitment_binds_everything() -> None:
    salt = bytes(range(32))
    base = action_commitment(4, 1, Action.of("play", card=3), salt)
    assert len(base) == 32
    assert base != action_commitment(5, 1, Action.of("play", card=3), salt)
    assert base != action_commitment(4, 2, Action.of("play", card=3), salt)
    assert base != action_commitment(4, 1, Action.of("play", card=4), salt)
    assert base != action_commitment(4, 1, Action.of("play", card=3), bytes(32))
    with pytest.raises(ValueError):
        action_commitment(4, 1, Action.of("play"), b"short")


def test_only_the_codec_imports_generated_code() -> None:
    users = []
    for path in ROOT.rglob("*.py"):
        rel = path.relative_to(ROOT)
        skip = {".venv", "tests", "proto", "build", "scripts"}
        if rel.parts[0] in skip or "site-packages" in rel.parts:
            continue
        if re.search(r"\b_pb2\b|hedgerow_pb2", path.read_text(encoding="utf-8")):
            users.append(str(rel))
    assert users == ["net/codec.py"]

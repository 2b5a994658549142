"""docs/protocol.md's test vectors are what the code computes, so the spec cannot rot.

Every fenced block opened with ```` ```vector NAME ```` in the document must equal
``VECTORS[NAME]()`` here, and every vector here must appear in the document.  After a
deliberate change, ``python tests/net/test_protocol_vectors.py`` prints every block to paste.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from boardvectors import BOARD_VECTORS

from hedgerow.core.actions import Action
from hedgerow.core.canon import digest, encode, state_hash
from hedgerow.core.chance import (
    CHANCE_SEAT,
    Chance,
    Pick,
    SeededChance,
    Shuffle,
    chance_action,
    draw_all,
)
from hedgerow.core.rng import Rng
from hedgerow.core.seeding import commitment, seed_from_int, table_seed
from hedgerow.core.table import LogEntry, Table, TableHeader
from hedgerow.net.codec import encode_envelope, encode_log_record
from hedgerow.net.logfile import MAGIC, parse_log
from hedgerow.net.messages import (
    ActionCommit,
    ActionMsg,
    CardWant,
    DeckHeld,
    Envelope,
    Heartbeat,
    Hello,
    LoggedEntry,
    LogHeader,
    MotionKind,
    MotionVote,
    PeerInfo,
    SealHeld,
    SeatAssignment,
    SeatEvent,
    SeatEventKind,
    SeatHandback,
    SeatMotion,
    SpectatorFeed,
    StateHash,
    action_commitment,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "protocol.md"
BLOCK = re.compile(r"^```vector (?P<name>[a-z0-9-]+)\n(?P<body>.*?)^```$", re.MULTILINE | re.DOTALL)

SEED = bytes(range(32))
SHARES = (bytes([0x11]) * 32, bytes([0x22]) * 32, bytes([0x33]) * 32)
FINGERPRINT = "petals@2.0.0+harmony@1.0.0"


def hexlines(data: bytes, width: int = 32) -> str:
    """Hex, ``width`` bytes a line."""
    return "\n".join(data[i: i + width].hex() for i in range(0, len(data), width)) or "(empty)"


# --------------------------------------------------------------------------------------
# Vectors


def rng_words() -> str:
    import hashlib

    data = b"setup\x00" + (0).to_bytes(8, "little")
    block0 = hashlib.blake2b(data, key=SEED, digest_size=64).digest()
    rng = Rng(SEED, "setup")
    lines = [f"seed    = {SEED.hex()}", 'stream  = "setup"',
             f"block 0 = BLAKE2b-512(key=seed, data={data.hex()})",
             f"        = {block0[:32].hex()}", f"          {block0[32:].hex()}"]
    lines += [f"word {i} = 0x{rng.next_u64():016x}" for i in range(10)]
    return "\n".join(lines) + "\n"


def rng_streams() -> str:
    lines = []
    for stream in ("", "setup", "setup/deck", "bot/0"):
        rng = Rng(SEED, stream)
        words = " ".join(f"0x{rng.next_u64():016x}" for _ in range(2))
        lines.append(f"{stream!r:14} {words}")
    fork = Rng(SEED, "setup").fork("deck")
    lines.append(f"Rng(seed, 'setup').fork('deck').stream = {fork.stream!r}")
    return "\n".join(lines) + "\n"


def rng_shuffle() -> str:
    deck = Rng(SEED, "setup").shuffled(range(38))
    return f"seed   = {SEED.hex()}\nstream = \"setup\"\nshuffle(0..37) = {deck}\n"


def rng_randbelow() -> str:
    rng = Rng(SEED, "randbelow")
    probe = Rng(SEED, "randbelow")  # the same words, drawn by hand to show the rejections
    lines = [f"seed = {SEED.hex()}", 'stream = "randbelow"', "calls in order on one generator:"]
    for n in (6, 1, 52, 1_000_000_007, 2**63 + 1, 2**63 + 1, 2**63 + 1, 2**64 - 1):
        limit = 2**64 - 2**64 % n
        words = [probe.next_u64()]
        while words[-1] >= limit:
            words.append(probe.next_u64())
        result = rng.randbelow(n)
        assert result == words[-1] % n
        shown = ", ".join(f"0x{w:016x}" + ("" if w < limit else " (rejected)") for w in words)
        lines.append(f"randbelow({n}) = {result}")
        lines.append(f"    words: {shown}")
    return "\n".join(lines) + "\n"


class Suit(enum.Enum):
    FIRE = 1


@dataclasses.dataclass(frozen=True)
class Card:
    suit: str
    rank: int


CANON_CASES: list[tuple[str, object]] = [
    ("None", None),
    ("True", True),
    ("False", False),
    ("0", 0),
    ("-7", -7),
    ("300", 300),
    ('""', ""),
    ('"é"', "é"),
    ('b"\\x00\\xff"', b"\x00\xff"),
    ("()", ()),
    ('(1, "a")', (1, "a")),
    ('[True, None]', [True, None]),
    ('{"b": 1, "a": 2}', {"b": 1, "a": 2}),
    ('{10: "x", 9: "y"}', {10: "x", 9: "y"}),
    ("frozenset({3, 1, 20})", frozenset({3, 1, 20})),
    ('Card(suit="fire", rank=3)', Card("fire", 3)),
    ("Suit.FIRE (an Enum, value 1)", Suit.FIRE),
    ('"x" * 200', "x" * 200),
]


def canon() -> str:
    lines = []
    for label, value in CANON_CASES:
        data = encode(value)
        shown = data.hex() if len(data) <= 40 else f"{data[:8].hex()}... ({len(data)} bytes)"
        lines.append(f"{label:28} {shown}")
    return "\n".join(lines) + "\n"


def hashes() -> str:
    header = TableHeader(FINGERPRINT, 3, SEED)
    a0 = chance_action((2, (1, 0)))
    d0 = LogEntry.chain(header.genesis, 0, CHANCE_SEAT, a0)
    a1 = Action.of("place", card=7, rot=3, x=1, y=0)
    d1 = LogEntry.chain(d0, 1, 0, a1)
    a2 = Action.of("pass")
    d2 = LogEntry.chain(d1, 2, 1, a2)
    salt = bytes([0x5A]) * 32
    rows = [
        ('digest(b"demo", b"", b"abc")', digest(b"demo", b"", b"abc")),
        ('state_hash((1, "a"))', state_hash((1, "a"))),
        ("fingerprint hash", digest(b"hedgerow-rules-v1", FINGERPRINT.encode())),
        ("genesis(fingerprint, 3, seed)", header.genesis),
        (f"entry 0 digest (chance, seat -1, {a0})", d0),
        (f"entry 1 digest (seat 0, {a1})", d1),
        (f"entry 2 digest (seat 1, {a2})", d2),
        (f"action commitment (2, 1, {a2}, salt)", action_commitment(2, 1, a2, salt)),
    ]
    lines = [f'fingerprint = "{FINGERPRINT}"', f"seed = {SEED.hex()}", "salt = 5a * 32"]
    for label, value in rows:
        lines += [label, f"    {value.hex()}"]
    payload = encode((0, CHANCE_SEAT, a0.kind, a0.args))
    lines += [f"canon((0, -1, {a0.kind!r}, {a0.args!r}))", f"    {payload.hex()}"]
    return "\n".join(lines) + "\n"


CHANCE_CASES = (
    (0, (Pick(6), Shuffle(10), Pick(1))),
    (7, (Shuffle(5), Pick(52), Pick(2))),
)


def chance() -> str:
    """The seeded chance source: entry ``i`` draws from ``Rng(seed, "chance/<i>")``."""
    lines = [f"seed = {SEED.hex()}"]
    for index, draws in CHANCE_CASES:
        rng = Rng(SEED, f"chance/{index}")
        words = " ".join(f"0x{rng.next_u64():016x}" for _ in range(3))
        outcome = SeededChance(SEED).resolve(index, Chance(draws, "example"))
        assert outcome == draw_all(Rng(SEED, f"chance/{index}"), Chance(draws, "example"))
        lines += [f"entry {index}: stream \"chance/{index}\"",
                  f"    first words  {words}",
                  f"    draws        {', '.join(repr(d) for d in draws)}",
                  f"    outcome      {outcome}",
                  f"    logged as    seat -1, {chance_action(outcome)}"]
    return "\n".join(lines) + "\n"


def petals_deal() -> str:
    """Petals 2.0.0 at 4 seats: the deal is chance entry #0."""
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.net.startup import setup_hash

    ruleset = PluginHost(autoload=False).ruleset("petals", (), 4)
    table = Table(ruleset, 4, SEED)
    (deal,) = table.opening
    asked = ruleset.gamedef.pending_chance(deal.before)
    assert asked is not None
    entry = deal.entry
    return (
        f"fingerprint = {ruleset.fingerprint!r}, players = 4, seed = {SEED.hex()}\n"
        f"setup hash (Start.setup_hash, before entry #0)\n    {setup_hash(table).hex()}\n"
        f"entry #0 asks {', '.join(repr(d) for d in asked.draws)} ({asked.label!r})\n"
        f"entry #0 = seat -1, {entry.action}\n"
        f"entry #0 digest\n    {entry.digest.hex()}\n"
        f"state hash after entry #0\n    {table.hash_of(deal.after).hex()}\n"
        f"next: seat {table.active_seats()[0]} acts at entry #{table.index}\n"
    )


def seeding() -> str:
    rows = []
    for seat, share in enumerate(SHARES):
        rows += [(f"share {seat}", share), (f"commitment {seat}", commitment(share))]
    rows.append(("table seed", table_seed(SHARES)))
    rows += [(f"seed_from_int({n})", seed_from_int(n)) for n in (0, 42)]
    return "".join(f"{label:17} = {value.hex()}\n" for label, value in rows)


def _sample_envelopes() -> tuple[Envelope, Envelope]:
    action_msg = Envelope(bytes(range(16)), bytes([0xAB]) * 32, 7,
                          ActionMsg(5, bytes([0xCD]) * 32, 2,
                                    Action.of("place", card=7, flip=True, at=(1, -2))))
    heartbeat = Envelope(bytes(range(16)), bytes([0xAB]) * 32, 8, Heartbeat(6))
    return action_msg, heartbeat


def envelopes() -> str:
    action_msg, heartbeat = _sample_envelopes()
    return (
        "table_id = 000102030405060708090a0b0c0d0e0f, sender = ab * 32\n"
        "seq 7, ActionMsg(index 5, prev cd * 32, seat 2, place(at=(1, -2), card=7, flip=True)):\n"
        f"{hexlines(encode_envelope(action_msg))}\n"
        "seq 8, Heartbeat(next_index 6):\n"
        f"{hexlines(encode_envelope(heartbeat))}\n"
    )


def state_hashes() -> str:
    def env(seq: int, body: object) -> str:
        return hexlines(encode_envelope(Envelope(bytes(range(16)), bytes([0xAB]) * 32, seq,
                                                 body)))  # type: ignore[arg-type]

    hashes = StateHash.of(3, [bytes([0x33]) * 32, bytes([0x44]) * 32])
    action = ActionMsg(5, bytes([0xCD]) * 32, 2, Action.of("pass"), hashes=hashes)
    commit = ActionCommit(5, 1, bytes([0xC1]) * 32, StateHash(4, bytes([0x44]) * 32))
    return (
        "table_id = 000102030405060708090a0b0c0d0e0f, sender = ab * 32\n"
        "seq 9, ActionMsg(index 5, prev cd * 32, seat 2, pass(),\n"
        "                 hashes StateHash(index 4, state_hash 44 * 32, earlier 33 * 32)):\n"
        f"{env(9, action)}\n"
        "seq 10, ActionCommit(index 5, seat 1, commitment c1 * 32,\n"
        "                     hashes StateHash(index 4, state_hash 44 * 32)):\n"
        f"{env(10, commit)}\n"
        "seq 11, StateHash(index 4, state_hash 44 * 32, earlier 33 * 32 + 22 * 32):\n"
        f"{env(11, StateHash(4, bytes([0x44]) * 32, bytes([0x33]) * 32 + bytes([0x22]) * 32))}\n"
        "    reports entries #2 (33 * 32), #3 (22 * 32) and #4 (44 * 32)\n"
    )


def sealed_held() -> str:
    held = SealHeld(41, (DeckHeld(0, 0, 0, 0b1111, 0b1111), DeckHeld(7, 0, 0, 0b0011, 0)),
                    (CardWant(0, 0, 5, 0b1000),), 0b1111, 0b1111, 0)
    env = Envelope(bytes(range(16)), bytes([0xAB]) * 32, 12, Heartbeat(3, True, held))
    return (
        "table_id = 000102030405060708090a0b0c0d0e0f, sender = ab * 32\n"
        "seq 12, Heartbeat(next_index 3, waiting, held SealHeld(seen 41,\n"
        "    decks (DeckHeld(entry 0, draw 0, relock 0, lock 0b1111, rekey 0b1111),\n"
        "           DeckHeld(entry 7, draw 0, relock 0, lock 0b0011, rekey 0)),\n"
        "    wants (CardWant(entry 0, draw 0, pos 5, parties 0b1000)),\n"
        "    escrow_keys 0b1111, escrow_shares 0b1111, disclosed 0)):\n"
        f"{hexlines(encode_envelope(env))}\n"
    )


def departures() -> str:
    def env(seq: int, body: object) -> str:
        return hexlines(encode_envelope(Envelope(bytes(range(16)), bytes([0xAB]) * 32, seq,
                                                 body)))  # type: ignore[arg-type]

    event = encode_log_record(SeatEvent(SeatEventKind.TAKEOVER, 2, 0, "random", 9, (0, 1)))
    return (
        "table_id = 000102030405060708090a0b0c0d0e0f, sender = ab * 32\n"
        "seq 3, SeatMotion(number 1, TAKEOVER, seat 2, runner 0, bot random, index 9, "
        "voters (0, 1)):\n"
        f"{env(3, SeatMotion(1, MotionKind.TAKEOVER, 2, 0, 'random', 9, (0, 1)))}\n"
        "seq 4, MotionVote(proposer 0, number 1, accept):\n"
        f"{env(4, MotionVote(0, 1, True))}\n"
        "seq 5, SeatHandback(seat 2, index 14):\n"
        f"{env(5, SeatHandback(2, 14))}\n"
        "LogRecord payload, SeatEvent(TAKEOVER, seat 2, runner 0, bot random, index 9, "
        "voters (0, 1)):\n"
        f"{hexlines(event)}\n"
    )


def spectators() -> str:
    def env(seq: int, body: object, table_id: bytes = bytes(range(16))) -> str:
        return hexlines(encode_envelope(Envelope(table_id, bytes([0xAB]) * 32, seq,
                                                 body)))  # type: ignore[arg-type]

    hello = Hello("*", (("petals", "2.1.0"),), "Viv", address="tcp://10.0.0.9:47002",
                  spectator=True)
    peer = PeerInfo(0, bytes([0xCD]) * 32, "tcp://10.0.0.1:47001", "Ann")
    seating = SeatAssignment(None, 2, "petals@2.1.0", (peer,), 1, ("Viv",))
    entry = encode_log_record(LoggedEntry(LogEntry(1, 0, Action.of("pass"), bytes([0x11]) * 32,
                                                   bytes([0x22]) * 32), bytes([0xDD]) * 32))
    return (
        "table_id = 000102030405060708090a0b0c0d0e0f, sender = ab * 32\n"
        "seq 1, Hello(*, petals 2.1.0, Viv, address tcp://10.0.0.9:47002, spectator)\n"
        "       (sent by address: no table id yet):\n"
        f"{env(1, hello, b'')}\n"
        "seq 2, SeatAssignment(no seat, 2 players, petals@2.1.0,\n"
        "                      peers (seat 0, cd * 32, tcp://10.0.0.1:47001, Ann), round 1,\n"
        "                      watchers (Viv)):\n"
        f"{env(2, seating)}\n"
        "seq 3, SpectatorFeed(first 5, records (the LogRecord of entry 1: seat 0 pass(),\n"
        "                     prev 11 * 32, digest 22 * 32, state hash dd * 32), lost (1)):\n"
        f"{env(3, SpectatorFeed(5, (entry,), (1,)))}\n"
        "seq 4, Heartbeat(next_index 6) (the spectator holds records 0 to 5):\n"
        f"{env(4, Heartbeat(6))}\n"
    )


def log_file() -> str:
    header = LogHeader("petals", ("harmony",), FINGERPRINT + "#open-deck", 3, SEED,
                       bytes(range(16)), 0, ("Ann", "Bob", "Cy"))
    genesis = header.table_header.genesis
    deal = chance_action((2, (1, 0)))
    first = LogEntry.after(genesis, 0, CHANCE_SEAT, deal)
    action = Action.of("pass")
    entries = (LoggedEntry(first, bytes([0xEE]) * 32),
               LoggedEntry(LogEntry.after(first.digest, 1, 0, action), bytes([0xDD]) * 32))
    data = bytearray(MAGIC)
    for record in (header, *entries):
        payload = encode_log_record(record)
        data += len(payload).to_bytes(4, "little") + zlib.crc32(payload).to_bytes(4, "little")
        data += payload
    result = parse_log(bytes(data))
    assert result.ok and result.entries == entries
    return (
        "header: format 5, petals + harmony, fingerprint "
        f"{header.fingerprint}, 3 seats,\n"
        "        seed 000102..1f, table id 000102..0f, own seat 0, names Ann, Bob, Cy\n"
        f"entry 0: chance, {deal}, state hash ee * 32\n"
        f"entry 1: seat 0 {action}, state hash dd * 32\n"
        f"{hexlines(bytes(data))}\n"
    )


def sealed_points() -> str:
    from hedgerow.net import mentalpoker as mp

    table_id = bytes(range(16))
    rows = [f"table_id = {table_id.hex()}"]
    for entry, draw, index in ((0, 0, 0), (0, 0, 1), (0, 2, 5), (7, 0, 0)):
        seed = digest(b"hedgerow-card-v1", table_id, encode((entry, draw, index)))
        rows.append(f"card ({entry}, {draw}, {index}): from_uniform({seed.hex()})")
        rows.append(f"    = {mp.card_point(table_id, entry, draw, index).hex()}")
    a = mp.reduce64(bytes([0x0A]) * 64)
    b = mp.reduce64(bytes([0x0B]) * 64)
    point = mp.card_point(table_id, 0, 0, 0)
    rows += [
        f"a = reduce(0a * 64) = {a.hex()}",
        f"b = reduce(0b * 64) = {b.hex()}",
        f"a * card(0, 0, 0)     = {mp.mul(a, point).hex()}",
        f"b * (a * card(0,0,0)) = {mp.mul(b, mp.mul(a, point)).hex()}",
        f"a * (b * card(0,0,0)) = {mp.mul(a, mp.mul(b, point)).hex()}",
        f"(a b)^-1              = {mp.invert(mp.smul(a, b)).hex()}",
        f"(a b)^-1 * that       = {mp.open_card(mp.mul(b, mp.mul(a, point)), (a, b)).hex()}",
        f"a * B (a commitment)  = {mp.base(a).hex()}",
    ]
    return "\n".join(rows) + "\n"


def sealed_secret() -> str:
    from hedgerow.net import mentalpoker as mp

    secret = mp.PeerSecret(bytes([0x5A]) * 32)
    rows = [f"secret = {secret.secret.hex()}"]
    for label, value in (("lock/0/0", secret.lock(0, 0)), ("relock/3/1", secret.relock(3, 1)),
                         ("card/0/0/4", secret.card_key(0, 0, 4))):
        rows.append(f"scalar {label:11} = {value.hex()}")
    rows.append(f"permutation 0/0 of 8 = {secret.permutation(0, 0, 8)}")
    return "\n".join(rows) + "\n"


def sealed_shuffle() -> str:
    from hedgerow.net import mentalpoker as mp

    table_id = bytes(range(16))
    secrets = [mp.PeerSecret(bytes([0x11]) * 32), mp.PeerSecret(bytes([0x22]) * 32)]
    items = [mp.Item(mp.card_point(table_id, 0, 0, j)) for j in range(3)]
    steps = mp.shuffle_all(secrets, 0, 0, items)
    rows = ["table_id = 000102..0f, parties 0 (secret 11 * 32) and 1 (secret 22 * 32)",
            "entry 0, draw 0: Shuffle(3) of items 0, 1, 2"]
    for step in steps:
        rows.append(f"{step.phase} pass of party {step.party}:")
        rows += [f"  point {i}: {p.hex()}" for i, p in enumerate(step.points)]
        rows += [f"  commitment {i}: {c.hex()}" for i, c in enumerate(step.commitments)]
    rows.append(f"deck digest = {mp.deck_digest(steps).hex()}")
    cards = {item.point: j for j, item in enumerate(items)}
    for pos in range(3):
        keys = [s.card_key(0, 0, pos) for s in secrets]
        opened = mp.open_card(steps[-1].points[pos], keys)
        rows.append(f"position {pos} opens to item {cards[opened]}")
    return "\n".join(rows) + "\n"


VECTORS: dict[str, Callable[[], str]] = {
    "sealed-points": sealed_points,
    "sealed-secret": sealed_secret,
    "sealed-shuffle": sealed_shuffle,
    "rng-words": rng_words,
    "rng-streams": rng_streams,
    "rng-shuffle": rng_shuffle,
    "rng-randbelow": rng_randbelow,
    "canon": canon,
    "hashes": hashes,
    "chance": chance,
    "petals-deal": petals_deal,
    "seeding": seeding,
    "envelopes": envelopes,
    "log-file": log_file,
    "departures": departures,
    "state-hashes": state_hashes,
    "sealed-held": sealed_held,
    "spectators": spectators,
}
VECTORS.update(BOARD_VECTORS)  # §11, the shared leaderboard: tests/boardvectors.py


def doc_blocks() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    blocks: dict[str, str] = {}
    for match in BLOCK.finditer(text):
        name = match["name"]
        assert name not in blocks, f"vector {name!r} appears twice in {DOC.name}"
        blocks[name] = match["body"]
    return blocks


def test_every_vector_is_in_the_document() -> None:
    assert sorted(doc_blocks()) == sorted(VECTORS)


@pytest.mark.parametrize("name", sorted(VECTORS))
def test_vector_matches_the_code(name: str) -> None:
    blocks = doc_blocks()
    assert name in blocks, f"docs/protocol.md has no ```vector {name} block"
    assert blocks[name] == VECTORS[name](), (
        f"docs/protocol.md vector {name!r} differs from the code; "
        "run python tests/net/test_protocol_vectors.py to print the current blocks"
    )


def test_documented_shuffle_is_a_permutation() -> None:
    found = re.search(r"shuffle\(0\.\.37\) = (\[.*\])", doc_blocks()["rng-shuffle"])
    assert found is not None
    assert sorted(int(x) for x in found.group(1).strip("[]").split(",")) == list(range(38))


def test_documented_envelopes_decode() -> None:
    from hedgerow.net.codec import decode_envelope

    body = doc_blocks()["envelopes"].splitlines()
    first = bytes.fromhex("".join(body[2: body.index("seq 8, Heartbeat(next_index 6):")]))
    assert decode_envelope(first) == _sample_envelopes()[0]


if __name__ == "__main__":
    for vector_name, make in VECTORS.items():
        sys.stdout.write(f"```vector {vector_name}\n{make()}```\n\n")

"""The validation rules of wire fields: each message field in `hedgerow.net.messages` names
its rule in its annotation (``seat: Annotated[int, SEAT]``), and the codec applies them on
encode and on decode alike.  Pure Python: no protobuf here.

A rule is ``rule(name, value)``; it raises `Malformed` (the codec answers ``MALFORMED``)
with a sentence naming the field.  A message may add rules across its fields with a
``problem()`` method returning a sentence or None, as `hedgerow.core.Action.problem` does.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from enum import IntEnum
from typing import NoReturn

from hedgerow.core.actions import Action
from hedgerow.core.canon import HASH_SIZE
from hedgerow.core.chance import CHANCE_SEAT, outcome_of

#: Size of a table id (random, chosen by the table's host).
TABLE_ID_SIZE = 16
#: Size of a peer id: a raw CURVE (Curve25519) public key.
PUBLIC_KEY_SIZE = 32
#: Size of every hash on the wire (BLAKE2b-256): chain digests, state hashes, commitments.
#: The same as ``hedgerow.core.canon.HASH_SIZE``.
DIGEST_SIZE = HASH_SIZE
#: Size of a seed share and of an action-commitment salt.
SHARE_SIZE = 32
#: A table seed is 1 to 64 bytes (the BLAKE2b key size limit; commit-reveal gives 32).
MAX_SEED_SIZE = 64
#: Seats at one table, as far as the wire is concerned (games allow fewer).
MAX_PLAYERS = 32
#: Lists inside an action argument nest at most this deep.
MAX_VALUE_DEPTH = 16
#: A display name has at most this many characters.
MAX_NAME_LENGTH = 64
#: An address (``tcp://host:port``) has at most this many characters.
MAX_ADDRESS_LENGTH = 256
#: A fingerprint (``game@version+variant@version...``) has at most this many characters.
MAX_FINGERPRINT_LENGTH = 256
#: A plugin's name, and its version, in ``Hello.plugins``: at most this many characters each.
MAX_PLUGIN_TEXT_LENGTH = 64
#: At most this many plugins in ``Hello.plugins``.
MAX_PLUGINS = 256
#: ``Leave.reason`` has at most this many characters.
MAX_REASON_LENGTH = 256
#: ``Error.message`` has at most this many characters.
MAX_MESSAGE_LENGTH = 1024
#: ``Error.refusal`` (a rules refusal code) has at most this many characters.
MAX_REFUSAL_LENGTH = 128
#: Seed rounds (``round`` of SeedCommit, SeedReveal, Start, SeatAssignment) count from 1; a
#: table starts over at most this many times (each loss of a seat before play is one).
MAX_ROUND = 1 << 20
#: The largest envelope the codec encodes or decodes, in bytes.
MAX_ENVELOPE_SIZE = 4 * 1024 * 1024

U32 = 1 << 32
U64 = 1 << 64

Rule = Callable[[str, object], None]


class Malformed(Exception):
    """A value breaks a wire rule; the message names the field."""


def bad(message: str) -> NoReturn:
    """Raise `Malformed`."""
    raise Malformed(message)


def uint(limit: int = U64, low: int = 0) -> Rule:
    """An integer (not a bool) in ``[low, limit)``."""

    def rule(name: str, value: object) -> None:
        if type(value) is not int or not low <= value < limit:
            bad(f"{name} must be an integer in [{low}, {limit})")

    return rule


def blob(size: int) -> Rule:
    """Exactly ``size`` bytes."""

    def rule(name: str, value: object) -> None:
        if type(value) is not bytes or len(value) != size:
            bad(f"{name} must be {size} bytes")

    return rule


def control_free(value: str) -> bool:
    """True when ``value`` holds no control character (Unicode Cc: C0, DEL, C1) and no line
    or paragraph separator: text a terminal shows as it is."""
    return value.isprintable() or all(
        unicodedata.category(c) not in _CONTROL for c in value)


_CONTROL = ("Cc", "Zl", "Zp")


def text(max_length: int | None = None, *, required: bool = False,
         plain: bool = False) -> Rule:
    """A string, non-empty when ``required``, at most ``max_length`` characters; with
    ``plain``, free of control characters (`control_free`)."""

    def rule(name: str, value: object) -> None:
        if type(value) is not str:
            bad(f"{name} must be a string")
        if required and not value:
            bad(f"{name} must not be empty")
        if max_length is not None and len(value) > max_length:
            bad(f"{name} is longer than {max_length} characters")
        if plain and not control_free(value):
            bad(f"{name} holds a control character")

    return rule


def flag(name: str, value: object) -> None:
    """A bool."""
    if type(value) is not bool:
        bad(f"{name} must be a bool")


def seed(name: str, value: object) -> None:
    """A table seed: 1 to `MAX_SEED_SIZE` bytes."""
    if type(value) is not bytes or not 1 <= len(value) <= MAX_SEED_SIZE:
        bad(f"a seed must be 1 to {MAX_SEED_SIZE} bytes")


def optional(rule: Rule) -> Rule:
    """None (absent on the wire), or a value ``rule`` accepts."""

    def check(name: str, value: object) -> None:
        if value is not None:
            rule(name, value)

    return check


def items(kind: type | None = None, rule: Rule | None = None) -> Rule:
    """A tuple whose items are of ``kind`` (exactly) and pass ``rule``."""

    def check(name: str, value: object) -> None:
        if not isinstance(value, tuple):
            bad(f"{name} must be a tuple")
        for item in value:
            if kind is not None and type(item) is not kind:
                bad(f"{name} must hold {kind.__name__} values")
            if rule is not None:
                rule(name, item)

    return check


def sorted_unique(name: str, keys: list[object]) -> None:
    """Non-empty keys, unique and in ascending order."""
    if any(not k for k in keys):
        bad(f"{name} must be non-empty")
    if keys != sorted(set(keys)):  # type: ignore[type-var]
        bad(f"{name} must be unique and sorted")


def enum(kind: type[IntEnum]) -> Rule:
    """A member of ``kind`` (decoding maps a number it does not know to the member 0)."""

    def rule(name: str, value: object) -> None:
        if not isinstance(value, kind):
            bad(f"{name} must be a {kind.__name__}")

    return rule


SEAT = uint(MAX_PLAYERS)
INDEX = uint()
PLAYERS = uint(MAX_PLAYERS + 1, 1)
ROUND = uint(MAX_ROUND + 1, 1)
DIGEST = blob(DIGEST_SIZE)
SHARE = blob(SHARE_SIZE)
NAME = text(MAX_NAME_LENGTH)
#: A name a peer sends (``Hello``, ``SeatAssignment``): shown to people, so plain text.
PEER_NAME = text(MAX_NAME_LENGTH, plain=True)
ADDRESS = text(MAX_ADDRESS_LENGTH, plain=True)
FINGERPRINT = text(MAX_FINGERPRINT_LENGTH, required=True, plain=True)
PLUGIN_TEXT = text(MAX_PLUGIN_TEXT_LENGTH, required=True, plain=True)
PLUGIN_VERSION = text(MAX_PLUGIN_TEXT_LENGTH, plain=True)
REASON = text(MAX_REASON_LENGTH)
MESSAGE = text(MAX_MESSAGE_LENGTH)
REFUSAL = text(MAX_REFUSAL_LENGTH)
TEXT = text()
REQUIRED_TEXT = text(required=True)


#: The most cards one sealed shuffle may hold (a deck of points: 32 bytes a card).
MAX_DECK = 1024
#: The most parties (peers) of a sealed table: one key each.
MAX_PARTIES = MAX_PLAYERS
#: The most draws one chance entry may ask for.
MAX_DRAWS = 64


def points(name: str, value: object) -> None:
    """Curve points packed end to end: a multiple of 32 bytes, at most `MAX_DECK` of them
    (empty allowed; whether they are valid points is the mental poker layer's check)."""
    if type(value) is not bytes or len(value) % 32 or len(value) > 32 * MAX_DECK:
        bad(f"{name} must be 32-byte points packed end to end, at most {MAX_DECK} of them")


#: The most state hashes one report carries (`StateHash.earlier` and the hash itself).
MAX_HASHES = 1024


def hashes(name: str, value: object) -> None:
    """State hashes packed end to end: a multiple of 32 bytes, fewer than `MAX_HASHES`
    (empty allowed)."""
    if (type(value) is not bytes or len(value) % DIGEST_SIZE
            or len(value) >= DIGEST_SIZE * MAX_HASHES):
        bad(f"{name} must be 32-byte hashes packed end to end, fewer than {MAX_HASHES}")


def anything(name: str, value: object) -> None:
    """No rule of its own: a nested message, checked by its own fields' rules."""


PARTY = uint(MAX_PARTIES)
DRAW = uint(MAX_DRAWS)
POSITION = uint(MAX_DECK)
SCALAR = blob(32)
POINT = blob(32)


def TABLE_ID_OR_EMPTY(name: str, value: object) -> None:
    """Empty (no table: local play), or a table id."""
    if value != b"":
        blob(TABLE_ID_SIZE)(name, value)


# --------------------------------------------------------------------------------------
# The core values that travel (hedgerow.core types, converted by the codec's own code)


def action(name: str, value: object) -> None:
    """A valid `Action` (`Action.problem` is None)."""
    if not isinstance(value, Action) or not isinstance(value.args, tuple):
        bad("an action must be an Action")
    if not all(isinstance(a, tuple) and len(a) == 2 for a in value.args):
        bad("action arguments must be (name, value) pairs")
    problem = value.problem()
    if problem is not None:
        bad(f"invalid action: {problem}")


def table_header(name: str, value: object) -> None:
    """A `TableHeader`: a fingerprint, 1..32 players, a seed."""
    from hedgerow.core.table import TableHeader

    if not isinstance(value, TableHeader):
        bad("a table header must be a TableHeader")
    FINGERPRINT("fingerprint", value.fingerprint)
    PLAYERS("players", value.players)
    seed("seed", value.seed)


def draws(name: str, value: Action) -> None:
    """A chance entry's action is ``chance(draws=(...))``: one result per draw, each a
    non-negative int (a pick), a tuple of them (a shuffle) or, at a sealed table, the
    32-byte digest of the deck the peers shuffled."""
    results = outcome_of(value)
    if results is None:
        bad("a chance entry's action must be chance(draws=(...))")
    for result in results:
        if type(result) is bytes and len(result) == DIGEST_SIZE:
            continue
        picks = result if type(result) is tuple else (result,)
        if not all(type(x) is int and x >= 0 for x in picks):
            bad("a chance entry's draws are non-negative integers, tuples of them, or "
                "32-byte deck digests")


def log_entry(name: str, value: object) -> None:
    """A `hedgerow.core.table.LogEntry`: a seat's action, or chance (seat `CHANCE_SEAT`)."""
    from hedgerow.core.table import LogEntry

    if not isinstance(value, LogEntry):
        bad("a log entry must be a LogEntry")
    INDEX("entry index", value.index)
    if value.seat != CHANCE_SEAT:
        SEAT("entry seat", value.seat)
    action("entry action", value.action)
    if value.seat == CHANCE_SEAT:
        draws("entry action", value.action)
    DIGEST("entry prev", value.prev)
    DIGEST("entry digest", value.digest)

"""One game on the shared leaderboard: a table log bound to its player's key.

A `GameRecord` is what travels between machines (docs/protocol.md §11.2): the player's
X25519 public key, the ISO week and the player's game number in it (the *slot*), the table
log file byte for byte, and the player's XEdDSA signature (`hedgerow.net.boardsign`) over
`record_digest`.  What the record proves is decided elsewhere (the replay,
`hedgerow.clients.leaderboard_check`); this module owns what the record holds and the rules
anyone can check without the game's rules:

* `deal_seed`: the only seed a board game may be dealt from.  It is a function of the
  player's key, the game, the board (its variants), the week and the game number, so a
  player cannot choose a deal, and the one deal of a slot cannot be re-dealt;
* `record_digest` (what is signed) and `record_id` (the record's name in the exchange);
* `sign_record` / `GameRecord.signed`: make and check the signature.

Its bytes on the wire and in the store (a protobuf ``BoardGame``) are
`hedgerow.net.boardwire`'s: `encode_game` and `decode_game`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from hedgerow.core.canon import digest
from hedgerow.net import boardsign
from hedgerow.net.keys import KEY_SIZE, Identity

#: Longest log a record may carry (a finished FLOWERS solo log is about 4 KiB).
MAX_LOG = 256 * 1024
#: Highest game number in one week (a slot number is below it).
MAX_GAMES_A_WEEK = 512
#: Longest encoded record.
MAX_RECORD = MAX_LOG + 1024

_WEEK = re.compile(r"[0-9]{4}-W[0-9]{2}")


class BadRecord(ValueError):
    """A record that is not well formed; the message says why."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    """One signed game: ``player`` (32 bytes), ``week`` ("2026-W49"), ``number`` (from 0),
    ``log`` (the log file) and ``signature`` (64 bytes)."""

    player: bytes
    week: str
    number: int
    log: bytes
    signature: bytes

    def problem(self) -> str | None:
        """Why the record is not well formed, or None."""
        if len(self.player) != KEY_SIZE:
            return f"the player key is {len(self.player)} bytes, not {KEY_SIZE}"
        if not _WEEK.fullmatch(self.week):
            return f"the week {self.week[:20]!r} is not YYYY-Www"
        week = int(self.week[6:])
        if not 1 <= week <= 53:
            return f"{self.week} is not a week"
        if not 0 <= self.number < MAX_GAMES_A_WEEK:
            return f"game number {self.number} is not below {MAX_GAMES_A_WEEK}"
        if not self.log:
            return "the record carries no log"
        if len(self.log) > MAX_LOG:
            return f"the log is {len(self.log)} bytes, more than {MAX_LOG}"
        if len(self.signature) != boardsign.SIGNATURE_SIZE:
            return f"the signature is {len(self.signature)} bytes, not 64"
        return None

    @property
    def digest(self) -> bytes:
        """What the player signs (`record_digest`)."""
        return record_digest(self.player, self.week, self.number, self.log)

    @property
    def id(self) -> bytes:
        """The record's name in the exchange (`record_id`)."""
        return record_id(self.digest)

    def signed(self) -> bool:
        """Whether the signature is the player's over this record."""
        return self.problem() is None and boardsign.verify(self.player, self.digest,
                                                           self.signature)


def deal_seed(player: bytes, game: str, board: str, week: str, number: int) -> bytes:
    """The seed of the player's game ``number`` of ``week`` on the ``board`` of ``game``:
    ``BLAKE2b-256("hedgerow-board-deal-v1", player, game, board, week, decimal number)``."""
    return digest(b"hedgerow-board-deal-v1", player, game.encode(), board.encode(),
                  week.encode(), str(number).encode("ascii"))


def record_digest(player: bytes, week: str, number: int, log: bytes) -> bytes:
    """``BLAKE2b-256("hedgerow-board-record-v1", player, week, decimal number, log)``."""
    return digest(b"hedgerow-board-record-v1", player, week.encode(),
                  str(number).encode("ascii"), log)


def record_id(record_digest_: bytes) -> bytes:
    """``BLAKE2b-256("hedgerow-board-id-v1", record digest)``: the same content has one id
    whatever valid signature it carries."""
    return digest(b"hedgerow-board-id-v1", record_digest_)


def sign_record(identity: Identity, week: str, number: int, log: bytes) -> GameRecord:
    """The record of ``log`` as game ``number`` of ``week``, signed by ``identity``."""
    signature = boardsign.sign(identity, record_digest(identity.public, week, number, log))
    record = GameRecord(identity.public, week, number, log, signature)
    if (problem := record.problem()) is not None:
        raise BadRecord(problem)
    return record

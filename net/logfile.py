"""The action log on disk: the save file, the replay file and what a returning peer resumes from.

Format (docs/protocol.md, "Log file")::

    "HDRWLOG1"                                    8-byte magic
    u32le length || u32le crc32(payload) || payload     one record, repeated

Each payload is a serialized ``hedgerow.v1.LogRecord``: the first holds a `LogHeader`, every
later one a `LoggedEntry` (the entry and the state hash after it): seats' actions and the
chance entries the engine resolved, in log order.  ``crc32`` is the CRC-32 of
zlib/gzip/PNG.  Records are appended as entries are sealed, so a crash loses at most the
record being written.

* `LogWriter` creates a log or reopens one to continue it, and appends entries.
* `read_log` reads everything intact and says exactly where (byte offset, entry index) and
  why it stopped if the file is damaged: bad magic, a short record, a bad CRC, an
  undecodable record, an index gap, a broken hash chain.
* `replay_log` / `verify_log` rebuild the table with the rules (`Table.follow`, so chance
  entries are compared with what the seed gives) and compare every stored digest and state
  hash (``hedgerow replay LOGFILE --verify``).

Resuming a table after a crash: ``result = read_log(path)``; ``report = replay_log(ruleset,
result.header, result.entries)`` rebuilds the `Table`; ``LogWriter.resume(path)`` continues the
file (a torn tail is cut off; ``LogWriter.recover(path)`` also continues a log damaged in
the middle from its intact prefix, keeping the damaged copy); catch-up then fetches what was
missed, from the other peers.
"""

from __future__ import annotations

import contextlib
import errno
import logging
import os
import shutil
import struct
import tempfile
import threading
import zlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from io import FileIO
from pathlib import Path
from types import TracebackType

from hedgerow.core.errors import HedgerowError, Refusal, RulesError
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Applied, LogEntry, Table
from hedgerow.net.codec import CodecError, LogRecord, decode_log_record, encode_log_record
from hedgerow.net.messages import (
    CardReveal,
    LoggedEntry,
    LogHeader,
    SealRecord,
    SeatEvent,
    SeatEventKind,
)
from hedgerow.net.rulesmatch import OPEN_DECK

log = logging.getLogger(__name__)

__all__ = [
    "MAGIC",
    "MAX_RECORD_SIZE",
    "SYNC_ALWAYS",
    "SYNC_NEVER",
    "SYNC_OWN",
    "TABLE_ROOM",
    "LogFileError",
    "LogProblem",
    "LogReadResult",
    "LogWriter",
    "Mismatch",
    "ReplayReport",
    "Sync",
    "check_room",
    "parse_log",
    "read_log",
    "replay_log",
    "verify_log",
]

#: The first 8 bytes of every log file.
MAGIC = b"HDRWLOG1"
#: A record's payload is at most this long; a larger length field means a damaged file.
MAX_RECORD_SIZE = 1 << 20

_FRAME = struct.Struct("<II")

#: The free space a folder must have before a seat starts a table whose log goes there.  The
#: longest built-in game's log is about 32 KiB (Mandala, 4 seats), its table file 1 KiB: this
#: is room for thirty of them, so a seat that sits down can keep its log to the end.
TABLE_ROOM = 1 << 20


def check_room(folder: str | os.PathLike[str], need: int = TABLE_ROOM) -> None:
    """`LogFileError` unless a table's log can be kept in ``folder`` (made if need be): a
    file can be written there, and ``need`` bytes are free (for this user).

    A seat calls it before it sits down (hedgerow host, join, resume): one that cannot write
    its log must not take a seat it cannot play (docs/protocol.md §6).
    """
    where = Path(folder)
    advice = "free some space there, or set HEDGEROW_HOME to a folder on another disk"
    try:
        where.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=where, prefix=".room-")
        try:
            os.write(fd, bytes(4096))  # a full disk refuses even this
        finally:
            os.close(fd)
            os.unlink(probe)
        free = shutil.disk_usage(where).free
    except OSError as exc:
        raise LogFileError(f"cannot keep this table's log in {where} "
                           f"({exc.strerror or exc}): {advice}") from None
    if free < need:
        raise LogFileError(f"cannot keep this table's log in {where} (only {_size(free)} "
                           f"free, a table needs {_size(need)}): {advice}")


def _size(count: int) -> str:
    """A byte count for people: ``12 KiB``, ``3.5 MiB``."""
    if count < 1 << 20:
        return f"{count // 1024} KiB" if count >= 1024 else f"{count} bytes"
    return f"{count / (1 << 20):.1f} MiB".replace(".0 MiB", " MiB")


class LogFileError(HedgerowError):
    """A log file that cannot be written or continued (the message says which file and why)."""

    def __init__(self, message: str) -> None:
        super().__init__(message, code="bad_log")


@dataclass(frozen=True, slots=True)
class LogProblem:
    """Where and why reading a log file stopped.

    ``kind`` is one of ``empty``, ``bad_magic``, ``truncated``, ``too_large``, ``bad_crc``,
    ``undecodable``, ``no_header``, ``extra_header``, ``bad_index``, ``broken_chain``,
    ``bad_digest``.  ``offset`` is the byte offset of the damaged record (or of the magic);
    ``index`` the entry index expected there (None while the header was expected);
    ``at_tail`` is True when no intact entry follows the damaged bytes, as after a crash
    mid-write or a power cut that left zeros at the end: cutting the damage off loses no
    entry that verifies.
    """

    kind: str
    offset: int
    index: int | None
    message: str
    at_tail: bool = False

    def __str__(self) -> str:
        where = f"byte {self.offset}"
        if self.index is not None:
            where += f", entry #{self.index}"
        return f"{where}: {self.message}"


@dataclass(frozen=True, slots=True)
class LogReadResult:
    """What `read_log` found: the header, every intact entry before any problem, the problem.

    ``end`` is the byte offset just past the last intact record (where a writer continues).
    ``salvaged`` are the records found *after* the damage that still verify on their own
    (checksum, decoding, the entry's digest of its own contents, a later index): they are
    why damage that is not at the tail must never be cut off (`LogWriter.recover`).
    """

    header: LogHeader | None
    entries: tuple[LoggedEntry, ...]
    problem: LogProblem | None
    end: int
    salvaged: tuple[LoggedEntry, ...] = ()
    #: The seat events (takeover, reclaim, agreed end) read before any problem, in file
    #: order: records outside the hash chain (docs/protocol.md §6).
    events: tuple[SeatEvent, ...] = ()
    #: A sealed table's records (shuffle steps, keys, disclosed secrets, §10), in file order,
    #: each with the number of entries written before it.
    seals: tuple[tuple[int, SealRecord], ...] = ()

    @property
    def ok(self) -> bool:
        """True when the whole file was read without a problem."""
        return self.problem is None

    @property
    def next_index(self) -> int:
        """The index the next entry will have."""
        return len(self.entries)

    @property
    def head(self) -> bytes | None:
        """The chain head: the last entry's digest (the genesis before any; None without header)."""
        if self.entries:
            return self.entries[-1].entry.digest
        return self.header.table_header.genesis if self.header is not None else None


def _frame(record: LogHeader | LoggedEntry | SeatEvent | SealRecord) -> bytes:
    payload = encode_log_record(record)
    return _FRAME.pack(len(payload), zlib.crc32(payload)) + payload


def parse_log(data: bytes) -> LogReadResult:
    """Read a log file's bytes (see `read_log`)."""
    if len(data) < len(MAGIC):
        if not data:
            return LogReadResult(None, (), LogProblem("empty", 0, None, "the file is empty",
                                                      at_tail=True), 0)
        if MAGIC.startswith(data):
            return LogReadResult(None, (), LogProblem("truncated", 0, None,
                                                      "the file ends inside the magic",
                                                      at_tail=True), 0)
    if data[: len(MAGIC)] != MAGIC:
        message = f"not a Hedgerow log (the file does not start with {MAGIC!r})"
        return LogReadResult(None, (), LogProblem("bad_magic", 0, None, message), 0)

    header: LogHeader | None = None
    entries: list[LoggedEntry] = []
    events: list[SeatEvent] = []
    seals: list[tuple[int, SealRecord]] = []
    head = b""
    pos = len(MAGIC)

    def stop(kind: str, message: str, *, at_tail: bool = False) -> LogReadResult:
        index = None if header is None else len(entries)
        # (Looked for after a damaged header too: intact entries after it mean the file is
        # not a torn new log that a writer may start again over.)
        salvaged = _salvage(data, pos, len(entries))
        if salvaged:
            first, last = salvaged[0].entry.index, salvaged[-1].entry.index
            message += (f"; {len(salvaged)} intact "
                        f"{'entry follows' if len(salvaged) == 1 else 'entries follow'} "
                        f"(#{first}{'' if first == last else f' to #{last}'})")
        # Damage is a torn tail when no entry that verifies comes after it, whatever the
        # bytes say (a length field flipped past the end, appended garbage, the zeros a
        # power cut leaves).
        tail = not salvaged and (at_tail or not data[pos:].strip(b"\0") or kind in _TAIL_KINDS)
        return LogReadResult(header, tuple(entries), LogProblem(kind, pos, index, message, tail),
                             pos, salvaged, tuple(events), tuple(seals))

    while pos < len(data):
        if len(data) - pos < _FRAME.size:
            return stop("truncated", "the file ends inside a record's length and checksum",
                        at_tail=True)
        length, crc = _FRAME.unpack_from(data, pos)
        if length > MAX_RECORD_SIZE:
            return stop("too_large", f"a record claims {length} bytes (at most {MAX_RECORD_SIZE})")
        start, end = pos + _FRAME.size, pos + _FRAME.size + length
        if end > len(data):
            return stop("truncated", f"the file ends inside a {length}-byte record", at_tail=True)
        payload = data[start:end]
        at_tail = end == len(data)
        if zlib.crc32(payload) != crc:
            return stop("bad_crc", "the record's checksum does not match (damaged bytes)",
                        at_tail=at_tail)
        try:
            record = decode_log_record(payload)
        except CodecError as exc:
            return stop("undecodable", f"the record does not decode: {exc.message}",
                        at_tail=at_tail)
        if header is None:
            if not isinstance(record, LogHeader):
                return stop("no_header", "the first record is not a log header")
            header = record
            head = header.table_header.genesis
        elif isinstance(record, LogHeader):
            return stop("extra_header", "a second log header")
        elif isinstance(record, SeatEvent):
            if record.kind == SeatEventKind.ROLLBACK:
                # Entries from its index on, written before it, are void (§5.9: a seat cut
                # off at its own turn drops its own entries that nobody else applied).
                if record.index > len(entries):
                    return stop("bad_index", f"a rollback to entry #{record.index}, past the "
                                             f"log's end (#{len(entries)})")
                del entries[record.index:]
                head = entries[-1].entry.digest if entries else header.table_header.genesis
            events.append(record)  # outside the chain: it changes no entry and no state
        elif isinstance(record, SealRecord):
            seals.append((len(entries), record))  # outside the chain, like a seat event
        else:
            problem = _chain_problem(record, len(entries), head)
            if problem is not None:
                return stop(*problem)
            entries.append(record)
            head = record.entry.digest
        pos = end

    if header is None:
        return stop("truncated", "the file ends before the log header", at_tail=True)
    return LogReadResult(header, tuple(entries), None, pos, (), tuple(events), tuple(seals))


#: Damage that is a torn tail when no intact entry follows it (see `LogProblem.at_tail`).
_TAIL_KINDS = ("truncated", "too_large", "bad_crc", "undecodable")


def _continuable(problem: LogProblem | None) -> bool:
    """True when a writer may continue a log read with ``problem``: none, or a torn tail
    (which it cuts off)."""
    return problem is None or (problem.at_tail and problem.kind in _TAIL_KINDS)


def _salvage(data: bytes, pos: int, index: int) -> tuple[LoggedEntry, ...]:
    """The records after damaged bytes at ``pos`` that verify on their own, in file order.

    Scans byte by byte for a frame whose checksum matches, whose payload decodes to a logged
    entry of index ``index`` or later and whose digest is that of its own contents, then
    reads on frame by frame from there.  (A false frame would need a CRC-32 match, a valid
    record and a BLAKE2b digest match by chance.)
    """
    found: list[LoggedEntry] = []
    size = len(data)
    i = pos + 1
    while i + _FRAME.size <= size:
        length, crc = _FRAME.unpack_from(data, i)
        end = i + _FRAME.size + length
        if 0 < length <= MAX_RECORD_SIZE and end <= size:
            payload = data[i + _FRAME.size:end]
            if zlib.crc32(payload) == crc:
                try:
                    record = decode_log_record(payload)
                except CodecError:
                    record = None
                if isinstance(record, LoggedEntry):
                    entry = record.entry
                    floor = found[-1].entry.index + 1 if found else index
                    if entry.index >= floor and entry.intact:
                        found.append(record)
                        i = end
                        continue
        i += 1
    return tuple(found)


def _chain_problem(item: LoggedEntry, index: int, head: bytes) -> tuple[str, str] | None:
    entry = item.entry
    if entry.index != index:
        return "bad_index", f"expected entry #{index}, found #{entry.index}"
    if entry.prev != head:
        return "broken_chain", "the entry does not chain to the previous one (prev differs)"
    if not entry.intact:
        return "bad_digest", "the entry's digest does not match its contents"
    return None


def read_log(path: str | os.PathLike[str]) -> LogReadResult:
    """Read a log file: its header, every intact entry, and the first problem if any.

    Never raises for a damaged file (the problem is in the result, with every entry before
    it); an unreadable path raises `OSError` as usual.  The hash chain is checked from the
    header's genesis, entry by entry.
    """
    return parse_log(Path(path).read_bytes())


#: fsync policies (`LogWriter`'s ``sync``): every record; the records only this peer can
#: vouch for (the default); never (flush only).
SYNC_ALWAYS, SYNC_OWN, SYNC_NEVER = "always", "own", "never"
_POLICIES = (SYNC_ALWAYS, SYNC_OWN, SYNC_NEVER)

#: A `LogWriter`'s ``sync``: a policy name, or True (``always``) / False (``never``).
Sync = bool | str


def _policy(sync: Sync) -> str:
    if sync is True:
        return SYNC_ALWAYS
    if sync is False:
        return SYNC_NEVER
    if sync not in _POLICIES:
        raise ValueError(f"unknown fsync policy {sync!r} (one of {', '.join(_POLICIES)})")
    return str(sync)


class LogWriter:
    """Appends accepted entries to a log file, flushing each one and fsyncing as its policy says.

    ``LogWriter(path, header)`` creates the file, or continues an existing log of the same
    header (a torn tail is cut off: damage with no intact entry after it; any other damage
    raises `LogFileError`, and the file is left untouched).  ``LogWriter.resume(path)``
    continues whatever table the file holds; ``LogWriter.recover(path)`` also continues a
    log damaged in the middle, from its intact prefix, keeping the damaged file aside.

    Every record is flushed as it is written (a crash of the process loses nothing).  What
    is also fsynced (``sync``, docs/protocol.md §6 "What a peer keeps on disk"):

    * ``"own"`` (the default): the new file with its header (and its directory entry), every
      entry this peer's own seat (``header.own_seat``) authored, every seat event, the file
      as it is continued or recovered, and the end (`close`).  A power cut then loses at
      most the other seats' entries and chance entries since this seat's last action, which
      the other peers hold;
    * ``"always"`` (or True): every record as well;
    * ``"never"`` (or False): nothing, only flushes (throwaway logs, tests).

    With ``background`` the fsyncs of entries and sealed records (the ones made on every
    move) run on a thread of the writer's own: `append` returns once the record is flushed,
    and the disk catches up a moment later (a request made while one waits to run is covered
    by it).  A live peer writes this way, so that a slow disk never holds up its event loop
    (an fsync of 1 to 25 ms stalled every message behind it); `close` waits for them.  The
    header, the seat events and the end are still fsynced before the call returns.

    A record that cannot be written (a full disk: ``ENOSPC``, or any other `OSError`) is
    not half-written: the file is cut back to its last whole record and closed, and
    ``failed`` says why.  With ``on_failure`` set, that callback is told (once) and the
    write returns as if nothing had been asked (the caller's `closed` check then skips the
    next ones); without it the write raises `LogFileError`.  The file is written unbuffered
    (each record is one flushed write anyway), so nothing is left in a buffer to be written
    later behind the cut.
    """

    def __init__(self, path: str | os.PathLike[str], header: LogHeader, *,
                 sync: Sync = SYNC_OWN, background: bool = False) -> None:
        self.path = Path(path)
        self.header = header
        self.policy = _policy(sync)
        self.sync = self.policy != SYNC_NEVER
        self._syncer: _Syncer | None = None
        #: Told why, once, when a record cannot be written (see the class docstring).
        self.on_failure: Callable[[str], None] | None = None
        #: Why a record could not be written (the file was cut back and closed), or None.
        self.failed: str | None = None
        #: Told of every record written after the header, with its payload (the ``LogRecord``
        #: bytes), once it is in the file (a host streams them to its spectators).
        self.on_record: Callable[[LogRecord, bytes], None] | None = None
        result = read_log(self.path) if self.path.exists() else None
        if result is not None and result.header is None and not (
            result.problem is not None and result.problem.at_tail
        ):
            raise LogFileError(f"{self.path}: cannot continue this log: {result.problem}")
        if result is not None and result.header is not None:
            if result.header != header:
                raise LogFileError(f"{self.path} is the log of another table "
                                   f"({result.header.fingerprint}, {result.header.players} seats)")
            problem = result.problem
            if not _continuable(problem):
                raise LogFileError(f"{self.path}: cannot continue a damaged log: {problem}")
            self._file: FileIO = open(self.path, "r+b", buffering=0)  # noqa: SIM115 - closed by close()
            self._file.truncate(result.end)
            self._file.seek(result.end)
            self._sync()
            self._next_index = result.next_index
            self._head: bytes = result.head or header.table_header.genesis
        else:  # a new log (or one that died before its header was complete)
            try:
                frame = _frame(header)  # validate the header before creating anything
            except CodecError as exc:
                raise LogFileError(f"{self.path}: invalid log header: {exc.message}") from exc
            self._file = open(self.path, "wb", buffering=0)  # noqa: SIM115 - closed by close()
            _put(self._file, MAGIC + frame)
            self._sync()
            _fsync_dir(self.path.parent, self.sync)
            self._next_index = 0
            self._head = header.table_header.genesis
        if background and self.sync:
            self._syncer = _Syncer(self._file.fileno())

    @classmethod
    def resume(cls, path: str | os.PathLike[str], *, sync: Sync = SYNC_OWN) -> LogWriter:
        """Continue the log at ``path``, whatever table it holds."""
        result = read_log(path)
        if result.header is None:
            raise LogFileError(f"{path}: cannot continue this log: {result.problem}")
        return cls(path, result.header, sync=sync)

    @classmethod
    def recover(cls, path: str | os.PathLike[str], *,
                sync: Sync = SYNC_OWN) -> tuple[LogWriter, Path | None]:
        """Continue the log at ``path`` even when it is damaged in the middle.

        A log that `resume` can continue is continued as it would be, and the second value
        is None.  Otherwise the file is first copied aside, byte for byte, to
        ``<name>.damaged`` (``.damaged-2``, ... when taken), which is returned: nothing that
        verifies is ever deleted.  The log is then rewritten with its intact prefix only,
        atomically (a new file renamed over the old one), and continued from there: the
        entries after the damage are the caller's to fetch again, e.g. from the other peers
        of a live table (each one is checked against the chain as it is appended).  A file
        without a readable header raises `LogFileError`.
        """
        path = Path(path)
        data = path.read_bytes()
        result = parse_log(data)
        header, problem = result.header, result.problem
        if header is None:
            raise LogFileError(f"{path}: cannot continue this log: {problem}")
        if _continuable(problem):
            return cls(path, header, sync=sync), None
        aside = _free_name(path.with_name(path.name + ".damaged"))
        aside.write_bytes(data)
        fresh = path.with_name(path.name + ".recovering")
        fresh.write_bytes(data[:result.end])
        durable = _policy(sync) != SYNC_NEVER
        if durable:
            with open(fresh, "rb+") as f:
                os.fsync(f.fileno())
        os.replace(fresh, path)
        _fsync_dir(path.parent, durable)
        return cls(path, header, sync=sync), aside

    @property
    def next_index(self) -> int:
        """The index the next appended entry must have."""
        return self._next_index

    @property
    def head(self) -> bytes:
        """The digest the next appended entry must chain to."""
        return self._head

    def append(self, entry: LogEntry, state_hash: bytes,
               reveals: tuple[CardReveal, ...] = ()) -> None:
        """Write ``entry`` (with the state hash after it, and at a sealed table the cards its
        action showed), flush it, and fsync it if the policy says so (this seat's own entry,
        or ``always``).

        Raises `LogFileError` for an entry that does not continue the log (wrong index,
        broken chain, bad digest) or cannot be encoded; nothing is written then.
        """
        item = LoggedEntry(entry, state_hash, reveals)
        problem = _chain_problem(item, self._next_index, self._head)
        if problem is not None:
            raise LogFileError(f"{self.path}: refusing to append: {problem[1]}")
        try:
            frame = _frame(item)
        except CodecError as exc:
            raise LogFileError(
                f"{self.path}: cannot log entry #{entry.index}: {exc.message}") from exc
        if self._write(frame, self.policy == SYNC_ALWAYS or entry.seat == self.header.own_seat,
                       soon=True):
            self._next_index += 1
            self._head = entry.digest
            self._told(item, frame)

    def append_event(self, event: SeatEvent) -> None:
        """Write a seat event (a record outside the hash chain), flush and fsync it."""
        try:
            frame = _frame(event)
        except CodecError as exc:
            raise LogFileError(f"{self.path}: cannot log the seat event: {exc.message}") from exc
        if self._write(frame, True):
            self._told(event, frame)

    def roll_back(self, event: SeatEvent, head: bytes) -> None:
        """Write a ``ROLLBACK`` seat event (flushed and fsynced): the entries from
        ``event.index`` on are void, and the next appended entry is ``event.index``, chained to
        ``head`` (the digest of the entry before it, or the genesis).  The void entries stay
        in the file before the record, so nothing written is lost (docs/protocol.md §6)."""
        if event.kind != SeatEventKind.ROLLBACK or event.index > self._next_index:
            raise LogFileError(f"{self.path}: refusing to roll back to entry #{event.index} "
                               f"(the next entry is #{self._next_index})")
        frame = _frame(event)
        if self._write(frame, True):
            self._next_index, self._head = event.index, head
            self._told(event, frame)

    def append_seal(self, record: SealRecord, *, own: bool) -> None:
        """Write a sealed-deck record (outside the hash chain), flush it, and fsync it when
        this peer made it (``own``: its shuffle steps and keys must outlive a crash)."""
        try:
            frame = _frame(record)
        except CodecError as exc:
            raise LogFileError(f"{self.path}: cannot log a sealed record: {exc.message}") \
                from exc
        if self._write(frame, self.policy == SYNC_ALWAYS or own, soon=True):
            self._told(record, frame)

    def _told(self, record: LogRecord, frame: bytes) -> None:
        if self.on_record is not None:
            self.on_record(record, frame[_FRAME.size:])

    def _write(self, frame: bytes, durable: bool, *, soon: bool = False) -> bool:
        """Write one record and flush it (fsync it when ``durable``); False when it could not
        be written (see the class docstring: cut back, closed, told or raised)."""
        if self.failed is not None:
            raise LogFileError(f"{self.path}: cannot write: {self.failed}")
        at = self._file.tell()
        try:
            _put(self._file, frame)
            self._sync(durable, soon=soon)
        except OSError as exc:
            self.failed = exc.strerror or str(exc)
            if self._syncer is not None:  # (its fsyncs end before the file does)
                self._syncer.close()
                self._syncer = None
            with contextlib.suppress(OSError):  # (cutting a file back needs no room)
                os.ftruncate(self._file.fileno(), at)
                os.fsync(self._file.fileno())
            with contextlib.suppress(OSError):
                self._file.close()
            if self.on_failure is None:
                raise LogFileError(f"{self.path}: cannot write: {self.failed}") from exc
            self.on_failure(self.failed)
            return False
        return True

    def _sync(self, durable: bool = True, *, soon: bool = False) -> None:
        """Flush; fsync too when ``durable`` and the policy fsyncs at all (``soon``: on the
        background thread, when the writer has one)."""
        self._file.flush()
        if durable and self.sync:
            if soon and self._syncer is not None:
                self._syncer.request()
            else:
                os.fsync(self._file.fileno())

    def close(self) -> None:
        """Flush and close the file (appending afterwards raises ``ValueError``), once every
        fsync asked for is done."""
        if not self._file.closed:
            if self._syncer is not None:
                self._syncer.close()
                if self._syncer.error is not None:
                    log.warning("%s: a record could not be synced to disk: %s", self.path,
                                self._syncer.error)
            self._sync()
            self._file.close()

    @property
    def closed(self) -> bool:
        """True once `close` was called."""
        return self._file.closed

    def __enter__(self) -> LogWriter:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _put(file: FileIO, data: bytes) -> None:
    """Write all of ``data`` to an unbuffered ``file`` (a short write goes on where it
    stopped; a full disk raises `OSError` on the next)."""
    view = memoryview(data)
    while view:
        written = file.write(view)
        if not written:  # (a regular file takes a byte or raises: never loop on nothing)
            raise OSError(errno.EIO, "the file took none of the record")
        view = view[written:]


class _Syncer:
    """fsyncs one file on a thread of its own whenever asked; a request made while another
    waits to run is covered by it (an fsync makes everything written before it durable)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._wake = threading.Condition()
        self._due = False
        self._stop = False
        self.error: OSError | None = None  # the first fsync that failed
        self._thread = threading.Thread(target=self._run, name="hedgerow-log-fsync",
                                        daemon=True)
        self._thread.start()

    def request(self) -> None:
        """fsync the file soon (after what was written so far)."""
        with self._wake:
            self._due = True
            self._wake.notify()

    def _run(self) -> None:
        while True:
            with self._wake:
                while not self._due and not self._stop:
                    self._wake.wait()
                if not self._due:
                    return
                self._due = False
            try:
                os.fsync(self._fd)
            except OSError as exc:
                self.error = self.error or exc

    def close(self) -> None:
        """Wait for the fsyncs asked for, then end the thread."""
        with self._wake:
            self._stop = True
            self._wake.notify()
        self._thread.join()


def _free_name(path: Path) -> Path:
    """``path``, or ``path-2``, ``path-3``... the first name no file has."""
    candidate, n = path, 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.name}-{n}")
    return candidate


def _fsync_dir(directory: Path, sync: bool) -> None:
    """Make a new file's directory entry durable (POSIX only)."""
    if not sync or os.name != "posix":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


# --------------------------------------------------------------------------------------
# Replay


@dataclass(frozen=True, slots=True)
class Mismatch:
    """The first place where replaying a log with the rules disagrees with the log.

    ``kind``: ``no_header`` (nothing to replay), ``rules`` (the installed rules are not the
    ones the log names), ``refused`` (the rules refuse a logged action), ``digest`` (the
    replayed entry's chain digest differs) or ``state_hash`` (the state after the entry
    hashes differently).  ``index`` is the entry concerned (None for the first two).
    """

    kind: str
    index: int | None
    message: str
    expected: bytes | None = None
    actual: bytes | None = None

    def __str__(self) -> str:
        where = f"entry #{self.index}: " if self.index is not None else ""
        return where + self.message


@dataclass(frozen=True, slots=True)
class ReplayReport:
    """The replayed table, how many logged entries checked out, any mismatch.

    ``unlogged`` are the entries the rules added after the last logged one (chance the
    engine resolved right after it, which the writer did not get to log before it stopped);
    a peer that resumes seals them.  A log that ends inside a simultaneous step leaves the
    step's logged entries held by the table (``table.following``), not checked.
    """

    table: Table | None
    applied: int
    mismatch: Mismatch | None
    unlogged: tuple[Applied, ...] = ()


def _who(entry: LogEntry) -> str:
    return "chance" if entry.is_chance else f"seat {entry.seat}"


def replay_log(ruleset: Ruleset, header: LogHeader, entries: Iterable[LoggedEntry], *,
               on_step: Callable[[Table, Applied], None] | None = None) -> ReplayReport:
    """Rebuild the table of ``header`` with ``ruleset`` from its logged ``entries``.

    Every entry is fed to the table in log order (`Table.follow`, with its index and previous
    digest): a chance entry must be the very outcome the table resolves from the seed, a
    simultaneous step is applied whole once all its entries are in.  Each entry's digest and
    the state hash after it are compared with the log; replay stops at the first `Mismatch`.
    ``on_step(table, applied)`` is called for each logged entry once it checked out
    (``table.describe_entry(applied.entry, applied.before)`` names it in plain words).
    """
    if ruleset.fingerprint != header.fingerprint.removesuffix(OPEN_DECK):
        return ReplayReport(None, 0, Mismatch(
            "rules", None, f"the log was played with {header.fingerprint}, "
                           f"but these rules are {ruleset.fingerprint}"))
    try:
        table = Table(ruleset, header.players, header.seed, fingerprint=header.fingerprint)
    except HedgerowError as exc:
        return ReplayReport(None, 0, Mismatch("rules", None, exc.message))
    except RulesError as exc:
        return ReplayReport(None, 0, Mismatch("refused", 0, f"the rules failed: {exc}"))
    logged = list(entries)
    made: dict[int, Applied] = {a.entry.index: a for a in table.opening}
    checked = 0

    def check() -> Mismatch | None:
        """Compare every entry the table made with the logged one, in order."""
        nonlocal checked
        while checked < len(logged) and checked in made:
            applied, item = made.pop(checked), logged[checked]
            entry = item.entry
            if (applied.entry.seat, applied.entry.action) != (entry.seat, entry.action):
                return Mismatch("refused", checked, (  # only chance can differ here
                    f"the logged {entry.action} is not the chance this table resolves "
                    f"({applied.entry.action})" if applied.entry.is_chance else
                    f"the log has {entry.action} by {_who(entry)} where the table has "
                    f"{applied.entry.action} by {_who(applied.entry)}"))
            if applied.entry.digest != entry.digest:
                return Mismatch("digest", checked,
                                "the replayed entry's digest differs from the log's",
                                entry.digest, applied.entry.digest)
            actual = table.entry_hash(applied.entry, applied.after)
            if actual != item.state_hash:
                return Mismatch("state_hash", checked,
                                f"the state hash after {entry.action} by {_who(entry)} is "
                                f"{actual.hex()}, the log says {item.state_hash.hex()}",
                                item.state_hash, actual)
            if on_step is not None:
                on_step(table, applied)
            checked += 1
        return None

    mismatch = check()
    for item in logged:
        if mismatch is not None:
            break
        entry = item.entry
        try:
            result = table.follow(entry.index, entry.seat, entry.action, prev=entry.prev)
        except RulesError as exc:
            mismatch = Mismatch("refused", entry.index, f"the rules failed: {exc}")
            break
        if isinstance(result, Refusal):
            what = (f"the logged {entry.action} is not the chance this table resolves"
                    if entry.is_chance else
                    f"the rules refuse {entry.action} by seat {entry.seat}")
            mismatch = Mismatch("refused", entry.index, f"{what}: {result}")
            break
        made.update((a.entry.index, a) for a in result)
        mismatch = check()
    unlogged = tuple(made[i] for i in sorted(made) if i >= len(logged))
    return ReplayReport(table, checked, mismatch, () if mismatch is not None else unlogged)


def verify_log(ruleset_factory: Callable[[LogHeader], Ruleset], result: LogReadResult, *,
               on_step: Callable[[Table, Applied], None] | None = None) -> Mismatch | None:
    """Replay every intact entry of ``result`` and return the first `Mismatch`, or None.

    ``ruleset_factory(header)`` binds the rules the log names, e.g.
    ``lambda h: host.ruleset(h.game, h.variants, h.players)`` (its `HedgerowError` for an
    unknown game or variant propagates).  A read problem (``result.problem``) is not a
    mismatch: the entries before it are verified and the caller reports both.
    """
    if result.header is None:
        return Mismatch("no_header", None, f"no log header to replay from ({result.problem})")
    ruleset = ruleset_factory(result.header)
    return replay_log(ruleset, result.header, result.entries, on_step=on_step).mismatch

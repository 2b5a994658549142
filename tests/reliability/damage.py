"""Log durability: damaged copies of real table logs, each checked for detection and recovery.

`make_log(game, path)` writes the log of one complete game of ``game`` the way a seated peer
does (the same `LogHeader` and `LogWriter`, an entry with the state hash after it as each is
sealed, chance entries included); `rewrite_log` writes a read log again, which is how
tests/reliability/test_log_damage.py checks that this gives byte-identical files to a real
peer's.  `damages(data, ...)` makes the damaged copies of a log's bytes (`KINDS`):

* ``cut-boundary``: cut exactly at a record boundary (after the magic, after the header,
  after each entry).  A cut after the header or an entry is a valid, shorter log: verifying
  it succeeds and says the game is not over; a cut before the header is detected.
* ``cut-inside``: cut inside a record (in its length, its checksum, its payload, one byte
  short);
* ``flip-header`` / ``flip-length`` / ``flip-crc`` / ``flip-payload``: one byte flipped in
  the header record, an entry's length field, its checksum field, its payload;
* ``flip-digest``: a byte of an entry's digest flipped with the checksum made to match (only
  the hash chain can see it); ``flip-state-hash``: the same for the state hash stored after
  an entry (only replaying the rules can see it);
* ``length-past-end`` / ``length-shorter``: an entry's length field pointing past the end of
  the file / at a shorter record;
* ``zeros-appended`` (16 and more zero bytes after the last record, as a power cut leaves),
  ``zeros-over-tail`` (the last records' bytes turned to zeros, the size kept),
  ``garbage-appended`` (bytes after the last record).

`check_damaged_logs(game)` runs every damaged copy through what must hold, offline:

* **detected**: ``hedgerow replay LOG --verify`` (the command's own code, in this process)
  exits non-zero and its message names the byte offset of the damaged record and the entry
  expected there (or the entry whose state hash differs).  A cut at an entry boundary is a
  valid shorter log instead: exit 0, and the verdict says the game is not over.
* **recovered**: what ``hedgerow resume`` does with the file (read, replay the intact
  entries, `LogWriter.recover`) keeps every entry before the damage, never deletes an entry
  that verifies (damage with intact entries after it is first copied aside byte for byte,
  ``LOG.damaged``), continues from the intact prefix, and taking the missing entries back
  (as catch-up does from the other peers) gives the original file byte for byte.  Where no
  recovery is possible (the header itself is damaged; a state hash the rules contradict) it
  must refuse with a message and leave the file as it was.

It returns one `Check` per damaged copy.  `live_refill(game, kind)` is the same damage done
to a live peer's log between real processes: the peer is killed, its log damaged, and
``hedgerow resume`` must finish the game with every entry back, refilled from the others.
Used by test_log_damage.py (every game offline, one live refill) and ``python -m
reliability.damage [GAME ...] [--live]`` (every kind, every game, live too).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import struct
import sys
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table
from hedgerow.net.codec import decode_log_record, encode_log_record
from hedgerow.net.logfile import MAGIC, LogFileError, LogWriter, parse_log, read_log, replay_log
from hedgerow.net.messages import LoggedEntry, LogHeader, SealRecord
from hedgerow.net.rulesmatch import table_fingerprint

GAMES = ("petals", "flowers", "mandala", "flourish")

KINDS = ("cut-boundary", "cut-inside", "flip-header", "flip-length", "flip-crc",
         "flip-payload", "flip-digest", "flip-state-hash", "length-past-end", "length-shorter",
         "zeros-appended", "zeros-over-tail", "garbage-appended")

_FRAME = struct.Struct("<II")


@dataclass(frozen=True, slots=True)
class Damage:
    """One damaged copy: its kind, the first byte changed (or where the file was cut), the
    damaged bytes, and the entry index the damage hits (entries before it are intact)."""

    kind: str
    offset: int
    data: bytes
    index: int


@dataclass(frozen=True, slots=True)
class Check:
    """What happened to one damaged copy (`check_damaged_logs`)."""

    kind: str
    offset: int
    detected: bool
    recovered: bool
    message: str

    @property
    def held(self) -> bool:
        """Both detection and recovery did what they must."""
        return self.detected and self.recovered


# --------------------------------------------------------------------------------------
# Real logs


def players_for(game: str, plugins: PluginHost | None = None) -> int:
    """Three seats where the game allows it, else the nearest count it allows."""
    spec = (plugins or PluginHost()).ruleset(game, (), 2).spec
    return max(spec.min_players, min(3, spec.max_players))


def make_log(game: str, path: Path, *, seed: int = 1, plugins: PluginHost | None = None,
             own_seat: int = 0) -> Path:
    """Play one complete ``random``-bot game of ``game`` and log it as seat ``own_seat``'s
    peer does: header, then each entry with the state hash after it, as it is sealed."""
    import random

    plugins = plugins or PluginHost()
    players = players_for(game, plugins)
    ruleset = plugins.ruleset(game, (), players)
    table_seed = seed_from_int(seed)
    # An open-deck table's log (its fingerprint says so): the rules replay it from its seed
    # alone.  (A sealed log adds the shuffle and key records: the live refill has them.)
    fingerprint = table_fingerprint(ruleset, open_deck=True)
    table = Table(ruleset, players, table_seed, fingerprint=fingerprint)
    header = LogHeader.for_table(ruleset, players, table_seed, table_id=bytes(range(16)),
                                 own_seat=own_seat, fingerprint=fingerprint,
                                 seat_names=tuple(f"Bot {s}" for s in range(players)))
    choose = random.Random(seed)  # test tooling: which legal action each seat takes
    with LogWriter(path, header, sync=False) as writer:
        for applied in table.opening:
            writer.append(applied.entry, table.hash_of(applied.after))
        while table.active_seats():
            active = table.active_seats()
            choices = {s: choose.choice(list(table.legal_actions(s))) for s in active}
            if len(active) == 1:
                ((seat, action),) = choices.items()
                result = table.submit(seat, action)
            else:
                result = table.submit_step(choices)
            assert not hasattr(result, "code"), result
            for applied in result:  # type: ignore[union-attr]
                writer.append(applied.entry, table.hash_of(applied.after))
    return path


def rewrite_log(source: Path, target: Path) -> bytes:
    """Write ``source``'s header, entries and seat events again with a fresh `LogWriter`
    (events at their place in the file); the bytes written."""
    data = source.read_bytes()
    result = parse_log(data)
    assert result.ok and result.header is not None, result.problem
    with LogWriter(target, result.header, sync=False) as writer:
        for start, length in record_offsets(data)[1:]:
            record = decode_log_record(data[start:start + length])
            if isinstance(record, LoggedEntry):
                writer.append(record.entry, record.state_hash, record.reveals)
            elif isinstance(record, SealRecord):
                writer.append_seal(record, own=False)
            else:
                writer.append_event(record)  # type: ignore[arg-type]
    return target.read_bytes()


def record_offsets(data: bytes) -> list[tuple[int, int]]:
    """(payload start, payload length) of every record of a sound log file's bytes."""
    out, pos = [], len(MAGIC)
    while pos + _FRAME.size <= len(data):
        length, _ = _FRAME.unpack_from(data, pos)
        out.append((pos + _FRAME.size, length))
        pos += _FRAME.size + length
    return out


# --------------------------------------------------------------------------------------
# Damaged copies


def _set(data: bytes, offset: int, new: bytes) -> bytes:
    return data[:offset] + new + data[offset + len(new):]


def _flip(data: bytes, offset: int, mask: int = 0x55) -> bytes:
    return _set(data, offset, bytes([data[offset] ^ mask]))


def _reframe(data: bytes, start: int, length: int, payload: bytes) -> bytes:
    """``data`` with the record at ``start`` replaced by ``payload`` under a matching CRC."""
    frame = _FRAME.pack(len(payload), zlib.crc32(payload)) + payload
    return data[:start - _FRAME.size] + frame + data[start + length:]


def _field_flip(data: bytes, start: int, length: int, field: str) -> tuple[bytes, int]:
    """Flip a byte of an entry's ``digest`` or ``state_hash`` and re-checksum the record."""
    record = decode_log_record(data[start:start + length])
    assert isinstance(record, LoggedEntry)
    entry, state_hash = record.entry, record.state_hash
    if field == "digest":
        entry = type(entry)(entry.index, entry.seat, entry.action, entry.prev,
                            bytes([entry.digest[0] ^ 1]) + entry.digest[1:])
    else:
        state_hash = bytes([state_hash[0] ^ 1]) + state_hash[1:]
    return _reframe(data, start, length, encode_log_record(LoggedEntry(entry, state_hash))), start


def damages(data: bytes, *, every: bool = True) -> Iterator[Damage]:
    """Every damaged copy of a sound log's bytes (`KINDS`).

    With ``every`` (the on-demand run) the file is cut at every record boundary and every
    other kind hits every entry record; without it (CI) the cuts are after the header and
    entries #0, #1, the middle one and the last but one, and the other kinds hit entries #1
    and the last (seconds instead of minutes for a long game).
    """
    # The header and the entry records (a sealed log's shuffle and key records, and seat
    # events, lie between entries: the damage is aimed at the entries, which the hash chain
    # and the rules check; the tail kinds hit whatever records are last).
    records = [record for i, record in enumerate(record_offsets(data))
               if i == 0 or isinstance(decode_log_record(data[record[0]:sum(record)]),
                                       LoggedEntry)]
    entries = records[1:]  # (payload start, length) of entry #0, #1, ...
    n = len(entries)
    picked = range(n) if every else sorted({1 % n, n - 1})
    cuts = range(n) if every else sorted({0, 1 % n, n // 2, n - 1})
    size = len(data)

    yield Damage("cut-boundary", 0, b"", 0)
    yield Damage("cut-boundary", len(MAGIC), data[:len(MAGIC)], 0)
    for i, (start, length) in enumerate(records[:-1]):  # after the header, after each entry
        if i in cuts:
            yield Damage("cut-boundary", start + length, data[:start + length], i)
    for i, (start, length) in enumerate(records):
        index = max(i - 1, 0)
        if i and i - 1 not in picked:
            continue
        frame = start - _FRAME.size
        for cut in sorted({frame + 1, frame + 4, start, start + length // 2, start + length - 1}):
            yield Damage("cut-inside", cut, data[:cut], index)
    header_start, header_length = records[0]
    yield Damage("flip-header", header_start + header_length // 2,
                 _flip(data, header_start + header_length // 2), 0)
    for i in picked:
        start, length = entries[i]
        frame = start - _FRAME.size
        yield Damage("flip-length", frame, _flip(data, frame, 0x01), i)
        yield Damage("flip-crc", frame + 5, _flip(data, frame + 5), i)
        yield Damage("flip-payload", start + length // 2, _flip(data, start + length // 2), i)
        digest, _ = _field_flip(data, start, length, "digest")
        yield Damage("flip-digest", frame, digest, i)
        state, _ = _field_flip(data, start, length, "state_hash")
        yield Damage("flip-state-hash", frame, state, i)
        yield Damage("length-past-end", frame,
                     _set(data, frame, struct.pack("<I", size - start + 100)), i)
        yield Damage("length-shorter", frame, _set(data, frame, struct.pack("<I", length // 2)), i)
    for zeros in (16, 64, 4096):
        yield Damage("zeros-appended", size, data + bytes(zeros), n)
    for back in (1, 2, 3):
        start, _ = entries[n - back]
        frame = start - _FRAME.size
        yield Damage("zeros-over-tail", frame, data[:frame] + bytes(size - frame), n - back)
    garbage = bytes((i * 97 + 13) % 256 for i in range(300))
    yield Damage("garbage-appended", size, data + garbage, n)
    yield Damage("garbage-appended", size, data + data[len(MAGIC):200], n)  # a stray copy


# --------------------------------------------------------------------------------------
# Checks


def verify_text(path: Path, plugins: PluginHost) -> tuple[int, str]:
    """``hedgerow replay PATH --verify``'s exit status and output (its code, run here, with
    ``plugins`` as its plugin host: loading one takes a tenth of a second)."""
    from unittest import mock

    from hedgerow.clients import cmd_replay

    args = argparse.Namespace(log=str(path), verify=True, json=False, plugin_opts=[])
    out = io.StringIO()
    with contextlib.redirect_stdout(out), \
            mock.patch.object(cmd_replay, "make_plugin_host", lambda _args: plugins):
        code = cmd_replay.run(args)
    return code, out.getvalue().strip()


def _detected(damage: Damage, original: bytes, code: int, text: str) -> bool:
    """Whether ``replay --verify`` said what it must about ``damage``."""
    records = record_offsets(original)
    boundaries = {s + n for s, n in records}
    if damage.kind == "cut-boundary" and damage.offset in boundaries:
        return code == 0 and "not over" in text
    if code == 0 or not text.startswith("FAILED"):
        return False
    if damage.kind == "flip-state-hash":
        return f"entry #{damage.index}:" in text
    header_end = records[0][0] + records[0][1]
    if damage.kind in ("cut-boundary", "flip-header") or damage.offset < header_end:
        return "byte " in text  # no header to read: where the header record is
    where = records[damage.index + 1][0] - _FRAME.size if damage.index + 1 < len(records) \
        else len(original)
    return f"byte {where}, entry #{damage.index}" in text


def _recovered(damage: Damage, original: bytes, path: Path,
               plugins: PluginHost) -> tuple[bool, str]:
    """Do what ``hedgerow resume`` does with the damaged file at ``path``; whether it held."""
    result = read_log(path)
    if result.header is None:  # nothing to resume from: refused, the file untouched
        try:
            LogWriter.recover(path, sync=False)
        except LogFileError as exc:
            return path.read_bytes() == damage.data, f"refused: {exc}"
        return False, "a log without a header was continued"
    header = result.header
    ruleset = plugins.ruleset(header.game, header.variants, header.players)
    report = replay_log(ruleset, header, result.entries)
    if report.mismatch is not None:  # resume refuses a log the rules contradict
        ok = damage.kind == "flip-state-hash" and report.mismatch.index == damage.index
        return ok, f"refused: does not replay: {report.mismatch}"
    expected = _entries_of(original)
    kept = len(result.entries)
    if [e.entry for e in result.entries] != [e.entry for e in expected[:kept]]:
        return False, "the intact prefix differs from the original entries"
    if kept != damage.index and damage.kind != "flip-state-hash":
        return False, f"kept {kept} entries, the damage is at entry #{damage.index}"
    writer, aside = LogWriter.recover(path, sync=False)
    with writer:
        if result.salvaged and aside is None:
            return False, "damage with intact entries after it was cut off without a copy"
        if aside is not None and aside.read_bytes() != damage.data:
            return False, "the damaged copy differs from the damaged file"
        if writer.next_index != kept:
            return False, f"continued at entry #{writer.next_index}, not #{kept}"
        for item in expected[kept:]:  # what catch-up refills from the other peers
            writer.append(item.entry, item.state_hash)
    if path.read_bytes() != original:
        return False, "the refilled log differs from the original"
    what = f"kept {kept} entries"
    if aside is not None:
        what += f", damaged copy {aside.name}"
    return True, what + f", refilled {len(expected) - kept}"


_ENTRIES: dict[bytes, tuple[LoggedEntry, ...]] = {}


def _entries_of(original: bytes) -> tuple[LoggedEntry, ...]:
    if original not in _ENTRIES:
        _ENTRIES.clear()
        _ENTRIES[original] = parse_log(original).entries
    return _ENTRIES[original]


def check_damage(damage: Damage, original: bytes, folder: Path, plugins: PluginHost) -> Check:
    """Detection and recovery of one damaged copy (written under ``folder``)."""
    path = folder / "seat.hlog"
    for old in folder.iterdir():
        old.unlink()
    path.write_bytes(damage.data)
    code, text = verify_text(path, plugins)
    detected = _detected(damage, original, code, text)
    recovered, how = _recovered(damage, original, path, plugins)
    return Check(damage.kind, damage.offset, detected, recovered, f"{text} | {how}")


def check_damaged_logs(game: str, *, every: bool = True, seed: int = 1) -> list[Check]:
    """Make a real log of ``game`` and check every damaged copy of it (`damages`)."""
    with tempfile.TemporaryDirectory(prefix="hedgerow-damage-") as tmp:
        folder = Path(tmp)
        plugins = PluginHost()
        original = make_log(game, folder / "original.hlog", seed=seed,
                            plugins=plugins).read_bytes()
        work = folder / "work"
        work.mkdir()
        return [check_damage(d, original, work, plugins)
                for d in damages(original, every=every)]


# --------------------------------------------------------------------------------------
# Live: a peer's log damaged while the table plays on


def damage_file(path: Path, kind: str, index: int) -> Damage:
    """Damage the log at ``path`` in place with the first copy of ``kind`` at entry
    ``index`` or after it (for the tail kinds: the largest, e.g. zeros over the last three
    records)."""
    data = path.read_bytes()
    found = [d for d in damages(data) if d.kind == kind]
    tail = kind in ("zeros-appended", "zeros-over-tail", "garbage-appended")
    chosen = found[-1:] if tail else [d for d in found if d.index >= index][:1]
    if not chosen:
        raise ValueError(f"no {kind} damage at entry #{index} or after")
    path.write_bytes(chosen[0].data)
    return chosen[0]


def live_refill(game: str, kind: str, *, at: int = 6, rewrite: Path | None = None) -> str:
    """Kill a peer of a live 3-seat ``game`` table after entry ``at``, damage its log with
    ``kind``, ``hedgerow resume`` it; every peer must finish on one hash with the victim's
    log whole again (and the damaged bytes kept aside where entries followed them).

    With ``rewrite``, the host's log is also written again there with `rewrite_log` and
    must come out byte for byte the same (what `make_log` relies on)."""
    from e2e.helpers import Table as Processes
    from e2e.helpers import hedgerow, peer_env

    slow = ("--bot", "random", "--delay", "0.05")
    table = Processes()
    try:
        players = players_for(game)
        host, address = table.host(game, players, *slow, env=peer_env())
        joiners = [table.join(address, *slow, *(("-v",) if n == players - 2 else ()),
                              env=peer_env()) for n in range(players - 1)]
        victim = joiners[-1]
        start = victim.wait_event("start")
        victim.wait_event(lambda e: e.get("event") == "action" and e["index"] >= at + 2)
        victim.kill()
        log = Path(start["log"])
        before = read_log(log)
        damage = damage_file(log, kind, at)
        back = table.start(["resume", str(log), "--bot", "random", "--json"], victim.env)
        back.wait_event("resumed")
        results = []
        for peer in [host, *joiners[:-1], back]:
            code, result = peer.finish()
            assert code == 0, peer.stderr
            results.append(result)
        assert len({r["state_hash"] for r in results}) == 1, results
        healed = read_log(log)
        assert healed.ok, healed.problem
        theirs = read_log(results[0]["log"]).entries
        assert [e.entry for e in healed.entries] == [e.entry for e in theirs]
        aside = log.parent / (log.name + ".damaged")
        if parse_log(damage.data).salvaged:
            assert aside.read_bytes() == damage.data
        if rewrite is not None:
            host_log = Path(results[0]["log"])
            assert rewrite_log(host_log, rewrite) == host_log.read_bytes()
        done = hedgerow("replay", str(log), "--verify", env=victim.env)
        assert done.returncode == 0, done.stdout + done.stderr
        return (f"{game} {kind}: killed after {len(before.entries)} entries, damage at entry "
                f"#{damage.index}, resumed and refilled to {len(healed.entries)}")
    finally:
        table.close()


def main(argv: list[str] | None = None) -> int:
    """``python -m reliability.damage [GAME ...] [--live]``: every kind over every game."""
    parser = argparse.ArgumentParser(prog="python -m reliability.damage")
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--live", action="store_true", help="also a live refill per kind")
    args = parser.parse_args(argv)
    failed = 0
    for game in args.games:
        checks = check_damaged_logs(game)
        by_kind: dict[str, list[Check]] = {}
        for check in checks:
            by_kind.setdefault(check.kind, []).append(check)
        for kind, done in by_kind.items():
            bad = [c for c in done if not c.held]
            failed += len(bad)
            detected, recovered = sum(c.detected for c in done), sum(c.recovered for c in done)
            print(f"{game:9} {kind:17} {len(done):5} copies  detected {detected:5}  "
                  f"recovered {recovered:5}")
            for c in bad[:3]:
                print(f"    FAILED at byte {c.offset}: {c.message}")
        if args.live:
            for kind in KINDS:
                if kind in ("flip-header", "flip-state-hash"):
                    continue  # refused by design: nothing to resume from
                try:
                    print("   live", live_refill(game, kind))
                except AssertionError as exc:
                    failed += 1
                    print(f"   live {game} {kind}: FAILED {exc}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.exit(main())

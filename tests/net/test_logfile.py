"""The log file: write, continue, read back, locate damage exactly, replay and verify."""

from __future__ import annotations

import zlib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hedgerow.core.actions import Action
from hedgerow.core.errors import Refusal
from hedgerow.core.game import GameDef, GameSpec, Outcome, SetupContext
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import LogEntry, Table
from hedgerow.net import logfile
from hedgerow.net.codec import encode_log_record
from hedgerow.net.logfile import (
    MAGIC,
    LogFileError,
    LogWriter,
    parse_log,
    read_log,
    replay_log,
    verify_log,
)
from hedgerow.net.messages import LoggedEntry, LogHeader

# --------------------------------------------------------------------------------------
# A tiny game: seats take turns adding 1..3 of the next shuffled card's value to a total.

State = tuple[int, int, int, tuple[int, ...]]  # (players, turn, total, deck)


def _setup(ctx: SetupContext) -> State:
    return (ctx.players, 0, 0, tuple(ctx.rng.shuffled(range(1, 10))))


def _active(s: State) -> tuple[int, ...]:
    return () if s[2] >= 1000 or not s[3] else (s[1] % s[0],)


def _legal(s: State, seat: int) -> list[Action]:
    return [Action.of("add", n=n) for n in (1, 2, 3)] if seat in _active(s) else []


def _apply(s: State, seat: int, action: Action) -> State | Refusal:
    if action.kind != "add" or action.get("n") not in (1, 2, 3):
        return Refusal("toy.bad", f"cannot {action}")
    n = action["n"]
    assert isinstance(n, int)
    return (s[0], s[1] + 1, s[2] + n * s[3][0], s[3][1:])


def _outcome(s: State) -> Outcome | None:
    if _active(s):
        return None
    return Outcome(tuple(0 for _ in range(s[0])), tuple(1 for _ in range(s[0])),
                   tuple(range(s[0])), "everyone")


def toy_ruleset(version: str = "1.0") -> Ruleset:
    gamedef = GameDef("toy", _setup, _active, _legal, _apply, lambda s, seat: s, _outcome,
                      lambda s, seat, a: f"seat {seat} adds {a['n']}")
    spec = GameSpec("toy", "Toy", version, 1, 4, lambda ext: gamedef)
    return Ruleset(spec, (), gamedef)


SEED = bytes(range(32))


def header_for(ruleset: Ruleset, players: int = 2, seed: bytes = SEED) -> LogHeader:
    return LogHeader.for_table(ruleset, players, seed, table_id=b"T" * 16, own_seat=0,
                               seat_names=tuple(f"p{i}" for i in range(players)))


def play(path: Path, moves: list[int], players: int = 2) -> tuple[Table, LogHeader, list[int]]:
    """Play ``moves`` (each 1..3) into a new log; the table, header and record end offsets."""
    ruleset = toy_ruleset()
    table = Table(ruleset, players, SEED)
    header = header_for(ruleset, players)
    ends = []
    with LogWriter(path, header, sync=False) as writer:
        ends.append(path.stat().st_size)
        for n in moves:
            if not table.active_seats():
                break
            entry = table.submit(table.active_seats()[0], Action.of("add", n=n))
            assert isinstance(entry, LogEntry)
            writer.append(entry, table.state_hash())
            ends.append(path.stat().st_size)
    return table, header, ends


def frame(record: LogHeader | LoggedEntry) -> bytes:
    payload = encode_log_record(record)
    return len(payload).to_bytes(4, "little") + zlib.crc32(payload).to_bytes(4, "little") + payload


MOVES = [1, 2, 3, 1, 2, 3, 2]


# --------------------------------------------------------------------------------------
# Writing and reading


def test_write_then_read(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, header, ends = play(path, MOVES)
    data = path.read_bytes()
    assert data.startswith(MAGIC)
    result = read_log(path)
    assert result.ok and result.problem is None
    assert result.header == header
    assert [e.entry for e in result.entries] == table.entries
    assert result.end == len(data) == ends[-1]
    assert result.head == table.head
    assert result.next_index == len(table.entries)
    assert verify_log(lambda h: toy_ruleset(), result) is None


def test_a_log_without_entries(tmp_path: Path) -> None:
    path = tmp_path / "empty-game.hlog"
    header = header_for(toy_ruleset())
    LogWriter(path, header).close()
    result = read_log(path)
    assert result.ok and result.entries == () and result.head == header.table_header.genesis


def test_continue_a_log(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, header, _ = play(path, MOVES[:3])
    with LogWriter(path, header, sync=False) as writer:
        assert writer.next_index == 3 and writer.head == table.head
        for n in MOVES[3:]:
            entry = table.submit(table.active_seats()[0], Action.of("add", n=n))
            assert isinstance(entry, LogEntry)
            writer.append(entry, table.state_hash())
    result = read_log(path)
    assert result.ok and [e.entry for e in result.entries] == table.entries
    with LogWriter.resume(path) as writer:
        assert writer.header == header and writer.next_index == len(MOVES)


def test_continue_refuses_another_tables_log(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    _, header, _ = play(path, MOVES)
    before = path.read_bytes()
    other = LogHeader(header.game, (), header.fingerprint, 3, header.seed)
    with pytest.raises(LogFileError, match="another table"):
        LogWriter(path, other)
    assert path.read_bytes() == before


def test_append_refuses_entries_that_do_not_continue_the_log(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, header, _ = play(path, MOVES[:2])
    last = table.entries[-1]
    with LogWriter(path, header, sync=False) as writer:
        size = path.stat().st_size
        with pytest.raises(LogFileError, match="expected entry #2"):
            writer.append(last, bytes(32))
        good = LogEntry(2, 0, Action.of("add", n=1), table.head,
                        LogEntry.chain(table.head, 2, 0, Action.of("add", n=1)))
        with pytest.raises(LogFileError, match="chain"):
            writer.append(LogEntry(2, 0, good.action, bytes(32), good.digest), bytes(32))
        with pytest.raises(LogFileError, match="digest"):
            writer.append(LogEntry(2, 0, good.action, good.prev, bytes(32)), bytes(32))
        with pytest.raises(LogFileError, match="state_hash"):
            writer.append(good, b"short")
        assert path.stat().st_size == size
        writer.append(good, bytes(32))
    assert read_log(path).next_index == 3


def test_an_invalid_header_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "bad.hlog"
    with pytest.raises(LogFileError, match="invalid log header"):
        LogWriter(path, LogHeader("", (), "f", 2, SEED))
    assert not path.exists()


# --------------------------------------------------------------------------------------
# Damage is located exactly, and every intact entry before it is kept


def test_truncation_anywhere(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, header, ends = play(path, MOVES)
    data = path.read_bytes()
    for cut in range(len(data)):
        result = parse_log(data[:cut])
        kept = [e.entry for e in result.entries]
        assert kept == table.entries[: len(kept)]
        if cut in ends:  # a record boundary: a shorter, valid log
            assert result.ok and result.end == cut
            continue
        assert result.problem is not None and result.problem.at_tail, cut
        assert result.problem.kind in ("empty", "truncated")
        boundary = max([e for e in ends if e <= cut], default=0 if cut < len(MAGIC) else len(MAGIC))
        assert result.problem.offset == result.end == boundary
        if cut >= ends[0]:
            assert result.header == header and result.problem.index == len(kept)
            assert len(kept) == ends.index(boundary)


def test_a_torn_last_record_is_cut_off_when_continuing(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, header, ends = play(path, MOVES)
    path.write_bytes(path.read_bytes()[: ends[-1] - 5])
    result = read_log(path)
    assert result.problem is not None and result.problem.kind == "truncated"
    assert str(result.problem) == (f"byte {ends[-2]}, entry #{len(MOVES) - 1}: "
                                   f"the file ends inside a {ends[-1] - ends[-2] - 8}-byte record")
    with LogWriter(path, header, sync=False) as writer:
        assert writer.next_index == len(MOVES) - 1
        writer.append(table.entries[-1], table.state_hash())
    assert read_log(path).ok and path.stat().st_size == ends[-1]


def test_a_log_that_died_before_its_header_is_started_again(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    _, header, ends = play(path, [])
    path.write_bytes(path.read_bytes()[: ends[0] - 3])
    with LogWriter(path, header, sync=False):
        pass
    assert read_log(path).ok


def corrupt(data: bytes, offset: int) -> bytes:
    damaged = bytearray(data)
    damaged[offset] ^= 0x40
    return bytes(damaged)


def test_bad_crc_in_the_middle(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, header, ends = play(path, MOVES)
    data = corrupt(path.read_bytes(), ends[3] + 12)  # inside entry #3's payload
    path.write_bytes(data)
    result = read_log(path)
    assert result.problem is not None
    problem = result.problem
    assert (problem.kind, problem.offset, problem.index) == ("bad_crc", ends[3], 3)
    assert not result.problem.at_tail
    assert [e.entry for e in result.entries] == table.entries[:3]
    with pytest.raises(LogFileError, match=f"byte {ends[3]}, entry #3"):
        LogWriter(path, header)
    assert path.read_bytes() == data  # nothing is cut off a damaged log


@pytest.mark.parametrize(
    ("data", "kind"),
    [
        (b"", "empty"),
        (b"HDRW", "truncated"),
        (b"NOTALOG1", "bad_magic"),
        (b"PK\x03\x04", "bad_magic"),
        (MAGIC, "truncated"),
        (MAGIC + b"\x01\x00", "truncated"),
        (MAGIC + (10 << 20).to_bytes(4, "little") + bytes(4), "too_large"),
        (MAGIC + (3).to_bytes(4, "little") + zlib.crc32(b"\xff\xff\xff").to_bytes(4, "little")
         + b"\xff\xff\xff", "undecodable"),
    ],
)
def test_damaged_starts(data: bytes, kind: str) -> None:
    result = parse_log(data)
    assert result.header is None and result.entries == ()
    assert result.problem is not None and result.problem.kind == kind
    assert result.problem.index is None and result.problem.offset in (0, len(MAGIC))


def entries_of(table: Table) -> list[LoggedEntry]:
    # the state hashes do not matter for reading (only for verifying)
    return [LoggedEntry(e, bytes(32)) for e in table.entries]


def test_chain_problems(tmp_path: Path) -> None:
    table, header, _ = play(tmp_path / "game.hlog", MOVES)
    good = entries_of(table)
    start = MAGIC + frame(header)

    def problem_of(records: list[LoggedEntry | LogHeader]) -> tuple[str, int | None, int]:
        data = start + b"".join(frame(r) for r in records)
        result = parse_log(data)
        assert result.problem is not None
        assert result.entries == tuple(good[: result.problem.index or 0])
        return result.problem.kind, result.problem.index, result.problem.offset

    offset2 = len(start) + len(frame(good[0])) + len(frame(good[1]))
    assert problem_of([good[0], good[1], good[3]]) == ("bad_index", 2, offset2)
    e = good[2].entry
    assert problem_of([good[0], good[1], LoggedEntry(LogEntry(2, e.seat, e.action, bytes(32),
                                                              e.digest), bytes(32))]
                      ) == ("broken_chain", 2, offset2)
    assert problem_of([good[0], good[1], LoggedEntry(LogEntry(2, 1 - e.seat, e.action, e.prev,
                                                              e.digest), bytes(32))]
                      ) == ("bad_digest", 2, offset2)
    assert problem_of([good[0], good[1], header]) == ("extra_header", 2, offset2)
    first = parse_log(MAGIC + frame(good[0]))
    assert first.problem is not None and first.problem.kind == "no_header"
    other_seed = LogHeader(header.game, header.variants, header.fingerprint, header.players,
                           b"another seed")
    wrong_genesis = parse_log(MAGIC + frame(other_seed) + frame(good[0]))
    assert wrong_genesis.problem is not None
    assert wrong_genesis.problem.kind == "broken_chain" and wrong_genesis.problem.index == 0


@given(st.data())
@settings(max_examples=80, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_random_damage_keeps_a_prefix_and_never_raises(tmp_path: Path, data: st.DataObject) -> None:
    path = tmp_path / "fuzz.hlog"
    if not path.exists():
        play(path, MOVES)
    original = path.read_bytes()
    good = parse_log(original).entries
    damaged = bytearray(original)
    for _ in range(data.draw(st.integers(1, 3))):
        damaged[data.draw(st.integers(0, len(damaged) - 1))] = data.draw(st.integers(0, 255))
    cut = data.draw(st.integers(0, len(damaged)))
    result = parse_log(bytes(damaged[:cut]))
    assert result.entries == good[: len(result.entries)]
    assert result.end <= cut


# --------------------------------------------------------------------------------------
# Replay and verify


def rewrite(path: Path, header: LogHeader, entries: list[LoggedEntry]) -> None:
    path.write_bytes(MAGIC + frame(header) + b"".join(frame(e) for e in entries))


def test_verify_finds_a_wrong_state_hash(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    play(path, MOVES)
    result = read_log(path)
    assert result.header is not None
    items = list(result.entries)
    items[4] = LoggedEntry(items[4].entry, bytes(32))
    rewrite(path, result.header, items)
    mismatch = verify_log(lambda h: toy_ruleset(), read_log(path))
    assert mismatch is not None
    assert (mismatch.kind, mismatch.index) == ("state_hash", 4)
    assert mismatch.expected == bytes(32) and mismatch.actual == result.entries[4].state_hash
    assert str(mismatch).startswith("entry #4: the state hash after add(n=")


def test_verify_finds_an_action_the_rules_refuse(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    play(path, MOVES)
    result = read_log(path)
    assert result.header is not None
    items = list(result.entries[:2])
    prev = items[-1].entry.digest
    bad = Action.of("add", n=7)
    items.append(LoggedEntry(LogEntry(2, 0, bad, prev, LogEntry.chain(prev, 2, 0, bad)),
                             bytes(32)))
    rewrite(path, result.header, items)
    reread = read_log(path)
    assert reread.ok  # the chain is intact: only the rules can tell
    mismatch = verify_log(lambda h: toy_ruleset(), reread)
    assert mismatch is not None and (mismatch.kind, mismatch.index) == ("refused", 2)
    assert "toy.bad" in mismatch.message


def test_verify_with_other_rules(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    play(path, MOVES)
    mismatch = verify_log(lambda h: toy_ruleset("2.0"), read_log(path))
    assert mismatch is not None and mismatch.kind == "rules"
    assert "toy@1.0" in mismatch.message and "toy@2.0" in mismatch.message


def test_verify_without_header() -> None:
    mismatch = verify_log(lambda h: toy_ruleset(), parse_log(b""))
    assert mismatch is not None and mismatch.kind == "no_header"


def test_verify_a_damaged_log_checks_what_is_intact(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    _, _, ends = play(path, MOVES)
    path.write_bytes(path.read_bytes()[: ends[-1] - 1])
    result = read_log(path)
    assert result.problem is not None and verify_log(lambda h: toy_ruleset(), result) is None


def test_replay_rebuilds_the_table_and_describes_each_step(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, _, _ = play(path, MOVES)
    result = read_log(path)
    assert result.header is not None
    seen: list[str] = []
    report = replay_log(toy_ruleset(), result.header, result.entries,
                        on_step=lambda t, item: seen.append(
                            f"#{item.index} {t.describe(item.entry.seat, item.entry.action)}"))
    assert report.mismatch is None and report.applied == len(MOVES)
    assert report.table is not None and report.table.state_hash() == table.state_hash()
    assert report.table.head == table.head
    assert seen[:2] == ["#0 seat 0 adds 1", "#1 seat 1 adds 2"]


def test_module_api() -> None:
    assert set(logfile.__all__) <= set(dir(logfile))

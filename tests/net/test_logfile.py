"""The log file: write, continue, read back, locate damage exactly, replay and verify."""

from __future__ import annotations

import threading
import time
import zlib
from collections.abc import Sequence
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from hedgerow.core.actions import Action
from hedgerow.core.chance import CHANCE_SEAT, Chance, ChanceOutcome, Shuffle, permute
from hedgerow.core.errors import Refusal
from hedgerow.core.game import GameDef, GameSpec, SetupContext
from hedgerow.core.outcome import Outcome, Ranked
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Applied, LogEntry, Table
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
# A tiny game: chance shuffles the deck (entry #0), then seats take turns adding 1..3 of the
# next card's value to a total.

State = tuple[int, int, int, tuple[int, ...]]  # (players, turn, total, deck); turn -1: undealt


def _setup(ctx: SetupContext) -> State:
    return (ctx.players, -1, 0, tuple(range(1, 10)))


def _chance(s: State) -> Chance | None:
    return Chance((Shuffle(len(s[3])),), "shuffle the deck") if s[1] < 0 else None


def _resolve(s: State, outcome: ChanceOutcome) -> State:
    (order,) = outcome
    assert isinstance(order, tuple)
    return (s[0], 0, s[2], permute(s[3], order))


def _active(s: State) -> tuple[int, ...]:
    return () if s[1] < 0 or s[2] >= 1000 or not s[3] else (s[1] % s[0],)


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
    return Ranked(tuple(0 for _ in range(s[0])), tuple(1 for _ in range(s[0])),
                  tuple(range(s[0])), "everyone")


def toy_ruleset(version: str = "1.0") -> Ruleset:
    gamedef = GameDef("toy", _setup, _active, _legal, _apply, lambda s, seat: s, _outcome,
                      lambda s, seat, a: f"seat {seat} adds {a['n']}", chance=_chance,
                      resolve=_resolve)
    spec = GameSpec("toy", "Toy", version, 1, 4, lambda ext: gamedef)
    return Ruleset(spec, (), gamedef)


SEED = bytes(range(32))


def header_for(ruleset: Ruleset, players: int = 2, seed: bytes = SEED) -> LogHeader:
    return LogHeader.for_table(ruleset, players, seed, table_id=b"T" * 16, own_seat=0,
                               seat_names=tuple(f"p{i}" for i in range(players)))


def log_all(table: Table, writer: LogWriter, applied: Sequence[Applied],
            ends: list[int] | None = None) -> None:
    """Append ``applied`` entries with the state hash after each, as a peer seals them."""
    for item in applied:
        writer.append(item.entry, table.hash_of(item.after))
        if ends is not None:
            ends.append(writer.path.stat().st_size)


def add(table: Table, n: int) -> tuple[Applied, ...]:
    result = table.submit(table.active_seats()[0], Action.of("add", n=n))
    assert not isinstance(result, Refusal), result
    return result


def play(path: Path, moves: list[int], players: int = 2) -> tuple[Table, LogHeader, list[int]]:
    """Play ``moves`` (each 1..3) into a new log; the table, header and record end offsets.

    The log holds the deal (chance, entry #0) and then one entry per move."""
    ruleset = toy_ruleset()
    table = Table(ruleset, players, SEED)
    header = header_for(ruleset, players)
    ends: list[int] = []
    with LogWriter(path, header, sync=False) as writer:
        ends.append(path.stat().st_size)
        log_all(table, writer, table.opening, ends)
        for n in moves:
            if not table.active_seats():
                break
            log_all(table, writer, add(table, n), ends)
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
        assert writer.next_index == 4 and writer.head == table.head  # the deal and 3 moves
        for n in MOVES[3:]:
            log_all(table, writer, add(table, n))
    result = read_log(path)
    assert result.ok and [e.entry for e in result.entries] == table.entries
    with LogWriter.resume(path) as writer:
        assert writer.header == header and writer.next_index == 1 + len(MOVES)


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
    table, header, _ = play(path, MOVES[:2])  # entries #0 (the deal), #1, #2
    last = table.entries[-1]
    with LogWriter(path, header, sync=False) as writer:
        size = path.stat().st_size
        with pytest.raises(LogFileError, match="expected entry #3"):
            writer.append(last, bytes(32))
        good = LogEntry(3, 0, Action.of("add", n=1), table.head,
                        LogEntry.chain(table.head, 3, 0, Action.of("add", n=1)))
        with pytest.raises(LogFileError, match="chain"):
            writer.append(LogEntry(3, 0, good.action, bytes(32), good.digest), bytes(32))
        with pytest.raises(LogFileError, match="digest"):
            writer.append(LogEntry(3, 0, good.action, good.prev, bytes(32)), bytes(32))
        with pytest.raises(LogFileError, match="state_hash"):
            writer.append(good, b"short")
        assert path.stat().st_size == size
        writer.append(good, bytes(32))
    assert read_log(path).next_index == 4


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
    # entries #0 (the deal) to #len(MOVES): the last one is torn
    assert str(result.problem) == (f"byte {ends[-2]}, entry #{len(MOVES)}: "
                                   f"the file ends inside a {ends[-1] - ends[-2] - 8}-byte record")
    with LogWriter(path, header, sync=False) as writer:
        assert writer.next_index == len(MOVES)
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
    items = list(result.entries[:2])  # the deal, seat 0's move: seat 1 is next
    prev = items[-1].entry.digest
    bad = Action.of("add", n=7)
    items.append(LoggedEntry(LogEntry(2, 1, bad, prev, LogEntry.chain(prev, 2, 1, bad)),
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
                        on_step=lambda t, a: seen.append(
                            f"#{a.entry.index} {t.describe_entry(a.entry, a.before)}"))
    assert report.mismatch is None and report.applied == 1 + len(MOVES)
    assert report.table is not None and report.table.state_hash() == table.state_hash()
    assert report.table.head == table.head and report.unlogged == ()
    assert seen[:3] == ["#0 chance: shuffle the deck", "#1 seat 0 adds 1", "#2 seat 1 adds 2"]


def test_module_api() -> None:
    assert set(logfile.__all__) <= set(dir(logfile))


# --------------------------------------------------------------------------------------
# Chance entries and simultaneous steps in a log


def test_the_deal_is_entry_zero_a_chance_entry(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, _, _ = play(path, MOVES)
    first = read_log(path).entries[0].entry
    assert first == table.entries[0] and first.seat == CHANCE_SEAT and first.is_chance
    assert first.action.kind == "chance" and first.prev == table.header.genesis


def rechain(items: list[LoggedEntry], start: int) -> list[LoggedEntry]:
    """``items`` with the chain digests recomputed from entry ``start`` on (a forger's log)."""
    out = list(items[:start])
    prev = out[-1].entry.digest if out else items[0].entry.prev
    for item in items[start:]:
        e = item.entry
        entry = LogEntry.after(prev, e.index, e.seat, e.action)
        out.append(LoggedEntry(entry, item.state_hash))
        prev = entry.digest
    return out


def test_verify_finds_a_forged_chance_outcome(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    play(path, MOVES)
    result = read_log(path)
    assert result.header is not None
    items = list(result.entries)
    deal = items[0].entry
    (order,) = deal.action.args[0][1]  # type: ignore[misc]
    swapped = (order[1], order[0], *order[2:])
    forged = Action.of("chance", draws=(swapped,))
    items[0] = LoggedEntry(LogEntry(0, CHANCE_SEAT, forged, deal.prev, deal.digest),
                           items[0].state_hash)
    rewrite(path, result.header, rechain(items, 0))
    reread = read_log(path)
    assert reread.ok  # the chain is intact: only the seed can tell
    mismatch = verify_log(lambda h: toy_ruleset(), reread)
    assert mismatch is not None and (mismatch.kind, mismatch.index) == ("refused", 0)
    assert mismatch.message == f"the logged {forged} is not the chance this table resolves " \
                               f"({deal.action})"


def goofspiel_log(path: Path, steps: int, *, cut: int = 0) -> tuple[Table, LogHeader]:
    """Three seats of Goofspiel: ``steps`` whole rounds (every seat bids its lowest card),
    sealed into a log as a peer does; the last ``cut`` entries are not written."""
    import goofspiel

    from hedgerow.core.pluginhost import PluginHost

    ruleset = PluginHost(autoload=False, extra=[goofspiel]).ruleset("goofspiel", players=3)
    table = Table(ruleset, 3, SEED)
    header = header_for(ruleset, 3)
    applied = list(table.opening)
    for _ in range(steps):
        choices = {s: table.legal_actions(s)[0] for s in table.active_seats()}
        result = table.submit_step(choices)
        assert not isinstance(result, Refusal), result
        applied += result
    with LogWriter(path, header, sync=False) as writer:
        log_all(table, writer, applied[: len(applied) - cut])
    return table, header


def test_a_log_of_simultaneous_steps_replays_whole(tmp_path: Path) -> None:
    path = tmp_path / "goofspiel.hlog"
    table, _ = goofspiel_log(path, 8)
    result = read_log(path)
    seats = [e.entry.seat for e in result.entries]
    assert seats[:9] == [CHANCE_SEAT, 0, 1, 2, CHANCE_SEAT, 0, 1, 2, CHANCE_SEAT]
    assert result.header is not None
    report = replay_log(table.ruleset, result.header, result.entries)
    assert report.mismatch is None and report.applied == len(result.entries) == table.index
    assert report.table is not None and report.table.state_hash() == table.state_hash()
    assert report.table.outcome() is not None


def test_replay_returns_the_chance_the_log_did_not_get_to(tmp_path: Path) -> None:
    """A peer that died after applying a step but before logging the chance after it."""
    path = tmp_path / "goofspiel.hlog"
    table, _ = goofspiel_log(path, 2, cut=1)
    result = read_log(path)
    assert result.header is not None and result.next_index == table.index - 1
    report = replay_log(table.ruleset, result.header, result.entries)
    assert report.mismatch is None and report.applied == table.index - 1
    assert [a.entry for a in report.unlogged] == table.entries[-1:]
    assert report.unlogged[0].entry.is_chance
    assert report.table is not None and report.table.state_hash() == table.state_hash()


def test_a_log_that_ends_inside_a_simultaneous_step_holds_its_entries(tmp_path: Path) -> None:
    path = tmp_path / "goofspiel.hlog"
    table, _ = goofspiel_log(path, 2, cut=2)  # not written: the last step's seat 2, the prize
    result = read_log(path)
    assert result.header is not None
    report = replay_log(table.ruleset, result.header, result.entries)
    assert report.mismatch is None and report.table is not None
    # Entries 0-4 (prize, a step, prize) check out; the last step's seats 0 and 1 are held.
    assert report.applied == 5 and report.table.index == 5 and report.table.following == 2
    assert report.unlogged == ()


# --------------------------------------------------------------------------------------
# Damage in the middle: nothing that verifies is ever cut off, and a log can be recovered


def test_a_length_field_flipped_past_the_end_deletes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, header, ends = play(path, MOVES)
    damaged = bytearray(path.read_bytes())
    damaged[ends[2] + 1] ^= 0x10  # entry #2's length field now points past the end
    path.write_bytes(damaged)
    result = read_log(path)
    assert result.problem is not None and result.problem.kind == "truncated"
    assert not result.problem.at_tail  # intact entries follow: this is no torn tail
    assert [e.entry for e in result.entries] == table.entries[:2]
    assert [e.entry for e in result.salvaged] == table.entries[3:]
    assert str(result.problem).endswith(f"; {len(table.entries) - 3} intact entries follow "
                                        f"(#3 to #{len(table.entries) - 1})")
    for opener in (lambda: LogWriter(path, header), lambda: LogWriter.resume(path)):
        with pytest.raises(LogFileError, match="cannot continue a damaged log"):
            opener()
        assert path.read_bytes() == damaged


@pytest.mark.parametrize("tail", [bytes(16), bytes(64), bytes(9)])
def test_zeros_at_the_end_are_a_torn_tail(tmp_path: Path, tail: bytes) -> None:
    path = tmp_path / "game.hlog"
    table, header, ends = play(path, MOVES)
    path.write_bytes(path.read_bytes() + tail)  # what a power cut can leave
    result = read_log(path)
    assert result.problem is not None and result.problem.at_tail
    assert [e.entry for e in result.entries] == table.entries
    with LogWriter(path, header, sync=False) as writer:
        assert writer.next_index == len(table.entries)
    assert read_log(path).ok and path.stat().st_size == ends[-1]


def test_appended_garbage_is_a_torn_tail(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, _, ends = play(path, MOVES)
    garbage = bytes((i * 97 + 13) % 256 for i in range(300))
    path.write_bytes(path.read_bytes() + garbage)
    result = read_log(path)
    assert result.problem is not None and result.problem.at_tail and not result.salvaged
    assert [e.entry for e in result.entries] == table.entries
    LogWriter.resume(path, sync=False).close()
    assert read_log(path).ok and path.stat().st_size == ends[-1]


def test_every_byte_flip_loses_at_most_the_damaged_entry(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, _, ends = play(path, MOVES)
    data = path.read_bytes()
    for offset in range(ends[0], len(data)):  # every byte of every entry record
        result = parse_log(corrupt(data, offset))
        damaged = max(i for i, end in enumerate(ends) if end <= offset)  # the record hit
        kept = [e.entry for e in result.entries] + [e.entry for e in result.salvaged]
        assert kept == table.entries[:damaged] + table.entries[damaged + 1:], offset
        assert result.problem is not None
        assert result.problem.at_tail == (damaged == len(table.entries) - 1), offset


def test_recover_keeps_the_damaged_copy_and_continues_the_intact_prefix(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, _, ends = play(path, MOVES)
    original = path.read_bytes()
    damaged = corrupt(original, ends[3] + 12)  # inside entry #3's payload
    path.write_bytes(damaged)
    with pytest.raises(LogFileError):
        LogWriter.resume(path)
    writer, aside = LogWriter.recover(path, sync=False)
    with writer:
        assert aside == tmp_path / "game.hlog.damaged"
        assert aside.read_bytes() == damaged  # every entry that verifies is still on disk
        assert writer.next_index == 3 and path.read_bytes() == original[:ends[3]]
        # what catch-up fetches from the other peers goes back in, checked against the chain
        states = table_states(table)
        for entry in table.entries[3:]:
            writer.append(entry, states[entry.index])
    assert path.read_bytes() == original
    assert not (tmp_path / "game.hlog.recovering").exists()
    # a second recovery does not overwrite the first damaged copy
    path.write_bytes(damaged)
    _, again = LogWriter.recover(path, sync=False)
    assert again == tmp_path / "game.hlog.damaged-2" and aside.read_bytes() == damaged


def test_recover_continues_a_sound_log_as_resume_does(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    table, _, ends = play(path, MOVES)
    path.write_bytes(path.read_bytes()[: ends[-1] - 5])  # a torn last record
    writer, aside = LogWriter.recover(path, sync=False)
    writer.close()
    assert aside is None and writer.next_index == len(table.entries) - 1
    assert list(tmp_path.iterdir()) == [path]


def table_states(table: Table) -> dict[int, bytes]:
    """The state hash after each of ``table``'s entries, by replaying its log."""
    replayed = Table(table.ruleset, table.players, SEED)
    states = {a.entry.index: replayed.hash_of(a.after) for a in replayed.opening}
    for entry in table.entries[len(states):]:
        for applied in replayed.follow(entry.index, entry.seat, entry.action, prev=entry.prev):
            states[applied.entry.index] = replayed.hash_of(applied.after)
    return states


def test_a_damaged_header_with_entries_after_it_is_not_a_torn_new_log(tmp_path: Path) -> None:
    # Found by tests/reliability/damage.py: a byte flipped in the header record was taken
    # for a log that died while writing its header, and `LogWriter(path, header)` started
    # the file again over every intact entry.
    path = tmp_path / "game.hlog"
    table, header, _ = play(path, MOVES)
    damaged = corrupt(path.read_bytes(), len(MAGIC) + 20)  # inside the header's payload
    path.write_bytes(damaged)
    result = read_log(path)
    assert result.header is None and result.problem is not None
    assert (result.problem.kind, result.problem.offset) == ("bad_crc", len(MAGIC))
    assert not result.problem.at_tail
    assert [e.entry for e in result.salvaged] == table.entries
    assert str(result.problem).endswith(f"{len(table.entries)} intact entries follow "
                                        f"(#0 to #{len(table.entries) - 1})")
    for opener in (lambda: LogWriter(path, header, sync=False),
                   lambda: LogWriter.recover(path, sync=False)):
        with pytest.raises(LogFileError, match="cannot continue"):
            opener()
        assert path.read_bytes() == damaged


def test_a_header_cut_short_is_still_a_torn_new_log(tmp_path: Path) -> None:
    path = tmp_path / "game.hlog"
    _, header, ends = play(path, MOVES)
    path.write_bytes(path.read_bytes()[:ends[0] - 3])
    assert read_log(path).problem.at_tail  # type: ignore[union-attr]
    with LogWriter(path, header, sync=False):
        pass
    assert read_log(path).ok and path.stat().st_size == ends[0]


def fsynced_records(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sync: object,
                    own_seat: int | None) -> tuple[list[str], Table]:
    """What each fsync of a game's log followed: ``header``, ``#i by seat s``, ``close``."""
    calls: list[str] = []
    last = ["header"]
    monkeypatch.setattr(logfile.os, "fsync", lambda fd: calls.append(last[0]))
    ruleset = toy_ruleset()
    table = Table(ruleset, 3, SEED)
    header = LogHeader.for_table(ruleset, 3, SEED, table_id=b"T" * 16, own_seat=own_seat)
    writer = LogWriter(tmp_path / "game.hlog", header, sync=sync)  # type: ignore[arg-type]
    applied = list(table.opening)
    for n in MOVES:
        applied += add(table, n)
    for item in applied:
        last[0] = f"#{item.entry.index} by {item.entry.seat}"
        writer.append(item.entry, table.hash_of(item.after))
    last[0] = "close"
    writer.close()
    return calls, table


def test_the_default_fsync_policy_syncs_this_seats_own_entries_and_the_ends(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    calls, table = fsynced_records(tmp_path, monkeypatch, logfile.SYNC_OWN, 1)
    own = [f"#{e.index} by 1" for e in table.entries if e.seat == 1]
    assert len(own) >= 2
    # the file and its directory entry, seat 1's entries and nothing else, the end
    assert calls == ["header", "header", *own, "close"]


@pytest.mark.parametrize(("sync", "own_seat", "every"), [(True, 1, True), ("always", 1, True),
                                                         (False, 1, False), ("never", 1, False),
                                                         ("own", None, False)])
def test_the_other_fsync_policies(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sync: object,
                                  own_seat: int | None, every: bool) -> None:
    calls, table = fsynced_records(tmp_path, monkeypatch, sync, own_seat)
    if sync in (False, "never"):
        assert calls == []
    elif every:
        entries = [f"#{e.index} by {e.seat}" for e in table.entries]
        assert calls == ["header", "header", *entries, "close"]
    else:  # a simulation's log (no own seat): only the file and the end
        assert calls == ["header", "header", "close"]


def test_a_background_writer_fsyncs_off_the_callers_thread_and_close_waits_for_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What a live peer writes with (`LogWriter` ``background``): its own entries are
    fsynced by the writer's thread, so a slow disk never holds up the caller; the header
    and the end are fsynced before the call returns, and close waits for the rest."""
    calls: list[str] = []
    disk = threading.Event()  # a slow disk: an fsync takes until this is set
    slow = [False]

    def fsync(fd: int) -> None:
        if slow[0]:
            disk.wait(10)
        calls.append(threading.current_thread().name)

    monkeypatch.setattr(logfile.os, "fsync", fsync)
    ruleset = toy_ruleset()
    table = Table(ruleset, 3, SEED)
    header = LogHeader.for_table(ruleset, 3, SEED, table_id=b"T" * 16, own_seat=1)
    path = tmp_path / "game.hlog"
    writer = LogWriter(path, header, background=True)
    assert calls == ["MainThread", "MainThread"]  # the file and its directory entry
    slow[0] = True
    applied = list(table.opening)
    for n in MOVES:
        applied += add(table, n)
    started = time.monotonic()
    for item in applied:
        writer.append(item.entry, table.hash_of(item.after))
    assert time.monotonic() - started < 5  # no append waited for the disk
    assert read_log(path).entries == tuple(
        LoggedEntry(a.entry, table.hash_of(a.after)) for a in applied)  # flushed already
    disk.set()
    writer.close()
    assert calls[-1] == "MainThread"  # the end, once the background ones are done
    assert "hedgerow-log-fsync" in calls[2:-1] and set(calls[2:-1]) == {"hedgerow-log-fsync"}


def test_an_unknown_fsync_policy_is_refused_before_any_file_is_made(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown fsync policy 'sometimes'"):
        LogWriter(tmp_path / "game.hlog", header_for(toy_ruleset()), sync="sometimes")
    assert list(tmp_path.iterdir()) == []


class Filling:
    """A log file on a disk with ``room`` bytes left: a write takes what fits, the next one
    fails with ``ENOSPC``, as a full partition's does (the rest is the real file's)."""

    def __init__(self, file: object, room: int) -> None:
        self._file, self.room = file, room

    def write(self, data: bytes) -> int:
        import errno

        if self.room <= 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        taken = min(len(data), self.room)
        self.room -= taken
        return self._file.write(bytes(data[:taken]))  # type: ignore[attr-defined]

    def __getattr__(self, name: str) -> object:
        return getattr(self._file, name)


@pytest.mark.parametrize("background", [False, True])
@pytest.mark.parametrize("told", [False, True])
def test_a_full_disk_leaves_the_log_whole_up_to_its_last_record(tmp_path: Path, told: bool,
                                                              background: bool) -> None:
    """A record the disk cannot take is not half-written: the file is cut back to the
    records before it and closed; the writer says why (``failed``), and tells its
    ``on_failure`` once, or raises `LogFileError` when nobody listens."""
    path = tmp_path / "game.hlog"
    ruleset = toy_ruleset()
    table = Table(ruleset, 2, SEED)
    header = header_for(ruleset, 2)
    writer = LogWriter(path, header, sync="always" if background else False,
                       background=background)
    heard: list[str] = []
    if told:
        writer.on_failure = heard.append
    log_all(table, writer, table.opening)
    log_all(table, writer, add(table, 1))
    kept = path.stat().st_size
    writer._file = Filling(writer._file, 5)  # type: ignore[assignment]  # 5 bytes of room
    applied = add(table, 2)
    if told:
        log_all(table, writer, applied)
        assert heard == ["No space left on device"]
    else:
        with pytest.raises(LogFileError, match="cannot write: No space left on device"):
            log_all(table, writer, applied)
    assert writer.closed and writer.failed == "No space left on device"
    assert path.stat().st_size == kept  # the 5 bytes it took are cut off again
    result = read_log(path)
    assert result.ok and [e.entry for e in result.entries] == table.entries[:2]
    writer.close()  # (closing again is harmless)
    with LogWriter(path, header, sync=False) as again:  # room again: it goes on from there
        assert again.next_index == 2
        log_all(table, again, applied)
    assert [e.entry for e in read_log(path).entries] == table.entries


# --------------------------------------------------------------------------------------
# A rollback (docs/protocol.md §5.9, §6): a seat cut off at its own turn takes back its own
# entries nobody else applied


def test_a_rollback_record_voids_the_entries_before_it_and_the_log_goes_on(tmp_path: Path
                                                                           ) -> None:
    from hedgerow.net.messages import SeatEvent, SeatEventKind

    path = tmp_path / "t.hlog"
    play(path, [1, 2, 3])  # the deal and three moves: entries #0..#3
    void = read_log(path).entries[3]
    # The table's own #3 is another move: rebuild the table to #3 and play it.
    other = Table(toy_ruleset(), 2, SEED)
    for item in read_log(path).entries[1:3]:
        assert not isinstance(other.follow(item.entry.index, item.entry.seat,
                                           item.entry.action), Refusal)
    with LogWriter.resume(path, sync=False) as writer:
        writer.roll_back(SeatEvent(SeatEventKind.ROLLBACK, 0, 1, "random", 3),
                         read_log(path).entries[2].entry.digest)
        assert writer.next_index == 3
        log_all(other, writer, add(other, 2))
    result = read_log(path)
    assert result.ok, result.problem
    assert [e.entry.index for e in result.entries] == [0, 1, 2, 3]
    assert result.entries[3].entry.action == Action.of("add", n=2) != void.entry.action
    assert [e.kind for e in result.events] == [SeatEventKind.ROLLBACK]
    assert void.entry.digest in path.read_bytes()  # nothing written is lost
    assert verify_log(lambda h: toy_ruleset(), result) is None
    # A writer continuing the file continues after the rollback.
    with LogWriter.resume(path, sync=False) as writer:
        assert writer.next_index == 4
    # A rollback past the entries read is damage, and so is a writer asked for one.
    with LogWriter.resume(path, sync=False) as writer, pytest.raises(LogFileError):
        writer.roll_back(SeatEvent(SeatEventKind.ROLLBACK, 0, 1, "random", 9), b"")
    with open(path, "ab") as f:
        f.write(frame(SeatEvent(SeatEventKind.ROLLBACK, 0, 1, "random", 7)))  # type: ignore[arg-type]
    damaged = read_log(path)
    assert damaged.problem is not None and damaged.problem.kind == "bad_index"
    assert len(damaged.entries) == 4

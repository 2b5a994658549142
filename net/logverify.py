"""Verifying any table log, open or sealed: what `hedgerow replay` and the tests call.

An open table's log replays from its seed (`hedgerow.net.logfile.replay_log`).  A sealed
table's log (docs/protocol.md §10) replays from its records (`hedgerow.net.sealreplay`,
watching: no secret of its own), and once every party's secret is disclosed in it, the
whole game is verified — every shuffle, key and action (`hedgerow.net.sealverify`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from hedgerow.core.ruleset import Ruleset
from hedgerow.core.table import Applied, Table
from hedgerow.net.logfile import LogHeader, LogReadResult, Mismatch, replay_log
from hedgerow.net.sealreplay import is_sealed, replay_sealed
from hedgerow.net.sealverify import Verdict, Watch


@dataclass(frozen=True, slots=True)
class Replayed:
    """A log replayed: the table (None when it could not be built), how many entries checked
    out, the first mismatch, for a sealed log the verdict of its disclosed secrets (None
    while some party's secret is missing from the log), and ``state_hash``: the hash after
    the last entry that checked out, as its players reported it (before any entry, the
    initial state's; None without a table).  At a sealed table that is the public state at
    the entry's resting point (docs/protocol.md §10.4), which ``table.reported_hash()`` is
    not when the log ends after cards opened for a next entry it lacks (a public reveal
    round, §10.7)."""

    table: Table | None
    applied: int
    mismatch: Mismatch | None
    sealed: bool = False
    verdict: Verdict | None = None
    state_hash: bytes | None = None


def replay(ruleset: Ruleset, result: LogReadResult, *,
           on_step: Callable[[Table, Applied], None] | None = None,
           watch: Watch | None = None) -> Replayed:
    """Replay the log ``result`` with ``ruleset`` (see the module docstring).  ``watch``:
    for a sealed log, called before each seat's action as the verification replays it with
    every card known (`hedgerow.net.sealverify.verify`)."""
    header = result.header
    assert header is not None
    if not is_sealed(result):
        last: list[Applied] = []

        def step(table: Table, applied: Applied) -> None:
            last[:] = [applied]
            if on_step is not None:
                on_step(table, applied)

        report = replay_log(ruleset, header, result.entries, on_step=step)
        done = report.table
        return Replayed(done, report.applied, report.mismatch, state_hash=None if done is None
                        else done.entry_hash(last[0].entry, last[0].after) if last
                        else done.reported_hash())
    if ruleset.fingerprint != header.fingerprint:
        return Replayed(None, 0, Mismatch("rules", None, f"the log was played with "
                                          f"{header.fingerprint}, but these rules are "
                                          f"{ruleset.fingerprint}"), True)
    sealed = replay_sealed(ruleset, result, parties=header.players,
                           party_of=lambda seat: seat)
    if sealed.table is not None and on_step is not None:
        for applied in sealed.history:
            on_step(sealed.table, applied)
    verdict = None
    sealing = sealed.sealing
    if sealed.mismatch is None and sealing is not None and sealing.all_disclosed:
        verdict = sealing.verdict(watch)
    table = sealed.table
    state_hash = None if sealing is None or table is None else \
        sealing.hash_after(sealed.history[-1]) if sealed.history else table.reported_hash()
    return Replayed(sealed.table, sealed.applied, sealed.mismatch, True, verdict, state_hash)


def verify(ruleset_factory: Callable[[LogHeader], Ruleset], result: LogReadResult
           ) -> Mismatch | None:
    """Replay every intact entry of ``result``; the first `Mismatch` (a sealed log whose
    verification names a fault counts as one), or None."""
    if result.header is None:
        return Mismatch("no_header", None, f"no log header to replay from ({result.problem})")
    done = replay(ruleset_factory(result.header), result)
    if done.mismatch is not None:
        return done.mismatch
    if done.verdict is not None and not done.verdict.ok:
        return Mismatch("verdict", None, done.verdict.message)
    return None

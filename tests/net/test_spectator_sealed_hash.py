"""A spectator of a sealed table checks, and shows, the state hash the players report after
each entry: the public state at the entry's resting point (docs/protocol.md §3.4, §10.4),
whatever the stream brought since.

The host streams its log's records in file order (§3.4).  Cards opened to every seat for
the *next* entry (Mandala's take reads the hidden tiles, §10.7) come in that stream before
that entry, and, when the host sealed its last entry late (beside load), before the entry
they followed.  So a spectator's table may hold cards that no hash of its last entry covers:

* when it *checks* an entry (the host sealed it late: `seal_late`, deterministically), the
  cards read for the next entry are already in its table, and the check must not count
  them (a false ``state_hash`` mismatch would stop the watch);
* when it *shows* the hash after its last entry (``LiveTable.state_hash``: ``hedgerow watch
  --json`` prints it), between a read round's cards and the entry that read them, the hash
  must be the one the players reported, not one of the table's state at that moment.

Before the fix ``LiveTable.state_hash`` hashed its table's state as it was: a hash no player
reported after about a third of the records (between each read round and its take), in
every game, with the host sealing late or not (10 runs of 10 failed); the checks were right
(`SealedFollower` hashes the resting point since f820162).

Real peers over CURVE in one process (tests/departing.py), a real spectator
(`hedgerow.net.watching.Spectator`) whose `LiveTable` is looked at after every record it
takes; random bots, Mandala, whole games until both moments were seen.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest
from departing import WAIT, close_all, fast, run, sealed_table
from latesealing import play_out, seal_late

from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.sealedtable import SealedTable
from hedgerow.net import watching
from hedgerow.net.address import parse_address
from hedgerow.net.keys import generate
from hedgerow.net.livetable import LiveTable, Record
from hedgerow.net.messages import LoggedEntry
from hedgerow.net.watching import Spectator

GAMES = 6


@dataclass
class Seen:
    """What the spectators' tables did, record by record."""

    looks: int = 0  # records taken with an entry checked before them
    ahead: int = 0  # ... while the table held cards no hash of its last entry covers
    checked_ahead: int = 0  # entries checked with such cards already in the table
    wrong: list[str] = field(default_factory=list)  # a hash shown that was not the players'
    behind: int = 0  # looks with entries applied past the last checked one (late records)
    rest_cards: int = 0  # ... that entry's resting point showing cards to all
    wrong_state: list[str] = field(default_factory=list)  # a state not at that rest


class Checked(LiveTable):
    """A spectator's `LiveTable` that, after every record, compares the hash it shows with
    the one the host logged for its last checked entry (what every player reported), and,
    while entries wait behind their records, the state it shows with that entry's resting
    point."""

    seen = Seen()

    def __init__(self, *args: Any) -> None:
        self.logged: dict[int, bytes] = {}  # the hash the host logged after each entry
        super().__init__(*args)

    def add(self, record: Record) -> None:
        checked = len(self.history)
        super().add(record)
        if isinstance(record, LoggedEntry):
            self.logged[record.index] = record.state_hash
        table, follower = self.table, self._follower
        if self.mismatch is not None or not self.history or table is None:
            return
        assert isinstance(table, SealedTable) and follower is not None
        assert follower.sealing is not None
        last = self.history[-1]
        seen = self.seen
        seen.looks += 1
        at_rest = follower.sealing.state_after(last)
        ahead = last.entry.index == table.index - 1 and \
            table.hash_of(table.state) != table.hash_of(at_rest)
        seen.ahead += ahead
        seen.checked_ahead += ahead and len(self.history) > checked
        shown, logged = self.state_hash(), self.logged[last.entry.index]
        where = f"after entry #{last.entry.index} (table at #{table.index})"
        if shown != logged:
            seen.wrong.append(f"{where}: {shown.hex() if shown else None}, the players' "
                              f"{logged.hex()}")
        if last.entry.index < table.index - 1:
            seen.behind += 1
            seen.rest_cards += table.hash_of(at_rest) != table.hash_of(last.after)
            if table.hash_of(self.state()) != table.hash_of(at_rest):
                seen.wrong_state.append(where)


async def watched_game(game: str) -> None:
    """A sealed two-seat game of ``game`` to its end, its host sealing late, watched from
    the seating by a spectator that ends on the players' hash and outcome."""
    peers = await sealed_table(game, (), 2)
    fast(peers)
    host = peers[0]
    watcher = Spectator(generate(), PluginHost(), name="Watcher")
    await watcher.watch(parse_address(host.address))
    try:
        for p in peers:
            assert await p.wait_until(lambda p=p: p.ready, WAIT)
        seal_late(host, [])  # the stream: a read round's keys before the entry
        await play_out(peers, 3 * WAIT)

        def caught_up() -> bool:
            live = watcher.live
            return live is not None and (live.mismatch is not None
                                         or len(live.history) == host.index)
        assert await watcher.wait_until(caught_up, WAIT)
        live = watcher.live
        assert live is not None
        assert live.mismatch is None, live.mismatch
        assert live.state_hash() == host.state_hash() == peers[1].state_hash()
        assert live.table is not None and live.table.outcome() == host.outcome()
    finally:
        await watcher.close()
        await close_all(peers)


def watch_until(game: str, tested: Callable[[Seen], bool], what: str) -> None:
    """Watch games of ``game`` until ``tested`` says the moment came (at most `GAMES`);
    every look right."""
    seen = Checked.seen = Seen()

    async def main() -> None:
        for _ in range(GAMES):
            await watched_game(game)
            assert not seen.wrong, (f"{len(seen.wrong)} of {seen.looks} looks showed "
                                    f"another hash than the players': {seen.wrong[:3]}")
            assert not seen.wrong_state, (f"{len(seen.wrong_state)} of {seen.behind} looks "
                                          f"behind showed another state than the last "
                                          f"checked entry's rest: {seen.wrong_state[:3]}")
            if tested(seen):
                return
        raise AssertionError(f"in {GAMES} games of {game} the spectator never {what} "
                             f"({seen}): the test did not test it")

    run(main())


def test_a_spectator_of_a_late_sealing_host_checks_and_shows_the_players_hash(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(watching, "LiveTable", Checked)
    watch_until("mandala", lambda seen: bool(seen.ahead and seen.checked_ahead),
                "held a read round's cards")


def test_a_spectator_behind_a_late_sealing_host_shows_the_last_checked_entry_at_rest(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Flowers shows cards to all at a resting point (Mandala's rests show none): while
    entries wait behind their records, the state shown is the last checked entry's with
    those faces, as each seat saw it, not the entry's bare state with their tokens."""
    monkeypatch.setattr(watching, "LiveTable", Checked)
    watch_until("flowers", lambda seen: seen.rest_cards > 0,
                "was behind an entry whose rest showed cards to all")

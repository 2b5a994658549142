"""What a curious spectator can learn from everything it was sent (docs/protocol.md §3.4,
§10): shared by tests/net/test_spectators.py (peers in one process) and
tests/e2e/test_net_spectators.py (a spectator process that writes down every frame).

`check_curious` takes the raw frames a spectator received, decodes every feed's records and
does with them what the spectator's own code could do: replay them as a log with no secret
(`replay_sealed`, which opens every card it holds every party's key for).  It checks that
no record is a key meant for one seat or a disclosed secret, and that no card any seat
holds, other than the cards shown to everyone, has every party's key in what was sent (a
masked card point without one key fits every card alike).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from hedgerow.core.ruleset import Ruleset
from hedgerow.net.codec import decode_envelope, decode_log_record
from hedgerow.net.logfile import LogReadResult
from hedgerow.net.messages import LoggedEntry, LogHeader, SealRecord, SeatEvent, SpectatorFeed
from hedgerow.net.sealreplay import replay_sealed


def check_curious(frames: Iterable[bytes], ruleset: Ruleset, players: int, *,
                  hands: bool) -> int:
    """See the module docstring (``hands``: the seats hold cards now, which must stay
    sealed); the number of cards checked."""
    records: list[Any] = []
    for data in frames:
        body = decode_envelope(data).body
        if isinstance(body, SpectatorFeed):
            records += [decode_log_record(r) for r in body.records]
    seals = [r for r in records if isinstance(r, SealRecord)]
    assert seals and all(r.disclose is None for r in seals)  # no secret
    assert all(r.keys is None or r.keys.public for r in seals)  # no key for one seat
    header = next(r for r in records if isinstance(r, LogHeader))
    entries = tuple(r for r in records if isinstance(r, LoggedEntry))
    ordered: list[tuple[int, SealRecord]] = []
    count = 0
    for r in records:
        if isinstance(r, LoggedEntry):
            count += 1
        elif isinstance(r, SealRecord):
            ordered.append((count, r))
    events = tuple(r for r in records if isinstance(r, SeatEvent))
    result = LogReadResult(header, entries, None, 0, (), events, tuple(ordered))
    replayed = replay_sealed(ruleset, result, parties=players, party_of=lambda seat: seat)
    assert replayed.mismatch is None and replayed.table is not None
    table, sealing = replayed.table, replayed.sealing
    assert sealing is not None and not sealing.disclosed
    hidden = {k for seat in range(players) for k in table.seen_by(seat)
              if k not in table.public}
    if hands:  # hands were dealt, and every seat's stays sealed (at least one card of it)
        assert all(table.seen_by(seat) - table.public.keys() for seat in range(players))
    for card in hidden:
        assert len(sealing._keys_for(card)) < players, card
    return len(hidden)

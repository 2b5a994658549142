"""The commit-reveal round that gives a table its seed, as a pure state machine.

Every seat draws a 32-byte share and sends ``SeedCommit(seat, commitment(share))`` to every
other peer.  Once a peer holds every seat's commitment it sends ``SeedReveal(seat, share)``.
Once it holds every reveal, each checked against its commitment, the seed is
``table_seed(shares in seat order)`` (`hedgerow.core.seeding`).  The network layer feeds
the messages in (in any order, with repeats) and asks what to do next.
"""

from __future__ import annotations

import secrets

from hedgerow.core.seeding import SHARE_SIZE, commitment, table_seed, verify_reveal


class SeedRoundError(Exception):
    """A commit or reveal that breaks the round.

    ``fatal`` is True when a share does not match its commitment (the table cannot agree
    on a seed), False for a repeated message that differs from the first (which stands).
    """

    def __init__(self, seat: int, message: str, *, fatal: bool = False) -> None:
        super().__init__(message)
        self.seat = seat
        self.message = message
        self.fatal = fatal


class SeedRound:
    """One table's seed agreement, seen from ``own_seat``."""

    def __init__(self, players: int, own_seat: int, share: bytes | None = None) -> None:
        self.players = players
        self.own_seat = own_seat
        self.share = share if share is not None else secrets.token_bytes(SHARE_SIZE)
        self.commits: dict[int, bytes] = {own_seat: commitment(self.share)}
        self.reveals: dict[int, bytes] = {}

    @property
    def own_commitment(self) -> bytes:
        """What this seat sends in its SeedCommit."""
        return self.commits[self.own_seat]

    def commit(self, seat: int, value: bytes) -> None:
        """Record ``seat``'s commitment; a repeat must be identical."""
        old = self.commits.setdefault(seat, value)
        if old != value:
            raise SeedRoundError(seat, f"seat {seat} sent two different seed commitments")
        self._check(seat)

    @property
    def all_committed(self) -> bool:
        """True once every seat's commitment is in (this seat may reveal)."""
        return len(self.commits) == self.players

    def reveal(self, seat: int, share: bytes) -> None:
        """Record ``seat``'s share; it is checked once the commitment is known."""
        old = self.reveals.get(seat)
        if old is not None and old != share:
            raise SeedRoundError(seat, f"seat {seat} revealed two different seed shares")
        self._check(seat, share)
        self.reveals[seat] = share

    def _check(self, seat: int, share: bytes | None = None) -> None:
        commit, share = self.commits.get(seat), share or self.reveals.get(seat)
        if commit is not None and share is not None and not verify_reveal(commit, share):
            raise SeedRoundError(seat, f"seat {seat}'s seed share does not match its commitment",
                                 fatal=True)

    def seed(self) -> bytes | None:
        """The table seed once every share is in and verified, else None."""
        if not self.all_committed or len(self.reveals) < self.players:
            return None
        for seat in range(self.players):
            self._check(seat)
        return table_seed([self.reveals[s] for s in range(self.players)])

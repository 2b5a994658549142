"""Who sits where at a table, and how each seat's link is: the roster as one peer sees it.

A `Member` is one seated peer: its `PeerInfo` (seat, public key, address, name), its link
(`Link`), when it was last heard from and the log length it last announced.  `Roster`
indexes members by seat and by key and turns itself into `SeatInfo` rows for the clients.
`Takeovers` says who authors each seat's actions now: the seat's own peer, or the runner
of a takeover in force (docs/protocol.md §5.9).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field, replace

from hedgerow.net.messages import LeaveReason, PeerInfo
from hedgerow.net.seat import Link, SeatInfo


@dataclass(slots=True)
class Member:
    """One seated peer and the state of our link with it."""

    info: PeerInfo
    link: Link = Link.CONNECTED
    last_seen: float = 0.0
    next_index: int = 0  # the log length it last announced (Heartbeat)
    seq: int = 0  # the seq of the last envelope it sent us (our Heartbeat's SealHeld.seen)
    seen: int | None = None  # the seq of our last envelope it had (its SealHeld.seen), if said
    bot_name: str | None = field(default=None)
    left_why: LeaveReason | None = None  # what its Leave said, once it left

    @property
    def seat(self) -> int:
        """Its seat."""
        return self.info.seat

    @property
    def key(self) -> bytes:
        """Its public key (its identity)."""
        return self.info.public_key

    def label(self) -> str:
        """``seat N (name)`` for messages and log lines."""
        name = self.info.display_name
        return f"seat {self.seat} ({name})" if name else f"seat {self.seat}"


class Roster:
    """The seated peers of one table, this peer included."""

    def __init__(self, players: int, own_key: bytes) -> None:
        self.players = players
        self.own_key = own_key
        self._by_seat: dict[int, Member] = {}
        self._by_key: dict[bytes, Member] = {}

    def __iter__(self) -> Iterator[Member]:
        return iter(sorted(self._by_seat.values(), key=lambda m: m.seat))

    def __len__(self) -> int:
        return len(self._by_seat)

    @property
    def full(self) -> bool:
        """True when every seat is taken."""
        return len(self._by_seat) == self.players

    def others(self) -> list[Member]:
        """Every member but this peer, by seat."""
        return [m for m in self if m.key != self.own_key]

    def by_key(self, key: bytes) -> Member | None:
        """The member whose public key is ``key``."""
        return self._by_key.get(key)

    def seats_of(self, key: bytes) -> tuple[int, ...]:
        """The seats held by the peer of ``key``, ascending."""
        return tuple(sorted(m.seat for m in self._by_seat.values() if m.key == key))

    def by_seat(self, seat: int) -> Member | None:
        """The member in ``seat``."""
        return self._by_seat.get(seat)

    def free_seat(self, wanted: int | None = None) -> int | None:
        """``wanted`` if it is free, else the lowest free seat; None when the table is full."""
        if wanted is not None:
            return wanted if wanted not in self._by_seat and 0 <= wanted < self.players else None
        return next((s for s in range(self.players) if s not in self._by_seat), None)

    def add(self, info: PeerInfo, now: float, bot: str | None = None) -> Member:
        """Seat ``info`` (replacing whoever held that seat or that key)."""
        self.remove(info.seat)
        old = self._by_key.get(info.public_key)
        if old is not None:
            self.remove(old.seat)
        member = Member(info, last_seen=now, bot_name=bot)
        self._by_seat[info.seat] = member
        self._by_key[info.public_key] = member
        return member

    def remove(self, seat: int) -> None:
        """Free ``seat``."""
        member = self._by_seat.pop(seat, None)
        if member is not None:
            self._by_key.pop(member.key, None)

    def update(self, peers: tuple[PeerInfo, ...], now: float) -> tuple[list[Member], list[int]]:
        """Make the roster match a host's list: (members added or moved, seats freed)."""
        changed: list[Member] = []
        wanted = {p.seat: p for p in peers}
        freed = [s for s in list(self._by_seat) if s not in wanted]
        for seat in freed:
            self.remove(seat)
        for info in peers:
            current = self._by_seat.get(info.seat)
            if current is None or current.key != info.public_key:
                changed.append(self.add(info, now, "bot" if info.bot else None))
            elif current.info != info:
                current.info = info
                changed.append(current)
        return changed, freed

    def set_address(self, member: Member, address: str) -> None:
        """``member`` now listens at ``address``."""
        member.info = replace(member.info, address=address)

    def peer_infos(self) -> tuple[PeerInfo, ...]:
        """The roster as a `SeatAssignment` lists it."""
        return tuple(m.info for m in self)

    def seat_infos(self, own_seat: int | None) -> list[SeatInfo]:
        """One `SeatInfo` per seat, for `Seat.seats`."""
        rows = []
        for seat in range(self.players):
            m = self._by_seat.get(seat)
            if m is None:
                rows.append(SeatInfo(seat, "", Link.WAITING))
            else:
                link = Link.YOU if seat == own_seat else m.link
                why = "" if m.left_why is None else m.left_why.name.lower()
                rows.append(SeatInfo(seat, m.info.display_name, link, m.bot_name, why))
        return rows


@dataclass(frozen=True, slots=True)
class Takeover:
    """A takeover in force: ``runner``'s peer runs ``bot`` for the seat since entry ``index``."""

    seat: int
    runner: int
    bot: str
    index: int


class Takeovers:
    """The takeovers in force at this table, by seat: what `hedgerow.net.departures` agrees
    on and play (`hedgerow.net.sync.Sync`) checks every action's author against."""

    def __init__(self) -> None:
        self.runs: dict[int, Takeover] = {}

    def author_of(self, seat: int) -> int:
        """The seat whose peer authors ``seat``'s actions now (its own, unless taken over)."""
        takeover = self.runs.get(seat)
        return seat if takeover is None else takeover.runner

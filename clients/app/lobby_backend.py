"""The lobby's network: what it needs (`Backend`) and the real one (`NetBackend`).

`NetBackend` reaches LAN discovery (`hedgerow.net.discovery`), opens and joins tables
(`hedgerow.net.launch`) and starts bot peers (`hedgerow.clients.spawn`); tests give the
lobby a backend of their own.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from hedgerow.core.errors import HedgerowError
from hedgerow.net.seat import Seat

log = logging.getLogger("hedgerow.client")


class Backend(Protocol):
    """What the lobby needs from the network."""

    def tables(self) -> Sequence[Any]:
        """The open tables seen on the LAN (`hedgerow.net.discovery.TableAd`)."""

    async def start(self, changed: Callable[[], None]) -> None:
        """Start looking for tables; call ``changed()`` when the list changes."""

    async def create(self, ruleset: Any, players: int, *, name: str, seat_name: str,
                     open_deck: bool = False, spectators: bool = True) -> Seat:
        """Open a table and take seat 0 (its deck sealed unless ``open_deck``; watched by
        spectators unless not ``spectators``)."""

    async def join(self, address: str, *, seat_name: str) -> Seat:
        """Take a seat at the table at ``address``."""

    def add_bots(self, seat: Seat, strategies: Sequence[str]) -> None:
        """Start bot peers that join ``seat``'s table."""

    async def close(self) -> None:
        """Stop looking and stop every bot started here."""


class NetBackend:
    """The real network: `hedgerow.net.launch` and LAN discovery."""

    def __init__(self, key_file: str | None = None) -> None:
        self.key_file = key_file  # --as NAME or --key-file; None: the user's own key
        self._browser: Any = None
        self._procs: list[Any] = []
        self._bots = 0

    def tables(self) -> Sequence[Any]:
        """Tables seen so far."""
        return self._browser.tables() if self._browser is not None else []

    async def start(self, changed: Callable[[], None]) -> None:
        """Browse the LAN (quietly does nothing when discovery is off or impossible)."""
        from hedgerow.net.discovery import Browser

        browser = Browser()
        try:
            await browser.start()
        except HedgerowError as exc:
            log.warning("%s", exc)
            return
        browser.on_change(lambda _tables: changed())
        self._browser = browser

    async def create(self, ruleset: Any, players: int, *, name: str, seat_name: str,
                     open_deck: bool = False, spectators: bool = True) -> Seat:
        """Open a table on every interface, announced on the LAN."""
        from hedgerow.net.launch import host_table

        return await host_table(ruleset, players, name=name, bind="0.0.0.0",
                                seat_name=seat_name, key_file=self.key_file,
                                open_deck=open_deck, spectators=spectators)

    async def join(self, address: str, *, seat_name: str) -> Seat:
        """Join by address (``HOST:PORT/KEY``): a host name must resolve, and a table of this
        user's own identity is joined as another local player (`prepare_join`)."""
        from hedgerow.clients.joining import prepare_join
        from hedgerow.net.launch import join_table

        where, joiner = await prepare_join(address, seat_name=seat_name, key_file=self.key_file)
        if joiner.note:
            log.warning("%s", joiner.note)
        return await join_table(where, seat_name=joiner.seat_name, key_file=joiner.key_file)

    def add_bots(self, seat: Seat, strategies: Sequence[str]) -> None:
        """Bot peer processes that join the table, each with an identity of its own.

        `spawn_bot_peers` numbers the bots of one call from ``first`` (their key files and
        names), so bots added later get the next numbers: two bots with one identity would
        take one seat.
        """
        from hedgerow.clients.spawn import spawn_bot_peers

        address = seat.address
        if not address:
            raise HedgerowError("this seat has no address for bots to join")
        for strategy in strategies:
            self._bots += 1
            self._procs += spawn_bot_peers(address, [strategy], first=self._bots)

    async def close(self) -> None:
        """Stop browsing and stop the bots."""
        if self._browser is not None:
            await self._browser.close()
        from hedgerow.clients.spawn import stop_processes

        stop_processes(self._procs)
        self._procs = []

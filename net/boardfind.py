"""Board services found on the LAN: announced and browsed as DNS-SD ``_hedgerow-board._tcp``.

Every machine that shares the leaderboard (docs/leaderboard.md) runs a board service while
Hedgerow runs there (``hedgerow leaderboard``, a solo board game of ``hedgerow play``), and
announces it as one DNS-SD service of its own type, so table listings never see it:

=========  ==================================================================
``proto``  the board protocol version (decimal, `BOARD_PROTOCOL`)
``key``    the service's public key (43 characters of base64url): its CURVE
           server key, which is also its user's player key
=========  ==================================================================

The SRV and A records give the service's ROUTER address.  Records come from strangers:
one whose ``proto`` is another version or whose key does not parse is skipped (logged).
`BoardFinder` does both jobs on one zeroconf: it announces this service (when given a
port) and calls ``on_found(key, host, port)`` for each other service seen.  It is a
convenience like table discovery (docs/discovery.md), with the same switches:
``HEDGEROW_NO_DISCOVERY=1`` turns it off, ``HEDGEROW_DISCOVERY_INTERFACES`` confines it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from zeroconf import DNSQuestionType, ServiceStateChange, Zeroconf
from zeroconf.asyncio import AsyncServiceBrowser, AsyncServiceInfo

from hedgerow.net.boardwire import BOARD_PROTOCOL
from hedgerow.net.discovery import (
    RECORD_TTL,
    RESOLVE_TIMEOUT_MS,
    _announce_addresses,
    _new_zeroconf,
    _reachable,
)
from hedgerow.net.discoverysettings import discovery_disabled, resolve_interfaces
from hedgerow.net.keys import key_from_text, key_text

log = logging.getLogger(__name__)

SERVICE_TYPE = "_hedgerow-board._tcp.local."
#: Most board services one finder keeps resolving (a bound on what strangers can cost).
MAX_SERVICES = 256

Found = Callable[[bytes, str, int], None]


class BoardFinder:
    """Announce this board service and report the others (see the module docstring)."""

    def __init__(self, key: bytes, on_found: Found) -> None:
        self._key = key
        self._on_found = on_found
        self._interfaces = resolve_interfaces(None)
        self._zc = None if discovery_disabled() else _new_zeroconf(self._interfaces)
        self._info: AsyncServiceInfo | None = None
        self._browser: AsyncServiceBrowser | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._seen: set[str] = set()

    @property
    def on(self) -> bool:
        """Whether discovery is on (else nothing is announced or found)."""
        return self._zc is not None

    async def start(self, host: str, port: int | None) -> None:
        """Browse, and announce the service at ``host:port`` (not when ``port`` is None)."""
        if self._zc is None:
            return
        try:
            if port is not None:
                label = f"hedgerow-board-{key_text(self._key)[:10].replace('-', 'x')}-{port}"
                self._info = AsyncServiceInfo(
                    SERVICE_TYPE, f"{label}.{SERVICE_TYPE}", port=port,
                    properties={"proto": str(BOARD_PROTOCOL), "key": key_text(self._key)},
                    server=f"{label}.local.", host_ttl=RECORD_TTL, other_ttl=RECORD_TTL,
                    parsed_addresses=_announce_addresses(host, self._interfaces))
                await self._zc.async_register_service(self._info, allow_name_change=True)
            self._browser = AsyncServiceBrowser(self._zc.zeroconf, SERVICE_TYPE,
                                                handlers=[self._on_service],
                                                question_type=DNSQuestionType.QM)
        except (OSError, RuntimeError) as exc:
            log.warning("the leaderboard cannot use LAN discovery (%s): add peers with --peer",
                        exc)
            await self.close()

    async def close(self) -> None:
        """Withdraw the announcement (goodbye packets) and stop browsing."""
        zc, self._zc = self._zc, None
        for task in list(self._tasks):
            task.cancel()
        if zc is None:
            return
        if self._browser is not None:
            with contextlib.suppress(Exception):
                await self._browser.async_cancel()
        if self._info is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(await zc.async_unregister_service(self._info), 1.0)
        with contextlib.suppress(Exception):
            await zc.async_close()

    def _on_service(self, zeroconf: Zeroconf, service_type: str, name: str,
                    state_change: ServiceStateChange) -> None:
        if state_change is ServiceStateChange.Removed or self._zc is None:
            self._seen.discard(name)
            return
        if name not in self._seen and len(self._seen) >= MAX_SERVICES:
            return
        self._seen.add(name)
        task = asyncio.get_running_loop().create_task(self._resolve(name))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _resolve(self, name: str) -> None:
        if self._zc is None:
            return
        info = AsyncServiceInfo(SERVICE_TYPE, name)
        try:
            if not await info.async_request(self._zc.zeroconf, RESOLVE_TIMEOUT_MS,
                                            question_type=DNSQuestionType.QM):
                return
            props = {k.decode("ascii", "replace"): (v or b"").decode("ascii", "replace")
                     for k, v in (info.properties or {}).items()}
            if props.get("proto") != str(BOARD_PROTOCOL):
                log.info("skipping board service %r: protocol %r", name, props.get("proto"))
                return
            key = key_from_text(props.get("key", ""))
            addresses = info.parsed_scoped_addresses()
            if key == self._key or not addresses or not info.port:
                return
            self._on_found(key, _reachable(addresses), info.port)
        except Exception as exc:  # a stranger's records must never break the finder
            log.warning("skipping board service %r: %s", name, exc)

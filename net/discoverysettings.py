"""LAN discovery's settings, read without importing zeroconf: the switch that turns it off
(``HEDGEROW_NO_DISCOVERY``) and the interfaces it is confined to
(``HEDGEROW_DISCOVERY_INTERFACES``).  A peer that will not announce or browse decides so
here and never loads zeroconf."""

from __future__ import annotations

import ipaddress
import os
import re
from collections.abc import Sequence

from hedgerow.core.errors import HedgerowError

ENV_DISABLE = "HEDGEROW_NO_DISCOVERY"
ENV_INTERFACES = "HEDGEROW_DISCOVERY_INTERFACES"

_TRUE = frozenset({"1", "true", "yes", "on"})


def discovery_disabled() -> bool:
    """Whether ``HEDGEROW_NO_DISCOVERY`` turns LAN discovery off (1, true, yes or on)."""
    return os.environ.get(ENV_DISABLE, "").strip().lower() in _TRUE


def resolve_interfaces(interfaces: Sequence[str] | None = None) -> list[str] | None:
    """The IP addresses discovery is restricted to, or ``None`` for every interface.

    ``interfaces`` wins over ``HEDGEROW_DISCOVERY_INTERFACES``; `HedgerowError` for an entry
    that is not an IP address.
    """
    source = "interfaces"
    if interfaces is None:
        env = os.environ.get(ENV_INTERFACES, "").strip()
        if not env:
            return None
        interfaces = [p for p in re.split(r"[\s,]+", env) if p]
        source = ENV_INTERFACES
    result = []
    for item in interfaces:
        try:
            result.append(str(ipaddress.ip_address(item)))
        except ValueError:
            raise HedgerowError(
                f"{source}: {item!r} is not an IP address (give the addresses of the "
                f"interfaces to use, e.g. 127.0.0.1 or 192.168.1.20, comma separated)"
            ) from None
    if not result:
        raise HedgerowError(f"{source} names no interface")
    return result

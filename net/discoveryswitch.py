"""The switch that turns LAN discovery off (``HEDGEROW_NO_DISCOVERY``), read without
importing zeroconf: a peer that will not announce or browse never loads it."""

from __future__ import annotations

import os

ENV_DISABLE = "HEDGEROW_NO_DISCOVERY"

_TRUE = frozenset({"1", "true", "yes", "on"})


def discovery_disabled() -> bool:
    """Whether ``HEDGEROW_NO_DISCOVERY`` turns LAN discovery off (1, true, yes or on)."""
    return os.environ.get(ENV_DISABLE, "").strip().lower() in _TRUE

"""A test plugin that plays posy by other rules under the same fingerprint.

Loaded with ``HEDGEROW_PLUGINS=toygames,cheatplugin``: every play scores one point more,
while the table fingerprint stays ``posy@1.0.0``.  Only the state hashes can tell.
"""

from __future__ import annotations

from hedgerow.core import hookimpl


@hookimpl
def posy_play_bonus(first: bool) -> int:
    """One extra point for every play."""
    return 1

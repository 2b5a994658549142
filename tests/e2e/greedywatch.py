"""A test double for ``hedgerow check-peer watch``: our spectator, except that it takes a
`SpectatorFeed` whose ``first`` is beyond the records it holds as if it followed on
(docs/protocol.md §3.4: such a feed is ignored, a feed before it was lost; taking it leaves
a hole in the stream it replays).

Loaded into ``hedgerow watch`` with ``HEDGEROW_PLUGINS=greedywatch``: importing it patches
`Spectator._on_feed` in that process.
"""

from __future__ import annotations

from dataclasses import replace

from hedgerow.net.messages import SpectatorFeed
from hedgerow.net.watching import Spectator

_on_feed = Spectator._on_feed


def _greedy(self: Spectator, feed: SpectatorFeed) -> None:
    if feed.first > self.held and feed.records:
        feed = replace(feed, first=self.held)  # the hole is never noticed
    _on_feed(self, feed)


Spectator._on_feed = _greedy  # type: ignore[method-assign]

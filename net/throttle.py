"""`Throttle`: how many log lines about other peers' messages a peer writes, per sender and
in all.

A stranger (or many, each with a fresh key), or a seated peer, can send messages faster
than anyone reads the lines they cause (refusals, motions and votes, errors); each one is
still handled and answered, but only the first few per sender and kind of line, and a
bounded number per second in all, are written to the log (`PeerContext.note`).  The rest
are counted and the count is said on the next line that is written.  Pure bookkeeping on a
clock the caller passes (the event loop's), so it is deterministic under test.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

#: Lines one sender may cause at once (per kind of refusal: the caller's key says which),
#: and then one per this many seconds.
PER_SENDER_BURST = 5
PER_SENDER_EVERY_S = 10.0
#: Lines all senders together may cause at once, and then this many per second.
TOTAL_BURST = 50
TOTAL_PER_S = 2.0
#: Keys remembered (the oldest is forgotten first).
SENDERS_KEPT = 1024


@dataclass(slots=True)
class _Bucket:
    tokens: float
    at: float


class Throttle:
    """Token buckets: `allow(key, now)` says whether a line about ``key`` may be written."""

    def __init__(self) -> None:
        self._total = _Bucket(TOTAL_BURST, 0.0)
        self._senders: OrderedDict[bytes, _Bucket] = OrderedDict()
        self.suppressed = 0  # lines not written since the last one that was

    @staticmethod
    def _take(bucket: _Bucket, now: float, rate: float, burst: float) -> bool:
        bucket.tokens = min(burst, bucket.tokens + max(now - bucket.at, 0.0) * rate)
        bucket.at = now
        if bucket.tokens < 1:
            return False
        bucket.tokens -= 1
        return True

    def allow(self, key: bytes, now: float) -> bool:
        """True when a line about ``key`` may be written now (else it is counted)."""
        bucket = self._senders.get(key)
        if bucket is None:
            bucket = self._senders[key] = _Bucket(PER_SENDER_BURST, now)
            if len(self._senders) > SENDERS_KEPT:
                self._senders.popitem(last=False)
        else:
            self._senders.move_to_end(key)
        if (self._take(bucket, now, 1 / PER_SENDER_EVERY_S, PER_SENDER_BURST)
                and self._take(self._total, now, TOTAL_PER_S, TOTAL_BURST)):
            return True
        self.suppressed += 1
        return False

    def take_suppressed(self) -> int:
        """How many lines were not written since the last call (and reset the count)."""
        count, self.suppressed = self.suppressed, 0
        return count

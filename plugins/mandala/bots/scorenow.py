"""``BotSupport.score`` for Mandala: a seat's points if the game were scored now.

Mandala scores only the tiles in front of each player (spec §11: cards in hands or on the
mandalas score nothing), so the score now is what the final scoring would give those
tiles.  It is asked of the same ranking the game's ``outcome`` uses (the table's
``mandala_winner`` hook: a variant that changes scoring changes `score` too), and its
``scores`` are remembered by the tiles (and the end reason they were scored with): tiles
change only when a mandala is resolved, so a search asks the hook once per new garden and
every other call is a look-up.
"""

from __future__ import annotations

from hedgerow.plugins.mandala.ranking import Rank
from hedgerow.plugins.mandala.state import State

#: Gardens remembered at most; the memory starts afresh beyond (the answers never change).
LIMIT = 1 << 16


class ScoreNow:
    """``score(state, seat)``: ``seat``'s points as ``rank`` would count them now."""

    __slots__ = ("_memo", "_rank")

    def __init__(self, rank: Rank) -> None:
        self._rank = rank
        self._memo: dict[tuple[tuple[tuple[int, ...], ...], str], tuple[int, ...]] = {}

    def __call__(self, state: State, seat: int) -> float:
        key = (state.tiles, state.ended)
        scores = self._memo.get(key)
        if scores is None:
            if len(self._memo) >= LIMIT:
                self._memo.clear()
            scores = tuple(self._rank(state.tiles, state.ended).scores)
            self._memo[key] = scores
        return float(scores[seat])

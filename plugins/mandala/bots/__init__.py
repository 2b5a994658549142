"""What Mandala offers its bots, beside its rules: ``build(ext)`` -> `BotSupport`.

Nothing here is part of the rules; the rules never import it.  The pieces:

* `sample`: a complete state from one seat's view, the deck after a reshuffle dealt only
  from the cards the reshuffled pile can still hold;
* `scorenow`: ``score``, a seat's points if the game were scored now, asked of the table's
  own ranking (``mandala_winner``, through `hedgerow.plugins.mandala.game.ranker`);
* `outlook`: ``evaluate``, that score plus what the open mandalas promise, less a share of
  what they promise the others, and ``evaluate_each``, the same figure after each play that
  completes no mandala, worked out without building the state after it;
* ``prospects``: the same outlook without its term for the others' share, for a search
  that weighs every seat's figure against the others' (each seat's prospects then count
  once, in its own figure);
* the hint ``tempo=True``: the seat to move has an edge the outlook does not count (a
  mandala just refilled goes to whoever plays on it first).

Mandala keeps the default ``lookahead=1`` and ``for_themselves=False``.  The measurements
behind ``prospects`` and ``tempo`` are in bench/README.md ("Budget curves").
"""

from __future__ import annotations

from collections.abc import Sequence

from hedgerow.core import Action
from hedgerow.core.botsupport import BotSupport
from hedgerow.core.game import Extensions
from hedgerow.plugins.mandala.bots.outlook import Outlook
from hedgerow.plugins.mandala.bots.sample import sample as sample_view
from hedgerow.plugins.mandala.bots.scorenow import ScoreNow
from hedgerow.plugins.mandala.drawing import STANDARD, DrawRule
from hedgerow.plugins.mandala.game import ranker
from hedgerow.plugins.mandala.state import State, View


def build(ext: Extensions) -> BotSupport[State, View]:
    """Mandala's bot support at a table with the variants behind ``ext``."""
    rank = ranker(ext)
    score = ScoreNow(rank)
    outlook = Outlook(rank, score)
    found = ext.mandala_draw_rule()
    rule: DrawRule = found if found is not None else STANDARD

    def evaluate_each(state: State, seat: int,
                      actions: Sequence[Action]) -> list[float | None]:
        return outlook.each(state, seat, actions, rule)

    return BotSupport(sample=sample_view, score=score, evaluate=outlook,
                      evaluate_each=evaluate_each,
                      prospects=outlook.with_weights(outlook.weights._replace(rival=0.0)),
                      tempo=True)

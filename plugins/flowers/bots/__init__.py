"""What FLOWERS offers its bots, beside its rules: ``build(ext)`` -> `BotSupport`.

Nothing here is part of the rules; the rules never import it.  The pieces, each bound to
the table's variants through `hedgerow.plugins.flowers.game.bind`:

* `sample`: a complete state dealt from one seat's view (the covering rule and the deal);
* `score`: a seat's total if the game were scored now (the table's colour rule);
* `evaluate`: that total plus what each garden promises.

Two hints, measured (bench/README.md, ISMCTS):

* ``lookahead=2``: a card taken from a face-up stack is one the others cannot take, and the
  card it uncovers is theirs to take: that shows at the next turn (the search spanning two
  turns beat greedy where one turn did not);
* ``for_themselves=True``: each seat plants in its own garden and the others touch it only
  through the stacks, so a seat's best reply is what its own judgement finds (the others
  played for themselves beat their replies searched).
"""

from __future__ import annotations

from hedgerow.core.botsupport import BotSupport
from hedgerow.core.game import Extensions
from hedgerow.plugins.flowers.bots.evaluate import make_evaluate
from hedgerow.plugins.flowers.bots.sample import make_sample
from hedgerow.plugins.flowers.bots.score import make_score
from hedgerow.plugins.flowers.game import bind
from hedgerow.plugins.flowers.state import State, View


def build(ext: Extensions) -> BotSupport[State, View]:
    """FLOWERS' bot support at a table with the variants behind ``ext``."""
    rules = bind(ext)
    score = make_score(rules)
    return BotSupport(sample=make_sample(rules.coverable, rules.layout), score=score,
                      evaluate=make_evaluate(rules.colour_points, score),
                      lookahead=2, for_themselves=True)

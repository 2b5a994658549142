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
from hedgerow.plugins.flowers import flowers_colour_points as standard_hook
from hedgerow.plugins.flowers.bots.evaluate import make_evaluate
from hedgerow.plugins.flowers.bots.sample import make_sample
from hedgerow.plugins.flowers.bots.score import make_score
from hedgerow.plugins.flowers.game import Rules, bind
from hedgerow.plugins.flowers.scoring import ColourPoints, standard_colour_points
from hedgerow.plugins.flowers.state import State, View


def colour_rule(ext: Extensions, rules: Rules) -> ColourPoints:
    """The table's colour rule for the bots' judgement: `standard_colour_points` itself
    when the only implementation of ``flowers_colour_points`` at this table is FLOWERS' own
    standard one (no chosen variant answers it), else the hook through ``rules``.

    The same answers either way; the hook call (pluggy's dispatch, per garden the search
    judges) cost about a fifth of ``evaluate``'s time in a search.  A relay that cannot
    list its implementations gets the hook.
    """
    listed = getattr(ext.flowers_colour_points, "get_hookimpls", None)
    if listed is not None:
        impls = listed()
        if len(impls) == 1 and impls[0].function is standard_hook:
            return standard_colour_points
    return rules.colour_points


def build(ext: Extensions) -> BotSupport[State, View]:
    """FLOWERS' bot support at a table with the variants behind ``ext``."""
    rules = bind(ext)
    score = make_score(rules)
    return BotSupport(sample=make_sample(rules.coverable, rules.layout), score=score,
                      evaluate=make_evaluate(colour_rule(ext, rules), score),
                      lookahead=2, for_themselves=True)

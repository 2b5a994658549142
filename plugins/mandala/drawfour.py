"""Draw four, the published draw rule of Flowers: A Mandala Game, as a variant plugin.

The seed text this project implements says a player who plays a single card draws 2; the
published rules (spec §2, CONFLICT; §11 ``draw_after_single``) draw up to 4.  The hand
limit of 8 and the keep-one-card rule are the same in both.  The variant answers Mandala's
``mandala_draw_rule`` hook, which the rules ask once when a table is set up.

This module is itself registered as a plugin (for ``hedgerow_register_variants``) at every
table, so the hook that changes the rules lives on a separate object, `DrawFourRules`, that
the host calls only at tables that chose it.
"""

from __future__ import annotations

from collections.abc import Callable

from hedgerow.core import VariantSpec, hookimpl
from hedgerow.plugins.mandala.drawing import DRAW_FOUR, DrawRule


class DrawFourRules:
    """Draw four's implementation of Mandala's extension hooks."""

    @hookimpl
    def mandala_draw_rule(self) -> DrawRule:
        """After a single card, draw up to 4 (never above 8 in hand)."""
        return DRAW_FOUR


@hookimpl
def hedgerow_register_variants(register: Callable[[VariantSpec], None]) -> None:
    """Register Draw four for Mandala."""
    register(VariantSpec(
        game="mandala",
        name="draw-four",
        version="1.0.0",
        impl=DrawFourRules(),
        summary="the published draw rule: after playing a single card, draw up to 4 "
                "(hand limit 8) instead of 2",
    ))

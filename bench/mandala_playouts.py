#!/usr/bin/env python
"""Mandala speed: random playouts per second for 2 and 4 players, and what a step costs.

Run from the repository root (with the venv active)::

    python bench/mandala_playouts.py            # the full run, about a minute
    python bench/mandala_playouts.py --quick    # a smaller run, a few seconds

Everything is measured in the same process, each figure as the best of several rounds
(the least disturbed by other load), and reported both absolutely and as a ratio against
a baseline measured in the same run, so that figures from different machines compare:

* **playouts**: complete random games through the `GameDef`: ``setup``, then, whenever
  the state waits for chance (the deal, a reshuffle of the discard pile), the outcome the
  engine would draw for that log index (``draw_all`` on ``Rng(seed, "chance/<i>")``) and
  ``resolve``; otherwise ``legal_actions`` / a uniform pick with a core `Rng` / ``apply``,
  until the end, then ``outcome``.  Baseline: the same number of ``Rng.randbelow`` calls a
  game makes (the chance nodes' shuffles included), i.e. the randomness alone.
* **through Table**: the same games through the table engine (turn gate, chance entries,
  lazy hash chain), and the same with the canonical state hash after every entry, as a
  networked peer does; ratios against the bare `GameDef`.
* **one step**: ``apply`` of a play, ``legal_actions`` of a play turn, ``view``, ``sample``
  (a state drawn from the active seat's view: what a searching bot calls once per
  iteration), ``view`` then ``sample`` (a new view) and ``score`` (a seat's points if
  scored now: what a search calls at every leaf), on states collected from random games.
  ``sample`` is also reported for one view sampled again and again (a search's case: what
  the view alone decides is worked out once per view) and for the views after a reshuffle,
  whose deck it deals from the reshuffled pile's cards alone.
"""

from __future__ import annotations

from collections.abc import Callable

from playouts import Columns, count_draws, headline, parser, playout, race, start, table_playout

from hedgerow.core import Rng
from hedgerow.plugins.mandala.cards import NO_CARDS
from hedgerow.plugins.mandala.state import PLAY, State, View

COLUMNS = Columns(label=34, rate=12, ms=3, us=2)


def report(ruleset, players: int, seeds: list[bytes], rounds: int) -> None:
    """Measure and print every figure for one player count."""
    game = ruleset.gamedef
    bots = ruleset.bots
    games = len(seeds)
    draws, entries, chances = count_draws(game, players, seeds)
    headline(COLUMNS, players, rounds, seeds,
             play=lambda s, rng: playout(game, players, s, rng),
             table_play=lambda s, rng, hashed: table_playout(ruleset, players, s, rng, hashed),
             draws=draws, bound=50,
             note=f"vs the Rng alone: {draws / games:.0f} draws; {entries / games:.0f} log "
                  f"entries, {chances / games:.1f} of them chance")

    states: list[State] = []
    rng = Rng(b"bench-states")
    for s in seeds[:100]:
        playout(game, players, s, rng, states)
    plays = [(st, st.turn) for st in states if st.phase == PLAY]
    firsts = [(st, seat, game.legal_actions(st, seat)[0]) for st, seat in plays]
    sample = plays[:: max(1, len(plays) // 500)]

    def applied() -> None:
        for st, seat, action in firsts:
            game.apply(st, seat, action)

    def listed() -> None:
        for st, seat in plays:
            game.legal_actions(st, seat)

    def viewed() -> None:
        for st, seat in sample:
            game.view(st, seat)

    def redealt() -> None:
        det = Rng(b"bench-det")
        for st, seat in sample:
            bots.sample(game.view(st, seat), seat, det)

    views = [(game.view(st, seat), seat) for st, seat in sample]
    crowded = [(v, seat) for v, seat in views if v.reshuffled != NO_CARDS]

    def sampler(pairs: list[tuple[View, int]]) -> Callable[[], None]:
        def run() -> None:
            rng = Rng(b"bench-sample")
            for v, seat in pairs:
                bots.sample(v, seat, rng)
        return run

    def again() -> None:  # as a search does: one view, sampled at every iteration
        rng = Rng(b"bench-again")
        for v, seat in views[::10]:
            for _ in range(10):
                bots.sample(v, seat, rng)

    def scored() -> None:
        for st, seat in plays:
            bots.score(st, seat)

    t = race(rounds, {"apply": applied, "legal": listed, "view": viewed, "det": redealt,
                      "sample": sampler(views), "crowded": sampler(crowded or views[:1]),
                      "again": again,
                      "score": scored})
    t_apply = t["apply"] / len(plays)
    sizes = [len(game.legal_actions(st, seat)) for st, seat in plays]
    COLUMNS.step("   ... one apply (a play)", t_apply)
    t_legal = t["legal"] / len(plays)
    COLUMNS.step("   ... legal_actions (a play turn)", t_legal, t_legal / t_apply,
                 f"vs one apply; {sum(sizes) / len(sizes):.0f} actions on average, "
                 f"{max(sizes)} at most")
    for name, key in (("view", "view"), ("sample (from a view)", "sample"),
                      ("view then sample (a new view)", "det")):
        per = t[key] / len(sample)
        COLUMNS.step(f"   ... {name}", per, per / t_apply, "vs one apply")
    per = t["again"] / (10 * len(views[::10]))
    COLUMNS.step("   ... sample, the same view again", per, per / t_apply,
                 "vs one apply; ten samples of each view, as a search draws them")
    per = t["crowded"] / max(1, len(crowded))
    COLUMNS.step("   ... sample, after a reshuffle", per, per / t_apply,
                 f"vs one apply; {len(crowded)} of {len(views)} views")
    per = t["score"] / len(plays)
    COLUMNS.step("   ... score", per, per / t_apply, "vs one apply")
    print()


def main(argv: list[str] | None = None) -> int:
    args = parser(__doc__, games=1000, quick=(100, 3), variant="e.g. draw-four").parse_args(argv)
    rules = "+".join(["mandala", *args.variant])
    plugins, seeds, rounds = start(args, f"{rules} playouts", COLUMNS)
    for players in (2, 4):
        report(plugins.ruleset("mandala", args.variant, players=players), players, seeds, rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

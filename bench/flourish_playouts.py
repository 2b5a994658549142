#!/usr/bin/env python
"""Flourish speed: random playouts per second, and what a step's parts cost.

Run from the repository root (with the venv active)::

    python bench/flourish_playouts.py              # the full run, a minute or two
    python bench/flourish_playouts.py --quick      # a smaller run, a few seconds
    python bench/flourish_playouts.py --players 3,7 --variant compost

Everything is measured in the same process, each figure as the best of several rounds
(the least disturbed by other load), absolutely and as a ratio against a baseline measured
in the same run, so that figures from different machines compare:

* **playouts**: complete random games through the `GameDef` alone: setup, chance resolved
  from the seed as the engine does (`SeededChance`), and at every simultaneous step each
  seat picks a legal action uniformly with a core `Rng` against the step's starting state,
  then the choices are applied in seat order; then ``outcome``.  Baseline: as many
  ``Rng.randbelow`` calls as the games make (the randomness alone).
* **through Table**: the same games through `hedgerow.core.table.Table.play_step` (step
  gate, hash chain), and with the canonical state hash after every step as a networked
  peer computes it; ratios against the bare `GameDef` games.
* **parts of a step** (on states collected from real games): ``legal_actions`` (lazy) and
  listing it whole, one ``apply`` that records a choice, the last ``apply`` that resolves
  the turn, and ``view`` of one seat.
* **what bots call** (on the same states): ``sample`` from a view it has not seen (the view
  worked out, then dealt) and from the same view object again (what a search does at every
  iteration), and ``score`` for a set of gardens it has not scored (the end-of-game hooks
  asked) and again (remembered: what most leaves of a search cost).  Each against recording
  a choice, and against the mean ``apply`` of a step (the records and the resolving apply
  of a turn, averaged over the seats).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playouts import Columns, CountingRng, headline, parser, race, start

from hedgerow.core import Rng, SetupContext
from hedgerow.core.chance import SeededChance
from hedgerow.core.table import Table

COLUMNS = Columns(label=36, rate=10, ms=2, us=1)


def playout(game: Any, players: int, seed: bytes, rng: Rng,
            states: list[tuple[Any, dict[int, Any]]] | None = None) -> object:
    """One complete random game through the GameDef; its outcome."""
    source = SeededChance(seed)
    state = game.setup(SetupContext(players))
    active, legal_actions, apply = game.active_seats, game.legal_actions, game.apply
    index = 0
    while True:
        chance = game.chance(state)
        while chance is not None:
            state = game.resolve(state, source.resolve(index, chance))
            index += 1
            chance = game.chance(state)
        seats = active(state)
        if not seats:
            return game.outcome(state)
        choices = {}
        for seat in seats:
            legal = legal_actions(state, seat)
            choices[seat] = legal[rng.randbelow(len(legal))]
        if states is not None:
            states.append((state, choices))
        for seat in seats:
            state = apply(state, seat, choices[seat])
            index += 1


def table_playout(ruleset: Any, players: int, seed: bytes, rng: Rng, hashed: bool) -> object:
    """The same game through the table engine, and when ``hashed`` the canonical state hash
    after every step, as a networked peer does."""
    table = Table(ruleset, players, seed)
    game = ruleset.gamedef
    while True:
        seats = table.active_seats()
        if not seats:
            return table.outcome()
        state = table.state
        choices = {}
        for seat in seats:
            legal = game.legal_actions(state, seat)
            choices[seat] = legal[rng.randbelow(len(legal))]
        table.play_step(choices)
        if hashed:
            table.state_hash()


def report(ruleset: Any, players: int, seeds: list[bytes], rounds: int) -> None:
    """Measure and print every figure for one player count."""
    game = ruleset.gamedef
    bots = ruleset.bots
    counter = CountingRng(b"bench-count")
    for s in seeds:
        playout(game, players, s, counter)
    draws = counter.calls
    headline(COLUMNS, players, rounds, seeds,
             play=lambda s, rng: playout(game, players, s, rng),
             table_play=lambda s, rng, hashed: table_playout(ruleset, players, s, rng, hashed),
             draws=draws, bound=120,
             note=f"vs the Rng alone, {draws / len(seeds):.0f} draws", table_digits=2)

    collected: list[tuple[Any, dict[int, Any]]] = []
    rng = Rng(b"bench-states")
    for s in seeds[:100]:
        playout(game, players, s, rng, collected)
    first = [(st, min(ch), ch[min(ch)]) for st, ch in collected]
    last = []
    for st, ch in collected:  # the state before the last choice of the step, and that choice
        seats = sorted(ch)
        for seat in seats[:-1]:
            st = game.apply(st, seat, ch[seat])
        last.append((st, seats[-1], ch[seats[-1]]))

    def applying(items: list[tuple[Any, int, Any]]) -> Callable[[], None]:
        def run() -> None:
            for st, seat, action in items:
                game.apply(st, seat, action)
        return run

    def lazy() -> None:
        for st, seat, _ in first:
            game.legal_actions(st, seat)

    def whole() -> None:
        for st, seat, _ in first:
            list(game.legal_actions(st, seat))

    def viewing() -> None:
        for st, seat, _ in first:
            game.view(st, seat)

    views = [(game.view(st, seat), seat) for st, seat, _ in first]
    again = 10

    def sampling_fresh() -> None:
        r = Rng(b"bench-sample")
        for st, seat, _ in first:
            bots.sample(game.view(st, seat), seat, r)

    def sampling_again() -> None:
        r = Rng(b"bench-sample")
        for v, seat in views:
            for _ in range(again):
                bots.sample(v, seat, r)

    def scoring_fresh() -> None:
        for st, seat, _ in first:
            bots.score.forget()
            bots.score(st, seat)

    def scoring_again() -> None:
        for st, seat, _ in first:
            bots.score(st, seat)

    n = len(first)
    t = race(rounds, {"record": applying(first), "resolve": applying(last), "lazy": lazy,
                      "whole": whole, "view": viewing,
                      "sample": sampling_fresh, "sample again": sampling_again,
                      "score": scoring_fresh})
    scoring_again()  # remember every answer first (the memory holds them all)
    t.update(race(rounds, {"score again": scoring_again}))
    t_record = t["record"] / n
    sizes = [len(game.legal_actions(st, seat)) for st, seat, _ in first]
    rows = [("one apply (a choice recorded)", t["record"] / n, ""),
            ("the last apply (the turn resolved)", t["resolve"] / n, ""),
            ("legal_actions (lazy)", t["lazy"] / n,
             f"{sum(sizes) / len(sizes):.0f} actions on average, {max(sizes)} at most"),
            ("... listing them all", t["whole"] / n, ""),
            ("view of one seat", t["view"] / n, "")]
    for what, seconds, note in rows:
        COLUMNS.step("   " + what, seconds, seconds / t_record,
                     f"vs recording a choice{'; ' + note if note else ''}", digits=1)
    mean_apply = (t_record * (players - 1) + t["resolve"] / n) / players
    bot_rows = [("sample, a new view", t["sample"] / n, "with the view made"),
            ("sample, the same view again", t["sample again"] / (n * again),
             "a search's every iteration"),
            ("score, gardens not scored yet", t["score"] / n, "the hooks asked"),
            ("score, asked again", t["score again"] / n, "remembered")]
    COLUMNS.step("   mean apply of a step", mean_apply, mean_apply / t_record,
                 "vs recording a choice", digits=1)
    for what, seconds, note in bot_rows:
        COLUMNS.step("   " + what, seconds, seconds / t_record,
                     f"vs recording a choice; {seconds / mean_apply:.2f}x the mean apply; "
                     f"{note}", digits=1)
    print()


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__, games=500, quick=(60, 2), variant="a variant to use")
    options.add_argument("--players", default="2,3,4,7", help="player counts, comma separated")
    args = options.parse_args(argv)
    counts = [int(p) for p in args.players.split(",")]
    name = "+".join(["flourish", *args.variant])
    plugins, seeds, rounds = start(args, f"{name} playouts", COLUMNS)
    for players in counts:
        report(plugins.ruleset("flourish", args.variant, players=players), players, seeds, rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

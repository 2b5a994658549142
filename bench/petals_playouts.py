#!/usr/bin/env python
"""Petals speed: random playouts per second, and what listing the legal actions costs.

Run from the repository root (with the venv active)::

    python bench/petals_playouts.py            # the full run, about a minute
    python bench/petals_playouts.py --quick    # a smaller run, a few seconds

Everything is measured in the same process, each figure as the best of several rounds
(the least disturbed by other load), and reported both absolutely and as a ratio against
a baseline measured in the same run, so that figures from different machines compare:

* **playouts**: complete random games through the `GameDef` (setup and the deal, a chance
  node resolved from the seed as the table does, then ``legal_actions`` / pick one
  uniformly with a core `Rng` / ``apply`` until the end, then ``outcome``), for 2 and 4
  players.  Baseline: the same number of ``Rng.randbelow`` calls
  a game makes, i.e. the randomness alone.
* **table playouts**: the same games through `hedgerow.core.table.Table` (hash chain and
  canonical state hash on every action), as a ratio against the bare `GameDef` games.
* **legal actions per turn**: ``legal_actions`` (lazy) on states collected from real
  games, against materialising every action (``list(...)``) and against one ``apply``.
* **what bots call**: ``sample`` (a state from the active seat's view: once with a view
  it has not seen, and again with the same view object, as a search does once per
  iteration), ``view`` and ``score``, on the same states, each against one ``apply``.
"""

from __future__ import annotations

from collections.abc import Callable

from playouts import Columns, count_draws, headline, parser, playout, race, start, table_playout

from hedgerow.core import Rng
from hedgerow.plugins.petals.state import State

COLUMNS = Columns(label=34, rate=12, ms=3, us=2)


def report(ruleset, players: int, seeds: list[bytes], rounds: int) -> None:
    """Measure and print every figure for one player count."""
    game = ruleset.gamedef
    draws, _, _ = count_draws(game, players, seeds)
    headline(COLUMNS, players, rounds, seeds,
             play=lambda s, rng: playout(game, players, s, rng),
             table_play=lambda s, rng, hashed: table_playout(ruleset, players, s, rng, hashed,
                                                             lazy=False),
             draws=draws, bound=300, note=f"vs the Rng alone, {draws / len(seeds):.0f} draws")
    label = f"{players} players"

    states: list[State] = []
    rng = Rng(b"bench-states")
    for s in seeds[:200]:
        playout(game, players, s, rng, states)
    placing = [(st, st.active) for st in states if st.pending is None]
    choosing = [(st, st.active) for st in states if st.pending is not None]
    firsts = [(st, seat, game.legal_actions(st, seat)[0]) for st, seat in placing]

    def applied() -> None:
        for st, seat, action in firsts:
            game.apply(st, seat, action)

    def lazy(pairs: list[tuple[State, int]]) -> Callable[[], None]:
        def run() -> None:
            for st, seat in pairs:
                game.legal_actions(st, seat)
        return run

    def listed(pairs: list[tuple[State, int]]) -> Callable[[], None]:
        def run() -> None:
            for st, seat in pairs:
                list(game.legal_actions(st, seat))
        return run

    t = race(rounds, {"apply": applied, "lazy place": lazy(placing),
                      "list place": listed(placing), "lazy effect": lazy(choosing),
                      "list effect": listed(choosing)})
    t_apply = t["apply"] / len(placing)
    COLUMNS.step(f"{label}, one apply (placement)", t_apply)
    for what, key, pairs in (("placement", "place", placing),
                             ("effect choice", "effect", choosing)):
        sizes = [len(game.legal_actions(st, seat)) for st, seat in pairs]
        t_lazy, t_list = t[f"lazy {key}"] / len(pairs), t[f"list {key}"] / len(pairs)
        share = len(pairs) / len(states)
        COLUMNS.step(f"{label}, legal_actions ({what})", t_lazy, t_lazy / t_apply,
                     f"vs one apply; {share:.1%} of decisions, {sum(sizes) / len(sizes):.0f} "
                     f"actions on average, {max(sizes)} at most")
        COLUMNS.step("   ... listing every action", t_list, t_list / t_lazy, "vs lazy", digits=1)
    bot_rows(game, ruleset.bots, label, states, t_apply, rounds)
    print()


def bot_rows(game, bots, label: str, states: list[State], t_apply: float, rounds: int,
             ) -> None:
    """The rows for what bots call: sample, view and score, each against one apply."""
    views = [(game.view(st, st.active), st.active) for st in states]
    again = 10

    def fresh() -> None:
        rng = Rng(b"bench-sample")
        for v, seat in views:
            bots.sample(v, seat, rng)

    def repeated() -> None:
        rng = Rng(b"bench-sample")
        for v, seat in views:
            for _ in range(again):
                bots.sample(v, seat, rng)

    def viewed() -> None:
        for st in states:
            game.view(st, st.active)

    def scored() -> None:
        for st in states:
            bots.score(st, st.active)

    t = race(rounds, {"fresh": fresh, "repeated": repeated, "view": viewed, "score": scored})
    n = len(states)
    rows = (("sample, a new view", t["fresh"] / n, "vs one apply; once per view object"),
            ("sample, the same view", t["repeated"] / (n * again),
             "vs one apply; a search's every iteration"),
            ("view", t["view"] / n, "vs one apply"),
            ("score", t["score"] / n, "vs one apply; a search's every leaf"))
    for what, seconds, note in rows:
        COLUMNS.step(f"{label}, {what}", seconds, seconds / t_apply, note)


def main(argv: list[str] | None = None) -> int:
    args = parser(__doc__, games=1000, quick=(200, 3)).parse_args(argv)
    plugins, seeds, rounds = start(args, "Petals playouts", COLUMNS)
    for players in (2, 4):
        report(plugins.ruleset("petals", [], players=players), players, seeds, rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

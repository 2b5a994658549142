#!/usr/bin/env python
"""FLOWERS speed: random playouts per second for 1 to 4 players, and where a game's time goes.

Run from the repository root (with the venv active)::

    python bench/flowers_playouts.py            # the full run, about a minute
    python bench/flowers_playouts.py --quick    # a smaller run, a few seconds

Everything is measured in the same process, each figure as the best of several rounds
(the least disturbed by other load), and reported both absolutely and as a ratio against
a baseline measured in the same run, so that figures from different machines compare:

* **playouts**: complete random games through the `GameDef`: ``setup``, the deal (its
  chance node drawn from the seed as the engine does, ``draw_all``, then ``resolve``), then
  ``legal_actions`` / pick one uniformly with a core `Rng` / ``apply`` until the end, then
  ``outcome`` (every garden scored through the table's colour-group hook).  Baseline: the
  same number of ``Rng.randbelow`` calls a game makes (the deal's shuffle included), i.e.
  the randomness alone.
* **taking face down**: the same games with a turn taking the face-down card one time in
  three (uniform picks take it about once in 36 turns: it is one action among the
  plantings), so about a third of the turns are two decisions.
* **the parts of a game**: the deal alone (``setup`` + chance + ``resolve``), the
  ``outcome`` alone on finished games, and one ``legal_actions`` and one ``apply`` of each
  kind of decision on states collected from real games: a turn's start (``plant`` from a
  face-up stack, or ``take`` of the face-down one) and the planting after a take.
* **what search bots call**, on the same states, against one ``apply`` (a planting):
  ``sample`` of a view it has already sampled (a search iteration), ``sample`` of a new
  view (the view read afresh, then sampled) and ``score`` of the seat to act (a search leaf), on a
  garden it has not scored yet and on one it has just scored.
* **through Table** (with ``--table``): the same games through the table engine, as a ratio
  against the bare `GameDef` games.
* **against Petals** (with ``--petals``): 4-player Petals playouts drawn the same way, in
  the same rounds, so that the FLOWERS figure reads against the game whose bar it shares
  on any machine.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playouts import (
    Columns,
    CountingRng,
    baseline,
    parser,
    race,
    start,
    table_playout,
)
from playouts import playout as petals_playout

from hedgerow.core import Rng, SetupContext
from hedgerow.core.chance import draw_all
from hedgerow.plugins.flowers.state import PLANT, TAKE, State

COLUMNS = Columns(label=36, rate=12, ms=3, us=2)


def dealt(game: Any, players: int, seed: bytes, rng: Rng | None = None) -> State:
    """``setup`` then the deal, drawn as the table draws log entry #0."""
    state = game.setup(SetupContext(players))
    chance = game.chance(state)
    return game.resolve(state, draw_all(rng or Rng(seed, "chance/0"), chance))


def playout(game: Any, players: int, seed: bytes, rng: Rng, states: list[State] | None = None,
            deal_rng: Rng | None = None, blind: bool = False) -> tuple[object, State]:
    """One complete random game through the GameDef; its outcome and final state.

    Uniform picks take the face-down card about once in 36 turns (it is one action among
    the plantings); with ``blind`` a turn takes it one time in three instead.
    """
    state = dealt(game, players, seed, deal_rng)
    active, legal_actions, apply = game.active_seats, game.legal_actions, game.apply
    while True:
        seats = active(state)
        if not seats:
            return game.outcome(state), state
        seat = seats[0]
        if states is not None:
            states.append(state)
        legal = legal_actions(state, seat)
        if blind and legal[-1].kind == "take" and rng.randbelow(3) == 0:
            state = apply(state, seat, legal[-1])
        else:
            state = apply(state, seat, legal[rng.randbelow(len(legal))])


def report(ruleset: Any, players: int, seeds: list[bytes], rounds: int, table: bool,
           petals: Any = None) -> float:
    """Measure and print every figure for one player count; the games per second."""
    game = ruleset.gamedef
    games = len(seeds)

    counter = CountingRng(b"bench-count")
    deal_counters = [CountingRng(s, "chance/0") for s in seeds]
    finals = []
    decisions = 0
    for s, dc in zip(seeds, deal_counters, strict=True):
        states: list[State] = []
        _, final = playout(game, players, s, counter, states, deal_rng=dc)
        finals.append(final)
        decisions += len(states)
    draws = counter.calls + sum(dc.calls for dc in deal_counters)

    def games_run() -> None:
        rng = Rng(b"bench")
        for s in seeds:
            playout(game, players, s, rng)

    def blind_run() -> None:
        rng = Rng(b"bench")
        for s in seeds:
            playout(game, players, s, rng, blind=True)

    def deal_run() -> None:
        for s in seeds:
            dealt(game, players, s)

    def outcome_run() -> None:
        for final in finals:
            game.outcome(final)

    runs: dict[str, Callable[[], object]] = {
        "games": games_run, "rng": baseline(draws, 50), "deal": deal_run,
        "outcome": outcome_run, "blind": blind_run}
    if table:
        few = seeds[: max(1, games // 5)]

        def table_run() -> None:
            rng = Rng(b"bench")
            for s in few:
                table_playout(ruleset, players, s, rng)

        runs["table"] = table_run
    if petals is not None:
        def petals_run() -> None:
            rng = Rng(b"bench")
            for s in seeds:
                petals_playout(petals, players, s, rng)

        runs["petals"] = petals_run
    t = race(rounds, runs)
    t_game, t_base = t["games"] / games, t["rng"] / games
    label = f"{players} player{'s' if players > 1 else ''}"
    COLUMNS.row(f"{label}, random playouts", t_game, t_game / t_base,
                f"vs the Rng alone: {draws / games:.0f} draws, {decisions / games:.0f} "
                "decisions a game")
    blind_decisions = 0
    for s in seeds[:100]:
        states = []
        playout(game, players, s, Rng(b"bench-blind"), states, blind=True)
        blind_decisions += len(states)
    t_blind = t["blind"] / games
    COLUMNS.row("   ... taking face down 1 turn in 3", t_blind, t_blind / t_game,
                f"vs uniform picks; {blind_decisions / 100:.0f} decisions a game", digits=2)
    t_deal, t_out = t["deal"] / games, t["outcome"] / games
    COLUMNS.row("   ... the deal (setup + chance)", t_deal, t_deal / t_game, "of a game",
                digits=2, per_second=False)
    COLUMNS.row("   ... the outcome (scoring)", t_out, t_out / t_game, "of a game", digits=2,
                per_second=False)
    if petals is not None:
        t_petals = t["petals"] / games
        COLUMNS.row("   ... a Petals game, same rounds", t_petals, t_game / t_petals,
                    "FLOWERS / Petals", digits=2)
    if table:
        t_table = t["table"] / max(1, games // 5)
        COLUMNS.row("   ... through Table", t_table, t_table / t_game, "vs the bare GameDef")

    states = []
    rng = Rng(b"bench-states")
    for s in seeds[:100]:
        playout(game, players, s, rng, states)
    pairs = {kind: [(st, st.active) for st in states if st.phase == kind] for kind in (TAKE, PLANT)}
    picks: dict[str, list[tuple[State, int, Any]]] = {"plant": [], "take": [], "held": []}
    for st, seat in pairs[TAKE]:
        legal = game.legal_actions(st, seat)
        picks["plant"].append((st, seat, legal[0]))
        picks["take"].append((st, seat, legal[-1]))
    picks["held"] = [(st, seat, game.legal_actions(st, seat)[0]) for st, seat in pairs[PLANT]]

    def applied(kind: str) -> Callable[[], None]:
        def run() -> None:
            for st, seat, action in picks[kind]:
                game.apply(st, seat, action)
        return run

    def listed(kind: str) -> Callable[[], None]:
        def run() -> None:
            for st, seat in pairs[kind]:
                game.legal_actions(st, seat)
        return run

    t = race(rounds, {"plant": applied("plant"), "take": applied("take"),
                      "legal start": listed(TAKE)})
    starts = pairs[TAKE]
    sizes = [len(game.legal_actions(st, seat)) for st, seat in starts]
    t_plant, t_take = t["plant"] / len(starts), t["take"] / len(starts)
    t_legal = t["legal start"] / len(starts)
    COLUMNS.step("   ... one apply (plant, face up)", t_plant)
    COLUMNS.step("   ... one apply (take, face down)", t_take)
    COLUMNS.step("   ... legal_actions (turn start)", t_legal, t_legal / t_plant,
                 f"vs one planting; {sum(sizes) / len(sizes):.1f} actions on average, "
                 f"{max(sizes)} at most")
    bot_rows(game, ruleset.bots, states, rounds, t_plant)
    print()
    return 1 / t_game


def bot_rows(game: Any, bots: Any, states: list[State], rounds: int, t_apply: float) -> None:
    """The rows for what search bots call: ``sample`` and ``score``, against one apply.

    ``sample`` is timed as a search calls it, many times on the same view (the work that
    depends on the view alone is done once per view object), and on a new view each time
    (the view made first, as a bot does at each decision).  Every decision state
    of the games is sampled from the view of the seat to act and of the next seat (which
    cannot see a card taken face down).  ``score`` of the seat to act is timed on gardens it
    has not scored (each round gets its own copies: a search leaf's new garden) and on a
    garden it has just scored (the gardens an action left alone, which it remembers).
    """
    players = states[0].players
    seen = [(state, seat) for state in states
            for seat in sorted({state.active, (state.active + 1) % players})]
    views = [(game.view(state, seat), seat) for state, seat in seen]
    again = 10
    few = states[::7]
    fresh = [[st._replace(gardens=tuple([g.copy() for g in st.gardens])) for st in few]
             for _ in range(rounds)]

    def same_view() -> None:
        rng = Rng(b"bench-sample")
        sample = bots.sample
        for view, seat in views:
            for _ in range(again):
                sample(view, seat, rng)

    def new_view() -> None:
        rng = Rng(b"bench-sample")
        for state, seat in seen:
            bots.sample(game.view(state, seat), seat, rng)

    def scored_new() -> None:
        score = bots.score
        for state in fresh.pop():
            score(state, state.active)

    def scored_again() -> None:
        score = bots.score
        state = few[-1]
        for _ in few:
            score(state, state.active)

    t = race(rounds, {"same": same_view, "new": new_view, "score": scored_new,
                      "again": scored_again})
    t_same, t_new = t["same"] / (again * len(views)), t["new"] / len(seen)
    t_score, t_again = t["score"] / len(few), t["again"] / len(few)
    COLUMNS.step("   ... sample (the same view again)", t_same, t_same / t_apply,
                 "vs one planting: a search iteration's deal")
    COLUMNS.step("   ... sample (a new view)", t_new, t_new / t_apply,
                 "vs one planting: view + sample, the view read afresh")
    COLUMNS.step("   ... score (a new garden)", t_score, t_score / t_apply,
                 "vs one planting: the garden an action changed")
    COLUMNS.step("   ... score (a garden just scored)", t_again, t_again / t_apply,
                 "vs one planting: the gardens an action left alone")


def main(argv: list[str] | None = None) -> int:
    options = parser(__doc__, games=1000, quick=(200, 3), variant="e.g. summer")
    options.add_argument("--players", type=int, action="append", default=[],
                         help="player counts to run (default 1, 2, 3, 4)")
    options.add_argument("--table", action="store_true", help="also play through Table")
    options.add_argument("--petals", action="store_true",
                         help="also time 4-player Petals games in the same rounds")
    args = options.parse_args(argv)
    rules = "+".join(["flowers", *args.variant])
    plugins, seeds, rounds = start(args, f"FLOWERS ({rules}) playouts", COLUMNS)
    for players in args.players or [1, 2, 3, 4]:
        petals = (plugins.ruleset("petals", players=4).gamedef
                  if args.petals and players == 4 else None)
        report(plugins.ruleset("flowers", args.variant, players=players), players, seeds, rounds,
               args.table, petals)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""The harness the game playout benchmarks (``bench/*_playouts.py``) share.

Each game's benchmark plays its own games and picks its own figures; this module holds what
they measure and print them with:

* `race`: the best wall time of several runs over several rounds, the runs taking turns;
* `CountingRng` and `baseline`: the number of ``Rng.randbelow`` calls games make, and a run
  making that many calls alone (the ratio every machine can compare);
* `playout`, `count_draws` and `table_playout`: random games of a turn-based game through its
  `GameDef` (chance resolved as the table resolves it) and through the table engine;
* `headline`: the three headline rows (random playouts against the Rng alone, then through
  `Table` and with the state hash after every entry, against the bare `GameDef`);
* `Columns`: the printed rows (a label, per second, per game, a ratio and a note);
* `parser` and `start`: the common options (``--games``, ``--rounds``, ``--quick``,
  ``--variant``) and the title, the host and the seeds of a run.

The benchmarks run as scripts from the repository root (``python bench/petals_playouts.py``),
so this folder is on ``sys.path`` and they ``import playouts``.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Sequence
from typing import Any

from hedgerow.core import Rng, SetupContext
from hedgerow.core.chance import draw_all
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.table import Table

Run = Callable[[], object]


def race(rounds: int, runs: dict[str, Run]) -> dict[str, float]:
    """The shortest wall time (seconds) of each run over ``rounds`` rounds.

    The runs take turns within every round, so that a burst of load elsewhere on the
    machine hits them alike, and the best round of each is the least disturbed.
    """
    best = dict.fromkeys(runs, float("inf"))
    for _ in range(rounds):
        for name, run in runs.items():
            start = time.perf_counter()
            run()
            best[name] = min(best[name], time.perf_counter() - start)
    return best


class CountingRng(Rng):
    """An `Rng` that counts its ``randbelow`` calls (to size the baseline)."""

    __slots__ = ("calls",)

    def __init__(self, seed: bytes, stream: str = "") -> None:
        super().__init__(seed, stream)
        self.calls = 0

    def randbelow(self, n: int) -> int:
        self.calls += 1
        return super().randbelow(n)


def baseline(draws: int, bound: int) -> Run:
    """A run of ``draws`` calls of ``Rng.randbelow(bound)``: the randomness of the games alone."""
    def run() -> None:
        rng = Rng(b"bench-baseline")
        for _ in range(draws):
            rng.randbelow(bound)
    return run


def playout(game: Any, players: int, seed: bytes, rng: Rng, states: list[Any] | None = None,
            chance_rng: Callable[[int], Rng] | None = None) -> tuple[object, int]:
    """One complete random game of a turn-based game through its GameDef: its outcome and its
    log length.

    Whenever the state waits for chance, the outcome the table would draw for that log index
    (``draw_all`` on ``Rng(seed, "chance/<i>")``, or ``chance_rng(i)``) is resolved; otherwise
    the active seat picks uniformly with ``rng``.  ``states`` collects every decision's state.
    """
    state = game.setup(SetupContext(players))
    active, legal_actions, apply = game.active_seats, game.legal_actions, game.apply
    pending_chance, resolve = game.pending_chance, game.resolve
    index = 0
    while True:
        pending = pending_chance(state)
        if pending is not None:
            source = chance_rng(index) if chance_rng else Rng(seed, f"chance/{index}")
            state = resolve(state, draw_all(source, pending))
            index += 1
            continue
        seats = active(state)
        if not seats:
            return game.outcome(state), index
        seat = seats[0]
        if states is not None:
            states.append(state)
        legal = legal_actions(state, seat)
        state = apply(state, seat, legal[rng.randbelow(len(legal))])
        index += 1


def count_draws(game: Any, players: int, seeds: Sequence[bytes]) -> tuple[int, int, int]:
    """Play `playout` once for every seed, counting: the ``randbelow`` calls (the picks and
    the chance nodes' draws), the log entries and the chance entries."""
    counter = CountingRng(b"bench-count")
    counters: list[CountingRng] = []
    entries = 0
    for s in seeds:
        def source(i: int, s: bytes = s) -> Rng:
            counters.append(CountingRng(s, f"chance/{i}"))
            return counters[-1]
        entries += playout(game, players, s, counter, chance_rng=source)[1]
    return counter.calls + sum(c.calls for c in counters), entries, len(counters)


def table_playout(ruleset: Any, players: int, seed: bytes, rng: Rng, hashed: bool = False,
                  lazy: bool = True) -> object:
    """The same game through the table engine (turn gate, chance entries, hash chain), and
    when ``hashed`` the canonical state hash after every action, as a networked peer does.

    ``lazy`` plays with ``Table.play`` (the chain digests computed once, at the end, if read);
    otherwise with ``Table.submit`` (every digest as the action is applied)."""
    table = Table(ruleset, players, seed)
    game = ruleset.gamedef
    step = table.play if lazy else table.submit
    while True:
        seats = table.active_seats()
        if not seats:
            return table.outcome()
        legal = game.legal_actions(table.state, seats[0])
        step(seats[0], legal[rng.randbelow(len(legal))])
        if hashed:
            table.state_hash()


class Columns:
    """The printed table: a label ``label`` wide, games per second ``rate`` wide, the time per
    game (``ms`` places) or per step (``us`` places), and a ratio with a note."""

    def __init__(self, label: int = 34, rate: int = 12, ms: int = 3, us: int = 2) -> None:
        self.label, self.rate, self.ms, self.us = label, rate, ms, us

    def header(self) -> None:
        print(f"{'':{self.label}}{'per second':>{self.rate}}{'per game':>12}{'ratio':>10}")

    def row(self, label: str, seconds: float, ratio: float | None = None, note: str = "", *,
            digits: int = 1, per_second: bool = True, unit: str = "ms") -> None:
        """One row: ``seconds`` a game (with games per second unless not ``per_second``)
        in ``unit`` (``"ms"`` or ``"us"``), then ``ratio`` with ``digits`` places and
        ``note`` in brackets."""
        scale, places = (1e3, self.ms) if unit == "ms" else (1e6, self.us)
        rate = f"{1 / seconds:>{self.rate},.0f}" if per_second else " " * self.rate
        text = f"{label:{self.label}}{rate}{seconds * scale:>10.{places}f}{unit}"
        if ratio is not None:
            text += f"{ratio:>9.{digits}f}x" + (f"  ({note})" if note else "")
        print(text)

    def step(self, label: str, seconds: float, ratio: float | None = None, note: str = "", *,
             digits: int = 2) -> None:
        """A row for one step (microseconds, no rate)."""
        self.row(label, seconds, ratio, note, digits=digits, per_second=False, unit="us")


def headline(columns: Columns, players: int, rounds: int, seeds: Sequence[bytes], *,
             play: Callable[[bytes, Rng], object],
             table_play: Callable[[bytes, Rng, bool], object],
             draws: int, bound: int, note: str, table_digits: int = 1) -> float:
    """Race and print the three headline rows for one player count; a game's seconds.

    ``play(seed, rng)`` is one game through the bare GameDef (``len(seeds)`` of them a round),
    ``table_play(seed, rng, hashed)`` one through `Table` (a fifth of the seeds a round);
    the baseline is ``draws`` calls of ``randbelow(bound)`` and ``note`` says what the first
    ratio is against."""
    games = len(seeds)
    few = seeds[: max(1, games // 5)]

    def games_run() -> None:
        rng = Rng(b"bench")
        for s in seeds:
            play(s, rng)

    def table_run(hashed: bool) -> Run:
        def run() -> None:
            rng = Rng(b"bench")
            for s in few:
                table_play(s, rng, hashed)
        return run

    t = race(rounds, {"games": games_run, "rng": baseline(draws, bound),
                      "table": table_run(False), "hashed": table_run(True)})
    t_games, t_base = t["games"] / games, t["rng"] / games
    t_table, t_hashed = t["table"] / len(few), t["hashed"] / len(few)
    label = f"{players} players"
    columns.row(f"{label}, random playouts", t_games, t_games / t_base, note)
    bare = "vs the bare GameDef"
    columns.row(f"{label}, through Table", t_table, t_table / t_games, bare, digits=table_digits)
    columns.row(f"{label}, Table + state hashes", t_hashed, t_hashed / t_games, bare,
                digits=table_digits)
    return t_games


def parser(doc: str | None, *, games: int = 1000, quick: tuple[int, int] = (200, 3),
           variant: str | None = None) -> argparse.ArgumentParser:
    """The common options: ``--games``, ``--rounds``, ``--quick`` (``quick`` games and
    rounds) and, when the game has variants (``variant`` names an example), ``--variant``."""
    options = argparse.ArgumentParser(description=(doc or "").splitlines()[0])
    options.add_argument("--games", type=int, default=games, help="games per round")
    options.add_argument("--rounds", type=int, default=5, help="rounds (the best is kept)")
    options.add_argument("--quick", action="store_true",
                         help=f"{quick[0]} games, {quick[1]} rounds")
    if variant is not None:
        options.add_argument("--variant", action="append", default=[], help=variant)
    options.set_defaults(quick_size=quick)
    return options


def start(args: argparse.Namespace, title: str,
          columns: Columns) -> tuple[PluginHost, list[bytes], int]:
    """Print the run's title and the column header; the host (built-ins only), the seeds of
    one round and the rounds."""
    games, rounds = args.quick_size if args.quick else (args.games, args.rounds)
    print(f"{title}: {games} games per round, best of {rounds} rounds\n")
    columns.header()
    return PluginHost(autoload=False), [seed_from_int(i) for i in range(games)], rounds

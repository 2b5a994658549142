"""Playing a tournament's games: one game into a JSON-ready record, and one batch on a worker.

`play_record` plays one game with `hedgerow.core.playout.play` (unchanged: each bot sees only
its view and draws from its own seeded stream), timing each bot's ``choose`` with a wrapper;
``hedgerow simulate`` and ``hedgerow tournament`` both record games with it.  `run_batch` is
the task a worker runs: it rebuilds the plugin host and the rules from the picklable `Job`
(once per worker process), plays games ``start..stop`` of the schedule
(`hedgerow.core.tournament`) and returns their records, or the records before the game that
failed and that failure named with its game number and seed.

A game record (see docs/tournaments.md)::

    {"index": 3, "seed": 10003, "bots": ["greedy", "random"], "actions": 41,
     "state_hash": "...", "outcome": {...outcome_data...},
     "moves": [20, 20], "seconds": [0.0021, 0.0004]}

``moves`` and ``seconds`` are per seat: how many times the seat's bot chose an action and
the wall-clock time it took in all (the only field that differs between two runs).
"""

from __future__ import annotations

import argparse
import dataclasses
import platform
import secrets
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from hedgerow.core import botchoice
from hedgerow.core.errors import HedgerowError
from hedgerow.core.game import Bot, BotContext, BotSpec
from hedgerow.core.outcome import Outcome, outcome_data
from hedgerow.core.playout import play
from hedgerow.core.pluginhost import PluginHost
from hedgerow.core.ruleset import Ruleset
from hedgerow.core.seeding import seed_from_int
from hedgerow.core.tournament import lineup, seed_number


@dataclass(frozen=True, slots=True)
class Job:
    """Everything a worker needs to play any game of one tournament (small and picklable).

    ``bots`` are the bot choices as typed (``--bots``); ``fingerprint`` is the rules the
    tournament was set up with, which a worker's own plugins must match.
    """

    game: str
    variants: tuple[str, ...]
    players: int
    seed: int
    bots: tuple[str, ...]
    fingerprint: str
    plugin_opts: tuple[str, ...] = ()


class _Clock:
    """The moves a seat's bot made and the time they took."""

    __slots__ = ("moves", "seconds")

    def __init__(self) -> None:
        self.moves = 0
        self.seconds = 0.0


class TimedBot:
    """Passes every call to ``bot`` and measures its ``choose`` (wall clock, for reports only)."""

    def __init__(self, bot: Bot, clock: _Clock) -> None:
        self._bot = bot
        self._clock = clock

    def choose(self, *args: Any, **kwargs: Any) -> Any:
        """The wrapped bot's choice, timed."""
        started = time.perf_counter()
        try:
            return self._bot.choose(*args, **kwargs)
        finally:
            self._clock.seconds += time.perf_counter() - started
            self._clock.moves += 1

    def __getattr__(self, name: str) -> Any:
        return getattr(self._bot, name)


def _timed(spec: BotSpec, clock: _Clock) -> BotSpec:
    def make(ctx: BotContext) -> Bot:
        return TimedBot(spec.make(ctx), clock)

    return dataclasses.replace(spec, make=make)


#: How many first seeds a run without ``--seed`` draws from (52 bits): far too many for a bot
#: to try one by one (each bot's stream is keyed by a digest of its table's seed:
#: `hedgerow.core.playout.bot_rng`), small enough that every game's seed, ``S + i``, is a
#: whole number any JSON reader keeps exactly (below 2**53).
RUN_SEEDS = 1 << 52


def run_seed(given: int | None) -> int:
    """The first seed of a run: ``given`` (``--seed``), or one drawn at random for this run.

    A seed a person types is a small number, and every card of every game follows from it;
    a bot plugin that knows how its own random stream is derived from the table seed could
    find a small seed by trying them in turn (a few microseconds a guess).  A run that is
    not given a seed therefore draws one from `RUN_SEEDS` with the operating system's
    generator: a secret of the run, never handed to a bot, shown to the person (each game's
    line and record carry it) so that any game can be played again with ``--seed``.
    """
    return given if given is not None else secrets.randbelow(RUN_SEEDS)


def bot_labels(choices: Sequence[str]) -> list[str]:
    """A label per bot choice: the choice itself, with ``#2``, ``#3`` on repeats."""
    seen: dict[str, int] = {}
    labels = []
    for choice in choices:
        seen[choice] = seen.get(choice, 0) + 1
        labels.append(choice if seen[choice] == 1 else f"{choice}#{seen[choice]}")
    return labels


def resolve_bot(plugins: PluginHost, choice: str, game: str) -> BotSpec:
    """The bot a ``--bots`` entry names, ``name[:params]`` (`hedgerow.core.botchoice`): a
    `HedgerowError` naming the installed bots, or what the bot accepts, otherwise."""
    return botchoice.resolve(plugins, choice, game)


def play_record(
    ruleset: Ruleset,
    players: int,
    number: int,
    seat_specs: Sequence[BotSpec],
    seat_labels: Sequence[str],
    index: int = 0,
) -> tuple[Outcome, dict[str, Any]]:
    """Play the game seeded ``seed_from_int(number)`` with one bot spec per seat: its outcome
    and its record (``index``: the game's number in its run)."""
    clocks = [_Clock() for _ in range(players)]
    specs = [_timed(seat_specs[s], clocks[s]) for s in range(players)]
    table = play(ruleset, players, seed_from_int(number), specs)
    outcome = table.outcome()
    if outcome is None:
        raise HedgerowError(f"seed {number}: the game ended with no outcome")
    return outcome, {
        "index": index,
        "seed": number,
        "bots": list(seat_labels),
        "actions": table.index,
        "state_hash": table.state_hash().hex(),
        "outcome": outcome_data(outcome),
        "moves": [c.moves for c in clocks],
        "seconds": [c.seconds for c in clocks],
    }


@dataclass(frozen=True, slots=True)
class Setup:
    """A job's rules and bots, built once per process."""

    ruleset: Ruleset
    specs: tuple[BotSpec, ...]
    labels: tuple[str, ...]


_SETUPS: dict[Job, Setup] = {}


def setup(job: Job) -> Setup:
    """The rules and bots of ``job`` in this process (built on first use, then kept)."""
    found = _SETUPS.get(job)
    if found is not None:
        return found
    from hedgerow.clients.cli import make_plugin_host

    plugins = make_plugin_host(argparse.Namespace(plugin_opts=list(job.plugin_opts)))
    ruleset = plugins.ruleset(job.game, job.variants)
    if ruleset.fingerprint != job.fingerprint:
        raise HedgerowError(
            f"this worker ({platform.node()}) has the rules {ruleset.fingerprint}, "
            f"the tournament was set up with {job.fingerprint}: install the same versions"
        )
    specs = tuple(resolve_bot(plugins, choice, job.game) for choice in job.bots)
    made = Setup(ruleset, specs, tuple(bot_labels(job.bots)))
    _SETUPS[job] = made
    return made


def play_game(job: Job, game: int) -> dict[str, Any]:
    """Play game ``game`` of ``job``'s schedule and return its record."""
    made = setup(job)
    seats = lineup(game, len(job.bots), job.players)
    _, record = play_record(
        made.ruleset,
        job.players,
        seed_number(job.seed, game),
        [made.specs[b] for b in seats],
        [made.labels[b] for b in seats],
        game,
    )
    return record


def run_batch(job: Job, start: int, stop: int) -> dict[str, Any]:
    """Play games ``start..stop-1`` of ``job``; a worker's task.

    Returns ``{"start": start, "records": [...], "seconds": s, "error": None}`` (``seconds``:
    the time the batch took here, which sizes the next ones); when a game raises, the records
    before it and ``"error"`` naming that game, its seed, its bots and the exception (with the
    traceback's text), so the tournament can stop and say which game failed.
    """
    records: list[dict[str, Any]] = []
    try:
        setup(job)  # once per process, and not counted in the time the games took
    except Exception as exc:
        return {"start": start, "records": records, "seconds": 0.0,
                "error": failure(job, start, exc)}
    started = time.perf_counter()
    error = None
    for game in range(start, stop):
        try:
            records.append(play_game(job, game))
        except Exception as exc:  # reported to the driver, which stops the tournament
            error = failure(job, game, exc)
            break
    seconds = time.perf_counter() - started
    return {"start": start, "records": records, "seconds": seconds, "error": error}


def failure(job: Job, game: int, exc: BaseException) -> dict[str, Any]:
    """A failed game as data: its number, seed, bots, the exception in one line, traceback."""
    bots = None
    if job.bots:
        seats = lineup(game, len(job.bots), job.players)
        bots = [bot_labels(job.bots)[b] for b in seats]
    message = exc.message if isinstance(exc, HedgerowError) else f"{type(exc).__name__}: {exc}"
    return {
        "index": game,
        "seed": seed_number(job.seed, game),
        "bots": bots,
        "message": message,
        "traceback": "".join(traceback.format_exception(exc)),
    }

"""What ``hedgerow host``, ``join`` and ``resume`` share: seat options, progress, the seat loop.

A networked seat is played either by a bot (``--bot STRATEGY``: headless, progress lines
on stdout) or by a person in the seat client (the terminal UI).  With ``--json`` stdout is
JSON Lines: one object per progress event (``{"event": ..., "text": ...}``) and, last, the
result: ``{"event": "result", "game", "seed", "outcome", "state_hash", "log", ...}``.
Refusals and other warnings go to stderr as ``hedgerow: ...`` lines.

Exit status: 0 when the game finished, 1 when the table halted or could not finish, 2 for
a bad argument or a refused join.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any, cast

from hedgerow.core.errors import HedgerowError

if TYPE_CHECKING:
    from hedgerow.clients.botrunner import Emit
    from hedgerow.core.game import BotSpec
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.net.messages import SeatEvent
    from hedgerow.net.seat import Seat


def add_seat_arguments(parser: argparse.ArgumentParser, *, name_help: str) -> None:
    """The options every networked seat command takes."""
    parser.add_argument("--bot", metavar="STRATEGY", default=None,
                        help="let a bot play this seat, headless (see: hedgerow games)")
    parser.add_argument("--name", default=None, help=name_help)
    parser.add_argument("--json", action="store_true",
                        help="JSON Lines on stdout: progress events, then the result")
    parser.add_argument("--as", dest="as_name", default=None, metavar="NAME",
                        help="play as the local player NAME: a key of their own in this "
                             "user's data folder (several players on one machine)")
    parser.add_argument("--key-file", default=None, metavar="PATH",
                        help="the CURVE identity to use (default: the user's own)")
    parser.add_argument("--delay", type=float, default=0.0, metavar="SECONDS",
                        help="a bot pauses this long before each move")
    parser.add_argument("--give-up", type=float, default=120.0, metavar="SECONDS",
                        help="a headless bot leaves after this long with nothing happening, "
                             "counted only while no person at the table is connected "
                             "(default: 120)")
    parser.add_argument("--take-over-after", type=float, default=None, metavar="SECONDS",
                        help="a headless bot that is the lowest remaining seat proposes that a "
                             "bot takes over a seat whose player has been gone this long "
                             "(the others agree; the player can reclaim it with hedgerow "
                             "resume)")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="a progress line for every action, and info logging")


def player_name(args: argparse.Namespace) -> str:
    """This player's name at the table."""
    return (args.name or getattr(args, "as_name", None) or os.environ.get("USER")
            or os.environ.get("USERNAME") or "player")


def key_file_of(args: argparse.Namespace) -> str | None:
    """The key file ``--as NAME`` or ``--key-file`` names (None: the user's own key)."""
    if getattr(args, "as_name", None) is not None:
        if args.key_file is not None:
            raise HedgerowError("--as and --key-file both name an identity: pass one of them")
        from hedgerow.net.keys import player_key_path

        return str(player_key_path(args.as_name))
    return cast(str | None, args.key_file)


def goodbye(peer: Seat) -> list[str]:
    """What a person reads once the seat client has closed: how the table stands now (the
    lines printed before the screen opened are stale by then: the result, or that the table
    agreed to end the game, and at a sealed table what the check of the deck found), and
    where the log is."""
    from hedgerow.clients.app.results import farewell_lines
    from hedgerow.net.seat import Phase

    phase = peer.phase()
    lines = []
    if phase == Phase.FINISHED:
        lines += farewell_lines(peer)
    elif phase == Phase.HALTED:
        lines.append(f"Stopped: {peer.problem()}")
    elif phase == Phase.PLAYING:
        lines.append(f"You left the table at action #{peer.index}, before the end of the game.")
    else:
        who = "closed your table" if peer.is_host else "left the table"
        lines.append(f"You {who} before the game started.")
    path = peer.log_path()
    if path is not None:
        lines.append(f"The table's log is saved in {path}")
        if phase == Phase.PLAYING:
            lines.append("Come back to this game with: hedgerow resume")
    return lines


class Printer:
    """Prints progress events as lines or as JSON objects (one per line)."""

    def __init__(self, as_json: bool) -> None:
        self.as_json = as_json

    def __call__(self, event: str, text: str, /, **fields: Any) -> None:
        if self.as_json:
            print(json.dumps({"event": event, "text": text, **fields}), flush=True)
        else:
            print(text, flush=True)


def result_record(peer: Seat) -> dict[str, Any]:
    """The final JSON object of a seat."""
    from hedgerow.core.outcome import outcome_data

    outcome = peer.outcome()
    state = peer.state_hash()
    ruleset = peer.ruleset
    return {
        "event": "result",
        "game": ruleset.spec.name if ruleset else None,
        "variants": list(ruleset.variant_names) if ruleset else [],
        "fingerprint": ruleset.fingerprint if ruleset else None,
        "deck": "sealed" if peer.sealed else "open",
        "verified": peer.verdict(),
        "players": peer.players,
        "seat": peer.seat,
        "seed": peer.seed.hex() if peer.seed else None,
        "phase": peer.phase().value,
        "actions": peer.index,
        "outcome": outcome_data(outcome) if outcome is not None else None,
        "state_hash": state.hex() if state else None,
        "log": str(peer.log_path()) if peer.log_path() else None,
        "problem": peer.problem(),
        "seat_events": seat_event_records(peer.departures.events),
    }


def seat_event_records(events: Iterable[SeatEvent]) -> list[dict[str, object]]:
    """The seat events (takeovers, reclaims, an agreed end) as the result record lists them."""
    return [{"kind": e.kind.name.lower(), "seat": e.seat, "runner": e.runner, "bot": e.bot,
             "index": e.index} for e in events]


def check_seat_player(args: argparse.Namespace, plugins: PluginHost,
                      game: str | None = None) -> BotSpec | None:
    """The bot spec for ``--bot`` (None for a person); refuses what cannot work."""
    if args.bot:
        return plugins.bot(args.bot, game)
    try:
        import hedgerow.clients.app.application  # noqa: F401
    except ImportError:
        raise HedgerowError("the seat client is not installed here: pass --bot STRATEGY "
                            "for a headless seat") from None
    if not sys.stdin.isatty() or not sys.stdout.isatty():
        raise HedgerowError("a person's seat needs a terminal; for a headless seat pass "
                            "--bot STRATEGY")
    return None


def setup_logging(args: argparse.Namespace) -> None:
    """Warnings (refusals, lost seats) as ``hedgerow: ...`` lines on stderr; with ``--json``
    every refused message is also a ``refused`` event on stdout (`RefusalEvents`)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(logging.Formatter("hedgerow: %(message)s"))
    root = logging.getLogger("hedgerow")
    root.addHandler(handler)
    if getattr(args, "json", False):
        root.addHandler(RefusalEvents(Printer(True)))
    root.setLevel(logging.INFO if args.verbose else logging.WARNING)
    logging.getLogger("hedgerow.net.zap").setLevel(logging.WARNING)


class RefusalEvents(logging.Handler):
    """A message this peer refused (a joiner whose rules differ, a full table, an action out
    of turn), as a JSON event: ``{"event": "refused", "text": ..., "what": "Hello", "from":
    ..., "code": "RULES_MISMATCH", "message": ...}``, the line stderr gets with its fields.
    Refusals are throttled per sender before they are logged, so a flood prints few."""

    def __init__(self, printer: Printer) -> None:
        super().__init__(logging.WARNING)
        self.printer = printer

    def emit(self, record: logging.LogRecord) -> None:
        fields = getattr(record, "refused", None)
        if isinstance(fields, dict):
            self.printer("refused", record.getMessage(), **fields)


def run_seat(args: argparse.Namespace, plugins: PluginHost, spec: BotSpec | None,
             open_peer: Callable[[], Awaitable[Seat]],
             opened: Callable[[Seat, Emit], None] | None = None,
             stop: Callable[[], bool] | None = None, *, lobby: bool = False) -> int:
    """Open the seat, play it (bot or seat client), close it, print the result.

    With ``lobby`` a person's seat opens in the lobby's seating room (where the host can
    fill open seats with bots) before the table screen, rather than straight at the table.
    """
    setup_logging(args)
    printer = Printer(args.json)
    return asyncio.run(_run(args, plugins, spec, open_peer, opened, stop, printer, lobby))


async def _run(args: argparse.Namespace, plugins: PluginHost, spec: BotSpec | None,
               open_peer: Callable[[], Awaitable[Seat]],
               opened: Callable[[Seat, Emit], None] | None,
               stop: Callable[[], bool] | None, printer: Printer, lobby: bool = False) -> int:
    from hedgerow.clients.botrunner import BotRunner

    task = asyncio.current_task()
    loop = asyncio.get_running_loop()
    if task is not None:
        with contextlib.suppress(NotImplementedError, RuntimeError):  # not on every platform
            loop.add_signal_handler(signal.SIGTERM, task.cancel)
    try:
        peer = await open_peer()
    except HedgerowError as exc:
        if args.json:  # the joiner's refusal, as an event too (stderr has the error line)
            printer("refused", exc.message, code=exc.code)
        raise
    status = 1
    person = spec is None and not args.json
    try:
        if opened is not None:
            # A person's screen opens at once: lines printed now would only be stale later.
            opened(peer, _quiet if person else printer)
        if spec is not None and not spec.plays(peer.ruleset.spec.name):
            raise HedgerowError(f"bot {spec.name!r} cannot play {peer.ruleset.spec.name}")
        if spec is not None:
            resumed = getattr(args, "command", None) == "resume"
            runner = BotRunner(peer, spec, emit=printer, delay=args.delay,
                               give_up=args.give_up, verbose=args.verbose, stop=stop,
                               reported=len(peer.history()) if resumed else 0,
                               take_over=getattr(args, "take_over_after", None))
            status = await runner.run()
        elif lobby:
            from hedgerow.clients.app import run_lobby

            status = await run_lobby(plugins, seat=peer, seat_name=player_name(args))
        else:
            from hedgerow.clients.app import run_seat as run_client

            status = await run_client(peer, plugins=plugins)
    except asyncio.CancelledError:
        printer("stopped", "stopped")
        status = 1
    finally:
        await peer.close()
    if args.json:
        print(json.dumps(result_record(peer)), flush=True)
    elif person:
        print("\n".join(goodbye(peer)), flush=True)
    elif peer.log_path() is not None:
        print(f"log {peer.log_path()}", flush=True)
    return status


def _quiet(event: str, text: str, /, **fields: Any) -> None:
    """Reports nothing (a person's seat: the screen shows it)."""

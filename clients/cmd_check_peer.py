"""``hedgerow check-peer host HOST:PORT/KEY``, ``hedgerow check-peer join GAME`` and
``hedgerow check-peer watch GAME``: check another implementation's peer against
docs/protocol.md.

``host``: the checker joins the table the peer under test opened
(``hedgerow.net.conformance.hosted``).  ``join``: the checker opens a table of 2 seats,
prints its address as ``hedgerow host`` does (``table open at HOST:PORT/KEY (sealed deck)``;
with ``--json`` the line ``{"event": "open", "address": ...}``) and waits for the peer under
test to join it (``hedgerow.net.conformance.hosting``).  ``watch``: the same table,
both seats the checker's, for the peer under test to watch as a spectator
(``hedgerow.net.conformance.watching``; ours: ``hedgerow watch ADDRESS --json``).  Either
way it plays a whole game with the peer and sends it hostile envelopes, then prints one
line per scenario (pass, fail or skip, the protocol section; for a failure the first
deviation, expected and got) and a summary.  ``--json`` prints the same as one JSON object, for CI.
The exit status is 0 only when every scenario passed, 1 when any failed or was skipped, 2
for a bad argument.

For ``host`` the peer under test opens a table of 2 seats (sealed, or with an open deck;
or of 3 seats with an open deck: the checker takes two and drives an agreed end)
with rules installed here, e.g. ``hedgerow host petals --players 2 --bot random
--take-over-after 1`` for our own peer (``--take-over-after``: it seats a bot for the
departed checker, §5.9); for ``join`` it joins the address printed, e.g.
``hedgerow join ADDRESS --bot random --take-over-after 1``; ``join --players 3
--open-deck`` opens a table of three, the checker at seats 0 and 2, for the agreed end.
docs/protocol.md "Writing your own peer" says more.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from hedgerow.clients.cli import make_plugin_host

if TYPE_CHECKING:
    from hedgerow.net.conformance.report import Report


#: The hostile faults of ``--halt`` (hedgerow.net.conformance.sealed.FAULTS).
HALTS = ("bad-shuffle", "wrong-key", "unheld-card", "bad-disclosure")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow check-peer``."""
    sub = parser.add_subparsers(dest="mode", metavar="MODE", required=True)
    host = sub.add_parser("host", help="join the table the peer under test hosts and check "
                          "it as a strict joiner",
                          description="join the table the peer under test hosts (2 seats, "
                          "sealed or with an open deck; or 3 seats with an open deck, of which "
                          "the checker takes two and the table agrees to end the game) and "
                          "check it as a strict joiner")
    host.add_argument("address", metavar="HOST:PORT/KEY",
                      help="the table's address, as the peer under test printed it")
    join = sub.add_parser("join", help="open a table and check the peer under test as it "
                          "joins, as a strict host",
                          description="open a table of 2 seats (sealed, or with --open-deck "
                          "an open deck; --players 3 for the agreed end), print its address "
                          "and check the peer under test that joins it")
    watch = sub.add_parser("watch", help="open a table and check the peer under test as "
                           "it watches it, as a strict host",
                           description="open an open-deck table of 2 seats (both the "
                           "checker's), print its address and check the peer under test that "
                           "watches it as a spectator (docs/protocol.md §3.4)")
    for p, who in ((join, "join"), (watch, "watch")):
        p.add_argument("game", help="the game of the table (see: hedgerow games)")
        p.add_argument("--variant", action="append", default=[], metavar="V",
                       help="a variant to use (repeat for several)")
        p.add_argument("--bind", default="0.0.0.0", metavar="HOST",
                       help="the address to listen on (default: 0.0.0.0, every interface; "
                            "127.0.0.1 for this machine only)")
        p.add_argument("--port", type=int, default=0, metavar="P",
                       help="the port to listen on (default: any free port)")
        p.add_argument("--wait", type=float, default=300.0, metavar="SECONDS",
                       help=f"how long to wait for the peer under test to {who} "
                            "(default: 300)")
    join.add_argument("--open-deck", action="store_true",
                      help="open the table with an open deck (default: a sealed deck, as "
                           "hedgerow host does)")
    join.add_argument("--players", type=int, default=2, choices=(2, 3), metavar="N",
                      help="seats at the checker's table: 2 (default), or 3 with --open-deck "
                           "(the checker holds seats 0 and 2; seat 2 leaves and the table "
                           "agrees to end the game, docs/protocol.md §5.9)")
    for p in (host, join, watch):
        p.add_argument("--json", action="store_true",
                       help="print the report as one JSON object (for CI)")
        p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                       help="how long to wait for any one answer of the peer under test "
                            "(default: 10)")
        p.add_argument("--name", default="check-peer",
                       help="the checker's display name at the table (default: check-peer)")
    for p in (host, join):
        p.add_argument("--halt", default="", metavar="FAULT", choices=HALTS,
                       help="at a sealed table, provoke this fault the table must halt on, "
                            "once, and end the run there: " + ", ".join(HALTS))
        p.add_argument("--log", type=Path, default=None, metavar="PATH",
                       help="the log file the peer under test writes, or the folder it "
                            "writes its logs in: checked once the game is over (§6)")


def run(args: argparse.Namespace) -> int:
    """Run the scenarios; 0 only when every one passed."""
    from hedgerow.core.errors import HedgerowError

    if not args.timeout > 0:
        raise HedgerowError(f"--timeout must be a positive number of seconds, not "
                            f"{args.timeout:g}")
    report = run_host(args) if args.mode == "host" else run_table(args)
    print(report.as_json() if args.json else report.text())
    sys.stdout.flush()
    return 0 if report.passed else 1


def run_host(args: argparse.Namespace) -> Report:
    """``check-peer host``: the report."""
    from hedgerow.core.errors import HedgerowError
    from hedgerow.net.address import parse_address
    from hedgerow.net.conformance.hosted import check_hosted

    try:
        address = parse_address(args.address)
    except ValueError as exc:
        raise HedgerowError(f"{args.address!r} is not a table address HOST:PORT/KEY: {exc}") \
            from None
    plugins = make_plugin_host(args)
    return asyncio.run(check_hosted(address, plugins, timeout=args.timeout, name=args.name,
                                    log=args.log, halt=args.halt))


def run_table(args: argparse.Namespace) -> Report:
    """``check-peer join`` and ``check-peer watch``: print the address, wait for the peer;
    the report."""
    from hedgerow.core.errors import HedgerowError
    from hedgerow.net.address import TableAddress
    from hedgerow.net.conformance.hosting import check_joining
    from hedgerow.net.conformance.watching import check_watching

    open_deck = args.mode == "watch" or args.open_deck  # (a watched table: an open deck)
    if args.mode == "join" and args.halt and open_deck:
        raise HedgerowError(f"--halt {args.halt} provokes a sealed-deck fault: not with "
                            "--open-deck")
    players = args.players if args.mode == "join" else 2
    if players == 3 and not open_deck:
        raise HedgerowError("--players 3 needs --open-deck: a sealed table of three escrows "
                            "each party's secret (docs/protocol.md §10.11), which the checker "
                            "does not drive yet")
    if not args.wait > 0:
        raise HedgerowError(f"--wait must be a positive number of seconds, not {args.wait:g}")
    if not 0 <= args.port < 65536:
        raise HedgerowError(f"--port must be between 0 and 65535, not {args.port}")
    plugins = make_plugin_host(args)
    ruleset = plugins.ruleset(args.game, args.variant)

    deck = "open" if open_deck else "sealed"

    def opened(address: TableAddress, fingerprint: str) -> None:
        if args.json:
            print(json.dumps({"event": "open", "address": str(address),
                              "fingerprint": fingerprint, "players": players, "deck": deck}))
        else:
            verb = "join" if args.mode == "join" else "watch"
            seats = " of 3 seats, 2 the checker's," if players == 3 else ""
            # Our own peer as the one under test: a bot that stays for the departures and
            # seats a bot for a departed checker (§5.9); without a policy it leaves.
            ours = " --bot random --take-over-after 1" if verb == "join" else ""
            print(f"table{seats} open at {address} ({deck} deck): {verb} it with the peer "
                  f"under test, e.g. ours: hedgerow {verb} {address}{ours}")
        sys.stdout.flush()

    async def check() -> Report:
        try:
            if args.mode == "watch":
                return await check_watching(ruleset, plugins, bind=args.bind, port=args.port,
                                            timeout=args.timeout, wait=args.wait,
                                            name=args.name, opened=opened)
            return await check_joining(ruleset, plugins, bind=args.bind, port=args.port,
                                       timeout=args.timeout, wait=args.wait, name=args.name,
                                       log=args.log, opened=opened,
                                       open_deck=open_deck, halt=args.halt, players=players)
        except OSError as exc:
            raise HedgerowError(str(exc)) from None

    return asyncio.run(check())

"""``hedgerow check-peer host HOST:PORT/KEY``: check another implementation's peer against
docs/protocol.md.

The checker joins the table the peer under test opened (``hedgerow.net.conformance``),
plays a whole game with it as a strict joiner and sends it hostile envelopes at its own
turn, then prints one line per scenario (pass, fail or skip, the protocol section; for a
failure the first deviation, expected and got) and a summary.  ``--json`` prints the same
as one JSON object, for CI.  The exit status is 0 only when every scenario passed, 1 when
any failed or was skipped, 2 for a bad argument.

The peer under test opens an open-deck table of 2 seats with rules installed here, e.g.
``hedgerow host petals --players 2 --open-deck --bot random`` for our own peer;
docs/protocol.md "Writing your own peer" says more.
"""

from __future__ import annotations

import argparse
import asyncio
import sys

from hedgerow.clients.cli import make_plugin_host


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow check-peer``."""
    sub = parser.add_subparsers(dest="mode", metavar="MODE", required=True)
    host = sub.add_parser("host", help="join the table the peer under test hosts and check "
                          "it as a strict joiner",
                          description="join the table the peer under test hosts (an "
                          "open-deck table of 2 seats) and check it as a strict joiner")
    host.add_argument("address", metavar="HOST:PORT/KEY",
                      help="the table's address, as the peer under test printed it")
    for p in (host,):
        p.add_argument("--json", action="store_true",
                       help="print the report as one JSON object (for CI)")
        p.add_argument("--timeout", type=float, default=10.0, metavar="SECONDS",
                       help="how long to wait for any one answer of the peer under test "
                            "(default: 10)")
        p.add_argument("--name", default="check-peer",
                       help="the checker's display name at the table (default: check-peer)")


def run(args: argparse.Namespace) -> int:
    """Run the scenarios; 0 only when every one passed."""
    from hedgerow.core.errors import HedgerowError
    from hedgerow.net.address import parse_address
    from hedgerow.net.conformance.hosted import check_hosted

    if not args.timeout > 0:
        raise HedgerowError(f"--timeout must be a positive number of seconds, not "
                            f"{args.timeout:g}")
    try:
        address = parse_address(args.address)
    except ValueError as exc:
        raise HedgerowError(f"{args.address!r} is not a table address HOST:PORT/KEY: {exc}") \
            from None
    plugins = make_plugin_host(args)
    report = asyncio.run(check_hosted(address, plugins, timeout=args.timeout, name=args.name))
    print(report.as_json() if args.json else report.text())
    sys.stdout.flush()
    return 0 if report.passed else 1

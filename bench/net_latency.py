"""Action latency at a 4-peer table on loopback, next to a raw pyzmq round trip.

For every action of complete 4-player Petals games between four bot peer processes
(`bench/netpeer.py`, the real code path), the latency is the time from the author's
`submit` to the moment the entry is applied on *all four* peers (the last of them), each
peer timing with CLOCK_MONOTONIC.  The baseline, measured in the same run between two
processes on the same loop library: a DEALER -> ROUTER -> DEALER round trip of a 100-byte
frame with pyzmq's asyncio sockets, with CURVE (as the peers use) and without.

    python bench/net_latency.py [--games 10] [--game petals] [--players 4] [--sealed]

The tables have an open deck, as the goal below was set for (``--sealed``: sealed tables, the
default of ``hedgerow host``; `bench/sealed_deck.py` compares the two).  Figures are medians
and 99th percentiles; the ratio is the one to watch (the goal: the median action latency at
most 2x the CURVE round trip).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROUND_TRIPS = 2000


def peer_env() -> dict[str, str]:
    env = dict(os.environ)
    env["HEDGEROW_HOME"] = tempfile.mkdtemp(prefix="hedgerow-bench-")
    env["HEDGEROW_NO_DISCOVERY"] = "1"
    return env


def start(args: list[str]) -> subprocess.Popen[str]:
    return subprocess.Popen([sys.executable, str(HERE / "netpeer.py"), *args], env=peer_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def play_game(game: str, players: int, *, sealed: bool = False) -> list[dict[str, Any]]:
    """One networked game of bot peer processes (an open-deck table unless ``sealed``);
    each peer's report."""
    host = start(["host", game, str(players), *([] if sealed else ["--open-deck"])])
    assert host.stdout is not None
    address = json.loads(host.stdout.readline())["address"]
    joiners = [start(["join", address]) for _ in range(players - 1)]
    reports = []
    for proc in [host, *joiners]:
        out, _ = proc.communicate(timeout=120)
        reports.append(json.loads(out.strip().splitlines()[-1]))
    if len({r["state_hash"] for r in reports}) != 1 or any(r["code"] for r in reports):
        raise SystemExit(f"the peers did not agree: {reports}")
    return reports


def latencies(reports: list[dict[str, Any]]) -> list[float]:
    """Microseconds from submit to applied-everywhere, one per action."""
    out = []
    for report in reports:
        for index, t0 in report["submitted"].items():
            t1 = max(r["applied"][index] for r in reports)
            out.append((t1 - t0) / 1000)
    return out


# -- the raw pyzmq baseline ---------------------------------------------------------------


def echo_server(curve: bool) -> None:
    """Echo every frame back (the ROUTER side of the baseline), until stdin closes."""
    import zmq
    import zmq.asyncio

    async def serve() -> None:
        ctx = zmq.asyncio.Context()
        sock = ctx.socket(zmq.ROUTER)
        if curve:
            from zmq.auth import CURVE_ALLOW_ANY
            from zmq.auth.asyncio import AsyncioAuthenticator

            auth = AsyncioAuthenticator(ctx)
            auth.start()
            auth.configure_curve(domain="*", location=CURVE_ALLOW_ANY)
            public, secret = zmq.curve_keypair()
            sock.curve_server = True
            sock.curve_publickey, sock.curve_secretkey = public, secret
            print(public.decode(), flush=True)
        else:
            print("-", flush=True)
        sock.bind("tcp://127.0.0.1:0")
        print(sock.last_endpoint.decode(), flush=True)
        while True:
            frames = await sock.recv_multipart(copy=False)
            await sock.send_multipart(frames)

    asyncio.run(serve())


def round_trips(curve: bool, count: int = ROUND_TRIPS) -> list[float]:
    """Microseconds per DEALER -> ROUTER -> DEALER round trip to an echo process."""
    import zmq
    import zmq.asyncio

    server = subprocess.Popen([sys.executable, __file__, "--echo", "curve" if curve else "plain"],
                              stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    key = server.stdout.readline().strip()
    endpoint = server.stdout.readline().strip()

    async def client() -> list[float]:
        ctx = zmq.asyncio.Context()
        sock = ctx.socket(zmq.DEALER)
        sock.linger = 0
        if curve:
            public, secret = zmq.curve_keypair()
            sock.curve_publickey, sock.curve_secretkey = public, secret
            sock.curve_serverkey = key.encode()
        sock.connect(endpoint)
        payload = os.urandom(100)
        times = []
        for i in range(count + 100):
            t0 = time.monotonic_ns()
            await sock.send(payload)
            await sock.recv()
            if i >= 100:  # the first ones warm up the connection
                times.append((time.monotonic_ns() - t0) / 1000)
        sock.close()
        ctx.term()
        return times

    try:
        return asyncio.run(client())
    finally:
        server.kill()
        server.wait()


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--game", default="petals")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--sealed", action="store_true", help="sealed tables (default: open deck)")
    parser.add_argument("--echo", choices=["curve", "plain"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo:
        echo_server(args.echo == "curve")
        return
    rtt_curve = round_trips(True)
    rtt_plain = round_trips(False)
    actions: list[float] = []
    for _ in range(args.games):
        actions += latencies(play_game(args.game, args.players, sealed=args.sealed))
    rtt_curve += round_trips(True)  # before and after the games, same conditions
    rtt_plain += round_trips(False)
    med_a, med_c = statistics.median(actions), statistics.median(rtt_curve)
    print(f"{args.games} games of {args.game}, {'sealed' if args.sealed else 'open'} deck, "
          f"{args.players} peer processes, "
          f"{len(actions)} actions; {os.cpu_count()} cores")
    print(f"{'':44} {'median':>9} {'p99':>9}")
    print(f"{'action submitted -> applied on every peer':44} {med_a:8.0f}us "
          f"{pct(actions, 0.99):8.0f}us")
    print(f"{'raw pyzmq round trip, CURVE':44} {med_c:8.0f}us {pct(rtt_curve, 0.99):8.0f}us")
    print(f"{'raw pyzmq round trip, no security':44} {statistics.median(rtt_plain):8.0f}us "
          f"{pct(rtt_plain, 0.99):8.0f}us")
    print(f"ratio (median action / median CURVE round trip): {med_a / med_c:.2f}x "
          f"(goal <= 2x)")


if __name__ == "__main__":
    main()

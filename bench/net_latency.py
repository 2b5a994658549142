"""Action latency at tables of bot peer processes on loopback, next to a raw pyzmq round trip.

For every action of complete games between bot peer processes (`bench/netpeer.py`, the
real code path), the latency is the time from the author's `submit` to the moment the entry
is applied on *every* peer (the last of them), each peer timing with CLOCK_MONOTONIC.  The
baseline, measured in the same run between two processes on the same loop library: a
DEALER -> ROUTER -> DEALER round trip of a 100-byte frame with pyzmq's asyncio sockets, with
CURVE (as the peers use) and without.  Each table is also counted: the envelopes every peer
sent from the first action to the last one applied everywhere, by body kind, per action.

    python bench/net_latency.py [--games 10] [--tables petals:2,petals:4,flourish:7]
        [--decks open,sealed] [--python LABEL=PATH]

The tables take turns game by game (every table and deck once per round, and each
``--python`` checkout's interpreter in turn), so load from other jobs falls on all alike.
The goals were set for open-deck tables; a sealed table adds the card keys each action's
cards need (`bench/sealed_deck.py` weighs the sealed deck itself).  Figures are medians and
99th percentiles; the ratio is the one to watch (the goals: the median action latency at
most 2x the CURVE round trip at 2 and 4 peers, 3x at 7).
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
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROUND_TRIPS = 2000


def peer_env() -> dict[str, str]:
    env = dict(os.environ)
    env["HEDGEROW_HOME"] = tempfile.mkdtemp(prefix="hedgerow-bench-")
    env["HEDGEROW_NO_DISCOVERY"] = "1"
    return env


def start(args: list[str], python: str = sys.executable) -> subprocess.Popen[str]:
    return subprocess.Popen([python, str(HERE / "netpeer.py"), *args], env=peer_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)


def play_game(game: str, players: int, *, sealed: bool = False,
              python: str = sys.executable) -> list[dict[str, Any]]:
    """One networked game of bot peer processes run by ``python`` (an open-deck table unless
    ``sealed``); each peer's report."""
    host = start(["host", game, str(players), *([] if sealed else ["--open-deck"])], python)
    assert host.stdout is not None
    address = json.loads(host.stdout.readline())["address"]
    joiners = [start(["join", address], python) for _ in range(players - 1)]
    reports = []
    for proc in [host, *joiners]:
        out, _ = proc.communicate(timeout=120)
        reports.append(json.loads(out.strip().splitlines()[-1]))
    if len({r["state_hash"] for r in reports}) != 1 or any(r["code"] for r in reports):
        raise SystemExit(f"the peers did not agree: {reports}")
    return reports


def messages(reports: list[dict[str, Any]]) -> tuple[int, Counter[str], Counter[str]]:
    """The actions of a game, and the envelopes (count, bytes) by kind every peer sent
    from the first action submitted to the last entry applied everywhere."""
    first = min(t for r in reports for t in r["submitted"].values())
    last = max(t for r in reports for t in r["applied"].values())
    count: Counter[str] = Counter()
    size: Counter[str] = Counter()
    for report in reports:
        for t, kind, nbytes in report["sent"]:
            if first <= t <= last:
                count[kind] += 1
                size[kind] += nbytes
    cpu = [r["cpu_ns"] for r in reports]
    count["cpu_us"] = sum(c["finished"] - c.get("ready", c["finished"]) for c in cpu) // 1000
    count["loop_us"] = sum(r.get("loop_cpu_ns") or 0 for r in reports) // 1000
    count["frames_us"] = sum(c for r in reports for t, _, c in r.get("received", ())
                             if first <= t <= last) // 1000
    count["seal_us"] = sum(sum(r.get("seal_ns", ())) for r in reports) // 1000
    return sum(len(r["submitted"]) for r in reports), count, size


def segments(reports: list[dict[str, Any]]) -> list[tuple[float, float, float]]:
    """Where each action's latency went, on the peer that applied it last: the author's part
    (submit -> its ActionMsg handed to ZeroMQ), the wire's (-> the frame reaches the last
    peer's loop) and that peer's own (-> applied there), in microseconds.  Only actions sent
    as an ActionMsg (not a simultaneous step's commit and reveal)."""
    out = []
    for author in reports:
        sends = sorted(t for t, kind, _ in author["sent"] if kind == "ActionMsg")
        for index, t0 in author["submitted"].items():
            later = [t for t in sends if t >= t0]
            others = [r for r in reports if r is not author]
            if not later or not others:
                continue
            sent = later[0]
            last = max(others, key=lambda r: r["applied"][index])
            applied = last["applied"][index]
            frames = [t for t, *_ in last["received"] if sent <= t <= applied]
            if frames:
                out.append(((sent - t0) / 1000, (frames[-1] - sent) / 1000,
                            (applied - frames[-1]) / 1000))
    return out


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


Case = tuple[str, str, int, str]  # interpreter label, game, players, deck


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--tables", default="petals:2,petals:4,flourish:7",
                        help="GAME:PLAYERS, comma-separated")
    parser.add_argument("--decks", default="open,sealed", help="open, sealed or both")
    parser.add_argument("--python", action="append", default=[], metavar="LABEL=PATH",
                        help="also play every table with another checkout's interpreter")
    parser.add_argument("--echo", choices=["curve", "plain"], help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.echo:
        echo_server(args.echo == "curve")
        return
    pythons = {"": sys.executable}
    for item in args.python:
        label, _, path = item.partition("=")
        if not label or not path:
            parser.error(f"--python wants LABEL=PATH, not {item!r}")
        pythons[label] = path
    cases: list[Case] = [(label, game, int(n), deck) for game, n in
                         (t.split(":") for t in args.tables.split(","))
                         for deck in args.decks.split(",") for label in pythons]
    rtt_curve = round_trips(True)
    rtt_plain = round_trips(False)
    actions: dict[Case, list[float]] = {c: [] for c in cases}
    parts: dict[Case, list[tuple[float, float, float]]] = {c: [] for c in cases}
    counts: dict[Case, list[Any]] = {c: [0, Counter(), Counter()] for c in cases}
    for _ in range(args.games):
        for case in cases:
            reports = play_game(case[1], case[2], sealed=case[3] == "sealed",
                                python=pythons[case[0]])
            actions[case] += latencies(reports)
            parts[case] += segments(reports)
            n, count, size = messages(reports)
            counts[case][0] += n
            counts[case][1].update(count)
            counts[case][2].update(size)
    rtt_curve += round_trips(True)  # before and after the games, same conditions
    rtt_plain += round_trips(False)
    med_c = statistics.median(rtt_curve)
    print(f"{args.games} games of each table; {os.cpu_count()} cores; load "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'':52} {'median':>9} {'p99':>9}")
    print(f"{'raw pyzmq round trip, CURVE':52} {med_c:8.0f}us {pct(rtt_curve, 0.99):8.0f}us")
    print(f"{'raw pyzmq round trip, no security':52} {statistics.median(rtt_plain):8.0f}us "
          f"{pct(rtt_plain, 0.99):8.0f}us")

    def name(case: Case) -> str:
        return (f"{case[1]} {case[2]} peers, {case[3]} deck"
                + (f" [{case[0]}]" if case[0] else ""))

    for case in cases:
        lat = actions[case]
        med_a = statistics.median(lat)
        label = f"{name(case)} ({len(lat)} actions)"
        print(f"{label:52} {med_a:8.0f}us {pct(lat, 0.99):8.0f}us  = {med_a / med_c:5.2f}x")
    print("where an action's time went (medians, us): the author, the wire to the last peer "
          "to apply it, that peer")
    for case in cases:
        if parts[case]:
            a, w, r = (statistics.median(p[i] for p in parts[case]) for i in range(3))
            print(f"  {name(case)}: {a:.0f} + {w:.0f} + {r:.0f}")
    print("envelopes sent per action (all peers), by kind; bytes per action; CPU per action "
          "(all peers, every thread, from ready to finished)")
    for case in cases:
        n, count, size = counts[case]
        cpu = count.pop("cpu_us", 0) / n
        loop, frames, seals = (count.pop(k, 0) / n for k in ("loop_us", "frames_us", "seal_us"))
        kinds = ", ".join(f"{k} {c / n:.1f}" for k, c in count.most_common())
        print(f"  {name(case)}: {sum(count.values()) / n:.1f} ({kinds}); "
              f"{sum(size.values()) / n:.0f} B; CPU {cpu:.0f} us: the loops {loop:.0f} (handling "
              f"frames {frames:.0f}, sealing {seals:.0f}), other threads {cpu - loop:.0f}")


if __name__ == "__main__":
    main()

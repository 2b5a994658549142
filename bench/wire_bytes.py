"""Bytes on the wire between peers, idle and in play, by what they carry.

A table of bot peer processes (`bench/netpeer.py`), each in a network namespace of its own on
a simulated LAN (`tests/reliability/lan.py`: one bridge, a veth pair per host), so that each
peer's interface counters are its own links' bytes: every envelope, its ZeroMQ framing and
CURVE box, ZMTP's own commands and TCP/IP down to the Ethernet header.  Two measurements per
table, in turns:

* **idle**: every seat taken and play possible, nobody acting (a table waiting for a person);
  after ``--settle`` seconds (a sealed table's deal) the counters run for ``--seconds``;
* **play**: a whole game of random bots, from the moment play is possible to the last entry.

For each, per peer and per link (a peer has a link to each other peer), bytes and packets a
second each way, and the envelopes the peers sent in that time by body kind: how many a
second on a link, their mean size, and an estimate of their bytes on the wire (the envelope,
35 bytes of ZMTP frame and CURVE box, 66 of TCP/IP/Ethernet headers); what the counters saw
beyond that (ZMTP heartbeats, TCP acknowledgements, coalescing the other way) is the
``other`` row.

    sudo python bench/wire_bytes.py [--players 4] [--game petals] [--decks sealed,open]
        [--seconds 20] [--settle 8] [--games 2] [--python LABEL=PATH]
        [--slow RATE [--limit SECONDS]]

With ``--slow RATE`` (``8kbit``) it measures a slow link instead: the last joiner's link is
shaped to RATE each way (``tc tbf``, as tests/reliability/test_slow_link.py does) and each
table plays a whole game (stopped after ``--limit`` seconds, default 600); per table, how
long the deal and the game took from the seed agreed, and the bytes every other peer sent
the slow peer and the slow peer sent, by body kind, with the sealed-deck messages sent to
the same peer before (repeats) counted apart.

Needs root (network namespaces), ``ip``, ``tc`` and ``nft``, as tests/reliability does.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "tests" / "reliability"))

from lan import Lan, lan_available  # noqa: E402
from net_latency import peer_env  # noqa: E402

#: Bytes a small envelope costs beyond itself: a ZMTP short frame (2) and the CURVE MESSAGE
#: command (8 name + 8 nonce + 16 MAC + 1 flags), then TCP (32 with timestamps), IPv4 (20)
#: and Ethernet (14) headers, when it travels in a segment of its own.
FRAMING = 35
HEADERS = 66


def run_table(lan: Lan, python: str, game: str, players: int, open_deck: bool,
              idle: tuple[float, float] | None, limit: float = 0.0) -> list[dict[str, Any]]:
    """One table, a peer per host of ``lan``: each peer's report (``limit``: stop playing
    after that many seconds)."""
    extra = ["--idle", str(idle[0]), "--settle", str(idle[1])] if idle else []
    extra += ["--limit", str(limit)] if limit else []
    with contextlib.ExitStack() as files:
        errors: list[Any] = []  # each peer's stderr, a file (a pipe could fill and stall it)

        def start(i: int, args: list[str]) -> subprocess.Popen[str]:
            errors.append(files.enter_context(tempfile.TemporaryFile("w+")))
            return subprocess.Popen([*lan[i].prefix(), python, str(HERE / "netpeer.py"),
                                     *extra, *args], env=peer_env(), stdout=subprocess.PIPE,
                                    stderr=errors[-1], text=True)

        host = start(0, ["--bind", lan[0].address, *(["--open-deck"] if open_deck else []),
                         "host", game, str(players)])
        assert host.stdout is not None
        address = json.loads(host.stdout.readline())["address"]
        joiners = [start(i, ["join", address]) for i in range(1, players)]
        reports = []
        for proc, err in zip([host, *joiners], errors, strict=True):
            out, _ = proc.communicate(timeout=max(300.0, limit + 120))
            if not out.strip():
                err.seek(0)
                raise SystemExit(f"a peer printed no report (exit {proc.returncode}): "
                                 f"{err.read()[-2000:]}")
            reports.append(json.loads(out.strip().splitlines()[-1]))
    if any((r["code"] and r["code"] != "limit") or r["wire"] is None for r in reports):
        raise SystemExit(f"a peer failed: {[r['code'] for r in reports]}")
    return reports


def summary(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """Per peer and per link, a second: wire bytes and packets each way; envelopes by kind."""
    links = len(reports) - 1
    rates: dict[str, list[float]] = {"tx_bytes": [], "rx_bytes": [], "tx_packets": [],
                                      "rx_packets": []}
    kinds: Counter[str] = Counter()
    sizes: Counter[str] = Counter()
    seconds = 0.0
    for r in reports:
        t0, t1 = r["window"]
        span = (t1 - t0) / 1e9
        seconds += span
        for name in rates:
            rates[name].append(r["wire"][name] / span)
        for t, kind, size in r["sent"]:
            if t0 <= t <= t1:
                kinds[kind] += 1
                sizes[kind] += size
    return {"links": links, "rates": {k: statistics.mean(v) for k, v in rates.items()},
            "kinds": {k: (kinds[k] / seconds / links, sizes[k] / kinds[k]) for k in kinds}}


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    """The mean of several tables' summaries."""
    kinds = sorted({k for p in parts for k in p["kinds"]})
    return {
        "links": parts[0]["links"],
        "rates": {k: statistics.mean(p["rates"][k] for p in parts) for k in parts[0]["rates"]},
        "kinds": {k: (statistics.mean(p["kinds"].get(k, (0.0, 0.0))[0] for p in parts),
                      statistics.mean(p["kinds"][k][1] for p in parts if k in p["kinds"]))
                  for k in kinds},
    }


def show(title: str, s: dict[str, Any]) -> None:
    links, rates = s["links"], s["rates"]
    print(f"\n{title}")
    print(f"  per peer: {rates['tx_bytes']:7.0f} B/s out, {rates['rx_bytes']:7.0f} B/s in "
          f"({rates['tx_packets']:.1f} / {rates['rx_packets']:.1f} packets/s); per link "
          f"{rates['tx_bytes'] / links:6.0f} B/s out ({8 * rates['tx_bytes'] / 1000:.1f} "
          f"kbit/s a peer sends)")
    print(f"  {'envelopes sent on one link':30} {'per s':>7} {'mean B':>7} {'wire B/s':>9}")
    counted = 0.0
    for kind, (rate, size) in sorted(s["kinds"].items(), key=lambda kv: -kv[1][0] * kv[1][1]):
        on_wire = rate * (size + FRAMING + HEADERS)
        counted += on_wire
        print(f"  {kind:30} {rate:7.2f} {size:7.0f} {on_wire:9.0f}")
    print(f"  {'other (ZMTP, TCP acks, ...)':30} {'':7} {'':7} "
          f"{rates['tx_bytes'] / links - counted:9.0f}")


def slow_summary(reports: list[dict[str, Any]]) -> dict[str, Any]:
    """A slow-link table (the slow peer reports last): when the deal and the game ended, from
    the seed agreed, and the bytes to and from the slow peer by kind."""
    slow = reports[-1]
    start = min(r["seeded"] for r in reports if r["seeded"] is not None)
    ready = [r["ready"] for r in reports]
    to_slow: dict[str, list[int]] = {}
    for r in reports[:-1]:
        for kind, row in r["to"].get(slow["key"], {}).items():
            total = to_slow.setdefault(kind, [0, 0, 0, 0])
            for i, v in enumerate(row):
                total[i] += v
    from_slow: dict[str, list[int]] = {}
    for rows in slow["to"].values():
        for kind, row in rows.items():
            total = from_slow.setdefault(kind, [0, 0, 0, 0])
            for i, v in enumerate(row):
                total[i] += v
    return {"finished": all(r["code"] != "limit" for r in reports),
            "entries": max(r["entries"] for r in reports),
            "deal_s": (max(ready) - start) / 1e9 if None not in ready else None,
            "game_s": (max(r["finished"] for r in reports) - start) / 1e9,
            "to_slow": to_slow, "from_slow": from_slow}


def show_slow(title: str, s: dict[str, Any]) -> None:
    deal = "never" if s["deal_s"] is None else f"{s['deal_s']:.0f} s"
    end = "finished" if s["finished"] else "STOPPED at the limit"
    print(f"\n{title}: deal done after {deal}, game {end} after {s['game_s']:.0f} s "
          f"({s['entries']} entries)")
    for label, rows in (("sent to the slow peer (by the others)", s["to_slow"]),
                        ("sent by the slow peer (to the others)", s["from_slow"])):
        print(f"  {label:40} {'envelopes':>9} {'KB':>7} {'repeats':>8} {'repeat KB':>9}")
        for kind, (n, size, again, again_size) in sorted(rows.items(),
                                                         key=lambda kv: -kv[1][1]):
            print(f"  {kind:40} {n:9d} {size / 1000:7.1f} {again:8d} {again_size / 1000:9.1f}")
        n, size, again, again_size = (sum(r[i] for r in rows.values()) for i in range(4))
        print(f"  {'all':40} {n:9d} {size / 1000:7.1f} {again:8d} {again_size / 1000:9.1f}")


def slow_main(args: argparse.Namespace, pythons: dict[str, str]) -> None:
    """``--slow``: whole games with the last joiner's link shaped, each deck and tree."""
    cases = [(label, deck) for deck in args.decks.split(",") for label in pythons]
    for game in range(args.games):
        for label, deck in cases:
            with Lan(args.players) as lan:
                lan.limit_rate(args.players - 1, args.slow, both=True)
                reports = run_table(lan, pythons[label], args.game, args.players,
                                    deck == "open", None, args.limit)
            show_slow(f"{args.game} x{args.players}, {deck} deck, one peer at {args.slow} "
                      f"each way" + (f" [{label}]" if label else "") + f", table {game + 1}; "
                      f"load {os.getloadavg()[0]:.1f}", slow_summary(reports))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--game", default="petals")
    parser.add_argument("--decks", default="sealed,open")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--settle", type=float, default=8.0)
    parser.add_argument("--games", type=int, default=2, help="tables of each kind, in turns")
    parser.add_argument("--python", action="append", default=[], metavar="LABEL=PATH")
    parser.add_argument("--slow", metavar="RATE", help="a slow link (tc rate: 8kbit)")
    parser.add_argument("--limit", type=float, default=600.0,
                        help="with --slow: stop a game after this many seconds")
    args = parser.parse_args()
    why = lan_available()
    if why is not None:
        raise SystemExit(f"cannot build the simulated LAN: {why}")
    pythons = {"": sys.executable}
    for item in args.python:
        label, _, path = item.partition("=")
        if not label or not path:
            parser.error(f"--python wants LABEL=PATH, not {item!r}")
        pythons[label] = path
    if args.slow:
        slow_main(args, pythons)
        return
    cases = [(label, deck, mode) for deck in args.decks.split(",") for mode in ("idle", "play")
             for label in pythons]
    found: dict[tuple[str, str, str], list[dict[str, Any]]] = {c: [] for c in cases}
    for _ in range(args.games):
        for case in cases:
            label, deck, mode = case
            with Lan(args.players) as lan:
                idle = (args.seconds, args.settle) if mode == "idle" else None
                reports = run_table(lan, pythons[label], args.game, args.players,
                                    deck == "open", idle)
            found[case].append(summary(reports))
    print(f"{args.game}, {args.players} peers, each on a host of its own; {args.games} tables "
          f"of each; idle: {args.seconds:.0f} s after {args.settle:.0f} s; load "
          f"{os.getloadavg()[0]:.1f}")
    for case in cases:
        label, deck, mode = case
        show(f"{mode}, {deck} deck" + (f" [{label}]" if label else ""), merge(found[case]))


if __name__ == "__main__":
    main()

"""``hedgerow replay LOGFILE [--verify]``: re-simulate a saved table log.

Every entry is applied again with the installed rules, in order, checked against the hash
chain (chance entries against the outcome the seed gives; at a sealed table, against the
shuffles and keys the log records); the game is printed entry by entry, then who won (the
result's headline), or that the table agreed to end it and nobody won. ``--verify`` prints
only the verdict, after comparing every entry's digest and the state hash stored after it
with what the rules give, and for a finished sealed game, verifying every shuffle, key and
action with the secrets disclosed at its end (docs/protocol.md §10.9). Any damage, mismatch
or failed verification is reported naming the entry or the party, with exit status 1.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from hedgerow.clients.cli import make_plugin_host


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow replay``."""
    parser.add_argument("log", metavar="LOGFILE", help="a table log (see `log` in the results)")
    parser.add_argument("--verify", action="store_true",
                        help="only check every hash and say whether the log is sound")
    parser.add_argument("--json", action="store_true", help="print the verdict as JSON")


def run(args: argparse.Namespace) -> int:
    """Replay (or verify) the log; 0 when every entry checks out."""
    from hedgerow.clients.botrunner import seat_event_text
    from hedgerow.core.errors import HedgerowError
    from hedgerow.core.outcome import headline, outcome_data
    from hedgerow.net.logfile import read_log
    from hedgerow.net.logverify import replay
    from hedgerow.net.messages import SeatEventKind
    from hedgerow.net.rulesmatch import split_deck

    try:
        result = read_log(args.log)
    except OSError as exc:
        raise HedgerowError(f"cannot read {args.log}: {exc.strerror or exc}") from None
    header = result.header
    if header is None:
        return _verdict(args, {"ok": False, "problem": f"not a table log: {result.problem}"})
    plugins = make_plugin_host(args)
    ruleset = plugins.ruleset(header.game, header.variants, header.players)
    from hedgerow.clients.app.names import mentions_seats, name_seats

    # The seats' names as the table knew them, the ones its screens showed.
    names = [(header.seat_names[s] if s < len(header.seat_names) else "") or f"Seat {s}"
             for s in range(header.players)]
    show = not args.verify and not args.json
    # Seat events (a takeover, a reclaim, an agreed end) are outside the hash chain: shown
    # before the entry they came into force at, never replayed.
    events = list(result.events)
    ended = next((e for e in events if e.kind == SeatEventKind.END), None)

    def show_events(before: int | None) -> None:
        while events and (before is None or events[0].index <= before):
            print(f"-- {seat_event_text(events.pop(0), lambda seat: names[seat])}")

    def step(table: Any, applied: Any) -> None:
        if show:
            entry = applied.entry
            show_events(entry.index)
            text = table.describe_entry(entry, applied.before)
            if entry.is_chance:  # "chance: deal the cards"
                print(f"#{entry.index} {text}")
                return
            if mentions_seats(text):  # "Seat 1 plays ..." -> "Bot Aster plays ..."
                print(f"#{entry.index} {name_seats(text, names)}")
            else:  # a game whose words do not name the seat
                print(f"#{entry.index} {names[entry.seat]}: {text}")

    if show:
        rules, open_deck = split_deck(header.fingerprint)
        deck = ""
        if header.table_id and header.players > 1:  # a networked table: which deck
            deck = " open deck," if open_deck else " sealed deck,"
        print(f"{rules}, {header.players} seats,{deck} seed {header.seed.hex()}")
    report = replay(ruleset, result, on_step=step)
    if show:
        show_events(None)
    verdict = report.verdict
    record: dict[str, Any] = {
        "log": args.log,
        "fingerprint": header.fingerprint,
        "seed": header.seed.hex(),
        "entries": len(result.entries),
        "verified": report.applied,
        "ok": (report.mismatch is None and result.problem is None
               and (verdict is None or verdict.ok)),
        "seat_events": [{"kind": e.kind.name.lower(), "seat": e.seat, "runner": e.runner,
                         "bot": e.bot, "index": e.index} for e in result.events],
        "deck": "sealed" if report.sealed else "open",
    }
    if report.sealed:
        record["sealed_verdict"] = None if verdict is None else verdict.message
    if report.mismatch is not None:
        record["problem"] = f"mismatch at {report.mismatch}"
        record["index"] = report.mismatch.index
    elif verdict is not None and not verdict.ok:
        record["problem"] = f"the sealed deck does not verify: {verdict.message}"
    elif result.problem is not None:
        record["problem"] = f"the file is damaged at {result.problem}"
        record["index"] = result.problem.index
    table = report.table
    if table is not None and report.mismatch is None:
        # (after the last entry, as its players reported it: §10.4 at a sealed table)
        record["state_hash"] = report.state_hash.hex() if report.state_hash else None
        outcome = table.outcome()
        record["outcome"] = outcome_data(outcome) if outcome is not None else None
        if show and outcome is not None:  # who won, as the results screen said it
            print(f"Result: {headline(outcome, names)}.")
        elif show and ended is not None:  # an end the table agreed on is an end (§5.9)
            print(f"Result: ended by agreement at entry #{ended.index}, without "
                  f"{names[ended.seat]}; nobody won.")
    return _verdict(args, record)


def _verdict(args: argparse.Namespace, record: dict[str, Any]) -> int:
    if args.json:
        print(json.dumps(record))
    elif record["ok"]:
        over = "" if record.get("outcome") else " (the game is not over)"
        if any(e["kind"] == "end" for e in record.get("seat_events", ())):
            over = " (ended by agreement, with no winner)"
        sealed = ""
        if record.get("deck") == "sealed":
            sealed = ("; sealed deck: " + record["sealed_verdict"] if record["sealed_verdict"]
                      else "; sealed deck: not verified (a secret was never disclosed)")
        print(f"ok: {record['verified']} entries replayed, every hash matches; "
              f"state {record['state_hash']}{over}{sealed}")
    else:
        print(f"FAILED: {record['problem']}")
    return 0 if record["ok"] else 1

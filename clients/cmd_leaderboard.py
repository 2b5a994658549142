"""``hedgerow leaderboard GAME``: the weekly board the LAN shares (docs/leaderboard.md).

By default the command first exchanges with the other machines sharing the board on the
LAN for ``--wait`` seconds (their board services are found as tables are, or named with
``--peer``), then shows one board for one ISO week (the current one by default, in UTC):
each player's key and last name, games, games verified here, average, best score and the
rank that best game earned, and where the player was last seen.  ``--local`` shows only
this user's own games, without the network.  ``--serve`` keeps sharing until stopped.
``--add LOGFILE`` keeps one of this user's board games from its log file (a game finished
by other means than ``hedgerow play``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import signal
import textwrap
import unicodedata
from datetime import datetime
from typing import TYPE_CHECKING, Any

from hedgerow.clients.cli import make_plugin_host
from hedgerow.clients.leaderboard import Clock, IsoWeek, Standing, boards, utc_now

if TYPE_CHECKING:
    from hedgerow.clients.leaderboard_share import BoardPeer, Pulled

#: How long the board listens for other machines and exchanges with them, by default.
WAIT = 3.0
#: Longest name shown (the key's fingerprint follows it).
NAME_CHARS = 12
#: The width the board's lines are made for.
WIDTH = 80


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow leaderboard``."""
    parser.add_argument("game", help="the game whose board to show (a game with a solo "
                                     "leaderboard: hedgerow games marks them)")
    parser.add_argument("--variant", action="append", default=[], metavar="V",
                        help="the board of games played with variant V (repeat for several); "
                             "each set of variants has its own board")
    parser.add_argument("--week", default=None, metavar="YYYY-Www",
                        help="the ISO week to show, e.g. 2026-W49 (default: this week, UTC)")
    parser.add_argument("--json", action="store_true", help="print the board as JSON")
    parser.add_argument("--local", action="store_true",
                        help="only your own games, without asking the LAN")
    parser.add_argument("--wait", type=float, default=WAIT, metavar="SECONDS",
                        help=f"how long to exchange with the LAN first (default {WAIT:g}; "
                             "0: show what this machine holds)")
    parser.add_argument("--serve", action="store_true",
                        help="keep sharing the board with the LAN until Ctrl-C")
    parser.add_argument("--peer", action="append", default=[], metavar="HOST:PORT/KEY",
                        help="another machine's board service (repeat), for networks where "
                             "machines cannot find each other")
    parser.add_argument("--bind", default="0.0.0.0", metavar="HOST",
                        help="the address the board service listens on (default: all)")
    parser.add_argument("--port", type=int, default=0,
                        help="the port it listens on (default: any free one)")
    parser.add_argument("--add", default=None, metavar="LOGFILE",
                        help="keep one of your board games from its log file")


def run(args: argparse.Namespace, *, clock: Clock = utc_now) -> int:
    """Exchange, then show the board (or add a log to it, or serve it); 0 on success."""
    from hedgerow.core.errors import HedgerowError

    plugins = make_plugin_host(args)
    known = boards(plugins.games)
    if args.game not in known:
        raise HedgerowError(f"no leaderboard for {args.game!r} (leaderboards: "
                            f"{', '.join(known) or 'none installed'})", code="unknown_game")
    ruleset = plugins.ruleset(args.game, args.variant, 1)  # unknown or non-solo variants fail here
    variants = list(ruleset.variant_names)
    if not args.wait >= 0 or args.wait > 600:
        raise HedgerowError(f"--wait takes 0 to 600 seconds, not {args.wait}")
    if args.add is not None and (args.week is not None or args.serve):
        raise HedgerowError("--add keeps one game; leave out --week and --serve")
    if args.serve and args.local:
        raise HedgerowError("--serve shares the board with the LAN; leave out --local")
    peers = _peers(args.peer)
    week = IsoWeek.parse(args.week) if args.week is not None else IsoWeek.of(clock())
    from hedgerow.net.keys import load_identity

    identity = load_identity()
    rules = _rules(plugins)
    if args.add is not None:
        return _add(args, identity, rules, set(known), clock)
    exchange: dict[str, Any] = {}
    if args.serve:
        return asyncio.run(_serve(args, identity, rules, set(known), peers, clock))
    if not args.local and (args.wait > 0 or peers):
        exchange = asyncio.run(_exchange(args, identity, rules, set(known), peers, clock))
    from hedgerow.clients.leaderboard import Leaderboard

    with Leaderboard(create=False) as board:
        lines = board.standings(args.game, variants, week,
                                player=identity.public if args.local else None)
    _show(args, ruleset, variants, week, lines, exchange)
    return 0


def _rules(plugins: Any) -> Any:
    return lambda h: plugins.ruleset(h.game, h.variants, h.players)


def _peers(texts: list[str]) -> tuple[BoardPeer, ...]:
    from hedgerow.clients.leaderboard_share import BoardPeer
    from hedgerow.core.errors import HedgerowError
    from hedgerow.net.address import endpoint, parse_address

    found = []
    for text in texts:
        try:
            address = parse_address(text)
        except ValueError as exc:
            why = (str(exc).replace("table key", "key") if "/" in text
                   else f"{text!r} has no key")
            raise HedgerowError(f"--peer takes the address a board service prints "
                                f"(HOST:PORT/KEY, see hedgerow leaderboard --serve): {why}"
                                ) from None
        found.append(BoardPeer(address.key, endpoint(address.host, address.port)))
    return tuple(found)


def _share(args: argparse.Namespace, identity: Any, rules: Any, games: set[str],
           peers: tuple[BoardPeer, ...], clock: Clock, on_pulled: Any = None) -> Any:
    from hedgerow.clients.leaderboard_share import BoardShare

    return BoardShare(identity, rules, games, clock=clock, bind=args.bind, port=args.port,
                      peers=peers, on_pulled=on_pulled)


async def _exchange(args: argparse.Namespace, identity: Any, rules: Any, games: set[str],
                    peers: tuple[BoardPeer, ...], clock: Clock) -> dict[str, Any]:
    from hedgerow.clients.leaderboard_play import refresh_own

    share = _share(args, identity, rules, games, peers, clock)
    problem = None
    try:
        updated = refresh_own(identity, share.store, rules, games, clock=clock)
        try:
            await share.start()
        except OSError as exc:
            problem = f"The board was not shared: {exc}"
        else:
            share.nudge_all()
            await share.settle(args.wait)
    finally:
        await share.close()
    data = _exchange_data(share.pulls, updated)
    if problem is not None:
        data["problem"] = problem
    return data



def _exchange_data(pulls: list[Pulled], updated: list[str]) -> dict[str, Any]:
    latest = {p.peer.key: p for p in pulls}  # the last pull from each machine
    return {
        "machines": len(latest),
        "received": sum(p.added for p in pulls),
        "refused": [{"from": p.peer.host, "count": len(p.refused), "first": p.refused[0]}
                    for p in pulls if p.refused],
        "unreachable": [{"from": p.peer.host, "error": p.error} for p in latest.values()
                        if p.error],
        "updated": updated,
    }


async def _serve(args: argparse.Namespace, identity: Any, rules: Any, games: set[str],
                 peers: tuple[BoardPeer, ...], clock: Clock) -> int:
    from hedgerow.clients.leaderboard_play import refresh_own
    from hedgerow.net.keys import key_text

    def said(pulled: Pulled) -> None:
        for line in _pulled_lines(pulled, share.store.name_of(pulled.peer.key)):
            print(_fit(line), flush=True)

    share = _share(args, identity, rules, games, peers, clock, said)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    try:
        for line in refresh_own(identity, share.store, rules, games, clock=clock):
            print(line)
        where = await share.start()
        from hedgerow.net.address import advertised_host, split_endpoint

        host, port = split_endpoint(where)
        shown = advertised_host(host) if host in ("0.0.0.0", "::") else host
        print(f"Sharing the {args.game} leaderboard until Ctrl-C. Its address, for --peer:\n"
              f"{shown}:{port}/{key_text(identity.public)}", flush=True)
        share.nudge_all()
        await stop.wait()
    finally:
        await share.close()
    print("Stopped sharing the leaderboard.")
    return 0


def _fit(line: str) -> str:
    """``line`` broken between words to fit 80 columns (a stranger's reason can be long)."""
    return textwrap.fill(line, WIDTH, subsequent_indent="  ", break_long_words=False,
                         break_on_hyphens=False)


def _records(count: int) -> str:
    return f"{count} game record{'' if count == 1 else 's'}"


def _pulled_lines(pulled: Pulled, name: str) -> list[str]:
    """What one pull did, for ``--serve``'s screen; ``name`` is the name the peer's key
    last played under ("?" for a key with no game here)."""
    from hedgerow.clients.leaderboard import fingerprint

    peer = pulled.peer
    machine = (f"{_clean(name)}'s machine ({fingerprint(peer.key)}) at {peer.host}"
               if name != "?" else f"the machine at {peer.host}")
    lines = []
    if pulled.added:
        lines.append(f"Received {_records(pulled.added)} from {machine}")
    if pulled.refused:
        lines.append(f"Refused {_records(len(pulled.refused))} from {machine}: "
                     f"{pulled.refused[0]}")
    return lines


def _add(args: argparse.Namespace, identity: Any, rules: Any, games: set[str],
         clock: Clock) -> int:
    from hedgerow.clients.leaderboard import Leaderboard, board_name, leaderboard_command
    from hedgerow.clients.leaderboard_play import record_log
    from hedgerow.core.errors import HedgerowError
    from hedgerow.net.boardrecord import deal_seed
    from hedgerow.net.logfile import parse_log

    try:
        with open(args.add, "rb") as f:
            log = f.read()
    except OSError as exc:
        raise HedgerowError(f"cannot read {args.add}: {exc.strerror or exc}") from None
    header = parse_log(log).header
    with Leaderboard() as board:
        slot = None if header is None else board.slot_of(
            identity.public, lambda g, v, w, n: deal_seed(identity.public, g, v, w, n),
            header.seed)
        if slot is None:
            raise HedgerowError(
                "this log is not one of your board games: a game counts only when "
                "hedgerow play dealt it for the board (a --seed game never counts)",
                code="refused")
        checked, _ = record_log(identity, slot[0], slot[1], log, board, rules, args.game,
                                clock=clock)
    if args.json:
        print(json.dumps({"game_id": checked.game_id, "game": checked.game,
                          "variants": list(checked.variants), "player": checked.player,
                          "score": checked.score, "rank": checked.rank,
                          "over": checked.over, "week": slot[0], "number": slot[1] + 1}))
    else:
        see = leaderboard_command(checked.game, [v for v in board_name(checked.variants)
                                                 .split("+") if v])
        print(f"Recorded for {slot[0]}: {checked.player}, game {slot[1] + 1}, "
              + (f"{checked.score} points ({checked.rank})" if checked.over else
                 f"unfinished ({checked.score} points until it is finished)")
              + f". See: {see}")
    return 0


def _clean(name: str) -> str:
    """A stranger's name made safe to print: no control or format characters, cut short."""
    kept = "".join(c if unicodedata.category(c)[0] not in "CZ" or c == " " else "?"
                   for c in name)
    return kept if len(kept) <= NAME_CHARS else kept[:NAME_CHARS - 1] + "…"


def _when(moment: datetime | None) -> str:
    return f"{moment:%a} {moment.day} {moment:%b %H:%M} UTC" if moment else "never"


def _show(args: argparse.Namespace, ruleset: Any, variants: list[str], week: IsoWeek,
          lines: list[Standing], exchange: dict[str, Any]) -> None:
    if args.json:
        print(json.dumps({"game": args.game, "variants": variants, "week": str(week),
                          "from": week.monday.isoformat(), "to": week.sunday.isoformat(),
                          "local": bool(args.local),
                          "players": [line.data() for line in lines],
                          "exchange": exchange or None}))
        return
    title = ruleset.spec.title + "".join(f" + {v}" for v in variants)
    mon, sun = week.monday, week.sunday
    span = f"Mon {mon.day} {mon:%b} to Sun {sun.day} {sun:%b %Y}"
    print(f"{title} leaderboard, week {week} ({span}, UTC)")
    if args.local:
        print("Your own games only (--local: the LAN was not asked).")
    if not lines:
        print("No games recorded this week.")
    else:
        print(f"{'#':>3}  {'Player':<23}  {'Games':>5}  {'Verified':>8}  {'Average':>7}  "
              f"{'Best':>4}  Rank of best")
        for row in lines:
            who = f"{_clean(row.name)} ({row.fingerprint})"
            best = "" if row.best is None else str(row.best)
            print(f"{row.place:>3}  {who:<23}  {row.games:>5}  {row.verified:>8}  "
                  f"{row.average:>7.2f}  {best:>4}  {row.rank or '-'}")
            print(f"{'':>5}last seen: {row.seen}, {_when(row.seen_at)}")
        floor = ruleset.spec.leaderboard_floor
        print(f"Verified: games replayed here. Unfinished or missing games count {floor}.")
    for said in _exchange_lines(exchange):
        print(_fit(said))


def _exchange_lines(exchange: dict[str, Any]) -> list[str]:
    if not exchange:
        return []
    lines = list(exchange["updated"])
    if "problem" in exchange:
        return [*lines, exchange["problem"]]
    machines, received = exchange["machines"], exchange["received"]
    if machines:
        lines.append(f"Exchanged with {machines} machine{'' if machines == 1 else 's'} on the "
                     "LAN: " + (f"{_records(received)} received." if received else
                                "nothing new."))
    else:
        lines.append("Found no other machine sharing the board (to name one: --peer "
                     "HOST:PORT/KEY).")
    lines += [f"Refused {_records(r['count'])} from {r['from']}: {r['first']}"
              for r in exchange["refused"]]
    lines += [f"Could not exchange with {u['from']}: {u['error']}"
              for u in exchange["unreachable"]]
    return lines

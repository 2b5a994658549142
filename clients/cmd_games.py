"""``hedgerow games``: every installed game, variant and bot, with its distribution and version."""

from __future__ import annotations

import argparse
import textwrap

from hedgerow.clients.cli import make_plugin_host


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Arguments of ``hedgerow games``."""
    parser.add_argument("--json", action="store_true", help="print one JSON document")


def collect(plugins) -> dict:
    """The catalogue as plain data (what ``--json`` prints)."""

    def origin(spec) -> dict:
        o = plugins.origin_of[spec]
        return {
            "plugin": o.plugin,
            "distribution": o.distribution,
            "distribution_version": o.version,
        }

    games = []
    for name in sorted(plugins.games):
        g = plugins.games[name]
        games.append(
            {
                "name": g.name,
                "title": g.title,
                "version": g.version,
                "summary": g.summary,
                "players": [g.min_players, g.max_players],
                "leaderboard": g.leaderboard,
                **origin(g),
                "variants": [
                    {
                        "name": v.name,
                        "version": v.version,
                        "summary": v.summary,
                        "conflicts": list(v.conflicts),
                        "players": list(v.players) if v.players else None,
                        **origin(v),
                    }
                    for v in plugins.variants_of(name)
                ],
            }
        )
    bots = [
        {
            "name": b.name,
            "version": b.version,
            "summary": b.summary,
            "games": list(b.games) or "any",
            "parameters": b.params_help,
            **origin(b),
        }
        for b in sorted(plugins.bots.values(), key=lambda b: b.name)
    ]
    broken = [{"plugin": name, "problem": why} for name, why in plugins.broken]
    return {"games": games, "bots": bots, "broken": broken}


def run(args: argparse.Namespace) -> int:
    """Print the catalogue."""
    data = collect(make_plugin_host(args))
    if args.json:
        import json

        print(json.dumps(data, indent=2))
        return 0
    print("Games")
    for g in data["games"]:
        src = f"{g['distribution']} {g['distribution_version']}".strip()
        board = ", solo leaderboard" if g["leaderboard"] else ""
        print(
            f"  {g['name']:<12} {g['title']} {g['version']}, "
            f"{g['players'][0]}-{g['players'][1]} players{board}  [{src}]"
        )
        if g["summary"]:
            print(f"  {'':<12} {g['summary']}")
        for v in g["variants"]:
            vsrc = f"{v['distribution']} {v['distribution_version']}".strip()
            print(f"    + {v['name']:<10} {v['version']}  {v['summary']}  [{vsrc}]")
    print("Bots")
    for b in data["bots"]:
        games = "any game" if b["games"] == "any" else ", ".join(b["games"])
        src = f"{b['distribution']} {b['distribution_version']}".strip()
        print(f"  {b['name']:<12} {b['version']}  {b['summary']} ({games})  [{src}]")
        if b["parameters"]:
            print(textwrap.fill(f"parameters ({b['name']}:PARAMS): {b['parameters']}", 79,
                                initial_indent=" " * 15, subsequent_indent=" " * 15))
    if data["broken"]:
        print("Plugins that failed to load")
        for b in data["broken"]:
            print(f"  {b['plugin']:<12} {b['problem']}")
    return 0

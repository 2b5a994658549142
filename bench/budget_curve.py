"""ISMCTS strength against its iteration budget: win shares per game and budget, run as tournaments.

``python bench/budget_curve.py run GAME --budgets 300,1000 --games 200 --out DIR``: for
each budget ``B`` one ``hedgerow tournament GAME --players 2 --bots ismcts:B,AGAINST
--games N --seed S --workers W --json`` (the tournament machinery: seats rotated, games on
local worker processes), its JSON lines kept in ``DIR`` (one file per game, budget,
opponent and seed range; a file that is already complete is not played again, and more
deals are added with another ``--seed``).  A run stopped part way (its file is still
``.partial``) carries on where it stopped when started again: the games it finished are
kept in whole cycles of seatings and the rest is played as a tournament from the next
seed, each game re-numbered and checked to be the run's own (seed and seats), so the file
ends up as the one run would have written.  ``--hedgerow CMD`` runs another checkout's
command (a copy of an older commit with its own virtual environment, for a before/after
comparison on the same deals).  Iteration budgets replay exactly whatever the machine's
load, so the same seeds give the same games; seconds per move depend on the load.

``--stop-above LOW`` stops a run by a rule set before it starts (issue 33's against
``random``: ``--games 100 --stop-above 0.9``): after each game, in the order of the deals,
the run stops as **met** once the 95% Wilson interval of the share so far has its lower end
above ``LOW``, and as **not shown** once it can no longer get there within ``--games`` (even
winning every game left).  The file then holds the games up to that point, its settings
line says so (``games`` is the games played, ``stopped`` the rule, the verdict and the
games asked for), and it counts as complete.  A stopped run carried on with the rule
applies it to the games it holds first.

``python bench/budget_curve.py table DIR [DIR...]``: one row per game, opponent and budget
from every file in the folders, unfinished ones too (marked): games, the ismcts share (a
victory shared by k seats counts 1/k, so the share is ismcts's against its opponent's)
and its 95% Wilson interval, mean points, the ismcts seat's seconds per move, the seed
ranges.  A deal found in two files counts once.  Folders are labelled by their names
(``before``, ``after``) in the first column.

``python bench/budget_curve.py compare BEFORE AFTER``: the same rows for the deals both
folders played: ismcts's wins in each, how many deals came out better and worse for it
(a win against a loss, or a shared victory against either), and the exact sign test's
two-sided p-value of that split.

``python bench/budget_curve.py stall --seed 900000 [--bot ismcts:10000] [--games K]``:
the Mandala game of issue 33 (``simulate mandala --players 2 --bots ismcts:10000,greedy
--seed 900000``, the same game) move by move for the ismcts seat: its plays, how many went
face down and the longest run of them, and the turns at which ``greedy`` on the same view
would have completed a mandala and it did not, with the result; with ``--games K`` the
next seeds too (``--seat -1``: seats alternating) and a summary.
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import sys
from pathlib import Path
from typing import Any

from ismcts import wilson  # bench/ismcts.py: the interval for a share with half wins

from hedgerow.core.tournament import cycle_size, lineup, seed_number


def file_name(game: str, budget: str, extra: str, against: str, seed: int, games: int) -> str:
    """Where one tournament's JSON lines are kept in a run's folder."""
    tag = f"{budget}{extra}".replace(",", "_").replace("=", "")
    return f"{game}-ismcts{tag}-vs-{against.replace(':', '')}-{seed}-{games}.jsonl"


def read_records(path: Path) -> tuple[dict[str, Any] | None, dict[int, dict[str, Any]]]:
    """The tournament's settings line and its game records by game number, from a file of
    its JSON lines (nothing when there is no file).  A line that is not whole JSON (the
    last line of a run killed while writing it) is left out."""
    header: dict[str, Any] | None = None
    games: dict[int, dict[str, Any]] = {}
    if not path.exists():
        return header, games
    for line in path.read_text().splitlines():
        try:
            data = json.loads(line)
        except json.JSONDecodeError:
            continue
        if data.get("type") == "tournament" and header is None:
            header = data
        elif data.get("type") == "game":
            games[data["index"]] = data
    return header, games


def complete(path: Path) -> bool:
    """True when ``path`` holds every game its settings line asks for (games 0 to N-1)."""
    header, games = read_records(path)
    return header is not None and all(i in games for i in range(header["games"]))


def resume_point(header: dict[str, Any], games: dict[int, dict[str, Any]]) -> int:
    """How many games of an unfinished run are kept: the unbroken run of games from game 0,
    cut back to whole cycles of seatings (`hedgerow.core.tournament.cycle_size`).  The rest
    is a tournament of its own from seed ``S + kept``; its game ``j`` then seats the bots as
    game ``kept + j`` of the whole run would, so it plays the very same game (iteration
    budgets replay exactly)."""
    kept = 0
    while kept in games:
        kept += 1
    return kept - kept % cycle_size(len(header["bots"]), header["players"])


def check_record(header: dict[str, Any], record: dict[str, Any]) -> None:
    """Refuse a game record that is not game ``record['index']`` of the run ``header``
    describes: its seed and its seating must be that game's."""
    index = record["index"]
    labels = header["bots"]
    seats = [labels[b] for b in lineup(index, len(labels), header["players"])]
    if record["seed"] != seed_number(header["seed"], index) or record["bots"] != seats:
        raise ValueError(f"game {index} of the run from seed {header['seed']} is seed "
                         f"{seed_number(header['seed'], index)} with {seats}, not seed "
                         f"{record['seed']} with {record['bots']}")


def same_run(header: dict[str, Any], rest: dict[str, Any]) -> bool:
    """True when ``rest`` (the settings of a resumed run's remainder) plays the same game,
    bots and seats as ``header``."""
    keys = ("game", "variants", "fingerprint", "players", "bots")
    return all(header.get(k) == rest.get(k) for k in keys)


def stop_verdict(shares: list[float], games: int, low: float) -> tuple[str, int] | None:
    """The stopping rule of ``--stop-above low`` over ismcts's results in deal order
    (`ismcts_share`): ``("met", n)`` at the first ``n`` whose share's 95% Wilson interval
    has its lower end above ``low``, ``("not shown", n)`` at the first ``n`` after which
    winning all of the ``games - n`` left could no longer get there; None while open."""
    wins = 0.0
    for n, share in enumerate(shares, 1):
        wins += share
        if wilson(wins, n)[0] > low:
            return ("met", n)
        if wilson(wins + games - n, games)[0] <= low:
            return ("not shown", n)
    return None


def finish_stopped(partial: Path, path: Path, header: dict[str, Any],
                   held: dict[int, dict[str, Any]], verdict: tuple[str, int],
                   low: float) -> None:
    """Write a run stopped by its rule as ``path``: the settings line with ``games`` the
    games played and ``stopped`` the rule, then games ``0`` to ``n - 1`` (any played past
    the stop are left out)."""
    outcome, n = verdict
    head = {**header, "games": n,
            "stopped": {"verdict": outcome, "above": low, "of": header["games"]}}
    fresh = partial.with_suffix(".fresh")
    with fresh.open("w") as sink:
        sink.write(json.dumps(head) + "\n")
        sink.writelines(json.dumps(held[i]) + "\n" for i in range(n))
    fresh.replace(path)
    partial.unlink()


def play_tournament(command: list[str], path: Path, game: str, bots: str, players: int,
                    seed: int, games: int, workers: int,
                    stop_above: float | None = None) -> None:
    """Play ``games`` games from ``seed`` into ``path``, carrying on from its ``.partial``
    file when a run was stopped: the whole games it holds are kept (`resume_point`) and
    only the rest is played.  The file is ``path`` once every game is in it, or once the
    rule of ``stop_above`` (`stop_verdict`) decides the run."""
    partial = path.with_suffix(".partial")
    header, held = read_records(partial)
    start = resume_point(header, held) if header is not None else 0
    if header is not None and (header["seed"] != seed or header["games"] != games):
        raise ValueError(f"{partial} is seeds {header['seed']}+{header['games']}, "
                         f"not {seed}+{games}")
    shares: list[float] = []
    if header is not None and stop_above is not None:
        # the rule reads every game held from game 0 on, past the cut to whole cycles
        unbroken = 0
        while unbroken in held:
            unbroken += 1
        verdict = stop_verdict([ismcts_share(held[i])[0] for i in range(unbroken)], games,
                               stop_above)
        shares = [ismcts_share(held[i])[0] for i in range(start)]
        if verdict is not None:
            print(f"  {partial.name}: stopped by its rule, {verdict[0]} at game {verdict[1]}",
                  flush=True)
            finish_stopped(partial, path, header, held, verdict, stop_above)
            return
    fresh = partial.with_suffix(".fresh")
    with fresh.open("w") as sink:
        if header is not None:
            sink.write(json.dumps(header) + "\n")
            sink.writelines(json.dumps(held[i]) + "\n" for i in range(start))
    fresh.replace(partial)
    if start:
        print(f"  {start} games kept from {partial.name}; playing the other {games - start}",
              flush=True)
    verdict = None
    if start < games:
        cmd = [*command, "tournament", game, "--players", str(players), "--bots", bots,
               "--games", str(games - start), "--seed", str(seed + start), "--workers",
               str(workers), "--json"]
        print(" ".join(cmd), flush=True)
        with partial.open("a") as sink, subprocess.Popen(cmd, stdout=subprocess.PIPE,
                                                         text=True) as proc:
            assert proc.stdout is not None
            for line in proc.stdout:
                data = json.loads(line)
                kind = data.get("type")
                if kind == "tournament":
                    if header is None:
                        header = {**data, "games": games, "seed": seed}
                    elif not same_run(header, data):
                        raise ValueError(f"{partial}: the run resumed is not the same: "
                                         f"{data}")
                    if start:
                        continue
                elif kind == "game":
                    assert header is not None
                    data["index"] += start
                    check_record(header, data)
                elif kind == "summary" and start:
                    data["first"] = start  # it counts only the games played since resuming
                sink.write(json.dumps(data) + "\n")
                sink.flush()
                if kind == "game" and stop_above is not None:
                    shares.append(ismcts_share(data)[0])
                    verdict = stop_verdict(shares, games, stop_above)
                    if verdict is not None:
                        proc.terminate()
                        break
        if verdict is not None:
            assert header is not None
            print(f"  stopped by its rule: {verdict[0]} at game {verdict[1]}", flush=True)
            finish_stopped(partial, path, header, read_records(partial)[1], verdict,
                           stop_above or 0.0)
            return
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} ended with {proc.returncode}; "
                             f"run again to carry on from {partial.name}")
    if not complete(partial):
        raise SystemExit(f"{partial} is not complete; run again to carry on")
    partial.replace(path)


def run(args: argparse.Namespace) -> None:
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    command = args.hedgerow.split() if args.hedgerow else [sys.executable, "-m",
                                                           "hedgerow.clients.cli"]
    for budget in args.budgets.split(","):
        path = out / file_name(args.game, budget, args.extra, args.against, args.seed,
                               args.games)
        if complete(path):
            print(f"{path.name}: done before", flush=True)
            continue
        play_tournament(command, path, args.game, f"ismcts:{budget}{args.extra},{args.against}",
                        args.players, args.seed, args.games, args.workers, args.stop_above)
        for key, cell in summarise([path]).items():
            print(f"  {key}: {cell_text(cell)}", flush=True)


def ismcts_share(record: dict[str, Any]) -> tuple[float, int]:
    """ismcts's result in one 2-seat game record (1 for a win, 1/k for a victory shared by k
    seats, 0 for a loss) and the seat it sat in."""
    labels = record["bots"]
    seat = next(i for i, label in enumerate(labels) if label.startswith("ismcts"))
    winners = record["outcome"]["winners"]
    if seat in winners:
        return (1.0 / len(winners), seat)
    return (0.0, seat)


def row_key(header: dict[str, Any]) -> tuple[str, str, str]:
    """(game, ismcts choice, opponent) of a run's settings line."""
    mine = next(b for b in header["bots"] if b.startswith("ismcts"))
    other = next(b for b in header["bots"] if not b.startswith("ismcts"))
    return (header["game"], mine, other)


def folder_files(folder: str) -> list[Path]:
    """Every run's file in ``folder``, finished or not."""
    return sorted([*Path(folder).glob("*.jsonl"), *Path(folder).glob("*.partial")])


def summarise(paths: list[Path]) -> dict[tuple[str, str, str], dict[str, Any]]:
    """Per (game, ismcts choice, opponent): games, wins (a shared victory counts its share),
    seeds, the points of each side, the ismcts seat's seconds and moves, and whether any of
    it comes from a run not finished yet (a ``.partial`` file).  A deal (seed) found in two
    files counts once."""
    rows: dict[tuple[str, str, str], dict[str, Any]] = {}
    for path in paths:
        header, games = read_records(path)
        if header is None:
            continue
        key = row_key(header)
        for _, data in sorted(games.items()):
            row = rows.setdefault(key, {"games": 0, "wins": 0.0, "seeds": set(),
                                        "mine": 0.0, "theirs": 0.0, "seconds": 0.0,
                                        "moves": 0, "partial": False, "stopped": None})
            if data["seed"] in row["seeds"]:
                continue
            share, seat = ismcts_share(data)
            scores = data["outcome"]["scores"]
            row["games"] += 1
            row["wins"] += share
            row["seeds"].add(data["seed"])
            row["mine"] += scores[seat]
            row["theirs"] += scores[1 - seat]
            row["seconds"] += data["seconds"][seat]
            row["moves"] += data["moves"][seat]
            row["partial"] = row["partial"] or path.suffix == ".partial"
            row["stopped"] = row["stopped"] or header.get("stopped")
    return rows


def seed_ranges(seeds: set[int]) -> str:
    """``900000-900199`` (runs of consecutive seeds, comma separated)."""
    out: list[str] = []
    ordered = sorted(seeds)
    start = prev = ordered[0]
    for seed in [*ordered[1:], None]:
        if seed is not None and seed == prev + 1:
            prev = seed
            continue
        out.append(f"{start}-{prev}" if prev != start else str(start))
        if seed is not None:
            start = prev = seed
    return ", ".join(out)


def cell_text(row: dict[str, Any]) -> str:
    low, high = wilson(row["wins"], row["games"])
    share = row["wins"] / row["games"]
    return (f"{row['wins']:g} of {row['games']}, {100 * share:.1f}% "
            f"({100 * low:.1f}-{100 * high:.1f}%)")


def budget_of(choice: str) -> int:
    """The iteration budget of ``ismcts:N[,...]`` (0 for a time budget)."""
    text = choice.partition(":")[2].split(",")[0]
    return int(text) if text.isdigit() else 0


def table(args: argparse.Namespace) -> None:
    print("| version | game | against | ismcts | games | ismcts share (95% interval) "
          "| mean points, ismcts : other | s/move | seeds |")
    print("|---|---|---|---|---|---|---|---|---|")
    for folder in args.folders:
        rows = summarise(folder_files(folder))
        for (game, mine, other), row in sorted(rows.items(),
                                               key=lambda kv: (kv[0][0], kv[0][2],
                                                               budget_of(kv[0][1]))):
            n = row["games"]
            games = f"{n} (unfinished)" if row["partial"] else str(n)
            if row["stopped"]:
                rule = row["stopped"]
                games += (f" (stopped by the rule: {rule['verdict']}, lower end above "
                          f"{100 * rule['above']:g}%, at most {rule['of']})")
            print(f"| {Path(folder).name} | {game} | {other} | {mine} | {games} | "
                  f"{cell_text(row)} | {row['mine'] / n:.1f} : {row['theirs'] / n:.1f} | "
                  f"{row['seconds'] / max(1, row['moves']):.3f} | "
                  f"{seed_ranges(row['seeds'])} |")


def per_deal(paths: list[Path]) -> dict[tuple[str, str, str], dict[int, float]]:
    """ismcts's share of each deal (seed) per (game, ismcts choice, opponent)."""
    shares: dict[tuple[str, str, str], dict[int, float]] = {}
    for path in paths:
        header, games = read_records(path)
        if header is not None:
            row = shares.setdefault(row_key(header), {})
            for data in games.values():
                row.setdefault(data["seed"], ismcts_share(data)[0])
    return shares


def sign_test(better: int, worse: int) -> float:
    """The two-sided exact sign test's p-value of ``better`` deals against ``worse`` ones (the
    deals that came out the same left out): how often a coin would split as unevenly."""
    n = better + worse
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(min(better, worse) + 1)) / 2**n
    return min(1.0, 2 * tail)


def compare(args: argparse.Namespace) -> None:
    before, after = per_deal(folder_files(args.before)), per_deal(folder_files(args.after))
    print(f"| game | against | ismcts | deals in both | {Path(args.before).name} | "
          f"{Path(args.after).name} | deals better / worse | sign test p |")
    print("|---|---|---|---|---|---|---|---|")
    for key in sorted(set(before) & set(after), key=lambda k: (k[0], k[2], budget_of(k[1]))):
        seeds = sorted(set(before[key]) & set(after[key]))
        if not seeds:
            continue
        was = [before[key][s] for s in seeds]
        now = [after[key][s] for s in seeds]
        better = sum(1 for b, a in zip(was, now, strict=True) if a > b)
        worse = sum(1 for b, a in zip(was, now, strict=True) if a < b)
        print(f"| {key[0]} | {key[2]} | {key[1]} | {len(seeds)} | {sum(was):g} | {sum(now):g} "
              f"| {better} / {worse} | {sign_test(better, worse):.2g} |")


#: A run of this many face-down plays in a row by the ismcts seat counts as a stall.
STALL = 8


def completes(state: Any, action: Any) -> bool:
    """True when ``action`` (a Mandala action) is a play that completes its mandala."""
    from hedgerow.plugins.mandala.choices import play_args
    from hedgerow.plugins.mandala.claims import is_complete, is_present

    args_ = play_args(action)
    if args_ is None:
        return False
    mandala, colour, _ = args_
    present = state.mandalas[mandala].present
    return not is_present(present, colour) and is_complete(present | 1 << colour)


def face_down(state: Any, action: Any) -> bool:
    """True when ``action`` (a Mandala action) is a play whose cards go face down (their
    colour is present on the mandala already)."""
    from hedgerow.plugins.mandala.choices import play_args
    from hedgerow.plugins.mandala.claims import is_present

    args_ = play_args(action)
    return args_ is not None and is_present(state.mandalas[args_[0]].present, args_[1])


def longest_run(flags: list[bool]) -> int:
    """The most True values in a row."""
    best = run_ = 0
    for flag in flags:
        run_ = run_ + 1 if flag else 0
        best = max(best, run_)
    return best


def stall_game(number: int, bot: str, seat: int) -> dict[str, Any]:
    """One 2-player Mandala game seeded ``number`` (the game ``hedgerow simulate mandala
    --seed number`` plays), ``bot`` at ``seat`` against greedy: the plays of ``bot``, how
    many went face down, the longest run of them, the turns at which greedy on the same
    view would have completed a mandala and ``bot`` did not, the result and the final
    state hash."""
    from hedgerow.core.botchoice import resolve
    from hedgerow.core.playout import make_bot
    from hedgerow.core.pluginhost import PluginHost
    from hedgerow.core.seeding import seed_from_int
    from hedgerow.core.table import Table

    plugins = PluginHost(autoload=False)
    ruleset = plugins.ruleset("mandala", players=2)
    rules = ruleset.gamedef
    seed = seed_from_int(number)
    specs = [resolve(plugins, "greedy", "mandala")] * 2
    specs[seat] = resolve(plugins, bot, "mandala")
    bots = [make_bot(ruleset, 2, seed, specs[s], s) for s in range(2)]
    shadow = make_bot(ruleset, 2, b"budget-curve-shadow", resolve(plugins, "greedy", "mandala"),
                      seat)
    table_ = Table(ruleset, 2, seed)
    downs: list[bool] = []
    missed = 0
    while table_.active_seats():
        (who,) = table_.active_seats()
        state = table_.state
        view, legal = rules.view(state, who), rules.legal_actions(state, who)
        action = bots[who].choose(view, legal)
        if who == seat and action.kind == "play":
            downs.append(face_down(state, action))
            if not completes(state, action) and completes(state, shadow.choose(view, legal)):
                missed += 1
        table_.play(who, action)
    outcome = table_.outcome()
    assert outcome is not None
    winners = list(outcome.winners)
    return {"seed": number, "seat": seat, "plays": len(downs), "down": sum(downs),
            "longest": longest_run(downs), "missed": missed, "scores": list(outcome.scores),
            "winners": winners, "win": (1.0 / len(winners)) if seat in winners else 0.0,
            "state_hash": table_.state_hash().hex()}


def stall(args: argparse.Namespace) -> None:
    games = []
    for i in range(args.games):
        seat = args.seat if args.seat >= 0 else i % 2
        game = stall_game(args.seed + i, args.bot, seat)
        games.append(game)
        print(f"seed {game['seed']}, {args.bot} (seat {seat}) against greedy: {game['plays']} "
              f"plays, {game['down']} face down, longest run face down {game['longest']}; "
              f"turns where greedy would have completed a mandala and it did not: "
              f"{game['missed']}; scores {game['scores']}, winners {game['winners']}",
              flush=True)
    if len(games) > 1:
        n = len(games)
        stalled = sum(1 for g in games if g["longest"] >= STALL)
        print(f"{args.bot}: {n} games, {stalled} with {STALL} or more face-down plays in a row, "
              f"{sum(g['down'] for g in games) / sum(g['plays'] for g in games):.0%} of its "
              f"plays face down, {sum(g['missed'] for g in games) / n:.1f} completions "
              f"missed a game, won {sum(g['win'] for g in games):g}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="play the tournaments")
    r.add_argument("game")
    r.add_argument("--budgets", default="300,1000,2000,5000,10000")
    r.add_argument("--extra", default="", help="more ismcts parameters, e.g. ',c=1.0'")
    r.add_argument("--against", default="greedy")
    r.add_argument("--games", type=int, default=200)
    r.add_argument("--seed", type=int, default=900000)
    r.add_argument("--players", type=int, default=2)
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--out", required=True)
    r.add_argument("--stop-above", type=float, default=None, help="stop once the share's "
                   "95%% interval has its lower end above this (met) or can no longer get "
                   "there within --games (not shown), e.g. 0.9")
    r.add_argument("--hedgerow", default="", help="the hedgerow command to run (default: "
                   "this interpreter's)")
    t = sub.add_parser("table", help="the table of every run in the folders")
    t.add_argument("folders", nargs="+")
    c = sub.add_parser("compare", help="two folders' runs on the deals they share")
    c.add_argument("before")
    c.add_argument("after")
    s = sub.add_parser("stall", help="issue 33's Mandala game, move by move")
    s.add_argument("--seed", type=int, default=900000)
    s.add_argument("--bot", default="ismcts:10000")
    s.add_argument("--games", type=int, default=1)
    s.add_argument("--seat", type=int, default=0, help="the ismcts seat (-1: seats "
                   "alternate from game to game)")
    args = parser.parse_args()
    {"run": run, "table": table, "compare": compare, "stall": stall}[args.command](args)


if __name__ == "__main__":
    main()

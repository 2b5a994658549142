"""The ``hedgerow`` command: help, version, games, simulate, and one clear line for bad input."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import Counter

import pytest

from hedgerow.clients.cli import main
from hedgerow.core.pluginhost import PluginHost


def hedgerow(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    """Run the real command in a new process."""
    return subprocess.run(
        [sys.executable, "-m", "hedgerow.clients.cli", *args],
        capture_output=True,
        text=True,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


TOYS = {"HEDGEROW_PLUGINS": "toygames", "PYTHONPATH": os.path.dirname(os.path.dirname(__file__))}
#: Every game `hedgerow` knows with the toy plugins: the built-in ones, duel and posy.
TOY_GAMES = sorted({*PluginHost(autoload=False).games, "duel", "posy"})


def test_help_and_version() -> None:
    out = hedgerow("--help")
    assert out.returncode == 0
    assert "hedgerow play petals" in out.stdout
    for command in ("play", "games", "simulate", "host", "join", "tables", "resume", "replay"):
        assert command in out.stdout
    version = hedgerow("--version")
    assert version.returncode == 0 and version.stdout.startswith("hedgerow ")


def test_no_command_prints_help(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([]) == 0
    assert "COMMAND" in capsys.readouterr().out


def test_games_lists_games_variants_and_bots_with_their_origin() -> None:
    out = hedgerow("games", env=TOYS)
    assert out.returncode == 0, out.stderr
    assert "posy" in out.stdout and "+ lowball" in out.stdout and "random" in out.stdout
    data = json.loads(hedgerow("games", "--json", env=TOYS).stdout)
    posy = next(g for g in data["games"] if g["name"] == "posy")
    assert posy["players"] == [2, 4]
    assert [v["name"] for v in posy["variants"]] == ["bonus", "lowball"]
    assert posy["distribution"] == "(local)"
    random_bot = next(b for b in data["bots"] if b["name"] == "random")
    assert random_bot["distribution"] == "hedgerow" and random_bot["games"] == "any"


def test_simulate_json_has_the_documented_fields(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEDGEROW_PLUGINS", "toygames")
    assert (
        main(
            [
                "simulate",
                "posy",
                "--players",
                "3",
                "--variant",
                "lowball",
                "--seed",
                "5",
                "--games",
                "3",
                "--json",
            ]
        )
        == 0
    )
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 3
    records = [json.loads(line) for line in lines]
    assert [r["seed"] for r in records] == [5, 6, 7]
    for r in records:
        assert r["game"] == "posy" and r["variants"] == ["lowball"] and r["players"] == 3
        assert len(r["state_hash"]) == 64
        assert set(r["outcome"]) >= {"scores", "ranking", "winners", "explanation"}


def test_simulate_table_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEDGEROW_PLUGINS", "toygames")
    assert main(["simulate", "duel", "--players", "2", "--games", "4"]) == 0
    out = capsys.readouterr().out
    assert out.count("seed ") == 4 and "wins" in out


def test_simulate_is_reproducible_across_processes_and_hash_seeds() -> None:
    args = ("simulate", "posy", "--players", "4", "--seed", "11", "--games", "5", "--json")
    runs = [hedgerow(*args, env={**TOYS, "PYTHONHASHSEED": s}) for s in ("1", "2")]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr
    hashes = [[json.loads(line)["state_hash"] for line in r.stdout.splitlines()] for r in runs]
    assert hashes[0] == hashes[1] and len(set(hashes[0])) > 1


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "chess"], f"unknown game 'chess' (choose from: {', '.join(TOY_GAMES)})"),
        (
            ["simulate", "posy", "--variant", "nope"],
            "unknown variant 'nope' for posy (choose from: bonus, lowball)",
        ),
        (["simulate", "posy", "--players", "9"], "posy is for 2 to 4 players, not 9"),
        (
            ["simulate", "posy", "--bots", "deep"],
            "unknown bot 'deep' for posy (choose from: greedy, ismcts, random)",
        ),
        (["simulate", "posy", "--games", "0"], "--games must be at least 1, not 0"),
        (
            ["simulate", "posy", "--variant", "bonus", "--variant", "lowball"],
            "variant 'bonus' cannot be combined with lowball",
        ),
    ],
)
def test_bad_arguments_print_one_clear_line(args: list[str], message: str) -> None:
    out = hedgerow(*args, env=TOYS)
    assert out.returncode == 2
    assert out.stderr.strip() == f"hedgerow: error: {message}"
    assert out.stdout == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["-p", "nosuchplugin", "games"],
         "-p nosuchplugin: there is no module named 'nosuchplugin' here (check its spelling, "
         f"and that its package is installed in this Python, {sys.executable})"),
        (["simulate", "posy", "--bots", "ismcts:abc"],
         "bot 'ismcts': bad budget 'abc': write iterations (2000) or a time (1s, 250ms) "
         "(hedgerow games lists the parameters it takes)"),
    ],
)
def test_a_missing_plugin_and_bad_bot_parameters_are_one_short_line(
        args: list[str], message: str) -> None:
    out = hedgerow(*args, env=TOYS)
    assert out.returncode == 2
    assert out.stderr.strip() == f"hedgerow: error: {message}"
    assert "Traceback" not in out.stderr and len(out.stderr.splitlines()) == 1


def test_games_lists_what_each_bot_takes_after_its_name() -> None:
    out = hedgerow("games")
    lines = out.stdout.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  ismcts "))
    assert lines[at + 1].strip().startswith("parameters (ismcts:PARAMS): a budget per move")
    assert all(len(line) <= 79 for line in lines[at + 1:] if line.startswith("    "))
    bots = json.loads(hedgerow("games", "--json").stdout)["bots"]
    assert next(b for b in bots if b["name"] == "random")["parameters"] == ""


def test_tournament_help_says_95_percent_once() -> None:
    out = hedgerow("tournament", "--help")
    assert "95% confidence" in " ".join(out.stdout.split()) and "%%" not in out.stdout


def test_argparse_errors_exit_non_zero() -> None:
    out = hedgerow("simulate", "posy", "--players", "many", env=TOYS)
    assert out.returncode == 2 and "invalid int value" in out.stderr


def test_blocking_a_plugin_from_the_command_line() -> None:
    out = hedgerow("-p", "no:random-bot", "games", "--json", env=TOYS)
    assert [b["name"] for b in json.loads(out.stdout)["bots"]] == ["greedy", "ismcts"]


@pytest.mark.parametrize("command", ["simulate", "play", "host", "join", "replay", "games"])
def test_each_command_help_shows_its_own_arguments(command: str) -> None:
    out = hedgerow(command, "--help")
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"usage: hedgerow {command}")
    expected = {"simulate": "--games", "play": "--players", "host": "--players", "join": "--bot",
                "replay": "--verify", "games": "--json"}[command]
    assert expected in out.stdout


def test_unknown_command_is_one_clear_error() -> None:
    out = hedgerow("dance")
    assert out.returncode == 2
    assert "invalid choice: 'dance'" in out.stderr


def test_join_without_a_table_is_the_lobby_which_a_bot_cannot_use() -> None:
    out = hedgerow("join", "--bot", "random")
    assert out.returncode == 2
    assert out.stderr.strip() == (
        "hedgerow: error: a bot seat needs the table: hedgerow join ADDRESS_OR_NAME --bot random"
    )
    lobby = subprocess.run([sys.executable, "-m", "hedgerow.clients.cli", "join"],
                           capture_output=True, text=True, stdin=subprocess.DEVNULL, timeout=60)
    assert lobby.returncode == 2
    assert "needs a terminal" in lobby.stderr


def test_simulate_reports_solo_results_with_their_grades(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HEDGEROW_PLUGINS", "goofspiel")
    # the same games twice (the same --seed: a run without one draws its own)
    assert main(["simulate", "goofspiel", "--players", "1", "--games", "3", "--seed", "0",
                 "--json"]) == 0
    records = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    for r in records:
        outcome = r["outcome"]
        assert outcome["kind"] == "solo" and outcome["winners"] in ([], [0])
        assert outcome["score"] == outcome["scores"][0]
        assert outcome["opponent"] == outcome["breakdown"]["Points"][0] - outcome["score"]
    assert main(["simulate", "goofspiel", "--players", "1", "--games", "3", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    grades = Counter(r["outcome"]["grade"] or "none" for r in records)
    assert f"grades: {', '.join(f'{g} {n}' for g, n in sorted(grades.items()))}" in out
    assert "mean score" in out


class _Stream:
    def __init__(self, tty: bool) -> None:
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_an_error_is_one_line_for_a_program_and_broken_between_words_for_a_person(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import os
    import shutil

    from hedgerow.clients.cli import error_text

    message = ("nobody at 127.0.0.1:40000 answers to the table key AbCdEfGh…: something "
               "listens there, but not that table; check the key after the / against the "
               "address `hedgerow host` printed")
    assert error_text(message, _Stream(False)) == f"hedgerow: error: {message}"
    monkeypatch.setattr(shutil, "get_terminal_size",
                        lambda fallback=(80, 24): os.terminal_size((80, 24)))
    lines = error_text(message, _Stream(True)).split("\n")
    assert len(lines) > 1 and all(len(line) < 80 for line in lines)
    assert lines[0].startswith("hedgerow: error: nobody at")
    assert all(line.startswith("  ") for line in lines[1:])
    assert " ".join(line.strip() for line in lines) == f"hedgerow: error: {message}"

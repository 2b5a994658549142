"""The ``hedgerow`` command line: parses arguments and dispatches to one module per command.

Start-up is kept fast by importing a command's module only when it runs (``--help`` imports
no plugin and no network code).  Every set-up mistake surfaces as one line on stderr,
``hedgerow: error: ...``, naming the problem and the valid choices, with exit status 2.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import os
import sys
from collections.abc import Sequence
from typing import TextIO

EXIT_USAGE = 2

#: command name -> (module in hedgerow.clients, one-line help)
COMMANDS: dict[str, tuple[str, str]] = {
    "play": ("hedgerow.clients.cmd_play", "play on this machine against bots (start here)"),
    "games": (
        "hedgerow.clients.cmd_games",
        "list every game, variant and bot, and where each came from",
    ),
    "simulate": ("hedgerow.clients.cmd_simulate",
                 "watch bots play single games in one process (fixed seats, replayable)"),
    "tournament": ("hedgerow.clients.cmd_tournament",
                   "compare bots over many games: rotated seats, in parallel, a table per bot"),
    "host": ("hedgerow.clients.cmd_host", "open a table on this machine for players on the LAN"),
    "join": ("hedgerow.clients.cmd_join", "join a table by address or by name"),
    "tables": ("hedgerow.clients.cmd_tables", "list the open tables seen on the LAN"),
    "resume": ("hedgerow.clients.cmd_resume",
               "come back to an unfinished table (lists them without LOGFILE)"),
    "replay": ("hedgerow.clients.cmd_replay", "re-simulate a saved log and check every hash"),
    "watch": ("hedgerow.clients.cmd_watch",
              "step through a saved game on the table screen, move by move"),
    "leaderboard": (
        "hedgerow.clients.cmd_leaderboard",
        "the weekly board of solo games (FLOWERS) the LAN shares",
    ),
    "check-peer": ("hedgerow.clients.cmd_check_peer",
                   "check another implementation's peer against docs/protocol.md"),
}


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("hedgerow")
    except PackageNotFoundError:
        return "0+unknown"


class _VersionAction(argparse.Action):
    def __init__(self, option_strings: Sequence[str], dest: str, **kwargs: object) -> None:
        super().__init__(option_strings, dest, nargs=0, help="print the version and exit")

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"hedgerow {_version()}")
        parser.exit()


def _command_in(argv: Sequence[str]) -> str | None:
    """The command named in ``argv``: the first word that is not an option or its value."""
    words = iter(argv)
    for word in words:
        if word == "-p":
            next(words, None)
        elif not word.startswith("-"):
            return word
    return None


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only ``command``'s module is imported to add that command's arguments."""
    parser = argparse.ArgumentParser(
        prog="hedgerow",
        description="Flower-garden card games on your LAN, peer to peer, with no server.",
        epilog="Start here: hedgerow play petals   (you against bots, on this machine)",
    )
    parser.add_argument("--version", action=_VersionAction)
    parser.add_argument(
        "-p",
        dest="plugin_opts",
        action="append",
        default=[],
        metavar="NAME",
        help="load plugin module NAME, or block a plugin with no:NAME (like pytest)",
    )
    # prog given: argparse would otherwise build a help formatter (importing shutil) to work
    # out this same "hedgerow" on every start, not only when help is printed
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", prog=parser.prog)
    for name, (module, help_text) in COMMANDS.items():
        child = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            importlib.import_module(module).add_arguments(child)
    return parser


def error_text(message: str, stream: TextIO) -> str:
    """``hedgerow: error: MESSAGE`` as printed on ``stream``: one line, for a program that
    reads it; broken between words at the terminal's width when a person reads it (a
    terminal breaks a long line wherever its edge falls, inside a word)."""
    text = f"hedgerow: error: {message}"
    if not stream.isatty():
        return text
    import shutil
    import textwrap

    width = shutil.get_terminal_size((80, 24)).columns
    return textwrap.fill(text, width=max(20, width - 1), subsequent_indent="  ",
                         break_long_words=False, break_on_hyphens=False)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``hedgerow`` command; returns the exit status."""
    argv = list(sys.argv[1:] if argv is None else argv)
    command = _command_in(argv)
    args = build_parser(command if command in COMMANDS else None).parse_args(argv)
    if args.command is None:
        build_parser().print_help()
        return 0
    module = importlib.import_module(COMMANDS[args.command][0])
    from hedgerow.core.errors import HedgerowError

    try:
        return int(module.run(args) or 0)
    except HedgerowError as exc:
        print(error_text(exc.message, sys.stderr), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("hedgerow: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader went away (``hedgerow replay LOG | head``)
        with contextlib.suppress(OSError):  # no flush of what it will not read
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


def make_plugin_host(args: argparse.Namespace):
    """The plugin host, honouring ``-p NAME`` and ``-p no:NAME``.

    A ``-p`` module that cannot be imported is one `HedgerowError` line naming it (and why),
    never a traceback: the module is imported here first, then handed to the host.
    """
    from hedgerow.core.pluginhost import PluginHost

    opts = getattr(args, "plugin_opts", [])
    block = [o[3:] for o in opts if o.startswith("no:")]
    extra = [_plugin_module(o) for o in opts if not o.startswith("no:")]
    return PluginHost(block=block, extra=extra)


def _plugin_module(name: str) -> str:
    """``name`` once it imports; `HedgerowError` saying why it does not."""
    from hedgerow.core.errors import HedgerowError

    try:
        importlib.import_module(name)
    except ModuleNotFoundError as exc:
        missing = exc.name or name
        if missing == name or name.startswith(missing + "."):
            raise HedgerowError(f"-p {name}: there is no module named {name!r} here (check "
                                "its spelling, and that its package is installed in this "
                                f"Python, {sys.executable})") from None
        raise HedgerowError(f"-p {name}: it needs the module {missing!r}, which is not "
                            "installed") from None
    except Exception as exc:  # the plugin's own bug: one line, not its traceback
        raise HedgerowError(f"-p {name}: the module failed to load: "
                            f"{type(exc).__name__}: {exc}") from None
    return name


if __name__ == "__main__":
    sys.exit(main())

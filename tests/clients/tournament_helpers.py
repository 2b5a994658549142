"""What the tournament tests share: a JSON run of ``hedgerow tournament`` and its output
without the fields that depend on the clock or on where it ran."""

from __future__ import annotations

import contextlib
import io
import json
from typing import Any

from hedgerow.clients.cli import main

#: a small 2-player Petals tournament of the random bot against itself
ARGS = ["tournament", "petals", "--players", "2", "--bots", "random,random", "--seed", "40"]


def run_json(*args: str) -> list[dict[str, Any]]:
    """``hedgerow tournament`` (`ARGS` then ``args``) with ``--json``: its lines, parsed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        status = main([*ARGS, "--json", *args])
    assert status == 0
    return [json.loads(line) for line in out.getvalue().splitlines()]


def without_timing(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The output with the clock's fields and the description of the workers left out."""
    out = []
    for line in lines:
        line = {k: v for k, v in line.items()
                if k not in ("seconds", "workers", "backend", "dashboard")}
        if line["type"] == "summary":
            for part in ("bots", "seats"):
                line[part] = {**line[part], "lines": [
                    {k: v for k, v in row.items() if k != "seconds_per_move"}
                    for row in line[part]["lines"]]}
        out.append(line)
    return out

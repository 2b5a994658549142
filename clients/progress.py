"""The progress bar of long runs (``hedgerow simulate``, ``hedgerow tournament``) on stderr.

prompt_toolkit's `ProgressBar` draws the label, the share done, the bar, the count and an
ETA.  It is shown only when asked for (the commands ask when stderr is a terminal), so a
run whose stderr goes to a file or a pipe writes nothing there.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator


@contextlib.contextmanager
def progress_bar(total: int, show: bool, label: str = "games") -> Iterator[Callable[[int], None]]:
    """prompt_toolkit's progress bar on stderr for ``total`` items, when ``show``.

    Yields ``advance(n=1)``, to call as items finish (it does nothing when ``show`` is false).
    The bar reads the terminal's keys only for Ctrl-C, which interrupts the run as it does
    without the bar; when stdin is not a terminal it reads none (and asks the terminal
    nothing, so no answer lands in the shell).
    """
    if not show:

        def nothing(n: int = 1) -> None:
            pass

        yield nothing
        return
    from prompt_toolkit.input import create_input, create_pipe_input
    from prompt_toolkit.output import create_output
    from prompt_toolkit.shortcuts import ProgressBar
    from prompt_toolkit.shortcuts.progress_bar import ProgressBarCounter

    output = create_output(stdout=sys.stderr)
    with contextlib.ExitStack() as stack:
        if sys.stdin.isatty():
            keys = create_input()
        else:
            keys = stack.enter_context(create_pipe_input())
            output.enable_cpr = False  # type: ignore[attr-defined]  # a Vt100_Output
        bar = stack.enter_context(ProgressBar(output=output, input=keys))
        counter: ProgressBarCounter[None] = bar(label=label, total=total)

        def advance(n: int = 1) -> None:
            counter.items_completed += n
            bar.invalidate()

        yield advance
        counter.done = True

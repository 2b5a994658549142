"""The progress bar of long runs (``hedgerow simulate``, ``hedgerow tournament``) on stderr.

prompt_toolkit's `ProgressBar` draws the label, the share done, the bar, the count and an
ETA.  It is shown only when asked for (the commands ask when stderr is a terminal), so a
run whose stderr goes to a file or a pipe gets no bar there.  A run can also say something
while it goes on (`Progress.say`: "waiting for a worker"): above the bar when there is one,
else as a ``hedgerow: ...`` line on stderr.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable, Iterator


def say_on_stderr(text: str) -> None:
    """``text`` on stderr, each of its lines after ``hedgerow: ``."""
    for line in text.splitlines():
        print(f"hedgerow: {line}", file=sys.stderr, flush=True)


class Progress:
    """What a run reports as it goes: ``progress(n)`` as items finish, `say` for news."""

    def __init__(self, advance: Callable[[int], None] | None = None,
                 title: Callable[[str | None], None] | None = None) -> None:
        self._advance = advance
        self._title = title
        self._titled = False

    def __call__(self, n: int = 1) -> None:
        """``n`` more items finished (the bar moves; what `say` put above it goes)."""
        if self._advance is not None:
            self._advance(n)
        if self._titled and self._title is not None:
            self._title(None)
            self._titled = False

    def say(self, text: str) -> None:
        """``text`` above the bar until the next items finish (its first line: the bar has
        room for one); without a bar, every line of it on stderr."""
        if self._title is None:
            say_on_stderr(text)
        else:
            self._title(text.splitlines()[0] if text else "")
            self._titled = True


@contextlib.contextmanager
def progress_bar(total: int, show: bool, label: str = "games") -> Iterator[Progress]:
    """prompt_toolkit's progress bar on stderr for ``total`` items, when ``show``.

    Yields a `Progress`: call it as items finish (the bar moves; without a bar nothing
    happens), and `Progress.say` what the run should tell while it goes on.  The bar reads
    the terminal's keys only for Ctrl-C, which interrupts the run as it does without the
    bar; when stdin is not a terminal it reads none (and asks the terminal nothing, so no
    answer lands in the shell).
    """
    if not show:
        yield Progress()
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

        def advance(n: int) -> None:
            counter.items_completed += n
            bar.invalidate()

        def title(text: str | None) -> None:
            bar.title = text
            bar.invalidate()

        yield Progress(advance, title)
        counter.done = True

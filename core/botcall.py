"""Asking bots for their choices on a thread of their own, so that no frame a bot can walk to
holds the table.

A bot plugin is code in the caller's process, and Python lets code read the frames of its
own call stack: ``sys._getframe(1).f_locals`` in ``choose`` is the caller's locals, and a
caller that keeps the table, its seed or the tournament's job as a local (as a game loop
does) hands them to any bot that looks.  `BotThread` runs every ``choose`` on one thread
started for the purpose: a bot's call stack is then that thread's loop and the bot's own
frames, which hold its seat's view, its legal actions and the bots (their own objects),
never the table.  The caller waits for each answer, so the bots still choose one at a
time, in the caller's order, and a game plays exactly as it would on the caller's thread
(nothing about the choices depends on the thread).

This closes one way in; it is not a wall.  Within one process a bot can still find the
live table by other means (``gc.get_objects()``, ``sys._current_frames()``, the caller's
module globals), and nothing in Python forbids it: in one process the boundary between a
bot and the table is a convention that the built-in bots keep (docs/plugins.md, "What a
bot is handed").  Where the boundary must hold, a bot plays as a peer of its own at a
sealed networked table, whose process holds only its seat's information state.

An exception raised by a bot is raised again in the caller, unchanged.  The thread is a
daemon: a caller interrupted while a bot thinks (Ctrl-C) does not wait for the bot.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from types import TracebackType
from typing import Any

from hedgerow.core.actions import Action
from hedgerow.core.game import Bot

#: What the caller puts on the request queue: a seat, its view and its legal actions; None
#: stops the thread.
_Request = tuple[int, Any, Sequence[Action]] | None


def _serve(bots: Sequence[Bot], requests: queue.SimpleQueue[_Request],
           answers: queue.SimpleQueue[tuple[bool, Any]]) -> None:
    """The bots' thread: answer each request with the bot's choice (or its exception)."""
    while True:
        request = requests.get()
        if request is None:
            return
        seat, view, legal = request
        del request
        try:
            answers.put((True, bots[seat].choose(view, legal)))
        except BaseException as exc:  # handed to the caller, which raises it
            answers.put((False, exc))
        del view, legal


class BotThread:
    """The bots of one game, asked for their choices on a thread of their own (module doc).

    Use it as a context manager (the thread stops at the end), or call `close`.
    """

    __slots__ = ("_answers", "_requests", "_thread")

    def __init__(self, bots: Sequence[Bot], name: str = "hedgerow-bots") -> None:
        self._requests: queue.SimpleQueue[_Request] = queue.SimpleQueue()
        self._answers: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        self._thread = threading.Thread(target=_serve, name=name, daemon=True,
                                        args=(tuple(bots), self._requests, self._answers))
        self._thread.start()

    def choose(self, seat: int, view: Any, legal: Sequence[Action]) -> Action:
        """The choice of the bot at ``seat`` for ``view`` and ``legal`` (its exception, raised
        here, if it raised one)."""
        if not self._thread.is_alive():
            raise RuntimeError("the bots' thread has stopped")
        self._requests.put((seat, view, legal))
        ok, value = self._answers.get()
        if not ok:
            raise value
        action: Action = value
        return action

    def close(self) -> None:
        """Stop the thread once it has answered (at once when it is waiting)."""
        if self._thread.is_alive():
            self._requests.put(None)

    def __enter__(self) -> BotThread:
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

"""The replay viewer: ``hedgerow watch LOGFILE`` shows a saved game on the table screen.

Laid out as the seat client (`hedgerow.clients.app`), whose screen, renderers and filters
it reuses, in the ptpython/pymux manner:

* ``film`` — `Film`: a log replayed, a frame per entry, and what it can show of each seat
  (no UI code);
* ``replayseat`` — `ReplaySeat`: the film at one frame through one seat's eyes, as the
  `hedgerow.net.seat.Seat` the seat client's state reads;
* ``state`` — `WatchState`: where the viewer is, and how it steps (by entry, by round, to
  the ends, another seat);
* ``render`` — the panes' words for a replay (`Panes` of the seat client's layout);
* ``keys`` — the key bindings, one set per mode;
* ``application`` — `WatchApp`, `run_watch`, and `watch_after_game` (the results screen's
  ``w``);
* ``finished`` — the finished tables ``hedgerow resume`` offers to watch.
"""

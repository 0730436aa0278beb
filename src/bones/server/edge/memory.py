"""The garbage collector's settings for a process that serves sockets.

CPython's collector stops the process while it scans, and a full collection visits every
object the process holds: a server with a thousand tables (two thousand sockets, each with
its frames, buffers and timers) holds half a million. Measured at a person's pace
(``bench/RESULTS.md``, "the garbage collector"), full collections of 450-520 ms came every
7 s or so, and a move's p99 was 475 ms while the server used half a core.

Two settings cut that. What the process holds once started (modules, the app: a third
of its objects) is frozen out of every collection. And the young generations are
collected after 5,000 allocations and 50 young collections instead of 700 and 10, so a
move's short-lived objects die before they are promoted and full collections come
seldom; a young collection then scans more objects, measured as the better trade (the
sweep is in the results).

>>> import gc
>>> before = gc.get_threshold()
>>> settle()
>>> gc.get_threshold()[:2], gc.get_freeze_count() > 0
((5000, 50), True)
>>> gc.unfreeze(); gc.set_threshold(*before)
"""

from __future__ import annotations

import gc

__all__ = ["MIDDLE", "YOUNG", "settle"]

YOUNG = 5_000
"""Allocations (less deallocations) between collections of the youngest generation."""
MIDDLE = 50
"""Young collections between collections of the middle generation."""


def settle() -> None:
    """Call once the server is built, before it takes connections: collect what start-up
    left, freeze the rest out of later collections, and set the thresholds."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG, MIDDLE, gc.get_threshold()[2])

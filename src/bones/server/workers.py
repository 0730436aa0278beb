"""Worker processes for the server's heavy work (the bots' searches, analyses), which
give way to the process serving sockets and end when it does, however it ends.

A worker runs at a lower priority (``NICE``): with bots thinking on every core, a
person's move is still read and sent on at once, and the bots take what CPU is left:
people before bots.

A ``ProcessPoolExecutor`` worker holds both ends of its job queue, so it never sees the
server go: killed with SIGKILL, the server would leave its workers behind, each holding a
few hundred MiB. Every worker here watches its parent and leaves when it is gone.
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

__all__ = ["NICE", "become_worker", "process_pool"]

NICE = 10
"""How much lower than the server a worker runs (``os.nice``)."""


def become_worker(parent: int) -> None:
    """A worker's first call: give way to the server, and end this process when
    ``parent`` is gone."""
    os.nice(NICE)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)  # the server is gone: so is this worker's reason to be

    threading.Thread(target=watch, name="bones-parent-watch", daemon=True).start()


def process_pool(workers: int) -> ProcessPoolExecutor:
    """``workers`` fresh processes (spawned: no copy of the server's threads or sockets)
    that end with the server."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=become_worker, initargs=(os.getpid(),))

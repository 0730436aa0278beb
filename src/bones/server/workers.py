"""Worker processes for the server's heavy work (the bots' searches, analyses), which
end when the server does, however it ends.

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

__all__ = ["process_pool", "watch_parent"]


def watch_parent(parent: int) -> None:
    """End this process when ``parent`` is gone (a worker's first call)."""
    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(0)  # the server is gone: so is this worker's reason to be

    threading.Thread(target=watch, name="bones-parent-watch", daemon=True).start()


def process_pool(workers: int) -> ProcessPoolExecutor:
    """``workers`` fresh processes (spawned: no copy of the server's threads or sockets)
    that end with the server."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=watch_parent, initargs=(os.getpid(),))

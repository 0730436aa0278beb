"""The open files a process of many sockets needs: each socket is one, and a process
that runs out of them cannot accept, nor reach its store or Redis (asyncio then logs
the failed accept a hundred times a turn of its loop). So ``bones serve`` raises its
own limit as far as the system lets it, and holds fewer sockets than the limit by
:data:`RESERVED`, refusing the next one cleanly (:mod:`bones.server.sockets.allowance`).

>>> room_for_sockets(100) <= 100
True
"""

from __future__ import annotations

import resource

__all__ = ["RESERVED", "room_for_sockets"]

RESERVED = 256
"""Open files kept for all but the sockets: the store's and Redis's connections, the
bots' worker pipes, the log, the modules read at a first use."""


def room_for_sockets(wanted: int) -> int:
    """Raise this process's open-files limit to the most it may have, and answer how
    many sockets it may hold: ``wanted``, or fewer if the limit leaves less room."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != resource.RLIM_INFINITY and (hard == resource.RLIM_INFINITY or soft < hard):
        raised = wanted + RESERVED if hard == resource.RLIM_INFINITY else hard
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, raised), hard))
            soft = max(soft, raised)
        except (ValueError, OSError):  # a container may forbid it: the soft one stands
            pass
    if soft == resource.RLIM_INFINITY:
        return wanted
    return max(1, min(wanted, soft - RESERVED))

"""Where the server counts what clients do (requests an address makes, logins failed, chat
lines said): in this process's memory, or in Redis, so that every process of a site
counts the same.

>>> type(limit_storage(None)).__name__
'MemoryStorage'
"""

from __future__ import annotations

from limits.aio.storage import MemoryStorage, RedisStorage, Storage

from bones.server.sites.cluster import TIMEOUT

__all__ = ["limit_storage"]


def limit_storage(redis: str | None) -> Storage:
    """Where rate limits count: this process's memory, or Redis, shared by every process."""
    if redis is None:
        return MemoryStorage()
    return RedisStorage(f"async+{redis}", implementation="redispy", socket_timeout=TIMEOUT,
                        socket_connect_timeout=TIMEOUT)

"""A token bucket: how the server lets a socket send, or a player chat, at a rate with
bursts.

>>> bucket = Bucket(rate=1.0, burst=2)
>>> [bucket.take() for _ in range(3)]
[True, True, False]
"""

from __future__ import annotations

import time

__all__ = ["Bucket"]


class Bucket:
    """``rate`` tokens a second, ``burst`` at once; each message takes one."""

    def __init__(self, rate: float, burst: float) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = float(burst), time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

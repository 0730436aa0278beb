"""Password hashing that a burst of requests cannot turn into a memory exhaustion.

An argon2 hash takes 64 MiB and tens of milliseconds. Sign-up, login and a password
change each hash (a change twice), and each runs in a thread of the server's pool, so
a burst of them would hash forty at once. :class:`Hasher` lets :data:`AT_ONCE` hash
at a time in the whole process and :data:`WAITING` more wait; one more is refused at
once with :class:`Crowded` (the server answers 503 with Retry-After).

>>> hasher = Hasher(at_once=1, waiting=0)
>>> hasher.verify(hasher.hash("correct horse"), "correct horse")
True
>>> hasher.verify("not a hash", "correct horse")
False
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

__all__ = ["AT_ONCE", "WAITING", "Crowded", "Hasher"]

T = TypeVar("T")
AT_ONCE = 2
"""Hashes worked out at once in one process (128 MiB of argon2's memory)."""
WAITING = 8
"""Hashes that may wait for one of those; one more is refused."""


class Crowded(RuntimeError):
    """Too many passwords are being checked just now: try again in a moment."""


class Hasher:
    """argon2 with at most ``at_once`` hashes running and ``waiting`` waiting."""

    def __init__(self, at_once: int = AT_ONCE, waiting: int = WAITING,
                 argon: PasswordHasher | None = None) -> None:
        self.argon = argon or PasswordHasher()
        self.running = threading.BoundedSemaphore(at_once)
        self.room = threading.BoundedSemaphore(at_once + waiting)
        self.busiest = 0
        """The most hashes that ran at once (the tests read it)."""
        self._running = 0
        self._count = threading.Lock()

    def _bounded(self, work: Callable[[], T]) -> T:
        if not self.room.acquire(blocking=False):
            raise Crowded("too many passwords are being checked just now; try again in a "
                          "few seconds")
        try:
            with self.running:
                with self._count:
                    self._running += 1
                    self.busiest = max(self.busiest, self._running)
                try:
                    return work()
                finally:
                    with self._count:
                        self._running -= 1
        finally:
            self.room.release()

    def hash(self, password: str) -> str:
        return self._bounded(lambda: self.argon.hash(password))

    def verify(self, hashed: str, password: str) -> bool:
        """Whether ``password`` is the one ``hashed`` was made from."""
        def check() -> bool:
            try:
                return self.argon.verify(hashed, password)
            except (VerificationError, InvalidHashError):
                return False
        return self._bounded(check)

    def check_needs_rehash(self, hashed: str) -> bool:
        return self.argon.check_needs_rehash(hashed)

"""A store job of a route, run in a thread, its refusals answered as HTTP: an unknown
player, report or challenge is a 404, a permission refused a 403, a flood from one
player a 429 (with Retry-After), a request that makes
no sense now a ``conflict`` (400, or 409 where it was answered already)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from fastapi import HTTPException
from fastapi.concurrency import run_in_threadpool

from bones.server.people.moderation import Unknown
from bones.server.people.quotas import TooMany

__all__ = ["stored"]

T = TypeVar("T")


async def stored(job: Callable[..., T], *args: Any, conflict: int = 400,
                 **options: Any) -> T:
    try:
        return await run_in_threadpool(job, *args, **options)
    except TooMany as error:
        raise HTTPException(429, str(error), {"Retry-After": str(error.retry)}) from None
    except Unknown as error:
        raise HTTPException(404, str(error)) from None
    except PermissionError as error:
        raise HTTPException(403, str(error)) from None
    except ValueError as error:
        raise HTTPException(conflict, str(error)) from None

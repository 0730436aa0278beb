"""Leases and orphans on a real Redis (:mod:`bones.server.sites.cluster`): a table nobody holds
is found by the next look, a held one is not, and the look reads only the tables whose
lease ran out, so a site of a thousand held tables costs it nothing."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from bones.server.sites.cluster import LEASE, LOBBY, UNFINISHED, Cluster, heard


def _run(body: Callable[[Cluster, Cluster], Awaitable[None]], url: str) -> None:
    async def both() -> None:
        one, two = Cluster(url), Cluster(url)
        try:
            await body(one, two)
        finally:
            await _shut(one, two)

    asyncio.run(both())


async def _shut(*clusters: Cluster) -> None:
    """Close the clusters' connections to Redis."""
    for cluster in clusters:
        await cluster.redis.aclose()
        await cluster._listener.aclose()


def test_a_listed_table_nobody_claimed_is_an_orphan_until_claimed(redis_url: str) -> None:
    async def body(one: Cluster, two: Cluster) -> None:
        await one.opened("t1", "t2")  # as a process starting on an old store lists them
        assert sorted(await two.orphans()) == ["t1", "t2"]
        assert await two.claim("t1")
        assert not await one.claim("t1"), "one holder at a time"
        assert await one.orphans() == ["t2"]
        assert await one.owner("t1") == two.me

    _run(body, redis_url)


def test_a_lease_that_runs_out_makes_an_orphan_and_renewal_keeps_it(redis_url: str) -> None:
    async def body(one: Cluster, two: Cluster) -> None:
        assert await one.claim("kept") and await one.claim("lost")
        await one.opened("kept", "lost")
        assert await two.orphans() == []
        deadline = await one.redis.zscore(UNFINISHED, "kept")
        assert await one.renew(["kept"]) == []
        renewed = await one.redis.zscore(UNFINISHED, "kept")
        assert deadline is not None and renewed is not None and renewed > 0
        assert await two.renew(["kept"]) == ["kept"], "only the holder renews"
        await one.redis.delete("bones:lease:lost")  # as if it ran out
        assert await two.orphans() == ["lost"]
        await two.closed("lost")
        assert await two.orphans() == []

    _run(body, redis_url)


def test_a_process_nobody_hears_any_more_is_dead_and_its_tables_free_at_once(
        redis_url: str) -> None:
    """A killed process's connections close, so nobody listens on its channel: seen so
    at two looks in a row, it is dead, and its tables are orphans at once, with no wait
    for their leases to run out; a process that listens is never thought dead, and a
    process that let a table go has no claim on it any more."""
    async def body(one: Cluster, two: Cluster) -> None:
        await one.start()
        await two.start()
        for table in ("held", "let go"):
            assert await one.claim(table)
        await one.opened("held", "let go")
        await one.release("let go")
        assert await two.claim("let go")
        assert await one.dead() == set() and await two.dead() == set()
        assert await two.dead() == set(), "one listening is alive, look after look"
        for task in list(one._tasks):  # as a SIGKILL does: its channel's connection closes
            task.cancel()
        await asyncio.gather(*one._tasks, return_exceptions=True)
        await one._listener.aclose()
        assert await two.dead() == set(), "silent once: maybe a moment's reconnection"
        assert await two.orphans() == []
        assert await two.dead() == {one.me}
        assert await two.dead() == set(), "a death is told once"
        assert await two.orphans() == ["held"], "its table is free, its lease not run out"
        assert await two.owner("let go") == two.me, "not the dead one's any more"
        for task in list(two._tasks):
            task.cancel()
        await asyncio.gather(*two._tasks, return_exceptions=True)

    _run(body, redis_url)


def test_the_look_reads_only_leases_that_ran_out(redis_url: str) -> None:
    async def body(one: Cluster, two: Cluster) -> None:
        held = [f"t{n}" for n in range(1000)]
        for table in held:
            assert await one.claim(table)
        await one.opened(*held)
        assert await one.renew(held) == []
        now = await one.redis.time()
        soon = now[0] * 1000 + now[1] // 1000 + LEASE * 1000 / 2
        due = await one.redis.zcount(UNFINISHED, "-inf", soon)
        assert due == 0, "every held table's time is its lease's, ahead of now"
        assert await two.orphans() == []

    _run(body, redis_url)


def test_the_lobbies_hear_of_a_table_s_end_only_if_it_was_listed(redis_url: str) -> None:
    async def body(one: Cluster, two: Cluster) -> None:
        pubsub = two._listener.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(heard(two.redis, LOBBY))
        await one.opened("private", "public")
        await one.show('{"id": "public"}', "public")
        assert await _heard(pubsub) == 1, "shown: the lobbies hear"
        await one.closed("private")
        assert await _heard(pubsub) == 0, "a private table's end changes no list"
        await one.closed("public")
        assert await _heard(pubsub) == 1
        assert await one.listing() == [] and await one.redis.zcard(UNFINISHED) == 0
        await pubsub.aclose()

    _run(body, redis_url)


def test_a_site_in_another_database_of_the_same_redis_hears_nothing(redis_url: str) -> None:
    """Redis shares its channels among its databases: each site's are its database's."""
    db = int(redis_url.rsplit("/", 1)[1])
    elsewhere = redis_url.rsplit("/", 1)[0] + f"/{(db + 8) % 16}"

    async def body(one: Cluster, two: Cluster) -> None:
        other = Cluster(elsewhere)
        here, there = (c._listener.pubsub(ignore_subscribe_messages=True) for c in (two, other))
        try:
            await here.subscribe(heard(two.redis, LOBBY))
            await there.subscribe(heard(other.redis, LOBBY))
            await one.show('{"id": "public"}', "public")
            assert (await _heard(here), await _heard(there)) == (1, 0)
        finally:
            await here.aclose()
            await there.aclose()
            await _shut(other)

    _run(body, redis_url)


async def _heard(pubsub: Any) -> int:
    """Messages on the lobby's channel within a quarter of a second."""
    count = 0
    deadline = asyncio.get_running_loop().time() + 0.25
    while (left := deadline - asyncio.get_running_loop().time()) > 0:
        if await pubsub.get_message(timeout=left) is not None:
            count += 1
    return count

"""The bots' fleet on Redis (``--redis``): decisions go through the queue to the server's
own workers or to ``bones worker`` processes anywhere, and a worker killed in the
middle of a decision loses no move: another worker takes its job."""

from __future__ import annotations

import json
import os
import random
import re
import signal
import threading
import time
from pathlib import Path

import httpx
import pytest
import redis

from bones import Match, Round, Rules
from bones.server.thinking import fleet
from tests.server.live import Server, Worker, play_out, sqlite_url


def test_the_server_s_own_workers_take_jobs_from_redis(tmp_path: Path, redis_url: str) -> None:
    server = Server(sqlite_url(tmp_path / "fleet.db"),
                    limits={"redis": redis_url, "bot-workers": 1}).start()
    try:
        made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                      {"kind": "bot", "level": "hard"}], options={"target": None})
        play_out(server.socket(made["table"]["id"], made["token"]), random.Random(2))
        assert Match.from_record(server.get(f"/api/games/{made['table']['id']}/record")).is_over
        groups = redis.Redis.from_url(redis_url).xinfo_groups(fleet.PEOPLE)
        assert groups[0]["entries-read"] >= 1, "no decision went through the queue"
        # A worker acknowledges a job once its answer is sent: the table may hear the
        # answer first, so on a busy machine the last job is pending a moment longer.
        deadline = time.monotonic() + 30
        while groups[0]["pending"] and time.monotonic() < deadline:
            time.sleep(0.2)
            groups = redis.Redis.from_url(redis_url).xinfo_groups(fleet.PEOPLE)
        assert groups[0]["pending"] == 0
    finally:
        server.stop()


def test_a_killed_worker_s_job_is_taken_by_another(tmp_path: Path, redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    server = Server(sqlite_url(tmp_path / "killed.db"),
                    limits={"redis": redis_url, "bot-workers": 0, "bot-timeout": 600}).start()
    workers = [Worker(redis_url), Worker(redis_url)]
    try:
        made = server.create("kozel", [{"kind": "human", "name": "Ann"},
                                       {"kind": "bot", "level": "expert"},
                                       {"kind": "bot", "level": "hard"},
                                       {"kind": "bot", "level": "expert"}],
                             options={"target": None})
        table = made["table"]["id"]
        ann = server.socket(table, made["token"])
        killed: list[bytes] = []

        def assassin() -> None:
            """Three times, kill the worker holding a job, in the middle of it."""
            deadline = time.monotonic() + 120
            while len(killed) < 3 and time.monotonic() < deadline:
                for held in client.xpending_range(fleet.PEOPLE, fleet.GROUP, "-", "+", 10):
                    if held["message_id"] not in killed and held["times_delivered"] == 1:
                        os.kill(int(held["consumer"].decode().rsplit(":", 1)[1]),
                                signal.SIGKILL)
                        killed.append(held["message_id"])
                        break
                time.sleep(0.01)

        watcher = threading.Thread(target=assassin)
        watcher.start()
        play_out(ann, random.Random(5), timeout=240)
        watcher.join()
        # The server would wait ten minutes before working a job out itself: the match
        # ended because other workers took the killed ones' jobs.
        assert killed, "no job was seen in a worker's hands"
        assert Match.from_record(server.get(f"/api/games/{table}/record")).is_over
    finally:
        for worker in workers:
            worker.stop()
        server.stop()


def test_jobs_are_json_a_worker_answers(redis_url: str) -> None:
    """A job is the seat's view as JSON, read back by the worker: no pickle crosses."""
    client = redis.Redis.from_url(redis_url)
    fleet._groups(client)
    view = Round.deal(Rules.preset("block"), seed=4).view(0)
    job = {"id": "j1", "call": "choose", "level": "hard", "view": view.to_dict(),
           "reply": "bones:answers:test", "due": time.time() + 60}
    client.xadd(fleet.BOTS, {"job": json.dumps(job)})
    stop = threading.Event()
    worker = threading.Thread(target=fleet.work, args=(redis_url, stop))
    worker.start()
    try:
        got = client.blpop(["bones:answers:test"], timeout=60)
    finally:
        stop.set()
        worker.join()
    assert got is not None
    answer = json.loads(got[1])
    assert answer["id"] == "j1" and answer["answer"] in [str(m) for m in view.legal_moves]


def test_a_worker_outlives_redis_losing_the_queue(redis_url: str) -> None:
    """Redis restarted empty takes the queue's consumer group with it: a worker that
    keeps asking gets NOGROUP, makes the group again and answers the next job."""
    client = redis.Redis.from_url(redis_url)
    stop = threading.Event()
    worker = threading.Thread(target=fleet.work, args=(redis_url, stop))
    worker.start()
    try:
        time.sleep(1.5)  # it reads the queue
        client.flushdb()
        view = Round.deal(Rules.preset("draw"), seed=3).view(0)
        job = {"id": "j2", "call": "choose", "level": "easy", "view": view.to_dict(),
               "reply": "bones:answers:lost", "due": time.time() + 60}
        client.xadd(fleet.PEOPLE, {"job": json.dumps(job)})  # a stream without the group
        got = client.blpop(["bones:answers:lost"], timeout=60)
    finally:
        stop.set()
        worker.join()
    assert got is not None, "the worker died with the queue"
    assert json.loads(got[1])["id"] == "j2"


@pytest.mark.parametrize("broken", ["not json", json.dumps({"id": "x", "call": "rm -rf"})])
def test_a_bad_job_is_dropped_not_fatal(redis_url: str, broken: str) -> None:
    client = redis.Redis.from_url(redis_url)
    fleet._groups(client)
    client.xadd(fleet.PEOPLE, {"job": broken})
    taken = fleet._take(client, "test")
    assert len(taken) == 1
    fleet._answer(client, *taken[0])
    assert client.xlen(fleet.PEOPLE) == 0


def test_the_site_counts_its_bot_workers(site: list[Server]) -> None:
    """``bones_bot_workers``: every worker process of the site heard from in the last
    five seconds, as each app process counts them (the alert on "no worker" reads it)."""
    deadline = time.monotonic() + 30
    counted = 0.0
    while time.monotonic() < deadline and counted < 2:
        text = httpx.get(f"{site[0].url}/metrics").text
        counted = float(re.search(r"^bones_bot_workers (\S+)$", text, re.M)[1])  # type: ignore[index]
        time.sleep(0.5)
    assert counted >= 2  # the site's two `bones worker`s at least

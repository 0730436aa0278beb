"""The thinking bots think in worker processes: a worker killed in the middle of a
decision loses no move, and the match plays on to its end."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest

from bones import Match
from bones.server.people.players import Player
from bones.server.protocol import CreateTable
from bones.server.store.records import Store
from bones.server.tables.hub import Hub, Settings
from bones.server.thinking.brains import Brains
from bones.server.thinking.jobs import Analyses, Busy
from bones.server.thinking.workers import NICE, Pool, WorkerDied
from bones.view import PlayerView
from tests.server.fakes import Reader, in_a_thread, play_round
from tests.server.live import Server, my_turn, play_out, sqlite_url

T = TypeVar("T")


def _workers(parent: int) -> list[int]:
    """The bot workers among ``parent``'s children (not multiprocessing's tracker)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == parent and "spawn_main" in command:
            found.append(int(entry.name))
    return found


def test_a_killed_bot_worker_loses_no_move(tmp_path: Path) -> None:
    server = Server(sqlite_url(tmp_path / "brains.db")).start()
    try:
        assert server.process is not None
        made = server.create("kozel", [{"kind": "human", "name": "Ann"},
                                       {"kind": "bot", "level": "hard"},
                                       {"kind": "bot", "level": "expert"},
                                       {"kind": "bot", "level": "hard"}],
                             options={"target": None})
        table = made["table"]["id"]
        ann = server.socket(table, made["token"])
        rng = random.Random(3)
        killed = 0
        message = ann.until(lambda m: m["type"] == "state")
        while message["table"]["status"] == "playing":
            if my_turn(message):
                ann.send({"v": 1, "type": "move",
                          "move": rng.choice(message["view"]["legal_moves"])})
                for pid in _workers(server.process.pid):  # the bots think next: kill them
                    os.kill(pid, signal.SIGKILL)
                    killed += 1
            message = ann.until(lambda m: m["type"] == "state", timeout=120)
        assert killed >= 1
        record = server.get(f"/api/games/{table}/record")
        assert Match.from_record(record).is_over
    finally:
        server.stop()


def test_workers_give_way_and_end_with_a_killed_server(tmp_path: Path) -> None:
    """Each worker runs below the server's priority, so bots on every core leave the
    sockets served. A busy worker would not see the server go until its job is done:
    each watches its parent as well, so a SIGKILL leaves none behind."""
    server = Server(sqlite_url(tmp_path / "orphans.db")).start()
    assert server.process is not None
    deadline = time.monotonic() + 60
    while not (workers := _workers(server.process.pid)) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert workers
    served = os.getpriority(os.PRIO_PROCESS, server.process.pid)
    deadline = time.monotonic() + 30  # a worker lowers itself as it starts
    while (any(os.getpriority(os.PRIO_PROCESS, pid) != served + NICE for pid in workers)
           and time.monotonic() < deadline):
        time.sleep(0.2)
    assert [os.getpriority(os.PRIO_PROCESS, pid) for pid in workers] == \
        [served + NICE] * len(workers)
    server.kill()
    deadline = time.monotonic() + 20
    while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert [pid for pid in workers if _alive(pid)] == []


def _alive(pid: int) -> bool:
    try:
        return b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def test_the_server_reports_its_figures_and_health(server: Server) -> None:
    """/metrics in Prometheus' format: moves, store writes, the bots' thinking, tables
    and sockets; /healthz and /readyz for a proxy."""
    made = server.create("draw", [{"kind": "human", "name": "Ops"},
                                  {"kind": "bot", "level": "hard"}], options={"target": None})
    ann = server.socket(made["table"]["id"], made["token"])
    play_out(ann, random.Random(9))
    text = httpx.get(f"{server.url}/metrics").text
    figures = {line.split(" ")[0]: float(line.split(" ")[1]) for line in text.splitlines()
               if line and not line.startswith("#")}
    assert figures["bones_move_seconds_count"] >= 1
    assert figures["bones_store_write_seconds_count"] >= 1
    assert figures['bones_bot_think_seconds_count{level="hard"}'] >= 1
    assert figures["bones_sockets"] >= 1 and figures["bones_tables"] >= 1
    assert figures["bones_bot_jobs"] == 0
    assert httpx.get(f"{server.url}/healthz").status_code == 200
    assert httpx.get(f"{server.url}/readyz").json() == {"ok": True}


def test_decisions_at_tables_with_people_go_first() -> None:
    """With the one worker busy, a decision for a table where a person plays goes ahead
    of the decisions waiting for tables of bots alone (first come first served within
    each kind), so a dozen all-Expert tables cannot hold up a person's game."""
    kinds = [(False, "bots 1"), (False, "bots 2"), (False, "bots 3"), (True, "people 1"),
             (False, "bots 4"), (True, "people 2")]

    async def jobs() -> list[tuple[int, str]]:
        brains = Brains(workers=1)
        try:
            busy = asyncio.ensure_future(brains._run(True, time.sleep, 0.5))
            await asyncio.sleep(0.05)
            # each job answers the moment the worker began it (a clock all processes share)
            started = await asyncio.gather(*(brains._run(people, time.monotonic_ns)
                                             for people, _ in kinds))
            await busy
        finally:
            brains.close()
        return sorted(zip(started, (name for _, name in kinds), strict=True))

    order = [name for _, name in in_a_thread(jobs())]
    assert order == ["people 1", "people 2", "bots 1", "bots 2", "bots 3", "bots 4"]


def test_a_lone_legal_move_is_made_without_a_job() -> None:
    """A bot with one legal move makes it as any bot would (``Bot.choose``), without a
    worker's job: a third of Kozel's decisions. Every job sent has a choice in it, and
    the round still plays to its end."""
    async def play() -> tuple[list[int], dict[str, Any]]:
        hub = Hub(Store("sqlite://"), Settings(bot_workers=0, think_floor=0))
        await hub.load()
        choices: list[int] = []
        choose = hub.brains.choose

        async def counted(level: str, view: PlayerView, people: bool = True) -> str:
            choices.append(len(view.legal_moves))
            return await choose(level, view, people)

        hub.brains.choose = counted  # type: ignore[method-assign]
        spec = CreateTable.model_validate({
            "variant": "kozel", "options": {"target": None}, "bot_delay": 0,
            "seats": [{"kind": "human", "me": True}] + [{"kind": "bot", "level": "hard"}] * 3})
        table, _, token = await hub.create(spec, None, Player("Ann"))
        ann = Reader()
        serving = asyncio.create_task(hub.connect(ann, table.id, token, "203.0.113.1"))
        try:
            await asyncio.wait_for(play_round(ann, random.Random(5)), 120)
        finally:
            serving.cancel()
            await hub.close()
        kept = hub.store.game(table.id)
        assert kept is not None
        return choices, kept.record

    for _ in range(10):  # a round whose bots had a lone legal move at least once
        choices, record = in_a_thread(play())
        match = Match.from_record(record)
        assert match.is_over
        played = match.rounds[0]
        rnd, with_a_choice, bot_moves = played.rewound(0), 0, 0
        for move in played.moves:  # the bots' decisions, and which of them had a choice
            if rnd.turn != 0:
                bot_moves += 1
                with_a_choice += len(rnd.legal_moves()) >= 2
            rnd.push(move)
        if with_a_choice < bot_moves:
            break
    assert with_a_choice < bot_moves, "ten rounds without a bot's lone legal move"
    assert min(choices) >= 2  # no job for a lone move
    assert len(choices) >= with_a_choice  # a job for every choice (a called-off one again)


def test_a_job_called_off_while_it_waits_is_never_run(tmp_path: Path) -> None:
    marker = tmp_path / "ran"

    async def jobs(pool: Pool) -> int:
        busy = asyncio.ensure_future(pool.run(time.sleep, 0.3))
        await asyncio.sleep(0.05)
        off = asyncio.ensure_future(pool.run(os.mkdir, str(marker)))
        after = asyncio.ensure_future(pool.run(os.getpid))
        await asyncio.sleep(0.05)
        off.cancel()
        await busy
        return await after

    assert _with_pool(1, jobs) != os.getpid()
    assert not marker.exists()


def _with_pool(size: int, work: Callable[[Pool], Awaitable[T]]) -> T:
    """``work`` with a pool of ``size`` workers, closed after it."""
    async def run() -> T:
        pool = Pool(size)
        try:
            return await work(pool)
        finally:
            pool.close()

    return in_a_thread(run())


def _fail(message: str) -> None:
    raise ValueError(message)


def test_the_pool_answers_and_gives_back_a_job_s_error() -> None:
    async def work(pool: Pool) -> tuple[int, str]:
        pid = await pool.run(os.getpid)
        try:
            await pool.run(_fail, "no such move")
        except ValueError as error:
            return pid, str(error)
        return pid, "no error"

    pid, error = _with_pool(1, work)
    assert pid != os.getpid() and error == "no such move"


def test_a_worker_killed_mid_job_is_told_and_replaced() -> None:
    async def work(pool: Pool) -> tuple[int, int, bool]:
        first = await pool.run(os.getpid)
        job = asyncio.ensure_future(pool.run(time.sleep, 30))
        await asyncio.sleep(0.2)
        os.kill(first, signal.SIGKILL)
        try:
            await job
            died = False
        except WorkerDied:
            died = True
        return first, await pool.run(os.getpid), died

    first, second, died = _with_pool(1, work)
    assert died and second != first


def test_a_worker_killed_with_a_job_in_its_pipe_fails_both() -> None:
    """Both the job under way and the one waiting behind it are told, so both callers
    can send them again."""
    async def work(pool: Pool) -> tuple[int, list[bool], int]:
        first = await pool.run(os.getpid)
        held = [asyncio.ensure_future(pool.run(time.sleep, 30)),
                asyncio.ensure_future(pool.run(os.getpid))]
        await asyncio.sleep(0.2)
        os.kill(first, signal.SIGKILL)
        told = await asyncio.gather(*held, return_exceptions=True)
        return first, [isinstance(t, WorkerDied) for t in told], await pool.run(os.getpid)

    first, told, second = _with_pool(1, work)
    assert told == [True, True] and second != first


def test_a_busy_worker_begins_its_next_job_while_the_server_is_busy() -> None:
    """A job of a table with people waits in a busy worker's pipe, so the worker begins
    it as soon as it answers the one before, even while the server's loop is held up
    and cannot read that answer."""
    async def work(pool: Pool) -> tuple[float, float]:
        await pool.run(os.getpid)
        first = asyncio.ensure_future(pool.run(time.sleep, 0.2))
        second = asyncio.ensure_future(pool.run(time.monotonic))
        await asyncio.sleep(0)  # both handed over
        time.sleep(2.0)  # the server's loop, busy with something else
        freed = time.monotonic()
        await first
        return await second, freed

    began, freed = _with_pool(1, work)
    assert began < freed - 1.0


def test_a_job_given_up_keeps_its_worker_until_it_answers() -> None:
    """The caller stopped waiting (the table moved on), but the worker is still busy:
    the next job waits for it rather than start a process beyond the pool's size."""
    async def work(pool: Pool) -> tuple[int, int, float]:
        first = await pool.run(os.getpid)
        job = asyncio.ensure_future(pool.run(time.sleep, 0.5))
        await asyncio.sleep(0.05)
        began = time.monotonic()
        job.cancel()
        second = await pool.run(os.getpid)
        return first, second, time.monotonic() - began

    first, second, waited = _with_pool(1, work)
    assert second == first and waited >= 0.4


def test_a_closed_pool_leaves_no_worker() -> None:
    pids: list[int] = []

    async def work(pool: Pool) -> None:
        pids.extend(await asyncio.gather(pool.run(os.getpid), pool.run(os.getpid)))

    _with_pool(2, work)
    assert pids and not any(_alive(pid) for pid in pids)


def _dies_first(marker: str) -> str:
    """Ends its worker the first time it is called (as a kill or the out-of-memory
    killer would), and answers the next time."""
    if not os.path.exists(marker):
        Path(marker).touch()
        os._exit(1)
    return "answered"


def _dies(marker: str) -> str:
    os._exit(1)


async def _never_gone() -> bool:
    return False


def test_an_analysis_whose_worker_died_is_worked_out_by_another(tmp_path: Path) -> None:
    """A game's analysis runs in a worker of its own: one that dies under it is replaced
    and the round worked out again (it was a 500 for the page that asked); a worker that
    dies again is "busy, try again" (503), never an error."""
    jobs = Analyses(workers=1)
    try:
        assert asyncio.run(jobs._run(_never_gone, _dies_first, str(tmp_path / "d"))) == "answered"
        with pytest.raises(Busy):
            asyncio.run(jobs._run(_never_gone, _dies, str(tmp_path / "e")))
    finally:
        jobs.close()

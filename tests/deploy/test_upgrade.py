"""An upgrade no player sees: the guide's rolling restart of a two-process site behind
the shipped nginx, while a client loads pages, asks the API, takes a guest account and
opens sockets the whole time, counts every answer that is not a success: none. A
stopping process takes no new connection and closes its sockets with 1012 (the page
comes back through the other); one starting takes none until its tables are loaded; and
nginx passes over a process that refuses, request by request, never marking one failed
(so never "no live upstreams")."""

from __future__ import annotations

import threading
import time
from collections import Counter
from pathlib import Path

import httpx
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

from tests.deploy.proxy import first_message, proxied
from tests.server.live import Server


def _load(url: str, stop: threading.Event, answers: Counter[str]) -> None:
    """What a player's browser asks of the site, again and again until ``stop``."""
    with httpx.Client(base_url=url, verify=False, timeout=90) as client:
        answers[f"guest {client.post('/api/guest').status_code}"] += 1  # signed in
        while not stop.is_set():
            page = client.get("/")
            answers[f"page {page.status_code}"] += 1
            version = page.text.split("/static/", 1)[1].split("/", 1)[0]
            for path in (f"/static/{version}/app.js", "/api/variants", "/api/me"):
                got = client.get(path)
                answers[f"{path.split('/')[1]} {got.status_code}"] += 1
            answers[f"login {client.post('/api/guest').status_code}"] += 1  # still it
            try:  # a busy machine is slow, not wrong
                first_message(f"{url.replace('https://', 'wss://')}/ws/lobby", timeout=90)
                answers["socket 101"] += 1
            except InvalidStatus as refused:
                answers[f"socket {refused.response.status_code}"] += 1
            except ConnectionClosed as closed:  # 1012: its process stops; the page returns
                answers[f"socket {closed.rcvd.code if closed.rcvd else 'dropped'}"] += 1
            except (OSError, TimeoutError, InvalidHandshake) as error:  # no answer, or
                answers[f"socket {error!r}"] += 1  # not an HTTP one (the connection dropped)


def _loading(url: str, stop: threading.Event, answers: Counter[str]) -> None:
    try:
        _load(url, stop, answers)
    except Exception as error:  # counted: a loader that died would see no failure
        answers[f"died {error!r}"] += 1


def test_a_rolling_upgrade_answers_every_request(tmp_path: Path) -> None:
    with proxied(tmp_path, {}) as site:
        stop, answers = threading.Event(), Counter[str]()
        loader = threading.Thread(target=_loading, args=(site.url, stop, answers))
        loader.start()
        try:
            time.sleep(3)
            for n, app in enumerate(site.apps):  # one at a time, as the guide does
                app.stop()  # SIGTERM: it hands its tables over and closes its sockets
                site.apps[n] = Server(app.db, port=app.port, limits=app.limits,
                                      log=app.log).start()
                time.sleep(3)
        finally:
            stop.set()
            loader.join(timeout=180)  # its last round, before nginx stops under it
        finished = not loader.is_alive()
        errors = [line for line in (site.folder / "error.log").read_text().splitlines()
                  if "(111: Connection refused)" not in line]  # a process restarting
        said = (site.folder / "apps.log").read_text(errors="replace").splitlines()
    failed = {k: v for k, v in answers.items() if not k.endswith((" 200", " 101", " 1012"))}
    faults = [line for line in said if "Error" in line or "Traceback" in line][-20:]
    assert failed == {} and finished, (f"{answers}; finished: {finished}; nginx: "
                                       f"{errors[-20:]}; the apps: {faults}")
    assert answers["page 200"] > 10 and answers["socket 101"] > 10, answers

"""What an operator watches: the alert rules in deploy/prometheus pass `promtool check
rules` and their own unit tests (`promtool test rules`), and every metric a rule or a
panel of deploy/grafana's dashboard names is one a running server serves at /metrics."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from tests.server.conftest import ROOT, pg
from tests.server.live import Server, free_port, sqlite_url

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
SUFFIXES = {"histogram": ("_bucket", "_count", "_sum"), "counter": ("_total",),
            "summary": ("_count", "_sum")}
NAMED = re.compile(r"\b((?:bones|process)_[a-z_]+)\b")


def _promtool(*args: str) -> str:
    promtool = shutil.which("promtool")
    if promtool is None:
        pytest.fail("the rules' check needs promtool (scripts/test installs prometheus)")
    done = subprocess.run([promtool, *args], cwd=DEPLOY / "prometheus", capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_the_alert_rules_are_valid_and_fire_when_they_should() -> None:
    assert "SUCCESS: 11 rules found" in _promtool("check", "rules", "bones.rules.yml")
    assert "SUCCESS" in _promtool("test", "rules", "bones.rules.test.yml")


def test_the_one_machine_configuration_scrapes_the_app_as_the_rules_expect() -> None:
    """deploy/prometheus/prometheus.yml is one Prometheus takes, with the rules beside it
    and the app processes scraped as the job the rules name."""
    checked = _promtool("check", "config", "prometheus.yml")
    assert "SUCCESS: prometheus.yml is valid" in checked and "SUCCESS: 11 rules" in checked
    config = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    jobs = {job["job_name"]: job for job in config["scrape_configs"]}
    assert 'job="bones"' in (DEPLOY / "prometheus" / "bones.rules.yml").read_text()
    assert jobs["bones"]["static_configs"][0]["targets"] == ["127.0.0.1:8001", "127.0.0.1:8002"]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[set[str]]:
    """The names of every sample a fresh server's /metrics may serve."""
    server = Server(sqlite_url(tmp_path_factory.mktemp("metrics") / "m.db")).start()
    try:
        text = httpx.get(f"{server.url}/metrics").text
    finally:
        server.stop()
    names = set()
    for family in text_string_to_metric_families(text):
        names |= {family.name, *(family.name + s for s in SUFFIXES.get(family.type, ()))}
    yield names


def _exprs() -> list[str]:
    rules = yaml.safe_load((DEPLOY / "prometheus" / "bones.rules.yml").read_text())
    dashboard = json.loads((DEPLOY / "grafana" / "bones.json").read_text())
    return ([rule["expr"] for group in rules["groups"] for rule in group["rules"]]
            + [target["expr"] for panel in dashboard["panels"] for target in panel["targets"]])


def test_every_metric_watched_is_served(served: set[str]) -> None:
    named = {name for expr in _exprs() for name in NAMED.findall(expr)}
    assert len(named) >= 15
    assert named - served == set()


def test_the_alerts_fire_when_postgresql_and_redis_stop(postgres: tuple[str, Path],
                                                        tmp_path: Path) -> None:
    """deploy/prometheus's rules, in a Prometheus scraping a live process every second:
    PostgreSQL and Redis stopped under it, the store's and Redis's alerts fire (after
    their 30 s), though no move is written meanwhile. The process's log says so in a
    line now and then, never a traceback, however often players ask it meanwhile."""
    url, folder = postgres
    redis_dir = Path(tempfile.mkdtemp(prefix="bones-redis-"))
    redis_url = subprocess.run(["bash", str(ROOT / "scripts/redis-temp"), "start",
                                str(redis_dir)], check=True, capture_output=True,
                               text=True).stdout.strip()
    log = tmp_path / "app.log"
    server = Server(url, limits={"redis": redis_url, "bot-workers": 0}, log=log).start()
    watching = free_port()
    config = tmp_path / "prometheus.yml"
    config.write_text(yaml.safe_dump({
        "global": {"scrape_interval": "1s", "evaluation_interval": "1s"},
        "rule_files": [str(DEPLOY / "prometheus" / "bones.rules.yml")],
        "scrape_configs": [{"job_name": "bones", "static_configs": [
            {"targets": [f"127.0.0.1:{server.port}"]}]}]}))
    prometheus = subprocess.Popen(
        ["prometheus", f"--config.file={config}", f"--storage.tsdb.path={tmp_path / 'tsdb'}",
         f"--web.listen-address=127.0.0.1:{watching}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        outages = {"BonesStoreAway", "BonesRedisAway", "BonesProcessDown"}
        assert not _alerts(watching, lambda on: True, 60).keys() & outages  # all well
        time.sleep(3)  # a few looks and scrapes more
        assert not _alerts(watching, lambda on: True, 60).keys() & outages
        pg("stop", folder)
        subprocess.run(["bash", str(ROOT / "scripts/redis-temp"), "stop", str(redis_dir)],
                       check=True)
        before, began = len(log.read_bytes()), time.monotonic()
        asking = threading.Event()
        players = threading.Thread(target=_ask, args=(server.url, asking))
        players.start()
        try:
            fired = _alerts(watching, lambda on: {"BonesStoreAway", "BonesRedisAway"} <= {
                name for name, state in on.items() if state == "firing"}, 120)
        finally:
            asking.set()
            players.join(timeout=60)
        assert fired["BonesProcessDown"] in ("pending", "firing")  # bones_ready is 0 too
        _said_seldom(log.read_bytes()[before:].decode(errors="replace"),
                     time.monotonic() - began)
    finally:
        prometheus.terminate()
        prometheus.wait(timeout=30)
        server.stop()
        subprocess.run(["bash", str(ROOT / "scripts/redis-temp"), "stop", str(redis_dir)],
                       check=False)
        shutil.rmtree(redis_dir, ignore_errors=True)


def _ask(url: str, stop: threading.Event) -> None:
    """Players asking the site what needs the store, ten times a second, until ``stop``."""
    with httpx.Client(base_url=url, timeout=10) as client:
        while not stop.wait(0.1):
            for path in ("/api/leaderboard?variant=draw&players=2", "/api/games", "/readyz"):
                client.get(path)


def _said_seldom(said: str, seconds: float) -> None:
    """An outage's log: no traceback, and each thing said at most once every few seconds
    (the numbers in a line and its request's context aside: "and 12 more like it")."""
    assert "Traceback" not in said, said[:3000]
    lines = [re.sub(r"\d+", "N", re.sub(r"\[request=[^]]*\]", "", line.split(" ", 2)[-1]))
             for line in said.splitlines() if line.strip()]
    assert lines, "the outage was not logged"
    for line, count in Counter(lines).items():
        assert count <= seconds / 5 + 2, (count, line, seconds)


def _alerts(port: int, done: Callable[[dict[str, str]], bool], within: float
            ) -> dict[str, str]:
    """Prometheus's alerts (name: pending or firing) once ``done`` holds of them, having
    scraped the app at least once."""
    deadline = time.monotonic() + within
    while True:
        try:
            up = httpx.get(f"http://127.0.0.1:{port}/api/v1/query",
                           params={"query": 'up{job="bones"}'}, timeout=5).json()
            alerts = httpx.get(f"http://127.0.0.1:{port}/api/v1/alerts", timeout=5).json()
            on = {a["labels"]["alertname"]: a["state"] for a in alerts["data"]["alerts"]}
            if up["data"]["result"] and done(on):
                return on
        except (httpx.HTTPError, ValueError, KeyError):  # not up yet
            on = {}
        assert time.monotonic() < deadline, f"the alerts stood at {on}"
        time.sleep(1)

"""What an operator watches: the alert rules in deploy/prometheus pass `promtool check
rules` and their own unit tests (`promtool test rules`), and every metric a rule or a
panel of deploy/grafana's dashboard names is one a running server serves at /metrics."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from prometheus_client.parser import text_string_to_metric_families

from tests.server.live import Server, sqlite_url

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
    assert "SUCCESS: 6 rules found" in _promtool("check", "rules", "bones.rules.yml")
    assert "SUCCESS" in _promtool("test", "rules", "bones.rules.test.yml")


def test_the_one_machine_configuration_scrapes_the_app_as_the_rules_expect() -> None:
    """deploy/prometheus/prometheus.yml is one Prometheus takes, with the rules beside it
    and the app processes scraped as the job the rules name."""
    checked = _promtool("check", "config", "prometheus.yml")
    assert "SUCCESS: prometheus.yml is valid" in checked and "SUCCESS: 6 rules" in checked
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

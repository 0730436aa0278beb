"""Shared test setup: hypothesis profiles, where the worked examples live, a seeded rng."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile("dev", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", max_examples=5000, deadline=None, derandomize=True,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

ROOT = Path(__file__).resolve().parent.parent
SHARED_EXAMPLES = ROOT.parent / "shared" / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"


def load_examples(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    return [(p.name, json.loads(p.read_text())) for p in sorted(folder.glob("*.json"))]


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261130)

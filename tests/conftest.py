"""Shared test helpers: where the worked examples live, and how to play games out."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from bones import Round

ROOT = Path(__file__).resolve().parent.parent
SHARED_EXAMPLES = ROOT.parent / "shared" / "examples"
GOLDEN = Path(__file__).resolve().parent / "golden"


def load_examples(folder: Path) -> list[tuple[str, dict[str, Any]]]:
    return [(p.name, json.loads(p.read_text())) for p in sorted(folder.glob("*.json"))]


def play_out(rnd: Round, rng: random.Random) -> None:
    """Play a round to its end with uniformly random legal moves."""
    while not rnd.is_over:
        rnd.push(rng.choice(rnd.legal_moves()))


@pytest.fixture
def rng() -> random.Random:
    return random.Random(20261130)

"""The engine compiled with mypyc (``setup.py``, ``scripts/native``, what ``scripts/start``
serves) is the same engine: the rules' tests run again against the compiled copy."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RULES_TESTS = ["test_round_api.py", "test_rules_common.py", "test_rules_draw_block.py",
               "test_rules_kozel.py", "test_rules_allfives.py", "test_examples.py",
               "test_record.py", "test_presets.py", "test_rulebook.py"]


def test_the_compiled_engine_passes_the_rules_tests() -> None:
    built = subprocess.run(["bash", ROOT / "scripts" / "native"], capture_output=True,
                           text=True, check=False)
    assert built.returncode == 0, built.stderr[-3000:]
    env = {**os.environ, "PYTHONPATH": built.stdout.strip()}
    where = subprocess.run([sys.executable, "-c", "import bones.round as r; print(r.__file__)"],
                           capture_output=True, text=True, env=env, check=True).stdout
    assert where.strip().endswith(".so"), f"not compiled: {where}"
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                          *(str(ROOT / "tests" / name) for name in RULES_TESTS)],
                         capture_output=True, text=True, env=env, cwd=ROOT, check=False)
    assert run.returncode == 0, run.stdout[-5000:]

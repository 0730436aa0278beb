"""The systemd units in deploy/systemd are units systemd takes: `systemd-analyze verify`
reads each (an app process's template as an instance, the backup with its timer) with
its command pointed at this checkout's `bones`, and must find nothing to say."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

UNITS = Path(__file__).resolve().parents[2] / "deploy" / "systemd"
INSTALLED = "/opt/bones/current/.venv/bin/bones"


def test_the_units_are_valid_and_sandboxed(tmp_path: Path) -> None:
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.fail("the units' check needs systemd-analyze (scripts/test installs systemd)")
    bones = Path(sys.executable).parent / "bones"
    names = []
    for unit in sorted(UNITS.glob("*.*")):
        text = unit.read_text()
        if unit.suffix == ".service":
            assert INSTALLED in text and "ProtectSystem=strict" in text, unit.name
            assert "--db" not in text and "--redis" not in text, "secrets go in the environment"
        if unit.name in ("bones@.service", "bones-worker.service"):  # those that play: the
            # kernel compiles its code into a folder the sandbox lets them write, or stops
            assert "NUMBA_CACHE_DIR=/var/cache/bones" in text and "CacheDirectory=bones" in text
        name = unit.name.replace("@.", "@8001.")
        (tmp_path / name).write_text(text.replace(INSTALLED, str(bones)))
        names.append(name)
    assert names == ["bones-backup.service", "bones-backup.timer", "bones-worker.service",
                     "bones@8001.service"]
    checked = subprocess.run([analyze, "verify", *names], cwd=tmp_path, capture_output=True,
                             text=True, timeout=60)
    assert (checked.returncode, checked.stdout + checked.stderr) == (0, "")

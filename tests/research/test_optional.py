"""The research extra stays optional: the engine, the bots and the server import none
of it."""

from __future__ import annotations

import subprocess
import sys

RESEARCH = ("pyspiel", "open_spiel", "pettingzoo", "gymnasium", "ray")


def test_the_server_and_the_engine_import_no_research_library() -> None:
    code = ("import sys, bones, bones.bots, bones.arena, bones.cli, bones.server.edge.app; "
            f"print(sorted(m for m in {RESEARCH!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout
    assert out.strip() == "[]"

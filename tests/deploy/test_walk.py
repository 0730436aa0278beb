"""scripts/walk-operating types docs/operating.md's one-machine steps as written: every
shell block of the section but Let's Encrypt's (no name on the internet where it walks),
with this checkout as the source and the made certificate's `-k`, each one a script bash
reads. (The walk itself boots a Debian machine: run by hand, see its docstring.)"""

from __future__ import annotations

import subprocess
from importlib.machinery import SourceFileLoader
from importlib.util import module_from_spec, spec_from_loader
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_walk_types_every_step_of_the_page_as_written() -> None:
    loader = SourceFileLoader("walk", str(ROOT / "scripts" / "walk-operating"))
    spec = spec_from_loader("walk", loader)
    assert spec is not None
    walk = module_from_spec(spec)
    loader.exec_module(walk)
    typed, written = walk.steps(), walk.written()
    assert len(written) == (ROOT / "docs" / "operating.md").read_text().split(
        walk.SECTION, 1)[1].split("\n## ", 1)[0].count("```sh")  # every block of it
    assert len(typed) == len(written) - 1 and not any("certbot certonly" in b for b in typed)
    assert "SOURCE=/srv/bones" in typed[0]
    [through_nginx] = [line for b in typed for line in b.splitlines() if "https://$SITE" in line]
    assert " -k https://$SITE/readyz" in through_nginx
    for block in typed:
        checked = subprocess.run(["bash", "-n"], input=block, text=True, capture_output=True)
        assert checked.returncode == 0, (block, checked.stderr)
        assert not block.startswith(" "), block  # dedented as a person types it
    upgrade, back = walk.upgrading()  # --upgrade: the passage's upgrade and roll back
    assert 'sudo ln -sfn "$REL" /opt/bones/current' in upgrade
    assert 'sudo ln -sfn "$OLD" /opt/bones/current' in back
    for block in (upgrade, back):
        checked = subprocess.run(["bash", "-n"], input=block, text=True, capture_output=True)
        assert checked.returncode == 0, (block, checked.stderr)

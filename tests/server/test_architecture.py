"""The architecture page (docs/architecture.md) names the server's packages as the tree
has them, each with its one job, and the layers import-linter checks hold them all."""

from __future__ import annotations

import importlib
import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SERVER = ROOT / "src" / "bones" / "server"


def _on_the_page() -> list[str]:
    page = (ROOT / "docs" / "architecture.md").read_text()
    table = page.split("<!-- packages:", 1)[1].split("\n\n", 1)[0]
    return re.findall(r"^\| `(\w+)` \|", table, flags=re.M)


def _in_the_tree() -> list[str]:
    return sorted(p.name for p in SERVER.iterdir() if (p / "__init__.py").is_file())


def test_the_page_lists_the_packages_of_the_tree() -> None:
    listed = _on_the_page()
    assert listed, "no package table found on the page"
    assert sorted(listed) == _in_the_tree()
    assert "```mermaid" in (ROOT / "docs" / "architecture.md").read_text()


def test_each_package_says_its_one_job_and_has_its_layer() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    contracts = config["tool"]["importlinter"]["contracts"]
    layers = next(c["layers"] for c in contracts if c["type"] == "layers")
    layered = {name.strip().removeprefix("bones.server.")
               for layer in layers for name in layer.split("|")}
    for package in _in_the_tree():
        doc = importlib.import_module(f"bones.server.{package}").__doc__
        assert doc and doc.strip(), f"bones.server.{package} says nothing of its job"
        assert package in layered, f"bones.server.{package} is in no layer"

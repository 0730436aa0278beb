"""Every sentence of RULES.md is quoted, word for word, by a test that checks it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from .rulebook import RULES_MD, normalize, sentences

HERE = Path(__file__).resolve().parent


def quoted_docstrings() -> str:
    texts = []
    for path in sorted(HERE.glob("test_rules_*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                texts.append(normalize(ast.get_docstring(node) or ""))
    return "\n".join(texts)


@pytest.mark.skipif(not RULES_MD.exists(), reason="../shared/RULES.md is not beside this checkout")
def test_every_rule_is_quoted() -> None:
    rules = sentences(RULES_MD.read_text(encoding="utf-8"))
    assert len(rules) > 50
    quoted = quoted_docstrings()
    missing = [f"{section}: {sentence}" for section, sentence in rules if sentence not in quoted]
    assert not missing, "sentences of RULES.md no test quotes:\n" + "\n".join(missing)


def test_rulebook_present_in_ci() -> None:
    """CI has ../shared: the rule book must be checked there, not skipped."""
    import os

    if os.environ.get("CI"):
        assert RULES_MD.exists()

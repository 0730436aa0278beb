"""RULES.md as a list of sentences, each of which some rules test must quote.

The sentences of the "Computer opponents" section belong to the bots' tests.
"""

from __future__ import annotations

import re
from pathlib import Path

RULES_MD = Path(__file__).resolve().parents[2] / "shared" / "RULES.md"
BOT_SECTION = "## Computer opponents"


def normalize(text: str) -> str:
    """Whitespace folded, Markdown emphasis and code marks dropped, and bold labels
    ("**Must play.**") left out: they name a rule, the sentences after it say it."""
    text = re.sub(r"\*\*[^*]+\.\*\*", "", text)
    text = text.replace("**", "").replace("`", "")
    return re.sub(r"\s+", " ", text).strip()


def sentences(markdown: str, *, bots: bool = False) -> list[tuple[str, str]]:
    """``(section, sentence)`` for every rule sentence of the engine (or of the bots)."""
    out = []
    section = ""
    for block in re.split(r"\n(?=## |\s*- |\n)", markdown):
        block = block.strip()
        if block.startswith("## "):
            heading, _, block = block.partition("\n")
            section = heading
        if not block or block.startswith("#") or section.startswith(BOT_SECTION) != bots:
            continue
        if section == "" or block.startswith("This is the rule book"):
            continue
        text = normalize(block.removeprefix("- "))
        for sentence in re.split(r"(?<=[.!?)])\s+(?=[A-Z0-9*(])", text):
            if len(sentence) > 12 and not sentence.startswith("(seed"):
                out.append((section, sentence))
    return out

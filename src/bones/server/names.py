"""Names that cannot pass for another: every name a player can take (an account's) or
type (a seat's display name) is of one script, holds nothing that renders blank, and is
compared with the others by its *skeleton*, the form Unicode's confusables give it
(Unicode TS #39): "Ann", "АNN" (a Cyrillic A) and "Αnn" (a Greek one) share one, so the
second and third are refused once the first is taken, and nobody types their way into
looking like a guest ("Gueѕt123456" with a Cyrillic s).

The confusables come from a kept package (``confusable-homoglyphs``, Unicode's
confusables.txt): two characters it lists as confusable have one skeleton character,
the lowest of all those joined to them.

>>> skeleton("Ann") == skeleton("\u0410NN") == skeleton("\u0391nn")
True
>>> skeleton("Ann") == skeleton("Anne")
False
>>> check_display("Anna\u0301")
'Anná'
>>> check_display("An\u043dа")
Traceback (most recent call last):
...
ValueError: a name is written in one script: this one mixes LATIN and CYRILLIC
"""

from __future__ import annotations

import functools
import json
import unicodedata
from importlib import resources

from confusable_homoglyphs import categories, confusables

__all__ = ["BLANK", "check_display", "guest_like", "name_key", "skeleton"]

BLANK = frozenset(chr(c) for c in (0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x034F, 0x17B4,
                                   0x17B5, 0x180B, 0x180C, 0x180D, 0x180F,
                                   *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)))
"""Letters and marks that render as nothing (Hangul fillers, the blank Braille pattern,
the grapheme joiner, variation selectors): text is cleaned of them, names refuse them."""
SCRIPTLESS = ["COMMON", "INHERITED"]
"""What any script may hold: digits, ``_``, ``-``, combining marks."""


@functools.cache
def _classes() -> dict[str, str]:
    """Each confusable character's skeleton character (a union of every pair listed)."""
    listed = json.loads((resources.files("confusable_homoglyphs") / "confusables.json")
                        .read_text(encoding="utf-8"))
    parent: dict[str, str] = {}

    def root(c: str) -> str:
        while parent.get(c, c) != c:
            parent[c] = parent.get(parent[c], parent[c])
            c = parent[c]
        return c

    for char, homoglyphs in listed.items():
        for glyph in homoglyphs:
            other = glyph["c"]
            if len(char) == len(other) == 1:
                a, b = root(char), root(other)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    return {c: root(c) for c in parent}


def name_key(name: str) -> str:
    """The form names are looked up in: "Ann", "ANN" and "ann" are one player."""
    return unicodedata.normalize("NFC", name).casefold()


def skeleton(name: str) -> str:
    """The form names are told apart by: decomposed, each character as the lowest of
    those it may be taken for, then case folded and the same again (so a capital I,
    taken for an l, stays one, and "Ann" is "ann")."""
    classes = _classes()

    def mapped(text: str) -> str:
        return "".join(classes.get(c, c) for c in unicodedata.normalize("NFD", text))

    return mapped(mapped(unicodedata.normalize("NFKC", name)).casefold())


GUEST = skeleton("guest")
DELETED = skeleton("deleted")


def guest_like(name: str) -> bool:
    """Whether a name would pass for one the server gives: a guest's (``Guest`` and
    digits) or a closed account's (``deleted-`` and digits).

    >>> guest_like("gue\u0455t_1"), guest_like("Guesthouse"), guest_like("Augustine")
    (True, True, False)
    >>> guest_like("Deleted-7")
    True
    """
    return skeleton(name).startswith((GUEST, DELETED))


def check_display(name: str) -> str:
    """``name`` in NFC if it may be a name: nothing that renders blank, one script."""
    name = unicodedata.normalize("NFC", name)
    blank = next((c for c in name if c in BLANK), None)
    if blank is not None:
        raise ValueError(f"U+{ord(blank):04X} ({unicodedata.name(blank, 'a blank')}) renders "
                         "as nothing and is not allowed in a name")
    if confusables.is_mixed_script(name, allowed_aliases=SCRIPTLESS):
        scripts = dict.fromkeys(categories.alias(c) for c in name)
        mixed = " and ".join(s for s in scripts if s not in SCRIPTLESS)
        raise ValueError(f"a name is written in one script: this one mixes {mixed}")
    return name

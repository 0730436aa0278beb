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
import re
import unicodedata
from importlib import resources

from confusable_homoglyphs import categories, confusables

__all__ = ["BLANK", "address_key", "check_display", "folded", "kept", "letters", "name_key",
           "skeleton"]

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


def address_key(email: str) -> str:
    """The form mail addresses are kept and looked up in: trimmed, in lower case (a
    member who gave "Ann@Example.org" is found by "ann@example.org")."""
    return email.strip().lower()


def skeleton(name: str) -> str:
    """The form names are told apart by: decomposed, each character as the lowest of
    those it may be taken for, then case folded and the same again (so a capital I,
    taken for an l, stays one, and "Ann" is "ann")."""
    classes = _classes()

    def mapped(text: str) -> str:
        return "".join(classes.get(c, c) for c in unicodedata.normalize("NFD", text))

    return mapped(mapped(unicodedata.normalize("NFKC", name)).casefold())


LEET = {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "8": "b", "9": "g",
        "!": "i", "|": "i", "@": "a", "$": "s", "+": "t"}
"""Digits and signs read as the letters they stand for, once in skeleton form (where
``l``, ``I`` and ``1`` are one already); a sign only where a letter or digit follows it
(``gn@t``, not the ``!`` that ends a sentence)."""


def folded(text: str) -> str:
    """``text`` as the word list reads it: each character's skeleton, combining marks
    dropped, and digits and signs read as letters (leetspeak): ``GN4T``, ``Gnаt`` with a
    Cyrillic a and ``Gn\u0301at`` all read ``gnat``.

    >>> folded("GN4T") == folded("Gn\u0430t") == folded("Gn\u0301at") == folded("gnat")
    True
    >>> folded("gn@t!")
    'gnat!'
    """
    form = [c for c in skeleton(text) if not unicodedata.combining(c)]
    return "".join(LEET.get(c, c) if c.isdigit() or (
        n + 1 < len(form) and form[n + 1].isalnum()) else c for n, c in enumerate(form))


def letters(text: str) -> str:
    """Only the letters of ``text`` :func:`folded`: separators of any kind go, so
    ``G_n_a_t``, ``g-n-a-t`` and ``g n a t`` read as ``gnat``."""
    return "".join(c for c in folded(text) if c.isalpha())


GUEST, DELETED = folded("guest"), folded("deleted")
SERVERS = frozenset(letters(word) for word in ("operator", "moderator", "admin", "bones",
                                                "system"))
"""Names of the site itself, which nobody may take."""
BOTS = frozenset(letters(f"bot{level}")
                 for level in ("", "easy", "medium", "hard", "expert", "master"))
"""How the site names its bots (``bot:hard``), which no person may pass for."""
RENAMED = re.compile(re.escape(skeleton("Player")) + r"[\W_]*\d[\d\W_]*")
"""The names a moderator's rename gives (``Player`` and digits), as skeletons."""


def kept(name: str) -> str | None:
    """Why ``name`` is kept for what the server gives, if it is: a guest's (``Guest``
    and digits), a closed account's (``deleted-`` and digits), a bot's (``bot:hard``),
    a renamed player's (``Player`` and digits) or the site's own (``operator``).

    >>> kept("gue\u0455t_1"), kept("Guesthouse") is not None, kept("Augustine")
    ('names starting with "guest" or "deleted" are kept', True, None)
    >>> kept("Bot:Expert"), kept("Bottle")
    ("bots' names are kept", None)
    >>> kept("Player_123456") is not None, kept("Player One"), kept("0perator") is not None
    (True, None, True)
    """
    form = letters(name)
    if form.startswith((GUEST, DELETED)):
        return 'names starting with "guest" or "deleted" are kept'
    if form in BOTS:
        return "bots' names are kept"
    if RENAMED.fullmatch(skeleton(name)):
        return 'names of "Player" and digits are kept for renamed players'
    if form in SERVERS:
        return "that name is the site's own"
    return None


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

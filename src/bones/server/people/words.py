"""The operator's list of words refused in names and chat (``--words FILE``): a TOML file
of lists by language, read again whenever it changes, so an operator edits it while the
site runs. Every language's words count everywhere (a chat line says nothing of its
language). Text is read folded (``names.folded``): look-alike letters of any script as
one, combining marks dropped, digits and signs read as the letters they stand for, so
``B4DW0RD``, a Cyrillic look-alike and ``bádword`` all count. A name is refused if it
holds a word anywhere, whatever separates its letters (``G_n_a_t``); any other text (a
chat line, a tournament's name, a token's label, a report's note), if it holds one as a
word, separators inside a word dropped and letters spelled out one by one joined
(``g-n-a-t``, ``g n a t``).

    # /etc/bones/words.toml
    en = ["badword", "worse word"]
    de = ["schimpfwort"]

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "words.toml"
>>> _ = path.write_text('en = ["gnat"]')
>>> words = Words(str(path))
>>> words.in_chat("what a Gnat!"), words.in_chat("gnatcatcher"), words.in_name("xGNATx")
(True, False, True)
>>> [words.in_chat(line) for line in ("g-n-a-t", "g n  a t", "GN4T", "Gn\u0430t", "a G_n_at")]
[True, True, True, True, True]
>>> words.in_name("G_n_4-t"), words.in_name("Ignatius")
(True, True)
"""

from __future__ import annotations

import logging
import os
import re
import threading
import tomllib

from bones.server.names import folded, letters

__all__ = ["Words"]

log = logging.getLogger("bones.server")
SEPARATOR = re.compile(r"[\W_]+")


def _parts(text: str) -> list[str]:
    """The words of ``text`` folded, split at any separator."""
    return [part for part in SEPARATOR.split(folded(text)) if part]


def _views(text: str) -> tuple[str, str, list[str]]:
    """Readings of ``text`` to look for refused words in: its words split at every
    separator, one space apart; each whitespace word with its separators dropped; and
    the runs of single letters in a row, each joined (``a g n a t`` holds ``gnat``)."""
    spelled = [w for w in ("".join(SEPARATOR.split(raw)) for raw in folded(text).split()) if w]
    runs: list[str] = []
    run = ""
    for word in [*spelled, ""]:
        if len(word) == 1:
            run += word
            continue
        if len(run) > 1:
            runs.append(run)
        run = ""
    return " ".join(_parts(text)), " ".join(spelled), runs


class Words:
    """The refused words of the file at ``path`` (none without one)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._seen: tuple[float, int] | None = None
        self._words: list[str] = []
        self._pattern: re.Pattern[str] | None = None
        self._lock = threading.Lock()

    def in_chat(self, text: str) -> bool:
        """Whether a text holds a refused word (as a word of its own), read folded: its
        words split at any separator, or each whitespace word with its separators
        dropped; or anywhere in a run of single letters."""
        self._fresh()
        if self._pattern is None:
            return False
        split, spelled, runs = _views(text)
        return (self._pattern.search(split) is not None
                or self._pattern.search(spelled) is not None
                or any(letters(word) in run for word in self._words for run in runs))

    def in_name(self, name: str) -> bool:
        """Whether a name holds a refused word anywhere, whatever separates its letters."""
        self._fresh()
        form = letters(name)
        return any(letters(word) in form for word in self._words)

    def _fresh(self) -> None:
        """Read the file again if it changed since it was last read (a stat a call)."""
        if self.path is None:
            return
        try:
            stat = os.stat(self.path)
        except OSError as error:
            if self._seen is not None:
                log.warning("the word list %s cannot be read: %s", self.path, error)
            return
        seen = (stat.st_mtime, stat.st_size)
        if seen == self._seen:
            return
        with self._lock:
            try:
                with open(self.path, "rb") as file:
                    lists = tomllib.load(file)
                words = sorted({w.casefold().strip() for ws in lists.values() for w in ws
                                if isinstance(w, str) and w.strip()})
            except (OSError, tomllib.TOMLDecodeError, AttributeError, TypeError) as error:
                log.warning("the word list %s is kept as it was: %s", self.path, error)
                self._seen = seen
                return
            self._words = words
            said = sorted({" ".join(_parts(word)) for word in words} - {""})
            self._pattern = (re.compile(r"\b(?:" + "|".join(map(re.escape, said)) + r")\b")
                             if said else None)
            self._seen = seen
            log.info("the word list %s has %d words", self.path, len(words))

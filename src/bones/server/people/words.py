"""The operator's list of words refused in names and chat (``--words FILE``): a TOML file
of lists by language, read again whenever it changes, so an operator edits it while the
site runs. Every language's words count everywhere (a chat line says nothing of its
language). A name is refused if it holds a word anywhere (looked at as its skeleton, so
``B4DW0RD`` with look-alike letters counts); a chat line, if it holds one as a word.

    # /etc/bones/words.toml
    en = ["badword", "worse word"]
    de = ["schimpfwort"]

>>> import pathlib, tempfile
>>> path = pathlib.Path(tempfile.mkdtemp()) / "words.toml"
>>> _ = path.write_text('en = ["gnat"]')
>>> words = Words(str(path))
>>> words.in_chat("what a Gnat!"), words.in_chat("gnatcatcher"), words.in_name("xGNATx")
(True, False, True)
"""

from __future__ import annotations

import logging
import os
import re
import threading
import tomllib

from bones.server.names import skeleton

__all__ = ["Words"]

log = logging.getLogger("bones.server")


class Words:
    """The refused words of the file at ``path`` (none without one)."""

    def __init__(self, path: str | None) -> None:
        self.path = path
        self._seen: tuple[float, int] | None = None
        self._words: list[str] = []
        self._pattern: re.Pattern[str] | None = None
        self._lock = threading.Lock()

    def in_chat(self, text: str) -> bool:
        """Whether a chat line holds a refused word (as a word of its own)."""
        self._fresh()
        return self._pattern is not None and self._pattern.search(text.casefold()) is not None

    def in_name(self, name: str) -> bool:
        """Whether a name holds a refused word anywhere, look-alike letters as theirs."""
        self._fresh()
        form = skeleton(name)
        return any(skeleton(word.replace(" ", "")) in form for word in self._words)

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
            self._pattern = (re.compile(r"\b(?:" + "|".join(map(re.escape, words)) + r")\b")
                             if words else None)
            self._seen = seen
            log.info("the word list %s has %d words", self.path, len(words))

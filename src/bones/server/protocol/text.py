"""What every message is made of: the protocol's version, the checks a name or a line of
text passes, the base of every WebSocket message.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    BeforeValidator,
    ConfigDict,
    Field,
)

from bones.server.names import BLANK

__all__ = [
    "INVISIBLE",
    "MARKS",
    "SEEN",
    "VERSION",
    "Level",
    "Message",
    "Name",
    "ProtocolError",
    "SeatNumber",
    "clean_text",
    "stripped",
]

VERSION: Literal[1] = 1
"""The protocol version every message carries in ``v``."""

Level = Literal["easy", "medium", "hard", "expert"]
SeatNumber = Annotated[
    int, Field(ge=0, le=3),
    BeforeValidator(lambda v: int(v) if isinstance(v, float) and v.is_integer() else v)]
"""A seat, 0 to 3 (JSON's 2.0 is the integer 2, as JSON Schema has it)."""
INVISIBLE = (
    (0x0000, 0x001F), (0x007F, 0x00A0), (0x00AD, 0x00AD), (0x0600, 0x0605), (0x061C, 0x061C),
    (0x06DD, 0x06DD), (0x070F, 0x070F), (0x0890, 0x0891), (0x08E2, 0x08E2), (0x1680, 0x1680),
    (0x180E, 0x180E), (0x2000, 0x200F), (0x2028, 0x202F), (0x205F, 0x2064), (0x2066, 0x206F),
    (0x3000, 0x3000), (0xE000, 0xF8FF), (0xFEFF, 0xFEFF), (0xFFF9, 0xFFFB), (0x110BD, 0x110BD),
    (0x110CD, 0x110CD), (0x13430, 0x13438), (0x1BCA0, 0x1BCA3), (0x1D173, 0x1D17A),
    (0xE0001, 0xE0001), (0xE0020, 0xE007F), (0xF0000, 0xFFFFD), (0x100000, 0x10FFFD))
"""Characters not seen as themselves, which no name or chat line may hold: Unicode's
controls, format characters (bidi overrides, zero-width joiners), private use, line and
paragraph separators and every space but the plain one (categories Cc, Cf, Co, Zl, Zp,
Zs; lone surrogates are refused apart)."""
_HIDDEN = "".join(chr(a) if a == b else f"{chr(a)}-{chr(b)}" for a, b in INVISIBLE)
SEEN = "[^<>" + _HIDDEN + "]"
_SEEN, _SAID = re.compile(f"{SEEN}*"), re.compile(f"[^{_HIDDEN}]*")


def clean_text(text: str, *, angles: bool = False) -> str:
    """``text`` in NFC, if it holds only characters seen as themselves (and, unless
    ``angles``, no ``<`` or ``>``): the same check the schema's pattern makes. What
    renders as nothing (:data:`~bones.server.names.BLANK`) is dropped, and a letter keeps
    at most :data:`MARKS` combining marks (no stacks running over the lines around).

    >>> clean_text("Zo\u0065\u0308")
    'Zoë'
    >>> clean_text("Ann\u202eevil")
    Traceback (most recent call last):
    ...
    ValueError: U+202E (RIGHT-TO-LEFT OVERRIDE) is not allowed here
    >>> len(clean_text("hi\u3164" + "a" + "\u0301" * 30))
    5
    """
    text = unicodedata.normalize("NFC", text)
    seen = _SAID if angles else _SEEN
    if seen.fullmatch(text) is None or any(0xD800 <= ord(c) <= 0xDFFF for c in text):
        bad = next(c for c in text if not seen.fullmatch(c) or 0xD800 <= ord(c) <= 0xDFFF)
        name = unicodedata.name(bad, "an invisible character")
        raise ValueError(f"U+{ord(bad):04X} ({name}) is not allowed here")
    kept, marks = [], 0
    for c in text:
        if c in BLANK:
            continue
        marks = marks + 1 if unicodedata.category(c).startswith("M") else 0
        if marks <= MARKS:
            kept.append(c)
    return "".join(kept)


MARKS = 2
"""Combining marks one letter keeps at most (Vietnamese needs two)."""


def stripped(empty: str, *, angles: bool = False) -> Callable[[str], str]:
    """A check that cleans a text (:func:`clean_text`) and refuses it blank."""
    def clean(text: str) -> str:
        text = clean_text(text, angles=angles).strip()
        if not text:
            raise ValueError(empty)
        return text

    return clean


Name = Annotated[str, Field(min_length=1, max_length=24,
                            json_schema_extra={"pattern": f"^{SEEN}*[^ {SEEN[2:]}{SEEN}*$"}),
                 AfterValidator(stripped("a name needs more than spaces"))]
"""A display name: NFC, 1-24 characters, not only spaces, nothing invisible (what renders
blank is dropped), no ``<`` or ``>``; spaces at either end are dropped. Whether it may
be had (one script, not passing for another's) is the seat's to say (409)."""


class ProtocolError(ValueError):
    """A message the server cannot take; the text says what is wrong with it."""


class Message(BaseModel):
    """What every WebSocket message has: the protocol version ``v`` and its ``type``."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)
    v: Literal[1] = VERSION

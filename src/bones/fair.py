"""Provably fair deals: the server commits to every deal of a game before its first move
and shows the commitment; after the game it reveals what it committed to, and anyone
can check that the deals played are the ones promised.

A game's deals come from a secret 32-byte seed. Deal ``n`` (counting void Kozel deals)
orders the 28 tiles by a Fisher-Yates shuffle whose random numbers are 32-bit words of
SHA-256(seed || n || block), both numbers 4 bytes big-endian, drawn below a bound by
rejection; the ordered tiles are dealt as ``bones.round.split`` deals them. The
commitment is SHA-256("bones-fair-v1\\n" || salt || seed), in hex. Tiles are numbered
0-0, 1-0, 1-1, 2-0, ... 6-6.

A player who takes back a draw (undo, in a game against bots) would otherwise know the
draws to come. So the ``k``-th assist of a game, when it is an undo, puts the tiles left
to draw in the order of SHA-256(seed || "undo" || k || tile), ``k`` 4 bytes big-endian
and the tile's number 1 byte: secret until the end, checkable after. Such a game's
record lists each deal's boneyard in the order its tiles were drawn; :func:`verify`
replays the undos on the committed deals to check it.

>>> deck = FairDeck(bytes(32), bytes(16))
>>> deck.commitment[:16]
'1ae3680f6a0d93f4'
>>> from bones import Rules
>>> first = next(deck.deals(Rules.preset("draw")))
>>> [str(t) for t in first.hands[0]]
['6-5', '6-4', '6-1', '5-3', '4-4', '2-0', '1-1']
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Iterator
from functools import cached_property
from itertools import count, islice
from typing import Any

from bones.round import Deal, split
from bones.rules import Rules
from bones.tiles import BY_INDEX, Tile, tiles_of

__all__ = ["ALGORITHM", "FairDeck", "FairnessError", "verify", "verify_tournament"]

ALGORITHM = "bones-fair-v1"


class FairnessError(ValueError):
    """A record whose deals do not match its commitment, or that cannot be checked."""


class FairDeck:
    """The secret behind a game's deals, and the commitment that binds the server to it."""

    def __init__(self, seed: bytes, salt: bytes) -> None:
        if len(seed) != 32 or len(salt) != 16:
            raise ValueError("a fair deck has a 32-byte seed and a 16-byte salt")
        self.seed, self.salt = seed, salt

    @classmethod
    def new(cls) -> FairDeck:
        """A deck from the system's secure random source."""
        return cls(secrets.token_bytes(32), secrets.token_bytes(16))

    @cached_property
    def commitment(self) -> str:
        """Worked out once: every message about the table carries it."""
        return hashlib.sha256(ALGORITHM.encode() + b"\n" + self.salt + self.seed).hexdigest()

    def order(self, number: int) -> list[int]:
        """The 28 tile indices in the order of deal ``number``."""
        words = self._words(number)
        order = list(range(28))
        for i in range(27, 0, -1):
            j = _below(words, i + 1)
            order[i], order[j] = order[j], order[i]
        return order

    def _words(self, number: int) -> Iterator[int]:
        for block in count():
            digest = hashlib.sha256(
                self.seed + number.to_bytes(4, "big") + block.to_bytes(4, "big")).digest()
            for at in range(0, 32, 4):
                yield int.from_bytes(digest[at:at + 4], "big")

    def deals(self, rules: Rules) -> Iterator[Deal]:
        """Every deal of a game under these rules, in order, without end."""
        for number in count():
            hands, rest = split(rules, self.order(number))
            yield Deal(tuple(tiles_of(h) for h in hands), tuple(BY_INDEX[i] for i in rest))

    def undo_order(self, k: int, tiles: Iterable[Tile]) -> list[Tile]:
        """``tiles`` (the tiles left to draw) in the order the ``k``-th assist, an undo,
        gives them: it depends on which tiles are left, not on their order before."""
        def key(tile: Tile) -> bytes:
            return hashlib.sha256(self.seed + b"undo" + k.to_bytes(4, "big")
                                  + bytes([tile.index])).digest()
        return sorted(tiles, key=key)

    def board(self, round_: int, board: int) -> FairDeck:
        """The deck of a duplicate tournament's ``board`` in round ``round_`` (both from
        1), derived from the tournament's: seed SHA-256(seed || "board" || round ||
        board), salt the first 16 bytes of SHA-256(salt || "board" || round || board),
        the numbers 4 bytes big-endian. Every table of the board is dealt from it, so
        all hold the same hands and draw the same boneyard; revealing the tournament's
        seed and salt at its end lets anyone derive every board's.

        >>> tournament = FairDeck(bytes(32), bytes(16))
        >>> tournament.board(1, 2).commitment == tournament.board(1, 2).commitment
        True
        >>> tournament.board(1, 2).commitment == tournament.board(2, 1).commitment
        False
        """
        tail = b"board" + round_.to_bytes(4, "big") + board.to_bytes(4, "big")
        return FairDeck(hashlib.sha256(self.seed + tail).digest(),
                        hashlib.sha256(self.salt + tail).digest()[:16])

    def reveal(self) -> dict[str, str]:
        """What the record holds once the game is over."""
        return {"algorithm": ALGORITHM, "commitment": self.commitment,
                "salt": self.salt.hex(), "seed": self.seed.hex()}

    def to_dict(self) -> dict[str, str]:
        """The secret, for the server's own store."""
        return {"seed": self.seed.hex(), "salt": self.salt.hex()}

    @classmethod
    def from_dict(cls, data: dict[str, str]) -> FairDeck:
        return cls(bytes.fromhex(data["seed"]), bytes.fromhex(data["salt"]))


def _as_played(deck: FairDeck, rules: Rules, record: dict[str, Any],
               deals: list[Any]) -> list[dict[str, Any]]:
    """The committed deals as the record should list them: each boneyard in the order
    its tiles were drawn, once the game's undos have reordered it (module docstring)."""
    promised = [d.to_dict() for d in islice(deck.deals(rules), len(deals))]
    undos = [(k, a) for k, a in enumerate(record.get("assists") or []) if a["kind"] == "undo"]
    if not undos:
        return promised
    moves: list[str] = record["moves"]
    counts = [r["move_count"] for r in record["results"]]
    starts = [sum(counts[:r]) for r in range(len(counts) + 1)]
    rounds = [n for n, d in enumerate(deals) if isinstance(d, dict) and "void" not in d]
    for number, deal in enumerate(rounds):
        mine = [(k, a["at"]) for k, a in undos if a["round"] == number]
        if not mine:
            continue
        end = starts[number + 1] if number < len(counts) else len(moves)
        left = [Tile.parse(t) for t in promised[deal]["boneyard"]]
        drawn: list[Tile] = []
        for at, move in enumerate([*moves[starts[number]:end], None]):
            latest = [k for k, where in mine if where <= at]
            if latest:
                left = deck.undo_order(latest[-1], left)
            if move == "draw":
                drawn.append(left.pop(0))
        promised[deal]["boneyard"] = [str(t) for t in drawn + left]
    return promised


def _below(words: Iterator[int], bound: int) -> int:
    """A uniform number below ``bound``: 32-bit words past the last whole multiple of
    ``bound`` are skipped."""
    limit = (1 << 32) - (1 << 32) % bound
    for word in words:
        if word < limit:
            return word % bound
    raise AssertionError("the word stream has no end")


def verify(record: Any, committed: str | None = None) -> str:
    """Check that a record's deals are those its commitment promised; a line saying so,
    or ``FairnessError`` naming the first thing wrong. ``committed``: the commitment
    shown before the game, where the checker kept it."""
    fair = record.get("fair") if isinstance(record, dict) else None
    if not isinstance(fair, dict):
        raise FairnessError("the record has no fair-deal commitment to check")
    if fair.get("algorithm") != ALGORITHM:
        raise FairnessError(f"unknown fair-deal algorithm {fair.get('algorithm')!r}")
    try:
        deck = FairDeck(bytes.fromhex(fair["seed"]), bytes.fromhex(fair["salt"]))
        rules = Rules.from_dict(record["rules"])
    except (KeyError, TypeError, ValueError) as error:
        raise FairnessError(f"the revealed seed, salt or rules cannot be read ({error})") from None
    if not hmac.compare_digest(deck.commitment, str(fair.get("commitment"))):
        raise FairnessError("the revealed seed and salt do not give the record's commitment")
    if committed is not None and not hmac.compare_digest(deck.commitment, committed):
        raise FairnessError("the record's commitment is not the one shown before the game")
    deals = record.get("deals")
    if not isinstance(deals, list) or not deals:
        raise FairnessError("the record lists no deals")
    try:
        played = _as_played(deck, rules, record, deals)
    except (KeyError, TypeError, ValueError, IndexError) as error:
        raise FairnessError(f"the record's moves or undos cannot be read ({error})") from None
    for number, (stated, expected) in enumerate(zip(deals, played, strict=False), 1):
        if not isinstance(stated, dict) or {k: stated.get(k) for k in expected} != expected:
            raise FairnessError(f"deal {number} is not the deal that was committed to")
    return (f"the {len(deals)} deals are the ones committed to before the game "
            f"(commitment {deck.commitment[:16]}…)")


def verify_tournament(document: Any, committed: str | None = None) -> str:
    """Check a duplicate tournament's document (``GET /api/tournaments/{id}/record`` once
    it is over): its revealed seed and salt give the commitment shown before it began,
    each board's deck derives from them (:meth:`FairDeck.board`), and every game's record
    was dealt from its board's deck (:func:`verify`). A line saying so, or
    ``FairnessError`` naming the first thing wrong. ``committed``: the tournament's
    commitment shown before it began, where the checker kept it."""
    fair = document.get("fair") if isinstance(document, dict) else None
    games = document.get("games") if isinstance(document, dict) else None
    if not isinstance(fair, dict) or not isinstance(games, list):
        raise FairnessError("the document has no tournament commitment and games to check")
    try:
        deck = FairDeck(bytes.fromhex(fair["seed"]), bytes.fromhex(fair["salt"]))
    except (KeyError, TypeError, ValueError) as error:
        raise FairnessError(f"the revealed seed or salt cannot be read ({error})") from None
    if not hmac.compare_digest(deck.commitment, str(fair.get("commitment"))):
        raise FairnessError("the revealed seed and salt do not give the tournament's "
                            "commitment")
    if committed is not None and not hmac.compare_digest(deck.commitment, committed):
        raise FairnessError("the tournament's commitment is not the one shown before it "
                            "began")
    for game in games:
        try:
            where = f"round {int(game['round'])} board {int(game['board'])}"
            board = deck.board(int(game["round"]), int(game["board"]))
            record = game["record"]
        except (KeyError, TypeError, ValueError) as error:
            raise FairnessError(f"a game's round, board or record cannot be read "
                                f"({error})") from None
        try:
            verify(record, board.commitment)
        except FairnessError as error:
            raise FairnessError(f"{where}, table {game.get('table')}: {error}") from None
    return (f"the {len(games)} games were dealt from the boards committed to before the "
            f"tournament (commitment {deck.commitment[:16]}…)")

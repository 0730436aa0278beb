"""The rule set of a game: which variant, how many players, and the named options.

>>> Rules.preset("block", players=3, target=50)   # doctest: +NORMALIZE_WHITESPACE
Rules(variant='block', players=3, hand_size=6, target=50,
      blocked_scoring='others_minus_own', opening_every_round=False)
>>> Rules.preset("kozel").side_of(2)
0
>>> Rules.preset("kozel", players=3)
Traceback (most recent call last):
...
ValueError: kozel is played by exactly 4 players (2 pairs), not 3
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, Literal

__all__ = ["BLOCKED_SCORINGS", "PLAYERS", "TARGETS", "VARIANTS", "Rules"]

Variant = Literal["draw", "block", "kozel", "allfives"]
VARIANTS: tuple[str, ...] = ("draw", "block", "kozel", "allfives")
TARGETS: tuple[int | None, ...] = (50, 100, 150, None)
BLOCKED_SCORINGS: tuple[str, ...] = ("others_minus_own", "others")

PLAYERS = {"draw": (2, 3, 4), "block": (2, 3, 4), "kozel": (4,), "allfives": (2,)}


def _default_hand(variant: str, players: int) -> int:
    if variant == "draw":
        return 7 if players == 2 else 5
    if variant == "block":
        return 6 if players == 3 else 7
    return 7


@dataclass(frozen=True, slots=True)
class Rules:
    """A complete, validated rule set. Build it with :meth:`preset`.

    ``target`` is the match target (``None``: a single round). ``blocked_scoring`` and
    ``opening_every_round`` are the draw and block games' options.
    """

    variant: str
    players: int
    hand_size: int
    target: int | None = 100
    blocked_scoring: str = "others_minus_own"
    opening_every_round: bool = False

    @classmethod
    def preset(cls, variant: str, **options: Any) -> Rules:
        """The rule set of a variant, with options changed by keyword.

        >>> Rules.preset("draw", players=4).hand_size
        5
        >>> Rules.preset("draw", target=75)
        Traceback (most recent call last):
        ...
        ValueError: target must be one of 50, 100, 150 or None (a single round), not 75
        """
        if variant not in VARIANTS:
            raise ValueError(f"unknown variant {variant!r}; choose one of {', '.join(VARIANTS)}")
        known = {f.name for f in fields(cls)} - {"variant"}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(
                f"unknown option {', '.join(unknown)}; options are {', '.join(sorted(known))}"
            )
        players = options.setdefault("players", PLAYERS[variant][0])
        options.setdefault("hand_size", _default_hand(variant, players) if type(players) is int
                           else 0)  # the players are refused first
        return cls(variant=variant, **options)

    def __post_init__(self) -> None:
        if self.variant not in VARIANTS:
            raise ValueError(
                f"unknown variant {self.variant!r}; choose one of {', '.join(VARIANTS)}")
        allowed = PLAYERS[self.variant]
        if type(self.players) is not int or self.players not in allowed:
            if self.variant == "kozel":
                raise ValueError(
                    f"kozel is played by exactly 4 players (2 pairs), not {self.players}")
            if self.variant == "allfives":
                raise ValueError(f"allfives is played by exactly 2 players, not {self.players}")
            raise ValueError(f"{self.variant} is played by 2 to 4 players, not {self.players!r}")
        self._check_hand_size()
        if self.target not in TARGETS or isinstance(self.target, bool):
            raise ValueError(
                f"target must be one of 50, 100, 150 or None (a single round), not {self.target!r}"
            )
        if self.blocked_scoring not in BLOCKED_SCORINGS:
            raise ValueError("blocked_scoring must be 'others_minus_own' or 'others', "
                             f"not {self.blocked_scoring!r}")
        if not isinstance(self.opening_every_round, bool):
            raise ValueError("opening_every_round must be True or False")
        if self.variant in ("kozel", "allfives"):
            if self.blocked_scoring != "others_minus_own":
                raise ValueError(f"{self.variant} has its own blocked scoring; blocked_scoring "
                                 "is an option of the draw and block games")
            if self.opening_every_round:
                raise ValueError(f"{self.variant} has its own leads; opening_every_round "
                                 "is an option of the draw and block games")

    def _check_hand_size(self) -> None:
        size = self.hand_size
        if type(size) is not int or size < 1:
            raise ValueError(f"hand_size must be a whole number of tiles, not {size!r}")
        if self.variant == "kozel" and size != 7:
            raise ValueError(f"kozel deals all 28 tiles, 7 to each player, not {size}")
        most = 28 // self.players
        if size > most:
            raise ValueError(
                f"{size} tiles each for {self.players} players do not fit the 28-tile set; "
                f"{self.variant} allows at most {most}"
            )

    @property
    def draws(self) -> bool:
        """True where a player who cannot play draws from the boneyard."""
        return self.variant in ("draw", "allfives")

    @property
    def spinner(self) -> bool:
        """True where the first double takes tiles on four sides (All Fives)."""
        return self.variant == "allfives"

    @property
    def sides(self) -> int:
        """The number of scoring sides: the players, or 2 pairs in Kozel."""
        return 2 if self.variant == "kozel" else self.players

    def side_of(self, seat: int) -> int:
        """The side a seat scores for; in Kozel seats 0+2 are side 0, 1+3 side 1."""
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat} at a table of {self.players}")
        return seat % 2 if self.variant == "kozel" else seat

    def seats_of(self, side: int) -> tuple[int, ...]:
        """The seats that score for a side."""
        return tuple(s for s in range(self.players) if self.side_of(s) == side)

    def to_dict(self) -> dict[str, Any]:
        """The rule set as JSON-ready data; ``Rules.from_dict`` reads it back."""
        return {name: getattr(self, name) for name in _NAMES}

    @classmethod
    def from_dict(cls, data: Any) -> Rules:
        """Rules from ``to_dict`` data, validated like :meth:`preset`."""
        if not isinstance(data, dict) or "variant" not in data:
            raise ValueError("rules must be an object with a variant")
        options = dict(data)
        return cls.preset(options.pop("variant"), **options)


_NAMES = tuple(f.name for f in fields(Rules))
"""The rule set's fields, read once: every message a server sends carries the rules, and
``dataclasses.fields`` builds its answer afresh at each call (1.1 µs against 0.46)."""

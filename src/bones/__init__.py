"""bones: dominoes with exact rules — the draw game, the block game, Kozel and All Fives.

>>> from bones import Rules, Round
>>> rnd = Round.deal(Rules.preset("allfives"), seed=1)
>>> while not rnd.is_over:
...     rnd.push(rnd.legal_moves()[0])
>>> rnd.result.reason in ("domino", "blocked", "target")
True
"""

from bones.match import Forfeit, Match
from bones.moves import Draw, IllegalMove, Move, Pass, Play, parse_move
from bones.record import RecordError
from bones.round import Deal, Round
from bones.rules import Rules
from bones.scoring import RoundResult
from bones.tiles import DOUBLE_SIX, Tile
from bones.view import Lead, PlayerView

__all__ = [
    "DOUBLE_SIX",
    "Deal",
    "Draw",
    "Forfeit",
    "IllegalMove",
    "Lead",
    "Match",
    "Move",
    "Pass",
    "Play",
    "PlayerView",
    "RecordError",
    "Round",
    "RoundResult",
    "Rules",
    "Tile",
    "parse_move",
]
__version__ = "0.1.0"

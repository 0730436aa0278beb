"""Moves as whole numbers and a seat's view as a fixed-size vector, for learning code.

The OpenSpiel bridge (``bones.openspiel``) and the PettingZoo and Gymnasium environments
(``bones.env``) speak through these, so an agent trained on one reads the other.

**Actions.** ``ACTIONS`` = 142 numbers name every move of every variant: a play is
``5 * tile.index + slot``, slot 0 for a lead and 1-4 for the ends ``left``, ``right``,
``up``, ``down``; ``DRAW_ACTION`` = 140 and ``PASS_ACTION`` = 141.

>>> from bones import Play, Tile
>>> action_of(Play(Tile(6, 6), "left")), str(move_of(action_of(Play(Tile(6, 6), "left"))))
(136, '6-6 left')

**Observations.** ``observe(view)`` is a ``float32`` vector of ``observation_size(rules)``
numbers, everything seen from the seat's own chair (seat numbers are relative: 0 is the
seat itself, 1 the next to play after it, and so on; sides likewise, its own first):

======================  ==========  ====================================================
part                    numbers     meaning
======================  ==========  ====================================================
``hand``                28          1 for each tile in the hand (by ``Tile.index``)
``placed``              28          1 for each tile on the table
``placed_by``           28 x P      who placed each tile (the automatic lead included)
``ends``                4 x 7       the number open at left, right, up, down (one-hot)
``spinner``             28          All Fives' spinner tile, once placed
``hand_counts``         P           tiles in each hand
``boneyard``            1           tiles left to draw
``lacks``               P x 7       the numbers each seat has shown it does not hold
``turn``                P           whose turn it is (all 0 once the round is over)
``scores``              S           the match score per side (All Fives: count included)
``count_points``        P           All Fives points scored in this deal per seat
``count``               1           All Fives' count of the open ends
``over``                1           1 once the round is over
======================  ==========  ====================================================

P is the number of players and S of sides (2 in Kozel). A view holds nothing else a
player could use but the order of the moves, which ``history`` adds for an
information-state vector.

>>> from bones import Round, Rules
>>> rnd = Round.deal(Rules.preset("draw"), seed=1)
>>> vector = observe(rnd.view(0))
>>> vector.shape == (observation_size(rnd.rules),), int(vector[:28].sum())
(True, 7)
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from bones.match import Match
from bones.moves import DRAW, ENDS, PASS, PLAYS, Move, Play, parse_move
from bones.rules import Rules
from bones.tiles import Tile
from bones.view import PlayerView

__all__ = [
    "ACTIONS",
    "DRAW_ACTION",
    "PASS_ACTION",
    "action_of",
    "history",
    "history_size",
    "legal_mask",
    "max_moves",
    "move_of",
    "observation_size",
    "observe",
    "returns",
]

SLOTS = 1 + len(ENDS)
DRAW_ACTION = 28 * SLOTS
PASS_ACTION = DRAW_ACTION + 1
ACTIONS = PASS_ACTION + 1
_MOVES: tuple[Move, ...] = (
    *(PLAYS[t][end] for t in range(28) for end in (None, *ENDS)), DRAW, PASS)

Vector = npt.NDArray[np.float32]


def action_of(move: Move) -> int:
    """The number of a move."""
    if isinstance(move, Play):
        return move.tile.index * SLOTS + move.place + 1
    return DRAW_ACTION if move is DRAW else PASS_ACTION


def move_of(action: int) -> Move:
    """The move a number names; ``ValueError`` for a number that names none."""
    if type(action) is not int and not isinstance(action, np.integer):
        raise ValueError(f"an action is a whole number, not {action!r}")
    if not 0 <= action < ACTIONS:
        raise ValueError(f"an action is a number from 0 to {ACTIONS - 1}, not {action}")
    return _MOVES[action]


def legal_mask(view: PlayerView) -> npt.NDArray[np.int8]:
    """1 for each legal move of the seat (all 0 when it is not the seat's turn)."""
    mask = np.zeros(ACTIONS, np.int8)
    for move in view.legal_moves:
        mask[action_of(move)] = 1
    return mask


def observation_size(rules: Rules) -> int:
    """How many numbers ``observe`` gives for these rules."""
    players = rules.players
    return 28 * 3 + 28 * players + 4 * 7 + 1 + players * 10 + rules.sides + 2


def observe(view: PlayerView) -> Vector:
    """The view as a vector laid out as the module's table says."""
    rules = view.rules
    players = rules.players
    out = np.zeros(observation_size(rules), np.float32)
    me = view.seat
    for tile in view.hand:
        out[tile.index] = 1
    placed_by = _placers(view)
    at = 28
    for tile, seat in placed_by.items():
        out[at + tile.index] = 1
        out[at + 28 + 28 * ((seat - me) % players) + tile.index] = 1
    at += 28 + 28 * players
    for end, number in view.places.items():
        out[at + 7 * ENDS.index(end) + number] = 1
    at += 28
    if view.spinner is not None:
        out[at + view.spinner.index] = 1
    at += 28
    for seat in range(players):
        rel = (seat - me) % players
        out[at + rel] = view.hand_counts[seat]
        for number in view.lacks[seat]:
            out[at + players + 1 + 7 * rel + number] = 1
        if view.turn == seat:
            out[at + 8 * players + 1 + rel] = 1
        out[at + 9 * players + 1 + rules.sides + rel] = view.count_points[seat]
    out[at + players] = view.boneyard_count
    mine = rules.side_of(me)
    for side, score in enumerate(view.scores):
        out[at + 9 * players + 1 + (side - mine) % rules.sides] = score
    out[-2] = view.count or 0
    out[-1] = view.is_over
    return out


def _placers(view: PlayerView) -> dict[Tile, int]:
    """Who placed each tile on the table, read from the lead and the history."""
    placers: dict[Tile, int] = {}
    if view.lead is not None:
        placers[view.lead.tile] = view.lead.seat
    for seat, text in view.history:
        move = parse_move(text)
        if isinstance(move, Play):
            placers[move.tile] = seat
    return placers


def max_moves(rules: Rules) -> int:
    """More moves than any round of these rules can hold: every tile placed and drawn,
    and between two plays fewer passes than players (all passing blocks the round)."""
    players = rules.players
    drawable = 28 - players * rules.hand_size if rules.draws else 0
    return 28 + drawable + (players - 1) * 29


def history_size(rules: Rules) -> int:
    """How many numbers ``history`` gives for these rules."""
    return max_moves(rules) * (rules.players + ACTIONS)


def history(view: PlayerView) -> Vector:
    """The round's moves in order, one row each: the mover (relative seat, one-hot) and
    the move (one-hot over ``ACTIONS``); rows after the last move are 0."""
    rules = view.rules
    players = rules.players
    width = players + ACTIONS
    out = np.zeros(history_size(rules), np.float32)
    for row, (seat, text) in enumerate(view.history):
        out[row * width + (seat - view.seat) % players] = 1
        out[row * width + players + action_of(parse_move(text))] = 1
    return out


def returns(match: Match) -> list[float]:
    """Each seat's return once the match is over: its side's points minus the mean of the
    other sides' points, so that the returns add up to 0. Kozel's points are penalties
    and count against. A match of a single round (``target=None``) counts the round's
    points as the round scored them, before Kozel's 13 rule. Two players: the winner's
    points, plus and minus.

    >>> from bones import Match, Rules
    >>> match = Match(Rules.preset("block", target=None), seed=4)
    >>> while not match.is_over:
    ...     match.push(match.round.legal_moves()[0])
    >>> match.results[0].points, returns(match)
    ((0, 2), [-2.0, 2.0])
    """
    rules = match.rules
    points = list(match.scores)
    if rules.variant == "kozel":
        last = match.round.result
        if rules.target is None and last is not None:
            points = list(last.points)  # the round's own penalty, before the 13 rule
        points = [-p for p in points]
    total = sum(points)
    others = max(rules.sides - 1, 1)
    by_side = [p - (total - p) / others for p in points]
    return [float(by_side[rules.side_of(seat)]) for seat in range(rules.players)]

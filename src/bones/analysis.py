"""Looking back at a finished game: every position with every hand shown, and every
choice graded by a strong bot from the chooser's own view.

A move's grade is the expected points of its round (the side's margin, a round won
counting extra) of the move played and of the best move, both as the grading bot sees
them from the player's view at that moment; the difference is what the move cost, in
points a player can weigh against the game's target. The grader leaves out the bonus it
plays for when a round ends the match (Expert's ``MATCH_BONUS``, as much as a whole
match): inside a cost it read as "cost 124.3" in a game to 50.

>>> from bones import Match, Rules
>>> match = Match(Rules.preset("block", target=None), seed=2)
>>> while not match.is_over:
...     match.push(match.round.legal_moves()[-1])
>>> report = analyze(match, seed=1)
>>> all(g.loss >= 0 for g in report.grades), len(report.frames) > len(report.grades)
(True, True)
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from bones import bots
from bones.match import Match
from bones.round import Round

__all__ = ["GRADER", "Analysis", "Grade", "analyze", "frames", "grade_round"]

GRADER = "expert" if "expert" in bots.LEVELS else "hard"
"""The strongest level there is: it grades the moves."""


@dataclass(frozen=True)
class Grade:
    """One choice: where it was, what was played and what was best, in expected points."""

    round: int
    index: int
    """The move's place in its round (0 = the first move after the deal)."""
    seat: int
    move: str
    value: float
    best: str
    best_value: float

    @property
    def loss(self) -> float:
        return round(self.best_value - self.value, 2)

    def to_dict(self) -> dict[str, Any]:
        return {**asdict(self), "loss": self.loss}


@dataclass(frozen=True)
class Analysis:
    grader: str
    frames: list[dict[str, Any]]
    grades: list[Grade]

    def mistakes(self, top: int = 5, least: float = 0.5) -> list[Grade]:
        """The costliest moves of the game, worst first."""
        costly = [g for g in self.grades if g.loss >= least]
        return sorted(costly, key=lambda g: -g.loss)[:top]

    def to_dict(self) -> dict[str, Any]:
        return {"grader": self.grader, "frames": self.frames,
                "grades": [g.to_dict() for g in self.grades],
                "mistakes": [g.to_dict() for g in self.mistakes()]}


def _frame(rnd: Round, number: int, scores: tuple[int, ...]) -> dict[str, Any]:
    view = rnd.view(0).to_dict()
    keep = ("line", "arms", "spinner", "ends", "places", "count", "boneyard_count", "turn",
            "lead", "count_points", "is_over", "result", "hand_counts")
    history = rnd.history
    return {"round": number, "index": len(history),
            "last": list(history[-1]) if history else None,
            "hands": [[str(t) for t in hand] for hand in rnd.hands],
            "scores": list(scores), **{k: view[k] for k in keep}}


def frames(match: Match) -> list[dict[str, Any]]:
    """Every position of every round, from the deal to the end, with every hand."""
    out = []
    for number, played in enumerate(match.rounds):
        before = match.scores_after[number - 1] if number else (0,) * match.rules.sides
        rnd = played.rewound(0)
        out.append(_frame(rnd, number, before))
        for move in played.moves:
            rnd.push(move)
            out.append(_frame(rnd, number, before))
    return out


def analyze(match: Match, level: str = GRADER, seed: int = 0) -> Analysis:
    """Grade every choice of the game (a lone legal move is no choice)."""
    grades = [g for number in range(len(match.rounds))
              for g in grade_round(match, number, level, seed)]
    return Analysis(level, frames(match), grades)


def grade_round(match: Match, number: int, level: str = GRADER, seed: int = 0) -> list[Grade]:
    """Grade the choices of one round: a game is graded a round at a time, so that work
    on it can stop between rounds (each round's grader has a seed of its own)."""
    try:  # only the searching levels (with evaluate) play for the match
        grader = bots.get(level, seed=seed + number, match_bonus=0.0)
    except TypeError:
        grader = None
    evaluate = getattr(grader, "evaluate", None)
    if evaluate is None:
        raise ValueError(f"{level} cannot grade moves: it has no evaluate()")
    played = match.rounds[number]
    rnd = played.rewound(0)
    grades = []
    for index, move in enumerate(played.moves):
        seat = rnd.turn
        assert seat is not None
        view = rnd.view(seat)
        if len(view.legal_moves) > 1:
            values = [float(v) for v in evaluate(view)]
            best = max(range(len(values)), key=values.__getitem__)
            played_at = [str(m) for m in view.legal_moves].index(str(move))
            grades.append(Grade(number, index, seat, str(move), round(values[played_at], 2),
                                str(view.legal_moves[best]), round(values[best], 2)))
        rnd.push(move)
    return grades

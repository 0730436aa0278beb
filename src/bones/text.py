"""How games read as plain text: sides, results, the table, a whole replay.

>>> from bones import Rules
>>> side_name(Rules.preset("kozel"), 1), side_name(Rules.preset("draw"), 1)
('pair 1+3', 'seat 1')
"""

from __future__ import annotations

from collections.abc import Iterator

from bones.match import Forfeit, Match
from bones.round import Round
from bones.rules import Rules
from bones.scoring import RoundResult

__all__ = ["describe_rules", "forfeit_line", "replay_lines", "result_line", "side_name",
           "table_line"]


def side_name(rules: Rules, side: int) -> str:
    if rules.variant == "kozel":
        return "pair " + "+".join(str(s) for s in rules.seats_of(side))
    return f"seat {side}"


def describe_rules(rules: Rules) -> str:
    target = "a single round" if rules.target is None else f"target {rules.target}"
    text = f"{rules.variant}, {rules.players} players, {rules.hand_size} tiles each, {target}"
    if rules.variant in ("draw", "block"):
        text += f", blocked scoring {rules.blocked_scoring}"
        if rules.opening_every_round:
            text += ", opening rule every round"
    return text


def score_text(scores: tuple[int, ...] | list[int]) -> str:
    return " : ".join(str(s) for s in scores)


def result_line(rules: Rules, result: RoundResult) -> str:
    """One line on how a round ended and what it awards."""
    if result.reason == "target":
        return f"{side_name(rules, result.winner or 0)} reaches the target mid-deal"
    how = "domino" if result.reason == "domino" else (
        "fish" if rules.variant == "kozel" else "blocked")
    by = f" by seat {result.ended_by}" if result.reason == "domino" else ""
    if result.winner is None:
        eggs = f", {result.eggs} eggs carried" if result.eggs else ""
        return f"{how}{by}: nobody wins{eggs}"
    kind = "penalties" if rules.variant == "kozel" else "points"
    return (f"{how}{by}: {side_name(rules, result.winner)} wins the round; "
            f"{kind} {list(result.points)}")


def table_line(rnd: Round) -> str:
    """The ends (and All Fives' count) as they stand."""
    ends = " ".join(f"{place} {n}" for place, n in rnd.places.items())
    if rnd.rules.variant == "allfives":
        return f"{ends}; count {rnd.count}"
    return ends


def replay_lines(match: Match) -> Iterator[str]:
    """The whole match move by move, every hand shown, then the final score."""
    rules = match.rules
    yield f"bones record: {describe_rules(rules)}"
    for number, played in enumerate(match.rounds, 1):
        rnd = played.copy()
        moves = rnd.moves
        for _ in moves:
            rnd.pop()
        yield ""
        lead = rnd.lead
        opening = f"seat {lead.seat} leads {lead.tile} (forced)" if lead else (
            f"seat {rnd.turn} leads a tile of its choice")
        yield f"Round {number}: {opening}"
        for seat, hand in enumerate(rnd.hands):
            yield f"  seat {seat} holds {' '.join(str(t) for t in hand)}"
        if rnd.boneyard:
            yield f"  boneyard (top first): {' '.join(str(t) for t in rnd.boneyard)}"
        for index, move in enumerate(moves, 1):
            mover = rnd.turn
            before = rnd.count_points
            rnd.push(move)
            scored = [a - b for a, b in zip(rnd.count_points, before, strict=True)]
            bonus = f"; scores {max(scored)}" if any(scored) else ""
            yield f"  {index:3}. seat {mover}  {move!s:12} {table_line(rnd)}{bonus}"
        if rnd.result is not None:
            yield f"  {result_line(rules, rnd.result)}"
            yield f"  score {score_text(match.scores_after[number - 1])}"
    if match.forfeit is not None:
        yield f"  {forfeit_line(match.forfeit)}"
    yield ""
    yield final_line(match)


_FORFEIT_WORDS = {"resigned": "resigns", "time": "loses on time",
                 "absent": "left: the others claimed the match"}


def forfeit_line(forfeit: Forfeit) -> str:
    """How a player gave the match up.

    >>> forfeit_line(Forfeit(2, "time"))
    'seat 2 loses on time'
    """
    return f"seat {forfeit.seat} {_FORFEIT_WORDS[forfeit.how]}"


def final_line(match: Match) -> str:
    rules = match.rules
    text = f"Final score {score_text(match.scores)}"
    if not match.is_over:
        return text + " (the match goes on)"
    if match.winner is None:
        return text + ": nobody wins"
    text += f": {side_name(rules, match.winner)} wins"
    if match.loser is not None:
        text += f", {side_name(rules, match.loser)} is the goat"
    if match.shutout:
        text += " (a dry win)"
    return text

"""The game record: a match as JSON (rules, every deal, every move, every result), and
its replay, which checks every move and every result against the engine.

>>> from bones import Match, Rules
>>> match = Match(Rules.preset("block", target=None), seed=5)
>>> while not match.is_over:
...     match.push(match.round.legal_moves()[-1])
>>> replayed = Match.from_record(json.loads(json.dumps(match.record())))
>>> replayed.scores == match.scores and replayed.results == match.results
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bones.moves import IllegalMove
from bones.rules import Rules

if TYPE_CHECKING:
    from bones.match import Match

__all__ = ["FORMAT", "VERSION", "RecordError", "from_record", "load", "to_record"]

FORMAT = "bones-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message names the problem."""


def to_record(match: Match) -> dict[str, Any]:
    """``match.record()``: the match as JSON-ready data."""
    rounds = []
    for number, rnd in enumerate(match.rounds):
        lead = rnd.lead
        finished = number < len(match.results)
        rounds.append({
            "lead": None if lead is None else {
                "seat": lead.seat, "tile": str(lead.tile), "automatic": lead.automatic},
            "moves": [str(m) for m in rnd.moves],
            "count_points": list(rnd.count_points),
            "result": match.results[number].to_dict() if finished else None,
            "scores_after": list(match.scores_after[number]) if finished else None,
        })
    deals = []
    for deal, void in match.deals:
        data = deal.to_dict()
        if void is not None:
            data["void"] = void
        deals.append(data)
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": match.rules.to_dict(),
        "deals": deals,
        "rounds": rounds,
        "scores": list(match.scores),
        "eggs": match.eggs,
        "is_over": match.is_over,
        "winner": match.winner,
        "loser": match.loser,
        "shutout": match.shutout,
    }


def load(path: str | Path) -> Match:
    """Read a record file and replay it."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"cannot read {path}: {error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"not JSON: {error.msg} at line {error.lineno}") from None
    return from_record(data)


def _require(condition: bool, problem: str) -> None:
    if not condition:
        raise RecordError(problem)


def from_record(data: Any) -> Match:
    """``Match.from_record``: replay a record, checking each move and result."""
    from bones.match import Match

    _require(isinstance(data, dict) and data.get("format") == FORMAT,
             f"not a bones record (it has no \"format\": \"{FORMAT}\")")
    _require(data.get("version") == VERSION,
             f"record version {data.get('version')!r} is not supported (this is version {VERSION})")
    try:
        rules = Rules.from_dict(data.get("rules"))
    except ValueError as error:
        raise RecordError(f"rules: {error}") from None
    deals, rounds = data.get("deals"), data.get("rounds")
    _require(isinstance(deals, list) and all(isinstance(d, dict) for d in deals),
             "deals must be a list of objects")
    _require(isinstance(rounds, list) and all(isinstance(r, dict) for r in rounds),
             "rounds must be a list of objects")
    try:
        match = Match.from_deals(rules, deals)
    except ValueError as error:
        raise RecordError(f"deal {_failing_deal(rules, deals)}: {error}") from None
    for number, round_data in enumerate(rounds, 1):
        _replay_round(match, number, round_data)
    _require(len(match.deals) == len(deals),
             f"deal {len(match.deals) + 1} was never played" if len(match.deals) < len(deals)
             else "the record ends without the deal of the next round")
    for i, (recorded, (_, void)) in enumerate(zip(deals, match.deals, strict=True), 1):
        _require((recorded.get("void") is not None) == (void is not None),
                 f"deal {i}: the record says {'void' if recorded.get('void') else 'played'}, "
                 f"but it is {'void (' + void + ')' if void else 'a valid deal'}")
    _require(len(rounds) == len(match.rounds),
             f"the record lists {len(rounds)} rounds, but the deals make {len(match.rounds)}")
    for key in ("scores", "is_over", "winner", "loser", "shutout", "eggs"):
        value = getattr(match, key)
        value = list(value) if isinstance(value, tuple) else value
        _require(data.get(key) == value,
                 f"{key}: the record says {data.get(key)!r}, the moves give {value!r}")
    return match


def _failing_deal(rules: Rules, deals: list[dict[str, Any]]) -> int:
    """The number of the first deal the engine refuses, for the error message."""
    from bones.round import Deal

    for number, deal in enumerate(deals, 1):
        try:
            Deal.check(rules, deal["hands"], deal.get("boneyard", ()))
        except (ValueError, KeyError, TypeError):
            return number
    return len(deals)


def _replay_round(match: Match, number: int, data: dict[str, Any]) -> None:
    _require(len(match.rounds) >= number, f"round {number}: the match was already over")
    rnd = match.rounds[number - 1]
    moves = data.get("moves")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError(f"round {number}: moves must be a list of strings")
    for index, text in enumerate(moves, 1):
        _require(not rnd.is_over,
                 f"round {number}: the round ended after move {index - 1}, "
                 f"but the record lists {len(moves)} moves")
        try:
            match.push(text)
        except IllegalMove as error:
            raise RecordError(f"round {number}, move {index} ({text!r}): {error}") from None
    lead = rnd.lead
    expected_lead = None if lead is None else {
        "seat": lead.seat, "tile": str(lead.tile), "automatic": lead.automatic}
    _require(data.get("lead") == expected_lead,
             f"round {number}: the record says the lead was {data.get('lead')}, "
             f"the deal gives {expected_lead}")
    result = rnd.result.to_dict() if rnd.result is not None else None
    _require(data.get("result") == result,
             f"round {number}: the record says the result was {data.get('result')}, "
             f"the moves give {result}")
    _require(data.get("count_points", list(rnd.count_points)) == list(rnd.count_points),
             f"round {number}: count points {data.get('count_points')} do not match the moves "
             f"({list(rnd.count_points)})")
    if rnd.is_over:
        after = list(match.scores_after[number - 1])
        _require(data.get("scores_after") == after,
                 f"round {number}: the record says the scores were {data.get('scores_after')} "
                 f"after it, the rules give {after}")


def save(match: Match, path: str | Path) -> None:
    """Write ``match.record()`` to a file."""
    Path(path).write_text(json.dumps(match.record(), indent=1) + "\n", encoding="utf-8")

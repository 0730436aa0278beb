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
    from bones.round import Round

__all__ = ["FORMAT", "VERSION", "RecordError", "from_record", "load", "to_record"]

FORMAT = "bones-record"
VERSION = 1


class RecordError(ValueError):
    """A record that cannot be read or does not replay; the message names the problem."""


def to_record(match: Match) -> dict[str, Any]:
    """``match.record()``: the match as JSON-ready data.

    Laid out like the worked examples of a match: ``rules``, ``deals`` (a void Kozel deal
    says why), ``moves`` (every move of every round, in order) and ``results`` (per
    finished round: its lead, move count, result and the scores after it); a match a
    player gave up says who and how under ``forfeit``, after the moves that were made.
    """
    results = []
    for rnd, result, after in zip(match.rounds, match.results, match.scores_after, strict=False):
        results.append({"lead": _lead(rnd), "move_count": len(rnd.moves), **result.to_dict(),
                        "count_points": list(rnd.count_points), "scores_after": list(after)})
    deals = []
    for deal, void in match.deals:
        data = deal.to_dict()
        if void is not None:
            data["void"] = void
        deals.append(data)
    record = {
        "format": FORMAT,
        "version": VERSION,
        "rules": match.rules.to_dict(),
        "deals": deals,
        "moves": [str(m) for rnd in match.rounds for m in rnd.moves],
        "results": results,
        "scores": list(match.scores),
        "eggs": match.eggs,
        "is_over": match.is_over,
        "winner": match.winner,
        "loser": match.loser,
        "shutout": match.shutout,
    }
    if match.forfeit is not None:
        record["forfeit"] = match.forfeit.to_dict()
    return record


def _lead(rnd: Round) -> dict[str, Any] | None:
    lead = rnd.lead
    if lead is None:
        return None
    return {"seat": lead.seat, "tile": str(lead.tile), "automatic": lead.automatic}


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
    """``Match.from_record``: replay a record, checking each move and result.

    Every fact the record states is checked against the replay. The worked examples of
    a match replay too: they state no format, and their facts stand under ``expect``.
    """
    from bones.match import Match

    _require(isinstance(data, dict) and data.get("format", FORMAT) == FORMAT
             and "rules" in data, f"not a bones record (it has no \"format\": \"{FORMAT}\")")
    _require(data.get("version", VERSION) == VERSION,
             f"record version {data.get('version')!r} is not supported (this is version {VERSION})")
    try:
        rules = Rules.from_dict(data.get("rules"))
    except ValueError as error:
        raise RecordError(f"rules: {error}") from None
    _require(data.get("kind", "match") == "match", "a worked example of a round, not a match")
    facts = data["expect"] if isinstance(data.get("expect"), dict) else data
    deals, moves, results = data.get("deals"), data.get("moves"), facts.get("results", [])
    _require(isinstance(deals, list) and all(isinstance(d, dict) for d in deals),
             "deals must be a list of objects")
    if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
        raise RecordError("moves must be a list of strings")
    if not isinstance(results, list) or not all(isinstance(r, dict) for r in results):
        raise RecordError("results must be a list of objects")
    try:
        match = Match.from_deals(rules, deals)
    except ValueError as error:
        raise RecordError(f"deal {_failing_deal(rules, deals)}: {error}") from None
    _replay_moves(match, moves)
    _give_up(match, data.get("forfeit"))
    _check_deals(match, deals, next_at_random=facts is not data)
    _require(len(results) == len(match.results),
             f"the record lists {len(results)} results, but the moves finish "
             f"{len(match.results)} rounds")
    for number, stated in enumerate(results, 1):
        _check_round(match, number, stated)
    for key in ("scores", "is_over", "winner", "loser", "shutout", "eggs"):
        if key in facts:
            value = getattr(match, key)
            value = list(value) if isinstance(value, tuple) else value
            _require(facts[key] == value,
                     f"{key}: the record says {facts[key]!r}, the moves give {value!r}")
    return match


def _replay_moves(match: Match, moves: list[str]) -> None:
    for text in moves:
        number, index = len(match.rounds), len(match.round.moves) + 1
        _require(not match.is_over, f"round {number}: the match was over before move "
                 f"{index} ({text!r})")
        try:
            match.push(text)
        except IllegalMove as error:
            raise RecordError(f"round {number}, move {index} ({text!r}): {error}") from None


def _give_up(match: Match, forfeit: Any) -> None:
    """The forfeit the record states, after its moves: a match the moves left unfinished,
    given up by a seat of the game in one of the ways there are."""
    if forfeit is None:
        return
    _require(isinstance(forfeit, dict) and type(forfeit.get("seat")) is int,
             "forfeit must be an object with a seat and how")
    _require(not match.is_over, "forfeit: the moves had finished the match already")
    try:
        match.resign(forfeit["seat"], forfeit.get("how", ""))
    except ValueError as error:
        raise RecordError(f"forfeit: {error}") from None


def _check_deals(match: Match, deals: list[dict[str, Any]], next_at_random: bool) -> None:
    """Every deal stated was played, as stated. A worked example leaves the deal of a
    next round to chance (``next_at_random``); a record holds it."""
    played = match.deals
    if next_at_random and not match.is_over:
        played = played[:len(deals)]  # the deals of the round that follows (void ones too)
    _require(len(played) == len(deals),
             f"deal {len(played) + 1} was never played" if len(played) < len(deals)
             else "the record ends without the deal of the next round")
    for number, (stated, (_, void)) in enumerate(zip(deals, played, strict=True), 1):
        if "void" in stated or void is not None:
            _require((stated.get("void") is not None) == (void is not None),
                     f"deal {number}: the record says "
                     f"{'void' if stated.get('void') else 'played'}, but it is "
                     f"{'void (' + void + ')' if void else 'a valid deal'}")


def _check_round(match: Match, number: int, stated: dict[str, Any]) -> None:
    rnd, result = match.rounds[number - 1], match.results[number - 1]
    actual = {"lead": _lead(rnd), "move_count": len(rnd.moves), **result.to_dict(),
              "count_points": list(rnd.count_points),
              "scores_after": list(match.scores_after[number - 1])}
    for key, value in stated.items():
        _require(key in actual, f"round {number}: unknown result field {key!r}")
        _require(value == actual[key],
                 f"round {number}: the record says {key} {value!r}, the moves give "
                 f"{actual[key]!r}")
def _failing_deal(rules: Rules, deals: list[dict[str, Any]]) -> int:
    """The number of the first deal the engine refuses, for the error message."""
    from bones.round import Deal

    for number, deal in enumerate(deals, 1):
        try:
            Deal.check(rules, deal["hands"], deal.get("boneyard", ()))
        except (ValueError, KeyError, TypeError):
            return number
    return len(deals)


def save(match: Match, path: str | Path) -> None:
    """Write ``match.record()`` to a file."""
    Path(path).write_text(json.dumps(match.record(), indent=1) + "\n", encoding="utf-8")

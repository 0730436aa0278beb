"""The table on its own, without a server: what it shows between rounds."""

from __future__ import annotations

import random

from bones.fair import FairDeck
from bones.rules import Rules
from bones.server.store import Event, SavedTable
from bones.server.table import Entry, Seat, Table


def _two_rounds_at_once(log: list[Entry] | None = None) -> Table:
    """An All Fives table (target 50) whose deck was found to make one move end two
    rounds: a domino, then the next deal's automatic lead scores the match's last points.
    RULES.md, All Fives: "the game ends the moment a player reaches it, even in the
    middle of a deal (a count score can end it)" and "after each placement (the
    automatic lead too), if the count is a positive multiple of 5, the player who placed
    the tile scores the count". ``log`` gets every entry the table made."""
    log = [] if log is None else log
    deck = FairDeck.from_dict({"seed": f"{8:064x}", "salt": "00" * 16})
    table = Table("t", Rules.preset("allfives", target=50),
                  [Seat("human", name="Ann"), Seat("human", name="Bo")], deck=deck)
    log += table.start()
    rng = random.Random(8)
    while True:
        if table.status == "between":
            log += table.ready_up(0) + table.ready_up(1)
            continue
        assert table.status == "playing" and table.match is not None, "no move ended two rounds"
        before = len(table.match.results)
        log += table.play(table.turn or 0, str(rng.choice(table.match.round.legal_moves())))[0]
        if len(table.match.results) == before + 2:
            return table


def test_one_move_ending_two_rounds_shows_them_one_after_the_other() -> None:
    table = _two_rounds_at_once()
    assert table.match is not None and table.match.is_over
    first = table.info()
    assert first.status == "between" and first.winner is None and first.fair_reveal is None
    reveal = table.reveal()
    assert reveal is not None and reveal["round"] == first.round
    assert reveal["result"]["reason"] == "domino" and not reveal["match_over"]
    view = table.view(0)
    assert view is not None and view["is_over"] and view["history"]
    assert first.scores == list(table.match.scores_after[first.round])

    table.ready_up(0)
    assert table.status == "between"  # the other seat has not seen it yet
    table.ready_up(1)
    last = table.info()
    assert last.status == "over" and last.round == first.round + 1
    assert last.winner == table.match.winner and last.fair_reveal is not None
    reveal = table.reveal()
    assert reveal is not None and reveal["result"]["reason"] == "target" and reveal["match_over"]
    view = table.view(1)
    assert view is not None and view["history"] == [] and view["lead"]["automatic"]
    assert last.scores == list(table.match.scores)


def test_a_restored_table_shows_the_round_it_showed() -> None:
    log: list[Entry] = []
    table = _two_rounds_at_once(log)
    for step in range(2):
        saved = SavedTable(
            id=table.id, created=table.created, config=table.config(),
            seats=[{"kind": s.kind, "level": s.level, "name": s.name} for s in table.seats],
            events=[Event(n, kind, seat, data) for n, (kind, seat, data) in enumerate(log)],
            finished=False)
        restored = Table.restore(saved)
        left, right = restored.info(), table.info()
        assert left.model_dump(exclude={"seq"}) == right.model_dump(exclude={"seq"})
        assert restored.view(0) == table.view(0) and restored.reveal() == table.reveal()
        if step == 0:
            log += table.ready_up(0) + table.ready_up(1)
    assert table.status == "over"

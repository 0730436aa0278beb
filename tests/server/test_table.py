"""The table on its own, without a server: what it shows between rounds."""

from __future__ import annotations

import asyncio
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bones.fair import FairDeck, FairnessError
from bones.rules import PLAYERS, Rules
from bones.server.meeting.lobby import Lobby
from bones.server.meeting.presence import Presence
from bones.server.protocol import TableInfo
from bones.server.store.records import Event, SavedTable
from bones.server.tables import endings, showing
from bones.server.tables.seats import Entry, Seat
from bones.server.tables.table import RESUME_GRACE, Table


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
    first = showing.info(table)
    assert first.status == "between" and first.winner is None and first.fair_reveal is None
    reveal = showing.reveal(table)
    assert reveal is not None and reveal["round"] == first.round
    assert reveal["result"]["reason"] == "domino" and not reveal["match_over"]
    view = showing.views(table, [0])[0]
    assert view is not None and view["is_over"] and view["history"]
    assert first.scores == list(table.match.scores_after[first.round])

    table.ready_up(0)
    assert table.status == "between"  # the other seat has not seen it yet
    table.ready_up(1)
    last = showing.info(table)
    assert last.status == "over" and last.round == first.round + 1
    assert last.winner == table.match.winner and last.fair_reveal is not None
    reveal = showing.reveal(table)
    assert reveal is not None and reveal["result"]["reason"] == "target" and reveal["match_over"]
    view = showing.views(table, [1])[1]
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
        left, right = showing.info(restored), showing.info(table)
        # Read back, nobody is connected yet: every player counts as absent from then;
        # the game was interrupted, and the pause between rounds waits the grace for the
        # players to come back too (read a moment apart: a busy machine's moment was a
        # tenth of a second).
        timed = {"seq", "absent", "between_left", "interrupted"}
        assert left.model_dump(exclude=timed) == right.model_dump(exclude=timed)
        assert (left.interrupted is not None) == (left.status != "over") and not right.interrupted
        assert (left.between_left is None) == (right.between_left is None)
        if left.between_left is not None and right.between_left is not None:
            assert abs(left.between_left - RESUME_GRACE - right.between_left) < 5
        assert showing.views(restored, [0]) == showing.views(table, [0])
        assert showing.reveal(restored) == showing.reveal(table)
        if step == 0:
            log += table.ready_up(0) + table.ready_up(1)
    assert table.status == "over"


def _undo_after_a_draw(seed: int) -> tuple[Table, list[Entry], str, str] | None:
    """Ann (seat 0) against a bot seat in the draw game: Ann plays, the bot plays, Ann is
    made to draw; Ann takes her move back and plays it again, the bot too. The first
    tile Ann drew before and after the undo, or None if the deal never went so."""
    deck = FairDeck.from_dict({"seed": f"{seed:064x}", "salt": "00" * 16})
    table = Table("u", Rules.preset("draw", target=None),
                  [Seat("human", name="Ann"), Seat("bot", level="easy")], deck=deck)
    log = table.start()
    rng = random.Random(seed)

    def move(seat: int, text: str | None = None) -> list[str]:
        assert table.match is not None
        legal = [str(m) for m in table.match.round.legal_moves()]
        entries, actions = table.play(seat, text if text in legal else rng.choice(legal))
        log.extend(entries)
        return [str(a.tile) for a in actions if a.seat == 0 and a.tile]

    while table.status == "playing":
        if table.turn == 1:
            move(1)
            continue
        assert table.match is not None
        mine = str(rng.choice(table.match.round.legal_moves()))
        move(0, mine)
        if table.status != "playing" or table.turn != 1:
            continue
        theirs = str(rng.choice(table.match.round.legal_moves()))
        drawn = move(1, theirs)
        if drawn and table.status == "playing" and table.match.round.boneyard:
            log.extend(table.undo(0))
            move(0, mine)
            again = move(1, theirs) if table.turn == 1 else []
            return table, log, drawn[0], again[0] if again else ""
    return None


def test_an_undo_leaves_the_draws_to_come_unknown() -> None:
    """Hardening: play, draw 6-1 by force, undo, play the same: 6-1 again. Now the tiles
    left are put in a new order from the fair deck's secret at each undo; the record
    replays, `bones verify` checks the reorder, and the logged table rebuilds the same."""
    from bones import Match
    from bones.fair import verify

    seen = [found for seed in range(60) if (found := _undo_after_a_draw(seed)) is not None]
    assert len(seen) >= 10
    assert any(before != after for _, _, before, after in seen)
    for table, log, _, _ in seen:
        while table.status == "playing":
            assert table.match is not None and table.turn is not None
            log += table.play(table.turn, str(table.match.round.legal_moves()[0]))[0]
        record = endings.game(table)["record"]
        assert Match.from_record(record).scores == table.match.scores
        assert "committed to" in verify(record)
        events = [Event(n, kind, seat, data) for n, (kind, seat, data) in enumerate(log)]
        saved = SavedTable("u", table.created, table.config(),
                           [s.stored() for s in table.seats], events, False)
        assert Table.restore(saved).match.record() == table.match.record()  # type: ignore[union-attr]
    table, _, _, _ = seen[0]
    tampered = endings.game(table)["record"]
    tampered["assists"] = []
    with pytest.raises(FairnessError):
        verify(tampered)


@settings(max_examples=30, deadline=None)
@given(variant=st.sampled_from(sorted(PLAYERS)), seed=st.integers(0, 2**32 - 1))
def test_the_views_worked_out_together_are_each_seats_own(variant: str, seed: int) -> None:
    """A broadcast works out every seat's view at once; each must be exactly what the
    round shows that seat (its hand, its legal moves on its turn), and a spectator's
    the same with no hand and no moves, after every move of a whole round."""
    players = PLAYERS[variant][-1]
    deck = FairDeck.from_dict({"seed": f"{seed:064x}", "salt": "00" * 16})
    table = Table("t", Rules.preset(variant, players=players, target=None),
                  [Seat("human", name=f"P{n}") for n in range(players)], deck=deck)
    table.start()
    rng = random.Random(seed)
    seats: list[int | None] = [*range(players), None]
    while table.match is not None:
        rnd = table.match.round if table.status == "playing" else table.match.rounds[-1]
        shown = showing.views(table, seats)
        for seat in range(players):
            assert shown[seat] == rnd.view(seat).to_dict()
        spectator = {**rnd.view(0).to_dict(), "seat": None, "hand": [], "legal_moves": []}
        assert shown[None] == spectator
        if table.status != "playing":
            break
        table.play(table.turn or 0, str(rng.choice(rnd.legal_moves())))
    with pytest.raises(ValueError):
        showing.views(table, [players])


def test_the_seats_shown_follow_every_change_of_a_seat() -> None:
    """The seats' models are kept between messages, so a change to a seat must still
    show at once: someone taking the free seat, a socket opening, a bot standing in."""
    table = Table("t", Rules.preset("draw"), [Seat("human", name="Ann"), Seat("human")])
    first = showing.info(table).seats
    assert showing.info(table).seats == first
    table.seats[1].name = "Bo"
    table.seats[0].connected = 2
    table.seats[1].replaced = True
    shown = showing.info(table).seats
    assert (shown[1].name, shown[0].connected, shown[1].replaced) == ("Bo", True, True)
    assert (first[1].name, first[0].connected, first[1].replaced) == (None, False, False)


def test_the_lobbys_ratings_stay_out_of_the_tables_own_messages() -> None:
    """The lobby shows each player's rating on its copy of a table's seats; the table's
    own state messages, which share the table's seat models, never carry it."""
    table = Table("t", Rules.preset("draw"), [Seat("human", name="Ann"), Seat("bot")])

    class Ratings:
        def shown(self, wanted: set[tuple[str, str, int]]) -> dict[tuple[str, str, int], int]:
            return dict.fromkeys(wanted, 1612)

    async def tables(limit: int, offset: int) -> list[TableInfo]:
        return [showing.info(table)]

    lobby = Lobby(tables, Ratings(), chat=None, blocks=None, allowance=None,  # type: ignore[arg-type]
                  presence=Presence(list))
    listed = asyncio.run(lobby.snapshot())
    assert listed.open[0].seats[0].rating == 1612
    assert showing.info(table).seats[0].rating is None

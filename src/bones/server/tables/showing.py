"""What a table shows: its public face (``TableInfo``), each seat's view of the round on
show, every hand between rounds, and the link friends join by. All of it is worked out
from the table as it stands, so nothing shown can drift from what is played; the
table itself (:mod:`.table`) knows only its seats, its match and its log.

>>> from bones.rules import Rules
>>> from bones.server.tables.seats import Seat
>>> table = Table("t", Rules.preset("draw", target=None),
...               [Seat("human", name="Ann"), Seat("bot", level="easy")])
>>> info(table).status, views(table, [0]), reveal(table)
('waiting', {}, None)
"""

from __future__ import annotations

import time
from collections.abc import Collection
from datetime import UTC, datetime
from typing import Any

from bones.server.protocol import SeatInfo, TableInfo
from bones.server.tables import endings
from bones.server.tables.table import Table

__all__ = ["info", "invite_link", "reveal", "views"]


def info(table: Table) -> TableInfo:
    """The public face of the table: what its lobby entry, its page and every message
    about it show."""
    match = table.match
    status = table.status
    scores: list[int] = [0] * table.rules.sides
    shown_round, over = 0, status == "over"
    if match is not None:
        shown_round = (len(match.rounds) - 1 if status == "playing" or match.forfeit
                       else table.shown)
        scores = list(match.scores if status in ("playing", "over")
                      else match.scores_after[shown_round])
    return TableInfo(
        id=table.id, seq=table.seq, variant=table.rules.variant, rules=table.rules.to_dict(),
        status=status,  # type: ignore[arg-type]
        seats=_seat_infos(table),
        round=shown_round, scores=scores, eggs=match.eggs if match else 0,
        ready=sorted(table.ready),
        winner=match.winner if match and over else None,
        loser=match.loser if match and over else None,
        shutout=bool(match and over and match.shutout),
        bot_delay=table.bot_delay, clock=table.clock, bank=table.bank,
        time_left=_time_left(table, status), public=table.invite is None,
        rated=table.rated, banks=[round(b, 1) for b in table.banks] if table.clock else None,
        paused=round(paused, 1) if (paused := table.paused_for()) and status == "playing" else None,
        interrupted=(None if table.resumed is None
                     else datetime.fromtimestamp(table.resumed, UTC).isoformat()),
        absent=[endings.absent_left(table, n, table.absence) for n in range(len(table.seats))],
        between_left=(max(0.0, round(table.between - (time.time() - table.turn_since), 1))
                      if status == "between" else None),
        forfeit=match.forfeit.to_dict() if match and match.forfeit else None,
        aborted=over and endings.aborted(table),
        created=table.created.isoformat(), fair=table.deck.commitment,
        fair_reveal=table.deck.reveal() if over else None,
        rematch=sorted(table.rematch), next=table.next, turn=table.turn,
    )


def _seat_infos(table: Table) -> list[SeatInfo]:
    """The seats' public face. Every change sends the table's info, and building its
    seats' models was a third of it, though a seat changes only when someone comes,
    goes or is stood in for; so the models are kept on the table until then, shared by
    the messages (which never change them)."""
    key = tuple((s.kind, s.level, s.name, s.connected > 0, s.replaced, s.rating,
                 s.provisional, s.stood_in) for s in table.seats)
    if key != table.faces[0]:
        table.faces = key, [
            SeatInfo(seat=n, kind=kind, level=level, name=name,  # type: ignore[arg-type]
                     connected=connected, replaced=replaced, rating=rating,
                     provisional=provisional, stood_in=stood_in)
            for n, (kind, level, name, connected, replaced, rating, provisional, stood_in)
            in enumerate(key)]
    return table.faces[1]


def _time_left(table: Table, status: str) -> list[float] | None:
    turn = table.turn if status == "playing" else None
    if turn is None or table.seats[turn].kind != "human":
        return None
    left = table.time_left(turn)
    return None if left is None else [round(t, 1) for t in left]


def views(table: Table, seats: Collection[int | None]) -> dict[int | None, dict[str, Any]]:
    """The view of the round on show for each of ``seats`` (``None``: a spectator, who
    sees no hand); empty before the first deal. What every seat sees alike is worked out
    once: a move goes to every seat at the table, and the round's view was a tenth of a
    busy server's CPU when worked out per seat.

    >>> from bones.rules import Rules
    >>> from bones.server.tables.seats import Seat
    >>> table = Table("t", Rules.preset("draw"), [Seat("human", name="Ann"), Seat("bot")])
    >>> _ = table.start()
    >>> shown = views(table, [1, None])
    >>> len(shown[1]["hand"]) == shown[None]["hand_counts"][1], shown[None]["hand"]
    (True, [])
    """
    match = table.match
    if match is None or not seats:
        return {}
    rnd = (match.round if table.status == "playing" or match.forfeit
           else match.rounds[table.shown])
    public = rnd.view(0).to_dict()
    hands, turn = rnd.hands, rnd.turn
    legal = (public["legal_moves"] if turn == 0 or turn not in seats
             else [str(m) for m in rnd.legal_moves()])  # only for a seat that is sent it
    shown: dict[int | None, dict[str, Any]] = {}
    for seat in seats:
        if seat is not None and not 0 <= seat < len(hands):
            raise ValueError(f"no seat {seat!r} at a table of {len(hands)}")
        shown[seat] = {**public, "seat": seat,
                       "hand": [] if seat is None else [str(t) for t in hands[seat]],
                       "legal_moves": legal if seat is not None and seat == turn else []}
    return shown


def reveal(table: Table) -> dict[str, Any] | None:
    """Between rounds and at the end: every hand as it ended, and the score."""
    match = table.match
    status = table.status
    if match is None or status not in ("between", "over"):
        return None
    if match.forfeit is not None:  # the round under way ends unfinished, with no result
        number = len(match.rounds) - 1
        rnd, result = match.round, None
    else:
        number = table.shown
        rnd, result = match.rounds[number], match.results[number]
    return {
        "round": number,
        "hands": [[str(t) for t in hand] for hand in rnd.hands],
        "result": None if result is None else result.to_dict(),
        "forfeit": match.forfeit.to_dict() if match.forfeit else None,
        "count_points": list(rnd.count_points),
        "scores_before": list(match.scores_after[number - 1]) if number else
        [0] * table.rules.sides,
        "scores_after": list(match.scores if result is None else match.scores_after[number]),
        "eggs": match.eggs,
        "match_over": status == "over",
    }


def invite_link(table: Table) -> str:
    """The link friends join by: a private table's carries its secret in the fragment,
    which browsers send to no server.

    >>> from bones.rules import Rules
    >>> from bones.server.tables.seats import Seat
    >>> invite_link(Table("abc", Rules.preset("draw"), [Seat("human")] * 2, invite="s3"))
    '/t/abc#invite=s3'
    """
    link = f"/t/{table.id}"
    return link if table.invite is None else f"{link}#invite={table.invite}"

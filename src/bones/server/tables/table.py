"""A table: its seats, the match being played, and its log.

The table knows nothing of sockets or databases. Each change returns the log entries it
made; the server stores them before it tells anyone, and a table rebuilt from its log
(:meth:`Table.restore`) is the same table. Deals come from the table's ``FairDeck`` (a
secret committed to in public) and are logged as they are made. What a table shows is
worked out from it in :mod:`.showing`.

>>> from bones.rules import Rules
>>> table = Table("t", Rules.preset("draw", target=None),
...               [Seat("human", name="Ann"), Seat("bot", level="easy")])
>>> entries = table.start()
>>> entries[0][0], table.status          # the deal, then any forced draws it brings
('deal', 'playing')
"""

from __future__ import annotations

import hmac
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import islice
from typing import Any

from bones.fair import FairDeck
from bones.match import Match
from bones.moves import Draw, IllegalMove, parse_move
from bones.rules import Rules
from bones.server.names import name_key
from bones.server.people.players import Player
from bones.server.protocol import Action, SeatInfo
from bones.server.store.records import SavedTable, hash_token
from bones.server.tables.seats import Entry, Seat, TableError
from bones.view import PlayerView

__all__ = ["RESUME_GRACE", "Table"]

RESUME_GRACE = 10.0
"""Seconds the clocks stand still when a table is read back mid-match, for its players'
pages to reconnect: the time the table was held by no live process is nobody's."""


@dataclass
class Table:
    """One table and its match. ``seq`` counts changes; every message carries it."""

    id: str
    rules: Rules
    seats: list[Seat]
    bot_delay: float = 0.8
    clock: float | None = None
    """Seconds a human has for each move (then their bank runs, then a bot moves)."""
    bank: float = 0.0
    """Seconds each human may spend over their moves' time in all."""
    invite: str | None = None
    """The secret of a private table's invite link; a public table (None) is listed and
    anyone may take its free seats."""
    rated: bool = False
    """The result moves its players' ratings (:mod:`bones.server.people.ratings`)."""
    created: datetime = field(default_factory=lambda: datetime.now(UTC))
    match: Match | None = None
    shown: int = 0
    """Finished rounds everyone has seen; while it trails the results, play waits and
    the first unseen one is on show. Rounds are shown one at a time: in All Fives a
    deal's automatic lead can reach the target, so one move may end two rounds."""
    ready: set[int] = field(default_factory=set)
    assists: list[dict[str, Any]] = field(default_factory=list)
    """Every hint given and every undo, for the record."""
    rematch: set[int] = field(default_factory=set)
    """Seats that want another match (logged after the end, so an offer outlives a
    restart, or the process that held the table)."""
    next: str | None = None
    """The rematch's table, once made."""
    deck: FairDeck = field(default_factory=FairDeck.new)
    """The secret every deal comes from; its commitment is public from the start."""
    seq: int = 0
    logged: int = 0
    """Entries in the table's log so far (the server counts them as it stores them)."""
    _deals_logged: int = 0
    banks: list[float] = field(default_factory=list)
    """What is left of each seat's bank."""
    turn_since: float = field(default_factory=time.time)
    """When the turn being waited for began (the epoch's seconds): the server's clock is
    the truth. Later than now while the clocks stand still (see :meth:`resume`)."""
    resumed: float | None = None
    """When the table was read back with its match under way (the epoch's seconds): its
    game was interrupted, by a restart, a failover, an upgrade or a restore, and its
    players are told so."""
    absence: float = field(default=60.0, compare=False)
    """Seconds a player may be away before it counts (a bot takes the seat; at a rated
    table, the others may claim the match) ..."""
    between: float = field(default=60.0, compare=False)
    """... and the longest pause between rounds: the server's settings, not stored."""
    faces: tuple[tuple[tuple[Any, ...], ...], list[SeatInfo]] = field(
        default=((), []), init=False, repr=False, compare=False)
    """The seats as :func:`.showing.info` last showed them, and what they showed: kept
    while no seat changes, which is most moves."""

    def __post_init__(self) -> None:
        if len(self.seats) != self.rules.players:
            raise ValueError(f"{self.rules.variant} with {self.rules.players} players needs "
                             f"{self.rules.players} seats, not {len(self.seats)}")
        self.banks = self.banks or [self.bank] * len(self.seats)

    # -- state ---------------------------------------------------------------------------

    @property
    def status(self) -> str:
        """``waiting`` for players, ``playing``, ``between`` rounds, or ``over``."""
        match = self.match
        if match is None:
            return "waiting"
        if match.forfeit is not None:
            return "over"
        unseen = len(match.results) - self.shown
        if unseen > 0:
            return "over" if match.is_over and unseen == 1 else "between"
        return "playing"

    @property
    def turn(self) -> int | None:
        """The seat to move, while a round is being played."""
        return self.match.round.turn if self.match and self.status == "playing" else None

    def config(self) -> dict[str, Any]:
        """What the store keeps of the table besides its seats and log."""
        return {"rules": self.rules.to_dict(), "bot_delay": self.bot_delay, "clock": self.clock,
                "bank": self.bank, "fair": self.deck.to_dict(), "invite": self.invite,
                "rated": self.rated}

    def time_left(self, seat: int) -> tuple[float, float] | None:
        """The seat's time for this move and its bank, as they stand now (the move's
        time runs first); None without a clock."""
        if self.clock is None:
            return None
        used = max(0.0, time.time() - self.turn_since)
        over = max(0.0, used - self.clock)
        return max(0.0, self.clock - used), max(0.0, self.banks[seat] - over)

    def paused_for(self) -> float:
        """Seconds the clocks stand still yet after the table was read back."""
        return max(0.0, self.turn_since - time.time())

    def resume(self, grace: float = RESUME_GRACE) -> None:
        """The table was read back: the turn begins again, ``grace`` seconds from now.
        The clocks stand as the log left them at its last move, however long the table
        was held by no process (a crash, an outage, a restore from a backup), so no one
        loses on time for it.

        >>> from bones.rules import Rules
        >>> table = Table("t", Rules.preset("draw"), [Seat("human", name="Ann"),
        ...                                          Seat("human", name="Bob")], clock=20)
        >>> _ = table.start()
        >>> table.turn_since -= 3600                 # an hour with the site down
        >>> table.resume()
        >>> table.time_left(table.turn), 9 < table.paused_for() <= 10
        ((20.0, 0.0), True)
        """
        now = time.time()
        if self.status in ("playing", "between"):
            self.resumed = now
        self.turn_since = now + grace

    def seat_of(self, token: str) -> int | None:
        """The seat a token opens, if any."""
        wanted = hash_token(token)
        for number, seat in enumerate(self.seats):
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, wanted):
                return number
        return None

    def seat_of_account(self, account: int) -> int | None:
        """The seat ``account`` sits in, if any: a member's seat is theirs on any device
        they are signed in on, without its token.

        >>> table = Table("t", Rules.preset("draw"), [Seat("human", name="Ann", account_id=7),
        ...                                           Seat("bot", level="easy")])
        >>> table.seat_of_account(7), table.seat_of_account(8)
        (0, None)
        """
        return next((n for n, s in enumerate(self.seats)
                     if s.kind == "human" and s.account_id == account), None)

    # -- changes: each returns the entries to log ----------------------------------------

    def join(self, player: Player, token_hash: str, seat: int | None = None,
             invite: str | None = None) -> int:
        """Seat a human in the given free seat, or the first free one. A private table's
        seats open only to its invite's secret; no two players share a name (in any
        case)."""
        if self.invite is not None and not hmac.compare_digest(
                self.invite.encode(), (invite or "").encode()):
            raise TableError("private", "this table is private: join it through its invite link")
        if self.rated and not player.rated:
            raise TableError("rated", "a rated game is for players who signed up")
        if any(s.name and name_key(s.name) == name_key(player.name) for s in self.seats):
            raise TableError("not_now",
                             f"someone called {player.name!r} already sits at this table")
        free = [n for n, s in enumerate(self.seats) if s.free]
        if seat is None:
            if not free:
                raise TableError("not_now", "this table has no free seat")
            seat = free[0]
        if seat not in free:
            raise TableError("not_now", f"seat {seat} is not a free seat")
        self.seats[seat].take(player, token_hash)
        self.seq += 1
        return seat

    def leave(self, token: str) -> tuple[int, Player]:
        """The player of the seat this token opens stands up, before the game begins:
        the seat is free again (the table itself waits on for others). Answers the seat
        and who left it."""
        seat = self.seat_of(token)
        if seat is None:
            raise TableError("not_now", "this token opens no seat at this table")
        if self.status != "waiting":
            raise TableError("not_now", "the game has begun: a seat is left only before")
        spec = self.seats[seat]
        assert spec.name is not None
        who = Player(spec.name, spec.account_id)
        spec.take(None, None)
        self.seq += 1
        return seat, who

    def start(self) -> list[Entry]:
        """Deal the first round once every seat is taken."""
        if self.match is not None or any(s.free for s in self.seats):
            return []
        self.match = Match.from_deals(self.rules, self.deck.deals(self.rules))
        self.seq += 1
        self.turn_since = time.time()
        return self._new_deals() + self._forced([])

    def play(self, seat: int, text: str, by: str | None = None
             ) -> tuple[list[Entry], list[Action]]:
        """``seat`` plays ``text``, then every forced move that follows; ``by``: a bot
        chose it for the human of the seat, who was ``away`` or out of time (``clock``)."""
        if self.status != "playing":
            raise TableError("not_now", f"no round is being played (the table is {self.status})")
        assert self.match is not None
        if seat != self.match.round.turn:
            raise TableError("not_your_turn", f"it is seat {self.match.round.turn}'s turn")
        try:
            move = parse_move(text)
        except IllegalMove as error:
            raise TableError("illegal_move", str(error)) from None
        actions: list[Action] = []
        try:
            self._push(move, actions)
        except IllegalMove as error:
            raise TableError("illegal_move", str(error)) from None
        now = time.time()
        took = round(max(0.0, now - self.turn_since), 3)
        self._count(seat, by, took)
        self.turn_since = now
        entries = self._forced(actions)
        if by is not None:
            entries[0][2]["by"] = actions[0].by = by  # type: ignore[assignment]
        if self.clock is not None:
            entries[0][2]["took"] = took
        self.seq += 1
        return entries, actions

    def _count(self, seat: int, by: str | None, took: float) -> None:
        """A move chosen for ``seat`` after ``took`` seconds: who chose it, and what
        it cost the seat's bank."""
        spec = self.seats[seat]
        spec.chose += 1
        spec.stood_in += by is not None
        if self.clock is not None:
            self.banks[seat] = max(0.0, self.banks[seat] - max(0.0, took - self.clock))

    def ready_up(self, seat: int) -> list[Entry]:
        """``seat`` has seen the round's end; the next round begins when all have."""
        if self.status != "between":
            raise TableError("not_now", "there is no finished round to leave")
        if seat in self.ready:
            return []
        self.ready.add(seat)
        entries: list[Entry] = [("ready", seat, {})]
        if len(self.ready) == len(self.seats):
            self._release()
            self.turn_since = time.time()
            entries += self._forced([])
        self.seq += 1
        return entries

    def offer_rematch(self, seat: int) -> bool:
        """``seat`` offers (or accepts) another match; True once every human has."""
        if self.status != "over":
            raise TableError("not_now", "a rematch is offered once the match is over")
        if self.next is not None:
            raise TableError("not_now", "the rematch has begun already")
        self.rematch.add(seat)
        self.seq += 1
        return all(n in self.rematch for n, s in enumerate(self.seats) if s.kind == "human")

    def may_watch(self, invite: str | None) -> bool:
        """Whether someone with no seat may watch: anyone at a public table, only those
        with the invite's secret at a private one (while it is played and after).

        >>> table = Table("t", Rules.preset("draw"), [Seat("human")] * 2, invite="s3")
        >>> table.may_watch(None), table.may_watch("s3")
        (False, True)
        """
        return self.invite is None or hmac.compare_digest(self.invite.encode(),
                                                          (invite or "").encode())

    def rematch_table(self, table_id: str, invite: str | None) -> Table:
        """The next match: the same rules, seats and bots, a deck of its own (``invite``:
        its secret if this table is private). Its human seats are taken by the same
        names; the server gives each a new token."""
        seats = [Seat(s.kind, level=s.level, name=s.name, account_id=s.account_id)
                 for s in self.seats]
        return Table(table_id, self.rules, seats, bot_delay=self.bot_delay, clock=self.clock,
                     bank=self.bank, invite=invite if self.invite is not None else None,
                     rated=self.rated)

    @property
    def assisted(self) -> bool:
        """Hints and undo are for games against bots: one human at the table."""
        return sum(1 for s in self.seats if s.kind == "human") == 1

    def _assist_check(self, seat: int, what: str) -> None:
        if not self.assisted:
            raise TableError("not_now", f"{what} is only for games against bots")
        if self.status != "playing":
            raise TableError("not_now", f"no round is being played for {what}")

    def hint_view(self, seat: int) -> PlayerView:
        """The view a hint for ``seat`` is worked out from, if a hint may be given now."""
        self._assist_check(seat, "a hint")
        assert self.match is not None
        if self.match.round.turn != seat:
            raise TableError("not_your_turn", "a hint is for your own turn")
        return self.match.round.view(seat)

    def hint_entry(self, seat: int, move: str, expected: float) -> list[Entry]:
        """Note a hint given to ``seat``."""
        self.hint_view(seat)
        assert self.match is not None
        entry = {"kind": "hint", "seat": seat, "round": len(self.match.rounds) - 1,
                 "at": len(self.match.round.moves), "move": move, "expected": expected}
        self.assists.append(entry)
        return [("hint", seat, entry)]

    def undo(self, seat: int) -> list[Entry]:
        """Take back every move since ``seat``'s last choice in this round, that choice
        included: it is ``seat``'s turn again, as it was, with the tiles left to draw in
        a new order from the fair deck (``bones.fair``), so no draw to come is known."""
        self._assist_check(seat, "undo")
        assert self.match is not None
        history = self.match.round.history
        mine = [n for n, (who, move) in enumerate(history)
                if who == seat and move not in ("draw", "pass")]
        if not mine:
            raise TableError("not_now", "none of your moves in this round to take back")
        undone = [move for _, move in history[mine[-1]:]]
        entry = {"kind": "undo", "seat": seat, "round": len(self.match.rounds) - 1,
                 "at": mine[-1], "undone": undone}
        self._take_back(entry)
        self.seq += 1
        return [("undo", seat, entry)]

    def _take_back(self, entry: dict[str, Any]) -> None:
        """Undo as ``entry`` says, the ``k``-th assist of the game, and reorder the
        boneyard as the fair deck's ``k``-th undo order has it."""
        match = self.match
        assert match is not None
        for _ in entry["undone"]:
            match.round.pop()
        left = match.round.boneyard
        if left:
            match.reorder_boneyard(self.deck.undo_order(len(self.assists), left))
        self.assists.append(entry)

    def _release(self) -> None:
        assert self.match is not None
        self.shown += 1
        self.ready.clear()

    def _push(self, move: Any, actions: list[Action]) -> None:
        match = self.match
        assert match is not None
        rnd = match.round
        seat = rnd.turn
        assert seat is not None
        before = set(rnd.hands[seat])
        match.push(move)
        drawn = (set(rnd.hands[seat]) - before) if move is Draw() else set()
        actions.append(Action(seat=seat, move=str(rnd.moves[-1]),
                              tile=str(drawn.pop()) if drawn else None))

    def _forced(self, actions: list[Action]) -> list[Entry]:
        match = self.match
        assert match is not None
        while self.status == "playing" and (forced := match.round.forced()) is not None:
            self._push(forced, actions)
        entries: list[Entry] = [("move", a.seat, {"move": a.move}) for a in actions]
        return entries + self._new_deals()

    def _new_deals(self) -> list[Entry]:
        assert self.match is not None
        fresh = self.match.deals[self._deals_logged:]
        self._deals_logged = len(self.match.deals)
        return [("deal", None, deal.to_dict()) for deal, _ in fresh]

    # -- rebuilding ----------------------------------------------------------------------

    @classmethod
    def restore(cls, saved: SavedTable) -> Table:
        """The table a log describes, exactly as it was, its clocks as they stood at its
        last move (:meth:`resume`)."""
        config = saved.config
        table = cls(saved.id, Rules.from_dict(config["rules"]),
                    [Seat(**s) for s in saved.seats], bot_delay=config["bot_delay"],
                    clock=config.get("clock"), bank=config.get("bank", 0.0),
                    invite=config.get("invite"),
                    rated=config.get("rated", False), created=saved.created,
                    deck=FairDeck.from_dict(config["fair"]))
        for seat in table.seats:  # nobody is connected to a table just read back
            seat.absent_since = time.time() if seat.name is not None else None
        logged = [e.data for e in saved.events if e.kind == "deal"]
        if logged:
            table.match = Match.from_deals(table.rules, table.deck.deals(table.rules))
        for entry in saved.events:
            if entry.kind == "move":
                assert table.match is not None
                if table.match.round.forced() is None:
                    table._count(entry.seat or 0, entry.data.get("by"),
                                 entry.data.get("took", 0.0))
                table.match.push(entry.data["move"])
            elif entry.kind == "undo":
                table._take_back(entry.data)
            elif entry.kind == "hint":
                table.assists.append(entry.data)
            elif entry.kind == "rematch":
                table.rematch.add(entry.seat or 0)
            elif entry.kind == "next":
                table.next = entry.data["table"]
            elif entry.kind == "forfeit":
                assert table.match is not None
                table.match.resign(entry.seat or 0, entry.data["how"])
            elif entry.kind == "ready":
                table.ready.add(entry.seat or 0)
                if len(table.ready) == len(table.seats):
                    table._release()
        if table.match is not None:
            dealt = [d.to_dict() for d in islice(table.deck.deals(table.rules), len(logged))]
            if dealt != logged or len(table.match.deals) != len(logged):
                raise ValueError(f"table {saved.id}: the logged deals are not the committed ones")
            table._deals_logged = len(dealt)
        table.seq = table.logged = len(saved.events)
        table.seq += 1
        table.resume()  # the time it was held by no process is nobody's
        return table

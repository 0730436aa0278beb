"""Changes instead of whole states (``?changes=1``): a client that applies every change
to the state before it holds exactly the state the server would have sent whole."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bones.fair import FairDeck
from bones.rules import PLAYERS, Rules
from bones.server.hub import Shown
from bones.server.protocol import Action, apply_change
from bones.server.table import Seat, Table
from tests.server.live import Server, play_out


def _json(message: Any) -> dict[str, Any]:
    return json.loads(message.model_dump_json())


@settings(max_examples=25, deadline=None)
@given(variant=st.sampled_from(sorted(PLAYERS)), seed=st.integers(0, 2**32 - 1))
def test_every_change_makes_the_whole_state_again(variant: str, seed: int) -> None:
    """Through a whole match to 100 (deals, draws told only to the drawer, rounds on show
    between deals, readiness, the end), for every seat and a spectator: the state made
    from the first whole one and each change since equals the whole state of that
    moment, and a change is smaller than the state it stands for."""
    players = PLAYERS[variant][0]
    deck = FairDeck.from_dict({"seed": f"{seed:064x}", "salt": "00" * 16})
    table = Table("t", Rules.preset(variant, players=players, target=100),
                  [Seat("human", name=f"P{n}") for n in range(players)], deck=deck)
    seats: list[int | None] = [*range(players), None]
    seen = Shown.of(table, seats)
    held = {seat: _json(seen.state(seat, [])) for seat in seats}
    table.start()
    rng = random.Random(seed)
    actions: list[Action] = []
    smaller = 0
    for _ in range(2000):
        shown = Shown.of(table, seats)
        for seat in seats:
            change = shown.since(seen, seat, actions)
            whole = _json(shown.state(seat, actions))
            assert change is not None
            held[seat] = apply_change(held[seat], _json(change))
            assert held[seat] == whole
            smaller += len(change.model_dump_json()) < len(json.dumps(whole))
        seen = shown
        if table.status == "over":
            break
        if table.status == "between":
            actions = []
            table.ready_up(min(set(range(players)) - table.ready))
            continue
        assert table.match is not None and table.turn is not None
        move = rng.choice(table.match.round.legal_moves())
        actions = table.play(table.turn, str(move))[1]
    assert table.status == "over"
    assert smaller > 0


def test_a_change_that_drops_an_entry_is_sent_whole() -> None:
    """An entry gone from the view cannot be told as a change: the state goes whole."""
    table = Table("t", Rules.preset("draw"), [Seat("human", name="A"), Seat("bot")])
    table.start()
    seen = Shown.of(table, [0])
    gone = Shown(seen.info, None, {0: {k: v for k, v in seen.views[0].items() if k != "lacks"}})
    assert gone.since(seen, 0, []) is None
    assert seen.since(gone, 0, []) is not None


def test_a_socket_that_asks_for_changes_holds_the_whole_state(server: Server) -> None:
    """A seat with two sockets, one sent changes and one whole states, and a spectator
    sent changes, play a round against a bot: after the first message the changes
    sockets are sent only changes, and the states they make are the whole ones, message
    by message."""
    made = server.create("draw", [{"kind": "human", "name": "Ann"},
                                  {"kind": "bot", "level": "easy"}],
                         options={"target": None}, bot_delay=0)
    table, token = made["table"]["id"], made["token"]
    changes = server.socket(table, token, changes=True)
    watching = server.socket(table, None, changes=True)
    whole = server.socket(table, token)
    first = changes.recv(), watching.recv()
    assert [m["type"] for m in first] == ["state", "state"]
    end = play_out(whole, random.Random(1))
    assert end["table"]["status"] == "over"
    for socket in (changes, watching):
        while socket.received[-1]["table"]["seq"] < end["table"]["seq"]:
            socket.recv()
        assert socket.changes == len(socket.received) - 1 > 0
    states = {m["table"]["seq"]: m for m in whole.received if m["type"] == "state"}
    for message in changes.received[1:]:
        assert message == states[message["table"]["seq"]]
    spectator = {m["table"]["seq"]: m["view"] for m in watching.received}
    assert spectator[end["table"]["seq"]] == {**end["view"], "seat": None, "hand": [],
                                               "legal_moves": []}
    assert first[0]["you"] == 0 and first[1]["you"] is None
    for socket in (changes, watching, whole):
        socket.close()

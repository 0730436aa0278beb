"""Full games over real WebSockets against a real server: every variant, humans and bots."""

from __future__ import annotations

import pytest

from bones import Match
from tests.server.live import Server, play_all

GAMES = [
    ("draw", {"players": 2, "target": 50}, ["Ann", "easy"]),
    ("draw", {"players": 3, "target": None}, ["Ann", "Ben", "medium"]),
    ("block", {"players": 4, "target": 50}, ["Ann", "easy", "Ben", "hard"]),
    ("kozel", {"target": 50}, ["Ann", "expert", "Ben", "medium"]),
    ("allfives", {"target": 50}, ["Ann", "Ben"]),
]


@pytest.mark.parametrize(("variant", "options", "who"), GAMES,
                         ids=[f"{g[0]}-{len(g[2])}" for g in GAMES])
def test_a_whole_match(server: Server, variant: str, options: dict[str, object],
                       who: list[str]) -> None:
    """Humans and bots play a match to its end; the stored record replays to the same end."""
    humans = [n for n in who if n[0].isupper()]
    seats = [{"kind": "bot", "level": w} if w[0].islower() else {"kind": "human"} for w in who]
    seats[who.index(humans[0])]["me"] = True
    humans = [f"{name}{variant}{len(who)}" for name in humans]  # accounts of this test's own
    accounts = {name: server.account(name) for name in humans}
    made = server.create(variant, seats, options=options, client=accounts[humans[0]])
    table = made["table"]["id"]
    tokens = [made["token"]] + [server.join(table, None, client=accounts[name])["token"]
                                for name in humans[1:]]
    clients = [server.socket(table, t) for t in tokens]
    ends = play_all(clients, seed=len(who))
    record = server.get(f"/api/games/{table}/record")
    match = Match.from_record(record)
    for end in ends:
        assert end["table"]["status"] == "over"
        assert end["table"]["winner"] == match.winner
        assert end["table"]["scores"] == list(match.scores)
        assert end["reveal"]["match_over"] is True
    own = accounts[humans[0]].get(f"/api/games?name={humans[0]}").json()
    assert [g["id"] for g in own].count(table) == 1
    for c in clients:
        c.close()

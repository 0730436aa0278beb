"""The table's own justice in games between people: a player resigns, loses on time in
a rated game, is claimed from after leaving one; a bot stands in at a casual table and
everyone is told; the pause between rounds has a clock; a rated game nobody moved in
rates nobody. Each end is logged, so a restart finds it, and rated once."""

from __future__ import annotations

import random
import signal
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from bones import Match
from tests.server.live import Client, Message, Server, both_move, play_out, sqlite_url, step
from tests.server.skill import openskill_after

TOKENS: dict[tuple[str, int], str] = {}
"""Each seat's token, by table and seat, as a player's browser keeps it."""


@pytest.fixture
def own(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own: an absent player may be claimed from after a second,
    and the pause between rounds lasts two."""
    server = Server(sqlite_url(tmp_path / "fair.db"),
                    limits={"claim-after": 1, "between": 2}).start()
    try:
        yield server
    finally:
        server.stop()


def _table(server: Server, variant: str, names: list[str | None], *, rated: bool = False,
           **extra: Any) -> tuple[str, list[Client]]:
    """A table of people (accounts named ``names``; None: an Easy bot's seat), every seat
    taken and every person's socket open: its id and the sockets, seat by seat (a bot's
    seat has none). The seat tokens are kept in ``TOKENS``, as a browser keeps them."""
    people = {n: server.account(name) for n, name in enumerate(names) if name is not None}
    first = min(people)
    seats = [{"kind": "bot", "level": "easy"} if name is None else
             {"kind": "human", "me": True} if n == first else {"kind": "human"}
             for n, name in enumerate(names)]
    options = {"target": None, **extra.pop("options", {})}
    made = server.create(variant, seats, rated=rated, options=options, client=people[first],
                         **extra)
    table = made["table"]["id"]
    tokens = {first: made["token"]}
    for n, client in people.items():
        if n != first:
            tokens[n] = server.join(table, None, client=client)["token"]
    TOKENS.update({(table, n): token for n, token in tokens.items()})
    sockets = {n: server.socket(table, token) for n, token in tokens.items()}
    return table, [sockets.get(n) for n in range(len(names))]  # type: ignore[misc]


def _over(message: Message) -> bool:
    return message["type"] == "state" and message["table"]["status"] == "over"


def _resign(client: Client) -> None:
    client.until(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
    client.send({"v": 1, "type": "resign"})


@pytest.mark.parametrize("variant", ["draw", "block", "allfives"])
def test_a_resignation_ends_the_match_for_everyone(server: Server, variant: str) -> None:
    tag = random.randrange(10**6)
    table, (ann, ben) = _table(server, variant, [f"Rs{tag}a", f"Rs{tag}b"])
    _resign(ann)
    for client in (ann, ben):
        end = client.until(_over)["table"]
        assert end["forfeit"] == {"seat": 0, "how": "resigned"} and end["winner"] == 1
    assert ann.last_state()["reveal"]["forfeit"] == {"seat": 0, "how": "resigned"}
    record = server.get(f"/api/games/{table}/record")
    assert record["forfeit"] == {"seat": 0, "how": "resigned"}
    assert Match.from_record(record).winner == 1
    ann.send({"v": 1, "type": "resign"})  # once over, nothing more to give up
    assert ann.until(lambda m: m["type"] == "error")["code"] == "not_now"


def test_in_kozel_a_resignation_loses_the_pair_the_match(server: Server) -> None:
    """Seats 0 and 2 against 1 and 3: Ben (seat 1) resigns, and his pair is the goat,
    his partner (a bot) with him."""
    tag = random.randrange(10**6)
    table, sockets = _table(server, "kozel", [f"Kz{tag}a", f"Kz{tag}b", None, None])
    _resign(sockets[1])
    end = sockets[0].until(_over)["table"]
    assert (end["winner"], end["loser"], end["forfeit"]) == (0, 1, {"seat": 1,
                                                                     "how": "resigned"})
    assert server.get(f"/api/games/{table}/record")["loser"] == 1


def test_against_bots_alone_there_is_nobody_to_resign_to(server: Server) -> None:
    made = server.create("draw", [{"kind": "human", "name": "Solo"},
                                  {"kind": "bot", "level": "easy"}], options={"target": None})
    solo = server.socket(made["table"]["id"], made["token"])
    _resign(solo)
    error = solo.until(lambda m: m["type"] == "error")
    assert error["code"] == "not_now" and "against another person" in error["message"]
    assert solo.last_state()["table"]["status"] == "playing"


def test_a_rated_resignation_rates_once_the_resigner_last(tmp_path: Path) -> None:
    """Both have moved; Ann resigns while ahead: she is rated as the loser, once, and
    a restart finds the game over, not to be rated again."""
    db = sqlite_url(tmp_path / "resign.db")
    server = Server(db).start()
    try:
        table, (ann, ben) = _table(server, "draw", ["Ann", "Ben"], rated=True,
                                   options={"target": 150})
        seated = ann.until(lambda m: m["type"] == "state")["table"]["seats"]
        assert [(s["rating"], s["provisional"]) for s in seated] == [(1500, True)] * 2
        both_move(ann, ben)
        ann.send({"v": 1, "type": "resign"})
        assert ben.until(_over)["table"]["forfeit"] == {"seat": 0, "how": "resigned"}
        moved = server.get(f"/api/games/{table}/ratings")
        assert moved["rated"] and moved["unrated"] is None
        assert [(c["seat"], c["before"]) for c in moved["changes"]] == [(0, 1500), (1, 1500)]
        ann_after, ben_after = (c["after"] for c in moved["changes"])
        assert ann_after < 1500 < ben_after
        server.kill(signal.SIGKILL)
        server = Server(db, port=server.port).start()
        expected = openskill_after([["Ann"], ["Ben"]], [2, 1])
        for name in ("Ann", "Ben"):
            [rating] = server.get(f"/api/profile/{name}")["ratings"]
            assert rating["games"] == 1
            assert (rating["mu"], rating["sigma"]) == pytest.approx(expected[name])
        assert server.get(f"/api/tables/{table}")["status"] == "over"
    finally:
        server.stop()


def test_a_rated_game_is_lost_on_time(tmp_path: Path) -> None:
    """Both have played (the moves of their own a real game needs); then Ben, still
    connected, stops moving. With the least clock a rated table may have (5 s a move, a
    30 s bank) he loses on time, as by resignation: no bot plays on for him, both are
    told, and he is rated last."""
    server = Server(sqlite_url(tmp_path / "time.db")).start()
    try:
        table, (ann, ben) = _table(server, "draw", ["Tia", "Tib"], rated=True, clock=5.0,
                                   bank=30.0, options={"target": 150})
        both_move(ann, ben, seed=2)
        ends = [play_out(ann, random.Random(2), timeout=180),  # Ann plays on, Ben does not
                ben.until(_over, timeout=90)]
        for end in (e["table"] for e in ends):
            assert end["forfeit"] == {"seat": 1, "how": "time"} and not end["aborted"]
        expected = openskill_after([["Tia"], ["Tib"]], [1, 2])
        [rating] = server.get("/api/profile/Tib")["ratings"]
        assert (rating["mu"], rating["sigma"]) == pytest.approx(expected["Tib"])
        assert server.get(f"/api/games/{table}/record")["forfeit"]["how"] == "time"
    finally:
        server.stop()


def test_a_rated_game_nobody_moved_in_is_aborted(server: Server) -> None:
    """Ann resigns before either has moved: the game ends, aborted, and rates nobody,
    so an account that never comes cannot be farmed for points."""
    tag = random.randrange(10**6)
    names = [f"Ab{tag}a", f"Ab{tag}b"]
    table, (ann, _) = _table(server, "draw", names, rated=True)
    _resign(ann)
    end = ann.until(_over)["table"]
    assert end["aborted"] is True and end["rated"] is True
    assert server.get(f"/api/games/{table}/ratings") == {"rated": True, "unrated": "aborted",
                                                        "changes": []}
    for name in names:
        profile = server.get(f"/api/profile/{name}")
        assert profile["ratings"] == [] and profile["history"] == []


def test_an_absent_player_is_shown_and_then_claimed_from(own: Server) -> None:
    """Ben moves, then closes his socket: Ann sees him absent at once, with the time
    before she may claim; claiming sooner is refused; then she claims, and Ben loses
    as by resignation."""
    table, (ann, ben) = _table(own, "draw", ["Cla", "Clb"], rated=True,
                               options={"target": 150})
    both_move(ann, ben)
    ben.close()
    gone = ann.until(lambda m: m["type"] == "state" and m["table"]["absent"][1] is not None)
    assert not gone["table"]["seats"][1]["connected"] and gone["table"]["absent"][0] is None
    if gone["table"]["absent"][1] > 0.3:  # too soon: refused, nothing changes
        ann.send({"v": 1, "type": "claim"})
        assert ann.until(lambda m: m["type"] == "error")["code"] == "not_now"
    ann.until(lambda m: m["type"] == "state" and m["table"]["absent"][1] == 0)
    ann.send({"v": 1, "type": "claim"})
    end = ann.until(_over)["table"]
    assert end["forfeit"] == {"seat": 1, "how": "absent"} and end["winner"] == 0
    assert own.get(f"/api/games/{table}/record")["forfeit"]["how"] == "absent"
    expected = openskill_after([["Cla"], ["Clb"]], [1, 2])
    [rating] = own.get("/api/profile/Clb")["ratings"]
    assert (rating["mu"], rating["sigma"]) == pytest.approx(expected["Clb"])


def test_coming_back_clears_the_absence(own: Server) -> None:
    table, (ann, ben) = _table(own, "draw", ["Cba", "Cbb"], rated=True)
    ben.close()
    ann.until(lambda m: m["type"] == "state" and m["table"]["absent"][1] is not None)
    back = own.socket(table, TOKENS[(table, 1)])  # with the token his browser kept
    assert back.until(lambda m: m["type"] == "state")["you"] == 1
    seen = ann.until(lambda m: m["type"] == "state" and m["table"]["absent"][1] is None)
    assert seen["table"]["seats"][1]["connected"]


def test_a_casual_table_does_not_take_claims(own: Server) -> None:
    _, (ann, ben) = _table(own, "draw", ["Cca", "Ccb"])
    ben.close()
    ann.until(lambda m: m["type"] == "state" and m["table"]["absent"][1] is not None)
    ann.send({"v": 1, "type": "claim"})
    error = ann.until(lambda m: m["type"] == "error")
    assert error["code"] == "not_now" and "rated" in error["message"]


def test_the_pause_between_rounds_has_a_clock(own: Server) -> None:
    """Nobody says ready after the first round: the second begins by itself once the
    pause (two seconds here) is over, and the table said how long it had left."""
    _, (ann, ben) = _table(own, "block", ["Bta", "Btb"], options={"target": 150})

    def first_round_over(m: Message) -> bool:
        return m["type"] == "state" and m["table"]["status"] in ("between", "over")

    answered: dict[int, int] = {}
    rng = random.Random(4)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not any(first_round_over(m) for m in ann.received):
        step([ann, ben], answered, rng)
    paused = next(m for m in ann.received if first_round_over(m))
    if paused["table"]["status"] == "over":
        pytest.fail("the first round reached 150")
    assert 0 <= paused["table"]["between_left"] <= 2
    again = ann.until(lambda m: m["type"] == "state" and m["table"]["round"] == 1
                      and m["table"]["status"] == "playing", timeout=30)
    assert again["table"]["ready"] == []


def test_a_bot_standing_in_on_time_is_told_to_everyone(server: Server) -> None:
    """At a casual table with a one-second clock and no bank, Ann does not move: a bot
    moves for her, and both see the move marked as made for her on time."""
    tag = random.randrange(10**6)
    _, (ann, ben) = _table(server, "draw", [f"Ot{tag}a", f"Ot{tag}b"], clock=1.0, bank=0.0)
    for client in (ann, ben):
        told = client.until(lambda m: m["type"] == "state" and any(
            a.get("by") == "clock" for a in m["actions"]), timeout=60)
        assert told["table"]["status"] in ("playing", "between", "over")


def test_a_rated_clock_has_least_values(server: Server) -> None:
    account = server.account(f"Lv{random.randrange(10**6)}")
    two = [{"kind": "human", "me": True}, {"kind": "human"}]
    for clock, bank, words in ((0.5, 120, "5 s a move"), (15, 0, "30 s at least")):
        refused = account.post("/api/tables", json={"variant": "draw", "seats": two,
                                                     "rated": True, "clock": clock,
                                                     "bank": bank})
        assert refused.status_code == 422 and words in refused.text

"""Who is here, in the lobby: how many people have bones open, how many play each game,
and who (name, rating, playing or not, a public table to watch), pushed as they come,
sit down and go; over several processes, as one site."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bones.server.meeting.lobby import Lobby
from bones.server.meeting.presence import Presence, Someone
from bones.server.people.chat import Chat
from bones.server.people.ratings import Ratings
from bones.server.protocol import TableInfo
from bones.server.sockets.allowance import Allowance
from bones.server.store.records import Store
from tests.server.fakes import Reader, in_a_thread
from tests.server.live import Client, Message, Server, both_move, sqlite_url


def _people(message: Message) -> dict[str, dict[str, Any]]:
    return {h["name"]: h for h in message["people"]}


def _lobby_where(lobby: Client, done: Callable[[Message], bool]) -> Message:
    try:
        return lobby.until(lambda m: m["type"] == "lobby" and done(m), timeout=30)
    except TimeoutError:
        last = [m for m in lobby.received if m["type"] == "lobby"][-1:]
        raise AssertionError(f"the lobby last said {last}") from None


def test_the_lobby_shows_who_is_here_and_what_they_play(server: Server) -> None:
    tag = random.randrange(10**6)
    ann, ben, cid, dot = (f"Here{tag}{n}" for n in ("a", "b", "c", "d"))
    lobby = server.lobby(server.account(ann))
    seen = _lobby_where(lobby, lambda m: ann in _people(m))
    assert not _people(seen)[ann]["playing"] and seen["online"] >= 1
    public = server.create("draw", [{"kind": "human", "me": True}, {"kind": "human"}],
                           public=True, client=server.account(ben))
    joined = server.join(public["table"]["id"], None, client=server.account(cid))
    private = server.create("kozel", [{"kind": "human", "me": True}] + [
        {"kind": "bot", "level": "easy"}] * 3, client=server.account(dot))
    seats = [server.socket(public["table"]["id"], public["token"]),
             server.socket(public["table"]["id"], joined["token"])]
    both_move(*seats)
    kozel = server.socket(private["table"]["id"], private["token"])
    seen = _lobby_where(lobby, lambda m: all(_people(m).get(n, {}).get("playing")
                                             for n in (ben, cid, dot)))
    people = _people(seen)
    assert people[ben]["table"] == people[cid]["table"] == public["table"]["id"]
    assert people[ben]["variant"] == "draw" and people[ben]["players"] == 2
    assert people[dot]["table"] is None and people[dot]["variant"] == "kozel"  # private
    assert seen["playing_by_game"]["draw"] >= 2 and seen["playing_by_game"]["kozel"] >= 1
    assert seen["online"] >= 4
    names = [h["name"] for h in seen["people"]]
    playing = [h["playing"] for h in seen["people"]]
    assert playing == sorted(playing, reverse=True), "those playing come first"
    assert names.index(ann) > names.index(dot)
    kozel.close()
    gone = _lobby_where(lobby, lambda m: dot not in _people(m))
    assert ben in _people(gone)
    for socket in seats:
        socket.close()


def test_who_is_here_at_one_process_is_seen_at_every_other(site: list[Server]) -> None:
    first, second = site[0], site[1]
    tag = random.randrange(10**6)
    eve, fay = f"Site{tag}e", f"Site{tag}f"
    lobby = second.lobby(second.account(eve))
    made = first.create("block", [{"kind": "human", "me": True},
                                  {"kind": "bot", "level": "easy"}],
                        public=True, client=first.account(fay))
    seat = first.socket(made["table"]["id"], made["token"])
    seen = _lobby_where(lobby, lambda m: _people(m).get(fay, {}).get("playing", False))
    assert _people(seen)[fay]["table"] == made["table"]["id"] and eve in _people(seen)
    seat.close()
    _lobby_where(lobby, lambda m: fay not in _people(m))


def test_a_lobby_opened_while_who_is_here_changes_is_told_the_change(tmp_path: Path) -> None:
    """Who is here changed while a new lobby socket's first list was on its way, and the
    push of the change went to the sockets already there: the newcomer is pushed the
    change after its first list, never left on the list it was sent (it once stayed at
    "0 players online" while its own player was here)."""
    presence = Presence(list)
    engine = Store(sqlite_url(tmp_path / "lobby.db")).engine

    async def no_tables(limit: int, offset: int) -> list[TableInfo]:
        return []

    lobby = Lobby(no_tables, Ratings(engine), chat=Chat(engine), blocks=None,  # type: ignore[arg-type]
                  allowance=Allowance(10, 30, 50, 64), presence=presence)

    class Slow(Reader):
        """A client whose first list is slow to go out: Ann comes meanwhile."""

        async def send_text(self, data: str) -> None:
            if not self.sent:
                presence.everyone = [Someone("Ann")]
                lobby.changed()
                await asyncio.sleep(0.2)  # the push goes out meanwhile
            await super().send_text(data)

    async def run() -> list[dict[str, Any]]:
        lobby.start()
        reader = Slow()
        serving = asyncio.create_task(lobby.serve(reader, "127.0.0.1"))
        for _ in range(40):
            await asyncio.sleep(0.05)
            if reader.sent and reader.sent[-1]["online"]:
                break
        await reader.close()
        await serving
        lobby.close()
        return reader.sent

    sent = in_a_thread(run(), timeout=30)
    assert sent[0]["online"] == 0
    assert sent[-1]["online"] == 1, "the newcomer was never told who came"

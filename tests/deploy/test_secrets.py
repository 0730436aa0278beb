"""No secret in a URL: a seat's token and an invite's secret travel in the WebSocket's
subprotocol header, which no proxy logs, and the shipped nginx writes the sockets' lines
without their query (where a program written for an older bones still sends them: that
works for a release, logged as deprecated). The test greps nginx's logs for the secrets
it used."""

from __future__ import annotations

from pathlib import Path

import httpx

from tests.deploy.proxy import first_message, proxied


def test_no_secret_reaches_the_proxy_s_logs(tmp_path: Path) -> None:
    with proxied(tmp_path, {}) as site:
        client = httpx.Client(base_url=site.url, verify=False)
        made = client.post("/api/tables", json={"variant": "draw", "seats": [
            {"kind": "human", "name": "Ann"}, {"kind": "human"}]})
        assert made.status_code == 201, made.text
        table, token = made.json()["table"]["id"], made.json()["token"]
        invite = made.json()["invite"].split("#invite=")[1]
        url = f"{site.url.replace('https://', 'wss://')}/ws/{table}"

        def first(sent: tuple[str, ...], query: str = "") -> tuple[str | None, object]:
            subprotocol, state, _ = first_message(url + query, sent)
            return subprotocol, state["you"]

        assert first(("bones", f"bones.token.{token}")) == ("bones", 0)  # the seat's
        assert first(("bones", f"bones.invite.{invite}")) == ("bones", None)  # watching
        assert first((), f"?token={token}") == (None, 0)  # as an older program does
    logged = (tmp_path / "access.log").read_text() + (tmp_path / "error.log").read_text()
    assert f"GET /ws/{table}" in logged
    assert token not in logged and invite not in logged

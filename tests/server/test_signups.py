"""Sign-up modes: open (the default), by invitation (``bones admin invite`` prints links,
each signs up one account) or closed; guests play in every mode."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from bones.server.people.accounts import Accounts, SignupsClosed
from bones.server.store.records import Store
from tests.server.live import Server, admin, sqlite_url

ANN = {"name": "Ann", "password": "correct horse"}


def test_sign_ups_by_invitation_take_one_account_each(tmp_path: Path) -> None:
    site = Server(sqlite_url(tmp_path / "invite.db"), extra=["--signups=invite"]).start()
    try:
        assert httpx.get(f"{site.url}/api/site").json()["signups"] == "invite"
        refused = httpx.post(f"{site.url}/api/signup", json=ANN)
        assert refused.status_code == 403 and refused.json()["code"] == "invite_needed"
        links = admin(site.db, "invite", "--count", "2", "--site", site.url).split()
        assert len(links) == 2 and all(link.startswith(f"{site.url}/account#invite=")
                                      for link in links)
        token = links[0].split("#invite=")[1]
        made = httpx.post(f"{site.url}/api/signup", json={**ANN, "invite": token})
        assert made.status_code == 201 and made.json()["name"] == "Ann"
        again = httpx.post(f"{site.url}/api/signup", json={
            "name": "Bo", "password": "correct horse", "invite": token})
        assert again.status_code == 403 and again.json()["code"] == "invite_needed"
        assert httpx.post(f"{site.url}/api/guest").status_code == 200  # guests play
        assert " invite " in admin(site.db, "audit")
    finally:
        site.stop()


def test_closed_sign_ups_refuse_everyone_before_reading_the_name() -> None:
    accounts = Accounts(Store("sqlite://").engine, signups="closed")
    guest, session = accounts.guest()
    with pytest.raises(SignupsClosed, match="closed"):
        accounts.sign_up("Ann", "correct horse", session)
    with pytest.raises(SignupsClosed):
        accounts.sign_up(guest.name, "correct horse")  # a taken name: the same refusal

"""Provably fair deals: the commitment binds every deal, and a record whose deals or
secret were changed fails verification with a message that says what is wrong."""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import chisquare

from bones import Match, Rules
from bones.cli import main
from bones.fair import FairDeck, FairnessError, verify


def _game(variant: str, seed: int) -> tuple[FairDeck, dict[str, Any]]:
    deck = FairDeck(seed.to_bytes(32, "big"), bytes(16))
    rules = Rules.preset(variant, target=50)
    match = Match.from_deals(rules, deck.deals(rules))
    while not match.is_over:
        match.push(match.round.legal_moves()[0])
    return deck, {**match.record(), "fair": deck.reveal()}


@pytest.mark.parametrize("variant", ["draw", "block", "kozel", "allfives"])
def test_a_fair_game_verifies(variant: str) -> None:
    deck, record = _game(variant, 3)
    assert "ones committed to" in verify(record, deck.commitment)
    assert Match.from_record(record).is_over


def test_orders_are_uniform() -> None:
    """Where each tile lands, over 2,800 deals: no position favours any tile."""
    deck = FairDeck(bytes(range(32)), bytes(16))
    first = Counter(deck.order(n)[0] for n in range(2800))
    assert sorted(first) == list(range(28))
    assert chisquare([first[t] for t in range(28)]).pvalue > 0.001
    assert all(sorted(deck.order(n)) == list(range(28)) for n in range(50))


def test_the_commitment_is_bound_to_the_seed_and_salt() -> None:
    one = FairDeck(bytes(32), bytes(16))
    assert one.commitment != FairDeck(bytes(31) + b"\x01", bytes(16)).commitment
    assert one.commitment != FairDeck(bytes(32), bytes(15) + b"\x01").commitment
    assert FairDeck.from_dict(one.to_dict()).commitment == one.commitment


def _tampered(record: dict[str, Any], how: str) -> dict[str, Any]:
    bad = copy.deepcopy(record)
    if how == "deal":
        hands = bad["deals"][0]["hands"]
        hands[0][0], hands[1][0] = hands[1][0], hands[0][0]
    elif how == "seed":
        bad["fair"]["seed"] = "00" * 31 + "ff"
    elif how == "commitment":
        bad["fair"]["commitment"] = "0" * 64
    elif how == "missing":
        del bad["fair"]
    elif how == "algorithm":
        bad["fair"]["algorithm"] = "trust-me"
    return bad


@pytest.mark.parametrize(("how", "message"), [
    ("deal", "deal 1 is not the deal that was committed to"),
    ("seed", "do not give the record's commitment"),
    ("commitment", "do not give the record's commitment"),
    ("missing", "no fair-deal commitment"),
    ("algorithm", "unknown fair-deal algorithm"),
])
def test_a_tampered_record_fails(how: str, message: str) -> None:
    _, record = _game("draw", 5)
    with pytest.raises(FairnessError, match=message):
        verify(_tampered(record, how))


def test_a_commitment_other_than_the_one_shown_fails() -> None:
    _, record = _game("kozel", 6)
    with pytest.raises(FairnessError, match="not the one shown before the game"):
        verify(record, FairDeck(bytes(32), bytes(16)).commitment)


def test_bones_verify(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    deck, record = _game("allfives", 7)
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(json.dumps(record))
    bad.write_text(json.dumps(_tampered(record, "deal")))
    assert main(["verify", str(good), "--commitment", deck.commitment]) == 0
    assert "ones committed to" in capsys.readouterr().out
    assert main(["verify", str(bad)]) == 2
    assert "NOT fair: deal 1 is not the deal" in capsys.readouterr().err

"""The REST API against its own OpenAPI schema (schemathesis)."""

from __future__ import annotations

import re
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis.checks import positive_data_acceptance

schema = schemathesis.pytest.from_fixture("api_schema")

CROSS_FIELD = {("POST", "/api/tables"), ("POST", "/api/analysis"), ("POST", "/api/seek")}
"""Bodies whose validity the schema cannot state: a table's seats must number the
players, and a variant allows only some player counts and options (RULES.md), as a
seek's game does; a record must replay move by move. The answer to such a body (422 or
400) says why, and is still checked against the schema."""


@pytest.fixture(autouse=True)
def regexes_built_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each strategy for a pattern, built once for the whole test.

    A name's pattern excludes every invisible character, the private-use planes among
    them, and Hypothesis builds a character class one character at a time: some 400,000
    for a name, seconds a build. Schemathesis asks for a pattern's strategy again for
    each operation and phase, with a new but equal alphabet (so Hypothesis' own cache,
    by identity, misses), and filters it (and a filtered lazy strategy is built again
    from its arguments, so the cached one is handed out deferred, which a filter wraps).
    Measured with the CI profile: 98 s before, 75 s after; what is still built again
    are patterns that differ in the lengths Schemathesis folds into them."""
    build = st.from_regex
    built: dict[tuple[Any, ...], st.SearchStrategy[Any]] = {}

    def from_regex(regex: str | re.Pattern[str], *, fullmatch: bool = False,
                   alphabet: Any = None) -> st.SearchStrategy[Any]:
        pattern = re.compile(regex)
        key = (pattern.pattern, pattern.flags, fullmatch, repr(alphabet))
        if key not in built:
            lazy = build(pattern, fullmatch=fullmatch, alphabet=alphabet)
            built[key] = st.deferred(lambda: lazy)
        return built[key]

    monkeypatch.setattr(st, "from_regex", from_regex)


@schema.parametrize()
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_keeps_its_schema(case: schemathesis.Case) -> None:
    """No server error; every status, header and body as the schema says."""
    cross = (case.method.upper(), case.path) in CROSS_FIELD
    case.call_and_validate(excluded_checks=[positive_data_acceptance] if cross else None)

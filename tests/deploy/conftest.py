"""The server tests' fixture of a PostgreSQL a test may stop, for the alerts' test."""

from tests.server.conftest import postgres

__all__ = ["postgres"]

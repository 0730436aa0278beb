"""The bones game server: tables, seats and bots over WebSockets, with a durable log.

Start it with ``bones serve`` (http://127.0.0.1:8000 by default) or build the app with
:func:`create_app` for any ASGI server. The messages are in ``docs/protocol.md``.
"""

from bones.server.edge.app import DEFAULT_DB, create_app
from bones.server.store.records import Store
from bones.server.tables.hub import Hub, Settings
from bones.server.tables.seats import Seat, TableError
from bones.server.tables.table import Table

__all__ = ["DEFAULT_DB", "Hub", "Seat", "Settings", "Store", "Table", "TableError", "create_app"]

"""The store's migrations (Alembic), applied by :func:`bones.server.store.migrate.upgrade`."""

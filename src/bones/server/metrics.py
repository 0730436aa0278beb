"""What an operator watches, in Prometheus' format at ``/metrics``: how long a human's
move takes to reach everyone, store writes and the store's failures, the bots' thinking,
how many decisions wait and how many workers take them, whether the server is ready,
how many tables, sockets and analyses there are, and the process's memory and CPU
(``process_*``). ``deploy/prometheus`` alerts on them; ``deploy/grafana`` draws them.

Each server has a registry of its own, so that several apps in one process (tests) do
not share their figures.

>>> metrics = Metrics()
>>> metrics.move.observe(0.004)
>>> b"bones_move_seconds_count 1.0" in metrics.text()
True
"""

from __future__ import annotations

from collections.abc import Callable

from prometheus_client import (
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    ProcessCollector,
    generate_latest,
)

__all__ = ["CONTENT_TYPE", "Metrics"]

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
FAST = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0)
SLOW = (0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0)


class Metrics:
    """The server's instruments; ``watch`` adds a gauge read when it is scraped."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.move = Histogram("bones_move_seconds", "A human's move, from reading it to "
                              "sending every seat the result", buckets=FAST,
                              registry=self.registry)
        self.write = Histogram("bones_store_write_seconds", "One write to the store",
                               buckets=FAST, registry=self.registry)
        self.think = Histogram("bones_bot_think_seconds", "A bot's decision or a hint, "
                               "waiting for a worker included", ["level"], buckets=SLOW,
                               registry=self.registry)
        self.lag = Histogram("bones_loop_lag_seconds", "How late the event loop wakes a "
                             "task that slept a tenth of a second (time nothing else ran)",
                             buckets=FAST, registry=self.registry)
        self.thinking = Gauge("bones_bot_jobs", "Bot decisions and hints asked for and not "
                              "yet answered (running or queued)", registry=self.registry)
        self.store_errors = Counter("bones_store_errors", "Reads and writes the store "
                                    "failed (each failed write is refused to its player)",
                                    registry=self.registry)
        self.wave = Histogram("bones_tournament_wave_seconds", "One look at a tournament "
                              "that seated tables: its standings, its pairing and every "
                              "table made", buckets=SLOW, registry=self.registry)
        self.seated = Counter("bones_tournament_tables", "Tables a tournament's pairing "
                              "made", registry=self.registry)
        self.page = Histogram("bones_tournament_page_seconds", "A tournament's page made "
                              "(its standings and rounds, read from the store)",
                              buckets=FAST + SLOW[6:], registry=self.registry)
        ProcessCollector(registry=self.registry)

    def watch(self, name: str, text: str, read: Callable[[], float]) -> None:
        Gauge(name, text, registry=self.registry).set_function(read)

    def text(self) -> bytes:
        return generate_latest(self.registry)

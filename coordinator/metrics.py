"""Prometheus metrics of the coordinator: requests, latency per stage and modality, partial answers, retries."""

from __future__ import annotations

from prometheus_client import Counter, Histogram, start_http_server

__all__ = ["OVERLOADED", "PARTIAL", "REQUESTS", "RETRIES", "STAGE_SECONDS", "observe", "serve"]

_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

REQUESTS = Counter(
    "fourfold_search_requests_total",
    "Search requests by intent, strategy and outcome",
    ["intent", "strategy", "outcome"],
)
STAGE_SECONDS = Histogram(
    "fourfold_search_stage_seconds",
    "Search latency per stage (classify, fanout, fuse, total, modality:<name>)",
    ["stage"],
    buckets=_BUCKETS,
)
PARTIAL = Counter("fourfold_search_partial_total", "Answers with at least one missing shard")
RETRIES = Counter("fourfold_shard_retries_total", "Shard calls retried on another replica or address")
OVERLOADED = Counter(
    "fourfold_search_overloaded_total", "Searches refused with RESOURCE_EXHAUSTED because too many were in flight"
)


def observe(intent: str, strategy: str, timings_ms: dict[str, float], partial: bool) -> None:
    REQUESTS.labels(intent, strategy, "ok").inc()
    for stage, ms in timings_ms.items():
        STAGE_SECONDS.labels(stage).observe(ms / 1000.0)
    if partial:
        PARTIAL.inc()


def serve(port: int) -> None:
    """Serve /metrics on ``port`` (all interfaces) from a background thread."""
    start_http_server(port)

"""The gRPC options every fourfold server starts with: calls over capacity are refused in words.

gRPC's server holds the calls that have arrived but that Python has not yet taken up to
``grpc.server.max_pending_requests`` (1,000 by default); past that it cancels arriving calls at
random, more of them the nearer the queue is to its hard limit (3,000), and the caller hears a bare
``CANCELLED`` with no reason and no advice. One connection's burst of 1,200 searches lost 7 to 9 of
them so on a 2-core machine. A coordinator refuses what it cannot finish in time itself, with
``RESOURCE_EXHAUSTED`` and how long to wait (``coordinator.admission``), and a worker's shard call
is retried elsewhere or named missing; both need the calls to reach Python. The queue may hold
``PENDING_CALLS`` (a few kilobytes each) before gRPC's random refusals begin, and
``PENDING_CALLS_HARD`` before every arriving call is refused.
"""

from __future__ import annotations

__all__ = ["PENDING_CALLS", "PENDING_CALLS_HARD", "server_options"]

#: Calls waiting for Python before gRPC starts to cancel arriving ones at random.
PENDING_CALLS = 10_000
#: Calls waiting for Python past which gRPC cancels every arriving one.
PENDING_CALLS_HARD = 20_000


def server_options(*extra: tuple[str, int]) -> list[tuple[str, int]]:
    """Options for ``grpc.aio.server``: no port sharing, the pending-call limits, then ``extra``."""
    return [
        ("grpc.so_reuseport", 0),
        ("grpc.server.max_pending_requests", PENDING_CALLS),
        ("grpc.server.max_pending_requests_hard_limit", PENDING_CALLS_HARD),
        *extra,
    ]

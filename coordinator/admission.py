"""Admission control: a search is admitted only if it can finish before its deadline.

A fixed in-flight limit far above what the machine serves lets a burst in whole, and every
admitted search then shares the CPUs until each misses its deadline (100 simultaneous searches:
11 complete, 89 partial, p50 5.3 s). Instead the coordinator measures what it serves and refuses
at once what it could not finish in time:

* Throughput, by Little's law: ``X = mean concurrency / mean latency`` over completed searches
  (each search's mean concurrency is the time-average of the searches in flight while it ran),
  both smoothed exponentially, so a burst's own slowdown is measured as it happens.
* A new search is predicted to take ``(in_flight + 1) / X`` (processor sharing: the searches in
  flight and it finish about together). It is admitted when that fits in ``budget_fraction`` of
  its deadline, refused otherwise with RESOURCE_EXHAUSTED and a retry-after hint.
* ``min_in_flight`` searches are always admitted (a light load never waits on a stale estimate);
  before the first measurement at most ``initial_limit`` run at once; ``max_in_flight`` caps all.
* Fair among callers: what fits in the budget is shared by the callers with searches in flight
  (each token is one). A caller below its share is admitted where the estimate alone would refuse
  it, as long as the prediction still fits in the whole deadline (the slack the budget keeps), so
  an agent that floods the coordinator is refused and one that asks now and then is not, and a
  thousand callers with one search each are not all admitted; a coordinator without tokens has one
  caller, and the rule above alone.

One instance per coordinator, used from its event loop (no lock).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Admission", "AdmissionPolicy", "Refusal", "Ticket"]


@dataclass(frozen=True, slots=True)
class AdmissionPolicy:
    """Limits of :class:`Admission` (the defaults suit a coordinator in front of a few cores of workers)."""

    max_in_flight: int = 256
    min_in_flight: int = 4
    initial_limit: int = 16
    budget_fraction: float = 0.5  # of a search's deadline its predicted time may take
    smoothing: float = 0.2  # weight of the newest completion in the running means
    adaptive: bool = True  # False: only max_in_flight (the behaviour before admission control)


@dataclass(frozen=True, slots=True)
class Ticket:
    """An admitted search: when it started, the in-flight integral then (to measure its concurrency),
    and whose it is."""

    started: float
    area: float
    caller: str = ""


@dataclass(frozen=True, slots=True)
class Refusal:
    """A refused search: why, and how long to wait before retrying."""

    reason: str
    retry_after_s: float

    def message(self) -> str:
        return f"coordinator overloaded: {self.reason}; retry after {self.retry_after_s:.1f}s, or add coordinators"


class Admission:
    """Admits or refuses searches from measured throughput and each search's deadline."""

    def __init__(self, policy: AdmissionPolicy | None = None, clock: Callable[[], float] = time.monotonic) -> None:
        self.policy = policy or AdmissionPolicy()
        self._clock = clock
        self.in_flight = 0
        self._callers: dict[str, int] = {}  # searches in flight of each caller that has any
        self._area = 0.0  # integral of in_flight over time
        self._last = clock()
        self._concurrency: float | None = None  # smoothed mean concurrency of completed searches
        self._latency: float | None = None  # smoothed latency of completed searches (seconds)

    @property
    def throughput(self) -> float | None:
        """Searches per second this coordinator completes (None before the first completion)."""
        if self._concurrency is None or not self._latency:
            return None
        return self._concurrency / self._latency

    @property
    def latency_s(self) -> float | None:
        """How long a search takes now: the smoothed latency of completed ones (None before the first)."""
        return self._latency

    def predicted_s(self) -> float | None:
        """How long a search admitted now would take (None before the first measurement)."""
        rate = self.throughput
        return None if rate is None else (self.in_flight + 1) / rate

    def _advance(self, now: float) -> None:
        self._area += self.in_flight * (now - self._last)
        self._last = now

    def share(self, caller: str, fits: int) -> int:
        """How many of the ``fits`` searches that fit in a budget are ``caller``'s share: an equal part
        of them for each caller with searches in flight, itself counted, at least one."""
        callers = len(self._callers) + (caller not in self._callers)
        return max(1, fits // callers)

    def admit(self, deadline_s: float, caller: str = "") -> Ticket | Refusal:
        """A ticket for ``caller``'s search due within ``deadline_s``, or why it is refused."""
        p = self.policy
        now = self._clock()
        if self.in_flight >= p.max_in_flight:
            return Refusal(f"{self.in_flight} searches in flight, the limit is {p.max_in_flight}", 1.0)
        if p.adaptive and self.in_flight >= p.min_in_flight:
            predicted = self.predicted_s()
            rate = self.throughput
            if predicted is None or rate is None:
                if self.in_flight >= p.initial_limit:
                    return Refusal(f"{self.in_flight} searches in flight before any finished", 0.5)
            elif predicted > p.budget_fraction * deadline_s:
                fits = max(int(p.budget_fraction * deadline_s * rate) - 1, 0)
                mine = self._callers.get(caller, 0)
                if mine >= self.share(caller, fits) or predicted > deadline_s:
                    # until enough of those in flight are done for a new one to fit in its budget
                    wait = max((self.in_flight - fits) / rate, 0.05)
                    return Refusal(
                        f"{self.in_flight} searches in flight at {rate:.1f}/s would take {predicted:.1f}s "
                        f"of a {deadline_s:.1f}s deadline",
                        wait,
                    )
        self._advance(now)
        self.in_flight += 1
        self._callers[caller] = self._callers.get(caller, 0) + 1
        return Ticket(now, self._area, caller)

    def release(self, ticket: Ticket) -> None:
        """Record a finished (or failed) admitted search."""
        now = self._clock()
        self._advance(now)
        self.in_flight -= 1
        left = self._callers.get(ticket.caller, 0) - 1
        if left > 0:
            self._callers[ticket.caller] = left
        else:
            self._callers.pop(ticket.caller, None)
        latency = now - ticket.started
        if latency <= 0:
            return
        concurrency = max((self._area - ticket.area) / latency, 1.0)
        a = self.policy.smoothing
        self._concurrency = concurrency if self._concurrency is None else (1 - a) * self._concurrency + a * concurrency
        self._latency = latency if self._latency is None else (1 - a) * self._latency + a * latency

"""Progress inside an index build's stages: counts, rate and ETA, for people watching a long build.

A build reports ``report(IndexProgress(stage, done, total, message, unit, repo))`` (files segmented,
shards built); inside a shard, a modality reports ``progress(unit, done, total)`` through
``BuildContext.progress`` (windows embedded). :func:`with_rates` adds the rate and the time left to
every report of a stage (as fields and in the text), and :func:`shard_progress` turns a modality's
reports into the build's, throttled so that a fast modality does not flood a terminal or a gRPC stream.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from fourfold.api import IndexProgress
from fourfold.plugins.modality import BuildProgress

__all__ = [
    "BUILDING_FILE",
    "Progress",
    "ProgressFile",
    "StageClock",
    "eta_text",
    "read_building",
    "shard_progress",
    "tee",
    "with_rates",
]

#: ``report(IndexProgress(...))``: hears each report of a build or a sync.
Progress = Callable[[IndexProgress], None]

#: A shard's reports reach the build at most this often (the first and the last always do).
SHARD_REPORT_INTERVAL_S = 0.5


def eta_text(seconds: float) -> str:
    """``0:42``, ``12:05``, ``1:02:03``."""
    s = max(round(seconds), 0)
    h, rest = divmod(s, 3600)
    m, s = divmod(rest, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


@dataclass
class _Meter:
    """Rate of one (stage, unit, repository, shard): measured from its first report on."""

    started: float = 0.0
    first_done: int = 0
    last_total: int = 0

    def rate(self, now: float, done: int) -> float | None:
        elapsed = now - self.started
        if done <= self.first_done or elapsed <= 0.2:
            return None
        return (done - self.first_done) / elapsed


def with_rates(report: Progress, clock: Callable[[], float] = time.monotonic) -> Progress:
    """``report`` with each report's ``rate`` and ``eta_s`` set once a rate is known, and
    `` · N/s · ETA m:ss`` added to its message.

    The rate is measured per (stage, unit, repository, shard) from its first report (shards built
    side by side each have their own); a new ``total`` starts the measurement again.
    """
    meters: dict[tuple[str, str, str, str], _Meter] = {}

    def rated(update: IndexProgress) -> None:
        now = clock()
        done, total = update.done, update.total
        key = (update.stage, update.unit, update.repo, update.shard)
        meter = meters.get(key)
        if meter is None or meter.last_total != total or done < meter.first_done:
            meter = meters[key] = _Meter(now, done, total)
        rate = meter.rate(now, done)
        if rate is None or rate <= 0:
            report(update)
            return
        extra = f" · {rate:,.1f}/s" if rate < 10 else f" · {rate:,.0f}/s"
        eta = max(total - done, 0) / rate if total > 0 else None
        if eta is not None and eta > 0:
            extra += f" · ETA {eta_text(eta)}"
        report(replace(update, rate=rate, eta_s=eta, message=update.message + extra))

    return rated


def shard_progress(
    report: Progress,
    stage: str,
    label: str,
    interval: float = SHARD_REPORT_INTERVAL_S,
    clock: Callable[[], float] = time.monotonic,
    *,
    shard: str = "",
    repo: str = "",
) -> BuildProgress:
    """A ``BuildContext.progress`` for one shard: ``label: done/total unit`` reported as ``stage``,
    about ``shard`` (``modality/shard``) and ``repo`` (when the shard holds one repository)."""
    last = [float("-inf")]

    def progress(unit: str, done: int, total: int, /) -> None:
        now = clock()
        if done not in (0, total) and now - last[0] < interval:
            return
        last[0] = now
        message = f"{label}: {done:,}/{total:,} {unit}"
        report(IndexProgress(stage, done, total, message, unit=unit, repo=repo, shard=shard))

    return progress


#: Where a running build writes its latest progress, in the store's folder (read by ``fourfold status``).
BUILDING_FILE = "building.json"


class ProgressFile:
    """A ``Progress`` that keeps ``path`` holding the latest report as JSON (a new stage at once,
    then at most once a second; written atomically), with the building process's id, so that
    ``status`` from any process can show a build in progress; :meth:`close` removes it."""

    def __init__(self, path: Path, generation: str = "", interval: float = 1.0) -> None:
        self.path = path
        self.generation = generation
        self.interval = interval
        self._last = float("-inf")
        self._stage = ""  # of the last report written

    def __call__(self, update: IndexProgress) -> None:
        now = time.monotonic()
        # a new stage is written at once; within one, at most once an interval (a fleet of unchanged
        # repositories reports one finished "segment" each: a file write apiece cost seconds)
        if now - self._last < self.interval and update.stage == self._stage:
            return
        self._last = now
        self._stage = update.stage
        record = {
            "pid": os.getpid(),
            "generation": self.generation,
            **asdict(update),
            "time": time.time(),
        }
        tmp = self.path.with_name(self.path.name + f".{os.getpid()}.tmp")
        try:
            tmp.write_text(json.dumps(record))
            tmp.replace(self.path)
        except OSError:
            pass  # progress is a courtesy: never fail a build over it

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()


def read_building(home: Path) -> dict[str, Any] | None:
    """The progress of a build running on this machine in the store at ``home``, or None."""
    try:
        record = json.loads((home / BUILDING_FILE).read_text())
        pid = int(record["pid"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return None  # a build that died: its file is stale
    except PermissionError:
        pass
    return dict(record)


class StageClock:
    """Where a build's time goes: wall and CPU seconds per stage (``segment``, ``centrality``,
    ``build:text``...), for ``IndexSummary.stages`` and the CLI's "time by stage" line.

    The time between two reports goes to the stage of the later one (the work that led to it);
    CPU is this process's (``time.process_time``): the segmenter's worker processes are not in it.
    """

    def __init__(self) -> None:
        self._last = (time.monotonic(), time.process_time())
        self.wall: dict[str, float] = {}
        self.cpu: dict[str, float] = {}

    def __call__(self, progress: IndexProgress) -> None:
        now, cpu = time.monotonic(), time.process_time()
        stage = progress.stage
        self.wall[stage] = self.wall.get(stage, 0.0) + now - self._last[0]
        self.cpu[stage] = self.cpu.get(stage, 0.0) + cpu - self._last[1]
        self._last = (now, cpu)

    def table(self) -> dict[str, dict[str, float]]:
        """Stage -> {"seconds", "cpu_seconds"}, the costliest first."""
        order = sorted(self.wall, key=lambda k: -self.wall[k])
        return {k: {"seconds": round(self.wall[k], 3), "cpu_seconds": round(self.cpu[k], 3)} for k in order}


def tee(*reports: Progress) -> Progress:
    """One ``Progress`` that tells each of ``reports``."""

    def both(update: IndexProgress) -> None:
        for report in reports:
            report(update)

    return both

"""Sync inside the coordinator: the fleet file on a schedule (``serve --sync-interval``) and on demand
(the admin ``Sync`` RPC, what a push webhook calls).

The sync itself (fetch, check out what moved) runs in a thread; its build goes through the engine's
``index`` on the event loop, so the workers roll to the new generation exactly as after an ``Index``
call. The fleet file is read again on every sync: an edit (a repository added, a label changed)
takes effect at the next one, and its labels become the ``group:`` grants.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from pathlib import Path

from fourfold.api import IndexProgress
from fourfold.coordinator.auth import set_groups
from fourfold.coordinator.engine import Engine
from fourfold.errors import FourfoldError, InvalidInput
from fourfold.index.fleet import load_fleet
from fourfold.index.generation import IndexSummary, RepoOptions
from fourfold.index.progress import Progress
from fourfold.index.sync import SyncReport, sync

__all__ = ["FleetSyncer", "parse_interval"]

log = logging.getLogger(__name__)
_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def parse_interval(text: str) -> float:
    """``10m``, ``90s``, ``1h``, ``300`` -> seconds (0: never)."""
    m = re.fullmatch(r"\s*([0-9]+(?:\.[0-9]+)?)\s*([smhd]?)\s*", text or "")
    if m is None:
        raise InvalidInput(f"invalid --sync-interval {text!r}: use a number with s, m, h or d (10m, 90s, 1h), or 0")
    return float(m.group(1)) * _UNITS[m.group(2)]


class FleetSyncer:
    """Runs ``fourfold.index.sync.sync`` for one coordinator, one sync at a time."""

    def __init__(self, engine: Engine, fleet_path: Path) -> None:
        self.engine = engine
        self.fleet_path = Path(fleet_path)
        self._lock = asyncio.Lock()
        self.last: SyncReport | None = None
        self.last_error = ""
        set_groups(load_fleet(self.fleet_path).groups())  # a bad fleet file stops the server from starting

    async def sync_now(self, only: Sequence[str] = (), progress: Progress | None = None) -> SyncReport:
        """Sync the fleet (``only`` these repositories when given); waits for a sync already running."""
        say: Progress = progress or (lambda update: None)
        loop = asyncio.get_running_loop()

        def build(adds: list[tuple[Path, str]], options: dict[str, RepoOptions]) -> IndexSummary:
            future = asyncio.run_coroutine_threadsafe(self.engine.index(list(adds), say, repo_options=options), loop)
            return future.result()

        def say_from_thread(update: IndexProgress) -> None:
            loop.call_soon_threadsafe(say, update)

        async with self._lock:
            fleet = load_fleet(self.fleet_path)
            set_groups(fleet.groups())
            report = await asyncio.to_thread(
                sync, self.engine.store, fleet, build, only=tuple(only), progress=say_from_thread
            )
            self.last = report
            return report

    async def run_forever(self, interval_s: float) -> None:
        """Sync now, then every ``interval_s`` seconds; a failed sync is logged and retried next time."""
        while True:
            try:
                report = await self.sync_now()
                self.last_error = ""
                if report.stale:
                    log.warning(
                        "sync: stale repositories: %s", ", ".join(f"{k} ({v})" for k, v in report.stale.items())
                    )
                if report.summary is not None:
                    log.info("sync: %s is live (moved: %s)", report.summary.generation, ", ".join(report.moved))
            except (FourfoldError, OSError) as exc:
                self.last_error = str(exc)
                log.warning("sync failed: %s", exc)
            await asyncio.sleep(interval_s)

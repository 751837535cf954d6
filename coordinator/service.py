"""The public gRPC service: thin — decode, call the engine, encode; domain errors become statuses.

Every method acts for the caller that :mod:`fourfold.coordinator.auth` authenticated: Search sees
only its repositories, Status shows only them (and no worker addresses unless it is an admin),
Index needs an admin token, ReadFile answers NOT_FOUND for a repository the caller may not read
exactly as for a missing file.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import grpc
import ray

from fourfold import __version__
from fourfold.api import DEFAULT_DEADLINE_MS, IndexProgress
from fourfold.connection import PUSHBACK_KEY, TIMEOUT_KEY, millis, read_millis
from fourfold.coordinator.admission import Admission, AdmissionPolicy, Refusal, Ticket
from fourfold.coordinator.auth import Limits, Principal, check_limits, current_principal
from fourfold.coordinator.engine import Engine, invalid_deadline
from fourfold.coordinator.fanout import ShardCallError
from fourfold.coordinator.files import read_file
from fourfold.coordinator.metrics import OVERLOADED
from fourfold.coordinator.syncer import FleetSyncer
from fourfold.errors import FourfoldError, InvalidInput, NotFound, PermissionDenied
from fourfold.index.fleet import revision_name, split_index_name
from fourfold.index.sync import fleet_state
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc
from fourfold.wire import answer_to_pb, file_to_pb, params_from_pb, progress_to_pb, summary_to_pb
from fourfold.workers.servicer import status_for

__all__ = ["DEFAULT_MAX_INFLIGHT", "NOTED_WAIT_S", "CoordinatorService", "waited_s"]

#: Most searches one coordinator runs at once; fewer are admitted when they could not finish in
#: time (see ``fourfold.coordinator.admission``); the rest are refused with RESOURCE_EXHAUSTED.
DEFAULT_MAX_INFLIGHT = 256

log = logging.getLogger(__name__)

#: Longest error message sent back: gRPC refuses trailers over 8 KiB, and a message that quotes a
#: 10,000-character query would turn a clear INVALID_ARGUMENT into an opaque RESOURCE_EXHAUSTED.
MAX_DETAILS_CHARS = 2_000


def bounded(message: str) -> str:
    """``message`` cut to :data:`MAX_DETAILS_CHARS`, saying how much was cut."""
    if len(message) <= MAX_DETAILS_CHARS:
        return message
    return f"{message[: MAX_DETAILS_CHARS - 40]}… ({len(message) - MAX_DETAILS_CHARS + 40} characters cut)"


#: A wait to be read at least this long is taken off the search's deadline and said in its notes
#: (a coordinator that keeps up reads a call within a millisecond or two).
NOTED_WAIT_S = 0.05


def waited_s(context: grpc.aio.ServicerContext) -> float:
    """Seconds a search waited between its arrival and now: the gRPC timeout it was sent with, as its
    :data:`~fourfold.connection.TIMEOUT_KEY` metadata says, less the time left of it (0 when the caller
    says no timeout: fourfold's clients say it, other callers' deadlines count from now)."""
    remaining = context.time_remaining()
    sent = next((value for key, value in context.invocation_metadata() or () if key == TIMEOUT_KEY), None)
    if sent is None or remaining is None:
        return 0.0
    said_ms = read_millis(sent)
    if said_ms is None:
        raise InvalidInput(
            f"metadata {TIMEOUT_KEY} must be the call's gRPC timeout in whole milliseconds, not {sent[:40]!r}: "
            "send the timeout you set, or leave the key out"
        )
    return max(0.0, said_ms / 1000 - remaining)


class CoordinatorService(coordinator_pb2_grpc.CoordinatorServicer):
    def __init__(
        self,
        engine: Engine,
        limits: Limits | None = None,
        max_inflight: int = DEFAULT_MAX_INFLIGHT,
        admission: AdmissionPolicy | None = None,
        syncer: FleetSyncer | None = None,
    ) -> None:
        self.engine = engine
        self.syncer = syncer
        self._commits: tuple[str, dict[str, str]] | None = None  # (generation, repository -> commit)
        self.limits = limits or Limits()
        # searches in progress on this coordinator, admitted only if they can finish in time
        self.admission = Admission(admission or AdmissionPolicy(max_in_flight=max_inflight))
        self._building: coordinator_pb2.IndexProgress | None = None  # the last progress of a running build

    async def Search(
        self, request: coordinator_pb2.SearchRequest, context: grpc.aio.ServicerContext
    ) -> coordinator_pb2.SearchResponse:
        principal = current_principal()
        deadline_s = (request.deadline_ms or DEFAULT_DEADLINE_MS) / 1000.0
        if deadline_s < 0:  # the caller's error, before admission reads it as no time left
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, invalid_deadline(request.deadline_ms))
        try:
            waited = waited_s(context)
        except InvalidInput as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, bounded(str(exc)))
            raise AssertionError("unreachable: abort raises") from None
        # the deadline counts from when the call arrived, not from when a busy coordinator read it
        left_s = deadline_s - waited
        remaining = context.time_remaining()
        if remaining is not None:
            left_s = min(left_s, remaining)
        if left_s <= 0:
            late = waited >= deadline_s
            ticket: Ticket | Refusal = Refusal(
                f"the search waited {waited:.1f}s to be read, past its {deadline_s:.1f}s deadline"
                if late
                else "the call's gRPC timeout ran out before it was read",
                max(waited, 0.1),
            )
        else:
            ticket = self.admission.admit(left_s, principal.name)
        if isinstance(ticket, Refusal):
            # Overload answers at once instead of queueing into every caller's deadline.
            OVERLOADED.inc()
            await context.abort(
                grpc.StatusCode.RESOURCE_EXHAUSTED,
                ticket.message(),
                trailing_metadata=(millis(PUSHBACK_KEY, ticket.retry_after_s),),
            )
            raise AssertionError("unreachable: abort raises")
        params = params_from_pb(request)
        if left_s < deadline_s - 0.001:  # a wait, or a gRPC timeout shorter than the deadline
            params = replace(params, deadline_ms=max(1, int(left_s * 1000)))
        try:
            check_limits(request.query, request.k, request.options, request.repos, request.path_glob, self.limits)
            answer = await self.engine.search(params, principal.readable(self.engine.registered_repos()))
        except FourfoldError as exc:
            await context.abort(status_for(exc), bounded(str(exc)))
        except ShardCallError as exc:
            await context.abort(exc.code, bounded(exc.details))
        finally:
            self.admission.release(ticket)
        response = answer_to_pb(answer)
        if waited >= NOTED_WAIT_S:
            response.notes.append(
                f"the search waited {waited:.2f}s to be read by a busy coordinator and was answered in the "
                f"{left_s:.2f}s left of its {deadline_s:.2f}s deadline"
            )
        self._stamp_revisions(response)
        return response

    def _stamp_revisions(self, response: coordinator_pb2.SearchResponse) -> None:
        """Each hit's revision (from its NAME@REVISION) and the commit its repository was indexed at."""
        generation = response.generation
        if self._commits is None or self._commits[0] != generation:
            repos = self.engine.store.reader(generation).manifest.get("repos", {}) if generation else {}
            self._commits = (generation, {name: str(r.get("commit", "")) for name, r in repos.items()})
        commits = self._commits[1]
        for hit in response.hits:
            hit.revision = split_index_name(hit.repo)[1] or ""
            hit.commit = commits.get(hit.repo, "")

    async def Index(
        self, request: coordinator_pb2.IndexRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[coordinator_pb2.IndexProgress]:
        principal = current_principal()
        if not principal.admin:
            denied = PermissionDenied(f"indexing needs an admin token; {principal.name!r} may only search")
            await context.abort(status_for(denied), str(denied))
        queue: asyncio.Queue[coordinator_pb2.IndexProgress] = asyncio.Queue()

        def progress(update: IndexProgress) -> None:
            msg = progress_to_pb(update)
            self._building = msg  # what `status` shows while the build runs
            queue.put_nowait(msg)

        add = [(Path(r.path), r.name or None) for r in request.repos]
        task = asyncio.ensure_future(self.engine.index(add, progress))
        task.add_done_callback(lambda _: setattr(self, "_building", None))  # even if this caller went away
        async for msg in _progress_until_done(task, queue):
            yield msg
        try:
            summary = task.result()
        except FourfoldError as exc:
            await context.abort(status_for(exc), str(exc))
            return
        yield coordinator_pb2.IndexProgress(
            stage="done", done=1, total=1, message=f"{summary.generation} is live", summary=summary_to_pb(summary)
        )

    async def Sync(
        self, request: coordinator_pb2.SyncRequest, context: grpc.aio.ServicerContext
    ) -> AsyncIterator[coordinator_pb2.IndexProgress]:
        principal = current_principal()
        if not principal.admin:
            denied = PermissionDenied(f"syncing needs an admin token; {principal.name!r} may only search")
            await context.abort(status_for(denied), str(denied))
        if self.syncer is None:
            missing = InvalidInput("this coordinator has no fleet file; start it with `fourfold serve --fleet FILE`")
            await context.abort(status_for(missing), str(missing))
            return
        queue: asyncio.Queue[coordinator_pb2.IndexProgress] = asyncio.Queue()

        def progress(update: IndexProgress) -> None:
            queue.put_nowait(progress_to_pb(update))

        task = asyncio.ensure_future(self.syncer.sync_now(list(request.repos), progress))
        async for msg in _progress_until_done(task, queue):
            yield msg
        try:
            report = task.result()
        except FourfoldError as exc:
            await context.abort(status_for(exc), str(exc))
            return
        stale = "; ".join(f"{k} STALE ({v})" for k, v in sorted(report.stale.items()))
        moved = ", ".join(sorted(report.moved)) or "nothing moved"
        live = report.summary.generation if report.summary else (self.engine.store.live_generation() or "none")
        yield coordinator_pb2.IndexProgress(
            stage="done",
            done=1,
            total=1,
            message=f"{moved}; {live} is live" + (f"; {stale}" if stale else ""),
            summary=summary_to_pb(report.summary) if report.summary else None,
        )

    async def Status(
        self, request: coordinator_pb2.StatusRequest, context: grpc.aio.ServicerContext
    ) -> coordinator_pb2.StatusResponse:
        principal = current_principal()
        store = self.engine.store
        # The generation searches are answered from, never one the store has but no worker serves yet.
        with contextlib.suppress(FourfoldError):
            await self.engine.current_generation()
        live = self.engine.served_generation
        repo_stats = store.reader(live).manifest.get("repos", {}) if live else {}
        registry = self.engine.endpoints  # None: the engine searches shards in its own process
        if registry is not None:
            await registry.refresh()
        shards = []
        health = await self._health()
        shown = self._visible_shards(principal, live)
        for ep in registry.all() if registry is not None else ():
            for shard in ep.shards:  # one row per shard, whichever worker group serves it
                if shown is not None and (ep.key.generation, ep.key.modality, shard) not in shown:
                    continue
                shards.append(
                    coordinator_pb2.ShardStatus(
                        modality=ep.key.modality,
                        shard=shard,
                        replica=ep.key.replica,
                        address=ep.address if principal.admin else "",
                        health=health.get(ep.address, "UNKNOWN"),
                        generation=ep.key.generation,
                        node_id=ep.node_id,
                    )
                )
        repos = [r for r in store.repos() if principal.may_read(r.name)]
        synced = fleet_state(store)["repos"]
        return coordinator_pb2.StatusResponse(
            generation=live or "",
            repos=[
                coordinator_pb2.RepoStatus(
                    name=r.name,
                    path=r.path if principal.admin else "",
                    files=repo_stats.get(r.name, {}).get("files", 0),
                    segments=repo_stats.get(r.name, {}).get("segments", 0),
                    **_sync_fields(synced, r.name, principal.admin),
                )
                for r in repos
            ],
            shards=shards,
            modalities=sorted(self.engine.plugins.modalities),
            version=__version__,
            nodes=sum(1 for n in ray.nodes() if n.get("Alive")) if ray.is_initialized() else 0,
            failed_shards=[
                f"{f.get('modality')}/{f.get('shard')}: {f.get('error')}"
                for f in (store.reader(live).manifest.get("failed_shards", []) if live and principal.admin else [])
            ],
            building=self._building if principal.admin else None,
        )

    async def ReadFile(
        self, request: coordinator_pb2.ReadFileRequest, context: grpc.aio.ServicerContext
    ) -> coordinator_pb2.ReadFileResponse:
        principal = current_principal()
        repo = revision_name(request.repo)  # NAME@release/1.0 is indexed (and granted) as NAME@release+1.0
        try:
            if not principal.may_read(repo):  # the same words as a missing file: nothing leaks
                raise NotFound(f"no file {request.path!r} in repository {request.repo!r}")
            reader = self.engine.live_reader()
            args = (reader, repo, request.path, request.start_line, request.end_line)
            # A range (a hit's lines) reads one file's rows from an indexed table: cheaper inline than a
            # thread hop; a whole file may be large, so it is read off the event loop.
            f = read_file(*args) if request.end_line else await asyncio.to_thread(read_file, *args)
        except NotFound:
            await context.abort(
                grpc.StatusCode.NOT_FOUND, bounded(f"no file {request.path!r} in repository {request.repo!r}")
            )
        except FourfoldError as exc:
            await context.abort(status_for(exc), bounded(str(exc)))
        return file_to_pb(f)

    def _visible_shards(self, principal: Principal, live: str | None) -> set[tuple[str, str, str]] | None:
        """(generation, modality, shard) a restricted caller may see: the live generation's shards
        holding one of its repositories. None for a caller who may read everything."""
        if principal.repos is None:
            return None
        if not live:
            return set()
        return {
            (live, s.modality, s.shard)
            for s in self.engine.store.reader(live).shards()
            if any(principal.may_read(r) for r in s.repos)
        }

    async def _health(self) -> dict[str, str]:
        from grpc_health.v1 import health_pb2, health_pb2_grpc

        fanout: Any = getattr(self.engine.searcher, "fanout", None)  # its channels: TLS when the worker plane is

        async def check(address: str) -> tuple[str, str]:
            try:
                r = await health_pb2_grpc.HealthStub(fanout.channel(address)).Check(
                    health_pb2.HealthCheckRequest(service=""), timeout=1.0
                )
                return address, health_pb2.HealthCheckResponse.ServingStatus.Name(r.status)
            except grpc.aio.AioRpcError:
                return address, "NOT_SERVING"

        registry = self.engine.endpoints
        results = await asyncio.gather(*(check(ep.address) for ep in (registry.all() if registry is not None else ())))
        return dict(results)


async def _progress_until_done(
    task: asyncio.Future[Any], queue: asyncio.Queue[coordinator_pb2.IndexProgress]
) -> AsyncIterator[coordinator_pb2.IndexProgress]:
    """The progress messages a build or sync puts on ``queue``, until ``task`` is done and all are sent."""
    while not task.done() or not queue.empty():
        try:
            yield await asyncio.wait_for(queue.get(), 0.2)
        except TimeoutError:
            continue


def _sync_fields(synced: dict[str, Any], name: str, admin: bool) -> dict[str, str]:
    """RepoStatus's sync_status, sync_error and commit for an indexed name (``repo`` or ``repo@rev``)."""
    entry = synced.get(split_index_name(name)[0])
    if not entry:
        return {}
    return {
        "sync_status": str(entry.get("status", "")),
        "sync_error": str(entry.get("error", "")) if admin else ("fetch failed" if entry.get("error") else ""),
        "commit": str(entry.get("revisions", {}).get(name, "")),
    }

"""The public Python client of a fourfold coordinator, synchronous and asyncio.

    >>> from fourfold import Client
    >>> with Client("search.internal:50551", token="ff_...", tls=True) as c:
    ...     answer = c.search("who calls parse_config", repos=["payments"], k=5)
    ...     for f in answer.hits:
    ...         print(f.hit.path, f.hit.start_line, f.score)

A thin typed wrapper over the gRPC API: answers come back as the values of :mod:`fourfold.api`
(:class:`~fourfold.api.Answer` of :class:`~fourfold.api.FusedHit`, :class:`~fourfold.api.IndexSummary`,
:class:`~fourfold.api.Status`); a failed call raises the :mod:`fourfold.errors` class of its status.
Connection settings, deadlines and the retry rule (``UNAVAILABLE`` only) are
:class:`fourfold.connection.Connection`'s, shared with the CLI.

Light on purpose: this module, :mod:`fourfold.api`, :mod:`fourfold.wire` and
:mod:`fourfold.connection` import grpc and protobuf only, never the engine, Ray, NumPy or a model
runtime, so a process that only asks questions starts in tens of milliseconds
(``tests/test_light_client.py`` guards it).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from fourfold.api import (
    Answer,
    FileSymbol,
    FileText,
    IndexProgress,
    IndexSummary,
    RepoInfo,
    SearchParams,
    ShardInfo,
    Status,
)
from fourfold.config import DEFAULT_ADDRESS
from fourfold.connection import PUSHBACK_KEY, Connection, channel_healthy, read_millis
from fourfold.errors import (
    FourfoldError,
    IndexStateError,
    InvalidInput,
    InvalidQuery,
    NotFound,
    Overloaded,
    PermissionDenied,
    RemoteError,
    Unauthenticated,
    Unavailable,
)
from fourfold.plugins.types import CONTEXT_OPTION, MAX_COUNT_OPTION, MULTILINE_OPTION
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc
from fourfold.wire import answer_from_pb, file_from_pb, params_to_pb, progress_from_pb, status_from_pb, summary_from_pb

__all__ = [
    "AsyncClient",
    "Client",
    "FileSymbol",
    "FileText",
    "IndexProgress",
    "Overloaded",
    "RemoteError",
    "RepoInfo",
    "ShardInfo",
    "Status",
    "Unauthenticated",
    "answer_from_pb",
    "error_from_rpc",
]

#: Hears each report of an index build: stage, done of total unit, repository, rate, time left, text.
Progress = Callable[[IndexProgress], None]


_BY_STATUS: dict[grpc.StatusCode, type[FourfoldError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidInput,
    grpc.StatusCode.NOT_FOUND: NotFound,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDenied,
    grpc.StatusCode.UNAUTHENTICATED: Unauthenticated,
    grpc.StatusCode.RESOURCE_EXHAUSTED: Overloaded,
    grpc.StatusCode.UNAVAILABLE: Unavailable,
    grpc.StatusCode.DEADLINE_EXCEEDED: Unavailable,
    grpc.StatusCode.FAILED_PRECONDITION: IndexStateError,
}


def error_from_rpc(exc: grpc.RpcError) -> FourfoldError:
    """The fourfold error for a failed call; ``grpc_status`` keeps the status it came with."""
    code: grpc.StatusCode = exc.code()
    err = _BY_STATUS.get(code, RemoteError)(exc.details() or code.name)
    err.grpc_status = code.name
    if isinstance(err, Overloaded):
        err.retry_after_s = pushback_s(exc)
    return err


def pushback_s(exc: grpc.RpcError) -> float | None:
    """Seconds a refusal said to wait (its :data:`~fourfold.connection.PUSHBACK_KEY`), or None."""
    trailing = getattr(exc, "trailing_metadata", None)
    for key, value in (trailing() if callable(trailing) else None) or ():
        said_ms = read_millis(value) if key == PUSHBACK_KEY else None
        if said_ms is not None:
            return said_ms / 1000
    return None


def _raise(exc: grpc.RpcError) -> NoReturn:
    raise error_from_rpc(exc) from None


#: Files per page when ``search_all`` pages through a listing (the coordinator's largest k).
MAX_PAGE = 1000


def _read_request(repo: str, path: str, start_line: int, end_line: int) -> coordinator_pb2.ReadFileRequest:
    return coordinator_pb2.ReadFileRequest(repo=repo, path=path, start_line=start_line, end_line=end_line)


def search_request(
    query: str,
    *,
    k: int = 10,
    repos: Sequence[str] = (),
    intent: str = "",
    preset: str = "default",
    modalities: Sequence[str] = (),
    weights: Mapping[str, float] | None = None,
    path_glob: str = "",
    languages: Sequence[str] = (),
    case_sensitive: bool = False,
    regex: bool = False,
    options: Mapping[str, str] | None = None,
    snippets: bool = False,
    deadline_ms: int = 5000,
    cursor: str = "",
    context: int | tuple[int, int] = 0,
    max_count: int = 0,
    multiline: bool | str = False,
) -> coordinator_pb2.SearchRequest:
    """The wire request for a search (``regex=True`` is ``options={"mode": "regex"}``: the text
    modality lists the matching lines unless ``modalities`` or ``weights`` ask otherwise;
    ``cursor``: the previous page's ``Answer.cursor``; ``context``: the lines a listing's snippets show
    around each matching line, N or (before, after), numbered as ``grep -n -C`` prints them; ``max_count``: each
    file's first N matching lines, as ``grep -m N``; ``multiline``: a regex whose matches span lines, as ``rg -U``
    finds them, ``"dotall"`` with ``.`` matching newlines too)."""
    opts = dict(options or {})
    if regex:
        opts["mode"] = "regex"
    if context:
        before, after = context if isinstance(context, tuple) else (context, context)
        opts[CONTEXT_OPTION] = f"{before},{after}"
    if max_count:
        opts[MAX_COUNT_OPTION] = str(max_count)
    if multiline:
        opts.update({"mode": "regex", MULTILINE_OPTION: "dotall" if multiline == "dotall" else "on"})
    try:
        return params_to_pb(
            SearchParams(
                query=query,
                k=k,
                repos=tuple(repos),
                intent=intent,
                preset=preset,
                modalities=tuple(modalities),
                weights=dict(weights or {}),
                deadline_ms=deadline_ms,
                path_glob=path_glob,
                languages=tuple(languages),
                case_sensitive=case_sensitive,
                options=opts,
                with_snippets=snippets,
                cursor=cursor,
            )
        )
    except UnicodeEncodeError as exc:  # the wire carries UTF-8 only: say which character, not a traceback
        bad = exc.object[exc.start : exc.end]
        raise InvalidQuery(
            f"the search holds {bad!r}: half of a UTF-16 pair or an undecodable byte, not text. Send it as UTF-8"
        ) from None


def _index_request(repos: Iterable[Path | str | tuple[Path | str, str | None]]) -> coordinator_pb2.IndexRequest:
    specs = []
    for r in repos:
        path, name = r if isinstance(r, tuple) else (r, None)
        specs.append(coordinator_pb2.RepoSpec(path=str(Path(path).resolve()), name=name or ""))
    return coordinator_pb2.IndexRequest(repos=specs)


class Client:
    """Synchronous client. ``token`` defaults to ``$FOURFOLD_TOKEN``; ``ca_cert`` (or
    ``$FOURFOLD_TLS_CA``) turns TLS on and trusts that CA; ``tls=True`` alone trusts the system roots.
    """

    def __init__(
        self,
        address: str = DEFAULT_ADDRESS,
        *,
        token: str | None = None,
        tls: bool = False,
        ca_cert: Path | str | None = None,
        server_name: str | None = None,
        timeout_s: float = 30.0,
        retries: int = 2,
    ) -> None:
        self.connection = Connection.from_env(
            address,
            token=token,
            tls=tls,
            ca_cert=Path(ca_cert) if ca_cert else None,
            server_name=server_name,
            timeout_s=timeout_s,
            retries=retries,
        )
        self._channel = self.connection.channel()
        self._stub = coordinator_pb2_grpc.CoordinatorStub(self._channel)
        self._metadata = self.connection.metadata()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self._channel.close()

    def healthy(self, timeout_s: float = 0.5) -> bool:
        """True when the coordinator answers its health check (needs no token)."""
        return channel_healthy(self._channel, timeout_s)

    def search(self, query: str, **kw: Any) -> Answer:
        """Search; keywords as :func:`search_request` (k, repos, intent, preset, regex, snippets...)."""
        request = search_request(query, **kw)
        timeout, metadata = self.connection.search_call(request, self._metadata)
        try:
            return answer_from_pb(
                self.connection.call(lambda: self._stub.Search(request, timeout=timeout, metadata=metadata))
            )
        except grpc.RpcError as exc:
            _raise(exc)

    def search_all(self, query: str, *, k: int = MAX_PAGE, **kw: Any) -> Iterator[Answer]:
        """Every page of a literal or regex listing (``regex=True`` or ``options={"mode": ...}``),
        ``k`` files a page, following each answer's ``cursor`` until the last page."""
        cursor = ""
        while True:
            answer = self.search(query, k=k, cursor=cursor, **kw)
            yield answer
            cursor = answer.cursor
            if not cursor:
                return

    def status(self) -> Status:
        try:
            return status_from_pb(
                self.connection.call(
                    lambda: self._stub.Status(
                        coordinator_pb2.StatusRequest(), timeout=self.connection.timeout_s, metadata=self._metadata
                    )
                )
            )
        except grpc.RpcError as exc:
            _raise(exc)

    def repositories(self) -> tuple[RepoInfo, ...]:
        """The repositories this token may read."""
        return self.status().repos

    def read_file(self, repo: str, path: str, start_line: int = 0, end_line: int = 0) -> FileText:
        """A file's text as indexed (lines ``start_line``..``end_line``, 0 for the file's own bounds);
        ``repo`` is a name or ``name@revision`` (``pay@release/1.0`` or, as hits name it,
        ``pay@release+1.0``). :class:`NotFound` for a missing file and for a repository this token
        may not read alike."""
        request = _read_request(repo, path, start_line, end_line)
        try:
            return file_from_pb(
                self.connection.call(
                    lambda: self._stub.ReadFile(request, timeout=self.connection.timeout_s, metadata=self._metadata)
                )
            )
        except grpc.RpcError as exc:
            _raise(exc)

    def index(
        self, repos: Iterable[Path | str | tuple[Path | str, str | None]], progress: Progress | None = None
    ) -> IndexSummary:
        """Register and index ``repos`` (paths on the coordinator's machine); needs an admin token.

        ``progress``, when given, hears each :class:`~fourfold.api.IndexProgress` of the build as
        the coordinator streams it (the last one, stage ``done``, just before this returns)."""
        try:
            for msg in self._stub.Index(_index_request(repos), metadata=self._metadata):
                if progress is not None:
                    progress(progress_from_pb(msg))
                if msg.HasField("summary"):
                    return summary_from_pb(msg.summary)
        except grpc.RpcError as exc:
            _raise(exc)
        raise RemoteError("the index stream ended without a summary; see the coordinator's log")


class AsyncClient:
    """The asyncio twin of :class:`Client` (one per event loop)."""

    def __init__(
        self,
        address: str = DEFAULT_ADDRESS,
        *,
        token: str | None = None,
        tls: bool = False,
        ca_cert: Path | str | None = None,
        server_name: str | None = None,
        timeout_s: float = 30.0,
        retries: int = 2,
    ) -> None:
        self.connection = Connection.from_env(
            address,
            token=token,
            tls=tls,
            ca_cert=Path(ca_cert) if ca_cert else None,
            server_name=server_name,
            timeout_s=timeout_s,
            retries=retries,
        )
        self._channel = self.connection.aio_channel()
        self._stub = coordinator_pb2_grpc.CoordinatorStub(self._channel)
        self._metadata = self.connection.metadata()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self._channel.close()

    async def _call(self, make: Callable[[], Any]) -> Any:
        attempt = 0
        while True:
            try:
                return await make()
            except grpc.aio.AioRpcError as exc:
                if exc.code() != grpc.StatusCode.UNAVAILABLE or attempt >= self.connection.retries:
                    _raise(exc)
                attempt += 1
                await asyncio.sleep(self.connection.backoff(attempt))

    async def healthy(self, timeout_s: float = 0.5) -> bool:
        try:
            r = await health_pb2_grpc.HealthStub(self._channel).Check(
                health_pb2.HealthCheckRequest(service=""), timeout=timeout_s
            )
        except grpc.aio.AioRpcError:
            return False
        return bool(r.status == health_pb2.HealthCheckResponse.SERVING)

    async def search(self, query: str, **kw: Any) -> Answer:
        request = search_request(query, **kw)
        timeout, metadata = self.connection.search_call(request, self._metadata)
        return answer_from_pb(await self._call(lambda: self._stub.Search(request, timeout=timeout, metadata=metadata)))

    async def search_all(self, query: str, *, k: int = MAX_PAGE, **kw: Any) -> AsyncIterator[Answer]:
        """The asyncio twin of :meth:`Client.search_all`."""
        cursor = ""
        while True:
            answer = await self.search(query, k=k, cursor=cursor, **kw)
            yield answer
            cursor = answer.cursor
            if not cursor:
                return

    async def status(self) -> Status:
        return status_from_pb(
            await self._call(
                lambda: self._stub.Status(
                    coordinator_pb2.StatusRequest(), timeout=self.connection.timeout_s, metadata=self._metadata
                )
            )
        )

    async def repositories(self) -> tuple[RepoInfo, ...]:
        return (await self.status()).repos

    async def read_file(self, repo: str, path: str, start_line: int = 0, end_line: int = 0) -> FileText:
        request = _read_request(repo, path, start_line, end_line)
        return file_from_pb(
            await self._call(
                lambda: self._stub.ReadFile(request, timeout=self.connection.timeout_s, metadata=self._metadata)
            )
        )

    def with_token(self, token: str | None) -> AsyncClient:
        """A client on the same channel that calls with ``token`` instead (a server acting for
        several callers, such as the web page, forwards each one's own token)."""
        other = object.__new__(AsyncClient)
        other.connection = replace(self.connection, token=token)
        other._channel = self._channel
        other._stub = self._stub
        other._metadata = other.connection.metadata()
        return other

    async def index(
        self, repos: Iterable[Path | str | tuple[Path | str, str | None]], progress: Progress | None = None
    ) -> IndexSummary:
        try:
            async for msg in self._stub.Index(_index_request(repos), metadata=self._metadata):
                if progress is not None:
                    progress(progress_from_pb(msg))
                if msg.HasField("summary"):
                    return summary_from_pb(msg.summary)
        except grpc.aio.AioRpcError as exc:
            _raise(exc)
        raise RemoteError("the index stream ended without a summary; see the coordinator's log")

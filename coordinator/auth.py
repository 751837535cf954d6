"""Who may call the coordinator and what they may read: bearer tokens, per-repository grants, limits.

A caller sends ``authorization: Bearer <token>`` in its gRPC metadata. The coordinator keeps only
SHA-256 digests of the tokens (a token is 32 random bytes, so a fast hash is enough: nothing to
brute-force), each mapped to a :class:`Principal` — a name, the repositories it may read (``*`` for
all), whether it may start index builds, and how many requests it may have in flight.

The grants come from a JSON document, in a file (``fourfold serve --auth-tokens FILE``) or in the
environment variable ``FOURFOLD_AUTH_TOKENS`` (a Kubernetes Secret as an env var)::

    {"tokens": [
      {"name": "ci-agent", "sha256": "<64 hex digits>", "repos": ["payments", "web"]},
      {"name": "ops", "sha256": "<64 hex digits>", "repos": ["*"], "admin": true, "max_concurrent": 32}
    ]}

``fourfold token --name NAME --repo REPO`` prints a new token and its entry. A plain ``"token"``
field is refused, so a secret never sits in the configuration.

:class:`AuthInterceptor` checks every call to ``fourfold.v1.Coordinator`` (health and reflection
stay open: probes and schema, no code) and runs the handler with the caller's principal in a
context variable that the service reads through :func:`current_principal`.
"""

from __future__ import annotations

import contextvars
import hashlib
import hmac
import json
import os
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

from fourfold.connection import PUSHBACK_KEY, millis
from fourfold.errors import InvalidInput, InvalidQuery
from fourfold.index.fleet import revision_name

__all__ = [
    "ALL_REPOS",
    "GROUP_PREFIX",
    "OPEN",
    "TOKENS_ENV",
    "AuthInterceptor",
    "Limits",
    "Principal",
    "TokenStore",
    "check_limits",
    "current_principal",
    "hash_token",
    "new_token",
    "set_groups",
]

#: The environment variable that may hold the grants document instead of a file.
TOKENS_ENV = "FOURFOLD_AUTH_TOKENS"
#: The repository grant that means "every repository, present and future".
ALL_REPOS = "*"
#: Requests one token may have in flight unless its entry says otherwise.
DEFAULT_MAX_CONCURRENT = 16
#: Longest bearer token read (a generated one has 46 characters): longer ones are refused unhashed.
MAX_TOKEN_CHARS = 4096
#: Only calls to this service need a token; health checks and reflection carry no code.
PROTECTED_SERVICE = "/fourfold.v1.Coordinator/"


@dataclass(frozen=True, slots=True)
class Principal:
    """An authenticated caller. ``repos`` is None for every repository (``*``)."""

    name: str
    repos: frozenset[str] | None
    admin: bool = False
    max_concurrent: int = DEFAULT_MAX_CONCURRENT

    def __post_init__(self) -> None:
        if self.repos is not None and any("@" in r for r in self.repos):  # a grant of name@release/1.0
            object.__setattr__(self, "repos", frozenset(revision_name(r) for r in self.repos))

    def may_read(self, repo: str) -> bool:
        """A grant of ``name`` covers every revision (``name@branch``); ``name@branch`` that one;
        ``group:<label>`` every repository the fleet file labels so (see :func:`set_groups`).

        A revision may be written as it is named (``name@release/1.0``) or as it is indexed
        (``name@release+1.0``), in the grant and in ``repo`` alike."""
        if self.repos is None:
            return True
        if repo.startswith(GROUP_PREFIX):
            return False  # a grant names a group; no repository is one
        repo = revision_name(repo)
        if repo in self.repos:
            return True
        base = repo.partition("@")[0]
        if base in self.repos:
            return True
        return any(
            base in _groups.get(g.removeprefix(GROUP_PREFIX), ()) for g in self.repos if g.startswith(GROUP_PREFIX)
        )

    def visible(self, repos: Sequence[str]) -> list[str]:
        """The subset of ``repos`` this caller may see, in order."""
        return [r for r in repos if self.may_read(r)]

    def readable(self, registered: Iterable[str]) -> frozenset[str] | None:
        """The registered repositories this caller may read (None: every one, present and future)."""
        return None if self.repos is None else frozenset(r for r in registered if self.may_read(r))


#: A grant of every repository carrying a fleet-file label: ``"group:payments"``.
GROUP_PREFIX = "group:"
_groups: dict[str, frozenset[str]] = {}


def set_groups(groups: Mapping[str, Iterable[str]]) -> None:
    """Label -> repository names, from the fleet file (``Fleet.groups()``); what ``group:`` grants mean.

    Replaced whole (a sync that relabels takes effect at once); a label no repository carries grants nothing.
    """
    global _groups
    _groups = {label: frozenset(names) for label, names in groups.items()}


#: The principal of a coordinator that runs without tokens (local use): reads all, may index.
OPEN = Principal(name="anonymous", repos=None, admin=True, max_concurrent=1 << 30)

_current: contextvars.ContextVar[Principal] = contextvars.ContextVar("fourfold_principal", default=OPEN)


def current_principal() -> Principal:
    """The caller of the RPC being served (``OPEN`` when the server runs without tokens)."""
    return _current.get()


def hash_token(token: str) -> str:
    """The hex SHA-256 of a token, as stored in the grants document."""
    return hashlib.sha256(token.encode()).hexdigest()


def new_token() -> str:
    """A fresh token: 32 random bytes, URL-safe, prefixed so leaked ones are easy to grep for."""
    return "ff_" + secrets.token_urlsafe(32)


class TokenStore:
    """Token digests → principals. Lookup hashes the presented token and compares in constant time."""

    def __init__(self, entries: Mapping[str, Principal]) -> None:
        self._by_digest = dict(entries)

    def __len__(self) -> int:
        return len(self._by_digest)

    @classmethod
    def parse(cls, text: str, source: str) -> TokenStore:
        """Read a grants document; every mistake names ``source``, the entry and the fix."""
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InvalidInput(
                f"{source}: not valid JSON ({exc.msg} at line {exc.lineno}); see `fourfold token --help` for the format"
            ) from None
        tokens = doc.get("tokens") if isinstance(doc, dict) else None
        if not isinstance(tokens, list) or not tokens:
            raise InvalidInput(
                f'{source}: expected {{"tokens": [{{"name": ..., "sha256": ..., "repos": [...]}}]}} with at least one '
                "entry"
            )
        entries: dict[str, Principal] = {}
        for i, e in enumerate(tokens):
            where = f"{source}: tokens[{i}]"
            if not isinstance(e, dict):
                raise InvalidInput(f"{where}: expected an object with name, sha256 and repos")
            if "token" in e:
                raise InvalidInput(
                    f'{where}: plain tokens are refused; store its SHA-256 as "sha256" (`fourfold token` prints both)'
                )
            name, digest, repos = e.get("name"), e.get("sha256"), e.get("repos")
            if not isinstance(name, str) or not name:
                raise InvalidInput(f'{where}: missing "name" (who holds the token, for logs and errors)')
            if not isinstance(digest, str) or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
                raise InvalidInput(
                    f'{where} ({name}): "sha256" must be 64 lower-case hex digits, the SHA-256 of the token'
                )
            if not isinstance(repos, list) or not all(isinstance(r, str) and r for r in repos):
                raise InvalidInput(
                    f'{where} ({name}): "repos" must be a list of repository names, "group:<label>" or ["*"] for all'
                )
            max_concurrent = e.get("max_concurrent", DEFAULT_MAX_CONCURRENT)
            if not isinstance(max_concurrent, int) or max_concurrent < 1:
                raise InvalidInput(
                    f'{where} ({name}): "max_concurrent" must be a positive integer, got {max_concurrent!r}'
                )
            unknown = set(e) - {"name", "sha256", "repos", "admin", "max_concurrent"}
            if unknown:
                raise InvalidInput(
                    f"{where} ({name}): unknown field(s) {sorted(unknown)}; allowed: name, sha256, repos, admin, "
                    "max_concurrent"
                )
            if digest in entries:
                raise InvalidInput(f"{where} ({name}): the same token digest appears twice")
            entries[digest] = Principal(
                name=name,
                repos=None if ALL_REPOS in repos else frozenset(repos),
                admin=bool(e.get("admin", False)),
                max_concurrent=max_concurrent,
            )
        return cls(entries)

    @classmethod
    def load(cls, path: Path | None) -> TokenStore | None:
        """From ``path`` if given, else from ``$FOURFOLD_AUTH_TOKENS``; None when neither is set (open)."""
        if path is not None:
            try:
                text = Path(path).read_text()
            except OSError as exc:
                raise InvalidInput(f"cannot read the token file {str(path)!r}: {exc.strerror}") from None
            return cls.parse(text, str(path))
        text = os.environ.get(TOKENS_ENV, "")
        return cls.parse(text, f"${TOKENS_ENV}") if text.strip() else None

    def authenticate(self, token: str) -> Principal | None:
        digest = hash_token(token)
        found = None
        for known, principal in self._by_digest.items():  # every entry compared: timing says nothing
            if hmac.compare_digest(known, digest):
                found = principal
        return found


@dataclass(frozen=True, slots=True)
class Limits:
    """What one Search may ask for; each violation is an INVALID_ARGUMENT naming the limit."""

    max_query_chars: int = 10_000
    max_k: int = 1000
    max_regex_chars: int = 1_000
    max_repos: int = 1000
    max_glob_chars: int = 1_000
    max_options: int = 32
    max_option_chars: int = 1_000


def check_limits(
    query: str, k: int, options: Mapping[str, str], repos: Sequence[str], path_glob: str, limits: Limits
) -> None:
    """Reject a request over ``limits`` before any work is done (the engine checks the rest)."""
    if len(query) > limits.max_query_chars:
        raise InvalidQuery(
            f"query too long: {len(query)} characters; the limit is {limits.max_query_chars}. Search for a distinctive "
            "part of it"
        )
    if k > limits.max_k:
        raise InvalidQuery(f"invalid k {k}: ask for 1 to {limits.max_k} hits")
    if options.get("mode") == "regex" and len(query) > limits.max_regex_chars:
        raise InvalidQuery(
            f"regular expression too long: {len(query)} characters; the limit is {limits.max_regex_chars}. Use a "
            "shorter pattern"
        )
    if len(repos) > limits.max_repos:
        raise InvalidQuery(
            f"too many repositories: {len(repos)}; the limit is {limits.max_repos}. Leave repos empty to search all "
            "you may read"
        )
    if len(path_glob) > limits.max_glob_chars:
        raise InvalidQuery(f"path glob too long: {len(path_glob)} characters; the limit is {limits.max_glob_chars}")
    if len(options) > limits.max_options:
        raise InvalidQuery(f"too many options: {len(options)}; the limit is {limits.max_options}")
    for key, value in options.items():
        if len(key) + len(value) > limits.max_option_chars:
            raise InvalidQuery(
                f"option {key[:40]!r} too long: {len(key) + len(value)} characters; the limit is "
                f"{limits.max_option_chars}"
            )


# -- the interceptor ------------------------------------------------------------------------------

_Behavior = Callable[[Any, grpc.aio.ServicerContext], Any]


def _bearer(metadata: Sequence[tuple[str, str | bytes]] | None) -> str | None:
    for key, value in metadata or ():
        if key == "authorization":
            text = value.decode(errors="replace") if isinstance(value, bytes) else value
            scheme, _, token = text.strip().partition(" ")
            return token.strip() if scheme.lower() == "bearer" and token.strip() else None
    return None


class AuthInterceptor(grpc.aio.ServerInterceptor):
    """Authenticates Coordinator calls and caps each principal's requests in flight.

    Runs on the server's event loop, so the in-flight counters need no lock.
    """

    def __init__(self, tokens: TokenStore, retry_after: Callable[[], float | None] | None = None) -> None:
        self.tokens = tokens
        self._in_flight: dict[str, int] = {}
        # how long a search takes now (the coordinator's admission measures it): about when one of a token's
        # own ends, the wait a token at its limit is told (gRPC's pushback); None: not yet known
        self._retry_after = retry_after

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler]],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler:
        handler = await continuation(handler_call_details)
        if handler is None or not handler_call_details.method.startswith(PROTECTED_SERVICE):
            return handler
        token = _bearer(handler_call_details.invocation_metadata)
        too_long = token is not None and len(token) > MAX_TOKEN_CHARS
        principal = self.tokens.authenticate(token) if token and not too_long else None
        if principal is None:
            why = (
                "missing bearer token: send the metadata 'authorization: Bearer <token>'"
                if token is None
                else f"invalid bearer token: {len(token)} characters, longer than any token"
                if too_long
                else "invalid bearer token: it matches no configured token; ask the operator for one"
            )
            return _replace(handler, _refuse(grpc.StatusCode.UNAUTHENTICATED, why, handler.response_streaming))
        return _replace(handler, self._guard(principal, handler))

    def _enter(self, principal: Principal) -> str | None:
        n = self._in_flight.get(principal.name, 0)
        if n >= principal.max_concurrent:
            return (
                f"too many concurrent requests for token {principal.name!r}: {n} in flight, the limit is "
                f"{principal.max_concurrent}; wait for answers before sending more"
            )
        self._in_flight[principal.name] = n + 1
        return None

    def pushback(self) -> tuple[tuple[str, str], ...]:
        """The trailing metadata of a refusal for a token at its limit: when to retry, where that is known."""
        wait = self._retry_after() if self._retry_after is not None else None
        return () if wait is None else (millis(PUSHBACK_KEY, wait),)

    def _leave(self, principal: Principal) -> None:
        self._in_flight[principal.name] -= 1

    def _guard(self, principal: Principal, handler: grpc.RpcMethodHandler) -> _Behavior:
        if handler.response_streaming:
            inner_stream = handler.unary_stream

            async def stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
                refused = self._enter(principal)
                if refused:
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, refused, self.pushback())
                reset = _current.set(principal)
                try:
                    async for item in inner_stream(request, context):
                        yield item
                finally:
                    _current.reset(reset)
                    self._leave(principal)

            return stream
        inner_unary = handler.unary_unary

        async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
            refused = self._enter(principal)
            if refused:
                await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, refused, self.pushback())
            reset = _current.set(principal)
            try:
                return await inner_unary(request, context)
            finally:
                _current.reset(reset)
                self._leave(principal)

        return unary


def _refuse(code: grpc.StatusCode, message: str, streaming: bool) -> _Behavior:
    if streaming:

        async def stream(request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
            await context.abort(code, message)
            yield  # pragma: no cover - abort raises; the yield makes this an async generator

        return stream

    async def unary(request: Any, context: grpc.aio.ServicerContext) -> Any:
        await context.abort(code, message)

    return unary


def _replace(handler: grpc.RpcMethodHandler, behavior: _Behavior) -> grpc.RpcMethodHandler:
    """``handler`` with a new behavior (unary-unary and unary-stream: the Coordinator's shapes)."""
    if handler.request_streaming:
        raise TypeError("client-streaming Coordinator methods are not guarded; add them to fourfold.coordinator.auth")
    make = grpc.unary_stream_rpc_method_handler if handler.response_streaming else grpc.unary_unary_rpc_method_handler
    return make(
        behavior, request_deserializer=handler.request_deserializer, response_serializer=handler.response_serializer
    )

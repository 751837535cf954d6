"""Every error fourfold raises on purpose, with a stable code.

    FourfoldError                      code            gRPC status
    ├── InvalidInput                   invalid_input   INVALID_ARGUMENT
    │   ├── InvalidQuery               invalid_query   INVALID_ARGUMENT
    │   └── InvalidPath                invalid_path    INVALID_ARGUMENT
    ├── NotFound                       not_found       NOT_FOUND
    │   └── UnknownRepository          unknown_repo    NOT_FOUND
    ├── IndexStateError                index_error     FAILED_PRECONDITION
    │   ├── NoIndex                    no_index        FAILED_PRECONDITION
    │   ├── CorruptIndex               corrupt_index   DATA_LOSS
    │   └── IndexLocked                index_locked    ABORTED
    ├── PluginError                    plugin_error    INTERNAL
    ├── GitError                       git_error       FAILED_PRECONDITION
    ├── Unavailable                    unavailable     UNAVAILABLE
    │   └── Overloaded                 overloaded      RESOURCE_EXHAUSTED
    ├── PermissionDenied               permission      PERMISSION_DENIED
    │   └── Unauthenticated            unauthenticated UNAUTHENTICATED
    └── RemoteError                    remote          (the status a server sent)

Messages name the problem, the offending value and what to do about it.
"""

from __future__ import annotations

__all__ = [
    "CorruptIndex",
    "FourfoldError",
    "GitError",
    "IndexLocked",
    "IndexStateError",
    "InvalidInput",
    "InvalidPath",
    "InvalidQuery",
    "NoIndex",
    "NotFound",
    "Overloaded",
    "PermissionDenied",
    "PluginError",
    "RemoteError",
    "Unauthenticated",
    "Unavailable",
    "UnknownRepository",
]


class FourfoldError(Exception):
    """Base of every deliberate fourfold error. ``code`` is stable; ``grpc_status`` names a StatusCode."""

    code = "error"
    grpc_status = "INTERNAL"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


class InvalidInput(FourfoldError):
    code = "invalid_input"
    grpc_status = "INVALID_ARGUMENT"


class InvalidQuery(InvalidInput):
    code = "invalid_query"


class InvalidPath(InvalidInput):
    code = "invalid_path"


class NotFound(FourfoldError):
    code = "not_found"
    grpc_status = "NOT_FOUND"


class UnknownRepository(NotFound):
    code = "unknown_repo"


class IndexStateError(FourfoldError):
    code = "index_error"
    grpc_status = "FAILED_PRECONDITION"


class NoIndex(IndexStateError):
    code = "no_index"


class CorruptIndex(IndexStateError):
    code = "corrupt_index"
    grpc_status = "DATA_LOSS"


class IndexLocked(IndexStateError):
    code = "index_locked"
    grpc_status = "ABORTED"


class PluginError(FourfoldError):
    code = "plugin_error"


class GitError(FourfoldError):
    """A git command failed for a fleet repository (bad URL, refused credentials, unreachable host,
    corrupt pack, deleted upstream). FAILED_PRECONDITION, not UNAVAILABLE: trying again does not
    help until someone fixes the URL, the credentials or the upstream (the message says which).

    The message is ``repo: detail``; ``detail`` alone is what a record kept per repository shows
    (the fleet state, ``status``). ``purpose`` is what the command was for (``fetch``, ``clone``...),
    ``stderr`` the first line git wrote (passwords hidden); empty when not known.
    """

    code = "git_error"
    grpc_status = "FAILED_PRECONDITION"

    def __init__(self, detail: str, *, repo: str = "", purpose: str = "", stderr: str = "") -> None:
        super().__init__(f"{repo}: {detail}" if repo else detail)
        self.detail = detail
        self.repo = repo
        self.purpose = purpose
        self.stderr = stderr


class Unavailable(FourfoldError):
    code = "unavailable"
    grpc_status = "UNAVAILABLE"


class PermissionDenied(FourfoldError):
    code = "permission"
    grpc_status = "PERMISSION_DENIED"


class RemoteError(FourfoldError):
    """A status with no closer fourfold error (INTERNAL, UNKNOWN...): ``grpc_status`` names it."""

    code = "remote"


class Unauthenticated(PermissionDenied):
    """No token, or one the coordinator does not know."""

    code = "unauthenticated"
    grpc_status = "UNAUTHENTICATED"


class Overloaded(Unavailable):
    """Too many requests in flight (for the coordinator or this token): wait, then retry.
    ``retry_after_s``: how long the coordinator said to wait (its ``grpc-retry-pushback-ms``), or None."""

    code = "overloaded"
    grpc_status = "RESOURCE_EXHAUSTED"
    retry_after_s: float | None = None

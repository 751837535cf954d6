"""Running git for one fleet repository, and saying clearly what went wrong when it fails.

A failing command raises :class:`~fourfold.errors.GitError` whose message names the repository,
what the command was for (fetch, clone, ...), the URL with any password hidden, the first line
git wrote to stderr, and what to do about it, e.g.::

    payments: git fetch failed for https://ci:***@git.example.com/payments.git: fatal: Authentication
    failed for 'https://git.example.com/payments.git/'; check the credentials for this URL (a token
    in the URL, an SSH key or a credential helper) ...

The message goes to ``fleet-state.json``, ``fourfold status`` and logs, so no password may reach
it: the URL is redacted, and so is any URL with credentials in git's own output.
"""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from fourfold.errors import GitError

__all__ = ["GIT_TIMEOUT_S", "redact_url", "run_git"]

GIT_TIMEOUT_S = 600

#: ``scheme://userinfo@`` anywhere in a text (git's stderr may quote the URL it was given).
_USERINFO = re.compile(r"(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<userinfo>[^/@\s'\"]+)@")

#: (pattern in git's stderr, what to do), first match wins.
_HINTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(
            r"authentication failed|could not read (username|password)|terminal prompts disabled|"
            r"permission denied|access denied|\b40[13]\b",
            re.IGNORECASE,
        ),
        "check the credentials for this URL (a token in the URL, an SSH key or a credential helper "
        "for the user running fourfold)",
    ),
    (
        re.compile(
            r"could not resolve host|couldn't connect|failed to connect|connection refused|timed out|"
            r"network is unreachable",
            re.IGNORECASE,
        ),
        "check that this machine reaches the host (DNS, proxy, firewall), then sync again",
    ),
    (
        re.compile(r"does not appear to be a git repository|not found", re.IGNORECASE),
        "check the repository's url in the fleet file: the upstream is gone or has moved",
    ),
    (
        re.compile(r"corrupt|bad object|index-pack|unpack|loose object|packfile", re.IGNORECASE),
        "the upstream (or its copy here) is damaged: repair the upstream, or remove the mirror to clone it afresh",
    ),
)
_DEFAULT_HINT = "check the repository's url in the fleet file and try `git ls-remote URL` on this machine"


def redact_url(url: str) -> str:
    """``url`` with its password (and, for http(s), a user name given alone: a token) shown as ``***``.

    ``https://ci:s3cret@host/r.git`` → ``https://ci:***@host/r.git``; ``https://ghp_x@host/r.git`` →
    ``https://***@host/r.git``; ``ssh://git@host/r.git`` and ``git@host:r.git`` stay as they are.
    """
    try:
        parts = urlsplit(url)
    except ValueError:
        return _redact_text(url)
    if not parts.scheme or "@" not in parts.netloc:
        return url
    userinfo, _, hostport = parts.netloc.rpartition("@")
    user, has_password, _ = userinfo.partition(":")
    if has_password:
        userinfo = f"{user}:***"
    elif parts.scheme in ("http", "https"):
        userinfo = "***"
    return urlunsplit(parts._replace(netloc=f"{userinfo}@{hostport}"))


def _redact_text(text: str) -> str:
    """Every ``scheme://user:password@`` in ``text`` with the password hidden (as :func:`redact_url`)."""

    def hide(m: re.Match[str]) -> str:
        return redact_url(f"{m.group('scheme')}{m.group('userinfo')}@x").removesuffix("x")

    return _USERINFO.sub(hide, text)


def _hint(stderr: str) -> str:
    return next((hint for pattern, hint in _HINTS if pattern.search(stderr)), _DEFAULT_HINT)


def run_git(repo: str, purpose: str, url: str | None, *args: str, cwd: Path | None = None) -> str:
    """Run ``git args`` (in ``cwd``) for the fleet repository ``repo``; its stdout.

    ``purpose`` says what it is for in the error (``fetch``, ``clone``, ``list the branches``...),
    ``url`` the upstream it talks to (None for a command on the local mirror). Never prompts for
    a password: a missing credential is an error, not a hung sync.
    """
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "GIT_ASKPASS": "true", "LC_ALL": "C"}
    where = f" for {redact_url(url)}" if url else ""
    command = f"git {args[0]}" if args and args[0] == purpose else f"git {args[0] if args else ''} (to {purpose})"
    try:
        proc = subprocess.run(
            ["git", *args], cwd=cwd, capture_output=True, text=True, timeout=GIT_TIMEOUT_S, env=env, check=False
        )
    except subprocess.TimeoutExpired:
        raise GitError(
            f"{command}{where} gave no answer in {GIT_TIMEOUT_S} s; "
            "check that this machine reaches the host, then sync again",
            repo=repo,
            purpose=purpose,
        ) from None
    except FileNotFoundError:
        raise GitError(
            f"git is not installed (needed to {purpose} git repositories); install git on this machine",
            repo=repo,
            purpose=purpose,
        ) from None
    if proc.returncode == 0:
        return proc.stdout
    stderr = _redact_text(proc.stderr.replace(url, redact_url(url)) if url else proc.stderr)
    first = next((line.strip() for line in stderr.splitlines() if line.strip()), f"exit status {proc.returncode}")
    raise GitError(
        f"{command} failed{where}: {first}; {_hint(stderr)}",
        repo=repo,
        purpose=purpose,
        stderr=first,
    )

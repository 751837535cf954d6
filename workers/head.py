"""The Ray head ``fourfold serve`` runs the workers on: a process of its own that outlives the coordinator.

A head started inside the coordinator (``ray.init()``) dies with it, and every worker with it: a
coordinator crash meant all workers redeployed (94 s of UNAVAILABLE). Instead ``serve`` starts
``ray start --head --block`` in a session of its own and records its address in
``$FOURFOLD_HOME/ray-head.json``; a ``serve`` started later (after a crash, or a second
coordinator) finds the head there, joins it and finds the workers, which are detached actors, still
serving. ``stop`` ends that session only (never ``ray stop``, which would stop every Ray cluster
on the machine).

Who stops the head: its owner, the ``serve`` that started it or adopted it (found it with its
owner gone), when it exits cleanly (SIGTERM, Ctrl-C), unless told ``--keep-cluster``; a crashed
owner leaves it running for the next ``serve``, and a second coordinator on the same home never
stops it; ``fourfold stop`` stops one left behind.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from fourfold.errors import Unavailable

__all__ = ["HEAD_FILE", "Head", "ensure", "recorded", "stop"]

log = logging.getLogger(__name__)

#: The record of the running head, under $FOURFOLD_HOME.
HEAD_FILE = "ray-head.json"


@dataclass(frozen=True, slots=True)
class Head:
    """A running Ray head: its GCS address, the process (and session) of ``ray start --block``, and
    the ``serve`` process that owns it (stops it on a clean exit)."""

    address: str
    pid: int
    owner: int = 0

    def alive(self) -> bool:
        """The process runs and its GCS port accepts connections."""
        try:
            os.kill(self.pid, 0)
        except (ProcessLookupError, PermissionError):
            return False
        host, port = self.address.rsplit(":", 1)
        with socket.socket() as s:
            s.settimeout(1.0)
            return s.connect_ex((host, int(port))) == 0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def recorded(home: Path) -> Head | None:
    """The head recorded in ``home`` (None when none is, or the record is unreadable)."""
    try:
        data = json.loads((Path(home) / HEAD_FILE).read_text())
        return Head(str(data["address"]), int(data["pid"]), int(data.get("owner", 0)))
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _record(home: Path, head: Head) -> None:
    tmp = Path(home) / f".{HEAD_FILE}.{os.getpid()}.tmp"
    tmp.write_text(json.dumps(asdict(head)) + "\n")
    os.replace(tmp, Path(home) / HEAD_FILE)


def _running(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return pid > 0


def _token_auth() -> None:
    """Token authentication for the head and for this process, unless ``RAY_AUTH_MODE`` says otherwise.

    A head that ``ray start`` runs turns token authentication on only when a token already exists,
    and a process joining it by address never turns it on by itself; so both are told explicitly
    (the head inherits this process's environment), with a token made first if there is none.
    Ray reads the mode once per process: its own switch for it refreshes that.
    """
    if os.environ.get("RAY_AUTH_MODE") is not None:
        return  # an explicit choice (``disabled`` in tests, ``token`` in a deployment) stands
    from ray._private.authentication import authentication_token_setup as ray_auth

    loader = ray_auth.AuthenticationTokenLoader.instance()
    if not loader.has_token(ignore_auth_mode=True):
        ray_auth.generate_and_save_token()
        loader.reset_cache()
    ray_auth._enable_token_auth()


def ensure(home: Path, num_cpus: int | None = None, timeout_s: float = 120.0) -> tuple[Head, bool]:
    """The head recorded in ``home`` if it is alive, else a new one: (head, whether this process owns it)."""
    home = Path(home)
    _token_auth()
    head = recorded(home)
    if head is not None and head.alive():
        adopt = not _running(head.owner)  # its owner crashed: this process stops it on a clean exit
        if adopt:
            head = Head(head.address, head.pid, os.getpid())
            _record(home, head)
        log.info("joining the Ray head at %s (pid %d)%s", head.address, head.pid, " as its owner" if adopt else "")
        return head, adopt
    home.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    ray_bin = Path(sys.executable).parent / "ray"
    cmd = [
        str(ray_bin) if ray_bin.exists() else "ray",
        "start",
        "--head",
        "--block",
        f"--port={port}",
        f"--num-cpus={num_cpus or os.cpu_count() or 2}",
        "--include-dashboard=false",
        "--disable-usage-stats",
        f"--object-store-memory={256 << 20}",
        f"--ray-client-server-port={_free_port()}",
        f"--dashboard-agent-listen-port={_free_port()}",
    ]
    logs = home / "logs"
    logs.mkdir(exist_ok=True)
    with open(logs / "ray-head.log", "ab") as out:
        proc = subprocess.Popen(
            cmd, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
    head = Head(f"127.0.0.1:{port}", proc.pid, os.getpid())
    give_up = time.monotonic() + timeout_s
    while not head.alive():
        if proc.poll() is not None:
            raise Unavailable(f"`ray start --head` exited with {proc.returncode}; see {str(logs / 'ray-head.log')!r}")
        if time.monotonic() > give_up:
            stop_head(head)
            raise Unavailable(f"the Ray head did not listen on {head.address} within {timeout_s:.0f}s")
        time.sleep(0.1)
    _record(home, head)
    log.info("started a Ray head at %s (pid %d); it outlives this process", head.address, head.pid)
    return head, True


def stop_head(head: Head, timeout_s: float = 30.0) -> None:
    """SIGTERM the head's session (its raylet, GCS and workers), then SIGKILL what is left."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(head.pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        give_up = time.monotonic() + timeout_s
        while time.monotonic() < give_up:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(head.pid, os.WNOHANG)
            try:
                os.killpg(head.pid, 0)
            except (ProcessLookupError, PermissionError):
                return
            time.sleep(0.1)


def stop(home: Path) -> Head | None:
    """Stop the head recorded in ``home`` and forget it; returns it (None when none was recorded)."""
    head = recorded(home)
    if head is None:
        return None
    if head.alive():
        stop_head(head)
    with contextlib.suppress(FileNotFoundError):
        (Path(home) / HEAD_FILE).unlink()
    return head

"""A TLS certificate for tests that serve on loopback: ``workers.auth.self_signed``, written to files."""

from __future__ import annotations

from pathlib import Path

from fourfold.workers.auth import self_signed as make_self_signed


def self_signed(base: Path) -> tuple[Path, Path]:
    """A certificate for localhost / 127.0.0.1 and its key, made for this test run: their paths."""
    cert_pem, key_pem = make_self_signed(("localhost",), ("127.0.0.1",), days=1)
    cert_path, key_path = base / "cert.pem", base / "key.pem"
    cert_path.write_bytes(cert_pem)
    key_path.write_bytes(key_pem)
    return cert_path, key_path

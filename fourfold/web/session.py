"""Browser sessions and CSRF tokens for the search page, signed with a server secret.

A browser logs in once with its bearer token (a form POST); the answer sets a cookie holding the
token and an expiry, signed with HMAC-SHA256 — HTTP-only, SameSite=Strict and Secure when the
page is served over TLS. The web server keeps no state of its own, so any replica that shares the
secret (``$FOURFOLD_WEB_SECRET``) serves any browser, and a restart logs nobody out.

The login and logout forms carry a CSRF token: an HMAC of a random per-browser value kept in its
own SameSite=Strict cookie (double submit), so a form posted from another site is refused even by
a browser that ignores SameSite.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets
import time
from dataclasses import dataclass

__all__ = ["CSRF_COOKIE", "SECRET_ENV", "SESSION_COOKIE", "Signer"]

#: Environment variable holding the signing secret shared by every web replica.
SECRET_ENV = "FOURFOLD_WEB_SECRET"
SESSION_COOKIE = "fourfold_session"
CSRF_COOKIE = "fourfold_csrf"
#: How long a login lasts.
SESSION_TTL_S = 12 * 3600


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True, slots=True)
class Signer:
    """Signs and checks session cookies and CSRF tokens with one secret."""

    secret: bytes
    ttl_s: int = SESSION_TTL_S

    @classmethod
    def from_env(cls, secret: str | None = None) -> Signer:
        """The signer of ``secret``, else ``$FOURFOLD_WEB_SECRET``, else a random one (sessions then
        last as long as this process)."""
        value = secret or os.environ.get(SECRET_ENV) or ""
        return cls(value.encode() if value else secrets.token_bytes(32))

    def _mac(self, purpose: str, payload: str) -> str:
        return _b64(hmac.new(self.secret, f"{purpose}\0{payload}".encode(), hashlib.sha256).digest())

    def session(self, token: str, now: float | None = None) -> str:
        """The cookie value carrying ``token`` until the session expires."""
        payload = _b64(json.dumps({"t": token, "e": int((time.time() if now is None else now) + self.ttl_s)}).encode())
        return f"{payload}.{self._mac('session', payload)}"

    def token_of(self, cookie: str | None, now: float | None = None) -> str | None:
        """The token a session cookie carries, or None when it is missing, forged or expired."""
        if not cookie or "." not in cookie:
            return None
        payload, mac = cookie.rsplit(".", 1)
        if not hmac.compare_digest(mac, self._mac("session", payload)):
            return None
        try:
            data = json.loads(_unb64(payload))
        except (ValueError, UnicodeDecodeError):
            return None
        if not isinstance(data, dict) or int(data.get("e", 0)) < (time.time() if now is None else now):
            return None
        token = data.get("t")
        return token if isinstance(token, str) and token else None

    @staticmethod
    def new_nonce() -> str:
        """A fresh value for the CSRF cookie."""
        return secrets.token_urlsafe(24)

    def csrf(self, nonce: str) -> str:
        """The form token that goes with the CSRF cookie ``nonce``."""
        return self._mac("csrf", nonce)

    def csrf_ok(self, nonce: str | None, token: str | None) -> bool:
        return bool(nonce and token) and hmac.compare_digest(self.csrf(nonce or ""), token or "")

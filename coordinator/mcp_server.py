"""``fourfold mcp``: code search for AI agents over the Model Context Protocol (stdio or streamable HTTP).

The server is a thin layer over :class:`fourfold.AsyncClient`: every tool is one call to the
coordinator. Over stdio it acts with the token it was started with (the agent started it); over
HTTP it acts with each caller's own ``Authorization: Bearer`` token, passed through to the
coordinator, and answers 401 to a request without one — never with a token of its own. Either
way an agent sees exactly what its token may read. Answers are compact text — one line per hit
(``repo:path:start-end kind symbol``, why it matched, the first lines of code) and never longer
than :data:`MAX_ANSWER_CHARS`, so a tool call cannot flood an agent's context.
"""

from __future__ import annotations

import contextvars
import glob as glob_mod
import json
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from fourfold.api import FileText
from fourfold.coordinator.engine import Answer
from fourfold.errors import FourfoldError
from fourfold.plugins.types import CONTEXT_OPTION, MAX_CONTEXT_LINES, MAX_COUNT_OPTION, MULTILINE_OPTION

__all__ = ["MAX_ANSWER_CHARS", "MAX_K", "Backend", "RequireBearer", "build_server", "caller_token", "format_answer"]

#: The bearer token of the HTTP request a tool call came in (None over stdio).
_caller: contextvars.ContextVar[str | None] = contextvars.ContextVar("fourfold_mcp_caller", default=None)


def caller_token() -> str | None:
    """The ``Authorization: Bearer`` token of the HTTP caller being served (None over stdio)."""
    return _caller.get()


def _bearer(authorization: str | None) -> str | None:
    scheme, _, token = (authorization or "").strip().partition(" ")
    return token.strip() if scheme.lower() == "bearer" and token.strip() else None


def _request_token(ctx: Context | None) -> str | None:
    """The bearer token of the HTTP request behind a tool call (None over stdio)."""
    try:
        request = ctx.request_context.request if ctx is not None else None
    except ValueError:  # outside a request
        return None
    headers = getattr(request, "headers", None)
    return _bearer(headers.get("authorization")) if headers is not None else None


class RequireBearer:
    """ASGI middleware: an HTTP request without a well-formed ``Authorization: Bearer`` token gets
    401 before it reaches the MCP server (the coordinator judges the token itself)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope.get("type") == "http":
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", ())}
            token = _bearer(headers.get("authorization"))
            why = "" if token else "send 'Authorization: Bearer <token>' (a fourfold token; `fourfold token` makes one)"
            if token:
                from fourfold.errors import Unauthenticated
                from fourfold.rpc_errors import check_token

                try:
                    check_token(token)
                except Unauthenticated as exc:
                    why = str(exc)
            if why:
                body = json.dumps({"error": "unauthorized", "message": why}).encode()
                await send(
                    {
                        "type": "http.response.start",
                        "status": 401,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"www-authenticate", b'Bearer realm="fourfold"'),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


#: Upper bound of one tool answer, in characters.
MAX_ANSWER_CHARS = 6_000
#: Most hits one tool call may ask for.
MAX_K = 30
#: Lines of code shown under each hit.
SNIPPET_LINES = 3
#: Matching line numbers shown per hit (the rest counted).
MATCH_LINES = 20
#: Segments of one file read_segment looks through for the one holding a line.
READ_SEGMENT_CANDIDATES = 1000
#: Coordinator clients an HTTP MCP server keeps open, one per caller token.
MAX_CALLER_CLIENTS = 64

INSTRUCTIONS = (
    "fourfold searches indexed source code by intent. Prefer find_definition for 'where is X defined', "
    "find_references for 'who calls / uses X', find_implementations for 'what implements or extends X', "
    "impact for 'what breaks if X changes', localize for a "
    "whole bug report (an issue, a stack trace: which files to look at), and search for questions, "
    "quoted strings, regexes or pasted code. Results are 'repo:path:start-end kind symbol'; "
    "call read_segment on one to see its code, or read_file for a file's lines (repo, path, start_line, end_line). "
    "list_repositories names what you may search."
)


class Backend(Protocol):
    """What the tools need from a coordinator (``fourfold.AsyncClient`` fits)."""

    async def search(self, query: str, **kw: Any) -> Answer: ...

    async def repositories(self) -> Sequence[Any]: ...

    async def read_file(self, repo: str, path: str, start_line: int = 0, end_line: int = 0) -> FileText: ...


@dataclass(frozen=True, slots=True)
class _Bounds:
    max_chars: int = MAX_ANSWER_CHARS
    snippet_lines: int = SNIPPET_LINES


def format_answer(answer: Answer, bounds: _Bounds = _Bounds()) -> str:
    """One compact block: a header line, then one entry per hit, cut at ``bounds.max_chars``."""
    head = f"{len(answer.hits)} hits · intent {answer.intent} · {answer.fusion_strategy}"
    if answer.partial:
        head += f" · PARTIAL (missing {', '.join(answer.missing_shards)})"
    if answer.no_confident_match:
        head += " · NO CONFIDENT MATCH (the hits are candidates, not answers)"
    lines = [head]
    totals = answer.totals()
    if totals:
        lines.append(
            f"{totals} · "
            + ("complete" if answer.complete else "INCOMPLETE")
            + (f" · next page: cursor={answer.cursor}" if answer.cursor else "")
        )
    lines.extend(f"note: {n}" for n in answer.notes[:3])
    size = sum(len(x) + 1 for x in lines)
    for i, f in enumerate(answer.hits, 1):
        h = f.hit
        what = f" {h.kind or 'def'} {h.symbol}" if h.symbol else ""
        why = ", ".join(
            f"{m}#{r.rank + 1}" for m, r in sorted(f.modalities.items(), key=lambda kv: -kv[1].contribution)
        )
        shown = ",".join(map(str, h.match_lines[:MATCH_LINES]))
        more = f" +{len(h.match_lines) - MATCH_LINES} more" if len(h.match_lines) > MATCH_LINES else ""
        matched = f" lines {shown}{more}" if h.match_lines else ""
        ranked = (
            f"  [{(why + matched).strip()}]" if why or matched else ""
        )  # a file's segments read in line order rank nothing
        entry = [f"{i}. {h.repo}:{h.path}:{h.start_line}-{h.end_line}{what}{ranked}"]
        listed = answer.total_files and h.match_lines  # a listing's lines as the text modality cut them: all
        entry.extend(f"   | {ln[:160]}" for ln in h.snippet.splitlines()[: None if listed else bounds.snippet_lines])
        while i == 1 and len(entry) > 2 and size + sum(len(x) + 1 for x in entry) > bounds.max_chars:
            entry.pop()  # the first hit is always shown: its lines of context cut to fit
        block = "\n".join(entry)
        if size + len(block) + 1 > bounds.max_chars:
            lines.append(
                f"… {len(answer.hits) - i + 1} more hits cut to stay under {bounds.max_chars} characters; ask for "
                "fewer (k) or narrow with repos"
            )
            break
        lines.append(block)
        size += len(block) + 1
    if not answer.hits and not any(n.startswith("text: folders in ") for n in answer.notes):  # find -type d: named
        lines.append(
            "no hits: try another phrasing, a different tool, or list_repositories to check what you may search"
        )
    return "\n".join(lines)


def _k(k: int) -> int:
    if not 1 <= k <= MAX_K:
        raise ToolError(f"k must be 1 to {MAX_K}, got {k}")
    return k


def build_server(backend: Callable[[], Awaitable[Backend]], *, name: str = "fourfold") -> MCPServer:
    """The MCP server; ``backend()`` gives the coordinator client (made lazily on the serving loop)."""
    server: MCPServer = MCPServer(name=name, instructions=INSTRUCTIONS)

    async def as_caller(ctx: Context | None, call: Callable[[Backend], Awaitable[Any]]) -> Any:
        """``call(backend)`` on behalf of the HTTP caller behind ``ctx`` (see :func:`caller_token`)."""
        reset = _caller.set(_request_token(ctx))
        try:
            return await call(await backend())
        except FourfoldError as exc:
            raise ToolError(str(exc)) from None
        finally:
            _caller.reset(reset)

    async def run(ctx: Context | None, query: str, **kw: Any) -> str:
        return format_answer(await as_caller(ctx, lambda b: b.search(query, snippets=True, **kw)))

    @server.tool()
    async def search(
        query: str,
        repos: list[str] | None = None,
        intent: str = "",
        preset: str = "default",
        k: int = 10,
        mode: str = "",
        cursor: str = "",
        context_lines: int = 0,
        max_count: int = 0,
        multiline: bool = False,
        ctx: Context | None = None,
    ) -> str:
        """Search code by meaning, name, exact string or pasted snippet; fourfold picks the retrieval
        (semantic, text, structural, graph) from the query's intent. Use for questions ("how are
        retries handled"), quoted strings ("\\"connection refused\\""), a pattern between slashes
        ("/retry_\\w+\\(/") or pasted code (the code holding its lines first, then code like it).
        Filters may be written in the query as in Zoekt or Sourcegraph: repo:NAME, file:PATH (a
        fragment, ^anchor$ or glob), -file:test, lang:go, ext:ts, case:yes, sym:NAME (its definition),
        content:"text" (its lines), e.g. "lang:python -file:tests who calls retry"; and an rg, grep or
        git grep command is run as its listing ('rg -n -t py "retry_budget" src/', with its -C lines and a pipe into
        grep: '| grep -v _test'), a find, fd, git ls-files, ls or tree command (or file:PATH alone) as the list of
        those files ("find . -name '*_test.go'", "ls src/": its files, and its folders in a note; "find . -type d",
        "tree -d": the folders alone), and cat, head, tail, sed -n, awk 'NR…', wc -l or git show REV:FILE of a file
        as its segments holding those lines (read_file gives the lines themselves). Commands are read as a shell runs
        them: globs and braces ("head -n 3 src/*.py", "cat src/{a,b}.py"), pipes ("head -50 a.py | tail -10"),
        "cd DIR &&", "$(find …)", for loops and commands in turn ("cat a.py && cat b.py"); "| head -20" keeps the
        first 20 lines, counts sorted ("rg -c X | sort -t: -k2 -rn") rank files by matches, and paths sorted ("rg -l X
        | sort", "rg --sort path") list in path order; rg -U matches across lines; go doc and pydoc ask for a
        definition. A shell call is run as its command (bash -lc '…',
        ["bash", "-lc", "…"], Bash(command=…)), and another agent's read or grep call as its tool reads it.
        Optional: repos to search only those; intent to force one of find_definition,
        find_references, understand_code, find_similar, impact_analysis, exact_match, localize; preset quick,
        default or thorough; k hits (1-30). mode "regex" (RE2) or "literal" lists the files and
        every matching line with exact totals and says whether the list is complete; "paths" lists the
        files whose path holds the query (core.py) or matches it as a glob (src/**/*_test.go); pass the
        answer's cursor back (same query) for the next page; context_lines (0-10) shows that many lines around
        each matching line of a listing, numbered as grep -n -C prints them ("12:" a match, "11-" context);
        max_count keeps each file's first N matching lines, as grep -m N; multiline lets a regex's matches span
        lines, "." matching newlines too (rg -U --multiline-dotall), listing each line a match spans."""
        if mode not in ("", "literal", "regex", "paths"):
            raise ToolError(f"mode must be '', 'literal', 'regex' or 'paths', got {mode!r}")
        if not 0 <= context_lines <= MAX_CONTEXT_LINES:
            raise ToolError(f"context_lines must be 0 to {MAX_CONTEXT_LINES}, got {context_lines}")
        if max_count < 0:
            raise ToolError(f"max_count must be 0 (every line) or more, got {max_count}")
        options = {"mode": mode} if mode else {}
        if context_lines:
            options[CONTEXT_OPTION] = str(context_lines)
        if max_count:
            options[MAX_COUNT_OPTION] = str(max_count)
        if multiline:
            if mode not in ("", "regex"):
                raise ToolError(
                    f"multiline reads a regular expression whose matches span lines: use mode 'regex', not {mode!r}"
                )
            options.update({"mode": "regex", MULTILINE_OPTION: "dotall"})
        return await run(
            ctx, query, repos=repos or (), intent=intent, preset=preset, k=_k(k), options=options, cursor=cursor
        )

    @server.tool()
    async def find_definition(
        symbol: str, repos: list[str] | None = None, k: int = 5, ctx: Context | None = None
    ) -> str:
        """Where is a function, class, method or type defined? Give the name (``parse_config`` or
        ``Session.send``); returns its definitions, best first."""
        return await run(ctx, symbol, repos=repos or (), intent="find_definition", k=_k(k))

    @server.tool()
    async def find_references(
        symbol: str, repos: list[str] | None = None, k: int = 10, ctx: Context | None = None
    ) -> str:
        """Who calls or uses a symbol? Give the name; returns the call sites and references from the
        code graph, most certain first. Use before changing a function's signature."""
        return await run(ctx, symbol, repos=repos or (), intent="find_references", k=_k(k))

    @server.tool()
    async def find_implementations(
        symbol: str, repos: list[str] | None = None, k: int = 10, ctx: Context | None = None
    ) -> str:
        """Which types implement an interface or protocol, or extend a class? Give its name (``Formatter``,
        ``Modality``); returns the implementing and subclassing types from the code graph, directly or through
        another type, the shipped ones first. Go interfaces and Python ``typing.Protocol`` count a type that has
        their methods, as the compilers do."""
        return await run(
            ctx, symbol, repos=repos or (), intent="find_references", k=_k(k), options={"relation": "implementations"}
        )

    @server.tool()
    async def impact(symbol: str, repos: list[str] | None = None, k: int = 15, ctx: Context | None = None) -> str:
        """What depends on a symbol, directly and transitively (callers of callers, subclasses,
        importers)? Use to judge the blast radius of a change before making it."""
        return await run(ctx, symbol, repos=repos or (), intent="impact_analysis", k=_k(k))

    @server.tool()
    async def localize(report: str, repos: list[str] | None = None, k: int = 10, ctx: Context | None = None) -> str:
        """Which files does a bug report concern? Paste the whole issue: title, prose, stack trace,
        snippet, error message (up to 10,000 characters; the first 8,000 are read). Returns files,
        best first, each with its most relevant function; the notes say which evidence (frames,
        paths, identifiers' definitions, error strings, words) ranked them."""
        return await run(ctx, report, repos=repos or (), intent="localize", k=_k(k))

    @server.tool()
    async def read_segment(repo: str, path: str, line: int, symbol: str = "", ctx: Context | None = None) -> str:
        """Show the code of a hit the other tools listed as ``repo:path:start-end kind symbol``: give
        its repo, path, a line inside it and, for a definition, its symbol. Returns the segment's
        location and its first lines of code."""
        if line < 1:
            raise ToolError(f"line must be 1 or more, got {line}")
        # Text searches within the file, every matching segment kept (segments=all), then the
        # innermost one holding the line: first for the symbol (else any character: a method line
        # inside a 1,500-line class gives the method), then for top-level lines (a line between
        # methods gives the enclosing class, even when the file has more segments than one search
        # returns). Reading a segment by id needs a ReadSegment RPC in the public API (not there yet).
        owning: list[Any] = []

        def segments_matching(query: str, regex: bool) -> Callable[[Backend], Awaitable[Answer]]:
            return lambda b: b.search(
                query,
                repos=(repo,),
                path_glob=glob_mod.escape(path),
                modalities=("text",),
                regex=regex,
                intent="exact_match",
                options={"segments": "all"},
                snippets=True,
                k=READ_SEGMENT_CANDIDATES,
            )

        for query, regex in ((symbol, False) if symbol else (".", True), (r"^\S", True)):
            answer = await as_caller(ctx, segments_matching(query, regex))
            owning = [f.hit for f in answer.hits if f.hit.path == path and f.hit.start_line <= line <= f.hit.end_line]
            if owning:
                break
        if not owning:
            raise ToolError(f"no indexed segment of {repo}:{path} contains line {line}; check the path and line")
        h = min(owning, key=lambda x: x.end_line - x.start_line)  # the innermost
        what = f" {h.kind or 'def'} {h.symbol}" if h.symbol else ""
        return f"{h.repo}:{h.path}:{h.start_line}-{h.end_line}{what}\n{h.snippet}"[:MAX_ANSWER_CHARS]

    @server.tool()
    async def read_file(
        repo: str, path: str, start_line: int = 1, end_line: int = 0, ctx: Context | None = None
    ) -> str:
        """Read a file's lines as indexed, each after its number: ``start_line`` to ``end_line`` (0: to the end),
        as many as fit one answer; the last line says where to read on. ``repo`` and ``path`` as the other tools
        name a hit (``repo:path:start-end``)."""
        if start_line < 1 or end_line < 0 or (end_line and end_line < start_line):
            raise ToolError(
                f"lines {start_line}-{end_line} are no range: give 1 <= start_line <= end_line (end_line 0: to the end)"
            )
        f: FileText = await as_caller(ctx, lambda b: b.read_file(repo, path, start_line, end_line))
        text, more = f.numbered(MAX_ANSWER_CHARS - 200)
        if more and (not end_line or more <= end_line):
            text += f"\n… read on with start_line={more} (the file has {f.total_lines} lines)"
        return text

    @server.tool()
    async def list_repositories(ctx: Context | None = None) -> str:
        """The repositories you may search, with their size. Use the names in the repos argument of
        the other tools."""
        repos = await as_caller(ctx, lambda b: b.repositories())
        if not repos:
            return "no repositories: nothing is indexed, or this token may read none"
        return "\n".join(f"{r.name}: {r.files} files, {r.segments} segments" for r in repos)[:MAX_ANSWER_CHARS]

    return server


def serve(
    address: str,
    *,
    transport: str = "stdio",
    host: str = "127.0.0.1",
    port: int = 8765,
    token: str | None = None,
    tls: bool = False,
    ca_cert: str | None = None,
) -> None:
    """Run the MCP server in the foreground, talking to the coordinator at ``address``.

    Over stdio every call carries ``token`` (default ``$FOURFOLD_TOKEN``); over HTTP each carries
    its caller's bearer token (one coordinator client per token, the least recently used closed
    beyond :data:`MAX_CALLER_CLIENTS`), and ``token`` is never used.
    """
    from fourfold.client import AsyncClient

    clients: OrderedDict[str | None, AsyncClient] = OrderedDict()

    async def backend() -> Backend:
        # made on the serving loop: a grpc.aio channel belongs to one loop
        if transport == "stdio":
            who: str | None = token
        else:
            who = caller_token()
            if not who:  # RequireBearer answers 401 first; this guards a call from elsewhere
                raise FourfoldError("this MCP endpoint needs each caller's 'Authorization: Bearer <token>'")
        client = clients.get(who)
        if client is None:
            # over HTTP the caller's own token, explicitly: never the server's $FOURFOLD_TOKEN
            client = AsyncClient(address, token=who, tls=tls, ca_cert=ca_cert)
            clients[who] = client
            while len(clients) > MAX_CALLER_CLIENTS:
                await clients.popitem(last=False)[1].close()
        clients.move_to_end(who)
        return client

    server = build_server(backend)
    if transport == "stdio":
        server.run("stdio")
        return
    import uvicorn

    app = RequireBearer(server.streamable_http_app(host=host))
    uvicorn.run(app, host=host, port=port, log_level="warning")

"""``fourfold mcp``: code search for AI agents over the Model Context Protocol (stdio or streamable HTTP).

The server is a thin layer over :class:`fourfold.AsyncClient`: every tool is one call to the
coordinator with the token the server was started with, so an agent sees exactly what that token
may read. Answers are compact text — one line per hit (``repo:path:start-end kind symbol``, why it
matched, the first lines of code) and never longer than :data:`MAX_ANSWER_CHARS`, so a tool call
cannot flood an agent's context.
"""

from __future__ import annotations

import glob as glob_mod
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError

from fourfold.coordinator.engine import Answer
from fourfold.errors import FourfoldError

__all__ = ["MAX_ANSWER_CHARS", "MAX_K", "Backend", "build_server", "format_answer"]

#: Upper bound of one tool answer, in characters.
MAX_ANSWER_CHARS = 6_000
#: Most hits one tool call may ask for.
MAX_K = 30
#: Lines of code shown under each hit.
SNIPPET_LINES = 3

INSTRUCTIONS = (
    "fourfold searches indexed source code by intent. Prefer find_definition for 'where is X defined', "
    "find_references for 'who calls / uses X', impact for 'what breaks if X changes', and search for "
    "questions, quoted strings, regexes or pasted code. Results are 'repo:path:start-end kind symbol'; "
    "call read_segment on one to see its code. list_repositories names what you may search."
)


class Backend(Protocol):
    """What the tools need from a coordinator (``fourfold.AsyncClient`` fits)."""

    async def search(self, query: str, **kw: Any) -> Answer: ...

    async def repositories(self) -> Sequence[Any]: ...


@dataclass(frozen=True, slots=True)
class _Bounds:
    max_chars: int = MAX_ANSWER_CHARS
    snippet_lines: int = SNIPPET_LINES


def format_answer(answer: Answer, bounds: _Bounds = _Bounds()) -> str:
    """One compact block: a header line, then one entry per hit, cut at ``bounds.max_chars``."""
    head = f"{len(answer.hits)} hits · intent {answer.intent} · {answer.fusion_strategy}"
    if answer.partial:
        head += f" · PARTIAL (missing {', '.join(answer.missing_shards)})"
    lines = [head]
    lines.extend(f"note: {n}" for n in answer.notes[:3])
    size = sum(len(x) + 1 for x in lines)
    for i, f in enumerate(answer.hits, 1):
        h = f.hit
        what = f" {h.kind or 'def'} {h.symbol}" if h.symbol else ""
        why = ", ".join(
            f"{m}#{r.rank + 1}" for m, r in sorted(f.modalities.items(), key=lambda kv: -kv[1].contribution)
        )
        matched = f" lines {','.join(map(str, h.match_lines[:5]))}" if h.match_lines else ""
        entry = [f"{i}. {h.repo}:{h.path}:{h.start_line}-{h.end_line}{what}  [{why}{matched}]"]
        entry.extend(f"   | {ln[:160]}" for ln in h.snippet.splitlines()[: bounds.snippet_lines])
        block = "\n".join(entry)
        if size + len(block) + 1 > bounds.max_chars:
            lines.append(
                f"… {len(answer.hits) - i + 1} more hits cut to stay under {bounds.max_chars} characters; ask for "
                "fewer (k) or narrow with repos"
            )
            break
        lines.append(block)
        size += len(block) + 1
    if not answer.hits:
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

    async def run(query: str, **kw: Any) -> str:
        try:
            answer = await (await backend()).search(query, snippets=True, **kw)
        except FourfoldError as exc:
            raise ToolError(str(exc)) from None
        return format_answer(answer)

    @server.tool()
    async def search(
        query: str, repos: list[str] | None = None, intent: str = "", preset: str = "default", k: int = 10
    ) -> str:
        """Search code by meaning, name, exact string or pasted snippet; fourfold picks the retrieval
        (semantic, text, structural, graph) from the query's intent. Use for questions ("how are
        retries handled"), quoted strings ("\\"connection refused\\""), or code to find similar code.
        Optional: repos to search only those; intent to force one of find_definition,
        find_references, understand_code, find_similar, impact_analysis, exact_match; preset quick,
        default or thorough; k hits (1-30)."""
        return await run(query, repos=repos or (), intent=intent, preset=preset, k=_k(k))

    @server.tool()
    async def find_definition(symbol: str, repos: list[str] | None = None, k: int = 5) -> str:
        """Where is a function, class, method or type defined? Give the name (``parse_config`` or
        ``Session.send``); returns its definitions, best first."""
        return await run(symbol, repos=repos or (), intent="find_definition", k=_k(k))

    @server.tool()
    async def find_references(symbol: str, repos: list[str] | None = None, k: int = 10) -> str:
        """Who calls or uses a symbol? Give the name; returns the call sites and references from the
        code graph, most certain first. Use before changing a function's signature."""
        return await run(symbol, repos=repos or (), intent="find_references", k=_k(k))

    @server.tool()
    async def impact(symbol: str, repos: list[str] | None = None, k: int = 15) -> str:
        """What depends on a symbol, directly and transitively (callers of callers, subclasses,
        importers)? Use to judge the blast radius of a change before making it."""
        return await run(symbol, repos=repos or (), intent="impact_analysis", k=_k(k))

    @server.tool()
    async def read_segment(repo: str, path: str, line: int, symbol: str = "") -> str:
        """Show the code of a hit the other tools listed as ``repo:path:start-end kind symbol``: give
        its repo, path, a line inside it and, for a definition, its symbol. Returns the segment's
        location and its first lines of code."""
        if line < 1:
            raise ToolError(f"line must be 1 or more, got {line}")
        # A text search within the file for the symbol (else for any character): the engine keeps
        # the best segment per file, which for a definition's own name is the definition. Reading
        # any segment by id needs a ReadSegment RPC in the public API (not there yet).
        query, regex = (symbol, False) if symbol else (".", True)
        try:
            answer = await (await backend()).search(
                query,
                repos=(repo,),
                path_glob=glob_mod.escape(path),
                modalities=("text",),
                regex=regex,
                intent="exact_match",
                snippets=True,
                k=MAX_K,
            )
        except FourfoldError as exc:
            raise ToolError(str(exc)) from None
        owning = [f.hit for f in answer.hits if f.hit.path == path and f.hit.start_line <= line <= f.hit.end_line]
        if not owning:
            hint = "" if symbol else "; pass the hit's symbol too"
            raise ToolError(f"no indexed segment of {repo}:{path} contains line {line}{hint}")
        h = min(owning, key=lambda x: x.end_line - x.start_line)  # the innermost
        what = f" {h.kind or 'def'} {h.symbol}" if h.symbol else ""
        return f"{h.repo}:{h.path}:{h.start_line}-{h.end_line}{what}\n{h.snippet}"[:MAX_ANSWER_CHARS]

    @server.tool()
    async def list_repositories() -> str:
        """The repositories you may search, with their size. Use the names in the repos argument of
        the other tools."""
        try:
            repos = await (await backend()).repositories()
        except FourfoldError as exc:
            raise ToolError(str(exc)) from None
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
    """Run the MCP server in the foreground, talking to the coordinator at ``address``."""
    from fourfold.client import AsyncClient

    client: list[AsyncClient] = []

    async def backend() -> Backend:
        if not client:  # made on the serving loop: a grpc.aio channel belongs to one loop
            client.append(AsyncClient(address, token=token, tls=tls, ca_cert=ca_cert))
        return client[0]

    server = build_server(backend)
    if transport == "stdio":
        server.run("stdio")
    else:
        server.run("streamable-http", host=host, port=port)

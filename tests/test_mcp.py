"""The MCP server: tools, descriptions and bounded answers in process with a stand-in coordinator,
then ``fourfold mcp`` over stdio with the SDK's own client against the session's real index."""

from __future__ import annotations

import asyncio
import dataclasses
import os
import sys
import time
from collections.abc import Sequence
from typing import Any

import pytest
from mcp import Client as McpClient
from mcp import StdioServerParameters

from fourfold.api import FileText
from fourfold.client import RepoInfo
from fourfold.coordinator.engine import Answer
from fourfold.coordinator.fusion import FusedHit, ModalityRank
from fourfold.coordinator.mcp_server import MAX_ANSWER_CHARS, build_server, format_answer
from fourfold.errors import NotFound, PermissionDenied
from fourfold.plugins.types import Hit

TOOLS = {
    "search",
    "find_definition",
    "find_references",
    "find_implementations",
    "impact",
    "localize",
    "read_segment",
    "read_file",
    "list_repositories",
}


def answer(n: int, snippet_lines: int = 10) -> Answer:
    hits = tuple(
        FusedHit(
            Hit(
                f"id{i}",
                "payments",
                f"src/module_{i}.py",
                10 * i + 1,
                10 * i + 9,
                1.0 / (i + 1),
                f"handler_{i}",
                "function",
                "python",
                (10 * i + 2,),
                0.0,
                "\n".join(f"line {j} of handler_{i} " + "x" * 100 for j in range(snippet_lines)),
            ),
            1.0 / (i + 1),
            {"text": ModalityRank(i, 0.01, 3.0), "semantic": ModalityRank(0, 0.02, 0.8)},
        )
        for i in range(n)
    )
    return Answer(
        "find_definition", 0.95, "fused", "default", False, (), hits, n, {"total": 3.0}, "g000001", (), {"text": 1.0}
    )


class FakeCoordinator:
    """Records the searches; answers ``hits`` hits; refuses the repository ``secret``."""

    def __init__(self, hits: int = 3) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.hits = hits

    async def search(self, query: str, **kw: Any) -> Answer:
        self.calls.append((query, kw))
        if "secret" in kw.get("repos", ()):
            raise PermissionDenied("repository 'secret' is not one you may search; yours: payments")
        return answer(self.hits)

    async def repositories(self) -> Sequence[RepoInfo]:
        return [RepoInfo("payments", "", 12, 340)]

    async def read_file(self, repo: str, path: str, start_line: int = 0, end_line: int = 0) -> FileText:
        """A 2,000-line file of 60-character lines, as ReadFile answers it."""
        self.calls.append((path, {"repo": repo, "start_line": start_line, "end_line": end_line}))
        if repo != "payments":
            raise NotFound(f"no file {path!r} in repository {repo!r}")
        last = min(end_line or 2000, 2000)
        lines = [f"line {n} ".ljust(60, "x") for n in range(start_line, last + 1)]
        return FileText(repo, path, "python", "g1", start_line, last, 2000, "\n".join(lines), ())


def test_read_file_shows_numbered_lines_as_many_as_fit_and_where_to_read_on() -> None:
    fake = FakeCoordinator()

    async def backend() -> FakeCoordinator:
        return fake

    async def run() -> list[tuple[bool, str]]:
        async with McpClient(build_server(backend)) as client:
            out = []
            for args in (
                {"repo": "payments", "path": "src/pay.py"},
                {"repo": "payments", "path": "src/pay.py", "start_line": 1990},
                {"repo": "payments", "path": "src/pay.py", "start_line": 10, "end_line": 12},
                {"repo": "payments", "path": "src/pay.py", "start_line": 5, "end_line": 2},
                {"repo": "secret", "path": "src/pay.py"},
            ):
                r = await client.call_tool("read_file", args)
                out.append((r.is_error, r.content[0].text))
            return out

    whole, tail, few, backwards, hidden = asyncio.run(run())
    lines = whole[1].splitlines()
    assert not whole[0] and len(whole[1]) <= MAX_ANSWER_CHARS
    shown = len(lines) - 2  # the header and the last line
    assert lines[0] == f"payments:src/pay.py:1-{shown} of 2000 lines · python"
    assert (
        lines[1].startswith("   1  line 1 ")
        and lines[-1] == f"… read on with start_line={shown + 1} (the file has 2000 lines)"
    )
    assert (
        tail[1].splitlines()[0] == "payments:src/pay.py:1990-2000 of 2000 lines · python" and "read on" not in tail[1]
    )
    assert few[1].splitlines() == [
        "payments:src/pay.py:10-12 of 2000 lines · python",
        *(f"{n}  line {n} ".ljust(64, "x") for n in (10, 11, 12)),
    ]
    assert backwards[0] and "lines 5-2 are no range" in backwards[1]
    assert hidden[0] and "no file 'src/pay.py' in repository 'secret'" in hidden[1]


def test_answers_are_compact_and_bounded() -> None:
    text = format_answer(answer(3, snippet_lines=2))
    lines = text.splitlines()
    assert lines[0] == "3 hits · intent find_definition · fused"
    assert lines[1] == "1. payments:src/module_0.py:1-9 function handler_0  [semantic#1, text#1 lines 2]"
    assert lines[2].startswith("   | line 0 of handler_0")
    big = format_answer(answer(200))
    assert len(big) <= MAX_ANSWER_CHARS and "more hits cut" in big.splitlines()[-1]
    assert "no hits" in format_answer(answer(0))


def test_a_listings_lines_are_shown_whole_and_the_first_hit_always() -> None:
    ranked = answer(2, snippet_lines=10)
    assert sum(line.startswith("   | ") for line in format_answer(ranked).splitlines()) == 6  # 3 lines a hit
    listing = dataclasses.replace(ranked, total_matches=2, total_files=2)
    assert sum(line.startswith("   | ") for line in format_answer(listing).splitlines()) == 20  # the context lines
    huge = dataclasses.replace(answer(2, snippet_lines=80), total_matches=2, total_files=2)
    text = format_answer(huge)  # 80 lines of 130 characters: the first hit's cut to fit, the second left out
    assert len(text) <= MAX_ANSWER_CHARS and "1. payments:src/module_0.py" in text and "1 more hits cut" in text


def test_tools_call_the_coordinator_with_the_right_intent() -> None:
    fake = FakeCoordinator()

    async def backend() -> FakeCoordinator:
        return fake

    async def run() -> dict[str, Any]:
        out: dict[str, Any] = {}
        async with McpClient(build_server(backend)) as client:
            tools = {t.name: t for t in (await client.list_tools()).tools}
            out["tools"] = tools
            for name, args in [
                ("search", {"query": "how are refunds computed", "k": 3}),
                ("find_definition", {"symbol": "refund"}),
                ("find_references", {"symbol": "refund", "repos": ["payments"]}),
                ("impact", {"symbol": "refund"}),
                ("list_repositories", {}),
                ("search", {"query": "x", "repos": ["secret"]}),
                ("search", {"query": "x", "k": 99}),
                ("read_segment", {"repo": "payments", "path": "src/module_1.py", "line": 12, "symbol": "handler_1"}),
                ("localize", {"report": 'Refunds fail\nTraceback:\n  File "pay.py", line 3, in refund', "k": 4}),
                ("find_implementations", {"symbol": "Gateway", "k": 4}),
            ]:
                r = await client.call_tool(name, args)
                out[f"{name}:{len(out)}"] = (r.is_error, r.content[0].text)
        return out

    out = asyncio.run(run())
    assert set(out["tools"]) == TOOLS
    assert all(len(t.description or "") > 80 for t in out["tools"].values())  # written for an agent choosing a tool
    intents = [kw.get("intent", "") for _, kw in fake.calls]
    assert intents[:4] == ["", "find_definition", "find_references", "impact_analysis"]
    assert (
        list(fake.calls[2][1]["repos"]) == ["payments"] and fake.calls[0][1]["k"] == 3 and fake.calls[0][1]["snippets"]
    )
    results = [v for k, v in out.items() if k != "tools"]
    assert results[4] == (False, "payments: 12 files, 340 segments")
    assert results[5][0] and "not one you may search" in results[5][1]
    assert results[6][0] and "k must be 1 to 30" in results[6][1]
    assert results[7] == (False, "payments:src/module_1.py:11-19 function handler_1\n" + answer(3).hits[1].hit.snippet)
    implementations = fake.calls[-1]
    assert implementations[0] == "Gateway" and implementations[1]["intent"] == "find_references"
    assert implementations[1]["options"] == {"relation": "implementations"} and implementations[1]["k"] == 4
    assert fake.calls[-2][1]["intent"] == "localize" and fake.calls[-2][1]["k"] == 4
    assert fake.calls[-2][0].startswith("Refunds fail\nTraceback")
    assert (fake.calls[-3][0], fake.calls[-3][1]["path_glob"], fake.calls[-3][1]["modalities"]) == (
        "handler_1",
        "src/module_1.py",
        ("text",),
    )


#: A report on the sample repository: its quoted fragments are the reporter's, its frames name session.py.
STDIO_REPORT = """Sending through a session gives up after the first refused connection

When the server refuses a connection the session raises at once instead of retrying three times.

```
Traceback (most recent call last):
  File "/opt/service/app/session.py", line 11, in send
  File "/opt/service/app/session.py", line 18, in retry_request
RuntimeError: ECONNREFUSED while sending "GET /health"
```
"""


@pytest.mark.cluster
@pytest.mark.slow
def test_fourfold_mcp_over_stdio_against_a_real_index(cluster: Any) -> None:
    """``fourfold mcp`` as an agent starts it, on the session cluster's sample index."""
    env = {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "PYTHONPATH")}
    params = StdioServerParameters(
        command=sys.executable, args=["-m", "fourfold.coordinator.cli", "mcp", "--address", cluster.address], env=env
    )

    async def run() -> tuple[dict[str, str], list[float]]:
        texts: dict[str, str] = {}
        latencies = []
        async with McpClient(params) as client:
            assert {t.name for t in (await client.list_tools()).tools} == TOOLS
            for name, args in [
                ("list_repositories", {}),
                ("find_definition", {"symbol": "parse_config"}),
                ("find_references", {"symbol": "parse_config"}),
                ("impact", {"symbol": "load_lines"}),
                ("search", {"query": '"ECONNREFUSED"'}),
                ("search", {"query": "how does authentication work"}),
                ("search", {"query": "how does a session retry sending a request"}),
                ("read_segment", {"repo": "sample", "path": "app/config.py", "line": 9, "symbol": "parse_config"}),
                ("read_file", {"repo": "sample", "path": "app/config.py", "start_line": 8, "end_line": 9}),
                ("localize", {"report": STDIO_REPORT}),
            ]:
                t0 = time.perf_counter()
                r = await client.call_tool(name, args)
                latencies.append(time.perf_counter() - t0)
                assert not r.is_error, f"{name}: {r.content[0].text}"
                key = f"{name}{sum(k.startswith(name) for k in texts) + 1}" if name in texts else name
                texts[key] = r.content[0].text
        return texts, latencies

    texts, latencies = asyncio.run(run())
    assert any(
        line.startswith("sample: ") for line in texts["list_repositories"].splitlines()
    )  # test_cluster may add "extra"
    assert "1. sample:app/config.py:8-" in texts["find_definition"] and "parse_config" in texts["find_definition"]
    assert "sample:app/session.py" in texts["find_references"]
    assert "sample:app/config.py" in texts["impact"]
    assert "1. sample:app/session.py" in texts["search"] and "ECONNREFUSED" in texts["search"]
    assert "sample:app/auth.py" in texts["search2"]
    assert texts["search3"].count("sample:app/session.py:") >= 2  # a file's further answers (test_file_segments)
    assert "intent localize" in texts["localize"] and "\n1. sample:app/session.py" in texts["localize"]
    assert (
        texts["read_segment"].startswith("sample:app/config.py:8-")
        and "def parse_config(path):" in texts["read_segment"]
    )
    read = texts["read_file"].splitlines()
    assert (
        read[0] == "sample:app/config.py:8-9 of " + read[0].split(" of ")[1] and read[1] == "8  def parse_config(path):"
    )
    print(
        f"\nMCP over stdio: {len(latencies)} tool calls, median {sorted(latencies)[len(latencies) // 2] * 1000:.1f} ms"
    )

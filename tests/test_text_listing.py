"""Complete literal/regex answers: per-file hits with every matching line, exact totals, cursors.

The shard is checked against ripgrep (and the obvious reference) over whole result sets, with
unselective queries that match thousands of lines; the owners found by binary search against the
builder's painting; the listing end to end (client, CLI --json --all) on the session cluster.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fourfold
from fourfold.coordinator.cursor import Cursor, decode_cursor, encode_cursor
from fourfold.errors import InvalidInput, InvalidQuery
from fourfold.plugins import BuildContext, ModalityQuery
from fourfold.plugins.text import TextModality, TextShard
from fourfold.plugins.text.build import line_owners
from fourfold.plugins.text.testing import segments_for_file, split_lines
from fourfold.plugins.types import Definition

RG = shutil.which("rg")
needs_rg = pytest.mark.skipif(RG is None, reason="ripgrep (rg) is not on PATH; CI installs it")

WORDS = ["self", "value", "return", "import", "os", "path", "x", "def", "class", "None", "0x1F", "ÉTÉ"]


def ripgrep(root: Path, pattern: str, *flags: str) -> set[tuple[str, int]]:
    assert RG is not None
    proc = subprocess.run(
        [RG, "--no-config", "-uu", "-a", "-n", "--no-heading", "--with-filename", *flags, "-e", pattern, "."],
        cwd=root,
        capture_output=True,
    )
    assert proc.returncode in (0, 1), proc.stderr
    out: set[tuple[str, int]] = set()
    for row in proc.stdout.split(b"\n"):
        if row:
            path, line, _ = row.split(b":", 2)
            out.add((path.decode().removeprefix("./"), int(line)))
    return out


def corpus(root: Path, files: int = 60, seed: int = 7) -> tuple[dict[str, str], list[Any]]:
    """Python-like files with nested definitions, written under ``root``; (texts, segments)."""
    rng = random.Random(seed)
    texts: dict[str, str] = {}
    segments: list[Any] = []
    for n in range(files):
        lines = []
        for _ in range(rng.randint(5, 400)):
            lines.append("    " * rng.randint(0, 2) + " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 8))))
        text = "\n".join(lines) + "\n"
        path = f"pkg{n % 4}/mod{n}.py"
        texts[path] = text
        count = len(split_lines(text))
        defs = []
        start = 1
        while start + 3 <= count:  # classes holding methods, and gaps between them
            end = min(count, start + rng.randint(3, 60))
            defs.append(Definition(f"Cls{n}_{start}", "class", start, end))
            inner = start + 1
            while inner + 1 <= end:
                inner_end = min(end, inner + rng.randint(1, 10))
                defs.append(Definition(f"self_method{inner}" if inner % 3 else f"m{inner}", "method", inner, inner_end))
                inner = inner_end + 1 + rng.randint(0, 2)
            start = end + 1 + rng.randint(0, 5)
        segments += segments_for_file("r", path, "python", text, defs, window=rng.randint(3, 30))
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text, encoding="utf-8")
    return texts, segments


@pytest.fixture(scope="module")
def listing(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, TextShard]:
    base = tmp_path_factory.mktemp("listing")
    tree = base / "tree"
    _, segments = corpus(tree)
    TextModality().build(segments, base / "shard", BuildContext("g", "r", ("r",)))
    return tree, TextModality().load(base / "shard")


def listed(shard: TextShard, text: str, mode: str, k: int, **kw: Any) -> tuple[set[tuple[str, int]], Any]:
    result = shard.search(ModalityQuery(text, k=k, options={"mode": mode, "group": "file"}, **kw))
    lines = {(h.path, line) for h in result.hits for line in h.match_lines}
    return lines, result


@needs_rg
@pytest.mark.parametrize(
    ("pattern", "mode", "flags"),
    [
        ("self", "literal", ("-i", "-F")),  # unselective: thousands of lines
        ("x", "literal", ("-i", "-F")),  # one letter: every file scanned
        ("ÉTÉ", "literal", ("-s", "-F")),
        (r"^\s*def (self|value|x)\b", "regex", ("-i",)),  # RE2's \w is ASCII, ripgrep's Unicode: not used on ÉTÉ
        (r"[A-Z]\w*[0-9]", "regex", ("-s",)),  # trigram-poor
        (r"value\s+(None|0x1F)$", "regex", ("-i",)),
        (".*.*.*=.*", "regex", ("-i",)),  # no match, no trigram
    ],
)
def test_file_listing_is_ripgrep_whole_result_set(
    listing: tuple[Path, TextShard], pattern: str, mode: str, flags: tuple[str, ...]
) -> None:
    tree, shard = listing
    expected = ripgrep(tree, pattern, *flags)
    case_sensitive = "-s" in flags
    everything, full = listed(shard, pattern, mode, k=10_000, case_sensitive=case_sensitive)
    assert everything == expected
    assert full.line_counts and not full.total_lower_bound
    assert (full.total_matches, full.total_files) == (len(expected), len({p for p, _ in expected}))
    assert len({h.path for h in full.hits}) == len(full.hits) == full.total_files  # one hit per file
    # a short page: the same exact totals, and each file it names carries all of its lines
    _, page = listed(shard, pattern, mode, k=3, case_sensitive=case_sensitive)
    assert (page.total_matches, page.total_files) == (full.total_matches, full.total_files)
    assert page.hits == full.hits[:3]
    for h in page.hits:
        assert set(h.match_lines) == {line for p, line in expected if p == h.path}
        assert h.start_line <= h.end_line


@needs_rg
def test_a_listing_over_budget_stops_at_k_files_with_lower_bounds_and_stable_pages(
    listing: tuple[Path, TextShard], monkeypatch: pytest.MonkeyPatch
) -> None:
    tree, shard = listing
    monkeypatch.setattr("fourfold.plugins.text.shard._LISTING_BUDGET_BYTES", 0)
    expected = ripgrep(tree, "self", "-i", "-F")
    _, first = listed(shard, "self", "literal", k=5)
    assert first.total_lower_bound and first.total_files == 5 and len(first.hits) == 5
    assert 5 <= first.total_files < len({p for p, _ in expected}) and "stopped after" in first.notes[1]
    # deeper asks (the coordinator's next pages) extend the same order: no file skipped or repeated
    _, deeper = listed(shard, "self", "literal", k=17)
    assert deeper.hits[:5] == first.hits
    everything, last = listed(shard, "self", "literal", k=10_000)
    assert not last.total_lower_bound and everything == expected and last.hits[:17] == deeper.hits
    for h in first.hits:  # each file still carries every one of its lines
        assert set(h.match_lines) == {line for p, line in expected if p == h.path}


def test_unselective_literal_counts_thousands_of_lines(listing: tuple[Path, TextShard]) -> None:
    _, shard = listing
    _, result = listed(shard, "self", "literal", k=5)
    assert result.total_matches > 2000 and len(result.hits) == 5
    # segment hits (no grouping) count the same lines
    seg = shard.search(ModalityQuery("self", k=5, options={"mode": "literal"}))
    assert (seg.total_matches, seg.total_files) == (result.total_matches, result.total_files)


def test_a_file_whose_definition_matches_ranks_first(tmp_path: Path) -> None:
    uses = "".join(f"w{i} = Widget()\n" for i in range(300))
    defines = "class Widget:\n    pass\n"
    segments = segments_for_file("r", "uses.py", "python", uses, (), window=20) + segments_for_file(
        "r", "widget.py", "python", defines, (Definition("Widget", "class", 1, 2),)
    )
    TextModality().build(segments, tmp_path, BuildContext("g", "r", ("r",)))
    result = (
        TextModality()
        .load(tmp_path)
        .search(ModalityQuery("Widget", k=2, case_sensitive=True, options={"mode": "literal", "group": "file"}))
    )
    assert [(h.path, h.symbol, len(h.match_lines)) for h in result.hits] == [
        ("widget.py", "Widget", 1),
        ("uses.py", None, 300),  # every line of the file, across its 15 windows
    ]
    assert result.hits[0].score >= 5.0 > result.hits[1].score


@settings(max_examples=200, deadline=None)
@given(
    data=st.data(),
    n=st.integers(1, 80),
)
def test_owners_by_binary_search_agree_with_the_builders_painting(
    tmp_path_factory: pytest.TempPathFactory, data: st.DataObject, n: int
) -> None:
    """Nested definitions and windows (a laminar family): the innermost segment of every line."""
    definitions: list[Definition] = []
    start = 1
    while start <= n and data.draw(st.booleans()):
        end = data.draw(st.integers(start, n))
        definitions.append(Definition("a", "class", start, end))
        inner = start
        while inner <= end and data.draw(st.booleans()):
            inner_end = data.draw(st.integers(inner, end))
            definitions.append(Definition("b", "method", inner, inner_end))
            if data.draw(st.booleans()):
                definitions.append(Definition("c", "function", inner, inner_end))  # same lines twice
            inner = inner_end + 1
        start = end + 1 + data.draw(st.integers(0, 3))
    text = "".join(f"line {i}\n" for i in range(1, n + 1))
    segments = segments_for_file("r", "f.py", "python", text, definitions, window=data.draw(st.integers(1, 9)))
    root = tmp_path_factory.mktemp("owners")
    TextModality().build(segments, root, BuildContext("g", "r", ("r",)))
    shard = TextModality().load(root)
    starts = shard.seg_start.astype(np.int32)
    ends = shard.seg_end.astype(np.int32)
    painted = line_owners(starts, ends, n).tolist()
    assert shard._owners_of(0, list(range(n))) == painted


def test_cursor_round_trip_and_refusals() -> None:
    token = encode_cursor(Cursor(40, "g7", "abc"))
    assert decode_cursor(token, "g7", "abc") == Cursor(40, "g7", "abc")
    with pytest.raises(InvalidQuery, match="generation g7 but g8 is served"):
        decode_cursor(token, "g8", "abc")
    with pytest.raises(InvalidQuery, match="another query"):
        decode_cursor(token, "g7", "xyz")
    with pytest.raises(InvalidQuery, match="invalid cursor"):
        decode_cursor("not-a-cursor!", "g7", "abc")


# -- end to end: the session cluster (the sample repository) -------------------------------------


def sample_tree(tmp_path: Path) -> Path:
    from conftest import write_sample_repo

    return write_sample_repo(tmp_path / "sample")


@needs_rg
@pytest.mark.slow
@pytest.mark.cluster
def test_regex_is_listed_by_text_alone_and_pages_to_ripgreps_set(cluster: Any, tmp_path: Path) -> None:
    expected = ripgrep(sample_tree(tmp_path), "def ", "-i", "-F")
    assert len({p for p, _ in expected}) >= 3
    with fourfold.Client(cluster.address) as c:
        # within the sample repository: other tests of the session add repositories to this cluster
        pages = list(c.search_all("de[f] ", regex=True, k=1, repos=["sample"]))
        first = pages[0]
        assert (first.intent, first.fusion_strategy, dict(first.weights)) == ("exact_match", "direct", {"text": 1.0})
        assert first.total_exact and not first.complete and first.cursor
        assert pages[-1].complete and not pages[-1].cursor and len(pages) == first.total_files
        got = {(f.hit.path, line) for a in pages for f in a.hits for line in f.hit.match_lines}
        assert got == expected and first.total_matches == len(expected)
        # another query's cursor is refused with a clear message
        with pytest.raises(InvalidInput, match="another query"):
            c.search("retry", regex=True, cursor=first.cursor)
        # asked otherwise (modalities), a regex is fused as before, with no listing cursor
        fused = c.search("def \\w+_config", regex=True, modalities=["text", "structural"])
        assert fused.fusion_strategy == "fused" and not fused.cursor


@needs_rg
@pytest.mark.slow
@pytest.mark.cluster
def test_cli_json_all_states_complete(cluster: Any, tmp_path: Path) -> None:
    expected = ripgrep(sample_tree(tmp_path), "return", "-i", "-F")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}
    # within the sample repository: other tests of the session add repositories to this cluster
    args = [sys.executable, "-m", "fourfold", "search", "return", "--literal", "--repo", "sample", "-k", "1", "--json"]
    args.append("--all")
    proc = subprocess.run([*args, "--address", cluster.address], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["complete"] is True and out["cursor"] is None
    assert out["total_matches"] == {"lines": len(expected), "files": len({p for p, _ in expected}), "exact": True}
    assert {(h["path"], line) for h in out["hits"] for line in h["match_lines"]} == expected
    one = subprocess.run([*args[:-1], "--address", cluster.address], capture_output=True, text=True, env=env)
    page = json.loads(one.stdout)
    assert page["complete"] is False and page["cursor"] and len(page["hits"]) == 1


def test_mcp_search_lists_in_regex_mode_and_says_whether_complete() -> None:
    import asyncio
    import dataclasses

    from mcp import Client as McpClient
    from test_mcp import FakeCoordinator, answer

    from fourfold.coordinator.mcp_server import build_server, format_answer

    calls = FakeCoordinator()

    async def backend() -> FakeCoordinator:
        return calls

    async def run() -> tuple[bool, str]:
        async with McpClient(build_server(backend)) as client:
            r = await client.call_tool("search", {"query": "de[f] ", "mode": "regex", "cursor": "abc"})
            bad = await client.call_tool("search", {"query": "x", "mode": "fuzzy"})
            assert bad.is_error and "mode must be" in bad.content[0].text
            return r.is_error, r.content[0].text

    is_error, _ = asyncio.run(run())
    assert not is_error
    assert calls.calls[0][1]["options"] == {"mode": "regex"} and calls.calls[0][1]["cursor"] == "abc"
    listing = dataclasses.replace(answer(2), total_matches=12, total_files=5, total_exact=True, cursor="next")
    assert (
        format_answer(listing).splitlines()[1] == "12 matching lines in 5 files · INCOMPLETE · next page: cursor=next"
    )
    done = dataclasses.replace(listing, total_files=2, complete=True, cursor="")
    assert format_answer(done).splitlines()[1] == "12 matching lines in 2 files · complete"


def test_listing_totals_say_exact_complete_or_lower_bound() -> None:
    from fourfold.coordinator.engine import _ListingTotals
    from fourfold.plugins.types import ShardResult

    def fields(*results: ShardResult, listing: bool = True, partial: bool = False, returned: int = 3) -> Any:
        totals = _ListingTotals()
        for r in results:
            totals.add(r)
        return totals.answer_fields(listing=listing, partial=partial, returned=returned, next_cursor=lambda n: f"@{n}")

    exact = ShardResult((), total_matches=7, total_files=2, line_counts=True)
    other = ShardResult((), total_matches=4, total_files=1, line_counts=True)
    assert fields(exact, other) == {
        "total_matches": 11,
        "total_files": 3,
        "total_exact": True,
        "complete": True,
        "cursor": "",
    }
    assert fields(exact, other, returned=2)["cursor"] == "@2"  # a further page
    assert fields(exact, other, partial=True)["complete"] is False  # a shard did not answer
    lower = ShardResult((), total_matches=9, total_files=3, line_counts=True, total_lower_bound=True)
    got = fields(exact, lower, returned=5)
    assert (got["total_exact"], got["complete"], got["cursor"]) == (False, False, "@5")
    assert fields(ShardResult((), total_matches=12)) == {}  # BM25 counts segments: no listing totals


def test_listed_hits_keep_their_merged_order_even_when_vendored() -> None:
    from fourfold.coordinator.fusion import listed
    from fourfold.plugins.types import Hit

    hits = [Hit(f"s{i}", "r", f"{'vendor/' if i == 0 else ''}f{i}.py", 1, 2, 5.0 - i) for i in range(3)]
    out = listed(hits)
    assert [f.hit.path for f in out] == ["vendor/f0.py", "f1.py", "f2.py"] and out[0].demoted
    assert [f.modalities["text"].rank for f in out] == [0, 1, 2]


@needs_rg
@pytest.mark.slow
def test_cli_in_process_all_pages_to_ripgreps_set(indexed_home: Path, tmp_path: Path) -> None:
    expected = ripgrep(sample_tree(tmp_path), "import", "-i", "-F")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1]), "FOURFOLD_HOME": str(indexed_home)}
    args = [sys.executable, "-m", "fourfold", "search", "import", "--literal", "-k", "1", "--json", "--in-process"]
    proc = subprocess.run([*args, "--all"], capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["complete"] is True and out["total_matches"]["lines"] == len(expected)
    assert {(h["path"], line) for h in out["hits"] for line in h["match_lines"]} == expected


def test_bm25_line_marking_by_bytes_equals_the_regex(listing: tuple[Path, TextShard]) -> None:
    from fourfold.plugins.text.matchers import regex_matcher

    _, shard = listing
    finder = regex_matcher("value|none|class", False)
    needles = (b"value", b"none", b"class")
    marked = 0
    for seg in range(0, shard.n_segments, 7):
        fast = shard._lines_in_segment(seg, finder, needles)
        assert fast == shard._lines_in_segment(seg, finder)
        marked += len(fast)
    assert marked > 100

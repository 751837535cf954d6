"""The search page's parts that need no coordinator: query parsing, sessions, highlighting and
escaping, the status mapping, the rendering of partial and unconfident answers, file rebuilding."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import pytest
from starlette.datastructures import QueryParams

from fourfold.api import Answer, FusedHit, ModalityRank
from fourfold.coordinator.files import read_file
from fourfold.errors import (
    CorruptIndex,
    InvalidInput,
    NoIndex,
    NotFound,
    Overloaded,
    PermissionDenied,
    RemoteError,
    Unauthenticated,
    Unavailable,
)
from fourfold.plugins.types import Hit, Segment
from fourfold.web import http_status, parse_listen
from fourfold.web.app import WebApp
from fourfold.web.query import parse_form
from fourfold.web.render import group_hits, highlight_lines, parse_range
from fourfold.web.session import Signer
from fourfold.wire import answer_to_json, answer_to_pb


def test_form_takes_every_search_flag_of_the_cli() -> None:
    qp = QueryParams(
        "q=parse_config&repo=a,b&repo=c&intent=references&preset=quick&profile=fitted&modality=text"
        "&weight=text%3D2&k=25&path=src/*&lang=python&case=1&regex=on&deadline_ms=900"
    )
    f = parse_form(qp)
    assert f.repos == ("a", "b", "c") and f.intent == "find_references" and f.preset == "quick"
    assert f.modalities == ("text",) and dict(f.weights) == {"text": 2.0} and f.k == 25
    assert (f.path, f.langs, f.case, f.regex, f.deadline_ms) == ("src/*", ("python",), True, True, 900)
    kw = f.client_kwargs()
    assert kw["options"] == {"profile": "fitted"} and kw["regex"] is True and kw["path_glob"] == "src/*"
    # the URL gives the same search back
    assert parse_form(QueryParams(f.url().split("?", 1)[1])) == f
    assert parse_form(QueryParams("q=x&intent=find_definition")).intent == "find_definition"
    assert parse_form(QueryParams("q=x&intent=auto")).intent == ""
    listing = parse_form(QueryParams("q=core&paths=1&cursor=abc"))
    assert listing.client_kwargs()["options"] == {"mode": "paths"} and listing.client_kwargs()["cursor"] == "abc"
    assert parse_form(QueryParams(listing.url().split("?", 1)[1])) == listing
    with pytest.raises(InvalidInput, match="regex=1 and paths=1 exclude each other"):
        parse_form(QueryParams("q=x&regex=1&paths=1"))


@pytest.mark.parametrize(
    ("query", "needle"),
    [
        ("k=0", "k='0'"),
        ("k=1001", "k='1001'"),
        ("k=ten", "'ten'"),
        ("intent=locate", "'locate'"),
        ("preset=turbo", "'turbo'"),
        ("case=maybe", "'maybe'"),
        ("weight=text", "'text'"),
        ("weight=text%3Dmuch", "'text=much'"),
        ("deadline_ms=0", "'0'"),
    ],
)
def test_bad_form_values_are_named(query: str, needle: str) -> None:
    with pytest.raises(InvalidInput, match=re.escape(needle)):
        parse_form(QueryParams("q=x&" + query))
    with pytest.raises(InvalidInput, match="missing q"):
        parse_form(QueryParams("q=+"), require_query=True)


def test_sessions_are_signed_and_expire() -> None:
    s = Signer(b"k", ttl_s=60)
    cookie = s.session("ff_tok", now=1000)
    assert s.token_of(cookie, now=1059) == "ff_tok"
    assert s.token_of(cookie, now=1061) is None
    payload, mac = cookie.rsplit(".", 1)
    assert s.token_of(f"{payload}x.{mac}", now=1000) is None
    assert Signer(b"other").token_of(cookie, now=1000) is None
    for junk in ("", "no-dot", "a.b", "..", None):
        assert s.token_of(junk) is None
    nonce = s.new_nonce()
    assert s.csrf_ok(nonce, s.csrf(nonce)) and not s.csrf_ok(nonce, s.csrf(s.new_nonce()))
    assert not s.csrf_ok(None, s.csrf(nonce)) and not s.csrf_ok(nonce, "")
    assert Signer.from_env("x").secret == b"x" and len(Signer.from_env(None).secret) >= 32


@pytest.mark.parametrize(
    ("exc", "status"),
    [
        (InvalidInput("x"), 400),
        (Unauthenticated("x"), 401),
        (PermissionDenied("x"), 403),
        (NotFound("x"), 404),
        (Overloaded("x"), 429),
        (Unavailable("x"), 503),
        (NoIndex("x"), 503),
        (CorruptIndex("x"), 503),
        (RemoteError("x"), 502),
    ],
)
def test_errors_map_to_http_statuses(exc: Exception, status: int) -> None:
    assert http_status(exc) == status  # type: ignore[arg-type]


def test_listen_addresses() -> None:
    assert parse_listen("127.0.0.1:8080") == ("127.0.0.1", 8080)
    assert parse_listen("[::]:80") == ("::", 80)
    for bad in ("8080", ":80", "host:", "host:http", "h:70000"):
        with pytest.raises(InvalidInput, match=re.escape(repr(bad))):
            parse_listen(bad)


def test_highlighting_escapes_and_keeps_one_line_per_line() -> None:
    src = 'x = "<script>alert(1)</script>"\n"""a\nmulti-line <b>string</b>"""\n\nend'
    lines = highlight_lines(src, "python", "a.py")
    assert len(lines) == src.count("\n") + 1
    joined = "".join(lines)
    assert "<script>" not in joined and "<b>" not in joined and "&lt;script&gt;" in joined
    for line in lines:  # every line is balanced HTML on its own (spans closed at line ends)
        assert line.count("<span") == line.count("</span>")
    assert highlight_lines("plain", "no-such-language", "file.unknownext")[0].striptags() == "plain"
    assert parse_range("L120-L140") == (120, 140) and parse_range("7") == (7, 7)
    assert parse_range("9-3") is None and parse_range("x") is None and parse_range("0") is None


def _answer(**kw: Any) -> Answer:
    h1 = Hit("s1", "r", "a.py", 3, 5, 1.0, "f", "function", "python", (4,), 0.0, "def f():")
    h2 = Hit("s2", "r", "b.py", 1, 2, 0.5, None, None, "python", (), 0.0, "x = 1")
    h3 = Hit("s3", "r", "a.py", 9, 9, 0.2, "g", "function", "python", (9,), 0.0, "def g(): pass")
    hits = tuple(
        FusedHit(h, h.score, {"text": ModalityRank(i, 0.1 * (3 - i), h.score)}) for i, h in enumerate((h1, h2, h3))
    )
    base: dict[str, Any] = dict(
        intent="find_definition",
        confidence=0.75,
        fusion_strategy="fused",
        preset="default",
        partial=False,
        missing_shards=(),
        hits=hits,
        total_candidates=3,
        timings={"total": 4.2},
        generation="g1",
        notes=(),
        weights={"text": 1.0},
        confidences=(0.9, None, None),
    )
    base.update(kw)
    return Answer(**base)


def test_hits_are_grouped_by_file_in_rank_order() -> None:
    groups = group_hits(_answer().hits)
    assert [(g.path, g.first, [h["rank"] for h in g.hits]) for g in groups] == [("a.py", 1, [1, 3]), ("b.py", 2, [2])]


def test_answer_json_is_the_cli_shape() -> None:
    j = answer_to_json(answer_to_pb(_answer()))
    assert list(j) == [
        "intent", "confidence", "fusion_strategy", "preset", "partial", "no_confident_match", "rerank",
        "missing_shards", "generation", "notes", "timings_ms", "complete", "total_matches", "cursor", "hits",
    ]  # fmt: skip
    assert j["hits"][0]["confidence"] == 0.9 and j["hits"][1]["confidence"] is None
    assert j["hits"][0]["modalities"] == {"text": {"rank": 0, "contribution": 0.3}}


@dataclass
class _Request:
    """Just enough of a Starlette request for the templates."""

    cookies: dict[str, str]

    class url:  # noqa: N801 - mirrors request.url
        path = "/"
        query = "q=f"
        scheme = "http"


def _render(answer: Answer) -> str:
    web = WebApp("127.0.0.1:1", secret="s")
    form = parse_form(QueryParams("q=f"))
    groups = group_hits(answer.hits)
    resp = web.page(_Request({}), "search.html", form=form, answer=answer, groups=groups, repos=())  # type: ignore[arg-type]
    return bytes(resp.body).decode()


def test_partial_answers_and_no_confident_match_are_said_plainly() -> None:
    page = _render(_answer(partial=True, missing_shards=("text/r-2", "graph/r-1"), no_confident_match=True))
    assert "Partial answer: 2 shards did not answer in time (text/r-2, graph/r-1)" in page
    assert "No confident match: the hits below are candidates, not answers." in page
    plain = _render(_answer())
    assert "Partial answer" not in plain and "No confident match" not in plain
    assert '<span class="chip"' in plain and "definition" in plain and "75%" in plain
    empty = _render(_answer(hits=(), confidences=()))
    assert "No hits." in empty


class _Reader:
    name = "g7"

    def __init__(self, segments: list[Segment]) -> None:
        self._segments = segments

    def segments(self, repos: Any = (), files: Any = ()) -> Any:
        keys = set(files)
        return iter([s for s in self._segments if f"{s.repo}\0{s.path}" in keys])


def test_read_file_rebuilds_the_text_from_nested_segments() -> None:
    text = ["class A:", "    def m(self):", "        return 1", "", "X = 2"]
    segs = [
        Segment("c", "r", "p.py", "python", 1, 3, "\n".join(text[0:3]), "h", "A", "class"),
        Segment("m", "r", "p.py", "python", 2, 3, "\n".join(text[1:3]), "h", "m", "method", parent_id="c"),
        Segment("w", "r", "p.py", "python", 4, 5, "\n".join(text[3:5]), "h"),
    ]
    f = read_file(_Reader(segs), "r", "p.py")  # type: ignore[arg-type]
    assert f.content == "\n".join(text) and f.total_lines == 5 and f.generation == "g7"
    assert [(s.symbol, s.start_line) for s in f.symbols] == [("A", 1), ("m", 2)]
    part = read_file(_Reader(segs), "r", "p.py", 2, 3)  # type: ignore[arg-type]
    assert (part.start_line, part.end_line, part.content) == (2, 3, "\n".join(text[1:3]))
    with pytest.raises(NotFound, match=re.escape("'q.py'")):
        read_file(_Reader(segs), "r", "q.py")  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match="past the end"):
        read_file(_Reader(segs), "r", "p.py", 9, 10)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput, match=re.escape("4-2")):
        read_file(_Reader(segs), "r", "p.py", 4, 2)  # type: ignore[arg-type]


def test_the_web_server_does_not_load_the_engine() -> None:
    """The page is a client: importing it must not pull in Ray, NumPy or the engine."""
    import subprocess
    import sys

    heavy = "('ray', 'numpy', 'fourfold.coordinator.engine')"
    code = f"import sys, fourfold.web; print(sorted(m for m in {heavy} if m in sys.modules))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_fourfold_web_refuses_plain_http_on_a_reachable_address(capsys: pytest.CaptureFixture[str]) -> None:
    from fourfold.coordinator.cli import main

    assert main(["web", "--listen", "0.0.0.0:8080"]) == 2
    err = capsys.readouterr().err
    assert "refusing to serve the search page on 0.0.0.0:8080 without TLS" in err and "--tls-cert" in err
    assert main(["web", "--listen", "localhost"]) == 2
    assert "invalid listen address 'localhost'" in capsys.readouterr().err


def test_an_ls_notes_folders_are_read_back_as_links_to_list_each() -> None:
    from fourfold.web.render import Folder, folders_of

    where, named, rest = folders_of("text: folders in src/: api/ (12 files), util/ (1 file), and 3 more folders") or (
        "",
        [],
        "",
    )
    assert (where, rest) == ("src/", "and 3 more folders")
    assert named == [Folder("src/api", "api", 12), Folder("src/util", "util", 1)]
    assert folders_of("text: folders in ./: a/ (2 files)") == ("./", [Folder("a", "a", 2)], "")
    assert folders_of("text: no folders in src/") is None and folders_of("read as the command ls") is None

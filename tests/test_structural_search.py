"""The structural modality: query parsing, build/load, ranking classes, filters, errors."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from fourfold.errors import CorruptIndex, InvalidQuery, NoIndex
from fourfold.plugins.manager import get_registry
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.structural.extract import extract
from fourfold.plugins.structural.index import INDEX_FILE, StructuralShard
from fourfold.plugins.structural.plugin import StructuralModality
from fourfold.plugins.structural.query import SymbolQuery, parse_symbol_query
from fourfold.plugins.types import ModalityQuery, Segment, segment_id

FIXTURES = Path(__file__).parent / "fixtures" / "structural"
FILES = {
    "auth.py": "python",
    "route.js": "javascript",
    "client.go": "go",
    "shapes.rs": "rust",
    "shapes.ts": "typescript",
}


def _segments(repo: str) -> list[Segment]:
    """Definition segments of the fixtures as ingestion would cut them, plus one window segment."""
    out = [Segment(id="window", repo=repo, path="auth.py", language="python", start_line=1, end_line=20,
                   content="", content_hash="")]  # fmt: skip
    for name, language in FILES.items():
        for d in extract((FIXTURES / name).read_bytes(), language).definitions:
            out.append(
                Segment(
                    id=segment_id(repo, name, d.start_line, d.end_line, d.qualified_name), repo=repo, path=name,
                    language=language, start_line=d.start_line, end_line=d.end_line, content="", content_hash="",
                    symbol=d.name, kind=d.kind, signature=d.signature, qualified_name=d.qualified_name,
                )
            )  # fmt: skip
    return out


@pytest.fixture(scope="module")
def shard(tmp_path_factory: pytest.TempPathFactory) -> StructuralShard:
    shard_dir = tmp_path_factory.mktemp("structural")
    stats = StructuralModality().build(_segments("fx"), shard_dir, BuildContext("g1", "fx", ("fx",)))
    assert stats.segments == len(_segments("fx")) - 1  # the window segment is not a definition
    assert stats.bytes_on_disk == (shard_dir / INDEX_FILE).stat().st_size
    return StructuralModality().load(shard_dir)


def _search(shard: StructuralShard, text: str, **kw: object) -> list[tuple[str, str, str]]:
    result = shard.search(ModalityQuery(text=text, **kw))  # type: ignore[arg-type]
    return [(h.symbol or "", h.kind or "", h.path) for h in result.hits]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("def load_config", SymbolQuery("load_config", kinds=("function", "method"))),
        ("class Session", SymbolQuery("Session", kinds=("class",))),
        ("func NewClient", SymbolQuery("NewClient", kinds=("function", "method"))),
        ("fn parse", SymbolQuery("parse", kinds=("function", "method"))),
        ("struct Point", SymbolQuery("Point", kinds=("struct",))),
        ("interface Reader", SymbolQuery("Reader", kinds=("interface", "trait"))),
        ("where is parseConfig defined", SymbolQuery("parseConfig")),
        # the question line under a pasted trace names the symbol; the trace's quoted path does not
        (
            'File "plugins/ingest/parallel.py", line 12\nwhere is segment_file actually declared, it looks re-exported',
            SymbolQuery("segment_file"),
        ),
        ("definition of render", SymbolQuery("render")),
        ("methods of Session", SymbolQuery("Session", members=True)),
        ("Session.send", SymbolQuery("send", qualifier=("Session",))),
        ("gin.Context.JSON", SymbolQuery("JSON", qualifier=("gin", "Context"))),
        ("ns::Foo::bar", SymbolQuery("bar", qualifier=("ns", "Foo"))),
        ("retry_request", SymbolQuery("retry_request")),
        ("HTTPClient", SymbolQuery("HTTPClient")),
        ("what breaks if I change Session.send", SymbolQuery("send", qualifier=("Session",))),
        ("how does authentication work", None),
        # a name the question marks as code, whatever its shape
        ('where is "progress" defined', SymbolQuery("progress")),
        ("who calls `echo` in the cli", SymbolQuery("echo")),
        ("what does 'render' return", SymbolQuery("render")),
        ("don't retry after a timeout", None),
        ('"connection reset by peer"', None),
        ('why does fetch_url raise "timeout"', SymbolQuery("fetch_url")),
        # a declaration pasted as written: the name, its kind, a Go method's receiver type
        ("func (c *Context) JSON", SymbolQuery("JSON", qualifier=("Context",), kinds=("method",))),
        ("func (Context) Done() <-chan struct{}", SymbolQuery("Done", qualifier=("Context",), kinds=("method",))),
        ("func (s *Set[T]) Add(v T)", SymbolQuery("Add", qualifier=("Set",), kinds=("method",))),
        ("class Foo extends Bar", SymbolQuery("Foo", kinds=("class",))),
        ("export default class App extends Component {", SymbolQuery("App", kinds=("class",))),
        ("pub(crate) fn parse(input: &str) -> Config", SymbolQuery("parse", kinds=("function", "method"))),
        ("async def fetch(url):", SymbolQuery("fetch", kinds=("function", "method"))),
        ("struct Config {", SymbolQuery("Config", kinds=("struct",))),
        ("public static String format(String s)", SymbolQuery("format", kinds=("function", "method"))),
        ("private async Task<int> RunAsync(", SymbolQuery("RunAsync", kinds=("function", "method"))),
        ("(*Command).Execute", SymbolQuery("Execute", qualifier=("Command",))),
        ("github.com/spf13/cobra.(*Command).ExecuteC", SymbolQuery("ExecuteC", qualifier=("cobra", "Command"))),
        ("f(x).y", None),  # a call's member, not a receiver
        # prose that starts with a keyword is not a declaration
        ("type checking in mypy", None),
        ("function calls in a loop", None),
        ("explain format(x)", None),
    ],
)
def test_parse_symbol_query(text: str, expected: SymbolQuery | None) -> None:
    assert parse_symbol_query(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "?!", "()::."])
def test_punctuation_only_is_invalid(text: str) -> None:
    with pytest.raises(InvalidQuery, match="no identifier"):
        parse_symbol_query(text)


def test_symbol_query_reads_back() -> None:
    assert str(SymbolQuery("send", qualifier=("Session",), kinds=("method",))) == "Session.send [method]"
    assert str(SymbolQuery("Client", members=True)) == "members of Client"


def test_registered_as_the_structural_modality() -> None:
    modality = get_registry().modality("structural")
    assert isinstance(modality, StructuralModality) and modality.sharding == "repo"


def test_a_pasted_go_method_finds_that_method(shard: StructuralShard) -> None:
    result = shard.search(ModalityQuery(text="func (c *Client) Run() error {", k=3))
    assert (result.hits[0].symbol, result.hits[0].path, result.hits[0].start_line) == ("Run", "client.go", 37)


def test_exact_name_ranks_first_and_scores_by_class(shard: StructuralShard) -> None:
    result = shard.search(ModalityQuery(text="DigestAuth", k=5))
    top = result.hits[0]
    assert (top.symbol, top.kind, top.path, top.start_line) == ("DigestAuth", "class", "auth.py", 175)
    assert 4.0 <= top.score < 5.0
    assert top.snippet == "class DigestAuth(Auth)" and top.language == "python"
    assert all(h.score < 4.0 for h in result.hits[1:])


def test_case_insensitive_and_case_sensitive(shard: StructuralShard) -> None:
    assert _search(shard, "digestauth", k=1) == [("DigestAuth", "class", "auth.py")]
    assert _search(shard, "digestauth", k=3, case_sensitive=True) == []


def test_qualified_suffix(shard: StructuralShard) -> None:
    hits = shard.search(ModalityQuery(text="Client.Run", k=3)).hits
    assert (hits[0].symbol, hits[0].path) == ("Run", "client.go")
    assert 3.0 <= hits[0].score < 4.0  # main.Client.Run ends with Client.Run
    exact = shard.search(ModalityQuery(text="main.Client.Run", k=1)).hits[0]
    assert exact.score >= 4.0


def test_module_qualifier_falls_back_to_a_shorter_suffix(shard: StructuralShard) -> None:
    hits = shard.search(ModalityQuery(text="httpx.DigestAuth.auth_flow", k=1)).hits
    assert [(h.symbol, h.path) for h in hits] == [("auth_flow", "auth.py")]
    assert 3.0 <= hits[0].score < 4.0


def test_classes_order_exact_prefix_fuzzy(shard: StructuralShard) -> None:
    hits = shard.search(ModalityQuery(text="Polygon", k=20)).hits
    assert {h.kind for h in hits if h.score >= 4.0} == {"struct", "impl"}
    assert hits[0].kind == "struct"  # a struct before its impl blocks
    prefix = shard.search(ModalityQuery(text="_build_auth", k=3)).hits
    assert prefix[0].symbol == "_build_auth_header" and 2.0 <= prefix[0].score < 3.0


def test_fuzzy_tolerates_typos(shard: StructuralShard) -> None:
    hits = shard.search(ModalityQuery(text="DigetsAuth", k=1)).hits
    assert [(h.symbol, h.kind) for h in hits] == [("DigestAuth", "class")]
    assert 1.0 <= hits[0].score < 2.0


def test_fuzzy_finds_a_typo_among_many_names_sharing_a_prefix(tmp_path: Path) -> None:
    """Thousands of test_* names share trigrams with the query; the typo'd one still wins."""
    names = [f"test_case_{i:04d}" for i in range(3000)] + ["test_timeout_missing_default"]
    segments = [
        Segment(id=f"s{i}", repo="r", path="test_x.py", language="python", start_line=i + 1, end_line=i + 1,
                content="", content_hash="", symbol=name, kind="function", qualified_name=name)
        for i, name in enumerate(names)
    ]  # fmt: skip
    StructuralModality().build(segments, tmp_path, BuildContext("g1", "r", ("r",)))
    shard = StructuralModality().load(tmp_path)
    hits = shard.search(ModalityQuery(text="test_timout_missing_defualt", k=3)).hits
    assert hits[0].symbol == "test_timeout_missing_default" and 1.0 <= hits[0].score < 2.0
    exact = shard.search(ModalityQuery(text="test_case_0042", k=50))
    assert [h.symbol for h in exact.hits] == ["test_case_0042"] and exact.total_matches == 1
    shard.close()


def test_library_code_and_the_eponymous_module_break_ties(tmp_path: Path) -> None:
    places = ["tests/test_bar.py", "examples/bar.py", "src/pkg/widgets.py", "src/pkg/progress_bar.py"]
    segments = [
        Segment(id=f"s{i}", repo="r", path=path, language="python", start_line=1, end_line=2, content="",
                content_hash="", symbol="ProgressBar", kind="class", qualified_name="ProgressBar")
        for i, path in enumerate(places)
    ]  # fmt: skip
    StructuralModality().build(segments, tmp_path, BuildContext("g1", "r", ("r",)))
    shard = StructuralModality().load(tmp_path)
    hits = shard.search(ModalityQuery(text="class ProgressBar", k=4)).hits
    assert [h.path for h in hits[:2]] == ["src/pkg/progress_bar.py", "src/pkg/widgets.py"]
    assert {h.path for h in hits[2:]} == {"tests/test_bar.py", "examples/bar.py"}
    shard.close()


def test_keyword_prefers_the_kind(shard: StructuralShard) -> None:
    assert _search(shard, "struct Polygon", k=1) == [("Polygon", "struct", "shapes.rs")]
    assert _search(shard, "trait Area", k=1)[0][1] == "trait"


def test_methods_of(shard: StructuralShard) -> None:
    found = {h[0] for h in _search(shard, "methods of BasicAuth", k=20)}
    assert found == {"__init__", "auth_flow", "_build_auth_header"}


def test_filters(shard: StructuralShard) -> None:
    assert _search(shard, "auth_flow", k=20, options={"kind": "function"}) == []
    assert {h[2] for h in _search(shard, "Route", k=20, languages=("javascript",))} == {"route.js"}
    assert _search(shard, "Route", k=20, repos=("other",)) == []
    assert {h[2] for h in _search(shard, "new", k=20, path_glob="*.rs")} == {"shapes.rs"}


def test_k_limits_hits_not_total(shard: StructuralShard) -> None:
    result = shard.search(ModalityQuery(text="auth_flow", k=2))
    assert len(result.hits) == 2 and result.total_matches > 2


def test_natural_language_without_identifier_gives_a_note(shard: StructuralShard) -> None:
    result = shard.search(ModalityQuery(text="how does authentication work"))
    assert result.hits == () and "no identifier" in result.notes[0]


def test_bad_queries_raise(shard: StructuralShard) -> None:
    with pytest.raises(InvalidQuery):
        shard.search(ModalityQuery(text="?!"))
    with pytest.raises(InvalidQuery, match="k must be positive"):
        shard.search(ModalityQuery(text="Route", k=0))


def test_concurrent_searches(shard: StructuralShard) -> None:
    expected = _search(shard, "auth_flow", k=5)
    seen: list[list[tuple[str, str, str]]] = []

    def work() -> None:
        seen.extend(_search(shard, "auth_flow", k=5) for _ in range(20))

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(seen) == 80 and all(s == expected for s in seen)


def test_missing_and_corrupt_shards(tmp_path: Path) -> None:
    with pytest.raises(NoIndex):
        StructuralModality().load(tmp_path)
    (tmp_path / INDEX_FILE).write_bytes(b"not a database")
    with pytest.raises(CorruptIndex):
        StructuralModality().load(tmp_path)
    (tmp_path / INDEX_FILE).unlink()
    db = sqlite3.connect(tmp_path / INDEX_FILE)
    db.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    db.execute("INSERT INTO meta VALUES ('schema_version', '0')")
    db.commit()
    db.close()
    with pytest.raises(CorruptIndex, match="schema version 0"):
        StructuralModality().load(tmp_path)


def _shard_of(files: dict[str, str], language: str, shard_dir: Path) -> StructuralShard:
    """A shard of ``files`` (path -> text, all in ``language``), cut as ingestion cuts them."""
    segments = []
    for path, text in files.items():
        for d in extract(text.encode(), language).definitions:
            segments.append(Segment(
                id=segment_id("r", path, d.start_line, d.end_line, d.qualified_name), repo="r", path=path,
                language=language,
                start_line=d.start_line, end_line=d.end_line, content="", content_hash="", symbol=d.name, kind=d.kind,
                signature=d.signature, qualified_name=d.qualified_name,
            ))  # fmt: skip
    StructuralModality().build(segments, shard_dir, BuildContext("g1", "r", ("r",)))
    return StructuralModality().load(shard_dir)


def test_a_binding_of_a_name_defined_elsewhere_gives_way_to_the_definition(tmp_path: Path) -> None:
    """`var compileTrust = require('./utils').compileTrust` is not where compileTrust is defined when
    utils.js is indexed too; `var vary = require('vary')` is all the index has of vary, so it stays."""
    files = {
        "lib/utils.js": "exports.compileTrust = function (val) {\n  return val;\n};\n",
        "lib/application.js": (
            "var compileTrust = require('./utils').compileTrust;\nvar vary = require('vary');\n"
            "var resolve = require('path').resolve;\nvar count = 3;\n"
        ),
    }
    shard = _shard_of(files, "javascript", tmp_path)
    assert _search(shard, "compileTrust", k=10) == [("compileTrust", "function", "lib/utils.js")]
    assert _search(shard, "vary", k=10) == [("vary", "variable", "lib/application.js")]
    assert _search(shard, "count", k=10) == [("count", "variable", "lib/application.js")]


_FORMAT_1 = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE defs (
    id INTEGER PRIMARY KEY, segment_id TEXT NOT NULL, repo TEXT NOT NULL, path TEXT NOT NULL,
    language TEXT NOT NULL, start_line INTEGER NOT NULL, end_line INTEGER NOT NULL,
    name TEXT NOT NULL, lname TEXT NOT NULL, qualified_name TEXT NOT NULL,
    rqualified TEXT NOT NULL, lparent TEXT NOT NULL, kind TEXT NOT NULL, signature TEXT NOT NULL
);
CREATE TABLE names (id INTEGER PRIMARY KEY, lname TEXT NOT NULL UNIQUE, ntrigrams INTEGER NOT NULL);
CREATE TABLE trigrams (trigram TEXT NOT NULL, name_id INTEGER NOT NULL, PRIMARY KEY (trigram, name_id))
    WITHOUT ROWID;
CREATE INDEX defs_lname ON defs (lname);
CREATE INDEX defs_rqualified ON defs (rqualified);
CREATE INDEX defs_lparent ON defs (lparent);
INSERT INTO meta VALUES ('schema_version', '1');
"""


def _write_format_1(segments: list[Segment], path: Path) -> None:
    """A shard as format 1 wrote it: every column on every row, one (trigram, name) row per pair."""
    from fourfold.plugins.structural.index import trigrams

    db = sqlite3.connect(path)
    db.executescript(_FORMAT_1)
    names: dict[str, int] = {}
    for s in segments:
        if not s.is_definition or not s.symbol:
            continue
        q = (s.qualified_name or s.symbol).lower()
        names.setdefault(s.symbol.lower(), len(names) + 1)
        db.execute(
            "INSERT INTO defs (segment_id, repo, path, language, start_line, end_line, name, lname, qualified_name,"
            " rqualified, lparent, kind, signature) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
            (s.id, s.repo, s.path, s.language, s.start_line, s.end_line, s.symbol, s.symbol.lower(),
             s.qualified_name or s.symbol, q[::-1], q.rpartition(".")[0], s.kind or "", s.signature or ""),
        )  # fmt: skip
    for n, i in names.items():
        db.execute("INSERT INTO names VALUES (?,?,?)", (i, n, len(trigrams(n))))
        db.executemany("INSERT INTO trigrams VALUES (?,?)", ((t, i) for t in trigrams(n)))
    db.commit()
    db.close()


def test_format_2_answers_as_format_1_did_and_format_1_still_reads(tmp_path: Path) -> None:
    # besides the fixtures: an id that is not lowercase hex, a kind outside KINDS,
    # a qualified name equal to the name and one that is not
    odd = [
        Segment(id="Odd-Id", repo="fx", path="odd.py", language="python", start_line=1, end_line=2, content="",
                content_hash="", symbol="OddThing", kind="widget", signature="OddThing = '\0'",
                qualified_name="OddThing"),
        Segment(id=segment_id("fx", "odd.py", 3, 4, "Box.OddThing"), repo="fx", path="odd.py", language="python",
                start_line=3, end_line=4, content="", content_hash="", symbol="OddThing", kind="method",
                signature="def OddThing(self)", qualified_name="Box.OddThing"),
    ]  # fmt: skip
    segments = _segments("fx") + odd
    new_dir, old_dir = tmp_path / "new", tmp_path / "old"
    StructuralModality().build(segments, new_dir, BuildContext("g1", "fx", ("fx",)))
    old_dir.mkdir()
    _write_format_1(segments, old_dir / INDEX_FILE)
    new, old = StructuralModality().load(new_dir), StructuralModality().load(old_dir)
    db = sqlite3.connect(new_dir / INDEX_FILE)
    assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("2",)
    assert db.execute("SELECT COUNT(*) FROM files").fetchone() == (len(FILES) + 1,)
    assert db.execute("SELECT COUNT(*) FROM defs WHERE typeof(segment_id) = 'blob'").fetchone()[0] == len(segments) - 2
    # every signature but the one with a NUL in it is a place in its file's compressed list
    assert db.execute("SELECT COUNT(*) FROM defs WHERE typeof(signature) != 'integer'").fetchone()[0] == 1
    db.close()
    texts = [s.symbol or "" for s in segments[1:]] + [s.qualified_name or "" for s in segments[1:]]
    texts += [t[:3] for t in texts] + [t[:-1] + "x" for t in texts if len(t) > 4] + ["Box.", "oddthing", "Odthing"]
    filters: list[dict[str, object]] = [
        {},
        {"case_sensitive": True},
        {"options": {"kind": "class,method"}},
        {"languages": ("go", "rust")},
        {"path_glob": "*.ts"},
        {"repos": ("fx",)},
        {"repos": ("other",)},
    ]
    asked = 0
    for text in texts:
        for kw in filters:
            q = ModalityQuery(text=text, k=50, **kw)  # type: ignore[arg-type]
            assert new.search(q) == old.search(q), (text, kw)
            asked += bool(new.search(q).hits)
    assert asked > len(texts) * 2  # most of them found something
    got = new.search(ModalityQuery(text="oddthing", k=5)).hits
    assert {(h.segment_id, h.symbol, h.kind, h.snippet) for h in got} == {
        ("Odd-Id", "OddThing", "widget", "OddThing = '\0'"),
        (odd[1].id, "OddThing", "method", "def OddThing(self)"),
    }


def test_a_cpp_definition_with_a_body_before_its_declarations(tmp_path: Path) -> None:
    """A pure virtual method, a method declared in its class and a deleted constructor only declare: "where is X
    defined" answers with the definition that has the body, and ``def Table`` with the class before its
    constructor's declaration."""
    files = {
        "pool.h": (
            "class MemPool {\n public:\n  virtual int ItemSize() const = 0;\n};\n"
            "class Pool : public MemPool {\n public:\n  virtual int ItemSize() const {\n    return 8;\n  }\n};\n"
            "class Table {\n public:\n  Table(const Options& o);\n  Table(const Table&) = delete;\n};\n"
        ),
        "table.cc": "Table::Table(const Options& o) : rep_(o) {\n}\n",
    }
    shard = _shard_of(files, "cpp", tmp_path)
    hits = shard.search(ModalityQuery(text="ItemSize", k=5)).hits
    assert [(h.kind, h.start_line) for h in hits] == [("method", 7), ("method", 3)]
    assert hits[0].score > hits[1].score >= 4.0  # still an exact match, below the one with the body
    assert [(h.path, h.kind, h.start_line) for h in shard.search(ModalityQuery(text="def Table", k=5)).hits] == [
        ("table.cc", "function", 1), ("pool.h", "class", 11), ("pool.h", "method", 13), ("pool.h", "method", 14),
    ]  # fmt: skip
    shard.close()
    # a K&R definition's parameter declarations end in ``;`` too: it is a definition, before a macro of its name
    files = {
        "zutil.h": "#define zmemzero(dest, len) memset(dest, 0, len)\n",
        "zutil.c": "void zmemzero(dest, len)\n    Bytef* dest;\n    uInt len;\n{\n  while (len--) *dest++ = 0;\n}\n",
    }
    shard = _shard_of(files, "c", tmp_path / "c")
    assert [(h.path, h.kind) for h in shard.search(ModalityQuery(text="zmemzero", k=5)).hits] == [
        ("zutil.c", "function"), ("zutil.h", "macro"),
    ]  # fmt: skip
    shard.close()

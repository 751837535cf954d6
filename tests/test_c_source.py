"""C written for old and odd compilers, read as its compiler sees it after the macros (``c_source.readable``): the
definitions the structural extractor finds and the calls the graph's reader attributes."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from inprocess import coordinator_in_process, index_files, search_once
from tree_sitter_language_pack import get_parser

from fourfold.api import SearchParams
from fourfold.coordinator.cli import main
from fourfold.coordinator.engine import Engine
from fourfold.coordinator.mcp_server import format_answer
from fourfold.index.store import IndexStore
from fourfold.plugins.c_source import count_errors, readable
from fourfold.plugins.graph.parse import parse_file
from fourfold.plugins.structural.extract import extract

#: zlib's idioms: an export macro between the return type and the name, ``FAR`` before a pointer, a prototype
#: through ``OF((...))``, old-style definitions (one returning a pointer), and ``local`` for ``static``.
ZLIB = b"""#define ZEXPORT
#define FAR
#define OF(args) args
#define local static

ZEXTERN int ZEXPORT inflate OF((z_streamp strm, int flush));
ZEXTERN int ZEXPORT deflateTune OF((z_streamp strm,
                                    int good_length,
                                    int max_lazy));

int ZEXPORT inflate(strm, flush)
z_streamp strm;
int flush;
{
    struct inflate_state FAR *state;
    unsigned char FAR *put;
    state = (struct inflate_state FAR *)strm->state;
    return updatewindow(strm, flush);
}

const char * ZEXPORT zError(err)
    int err;
{
    return ERR_MSG(err);
}

local unsigned syncsearch(have, buf, len)
unsigned FAR *have;
const unsigned char FAR *buf;
unsigned len;
{
    return lookup(have, buf, len);
}
"""


def _definitions(source: bytes) -> set[tuple[str, str, int, int]]:
    return {(d.name, d.kind, d.start_line, d.end_line) for d in extract(source, "c").definitions}


def test_old_style_definitions_behind_decoration_macros_are_functions() -> None:
    """Before, ``int ZEXPORT inflate(strm, flush)`` broke the parse from there on (24 of zlib's 228 functions were
    lost, every one after ``inflate`` in its file), the prototypes' parameters were globals, and ``zError``, an
    old-style definition returning a pointer, was a declaration and a block of code that belonged to nobody."""
    found = _definitions(ZLIB)
    assert {
        ("inflate", "function", 11, 19),
        ("zError", "function", 21, 25),
        ("syncsearch", "function", 27, 33),
    } <= found
    assert not {name for name, kind, _, _ in found if kind == "variable"}  # no parameter, no local, no prototype
    assert {name for name, kind, _, _ in found if kind == "macro"} == {"ZEXPORT", "FAR", "OF", "local"}
    definition = next(d for d in extract(ZLIB, "c").definitions if d.name == "zError")
    assert "ZEXPORT" in definition.signature  # the text is as written


def test_the_source_keeps_its_length_and_lines_and_only_macros_are_blanked() -> None:
    text, tree = readable(ZLIB, get_parser("c"))
    assert len(text) == len(ZLIB) and text.count(b"\n") == ZLIB.count(b"\n")
    assert count_errors(tree.root_node) == 0 < count_errors(get_parser("c").parse(ZLIB).root_node)
    assert text.startswith(b"#define ZEXPORT\n#define FAR\n#define OF(args) args\n")  # the macros themselves stay
    code = text.split(b"\n", 4)[4]
    assert b"ZEXPORT" not in code and b"OF(" not in code and b"FAR" not in code
    assert b"ERR_MSG(err)" in text and b"updatewindow(strm, flush)" in text  # calls are kept, macros' too
    assert b"zError(err)" in text and b"* " not in text.split(b"zError")[0].rsplit(b"\n", 1)[1]


def test_a_type_before_an_unexpanded_macro_is_not_taken_for_one() -> None:
    """``UTIL_STATIC U64 f(...)``: the macro is the name before the type the file uses elsewhere, not the type."""
    source = (
        b"typedef unsigned long long U64;\n#define UTIL_STATIC static\n"
        b"UTIL_STATIC U64 span(U64 start, U64 end)\n{\n    U64 d = end - start;\n    return d;\n}\n"
        b"int CJSON_CDECL main(void)\n{\n    return (int)span(0, 1);\n}\n"
    )
    found = _definitions(source)
    assert ("span", "function", 3, 7) in found and ("main", "function", 8, 11) in found
    assert ("U64", "type", 1, 1) in found and not any(kind == "variable" for _, kind, _, _ in found)
    text, _ = readable(source, get_parser("c"))
    assert text.count(b"U64") == source.count(b"U64")


def test_a_conditional_that_cuts_a_statement_keeps_its_first_branch_and_others_keep_every_branch() -> None:
    """``s->status =`` then ``#ifdef GZIP``: the parser lost the rest of zlib's ``deflate.c`` there. A conditional
    of whole definitions is read in every branch (each build's ``now`` is a definition)."""
    source = (
        b"int reset(z_streamp strm)\n{\n    s->status =\n#ifdef GZIP\n        s->wrap == 2 ? GZIP_STATE :\n#endif\n"
        b"        INIT_STATE;\n#ifdef FORCE_STORED\n    if (buf != 0) {\n#else\n    if (len <= max && buf != 0) {\n"
        b"#endif\n        store(s);\n    }\n    return 0;\n}\n"
        b"#ifdef _WIN32\nint now(void) { return 1; }\n#else\nint now(void) { return 2; }\n#endif\n"
        b"int after(void) { return now(); }\n"
    )
    found = _definitions(source)
    assert {("reset", "function", 1, 16), ("now", "function", 18, 18), ("now", "function", 20, 20)} <= found
    assert ("after", "function", 22, 22) in found
    text, tree = readable(source, get_parser("c"))
    assert count_errors(tree.root_node) == 0
    assert b"INIT_STATE" in text and b"GZIP_STATE" in text and b"#ifdef GZIP" not in text
    assert b"if (len <= max" not in text and b"#ifdef _WIN32" in text and b"return 2;" in text


def test_a_macro_called_with_one_parenthesized_list_in_code_is_a_call() -> None:
    """``if (verbose) DPRINTF(("%d", n));`` and ``return MAX((a), b);`` are calls, not prototypes."""
    source = b'int f(int n)\n{\n    if (verbose) DPRINTF(("%d", n));\n    return MAX((n), 2);\n}\n'
    text, _ = readable(source, get_parser("c"))
    assert text == source
    calls = {r.chain for r in parse_file(source, "c").references if r.call}
    assert {("DPRINTF",), ("MAX",)} <= calls


def test_the_graph_reads_the_calls_of_an_old_style_definition() -> None:
    """The calls in ``inflate`` and ``zError`` are theirs: before, ``zError``'s body belonged to no function, and a
    prototype's ``OF`` was a call."""
    facts = parse_file(ZLIB, "c")
    calls = {(r.line, r.chain) for r in facts.references if r.call}
    assert (18, ("updatewindow",)) in calls and (24, ("ERR_MSG",)) in calls and (32, ("lookup",)) in calls
    assert not any(chain == ("OF",) for _, chain in calls)


def test_odd_c_never_raises_and_keeps_its_length() -> None:
    """Fragments of the idioms above, cut and shuffled: what comes back is as long as what went in, and every line
    is where it was."""
    pieces = [b"int", b" ", b"ZEXPORT", b"FAR", b"*", b"(", b")", b";", b"{", b"}", b"\n", b"#ifdef X\n", b"#else\n"]
    pieces += [b"#endif\n", b"OF((", b"))", b"local", b"f", b"a", b",", b"=", b'"', b"/*", b"*/", b"//"]
    chosen = random.Random(7)
    parser = get_parser("c")
    for _ in range(300):
        source = b"".join(chosen.choice(pieces) for _ in range(chosen.randint(1, 60)))
        text, _ = readable(source, parser)
        assert len(text) == len(source) and text.count(b"\n") == source.count(b"\n")
        extract(source, "c")
        parse_file(source, "c")


def test_every_surface_finds_an_old_style_definition_and_its_callers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """zlib's ``const char * ZEXPORT zError(err)`` is a definition, ``inflate``'s call of ``updatewindow`` is
    ``inflate``'s and ``syncsearch`` calls ``lookup``, through the CLI, the gRPC client and MCP over a real build of
    text, structural and graph. Before, "where is zError defined" found no definition and its body was no
    function's."""
    import fourfold

    helpers = "\nlocal int updatewindow(strm, end)\nz_streamp strm;\nunsigned end;\n{\n    return 0;\n}\n"
    helpers += "\nlocal unsigned lookup(have, buf, len)\nunsigned FAR *have;\nconst unsigned char FAR *buf;\n"
    helpers += "unsigned len;\n{\n    return len;\n}\n"
    home = index_files(tmp_path, "zlib", {"inflate.c": (ZLIB + helpers.encode()).decode()})
    monkeypatch.setenv("FOURFOLD_HOME", str(home))
    assert main(["search", "--in-process", "--json", "where is zError defined"]) == 0
    first = json.loads(capsys.readouterr().out)["hits"][0]
    assert (first["path"], first["symbol"], first["start_line"]) == ("inflate.c", "zError", 21)
    with coordinator_in_process(home) as address, fourfold.Client(address) as client:
        callees = client.search("what does inflate call", k=5)
        assert [(f.hit.symbol, f.hit.start_line) for f in callees.hits] == [("updatewindow", 35)]
        callers = client.search("who calls lookup", k=5)
        assert [(f.hit.symbol, f.hit.match_lines) for f in callers.hits] == [("syncsearch", (32,))]
    text = format_answer(search_once(Engine(IndexStore(home)), SearchParams("where is syncsearch defined", k=3)))
    assert "1. zlib:inflate.c:27-33 function syncsearch" in text

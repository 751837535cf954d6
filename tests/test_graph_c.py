"""C: quoted includes, calls, functions used as values, types and macros are read and resolved by name as
a C program links them (a ``.c`` file's static function is its own, a header's definitions are every
includer's, a parameter or local shadows a global); against real tree-sitter and the real graph build."""

from __future__ import annotations

from pathlib import Path

from fourfold.index.ingest.segment import segment_file
from fourfold.plugins.graph.parse import parse_file
from fourfold.plugins.graph.plugin import GraphModality
from fourfold.plugins.graph.shard import GraphShard
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.types import ModalityQuery

FILES = {
    "src/table.h": """#ifndef TABLE_H
#define TABLE_H
typedef struct Table { int size; } Table;
Table *table_new(int size);
int table_get(Table *t, int key);
static inline int table_size(const Table *t) { return t->size; }
#define TABLE_EMPTY(t) (table_size(t) == 0)
#endif
""",
    "src/table.c": """#include "table.h"
#include <stdlib.h>

static int hash(int key) {
  return key * 31;
}

Table *table_new(int size) {
  Table *t = malloc(sizeof(Table));
  t->size = size;
  return t;
}

int table_get(Table *t, int key) {
  return hash(key) % table_size(t);
}
""",
    "src/main.c": """#include "table.h"

static int hash(int key) {
  return key;
}

int lookup(int key, int table_new) {
  Table *t = table_new ? NULL : NULL;
  int (*fn)(Table *, int) = table_get;
  if (TABLE_EMPTY(t)) {
    return 0;
  }
  return fn(t, hash(key));
}

int main(void) {
  return lookup(3, 0);
}
""",
}


def _shard(tmp_path: Path) -> GraphShard:
    segments = [s for path, text in FILES.items() for s in segment_file("c", path, "c", text.encode()).segments]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("c",)))
    return modality.load(tmp_path)


def _ask(shard: GraphShard, text: str, intent: str | None = None) -> list[tuple[str, str | None]]:
    return [(h.path, h.symbol) for h in shard.search(ModalityQuery(text=text, k=10, intent=intent)).hits]


def test_a_c_file_s_names_are_read_with_their_scope() -> None:
    """A call, a function used as a value, a type and a macro are uses; a declared name (a parameter, a
    local, the function's own) is not, and a use of a local is marked so; ``<stdlib.h>`` is the system's."""
    facts = parse_file(FILES["src/main.c"].encode(), "c")
    assert [(i.line, i.module) for i in facts.imports] == [(1, "table.h")]
    uses = {(r.line, r.chain, r.call, r.local) for r in facts.references}
    assert (9, ("table_get",), False, False) in uses  # a function's address: a use, not a call
    assert (10, ("TABLE_EMPTY",), True, False) in uses
    assert (13, ("fn",), True, True) in uses and (13, ("hash",), True, False) in uses
    assert (8, ("table_new",), False, True) in uses  # the parameter, not the header's function
    assert not any(r.chain == ("lookup",) and r.line == 7 for r in facts.references)  # its own name
    # a prototype written through a compatibility macro declares its name (zlib's ``OF``), as does one written
    # plainly; a function named in a table's initialiser is used
    compat = parse_file(
        b"local void pqdownheap OF((deflate_state *s, int k));\nint table_get(Table *t, int key);\n"
        b"static const config table[1] = { {0, 0, pqdownheap} };\n",
        "c",
    )
    named = {(r.line, r.chain) for r in compat.references}
    assert (1, ("pqdownheap",)) not in named and (2, ("table_get",)) not in named
    assert (3, ("pqdownheap",)) in named and (1, ("deflate_state",)) in named
    assert all(r.chain != ("",) for r in compat.references)  # a name the parser made up is none
    # a definition behind an export macro: its name is declared (a recursive call is a use, not a local's),
    # and the return type the parser took for its declarator is a use
    exported = parse_file(
        b"XXH_PUBLIC_API XXH_errorcode XXH32_update(XXH32_state_t* s, size_t n)\n{\n"
        b"    return XXH32_update(s, n - 1);\n}\n",
        "c",
    )
    named = {(r.line, r.chain, r.local) for r in exported.references}
    assert (1, ("XXH32_update",), False) not in named and (3, ("XXH32_update",), False) in named
    assert (1, ("XXH_errorcode",), False) in named


def test_c_names_resolve_as_the_program_links_them(tmp_path: Path) -> None:
    shard = _shard(tmp_path)
    # each file's static hash is its own: main.c's lookup never calls table.c's
    assert _ask(shard, "who calls hash") == [("src/main.c", "lookup"), ("src/table.c", "table_get")]
    callees = _ask(shard, "what does lookup call")
    assert ("src/main.c", "hash") in callees and ("src/table.c", "hash") not in callees
    assert ("src/table.c", "table_get") in callees  # through the function pointer it is stored in
    assert ("src/table.c", "table_new") not in callees  # a parameter shadows it
    # a header's static inline function and its macro are every includer's (what a macro's body calls is
    # raw text, not read: the macro is the use)
    assert _ask(shard, "who uses table_size") == [("src/table.c", "table_get")]
    assert _ask(shard, "who uses TABLE_EMPTY") == [("src/main.c", "lookup")]
    impact = _ask(shard, "what depends on table_get", intent="impact_analysis")
    assert impact[:2] == [("src/main.c", "lookup"), ("src/main.c", "main")]  # main, through lookup
    assert ("src/main.c", None) not in _ask(shard, "who calls table_new")


def test_a_file_that_includes_a_c_file_sees_its_static_functions(tmp_path: Path) -> None:
    """cJSON's tests ``#include "../cJSON.c"`` (through ``common.h``) and call its static functions: those calls
    are of the included file's definitions; a file that does not include it still does not see them."""
    files = {
        "json.c": "static int parse_value(const char *s) {\n  return s[0];\n}\n",
        "tests/common.h": '#include "../json.c"\n',
        "tests/parse_test.c": '#include "common.h"\n\nint test_parse(void) {\n  return parse_value("1");\n}\n',
        "other.c": "int other(void) {\n  return parse_value(0);\n}\n",
    }
    segments = [s for path, text in files.items() for s in segment_file("j", path, "c", text.encode()).segments]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("j",)))
    shard = modality.load(tmp_path)
    assert _ask(shard, "who calls parse_value") == [("tests/parse_test.c", "test_parse")]


def test_a_callee_answer_lists_the_functions_run_before_the_macros_expanded(tmp_path: Path) -> None:
    """``lookup`` calls ``hash`` and expands ``TABLE_EMPTY`` (whose body is raw text the graph does not read):
    the function comes first, the macro after it, ranked with the names the body reads."""
    hits = _shard(tmp_path).search(ModalityQuery(text="what does lookup call", k=10)).hits
    score = {h.symbol: h.score for h in hits}
    assert score["hash"] > score["TABLE_EMPTY"]
    assert [h.symbol for h in hits].index("hash") == 0

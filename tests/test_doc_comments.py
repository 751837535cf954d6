"""A definition's doc comment is its own: read once (``doc_comments``), counted by text's BM25 as the
definition's words, embedded by semantic as its documentation window. Real tree-sitter segments."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from fourfold.index.ingest.segment import segment_file, split_lines
from fourfold.plugins import BuildContext, ModalityQuery, Segment
from fourfold.plugins.doc_comments import clean, comment_above
from fourfold.plugins.text import TextModality
from fourfold.plugins.text.build import documented_owners, line_owners

#: express's layout: a JSDoc block, a blank line, then the function it documents.
JS_SOURCE = b"""'use strict';

/**
 * Module dependencies.
 * @private
 */

var fresh = require('fresh');

/**
 * Check if the request is still fresh: the Last-Modified
 * date and the entity tag still match the cached copy.
 *
 * @return {Boolean}
 * @public
 */

function isFresh(req) {
  return fresh(req.headers, {});
}

// Handlers
// --------

function unrelated() {
  return 1;
}
"""

GO_SOURCE = b"""package pool

// Drain waits until every borrowed connection is handed back.
func Drain() {}

type Pool struct{}

// Borrow takes an idle connection or dials a new one.
func (p *Pool) Borrow() {}
"""

PY_SOURCE = b"""import os


class Registry:
    \"\"\"Holds handlers.\"\"\"

    # Kept for callers of the deprecated lookup interface.
    @staticmethod
    def lookup(name):
        return os.environ.get(name)
"""


def _lines(source: bytes) -> dict[int, str]:
    return dict(enumerate(split_lines(source.decode()), start=1))


def _segments(path: str, language: str, source: bytes) -> list[Segment]:
    return list(segment_file("demo", path, language, source).segments)


def test_a_closed_block_comment_may_stand_a_blank_line_above_but_a_line_comment_must_touch() -> None:
    lines = _lines(JS_SOURCE)
    first, above = comment_above(lines, 18, "javascript")  # function isFresh
    assert first == 10
    assert clean(above).split("\n")[:2] == [
        "Check if the request is still fresh: the Last-Modified",
        "date and the entity tag still match the cached copy.",
    ]
    # "// Handlers" is a section heading a blank line above unrelated(): not its documentation
    assert comment_above(lines, 25, "javascript")[1] == []
    # three blank lines are too many even below a block
    spaced = _lines(b"/** Says hi. */\n\n\n\nfunction hi() {}\n")
    assert comment_above(spaced, 5, "javascript")[1] == []
    assert comment_above(_lines(b"/** Says hi. */\n\n\nfunction hi() {}\n"), 4, "javascript")[1] == [" Says hi. */"]


def test_bm25_counts_the_doc_comment_for_the_definition_and_literal_still_finds_the_comment_line() -> None:
    segs = _segments("lib/request.js", "javascript", JS_SOURCE)
    lines = split_lines(JS_SOURCE.decode())
    starts = np.array([s.start_line for s in segs], dtype=np.int32)
    ends = np.array([s.end_line for s in segs], dtype=np.int32)
    owner = line_owners(starts, ends, len(lines))
    moved = documented_owners(segs, lines, owner)
    fn = next(j for j, s in enumerate(segs) if s.symbol == "isFresh")
    assert [n + 1 for n in np.flatnonzero(moved == fn)] == list(range(10, 17)) + list(range(18, 21))
    assert all(segs[o].symbol is None for o in owner[9:16])  # segmentation itself is unchanged
    assert moved[21] == owner[21]  # the section heading stays in its window


def test_a_method_takes_its_comment_from_the_class_body_and_a_decorator_may_stand_between() -> None:
    segs = _segments("reg.py", "python", PY_SOURCE)
    lines = split_lines(PY_SOURCE.decode())
    starts = np.array([s.start_line for s in segs], dtype=np.int32)
    owner = line_owners(starts, np.array([s.end_line for s in segs], dtype=np.int32), len(lines))
    moved = documented_owners(segs, lines, owner)
    lookup = next(j for j, s in enumerate(segs) if s.symbol == "lookup")
    assert segs[int(owner[6])].symbol == "Registry" and int(moved[6]) == lookup


def test_a_question_in_the_comment_words_finds_the_function_not_the_comment(tmp_path: Path) -> None:
    segs = _segments("lib/request.js", "javascript", JS_SOURCE) + _segments("pool/pool.go", "go", GO_SOURCE)
    TextModality().build(segs, tmp_path, BuildContext("g1", "demo", ("demo",)))
    shard = TextModality().load(tmp_path)

    def top(text: str, **options: str) -> tuple[str | None, int, int]:
        hit = shard.search(ModalityQuery(text=text, repos=("demo",), k=5, options=options)).hits[0]
        return hit.symbol, hit.start_line, hit.end_line

    assert top("how does it check whether the entity tag still matches the cached copy") == ("isFresh", 18, 20)
    assert top("how does it wait for borrowed connections to be handed back") == ("Drain", 4, 4)
    assert top("idle connection or dial a new one") == ("Borrow", 9, 9)
    # the comment's lines are still where a literal search finds them
    assert top("entity tag still match", mode="literal") == (None, 10, 16)


def test_semantic_reads_a_jsdoc_block_across_the_blank_line_segments_leave_out() -> None:
    from fourfold.plugins.semantic.windows import read_docs

    segs = _segments("lib/request.js", "javascript", JS_SOURCE)
    docs = {segs[row].symbol: doc for row, doc in read_docs(segs).text.items()}
    assert docs["isFresh"].startswith("Check if the request is still fresh: the Last-Modified\n")
    assert "unrelated" not in docs
    # the window of the gap above isFresh is embedded without the comment that the function took
    trimmed = {s.start_line: s.content for s in read_docs(segs).trimmed.values()}
    assert all("entity tag" not in content for content in trimmed.values())


def test_a_tool_directive_is_no_documentation_and_may_stand_between() -> None:
    def doc(source: str, language: str = "typescript") -> list[str]:
        lines = dict(enumerate(source.split("\n"), start=1))
        return comment_above(lines, len(lines), language)[1]

    # rxjs writes a lint directive above each overload: the question "how does the tslint disable
    # max-line-length work" is not one its doc comments ask
    assert doc("x;\n/* tslint:disable:max-line-length */\npipe(): T;") == []
    assert doc("/** Runs it. */\n// eslint-disable-next-line no-unused-vars\nfunction f() {}") == [" Runs it. */"]
    assert doc("/** Runs it. */\n\n// @ts-ignore\nfunction f() {}") == [" Runs it. */"]
    assert doc("# Reads the file.\n# pylint: disable=invalid-name\ndef f(): pass", "python") == [" Reads the file."]
    # a directive heading a block is left out of what the block says
    block = comment_above(
        dict(enumerate(["/* tslint:disable:max-line-length */", "/** Gives it back. */", "f();"], 1)), 3, "typescript"
    )
    assert clean(block[1]) == "Gives it back."
    # prose that names a tool stays: the directives are matched as the tools write them
    assert doc("/** ESLint rules are read here. */\nfunction load() {}", "javascript") == [
        " ESLint rules are read here. */"
    ]

"""The text modality over a small real fixture repository: modes, ranking, filters, errors."""

from __future__ import annotations

import json
import threading
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from fourfold.errors import CorruptIndex, InvalidQuery
from fourfold.plugins import BuildContext, ModalityQuery, Segment
from fourfold.plugins.manager import build_registry
from fourfold.plugins.text import TextModality, TextShard
from fourfold.plugins.text.build import split_blocks
from fourfold.plugins.text.storage import StringTable, write_packed_strings, write_strings
from fourfold.plugins.text.terms import content_terms, count_terms
from fourfold.plugins.text.testing import segments_for_file
from fourfold.plugins.types import Definition, segment_id

FIXTURE = Path(__file__).parent / "fixtures" / "text" / "shop"

#: Definitions of the fixture files, as the structural extractor would report them.
DEFINITIONS = {
    "src/payments/retry.py": (
        Definition("RetryPolicy", "class", 8, 21),
        Definition("__init__", "method", 11, 13, parent="RetryPolicy"),
        Definition("delay", "method", 15, 16, parent="RetryPolicy"),
        Definition("should_retry", "method", 18, 21, parent="RetryPolicy"),
        Definition("retry_request", "function", 24, 34),
    ),
    "src/payments/config.py": (
        Definition("parseConfig", "function", 7, 17),
        Definition("http_server_timeout", "function", 20, 21),
    ),
    "web/handlers.go": (
        Definition("HealthHandler", "function", 6, 8),
        Definition("RetryHandler", "function", 11, 13),
    ),
}
LANGUAGES = {".py": "python", ".go": "go", ".js": "javascript"}


def fixture_segments(repo: str = "shop") -> list[Segment]:
    out: list[Segment] = []
    for path in sorted(FIXTURE.rglob("*")):
        if path.is_file():
            rel = path.relative_to(FIXTURE).as_posix()
            text = path.read_bytes().decode()
            out += segments_for_file(repo, rel, LANGUAGES[path.suffix], text, DEFINITIONS.get(rel, ()), window=4)
    return out


@pytest.fixture(scope="module")
def shard(tmp_path_factory: pytest.TempPathFactory) -> TextShard:
    shard_dir = tmp_path_factory.mktemp("text-shard")
    segments = fixture_segments("shop") + fixture_segments("shop-fork")
    stats = TextModality().build(segments, shard_dir, BuildContext("g1", "shop", ("shop", "shop-fork")))
    assert stats.segments == len(segments)
    assert stats.notes == ()
    return TextModality().load(shard_dir)


def search(shard: TextShard, text: str, **kwargs: object) -> list[tuple[str, str, int, tuple[int, ...]]]:
    result = shard.search(ModalityQuery(text=text, repos=("shop",), k=50, **kwargs))  # type: ignore[arg-type]
    return [(h.path, h.symbol or "", h.start_line, h.match_lines) for h in result.hits]


def test_registered_through_the_plugin_manager() -> None:
    modality = build_registry().modality("text")
    assert isinstance(modality, TextModality)
    assert modality.sharding == "repo"


def test_literal_maps_each_match_to_the_innermost_segment(shard: TextShard) -> None:
    hits = search(shard, "attempt", options={"mode": "literal"})
    by_symbol = {symbol: lines for _, symbol, _, lines in hits}
    # lines 11-13 belong to __init__, 18-21 to should_retry, not to the enclosing class
    assert by_symbol["__init__"] == (11, 12)
    assert by_symbol["should_retry"] == (18, 19)
    assert by_symbol["delay"] == (15, 16)
    assert by_symbol["retry_request"] == (26, 31, 33, 34)
    assert "RetryPolicy" not in by_symbol  # its own lines (8-10, 14, 17) hold no "attempt"


def test_literal_case_sensitivity(shard: TextShard) -> None:
    insensitive = search(shard, "econnrefused", options={"mode": "literal"})
    assert {(p, lines) for p, _, _, lines in insensitive} == {("src/payments/retry.py", (21,)), ("web/server.js", (4,))}
    assert search(shard, "econnrefused", options={"mode": "literal"}, case_sensitive=True) == []


def test_total_matches_counts_lines_beyond_k(shard: TextShard) -> None:
    full = shard.search(ModalityQuery("self", repos=("shop",), k=100, options={"mode": "literal"}))
    cut = shard.search(ModalityQuery("self", repos=("shop",), k=1, options={"mode": "literal"}))
    assert len(cut.hits) == 1
    assert cut.total_matches == full.total_matches == sum(len(h.match_lines) for h in full.hits) == 7  # rg -c self


def test_short_literals_scan_every_file(shard: TextShard) -> None:
    hits = search(shard, "€", options={"mode": "literal"})
    assert [(p, lines) for p, _, _, lines in hits] == [("src/payments/config.py", (4,))]
    assert {p for p, *_ in search(shard, "=>", options={"mode": "literal"})} == set()
    assert {p for p, *_ in search(shard, "//", options={"mode": "literal"})} == {"web/server.js", "web/handlers.go"}


def test_unicode_case_folding(shard: TextShard) -> None:
    # ripgrep -i folds Σ/σ/ς and ß/ẞ the same way (Unicode simple case folding)
    assert [lines for *_, lines in search(shard, "σίσυφος", options={"mode": "literal"})] == [(1,)]
    assert [lines for *_, lines in search(shard, "GRÖSSE", options={"mode": "literal"})] == []
    assert [lines for *_, lines in search(shard, "GRÖẞE", options={"mode": "literal"})] == [(1,)]


def test_crlf_lines_keep_their_carriage_return(shard: TextShard) -> None:
    # as in ripgrep without --crlf, '$' does not match before '\r'
    assert search(shard, r"\{$", options={"mode": "regex"}, path_glob="*.js") == []
    hits = search(shard, r"\{\r$", options={"mode": "regex"}, path_glob="*.js")
    assert [lines for *_, lines in hits] == [(3,)]


def test_regex_with_anchors_classes_and_alternation(shard: TextShard) -> None:
    hits = search(shard, r"^func (Health|Retry)Handler\(", options={"mode": "regex"})
    assert [(p, s, lines) for p, s, _, lines in hits] == [
        ("web/handlers.go", "HealthHandler", (6,)),
        ("web/handlers.go", "RetryHandler", (11,)),
    ]
    assert {s for _, s, _, _ in search(shard, r"def \w+_retry\b", options={"mode": "regex"})} == {"should_retry"}


def test_invalid_regex_names_the_position(shard: TextShard) -> None:
    with pytest.raises(InvalidQuery, match=r"missing \).*position 3"):
        shard.search(ModalityQuery("foo(bar", options={"mode": "regex"}))
    with pytest.raises(InvalidQuery, match="invalid character class range"):
        shard.search(ModalityQuery("[z-a]", options={"mode": "regex"}))


def test_bad_mode_and_empty_query_are_refused(shard: TextShard) -> None:
    with pytest.raises(InvalidQuery, match="mode 'fuzzy' is unknown"):
        shard.search(ModalityQuery("x", options={"mode": "fuzzy"}))
    with pytest.raises(InvalidQuery, match="empty"):
        shard.search(ModalityQuery("   "))


def test_pathological_regex_stays_linear(shard: TextShard) -> None:
    # exponential for a backtracking engine; RE2 answers at once
    result = shard.search(ModalityQuery("(a+)+$" + "|(x*)*y" * 3, k=5, options={"mode": "regex"}))
    assert result.total_matches >= 1


def test_auto_mode_quoted_literal(shard: TextShard) -> None:
    hits = search(shard, 'where is "ECONNREFUSED" raised')
    assert (hits[0][0], hits[0][3]) == ("web/server.js", (4,))  # "raised" ranks it first
    assert len(hits) == 2


def test_auto_mode_bm25_ranks_the_definition_first(shard: TextShard) -> None:
    hits = search(shard, "parse config")
    assert hits[0][:2] == ("src/payments/config.py", "parseConfig")
    hits = search(shard, "retry request")
    assert hits[0][1] == "retry_request"
    assert 24 in hits[0][3]


_MUX_GO = """package mux

// Mux routes requests to handlers.
type Mux struct {
	tree     *node
	handlers map[string]Handler
	prefix   string
	count    int
}

// InsertRoute walks the routing tree from this node and inserts the handler where the pattern ends.
func (n *node) InsertRoute(pattern string, handler Handler) *node {
	search := pattern
	for len(search) > 0 {
		child := n.findEdge(search[0])
		if child == nil {
			child = &node{prefix: search}
			n.children = append(n.children, child)
		}
		n = child
		search = search[len(n.prefix):]
	}
	n.handler = handler
	return n
}

func (n *node) findEdge(label byte) *node {
	for _, c := range n.children {
		if c.prefix[0] == label {
			return c
		}
	}
	return nil
}
"""


def test_a_struct_field_wins_no_prose_question_on_its_shortness(tmp_path: Path) -> None:
    """chi's ``tree *node`` answered "where is the router tree node inserted" before ``InsertRoute``: a
    one-line field holds both words in two terms. A field counts as at least the average length."""
    defs = (
        Definition("Mux", "struct", 4, 9),
        *(
            Definition(name, "field", line, line, parent="Mux")
            for line, name in enumerate(("tree", "handlers", "prefix", "count"), 5)
        ),
        Definition("InsertRoute", "method", 12, 25),
        Definition("findEdge", "method", 27, 34),
    )
    TextModality().build(
        segments_for_file("r", "mux.go", "go", _MUX_GO, defs, window=4), tmp_path, BuildContext("g", "r", ("r",))
    )
    shard = TextModality().load(tmp_path)
    question = "where is the routing tree node inserted"
    ranked = [h.symbol for h in shard.search(ModalityQuery(question, k=3, options={"mode": "bm25"})).hits]
    assert ranked[:2] == ["InsertRoute", "tree"]
    before = shard.search(ModalityQuery(question, k=3, options={"mode": "bm25", "field_floor": "off"})).hits
    assert [h.symbol for h in before][:2] == ["tree", "InsertRoute"]  # the option keeps the old order


_CHECKS_PY = """QUESTIONS = [
    "where do we retry",
    "where are requests sent",
    "where is a cache built",
    "where is a deadline set",
]


def check_token(token):
    if not token:
        raise PermissionError("no token")
"""


def test_a_question_is_ranked_by_what_it_asks_about_not_its_frame(tmp_path: Path) -> None:
    """ "where is the token checked": code rarely spells "where", so BM25 weighed it high and a list of questions
    ranked first. The frame's words (``terms.QUESTION_WORDS``) are left out; ``question_words=keep`` counts them."""
    defs = (Definition("QUESTIONS", "constant", 1, 6), Definition("check_token", "function", 9, 11))
    TextModality().build(
        segments_for_file("r", "checks.py", "python", _CHECKS_PY, defs, window=4),
        tmp_path,
        BuildContext("g", "r", ("r",)),
    )
    shard = TextModality().load(tmp_path)
    question = "where is the token checked"
    asked = shard.search(ModalityQuery(question, k=3))
    assert asked.hits[0].symbol == "check_token", asked.notes
    assert asked.notes == ("text: BM25 over terms is, the, token, checked",)
    kept = shard.search(ModalityQuery(question, k=3, options={"question_words": "keep"}))
    assert kept.hits[0].symbol == "QUESTIONS", kept.notes
    assert kept.notes == ("text: BM25 over terms where, is, the, token, checked",)
    # mode=bm25 counts every word, as asked; a question of nothing but frame words keeps them all
    assert shard.search(ModalityQuery(question, k=3, options={"mode": "bm25"})).notes == kept.notes
    assert content_terms(("how", "does", "we", "where")) == ("how", "does", "we", "where")
    with pytest.raises(InvalidQuery, match="question_words must be 'drop' or 'keep', got 'maybe'"):
        shard.search(ModalityQuery(question, k=3, options={"question_words": "maybe"}))
    with pytest.raises(InvalidQuery, match="question_words"):  # in every mode, not only where it is used
        shard.search(ModalityQuery('"token"', k=3, options={"question_words": "maybe"}))


def test_a_string_table_says_which_entries_equal_a_value(tmp_path: Path) -> None:
    values = ["field", "fiel", "fields", "", "é", "field", "method"]
    write_packed_strings(tmp_path, "kinds", values)
    table = StringTable.load_packed(tmp_path, "kinds")
    for value in ("field", "", "é", "absent"):
        assert table.equal(value).tolist() == [v == value for v in values]


def test_exact_match_intent_tries_the_whole_literal_first(shard: TextShard) -> None:
    hits = search(shard, "policy.delay(attempt)", intent="exact_match")
    assert [(s, lines) for _, s, _, lines in hits] == [("retry_request", (33,))]
    fallback = search(shard, "timeout server", intent="exact_match")
    assert fallback[0][1] == "http_server_timeout"


def test_exact_matches_in_one_shard_outrank_ranked_words_of_another(tmp_path: Path) -> None:
    """One shard holds the literal, another only its words: merged by score (as the coordinator
    merges shards), the literal match comes first however well the words rank."""
    wordy = "\n".join(["# decoding error: an error while decoding, decoding error again"] * 20) + "\n"
    exact = "class DecodingError(Exception):\n    pass\n"
    results = []
    for name, text in (("words", wordy), ("literal", exact)):
        segments = segments_for_file(name, f"{name}.py", "python", text, (), window=50)
        TextModality().build(segments, tmp_path / name, BuildContext("g1", name, (name,)))
        results.append(
            TextModality().load(tmp_path / name).search(ModalityQuery("DecodingError", k=10, intent="exact_match"))
        )
    words, literal = results
    assert words.hits and "no literal match" in words.notes[0]
    assert literal.total_matches == 1
    merged = sorted((h for r in results for h in r.hits), key=lambda h: -h.score)
    assert merged[0].repo == "literal" and max(h.score for h in words.hits) < 1.0 <= merged[0].score


def test_filters_by_repository_language_and_glob(shard: TextShard) -> None:
    both = shard.search(ModalityQuery("retry", k=100, options={"mode": "literal"}))
    assert {h.repo for h in both.hits} == {"shop", "shop-fork"}
    go = search(shard, "retry", options={"mode": "literal"}, languages=("go",))
    assert {p for p, *_ in go} == {"web/handlers.go"}
    assert {p for p, *_ in search(shard, "retry", options={"mode": "literal"}, path_glob="src/**/*.py")} == {
        "src/payments/retry.py"
    }
    assert {p for p, *_ in search(shard, "retry", options={"mode": "literal"}, path_glob="*.{go,js}")} == {
        "web/handlers.go"
    }


def test_hits_carry_segment_identity_and_snippet(shard: TextShard) -> None:
    result = shard.search(ModalityQuery("MAX_ATTEMPTS = 5", repos=("shop",), options={"mode": "literal"}))
    (hit,) = result.hits
    assert hit.language == "python"
    assert hit.kind is None and hit.symbol is None
    assert hit.snippet == "MAX_ATTEMPTS = 5"
    segment_ids = {s.id for s in fixture_segments("shop")}
    assert hit.segment_id in segment_ids


def test_concurrent_searches_agree(shard: TextShard) -> None:
    expected = shard.search(ModalityQuery("retry", k=20))
    results: list[object] = []

    def worker() -> None:
        for _ in range(20):
            results.append(shard.search(ModalityQuery("retry", k=20)))

    threads = [threading.Thread(target=worker) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(results) == 80
    assert all(r == expected for r in results)


def test_empty_shard(tmp_path: Path) -> None:
    TextModality().build([], tmp_path, BuildContext("g1", "empty", ()))
    result = TextModality().load(tmp_path).search(ModalityQuery("anything", options={"mode": "literal"}))
    assert result.hits == () and result.total_matches == 0


def test_position_masks_rule_out_files_whose_trigrams_never_line_up(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every trigram of "Too many redirects" is in both files, in line only in one: the other is not
    even verified. Folding keeps offsets: the Kelvin sign (3 bytes) folds to "k" as rg -i reads it."""
    monkeypatch.setattr("fourfold.plugins.text.shard._VERIFY_BYTES", 0)  # masks even for two small candidates
    files = {
        "hit.py": "raise TooManyRedirects('Too many redirects')\n",
        "miss.py": "# too many, many redirects\nTOO = 1\n",
        "kelvin.txt": "temperature in \u212aelvin here\n",
    }
    segments = [s for path, text in files.items() for s in segments_for_file("r", path, "python", text, (), window=50)]
    TextModality().build(segments, tmp_path / "shard", BuildContext("g1", "r", ("r",)))
    shard = TextModality().load(tmp_path / "shard")
    assert (tmp_path / "shard" / "tri_mask.bin").stat().st_size > 0
    phrase = shard.search(ModalityQuery("Too many redirects", k=10, case_sensitive=True, options={"mode": "literal"}))
    assert [h.path for h in phrase.hits] == ["hit.py"] and "1 of 3 files verified" in phrase.notes[0]
    folded = shard.search(ModalityQuery("kelvin here", k=10, options={"mode": "literal"}))
    assert [h.path for h in folded.hits] == ["kelvin.txt"]
    # without masks (a shard built before them) the same answers, after verifying more files
    (tmp_path / "shard" / "tri_mask.bin").unlink()
    unmasked = TextModality().load(tmp_path / "shard")
    again = unmasked.search(ModalityQuery("Too many redirects", k=10, case_sensitive=True, options={"mode": "literal"}))
    assert [h.path for h in again.hits] == ["hit.py"] and "2 of 3 files verified" in again.notes[0]


def test_case_patterns_rule_out_files_holding_the_trigrams_in_another_case(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every folded trigram of NoReturn is in all three files, in its own case only in one: a
    case-sensitive search verifies that one; an alternation of literals is narrowed string by
    string; case-insensitive searches and a shard built before the case patterns (no
    tri_case.bin) give the same answers, after verifying more files."""
    monkeypatch.setattr("fourfold.plugins.text.shard._VERIFY_BYTES", 0)  # narrow even three small candidates
    files = {
        "hit.pyi": "def f() -> NoReturn: ...\n",
        "lower.py": "x = noreturn\n",
        "split.py": "# ignore the return value, Noreturn\nNORETURN = 1\n",
        "timeouts.py": "except ReadTimeout:\n",
        "lower_timeouts.py": "connecttimeout = 1\n",
    }
    segments = [s for path, text in files.items() for s in segments_for_file("r", path, "python", text, (), window=50)]
    TextModality().build(segments, tmp_path / "shard", BuildContext("g1", "r", ("r",)))
    assert (tmp_path / "shard" / "tri_case.bin").stat().st_size > 0

    def ask(shard: TextShard, text: str, mode: str, case_sensitive: bool) -> tuple[list[str], str]:
        result = shard.search(ModalityQuery(text, k=10, case_sensitive=case_sensitive, options={"mode": mode}))
        return sorted(h.path for h in result.hits), result.notes[0]

    alternation = "(ConnectTimeout|ReadTimeout|WriteTimeout)"
    shard = TextModality().load(tmp_path / "shard")
    paths, note = ask(shard, "NoReturn", "literal", True)
    assert paths == ["hit.pyi"] and "1 of 5 files verified" in note
    paths, note = ask(shard, alternation, "regex", True)
    assert paths == ["timeouts.py"] and "1 of 5 files verified" in note
    paths, note = ask(shard, "NoReturn", "literal", False)
    assert paths == ["hit.pyi", "lower.py", "split.py"]
    paths, note = ask(shard, f"(?i){alternation}", "regex", True)  # (?i) inside: any case
    assert paths == ["lower_timeouts.py", "timeouts.py"] and "2 of 5 files verified" in note
    (tmp_path / "shard" / "tri_case.bin").unlink()
    before = TextModality().load(tmp_path / "shard")
    paths, note = ask(before, "NoReturn", "literal", True)
    assert paths == ["hit.pyi"] and "3 of 5 files verified" in note  # the offsets line up in all three
    paths, note = ask(before, alternation, "regex", True)
    assert paths == ["timeouts.py"] and "2 of 5 files verified" in note
    (tmp_path / "shard" / "tri_case.bin").write_bytes(b"\0")
    with pytest.raises(CorruptIndex, match="case patterns"):
        TextModality().load(tmp_path / "shard")


def test_trigram_case_patterns_are_the_same_however_the_postings_are_sorted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The case byte carried in the sort key (block ids under 2**24) and the argsort kept for
    larger shards write the same files."""
    segments = fixture_segments()
    TextModality().build(segments, tmp_path / "keyed", BuildContext("g1", "shop", ("shop",)))
    monkeypatch.setattr("fourfold.plugins.text.build._CASE_IN_KEY_BLOCKS", 0)
    TextModality().build(segments, tmp_path / "argsort", BuildContext("g1", "shop", ("shop",)))
    for name in ("tri_data.bin", "tri_mask.bin", "tri_case.bin", "tri_index.zst"):
        assert (tmp_path / "keyed" / name).read_bytes() == (tmp_path / "argsort" / name).read_bytes(), name


@pytest.mark.parametrize("size", [1, 5, 12, 1000])
def test_blocks_are_whole_lines_that_join_back_into_the_file(size: int) -> None:
    lines = ["def f():", "", "    return 1", "x = 'é' * 3", ""]
    blocks = split_blocks(lines, size)
    assert "\n".join(text for _, text in blocks) == "\n".join(lines)
    firsts = [first for first, _ in blocks]
    assert firsts[0] == 0 and firsts == sorted(set(firsts))
    for (first, text), nxt in zip(blocks, [*firsts[1:], len(lines)], strict=True):
        assert text.split("\n") == lines[first:nxt]  # whole lines, in order
    assert (len(blocks) == 1) == (size >= len("\n".join(lines)))


def _as_format_3(shard_dir: Path) -> None:
    """Rewrite a shard as format 3 stored it: "id\\0symbol\\0kind" per segment with every id in hex,
    the terms as a plain string table, each integer table and the posting lists' keys, offsets and
    widths as a ``.npy`` at its old fixed width, a byte per term frequency."""
    shard = TextModality().load(shard_dir)
    info = [
        f"{shard._segment_id(seg, int(shard.seg_file[seg]))}\0{shard.seg_symbol[seg]}\0{shard.seg_kind[seg]}"
        for seg in range(shard.n_segments)
    ]
    terms = [shard.terms[i] for i in range(len(shard.terms))]
    arrays = {
        "content_offsets": (np.array(shard.content_offsets), np.int64),
        "block_file": (shard.block_file, np.int32),
        "block_line": (shard.block_line, np.int32),
        "file_blocks": (shard.file_blocks, np.int64),
        "seg_offsets": (shard.seg_offsets, np.int64),
        "seg_start": (shard.seg_start, np.int32),
        "seg_end": (shard.seg_end, np.int32),
        "seg_len": (shard.seg_len, np.uint32),
    }
    for name, (values, dtype) in arrays.items():
        np.save(shard_dir / f"{name}.npy", np.asarray(values).astype(dtype))
    for name, lists, key_dtype in (("tri", shard.tri, np.uint32), ("term", shard.term, np.uint64)):
        keys = lists.keys.astype(key_dtype)
        np.save(shard_dir / f"{name}_keys.npy", keys)
        np.save(shard_dir / f"{name}_offsets.npy", lists.offsets.astype(np.uint32))
        np.save(shard_dir / f"{name}_width.npy", lists.width)
        (shard_dir / f"{name}_index.zst").unlink()
    tf = [shard._term_tf(i, shard.term.size(i)) for i in range(shard.term.width.size)]
    np.save(shard_dir / "term_tf.npy", np.concatenate([np.empty(0), *tf]).astype(np.uint8))
    (shard_dir / "term_tf.bin").unlink()
    (shard_dir / "term_tf_index.zst").unlink()
    shard.close()
    write_strings(shard_dir, "seg_info", info)
    write_strings(shard_dir, "terms", terms)
    for name in ("seg_symbol", "seg_kind", "seg_idname", "terms", "tables"):
        (shard_dir / f"{name}.zst").unlink()
    (shard_dir / "seg_ids.json").unlink(missing_ok=True)
    meta = json.loads((shard_dir / "meta.json").read_text())
    (shard_dir / "meta.json").write_text(json.dumps({**meta, "format": 3}))


def _answers(shard: TextShard) -> list[object]:
    queries = [
        ModalityQuery("attempt", k=50, options={"mode": "literal"}),
        ModalityQuery(r"def \w+", k=50, options={"mode": "regex"}),
        ModalityQuery("retry delay", k=50, options={"mode": "bm25"}),
        ModalityQuery("RetryPolicy", k=50, intent="exact_match"),
        ModalityQuery("retry", k=50, options={"mode": "literal", "group": "file"}),
    ]
    return [shard.search(q) for q in queries]


def test_segment_ids_are_recomputed_from_place_and_name_or_kept_when_they_cannot_be(tmp_path: Path) -> None:
    """Ids from the symbol (windows, top-level names), from the qualified name (methods, as ingestion
    names them: "RetryPolicy.delay") and others: every hit names its segment's own id, and only the others
    are stored."""
    segments = []
    for s in fixture_segments("shop"):
        if s.kind == "method":
            s = replace(s, qualified_name=f"RetryPolicy.{s.symbol}")
            s = replace(s, id=segment_id(s.repo, s.path, s.start_line, s.end_line, s.qualified_name))
        segments.append(s)
    assert any(s.qualified_name and s.qualified_name != s.symbol for s in segments)
    odd = next(i for i, s in enumerate(segments) if s.symbol == "retry_request")
    segments[odd] = replace(segments[odd], id="not-a-derived-id")
    # a qualified name that does not end with the symbol: its id is stored too
    other = next(i for i, s in enumerate(segments) if s.symbol == "parseConfig")
    s = replace(segments[other], qualified_name="config::parse")
    segments[other] = s = replace(s, id=segment_id(s.repo, s.path, s.start_line, s.end_line, s.qualified_name))
    TextModality().build(segments, tmp_path, BuildContext("g1", "shop", ("shop",)))
    assert set(json.loads((tmp_path / "seg_ids.json").read_text()).values()) == {"not-a-derived-id", s.id}
    shard = TextModality().load(tmp_path)
    found = {}
    for h in shard.search(ModalityQuery(r"\S", k=1000, options={"mode": "regex"})).hits:
        found[(h.path, h.start_line, h.end_line, h.symbol)] = h.segment_id
    expected = {(s.path, s.start_line, s.end_line, s.symbol): s.id for s in segments}
    assert found and all(expected[key] == seg_id for key, seg_id in found.items())
    assert "not-a-derived-id" in found.values() and s.id in found.values()
    assert any(s.id in found.values() for s in segments if s.qualified_name and s.qualified_name != s.symbol)


def test_a_format_3_shard_answers_as_it_did(tmp_path: Path) -> None:
    TextModality().build(fixture_segments("shop"), tmp_path, BuildContext("g1", "shop", ("shop",)))
    now = _answers(TextModality().load(tmp_path))
    assert all(r.hits for r in now)
    _as_format_3(tmp_path)
    assert _answers(TextModality().load(tmp_path)) == now


def test_a_shard_from_before_blocks_is_searched_as_one_block_per_file(tmp_path: Path) -> None:
    segments = fixture_segments("shop")
    TextModality().build(segments, tmp_path, BuildContext("g1", "shop", ("shop",)))
    query = ModalityQuery("attempt", k=50, options={"mode": "literal"})
    now = TextModality().load(tmp_path).search(query)
    _as_format_3(tmp_path)
    for name in ("block_file.npy", "block_line.npy", "file_blocks.npy"):
        (tmp_path / name).unlink()
    meta = json.loads((tmp_path / "meta.json").read_text())
    (tmp_path / "meta.json").write_text(json.dumps({**meta, "format": 2}))
    old = TextModality().load(tmp_path).search(query)
    assert [(h.path, h.match_lines, h.snippet) for h in old.hits] == [
        (h.path, h.match_lines, h.snippet) for h in now.hits
    ]
    assert old.total_matches == now.total_matches > 0


def test_damaged_segment_names_are_a_corrupt_index(tmp_path: Path) -> None:
    TextModality().build(fixture_segments("shop"), tmp_path, BuildContext("g1", "shop", ("shop",)))
    packed = (tmp_path / "seg_symbol.zst").read_bytes()
    (tmp_path / "seg_symbol.zst").write_bytes(packed[: len(packed) // 2])
    with pytest.raises(CorruptIndex, match="rebuild it"):
        TextModality().load(tmp_path)


def test_term_frequencies_read_back_as_counted(tmp_path: Path) -> None:
    """Frequencies are stored two to a byte in lists whose frequencies are all under 16, one to a
    byte otherwise (and clipped at 255): each reads back as the segment's own count."""
    words = {"a.txt": "alpha beta\n" * 3 + "gamma " * 20 + "\n", "b.txt": "alpha\n" + "delta " * 300 + "\n"}
    segments = [s for path, text in words.items() for s in segments_for_file("r", path, "text", text, (), window=50)]
    TextModality().build(segments, tmp_path, BuildContext("g1", "r", ("r",)))
    shard = TextModality().load(tmp_path)
    assert shard._tf_packed.any() and not shard._tf_packed.all()
    by_path = {s.path: count_terms(s.content) for s in segments}
    for i in range(len(shard.terms)):
        term, segs = shard.terms[i], shard.term.ids(i)
        expected = [min(by_path[shard.paths[int(shard.seg_file[seg])]][term], 255) for seg in segs.tolist()]
        assert shard._term_tf(i, segs.size).tolist() == expected, term

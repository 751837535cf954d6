"""Literal and regex search agree line for line with a reference implementation and with ripgrep.

The reference is the obvious one: every line of every file, ``in`` for case-sensitive literals
and Python's ``re.IGNORECASE`` for the rest. ripgrep runs when it is on PATH (CI installs it).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path
from unittest.mock import patch

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from fourfold.plugins import BuildContext, ModalityQuery, Segment
from fourfold.plugins.text import TextModality, TextShard
from fourfold.plugins.text.fold import fold, fold_bytes, trigram_keys
from fourfold.plugins.text.matchers import _first_match, regex_matcher
from fourfold.plugins.text.testing import segments_for_file, split_lines
from fourfold.plugins.text.trigram_query import ALL, All, And, Or, Query, Tri, exact_strings, for_regex
from fourfold.plugins.types import CONTEXT_OPTION, Definition

RG = shutil.which("rg")
needs_rg = pytest.mark.skipif(RG is None, reason="ripgrep (rg) is not on PATH; CI installs it")

# Letters whose case folding is tricky (Kelvin sign, long s, final sigma, sharp s), CRLF, tabs,
# astral characters. Dotted/dotless i are left out: Python's re folds them, RE2 and rg do not.
ALPHABET = "abcdeKkSsſ\u212aσςΣßẞéÉ \t\r_(){}.*+?\\😀"

Files = dict[str, str]


def build(tmp: Path, files: Files, segments: list[Segment]) -> TextShard:
    TextModality().build(segments, tmp / "shard", BuildContext("g", "r", ("r",)))
    return TextModality().load(tmp / "shard")


def write_tree(root: Path, files: Files) -> None:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(text.encode())


def found(shard: TextShard, text: str, mode: str, case_sensitive: bool) -> set[tuple[str, int]]:
    result = shard.search(ModalityQuery(text, k=10_000, case_sensitive=case_sensitive, options={"mode": mode}))
    lines = {(h.path, line) for h in result.hits for line in h.match_lines}
    assert result.total_matches == len(lines)
    return lines


def reference(files: Files, literal: str, case_sensitive: bool) -> set[tuple[str, int]]:
    rx = re.compile(re.escape(literal), 0 if case_sensitive else re.IGNORECASE)
    return {
        (path, i + 1)
        for path, text in files.items()
        for i, line in enumerate(split_lines(text))
        if (literal in line if case_sensitive else rx.search(line))
    }


def ripgrep(root: Path, pattern: str, *flags: str) -> set[tuple[str, int]]:
    assert RG is not None
    proc = subprocess.run(
        [
            RG,
            "--no-config",
            "--no-ignore",
            "--hidden",
            "-a",
            "-n",
            "--no-heading",
            "--with-filename",
            *flags,
            "-e",
            pattern,
            ".",
        ],
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


@st.composite
def repositories(draw: st.DrawFn) -> tuple[Files, list[Segment]]:
    """1-3 files of random lines (some long), LF or CRLF, cut into windows and nested definitions."""
    files: Files = {}
    segments: list[Segment] = []
    for n in range(draw(st.integers(1, 3))):
        line = st.text(ALPHABET, max_size=12) | st.text(ALPHABET, min_size=1, max_size=4).map(lambda s: s * 300)
        lines = draw(st.lists(line, min_size=1, max_size=12))
        eol = draw(st.sampled_from(["\n", "\r\n"]))
        text = eol.join(lines) + draw(st.sampled_from(["", eol]))
        path = f"d{n}/f{n}.txt"
        files[path] = text
        count = len(split_lines(text))
        definitions: list[Definition] = []
        if count >= 4 and draw(st.booleans()):
            start = draw(st.integers(1, count - 3))
            end = draw(st.integers(start + 2, count))
            definitions.append(Definition("outer", "class", start, end))
            definitions.append(Definition("inner", "method", start + 1, end - 1 if end - 1 > start + 1 else end))
        window = draw(st.integers(1, 5))
        segments += segments_for_file("r", path, "text", text, definitions, window=window)
    return files, segments


@st.composite
def needles(draw: st.DrawFn, files: Files) -> str:
    """A literal: a slice of some line (so that it matches), or random text."""
    lines = [line for text in files.values() for line in split_lines(text) if line]
    if lines and draw(st.booleans()):
        line = draw(st.sampled_from(lines))
        start = draw(st.integers(0, len(line) - 1))
        return line[start : start + draw(st.integers(1, 6))]
    return draw(st.text(ALPHABET, min_size=1, max_size=5))


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_literal_search_finds_exactly_the_reference_lines(data: st.DataObject) -> None:
    files, segments = data.draw(repositories())
    literal = data.draw(needles(files))
    case_sensitive = data.draw(st.booleans())
    threshold = data.draw(st.sampled_from([0, 64 << 10]))  # 0: the position masks filter even two candidates
    block = data.draw(st.sampled_from([64 << 10, 24, 1]))  # small: files cut into many blocks of whole lines
    with (
        tempfile.TemporaryDirectory() as tmp,
        patch("fourfold.plugins.text.shard._VERIFY_BYTES", threshold),
        patch("fourfold.plugins.text.build.BLOCK_CHARS", block),
    ):
        shard = build(Path(tmp), files, segments)
        assert found(shard, literal, "literal", case_sensitive) == reference(files, literal, case_sensitive)


@needs_rg
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_literal_search_agrees_with_ripgrep(data: st.DataObject) -> None:
    files, segments = data.draw(repositories())
    literal = data.draw(needles(files))
    case_sensitive = data.draw(st.booleans())
    threshold = data.draw(st.sampled_from([0, 64 << 10]))  # 0: the position masks filter even two candidates
    block = data.draw(st.sampled_from([64 << 10, 24, 1]))  # small: files cut into many blocks of whole lines
    with (
        tempfile.TemporaryDirectory() as tmp,
        patch("fourfold.plugins.text.shard._VERIFY_BYTES", threshold),
        patch("fourfold.plugins.text.build.BLOCK_CHARS", block),
    ):
        root = Path(tmp) / "tree"
        write_tree(root, files)
        shard = build(Path(tmp), files, segments)
        flags = ["-F"] if case_sensitive else ["-F", "-i"]
        assert found(shard, literal, "literal", case_sensitive) == ripgrep(root, literal, *flags)


def ripgrep_context(root: Path, path: str, literal: str, case_sensitive: bool, before: int, after: int) -> list[str]:
    """What ``rg -n -B before -A after`` prints for ``path``, each line's text cut as a snippet cuts it (240
    characters, then a carriage return at its end left out)."""
    assert RG is not None
    flags = ["-F"] if case_sensitive else ["-F", "-i"]
    proc = subprocess.run(
        [
            RG,
            "--no-config",
            "-a",
            "-n",
            "--no-filename",
            *flags,
            "-B",
            str(before),
            "-A",
            str(after),
            "-e",
            literal,
            path,
        ],
        cwd=root,
        capture_output=True,
    )
    assert proc.returncode in (0, 1), proc.stderr
    out = []
    for row in proc.stdout.decode().split("\n"):
        m = re.fullmatch(r"(\d+)([:-])(.*)", row, re.S)
        out.extend([f"{m[1]}{m[2]}{m[3][:240].rstrip(chr(13))}"] if m else ["--"] if row == "--" else [])
    return out


@needs_rg
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_context_lines_are_what_ripgrep_prints(data: st.DataObject) -> None:
    files, segments = data.draw(repositories())
    literal = data.draw(needles(files))
    case_sensitive = data.draw(st.booleans())
    before, after = data.draw(st.integers(0, 3)), data.draw(st.integers(0, 3))
    assume(before or after)  # none: the plain snippet (the matching lines, not numbered)
    block = data.draw(st.sampled_from([64 << 10, 24, 1]))  # context read across the blocks of a file
    with tempfile.TemporaryDirectory() as tmp, patch("fourfold.plugins.text.build.BLOCK_CHARS", block):
        root = Path(tmp) / "tree"
        write_tree(root, files)
        shard = build(Path(tmp), files, segments)
        options = {"mode": "literal", "group": "file", CONTEXT_OPTION: f"{before},{after}"}
        result = shard.search(ModalityQuery(literal, k=100, case_sensitive=case_sensitive, options=options))
        for h in result.hits:  # at most 12 lines a file: never cut
            got = [line.rstrip("\r") for line in h.snippet.split("\n")]
            assert got == ripgrep_context(root, h.path, literal, case_sensitive, before, after)


def test_context_after_the_last_line_of_text_counts_the_empty_lines_a_segment_covers(tmp_path: Path) -> None:
    text = "needle\n\n"  # the text ends at "needle"; the segments cover line 2, as ripgrep prints it
    shard = build(tmp_path, {"a.txt": text}, segments_for_file("r", "a.txt", "text", text, [], window=1))
    options = {"mode": "literal", "group": "file", CONTEXT_OPTION: "0,3"}
    assert shard.search(ModalityQuery("needle", k=1, options=options)).hits[0].snippet == "1:needle\n2-"


def test_a_snippets_context_holds_whole_groups_up_to_its_limit(tmp_path: Path) -> None:
    text = "".join(f"line {i}{' needle' if i % 10 == 0 else ''}\n" for i in range(1, 101))
    shard = build(tmp_path, {"a.txt": text}, segments_for_file("r", "a.txt", "text", text, [], window=20))
    options = {"mode": "literal", "group": "file", CONTEXT_OPTION: "4,4"}
    snippet = shard.search(ModalityQuery("needle", k=1, options=options)).hits[0].snippet.split("\n")
    # each group 9 lines (6-14 around 10, 16-24, ...) and a separator: four groups fit 40 lines, a fifth would not
    assert len(snippet) == 39 and snippet[:2] == ["6-line 6", "7-line 7"] and snippet[4] == "10:line 10 needle"
    assert snippet.count("--") == 3 and snippet[9] == "--" and snippet[-1] == "44-line 44"
    touching = shard.search(ModalityQuery("needle", k=1, options={**options, CONTEXT_OPTION: "4,5"})).hits[0]
    assert "--" not in touching.snippet.split("\n")  # 6-15 and 16-25 touch: one group, as grep prints them
    whole = shard.search(ModalityQuery("line", k=1, options={**options, CONTEXT_OPTION: "10"})).hits[0]
    assert len(whole.match_lines) == 100 and whole.snippet.split("\n")[-1] == "40:line 40 needle"  # one group: cut
    assert shard.search(ModalityQuery("needle", k=1, options={**options, CONTEXT_OPTION: "x"})).hits[0].snippet == (
        "line 10 needle\nline 20 needle\nline 30 needle"  # a value the coordinator refuses: the plain snippet
    )


def test_every_hit_is_the_innermost_segment_of_its_lines(tmp_path: Path) -> None:
    text = "".join(f"line {i} needle\n" for i in range(1, 21))
    definitions = [
        Definition("outer", "class", 3, 15),
        Definition("inner", "method", 5, 9),
        Definition("deep", "function", 6, 7),
    ]
    segments = segments_for_file("r", "a.py", "python", text, definitions, window=3)
    shard = build(tmp_path, {"a.py": text}, segments)
    result = shard.search(ModalityQuery("needle", k=100, options={"mode": "literal"}))
    owner = {line: h.symbol for h in result.hits for line in h.match_lines}
    assert sorted(owner) == list(range(1, 21))
    assert {line for line, s in owner.items() if s == "deep"} == {6, 7}
    assert {line for line, s in owner.items() if s == "inner"} == {5, 8, 9}
    assert {line for line, s in owner.items() if s == "outer"} == {3, 4, 10, 11, 12, 13, 14, 15}
    assert {line for line, s in owner.items() if s is None} == {1, 2, 16, 17, 18, 19, 20}


# --- regex ------------------------------------------------------------------------------------

REAL_PATTERNS = (
    r"^def ",
    r"^\s*(def|class) \w+",
    r"\bself\.\w+ = ",
    r"[A-Z][a-z]+Error",
    r"import (os|re|sys)$",
    r"\d{2,}",
    r"^$",
    r"^\s*#",
    r"\(\)$",
    r"(?i)return\s+none",
    r"[^\x00-\x7f]",
    r"\w+\.(py|go|js)\b",
    r"(?:retry|attempt)s?",
    r"[[:upper:]]{3,}",
    r"\p{Lu}\p{Ll}+",
    r"\\n",
    r"a|b|c",
    r"x*",
    r"^.{80,}$",
    r"\s+$",
    r"(?P<name>parse)Config",
    r"MAX_ATTEMPTS\b",
    r"fo{0}o",
    r"é|ß",
)


@pytest.fixture(scope="module")
def real_tree(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, TextShard]:
    """The text fixtures and this package's own sources: real code in several languages, stored in
    blocks of about 2,000 characters so that matches near block edges are checked too."""
    root = tmp_path_factory.mktemp("real")
    sources = Path(__file__).parent / "fixtures" / "text"
    package = Path(__file__).parent.parent / "plugins" / "text"
    files: Files = {}
    for base, prefix in ((sources, "fixtures"), (package, "text")):
        for p in sorted(base.rglob("*")):
            if p.is_file() and p.suffix in (".py", ".go", ".js"):
                files[f"{prefix}/{p.relative_to(base).as_posix()}"] = p.read_bytes().decode()
    write_tree(root / "tree", files)
    segments = [s for path, text in files.items() for s in segments_for_file("r", path, "code", text, window=7)]
    with patch("fourfold.plugins.text.build.BLOCK_CHARS", 2000):  # the larger files in several blocks
        shard = build(root, files, segments)
    assert shard.n_blocks > shard.n_files
    return root / "tree", shard


@needs_rg
@pytest.mark.parametrize("pattern", REAL_PATTERNS)
@pytest.mark.parametrize("case_sensitive", [True, False])
def test_regex_agrees_with_ripgrep(real_tree: tuple[Path, TextShard], pattern: str, case_sensitive: bool) -> None:
    root, shard = real_tree
    flags = () if case_sensitive else ("-i",)
    assert found(shard, pattern, "regex", case_sensitive) == ripgrep(root, pattern, *flags)


def test_first_match_agrees_with_the_public_search() -> None:
    """The direct RE2 match call and the binding's public ``search`` (the fallback) find the same
    first match from every position, up to every end."""

    class Public:  # the binding's public surface only
        def __init__(self, program: object) -> None:
            self.search = program.search  # type: ignore[attr-defined]

    data = "a foo\nxfoo foobar\n\nfoo é fooé".encode()
    for pattern in (r"\bfoo\w*", r"^$", r"x*", r"(ConnectTimeout|foo)"):
        m = regex_matcher(pattern, True)
        fallback = _first_match(Public(m.program))  # type: ignore[arg-type]
        for pos in range(len(data) + 1):
            for end in (pos, (pos + len(data)) // 2, len(data)):
                if end >= pos:
                    assert m.first(data, pos, end) == fallback(data, pos, end), (pattern, pos, end)


def holds(q: Query, keys: set[int]) -> bool:
    if isinstance(q, All):
        return True
    if isinstance(q, Tri):
        return q.key in keys
    if isinstance(q, And):
        return all(holds(c, keys) for c in q.children)
    if isinstance(q, Or):
        return any(holds(c, keys) for c in q.children)
    raise TypeError(q)


_atoms = st.sampled_from(
    [
        "a",
        "b",
        "c",
        "A",
        "B",
        "ab",
        "abc",
        ".",
        r"\w",
        r"\d",
        r"\s",
        "[ab]",
        "[^a]",
        "[a-c]",
        "[Bb]",
        "^",
        "$",
        r"\b",
        "(?i)",
        r"\x41",
    ]
)


#: The characters of generated lines: ASCII letters of both cases, a digit, a space, an underscore
#: and one non-ASCII letter (case folding and UTF-8 both matter to trigrams).
_LINE_ALPHABET = "abcABC1 _é"


def _regexes() -> st.SearchStrategy[str]:
    return st.recursive(
        _atoms,
        lambda inner: st.one_of(
            st.tuples(inner, inner).map("".join),
            st.tuples(inner, inner).map(lambda p: f"(?:{p[0]}|{p[1]})"),
            st.tuples(inner, st.sampled_from(["*", "+", "?", "{2}", "{1,3}", "*?"])).map(lambda p: f"(?:{p[0]}){p[1]}"),
            inner.map(lambda s: f"({s})"),
        ),
        max_leaves=8,
    )


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(pattern=_regexes(), data=st.data())
def test_regex_trigram_query_never_rules_out_a_match(pattern: str, data: st.DataObject) -> None:
    """Every example checks a line the pattern matches: drawn from the pattern itself where Python's
    ``re`` reads it the same way, else a random line kept only when it matches."""
    import re2

    try:
        program = re2.compile(pattern)
    except re2.error:
        assume(False)
    try:
        python = re.compile(pattern)
    except re.error:
        python = None
    if python is not None:
        event("line drawn from the pattern")
        line = data.draw(st.from_regex(python, alphabet=_LINE_ALPHABET))
    else:
        event("random line")
        line = data.draw(st.text(_LINE_ALPHABET, max_size=20))
    assume(program.search(line) is not None)
    query = for_regex(pattern)
    keys = set(trigram_keys(fold_bytes(line)).tolist())
    assert holds(query, keys), (pattern, line, str(query))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(pattern=_regexes(), data=st.data())
def test_regex_exact_strings_hold_every_match(pattern: str, data: st.DataObject) -> None:
    """When the analysis names the strings a regex matches, every match's text is one of them: in
    its own case (the case patterns filter by it), or folded."""
    import re2

    try:
        program = re2.compile(pattern)
    except re2.error:
        assume(False)
    exact, folded = exact_strings(pattern, exact_case=True), exact_strings(pattern, exact_case=False)
    assume(exact is not None or folded is not None)
    line = data.draw(st.text(_LINE_ALPHABET, max_size=20))
    for m in program.finditer(line):
        if exact is not None:
            assert m.group() in exact, (pattern, line, exact)
        if folded is not None:
            assert fold(m.group()) in folded, (pattern, line, folded)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(pattern=_regexes(), data=st.data())
def test_regex_search_finds_exactly_the_reference_lines(pattern: str, data: st.DataObject) -> None:
    """Whole searches with the index narrowing as far as it can (position masks and case patterns
    even for two candidates, small blocks): the lines RE2 matches one line at a time."""
    import re2

    case_sensitive = data.draw(st.booleans())
    try:
        program = re2.compile(pattern if case_sensitive else f"(?i){pattern}")
    except re2.error:
        assume(False)
    lines = st.text(_LINE_ALPHABET, max_size=20) | st.from_regex(re2_free(pattern), alphabet=_LINE_ALPHABET)
    files = {f"f{n}.txt": "\n".join(data.draw(st.lists(lines, min_size=1, max_size=6))) for n in range(3)}
    want = {
        (path, i + 1)
        for path, text in files.items()
        for i, line in enumerate(split_lines(text))
        if program.search(line) is not None
    }
    segments = [s for path, text in files.items() for s in segments_for_file("r", path, "text", text, window=3)]
    with (
        tempfile.TemporaryDirectory() as tmp,
        patch("fourfold.plugins.text.shard._VERIFY_BYTES", 0),
        patch("fourfold.plugins.text.build.BLOCK_CHARS", data.draw(st.sampled_from([64 << 10, 16]))),
    ):
        shard = build(Path(tmp), files, segments)
        assert found(shard, pattern, "regex", case_sensitive) == want


def re2_free(pattern: str) -> str:
    """``pattern`` if Python's ``re`` reads it (to draw matching lines from), else a plain word."""
    try:
        re.compile(pattern)
    except re.error:
        return "abc"
    return pattern


def test_regex_trigram_queries_are_selective() -> None:
    assert str(for_regex("ECONN")) == "('con' AND 'eco' AND 'onn')"
    alternation = "(ConnectTimeout|ReadTimeout)"
    assert exact_strings(alternation, exact_case=True) == {"ConnectTimeout", "ReadTimeout"}
    assert exact_strings(alternation, exact_case=False) == {"connecttimeout", "readtimeout"}
    assert exact_strings(f"(?i){alternation}", exact_case=True) is None  # any case: no case to check
    assert exact_strings(r"^import [Oo]s$", exact_case=True) == {"import Os", "import os"}
    assert exact_strings(r"def \w+", exact_case=True) is None
    # RE2 runs only on the lines holding what every match holds
    assert regex_matcher(alternation, True).starts == (b"Timeout",)
    assert regex_matcher("(abc|xyz)", True).starts == (b"abc", b"xyz")
    assert regex_matcher("(ab|xyz)", True).starts == ()  # "ab" would stop RE2 on too many lines
    assert regex_matcher(alternation, False).starts == ()
    assert for_regex(r"[A-Z]\w+") == ALL
    q = for_regex(r"func\s+\w+Handler")
    assert isinstance(q, And) and len(q.children) == 7
    assert isinstance(for_regex("(Connect|Read)Timeout"), Or)

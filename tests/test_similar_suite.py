"""The pasted-code suite builder (benchmarks/similar_suite.py): lines copied out of a function's body, never its
signature, docstring or comments, answered by that function."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_benchmark

load_benchmark("howto_suite")  # similar_suite imports it by name, as it does run from benchmarks/
similar_suite = load_benchmark("similar_suite")

BODY = '''def merge(settings, defaults):
    """Combine the user settings with the defaults and return the result."""
    # start from the defaults
    merged = dict(defaults)
    for key, value in settings.items():
        if value is not None:
            merged[key] = value
    ordered = sorted(merged.items())
    return dict(ordered)
'''


def test_an_excerpt_is_body_code_past_the_docstring() -> None:
    lines = BODY.splitlines()
    got = similar_suite.excerpt(lines, 1, len(lines), "k", body_start=3)
    assert got is not None
    first, text = got
    assert first >= 4 and len(text.splitlines()) == 3  # the comment line (3) is never copied
    assert not text.startswith((" ", "\t"))  # dedented as a paste is
    assert all(len(x.strip()) >= similar_suite.MIN_CHARS for x in text.splitlines())


def test_a_short_function_gives_none() -> None:
    assert similar_suite.excerpt(["def f():", "    return 1"], 1, 2, "k") is None


def test_the_suite_asks_each_function_by_its_lines(tmp_path: Path) -> None:
    pkg = tmp_path / "tool" / "tool"
    pkg.mkdir(parents=True)
    (pkg / "core.py").write_text(BODY.replace("merge", "merge_a") + "\n\n" + BODY.replace("merge", "merge_b"))
    assert similar_suite.code_starts(pkg / "core.py") == {1: 4, 12: 15}
    assert similar_suite.main([f"{tmp_path / 'tool'}:tool", "--out-dir", str(tmp_path / "out"), "--lines", "2"]) == 0
    rows = [json.loads(line) for p in (tmp_path / "out").glob("similar-*.jsonl") for line in p.read_text().splitlines()]
    assert len(rows) == 2 and {r["intent"] for r in rows} == {"find_similar"}
    for r in rows:
        rel = r["relevant"][0]
        assert (rel["path"], rel["end_line"] - rel["line"]) == ("tool/core.py", 1)
        source = (pkg / "core.py").read_text().splitlines()[rel["line"] - 1 : rel["end_line"]]
        assert [x.strip() for x in r["query"].splitlines()] == [x.strip() for x in source]
        assert '"""' not in r["query"] and "#" not in r["query"]


def test_a_bad_corpus_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        similar_suite.main([f"{tmp_path / 'missing'}:x", "--out-dir", str(tmp_path / "out")])
    assert exc.value.code == 2 and "give DIR:NAME with an existing DIR" in capsys.readouterr().err


def test_a_count_of_lines_out_of_range_is_named(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert similar_suite.main([f"{tmp_path}:x", "--out-dir", str(tmp_path / "out"), "--lines", "0"]) == 2
    assert "--lines 0: copy 1 to 7 lines" in capsys.readouterr().err

"""The how-to suite builder (benchmarks/howto_suite.py): questions name the project as a person does."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import load_benchmark

howto_suite = load_benchmark("howto_suite")


@pytest.mark.parametrize(
    ("repo", "named"),
    [
        ("sympy-1.1.1", "sympy"),
        ("xarray-0.17.0", "xarray"),
        ("sympy-1.10rc1", "sympy"),
        ("astropy-5.2", "astropy"),
        ("click", "click"),
        ("my-lib", "my-lib"),  # a hyphen without a version stays
    ],
)
def test_a_release_is_named_without_its_version(repo: str, named: str) -> None:
    assert howto_suite.project_name(repo) == named


def test_the_questions_of_a_release_name_the_project_and_no_version(tmp_path: Path) -> None:
    pkg = tmp_path / "tool" / "tool"
    pkg.mkdir(parents=True)
    doings = [
        "Combine the user settings with the defaults and return the result.",
        "Read the configuration file from the home folder and parse every section.",
        "Write the collected records to the output stream in batches.",
        "Check whether the remote server answers before sending the request.",
        "Create a temporary folder that is removed when the block ends.",
        "Convert the timestamp into the local time zone of the machine.",
        "Count the words of every line and report the longest lines.",
        "Send the message to every subscriber that listens on the channel.",
    ]
    (pkg / "core.py").write_text(
        "".join(f'def task_{i}(a, b):\n    """{doing}"""\n    return a\n\n\n' for i, doing in enumerate(doings))
    )
    assert howto_suite.main([f"{tmp_path / 'tool'}:tool-2.3.1", "--out-dir", str(tmp_path / "out")]) == 0
    rows = [json.loads(line) for p in (tmp_path / "out").glob("*.jsonl") for line in p.read_text().splitlines()]
    assert len(rows) >= 6 and {r["relevant"][0]["repo"] for r in rows} == {"tool-2.3.1"}
    queries = [r["query"] for r in rows]
    assert any(" tool" in q or q.startswith("tool") for q in queries), queries  # some shapes name the project
    assert not any("2.3.1" in q or "task" in q for q in queries), queries  # never its version, nor the name


def test_javascript_and_go_definitions_are_read_by_the_doc_comment_above_them(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "dist").mkdir()
    js = (
        b"/**\n * Check if the request is fresh: the entity tag still matches.\n *\n * @return {Boolean}\n */\n\n"
        b"function isFresh(req) {\n  return true;\n}\n\n// Section heading\n\nfunction bare() {}\n"
    )
    (tmp_path / "lib" / "request.js").write_bytes(js)
    (tmp_path / "dist" / "bundle.js").write_bytes(js)  # a bundled copy is never an answer
    go = b"package pool\n\n// Drain waits for every borrowed connection.\nfunc Drain() {}\n"
    (tmp_path / "pool.go").write_bytes(go)
    found = {(d.path, d.name, d.line, d.sentence) for d in howto_suite.definitions(tmp_path, "web")}
    assert found == {
        ("lib/request.js", "isFresh", 7, "Check if the request is fresh: the entity tag still matches."),
        ("pool.go", "Drain", 4, "Drain waits for every borrowed connection."),
    }

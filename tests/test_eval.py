"""``fourfold eval``: the metrics on hand-computed examples, and one suite through a real cluster."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from fourfold.coordinator import cli
from fourfold.coordinator.evaluate import (
    ALL_INTENTS,
    FUSED,
    EvalQuery,
    HitSpan,
    Outcome,
    Relevant,
    covers,
    first_relevant_rank,
    format_glance,
    format_table,
    glance,
    glance_to_json,
    load_suite,
    mrr_at,
    percentile,
    recall_at,
    routing_accuracy,
    rows_for,
    success_at,
    summarize,
    zero_result_rate,
)
from fourfold.errors import InvalidInput

SUITE = Path(__file__).parent / "fixtures" / "eval" / "sample.jsonl"


def q(qid: str, *relevant: Relevant, intent: str | None = "find_definition") -> EvalQuery:
    match = "file" if all(r.line is None for r in relevant) else "line"
    return EvalQuery(qid, f"query {qid}", intent, match, relevant)


def hit(path: str, start: int = 1, end: int = 10, repo: str = "r") -> HitSpan:
    return HitSpan(repo, path, start, end)


def outcome(
    query: EvalQuery, *hits: HitSpan, classified: str = "find_definition", ms: float = 1.0, error: str = ""
) -> Outcome:
    return Outcome(query, hits, classified, ms, error)


def test_covers_needs_repo_path_and_for_lines_the_range() -> None:
    item = Relevant("r", "a.py", 8)
    assert covers(hit("a.py", 8, 11), item) and covers(hit("a.py", 1, 8), item)
    assert not covers(hit("a.py", 9, 20), item)
    assert not covers(hit("a.py", 1, 20, repo="other"), item)
    assert not covers(hit("b.py", 1, 20), item)
    assert covers(hit("a.py", 500, 600), Relevant("r", "a.py"))  # a file item: the path is enough


def test_recall_counts_the_lines_a_hit_names_and_success_the_segment_it_shows() -> None:
    """One hit per file carries the file's other matching lines (a literal's, the call sites of other
    functions): the answer names them, so recall counts them; the first relevant rank asks whether the
    segment shown is relevant, so it does not."""
    item = Relevant("r", "a.py", 40)
    named = HitSpan("r", "a.py", 10, 12, (11, 40))
    assert covers(named, item, named=True) and not covers(named, item)
    assert not covers(HitSpan("r", "b.py", 10, 12, (40,)), item, named=True)  # a line of another file
    query = q("1", item, Relevant("r", "a.py", 90))
    assert recall_at([outcome(query, named)], 10) == 0.5
    assert first_relevant_rank(query, [named], 10) is None


def test_first_relevant_rank_is_within_k() -> None:
    query = q("1", Relevant("r", "a.py", 5))
    hits = [hit("b.py"), hit("a.py", 20, 30), hit("a.py", 1, 9)]
    assert first_relevant_rank(query, hits, 10) == 3
    assert first_relevant_rank(query, hits, 2) is None


def test_success_mrr_and_recall_by_hand() -> None:
    # q1: relevant at rank 1. q2: at rank 3. q3: at rank 7. q4: nothing relevant. q5: two items, one found at rank 2.
    q1, q2, q3, q4 = (q(str(i), Relevant("r", "x.py", 5)) for i in range(1, 5))
    q5 = q("5", Relevant("r", "x.py", 5), Relevant("r", "y.py", 5))
    miss = hit("other.py")
    good = hit("x.py", 1, 9)
    outcomes = [
        outcome(q1, good),
        outcome(q2, miss, miss, good),
        outcome(q3, *([miss] * 6), good),
        outcome(q4, miss, miss),
        outcome(q5, miss, good),
    ]
    assert success_at(outcomes, 1) == pytest.approx(1 / 5)
    assert success_at(outcomes, 5) == pytest.approx(3 / 5)
    assert success_at(outcomes, 10) == pytest.approx(4 / 5)
    assert mrr_at(outcomes, 10) == pytest.approx((1 + 1 / 3 + 1 / 7 + 0 + 1 / 2) / 5)
    assert mrr_at(outcomes, 5) == pytest.approx((1 + 1 / 3 + 0 + 0 + 1 / 2) / 5)
    assert recall_at(outcomes, 10) == pytest.approx((1 + 1 + 1 + 0 + 0.5) / 5)
    assert recall_at(outcomes, 1) == pytest.approx(1 / 5)


def test_zero_results_and_routing() -> None:
    a = q("a", Relevant("r", "x.py"), intent="find_definition")
    b = q("b", Relevant("r", "x.py"), intent="exact_match")
    c = q("c", Relevant("r", "x.py"), intent=None)
    outcomes = [
        outcome(a, classified="find_definition"),
        outcome(b, hit("x.py"), classified="find_definition"),
        outcome(c, hit("x.py"), classified="understand_code"),
        outcome(b, classified="", error="UNAVAILABLE: no worker"),
    ]
    assert zero_result_rate(outcomes) == pytest.approx(2 / 4)
    # unlabelled and failed queries are not routed: 1 right of 2
    assert routing_accuracy(outcomes) == pytest.approx(1 / 2)
    assert routing_accuracy([outcome(c, classified="understand_code")]) is None


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 21)]  # 1..20
    assert percentile(values, 50) == 10.0
    assert percentile(values, 95) == 19.0
    assert percentile([7.0], 95) == 7.0
    assert percentile([], 50) == 0.0


def test_summary_and_rows_group_by_intent_and_answer() -> None:
    d = q("d", Relevant("r", "x.py", 3), intent="find_definition")
    e = q("e", Relevant("r", "y.py", 3), intent="exact_match")
    fused = [outcome(d, hit("x.py", 1, 5), ms=10.0), outcome(e, classified="find_definition", ms=30.0)]
    text = [
        Outcome(d, (), "find_definition", 2.0, partial=True, notes=("text/r missing: worker gone",)),
        outcome(e, hit("y.py", 3, 3), ms=4.0),
    ]
    rows = rows_for("s", {FUSED: fused, "text": text})
    assert [(r.intent, r.answer) for r in rows] == [
        (ALL_INTENTS, FUSED),
        (ALL_INTENTS, "text"),
        ("find_definition", FUSED),
        ("find_definition", "text"),
        ("exact_match", FUSED),
        ("exact_match", "text"),
    ]
    all_fused, all_text = rows[0].summary, rows[1].summary
    assert (all_fused.n, all_fused.success_at_1, all_fused.zero_result_rate, all_fused.routing_accuracy) == (
        2,
        0.5,
        0.5,
        0.5,
    )
    assert all_text.routing_accuracy is None  # a single modality runs with the labelled intent: nothing is routed
    assert (all_text.partial_rate, all_text.notes) == (0.5, ("1x text/r missing: worker gone",))
    assert (all_fused.latency_p50_ms, all_fused.latency_p95_ms) == (10.0, 30.0)
    assert rows[5].summary.success_at_1 == 1.0 and rows[4].summary.success_at_10 == 0.0
    table = format_table(rows)
    assert len(table.splitlines()) == 2 + len(rows) + 1 and "exact_match" in table
    assert table.splitlines()[-1] == "s text: 1x text/r missing: worker gone"
    assert summarize([], routed=True).n == 0


def test_load_suite_reads_the_readme_format_and_names_bad_lines(tmp_path: Path) -> None:
    queries = load_suite(SUITE)
    assert len(queries) == 6
    assert queries[0].relevant == (Relevant("sample", "app/config.py", 8, 11),)
    assert queries[-1].match == "file" and queries[-1].relevant[0].line is None
    bad = tmp_path / "bad.jsonl"
    bad.write_text(
        SUITE.read_text().splitlines()[0]
        + "\n"
        + '{"id": "x", "query": "q", "match": "line", "relevant": [{"repo": "r", "path": "p"}]}\n'
    )
    with pytest.raises(InvalidInput, match=r"bad.jsonl:2"):
        load_suite(bad)


def test_eval_command_rejects_bad_input_before_starting_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["eval", str(tmp_path / "none.jsonl")]) == 2
    assert "suite file not found" in capsys.readouterr().err
    assert cli.main(["eval", str(SUITE), "-k", "0"]) == 2
    assert "invalid -k 0" in capsys.readouterr().err


@pytest.mark.cluster
@pytest.mark.slow
def test_eval_runs_a_suite_through_the_cluster(
    cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "report.json"
    assert cli.main(["eval", str(SUITE), "--address", cluster.address, "--json", str(out)]) == 0
    captured = capsys.readouterr()
    assert "eval sample: " in captured.err and "suite" in captured.out
    report = json.loads(out.read_text())
    rows = {(r["suite"], r["intent"], r["answer"]): r for r in report["rows"]}
    assert set(report["modalities"]) >= {"text", "structural"}
    fused = rows[("sample", ALL_INTENTS, FUSED)]
    assert fused["n"] == 6 and fused["errors"] == 0 and fused["partial_rate"] == 0.0
    assert 0.0 <= fused["success_at_1"] <= fused["success_at_5"] <= fused["success_at_10"] <= 1.0
    assert fused["latency_p50_ms"] > 0.0
    # the unambiguous queries are answered first by the modality built for them
    assert rows[("sample", "find_definition", "structural")]["success_at_1"] == 1.0
    assert rows[("sample", "exact_match", "text")]["success_at_1"] == 1.0
    assert rows[("sample", "find_definition", FUSED)]["routing_accuracy"] == 1.0
    assert rows[("sample", "exact_match", FUSED)]["success_at_1"] == 1.0
    glances = {g["intent"]: g for g in report["glance"]}
    assert glances["find_definition"]["routing"] == 1.0 and glances[ALL_INTENTS]["best"] in report["modalities"]
    assert "At a glance" in captured.out


@pytest.mark.cluster
def test_eval_scoped_to_the_suite_repository(cluster: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`--scope-to-suite` asks sample.jsonl within repository "sample"; a suite named after no
    repository, or an unknown --repo, is refused before any query runs."""
    out = tmp_path / "scoped.json"
    assert (
        cli.main(
            [
                "eval",
                str(SUITE),
                "--address",
                cluster.address,
                "--modality",
                "structural",
                "--scope-to-suite",
                "--json",
                str(out),
            ]
        )
        == 0
    )
    report = json.loads(out.read_text())
    assert report["scopes"] == {"sample": ["sample"]}
    rows = {(r["suite"], r["intent"], r["answer"]): r for r in report["rows"]}
    assert rows[("sample", "find_definition", "structural")]["success_at_1"] == 1.0
    other = tmp_path / "elsewhere.jsonl"
    other.write_text(SUITE.read_text())
    capsys.readouterr()
    assert cli.main(["eval", str(other), "--address", cluster.address, "--scope-to-suite"]) == 2
    assert "unknown repository 'elsewhere'" in capsys.readouterr().err
    assert cli.main(["eval", str(SUITE), "--address", cluster.address, "--repo", "nowhere"]) == 2
    assert "unknown repository 'nowhere' (--repo names it)" in capsys.readouterr().err


def test_glance_shows_routing_per_intent_and_fused_against_the_best_single_modality() -> None:
    d1 = q("d1", Relevant("r", "x.py", 3), intent="find_definition")
    d2 = q("d2", Relevant("r", "x.py", 3), intent="find_definition")
    i1 = q("i1", Relevant("r", "y.py"), intent="impact_analysis")
    i2 = q("i2", Relevant("r", "y.py"), intent="impact_analysis")
    good_d, good_i, miss = hit("x.py", 1, 5), hit("y.py"), hit("z.py")
    fused = [
        outcome(d1, good_d),  # rank 1
        outcome(d2, miss, good_d),  # rank 2
        outcome(i1, miss, miss, miss, good_i, classified="find_definition"),  # misrouted, rank 4
        outcome(i2, good_i, classified="understand_code"),  # misrouted, rank 1
    ]
    structural = [outcome(d1, good_d), outcome(d2, good_d), outcome(i1), outcome(i2)]
    graph = [outcome(d1), outcome(d2), outcome(i1, good_i), outcome(i2, good_i)]
    glances = {g.intent: g for g in glance("s", {FUSED: fused, "structural": structural, "graph": graph})}
    assert list(glances) == [ALL_INTENTS, "find_definition", "impact_analysis"]
    definition, impact, everything = glances["find_definition"], glances["impact_analysis"], glances[ALL_INTENTS]
    assert definition.routing == 1.0 and definition.misrouted_to == ()
    assert (definition.best, definition.best_mrr, definition.fused_mrr) == ("structural", 1.0, pytest.approx(0.75))
    assert definition.loses  # fusion lost half a rank to structural alone: the regression line
    assert impact.routing == 0.0 and impact.misrouted_to == (("find_definition", 1), ("understand_code", 1))
    assert (impact.best, impact.best_mrr) == ("graph", 1.0) and impact.fused_mrr == pytest.approx(0.625)
    assert everything.routing == 0.5 and everything.n == 4
    assert everything.best in ("structural", "graph") and everything.best_mrr == 0.5
    assert not everything.loses  # fused (0.6875) beats either modality over the whole suite
    table = format_glance(list(glances.values()))
    assert "FUSED LOSES" in table and "misrouted to find_definition 1, understand_code 1" in table
    as_json = glance_to_json(glances.values())
    assert as_json[2]["misrouted_to"] == {"find_definition": 1, "understand_code": 1}


def test_glance_without_single_modalities_or_labels() -> None:
    c = q("c", Relevant("r", "x.py"), intent=None)
    (only,) = [g for g in glance("s", {FUSED: [outcome(c, hit("x.py"))]}) if g.intent == ALL_INTENTS]
    assert only.best == "" and not only.loses and only.routing is None
    assert "-" in format_glance([only]).splitlines()[-1]

"""Fusion formulas against hand-computed values, profiles and planning."""

from __future__ import annotations

import math

import pytest

from fourfold.coordinator.fusion import DEMOTION, FILE_SEGMENTS, boost, fuse, is_demoted, merge_shards
from fourfold.coordinator.profiles import default_profiles, dominant, get_preset, top_modalities
from fourfold.errors import InvalidQuery
from fourfold.plugins.types import Hit


def hit(sid: str, path: str = "a.py", score: float = 1.0, centrality: float = 0.0, start: int = 1) -> Hit:
    return Hit(
        segment_id=sid, repo="r", path=path, start_line=start, end_line=start + 1, score=score, centrality=centrality
    )


def test_boost_formula() -> None:
    assert boost(0.0) == 1.0
    assert boost(1.0) == pytest.approx(1 + 0.3 * math.log(2))  # 1.2079
    assert boost(4.0) == pytest.approx(1 + 0.3 * math.log(5))  # 1.4828
    assert boost(10.0) == 1.5  # capped
    assert boost(-3.0) == 1.0


def test_weighted_rrf_hand_computed() -> None:
    # k = 60; text ranks A (0), B (1); structural ranks B (0).
    ranked = {"text": [hit("A", "a.py"), hit("B", "b.py")], "structural": [hit("B", "b.py")]}
    fused = fuse(ranked, {"text": 0.9, "structural": 0.1}, 60)
    scores = {f.hit.segment_id: f.score for f in fused}
    assert scores["A"] == pytest.approx(0.9 / 61)  # 0.014754
    assert scores["B"] == pytest.approx(0.9 / 62 + 0.1 / 61)  # 0.016155
    assert [f.hit.segment_id for f in fused] == ["B", "A"]
    b = next(f for f in fused if f.hit.segment_id == "B")
    assert b.modalities["text"].rank == 1 and b.modalities["structural"].rank == 0
    assert b.modalities["structural"].contribution == pytest.approx(0.1 / 61)


def test_centrality_boost_multiplies_each_contribution() -> None:
    ranked = {"semantic": [hit("A", "a.py", centrality=1.0)]}
    (f,) = fuse(ranked, {"semantic": 0.5}, 40)
    assert f.score == pytest.approx(0.5 / 41 * (1 + 0.3 * math.log(2)))
    (g,) = fuse(ranked, {"semantic": 0.5}, 40, use_centrality=False)
    assert g.score == pytest.approx(0.5 / 41)


def test_dedup_keeps_the_files_other_match_lines_and_impact_keeps_every_segment() -> None:
    a1 = Hit("A1", "r", "a.py", 1, 5, 1.0, match_lines=(3,))
    a2 = Hit("A2", "r", "a.py", 10, 20, 1.0, match_lines=(12, 15))
    (kept,) = fuse({"graph": [a1, a2]}, {"graph": 1.0}, 60)
    assert kept.hit.segment_id == "A1" and kept.hit.match_lines == (3, 12, 15)
    both = fuse({"graph": [a1, a2]}, {"graph": 1.0}, 60, per_file=False)
    assert [f.hit.segment_id for f in both] == ["A1", "A2"] and both[0].hit.match_lines == (3,)


def test_demotion_and_dedup_per_file() -> None:
    ranked = {"text": [hit("V", "vendor/lib.py"), hit("A1", "a.py", start=1), hit("A2", "a.py", start=10)]}
    fused = fuse(ranked, {"text": 1.0}, 60)
    by_id = {f.hit.segment_id: f for f in fused}
    assert by_id["V"].demoted and by_id["V"].score == pytest.approx(DEMOTION / 61)
    assert "A2" not in by_id  # the second segment of a.py is deduplicated away
    assert [f.hit.segment_id for f in fused] == ["A1", "V"]  # 1/62 > 0.5/61


def test_a_prose_answer_keeps_a_files_next_segments_below_other_files_best() -> None:
    # text ranks a.py's A1, A2, A3, A4 (1st, 2nd, 4th, 5th) and b.py's B (3rd); k = 60
    ranked = {
        "text": [
            hit("A1", "a.py", start=1),
            hit("A2", "a.py", start=10),
            hit("B", "b.py"),
            Hit("A3", "r", "a.py", 30, 31, 1.0, match_lines=(30,)),
            Hit("A4", "r", "a.py", 40, 41, 1.0, match_lines=(40,)),
        ]
    }
    fused = fuse(ranked, {"text": 1.0}, 60, further=0.5)
    assert [f.hit.segment_id for f in fused] == ["A1", "B", "A2", "A3"]
    scores = {f.hit.segment_id: f.score for f in fused}
    assert scores["A1"] == pytest.approx(1 / 61)
    assert scores["A2"] == pytest.approx(0.5 / 62)  # 0.00806 < B's 1/63 = 0.01587
    assert scores["A3"] == pytest.approx(0.25 / 64)
    assert FILE_SEGMENTS == 3  # A4 is a.py's fourth: its match line stays on the file's best segment
    assert fused[0].hit.match_lines == (40,)
    # without ``further`` only each file's best segment is kept, carrying the others' match lines
    assert [(f.hit.segment_id, f.hit.match_lines) for f in fuse(ranked, {"text": 1.0}, 60)] == [
        ("A1", (30, 40)),
        ("B", ()),
    ]


def _segment(sid: str, path: str, start: int, end: int, kind: str | None, symbol: str | None = None) -> Hit:
    return Hit(sid, "r", path, start, end, 1.0, symbol=symbol or sid, kind=kind)


def test_a_prose_answer_shows_a_files_code_before_its_constant() -> None:
    """fusion.py's one-line ``METHODS`` (its doc comment shares the question's words) is the file's best segment;
    ``fuse``, further down the list, shows first in the file's place, the constant right after it, and the file's
    scores stay where they were, so no other file moves."""
    ranked = {
        "text": [
            _segment("METHODS", "fusion.py", 57, 57, "constant"),
            _segment("B", "b.py", 1, 9, "function"),
            _segment("doc", "fusion.py", 1, 37, None),
            _segment("fuse", "fusion.py", 180, 251, "function"),
        ]
    }
    fused = fuse(ranked, {"text": 1.0}, 60, further=0.5)
    assert [f.hit.segment_id for f in fused] == ["fuse", "B", "METHODS", "doc"]
    assert [f.score for f in fused] == pytest.approx([1 / 61, 1 / 62, 0.5 / 63, 0.25 / 64])
    assert fused[0].hit.snippet == "first of its file, which ranks by constant METHODS (line 57)"
    assert fused[0].modalities["text"].rank == 3  # its own evidence, as listed
    # one segment a file (other intents, file_segments=one) keeps the best as it is
    assert [f.hit.segment_id for f in fuse(ranked, {"text": 1.0}, 60)] == ["METHODS", "B"]


@pytest.mark.parametrize(
    ("kind", "lines", "leads"),
    [
        ("constant", 1, "fuse"),
        ("variable", 3, "fuse"),
        ("field", 1, "fuse"),
        ("variable", 4, "VALUE"),  # a longer declaration holds code (an object of methods, a function value)
        ("function", 1, "VALUE"),
        (None, 1, "VALUE"),  # a module's header (its docstring) may be the answer itself
    ],
)
def test_only_a_short_value_declaration_gives_way(kind: str | None, lines: int, leads: str) -> None:
    ranked = {"text": [_segment("VALUE", "a.py", 5, 4 + lines, kind), _segment("fuse", "a.py", 20, 40, "function")]}
    assert fuse(ranked, {"text": 1.0}, 60, further=0.5)[0].hit.segment_id == leads


def test_a_pinned_value_keeps_its_place_at_the_head_of_its_file() -> None:
    """A pasted line held by a constant (``copied``) is the answer itself: its file's code does not displace it, and
    the file shows its holder alone."""
    ranked = {"text": [_segment("VALUE", "a.py", 5, 5, "constant"), _segment("fuse", "a.py", 20, 40, "function")]}
    fused = fuse(ranked, {"text": 1.0}, 60, further=0.5, pinned=frozenset({"VALUE"}))
    assert [f.hit.segment_id for f in fused] == ["VALUE"]
    assert [f.hit.segment_id for f in fuse(ranked, {"text": 1.0}, 60, further=0.5)] == ["fuse", "VALUE"]


def test_a_file_of_values_alone_keeps_its_order() -> None:
    ranked = {"text": [_segment("A", "a.py", 1, 1, "constant"), _segment("B", "a.py", 3, 3, "variable")]}
    assert [f.hit.segment_id for f in fuse(ranked, {"text": 1.0}, 60, further=0.5)] == ["A", "B"]


@pytest.mark.parametrize(
    ("path", "demoted"),
    [
        ("vendor/x.go", True),
        ("node_modules/a/index.js", True),
        ("src/dist/app.js", True),
        ("app.min.js", True),
        ("build/lib/x.py", True),
        ("third_party/y.c", True),
        ("src/app.py", False),
        ("builder.py", False),
        ("src/vendoring.py", False),
    ],
)
def test_demoted_paths(path: str, demoted: bool) -> None:
    assert is_demoted(path) is demoted


def test_merge_shards_by_score() -> None:
    merged = merge_shards([[hit("a", score=3), hit("b", score=1)], [hit("c", score=2)]], 2)
    assert [h.segment_id for h in merged] == ["a", "c"]


def test_a_modalitys_own_order_applies_to_the_merged_cut_and_may_not_change_its_hits() -> None:
    lists = [[hit("a", score=3), hit("b", score=1)], [hit("c", score=2)]]
    seen: list[list[str]] = []

    def backwards(hits: list[Hit]) -> list[Hit]:
        seen.append([h.segment_id for h in hits])
        return hits[::-1]

    assert [h.segment_id for h in merge_shards(lists, 2, backwards)] == ["c", "a"]
    assert seen == [["a", "c"]]  # it sees the merged list cut to the limit
    with pytest.raises(ValueError, match="order_merged must return the hits it was given"):
        merge_shards(lists, 2, lambda hits: hits[:1])


def test_profiles_and_presets() -> None:
    p = default_profiles()
    assert p["find_definition"] == {"semantic": 0.2, "text": 0.1, "structural": 0.6, "graph": 0.1}
    assert p["exact_match"] == {"semantic": 0.0, "text": 0.9, "structural": 0.1, "graph": 0.0}
    assert dominant(p["impact_analysis"]) == "graph"
    assert dominant(p["understand_code"]) == "semantic"
    assert top_modalities(p["find_definition"], 3) == ["structural", "semantic", "text"]
    assert top_modalities(p["exact_match"], 4) == ["text", "structural"]  # zero weights never run
    assert get_preset("default").rrf_k == 40 and get_preset("thorough").rrf_k == 60
    assert get_preset("quick").fixed == ("semantic",)
    with pytest.raises(InvalidQuery, match="unknown preset 'fast'"):
        get_preset("fast")


def test_centrality_scale() -> None:
    from fourfold.coordinator.profiles import centrality_scale

    assert boost(4.0, 0.0) == 1.0 and boost(4.0, 0.5) == pytest.approx(1 + 0.15 * math.log(5))
    ranked = {"semantic": [hit("A", "a.py", centrality=0.0), hit("B", "b.py", centrality=50.0)]}
    assert [f.hit.segment_id for f in fuse(ranked, {"semantic": 1.0}, 40)] == ["B", "A"]  # the boost lifts B
    assert [f.hit.segment_id for f in fuse(ranked, {"semantic": 1.0}, 40, centrality_scale=0.0)] == ["A", "B"]
    assert centrality_scale("hand", "understand_code") == 1.0 and centrality_scale("hand", "find_definition") == 1.0
    assert centrality_scale("", "find_definition") == centrality_scale("fitted", "find_definition") == 0.0
    assert centrality_scale("fitted", "understand_code") in (0.0, 1.0)


def test_lexical_share_hand_computed() -> None:
    from fourfold.coordinator.fusion import LexicalShare, share_weights

    share = LexicalShare(bm25_centre=3.0, bm25_slope=4.0, cosine_centre=0.65, cosine_slope=5.0)
    assert share.text_share(math.exp(3.0), 0.65) == pytest.approx(0.5)  # both at their centres: half each
    assert share.text_share(math.exp(4.0), 0.65) == pytest.approx(1 / (1 + math.exp(-4.0)))  # rare words matched
    assert share.text_share(math.exp(3.0), 0.85) == pytest.approx(1 / (1 + math.exp(1.0)))  # a close neighbour
    assert share.text_share(0.0, -1.0) < 1e-6 and share.text_share(1e300, 0.0) == 1.0  # no overflow either way
    weights = {"semantic": 0.4, "text": 0.2, "structural": 0.3, "graph": 0.1}
    ranked = {"text": [hit("A", score=math.exp(4.0)), hit("B", score=2.0)], "semantic": [hit("C", score=0.65)]}
    shared = share_weights(ranked, weights, share)
    assert shared is not None
    assert shared["text"] == pytest.approx(0.6 / (1 + math.exp(-4.0)))  # the best score of each list decides
    assert shared["text"] + shared["semantic"] == pytest.approx(0.6)  # the pair keeps its sum ...
    assert (shared["structural"], shared["graph"]) == (0.3, 0.1)  # ... and the others their weights
    assert share_weights({"text": ranked["text"]}, weights, share) is None  # nothing to share with
    assert share_weights(ranked, {"structural": 1.0}, share) is None


def test_the_lexical_share_leans_to_text_by_the_best_text_hit_s_language() -> None:
    """The fitted shift (``language_shift``) moves the logit where the best text hit is JavaScript or TypeScript,
    whose how-to questions the embedder answers worse (semantic alone 0.553 MRR@10 against text's 0.730); a
    Python hit, or one of no language, shares as before."""
    from dataclasses import replace as replaced

    from fourfold.coordinator.fusion import LexicalShare, share_weights
    from fourfold.coordinator.profiles import lexical_share

    share = LexicalShare(3.0, 4.0, 0.65, 5.0, (("javascript", 2.0),))
    assert share.text_share(math.exp(3.0), 0.65, "javascript") == pytest.approx(1 / (1 + math.exp(-2.0)))
    assert share.text_share(math.exp(3.0), 0.65, "python") == share.text_share(math.exp(3.0), 0.65) == 0.5
    weights = {"semantic": 0.5, "text": 0.5}
    js = replaced(hit("A", path="lib/axios.js", score=math.exp(3.0)), language="javascript")
    py = replaced(hit("B", path="a.py", score=2.0), language="python")
    ranked = {"text": [js, py], "semantic": [hit("C", score=0.65)]}
    shared = share_weights(ranked, weights, share)
    assert shared is not None and shared["text"] == pytest.approx(1 / (1 + math.exp(-2.0)))  # the best hit's
    fitted = lexical_share("fitted", "understand_code")
    assert fitted is not None and dict(fitted.language_shift).get("typescript", 0.0) > 0.0
    assert dict(fitted.language_shift).get("python", 0.0) == 0.0


def test_only_the_fitted_prose_profile_shares_text_and_semantic() -> None:
    from fourfold.coordinator.profiles import fusion_method, lexical_share

    fitted = lexical_share("", "understand_code")
    assert fitted is not None and fitted == lexical_share("fitted", "understand_code")
    assert fusion_method("", "understand_code") == "zscore"
    assert lexical_share("hand", "understand_code") is None  # the hand-set profiles fuse by rank
    assert lexical_share("", "find_definition") is None and lexical_share("", "exact_match") is None

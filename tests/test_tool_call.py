"""An agent's tool call pasted as the query is read as the call: the intent its tool's name says and
the argument naming what to search for (``coordinator/tool_call.py``)."""

from __future__ import annotations

import pytest

from fourfold.coordinator.intent import classify, classify_rules
from fourfold.coordinator.tool_call import ToolCall, parse_call, read_tool_call

CALLS = [
    # a file's outline: the symbols it defines (Serena, Cline, a language server), asked as an overview of the file
    (
        'get_symbols_overview(relative_path="kiln/door.py")',
        ToolCall("get_symbols_overview", "understand_code", "", "kiln/door.py"),
    ),
    (
        'list_code_definition_names(path="kiln/door.py")',
        ToolCall("list_code_definition_names", "understand_code", "", "kiln/door.py"),
    ),
    (
        '{"method": "textDocument/documentSymbol", "params": {"textDocument": {"uri": "file:///w/kiln/door.py"}}}',
        ToolCall("textDocument/documentSymbol", "understand_code", "", "/w/kiln/door.py"),
    ),
    ('find_symbol(name_path="Kiln/fire")', ToolCall("find_symbol", "find_definition", "Kiln/fire")),
    (
        'find_referencing_symbols(name_path="fire", relative_path="kiln/door.py")',
        ToolCall("find_referencing_symbols", "find_references", "fire", "kiln/door.py"),
    ),
    ('find_callers(symbol="Kiln.fire", depth=1)', ToolCall("find_callers", "find_references", "Kiln.fire")),
    ("goto_definition('glaze_batch')", ToolCall("goto_definition", "find_definition", "glaze_batch")),
    ('{"tool": "goto_definition", "symbol": "Kiln.fire"}', ToolCall("goto_definition", "find_definition", "Kiln.fire")),
    (
        '{"name": "findUsages", "arguments": {"symbol": "cone_for", "include_tests": false}}',
        ToolCall("findUsages", "find_references", "cone_for"),
    ),
    (
        '{"jsonrpc": "2.0", "id": 4, "method": "textDocument/references", "params": {"position": {"line": 9}}}',
        ToolCall("textDocument/references", "find_references", ""),
    ),
    (
        'what_breaks_if_i_change(symbol_id="kiln/door.py::open_door", depth=3)',
        ToolCall("what_breaks_if_i_change", "impact_analysis", "kiln/door.py::open_door"),
    ),
    (
        "action: list_usages\ntarget: GlazeRecipe\nscope: studio/",
        ToolCall("list_usages", "find_references", "GlazeRecipe"),
    ),
    (
        '{"tool": "similar_code", "query": "temp = cone * 18 + 1000", "top_k": 5}',
        ToolCall("similar_code", "find_similar", "temp = cone * 18 + 1000"),
    ),
    (
        'explain_code(path="studio/kiln.rb", detail="high")',
        ToolCall("explain_code", "understand_code", "", path="studio/kiln.rb"),
    ),
    (
        'textDocument/definition {"textDocument": {"uri": "file:///studio/kiln.rs"}, "position": {"line": 11}}',
        ToolCall("textDocument/definition", "find_definition", ""),
    ),
    ("tool: clone_search\nquery: 'temp = cone * 18'\n", ToolCall("clone_search", "find_similar", "temp = cone * 18")),
    ('tools.grep(pattern="kiln too hot")', ToolCall("grep", "exact_match", "kiln too hot")),
    ("refs = await index.callers_of('Kiln.fire', depth=1)", ToolCall("callers_of", "find_references", "Kiln.fire")),
    # the arguments as one JSON object
    (
        'codebase.explain({"target": "Kiln.fire", "audience": "new hire"})',
        ToolCall("explain", "understand_code", "Kiln.fire"),
    ),
    # a search tool whose argument says the kind of search
    (
        'search_code(query="glaze_batch", kind="symbol_def", lang="any")',
        ToolCall("search_code", "find_definition", "glaze_batch"),
    ),
    (
        '{"tool": "code_search", "type": "references", "query": "cone_for"}',
        ToolCall("code_search", "find_references", "cone_for"),
    ),
    ("goto_def('glaze_batch')", ToolCall("goto_def", "find_definition", "glaze_batch")),
    # code-search tools' command lines, read by their options
    ("cscope -dL1 glaze_batch", ToolCall("cscope", "find_definition", "glaze_batch")),
    ("cscope -L -3 Kiln.fire", ToolCall("cscope", "find_references", "Kiln.fire")),
    ("cscope -dL4 'kiln too hot'", ToolCall("cscope", "exact_match", "kiln too hot")),
    ("global -x cone_for", ToolCall("global", "find_definition", "cone_for")),
    ("global -rx cone_for", ToolCall("global", "find_references", "cone_for")),
    ("ast-grep run -p 'fire_kiln($$$ARGS)' -l ruby", ToolCall("ast-grep", "find_references", "fire_kiln")),
    ("semgrep -e 'kiln.fire(...)' --lang python .", ToolCall("semgrep", "find_references", "kiln.fire")),
    ("sg -p 'temp = cone * 18 + $BASE'", ToolCall("sg", "find_similar", "temp = cone * 18 + $BASE")),
    # a documentation command, and Python's source or help of one: the definition it shows
    ("go doc kiln.Kiln.Fire", ToolCall("go doc", "find_definition", "kiln.Kiln.Fire")),
    ("go doc -src example.com/pottery/kiln.Fire", ToolCall("go doc", "find_definition", "kiln.Fire")),
    ("go doc kiln Fire", ToolCall("go doc", "find_definition", "kiln.Fire")),
    ("pydoc pottery.kiln.fire", ToolCall("pydoc", "find_definition", "pottery.kiln.fire")),
    ("python3 -m pydoc pottery.Kiln", ToolCall("python3 -m pydoc", "find_definition", "pottery.Kiln")),
    ("ri Kiln#fire", ToolCall("ri", "find_definition", "Kiln.fire")),
    (
        'python -c "import inspect, pottery; print(inspect.getsource(pottery.Kiln.fire))"',
        ToolCall("python -c", "find_definition", "pottery.Kiln.fire"),
    ),
    (
        "python3 -c 'import pottery; help(pottery.glaze_batch)'",
        ToolCall("python -c", "find_definition", "pottery.glaze_batch"),
    ),
    # a command line calling a tool with long options, perhaps through a client's call verb
    (
        "mcp call code.explain --symbol Kiln.fire --audience new-hire",
        ToolCall("explain", "understand_code", "Kiln.fire"),
    ),
    ("find_usages --symbol=cone_for --limit 20", ToolCall("find_usages", "find_references", "cone_for")),
    # a YAML block named by its tool, and a call with a comment after it
    (
        "change_impact:\n  target: glaze_batch\n  kind: remove_parameter",
        ToolCall("change_impact", "impact_analysis", "glaze_batch"),
    ),
    (
        'symbols.declaration_of("Kiln.fire")  # want file + line',
        ToolCall("declaration_of", "find_definition", "Kiln.fire"),
    ),
    # one bare name as the only argument of a call whose name says an intent
    ("findReferences(Kiln.fire)", ToolCall("findReferences", "find_references", "Kiln.fire")),
    ("goto_definition(cone_for)", ToolCall("goto_definition", "find_definition", "cone_for")),
    # a JSON object whose action, not its name, says the tool
    (
        '{"action": "locate_symbol_definition", "name": "cone_for", "lang": "any"}',
        ToolCall("locate_symbol_definition", "find_definition", "cone_for"),
    ),
    (  # the name says an intent too ("call"): the action still names the tool
        '{"action": "locate_symbol_definition", "name": "read_tool_call"}',
        ToolCall("locate_symbol_definition", "find_definition", "read_tool_call"),
    ),
    (
        '{"tool": "describe_module", "path": "studio/kiln.py"}',
        ToolCall("describe_module", "understand_code", "", path="studio/kiln.py"),
    ),
    # a request whose first key names its task, in YAML or JSON
    (
        "task: assess_change\ntarget: Kiln.fire\nchange: make it async\nreport: affected callers",
        ToolCall("assess_change", "impact_analysis", "Kiln.fire"),
    ),
    ('{"task": "assess_change", "target": "glaze_batch"}', ToolCall("assess_change", "impact_analysis", "glaze_batch")),
    # vim's cscope command, its error after it; a pipe after a command
    (
        ":cscope find g glaze_batch\nE259: no matches found for cscope query g of glaze_batch",
        ToolCall("cscope", "find_definition", "glaze_batch"),
    ),
    (":cs f c Kiln.fire", ToolCall("cscope", "find_references", "Kiln.fire")),
    ("cscope -dL -3 glaze_batch | sort -u", ToolCall("cscope", "find_references", "glaze_batch")),
    # a triple-quoted argument, and "nearest" as a kind of search
    (
        "search.semantic_code(query='''def cone_temp(cone):\n    return 1000 + cone * 18''', mode='nearest')",
        ToolCall("semantic_code", "find_similar", "def cone_temp(cone):\n    return 1000 + cone * 18"),
    ),
    (
        '{"method": "code/nearest", "params": {"text": "temp = cone * 18", "limit": 10}}',
        ToolCall("code/nearest", "find_similar", "temp = cone * 18"),
    ),
    # no tool named: the kind of search one value says, over the value naming what to search for
    (
        '{"mode": "semantic_neighbours", "symbol": "Kiln.fire", "top_k": 5}',
        ToolCall("semantic_neighbours", "find_similar", "Kiln.fire"),
    ),
    (
        '{"kind": "change_impact", "target": "Kiln", "proposed": "delete a field"}',
        ToolCall("change_impact", "impact_analysis", "Kiln"),
    ),
    (
        '{"intent": "summarize", "symbol": "Kiln.fire", "detail": "high"}',
        ToolCall("summarize", "understand_code", "Kiln.fire"),
    ),
    # an operation or request key names the tool where another names what to search for
    (
        '{"op": "find_usages", "target": "Kiln", "include_tests": false}',
        ToolCall("find_usages", "find_references", "Kiln"),
    ),
    (
        '{"fn": "grep_repo", "args": {"needle": "kiln door open", "mode": "verbatim"}}',
        ToolCall("grep_repo", "exact_match", "kiln door open"),
    ),
    # what a function calls is a callee question: the graph answers with its callees, not its callers
    ('get_callees(symbol="Kiln.fire")', ToolCall("get_callees", "find_references", "callees of Kiln.fire")),
    (
        '{"tool": "outgoing_calls", "symbol": "glaze_batch"}',
        ToolCall("outgoing_calls", "find_references", "callees of glaze_batch"),
    ),
]


@pytest.mark.parametrize(("query", "call"), CALLS)
def test_a_tool_call_is_read_as_its_name_and_subject_say(query: str, call: ToolCall) -> None:
    assert read_tool_call(query) == call
    c = classify(query)
    assert (c.intent, c.confidence, c.rule) == (call.intent, 0.85, "tool-call")


@pytest.mark.parametrize(
    ("query", "call"),
    [
        (
            '{"name": "summarize_file", "arguments": {"file": "studio/kiln.py"}}',
            ToolCall("summarize_file", "understand_code", "", path="studio/kiln.py"),
        ),
        (
            '{"tool": "explain", "symbol": "Kiln.fire", "filepath": "studio/kiln.py"}',
            ToolCall("explain", "understand_code", "Kiln.fire", path="studio/kiln.py"),
        ),
        (
            'find_callers(symbol="Kiln.fire", file_path="studio/kiln.py")',
            ToolCall("find_callers", "find_references", "Kiln.fire", path="studio/kiln.py"),
        ),
        ('describe(module="studio.kiln")', ToolCall("describe", "understand_code", "", path="studio.kiln")),
        (
            "tool: outline_file\nfilename: kiln.py",
            ToolCall("outline_file", "understand_code", "", path="kiln.py"),
        ),
        (
            "mcp call code.explain --module-path studio/kiln.py",
            ToolCall("explain", "understand_code", "", path="studio/kiln.py"),
        ),
        ("cscope -dL1 glaze_batch", ToolCall("cscope", "find_definition", "glaze_batch")),  # no file argument
    ],
)
def test_a_file_argument_is_the_calls_path_never_its_subject(query: str, call: ToolCall) -> None:
    """``path``, ``file``, ``module`` ... name the file a call asks about (``file_subject`` resolves it):
    read beside the subject, which stays what it was."""
    assert read_tool_call(query) == call
    assert classify(query).intent == call.intent


@pytest.mark.parametrize(
    "query",
    [
        "sorted(rows, key=lambda r: r.weight)",  # code: a call's name that says no intent
        'logger.error("Failed to call the kiln %s", kiln_id)',
        "retry(fire, 3)",  # no keyword argument and no quoted first one: a line of code
        "retry(fire)",  # one bare name, but the called name says no intent
        "find_callers(fire, 3)",  # two bare arguments: code
        "total = sum_calls(rows, 3)",
        "refs = find_refs(node=root)\nfor ref in refs:\n    print(ref)",  # a snippet: two calls, not one
        '{"level": "warn", "name": "call-center-sync", "msg": "queue full"}',  # a log record, no tool
        '{"name": "billing", "type": "call", "msg": "queue full"}',  # a kind, but of no search tool
        '{"type": "call", "level": "warn", "msg": "queue full"}',  # a kind, but nothing named to search for
        '{"level": "error", "fn": "callRemote", "msg": "upstream timed out"}',  # a log record's function
        'search_code(query="kiln", kind="fuzzy")',  # a kind that says no intent
        "render({'title': 'Kiln'})",  # one JSON-like argument, no tool
        "global warming and the kiln schedule",  # a word, no command
        "global -g 'kiln.*hot'",  # a grep pattern is no literal: the other rules read it
        "cscope -dL6 'kiln.*hot'",
        "cscope -dL1 glaze_batch\ncscope -dL3 glaze_batch",  # two commands
        "pytest --lf --maxfail 1",  # a command whose name says no intent
        "go doc how does the kiln fire",  # words after the command: a question, not a symbol
        "godoc -http=:6060",
        "python -c 'import pottery; print(pottery.__version__)'",  # no source or help asked
        "git log --oneline --follow",
        "config:\n  debug: true\n  kiln: electric",  # a YAML block named by no tool
        "change_impact:\nnot indented: here",
        'search_code(query="kiln")',  # a tool whose name says no intent: the other rules read it
        '{"tool": "ask_codebase", "question": "how is a firing scheduled"}',
        '{"callers": "of fire_kiln"',  # not JSON
        "who calls fire_kiln",
        "Traceback (most recent call last):",
    ],
)
def test_what_is_no_tool_call_is_left_to_the_other_rules(query: str) -> None:
    assert read_tool_call(query) is None
    assert classify_rules(query).rule != "tool-call"


@pytest.mark.parametrize(
    ("call", "args"),
    [  # a list written as an argument's value is the list, not cut at its first comma
        ('read_many_files(paths=["a.py", "src/b.py"])', {"paths": ["a.py", "src/b.py"]}),
        ("LS(path='/x', ignore=['*.pyc', 'node_modules'])", {"path": "/x", "ignore": ["*.pyc", "node_modules"]}),
        ('view(path="a.py", view_range=[1, 40])', {"path": "a.py", "view_range": [1, 40]}),
        ('Grep(pattern="[a-z]+", glob="*.py")', {"pattern": "[a-z]+", "glob": "*.py"}),  # a class, in quotes
        ("Grep(pattern=[a-z]+, path=src)", {"pattern": "[a-z]+", "path": "src"}),  # unquoted: a bare word, no list
    ],
)
def test_a_calls_list_argument_is_read_whole(call: str, args: dict[str, object]) -> None:
    parsed = parse_call(call, any_case=True)
    assert parsed is not None and parsed[1] == args


@pytest.mark.parametrize(
    ("call", "args"),
    [  # in one pair of quotes an escaped backslash or quote is that character, as JSON and Python read it
        (r'Grep(pattern="class \\w+Error", type="py")', {"pattern": r"class \w+Error", "type": "py"}),
        (r'search_files(path="src", regex="ContextVar\\(")', {"path": "src", "regex": r"ContextVar\("}),
        (r'Grep(pattern="say \"hi\"")', {"pattern": 'say "hi"'}),
        (r"grep_search(query='it\'s', isRegexp=false)", {"query": "it's", "isRegexp": "false"}),
        (r'Grep(pattern="def \w+\(")', {"pattern": r"def \w+\("}),  # a backslash before another character is kept
        ('Grep(pattern="f(")', {"pattern": "f("}),  # a parenthesis in quotes is the value's, not the call's
    ],
)
def test_a_calls_quoted_argument_is_read_as_json_and_python_read_it(call: str, args: dict[str, object]) -> None:
    parsed = parse_call(call, any_case=True)
    assert parsed is not None and parsed[1] == args

"""An agent's tool call pasted as the query: read as the call it is.

Coding agents write the call they would have made into a search box: a JSON object
(``{"tool": "goto_definition", "symbol": "Session.send"}``, ``{"name": "find_callers", "arguments":
{...}}``, an LSP request's ``"method": "textDocument/references"``, or its method before its params:
``textDocument/definition {"position": ...}``), a call with keyword arguments or a
quoted first argument (``find_callers(symbol="retry", depth=1)``) or one bare name where the called
name says an intent (``findReferences(retry)``), or a YAML block opening with
``action:``, ``tool:`` or ``task:`` (``task: assess_change`` over ``target: X``). Read as words, such
a query is a bag of quotes and snake_case names: the quoted-string rule sends it to exact_match, and a
definition search looks up the tool's own name.

``read_tool_call`` reads the tool's name (in a JSON object, the first of its tool keys whose value
says an intent) by its words (``find_callers`` -> callers -> find_references;
``what_breaks_if_i_change`` -> breaks -> impact_analysis) and the argument naming what to search for
(``symbol``, ``name``, ``target``, ``query``, ``code`` ...), and apart from it the argument naming a file
(``path``, ``file``, ``module`` ...: ``{"tool": "describe_module", "path": "a/b.py"}`` asks of that file;
``file_subject`` resolves it). A call may pass its arguments as one JSON
object (``codebase.explain({"target": "X"})``). A tool whose name says no intent (``search_code``) is
read by an argument that says what kind of search it asks (``kind="symbol_def"``, ``type:
references``), and a JSON object naming no tool by such a value beside one naming what to search for
(``{"mode": "semantic_neighbours", "symbol": "X"}``); where neither says one
(``ask_codebase(query=...)``) the call is not read: the other rules and the learned layer route the
query as they would any other.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["ToolCall", "file_argument", "name_words", "parse_call", "read_tool_call", "written_as_call"]

#: Words of a tool's name asking what a function calls (``get_callees``, ``callHierarchy/outgoingCalls``): its
#: subject is asked as a callee question, which the graph answers with its callees, not its callers.
_CALLEE_WORDS = frozenset({"callee", "callees", "outgoing"})
#: Words of a tool's name and the intent each says, in precedence order (``explain_callers`` asks
#: for callers; ``what_breaks_if_i_change`` for impact, whatever else it says).
_TOOL_WORDS: tuple[tuple[str, frozenset[str]], ...] = (
    ("impact_analysis", frozenset({"impact", "break", "breaks", "dependents", "blast", "assess"})),
    ("find_references", _CALLEE_WORDS),
    (
        "find_references",
        frozenset(
            {"call", "calls", "caller", "callers", "usage", "usages", "uses", "reference", "references", "refs"}
            | {"referencing"}  # find_referencing_symbols
        ),
    ),
    (
        "find_definition",
        frozenset({"def", "defs", "definition", "definitions", "declaration", "goto", "locate", "symbol", "symbols"}),
    ),
    (
        "find_similar",
        frozenset(
            {
                "similar",
                "clone",
                "clones",
                "duplicate",
                "duplicates",
                "nearest",
                "neighbour",
                "neighbours",
                "neighbor",
                "neighbors",
            }
        ),
    ),
    ("understand_code", frozenset({"explain", "describe", "summarize", "summarise", "summary", "overview", "outline"})),
    ("exact_match", frozenset({"grep"})),
    ("localize", frozenset({"localize"})),
)
#: Keys that name the tool, and keys whose value is what to search for (first present wins).
_TOOL_KEYS = ("tool", "name", "action", "task", "function", "command", "method", "op", "request", "cmd", "fn")
#: Tool keys a structured log record also writes (``{"level": "error", "fn": "callRemote", "msg": ...}``): they
#: name a tool only beside an argument naming what to search for.
_LOG_TOOL_KEYS = frozenset({"op", "fn", "cmd", "request"})
_SUBJECT_KEYS = (
    "symbol",
    "name_path",
    "target",
    "identifier",
    "subject",
    "name",
    "query",
    "code",
    "snippet",
    "pattern",
    "needle",
    "text",
    "report",
)
#: Keys whose value names a file the call asks about (first present wins); never its subject.
_PATH_KEYS: tuple[str, ...] = ("path", "file", "filepath", "file_path", "filename", "target_file", "absolute_path")
_PATH_KEYS += ("module", "module_path", "relative_path", "uri")
#: Words of a tool's name that, both kinds together, ask for a file's outline: the symbols it defines
#: (``get_symbols_overview``, Cline's ``list_code_definition_names``, ``textDocument/documentSymbol``).
_SYMBOL_WORDS = frozenset({"symbol", "symbols", "definition", "definitions", "def", "defs"})
_OUTLINE_WORDS = frozenset({"overview", "outline", "names", "list", "document", "structure"})
_NESTED_KEYS = ("arguments", "args", "params", "parameters", "input")
#: Arguments that say what kind of search a search tool asks (``search_code(kind="symbol_def")``), and
#: the words that make a tool's name a search tool's (a log record's ``"type": "call"`` is no search).
_KIND_KEYS = ("kind", "type", "mode", "intent", "search_type", "query_type")
_SEARCH_WORDS = frozenset({"search", "find", "lookup", "query", "code", "codebase"})

#: A language server's request written as its method and its params (``textDocument/definition {...}``).
_METHOD_AND_PARAMS = re.compile(r"^\s*(?P<method>[A-Za-z$]\w*(?:/[A-Za-z$]\w*)+)\s+(?P<params>\{.*\})\s*$", re.DOTALL)
#: A call, perhaps awaited or assigned as a script writes it (``refs = index.callers_of("X")``).
_CALL = re.compile(
    r"^\s*(?:[A-Za-z_]\w*\s*=\s*)?(?:await\s+)?(?P<name>[a-z_][\w]*(?:\.[a-z_]\w*)*)\((?P<args>.*)\)\s*;?\s*"
    r"(?:(?:#|//)[^\n]*)?$",
    re.DOTALL,
)
#: A keyword argument, its value quoted (three quotes too: ``query='''def f(): ...'''``), a list (``paths=["a", "b"]``)
#: or bare.
_KEYWORD_ARG = re.compile(
    r"(?P<key>\w+)\s*=\s*(?:\"\"\"(?P<tdq>.*?)\"\"\"|'''(?P<tsq>.*?)'''"
    r"|\"(?P<dq>(?:[^\"\\]|\\.)*)\"|'(?P<sq>(?:[^'\\]|\\.)*)'"
    r"|(?P<list>\[[^\[\]]*\])(?=\s*(?:,|$))|(?P<bare>[^,()\s]+))",
    re.DOTALL,
)
#: One bare name as a call's only argument (``findReferences(Kiln.fire)``).
_BARE_ARG = re.compile(r"\s*(?P<name>[A-Za-z_$][\w$]*(?:(?:\.|::|#)[A-Za-z_$][\w$]*)*)\s*")
_FIRST_STRING = re.compile(
    r"^\s*(?:\"\"\"(?P<tdq>.*?)\"\"\"|'''(?P<tsq>.*?)'''|\"(?P<dq>(?:[^\"\\]|\\.)*)\"|'(?P<sq>(?:[^'\\]|\\.)*)')",
    re.DOTALL,
)
_YAML_LINE = re.compile(r"^\s*(?P<key>\w+)\s*:\s*(?P<value>\S.*?)\s*$")
#: A YAML block named by its tool (``change_impact:`` over indented ``target: X`` lines).
_YAML_HEADER = re.compile(r"^(?P<tool>[A-Za-z_][\w.]*)\s*:\s*$")
#: A command line calling a tool with long options, perhaps through a client's ``call`` verb
#: (``mcp call code.explain --symbol X --audience new-hire``, ``find_usages --symbol X``).
_OPTIONS_CALL = re.compile(
    r"^(?:[\w.-]+\s+)?(?:call|invoke|run)\s+(?P<tool>[A-Za-z_][\w.]*)(?P<options>(?:\s+--[\w-]+(?:[= ]\S+)?)+)\s*$"
    r"|^(?P<bare>[A-Za-z_][\w.]*)(?P<bare_options>(?:\s+--[\w-]+(?:[= ]\S+)?)+)\s*$"
)
_LONG_OPTION = re.compile(r"--(?P<key>[\w-]+)(?:[= ](?P<value>\"[^\"]*\"|'[^']*'|[^\s-]\S*))?")
_NAME_WORD = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
#: What a tool's name looks like: an identifier, dotted or slashed (``find_callers``,
#: ``textDocument/references``); a log record's ``"name": "call-center-sync"`` is no tool.
_TOOL_NAME = re.compile(r"[A-Za-z_$][\w$]*(?:[./][A-Za-z_$][\w$]*)*")
#: A call written as code: a name, then its arguments (``Grep(pattern="retry", path="src")``).
_CALLED = re.compile(r"[A-Za-z_][\w.]*\(")


@dataclass(frozen=True, slots=True)
class ToolCall:
    """A tool call read from a query: the tool's name as written, the intent its words say, the
    argument that names what to search for ("" when the call has none, as an LSP position does) and
    the one that names a file ("" when none does: ``explain_code(path="a/b.py")``)."""

    tool: str
    intent: str
    subject: str
    path: str = ""


def name_words(tool: str) -> frozenset[str]:
    """The words of a name, lower-cased (``findCallers`` -> find, callers; ``read_file`` -> read, file)."""
    return frozenset(w.lower() for w in _NAME_WORD.findall(tool))


def written_as_call(text: str) -> bool:
    """Whether ``text`` (stripped) is written as a tool call may be: a JSON object, a name and its arguments
    (``Grep(pattern=…)``), or a YAML block naming its tool (``tool: grep``)."""
    return text[:1] == "{" or _CALLED.match(text) is not None or text.startswith(("tool:", "action:"))


def _words(tool: str) -> frozenset[str]:
    """The words of a tool's name (``findCallers`` -> find, callers); none where it is no tool's name."""
    return name_words(tool) if _TOOL_NAME.fullmatch(tool) else frozenset()


def _intent_of(tool: str) -> str | None:
    words = _words(tool)
    return next((intent for intent, said in _TOOL_WORDS if words & said), None)


def _subject(args: Mapping[str, object]) -> str:
    keys = [*_SUBJECT_KEYS, *(k for k in args if k.startswith("symbol") and k not in _SUBJECT_KEYS)]
    for key in keys:
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip()
    return ""


def _document(args: Mapping[str, object]) -> str:
    """The file a language server's request names (``{"textDocument": {"uri": "file:///…"}}``), "" when none."""
    document = args.get("textDocument")
    return _path({"uri": document.get("uri")}) if isinstance(document, Mapping) else ""


def _path(args: Mapping[str, object]) -> str:
    """The file ``args`` names (``path="a/b.py"``, ``uri="file:///…"``), "" when none does."""
    for key in _PATH_KEYS:
        value = args.get(key)
        if isinstance(value, str) and value.strip():
            return value.strip().removeprefix("file://")
    return ""


def _json_object(text: str) -> dict[str, Any] | None:
    """``text`` parsed as a JSON object, or None (not JSON, or JSON of another kind)."""
    try:
        doc = json.loads(text)
    except ValueError:
        return None
    return doc if isinstance(doc, dict) else None


#: A tool's name, the arguments it was given, and the one naming what to search for.
_Read = tuple[str, Mapping[str, object], str]


def _from_json(query: str) -> _Read | None:
    """A JSON object's tool: the first of its tool keys whose value says an intent, ``name`` last (it
    names the tool of ``{"name": "find_callers", "arguments": {...}}`` and the subject of ``{"action":
    "locate_symbol_definition", "name": "read_tool_call"}``), else its first tool key."""
    doc = _json_object(query)
    keys = [] if doc is None else [k for k in _TOOL_KEYS if isinstance(doc.get(k), str)]
    if doc is None:
        return None
    if not keys:
        return _from_kind(doc)
    key = next((k for k in sorted(keys, key=lambda key: key == "name") if _intent_of(doc[k]) is not None), keys[0])
    nested = next((doc[k] for k in _NESTED_KEYS if isinstance(doc.get(k), dict)), None)
    args = nested or {k: v for k, v in doc.items() if k != key}
    subject = _subject(args)
    if key in _LOG_TOOL_KEYS and not subject:
        return None  # a log record's "op" or "fn" beside its message: no search
    return str(doc[key]), args, subject


def _from_kind(doc: Mapping[str, object]) -> _Read | None:
    """A JSON object naming no tool, read by the kind of search one of its values says, where another
    names what to search for (``{"mode": "semantic_neighbours", "symbol": "X"}``); a log record's
    ``"type": "call"`` beside its message is none (no value names a subject)."""
    found = _kind_of(doc)
    if found is None:
        return None
    key = found[0]
    args = {k: v for k, v in doc.items() if k != key}
    subject = _subject(args)
    return (str(doc[key]), args, subject) if subject else None


def _from_method(query: str) -> _Read | None:
    found = _METHOD_AND_PARAMS.match(query)
    params = None if found is None else _json_object(found.group("params"))
    if found is None or params is None:
        return None
    return found.group("method"), params, _subject(params)


#: A value in one pair of quotes, its escaped quotes and backslashes within it.
_QUOTED = re.compile(r"\"(?:[^\"\\]|\\.)*\"|'(?:[^'\\]|\\.)*'")


def _balanced(args: str) -> bool:
    """Whether ``args`` is one call's arguments: its parentheses close in order (in ``f(a=1)\ng(b)`` the
    text between the first ``(`` and the last ``)`` is not); those in a quoted value are its text
    (``regex="ContextVar\\("``)."""
    depth = 0
    for ch in _QUOTED.sub("", args):
        depth += (ch == "(") - (ch == ")")
        if depth < 0:
            return False
    return depth == 0


def _quoted(found: re.Match[str]) -> str:
    """The quoted value ``found`` holds, whichever quotes it was written in ("" if bare): in one pair of quotes, an
    escaped quote or backslash is that character (``pattern="class \\\\w+Error"``: ``class \\w+Error``, as JSON and
    Python read it; a backslash before anything else is kept, as a regex needs it); three quotes' text as written."""
    for key in ("tdq", "tsq", "dq", "sq"):
        value = found.group(key)
        if value is not None:
            return re.sub(r"\\([\\\"'])", r"\1", value) if key in ("dq", "sq") else value
    return ""


def _listed(found: re.Match[str]) -> list[object] | None:
    """The list ``found`` holds (``paths=["a.py", "b.py"]``, ``view_range=[1, 40]``, Python's ``['a', 'b']``), or
    None where its value is no list."""
    text = found.group("list")
    if text is None:
        return None
    try:
        value = json.loads(text)
    except ValueError:  # Python's quotes: ['a.py', 'b.py']
        value = [v.strip().strip("'\"") for v in text[1:-1].split(",") if v.strip().strip("'\"")]
    return value if isinstance(value, list) else None


def _from_call(query: str) -> _Read | None:
    found = _CALL.match(query)
    args = "" if found is None else found.group("args")
    if found is None or not _balanced(args):
        return None
    tool = found.group("name").rsplit(".", 1)[-1]
    passed = _json_object(args) if args.strip().startswith("{") else None
    if passed is not None:  # one JSON object holding the arguments: ``explain({"target": "X"})``
        return tool, passed, _subject(passed)
    keywords = {m.group("key"): _listed(m) or _quoted(m) or m.group("bare") for m in _KEYWORD_ARG.finditer(args)}
    first = _FIRST_STRING.match(args)
    if not keywords and first is None:
        bare = _BARE_ARG.fullmatch(args)  # ``findReferences(Kiln.fire)``; ``read_tool_call`` keeps it
        if bare is not None:  # only where the called name says an intent (``retry(fn)`` is code)
            return tool, {}, bare.group("name")
        return None  # ``retry(fn, 3)``: a line of code, not a tool's call
    subject = _quoted(first) if first else ""
    return tool, keywords, subject.strip() or _subject(keywords)


def _from_yaml(query: str) -> _Read | None:
    rows = query.strip().splitlines()
    header = _YAML_HEADER.match(rows[0]) if len(rows) > 1 else None
    if header is not None:  # the tool's name over its indented arguments
        body = [_YAML_LINE.match(row) for row in rows[1:] if row.strip()]
        if not all(m is not None and m.group(0)[:1] in " \t" for m in body):
            return None
        fields = {m.group("key"): m.group("value").strip("\"'") for m in body if m is not None}
        return header.group("tool"), fields, _subject(fields)
    lines = [m for m in (_YAML_LINE.match(line) for line in rows) if m]
    if not lines or lines[0].group("key") not in ("action", "tool", "task"):
        return None
    fields = {m.group("key"): m.group("value").strip("\"'") for m in lines[1:]}
    return lines[0].group("value").strip("\"'"), fields, _subject(fields)


def _from_options(query: str) -> _Read | None:
    found = _OPTIONS_CALL.match(query)
    if found is None:
        return None
    tool = found.group("tool") or found.group("bare")
    options = found.group("options") or found.group("bare_options")
    fields = {
        m.group("key").replace("-", "_"): (m.group("value") or "").strip("\"'") for m in _LONG_OPTION.finditer(options)
    }
    return tool.rsplit(".", 1)[-1], fields, _subject(fields)


def _kind_intent(tool: str, args: Mapping[str, object]) -> str | None:
    """The intent a search tool's argument names as the kind of search asked (``kind="symbol_def"``)."""
    if not name_words(tool) & _SEARCH_WORDS:
        return None
    found = _kind_of(args)
    return None if found is None else found[1]


def _kind_of(args: Mapping[str, object]) -> tuple[str, str] | None:
    """The first of ``args``' kind keys (``kind``, ``mode`` ...) whose value says an intent, with that
    intent; None when no kind key says one."""
    for key in _KIND_KEYS:
        value = args.get(key)
        intent = _intent_of(value) if isinstance(value, str) else None
        if intent is not None:
            return key, intent
    return None


#: Code-search tools' command lines, read by what each option asks: cscope's line-oriented query
#: fields (``cscope -dL1 X``: 0 the symbol, 1 its definition, 3 its callers, 4 a text string, 9
#: assignments to it), GNU global's options (``global -x X`` the definition, ``global -r X`` the
#: references), and a structural search's pattern (``ast-grep -p 'f($$$ARGS)'``, ``semgrep -e
#: 'f(...)'``: a call of one name asks for its calls, other code for code of its shape). A pattern
#: language's (cscope's egrep field, ``global -g``) is left to the other rules: its text is no literal.
_CSCOPE = re.compile(r"^cscope\s(?:.*\s)?-[A-Za-z]*?(?P<field>\d)\s*(?P<subject>'[^']+'|\"[^\"]+\"|[^\s'\"-]\S*)\s*$")
_CSCOPE_FIELDS = {
    "0": "find_references",
    "1": "find_definition",
    "3": "find_references",
    "4": "exact_match",
    "9": "find_references",
}
#: Vim's cscope command (``:cs find g X``, ``:cscope f c X``), its query types named by letter.
_VIM_CSCOPE = re.compile(r"^:cs(?:cope)?\s+f(?:ind)?\s+(?P<field>[sgcta0-9])\s+(?P<subject>\S+)\s*$")
_VIM_KINDS = {"s": "0", "g": "1", "c": "3", "t": "4", "a": "9"}
#: What may follow a command: vim's error for it (``E259: no matches found ...``).
_VIM_ERROR = re.compile(r"^E\d+:")
_GLOBAL = re.compile(r"^global\s+(?P<options>(?:-[A-Za-z]+\s+)+)(?P<subject>[^\s-]\S*)\s*$")
_STRUCTURAL = re.compile(
    r"^(?P<tool>ast-grep|sg|semgrep)\s(?:.*\s)?(?:-p|--pattern|-e)[\s=]+(?P<quote>['\"])(?P<pattern>.+)(?P=quote)(?:\s.*)?$"
)
#: A documentation command, which shows a symbol's definition and its documentation: ``go doc gin.Context.JSON``
#: (``go doc PKG SYM``, ``-src``, ``-all``), ``pydoc httpx.Client.send`` (``python -m pydoc``), ``ri String#split``,
#: ``perldoc -f open``; and Python's source or help of one, run with ``python -c`` (``inspect.getsource(X)``,
#: ``inspect.signature(X)``, ``help(X)``).
_DOC = re.compile(
    r"^(?P<tool>go\s+doc|godoc|pydoc3?|python3?\s+-m\s+pydoc|ri|perldoc)(?:\s+-[\w-]+)*"
    r"\s+(?P<subject>[A-Za-z_][\w./#:-]*)(?:\s+(?P<member>[A-Za-z_][\w.]*))?\s*$"
)
_PYTHON_SOURCE = re.compile(
    r"^python3?\s+-c\s+(?P<quote>['\"]).*?\b(?:inspect\.getsource(?:lines)?|help|inspect\.signature)\(\s*"
    r"(?P<subject>[A-Za-z_][\w.]*)\s*\).*(?P=quote)\s*$"
)
_CALL_PATTERN = re.compile(
    r"(?:\$\w+\.)?(?P<name>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)\((?:\.\.\.|\$+\w*(?:\s*,\s*\$+\w*)*)?\)"
)


def _from_command(text: str) -> ToolCall | None:
    first, *rest = text.splitlines()
    if any(not _VIM_ERROR.match(line.strip()) for line in rest if line.strip()):
        return None  # more than one command, or a command and other words
    text = first.split(" | ", 1)[0].strip()  # a pipe after the command filters its output
    found = _VIM_CSCOPE.match(text) or _CSCOPE.match(text)
    if found is not None:  # vim names a field by letter, the command line by number
        intent = _CSCOPE_FIELDS.get(_VIM_KINDS.get(found.group("field"), found.group("field")))
        return None if intent is None else ToolCall("cscope", intent, found.group("subject").strip("'\""))
    found = _GLOBAL.match(text)
    if found is not None:
        options = "".join(found.group("options").split()).replace("-", "")
        if {"f", "P", "g"} & set(options):
            return None  # a file's tags, paths, or a grep pattern: no symbol asked about
        intent = "find_references" if {"r", "s"} & set(options) else "find_definition"
        return ToolCall("global", intent, found.group("subject").strip("'\""))
    found = _DOC.match(text) or _PYTHON_SOURCE.match(text)
    if found is not None:  # go doc net/http.Client.Do, ri String#split: the definition of http.Client.Do, String.split
        tool = " ".join((found.groupdict().get("tool") or "python -c").split())
        subject = found.group("subject").rsplit("/", 1)[-1].replace("#", ".").replace("::", ".")
        member = found.groupdict().get("member")
        return ToolCall(tool, "find_definition", f"{subject}.{member}" if member else subject)
    found = _STRUCTURAL.match(text)
    if found is not None:
        pattern = found.group("pattern").strip()
        call = _CALL_PATTERN.fullmatch(pattern)
        if call is not None:
            return ToolCall(found.group("tool"), "find_references", call.group("name"))
        return ToolCall(found.group("tool"), "find_similar", pattern)
    return None


def parse_call(query: str, any_case: bool = False) -> tuple[str, Mapping[str, object], str] | None:
    """``query`` read as a tool call of any name: (the tool's name, its arguments, the one naming what to search
    for); None where it is written as no call (a JSON object, a call, a YAML block, long options). With
    ``any_case``, a call whose name begins with a capital (``Grep(pattern=…)``, as coding agents name their tools)
    is read too; code's ``Session(config)`` is such a call, so only a caller that knows the tools' names asks."""
    text = query.strip()
    if not text or len(text) > 4_000:
        return None
    if text.startswith("{"):
        return _from_json(text)
    capital = any_case and text[:1].isupper()
    found = _parsed(text[0].lower() + text[1:] if capital else text)
    if found is None or not capital:
        return found
    tool, args, subject = found
    return tool[:1].upper() + tool[1:], args, subject


def _parsed(text: str) -> _Read | None:
    return _from_method(text) or _from_call(text) or _from_yaml(text) or _from_options(text)


def file_argument(args: Mapping[str, object]) -> str:
    """The file a call's arguments name (``path="a/b.py"``, ``file_path``), "" when none does."""
    return _path(args)


def read_tool_call(query: str) -> ToolCall | None:
    """``query`` read as an agent's tool call whose name says an intent, or None."""
    text = query.strip()
    if not text or len(text) > 4_000:
        return None
    command = _from_command(text)
    if command is not None:
        return command
    read = parse_call(text)
    if read is None:
        return None
    tool, args, subject = read
    path = _path(args)
    named = _words(tool.rsplit("/", 1)[-1])  # textDocument/documentSymbol: the method's own words
    asks_outline = not subject and "position" not in args and bool(named & _SYMBOL_WORDS and named & _OUTLINE_WORDS)
    path = path or (_document(args) if asks_outline else "")
    outline = asks_outline and bool(path)
    intent = "understand_code" if outline else _intent_of(tool) or _kind_intent(tool, args)
    if intent is None:
        return None
    if subject and _words(tool) & _CALLEE_WORDS:
        subject = f"callees of {subject}"
    return ToolCall(tool, intent, subject, path)

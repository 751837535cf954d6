"""Evidence in a bug report: stack frames, file paths, identifiers, code and error messages.

A pasted bug report (a title, prose, a traceback, a snippet) names the code it is about in a few
recognisable ways. This module finds them with regular expressions, no model:

* stack frames: Python (``File "x/y.py", line 12, in parse``), Go panics (``main.(*T).M(...)``
  followed by ``\t/src/x/y.go:12 +0x1d``), JavaScript (``at parse (src/x.js:12:5)``) and Java
  (``at com.x.Parser.parse(Parser.java:12)``);
* file paths with a source extension (``xarray/core/dataset.py``, ``conf.py``), and Python module
  paths (``sympy.utilities.iterables`` -> ``sympy/utilities/iterables.py``);
* identifiers: names in backticks and code blocks, called names (``trigsimp(f)``), CamelCase,
  snake_case and dotted names in the prose; each with a salience (where and how often it is said);
* error messages (``ValueError: cannot reindex``), reduced to their longest fragment without
  runtime values (quoted names, numbers), which is what a ``raise`` in the code spells literally;
* module names: lowercase words the title says or the report says at least twice, and the parts of
  dotted names (``sphinx.ext.napoleon`` -> ``napoleon``): a folder or a file may be called so.

:func:`extract` is a pure function of the text, so the coordinator's localize plan
(``coordinator/localize.py``) and the classifier can share it and tests can check it by hand.
"""

from __future__ import annotations

import keyword
import re
from dataclasses import dataclass

__all__ = [
    "ANALYSED_CHARS",
    "Evidence",
    "Frame",
    "Identifier",
    "extract",
    "report_signals",
    "without_code",
    "without_setup",
]

#: A report is read up to this many characters (the rest is noted as not analysed): the text
#: search asks for the prose as one query, and the engine's limit on a query is 10,000 characters.
ANALYSED_CHARS = 8_000

_SOURCE_EXT = (
    r"py|pyx|pyi|go|js|jsx|mjs|cjs|ts|tsx|java|kt|scala|rs|c|h|cc|cpp|hpp|cxx|cs|rb|php|swift|m|lua|sh|rst|md|toml|cfg"
)
_PY_FRAME = re.compile(r'File "([^"\n]+)", line (\d+)(?:, in ([\w<>.$]+))?')
_GO_FRAME = re.compile(r"^\s*(\S[^\n]*\))\s*\n\s+(/?[\w./@+-]+\.go):(\d+)", re.MULTILINE)
_JS_FRAME = re.compile(
    r"^\s*at\s+(?:(?:async\s+)?([\w$.<>\[\] ]+?)\s+\()?((?:[A-Za-z]:)?[\w./@~+-]+\.\w+):(\d+)(?::\d+)?\)?\s*$",
    re.MULTILINE,
)
_JAVA_FRAME = re.compile(r"^\s*at\s+([\w$.]+)\.([\w$<>]+)\(([\w$]+\.(?:java|kt|scala)):(\d+)\)", re.MULTILINE)
#: .NET's ``at NS.Class.Method(Type a) in C:\src\Class.cs:line 42`` and Mono's ``at NS.Class.Method (Type a)
#: [0x00012] in /src/Class.cs:42``; without symbols a frame names no file (then its class's, by convention).
_CS_FRAME = re.compile(
    r"^[ \t]*at[ \t]+([\w.`+<>]+)\.([\w<>`]+)[ \t]*(?:\[[\w, ]*\][ \t]*)?\([^()\n]*\)"
    r"(?:[ \t]*\[0x[0-9a-fA-F]+\])?(?:[ \t]+in[ \t]+([^\n]+?\.cs):(?:line[ \t]+)?(\d+))?",
    re.MULTILINE,
)
_PATH = re.compile(rf"(?<![\w/.:-])((?:[\w.@+-]+/)*[\w@+-][\w.@+-]*\.(?:{_SOURCE_EXT}))(?![\w/])")
_URL = re.compile(r"\b[a-z][a-z0-9+.-]*://\S+", re.IGNORECASE)
_FENCE = re.compile(r"```[^\n]*\n(.*?)(?:```|\Z)", re.DOTALL)
_BACKTICK = re.compile(r"`([^`\n]{1,200})`")
_INDENTED_CODE = re.compile(r"^(?: {4}|\t|>>> |\.\.\. |In \[\d+\]: )(.*)$", re.MULTILINE)
_CALL = re.compile(r"(?<![\w$.])([A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)\s*\(")
_NAME = re.compile(r"(?<![\w$])[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*")
_CODE_LOOKING = re.compile(r"[a-z0-9][A-Z]|[A-Z]{2,}[a-z]|[A-Za-z0-9]_[A-Za-z0-9]|^_[A-Za-z]|\.")
_ERROR_LINE = re.compile(
    r"^\s*(?:[\w.]+\.)?([A-Z]\w*(?:Error|Exception|Warning|Exit|Interrupt|Fault)|panic|error|fatal)\s*:\s*(.+?)\s*$",
    re.MULTILINE,
)
#: a tool's message at a location (``docs/x.rst:4: Malformed option description '[a]'``, Sphinx's
#: ``x.rst:4: WARNING: ...``, linters' and compilers' ``file:line:col: C0103: ...`` / ``error: ...``,
#: Python's ``x.py:9: DeprecationWarning: ...``): what the tool printed, spelled in its source, less
#: the one-word label before it (a level, a message code, a warning class), which is not
_LOCATED_MESSAGE = re.compile(
    r"^\s*[\w./\\~-]*\.\w+:\d+(?::\d+)?:\s*(?:(?:fatal\s+)?[A-Za-z][\w.]*\s*:\s*)?(.+?)\s*$",
    re.MULTILINE,
)
_RUNTIME_VALUE = re.compile(r"'[^']*'|\"[^\"]*\"|`[^`]*`|<[^>]*>|\b0x[0-9a-f]+\b|\b\d[\d.e+-]*\b|\([^)]*\)|\[[^\]]*\]")
_MODULE_PART = re.compile(r"[a-z_][a-z0-9_]*")
_PROMPT = re.compile(r"^\s*(?:>>> |In \[\d+\]: )\S", re.MULTILINE)  # a pasted interactive session
_TRACEBACK_HEAD = re.compile(r"^\s*Traceback \(most recent call last\)", re.MULTILINE)
_WORD = re.compile(r"(?<![\w/.-])[a-z][a-z0-9_]{3,}(?![\w/])")  # napoleon, autodoc, expand_modules
_DOTTED = re.compile(r"[a-z_]+(?:\.[a-z_]+)+")
#: a heading of a report: markdown's ``### Title``, a line in bold (``**Environment info**``) and
#: the summary of a collapsed block (``<details><summary>Output of xr.show_versions()</summary>``)
_HEADING = re.compile(r"^\s*(?:#{1,6}\s+(.*?)|\*\*([^*\n]+)\*\*:?|.*<summary>(.*?)</summary>.*)\s*$")
#: ... one that introduces the reporter's setup (issue templates ask for it: versions, platform)
_SETUP_HEADING = re.compile(r"environment|(?<![a-z])versions?\b|\bplatform\b|system info|installed", re.IGNORECASE)

#: Names too common to say anything about where a bug lives: language keywords, builtins, the
#: usual import aliases, and words of a report's boilerplate.
_COMMON_WORDS = """
self cls args kwargs print len str int float bool list dict set tuple type object range open super
isinstance getattr setattr hasattr repr format sorted min max sum abs map zip filter enumerate np
pd plt os sys re json xr sns mpl sp scipy numpy pandas matplotlib pytest python pip import
Exception ValueError TypeError KeyError IndexError AttributeError RuntimeError NotImplementedError
AssertionError ImportError ModuleNotFoundError OSError IOError StopIteration Warning UserWarning
DeprecationWarning FutureWarning ZeroDivisionError NameError RecursionError Traceback true false
null nil undefined this func var let const function return new console log err fmt e g i j k n x y
z a b c d f t v id ok e.g i.e etc vs http https www github com
"""
_COMMON = frozenset({*keyword.kwlist, *_COMMON_WORDS.split()})


@dataclass(frozen=True, slots=True)
class Frame:
    """One stack frame: the file, the line and the function (``""`` when the frame names none)."""

    path: str
    line: int
    function: str


@dataclass(frozen=True, slots=True)
class Identifier:
    """A name the report mentions, how salient it is, and whether it was seen in code."""

    name: str
    salience: float
    in_code: bool


@dataclass(frozen=True, slots=True)
class Evidence:
    """What a report says about the code: frames (outermost first), paths, identifiers (most
    salient first), error messages, the prose to rank by, how much of the text was read, and the
    words that may name a module (a folder or a file's stem), sorted."""

    frames: tuple[Frame, ...]
    paths: tuple[str, ...]
    identifiers: tuple[Identifier, ...]
    messages: tuple[str, ...]
    title: str
    prose: str
    analysed_chars: int
    total_chars: int
    module_names: tuple[str, ...] = ()
    #: non-blank lines of the reporter's setup sections left out (``without_setup``)
    setup_lines: int = 0

    @property
    def truncated(self) -> bool:
        return self.analysed_chars < self.total_chars

    def summary(self) -> str:
        """One line for the answer's notes: what was found."""
        parts = [
            f"{len(self.frames)} stack frame(s)",
            f"{len(self.paths)} path(s)",
            f"{len(self.identifiers)} identifier(s)"
            + (f" ({', '.join(i.name for i in self.identifiers[:6])})" if self.identifiers else ""),
            f"{len(self.messages)} error message(s)",
        ]
        read = f"; read the first {self.analysed_chars:,} of {self.total_chars:,} characters" if self.truncated else ""
        setup = f"; left out {self.setup_lines} line(s) of the reporter's setup" if self.setup_lines else ""
        return "localize: evidence " + ", ".join(parts) + read + setup


def _frames(text: str) -> list[Frame]:
    found: list[tuple[int, Frame]] = []
    for m in _PY_FRAME.finditer(text):
        found.append((m.start(), Frame(m.group(1), int(m.group(2)), m.group(3) or "")))
    for m in _GO_FRAME.finditer(text):
        call = m.group(1)
        name = call[: call.rfind("(")].rsplit(".", 1)[-1].strip("()*")  # pkg.(*T).Method(args) -> Method
        found.append((m.start(), Frame(m.group(2), int(m.group(3)), name)))
    for m in _JS_FRAME.finditer(text):
        name = (m.group(1) or "").strip().rsplit(".", 1)[-1]
        found.append((m.start(), Frame(m.group(2), int(m.group(3)), "" if name.startswith("<") else name)))
    for m in _JAVA_FRAME.finditer(text):
        folder = m.group(1).rsplit(".", 1)[0].replace(".", "/")
        found.append((m.start(), Frame(f"{folder}/{m.group(3)}", int(m.group(4)), m.group(2))))
    for m in _CS_FRAME.finditer(text):
        cls = m.group(1).rsplit(".", 1)[-1].split("+")[0].split("`")[0]  # ``Outer+Inner``, ``List`1``
        name = m.group(2)
        if name.startswith("<"):  # a lambda's ``<Main>b__0_0``: the method that wrote it
            name = name[1 : name.find(">")] if ">" in name else ""
        path = m.group(3) or f"{cls}.cs"
        found.append((m.start(), Frame(path, int(m.group(4) or 0), name)))
    found.sort(key=lambda t: t[0])
    out: list[Frame] = []
    for _, f in found:
        if f not in out:
            out.append(f)
    return out


def _code_spans(text: str) -> list[str]:
    spans = [m.group(1) for m in _FENCE.finditer(text)]
    rest = _FENCE.sub(" ", text)
    spans += [m.group(1) for m in _BACKTICK.finditer(rest)]
    spans += [m.group(1) for m in _INDENTED_CODE.finditer(rest)]
    return spans


def _message(line: str) -> str:
    """The longest fragment of an error message without runtime values (what the code spells)."""
    line = line.strip()
    if len(line) > 2 and line[0] == line[-1] and line[0] in "'\"":  # KeyError: "unknown code 'x'"
        line = line[1:-1]
    fragments = [f.strip(" :,.;-") for f in _RUNTIME_VALUE.split(line)]
    best = max(fragments, key=len, default="")
    return best if len(best) >= 12 and " " in best else ""


def _module_names(text: str, title: str) -> tuple[str, ...]:
    """Words that may name a module: lowercase words of the title, words said at least twice, and
    the parts of dotted names. Most are plain English; the plan keeps those that name few of the
    files its searches found (``localize.combine``), so no list of stop words is needed."""
    counts: dict[str, int] = {}
    for w in _WORD.findall(text):
        counts[w] = counts.get(w, 0) + 1
    names = {w for w, n in counts.items() if n >= 2} | set(_WORD.findall(title.lower()))
    for m in _DOTTED.finditer(text):
        names.update(part for part in m.group(0).split(".") if len(part) >= 4)
    return tuple(sorted(names))


def without_setup(text: str) -> str:
    """``text`` less the sections that describe the reporter's setup (``**Environment info**``,
    ``### Pylint version``, ``<summary>Output of xr.show_versions()</summary>``): from such a
    heading to the next heading or the end of the collapsed block. Their words (``python``,
    ``show_versions``, ``numpy: 1.18.5``) name the environment, never where the bug is, and a
    project's version-printing module would rank on them."""
    out: list[str] = []
    skipping = fenced = False
    for line in text.split("\n"):
        heading = None if fenced else _HEADING.match(line)  # a ``# comment`` in a code block is code
        if line.lstrip().startswith("```") and line.count("```") % 2:
            fenced = not fenced
        if heading:
            title = next(g for g in heading.groups() if g is not None)
            # a short title: a bold sentence that says "platform" is prose, not a template's heading
            skipping = len(title.split()) <= 6 and bool(_SETUP_HEADING.search(title))
        elif skipping and line.strip().lower() == "</details>":
            skipping = False
            continue
        if not skipping:
            out.append(line)
    return "\n".join(out)


#: a line of a pasted interactive session, input or output (``>>> x``, ``... y``, ``In [3]: z``, ``Out[3]: 1``)
_SESSION_LINE = re.compile(r"^(?:>>> |\.\.\. |In \[\d+\]: |Out\[\d+\]: ).*$", re.MULTILINE)


def without_code(text: str) -> str:
    """``text`` less its fenced code blocks and the lines of pasted interactive sessions: what a
    report says in words (the part a sentence embedding reads best; the code is the lexical
    searches' business, and it would fill the embedding model's short window)."""
    return _SESSION_LINE.sub(" ", _FENCE.sub(" ", text))


def _non_blank_lines(text: str) -> int:
    return sum(1 for line in text.split("\n") if line.strip())


def _useful(name: str) -> bool:
    last = name.rsplit(".", 1)[-1]
    return len(last) >= 3 and last not in _COMMON and name not in _COMMON and not last.isdigit()


def extract(text: str, limit: int = ANALYSED_CHARS) -> Evidence:
    """The evidence in the first ``limit`` characters of ``text``."""
    total = len(text)
    text = text[:limit]
    analysed = len(text)
    text = text.replace("\r\n", "\n")
    setup_lines = _non_blank_lines(text)
    text = without_setup(text)
    setup_lines -= _non_blank_lines(text)
    frames = _frames(text)
    frame_paths = {f.path for f in frames}
    without_urls = _URL.sub(" ", text)
    paths: list[str] = []
    for m in _PATH.finditer(without_urls):
        p = m.group(1)
        if p not in frame_paths and p not in paths and not re.fullmatch(r"[\d.]+\.\w+", p):
            paths.append(p)
    title = next((ln.strip() for ln in text.split("\n") if ln.strip()), "")

    salience: dict[str, float] = {}
    in_code: set[str] = set()

    def add(name: str, weight: float, code: bool = False) -> None:
        name = name.strip(".")
        if not _useful(name):
            return
        salience[name] = salience.get(name, 0.0) + weight
        if code:
            in_code.add(name)

    for f in frames:
        if f.function:
            add(f.function, 2.0, True)
    spans = _code_spans(without_urls)
    for span in spans:
        for m in _CALL.finditer(span):
            add(m.group(1), 1.5, True)
        for m in _NAME.finditer(span):
            if _CODE_LOOKING.search(m.group(0)) or len(span.strip()) == len(m.group(0)):
                add(m.group(0), 1.0, True)
    prose = _FENCE.sub(" ", without_urls)
    for m in _CALL.finditer(prose):
        add(m.group(1), 1.0, True)
    for m in _NAME.finditer(prose):
        if _CODE_LOOKING.search(m.group(0)):
            add(m.group(0), 0.5)
    for m in _NAME.finditer(title):
        if m.group(0) in salience:
            salience[m.group(0)] += 1.0

    # a dotted module path names a file: sympy.utilities.iterables(.partitions) -> sympy/utilities/iterables.py
    for name in sorted((n for n in salience if "." in n), key=lambda n: -salience[n]):
        parts = name.split(".")
        # three parts at least: obj.attr is a variable's attribute far more often than a module
        if len(parts) >= 3 and all(_MODULE_PART.fullmatch(q) for q in parts) and parts[0] not in _COMMON:
            for cut in (len(parts), len(parts) - 1):
                candidate = "/".join(parts[:cut]) + ".py"
                if cut >= 2 and candidate not in paths:
                    paths.append(candidate)
    # a dotted name also names its parts: xr.Dataset.to_netcdf -> Dataset, to_netcdf
    for name in [n for n in salience if "." in n]:
        parts = name.split(".")
        for part in parts[-2:]:
            if part == parts[-1] or not part.islower():  # the member, and a class it is reached through
                add(part, salience[name] * (1.0 if part == parts[-1] else 0.6), name in in_code)
        del salience[name]
    # path-like names (xarray.core.dataset) and file names are paths' business, not definitions'
    for name in list(salience):
        if "/" in name:
            del salience[name]

    identifiers = sorted(
        (Identifier(n, round(s, 2), n in in_code) for n, s in salience.items()),
        key=lambda i: (-i.salience, i.name),
    )

    messages: list[str] = []
    for m in _ERROR_LINE.finditer(text):
        msg = _message(m.group(2))
        if msg and msg not in messages:
            messages.append(msg)
    for m in _LOCATED_MESSAGE.finditer(text):
        msg = _message(m.group(1))
        if msg and msg not in messages:
            messages.append(msg)
    for name in (m.group(1) for m in _ERROR_LINE.finditer(text)):
        if _useful(name) and name not in salience:
            identifiers.append(Identifier(name, 1.0, True))
    return Evidence(
        frames=tuple(frames),
        paths=tuple(paths),
        identifiers=tuple(identifiers),
        messages=tuple(messages),
        title=title,
        prose=text,
        analysed_chars=analysed,
        total_chars=total,
        module_names=_module_names(text, title),
        setup_lines=setup_lines,
    )


@dataclass(frozen=True, slots=True)
class _Signals:
    lines: int
    words: int
    frames: int
    code_blocks: int
    identifiers: int
    error_lines: int


def report_signals(text: str) -> _Signals:
    """Cheap counts the classifier decides by (see ``intent.looks_like_report``)."""
    head = text[:ANALYSED_CHARS]
    plain = _URL.sub(" ", head)
    code_identifiers = {
        m.group(0) for m in _NAME.finditer(plain) if _CODE_LOOKING.search(m.group(0)) and _useful(m.group(0))
    }
    code_identifiers |= {m.group(1) for m in _CALL.finditer(plain) if _useful(m.group(1))}
    return _Signals(
        lines=sum(1 for ln in head.splitlines() if ln.strip()),
        words=len(re.findall(r"[A-Za-z]{2,}", head)),
        frames=len(_frames(head)) + len(_TRACEBACK_HEAD.findall(head)),
        code_blocks=len(_FENCE.findall(head)) + len(_BACKTICK.findall(head)) + len(_PROMPT.findall(head)),
        identifiers=len(code_identifiers),
        error_lines=len(_ERROR_LINE.findall(head)),
    )

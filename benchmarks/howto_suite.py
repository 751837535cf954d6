"""Build the "how does X work" suites: questions paraphrased from docstrings, answered by the function.

    python benchmarks/howto_suite.py CORPUS:NAME [CORPUS:NAME ...] --out-dir benchmarks/suites [--per-repo 80]

For every documented function, method and class of each corpus (``CORPUS`` indexed under the
repository name ``NAME``; tests, docs, examples and benchmarks are skipped as *answers* but stay in
the corpus as distractors), the first sentence of its documentation (a Python docstring; in
JavaScript, TypeScript, Go, Java or Rust the doc comment above it, JSDoc tags left out) is turned
into a question mechanically:

- the definition's own name (and its ``snake``/``Camel`` words joined) is removed, and so is every
  other identifier-like token (``foo_bar``, ``FooBar``, anything in backticks), so no question names
  code;
- common docstring words are swapped for synonyms (``return`` → ``give back``, ``create`` →
  ``build``, ...), third-person verbs become the base form, and words that ask for tests or docs
  (``test``, ``example``, ``documentation``) are replaced, so the question asks for code;
- the sentence is wrapped in one of a few question shapes ("how does httpx ...", "how is it done:
  ...", "what code ...") chosen by a hash of the definition; a release's ``NAME`` is named without
  its version (``sympy-1.1.1`` asks "how does sympy ...", ``project_name``).

The answer is the definition itself (``match: line``: a hit whose line range holds the ``def``/``class``
line). Queries are split by a hash of their id into ``howto-dev.jsonl`` (for any tuning) and
``howto-heldout.jsonl`` (never looked at while tuning). The output is deterministic for a given corpus.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Definition", "corpora", "definitions", "is_heldout", "paraphrase", "suite_parser", "write_split"]

#: Paths never used as answers: the suite asks for implementing code.
_NOT_ANSWERS = re.compile(
    r"(?:^|/)_?(?:tests?|docs?|examples?|benchmarks?|artwork|scripts|testdata)/|(?:^|/)(?:test_|conftest)|_test\.go$"
)

#: Docstring words swapped for another word of the same meaning (lower case; verbs in base form).
_SYNONYMS = {
    "return": "give back",
    "returns": "gives back",
    "returned": "given back",
    "create": "build",
    "creates": "builds",
    "created": "built",
    "get": "fetch",
    "gets": "fetches",
    "retrieve": "fetch",
    "retrieves": "fetches",
    "set": "assign",
    "sets": "assigns",
    "check": "verify",
    "checks": "verifies",
    "test": "check",
    "tests": "checks",
    "tested": "checked",
    "testing": "checking",
    "example": "sample",
    "examples": "samples",
    "documentation": "description",
    "docs": "notes",
    "readme": "notes",
    "parse": "read",
    "parses": "reads",
    "convert": "turn",
    "converts": "turns",
    "remove": "drop",
    "removes": "drops",
    "delete": "drop",
    "deletes": "drops",
    "add": "append",
    "adds": "appends",
    "load": "read in",
    "loads": "reads in",
    "print": "output",
    "prints": "outputs",
    "write": "emit",
    "writes": "emits",
    "show": "display",
    "shows": "displays",
    "function": "routine",
    "method": "routine",
    "object": "instance",
    "value": "item",
    "values": "items",
    "string": "text",
    "strings": "texts",
    "str": "text",
    "argument": "parameter",
    "arguments": "parameters",
    "given": "supplied",
    "specified": "supplied",
    "provided": "supplied",
    "current": "active",
    "request": "call",
    "requests": "calls",
    "url": "address",
    "urls": "addresses",
    "file": "path",
    "error": "failure",
    "errors": "failures",
    "exception": "failure",
    "raise": "throw",
    "raises": "throws",
    "invoke": "call",
    "invokes": "calls",
    "used": "employed",
    "use": "employ",
    "uses": "employs",
    "helper": "utility",
    "automatically": "on its own",
    "whether": "if",
    "attempt": "try",
    "attempts": "tries",
}

#: Third-person verb forms the question shapes need in the base form ("how does it returns" reads wrong).
_BASE = {
    "gives": "give",
    "builds": "build",
    "fetches": "fetch",
    "assigns": "assign",
    "verifies": "verify",
    "checks": "check",
    "reads": "read",
    "turns": "turn",
    "drops": "drop",
    "appends": "append",
    "outputs": "output",
    "emits": "emit",
    "displays": "display",
    "throws": "throw",
    "calls": "call",
    "employs": "employ",
    "tries": "try",
    "is": "be",
    "has": "have",
    "does": "do",
    "handles": "handle",
    "makes": "make",
    "takes": "take",
    "generates": "generate",
    "represents": "represent",
    "provides": "provide",
    "stores": "store",
    "decodes": "decode",
    "encodes": "encode",
    "sends": "send",
    "opens": "open",
    "closes": "close",
    "formats": "format",
    "wraps": "wrap",
    "applies": "apply",
    "registers": "register",
    "resolves": "resolve",
    "runs": "run",
    "starts": "start",
    "finds": "find",
    "updates": "update",
    "yields": "yield",
    "iterates": "iterate",
    "determines": "determine",
    "indicates": "indicate",
    "marks": "mark",
    "prompts": "prompt",
    "attaches": "attach",
    "invokes": "invoke",
    "processes": "process",
    "constructs": "construct",
    "normalizes": "normalize",
    "executes": "execute",
    "defines": "define",
    "allows": "allow",
    "accepts": "accept",
    "looks": "look",
    "splits": "split",
    "joins": "join",
    "copies": "copy",
    "merges": "merge",
    "compares": "compare",
    "collects": "collect",
    "reads in": "read in",
    "gives back": "give back",
    "pushes": "push",
    "pops": "pop",
    "restricts": "restrict",
    "lists": "list",
    "produces": "produce",
    "mirrors": "mirror",
    "passes": "pass",
    "supports": "support",
    "creates": "create",
    "sorts": "sort",
    "saves": "save",
    "waits": "wait",
    "converts": "convert",
    "prepares": "prepare",
    "sets": "set",
    "renders": "render",
    "raises": "raise",
    "exits": "exit",
    "ensures": "ensure",
    "detects": "detect",
    "enables": "enable",
    "removes": "remove",
    "modifies": "modify",
    "styles": "style",
    "echoes": "echo",
    "builds in": "build in",
    "opens in": "open in",
    "installs": "install",
    "adds": "add",
    "reverts": "revert",
    "consumes": "consume",
    "streams": "stream",
    "validates": "validate",
    "transforms": "transform",
    "matches": "match",
    "filters": "filter",
    "adjusts": "adjust",
    "instantiates": "instantiate",
    "initializes": "initialize",
    "returns": "return",
    "extracts": "extract",
    "checks if": "check if",
}

_SHAPES = (
    "how does {pkg} {base}?",
    "how does the code {base}",
    "how is it implemented: {base}",
    "what code in {pkg} does this: {third}",
    "how do I {base} with {pkg}",
    "which part of {pkg} {third}",
)

_NOUN_SHAPES = (
    "how does the {noun} work in {pkg}",
    "how is the {noun} implemented",
    "{pkg}: how does the {noun} work",
)

#: Files of languages whose definitions are documented by the comment above them.
_COMMENTED_SUFFIXES = frozenset({".js", ".mjs", ".cjs", ".jsx", ".ts", ".tsx", ".go", ".java", ".rs", ".cs", ".kt"})
#: Bundled or minified JavaScript: a second copy of the sources, never the answer.
_BUNDLED = re.compile(r"(?:^|/)(?:dist|build|umd|esm5?|cjs|bundles?)/|\.min\.js$|\.d\.ts$")

_IDENT = re.compile(r"^(?:[A-Za-z]+_[A-Za-z0-9_]*|_\w+|[a-z]+[A-Z]\w*|[A-Z][a-z0-9]+[A-Z]\w*|\w+\(\)?\)?|\w*\.\w+.*)$")
_RST = re.compile(r":(?:\w+:)?\w+:`[^`]*`|``[^`]*``|`[^`]*`")
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(])")


@dataclass(frozen=True, slots=True)
class Definition:
    """One documented definition: where it is and the first sentence of its docstring."""

    repo: str
    path: str
    name: str
    line: int
    end_line: int
    kind: str
    sentence: str


def definitions(root: Path, repo: str) -> Iterator[Definition]:
    """Every documented function, method and class under ``root`` outside tests, docs and examples:
    Python's by their docstrings, other languages' by the doc comment above them."""
    yield from _python_definitions(root, repo)
    yield from _commented_definitions(root, repo)


def _python_definitions(root: Path, repo: str) -> Iterator[Definition]:
    for file in sorted(root.rglob("*.py")):
        rel = file.relative_to(root).as_posix()
        if _NOT_ANSWERS.search(rel):
            continue
        try:
            tree = ast.parse(file.read_text(encoding="utf-8"))
        except (SyntaxError, UnicodeDecodeError):
            continue
        for node in ast.walk(tree):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                continue
            doc = ast.get_docstring(node)
            if not doc:
                continue
            first = _SENTENCE.split(" ".join(doc.split("\n\n")[0].split()))[0].strip()
            kind = "class" if isinstance(node, ast.ClassDef) else "function"
            yield Definition(repo, rel, node.name, node.lineno, node.end_lineno or node.lineno, kind, first)


def _commented_definitions(root: Path, repo: str) -> Iterator[Definition]:
    """Functions, methods and classes of the C family (JavaScript, TypeScript, Go, Java, Rust...) with
    a doc comment (``doc_comments.comment_above``: JSDoc, ``//`` blocks), found by the structural
    extractor fourfold segments with; a ``@tag`` line ends the comment's prose. Minified and bundled
    files (``dist/``, ``*.min.js``) are skipped as answers."""
    from fourfold.index.ingest.languages import detect_language
    from fourfold.index.ingest.segment import current_extractor, extract_definitions, split_lines
    from fourfold.plugins.doc_comments import clean, comment_above

    extractor = current_extractor()
    for file in sorted(p for p in root.rglob("*") if p.suffix in _COMMENTED_SUFFIXES and p.is_file()):
        rel = file.relative_to(root).as_posix()
        if _NOT_ANSWERS.search(rel) or _BUNDLED.search(rel):
            continue
        source = file.read_bytes()
        language = detect_language(rel, source[:512])
        lines = dict(enumerate(split_lines(source.decode("utf-8", "replace")), start=1))
        for d in extract_definitions(source, language, extractor).definitions:
            if d.kind not in ("function", "method", "class"):
                continue
            _, above = comment_above(lines, d.start_line, language)
            prose = clean(above).split("\n@")[0]
            if prose.startswith("@"):
                continue
            first = _SENTENCE.split(" ".join(prose.split()))[0].strip() if prose else ""
            if first:
                yield Definition(repo, rel, d.name, d.start_line, d.end_line, d.kind, first)


def _name_words(name: str) -> set[str]:
    """The definition's name as written and its words joined (``get_terminal_size``, ``getterminalsize``)."""
    parts = [p for p in re.split(r"_+|(?<=[a-z0-9])(?=[A-Z])", name) if p]
    return {name.lower(), "".join(parts).lower(), "_".join(parts).lower()}


def paraphrase(d: Definition, pkg: str) -> str | None:
    """The docstring's first sentence as a question that names no code, or None when too little is left."""
    text = _RST.sub(" ", d.sentence)
    text = re.sub(r"[\"'()\[\]{}:;,]", " ", text).rstrip(".!? ")
    drop = _name_words(d.name)
    words: list[str] = []
    for raw in text.split():
        w = raw.strip(".")
        low = w.lower()
        if not w or low in drop or _IDENT.match(w) or (low in ("this", "that's") and not words):
            continue
        if low in ("a", "an", "the") and not words:
            continue
        words.append(_SYNONYMS.get(low, low))
    sentence = " ".join(words)
    content = [w for w in sentence.split() if len(w) > 3]
    if len(content) < 3 or len(sentence.split()) > 24:
        return None
    head, _, rest = sentence.partition(" ")
    if head in ("function", "routine", "class", "method", "helper", "utility"):
        return None  # "routine that ..." reads as a description, not an action
    h = int(hashlib.sha1(f"{d.repo}:{d.path}:{d.line}".encode()).hexdigest(), 16)
    verbs = set(_BASE.values())
    if head in _BASE:
        base, third = " ".join([_BASE[head], rest]), sentence
    elif head in verbs:  # imperative docstring ("Return the ..."): third person for "which code ..."
        ending = "es" if head.endswith(("sh", "ch", "x", "ss")) else "s"
        base, third = sentence, " ".join([head + ending, rest])
    else:  # a noun phrase ("Base class for ...", "Asynchronous HTTP client ..."): ask how it works
        return _NOUN_SHAPES[h % len(_NOUN_SHAPES)].format(pkg=pkg, noun=sentence)
    return _SHAPES[h % len(_SHAPES)].format(pkg=pkg, base=base.strip(), third=third.strip())


def project_name(repo: str) -> str:
    """The project as a person names it in a question: a release's repository name without its version
    (``sympy-1.1.1`` -> ``sympy``: the version's dots read as code and route the question elsewhere)."""
    return re.sub(r"-v?\d+(?:\.\d+)*(?:(?:rc|a|b|post|dev)\d*)?$", "", repo) or repo


def is_heldout(query_id: str) -> bool:
    """Stable split: a third of the queries (by a hash of the id) are held out from any tuning."""
    return int(hashlib.sha1(query_id.encode()).hexdigest(), 16) % 3 == 0


def suite_parser(doc: str | None, per_repo: int) -> argparse.ArgumentParser:
    """The suite builders' command line: corpora as ``DIR:NAME``, an output folder, questions per corpus."""
    ap = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="+", help="CORPUS_DIR:REPO_NAME, a source tree and its indexed name")
    ap.add_argument("--out-dir", type=Path, required=True)
    ap.add_argument("--per-repo", type=int, default=per_repo, help="questions per corpus (picked by a hash, stable)")
    return ap


def corpora(specs: list[str]) -> list[tuple[Path, str]]:
    """(folder, repository name) of each ``DIR:NAME``; a bad one ends the program with status 2 and says why."""
    out = []
    for spec in specs:
        folder, _, repo = spec.rpartition(":")
        if not folder or not Path(folder).is_dir():
            print(f"bad corpus {spec!r}: give DIR:NAME with an existing DIR", file=sys.stderr)
            raise SystemExit(2)
        out.append((Path(folder), repo))
    return out


def write_split(rows: list[dict[str, object]], out_dir: Path, stem: str) -> None:
    """``rows`` split by ``is_heldout`` into ``STEM-dev.jsonl`` and ``STEM-heldout.jsonl`` under ``out_dir``."""
    out_dir.mkdir(parents=True, exist_ok=True)
    for name, part in ((f"{stem}-dev", False), (f"{stem}-heldout", True)):
        chosen = [r for r in rows if is_heldout(str(r["id"])) == part]
        path = out_dir / f"{name}.jsonl"
        path.write_text("".join(json.dumps(r) + "\n" for r in chosen), encoding="utf-8")
        print(f"{path}: {len(chosen)} questions", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = suite_parser(__doc__, 80).parse_args(argv)
    rows: list[dict[str, object]] = []
    for folder, repo in corpora(args.corpora):
        made: list[tuple[str, dict[str, object]]] = []
        for d in definitions(folder, repo):
            q = paraphrase(d, project_name(repo))
            if q is None:
                continue
            key = hashlib.sha1(f"{repo}:{d.path}:{d.line}".encode()).hexdigest()
            row: dict[str, object] = {
                "query": q,
                "intent": "understand_code",
                "match": "line",
                "source": "docstring",
                "relevant": [{"repo": repo, "path": d.path, "line": d.line, "end_line": d.end_line}],
            }
            made.append((key, row))
        made.sort(key=lambda kr: kr[0])
        for i, (_, row) in enumerate(sorted(made[: args.per_repo], key=lambda kr: str(kr[1]["relevant"]))):
            rows.append({"id": f"{repo}-howto-{i}", **row})
    write_split(rows, args.out_dir, "howto")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

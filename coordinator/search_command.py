"""A grep-like command pasted as the query, read as the listing it asks for.

An agent used to a shell writes its search as the command it would run: ``rg -n "retry_budget" src/``,
``grep -rn --include=*.py make_context .``, ``git grep -w Render``, ``rg -t go -i 'func \\(c \\*Context\\)'``.
Read as words, such a query is a quoted string and flags: the quoted string is searched with every flag's
letters beside it, case ignored, in every folder. Read as the command, it is what the tool would list:

* the pattern (the first operand, or ``-e``): a literal where ``-F`` (``fgrep``, ``ag -Q``) says so or where it
  holds no regular-expression syntax, else a regular expression (grep's basic syntax, ``\\|`` and ``\\(``, read as
  the extended one it means); ``-w`` matches it as a whole word;
* case as the tool has it: respected by grep, ripgrep, git grep and ack unless ``-i``; ``-S`` (and ag by default)
  respects it where the pattern holds a capital;
* the files: the operands after the pattern (``src/``, ``a/b.py``; ``.`` is everything), ripgrep's ``-t py`` and
  ``-T`` (languages), ``-g '*.py'`` and ``-g '!vendor/**'``, grep's ``--include``, ``--exclude`` and
  ``--exclude-dir``.

Output options (``-n``, ``-l``, ``-C 3``, ``--color``) change nothing, and a pipe after the command
(``| head``) is left out. A command of another tool, several commands, or one without a pattern
(``rg --files``) is not read. ``options["filters"] == "off"`` leaves the query as written.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, replace

from fourfold.api import SearchParams
from fourfold.coordinator.query_filters import language
from fourfold.errors import InvalidQuery
from fourfold.index.ingest.languages import KNOWN_LANGUAGES, detect_language
from fourfold.plugins.globs import excluding

__all__ = ["Command", "apply", "read"]

_TOOLS = {
    "rg": "rg",
    "ripgrep": "rg",
    "grep": "grep",
    "egrep": "grep",
    "fgrep": "grep",
    "ag": "ag",
    "ack": "ack",
    "ack-grep": "ack",
}
# short options that take a value, by tool (``-A 3``, ``-t py``, ``-e PATTERN``)
_SHORT_VALUE = {
    "rg": set("efABCmtTgjMrEd"),
    "grep": set("efABCmdD"),
    "git grep": set("efABCmO"),
    "ag": set("ABCmGg"),
    "ack": set("ABCm"),
}
_LONG_VALUE = frozenset(
    {
        "regexp",
        "file",
        "after-context",
        "before-context",
        "context",
        "max-count",
        "type",
        "type-not",
        "glob",
        "iglob",
        "include",
        "exclude",
        "exclude-dir",
        "threads",
        "max-depth",
        "max-columns",
        "encoding",
        "replace",
        "sort",
        "sortr",
        "type-add",
        "ignore-file",
        "pre",
        "max-filesize",
        "file-search-regex",
        "colors",
    }
)
# words that make a trailing operand, or an unquoted pattern, a sentence's
_PROSE = frozenset(
    "a an and any all are asap but codebase every file files finds for here how in is it my now of on or our please "  # noqa: SIM905
    "pls project repo repository the this to what where which who why your".split()
)
# grep's basic syntax: these mean themselves bare and an operator escaped, the other way round from RE2
_BRE_SWAPPED = frozenset("|(){}+?")


@dataclass(frozen=True, slots=True)
class Command:
    """What a command asks: its pattern (as the text modality takes it), how, in which files."""

    tool: str
    pattern: str
    regex: bool
    case_sensitive: bool
    languages: tuple[str, ...] = ()
    not_languages: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()
    include: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    unread_types: tuple[str, ...] = ()


def read(query: str) -> Command | None:
    """``query`` read as a grep-like command, or None where it is none (another tool's, several, no pattern)."""
    text = query.strip()
    if "\n" in text or not text:
        return None
    text = re.split(r"\s\|\s", text, maxsplit=1)[0].strip()  # "| head" filters the output
    try:
        words = shlex.split(text, comments=True)  # "# want the declaration only" is a comment
    except ValueError:
        return None
    first = words[0] if words else ""
    if len(words) >= 2 and first == "git" and words[1] == "grep":
        tool, words = "git grep", words[2:]
    elif first in _TOOLS:
        tool, words = _TOOLS[first], words[1:]
    else:
        return None
    fixed = first == "fgrep"
    extended = first == "egrep" or tool not in ("grep", "git grep")  # both read basic syntax unless -E
    case = "smart" if tool == "ag" else "yes"
    word = False
    patterns: list[str] = []
    operands: list[str] = []
    languages: list[str] = []
    not_languages: list[str] = []
    include: list[str] = []
    exclude: list[str] = []
    unread: list[str] = []  # file types no language of fourfold's is: every language searched

    def option(name: str, value: str | None) -> None:
        nonlocal fixed, extended, case, word
        if name in ("F", "fixed-strings", "Q", "literal"):
            fixed = True
        elif name in ("E", "extended-regexp", "P", "perl-regexp", "pcre2") and not (tool == "rg" and name == "E"):
            extended = True
        elif name in ("i", "ignore-case", "y"):
            case = "no"
        elif name in ("S", "smart-case"):
            case = "smart"
        elif name in ("case-sensitive",) or (name == "s" and tool in ("rg", "ag")):
            case = "yes"
        elif name in ("w", "word-regexp"):
            word = True
        elif name in ("e", "regexp") and value is not None:
            patterns.append(value)
        elif name in ("t", "type", "T", "type-not") and value is not None:
            read_languages = _type(value)
            if not read_languages:
                unread.append(value)
            (languages if name in ("t", "type") else not_languages).extend(read_languages)
        elif name in ("g", "glob", "iglob") and value is not None and tool == "rg":
            (exclude if value.startswith("!") else include).append(value.lstrip("!"))
        elif name == "include" and value is not None:
            include.append(value)
        elif name == "exclude" and value is not None:
            exclude.append(value)
        elif name == "exclude-dir" and value is not None:
            exclude.append(f"**/{value.strip('/')}/**")
        elif name in ("f", "file", "files", "pre", "G", "file-search-regex"):
            raise _UnreadableError  # patterns from a file, a file listing, a preprocessor: nothing a search reads

    i = 0
    try:
        while i < len(words):
            w = words[i]
            if w == "--":
                operands.extend(words[i + 1 :])
                break
            if w.startswith("--") and len(w) > 2:
                name, eq, value = w[2:].partition("=")
                if not eq and name in _LONG_VALUE:
                    i += 1
                    value = words[i] if i < len(words) else ""
                option(name, value if (eq or name in _LONG_VALUE) else None)
            elif re.fullmatch(r"-\d+", w):
                pass  # grep -3: context lines
            elif w.startswith("-") and len(w) > 1:
                for j, c in enumerate(w[1:], 1):
                    if c in _SHORT_VALUE[tool]:
                        value = w[j + 1 :]
                        if not value:
                            i += 1
                            value = words[i] if i < len(words) else ""
                        option(c, value)
                        break
                    option(c, None)
            else:
                operands.append(w)
            i += 1
    except _UnreadableError:
        return None
    if not patterns:
        if not operands or operands[0].lower() in _PROSE:
            return None  # "grep for calls to bootstrap" is a sentence
        patterns.append(operands.pop(0))
    if not _operands_read(text, patterns, operands):
        return None
    if len(patterns) > 1:  # -e a -e b: any of them
        pattern = "|".join(f"(?:{p if extended and not fixed else re.escape(p)})" for p in patterns)
        regex = True
    else:
        pattern = patterns[0]
        if not fixed and not extended:
            pattern = _extended(pattern)
        literal = pattern if fixed else _as_literal(pattern)  # grep 'f(' reads as f\( : the literal it is
        regex = literal is None  # a bare "." too: "automatically." matches "automatically," as grep's does
        pattern = pattern if literal is None else literal
    if word:
        pattern, regex = rf"\b(?:{pattern if regex else re.escape(pattern)})\b", True
    if regex:
        try:
            re.compile(pattern)
        except re.error:
            pattern, regex = patterns[0], False
    sensitive = case == "yes" or (case == "smart" and any(c.isupper() for c in pattern))
    paths = tuple(p for p in (_path(o) for o in operands) if p)
    return Command(
        tool,
        pattern,
        regex,
        sensitive,
        tuple(languages),
        tuple(not_languages),
        paths,
        tuple(include),
        tuple(exclude),
        tuple(unread),
    )


def _as_literal(pattern: str) -> str | None:
    """The string a regular expression matches where it is one written with escapes (``f\\(x\\)``), else None."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            if i + 1 >= len(pattern) or pattern[i + 1].isalnum():
                return None  # \w, \b, \1: syntax
            out.append(pattern[i + 1])
            i += 2
            continue
        if c in ".^$*+?()[]{}|":
            return None
        out.append(c)
        i += 1
    return "".join(out)


def _type(name: str) -> tuple[str, ...]:
    """The languages a file type names (ripgrep's ``py``, ``rust``; ``ex`` by its extension), none where it names
    none of fourfold's (a type of the user's own, ``--type-add 'cfg:*.toml'``)."""
    try:
        return language(name)
    except InvalidQuery:
        by_extension = detect_language(f"x.{name}")
        return (by_extension,) if by_extension in KNOWN_LANGUAGES and by_extension != "text" else ()


def _operands_read(text: str, patterns: list[str], operands: list[str]) -> bool:
    """Whether the pattern is as written and the operands after it are paths, not a sentence that goes on
    ("grep 'token expired' in this codebase", "... (python)")."""
    if any(p not in text for p in patterns) and "'\"'\"'" not in text and "\\" not in text:
        return False  # quotes inside the quotes: 'cannot read property 'map' of undefined' (not the shell's '"'"')
    bare = [o for o in operands if re.fullmatch(r"[A-Za-z0-9_-]+", o)]
    if len(bare) > 2 or any(o.lower() in _PROSE for o in bare):
        return False
    return all(o in (".", "./") or "/" in o or re.fullmatch(r"[\w.*-]+", o) for o in operands)


class _UnreadableError(Exception):
    """The command asks something no search answers."""


def _extended(pattern: str) -> str:
    """grep's basic syntax as the extended syntax RE2 reads: ``\\|`` and ``\\(`` operators, ``|`` and ``(`` literal."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append(nxt if nxt in _BRE_SWAPPED else c + nxt)
            i += 2
            continue
        out.append("\\" + c if c in _BRE_SWAPPED else c)
        i += 1
    return "".join(out)


def _path(operand: str) -> str:
    """An operand as a repository path ("" for the whole repository: ``.``, ``./``)."""
    path = operand
    while path.startswith("./"):
        path = path[2:]
    return "" if path in ("", ".", "*", "**") else path.rstrip("/") + ("/" if path.endswith("/") else "")


def path_glob(c: Command) -> str:
    """The one glob the command's operands and included globs select ("" where they select everything)."""
    globbed = [p for p in c.paths if any(ch in p for ch in "*?[")]  # git grep's pathspecs: -- '*.py'
    if any(ch in p for p in c.paths for ch in "{},") or (globbed and len(c.paths) > 1):
        raise InvalidQuery(
            f"{c.tool}: the paths {' '.join(c.paths)} mix globs and folders: give folders and files, or one glob"
        )
    names = [g for g in (*c.include, *globbed) if "/" not in g]
    whole = [g for g in (*c.include, *globbed) if "/" in g]
    c = replace(c, paths=() if globbed else c.paths)
    if len(whole) > 1 or (whole and (names or c.paths)):
        given = [*c.include, *globbed, *c.paths]
        raise InvalidQuery(
            f"{c.tool}: {' '.join(given)} select files {len(given)} ways; "
            "a search takes one path filter: give one glob (-g 'src/**/*.py')"
        )
    if whole:
        return whole[0]
    if len(names) > 1 and not all(re.fullmatch(r"\*\.\w+", g) for g in names):
        raise InvalidQuery(f"{c.tool}: the globs {' '.join(names)} are several; give one (-g '*.{{py,pyi}}')")
    if not c.paths:
        return _alternatives(names)
    tails: list[str] = []
    for p in c.paths:
        folder = p.rstrip("/")
        if p.endswith("/") or "." not in folder.rsplit("/", 1)[-1]:  # a folder (or one written without its slash)
            tails.extend([f"{folder}/**/{n}" for n in names] if names else [f"{folder}/**"])
        if not p.endswith("/"):
            tails.append(folder)  # a file, or a folder written without its slash
    return _alternatives(tails)


def _alternatives(globs: list[str]) -> str:
    """One glob selecting what any of ``globs`` does (none holds braces)."""
    if len(globs) <= 1:
        return globs[0] if globs else ""
    exts = [g[2:] for g in globs if re.fullmatch(r"\*\.\w+", g)]
    if len(exts) == len(globs):
        return "*.{" + ",".join(exts) + "}"
    return "{" + ",".join(globs) + "}"


def apply(p: SearchParams, c: Command) -> tuple[SearchParams, str]:
    """``p`` asked as the command asks, and the note that says how it was read."""
    glob = path_glob(c)
    if glob and p.path_glob:
        raise InvalidQuery(
            f"the search filters paths 2 ways ({glob}, {p.path_glob}); a search takes one path filter: give one"
        )
    languages = tuple(sorted(set(c.languages) & set(p.languages))) if c.languages and p.languages else c.languages
    if c.not_languages:
        languages = tuple(sorted(set(languages or p.languages or KNOWN_LANGUAGES) - set(c.not_languages)))
    options = {**p.options, "mode": "regex" if c.regex else "literal"}
    if c.exclude:
        options = excluding(options, c.exclude)
    asked = replace(
        p,
        query=c.pattern,
        path_glob=glob or p.path_glob,
        languages=languages or p.languages,
        case_sensitive=c.case_sensitive or p.case_sensitive,
        options=options,
    )
    said = [f"{'regex' if c.regex else 'literal'} {c.pattern[:80]!r}"]
    if glob:
        said.append(f"in {glob}")
    if c.exclude:
        said.append(f"not in {', '.join(c.exclude)}")
    if c.languages or c.not_languages:
        said.append(f"{'/'.join(asked.languages)} files")
    if c.unread_types:
        said.append(f"every language (no language of fourfold's is the type {', '.join(c.unread_types)})")
    said.append("case respected" if asked.case_sensitive else "case ignored")
    return asked, f"read as the command {c.tool}: {' '.join(said[:-1])}, {said[-1]}"

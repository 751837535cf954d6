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

Context options (``-C 3``, ``-A 2``, ``-B 1``, grep's ``-3``) show the lines around each match in the hits' snippets
(``CONTEXT_OPTION``); other output options (``-n``, ``-l``, ``--color``) change nothing but what a pipe's grep sees.
A pipe into grep keeps the lines that grep keeps (``| grep -v _test``, ``| grep -i 'def '``: ``LINE_FILTERS_OPTION``),
each seen as the command printed it (``./path:line:text`` for ``grep -rn X .``, ``path:text`` for ``rg X``,
``line:text`` for one file, the path alone for ``rg -l X``; ``grep -c``'s counts no grep here reads); a pipe
that shows the lines another way (``| head``, ``| sort``, ``| wc -l``) changes nothing; any other (``| awk …``) is
left out, and the note says so. A command of another tool, several commands, or an inverted match (``-v``: the
lines that do not match) are not read.
``options["filters"] == "off"`` leaves the query as written. A command after ``cd DIR &&`` (or ``cd DIR;``) runs in
DIR: its relative paths are DIR's, no path is DIR itself, and a pipe's grep sees the paths as printed from there;
an absolute DIR (an agent's checkout, ``/home/me/gin/render``) is the index's folder that ends it, and where it
names a repository searched (``/home/me/gin``), the search is that repository's.

A command that lists files (``find . -name '*_test.go'``, ``fd -e py config``, ``git ls-files 'src/*'``,
``rg --files -g '*.md'``, ``tree -L 2 src/``) is the listing of those files by their paths (``mode=paths``);
``ls src/`` lists the files directly in it and names its folders (``FOLDERS_OPTION``); piped to greps
(``git ls-files | grep api``, ``find . -name '*.go' | grep -v _test``, ``find . -type d | grep api``), the paths
they keep, each as the tool printed it (``./`` where ``find .`` or ``rg --files .`` prints it); piped to
``xargs grep X`` (or running ``-exec grep X {} +``), that grep over the files listed. Case as the tool has it:
find's ``-iname`` and ``-ipath`` match either case (the glob's letters each a class of both), fd either case unless
the pattern holds a capital (``-s``, ``-i`` as fd reads them), and fd's ``-e`` extension in either case.
"""

from __future__ import annotations

import itertools
import json
import posixpath
import re
import shlex
from collections.abc import Callable, Iterable, Mapping
from contextvars import ContextVar
from dataclasses import dataclass, replace

from fourfold.api import SearchParams
from fourfold.coordinator import shell_words
from fourfold.coordinator.file_subject import checkout_name
from fourfold.coordinator.query_filters import language, narrowed
from fourfold.coordinator.tool_call import parse_call, written_as_call
from fourfold.errors import InvalidQuery
from fourfold.index.ingest.languages import KNOWN_LANGUAGES, detect_language
from fourfold.plugins.globs import GLOB_CHARS, any_case, excluding
from fourfold.plugins.types import (
    CONTEXT_OPTION,
    FOLDER_TREE_OPTION,
    FOLDERS_OPTION,
    HOLDING_OPTION,
    LINE_FILTERS_OPTION,
    MAX_CONTEXT_LINES,
    MAX_COUNT_OPTION,
    MULTILINE_OPTION,
    ORDER_OPTION,
    LineFilter,
)

__all__ = ["Command", "apply", "extended_syntax", "read", "split_cd", "without_redirections"]

# commands that list files by their paths; ``git ls-files`` and ``rg --files`` too
_FILE_TOOLS = frozenset({"find", "fd", "fdfind", "ls", "tree"})
# ls's options that change how it prints, not what it lists (``-R`` lists beneath too; ``-d`` the folder itself)
_LS_LETTERS = frozenset("lahRtSr1FGonsUXvcuABCkLpx")
_LS_LONG = frozenset(
    {"--all", "--almost-all", "--recursive", "--human-readable", "--classify", "--group-directories-first"}
)
# tree's options that change how it prints; -L, -I and -P take a value
_TREE_FLAGS = frozenset(
    {"-a", "-f", "-C", "-n", "-F", "-h", "-s", "-i", "-D", "-p", "-u", "-g", "-Q", "-N", "-v", "-t"}
)
_TREE_LONG = frozenset({"--noreport", "--dirsfirst", "--gitignore", "--filesfirst", "--du", "--prune"})

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
        "group-separator",
    }
)
#: rg's long options that take a value written after a space too (grep's ``--color`` takes one only after ``=``).
_RG_LONG_VALUE = frozenset(
    {"color", "context-separator", "path-separator", "engine", "pre-glob", "type-clear", "dfa-size-limit"}
    | {"regex-size-limit", "field-match-separator", "field-context-separator", "hyperlink-format"}
)
#: ag's and ack's long options that take a value written after a space too (``ag --ignore tests X``).
_AG_LONG_VALUE = frozenset(
    {"ignore", "ignore-dir", "noignore-dir", "depth", "path-to-ignore", "workers", "width", "pager"}
    | {"ignore-file", "type-set", "type-del"}
)
# words that make a trailing operand, or an unquoted pattern, a sentence's
_PROSE = frozenset(
    "a an and any all are asap but codebase every file files finds for here how in is it my now of on or our please "  # noqa: SIM905
    "pls project repo repository the this to what where which who why your".split()
)
# commands a listing's output may be piped to that show its lines another way: they leave the listing as it is
_SHOWING = frozenset({"head", "tail", "less", "more", "sort", "uniq", "wc", "cat", "column", "nl", "tee", "cut", "bat"})
#: POSIX bracket classes (``[[:space:]]``, as grep and RE2 read them) in the syntax Python's ``re`` reads
_POSIX_CLASSES = {
    "alnum": "a-zA-Z0-9",
    "alpha": "a-zA-Z",
    "blank": " \\t",
    "digit": "0-9",
    "lower": "a-z",
    "punct": "!-/:-@\\[-`{-~",
    "space": "\\s",
    "upper": "A-Z",
    "word": "\\w",
    "xdigit": "0-9A-Fa-f",
}


def _python_regex(pattern: str) -> str:
    """A regular expression as grep or RE2 writes it, as Python's ``re`` reads it: POSIX bracket classes
    (``[[:space:]]``) spelled out, which ``re`` would read as a nested set."""
    return re.sub(r"\[:([a-z]+):\]", lambda m: _POSIX_CLASSES.get(m[1], m[0]), pattern)


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
    #: "paths": the command lists files by their paths (``find``, ``fd``, ``git ls-files``; ``pattern`` a
    #: fragment of a path or ``*``), else their matching lines
    lists: str = "lines"
    #: the folder ``ls`` lists (``.``: the top): its own files, and its folders named (``FOLDERS_OPTION``)
    folder: str | None = None
    #: ``DEPTH:GLOB``: the folders beneath ``folder`` alone, as ``find -type d`` and ``tree -d`` list them
    #: (``FOLDER_TREE_OPTION``; depth 0: any, an empty glob: any name)
    tree: str | None = None
    #: an agent's tool call (``Grep(pattern=…)``), read as the command it runs
    called: bool = False
    #: the lines before and after each matching line the command prints (``-B``, ``-A``, ``-C``, ``-NUM``)
    context: tuple[int, int] = (0, 0)
    #: the greps its output is piped to (``| grep -v _test``), each keeping some of the lines
    then: tuple[LineFilter, ...] = ()
    #: the commands its output is piped to that no search runs (``| awk '{print $1}'``), said to be left out
    left_out: tuple[str, ...] = ()
    #: patterns a file must hold to be searched at all: ``grep -l X | xargs grep Y`` greps Y in the files holding X
    holding: tuple[LineFilter, ...] = ()
    #: the repository a ``cd`` to a checkout went into (``cd /home/me/gin && rg X``), its search kept to it
    repos: tuple[str, ...] = ()
    #: each file's first N matching lines (``-m N``, ``--max-count``; 0: all)
    max_count: int = 0
    #: the revision ``git grep X REV`` searches (``main``, ``v1.2``; "" for the one indexed, ``HEAD``)
    revision: str = ""
    #: find's tests of what the index does not keep (``-mtime -1``, ``-newer a.py``), left out
    untested: tuple[str, ...] = ()
    #: whether a listing lists symbolic links (``find -type f``, ``fd -t f`` and ``rg --files`` do not;
    #: ``LINKS_OPTION``): the files not indexed that its note names
    links: bool = True
    #: tests of a file's size each listed file must pass (``find:+100k``, ``find:empty``, ``fd:-1ki``; ``!`` after the
    #: colon turns one over), as :func:`size_test` reads them (``SIZE_OPTION``)
    sizes: tuple[str, ...] = ()
    #: whether a match may span lines: "on" (``rg -U``), "dotall" (``rg -U --multiline-dotall``), "" (each in a line)
    multiline: str = ""
    #: "matches": the files with most matching lines first (``grep -c X | sort -t: -k2 -rn``); "path": in the order of
    #: their paths (``rg --sort path``, ``rg -l X | sort``); "": ranked as usual (``ORDER_OPTION``)
    order: str = ""
    #: the first lines of its output a pipe keeps (``| head -20``; Claude Code's ``Grep(head_limit=20)``; 0: all),
    #: each a file where ``head_files`` (``rg -l``, ``grep -c``, ``find``), else a matching line
    head: int = 0
    head_files: bool = False
    #: each listed file's lines counted (``find … | xargs wc -l``): "total" where wc prints their sum after them (files
    #: given several at once: ``xargs``, ``-exec wc -l {} +``), "each" where it does not (``-exec wc -l {} \;``), ""
    #: where the files are not counted; ``order`` "lines": the longest first (``| sort -n | tail``, ``| sort -rn``)
    counts_lines: str = ""
    #: what wc counts of each file where ``counts_lines`` is set (``wc_counts``: "l" for ``wc -l``, "c" bytes, "lwc"
    #: wc's defaults), in the order it prints them
    counted: str = "l"
    #: the lines of its one file a command before it reads (``head -40 a.py | grep def``: (1, 40); ``tail -n 20``:
    #: (-20, 0); numbered as ``file_read.FileRead`` numbers them): a matching line outside them is not its; (1, 0): all
    within: tuple[int, int] = (1, 0)
    #: the last lines of its output a pipe keeps (``| xargs wc -l | tail -1``: wc's total), read where the files'
    #: lines are counted in the listing's order (0: none so kept)
    tail: int = 0
    #: whether it reads hidden files (a name starting with ``.``, or beneath such a folder): grep, git grep, ack and
    #: find do; rg, ag, fd, ls and tree skip them unless asked (``--hidden``, ``-uu``, ``ls -a``, ``tree -a``) or
    #: given a hidden folder
    hidden: bool = True
    #: why no search answers what it asks (``git ls-files --others``: the checkout's untracked files), said by
    #: :func:`apply` as a clear error; "" where a search does
    refused: str = ""

    @property
    def first_lines(self) -> int:
        """The matching lines its output is cut to (``rg -n X | head -20``: 20); 0 where no head cuts it, or where
        each line it prints is a file (``rg -l X | head -5`` keeps five files: ``k``)."""
        return 0 if self.head_files else self.head


def read(
    query: str,
    absolute: Callable[[str], str | None] | None = None,
    repos: Callable[[], Iterable[str]] = tuple,
    folder: Callable[[str], bool] | None = None,
) -> Command | None:
    """``query`` read as a grep-like command, or None where it is none (another tool's, several, no pattern).
    ``absolute``: the index's path an absolute folder or file operand names (``/home/me/api/src`` -> ``src``; None
    where it names none): agents write their checkout's paths, which the index does not know. ``repos``: the names
    of the repositories searched (``cd /home/me/api && rg X``: the repository ``api``, where it is one of them),
    asked only where an absolute ``cd`` is read. ``folder``: whether a repository path is a folder of the index, asked
    where an operand's last name holds a dot (``rg X vendor/github.com``: a folder, where ``a.py`` is a file) and where
    more than two bare words follow the pattern (``rg X src lib tests``: folders, not a sentence that goes on)."""
    token = _ABSOLUTE.set(absolute)
    named = _REPOS.set(repos)
    folders = _FOLDER.set(folder)
    try:
        return _read(query)
    finally:
        _ABSOLUTE.reset(token)
        _REPOS.reset(named)
        _FOLDER.reset(folders)


def _read(query: str) -> Command | None:
    text = query.strip()
    if written_as_call(text):
        return _from_call(text)
    if "\n" in text or not text:
        return None
    folder, after_cd = split_cd(text)
    if folder is not None:  # cd render && grep -rn X .: the command in that folder
        cwd, repo = _checkout(folder)
        token = _CWD.set(cwd or ".")
        try:
            found = _read(after_cd)
        finally:
            _CWD.reset(token)
        if found is None:
            return None
        return replace(found, tool=f"cd {folder} && {found.tool}", repos=(repo,) if repo else found.repos)
    listed = _substituted(text)
    if listed is not None:  # grep -n X $(find . -name '*.go'): find . -name '*.go' | xargs grep -n X
        return _of_listed(text, *listed)
    head, *after = re.split(r"\s\|\s", text, maxsplit=2)
    stages = [s.strip() for s in re.split(r"\s\|\s", text)][1:]  # each command the output goes through
    text, piped = head.strip(), after[0].strip() if after else ""  # the command the output goes to, if any
    # "| head" filters the output; "find . -name '*.go' | xargs grep X" searches the files find lists
    try:
        # "# want the declaration only": a comment; src/{a,b}.py: the two files, as the shell expands it
        words = shell_words.split(without_redirections(text), comments=True)
    except ValueError:
        return None
    first = words[0] if words else ""
    if first in ("search_dir", "search_file", "find_file") and not stages:
        return _swe_agent(words)
    if first == "ag" and "-g" in words:
        return _ag_listing(words, stages)
    if first in _FILE_TOOLS or words[:2] in (["git", "ls-files"], ["rg", "--files"]):
        listing = _files_command(words, piped, stages)
        if listing is None or listing.lists != "paths" or listing.folder is not None or listing.tree is not None:
            return listing  # ls, find -type d: names and folders, not a file a line
        if listing.counts_lines:  # | xargs wc -l | sort -n | tail -5: read with its sort
            return listing
        by_path = _sorts_paths(stages)  # find . -name '*.go' | sort: by path
        head = _head(stages, by_path)
        by_path = by_path or (bool(head) and listing.tool == "git ls-files")  # it prints in path order
        return replace(listing, head=head, head_files=True, order="path" if by_path else "")
    if first == "cat" and len(words) == 2 and piped.split()[:1] and piped.split()[0] in _TOOLS:
        rest = "".join(f" | {s}" for s in stages[1:])
        grep = _read(f"{piped} {shlex.quote(words[1])}{rest}")  # cat a.py | grep -n retry: that grep of a.py
        return None if grep is None else replace(grep, tool=f"cat | {grep.tool}")
    if first in _LINE_READERS and piped.split()[:1] and piped.split()[0] in _TOOLS:
        return _grep_of_lines(text, piped, stages[1:])  # head -40 a.py | grep -n def: that grep of its first 40
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
    around = [0, 0]  # context lines before, after

    printed: set[str] = set()  # the options that change how each line is printed: -n, -H, -h, -r
    perl = False  # -P: Perl's syntax, its lookaround and \K
    first_n = 0  # -m N: each file's first N matching lines
    depth = 0  # --max-depth N: files at most N folders down from each folder searched
    unrestricted = 0  # rg's -u: twice (-uu) reads hidden files
    anded: list[tuple[str, bool]] = []  # git grep -e A --and [--not] -e B: B on the same line (--not: not)
    file_regexes: list[str] = []  # ag -G REGEX: the files searched, by their paths
    spanning = {"U": False, "dotall": False}  # rg -U: matches across lines; --multiline-dotall: . matches newlines
    by_path = False  # rg --sort path: the files in the order of their paths
    if tool == "git grep" and set(words) & {"--and", "--not", "--or", "(", ")"}:
        words, conjuncts = _conjuncts(words)
        if conjuncts is None:
            return None  # --or, a group, or --not alone: not read
        anded.extend(conjuncts)

    added: dict[str, list[str]] = {}  # rg --type-add 'conf:*.{toml,cfg}': the types it names, by their globs
    for i, written in enumerate(words):
        defined = written.removeprefix("--type-add=") if written.startswith("--type-add=") else ""
        defined = (words[i + 1] if i + 1 < len(words) else "") if written == "--type-add" else defined
        kind, colon, type_glob = defined.partition(":")
        if colon and type_glob and not type_glob.startswith("include:") and tool == "rg":
            added.setdefault(kind, []).append(type_glob)

    def option(name: str, value: str | None) -> None:
        nonlocal fixed, extended, case, word, unrestricted, perl, first_n, depth, by_path
        if name in ("hidden", ".", "unrestricted") or (name == "u" and tool in ("rg", "ag")):
            unrestricted += 2 if name in ("hidden", ".") or tool == "ag" else 1  # rg's -u, --unrestricted: twice
        for flag, said in _PRINTED.items():
            if name in said and value is None and not (tool == "rg" and name in ("I", "L")):  # rg's -L: --follow
                printed.add(flag)
        if name in ("A", "after-context", "B", "before-context", "C", "context") and value is not None:
            if not re.fullmatch(r"[0-9]{1,6}", value):
                raise _UnreadableError  # grep -C x: the tool's own error, no listing
            for side in (0,) if name in ("B", "before-context") else (1,) if name in ("A", "after-context") else (0, 1):
                around[side] = int(value)
        elif name in ("m", "max-count") and value is not None:
            if not re.fullmatch(r"[0-9]{1,9}", value) or int(value) < 1:
                raise _UnreadableError  # -m 0, -m x: no line, or the tool's own error
            first_n = int(value)
        elif name in ("F", "fixed-strings", "Q", "literal"):
            fixed = True
        elif name in ("E", "extended-regexp", "P", "perl-regexp", "pcre2") and not (tool == "rg" and name == "E"):
            extended = True
            perl = perl or name in ("P", "perl-regexp", "pcre2")
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
        elif name in ("t", "type", "T", "type-not") and value in added:  # a type the command adds: its globs
            (include if name in ("t", "type") else exclude).extend(added[value])
        elif name in ("t", "type", "T", "type-not") and value is not None:
            read_languages = _type(value)
            if not read_languages:
                unread.append(value)
            (languages if name in ("t", "type") else not_languages).extend(read_languages)
        elif name in ("g", "glob", "iglob") and value is not None and tool == "rg":
            if value.startswith("!"):
                exclude.extend(_ignoring(value[1:]))  # -g '!tests': the folder and every file beneath it too
            else:
                include.append(value)
        elif name == "include" and value is not None:
            include.append(value)
        elif name == "exclude" and value is not None:
            exclude.append(value)
        elif name == "exclude-dir" and value is not None:
            exclude.append(f"**/{value.strip('/')}/**")
        elif name in ("ignore", "ignore-dir") and tool in ("ag", "ack") and value is not None:
            named = value.strip("/")  # ag --ignore tests: the files and folders of that name (a glob), wherever
            exclude.extend(
                [f"**/{named}", f"**/{named}/**"] if tool == "ag" or name == "ignore" else [f"**/{named}/**"]
            )
        elif (name in ("max-depth", "maxdepth") or (name == "d" and tool == "rg")) and value is not None:
            if not re.fullmatch(r"[0-9]{1,3}", value) or int(value) < 1:
                raise _UnreadableError  # --max-depth 0: the files named alone; x: the tool's own error
            depth = int(value)
        elif name in ("U", "multiline") and tool == "rg" and value is None:
            spanning["U"] = True
        elif name == "multiline-dotall" and tool == "rg" and value is None:
            spanning["dotall"] = True
        elif (name == "sort" and value == "path") or name == "sort-files":
            by_path = tool == "rg"  # rg --sort path (--sort-files): its files in the order of their paths
        elif name in ("G", "file-search-regex") and tool == "ag" and value is not None:
            file_regexes.append(value)  # the files whose paths it matches, as a glob once -i is known
        elif name in ("f", "file", "files", "pre", "G", "file-search-regex"):
            raise _UnreadableError  # patterns from a file, a file listing, a preprocessor: nothing a search reads
        elif tool in ("ag", "ack") and value is None and len(name) > 1 and _type(name.removeprefix("no")):
            # ag --go, ack --python: that language's files; ack --nopython: the others
            (not_languages if name.startswith("no") and _type(name[2:]) else languages).extend(
                _type(name.removeprefix("no"))
            )
        elif name in ("v", "invert-match"):
            raise _UnreadableError  # the lines that do not match: no listing a search makes

    i = 0
    try:
        while i < len(words):
            w = words[i]
            if w == "--":
                operands.extend(words[i + 1 :])
                break
            if w.startswith("--") and len(w) > 2:
                name, eq, value = w[2:].partition("=")
                valued = name in _LONG_VALUE or (tool == "rg" and name in _RG_LONG_VALUE)
                valued = valued or (tool in ("ag", "ack") and name in _AG_LONG_VALUE)
                if not eq and valued:
                    i += 1
                    value = words[i] if i < len(words) else ""
                option(name, value if (eq or valued) else None)
            elif re.fullmatch(r"-\d+", w):
                option("C", w[1:])  # grep -3: three lines of context
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
    revision = ""
    if tool == "git grep":  # -- ':!*_test.go': git's pathspecs that leave files out
        revision, operands = _revision(words, operands)
        operands, left_out_paths = _pathspecs(operands)
        exclude.extend(left_out_paths)
    if not _operands_read(text, patterns, operands):
        return None
    if len(patterns) > 1:  # -e a -e b: any of them
        pattern = "|".join(f"(?:{p if extended and not fixed else re.escape(p)})" for p in patterns)
        regex = True
    else:
        pattern = patterns[0]
        if not fixed and not extended:
            pattern = extended_syntax(pattern)
        literal = pattern if fixed else _as_literal(pattern)  # grep 'f(' reads as f\( : the literal it is
        regex = literal is None  # a bare "." too: "automatically." matches "automatically," as grep's does
        pattern = pattern if literal is None else literal
    if perl and regex:
        pattern = without_lookaround(pattern)
    if "" in patterns and not word:  # grep -c '' a.py: an empty pattern matches every line (its lines counted)
        pattern, regex = "^", True
    if word:
        pattern, regex = rf"\b(?:{pattern if regex else re.escape(pattern)})\b", True
    if regex:
        try:
            re.compile(_python_regex(pattern))  # RE2 reads POSIX classes, as grep does
        except re.error:
            pattern, regex = patterns[0], False
    sensitive = case == "yes" or (case == "smart" and any(c.isupper() for c in pattern))
    for file_regex in file_regexes:  # ag -G: smart case of its own, as ag reads it, unless -i or -s is given
        glob = regex_glob(file_regex)
        if glob is None:
            return None  # a regular expression no glob writes (\d, a quantifier): not read
        if glob and (case == "no" or (case == "smart" and file_regex == file_regex.lower())):
            glob = any_case(glob)
        include.extend([glob] if glob else [])
    paths = tuple(_at_top(p) for p in (_path(o) for o in operands or _here()) if p)
    if depth:  # --max-depth 1: no file in a folder beneath the folders searched
        exclude.extend(f"{p.rstrip('/') + '/' if p else ''}{'*/' * depth}**" for p in paths or ("",))
    both = tuple(_anded(a, invert, fixed, extended, sensitive) for a, invert in anded)
    found = Command(
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
        context=(around[0], around[1]),
        hidden=tool not in ("rg", "ag") or unrestricted >= 2 or _names_hidden(operands),
        max_count=first_n,
        revision=revision,
        multiline=("dotall" if spanning["dotall"] else "on") if spanning["U"] and regex else "",
    )
    counting = _counting(_after_xargs(stages[0])) if "l" in printed and stages else ""
    if "L" in printed or counting:  # grep -L X: the files that do not hold X, by their paths; -l X | xargs wc -l
        then, left_out = _piped_to([] if counting else stages, _printed_as(tool, printed | {"l"}, operands))
        if then is None:
            return None
        held = LineFilter(pattern, regex, sensitive, invert=not counting)
        holders = replace(
            found,
            pattern="*",
            regex=False,
            case_sensitive=False,
            unread_types=(),
            context=(0, 0),
            lists="paths",
            holding=(held,),
            then=then,
            left_out=left_out,
        )
        return (
            _lines_counted(holders, stages[1:], counting, _wc_letters(_after_xargs(stages[0]))) if counting else holders
        )
    if "l" in printed and stages and _after_xargs(stages[0]):  # grep -l X | xargs grep Y: Y in the files holding X
        prefix = "./" if _printed_as(tool, printed | {"l"}, operands).startswith("./") else ""
        return _in_files_holding(found, " | ".join([_after_xargs(stages[0]), *stages[1:]]), prefix)
    counted = "c" in printed and "l" not in printed  # grep -c: "path:count" lines, which no line of the files is
    per_file = None if counted or "l" in printed else _counted_per_file(stages)
    if per_file is not None:  # rg -n X | cut -d: -f1 | sort | uniq -c | sort -rn | head: the files using X most
        cut, kept = per_file
        then, _ = _piped_to(stages[:cut], _printed_as(tool, printed, operands, _FROM_XARGS.get()))
        if then is None:
            return None
        return replace(found, then=(*both, *then), order="matches", head=kept, head_files=True)
    then, left_out = _piped_to(stages, None if counted else _printed_as(tool, printed, operands, _FROM_XARGS.get()))
    if then is None:
        return None
    ordered = counted and _most_first(stages)
    files = "l" in printed or counted  # each line it prints a file
    by_path = not ordered and (by_path or (files and _sorts_paths(stages)))  # rg -l X | sort: by path
    head = _head(stages, ordered or by_path, tail_too=ordered) if found.context == (0, 0) else 0  # -C 3: context too
    by_path = by_path or (bool(head) and tool == "git grep" and not ordered)  # git grep prints in path order
    return replace(
        found,
        then=(*both, *then),
        left_out=left_out,
        order="matches" if ordered else "path" if by_path else "",
        head=head,
        head_files=files,
    )


#: Commands that read some of one file's lines (``head -40 a.py``, ``sed -n '10,80p' a.py``), as ``file_read`` reads
#: them.
_LINE_READERS = frozenset({"head", "tail", "sed", "awk"})


def _grep_of_lines(reading: str, piped: str, rest: list[str]) -> Command | None:
    """``head -40 a.py | grep -n def`` (``reading`` piped to a grep, then ``rest``): that grep of the file, kept to the
    lines the reading gives it (``within``); None where the reading is not a plain range of one file's lines."""
    from fourfold.coordinator import file_read  # it reads with this module's words: imported where used

    read_as = file_read.read(reading)
    if (
        read_as is None
        or read_as.several
        or read_as.called
        or read_as.revision
        or read_as.bytes
        or read_as.byte_from
        or read_as.marked
        or read_as.ranges
        or read_as.counted
        or read_as.then
    ):
        return None
    grep = _read(f"{piped} {shlex.quote(read_as.path)}" + "".join(f" | {s}" for s in rest))
    if grep is None or grep.lists != "lines" or grep.paths != (read_as.path,):
        return None
    return replace(grep, tool=f"{read_as.tool} | {grep.tool}", within=(read_as.first, read_as.last))


def _counting(run: str) -> str:
    """How ``run``, the command ``xargs`` or find's ``-exec`` runs on the listed files, counts their lines: "total"
    (``wc -l``: a file's count a line, and their sum after them), "each" (``wc -l {}``: each file alone, no sum), ""
    where it is no ``wc -l``."""
    try:
        words = shlex.split(run)
    except ValueError:
        return ""
    flags = {w for w in words[1:] if w != "{}"}
    if words[:1] != ["wc"] or wc_counts(flags) is None:
        return ""
    return "each" if "{}" in words else "total"


WC_NAMES = {"l": "lines", "w": "words", "m": "characters", "c": "bytes"}
_WC_FLAGS = {"-l": "l", "--lines": "l", "-w": "w", "--words": "w", "-m": "m", "--chars": "m", "-c": "c", "--bytes": "c"}


def _wc_letters(run: str) -> str:
    """What the wc command ``run`` counts (``wc_counts``), of a command ``_counting`` reads as wc."""
    return wc_counts(w for w in shlex.split(run)[1:] if w != "{}") or "l"


def wc_counts(flags: Iterable[str]) -> str | None:
    """What ``wc`` with ``flags`` counts, in the order it prints them: ``l`` lines (newlines), ``w`` words, ``m``
    characters, ``c`` bytes; ``lwc`` with none; None for a flag this does not read (``-L``)."""
    letters: set[str] = set()
    for flag in flags:
        if flag in _WC_FLAGS:
            letters.add(_WC_FLAGS[flag])
        elif re.fullmatch(r"-[lwmc]+", flag):
            letters.update(flag[1:])
        else:
            return None
    return "".join(c for c in "lwmc" if c in letters) or "lwc"


def wc_said(letters: str) -> str:
    """wc as the command that counts ``letters`` is written (``wc -l``, ``wc -lc``; ``wc`` for its defaults)."""
    return "wc" if letters == "lwc" else f"wc -{letters}"


def _lines_counted(listed: Command, stages: list[str], counting: str, letters: str = "l") -> Command:
    """The files ``listed``, each with its lines counted (``find . -name '*.py' | xargs wc -l``); piped (``stages``,
    after the count) to a numeric sort that puts the longest first (``| sort -n | tail -5``, ``| sort -rn | head``),
    those first, as many as the output's lines kept. Piped to any other command (``| awk '{s+=$1} END…'``), the counts
    alone, that command said to be left out."""
    tool = f"{listed.tool} | {wc_said(letters)}"
    if any(not (words := _stage_words(stage)) or words[0] not in _KEEPING for stage in stages):
        return replace(listed, tool=tool, counts_lines=counting, counted=letters, left_out=tuple(stages))
    longest = _most_first(stages)
    return replace(
        listed,
        tool=tool,
        counts_lines=counting,
        counted=letters,
        order="lines" if longest else "",
        head=_head(stages, longest, tail_too=longest),
        head_files=True,
        tail=0 if longest else _tail(stages),
    )


#: Commands a pipe's output may go through that show it as it is (a pager, cat).
_PAGERS = frozenset({"cat", "less", "more"})
#: Commands that order or cut the lines they are given, or show them as they are (``| sort -n | tail -5``).
_KEEPING = _PAGERS | {"sort", "head", "tail"}


def _paged_only(stages: list[str]) -> bool:
    """Whether each of ``stages`` shows the lines it is given as they are (``| less``, ``| cat``), none at all too."""
    return all((stage.split() or [""])[0] in _PAGERS for stage in stages)


def _tail(stages: list[str]) -> int:
    """The lines ``| tail -N`` keeps of a command's output where nothing before it reorders or cuts them (``| xargs
    wc -l | tail -1``: the total); 0 where there is no such tail."""
    for i, stage in enumerate(stages):
        words = _stage_words(stage) or [""]
        if words[0] in _PAGERS:
            continue
        if words[0] != "tail" or not _paged_only(stages[i + 1 :]):
            return 0
        counted = _head_count(words[1:])
        return counted if counted > 0 else 0
    return 0


#: A pipe's stage that keeps each printed line's path, as the shell splits it: ``cut -d: -f1`` (its options in either
#: order, spaced or not), ``awk -F: '{print $1}'``.
_DELIMITER, _FIELD = r"(?:-d ?:|--delimiter=:)", r"(?:-f ?1|--fields=1)"
_PATH_CUT = re.compile(rf"cut {_DELIMITER} {_FIELD}|cut {_FIELD} {_DELIMITER}|awk -F ?: \{{ ?print \$1;? ?\}}")


def _counted_per_file(stages: list[str]) -> tuple[int, int] | None:
    """Where a grep's lines are cut to their paths and counted per file, most first (``| cut -d: -f1 | sort | uniq -c
    | sort -rn | head -5``; ``awk -F: '{print $1}'`` cuts so too): the stage that cuts, and the files kept (0: all);
    None where they are not (greps of the lines may come before the cut)."""
    words = [_stage_words(stage) for stage in stages]
    cut = next((i for i, w in enumerate(words) if w and _PATH_CUT.fullmatch(" ".join(w))), -1)
    if cut < 0 or any(not w or w[0] not in _TOOLS for w in words[:cut]):
        return None
    rest = words[cut + 1 :]
    if len(rest) < 3 or (rest[0] or [""])[0] != "sort" or rest[1] != ["uniq", "-c"]:
        return None
    after = stages[cut + 3 :]
    if any((w or [""])[0] not in _KEEPING for w in rest[2:]):
        return None
    if not _most_first(after):
        return None
    return cut, _head(after, True, tail_too=True)


def _sorts_paths(stages: list[str]) -> bool:
    """Whether a listing's paths are piped through a plain ``sort`` (``-u`` at most), which prints them in the order
    of their paths, before any other command but greps of them."""
    for stage in stages:
        words = stage.split()
        if words[:1] == ["sort"]:
            return all(w in ("-u", "--unique") for w in words[1:])
        if not words or words[0] not in _TOOLS:
            return False
    return False


def _head(stages: list[str], ordered: bool, tail_too: bool = False) -> int:
    """The lines ``| head -N`` keeps of a command's output, where the pipe before it keeps the command's own order:
    only greps of its lines (``| grep -v _test | head -20``) or, where the counts are ranked (``ordered``), their
    sort; 0 where there is no such head (``| sort | head``, ``| head | grep``, ``| tail``). ``tail_too``: a ``tail
    -N`` keeps as many (the sort before it is read from its end: ``sort -n | tail -5``, the five largest)."""
    for i, stage in enumerate(stages):
        words = _stage_words(stage)
        if words is None:
            return 0
        if not words or words[0] in _TOOLS or (words[0] == "sort" and ordered):
            continue
        if words[0] not in ("head", "tail" if tail_too else "head") or not _paged_only(stages[i + 1 :]):
            return 0
        counted = _head_count(words[1:])
        return counted if counted > 0 else 0
    return 0


def _stage_words(stage: str) -> list[str] | None:
    """A pipe's stage as the shell splits it, its redirections left out (``grep -v x 2>/dev/null``); None where its
    quotes do not close."""
    try:
        return shlex.split(without_redirections(stage))
    except ValueError:
        return None


def _head_count(args: list[str]) -> int:
    """How many first lines ``head``'s arguments keep (``-n 20``, ``-20``, ``-n20``, ``--lines=20``; 10 unwritten);
    -1 where they keep something else (bytes, all but the last lines) or name a file."""
    if not args:
        return 10
    joined = " ".join(args)
    found = re.fullmatch(r"(?:-n\s*|--lines[= ]|-)(\d{1,6})", joined)
    return int(found[1]) if found else -1


#: sort's long options that order numerically or in reverse, as the letters of their short ones.
_SORT_LONG = {"--numeric-sort": "n", "--general-numeric-sort": "g", "--human-numeric-sort": "h", "--reverse": "r"}


def _most_first(stages: list[str]) -> bool:
    """Whether the commands ``grep -c``'s ``path:count`` lines are piped to show the largest counts first: a numeric
    sort in reverse (``sort -t: -k2 -rn``, ``sort -t : -k 2,2nr``), or a numeric sort read from its end (``sort -t:
    -k2 -n | tail``)."""
    for i, stage in enumerate(stages):
        words = _stage_words(stage)
        if words is None:
            return False
        if not words or words[0] != "sort":
            continue
        flags = "".join(w.lstrip("-") for w in words[1:] if re.fullmatch(r"-[a-zA-Z]+", w))  # -rn, -t, -k
        keys = "".join(re.sub(r"[\d,.]", "", k) for k in re.findall(r"(?:(?<!\S)-k\s*|--key=)(\S+)", " ".join(words)))
        said = flags + keys + "".join(_SORT_LONG.get(w, "") for w in words)  # -k2,2nr: the key's own n and r
        numeric = any(c in said for c in "ngh")
        reverse = "r" in said
        tailed = any((later.split() or [""])[0] == "tail" for later in stages[i + 1 :])
        return numeric and reverse != tailed
    return False


# a grep's options that change how it prints each line, by the letter they are read as
_PRINTED = {
    "n": ("n", "line-number"),
    "H": ("H", "with-filename"),
    "h": ("h", "no-filename", "I"),
    "r": ("r", "R", "recursive", "dereference-recursive"),
    "l": ("l", "files-with-matches"),
    "L": ("L", "files-without-match"),
    "c": ("c", "count", "count-matches"),
}


#: A command's output substituted as words: ``$(find . -name '*.go')``, `` `git ls-files` ``.
_SUBSTITUTED = re.compile(r"\$\((?P<inner>[^()`$]+)\)|`(?P<quoted>[^`$]+)`")


def _substituted(text: str) -> tuple[int, int, str] | None:
    """Where the first command substitution outside single quotes (``$(…)``, `` `…` ``; a double quote substitutes
    too) begins and ends in ``text``, and the command it runs; None where there is none (``rg '$(pwd)'``: a
    pattern)."""
    quoted = False
    for i, c in enumerate(text):
        if c == "'":
            quoted = not quoted
        elif not quoted and c in "$`":
            found = _SUBSTITUTED.match(text, i)
            if found is not None:
                return found.start(), found.end(), (found["inner"] or found["quoted"]).strip()
    return None


def _of_listed(text: str, start: int, end: int, inner: str) -> Command | None:
    """A grep whose files are a listing's output (``grep -n X $(git ls-files '*.py') | grep -v test``), read as the
    listing piped to ``xargs`` grep, as the shell runs it; None where the substitution is not one listing's, in the
    first command."""
    before, after = text[:start], text[end:]
    command_rest, *piped = re.split(r"\s\|\s", after, maxsplit=1)
    if re.search(r"\s\|\s", before) or _substituted(after) is not None or not inner:
        return None
    found = _read(f"{inner} | xargs {before.strip()} {command_rest.strip()}" + "".join(f" | {p}" for p in piped))
    return None if found is None or (found.lists != "lines" and not found.counts_lines) else found


def _swe_agent(words: list[str]) -> Command | None:
    """SWE-agent's search commands as the shell commands they run: ``search_dir TERM [DIR]`` (``grep -rnI -- TERM
    DIR``), ``search_file TERM FILE`` (``grep -n -- TERM FILE``) and ``find_file NAME [DIR]`` (``find DIR -type f
    -name NAME``)."""
    tool, args = words[0], words[1:]
    if not 1 <= len(args) <= 2 or args[0].startswith("-") or (tool == "search_file" and len(args) != 2):
        return None
    where = args[1] if len(args) == 2 else "."
    if tool == "find_file":
        command = ["find", where, "-type", "f", "-name", args[0]]
    else:
        command = ["grep", "-rnI" if tool == "search_dir" else "-n", "--", args[0], where]
    found = _read(shlex.join(command))
    return None if found is None else replace(found, tool=tool)


def _conjuncts(words: list[str]) -> tuple[list[str], list[tuple[str, bool]] | None]:
    """git grep's words without the patterns ``--and`` joins to the first (``-e A --and -e B --and --not -e C``), and
    those patterns, each with whether ``--not`` turns it over (``--or`` alone: none, the patterns' either); None for
    ``--or`` beside ``--and``, a group or a ``--not`` of the first pattern (``-e A --not -e B`` is A or not B), which no
    listing here reads."""
    if "--or" in words and not set(words) & {"--and", "--not", "(", ")"}:
        return [w for w in words if w != "--or"], []  # -e A --or -e B: either, as -e A -e B
    if set(words) & {"--or", "(", ")"}:
        return words, None
    kept: list[str] = []
    anded: list[tuple[str, bool]] = []
    i = 0
    while i < len(words):
        if words[i] == "--and":
            invert = words[i + 1 : i + 2] == ["--not"]
            i += 2 if invert else 1
            if words[i : i + 1] != ["-e"] or i + 1 >= len(words) or "-e" not in kept:
                return words, None
            anded.append((words[i + 1], invert))
            i += 2
            continue
        if words[i] == "--not":
            return words, None
        kept.append(words[i])
        i += 1
    return kept, anded


def _anded(pattern: str, invert: bool, fixed: bool, extended: bool, sensitive: bool) -> LineFilter:
    """A pattern ``git grep --and`` joins to the first: a test of each matching line's text, as the first is read."""
    if not fixed and not extended:
        pattern = extended_syntax(pattern)
    literal = pattern if fixed else _as_literal(pattern)
    return LineFilter(literal or pattern, literal is None, sensitive, invert, shown="text")


#: What names a revision among git grep's operands, not a path: ``HEAD~2``, a commit's hash, a tag, a remote's
#: branch, and the usual names of a repository's main branch.
_REVISION = re.compile(
    r"(?:HEAD|@|FETCH_HEAD|ORIG_HEAD)(?:[~^]\d*|@\{[^}]*\})*|[0-9a-f]{7,40}|(?:origin|upstream|refs)/[\w./-]+"
    r"|v?\d+\.\d+(?:\.\d+)?[\w.-]*|main|master|develop|trunk"
)


def _revision(words: list[str], operands: list[str]) -> tuple[str, list[str]]:
    """The revision ``git grep X REV [-- PATH]`` searches ("" for the one indexed: ``HEAD``, or none written), and the
    operands left: its first operand before ``--``, where it names a revision (:data:`_REVISION`) and no folder or file
    of the index (where the reader was given a way to find one: ``read(…, absolute=…)``) unless ``--`` follows it."""
    before = len(operands) - (len(words) - words.index("--") - 1 if "--" in words else 0)
    if before < 1 or _REVISION.fullmatch(operands[0]) is None:
        return "", operands
    if "--" not in words and _held(operands[0].rstrip("/")):  # a folder main/: a path, as git reads it
        return "", operands
    rest = operands[1:]
    return ("" if re.fullmatch(r"HEAD|@", operands[0]) else operands[0]), rest


def _in_files_holding(listed: Command, command: str, prefix: str) -> Command | None:
    """The grep ``command`` that ``xargs`` runs on the files ``listed`` (a ``grep -l``, which printed each path after
    ``prefix``: ``./`` or "") names: its lines in the files of ``listed``'s scope that hold its pattern; None where it
    is no grep of those files alone."""
    searched = _of_files(command, prefix)
    if searched is None or searched.lists != "lines" or searched.paths or searched.include or searched.languages:
        return None
    holds = LineFilter(listed.pattern, listed.regex, listed.case_sensitive)
    return replace(
        searched,
        tool=f"{listed.tool} -l | xargs {searched.tool}",
        languages=listed.languages,
        not_languages=listed.not_languages,
        paths=listed.paths,
        include=listed.include,
        exclude=(*listed.exclude, *searched.exclude),
        holding=(holds, *searched.holding),
        hidden=listed.hidden,
    )


def _printed_as(tool: str, printed: set[str], operands: list[str], listed: str | None = None) -> str:
    """How the command prints each matching line to a pipe (``LineFilter.shown``): ``path:line:text`` as ``grep -rn``
    does, ``./path`` where the folder searched is ``.``, without the line's number unless ``-n`` (ag and ack print
    it), without the path where one file is searched (grep without ``-r``: one operand) or ``-h`` says so; the path
    alone where ``-l`` lists the matching files.
    ``listed``: where ``xargs`` names the files, several of them, what their paths begin with as the listing printed
    them (``./`` after ``find .``, else ""); None where it names none."""
    several = listed is not None
    dotted = "./" if tool != "git grep" and any(o in (".", "./") for o in operands) else ""  # grep -r X . prints ./
    dotted = listed if listed is not None else dotted
    if "l" in printed:  # grep -l: each matching file's path, alone
        return f"{dotted}path"
    numbered = "n" in printed or tool in ("ag", "ack")
    one_file = len(operands) == 1 and operands[0] not in (".", "./") and "." in operands[0].rsplit("/", 1)[-1]
    one_file = one_file and not _path(operands[0]).endswith("/")  # rg X v1.2: a folder of the index, its paths printed
    if tool == "grep" and "r" not in printed:
        one_file = len(operands) <= 1
    one_file = one_file and not several
    with_path = "H" in printed or not ("h" in printed or one_file)
    return ":".join([*([f"{dotted}path"] if with_path else []), *(["line"] if numbered else []), "text"])


def without_redirections(command: str) -> str:
    """``command`` without the shell's redirections outside its quotes (``2>/dev/null``, ``2>&1``, ``> out.txt``,
    ``< in``), which say where its output goes, not what it reads; a quoted ``">"`` is a pattern and stays."""
    out: list[str] = []
    quote = ""
    i = 0
    while i < len(command):
        c = command[i]
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c == "\\":
            out.append(command[i : i + 2])
            i += 2
            continue
        else:
            m = _REDIRECTION.match(command, i)
            if m is not None and (i == 0 or command[i - 1].isspace()):
                i = m.end()
                continue
        out.append(c)
        i += 1
    return "".join(out)


#: A redirection and its target: ``2>/dev/null``, ``>> log``, ``2>&1``, ``&>out``, ``< in.txt``.
_REDIRECTION = re.compile(r"\d*(?:>>?|&>|<)(?:&[\d-]|\s*[^\s|;&<>'\"]+)")


def _names_hidden(operands: list[str]) -> bool:
    """Whether an operand names a hidden file or folder (``.github/``), which a tool that skips them still reads."""
    return any(part.startswith(".") and part not in (".", "..") for o in operands for part in o.split("/"))


#: The files a tool that skips hidden ones leaves out: a name starting with ``.``, or beneath such a folder.
HIDDEN_GLOBS = (".*", "**/.*/**")


def _piped_to(stages: list[str], shown: str | None) -> tuple[tuple[LineFilter, ...] | None, tuple[str, ...]]:
    """The greps a listing's output is piped to, as the lines each keeps (``| grep -v _test``, ``| grep -i
    'def '``), and the other commands no search runs (``| awk …``), which are left out; the commands that show
    the lines some other way (``| head -20``, ``| sort``, ``| wc -l``) change nothing. None where a pipe's grep
    cannot be read (a regular expression that does not compile, patterns from a file). ``shown`` None: the output
    is no line a filter here sees (``grep -c``'s counts), so a grep of it is left out too."""
    then: list[LineFilter] = []
    left_out: list[str] = []
    for stage in stages:
        words = _stage_words(stage)
        if words is None:
            return None, ()
        if not words or words[0] in _SHOWING:
            continue
        if shown is None and _drops_zero_counts(words):
            continue  # grep -c X | grep -v ':0$': the files with no match, which no answer lists
        if words[0] not in _TOOLS or shown is None:
            left_out.append(stage)
            continue
        words, invert = _without_invert(words)
        flags, operands = [w for w in words[1:] if w.startswith("-")], [w for w in words[1:] if not w.startswith("-")]
        if len(operands) == 1 and not any(f in ("-e", "--regexp") or f.startswith("--regexp=") for f in flags):
            words = [words[0], *flags, "-e", operands[0]]  # | grep -v a: the pattern, however prose-like its word
        grep = _read_stage(shlex.join(words))
        if grep is None:
            return None, ()
        if grep.paths or grep.include or grep.languages or grep.not_languages or grep.lists != "lines":
            left_out.append(stage)  # a grep of files of its own, not of the output
            continue
        then.extend((*grep.then, LineFilter(grep.pattern, grep.regex, grep.case_sensitive, invert, shown, _under())))
    return tuple(then), tuple(left_out)


#: An awk program that keeps the ``path:count`` lines of ``grep -c`` whose count is not 0 (``$2>0``, ``$NF != 0``).
_NONZERO_AWK = re.compile(r'\s*\$(?:2|NF)\s*(?:>|!=)\s*"?0"?\s*(?:\{\s*print(?:\s+\$0)?\s*;?\s*\})?\s*')


def _drops_zero_counts(words: list[str]) -> bool:
    """Whether a command piped after ``grep -c`` drops just the files counted 0 (``grep -v ':0$'``,
    ``awk -F: '$2>0'``)."""
    if words[0] == "awk":
        separated = (words[1:2] == ["-F:"] and len(words) == 3) or (words[1:3] == ["-F", ":"] and len(words) == 4)
        return separated and _NONZERO_AWK.fullmatch(words[-1]) is not None
    if words[0] not in _TOOLS:
        return False
    rest, invert = _without_invert(words)
    patterns = [w for w in rest[1:] if w not in ("-e", "-E", "--regexp")]
    return invert and len(patterns) == 1 and patterns[0] in (":0$", ":0", "^0$", ":0\\b")


def _without_invert(words: list[str]) -> tuple[list[str], bool]:
    """A grep's words without ``-v`` (``-vi``, ``--invert-match``), and whether it was there."""
    out, invert = [words[0]], False
    for w in words[1:]:
        if w == "--invert-match":
            invert = True
        elif re.fullmatch(r"-[a-uw-zA-Z]*v[a-zA-Z]*", w):
            invert = True
            if len(w) > 2:
                out.append(w.replace("v", "", 1))
        else:
            out.append(w)
    return out, invert


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
    folder = _FOLDER.get()
    if len(bare) > 2 and folder is not None:  # rg -l X coordinator plugins index: folders of the index are paths
        bare = [o for o in bare if not folder(_path(o))]
    if len(bare) > 2 or any(o.lower() in _PROSE for o in bare):
        return False
    return all(o in (".", "./") or "/" in o or re.fullmatch(r"[\w.*-]+", o) for o in operands)


def _files_command(words: list[str], piped: str, stages: list[str]) -> Command | None:
    """``find``, ``fd``, ``git ls-files`` or ``rg --files`` read as the files it lists, or, piped to ``xargs grep``
    (or running ``-exec grep``), as that grep over those files; piped to greps (``stages``: ``| grep -v _test``),
    the paths they keep; None where it asks what no search answers (a test of size or time, several names that
    must all match)."""
    grep = ""
    if words[0] == "find":
        read_find = _find(words[1:])
        if read_find is None:
            return None
        found, grep = read_find
        if found.refused:  # an expression not read: refused, whatever it is piped to
            return found
    elif words[0] == "ls":
        typed = _ls_typed(words[1:], stages)
        if typed is not None:  # ls -l | grep '^d': its folders, by the first letter of each long line
            return typed
        ls = _ls(words[1:])
        if ls is None:
            return None
        found = ls
    elif words[0] == "tree":
        tree = _tree(words[1:])
        if tree is None:
            return None
        found = tree
    elif words[0] in ("fd", "fdfind"):
        executed = _fd_exec(words[1:])
        fd = None if executed is None else _fd(executed[0])
        if fd is None or executed is None:
            return None
        found, grep = fd, executed[1]
    elif words[0] == "git":
        if _prose(words[2:]):
            return None
        written, left_out_paths = _pathspecs([w for w in words[2:] if not w.startswith("-")])
        pathspecs = tuple(p for p in (_path(w) for w in written or _here()) if p)
        option = next((w for w in words[2:] if w in _CHECKOUT_STATE), "")
        found = Command(
            "git ls-files",
            "*",
            False,
            False,
            paths=pathspecs,
            exclude=tuple(left_out_paths),
            lists="paths",
            refused=f"git ls-files {option} lists the checkout's {_CHECKOUT_STATE[option]} files, which only git in "
            f"the checkout knows; the index holds the repository's files as indexed: run it in the checkout, or leave "
            f"{option} out to list those"
            if option
            else "",
        )
    else:  # rg --files [PATH…] [-g GLOB] [-t TYPE]: the files rg would search
        listed = _read(shlex.join(["rg", "-e", "x", *(w for w in words[1:] if w != "--files")]))
        if listed is None:
            return None
        found = replace(
            listed, tool="rg --files", pattern="*", regex=False, case_sensitive=False, lists="paths", links=False
        )
    shown = _listed_as(words)
    if found.tree is not None and (grep or piped.startswith("xargs") or (shown is None and _greps(stages))):
        return None  # folders a command is run on, or listed as a grep cannot read them (tree's drawing): not read
    if not grep and piped.startswith("while"):  # | while read f; do grep -n X "$f"; done: grep of each file alone
        grep = _while_read(piped)
        if not grep:
            return None
    if not grep and piped.startswith("xargs"):
        grep = _after_xargs(piped, each=True)
        if not grep:
            return None  # xargs placing the files itself in a word of its own ({}.bak): not read
    if not grep:
        return _paths_grepped(found, stages, shown)
    counting = _counting(grep)
    if counting:  # | xargs wc -l, -exec wc -l {} +: each file's lines counted, perhaps sorted by them
        rest = stages[1:] if piped.startswith(("xargs", "while")) else stages
        return _lines_counted(found, rest, counting, _wc_letters(grep))
    if grep.split()[0] not in (*_TOOLS, "git"):
        return found  # -exec ls -l {} +, xargs cat: what it runs on is the files listed
    run = shlex.split(grep)
    each = "{}" in run  # find -exec grep -n X {} \;: grep of each file alone, which prints no path
    rest = stages[1:] if piped.startswith(("xargs", "while")) else stages  # | grep -v _test after it: of its lines
    prefix = None if each else "./" if (shown or "").startswith("./") else ""
    searched = _of_files(" | ".join([shlex.join(w for w in run if w != "{}"), *rest]), prefix)
    if searched is None or searched.lists != "lines" or searched.paths or searched.include:
        return None  # another command, or a grep naming files of its own besides those listed
    return replace(
        searched,
        tool=f"{found.tool} | {searched.tool}",
        paths=found.paths,
        include=found.include,
        exclude=(*found.exclude, *searched.exclude),
        then=(*found.then, *searched.then),  # find's -path tests: of each line's path
        hidden=found.hidden,  # the files listed are searched, hidden or not
        untested=found.untested,
    )


#: Agents' search tools, by name, and the command each is read as (``Grep``, ``Glob`` and ``LS`` as coding agents
#: call them; ``search_dir``, ``search_file`` and ``find_file`` as SWE-agent does).
_GREP_CALLS = frozenset(
    {"grep", "rg", "ripgrep", "grep_search", "search_dir", "search_file", "search_files", "search_file_content"}
)
_GLOB_CALLS = frozenset(
    {"glob", "glob_search", "file_search", "file_glob_search", "find_file", "find_files", "find_by_name"}
)
_LS_CALLS = frozenset({"ls", "list_dir", "list_directory", "list_files", "listdir"})


def _from_call(text: str) -> Command | None:
    """An agent's search tool called as the query (``Grep(pattern="retry", path="src", glob="*.py", -i=true)``,
    ``{"tool": "glob", "pattern": "**/*_test.go"}``, ``LS(path="src")``), read as the command it runs."""
    parsed = parse_call(text, any_case=True)  # Grep(...), LS(...) as coding agents name them
    if parsed is None:
        return None
    tool, written, subject = parsed
    name = tool.rsplit(".", 1)[-1].lower().removeprefix("builtin_")  # Continue's builtin_grep_search, builtin_ls
    args = {snake_case(k): v for k, v in written.items()}  # Windsurf's SearchPath, Includes: search_path, includes

    def arg(*keys: str) -> str:
        for k in keys:
            value = args.get(k)
            if isinstance(value, list) and value and all(isinstance(v, str) for v in value):
                return "[" + ",".join(value) + "]"  # JSON's list of globs: one_glob reads it
            if isinstance(value, str) and value.strip():
                return value.strip()
        return ""

    def said(key: str) -> bool:
        return args.get(key) is True or str(args.get(key, "")).lower() in ("true", "1", "yes")

    path = arg("path", "dir", "directory", "dir_path", "target_directory", "relative_workspace_path", "file")
    path = path or arg("search_path", "search_directory", "absolute_path")
    if name in _GREP_CALLS:
        pattern = arg("pattern", "search_term", "query", "regex") or subject
        glob = arg("glob", "include", "includes", "file_pattern", "include_pattern")
        glob = one_glob(glob)
        types = arg("type", "file_type")
        left_out = arg("exclude", "exclude_pattern")  # Cursor's grep_search: the files it leaves out
        insensitive = (
            said("-i")
            or said("i")
            or said("case_insensitive")
            or said("ignore_case")
            or str(args.get("case_sensitive", "")).lower() in ("false", "0", "no")  # Cursor's case_sensitive=false
        )
        # SWE-agent's searches are literal, Cline's search_files a regex; Windsurf's grep_search (its arguments
        # capitalized: SearchPath, Query) literal unless IsRegex, Copilot's (camelCase) unless isRegexp
        windsurf = any(k[:1].isupper() for k in written)
        literal_flags = said("fixed_strings") or said("-F") or said("F") or said("literal")
        copilot = "isRegexp" in written or "includePattern" in written  # Copilot's grep_search: literal unless isRegexp
        regex_flag = said("is_regex") if "is_regex" in args else said("is_regexp") if copilot else not windsurf
        fixed = name in ("search_dir", "search_file") or literal_flags or not regex_flag
        spanning = ["-U", "--multiline-dotall"] if said("multiline") or said("-U") else []  # as Claude Code's Grep
        # an agent's tool: its own defaults, unknown here; hidden files are searched rather than silently skipped
        words = ["rg", "--hidden", *(["-i"] if insensitive else []), *(["-F"] if fixed else []), *spanning]
        words += [*(["-g", glob] if glob else []), *(["-g", f"!{left_out}"] if left_out else [])]
        words += [*(["-t", types] if types else []), "-e", pattern]
        for flag in "ABC":  # context lines: {"-C": 3} as JSON has it, Grep(…, -C=3) read as C
            lines = args.get(f"-{flag}", args.get(flag))
            if isinstance(lines, int | str) and not isinstance(lines, bool) and str(lines).strip():
                words += [f"-{flag}", str(lines).strip()]
        command = _read(shlex.join([*words, path] if path else words)) if pattern else None
        limit = str(args.get("head_limit", "")).strip()  # Claude Code's Grep: its output's first N entries
        if command is not None and limit.isdigit() and int(limit) > 0 and command.context == (0, 0):
            lines = str(args.get("output_mode", "")).strip() == "content"  # else files (its default) or counts
            command = replace(command, head=min(int(limit), 1_000_000), head_files=not lines)
    elif name == "find_by_name" and not said("full_path"):  # Windsurf's: fd's name glob, its options as fd's
        command = _read(shlex.join(_fd_words(arg("pattern", "query") or subject, path, args)))
    elif name in _GLOB_CALLS:
        pattern = arg("pattern", "glob", "file_name", "name", "query") or subject
        if name == "find_file" and pattern and not any(ch in pattern for ch in "*?["):
            pattern = f"**/{pattern}"  # a file's name, in any folder
        elif name == "find_by_name" and pattern and "/" not in pattern:
            pattern = f"**/{pattern}"  # Windsurf's: fd's name glob, at any depth
        elif name == "file_search" and pattern and not any(ch in pattern for ch in GLOB_CHARS):
            pattern = f"**/*{pattern.strip('/')}*"  # Cursor's: a fragment of the path (its match is fuzzy)
        folder = _path(path) if path else ""
        if folder:  # the pattern beneath the folder: one glob
            pattern = f"{folder.rstrip('/')}/{pattern.removeprefix('./')}"
        command = _read(shlex.join(["rg", "--files", "--hidden", "-g", pattern])) if pattern else None
    elif name in _LS_CALLS:
        folder = path or subject
        command = _read(shlex.join(["ls", "-A", *(["-R"] if said("recursive") else []), *([folder] if folder else [])]))
        ignored = args.get("ignore")  # Claude Code's LS and Gemini CLI's list_directory: globs of names left out
        names = [ignored] if isinstance(ignored, str) else ignored if isinstance(ignored, list) else []
        globs = [g.strip() for g in names if isinstance(g, str) and g.strip()]
        if command is not None and globs:
            unlisted = [f for g in globs for f in ([g, f"**/{g}/**"] if "/" not in g else [g])]
            command = replace(command, exclude=(*command.exclude, *unlisted))
    else:
        return None
    return None if command is None else replace(command, tool=tool, called=True)


def _fd_words(pattern: str, path: str, args: Mapping[str, object]) -> list[str]:
    """Windsurf's ``find_by_name(SearchDirectory, Pattern, Excludes, Type, MaxDepth, Extensions)`` as the fd command
    it runs (its arguments snake-cased): a glob of names, hidden files too."""

    def strings(key: str) -> list[str]:
        value = args.get(key)
        items = value if isinstance(value, list) else [value] if isinstance(value, str) else []
        return [v.strip() for v in items if isinstance(v, str) and v.strip()]

    words = ["fd", "--hidden", "-g", pattern or "*"]
    words += [w for glob in strings("excludes") for w in ("-E", glob)]
    words += [w for ext in strings("extensions") for w in ("-e", ext.lstrip("."))]
    kind = str(args.get("type", "")).strip().lower()
    words += ["-t", "d"] if kind in ("directory", "d") else ["-t", "f"] if kind in ("file", "f") else []
    depth = args.get("max_depth")
    if isinstance(depth, int | str) and not isinstance(depth, bool) and str(depth).strip().isdigit():
        words += ["-d", str(depth).strip()]
    return [*words, path] if path else words


def snake_case(key: str) -> str:
    """A call's argument named as the readers look it up: ``SearchPath`` -> ``search_path``, ``startLine`` ->
    ``start_line``; a flag (``-C``, ``F``) as written."""
    if len(key) < 2 or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", key):
        return key  # -C, -i, F: a flag, as written
    return re.sub(r"(?<=[a-z0-9])([A-Z])", r"_\1", key).lower()


def one_glob(value: str) -> str:
    """A call's glob argument as one glob: a list written as its value (``["*.go", "*.py"]``) as the alternatives."""
    if not value.startswith("["):
        return value
    globs = [g.strip().strip("'\"") for g in value.strip("[]").split(",") if g.strip().strip("'\"")]
    return globs[0] if len(globs) == 1 else "{" + ",".join(globs) + "}" if globs else ""


def _paths_grepped(found: Command, stages: list[str], shown: str | None) -> Command | None:
    """The listing ``found`` with the paths the greps it is piped to keep: one plain grep (``git ls-files | grep
    test``) a fragment of the path, which ranks the files it names first; any other (``| grep -v _test``,
    ``| grep -E 'go$'``, several) a filter of each path as the tool printed it (``shown``; ``LINE_FILTERS_OPTION``).
    None where a grep cannot be read, or reads a listing that prints no paths (``ls``'s names); ``found`` where no
    grep reads it (``| head``)."""
    greps = [stage for stage in stages if _greps([stage])]
    if not greps:
        _, left_out = _piped_to(stages, "path")
        return replace(found, left_out=left_out)  # | head, | sort: the listing; | awk …: left out, and said
    if (
        len(greps) == 1
        and found.tree is None
        and shown != "name"  # ls prints names: a fragment of the whole path is not what the grep sees
        and not _under()  # after cd, the paths are printed from there: a fragment of the whole path is not seen
        and all(_shows(stage) for stage in stages if stage not in greps)
    ):
        kept = _read_stage(greps[0])
        if kept is not None and not (kept.regex or kept.paths or kept.include or kept.then or kept.lists != "lines"):
            return replace(
                found, tool=f"{found.tool} | {kept.tool}", pattern=kept.pattern, case_sensitive=kept.case_sensitive
            )
    if shown is None:
        return None
    then, left_out = _piped_to(stages, shown)
    return None if then is None else replace(found, then=(*found.then, *then), left_out=left_out)


def _greps(stages: list[str]) -> bool:
    """Whether a grep reads a listing's output (``| grep -v _test``, ``| rg -i api``…)."""
    return any((stage.split() or [""])[0] in _TOOLS for stage in stages)


def _shows(stage: str) -> bool:
    """Whether a pipe's command shows the lines another way, keeping them all (``| head``, ``| sort``)."""
    return (stage.split() or [""])[0] in _SHOWING


def _listed_as(words: list[str]) -> str | None:
    """How a command that lists files prints each path to a pipe (``LineFilter.shown``): ``./path`` where it is
    given ``.`` or a ``./`` folder (find with no folder too), else ``path``; ``name`` for ``ls`` of a folder (each
    file's and folder's name); None for ``tree``, whose drawing no grep here reads."""
    tool, args = words[0], words[1:]
    if tool == "find":
        return _find_prints(list(itertools.takewhile(lambda a: not a.startswith(("-", "!", "(")), args)))
    if tool in ("fd", "fdfind", "rg"):  # fd (8.5 on) and rg print ./ only where the search path is written so
        dotted = any(a in (".", "./") or a.startswith("./") for a in args[1 if tool != "rg" else 0 :])
    elif tool == "git":
        dotted = False
    elif tool == "ls":  # a folder's names, or the paths a shell's glob (or a file) names
        operands = [a for a in args if not a.startswith("-")]
        named = any(any(ch in a for ch in "*?[") or "." in a.rsplit("/", 1)[-1].strip(".") for a in operands)
        return "path" if named else "name"
    else:
        return None
    return "./path" if dotted else "path"


_FIND_NAMES = frozenset({"-name", "-iname"})
_FIND_PATHS = frozenset({"-path", "-ipath", "-wholename", "-iwholename"})
#: find's tests of a file's time, size, owner or mode, which the index keeps nothing of: left out, and said.
_FIND_UNTESTED = frozenset(
    {"-mtime", "-mmin", "-ctime", "-cmin", "-atime", "-amin", "-newer", "-newermt", "-anewer", "-cnewer"}
    | {"-user", "-group", "-uid", "-gid", "-perm"}
)
#: The engine option that carries a listing's tests of its files' sizes (``Command.sizes``, one a line).
SIZE_OPTION = "sizes"
#: The engine option that says a listing lists no symbolic link ("no"; ``Command.links``).
LINKS_OPTION = "links"
_FIND_UNITS = {"c": 1, "w": 2, "b": 512, "k": 1 << 10, "M": 1 << 20, "G": 1 << 30}
_FD_UNITS = {"b": 1, "k": 10**3, "m": 10**6, "g": 10**9, "t": 10**12, "ki": 1 << 10, "mi": 1 << 20, "gi": 1 << 30}
_FD_UNITS["ti"] = 1 << 40


def size_test(spec: str) -> Callable[[int], bool] | None:
    """A test of a file's size in bytes as ``spec`` writes it (``TOOL:[!]TEST``); None where it is none.

    ``find:-size``'s ``[+-]N[cwbkMG]`` (512-byte blocks without a unit): the size in units rounded up is more than
    (``+``), less than (``-``) or exactly N, so ``-size -1M`` is an empty file alone; ``find:empty``: no byte;
    ``fd:--size``'s ``[+-]N UNIT`` (``b``, ``k``/``ki``, ``m``/``mi``, …: powers of 1000 and of 1024): at least
    (``+``), at most (``-``), or exactly that many bytes."""
    tool, _, test = spec.partition(":")
    turned = test.startswith("!")
    test = test.removeprefix("!")
    passes: Callable[[int], bool]
    if test == "empty" and tool == "find":
        passes = lambda size: size == 0  # noqa: E731
    elif tool == "find" and (m := re.fullmatch(r"([+-]?)(\d{1,15})([cwbkMG]?)", test)):
        sign, n, unit = m[1], int(m[2]), _FIND_UNITS[m[3] or "b"]

        def passes(size: int) -> bool:
            units = -(-size // unit)
            return units > n if sign == "+" else units < n if sign == "-" else units == n

    elif tool == "fd" and (m := re.fullmatch(r"([+-]?)(\d{1,15})(b|[kmgt]i?)", test.lower())):
        sign, limit = m[1], int(m[2]) * _FD_UNITS[m[3]]

        def passes(size: int) -> bool:
            return size >= limit if sign == "+" else size <= limit if sign == "-" else size == limit

    else:
        return None
    return (lambda size: not passes(size)) if turned else passes


def sizes_test(specs: Iterable[str]) -> Callable[[int], bool] | None:
    """One test of a file's size that each of ``specs`` (``size_test``'s; one a line of ``SIZE_OPTION``) must pass;
    None where there are none."""
    tests = [t for t in (size_test(spec) for spec in specs if spec) if t is not None]
    return (lambda size: all(test(size) for test in tests)) if tests else None


def _sized(tool: str, test: str, negate: bool = False) -> str:
    """``TOOL:[!]TEST``, as :func:`size_test` reads it."""
    return f"{tool}:{'!' if negate else ''}{test}"


_FIND_SKIPPED = frozenset({"(", ")", "-print", "-print0", "-and", "-a", "-ls", "-follow", "-L", "-H", "-P"})


#: find's tests, actions and operators: an expression written with one is find's, whether or not it is read.
_FIND_WORDS = (
    _FIND_NAMES
    | _FIND_PATHS
    | _FIND_UNTESTED
    | (_FIND_SKIPPED - {"(", ")", "-follow", "-L", "-H", "-P"})  # how links are followed: no test
    | {"-regex", "-iregex", "-lname", "-ilname", "-type", "-xtype", "-size", "-empty", "-links", "-inum", "-samefile"}
    | {"-readable", "-writable", "-executable", "-maxdepth", "-mindepth", "-prune", "-printf", "-fprint", "-delete"}
    | {"-quit", "-exec", "-execdir", "-ok", "-okdir", "-o", "-or", "-not", "-true", "-false", "-depth"}
)


def _find(args: list[str]) -> tuple[Command, str] | None:
    """``find [DIR…] EXPRESSION`` as the files it lists, and the grep its ``-exec`` runs on them ("" for none); an
    expression of find's words this does not read (``-name a -name b``, ``-type l``, ``-regex``) refused with a clear
    error, not searched as words; None for a sentence ("find the config file")."""
    read = _find_read(args)
    depth = next((args[i + 1] for i in range(len(args) - 1) if args[i] == "-maxdepth"), "")
    if read is not None or not set(args) & _FIND_WORDS or _prose(args[:1]) or depth == "0":
        return read  # listed; a sentence; -maxdepth 0: the starting point alone, no file
    said = shlex.join(["find", *args])
    refused = (
        f"{said!r} is not read: fourfold lists files by find's -name, -iname, -path, -ipath, -type f or d, -size, "
        "-empty, -maxdepth, -prune, ! and -o between single tests, and runs -exec grep or wc on them; several tests "
        "of one kind (-name a -name b), other tests (-regex, -type l, -links) and actions (-delete, -printf) are "
        "not read: ask with those it reads"
    )
    return Command("find", "*", False, False, lists="paths", refused=refused), ""


def _find_read(args: list[str]) -> tuple[Command, str] | None:
    """``find [DIR…] EXPRESSION`` as the files it lists, and the grep its ``-exec`` runs on them ("" for none); None
    where it is not read."""
    dirs: list[str] = []
    include: list[str] = []
    exclude: list[str] = []
    negate = either = folders = expressed = False
    depth = 0
    written: dict[str, tuple[str, bool]] = {}  # each -path glob: as written, and whether either case (-ipath)
    untested: list[str] = []  # -mtime -1, -newer a.py: tests of what the index keeps nothing of
    sizes: list[str] = []  # -size +100k, -empty: tests of each file's size
    regular = False  # -type f: no symbolic link
    opened: list[int] = []  # at each open group, how many globs were kept before it
    closed = -1  # where the group that just closed began (\( -path a -o -path b \) -prune: both left out)
    i = 0
    while i < len(args):
        a = args[i]
        if a == "(":
            opened.append(len(include))
        elif a == ")" and opened:
            closed = opened.pop()
        expressed = expressed or a.startswith("-")  # find src -type f: the words before an expression are folders
        if not a.startswith("-") and a not in ("!", "(", ")"):
            if include or exclude:
                return None  # an operand after the expression: not find's
            dirs.append(a)
        elif a in ("!", "-not"):
            negate = True
        elif a in ("-o", "-or"):
            either = either or args[i - 1] != "-prune"  # -path X -prune -o …: the folder left out, no alternative
        elif a in _FIND_SKIPPED:
            pass
        elif a in _FIND_NAMES | _FIND_PATHS and i + 1 < len(args):
            i += 1
            glob = args[i] if a in _FIND_NAMES else _find_path(args[i])
            if a.startswith("-i"):  # -iname, -ipath: either case
                glob = any_case(glob)
            if a in _FIND_PATHS and not negate:
                written[glob] = (args[i], a.startswith("-i"))
            (exclude if negate else include).append(glob)
            negate = False
        elif a == "-prune" and include:  # -path ./vendor -prune -o …: vendor left out
            pruned = include[closed:] if args[i - 1] == ")" and closed >= 0 else include[-1:]
            del include[len(include) - len(pruned) :]
            exclude.extend(g for glob in pruned for g in (glob, glob.rstrip("/") + "/**"))
            either = False
        elif a == "-type" and i + 1 < len(args):
            i += 1
            if args[i] not in ("f", "d") or negate:
                return None  # links, sockets, ! -type f: no listing of files or folders
            folders = args[i] == "d"
            regular = args[i] == "f"
        elif a in ("-maxdepth", "-mindepth") and i + 1 < len(args):
            i += 1  # -maxdepth: to that depth; -mindepth: every depth is listed
            if a == "-maxdepth" and args[i].isdigit():
                depth = int(args[i])
                if depth == 0:
                    return None  # the starting point alone: no file beneath it
        elif a == "-size" and i + 1 < len(args) and not either and size_test(f"find:{args[i + 1]}") is not None:
            sizes.append(_sized("find", args[i + 1], negate))
            negate = False
            i += 1
        elif a == "-empty" and not either:
            sizes.append(_sized("find", "empty", negate))
            negate = False
        elif a in _FIND_UNTESTED and i + 1 < len(args) and not either:
            untested.append(f"{'! ' if negate else ''}{a} {args[i + 1]}")
            negate = False
            i += 1
        elif a in ("-exec", "-execdir"):
            end = next((j for j in range(i + 1, len(args)) if args[j] in (";", "+", "\\;")), len(args))
            each = end < len(args) and args[end] in (";", "\\;")  # {} \;: each file alone, {} +: several at once
            grep = shlex.join(w for w in args[i + 1 : end] if w != "{}" or each)
            found = _found(dirs or _here(), include, exclude, either, expressed, depth, written)
            untested += [_said_size(t) for t in sizes]  # -size +1k -exec grep …: the grep runs on every file
            return _with(None if found is None else replace(found, untested=tuple(untested)), grep)
        else:
            return None  # -empty, -links: tests no search reads
        i += 1
    listed = (
        _folders_found(dirs or _here(), include, exclude, depth)
        if folders
        else _found(dirs or _here(), include, exclude, either, expressed, depth, written)
    )
    if listed is not None and either and (sizes or not _one_test_each(args)):  # a size test of one alternative
        listed = replace(listed, refused=_EITHER_REFUSED.format(expression=shlex.join(["find", *args])))
    if folders:  # -type d -empty: the index holds no empty folder (git keeps none); its folders' sizes are none
        untested, sizes = [*untested, *(_said_size(t) for t in sizes)], []
    listed = listed and replace(listed, untested=tuple(untested), sizes=tuple(sizes), links=not regular)
    return _with(listed, "")


def _said_size(spec: str) -> str:
    """A size test as find writes it (``! -size +1k``, ``-empty``)."""
    tool, _, test = spec.partition(":")
    turned, test = test.startswith("!"), test.removeprefix("!")
    written = ("-empty" if test == "empty" else f"-size {test}") if tool == "find" else f"--size {test}"
    return f"{'! ' if turned else ''}{written}"


_EITHER_REFUSED = (
    "{expression!r} is not read: its -o joins alternatives of which one holds several tests, none, a size, or a ! "
    "before a group; fourfold reads alternatives of one name or path test each (-name '*.md' -o -path './docs/*') or "
    "tests that must all hold (-name '*.py' -path '*src*' -size +1k): ask each alternative alone"
)


def _one_test_each(args: list[str]) -> bool:
    """Whether find's expression ``args``, an OR of ANDs once its groups are opened (``-a`` binds before ``-o``), is
    one alternative, or has one name or path test in each beside the tests every one turns over (``\\( -name a -o
    -name b \\) ! -name c``); ``-path X -prune`` is a folder left out, no alternative. What the tests that must all
    hold, or one glob of alternatives less the globs left out, list. False for an expression this does not read."""
    tests = {*_FIND_NAMES, *_FIND_PATHS}
    tokens = [(i, a) for i, a in enumerate(args) if a in tests or a in ("(", ")", "!", "-not", "-o", "-or", "-prune")]
    pos = 0

    def alternatives() -> list[list[int]] | None:  # each alternative: its tests' places (negative: turned over)
        nonlocal pos
        out = conjunction()
        while out is not None and pos < len(tokens) and tokens[pos][1] in ("-o", "-or"):
            pos += 1
            more = conjunction()
            out = None if more is None else out + more
        return out

    def conjunction() -> list[list[int]] | None:
        nonlocal pos
        out: list[list[int]] = [[]]
        while pos < len(tokens) and tokens[pos][1] not in ("-o", "-or", ")"):
            at, a = tokens[pos]
            pos += 1
            if a == "(":
                inner = alternatives()
                if inner is None or pos >= len(tokens) or tokens[pos][1] != ")":
                    return None
                pos += 1
                out = [x + y for x in out for y in inner]
            elif a in ("!", "-not"):
                if pos >= len(tokens) or tokens[pos][1] not in tests:
                    return None  # ! ( … ): not read
                out = [[*x, -1 - tokens[pos][0]] for x in out]
                pos += 1
            else:
                out = [[*x, at if a != "-prune" else _PRUNED] for x in out]
        return out

    either = alternatives()
    if either is None or pos != len(tokens):
        return False
    kept = [alt for alt in either if _PRUNED not in alt]
    everywhere = set.intersection(*(set(alt) for alt in kept)) if kept else set()
    left = [[t for t in alt if t not in everywhere or t >= 0] for alt in kept]
    return len(kept) == 1 or all(len(alt) == 1 and alt[0] >= 0 for alt in left)


_PRUNED = 1 << 30  # an alternative's -prune: a folder left out


def _folders_found(dirs: list[str], include: list[str], exclude: list[str], depth: int) -> Command | None:
    """``find [DIR] -type d [-name GLOB] [-maxdepth N]``: the folders beneath DIR named so, to that depth."""
    if len(dirs) > 1 or len(include) > 1 or exclude or any("/" in g for g in include) or _prose(dirs):
        return None  # several roots, -path, -not: not read
    folder = _path(dirs[0]).rstrip("/") if dirs else ""
    return Command("find", "*", False, False, lists="paths", folder=folder or ".", tree=f"{depth}:{''.join(include)}")


def _with(found: Command | None, grep: str) -> tuple[Command, str] | None:
    return None if found is None else (found, grep)


def _found(
    dirs: list[str],
    include: list[str],
    exclude: list[str],
    either: bool,
    expressed: bool,
    depth: int = 0,
    written: dict[str, tuple[str, bool]] | None = None,
) -> Command | None:
    """``find``'s files: ``written`` maps each ``-path`` glob of ``include`` to the glob as written and whether it
    matches either case (``-ipath``), for a test that must hold with the others."""
    then: list[LineFilter] = []
    written = written or {}
    beside = [g for g in include if g in written] if any(d not in (".", "./") for d in dirs) and not either else []
    if beside:  # find src -path '*/api/*': a test of the path as find prints it (src/…), the folder searched
        include = [g for g in include if g not in written]
        if len(include) > 1:
            return None  # -name a -name b
        shown = _find_prints(dirs)
        then = [LineFilter(_glob_regex(written[g][0]), True, not written[g][1], False, shown, _under()) for g in beside]
    elif len(include) > 1 and either:  # -name '*.md' -o -path './docs/*': a file any of them selects, as one glob
        include = [_either(include)]
    elif len(include) > 1:  # both must match: a folder's glob and a name's are one glob
        folders = [g for g in include if "/" in g and g.endswith("/**")]
        names = [g for g in include if "/" not in g]
        if len(include) == 2 and len(folders) == 1 and len(names) == 1:
            include = [f"{folders[0]}/{names[0]}"]
        else:  # -name '*.go' -path '*render*': each -path a test of the path as find prints it
            tests = [g for g in include if g in written]
            include = [g for g in include if g not in written]
            if len(include) > 1 or not tests:
                return None  # -name a -name b
            shown = _find_prints(dirs)
            then = [
                LineFilter(_glob_regex(written[g][0]), True, not written[g][1], False, shown, _under()) for g in tests
            ]
    if _prose(dirs) or not (include or exclude or expressed or all(d in (".", "./") or "/" in d for d in dirs)):
        return None  # "find the config file" is a sentence
    paths = tuple(p for p in (_path(d) for d in dirs) if p)
    if depth and len(dirs) <= 1:  # -maxdepth N: the files N levels down at most (./a.go is at depth 1)
        prefix = f"{paths[0].rstrip('/')}/" if paths else ""
        exclude = [*exclude, f"{prefix}{'*/' * depth}**"]
    return Command(
        "find",
        "*",
        False,
        False,
        paths=paths,
        include=tuple(include),
        exclude=tuple(exclude),
        lists="paths",
        then=tuple(then),
    )


def _either(globs: list[str]) -> str:
    """One glob selecting the files any of find's ``globs`` does: a name's (no ``/``) in any folder."""
    if all("/" not in g for g in globs):
        return _alternatives(globs)
    return "{" + ",".join(g if "/" in g else f"**/{g}" for g in globs) + "}"


def regex_glob(regex: str) -> str | None:
    """The path glob that selects the paths a regular expression searching in them matches (ag's ``-G '_test\\.go$'``
    -> ``**_test.go``; ``'\\.(js|ts)$'`` -> ``**.{js,ts}``; ``^src/`` -> ``/src/**``); "" for one matching every path;
    None where no glob writes it (``\\d``, a quantifier of a letter, an anchor inside, alternatives anchored)."""
    alternatives = _regex_alternatives(regex)
    if alternatives is None:
        return None
    if len(alternatives) > 1:
        globs = [regex_glob(a) for a in alternatives]
        if any(g is None or g.startswith("/") or not g for g in globs):
            return None
        return "{" + ",".join(g for g in globs if g) + "}"
    anchored = regex.startswith("^")
    body = regex[1:] if anchored else regex
    if anchored:  # ag matches ./src/a.go where it searches the folder it runs in
        body = body.removeprefix("\\./").removeprefix("./")
    ended = body.endswith("$") and not body.endswith("\\$")
    body = body[:-1] if ended else body
    translated = _regex_body_glob(body)
    if translated is None:
        return None
    if not translated and not anchored and not ended:
        return ""
    glob = ("/" if anchored else "**") + translated + ("" if ended else "**")
    return glob if glob.strip("*/") else ""


def _regex_alternatives(regex: str) -> list[str] | None:
    """``regex``'s top-level alternatives (``a|b``), or None where a group or class never closes."""
    out, depth, last, i = [], 0, 0, 0
    while i < len(regex):
        c = regex[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            end = regex.find("]", i + 2)
            if end < 0:
                return None
            i = end + 1
            continue
        depth += (c == "(") - (c == ")")
        if depth < 0:
            return None
        if c == "|" and not depth:
            out.append(regex[last:i])
            last = i + 1
        i += 1
    return None if depth else [*out, regex[last:]]


def _regex_body_glob(body: str) -> str | None:
    """A regular expression without anchors as the glob matching what it does (``.*`` -> ``**``, ``\\.`` -> ``.``,
    ``(a|b)`` -> ``{a,b}``); None where no glob writes it."""
    out: list[str] = []
    i = 0
    while i < len(body):
        c = body[i]
        quantified = body[i + 1 : i + 2] in ("*", "+", "?", "{")
        if c == "." and body[i + 1 : i + 2] in ("*", "+"):
            out.append("**" if body[i + 1] == "*" else "?**")
            i += 2
            continue
        if quantified:
            return None  # a letter repeated, or optional: no glob writes it
        if c == "\\":
            escaped = body[i + 1 : i + 2]
            if not escaped or escaped.isalnum() or escaped in GLOB_CHARS + "],}":
                return None  # \d, \b: classes a glob has not
            out.append(escaped)
            i += 2
            continue
        if c == "[":
            end = body.find("]", i + 2)
            klass = body[i + 1 : end]
            if end < 0 or "\\" in klass or "[" in klass:
                return None
            out.append("[" + ("!" + klass[1:] if klass.startswith("^") else klass) + "]")
            i = end + 1
            continue
        if c == "(":
            end = body.find(")", i)
            inner = body[i + 1 : end].removeprefix("?:")
            if end < 0 or body[end + 1 : end + 2] in ("*", "+", "?", "{"):
                return None
            parts = [_regex_body_glob(part) for part in inner.split("|")]
            if any(part is None or "{" in part or "," in part for part in parts):
                return None
            out.append("{" + ",".join(p for p in parts if p is not None) + "}")
            i = end + 1
            continue
        if c == ".":
            out.append("?")
        elif c in "^$)|*+?{}," or c in GLOB_CHARS:
            return None
        else:
            out.append(c)
        i += 1
    return "".join(out)


#: ag's options that change no listing of ``ag -g`` a search reads: its case, hidden files.
_AG_LISTING_FLAGS = {"-i": "no", "--ignore-case": "no", "-s": "yes", "--case-sensitive": "yes", "-S": "smart"}


def _ag_listing(words: list[str], stages: list[str]) -> Command | None:
    """``ag -g REGEX [DIR…]``: the files whose paths the regular expression matches (smart case, as ag reads it; the
    path as ag walks to it, ``./a.py`` from the folder it runs in), as ``rg --files`` of those folders with that test
    of each path; None for an option no listing reads."""
    at = words.index("-g")
    if at + 1 >= len(words):
        return None
    regex, rest = words[at + 1], [*words[1:at], *words[at + 2 :]]
    flags = [w for w in rest if w.startswith("-")]
    case = "smart"
    for flag in flags:
        if flag not in (*_AG_LISTING_FLAGS, "--hidden", "-u", "--unrestricted"):
            return None
        case = _AG_LISTING_FLAGS.get(flag, case)
    try:
        re.compile(_python_regex(regex))
    except re.error:
        return None  # ag's own error
    hidden = [w for w in flags if w in ("--hidden", "-u", "--unrestricted")][:1]
    dirs = [w for w in rest if not w.startswith("-")]
    listed = _read(
        " | ".join([shlex.join(["rg", "--files", *hidden, *(d for d in dirs if d not in (".", "./"))]), *stages])
    )
    if listed is None:
        return None
    sensitive = case == "yes" or (case == "smart" and regex != regex.lower())
    named = LineFilter(regex, True, sensitive, False, _find_prints(dirs), _under())  # ag prints the path alone
    return replace(listed, tool=listed.tool.replace("rg --files", "ag -g", 1), then=(named, *listed.then))


def _find_prints(starts: list[str]) -> str:
    """How find prints each path it lists, from its starting folders (``LineFilter.shown``): ``./path`` from ``.`` or
    a ``./`` folder (none written: ``.``), else the path as the folder written begins it."""
    return "./path" if not starts or starts[0] in (".", "./") or starts[0].startswith("./") else "path"


def _glob_regex(glob: str) -> str:
    """find's ``-path`` glob as a regular expression over the whole path it prints (``*`` crosses folders)."""
    out: list[str] = []
    i = 0
    while i < len(glob):
        c = glob[i]
        if c == "*":
            out.append(".*")
        elif c == "?":
            out.append(".")
        elif c == "[" and (end := glob.find("]", i + 2)) > 0:
            body = glob[i + 1 : end]
            out.append("[" + ("^" + body[1:] if body.startswith("!") else body).replace("\\", "\\\\") + "]")
            i = end
        elif c == "\\" and i + 1 < len(glob):
            out.append(re.escape(glob[i + 1]))
            i += 1
        else:
            out.append(re.escape(c))
        i += 1
    return "^" + "".join(out) + "$"


def _under() -> str:
    """The folder paths are printed from, after ``cd`` (``LineFilter.under``; "" for the top)."""
    return "" if _CWD.get() in ("", ".") else _CWD.get()


def _find_path(glob: str) -> str:
    """find's ``-path`` glob as a repository glob: its ``./`` left out, its ``*`` crossing folders as find's does. A
    ``*`` before a ``/`` matches a folder at least (``./*/*_test.*``: no file at the top), but where the glob starts
    with it, it may match the ``.`` find prints first (``*/tests/*``: ``./tests/a.py`` too)."""
    dotted = glob.startswith("./")
    while glob.startswith("./"):
        glob = glob[2:]

    def star(m: re.Match[str]) -> str:
        folder = glob[m.end() : m.end() + 1] == "/" and (m.start() > 0 or dotted)
        return "*/**" if folder else "**"

    return re.sub(r"\*+", star, glob)


def _ls(args: list[str]) -> Command | None:
    """``ls [OPTIONS] [FOLDER]``: the files directly in the folder, and its folders (named in a note); ``-R`` the files
    beneath it; a glob (``ls src/*.py``) the files it names there."""
    operands = [a for a in args if not a.startswith("-") or a == "-"] or _here()
    flags = [a for a in args if a not in operands]
    letters = {c for a in flags if a[1:2] != "-" for c in a[1:]}
    if "d" in letters and len(operands) == 1 and re.fullmatch(r"(?:[\w.-]+/)*\*/", operands[0]):
        folder = _path(operands[0][: -len("*/")] or ".").rstrip("/")  # ls -d */, ls -d src/*/: the folders in it
        shown = bool(letters & {"a", "A"}) or _names_hidden([folder])
        return Command("ls", "*", False, False, lists="paths", folder=folder or ".", tree="1:", hidden=shown)
    if any(
        not (a in _LS_LONG or a.startswith("--color") or (a[1] != "-" and set(a[1:]) <= _LS_LETTERS)) for a in flags
    ):
        return None  # -d (the folder itself), --sort=…: not read
    recursive = any(a == "--recursive" or (a[1] != "-" and "R" in a) for a in flags)
    shown = any(a in ("--all", "--almost-all") or (a[1] != "-" and set(a[1:]) & {"a", "A"}) for a in flags)
    listed = _listed("ls", operands, recursive, ())
    return None if listed is None else replace(listed, hidden=shown or _names_hidden(operands))


def _tree(args: list[str]) -> Command | None:
    """``tree [-L DEPTH] [-I PATTERN] [-P PATTERN] [FOLDER]``: the files beneath the folder to that depth (``-L 1``
    as ``ls`` lists it), but those ``-I`` names, of the names ``-P`` matches. A word after ``tree`` alone is a
    sentence's ("tree sitter parser"), not a folder."""
    operands: list[str] = []
    depth = 0
    left_out: list[str] = []
    names = ""
    folders = False
    i = 0
    while i < len(args):
        a = args[i]
        value = args[i + 1] if i + 1 < len(args) else ""
        if a in ("-L", "-I", "-P"):
            if not value or (a == "-L" and not value.isdigit()) or value == "0":
                return None
            if a == "-L":
                depth = int(value)
            elif a == "-I":
                left_out.extend(v for v in value.split("|") if v)
            else:
                names = value.replace("|", ",")
            i += 2
            continue
        if a == "-d":
            folders = True
        elif a.startswith("-") and a not in _TREE_FLAGS and a not in _TREE_LONG:
            return None  # -o FILE: not read
        if not a.startswith("-"):
            operands.append(a)
        i += 1
    if operands and not any(a.startswith("-") for a in args) and not re.match(r"\.|.*/", operands[0]):
        return None  # "tree sitter parser": no option says it is the command (tree render -P '*.go' is)
    operands = operands or _here()
    exclude = tuple(g for n in left_out for g in (n, f"**/{n}/**"))
    hidden = "-a" in args or _names_hidden(operands)
    if folders:  # tree -d: the folders alone, to -L levels (-P names files: none is listed)
        if len(operands) > 1 or _prose(operands):
            return None
        folder = _path(operands[0]).rstrip("/") if operands else ""
        return Command(
            "tree",
            "*",
            False,
            False,
            exclude=exclude,
            lists="paths",
            folder=folder or ".",
            tree=f"{depth}:",
            hidden=hidden,
        )
    if depth == 1 and not names:
        flat = _listed("tree", operands, False, exclude)
        return None if flat is None else replace(flat, hidden=hidden)
    c = _listed("tree", operands, True, exclude)
    if c is None:
        return None
    c = replace(c, hidden=hidden)
    folder = _path(operands[0]).rstrip("/") if operands else ""
    prefix = f"{folder}/" if folder else ""
    if depth:
        c = replace(c, exclude=(*c.exclude, f"{prefix}{'*/' * depth}**"))
    if names:
        named = names if "," not in names else "{" + names + "}"
        c = replace(c, include=(f"{prefix}**/{named}" if prefix else named,))
    return c


def _listed(tool: str, operands: list[str], recursive: bool, exclude: tuple[str, ...]) -> Command | None:
    """``ls``/``tree`` of one folder (none: the top), a file, or a glob: the files beneath a folder when
    ``recursive``, else those directly in it with its folders named."""
    if len(operands) > 1 or _prose(operands):
        return None  # several folders, or a sentence ("ls is slow")
    path = _path(operands[0]).rstrip("/") if operands else ""
    if any(ch in path for ch in "*?["):  # the shell's glob: what it names, in its own folder unless recursive
        top = () if recursive or "/" in path else ("*/**",)
        return Command(tool, "*", False, False, include=(path,), exclude=(*exclude, *top), lists="paths")
    include = (f"{{{path},{path}/**}}",) if path else ()  # a folder, or a file listed as itself
    folder = None if recursive else path or "."
    return Command(tool, "*", False, False, include=include, exclude=exclude, lists="paths", folder=folder)


#: A grep of ``ls -l``'s long lines by their first letter, the entry's type: ``d`` a folder, ``-`` a file.
_LONG_TYPE = re.compile(r"grep( -v)? (?:'\^([d-])'|\"\^([d-])\"|\^([d-]))")


def _ls_typed(args: list[str], stages: list[str]) -> Command | None:
    """``ls -l [FOLDER] | grep '^d'`` (or ``| grep -v '^d'``, ``| grep '^-'``): the folders directly in FOLDER, as
    ``ls -d */`` names them, or its files alone; None where the command is no such one."""
    typed = _LONG_TYPE.fullmatch(stages[0].strip()) if len(stages) == 1 else None
    flags = [a for a in args if a.startswith("-")]
    if typed is None or not any(a[1:2] != "-" and "l" in a for a in flags):
        return None
    operands = [a for a in args if not a.startswith("-")]
    ls = _ls([*flags, *operands])
    if ls is None or ls.folder is None:
        return None  # ls -lR, ls -l *.go: no one folder's entries
    folders = (typed[2] or typed[3] or typed[4]) == "d"
    if typed[1]:
        folders = not folders
    tool = f"ls | {stages[0].strip()}"
    if folders:
        return Command(tool, "*", False, False, lists="paths", folder=ls.folder, tree="1:", hidden=ls.hidden)
    top = "" if ls.folder == "." else f"{ls.folder}/"
    return Command(tool, "*", False, False, include=(f"/{top}*",), lists="paths", hidden=ls.hidden)


def _fd_exec(args: list[str]) -> tuple[list[str], str] | None:
    """fd's arguments without its ``-x CMD…`` (``--exec``: a run for each file, its path last unless ``{}`` places
    it) or ``-X CMD…`` (``--exec-batch``: one run for them all), and that command as find's ``-exec`` is read (``{}``
    where each file is run alone; "" where none runs); None where a placeholder other than ``{}`` shapes the path."""
    at = next((i for i, a in enumerate(args) if a in ("-x", "--exec", "-X", "--exec-batch")), -1)
    if at < 0:
        return args, ""
    end = next((j for j in range(at + 1, len(args)) if args[j] in (";", "\\;")), len(args))
    run = args[at + 1 : end]
    if not run or any(re.search(r"\{[/.]|\{//\}", w) for w in run):
        return None  # {/}, {.}, {//}: a name, not the path
    each = args[at] in ("-x", "--exec")
    if each and "{}" not in run:
        run = [*run, "{}"]  # fd -x wc -l: each path after the command
    return [*args[:at], *args[end + 1 :]], shlex.join(w for w in run if w != "{}" or each)


def _fd(args: list[str]) -> Command | None:
    """``fd [PATTERN] [DIR…]``: the files whose name holds the pattern (a fragment; ``-g``: a glob), ``-e`` its
    extensions, ``-E`` globs left out."""
    operands: list[str] = []
    exts: list[str] = []
    exclude: list[str] = []
    glob = hidden = folders = False
    depth = 0
    sizes: list[str] = []
    regular = False  # -t f: no symbolic link
    case = "smart"  # fd's: either case unless the pattern has a capital
    i = 0
    while i < len(args):
        a = args[i]
        value = args[i + 1] if i + 1 < len(args) else ""
        if a in ("-e", "--extension", "-E", "--exclude", "-t", "--type") and not value.strip("."):
            return None  # an option without its value: not fd's command as written
        if a in ("-e", "--extension"):
            exts.append(value.lstrip("."))
            i += 1
        elif a in ("-E", "--exclude"):
            exclude.extend(_ignoring(value))
            i += 1
        elif a in ("-t", "--type"):
            if value not in ("f", "file", "d", "directory"):
                return None
            folders = value in ("d", "directory")
            regular = not folders
            i += 1
        elif a in ("-d", "--max-depth", "--maxdepth") and value.isdigit():
            depth = int(value)
            i += 1
        elif a in ("-S", "--size"):
            if size_test(f"fd:{value}") is None:
                return None  # no size fd reads
            sizes.append(_sized("fd", value))
            i += 1
        elif a in ("-g", "--glob"):
            glob = True
        elif a in ("-s", "--case-sensitive", "-i", "--ignore-case"):
            case = "yes" if a in ("-s", "--case-sensitive") else "no"
        elif a in ("-H", "--hidden", "-u", "--unrestricted"):
            hidden = True
        elif a.startswith("-"):
            if a not in ("-I", "--no-ignore", "-a", "--absolute-path", "-l", "-0"):
                return None
        else:
            operands.append(a)
        i += 1
    if _prose(operands):
        return None
    pattern = operands[0] if operands else ""
    if not glob and pattern in (".", ".*", "^", "$", "^.*$"):  # fd -e go . src: a regex any name matches
        pattern = ""
    if pattern and not glob:
        if re.search(r"[\\^$*+?()\[\]{}|]", pattern.replace("\\.", "")):
            return None  # a regular expression over the name: not a fragment
        pattern = "*" + pattern.replace("\\.", ".") + "*"
    if case == "no" or (case == "smart" and pattern == pattern.lower()):
        pattern = any_case(pattern)
    names = [pattern] if pattern else []
    if exts:  # an extension in either case, as fd matches it
        ext = any_case(exts[0] if len(exts) == 1 else "{" + ",".join(exts) + "}")
        names = [f"{pattern.rstrip('*')}*.{ext}" if pattern else f"*.{ext}"]
    paths = tuple(p for p in (_path(d) for d in operands[1:] or _here()) if p)
    if depth and not folders:  # fd --max-depth 1: the files directly in each folder searched
        exclude.extend(f"{p.rstrip('/') + '/' if p else ''}{'*/' * depth}**" for p in paths or ("",))
    if folders:  # fd -t d: the folders whose name holds the pattern (or matches its glob)
        if len(paths) > 1 or exts or sizes:
            return None
        return Command(
            "fd",
            "*",
            False,
            False,
            exclude=tuple(exclude),
            lists="paths",
            folder=paths[0].rstrip("/") if paths else ".",
            tree=f"{depth}:{pattern}",
            hidden=hidden or _names_hidden(operands[1:]),
        )
    return Command(
        "fd",
        "*",
        False,
        False,
        paths=paths,
        include=tuple(names),
        exclude=tuple(exclude),
        lists="paths",
        hidden=hidden or _names_hidden(operands[1:]),
        sizes=tuple(sizes),
        links=not regular,
    )


def _prose(operands: list[str]) -> bool:
    """Whether a file command's operands are a sentence's words ("find the config file", "fd is fast")."""
    return any(o.lower() in _PROSE for o in operands) or len(operands) > 3


def _after_xargs(piped: str, each: bool = False) -> str:
    """The command ``| xargs [OPTIONS] CMD …`` runs on the listed files ("" where the pipe is no xargs). ``each``:
    where a placeholder places each file (``xargs -I{} grep -n X {}``: one run a file), the command with the
    placeholder written ``{}``, as find's ``-exec … {} \\;`` writes it ("" where it is not one word of its own)."""
    try:
        words = shlex.split(piped)
    except ValueError:
        return ""
    if not words or words[0] != "xargs":
        return ""
    i, placeholder = 1, ""
    while i < len(words) and words[i].startswith("-"):
        if words[i] in ("-I", "-i") or words[i].startswith(("-I", "-i", "--replace")):
            if not each:
                return ""  # a placeholder places the files: not read
            if words[i].startswith("--replace"):  # --replace[=R]
                placeholder = words[i].partition("=")[2] or "{}"
            elif words[i] == "-I":  # -I R
                placeholder = words[i + 1] if i + 1 < len(words) else ""
                i += 1
            else:  # -IR, -i[R]
                placeholder = words[i][2:] or "{}"
            i += 1
            continue
        i += 2 if words[i] in ("-n", "-P", "-L", "-d", "-s", "-E") else 1
    run = words[i:]
    if placeholder:
        if run.count(placeholder) != 1 or any(placeholder in w for w in run if w != placeholder):
            return ""  # the file inside a word ({}.bak), or twice: not read
        run = ["{}" if w == placeholder else w for w in run]
    return shlex.join(run)


#: ``while read [-r] VAR; do CMD …; done``: each listed file read into VAR, the command run on it.
_WHILE_READ = re.compile(r"while\s+(?:IFS=\s+)?read\s+(?:-r\s+)?([A-Za-z_]\w*)\s*;\s*do\s+(.+?)\s*;?\s*done")


def _while_read(piped: str) -> str:
    """The command ``| while read f; do grep -n X "$f"; done`` runs on each listed file, the file written ``{}`` as
    find's ``-exec … {} \\;`` writes it ("" where the pipe is no such loop, or the file is not one word of its own)."""
    m = _WHILE_READ.fullmatch(piped.strip())
    if m is None or re.search(r"[;|&]", m[2]):
        return ""
    try:
        words = shlex.split(m[2])
    except ValueError:
        return ""
    named = [w for w in words if re.fullmatch(rf"\$\{{?{m[1]}\}}?", w)]
    if len(named) != 1 or any(f"${m[1]}" in w or f"${{{m[1]}}}" in w for w in words if w not in named):
        return ""
    return shlex.join("{}" if w in named else w for w in words)


class _UnreadableError(Exception):
    """The command asks something no search answers."""


def without_lookaround(pattern: str) -> str:
    """A Perl pattern (``grep -P``) as RE2 reads it where that matches the same lines: ``\\K`` left out, a lookbehind
    that opens it and a lookahead that ends it matched as the text they look at (``(?<=def )\\w+`` as
    ``(?:def )\\w+``: a line holds one where it holds the other). Any other lookaround stays, and RE2 says so."""
    pattern = re.sub(r"(?<!\\)((?:\\\\)*)\\K", r"\1", pattern)
    if pattern.startswith("(?<=") and not pattern.startswith("(?<!"):
        end = _closing(pattern, 0)
        if end is not None:
            pattern = "(?:" + pattern[4:end] + ")" + pattern[end + 1 :]
    ahead = pattern.rfind("(?=")
    if ahead >= 0 and _closing(pattern, ahead) == len(pattern) - 1:
        pattern = pattern[:ahead] + "(?:" + pattern[ahead + 3 :]
    return pattern


def _closing(pattern: str, at: int) -> int | None:
    """Where the group opened at ``at`` closes (its ``)``), escapes and classes read; None where it does not."""
    depth, i, in_class = 0, at, False
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            in_class = c != "]"
        elif c == "[":
            in_class = True
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return i
        i += 1
    return None


def extended_syntax(pattern: str) -> str:
    """grep's basic syntax as the extended syntax RE2 reads: ``\\|`` and ``\\(`` operators, ``|`` and ``(`` literal;
    ``^`` an anchor only where a pattern or a group opens (``\\(``, ``\\|``), ``$`` only where one closes (``$(pwd)``
    and ``a^b`` are text); a ``[...]`` class as written."""
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\" and i + 1 < len(pattern):
            nxt = pattern[i + 1]
            out.append(nxt if nxt in _BRE_SWAPPED else c + nxt)
            i += 2
            continue
        if c == "[":  # a class: ] first (or after ^) is a member, not its end
            member = 3 if pattern.startswith("[^]", i) else 2 if pattern.startswith("[]", i) else 1
            end = pattern.find("]", i + member)
            if end > 0:
                out.append(pattern[i : end + 1])
                i = end + 1
                continue
        opens = i == 0 or pattern[i - 2 : i] in ("\\(", "\\|")
        closes = i == len(pattern) - 1 or pattern[i + 1 : i + 3] in ("\\)", "\\|")
        if (c == "^" and not opens) or (c == "$" and not closes):
            out.append("\\" + c)
        else:
            out.append("\\" + c if c in _BRE_SWAPPED else c)
        i += 1
    return "".join(out)


#: What the paths ``xargs`` names a grep's files by begin with (``./`` after ``find .``), None where none names them.
_FROM_XARGS: ContextVar[str | None] = ContextVar("search_command_from_xargs", default=None)


def _of_files(command: str, listed: str | None) -> Command | None:
    """The grep ``command`` (and the greps its output is piped to) run on files a listing names, their paths as it
    printed them (``listed``: see :func:`_printed_as`; None: one file at a time, as ``find -exec grep X {} \\;``)."""
    token = _FROM_XARGS.set(listed)
    try:
        return _read_stage(command)
    finally:
        _FROM_XARGS.reset(token)


#: How an absolute operand (a checkout's folder, ``/home/me/api/src``) is read as the index's path, while a query is
#: read (``read(…, absolute=…)``); None: as written.
_ABSOLUTE: ContextVar[Callable[[str], str | None] | None] = ContextVar("search_command_absolute", default=None)


def _pathspecs(operands: list[str]) -> tuple[list[str], list[str]]:
    """git's pathspecs split into those that select (``src/``, ``'*.py'``; ``:/src`` from the top) and the globs of
    those that leave out (``':!vendor'``, ``':^*_test.go'``, ``':(exclude)docs/*'``): a folder or file written plainly
    with what is beneath it, a glob whose ``*`` crosses folders as git's does."""
    kept: list[str] = []
    left_out: list[str] = []
    for o in operands:
        magic = re.fullmatch(
            r":\(((?:top|glob|icase|literal|exclude)(?:,(?:top|glob|icase|literal|exclude))*)\)(.*)", o
        )
        globbed = False  # :(glob): a * within one folder, ** across them, as the glob dialect reads them
        if magic is not None:  # :(glob)**/*.py, :(top)src: the magic words git reads; icase and literal as written
            words, spec = set(magic[1].split(",")), magic[2]
            globbed = "glob" in words
            if globbed and spec and "/" not in spec and any(ch in spec for ch in "*?["):
                spec = "/" + spec  # :(glob)*.py: its * stays in the top folder, as git's glob magic reads it
            o = f":(exclude){spec}" if "exclude" in words else spec or "."
        m = re.fullmatch(r":(?:!|\^|\(exclude\))(.+)", o)
        if m is None:
            spec = o[2:] or "." if o.startswith(":/") else o
            kept.append(spec if globbed else _crossing(spec))  # 'src/*.py': every .py beneath src, as git lists
            continue
        spec = _path(m[1].removeprefix(":/").removeprefix("/")).rstrip("/")
        if not spec:
            continue
        if any(ch in spec for ch in "*?["):
            left_out.append(spec if globbed else _crossing(spec))
        else:
            left_out.extend([spec, f"{spec}/**"])
    return kept, left_out


def _ignoring(glob: str) -> list[str]:
    """The globs that leave out what an ignore glob of rg (``-g '!tests'``) or fd (``-E node_modules``) leaves out: as
    a ``.gitignore`` line, the files it matches and everything beneath a folder it matches (``tests/`` a folder alone);
    without a ``/`` but at its end, at any depth (``**/tests/**``), else from the top (``src/gen/**``)."""
    named = glob.rstrip("/")
    if not named or named.endswith("**"):
        return [glob]  # vendor/**: beneath already
    beneath = f"{named}/**" if "/" in named or named.startswith("**") else f"**/{named}/**"
    return [beneath] if glob.endswith("/") else [named, beneath]


#: git ls-files's options that list the state of a checkout (no index holds it), by what they list.
_CHECKOUT_STATE = {
    "-o": "untracked",
    "--others": "untracked",
    "-m": "modified",
    "--modified": "modified",
    "-d": "deleted",
    "--deleted": "deleted",
    "-i": "ignored",
    "--ignored": "ignored",
    "-u": "unmerged",
    "--unmerged": "unmerged",
    "-k": "killed",
    "--killed": "killed",
}


def _crossing(spec: str) -> str:
    """git's pathspec ``spec`` in the glob dialect: a ``*`` of a pathspec with a folder matches across folders (git
    matches it without ``FNM_PATHNAME``: ``src/*.py`` holds ``src/api/app.py``), as ``**`` does, and one before a
    ``/`` at least one folder (``src/**/*.go`` holds no ``src/a.go``: ``src/*/**/**.go``); one without a folder
    (``*.py``) already selects its names at any depth."""
    if "/" not in spec or "*" not in spec:
        return spec
    return re.sub(r"\*+(/?)", lambda m: "*/**/" if m[1] else "**", spec)


#: Whether a repository path is a folder of the index, while a query is read (``read(…, folder=…)``); None: a path
#: whose last name holds a dot is a file unless written with its slash.
_FOLDER: ContextVar[Callable[[str], bool] | None] = ContextVar("search_command_folder", default=None)
#: The folder a ``cd DIR &&`` before the command went to (a repository path; "" the top), while it is read.
_CWD: ContextVar[str] = ContextVar("search_command_cwd", default="")
#: The repositories the caller may search, by name, while a query is read (``read(…, repos=…)``): an absolute
#: ``cd`` to a checkout's top names one of them.
_REPOS: ContextVar[Callable[[], Iterable[str]]] = ContextVar("search_command_repos", default=tuple)
#: ``cd DIR &&`` (or ``cd DIR;``) before a command: the folder its relative paths are in.
_CD = re.compile(r"""\s*cd\s+('[^']+'|"[^"]+"|[^\s;&|'"]+)\s*(?:&&|;)\s*""")


def split_cd(text: str) -> tuple[str | None, str]:
    """A command written after ``cd DIR &&`` (``cd render && grep -rn X .``, ``cd /home/me/api; rg X``): DIR as written
    and the command; (None, ``text``) where it goes to no folder first."""
    m = _CD.match(text)
    folder = None if m is None else m[1].strip("'\"")
    if m is None or folder in ("-", "~", "..") or not folder:
        return None, text  # cd -, cd ~, cd ..: a folder no index path names
    return folder, text[m.end() :]


def _checkout(folder: str) -> tuple[str, str | None]:
    """The folder a ``cd`` goes to, as a repository path ("" the top), and the repository it is in where an absolute
    folder names it: a checkout's top (``/home/me/gin``: the repository named ``gin``), or a folder beneath it
    (``/home/me/gin/render``)."""
    cwd = _path(folder).rstrip("/")
    if not folder.startswith(("/", "~")):
        return cwd, None
    parts = [p for p in folder.split("/") if p not in ("", ".", "~")]
    inside = 0 if cwd.startswith(("/", "~")) else len(cwd.split("/")) if cwd else 0
    top = parts[: len(parts) - inside]  # the checkout's own folders, above the index's path
    repos = sorted(_REPOS.get()())

    def named(part: str) -> str | None:
        return next((r for r in repos if checkout_name(r) == part), None)

    above = named(top[-1]) if top else None  # /home/me/httpx/httpx: the folder httpx of the repository httpx
    if above is not None:
        return ("" if cwd.startswith(("/", "~")) else cwd), above
    itself = named(parts[-1]) if parts else None  # /home/me/httpx: the checkout's top, not its folder httpx
    return ("", itself) if itself is not None else (cwd, None)


def _read_stage(command: str) -> Command | None:
    """A grep that reads a pipe or the files ``xargs`` names (``| grep -v _test``, ``| xargs grep X``): read with no
    folder of its own, wherever the command before it ran."""
    token = _CWD.set("")
    try:
        return _read(command)
    finally:
        _CWD.reset(token)


def _here() -> list[str]:
    """The operand a command without one searches, after ``cd DIR``: ``.``, that folder (none before any ``cd``: the
    whole repository)."""
    return ["."] if _CWD.get() else []


def _path(operand: str) -> str:
    """An operand as a repository path ("" for the whole repository: ``.``, ``./``), relative to the folder a ``cd``
    went to; an absolute one as the index's path that ends it, where the reader was given a way to find one."""
    absolute = _ABSOLUTE.get()
    cwd = _CWD.get()
    if cwd and not operand.startswith(("/", "~")):
        joined = posixpath.normpath(posixpath.join(cwd, operand))
        operand = joined + ("/" if operand.endswith("/") and joined != "." else "")
    if absolute is not None and operand.startswith(("/", "~/")):
        found = absolute(operand)
        if found is not None:
            return found + ("/" if operand.endswith("/") and found else "")
    path = operand
    while path.startswith("./"):
        path = path[2:]
    if path in ("", ".", "*", "**"):
        return ""
    folder = _FOLDER.get()
    dotted = not path.endswith("/") and "." in path.rsplit("/", 1)[-1] and not any(ch in path for ch in GLOB_CHARS)
    if dotted and folder is not None and folder(path):  # rg X v1.2: the folder, as a path ending in a name would not
        return path + "/"
    return path.rstrip("/") + ("/" if path.endswith("/") else "")


def _at_top(path: str) -> str:
    """A file operand named without a folder (``rg X pyproject.toml``) as the file at the top (``/pyproject.toml``),
    where the index holds one there (asked through ``read(…, absolute=…)``), as the tool reads it; else as written,
    which names the file at any depth (an agent's short name for ``src/app/core.py``)."""
    named = "/" not in path and "." in path.strip(".") and not any(ch in path for ch in GLOB_CHARS)
    return f"/{path}" if named and _held(path) else path


def _held(path: str) -> bool:
    """Whether the index holds ``path`` as a file or folder from the top (asked through ``read(…, absolute=…)``, which
    reads a path as its longest ending the index holds); False where the reader was given no way to ask."""
    absolute = _ABSOLUTE.get()
    return absolute is not None and absolute(path) == path


def path_glob(c: Command) -> str:
    """The one glob the command's operands and included globs select ("" where they select everything)."""
    globbed = [p for p in c.paths if any(ch in p for ch in GLOB_CHARS)]  # git grep's pathspecs: -- '*.py'
    if any("," in p for p in c.paths if p not in globbed) or (globbed and len(c.paths) > 1 and c.include):
        raise InvalidQuery(
            f"{c.tool}: the paths {' '.join(c.paths)} mix globs and folders: give folders and files, or one glob"
        )
    if not c.tool.startswith("git"):  # grep X *.go: the shell hands it the top folder's files ending .go
        globbed = [g if "/" in g else f"/{g}" for g in globbed]
    if globbed and len(c.paths) > 1:  # rg X src/search_*.py src/auth.py: the files each names, folders beneath
        return _alternatives([t for p in c.paths for t in _named_by(p, c.tool)])
    names = [g for g in (*c.include, *globbed) if "/" not in g]
    whole = [g for g in (*c.include, *globbed) if "/" in g]
    c = replace(c, paths=() if globbed else c.paths)
    if c.paths or names:  # -g '**/*.py' beside a folder or another name's glob: a name's glob, at any depth
        anywhere = [g for g in whole if g.startswith("**/") and "/" not in g[3:]]
        names += [g[3:] for g in anywhere]
        whole = [g for g in whole if g not in anywhere]
    if len(whole) == 1 and c.paths and not names and all(whole[0].startswith(p.rstrip("/") + "/") for p in c.paths):
        c = replace(c, paths=())  # rg -g 'src/**/*.py' X src: the glob lies within the folder searched
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


def _named_by(path: str, tool: str) -> list[str]:
    """The globs selecting what one of several operands names: a glob (at the top where the shell expands it), or a
    folder with what is beneath it, or a file."""
    if any(ch in path for ch in GLOB_CHARS):
        return [path if "/" in path or tool.startswith("git") else f"/{path}"]
    folder = path.rstrip("/")
    beneath = [f"{folder}/**"] if path.endswith("/") or "." not in folder.rsplit("/", 1)[-1] else []
    return [*beneath, *([] if path.endswith("/") else [folder])]


def _alternatives(globs: list[str]) -> str:
    """One glob selecting what any of ``globs`` does (none holds braces)."""
    if len(globs) <= 1:
        return globs[0] if globs else ""
    exts = [g[2:] for g in globs if re.fullmatch(r"\*\.\w+", g)]
    if len(exts) == len(globs):
        return "*.{" + ",".join(exts) + "}"
    if any(g.startswith("/") for g in globs):  # /setup.py: at the top; a.py (no folder): at any depth
        parts = [g[1:] if g.startswith("/") else g if "/" in g else f"**/{g}" for g in globs]
        return ("{" if any("/" in g for g in parts) else "/{") + ",".join(parts) + "}"
    return "{" + ",".join(globs) + "}"


def apply(p: SearchParams, c: Command) -> tuple[SearchParams, str]:
    """``p`` asked as the command asks, and the note that says how it was read."""
    if c.refused:
        raise InvalidQuery(c.refused)
    glob = path_glob(c)
    if glob and p.path_glob:
        raise InvalidQuery(
            f"the search filters paths 2 ways ({glob}, {p.path_glob}); a search takes one path filter: give one"
        )
    languages = p.languages
    if c.languages or c.not_languages:
        languages = narrowed(p.languages, set(c.languages), set(c.not_languages))
        if not languages:
            types = [*(f"-t {t}" for t in c.languages), *(f"-T {t}" for t in c.not_languages)]
            within = f" within the search's languages ({', '.join(p.languages)})" if p.languages else ""
            raise InvalidQuery(
                f"{c.tool}: the file types ({' '.join(types)}) leave no language to search{within}: drop a -t or -T"
            )
    mode = "paths" if c.lists == "paths" else "regex" if c.regex else "literal"
    options = {**p.options, "mode": mode}
    if c.folder is not None:
        options[FOLDERS_OPTION] = c.folder
    if c.tree is not None:
        options[FOLDER_TREE_OPTION] = c.tree
    if c.exclude or not c.hidden:
        options = excluding(options, (*c.exclude, *(() if c.hidden else HIDDEN_GLOBS)))
    before, after = (min(n, MAX_CONTEXT_LINES) for n in c.context)
    if before or after:
        options[CONTEXT_OPTION] = f"{before},{after}"
    if c.max_count:
        options[MAX_COUNT_OPTION] = str(c.max_count)
    if c.multiline:
        options[MULTILINE_OPTION] = c.multiline
    if c.order:  # wc -l's longest first: the engine sorts the counts of the files listed in the order of their paths
        options[ORDER_OPTION] = "path" if c.counts_lines else c.order
    if c.then:
        options[LINE_FILTERS_OPTION] = json.dumps([f.as_json() for f in c.then])
    if c.holding:
        options[HOLDING_OPTION] = json.dumps([f.as_json() for f in c.holding])
    if c.sizes:
        options[SIZE_OPTION] = "\n".join(c.sizes)
    if not c.links:
        options[LINKS_OPTION] = "no"
    if c.repos and p.repos and not set(c.repos) & set(p.repos):
        raise InvalidQuery(
            f"{c.tool}: the checkout is the repository {c.repos[0]}, which is not among those asked "
            f"({', '.join(p.repos)}): leave out the cd, or ask within {c.repos[0]}"
        )
    asked = replace(
        p,
        query=c.pattern,
        repos=c.repos or p.repos,
        path_glob=glob or p.path_glob,
        languages=languages,
        case_sensitive=c.case_sensitive or p.case_sensitive,
        options=options,
    )
    said = [f"{mode} {c.pattern[:80]!r}"]
    if c.folder is not None and c.tree is not None:  # find -type d, tree -d: the folders alone
        where = "./" if c.folder == "." else f"{c.folder}/"
        depth, _, names = c.tree.partition(":")
        to = "at any depth" if depth == "0" else "directly in it" if depth == "1" else f"to {depth} levels"
        hidden = "" if c.hidden else ", hidden ones left out"
        said = [f"the folders beneath {where}{f' named {names!r}' if names else ''} {to}{hidden}, no files"]
    elif c.folder is not None:  # ls: what it lists, not the glob that selects beneath
        where = "./" if c.folder == "." else f"{c.folder}/"
        said = [f"the files directly in {where} and the folders in it" if c.pattern == "*" else f"{said[0]} in {where}"]
    elif glob:
        said.append(f"in {glob}")
    hidden_said = [] if c.hidden or c.tree is not None else ["hidden files"]  # a folder listing said it already
    if c.exclude or hidden_said:
        said.append(f"not in {' or '.join([*c.exclude, *hidden_said])}")
    if c.languages or c.not_languages:
        said.append(f"in {'/'.join(asked.languages)} files")
    if c.holding:
        held = [
            f"{'not ' if f.invert else ''}{'matching' if f.regex else 'holding'} {f.pattern[:60]!r}" for f in c.holding
        ]
        said.append(f"in the files {' and '.join(held)}")
    if c.unread_types:
        said.append(f"every language (no language of fourfold's is the type {', '.join(c.unread_types)})")
    if c.sizes:
        said.append(f"the files {' '.join(_said_size(t) for t in c.sizes)} keeps (their sizes as indexed)")
    if c.untested:
        said.append(
            f"every file its other tests keep: {', '.join(c.untested)} left out (the index keeps no file's time, "
            "owner or mode, and sizes a listing's files alone)"
        )
    if before or after:
        cut = f" (at most {MAX_CONTEXT_LINES})" if max(c.context) > MAX_CONTEXT_LINES else ""
        lines = "line" if before == 1 else "lines"
        around = f"{before} {lines} of context" if before == after else f"{before} {lines} before and {after} after"
        said.append(f"with {around}{cut}")
    if c.max_count:
        said.append(f"the first {c.max_count} matching line{'s' if c.max_count > 1 else ''} of each file")
    if c.multiline:
        said.append(
            "its matches across lines, each line one spans" + (" (. matching newlines)" * (c.multiline == "dotall"))
        )
    if c.within != (1, 0):  # head -40 a.py | grep def: the lines the grep is given
        top, bottom = c.within
        if top < 0:
            said.append(f"in its last {-top} lines")
        elif bottom > 0:
            said.append(f"in its lines {top}-{bottom}")
        else:
            said.append(f"in its lines from {top}" + (f", all but the last {-bottom}" if bottom else ""))
    if c.counts_lines:
        what = ", ".join(WC_NAMES[letter] for letter in c.counted)
        said.append(f"each file's {what} counted ({wc_said(c.counted)})" + (", most first" if c.order else ""))
    if c.order == "matches":
        said.append("the files with most matching lines first (their counts sorted)")
    elif c.order == "path":
        said.append("in the order of their paths")
    if c.then:
        greps = [  # each as a grep that reads it so (-F a literal)
            f"| grep -{'v' if f.invert else ''}{'' if f.case_sensitive else 'i'}{'E' if f.regex else 'F'} "
            + shlex.quote(f.pattern[:60])
            for f in c.then
        ]
        said.append(f"{' '.join(greps)} (each line seen as {c.then[0].shown})")
    if (c.head or c.tail) and c.counts_lines:  # | sort -n | tail -5: wc's total is one of the lines kept
        kept = c.head or c.tail
        said.append(f"its {'last' if c.tail else 'first'} {kept} line{'s' if kept > 1 else ''} kept")
    elif c.head:  # | head -20: as many lines as it keeps, in the answer's order (the tool's is its walk's)
        unit = "file" if c.head_files else "matching line"
        first = f"the first {c.head} {unit}s" if c.head > 1 else f"the first {unit}"
        said.append(f"{f'head_limit={c.head}' if c.called else f'| head -{c.head}'}: {first} listed")
        if c.head_files:
            asked = replace(asked, k=min(asked.k, c.head))
    said.append("case respected" if asked.case_sensitive else "case ignored")
    if c.repos:
        said.append(f"in the repository {c.repos[0]} (the checkout the cd goes to)")
    what = f"the tool call {c.tool}" if c.called else f"the command {c.tool}"
    left = f"; left out: | {' | '.join(c.left_out)[:120]} (no search runs it)" if c.left_out else ""
    parts = said[0] + "".join(f" {p}" if p.startswith("|") else f", {p}" for p in said[1:])  # a pipe follows on
    return asked, f"read as {what}: {parts}{left}"

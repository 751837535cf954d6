"""A command that reads a file, written as the query: the file's segments that hold the lines it reads.

An agent used to a shell reads a file as ``cat src/api.py``, ``head -n 40 src/api.py``, ``sed -n '120,160p'
src/api.py`` or ``tail -20 CHANGES.md``. Searched as words, the command's name and numbers are searched for
everywhere. Read as the command, the answer is the file's segments (definitions, and windows of the lines no
definition covers) that hold those lines, in line order, each showing its first lines there; a note names the
lines themselves (``fourfold show``, MCP's ``read_file``, the web API), which no search answer carries whole. A
path that names no indexed file (or several) is answered with no hits and a note that says so: a search for the
command's words would be no answer either.

Read: ``cat``, ``less``, ``more``, ``bat`` (``-r A:B``), ``nl`` and an editor (``vim``, ``nano``, ``code``) of one
file; ``head`` and ``tail`` (``-n N``, ``-N``, ``--lines=N``, ``tail -n +N``; bytes, ``-c N``, as the lines that hold
them); ``sed -n 'A,Bp'`` (``$`` for the end; several ranges of one file, ``'1,5p;9,12p'``; a range from a pattern's
line, ``'/^def run/,/^def /p'``); ``awk 'NR>=A && NR<=B'`` (``NR==A``, ``NR==A,NR==B``, ``'/a/,/b/'``); ``wc -l``
(how many lines each file has); ``git show REV:FILE`` and ``git cat-file -p REV:FILE`` (the file at the revision
the index holds of it: a repository indexed at ``REV`` as ``NAME@REV``, else the one indexed, and a note that says
so); and ``cat FILE | head -n N`` (or ``| tail``, ``| sed -n``, ``| wc -l``), and line filters piped one into
another (``head -n 50 a.py | tail -n 10``: its lines 41-50; ``head -n -5``: all but the last 5). Another ``sed`` or
``awk`` script is not read here. Several files (``cat a.py b.py``, ``head -n 20 a.go b.go``) are read each in turn,
as the tool prints them, up to :data:`MAX_FILES`; ``sed`` (and ``cat`` piped to ``head``) reads them as one stream,
its line numbers going on from one file into the next. Words are the shell's: ``src/{app,routes}.py`` is two files,
and a glob (``head -n 3 render/*.go``) reads each file it expands to (``shell_words``).

An agent's read call is read the same way: a tool whose name says it reads, views, opens or shows, with an argument
naming the file and, if any, its lines (``{"command": "view", "path": "a.py", "view_range": [1, 40]}``,
``Read(file_path="/repo/a.py", offset=20, limit=40)``). After ``cd DIR &&``, a path is DIR's (``cd /home/me/web &&
cat README.md``: the repository ``web``'s, where several have one).
"""

from __future__ import annotations

import bisect
import itertools
import posixpath
import re
import shlex
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace

import re2

from fourfold.api import Answer, FusedHit, Hit
from fourfold.coordinator import shell_words
from fourfold.coordinator.search_command import (
    WC_NAMES,
    extended_syntax,
    snake_case,
    split_cd,
    wc_counts,
    wc_said,
    without_redirections,
)
from fourfold.coordinator.shell_words import is_glob
from fourfold.coordinator.tool_call import file_argument, name_words, parse_call, written_as_call
from fourfold.plugins.types import Segment

__all__ = ["FileRead", "answer", "bare", "kept", "past_end", "read", "segment_hit", "text_of", "unread"]

#: Commands that show a whole file: pagers, ``cat`` and its kin, and editors opened on it.
_WHOLE = frozenset({"cat", "less", "more", "bat", "batcat", "nl", "vim", "vi", "nvim", "view", "nano", "emacs", "code"})
#: Pagers and editors opened at a line (``less +120 a.py``, ``vim +120``, ``nano +120,4``): the file from that line.
_AT_LINE = frozenset({"less", "more", "vim", "vi", "nvim", "view", "nano", "emacs"})
#: The lines SWE-agent's ``open FILE [LINE]`` shows: a window of 100, to ``LINE`` + 50 (at least the first 100).
SWE_AGENT_WINDOW = 100
#: Words of a tool's name that say it reads a file (``read_file``, ``view``, ``open_file``, ``Read``).
_READ_WORDS = frozenset({"read", "view", "open", "cat", "show", "display"})
#: A read call's arguments naming its first and its last line.
#: Looked up snake_cased (``startLine`` as ``start_line``); Cursor's read_file: ``start_line_one_indexed``.
_FIRST_KEYS = (
    "start_line",
    "line_start",
    "first_line",
    "start",
    "from_line",
    "offset",
    "line",
    "start_line_one_indexed",
)
_LAST_KEYS = ("end_line", "line_end", "last_line", "end", "to_line", "end_line_one_indexed_inclusive")
#: Lines ``head`` and ``tail`` show when no count is given.
DEFAULT_LINES = 10
#: Files one command names (``cat a b c``); a command naming more is read as words. A glob reads each file it
#: expands to, up to :data:`MAX_EXPANDED` files.
MAX_FILES = 8
MAX_EXPANDED = 100
#: Commands piped after the one that reads (``sed -n '1,80p' a.py | head -n 20 | tail -n 5``).
MAX_PIPED = 3


@dataclass(frozen=True, slots=True)
class PatternRange:
    """Lines from a pattern's (``sed -n '/^def run/,/^def /p'``, ``awk '/start/,/end/'``): from each line ``start``
    matches (a regular expression, as RE2 reads it) or the line numbered so, to the next line ``end`` matches (sed
    looks from the line after; awk from that line itself), the line numbered ``end`` (0: the last), or ``plus`` lines
    on (``/x/,+20p``)."""

    start: str | int
    end: str | int
    plus: int = 0
    awk: bool = False

    @property
    def said(self) -> str:
        """How a note names it: ``/^def run/ to /^def /``."""
        start = f"/{self.start}/" if isinstance(self.start, str) else f"line {self.start}"
        end = (
            f"{self.plus} lines on"
            if self.plus
            else f"/{self.end}/"
            if isinstance(self.end, str)
            else f"line {self.end}"
            if self.end
            else "the end"
        )
        return f"{start} to {end}"

    def ranges(self, text: Mapping[int, str], total: int) -> list[tuple[int, int]]:
        """The (first, last) lines it reads of a file of ``total`` lines, ``text`` each line's."""
        first = re2.compile(self.start) if isinstance(self.start, str) else None
        last = re2.compile(self.end) if isinstance(self.end, str) else None
        out: list[tuple[int, int]] = []
        n = 1
        while n <= total:
            opens = first.search(text.get(n, "")) is not None if first is not None else n == self.start
            if not opens:
                n += 1
                continue
            if self.plus:
                end = min(n + self.plus, total)
            elif last is None:
                end = n if self.end and int(self.end) <= n else min(int(self.end) or total, total)
            else:
                end = next(
                    (m for m in range(n if self.awk else n + 1, total + 1) if last.search(text.get(m, ""))), total
                )
            out.append((n, end))
            if first is None:
                break  # a line number opens one range
            n = end + 1
        return out


@dataclass(frozen=True, slots=True)
class FileRead:
    """A file read by a command: its path as written (a pathname glob, ``render/*.go``, reads each file it expands to),
    and the lines (``last`` 0: to the end, below 0: all but the last ``-last``; ``first`` below 0: the file's last
    ``-first`` lines)."""

    tool: str
    path: str
    first: int = 1
    last: int = 0
    called: bool = False  # an agent's tool call (``read_file(path=…)``), not a shell command
    more: tuple[str, ...] = ()  # the other files it reads the same way, in order (``cat a.py b.py``)
    #: bytes, not lines: the first ``bytes`` (``head -c``), or the last ``-bytes`` (``tail -c``); 0: lines
    bytes: int = 0
    #: the files are one stream, its lines numbered on from one file into the next (``sed -n '1,80p' a b``)
    stream: bool = False
    #: more ranges of lines of the one file, each (first, last) read after ``first``-``last`` (``sed -n '1,5p;9p'``)
    ranges: tuple[tuple[int, int], ...] = ()
    #: the lines a pattern marks (``sed -n '/^def run/,/^def /p'``), found in the file's text when it is read
    marked: PatternRange | None = None
    #: what wc counts of the file, not read (``wc -l``: "l"; ``wc -c``: "c"; ``wc``: "lwc"; ``wc_counts``): its
    #: first segment, and a note of its counts ("" where it is read)
    counted: str = ""
    #: ``tail -c +N``: the bytes from the ``N``-th on (0: none so asked)
    byte_from: int = 0
    #: the lines the commands piped after it keep of its lines, in turn, each (first, last) as ``first``/``last`` are
    #: (``head -n 50 a.py | tail -n 10``: (-10, 0) of lines 1-50)
    then: tuple[tuple[int, int], ...] = ()
    #: the revision git reads the file at (``git show v1.2:a.py``: ``v1.2``; "" for the one indexed: ``HEAD``)
    revision: str = ""

    @property
    def several(self) -> bool:
        """Whether it may read more than one file (several paths, or a glob)."""
        return bool(self.more) or is_glob(self.path)

    def each(self) -> tuple[FileRead, ...]:
        """The read of each file it names, in order (of each range of lines it reads, where it reads several)."""
        if self.ranges:
            one = replace(self, ranges=())
            return (one, *(replace(one, first=first, last=last) for first, last in self.ranges))
        return (replace(self, more=()), *(replace(self, path=path, more=()) for path in self.more))

    @property
    def said(self) -> str:
        """How the notes name what was read: ``the command cat``, ``the tool call read_file``."""
        return f"the {'tool call' if self.called else 'command'} {self.tool}"

    @property
    def viewed_whole(self) -> bool:
        """Whether the whole of the path is asked for, as an editor's or a pager's view is."""
        return (self.first, self.last) == (1, 0) and (self.called or self.tool in _WHOLE)

    def lines(self, total: int) -> tuple[int, int]:
        """The 1-based lines read, of a file of ``total`` lines (first above last: none)."""
        first, last = kept(self.first, self.last, 1, total)
        for keep in self.then:  # each command piped after it keeps some of the lines it is given
            first, last = kept(*keep, first, last)
        return first, last

    def piped(self, after: FileRead) -> FileRead | None:
        """This read with the lines of ``after`` (``head -n 50 a.py | tail -n 10``: ``tail -n 10`` read of a.py) kept
        of its lines; None where the pipe keeps no plain range of lines."""
        if self.counted or after.then:
            return None
        tool = f"{self.tool} | {after.tool}"
        if self.stream:  # cat a b | tail -n 30 | head -n 2: the stream's lines kept again, once its length is known
            if after.bytes or after.byte_from or after.marked or after.ranges or after.counted:
                return None
            return replace(self, tool=tool, then=(*self.then, (after.first, after.last)))
        whole = (self.first, self.last) == (1, 0) and not (self.bytes or self.byte_from or self.marked or self.ranges)
        if whole and not self.then and not self.several:
            # cat a.py | head -50: the head of a.py (its bytes, its lines counted)
            return replace(after, tool=tool, revision=self.revision)
        if after.bytes or after.byte_from or after.marked or after.ranges or after.counted:
            return None
        if whole and not self.then:  # cat *.go | head -3: the first lines of the files as one stream (| tail -n 3:
            if self.tool not in _WHOLE:  # the last, once the files' lengths are known)
                return None
            return replace(after, tool=tool, path=self.path, more=self.more, stream=True, revision=self.revision)
        if self.several or self.bytes or self.byte_from or self.marked or self.ranges:
            return None  # head -n 5 a.py b.py | …: the files' headers are lines too
        return replace(self, tool=tool, then=(*self.then, (after.first, after.last)))

    def in_folder(self, folder: str) -> FileRead:
        """This read run in ``folder`` (``cd src && cat api.py``): its relative paths joined to it (an absolute folder,
        an agent's checkout, makes them absolute: the index's path that ends one names its file)."""

        def joined(path: str) -> str:
            if path.startswith(("/", "~")):
                return path
            return posixpath.normpath(posixpath.join(folder.rstrip("/") or "/", path)).removeprefix("./")

        return replace(
            self, tool=f"cd {folder} && {self.tool}", path=joined(self.path), more=tuple(map(joined, self.more))
        )

    def in_stream(self, offset: int, total: int) -> FileRead | None:
        """The read of one file of a stream (``stream``) whose files before it hold ``offset`` lines, the file
        ``total``: the stream's lines that are in it, numbered in it; None where none is."""
        first, last = self.first - offset, self.last - offset if self.last else total
        if last < 1 or first > total:
            return None
        return replace(self, first=max(1, first), last=min(last, total), stream=False)

    def of_bytes(self, segments: list[Segment], total: int, ended: bool = True) -> tuple[FileRead, str]:
        """The read of the lines that hold the bytes this one reads (``head -c 300``), and how the note says so; the
        file's ``total`` lines as its ``segments`` hold them (a line none holds counted as empty), the last ending in
        a newline where ``ended``."""
        text = text_of(segments)
        ends = list(itertools.accumulate(len(text.get(n, "").encode()) + 1 for n in range(1, total + 1)))
        if ends and not ended:
            ends[-1] -= 1
        size = ends[-1] if ends else 0
        if self.bytes > 0:  # the first line whose end reaches the byte
            last = bisect.bisect_left(ends, min(self.bytes, size)) + 1
            return replace(self, first=1, last=last, bytes=0), f"its first {self.bytes} bytes"
        if self.byte_from:  # tail -c +N: from the line holding the N-th byte
            first = bisect.bisect_right(ends, self.byte_from - 1) + 1
            return replace(self, first=first, last=0, byte_from=0), f"its bytes from byte {self.byte_from}"
        start = max(0, size + self.bytes)  # tail -c N: the line holding the byte N from the end
        first = bisect.bisect_right(ends, start) + 1
        return replace(self, first=min(first, max(total, 1)), last=0, bytes=0), f"its last {-self.bytes} bytes"


def kept(first: int, last: int, top: int, bottom: int) -> tuple[int, int]:
    """The lines ``first``-``last`` (as :class:`FileRead` numbers them) of the lines ``top``-``bottom`` a command is
    given, numbered as those are (first above last: none)."""
    if first < 0:  # tail -n N: the last N
        return max(top, bottom + first + 1), bottom
    end = bottom if last == 0 else bottom + last if last < 0 else min(top + last - 1, bottom)
    return top + first - 1, end


def read(query: str) -> FileRead | None:
    """``query`` read as a command (or an agent's tool call) that reads one file, or None where it is none."""
    text = query.strip()
    if written_as_call(text):
        return _from_call(text)
    if "\n" in text or not text:
        return None
    folder, text = split_cd(text)
    if folder is not None:  # cd src && cat api.py: src/api.py
        found = read(text)
        return None if found is None or found.called else found.in_folder(folder)
    parts = re.split(r"\s\|\s", text)
    if len(parts) > MAX_PIPED + 1:
        return None
    try:
        stages = [shell_words.split(without_redirections(part)) for part in parts]
    except ValueError:
        return None
    if not all(stages):
        return None
    found = _command(stages[0])
    for stage in stages[1:]:  # head -n 50 a.py | tail -n 10: lines 41-50 of a.py
        after = None if found is None else _command([*stage, found.path])
        found = None if found is None or after is None else found.piped(after)
    return found


def _from_call(text: str) -> FileRead | None:
    """An agent's tool call that reads a file (``{"command": "view", "path": "a.py", "view_range": [1, 40]}``,
    ``Read(file_path="/repo/a.py", offset=20, limit=40)``, ``read_file(path="a.py", start_line=3)``): a tool whose
    name says it reads or shows, with an argument naming the file."""
    parsed = parse_call(text, any_case=True)
    if parsed is None:
        return None
    tool, written, subject = parsed
    words = name_words(tool)
    reads = words & _READ_WORDS or ("file" in words and words & {"get", "fetch", "content", "contents"})
    if "search" in words or not reads:
        return None  # search_file_content: a grep's
    args: dict[str, object] = {snake_case(k): v for k, v in written.items()}  # Windsurf's AbsolutePath, StartLine
    offset = _int(args.get("offset"))
    if "absolute_path" in args and offset is not None:  # Gemini CLI's read_file: a 0-based offset
        args["offset"] = offset + 1
    lines = _call_lines(args)
    if lines is None:
        return None
    many = next((args[k] for k in ("paths", "file_paths", "target_files") if k in args), None)
    if isinstance(many, list) and many and all(isinstance(p, str) and p.strip() for p in many) and lines == (1, 0):
        each = read(shlex.join(["cat", *many]))  # Gemini CLI's read_many_files(paths=[…]): each file (a glob's) whole
        return None if each is None else replace(each, tool=tool, called=True)
    path = file_argument(args)
    found = FileRead(tool, path, *lines) if path else _one(tool, [subject], *lines) if subject else None
    return None if found is None else replace(found, called=True)  # open_file("a.py"): the first argument


def _call_lines(args: Mapping[str, object]) -> tuple[int, int] | None:
    """The lines a read call's arguments ask for ((1, 0): the whole file); None where they are no lines."""
    span = next((args[k] for k in ("view_range", "line_range", "range", "lines") if k in args), None)
    if isinstance(span, str):
        m = re.fullmatch(r"\s*(\d+)\s*(?:[-:,]\s*(-?\d+)?)?\s*", span)
        span = None if m is None else [int(m[1]), int(m[2] or 0)]
    if isinstance(span, list) and 1 <= len(span) <= 2 and all(isinstance(v, int) for v in span):
        first, last = span[0], span[1] if len(span) == 2 else span[0]
        last = 0 if last == -1 else last  # the editor tool's [start, -1]: to the end
        return (first, last) if first >= 1 and (last == 0 or last >= first) else None
    first = _int(next((args[k] for k in _FIRST_KEYS if k in args), None))
    last = _int(next((args[k] for k in _LAST_KEYS if k in args), None))
    limit = _int(args.get("limit", args.get("count", args.get("max_lines"))))
    if first is None and last is None and limit is None:
        return 1, 0
    first = first or 1
    if last is None and limit is not None:
        last = first + limit - 1
    if first < 1 or (last is not None and last < first):
        return None
    return first, last or 0


def _int(value: object) -> int | None:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().isdigit():
        return int(value)
    return None


def _command(words: list[str]) -> FileRead | None:
    tool, args = words[0], words[1:]
    if tool == "git":
        return _git(args)
    if tool == "open":
        return _open(args)
    if tool == "str_replace_editor" and args[:1] == ["view"]:
        return _viewed(args[1:])
    if tool in ("head", "tail"):
        return _head_or_tail(tool, args)
    if tool == "sed":
        return _sed(args)
    if tool in ("awk", "gawk", "mawk"):
        return _awk(args)
    flags = [a for a in args if a.startswith("-")]
    letters = wc_counts(flags) if tool == "wc" else None
    if letters is not None and args[: len(flags)] == flags:  # wc -l a.py, wc -c a.py, wc a.py: each file counted
        found = _one(wc_said(letters), args[len(flags) :], 1, 0)
        return None if found is None else replace(found, counted=letters)
    if tool not in _WHOLE:
        return None
    first, last = 1, 0
    operands: list[str] = []
    goto = False  # code -g a.py:120
    i = 0
    while i < len(args):
        a = args[i]
        if tool in _AT_LINE and re.fullmatch(r"\+\d+(?:,\d+)?", a):  # less +120 a.py: the file from line 120
            first = int(a[1:].split(",")[0]) or 1
            i += 1
            continue
        if tool == "code" and a in ("-g", "--goto"):
            goto = True
            i += 1
            continue
        if tool in ("bat", "batcat") and a in ("-r", "--line-range") and i + 1 < len(args):
            m = re.fullmatch(r"(\d*):(\d*)", args[i + 1])
            if m is None:
                return None
            first, last = int(m[1] or 1), int(m[2] or 0)
            i += 2
            continue
        if tool in ("bat", "batcat") and a in ("-l", "--language", "--style", "--theme") and i + 1 < len(args):
            i += 2
            continue
        if a.startswith("+"):
            return None  # less +/pattern, +G: no line the command names
        if not a.startswith("-") or a == "-":
            operands.append(a)
        elif a in ("-c", "--"):
            return None
        i += 1
    at = re.fullmatch(r"(.+?):(\d+)(?::\d+)?", operands[0]) if goto and len(operands) == 1 else None
    if at is not None:  # code -g a.py:120:4: the file from line 120
        operands, first = [at[1]], int(at[2]) or 1
    return _one(tool, operands, first, last)


def _open(args: list[str]) -> FileRead | None:
    """SWE-agent's ``open FILE [LINE]``: the window it shows, the 100 lines up to ``LINE`` + 50 (the first 100 where
    that is fewer), as its ``head -n`` and ``tail -n`` cut them."""
    if not 1 <= len(args) <= 2 or (len(args) == 2 and not args[1].isdigit()):
        return None
    line = int(args[1]) if len(args) == 2 else SWE_AGENT_WINDOW // 2
    found = _one("open", args[:1], 1, max(line + SWE_AGENT_WINDOW // 2, SWE_AGENT_WINDOW))
    return None if found is None else replace(found, then=((-SWE_AGENT_WINDOW, 0),))


def _viewed(args: list[str]) -> FileRead | None:
    """``str_replace_editor view FILE [--view_range A B]`` (an editor tool's command line): the lines A-B (B -1: to
    the end), else the whole file."""
    first, last = 1, 0
    if (
        len(args) == 4
        and args[1] == "--view_range"
        and re.fullmatch(r"\d+", args[2])
        and re.fullmatch(r"-?\d+", args[3])
    ):
        first, last = int(args[2]), max(int(args[3]), 0)
        args = args[:1]
    if len(args) != 1 or first < 1 or (last and last < first):
        return None
    found = _one("str_replace_editor view", args, first, last)
    return None if found is None else replace(found, called=True)


#: Revisions that name the commit checked out, which the index holds.
_HEAD = frozenset({"", "HEAD", "@", "HEAD~0", "HEAD^0"})


def _git(args: list[str]) -> FileRead | None:
    """``git show REV:PATH`` and ``git cat-file -p REV:PATH`` (``blob``, ``--no-pager``): the file at ``REV``."""
    while args and args[0] in ("--no-pager", "-P", "--no-replace-objects"):
        args = args[1:]
    if args[:1] == ["show"]:
        rest = [a for a in args[1:] if a not in ("--no-color", "--color=never", "--no-patch", "--textconv")]
    elif args[:2] in (["cat-file", "-p"], ["cat-file", "blob"]):
        rest = args[2:]
    else:
        return None
    if len(rest) != 1 or ":" not in rest[0] or rest[0].startswith("-"):
        return None  # git show REV: a commit, not a file
    revision, _, path = rest[0].partition(":")
    found = _one(f"git {args[0]}", [path], 1, 0)
    return None if found is None else replace(found, revision="" if revision in _HEAD else revision)


def _head_or_tail(tool: str, args: list[str]) -> FileRead | None:
    count: str | None = None
    size: str | None = None  # -c N: bytes
    operands: list[str] = []
    i = 0
    while i < len(args):
        a = args[i]
        if a in ("-n", "--lines", "-c", "--bytes") and i + 1 < len(args):
            count, size = (args[i + 1], size) if a in ("-n", "--lines") else (count, args[i + 1])
            i += 2
            continue
        m = re.fullmatch(r"-n?(\+?\d+)|--lines=([-+]?\d+)|-c(.+)|--bytes=(.+)", a)
        if m is not None:
            count, size = (m[1] or m[2] or count), (m[3] or m[4] or size)
        elif a in ("-q", "-v", "--quiet", "--silent", "--verbose"):
            pass
        elif a.startswith("-"):
            return None  # -f (follow): no file's lines of the index
        else:
            operands.append(a)
        i += 1
    if size is not None:
        return _bytes(tool, operands, size)
    if count is not None and not re.fullmatch(r"\+?\d+" if tool == "tail" else r"-?\d+", count):
        return None
    n = int(count.lstrip("+-")) if count else DEFAULT_LINES
    if tool == "head" and (count or "").startswith("-"):  # head -n -5: all but the last 5 lines
        return _one(tool, operands, 1, -n) if n else _one(tool, operands, 1, 0)
    if n < 1 and not (count or "").startswith("+"):
        return None
    if tool == "head":
        return _one(tool, operands, 1, n)
    if (count or "").startswith("+"):  # tail -n +N: from line N
        return _one(tool, operands, max(n, 1), 0)
    return _one(tool, operands, -n, 0)


#: ``head -c``'s multipliers: ``K`` and ``M`` by 1024, ``kB`` and ``MB`` by 1000.
_BYTE_UNITS = {"": 1, "K": 1024, "KiB": 1024, "M": 1024**2, "MiB": 1024**2, "kB": 1000, "KB": 1000, "MB": 1000**2}


def _bytes(tool: str, operands: list[str], size: str) -> FileRead | None:
    """``head -c N`` (``300``, ``2K``), ``tail -c N`` or ``tail -c +N`` (from the N-th byte): the lines that hold
    those bytes."""
    m = re.fullmatch(r"(\+?)(\d+)([A-Za-z]*)", size)
    if m is None or m[3] not in _BYTE_UNITS or int(m[2]) < 1 or (m[1] and tool == "head"):
        return None
    n = int(m[2]) * _BYTE_UNITS[m[3]]
    found = _one(f"{tool} -c", operands, 1, 0)
    if found is None or m[1]:
        return None if found is None else replace(found, byte_from=n)
    return replace(found, bytes=n if tool == "head" else -n)


#: A sed range from a pattern's line: ``/RE/,/RE/p``, ``/RE/,+Np``, ``/RE/,$p``, ``/RE/,Np``, ``N,/RE/p``.
_SED_RANGE = re.compile(
    r"(?:(?P<n>\d+)|/(?P<re>(?:[^/\\]|\\.)+)/)\s*,\s*"
    r"(?:(?P<last>\d+)|(?P<dollar>\$)|/(?P<end>(?:[^/\\]|\\.)+)/|\+(?P<plus>\d+))\s*p"
)


def _sed(args: list[str]) -> FileRead | None:
    """``sed -n 'A,Bp' FILE…`` (``Ap``, ``A,$p``); several ranges (``'1,5p;9,12p'``, ``-e 1,5p -e 9p``) of one file;
    a range from a pattern's line (``'/^def run/,/^def /p'``, ``'/TODO/,+3p'``; ``-E``: extended syntax)."""
    quiet = extended = False
    i = 0
    while i < len(args) and args[i].startswith("-") and args[i] != "-e":
        flag = args[i]
        if re.fullmatch(r"-[nEr]+", flag):
            quiet, extended = quiet or "n" in flag, extended or bool(set(flag) & {"E", "r"})
        elif flag in ("--quiet", "--silent", "--regexp-extended"):
            quiet, extended = quiet or flag != "--regexp-extended", extended or flag == "--regexp-extended"
        else:
            return None
        i += 1
    if not quiet:
        return None  # without -n sed prints every line, the range twice
    scripts: list[str] = []
    while i < len(args) and (args[i] == "-e" or not scripts):
        script = args[i + 1] if args[i] == "-e" and i + 1 < len(args) else args[i]
        scripts.append(script)
        i += 2 if args[i] == "-e" else 1
    ranges: list[tuple[int, int]] = []
    parts = [p.strip() for script in scripts for p in _commands(script)]
    for part in parts:
        m = re.fullmatch(r"(\d+)(?:,(\d+|\$))?p", part)
        marked = _SED_RANGE.fullmatch(part) if m is None else None
        if marked is not None and len(parts) == 1 and len(args) - i == 1 and not is_glob(args[i]):
            return _marked("sed -n", args[i:], marked, extended)
        if m is None:
            return None  # s/a/b/, /re/p: another script
        first = int(m[1])
        last = first if m[2] is None else 0 if m[2] == "$" else int(m[2])
        if first < 1 or (last and last < first):
            return None
        ranges.append((first, last))
    if not ranges or not 1 <= len(args) - i <= MAX_FILES:
        return None
    found = _one("sed -n", args[i:], *ranges[0])
    if found is None or (found.several and len(ranges) > 1):
        return None  # several ranges of several files: not read
    return replace(found, stream=found.several, ranges=tuple(ranges[1:]))  # several files: one stream


def _commands(script: str) -> list[str]:
    """A sed script's commands, split at each ``;`` outside a ``/pattern/`` (``/return x;/,/^}/p`` is one)."""
    out, start, inside, i = [], 0, False, 0
    while i < len(script):
        c = script[i]
        if c == "\\":
            i += 2
            continue
        if c == "/":
            inside = not inside
        elif c == ";" and not inside:
            out.append(script[start:i])
            start = i + 1
        i += 1
    return [*out, script[start:]]


def _marked(tool: str, operands: list[str], m: re.Match[str], extended: bool, awk: bool = False) -> FileRead | None:
    """The read of the lines a pattern's range marks (``_SED_RANGE``'s match ``m``), its patterns as RE2 reads them
    (sed's basic syntax made extended)."""

    def syntax(pattern: str) -> str:
        pattern = pattern.replace("\\/", "/")
        return pattern if extended else extended_syntax(pattern)

    g = m.groupdict()  # awk's range writes two patterns, sed's a pattern or a number on each side
    start: str | int = syntax(g["re"]) if g["re"] is not None else int(g["n"])
    end: str | int = (
        syntax(g["end"]) if g["end"] is not None else 0 if g.get("dollar") or g.get("plus") else int(g["last"])
    )
    if start == 0 or (isinstance(start, int) and isinstance(end, int)):
        return None
    found = _one(tool, operands, 1, 0)
    if found is None or found.several:
        return None  # a pattern's ranges over several files: not read
    return replace(found, marked=PatternRange(start, end, int(g.get("plus") or 0), awk))


#: awk's test of line numbers: ``NR>=A``, ``NR<=B``, ``NR==A`` (``>``, ``<`` too), and ``FNR`` alike
_AWK_TEST = re.compile(r"F?NR\s*(==|>=|<=|>|<)\s*(\d+)")


def _awk(args: list[str]) -> FileRead | None:
    """``awk 'NR>=A && NR<=B' FILE`` (``NR==A``, ``NR==A,NR==B``, with ``{print}`` or ``{print $0}``): those lines;
    ``awk '/start/,/end/' FILE``: the lines from each line ``start`` matches to the next ``end`` matches."""
    if len(args) != 2:
        return None
    program = re.sub(r"\{\s*print(?:\s+\$0)?\s*;?\s*\}\s*$", "", args[0]).strip()
    marked = re.fullmatch(r"/(?P<re>(?:[^/\\]|\\.)+)/\s*,\s*/(?P<end>(?:[^/\\]|\\.)+)/", program)
    if marked is not None:  # awk '/start/,/end/': a range pattern, its end looked for from its first line
        return _marked("awk", args[1:], marked, extended=True, awk=True)
    span = re.fullmatch(rf"({_AWK_TEST.pattern})\s*,\s*({_AWK_TEST.pattern})", program)
    if span is not None:  # NR==A,NR==B: a range pattern, from the line A to B
        if span[2] != "==" or span[5] != "==":
            return None
        first, last = int(span[3]), int(span[6])
    else:
        first, last = 1, 0
        for test in re.split(r"\s*&&\s*", program):
            m = _AWK_TEST.fullmatch(test)
            if m is None:
                return None
            n = int(m[2])
            if m[1] in ("==", ">=", ">"):
                first = max(first, n + (m[1] == ">"))
            if m[1] in ("==", "<=", "<"):
                bound = n - (m[1] == "<")
                last = bound if not last else min(last, bound)
    if first < 1 or (last and last < first) or last < 0:
        return None
    found = _one("awk", args[1:], first, last)  # NR numbers the lines of the files it expands to as one stream
    return None if found is None else replace(found, stream=found.several and "FNR" not in program)


def _one(tool: str, operands: list[str], first: int, last: int) -> FileRead | None:
    """The command reading ``operands``' files (one, or up to ``MAX_FILES`` read in turn), where each operand is a
    path (with a folder or an extension)."""
    if not 1 <= len(operands) <= MAX_FILES:
        return None
    paths = []
    for path in operands:
        while path.startswith("./"):
            path = path[2:]
        if not path or path.endswith("/") or ("/" not in path and "." not in path.strip(".") and not bare(path)):
            return None  # "cat", "less likely": no file
        paths.append(path)
    return FileRead(tool, paths[0], first, last, more=tuple(paths[1:]))


#: Files named without an extension (besides names in capitals: ``LICENSE``, ``PKG-INFO``).
_BARE_NAMES = frozenset(
    {"Makefile", "GNUmakefile", "Dockerfile", "Containerfile", "Gemfile", "Rakefile", "Procfile", "Jenkinsfile"}
    | {"Vagrantfile", "Brewfile", "Pipfile", "Justfile", "Caddyfile", "Tiltfile"}
)


def bare(path: str) -> bool:
    """Whether ``path`` is a file's name without an extension (``LICENSE``, ``Makefile``) that a command reads
    (``cat LICENSE``); where no file is so named, the engine searches the command as written (``less CPU``)."""
    return re.fullmatch(r"[A-Z][A-Z0-9_-]{2,}", path) is not None or path in _BARE_NAMES


def answer(
    read_as: FileRead,
    repo: str,
    path: str,
    segments: Iterable[Segment],
    k: int,
    generation: str,
    lines: int = 0,
    ended: bool = True,
    counts: tuple[int, ...] = (),
) -> Answer | None:
    """The segments of ``repo``'s ``path`` that hold the lines ``read_as`` reads, in line order (the first
    ``k``); None where the file has no segment. ``lines``: how many lines the file has, where more are known than
    its segments cover (empty last lines); ``ended``: whether its last line ends in a newline."""
    ordered = sorted(segments, key=lambda s: (s.start_line, -s.end_line))
    if not ordered:
        return None
    empty = not lines and not any(s.content for s in ordered)  # an empty file: one segment, no line
    total = 0 if empty else max(lines, *(s.end_line for s in ordered))
    said = f"read as {read_as.said}"
    if read_as.counted == "l" or (read_as.counted and not counts):  # wc -l: the count, and the file's first segment
        newlines = total if ended or empty else total - 1  # wc counts newlines: a last line without one is not
        return _answer([segment_hit(ordered[0])], 1, generation, (f"{said}: {path} ({repo}) has {newlines} lines",))
    if read_as.counted:  # wc -c, wc: each count wc prints, named
        named = ", ".join(f"{n} {WC_NAMES[letter]}" for n, letter in zip(counts, read_as.counted, strict=True))
        return _answer([segment_hit(ordered[0])], 1, generation, (f"{said}: {path} ({repo}) has {named}",))
    if empty:  # cat __init__.py: nothing to print; its one segment shows the file is there
        return _answer([segment_hit(ordered[0])], 1, generation, (f"{said}: {path} ({repo}) is empty (0 lines)",))
    how = ""  # how the lines were found, where the command does not number them
    if read_as.marked is not None:  # sed -n '/^def run/,/^def /p': the lines its pattern marks
        try:
            spans = read_as.marked.ranges(text_of(ordered), total)
        except re2.error as exc:
            return _answer(
                [], 0, generation, (f"{said}: its pattern is no regular expression RE2 reads ({exc}); nothing read",)
            )
        if not spans:
            return _answer([], 0, generation, (f"{said}: no line of {path} ({repo}) opens its range of lines",))
        how = f"from {read_as.marked.said}"
    else:
        if read_as.bytes or read_as.byte_from:  # head -c 300: the lines that hold those bytes
            read_as, how = read_as.of_bytes(ordered, total, ended)
        spans = [read_as.lines(total)]
        if spans[0][0] > total:
            return _answer(
                [], 0, generation, (f"{said}: {path} ({repo}) has {total} lines, none from line {spans[0][0]}",)
            )
        if spans[0][0] > spans[0][1]:  # head -n 5 a.py | tail -n +9: the pipe keeps none of them
            return _answer([], 0, generation, (f"{said}: it keeps none of the {total} lines of {path} ({repo})",))
    inside = [
        (s, next(a for a, b in spans if s.start_line <= b and s.end_line >= a))
        for s in ordered
        if any(s.start_line <= b and s.end_line >= a for a, b in spans)
    ]
    hits = [
        FusedHit(
            Hit(
                s.id,
                s.repo,
                s.path,
                s.start_line,
                s.end_line,
                1.0 / (rank + 1),
                s.symbol,
                s.kind,
                s.language,
                (first,) if s.start_line < first else (),  # its snippet opens where the lines read begin
            ),
            1.0 / (rank + 1),
        )
        for rank, (s, first) in enumerate(inside[:k])
    ]
    named = ", ".join(f"{a}-{b}" for a, b in spans[:MAX_SPANS_NAMED])
    more = f" and {len(spans) - MAX_SPANS_NAMED} more ranges" if len(spans) > MAX_SPANS_NAMED else ""
    first, last = spans[0]
    notes = [
        f"{said}: the segments of {path} ({repo}) that hold its lines {named}{more} "
        f"(of {total}{f'; {how}' if how else ''}), in line order",
        f"the lines themselves: `fourfold show {repo}:{path}:{first}-{last}`, MCP read_file, or "
        f"/api/v1/files/{repo}/{path}?lines={first}-{last}",
    ]
    if len(inside) > k:
        notes.append(f"{len(inside) - k} more segments hold those lines: ask for more hits (k)")
    return _answer(hits, len(inside), generation, tuple(notes))


#: The ranges of lines one note names (``sed -n '/def /,+3p'`` marks one a function).
MAX_SPANS_NAMED = 5


def segment_hit(s: Segment) -> FusedHit:
    """A hit naming segment ``s`` as it is, unranked (a file's segment shown as read, not found)."""
    return FusedHit(Hit(s.id, s.repo, s.path, s.start_line, s.end_line, 1.0, s.symbol, s.kind, s.language), 1.0)


def text_of(segments: Iterable[Segment]) -> dict[int, str]:
    """Each line of a file as its segments hold it (a line none holds: absent, read as empty)."""
    text: dict[int, str] = {}
    for s in segments:
        for n, line in enumerate(s.content.split("\n"), s.start_line):
            text.setdefault(n, line)
    return text


def joined(answers: list[Answer], generation: str, k: int, every_note: bool = False) -> Answer:
    """The answers to a command's reads of several files, one after another as the tool prints them, their first
    ``k`` hits; the note that says how each file was read first (a client that shows a few notes shows those). The
    notes of a file none of whose hits is among the ``k`` are left out (a glob may read a hundred), but where
    ``every_note`` (``wc -l``: each note is a file's count)."""
    hits = [f for a in answers for f in a.hits]
    shown, left = [], k
    for a in answers:
        if every_note or left > 0 or not a.hits:
            shown.append(a)
        left -= len(a.hits)
    more = (f"{len(hits) - k} more segments of the files read: ask for more hits (k)",) if len(hits) > k else ()
    return _answer(
        hits[:k],
        sum(a.total_candidates for a in answers),
        generation,
        (*(a.notes[0] for a in shown if a.notes), *more, *(n for a in shown for n in a.notes[1:])),
    )


def past_end(read_as: FileRead, total: int, generation: str) -> Answer:
    """The answer to a stream of files (``sed -n '900,950p' a.py b.py``) whose lines all lie past their ``total``."""
    named = ", ".join(read_as.path for read_as in read_as.each())
    return _answer(
        [],
        0,
        generation,
        (f"read as {read_as.said}: {named} hold {total} lines in all, none from line {read_as.first}",),
    )


def unread(read_as: FileRead, files: list[tuple[str, str]], generation: str, unindexed: str = "") -> Answer:
    """The answer to a command whose path names no indexed file the caller may search, or several; ``unindexed``:
    why the files it names are not indexed (``unindexed.unread``)."""
    if not files and unindexed:
        said = f"read as {read_as.said}: {unindexed}"
    elif not files:
        name = read_as.path.rsplit("/", 1)[-1]
        said = (
            f"read as {read_as.said}: no indexed file is {read_as.path!r} in the repositories you may "
            f"search; list the files with `find . -name '{name}'` or `fd {name}`"
        )
    else:
        shown = ", ".join(f"{repo}:{path}" for repo, path in files[:5])
        more = f" and {len(files) - 5} more" if len(files) > 5 else ""
        said = (
            f"read as {read_as.said}: {read_as.path!r} fits several files ({shown}{more}); give more of "
            "its path, or the repository (repo:NAME)"
        )
    return _answer([], 0, generation, (said,))


def _answer(hits: list[FusedHit], candidates: int, generation: str, notes: tuple[str, ...]) -> Answer:
    return Answer(
        intent="exact_match",
        confidence=1.0,
        fusion_strategy="direct",
        preset="default",
        partial=False,
        missing_shards=(),
        hits=tuple(hits),
        total_candidates=candidates,
        timings={},
        generation=generation,
        notes=notes,
        weights={},
        complete=len(hits) == candidates,
    )

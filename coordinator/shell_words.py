"""A command's words as a shell makes them before the tool sees them: ``{a,b}`` braces expanded, and pathname globs
(``render/*.go``) matched against the index's paths.

An agent writes ``cat src/{app,routes}.py`` or ``head -n 3 render/*.go`` and its shell hands the tool the files
those name. Read without the shell, ``src/{app,routes}.py`` is one path that names no file, and ``*.go`` a name no
file has. :func:`split` splits a command as ``shlex.split`` does, and expands the braces of each word written without
quotes (bash's order: left to right, nested, ``{1..3}`` and ``{a..c}`` sequences); :func:`glob_matches` says whether
a path is one a pathname glob expands to (``*``, ``?`` and ``[...]`` within one folder, a leading ``.`` only matched
by a leading ``.``); :func:`commands` splits a line where the shell runs the next command (``cat a.py && cat
b.py``), a ``for`` loop's body run once for each of its words (``for f in a.py b.py; do head -n 5 "$f"; done``).
"""

from __future__ import annotations

import functools
import json
import re
import shlex
from collections.abc import Iterator, Mapping

from fourfold.plugins.globs import brace_group

__all__ = [
    "MAX_WORDS",
    "braces",
    "commands",
    "glob_matches",
    "glob_regex",
    "is_glob",
    "prints_words",
    "search_call",
    "shell_command",
    "split",
    "without_fallbacks",
]

#: Words one brace expansion makes at most (``{1..100000}``: the word is kept as written).
MAX_WORDS = 256
#: A shell word as written: unquoted characters, quoted strings and escapes, up to unquoted whitespace.
_WORD = re.compile(r"""(?:[^\s'"\\]+|'[^']*'|"(?:[^"\\]|\\.)*"|\\.)+""")
_SEQUENCE = re.compile(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?|([A-Za-z])\.\.([A-Za-z])")


def split(text: str, comments: bool = False) -> list[str]:
    """``text``'s words, as ``shlex.split`` makes them, the braces each writes outside quotes and escapes expanded
    (``''{a,b}.go``: ``a.go b.go``; ``'{a,b}'``: itself). Raises ``ValueError`` as ``shlex.split`` does (an unclosed
    quote)."""
    words = shlex.split(text, comments=comments)
    raw = [m[0] for m in _WORD.finditer(text)]
    if comments:
        kept = next((i for i, w in enumerate(raw) if w.startswith("#")), len(raw))
        raw = raw[:kept]
    if len(raw) != len(words) or not any("{" in w for w in raw):
        return words  # nothing to expand (or a word shlex reads otherwise: kept as shlex reads it)
    out: list[str] = []
    for written, word in zip(raw, words, strict=True):
        if not set(written) & set("'\"\\"):
            out.extend(braces(word))
            continue
        marked = _quoted_marked(written)  # ''{a,b}.go: the braces outside the quotes expand
        out.extend([w.translate(_UNMARK) for w in braces(marked)] if marked.translate(_UNMARK) == word else [word])
    return out


#: Brace characters written inside quotes or escaped, marked so no expansion reads them, and unmarked after.
_MARK = str.maketrans({"{": "\ue000", "}": "\ue001", ",": "\ue002"})
_UNMARK = str.maketrans({"\ue000": "{", "\ue001": "}", "\ue002": ","})


def _quoted_marked(written: str) -> str:
    """The word ``written`` as the tool gets it, its quoted and escaped brace characters marked (:data:`_MARK`)."""
    out, i = [], 0
    while i < len(written):
        c = written[i]
        if c == "'":
            end = written.index("'", i + 1)
            out.append(written[i + 1 : end].translate(_MARK))
            i = end + 1
        elif c == '"':
            i += 1
            while written[i] != '"':
                if written[i] == "\\" and written[i + 1] in '"\\$`':
                    i += 1
                out.append(written[i].translate(_MARK))
                i += 1
            i += 1
        elif c == "\\":
            out.append(written[i + 1].translate(_MARK))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


#: ``for VAR in WORDS; do BODY; done`` as one line writes it (what follows ``done`` is more commands, or none).
_FOR = re.compile(r"for\s+([A-Za-z_]\w*)\s+in\s+(.+?)\s*;\s*do\s+(.+?)\s*;?\s*done(?=\s*(?:;|&&|$))", re.DOTALL)
#: The commands that print their own words, not a file's (``echo '---'`` between two reads).
_PRINTS_WORDS = re.compile(r"(?:cd\s+\S+\s+&&\s+)?(?:echo|printf)(?:\s.*)?", re.DOTALL)


#: The commands a command given as its words may run, as the readers know them (``["rg", "-n", "X"]``).
_COMMANDS = frozenset(
    {"rg", "grep", "egrep", "fgrep", "ag", "ack", "git", "find", "fd", "ls", "tree", "cat", "head", "tail", "sed"}
    | {"awk", "wc", "nl", "less", "more", "go", "pydoc", "python", "python3"}
)
#: The shells an agent hands a command to (``bash -lc '…'``, ``["bash", "-lc", "…"]``), by name or path.
_SHELLS = re.compile(r"(?:/usr)?(?:/bin/)?(?:bash|sh|zsh|dash|ksh)")
#: Agents' shell tools, by name: Claude Code's ``Bash``, OpenHands' ``execute_bash``, Codex's ``shell`` and
#: ``exec_command``, Gemini CLI's ``run_shell_command``, Cline's ``execute_command``, Cursor's ``run_terminal_cmd``.
_SHELL_TOOLS = frozenset(
    {"bash", "shell", "sh", "execute_bash", "exec_command", "run_shell_command", "execute_command", "run_terminal_cmd"}
    | {"run_command", "terminal", "run_in_terminal", "local_shell", "container.exec"}
)
#: The arguments of a shell tool's call besides its command (anything else, a ``path``, says it is another tool's).
_SHELL_ARGS = frozenset(
    {"tool", "name", "command", "cmd", "workdir", "cwd", "working_directory", "directory", "timeout", "timeout_ms"}
    | {"description", "is_background", "run_in_background", "restart", "security_risk", "justification"}
    | {"with_escalated_permissions", "is_input", "explanation", "require_user_approval", "yield_time_ms"}
)


def shell_command(text: str) -> str | None:
    """The command ``text`` hands a shell, where it is an agent's shell call rather than the command itself:
    ``bash -lc 'rg -n X'``, ``["bash", "-lc", "rg -n X"]`` (Codex), ``{"command": "rg -n X", "workdir": "src"}``,
    ``Bash(command="rg -n X")``, ``execute_bash(command=…)``, ``run_shell_command(command=…)`` (a working folder
    kept as ``cd DIR && …``); None where it is none."""
    from fourfold.coordinator.tool_call import parse_call  # the calls' reader: no cycle at import

    stripped = text.strip()
    if not stripped or len(stripped) > 8_000:
        return None
    if stripped[0] in "[{":
        try:
            loaded = json.loads(stripped)
        except ValueError:
            return None
        return _called(loaded) if isinstance(loaded, Mapping) else _argv(loaded)
    if re.match(r"[\w.]+\(", stripped):
        parsed = parse_call(stripped, any_case=True)
        if parsed is None or parsed[0].lower() not in _SHELL_TOOLS:
            return None
        args = dict(parsed[1])
        literal = re.search(r"""\b(command|cmd)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)')""", stripped)
        if literal is not None:  # the string literal whole, its escapes read: Bash(command="grep -n \"a b\" x")
            args[literal[1]] = re.sub(r"""\\(["'\\])""", r"\1", literal[2] if literal[2] is not None else literal[3])
        return _called({**args, "tool": parsed[0]})
    try:
        words = shlex.split(stripped)
    except ValueError:
        return None
    return _argv(words) if len(words) == 3 and _SHELLS.fullmatch(words[0]) else None  # bash -lc 'rg -n X'


def _argv(words: object) -> str | None:
    """A command given as its words (``["bash", "-lc", "rg -n X"]``: ``rg -n X``; ``["rg", "-n", "X"]``)."""
    if not isinstance(words, list) or not words or not all(isinstance(w, str) for w in words):
        return None
    if _SHELLS.fullmatch(words[0]):
        flagged = len(words) == 3 and re.fullmatch(r"-[a-z]*c[a-z]*", words[1]) is not None
        return words[2].strip() or None if flagged else None
    return shlex.join(words) if words[0] in _COMMANDS else None  # ["rg", "-n", "X"]; ["retry", "backoff"]: words


def _called(args: Mapping[str, object]) -> str | None:
    """A shell tool's arguments (``{"command": …, "workdir": "src"}``) as the command it runs."""
    tool = str(args.get("tool", args.get("name", "bash"))).lower()
    if tool not in _SHELL_TOOLS or not set(args) <= _SHELL_ARGS:
        return None
    given = args.get("command", args.get("cmd"))
    command = given.strip() if isinstance(given, str) else _argv(given)
    if not command:
        return None
    folder = next((args[k] for k in ("workdir", "cwd", "working_directory", "directory") if args.get(k)), None)
    return f"cd {shlex.quote(folder)} && {command}" if isinstance(folder, str) else command


#: Agents' search tools that take a question and leave its kind to the engine: Cursor's ``codebase_search``, and the
#: like; a call saying its kind (``search_code(kind="symbol_def")``) is the tool calls' reader's.
_SEARCH_TOOLS = frozenset({"codebase_search", "semantic_search", "search_codebase", "code_search", "search_code"})
_SEARCH_ARGS = frozenset(
    {"query", "q", "search_query", "information_request", "target_directories", "directories", "directory", "path"}
    | {"explanation", "k", "limit", "max_results", "top_k"}
)


def search_call(text: str) -> tuple[str, tuple[str, ...]] | None:
    """An agent's search call that asks a question (``codebase_search(query="how are templates rendered",
    target_directories=["render"])``): the question, and the folders it is kept to; None where it is none."""
    from fourfold.coordinator.tool_call import parse_call  # the calls' reader: no cycle at import

    stripped = text.strip()
    if not re.match(r"[\w.]+\(|\{", stripped):
        return None
    parsed = parse_call(stripped, any_case=True)
    if parsed is None or parsed[0].rsplit(".", 1)[-1].lower() not in _SEARCH_TOOLS:
        return None
    args = {k: v for k, v in parsed[1].items() if k not in ("tool", "name")}
    question = next(
        (v for k in ("query", "q", "search_query", "information_request") if isinstance(v := args.get(k), str)), ""
    )
    if not question.strip() or not set(args) <= _SEARCH_ARGS:
        return None
    given = args.get("target_directories", args.get("directories", args.get("directory", args.get("path"))))
    folders = [given] if isinstance(given, str) else given if isinstance(given, list) else []
    kept = tuple(f.strip().strip("/") for f in folders if isinstance(f, str) and f.strip().strip("/."))
    return question.strip(), kept


def prints_words(command: str) -> bool:
    """Whether ``command`` prints its own words, not a file's: ``echo '=== a.py ==='``, ``printf '\\n'``."""
    return _PRINTS_WORDS.fullmatch(command.strip()) is not None and "|" not in command


def _looped(text: str) -> str | None:
    """``text`` with each ``for`` loop written out, its body once for each word (``$VAR``, ``${VAR}`` and ``"$VAR"``
    replaced by the word as written, so a glob or a ``$(...)`` is the shell's still), the runs joined by ``;``; None
    where it writes no loop, or one of more than :data:`MAX_WORDS` words."""
    out, at = [], 0
    for m in _FOR.finditer(text):
        name, listed, body = m[1], m[2], m[3]
        before = text[at : m.start()]
        if before.strip() and not re.search(r"(?:;|&&)\s*$", before):
            return None  # a loop inside another command (| while …, $(for …)): not read
        words = _raw_words(listed)
        if not words or len(words) > MAX_WORDS or re.search(r"\bfor\s", body):
            return None
        variable = re.compile(rf'"\$\{{?{name}\}}?"|\$\{{{name}\}}|\${name}(?!\w)')
        out.append(before + "; ".join(variable.sub(lambda _m, w=w: w, body) for w in words))
        at = m.end()
    return None if not out else "".join(out) + text[at:]


def _outside(text: str) -> Iterator[int]:
    """The positions of ``text``'s characters outside quotes, escapes and ``$(...)``, where the shell reads them."""
    quote, depth, i = "", 0, 0
    while i < len(text):
        c = text[i]
        if c == "\\" and quote != "'":
            i += 2
            continue
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"`":
            quote = c
        elif text.startswith("$(", i):
            depth += 1
            i += 1
        elif c == ")" and depth:
            depth -= 1
        elif not depth:
            yield i
        i += 1


def _raw_words(text: str) -> list[str]:
    """``text``'s words as written, quotes, escapes and ``$(...)`` kept (``a "b c" $(find . -name x)``: three)."""
    cuts = [i for i in _outside(text) if text[i].isspace()]
    pieces = [text[a + 1 : b] for a, b in zip([-1, *cuts], [*cuts, len(text)], strict=True)]
    return [piece for piece in pieces if piece]


def without_fallbacks(text: str) -> tuple[str, list[str]]:
    """``text`` without the commands that run only where the one before fails (``rg X src || true``, ``grep -rn X .
    || echo none``: each ``|| B`` up to the next ``;`` or ``&&`` outside quotes), and those commands (``B``)."""
    if "||" not in text:
        return text, []
    kept, dropped, start, cut = [], [], 0, -1
    for i in _outside(text):
        if i < start:
            continue
        if text.startswith("||", i) and cut < 0:
            kept.append(text[start:i])
            cut, start = i + 2, i + 2
        elif cut >= 0 and (text[i] == ";" or text.startswith("&&", i)):
            dropped.append(text[cut:i].strip())
            cut, start = -1, i
    if cut >= 0:
        dropped.append(text[cut:].strip())
    else:
        kept.append(text[start:])
    return " ".join(part.strip() for part in kept if part.strip()), [d for d in dropped if d]


def commands(text: str) -> list[str]:
    """The commands ``text`` runs one after another, split at each ``&&`` and ``;`` outside quotes, escapes and
    ``$(...)`` (``cat a.py && cat b.py``: two; ``find . -exec grep X {} \\;``: one); a ``cd DIR`` among them is
    kept before each command after it (``cd src && cat a.py; cat b.py``: ``cd src && cat a.py``, ``cd src && cat
    b.py``), and a ``for`` loop's body once for each of its words. One command (or none), no loop: ``[text]``."""
    looped = _looped(text) if re.search(r"(?:^|;|&&)\s*for\s", text) else None
    if looped is not None:
        text = looped
    parts, start = [], 0
    for i in _outside(text):
        if i >= start and (text[i] == ";" or text.startswith("&&", i)):
            parts.append(text[start:i].strip())
            start = i + (1 if text[i] == ";" else 2)
    parts = [part for part in [*parts, text[start:].strip()] if part]
    out: list[str] = []
    folder = ""
    for part in parts:
        if re.fullmatch(r"cd\s+\S+", part):
            folder = f"{part} && "
            continue
        out.append(folder + part)
    return out if len(out) > 1 or looped is not None else [text]


def braces(word: str) -> list[str]:
    """``word`` brace-expanded as bash does: ``a{b,c}d`` -> ``abd acd``; ``{a,{b,c}}`` -> ``a b c``; ``x{1..3}`` ->
    ``x1 x2 x3``; a brace holding no comma and no sequence (``{}``, ``{x}``, ``${HOME}``) is kept as written."""
    i = 0
    while i < len(word):
        if word[i] == "{" and not word[:i].endswith("$"):
            found = _group(word, i)
            if found is not None:
                end, alternatives = found
                tails = braces(word[end + 1 :])
                out = [word[:i] + a + t for alt in alternatives for a in braces(alt) for t in tails]
                return out if len(out) <= MAX_WORDS else [word]
        i += 1
    return [word]


def _group(word: str, start: int) -> tuple[int, list[str]] | None:
    """The brace group opening at ``start``: where it closes, and its alternatives (a sequence's words); None where
    the brace opens none (no closing brace, or neither a comma nor a sequence inside)."""
    group = brace_group(word, start)
    if group is None or len(group[1]) > 1:
        return group
    end, (inside,) = group
    sequence = _sequence(inside)
    return None if sequence is None else (end, sequence)


def _sequence(inside: str) -> list[str] | None:
    """``1..5``, ``5..1``, ``0..10..2``, ``a..e``: the words it stands for; None where it is no sequence."""
    m = _SEQUENCE.fullmatch(inside)
    if m is None:
        return None
    if m[4] is not None:
        a, b = ord(m[4]), ord(m[5])
        step = 1 if b >= a else -1
        return [chr(c) for c in range(a, b + step, step)]
    a, b, by = int(m[1]), int(m[2]), abs(int(m[3] or 1)) or 1
    if abs(b - a) // by >= MAX_WORDS:
        return None
    width = max(len(m[1]), len(m[2])) if m[1].lstrip("-").startswith("0") or m[2].lstrip("-").startswith("0") else 0
    step = by if b >= a else -by
    return [str(n).zfill(width) for n in range(a, b + (1 if step > 0 else -1), step)]


def is_glob(word: str) -> bool:
    """Whether the shell would expand ``word`` as a pathname glob (it holds ``*``, ``?`` or a ``[...]`` class)."""
    return "*" in word or "?" in word or re.search(r"\[[^]]+\]", word) is not None


def glob_matches(glob: str, path: str) -> bool:
    """Whether ``path`` (a repository path, folders split by ``/``) is one the pathname glob ``glob`` expands to:
    as many folders, each name matched by its part (``*``, ``?``, ``[...]``; a name starting ``.`` only by a part
    starting ``.``)."""
    return glob_regex(glob).fullmatch(path) is not None


@functools.lru_cache(maxsize=256)
def glob_regex(glob: str, globstar: bool = False) -> re.Pattern[str]:
    """The regular expression that fully matches the paths :func:`glob_matches` says ``glob`` expands to (one
    compiled expression: a list of paths is matched at the speed of ``re``). ``globstar``: a folder part ``**`` is
    any number of folders, none among them, as zsh, bash's ``globstar`` and agents' glob tools read it (Gemini CLI's
    ``read_many_files``); else ``*``, as bash reads it by default."""
    parts = glob.split("/")
    if not globstar or "**" not in parts[:-1]:
        return re.compile("/".join(_part_regex(part) for part in parts), re.DOTALL)
    folders = "".join(r"(?:(?!\.)[^/]+/)*" if part == "**" else _part_regex(part) + "/" for part in parts[:-1])
    return re.compile(folders + _part_regex(parts[-1]), re.DOTALL)


def _part_regex(part: str) -> str:
    out = [] if part.startswith(".") else [r"(?!\.)"]  # a leading . is matched only by a leading .
    i = 0
    while i < len(part):
        c = part[i]
        end = part.find("]", i + 2) if c == "[" else -1
        if c == "*":
            out.append("[^/]*")
        elif c == "?":
            out.append("[^/]")
        elif end > 0:
            body = part[i + 1 : end]
            body = "^" + body[1:] if body[:1] in "!^" else body
            out.append("[" + body.replace("\\", "\\\\").replace("[", "\\[") + "]")
            i = end
        else:
            out.append(re.escape(c))
        i += 1
    return "".join(out)

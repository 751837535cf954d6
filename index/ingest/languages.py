"""Language detection by file name, extension and shebang (tree-sitter-language-pack names); a ``.h`` header
is C++ where its text says so."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

__all__ = ["HEADER_SNIFF_BYTES", "KNOWN_LANGUAGES", "detect_language"]

_BY_EXTENSION: dict[str, str] = {
    ".py": "python",
    ".pyi": "python",
    ".pyw": "python",
    ".js": "javascript",
    ".mjs": "javascript",
    ".cjs": "javascript",
    ".jsx": "javascript",
    ".ts": "typescript",
    ".mts": "typescript",
    ".cts": "typescript",
    ".tsx": "tsx",
    ".go": "go",
    ".java": "java",
    ".rs": "rust",
    ".c": "c",
    ".h": "c",
    ".cc": "cpp",
    ".cpp": "cpp",
    ".cxx": "cpp",
    ".hpp": "cpp",
    ".hh": "cpp",
    ".hxx": "cpp",
    ".cs": "csharp",
    ".rb": "ruby",
    ".php": "php",
    ".kt": "kotlin",
    ".kts": "kotlin",
    ".swift": "swift",
    ".scala": "scala",
    ".sc": "scala",
    ".lua": "lua",
    ".pl": "perl",
    ".pm": "perl",
    ".r": "r",
    ".jl": "julia",
    ".ex": "elixir",
    ".exs": "elixir",
    ".erl": "erlang",
    ".hs": "haskell",
    ".ml": "ocaml",
    ".dart": "dart",
    ".zig": "zig",
    ".nim": "nim",
    ".clj": "clojure",
    ".elm": "elm",
    ".sh": "bash",
    ".bash": "bash",
    ".zsh": "bash",
    ".sql": "sql",
    ".proto": "proto",
    ".graphql": "graphql",
    ".html": "html",
    ".htm": "html",
    ".css": "css",
    ".scss": "scss",
    ".vue": "vue",
    ".svelte": "svelte",
    ".json": "json",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".toml": "toml",
    ".xml": "xml",
    ".md": "markdown",
    ".rst": "rst",
    ".txt": "text",
    ".tf": "hcl",
    ".hcl": "hcl",
    ".cmake": "cmake",
    ".mk": "make",
}

_BY_NAME: dict[str, str] = {
    "Makefile": "make",
    "makefile": "make",
    "GNUmakefile": "make",
    "Dockerfile": "dockerfile",
    "CMakeLists.txt": "cmake",
    "Rakefile": "ruby",
    "Gemfile": "ruby",
    "BUILD": "starlark",
}

_SHEBANG = re.compile(rb"^#!\S*?(?:/env\s+)?(?:\S*/)?(python|node|bash|sh|ruby|perl)")
_SHEBANG_LANG = {
    b"python": "python",
    b"node": "javascript",
    b"bash": "bash",
    b"sh": "bash",
    b"ruby": "ruby",
    b"perl": "perl",
}


#: Every language name a file may be indexed under: the values ``--lang`` may filter on.
KNOWN_LANGUAGES: frozenset[str] = frozenset(
    {*_BY_EXTENSION.values(), *_BY_NAME.values(), *_SHEBANG_LANG.values(), "text"}
)


#: What only a C++ header writes, at a line's start (a class, a namespace, a template, an access label, a C++
#: library include) or anywhere (``std::``): a ``.h`` file with one is C++, whose classes a C reader loses.
_CPP_HEADER = re.compile(
    rb"^[ \t]*(?:template\s*<|class\s+\w+\s*(?:final\s*)?[:{;]|namespace\s+\w*\s*\{|using\s+namespace\s"
    rb"|(?:public|private|protected)\s*:"
    rb"|#\s*include\s*<(?:c(?:std\w+|stdint|stddef|stdio|stdlib|string|assert|math|limits)|string|vector|map|set"
    rb"|list|array|memory|utility|functional|algorithm|iostream|sstream|fstream|unordered_map|unordered_set"
    rb"|atomic|mutex|thread|optional|tuple|type_traits|limits|deque|queue|stack|bitset|chrono|iosfwd|new)>)"
    rb"|\bstd::\w",
    re.MULTILINE,
)
#: How much of a ``.h`` file is read for that.
HEADER_SNIFF_BYTES = 64 * 1024


def detect_language(path: str, head: bytes = b"") -> str:
    """The language of ``path`` ("text" when nothing better is known); ``head``, the file's bytes or its first ones
    (a ``.h`` file's first ``HEADER_SNIFF_BYTES`` tell C++ from C)."""
    p = PurePosixPath(path)
    if p.name in _BY_NAME:
        return _BY_NAME[p.name]
    lang = _BY_EXTENSION.get(p.suffix.lower())
    if lang == "c" and p.suffix == ".h" and _CPP_HEADER.search(head[:HEADER_SNIFF_BYTES]):
        return "cpp"
    if lang:
        return lang
    m = _SHEBANG.match(head)
    if m:
        return _SHEBANG_LANG[m.group(1)]
    return "text"

"""Language detection by file name, extension and shebang (tree-sitter-language-pack names)."""

from __future__ import annotations

import re
from pathlib import PurePosixPath

__all__ = ["KNOWN_LANGUAGES", "detect_language"]

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


def detect_language(path: str, head: bytes = b"") -> str:
    """The language of ``path`` ("text" when nothing better is known)."""
    p = PurePosixPath(path)
    if p.name in _BY_NAME:
        return _BY_NAME[p.name]
    lang = _BY_EXTENSION.get(p.suffix.lower())
    if lang:
        return lang
    m = _SHEBANG.match(head)
    if m:
        return _SHEBANG_LANG[m.group(1)]
    return "text"

"""The comment block that documents a definition: the comment lines right above it, in any language.

In most languages a function's documentation is the comment above it (Go's ``// Name does ...``,
JSDoc's ``/** ... */``, Rust's ``///``, Java's Javadoc, a Python ``#`` block), and segmentation puts
those lines outside the definition's segment, in the gap between definitions. A modality that reads
what a definition says of itself asks here which lines those are: the semantic modality embeds them
as the definition's documentation window; the text modality counts their words as the definition's
(so a question in the comment's words finds the function, not the comment alone).

Said once, on the plugin side of the boundary, so that both read the same lines.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence

__all__ = ["clean", "comment_above", "comment_marker", "hash_comments"]

#: Languages whose comments start with ``#`` (elsewhere ``#`` opens an attribute or a directive).
_HASH_COMMENTS = frozenset({"python", "ruby", "shell", "bash", "perl", "r", "elixir", "yaml", "toml", "makefile"})
#: Line comments and block-comment lines of the C family (Go, JavaScript, Java, Rust, C#...).
_SLASH_COMMENT = re.compile(r"^\s*(?://[/!]?|/\*\*?|\*/?)")
_HASH_COMMENT = re.compile(r"^\s*#(?![!\[])")
_SQL_COMMENT = re.compile(r"^\s*--")
#: What may stand between a doc comment and its definition: decorators, annotations, attributes.
_BETWEEN = re.compile(r"^\s*(?:@|#\[|\[[A-Za-z])")
#: A comment that speaks to a tool, not to a reader (``// eslint-disable-next-line``,
#: ``/* tslint:disable:max-line-length */``, ``// @ts-ignore``, a Python noqa): never documentation; it
#: may stand between a doc comment and its definition, as a decorator may.
#: Case-sensitive, as the tools write them: a doc line "ESLint rules are read here" is prose.
_DIRECTIVE_WORDS = (
    r"(?:eslint(?:-disable|-enable|-env)?\b|tslint:|jshint\b|jscs:|istanbul ignore|c8 ignore"
    r"|@ts-(?:ignore|expect-error|nocheck|check)\b|prettier-ignore|noqa\b|type:\s*ignore|pylint:|mypy:"
    r"|NOLINT|NOSONAR|noinspection\b|#(?:end)?region\b|jscpd:)"
)
_DIRECTIVE = re.compile(rf"^\s*(?://+|/\*+|#)\s*{_DIRECTIVE_WORDS}")
_DIRECTIVE_TEXT = re.compile(rf"^{_DIRECTIVE_WORDS}")  # a line with its marker removed
#: Blank lines a closed block comment (``/** ... */``) may leave above its definition, as JSDoc in
#: express or commander does for most functions; a line comment (``//``, ``#``) must touch it.
_BLANKS = 2


def hash_comments(language: str) -> bool:
    """Whether ``#`` starts a comment in ``language`` (elsewhere it opens an attribute or a directive)."""
    return language in _HASH_COMMENTS


def comment_marker(language: str) -> re.Pattern[str]:
    """The pattern of a line that is (or continues) a comment in ``language``, from its start."""
    if language in _HASH_COMMENTS:
        return _HASH_COMMENT
    if language in ("sql", "lua", "haskell"):
        return _SQL_COMMENT
    return _SLASH_COMMENT


def comment_above(lines: Mapping[int, str], start: int, language: str) -> tuple[int, list[str]]:
    """The first line and the lines, markers removed, of the comment block right above line ``start``.

    ``lines``: the file's lines by 1-based number (a line not given is read as blank: a file put
    back together from its segments lacks the blank lines between them).
    Decorators, annotations, attributes and tool directives (``// eslint-disable-next-line``) may stand
    between the block and ``start``, and a block of directives alone is none; blank lines
    only below a closed block comment (``*/``, at most ``_BLANKS``): a blank line ends a run of line
    comments, which above code is as often a section's heading as documentation.
    No block: ``(n, [])`` where ``n`` is the line after the last line looked at.
    """
    comment = comment_marker(language)
    n = start - 1
    while n in lines and (_DIRECTIVE.match(lines[n]) or (_BETWEEN.match(lines[n]) and not comment.match(lines[n]))):
        n -= 1
    if comment is _SLASH_COMMENT:  # a closed block comment may stand a blank line or two above (JSDoc)
        m = n
        while n - m < _BLANKS and m >= 1 and not lines.get(m, "").strip():
            m -= 1  # a line not given is blank: segments leave blank lines out
        if m < n and m in lines and lines[m].rstrip().endswith("*/") and comment.match(lines[m]):
            n = m
    found: list[str] = []
    while n in lines and comment.match(lines[n]):
        found.append(comment.sub("", lines[n], count=1))
        n -= 1
    return n + 1, found[::-1]


def clean(lines: Sequence[str]) -> str:
    """Lines stripped, a closing ``*/``, the empty lines and tool directives left out."""
    stripped = (line.strip().removesuffix("*/").strip() for line in lines)
    return "\n".join(kept for kept in stripped if kept and not _DIRECTIVE_TEXT.match(kept))

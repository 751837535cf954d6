"""Symbol query understanding: what definition a free-text query asks for.

:func:`parse_symbol_query` is a pure function so the coordinator can reuse it (to classify
intent, or to show how a query was read). It understands

* keyword forms: ``def X``, ``class X``, ``func X``, ``fn X``, ``interface X``, ``type X``,
  ``struct X``, ``trait X``, ``enum X`` (the keyword becomes a kind preference);
* a declaration pasted as it is written: ``class X extends Y``, ``pub fn m(&self)``, ``async def m(``,
  ``export default function m(``, ``public static String m(String s)``, Go's ``func (c *Context) JSON``
  (the receiver's type qualifies the name);
* ``methods of X`` / ``members of X`` / ``fields of X`` (definitions whose parent is ``X``);
* ``where is X defined`` (or *actually* defined, declared, implemented), ``definition of X``,
  ``X definition``;
* a bare identifier, CamelCase or snake_case, or a qualified one (``Session.send``,
  ``gin.Context.JSON``, ``ns::Foo::bar``, ``Foo#bar``);
* an identifier inside natural language (``where is parseConfig defined``): the first token that
  looks like code (CamelCase, snake_case, dotted, or followed by ``()``); where none does, one the
  query marks as a name with quotes or backticks (``where is "progress" defined``, ``who calls `echo```).

Natural language without such a token gives ``None``; a query with no letter or digit at all is
an :class:`~fourfold.errors.InvalidQuery`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from fourfold.errors import InvalidQuery
from fourfold.plugins.vocabulary import QUALIFIER_SEPARATORS, looks_like_code, plain_receivers

__all__ = ["SymbolQuery", "parse_symbol_query"]

_IDENT = r"[A-Za-z_$~][\w$]*"
_QUALIFIED = rf"{_IDENT}(?:(?:{QUALIFIER_SEPARATORS}){_IDENT})*"
_SEPARATORS = re.compile(QUALIFIER_SEPARATORS)

# Keyword -> kinds it prefers (the first word of ``def X``, ``class X``...).
_KEYWORD_KINDS: dict[str, tuple[str, ...]] = {
    "def": ("function", "method"),
    "func": ("function", "method"),
    "fn": ("function", "method"),
    "fun": ("function", "method"),
    "function": ("function", "method"),
    "method": ("method",),
    "class": ("class",),
    "interface": ("interface", "trait"),
    "protocol": ("interface",),
    "trait": ("trait", "interface"),
    "type": ("type", "class", "struct", "interface", "enum", "trait"),
    "struct": ("struct",),
    "enum": ("enum",),
    "module": ("module",),
    "namespace": ("module",),
    "const": ("constant",),
    "constant": ("constant",),
    "var": ("variable",),
    "macro": ("macro",),
}
#: A name may be marked as code in a question: `Session.send`, "progress", 'parse_config'.
_MARK = r"[`'\"]?"
_KEYWORD_FORM = re.compile(
    rf"^\s*({'|'.join(_KEYWORD_KINDS)})\s+{_MARK}({_QUALIFIED}){_MARK}\s*(?:\(.*)?$", re.IGNORECASE
)
#: Words that may stand before a declaration's keyword or type: ``export default function``,
#: ``pub(crate) fn``, ``public static``, ``async def``, ``private async Task<int> RunAsync(``.
_MODIFIER = (
    r"(?:export|default|pub(?:\s*\([\w\s:]+\))?|public|private|protected|internal|static|abstract|final|async|"
    r"sealed|open|data|inline|unsafe|override|virtual|extern|synchronized|native|declare|readonly|suspend)"
)
#: A declaration pasted as the query (the issue's ``class X extends``, ``pub fn m(``): modifiers, the keyword,
#: the name, then what only a declaration has after its name (generics, parameters, a base, a body).
_DECLARATION_FORM = re.compile(
    rf"^\s*(?:{_MODIFIER}\s+)*({'|'.join(_KEYWORD_KINDS)})\s+{_MARK}({_QUALIFIED}){_MARK}"
    r"\s*(?:[<({:\[=]|->|\b(?:extends|implements|with|struct|interface|func|where)\b)",
    re.IGNORECASE,
)
#: A Go method: ``func (c *Context) JSON``, ``func (Context) Done()``, ``func (s *Set[T]) Add`` (receiver's type, name).
_GO_METHOD_FORM = re.compile(rf"^\s*func\s*\(\s*(?:\w+\s+)?\*?\s*({_IDENT})(?:\[[^\]]*\])?\s*\)\s*({_IDENT})\b")
#: A typed language's method after at least one modifier: ``public static String format(String s)``.
_TYPED_FORM = re.compile(rf"^\s*(?:{_MODIFIER}\s+)+(?:[\w.$]+(?:<[^()]*>)?(?:\[\])*[*&]?\s+)?({_IDENT})\s*\(")
_MEMBERS_FORM = re.compile(
    rf"\b(?:methods|members|fields|functions)\s+(?:of|in|on)\s+{_MARK}({_QUALIFIED}){_MARK}", re.IGNORECASE
)
#: "where is X *actually* declared": a word that qualifies the question, not the name.
_ADVERB = r"(?:actually|really|originally|first|exactly|currently|now)"
_DEFINED_FORMS = (
    re.compile(
        rf"\bwhere\s+(?:is|are|was)\s+(?:the\s+)?{_MARK}({_QUALIFIED}){_MARK}\s+(?:{_ADVERB}\s+)?"
        r"(?:defined|declared|implemented)\b",
        re.I,
    ),
    re.compile(
        rf"\b(?:definition|declaration|implementation)\s+of\s+(?:the\s+)?{_MARK}({_QUALIFIED}){_MARK}", re.IGNORECASE
    ),
    re.compile(rf"\b(?:find|show|go\s+to|goto|jump\s+to)\s+(?:the\s+)?{_MARK}({_QUALIFIED}){_MARK}\s*$", re.IGNORECASE),
    re.compile(rf"^\s*{_MARK}({_QUALIFIED}){_MARK}\s+(?:definition|declaration)\s*$", re.IGNORECASE),
)
_BARE = re.compile(rf"^\s*{_MARK}({_QUALIFIED}){_MARK}\s*(?:\(\s*\))?\s*\??\s*$")
_TOKEN = re.compile(rf"[`'\"]({_QUALIFIED})[`'\"]|({_QUALIFIED})(\(\))?")


@dataclass(frozen=True, slots=True)
class SymbolQuery:
    """A request for definitions.

    ``name`` is the last component (``send`` of ``Session.send``); ``qualifier`` the components
    before it. ``kinds`` are preferred kinds (from ``def``/``class``... keywords), empty for any.
    ``members`` asks for the definitions whose parent is ``name`` (``methods of X``).
    """

    name: str
    qualifier: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    members: bool = False

    @property
    def dotted(self) -> str:
        """The query as a dot-separated qualified name (``Session.send``)."""
        return ".".join((*self.qualifier, self.name))

    def __str__(self) -> str:
        text = f"members of {self.dotted}" if self.members else self.dotted
        return f"{text} [{'|'.join(self.kinds)}]" if self.kinds else text


def parse_symbol_query(text: str) -> SymbolQuery | None:
    """Read ``text`` as a definition lookup; None when it names no identifier.

    Raises ``InvalidQuery`` when the text has no letter or digit at all.
    """
    if not any(ch.isalnum() for ch in text):
        raise InvalidQuery(
            f"the symbol query {text!r} has no identifier in it; "
            "give a name such as parseConfig, Session.send or 'def load_config'"
        )
    if match := _GO_METHOD_FORM.match(text):
        return SymbolQuery(name=match.group(2), qualifier=(match.group(1),), kinds=("method",))
    text = plain_receivers(text)  # (*Engine).Run -> Engine.Run
    if match := _KEYWORD_FORM.match(text) or _DECLARATION_FORM.match(text):
        return _symbol(match.group(2), kinds=_KEYWORD_KINDS[match.group(1).lower()])
    if (match := _TYPED_FORM.match(text)) and match.group(1).lower() not in _KEYWORD_KINDS:
        return _symbol(match.group(1), kinds=("function", "method"))
    if match := _MEMBERS_FORM.search(text):
        return _symbol(match.group(1), members=True)
    for form in _DEFINED_FORMS:
        if match := form.search(text):
            return _symbol(match.group(1))
    if match := _BARE.match(text):
        return _symbol(match.group(1))
    quoted = None
    for match in _TOKEN.finditer(text):
        token = match.group(1) or match.group(2)
        if looks_like_code(token) or match.group(3):
            return _symbol(token)
        quoted = quoted or match.group(1)
    # no token shaped like code: one the question quotes or backticks is a name, whatever its shape
    return _symbol(quoted) if quoted else None


def _symbol(raw: str, kinds: tuple[str, ...] = (), members: bool = False) -> SymbolQuery:
    parts = [p for p in _SEPARATORS.split(raw) if p]
    return SymbolQuery(name=parts[-1], qualifier=tuple(parts[:-1]), kinds=kinds, members=members)

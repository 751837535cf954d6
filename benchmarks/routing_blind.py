"""A third held-out set for the learned routing layer, written blind: before the model it is asked of
was trained or measured, and after the second round of training templates, so no template here
could have shaped them.

``routing_heldout.py`` was written before the layer was tuned, but the training templates of
``routing_phrasings.py`` grew afterwards, by the same hand that could read it. This set closes that
gap: its templates are new shapes (not those of either other file), its slot fillers come from other
domains (billing, a game engine, a compiler) and none is a training filler (``test_intent_model``
checks both). ``benchmarks/routing.py`` reports it beside the other held-out set; it is never trained
or tuned on.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from routing_phrasings import Phrasing

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "settle_invoice",
    "applyDiscount",
    "tokenize_line",
    "spawn_entity",
    "emit_bytecode",
    "reconcile_ledger",
    "updatePhysics",
    "lex_number",
    "charge_card",
    "refundPayment",
    "bind_shader",
    "fold_constants",
    "issue_credit_note",
    "stepSimulation",
]
_TYPES = [
    "LedgerEntry",
    "Invoice",
    "RigidBody",
    "SymbolTable",
    "PaymentIntent",
    "ShaderProgram",
    "AstNode",
    "Wallet",
    "CollisionMesh",
    "TaxRule",
]
_ERRORS = [
    "IndentationError",
    "FloatingPointError",
    "NoSuchElementException",
    "IllegalStateException",
    "ArithmeticError",
]
_MESSAGES = [
    "insufficient funds for transfer",
    "shader failed to compile",
    "unexpected end of input",
    "invoice already settled",
    "entity id collision detected",
    "currency mismatch between accounts",
    "stack depth exceeded while folding",
    "negative tax amount",
]
_ERROR_CODES = ["EPERM", "ENOTDIR", "E0382", "SIGTERM", "ERANGE"]
_PATHS = [
    "billing/ledger.py",
    "engine/physics/body.cpp",
    "compiler/lexer.go",
    "web/src/cart/checkout.tsx",
    "lib/payments/card_client.rb",
]
_TOPICS = [
    "ledger reconciliation",
    "collision detection",
    "the lexer",
    "refund handling",
    "the render pipeline",
    "currency conversion",
    "the checkout flow",
    "the entity component system",
]
_TASKS = [
    "sort a dict by value",
    "parse a date string",
    "compute a sha256 of a file",
    "retry an http request",
    "dedupe a list keeping order",
    "invert a mapping",
    "read a csv into rows",
]
_EVENTS = ["a payment is declined", "the frame rate drops", "two refunds arrive together", "the input has a BOM"]
_SNIPPETS = [
    "total = 0\nfor entry in entries:\n    total += entry.amount * entry.rate",
    "const sum = items.reduce((acc, it) => acc + it.price, 0);\nreturn sum;",
    "for i := range bodies {\n    bodies[i].Vel.Y -= g * dt\n}",
    "while (pos < src.length && isDigit(src[pos])) {\n  pos++;\n}",
]
_CODE_LINES = [
    "sum(x.amount for x in entries)",
    "Math.max(...values)",
    "strings.TrimSpace(line)",
    "new HashMap<String, Integer>()",
    "sorted(d.items(), key=lambda kv: kv[1])",
]

#: Written after the training templates' second round and before the model trained on it was measured.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "where's the code for {fn} living",
        "point me at {T}",
        "I need to see how {T} is declared",
        "what file would {fn} be in",
        "def self.{fn}(",
        "public async Task<{T}> {Fn}Async(",
        "{fn}: definition?",
        "which package declares the {T} type",
        "jump into {qual}",
    ],
    "find_references": [
        "list every caller of {fn}, including tests",
        "anything still calling {qual}?",
        "where does {T} get passed in as an argument",
        "show who invokes {fn}",
        "call graph into {fn}",
        "{fn} has which callers",
        "find the users of the {T} class",
        "what triggers a call to {qual}",
    ],
    "impact_analysis": [
        "I'm about to change {fn}, what could go wrong elsewhere",
        "which callers would fail if {fn} took an extra argument",
        "deleting {T}: what else has to go",
        "is it going to break anything to rename {qual}",
        "consequences of removing {fn} from {path}",
        "what's downstream if {T} gets a new required field",
        "how safe is changing {fn}'s return type",
        "what would need retesting if {fn} changed",
    ],
    "exact_match": [
        "where is this message from: {msg}",
        "{Msg}. Aborting.",
        "the console printed {msg}",
        "fatal error: {msg} (exit {n})",
        "{err} thrown: {msg}",
        "search the source for '{msg}'",
        "{ecode} when I run it",
        "logger.warning('{msg}')",
    ],
    "find_similar": [
        "code that does what this does:\n{snippet}",
        "any other function close to {fn}",
        "spot duplicates of {qual} in other files",
        "which functions are near clones of {fn}",
        "stuff that resembles {code}",
        "have we got something equivalent to {fn} already",
        "find code written like this {code}",
        "siblings of {T} with the same structure",
    ],
    "understand_code": [
        "what's the role of {T} in {topic}",
        "how does {topic} actually happen",
        "could you explain {path} to a newcomer",
        "why is {fn} needed at all",
        "{task}: what is the idiomatic approach",
        "{task} - how?",
        "what does {topic} look like end to end",
        "trying to understand {topic} when {event}",
    ],
}


def fillers() -> frozenset[str]:
    """Every value a slot here can take: none may be a training filler (``test_intent_model``)."""
    lists = (_NAMES, _TYPES, _ERRORS, _MESSAGES, _ERROR_CODES, _PATHS, _TOPICS, _TASKS, _EVENTS, _SNIPPETS, _CODE_LINES)
    return frozenset(value for values in lists for value in values)


def _fill(rng: random.Random, template: str) -> str:
    fn = rng.choice(_NAMES)
    t = rng.choice(_TYPES)
    msg = rng.choice(_MESSAGES)
    values = {
        "fn": fn,
        "Fn": fn[:1].upper() + fn[1:],
        "T": t,
        "qual": f"{t}.{fn}",
        "path": rng.choice(_PATHS),
        "err": rng.choice(_ERRORS),
        "msg": msg,
        "Msg": msg[:1].upper() + msg[1:],
        "ecode": rng.choice(_ERROR_CODES),
        "code": rng.choice(_CODE_LINES),
        "snippet": rng.choice(_SNIPPETS),
        "topic": rng.choice(_TOPICS),
        "task": rng.choice(_TASKS),
        "event": rng.choice(_EVENTS),
        "n": str(rng.randrange(1, 130)),
    }
    return template.format(**values)


def generate_heldout(per_template: int = 20, seed: int = 13) -> Iterator[Phrasing]:
    """``per_template`` filled phrasings of every template (distinct, deterministic), as typed."""
    rng = random.Random(seed)
    for intent, templates in HELDOUT_TEMPLATES.items():
        for number, template in enumerate(templates):
            seen: set[str] = set()
            for _ in range(per_template * 3):
                text = _fill(rng, template)
                if text not in seen and len(seen) < per_template:
                    seen.add(text)
                    yield Phrasing(text, intent, f"blind-{intent}/{number}")

"""A second, independent held-out set for the learned routing layer: never trained on, never tuned on.

``routing_phrasings.py`` holds the training templates; its template split (``benchmarks/routing.py``)
measures generalization to shapes the *training fold* never saw, but every template there was
written by the same hand in the same sitting as the rest. These templates were written separately,
before the layer was tuned, with their own slot fillers (names from other projects, other messages,
topics and tasks), and are only ever *asked* of the shipped model. ``benchmarks/routing.py`` reports
them beside the fold table; nothing here may be copied into the training set (a template that
appears in both would be measured as seen: ``test_intent_model`` checks that none does).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

from routing_phrasings import Phrasing

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "get_object_or_404",
    "render_to_response",
    "reconcile_pod",
    "apply_migrations",
    "flushBuffer",
    "computeChecksum",
    "validate_token",
    "load_settings",
    "makeRequest",
    "dispatch_event",
    "emitWarning",
    "resolve_path",
    "serializeState",
    "refresh_cache",
    "open_channel",
    "schedule_job",
    "drain_queue",
    "fetchManifest",
    "encode_frame",
    "collect_garbage",
    "listPods",
    "parseHeaders",
    "to_dict",
    "run_forever",
    "bootstrap",
    "wsgi_app",
]
_TYPES = [
    "QuerySet",
    "Blueprint",
    "PodSpec",
    "Scheduler",
    "HttpClient",
    "MessageBus",
    "TemplateLoader",
    "ChannelPool",
    "WriteAheadLog",
    "Reconciler",
    "BufferedReader",
    "Tokenizer",
    "LRUCache",
    "Manifest",
    "Worker",
    "JobQueue",
]
_ERRORS = [
    "OverflowError",
    "StopIteration",
    "ZeroDivisionError",
    "BrokenPipeError",
    "ClassCastException",
    "ConcurrentModificationException",
    "RangeError",
    "SyntaxError",
    "NotImplementedError",
]
_MESSAGES = [
    "pod has unbound immediate PersistentVolumeClaims",
    "template does not exist",
    "division by zero",
    "list index out of range",
    "no route to host",
    "the lock is already held",
    "manifest checksum mismatch",
    "expected 3 arguments, got 2",
    "queue is full, dropping event",
    "certificate has expired",
    "write after end",
    "unknown field in spec",
    "retrying in 5 seconds",
    "worker exited unexpectedly",
]
_ERROR_CODES = ["ECONNRESET", "EEXIST", "ENOSPC", "EHOSTUNREACH", "E0425", "SIGKILL"]
_PATHS = [
    "django/db/models/query.py",
    "pkg/kubelet/pod_workers.go",
    "src/lib/http/client.ts",
    "flask/app.py",
    "server/queue/worker.rs",
    "app/models/user.rb",
    "core/src/main/java/org/acme/Scheduler.java",
]
_TOPICS = [
    "the scheduler",
    "template rendering",
    "the write-ahead log",
    "token refresh",
    "backpressure",
    "the reconcile loop",
    "url routing",
    "the job queue",
    "checksum verification",
    "graceful shutdown",
    "the plugin loader",
    "input validation",
]
_TASKS = [
    "parse a yaml file",
    "zip two lists together",
    "read environment variables",
    "paginate a query",
    "stream a large file",
    "convert bytes to a string",
    "generate a random token",
    "wait for a thread to finish",
    "flatten a nested list",
    "round a float to two places",
]
_EVENTS = [
    "the disk fills up",
    "a pod is evicted",
    "the token expires",
    "two jobs run at once",
    "the network drops",
]
_SNIPPETS = [
    "for key, value in settings.items():\n    os.environ[key.upper()] = str(value)",
    "if (!user) {\n  return res.status(404).send();\n}",
    "rows = cursor.fetchall()\nreturn [dict(zip(cols, r)) for r in rows]",
    "match msg {\n    Some(m) => handle(m),\n    None => break,\n}",
    "ch := make(chan int)\ngo func() { ch <- compute() }()",
    "try {\n  conn.close();\n} catch (IOException e) {\n  log.warn(e);\n}",
]
_CODE_LINES = [
    "json.dumps(obj, indent=2)",
    "list(map(str, values))",
    "Object.keys(obj).forEach(k => delete obj[k])",
    "time.Sleep(100 * time.Millisecond)",
    "Collections.sort(items);",
    "path.split('/').pop()",
]

#: Written before the learned layer was tuned; shapes absent from ``routing_phrasings.TEMPLATES``.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "where's {fn} coming from",
        "show me where {T} gets defined",
        "{fn} - where is it",
        "need the source for {T}",
        "what does the {fn} signature look like",
        "take me to {qual}",
        "find {T} declaration",
        "which file has def {fn}",
        "where is class {T}",
        "goto {fn}",
        "def {fn}(self, *args, **kwargs):",
        "func New{T}() *{T}",
        "impl {T} for {U}",
        "public interface {T} {{",
        "const {fn} = (",
        "{T} type definition",
        "where did we put {fn}",
        "where is the {fn} method of {T}",
    ],
    "find_references": [
        "who's using {T} these days",
        "find all callers of {qual} across the repo",
        "where does anything call {fn}",
        "{fn} is called from where?",
        "list the functions that invoke {fn}",
        "show every reference to {T}",
        "is {T} referenced outside {path}",
        "grep for calls to {fn}",
        "which classes instantiate {T}",
        "callsites {fn}",
        "does anyone still use {fn}",
        "which endpoints end up calling {fn}",
        "how many places call {fn}",
        "what code calls into {qual}",
        "{T} used where",
    ],
    "impact_analysis": [
        "if I delete {fn} will the build break",
        "what gets broken by changing {T}'s constructor",
        "what would renaming {fn} to {fn2} touch",
        "am I safe to remove {qual}",
        "who's affected when {T} changes",
        "how much code relies on {fn} behaving this way",
        "what needs updating if I change the return value of {fn}",
        "changing the type of {T}.{fn} - consequences?",
        "which modules would I have to fix after dropping {fn}",
        "before deleting {T}, show me what depends on it",
        "what is the fallout of changing {fn}",
        "assess the risk of refactoring {qual}",
        "does changing {fn} affect other packages",
        "everything that would need a rebuild if {path} changes",
        "what goes wrong if {fn} returns None",
    ],
    "exact_match": [
        "search: {msg}",
        "where in the code is '{msg}' emitted",
        "{err}('{msg}')",
        'throw new {err}("{msg}")',
        'log.error("{msg}")',
        "the text {msg} appears in the output, where is it from",
        'who logs "{msg}"',
        "{ecode} error",
        "grep {ecode}",
        "INFO {msg}",
        "ERR! {msg}",
        "{path}:{n}:{n2}: error: {msg}",
        "RuntimeWarning: {msg}",
        "got this: {err}: {msg}",
        "find exact phrase {msg}",
    ],
    "find_similar": [
        "are there functions similar in spirit to {fn}",
        "show me code that looks like\n{snippet}",
        "what else is written like {qual}",
        "other places doing the same thing as {fn}",
        "near duplicates of {T}",
        "{code} - anything similar?",
        "similar implementations: {fn}",
        "is {fn} duplicated somewhere",
        "find me patterns like {code}",
        "dedupe candidates for {fn}",
        "code that is almost identical to {fn}",
        "analogues of {fn}",
        "I wrote this, does the repo already have it:\n{snippet}",
        "fuzzy match this code:\n{snippet}",
        "lookalike functions for {fn}",
    ],
    "understand_code": [
        "give me a high level picture of {topic}",
        "how does {topic} get triggered",
        "in plain words, what does {fn} do",
        "walkthrough of {topic}",
        "what's the purpose of {path}",
        "why would {topic} break when {event}",
        "steps to {task}",
        "is there a way to {task}",
        "{task}?",
        "how come {topic} is slow",
        "what is {T} for",
        "how is {topic} wired together",
        "what problem does {T} solve",
        "documentation for {topic}",
        "reasoning behind {topic}",
    ],
}


def fillers() -> frozenset[str]:
    """Every value a held-out slot can take: none may be a training filler (``test_intent_model``)."""
    lists = (_NAMES, _TYPES, _ERRORS, _MESSAGES, _ERROR_CODES, _PATHS, _TOPICS, _TASKS, _EVENTS, _SNIPPETS, _CODE_LINES)
    return frozenset(value for values in lists for value in values)


def _fill(rng: random.Random, template: str) -> str:
    fn, fn2 = rng.sample(_NAMES, 2)
    t, u = rng.sample(_TYPES, 2)
    values = {
        "fn": fn,
        "fn2": fn2,
        "T": t,
        "U": u,
        "qual": f"{t}.{fn}",
        "path": rng.choice(_PATHS),
        "err": rng.choice(_ERRORS),
        "msg": rng.choice(_MESSAGES),
        "ecode": rng.choice(_ERROR_CODES),
        "code": rng.choice(_CODE_LINES),
        "snippet": rng.choice(_SNIPPETS),
        "topic": rng.choice(_TOPICS),
        "task": rng.choice(_TASKS),
        "event": rng.choice(_EVENTS),
        "n": str(rng.randrange(2, 900)),
        "n2": str(rng.randrange(1, 80)),
    }
    return template.format(**values)


def generate_heldout(per_template: int = 20, seed: int = 11) -> Iterator[Phrasing]:
    """``per_template`` filled phrasings of every held-out template (distinct, deterministic), as
    typed: no added misspellings or prefixes, so the set measures shapes, not noise."""
    rng = random.Random(seed)
    for intent, templates in HELDOUT_TEMPLATES.items():
        for number, template in enumerate(templates):
            seen: set[str] = set()
            for _ in range(per_template * 3):
                text = _fill(rng, template)
                if text not in seen and len(seen) < per_template:
                    seen.add(text)
                    yield Phrasing(text, intent, f"heldout-{intent}/{number}")

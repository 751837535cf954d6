"""TypeScript receivers are read through their declared types (parameters, fields, constructor parameter
properties, annotated locals, locals built by ``new``), and JavaScript's global objects call no indexed code;
against real tree-sitter and the real graph build."""

from __future__ import annotations

from pathlib import Path

from fourfold.index.ingest.segment import segment_file
from fourfold.plugins.graph.parse import parse_file
from fourfold.plugins.graph.plugin import GraphModality
from fourfold.plugins.modality import BuildContext
from fourfold.plugins.types import ModalityQuery

FILES = {
    "src/auth.ts": """export class AuthService {
  check(user: string): boolean {
    return true;
  }

  resolve(token: string): string {
    return token;
  }
}
""",
    "src/cache.ts": """export class Cache {
  check(key: string): boolean {
    return false;
  }
}
""",
    "src/users.ts": """import { AuthService } from './auth';
import { Cache } from './cache';

export class UserController {
  private cache: Cache;

  constructor(private auth: AuthService) {
    this.cache = new Cache();
  }

  login(name: string, other: AuthService): boolean {
    const local = new Cache();
    name.trim();
    Promise.resolve(name);
    local.check(name);
    return this.auth.check(name) && other.check(name) && this.cache.check(name);
  }
}
""",
}


def test_typed_receivers_call_their_type_s_method_and_no_other(tmp_path: Path) -> None:
    """``this.auth.check`` (a constructor parameter property) and ``other.check`` (a parameter) are
    AuthService's; ``this.cache.check`` (an annotated field) and ``local.check`` (built by ``new``) are
    Cache's. Before, each went to both ``check`` methods at half weight. ``Promise.resolve`` (a global) and
    ``name.trim`` (a string) call neither AuthService's ``resolve`` nor anything else indexed."""
    facts = parse_file(FILES["src/users.ts"].encode(), "typescript")
    calls = {r.chain for r in facts.references if r.call}
    assert {("AuthService", "check"), ("Cache", "check")} <= calls
    assert not any(c[-1] == "trim" for c in calls)
    segments = [
        s for path, text in FILES.items() for s in segment_file("web", path, "typescript", text.encode()).segments
    ]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("web",)))
    shard = modality.load(tmp_path)
    auth = shard.search(ModalityQuery(text="who calls AuthService.check", k=10)).hits
    assert [(h.symbol, h.match_lines) for h in auth] == [("login", (16,))]
    assert auth[0].score >= 1.0  # resolved, not a guess between the two methods named check
    cache = shard.search(ModalityQuery(text="who calls Cache.check", k=10)).hits
    assert [(h.symbol, h.match_lines) for h in cache] == [("login", (15, 16))]
    assert not shard.search(ModalityQuery(text="who calls AuthService.resolve", k=10)).hits


OVERLOADS = {
    "src/config.ts": """export interface RetryConfig {
  count: number;
}
""",
    "src/retry.ts": """import { RetryConfig } from './config';

export function retry(count: number): number;
export function retry(config: RetryConfig): number;
export function retry(config: number | RetryConfig): number {
  return typeof config === 'number' ? config : config.count;
}

export class Box {
  private size = 0;

  get value(): RetryConfig {
    return { count: this.size };
  }

  set value(next: RetryConfig) {
    this.size = next.count;
  }
}
""",
}


def test_an_overload_signature_s_uses_are_its_implementation_s(tmp_path: Path) -> None:
    """What a TypeScript overload signature names is a use of the implementation it declares: "what depends
    on RetryConfig" answers ``retry``'s body (with the signature's line among its lines), not a one-line
    signature of it; a getter and its setter, each with a body, stay two dependents."""
    segments = [
        s for path, text in OVERLOADS.items() for s in segment_file("web", path, "typescript", text.encode()).segments
    ]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("web",)))
    shard = modality.load(tmp_path)
    hits = shard.search(ModalityQuery(text="what depends on RetryConfig", k=10, intent="impact_analysis")).hits
    found = {(h.symbol, h.start_line): h.match_lines for h in hits}
    assert (("retry", 5) in found) and 4 in found[("retry", 5)], found
    assert not any(symbol == "retry" and start in (3, 4) for symbol, start in found)
    assert {("value", 12), ("value", 16)} <= set(found)


def test_a_class_implementing_an_interface_implements_what_that_interface_extends(tmp_path: Path) -> None:
    """``interface SchedulerLike extends TimestampProvider``: a class implementing SchedulerLike, and its
    subclasses, implement TimestampProvider (before, an interface's ``extends`` was not read); a type argument
    (``Comparable<Clock>``, in an interface's or a class's heritage) is no base."""
    files = {
        "src/types.ts": """export interface TimestampProvider {
  now(): number;
}

export interface Comparable<T> {
  compare(other: T): number;
}

export interface SchedulerLike extends TimestampProvider, Comparable<Clock> {
  schedule(work: () => void): void;
}

export interface Clock {
  tick(): void;
}
""",
        "src/scheduler.ts": """import { Clock, Comparable, SchedulerLike } from './types';

export class Scheduler implements SchedulerLike {
  now(): number {
    return 0;
  }
  compare(other: Clock): number {
    return 0;
  }
  schedule(work: () => void): void {
    work();
  }
}

export class AsyncScheduler extends Scheduler {}

export class Timer implements Comparable<Clock> {
  compare(other: Clock): number {
    return 1;
  }
}
""",
    }
    segments = [
        s for path, text in files.items() for s in segment_file("web", path, "typescript", text.encode()).segments
    ]
    modality = GraphModality()
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("web",)))
    shard = modality.load(tmp_path)
    found = {h.symbol for h in shard.search(ModalityQuery(text="who implements TimestampProvider", k=10)).hits}
    assert {"SchedulerLike", "Scheduler", "AsyncScheduler"} <= found
    assert not {h.symbol for h in shard.search(ModalityQuery(text="who implements Clock", k=10)).hits}
    comparable = {h.symbol for h in shard.search(ModalityQuery(text="who implements Comparable", k=10)).hits}
    assert {"SchedulerLike", "Timer"} <= comparable


def test_a_private_member_is_asked_for_by_its_hash_name_or_without_it(tmp_path: Path) -> None:
    """``#updateTimers`` (a JavaScript private method) is a callee question's subject as written, and "who calls
    updateTimers" finds it when no public member has that name. Before, the ``#`` ended the name: "callees of
    #executeFetch" answered references, "what does #updateTimers invoke" was read as prose."""
    from fourfold.coordinator.intent import classify
    from fourfold.plugins.graph.query import parse_query

    source = """export class Observer {
  #timer?: number

  #updateTimers(): void {
    this.#clearTimer()
  }

  #clearTimer(): void {
    this.#timer = undefined
  }

  setOptions(): void {
    this.#updateTimers()
  }
}
"""
    modality = GraphModality()
    segments = segment_file("web", "src/observer.ts", "typescript", source.encode()).segments
    modality.build(segments, tmp_path, BuildContext(generation="g", shard="all", repos=("web",)))
    shard = modality.load(tmp_path)
    for question in ("what does #updateTimers invoke", "callees of #updateTimers"):
        classified = classify(question)
        assert classified.intent == "find_references"
        parsed = parse_query(question, classified.intent, {})
        assert parsed is not None and (parsed.relation, parsed.symbol) == ("callees", "#updateTimers")
        callees = shard.search(ModalityQuery(text=question, k=5, intent=classified.intent)).hits
        assert [h.symbol for h in callees] == ["#clearTimer"]
    for question in ("who calls #updateTimers", "who calls updateTimers"):
        assert [h.symbol for h in shard.search(ModalityQuery(text=question, k=5)).hits] == ["setOptions"]

"""A forty-fourth held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fortythird.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by a
different hand than the change, in one sitting, from the layout of ``routing_fortythird.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the forty-third's was reworded, and
no classifier, router or model was asked about any of its phrasings while they were written. It keeps the
usual spread of voices, spread evenly over the six intents: two- and three-word keyword queries and long
rambling ones, misspellings, lowercase chat and slang, questions and orders, tool calls written as JSON,
requests to an agent, review-bot and CI-bot comments, commit messages and PR descriptions, Slack-style
messages with @mentions, pasted output (Go panics, Python tracebacks, Java, Kotlin and C# exceptions, Node
stacks, Rust panics, timestamped log lines) with a line of words under it, and declarations pasted as typed
in Go, Rust, Kotlin, Java, Python, Swift, C#, TypeScript, Ruby, PHP, C++, Scala and Elixir. It leans on no
one weak spot: it measures the router in general, on everyday phrasings a search box or an agent gets. The
places it touches are the usual ones: output labelled by the question under it (where the named code is
declared, who calls it, who must handle it once it changes, where its text comes from, why it happens),
declarations carrying questions that are not about the definition (which types conform, implement or
inherit, what breaks if it changes, why it is written so), and pasted code asking for code like it. The label
is always what the asker wants, not which words appear. Four templates met a training template (two) or
another set's (two) (``test_intent_model``) and were replaced by ones of another shape, not reworded; a script
that printed only this set's own colliding templates picked them out, though the test's failure output showed
fragments of other sets' templates.

Its slot fillers come from five domains, and no filler is another set's: a lighthouse museum's gift shop
(till counts, member discounts, lens keychain restocks), an alpaca farm (shearing days, fleece grading, cria
birth records), a model railway club (layout sessions, locomotive decoder addresses, block signals), a scuba
dive shop (tank fills, dive logs, certification cards, regulator servicing) and a community choir (rehearsal
rotas, the sheet music library, voice parts). Two fillers, both type names, met another set's and were
renamed. None is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "restock_lens_keychains",
    "ringUpGiftShopSale",
    "record_foghorn_replica_order",
    "applyMuseumMemberDiscount",
    "schedule_shearing_day",
    "gradeFleeceBlanket",
    "log_alpaca_toenail_trim",
    "weighCriaAtBirth",
    "book_layout_session",
    "programLocoDecoder",
    "assign_fiddle_yard_road",
    "clearBlockSignal",
    "log_tank_fill",
    "stampDiveLogEntry",
    "issue_certification_card",
    "checkRegulatorService",
    "publish_rehearsal_rota",
    "lendSheetMusicCopy",
    "assign_voice_part",
    "markChoristerAbsent",
]
_TYPES = [
    "GiftShopTill",
    "LensKeychainStock",
    "MuseumMemberDiscount",
    "ShearingDayPlan",
    "FleeceGrade",
    "CriaBirthRecord",
    "LayoutSession",
    "LocoDecoderProfile",
    "FiddleYardRoad",
    "TankFillRecord",
    "DiveLogPage",
    "DiverCertCard",
    "RegulatorServiceTag",
    "RehearsalRota",
    "SheetMusicLoan",
    "VoicePartAssignment",
]
_ERRORS = [
    "TillDrawerShortError",
    "KeychainOutOfStockException",
    "FleeceMicronOutOfRangeError",
    "ShearingSlotClashException",
    "DecoderAddressTakenError",
    "BlockSignalConflictException",
    "TankOverfillError",
    "CertificationExpiredException",
    "ScoreAlreadyOnLoanError",
]
_MESSAGES = [
    "gift shop sale rung up after the till drawer was counted and closed",
    "member discount applied to a visitor whose museum membership has lapsed",
    "lens keychain restock ordered for a shelf that is already full",
    "shearing day booked while the shearer is still on another farm",
    "fleece graded as fine with a micron reading above twenty-two",
    "cria birth weight recorded before the dam was logged as pregnant",
    "layout session opened without a signed-in club operator",
    "locomotive decoder programmed to an address another loco already uses",
    "block signal cleared while the next block was still occupied",
    "tank fill logged above the cylinder's working pressure",
    "dive log stamped for a diver with no certification card on file",
    "regulator service overdue but the kit was hired out anyway",
    "rehearsal rota published with two soprano slots left empty",
    "sheet music copy lent to a chorister who already holds one",
    "voice part changed after the concert seating plan was printed",
]
_ERROR_CODES = ["LHM-3071", "GIFT-442", "E_FLEECE_GRADE", "ALP-0915", "RLY-D28", "DIVE-7730", "ETANKPSI", "CHR-1184"]
_PATHS = [
    "beaconshop/till/gift_till.py",
    "beaconshop/stock/LensKeychain.kt",
    "beaconshop/members/discount.go",
    "woolhill/shearing/ShearingDay.java",
    "woolhill/fleece/fleece_grade.rb",
    "woolhill/cria/criaBirth.ts",
    "junctionclub/layout/session.rs",
    "junctionclub/decoders/LocoDecoder.cs",
    "junctionclub/signals/blockSignal.js",
    "reefdeep/fills/tank_fill.php",
    "reefdeep/logs/DiveLog.swift",
    "reefdeep/certs/cert_card.cpp",
    "chorale/rota/rehearsal_rota.py",
    "chorale/library/SheetMusicLoan.kt",
    "chorale/parts/voiceParts.tsx",
]
_TOPICS = [
    "till counts and member discounts in the lighthouse museum gift shop",
    "keychain and foghorn replica restocking for the museum shop",
    "shearing days on the alpaca farm",
    "fleece grading and cria records for the alpaca herd",
    "layout sessions at the model railway club",
    "locomotive decoder addresses and block signalling on the club layout",
    "tank fills and regulator servicing at the dive shop",
    "dive logs and certification cards for scuba customers",
    "rehearsal rotas and voice parts for the community choir",
    "the choir's sheet music library and its loans",
]
_TASKS = [
    "reconcile the gift shop till against the day's card and cash sales",
    "decide which alpacas are shorn first from fleece length and the weather",
    "grade a fleece from its micron reading and staple length",
    "hand out free locomotive decoder addresses without clashing with the club roster",
    "work out a tank's fill pressure from the water temperature",
    "check a diver's certification level before letting them book a deep dive",
    "balance a rehearsal rota so every voice part has someone each week",
    "find who has held a sheet music copy longest and send them a reminder",
]
_EVENTS = [
    "the gift shop till loses power halfway through a card payment",
    "a shearing day is rained off after the shearer has already arrived",
    "two club members program the same decoder address during one layout session",
    "a diver returns a tank that was never logged as filled",
    "a chorister swaps voice part the week before a concert",
]
_SNIPPETS = [
    'for _, s := range sales {\n\tif s.Method == "cash" {\n\t\tcashTotal += s.AmountPence\n\t}\n}',
    "for alpaca in herd:\n    if alpaca.fleece_mm >= 90 and not alpaca.pregnant:\n"
    "        shear_list.append(alpaca.tag)",
    "let free: Vec<u16> = (1..=9999)\n    .filter(|a| !roster.contains(a))\n    .take(count)\n    .collect();",
    "for (TankFill f : fills) {\n    if (f.getPressureBar() > f.getCylinder().getWorkingBar()) {\n"
    "        flagged.add(f.getSerial());\n    }\n}",
    "let lapsed = members.filter { $0.expiresOn < Date() }",
    "loans.select { |l| l.due_on < Date.today }.map(&:chorister)",
    "const short = parts\n  .filter((p) => p.singers.length < 2)\n  .map((p) => p.name);",
    "var cleared = blocks\n    .Where(b => !b.Occupied && b.Signal == Aspect.Red)\n"
    "    .Select(b => b.Id)\n    .ToList();",
    "SELECT grade, COUNT(*) AS fleeces\nFROM fleece_grades\nWHERE shearing_year = 2024\nGROUP BY grade;",
]
_BODIES = [
    "def fill_pressure_bar(rated_bar, water_c):\n    return rated_bar - max(0, 30 - water_c) * 0.6",
    "func discountPence(total int, member bool) int {\n\tif !member {\n\t\treturn 0\n\t}\n\treturn total / 10\n}",
    'fn fleece_grade(micron: f32) -> &\'static str {\n    if micron < 20.0 { "fine" } else { "strong" }\n}',
    "fun nextDecoderAddress(taken: Set<Int>): Int =\n    (3..9999).first { it !in taken }",
    "public static bool CanDeepDive(DiverCertCard c) {\n    return c.Level >= 2 && c.Expires > DateTime.UtcNow;\n}",
    "func logDepthOK(maxM: Double, certLevel: Int) -> Bool {\n    return maxM <= (certLevel > 1 ? 30 : 18)\n}",
    "function rotaSlot(singers, week) {\n  return singers[week % singers.length];\n}",
    "function tillShort(float $counted, float $expected): bool {\n    return $expected - $counted > 0.5;\n}",
]
_CODE_LINES = [
    "shop.till_short = counted < expected - TILL_TOLERANCE",
    "if fill.PressureBar > cyl.WorkingBar { return errOverfill }",
    "let addr = taken.iter().max().map_or(3, |a| a + 1);",
    'val grade = if (micron < 20f) "fine" else "strong"',
    "cria.weight_kg = scale.read() - sling_kg",
    "signal.aspect = next.occupied ? 'red' : 'green';",
    "$discount = $member ? $total * 0.1 : 0;",
    "overdue = loans.select { |l| l.due_on < Date.today }",
    "var slot = singers[week % singers.Count];",
    "part = VOICE_PARTS[chorister.range_index]",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "{err} declared in?",
        "@sam where's {T} actually defined? the IDE keeps jumping me to a stub file",
        "wher's {fn} definde at",
        '{{"tool": "go_to_definition", "symbol": "{qual}"}}',
        "agent, open the file that declares {T} and tell me the line number, nothing else",
        "defmodule {T} do\nelixir -- which file is this module defined in? there are two umbrella apps",
        "final class {T} implements JsonSerializable\nphp: where is this class declared?",
        "template <typename T> class {T};\nc++ -- that's only the forward declaration. where's the full definition?",
        "export interface {T} {{\nts, which file exports this interface originally? not the barrel re-export",
        "panic: {msg}\n\ngoroutine 7 [running]:\nmain.{Fn}(0xc0000b2000)\n\t{path}:{n} +0x6c\n\n"
        "where is {Fn} defined? the path in the trace is from an old build",
        "java.lang.NullPointerException: {msg}\n\tat {qual}({T}.java:{n})\n"
        "\tat {T}Controller.post({T}Controller.java:41)\n\njump to where {qual} is declared",
        "TypeError: Cannot read properties of undefined (reading 'id')\n    at {Fn} ({path}:{n}:17)\n"
        "    at processTicksAndRejections (node:internal/process/task_queues:95:5)\n\nwhich module defines {Fn}?",
        "ok so I'm reading through the {topic} code and there's a call to {fn} everywhere but go-to-definition is "
        "broken in this monorepo, can you just tell me which file and line actually defines it, I don't care "
        "about the callers",
        "[review-bot] {T} is used here but never imported in this file; point to the module that declares it",
        "refactor: move {fn} next to its only caller\n\nwhere does {fn} live right now?",
        "yo where does {err} even get defined lol",
        "sealed trait {T}\nscala: in which file is this sealed trait defined?",
    ],
    "find_references": [
        "{T} call sites",
        "@here is anyone still calling {fn}? it's on my list to delete",
        "who uzes {T} anymor",
        '{{"tool": "find_usages", "target": "{fn}", "include_tests": true}}',
        "agent: list every file that imports {T}, grouped by package",
        "protocol {T} {{\n    func {fn}()\n}}\nswift -- which types conform to this protocol?",
        "public interface {T} {{\njava: every class that implements this interface, please",
        "defmodule {T} do\n  @callback {fn}(map()) :: :ok\nelixir -- which modules implement this behaviour?",
        "class {T}(ABC):\npython: which subclasses inherit from this abstract base?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in handle\n    {fn}(payload)\n{err}: {msg}\n\n'
        "where else is {fn} called from? this can't be the only path",
        "System.ArgumentNullException: Value cannot be null. (Parameter 'item')\n   at {qual}() in {path}:line {n}\n\n"
        "c#: which methods call {qual}?",
        "2025-05-14T09:{n}:12Z ERROR {fn} failed: {msg}\n\nwho invokes {fn}? need every caller",
        "we're trying to figure out whether {T} can be retired from {topic}; before anyone argues about it could "
        "you gather every spot that constructs it, reads it or passes it around, including scripts and the admin "
        "tooling, so we know who the users actually are",
        "[review-bot] {fn} is marked deprecated; list the remaining call sites in this repo",
        "## Summary\nRename {fn} to something clearer.\n\n## Before merging\nNeed every reference to {fn} across "
        "the monorepo.",
        "who all reads {path} lol",
        "sealed interface {T}\nkotlin: which classes implement it?",
    ],
    "impact_analysis": [
        "{T} blast radius",
        "@platform-team if I rename {fn} to {fn}_v2 what's gonna break on your side?",
        "is it safe to chnage {T}? waht depnds on it",
        '{{"tool": "impact", "symbol": "{qual}", "change": "make async"}}',
        "agent: I'm removing the {ecode} error code. find every handler, test and dashboard that would be affected",
        "func {Fn}(ctx context.Context, id string) ({T}, error)\ngo: adding an options param here, what callers break?",
        "def {fn}(id: Long): Future[{T}]\nscala -- if this returns Either instead of Future, who has to change?",
        "virtual void {fn}() = 0;\nc++: making this pure virtual method const, which derived classes stop compiling?",
        "def {fn}(record, notify: true)\nruby: dropping the notify keyword, which callers pass it and would break?",
        "kotlin.IllegalStateException: {msg}\n\tat {qual}({T}.kt:{n})\n\n"
        "if {qual} throws {err} instead, which callers need a new catch?",
        "Error: {msg}\n    at {Fn} ({path}:{n}:9)\n    at Array.forEach (<anonymous>)\n\n"
        "we're changing {Fn} to return a rejected promise instead of throwing -- which calling code is affected?",
        "thread 'tokio-runtime-worker' panicked at {path}:{n}:22:\n{msg}\n\n"
        "if {fn} returns a Result rather than panicking, which call sites have to handle the error?",
        "for {topic} we want to change {T} so its id is a UUID instead of an integer, and I'm worried about "
        "everything downstream -- database columns, the API responses, anything that sorts or compares those "
        "ids -- can you tell me how far the change would ripple before I start",
        "[ci-bot] breaking-change check: {path} lost an exported symbol. which dependents are now broken?",
        "refactor!: remove {qual}\n\nwho relies on it? need the fallout for the changelog",
        "lowkey want to delete {path}, does anything depend on it",
        "if {fn} starts raising {err}, which code has to handle it?",
    ],
    "exact_match": [
        '"{ecode}" grep',
        '@oncall seeing "{msg}" in prod logs, anyone know which file that string is in?',
        'serch for the exakt mesage "{Msg}"',
        '{{"search": {{"mode": "exact", "query": "{msg}", "paths": ["**/*"]}}}}',
        'agent: grep the repo for the literal "{msg}" and give me file:line for each hit',
        'Traceback (most recent call last):\n  File "{path}", line {n}, in main\n{err}: {msg}\n\n'
        "find the line that has this exact error text, I want to reword it",
        'Exception in thread "main" {err}: {msg}\n\tat {qual}({T}.java:{n})\n\n'
        "grep for the message text, not the class",
        "thread 'main' panicked at {path}:{n}:3:\n{ecode}: {msg}\n\nwhich source line has that exact string?",
        "2025-06-02 14:{n}:48,117 ERROR [{ecode}] {Msg}\n\nwhere's this log line produced? look for the literal text",
        "find the config key `{fn}.timeout_ms` exactly as spelled",
        "rg --fixed-strings '{Msg}' -g '!vendor'",
        "pattern search: {fn}\\(.*timeout=0\\)",
        '[review-bot] the string "{msg}" is copied into this diff; where else does that exact text already appear?',
        "[ci-bot] secret scanner flagged the literal `{fn}_api_key` in this change; find any other occurrences of "
        "that exact string",
        'where tf is "{msg}" coming from, search it word for word',
        "customers using {topic} keep screenshotting an error that just says {ecode} and nothing else, and nobody "
        "on support knows what it means -- could you search the codebase for that exact code as written, "
        "including templates and translation files, so I can see where it's raised",
        "Error: {msg}\n    at Object.<anonymous> ({path}:{n}:11)\n"
        "    at Module._compile (node:internal/modules/cjs/loader:1256:14)\n\nfind where that error text is "
        "literally written",
    ],
    "understand_code": [
        "{T} lifecycle explained",
        "@maria can you explain why {fn} sleeps before retrying? I see it in {path}",
        "how dose {fn} wrk exactly",
        '{{"tool": "explain", "target": "{qual}", "depth": "high-level"}}',
        "agent: summarise how {topic} fits together: entry points, main types, where the state lives",
        "panic: {err}\n\ngoroutine 5 [running]:\nmain.{Fn}(...)\n\t{path}:{n} +0xa4\n\n"
        "what's the sequence of calls that gets {Fn} into this state? just explain",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in <lambda>\n    {fn}(event)\n{err}: {msg}\n\n'
        "what does {fn} expect from the event that it isn't getting here?",
        "2025-07-09 03:{n}:00 WARN  {T} retry budget exhausted after 5 attempts\n\n"
        "how does the retry budget work? what refills it?",
        "defmodule {T} do\n  use GenServer\nelixir -- what state does this GenServer hold and how does it handle "
        "restarts?",
        "export class {T} extends EventEmitter {{\nts: how does this class decide when to emit? explain the flow",
        "impl Drop for {T} {{\nrust -- why does this need a custom Drop? what is it cleaning up?",
        "std::unique_lock<std::mutex> lk(mu_);\nc++, inside {fn}: why is it locking here and what is the mutex "
        "guarding?",
        "## Context\nI'm touching {path} for the first time.\n\n## Ask\nCould someone give a walkthrough of how "
        "it works before I review?",
        "docs: describe {T}\n\nbefore writing the docstring I need to understand what it does, explain?",
        "I've been on {topic} for two weeks and still don't really get the big picture: which services own what, "
        "how a change in one ends up in another, and why {T} seems to be involved in everything; could you give "
        "me a plain-language tour",
        "ngl no idea what {fn} is for, eli5",
        "{body}\n\nwhy is it written this way? seems overcomplicated for what it does",
    ],
    "find_similar": [
        "{T} lookalikes",
        "@backend did someone already write something like {fn}? don't want to build it twice",
        "simmilar code to this pls\n{code}",
        '{{"action": "find_clones", "file": "{path}", "min_lines": 8}}',
        "agent: find functions elsewhere that look like this one and diff them against it:\n{body}",
        "{body}\n\nwe have this in three languages I bet. find the other versions",
        "def {fn}(items), do: Enum.filter(items, & &1.active)\nelixir -- anything else in the umbrella shaped like "
        "this?",
        "def {fn}(rows):\n    return [r for r in rows if r.get('active')]\npython: other comprehensions doing the "
        "same filter?",
        "{snippet}\n\nis there existing code like this I can reuse instead?",
        "public static int {fn}(List<{T}> items) {{\n    return (int) items.stream().filter(Objects::nonNull)"
        ".count();\n}}\njava: similar stream helpers in the codebase?",
        "[review-bot] {fn} looks close to helpers already in {path}; link similar implementations so we can "
        "consolidate",
        "refactor: extract shared {T} validation\n\nfirst find every function that does the same checks",
        "## What\nAdds a helper to {task}.\n\n## Question\nDo we already have code that does this somewhere? Link "
        "anything similar.",
        "there's a bit of code in {topic} that converts and rounds amounts, and I have a hunch it was copied into a "
        "few other places with small tweaks over the years, so I'd like every function that does roughly the same "
        "computation even if the variable names differ:\n{code}",
        "got a feeling {T} has a twin somewhere, find stuff that looks like it",
        "are there other implementations that {task}?",
        "public static decimal {Fn}(IEnumerable<{T}> xs) => xs.Sum(x => x.Amount);\nc#: any other LINQ sums like "
        "this one?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fortyfourth", seed=4444)

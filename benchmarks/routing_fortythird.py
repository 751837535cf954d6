"""A forty-third held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fortysecond.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by a
different hand than the change, in one sitting, from the layout of ``routing_fortysecond.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the forty-second's was reworded,
and no classifier, router or model was asked about any of its phrasings while they were written. It keeps the
usual spread of voices (two- to four-word keyword queries and long rambling ones, misspellings, lowercase
chat, questions and orders, tool calls written as JSON, requests to an agent, review and CI bot comments,
commit messages, Go panics with and without the blank line before ``goroutine``, Python tracebacks, Java,
Kotlin and C# exceptions with frames, Node stacks, Rust panics, timestamped log lines with a line of words
under them or none, and declarations pasted as typed in Go, Rust, Kotlin, Java, Python, Swift, C#, TypeScript,
Ruby, PHP, C++ and Scala) and leans on four places where routes are easy to confuse. Output (a trace, a panic,
an exception, a log line) comes with a question under it, sometimes after blank lines, and is labelled by what
the question asks: where the named code is declared is ``find_definition``, every place that calls it is
``find_references``, who has to handle it once the code changes is ``impact_analysis``, why or when it happens
is ``understand_code``, and where its text comes from is ``exact_match``. A declaration keyword opens
questions that are not about the definition (``type X interface`` with "which types satisfy this", ``pub
trait`` with "which types impl this", ``open class`` with "which classes extend this", ``actor`` with "why is
this an actor"). Pasted code carries questions of every kind (code like it, where a name in it is defined,
what it is for, who calls it). Reference questions come in chat wordings ("anything still touching", "who's
still poking at"). The label is always what the asker wants, not which words appear. Seven templates met a
training template or another set's (``test_intent_model``) and were replaced by ones of another shape, not
reworded; a script that printed only this set's own colliding templates picked them out, though the test's
failure output showed fragments of the templates they met.

Its slot fillers come from five domains, and no filler is another set's: a glassblowing studio (furnace
charges, annealing cycles, gather weights, glory hole bookings), a community orchard (scion grafts, harvest
rotas, cider press runs, brix readings), a bouldering gym (route setting, grade consensus votes, hold
washing), a bicycle courier dispatch (courier tags, drop windows, manifest signatures) and a hot-air balloon
ride operator (envelope inspections, burner checks, landing permissions). One filler, a type name, met another
set's and was renamed. None is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "schedule_furnace_charge",
    "startAnnealingCycle",
    "record_gather_weight",
    "reserveGloryHoleSlot",
    "log_scion_graft",
    "assignHarvestRotaShift",
    "book_cider_press_run",
    "recordBrixReading",
    "publish_route_set",
    "tallyGradeVotes",
    "queue_hold_wash",
    "retireProblemFromWall",
    "issue_courier_tag",
    "openDropWindow",
    "capture_manifest_signature",
    "reroutePackageToDepot",
    "log_envelope_inspection",
    "runBurnerCheck",
    "request_landing_permission",
    "weighBasketLoad",
]
_TYPES = [
    "FurnaceChargeSchedule",
    "AnnealingCycle",
    "GatherWeightLog",
    "GloryHoleTimeSlot",
    "ScionGraftRecord",
    "HarvestRotaShift",
    "CiderPressRun",
    "RouteSetSession",
    "GradeConsensusVote",
    "HoldWashBatch",
    "CourierTag",
    "DropWindowSlot",
    "ManifestSignature",
    "EnvelopeInspection",
    "BurnerCheckReport",
    "BalloonLandingPermission",
]
_ERRORS = [
    "AnnealerOverTempError",
    "GatherTooHeavyException",
    "GraftUnionFailedError",
    "PressRunOverbookedException",
    "GradeVoteTiedError",
    "HoldStillWetException",
    "DropWindowMissedError",
    "ManifestUnsignedException",
    "LandingPermissionRevokedError",
]
_MESSAGES = [
    "annealing cycle ended before the kiln dropped below the strain point",
    "gather weight logged heavier than the blowpipe rating",
    "furnace charge scheduled during the weekly glass melt-down",
    "scion graft recorded on a rootstock already marked dead",
    "harvest rota shift given to a volunteer without a ladder induction",
    "cider press run booked past the sanitising window",
    "route set published with a hold count that does not match the wall map",
    "grade consensus closed with fewer than five climber votes",
    "hold wash batch marked dry while the crates were still dripping",
    "courier tag printed for a rider who is off shift",
    "drop window closed before the rider reached the loading bay",
    "manifest signature captured with a blank recipient name",
    "envelope inspection saved without a fabric porosity reading",
    "burner check passed with one pilot light still out",
    "landing permission requested for a field the farmer revoked this morning",
]
_ERROR_CODES = ["GLS-5120", "ANL-093", "E_PRESS_FULL", "ORCH-4418", "BLD-V7", "CRR-0262", "EDROPLATE", "BLN-6604"]
_PATHS = [
    "hotshop/furnace/charge_schedule.py",
    "hotshop/annealer/AnnealingCycle.kt",
    "hotshop/gathers/gather_weight.go",
    "orchardco/grafts/ScionGraft.java",
    "orchardco/rota/harvest_rota.rb",
    "orchardco/press/ciderPress.ts",
    "cruxwall/setting/route_set.rs",
    "cruxwall/grades/GradeConsensus.cs",
    "cruxwall/washing/holdWash.js",
    "spokeline/tags/courier_tag.php",
    "spokeline/windows/DropWindow.swift",
    "spokeline/manifests/manifest_sign.cpp",
    "skyward/envelopes/envelope_inspection.py",
    "skyward/burners/BurnerCheck.kt",
    "skyward/landing/landingPermission.tsx",
]
_TOPICS = [
    "furnace charging and glory hole bookings at the glass studio",
    "annealing cycles for blown glass",
    "scion grafting records in the community orchard",
    "harvest rotas and cider pressing days",
    "route setting and grade consensus at the bouldering gym",
    "hold washing batches at the climbing wall",
    "courier tags and drop windows at the dispatch desk",
    "manifest signatures for bike courier runs",
    "envelope inspections and burner checks for the balloon fleet",
    "landing permissions for hot-air balloon flights",
]
_TASKS = [
    "work out how long a blown piece must soak in the annealer from its wall thickness",
    "check a gather's weight against the blowpipe it sits on",
    "pick which orchard volunteer gets the next harvest rota shift",
    "estimate litres of cider from the kilos of apples pressed",
    "settle a boulder problem's grade from the median of climber votes",
    "decide which holds go in the next wash batch by chalk build-up",
    "assign a courier drop to the rider who can still make its window",
    "ground a balloon flight when the wind is over its limit or a burner check is missing",
]
_EVENTS = [
    "the furnace trips overnight while a piece is still in the annealer",
    "a graft union splits in a storm the week after it was logged",
    "a route is stripped for washing while a grade vote on it is still open",
    "a rider's phone dies before the recipient signs the manifest",
    "a landowner revokes landing permission while the balloon is already airborne",
]
_SNIPPETS = [
    "for _, p := range pieces {\n\tif p.KilnTempC > strainPointC {\n\t\tstillHot = append(stillHot, p.ID)\n\t}\n}",
    "for tree in rows:\n    if tree.graft_year and tree.brix >= 11:\n        ready.append(tree.tag)",
    "let to_wash: Vec<_> = holds\n    .iter()\n    .filter(|h| h.chalk_level > 3 && !h.in_crate)\n"
    "    .map(|h| h.id)\n    .collect();",
    "for (Drop d : manifest.getDrops()) {\n    if (d.getSignature() == null) {\n"
    "        unsigned.add(d.getTag());\n    }\n}",
    "let grounded = flights.filter { $0.windKnots > 12 || $0.burnerCheck == nil }",
    "rota.group_by(&:volunteer).select { |_, shifts| shifts.size > 3 }.keys",
    "const late = drops\n  .filter((d) => d.arrivedAt > d.windowEnd)\n  .map((d) => d.tag);",
    "var consensus = votes\n    .GroupBy(v => v.Grade)\n    .OrderByDescending(g => g.Count())\n    .First().Key;",
    "SELECT press_day, SUM(litres) AS total_litres\nFROM cider_press_runs\nGROUP BY press_day\n"
    "HAVING SUM(litres) > 400;",
]
_BODIES = [
    "def gather_ok(weight_g, pipe_rating_g):\n    return 0 < weight_g <= pipe_rating_g",
    "func annealMinutes(thicknessMM float64) int {\n\treturn int(thicknessMM * 60)\n}",
    "fn median_grade(votes: &mut [u8]) -> u8 {\n    votes.sort();\n    votes[votes.len() / 2]\n}",
    "fun pressLitres(kgApples: Double): Double =\n    kgApples * 0.65",
    "public static bool WindowOpen(DateTime now, DropWindowSlot w) {\n    return now >= w.Opens && now <= w.Closes;\n}",
    "func burnerReady(pilots: [Bool], psi: Double) -> Bool {\n    return pilots.allSatisfy { $0 } && psi >= 90\n}",
    "function tagFor(rider, seq) {\n  return rider.code + '-' + String(seq).padStart(4, '0');\n}",
    "function landingAllowed(array $field, DateTime $at): bool {\n"
    "    return !$field['revoked'] && $field['permit_until'] > $at;\n}",
]
_CODE_LINES = [
    "piece.ready = kiln_temp_c < STRAIN_POINT_C and hours_in >= soak_hours",
    "if gather.WeightG > pipe.RatingG { return errTooHeavy }",
    "litres := kgApples * pressYield",
    "let grade = votes[votes.len() / 2];",
    "drop.late = drop.arrivedAt > drop.window.closes;",
    "$flight->grounded = $wind->knots > 12;",
    "crate.push(hold) unless crate.any? { |h| h.id == hold.id }",
    "rota_slot = VOLUNTEERS[week_number % len(VOLUNTEERS)]",
    'var tag = rider.Code + "-" + seq.ToString("D4");',
    "val ready = pilots.all { it } && psi >= 90.0",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "thread 'main' panicked at {path}:{n}:5:\ncalled `Option::unwrap()` on a `None` value\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n\n"
        "rust: {T} is the struct that unwrap lives in -- where is {T} declared?",
        "data class {T}(val id: Long, val notes: String?)\nkotlin -- jump me to where this data class lives",
        "@dataclass(frozen=True)\nclass {T}:\npython, which module declares this dataclass?",
        "type {T} struct {{\ngo. which package declares this struct? grep turns it up in three vendored copies",
        "public enum {T} {{\njava enum -- where's the declaration?",
        "case class {T}(id: UUID, at: Instant)\nscala: where is the case class defined?",
        "2025-01-19 08:{n}:07.220 WARN  [{fn}] retry scheduled: {msg}\n\nthe bracketed bit is a function name. "
        "take me to the definition of {fn}",
        "System.InvalidOperationException: {Msg}\n   at {qual}() in {path}:line {n}\n\n"
        "c#: go to the declaration of {qual}",
        "{qual} decl",
        "hey where did we put the definition of {fn}? i keep landing in the tests",
        '{{"action": "locate_declaration", "name": "{T}", "kind": "type"}}',
        "@agent find the source file and line where {err} is declared and paste that one line back",
        "whre is teh {T} clas declard",
        "protocol {T}: AnyObject {{\nswift: which file declares the protocol itself? not the conformances",
        "class {T} < ApplicationRecord\nwhere does this model class live in the tree?",
        "{code}\n\nthat line uses something from {fn} -- which file defines {fn}?",
        "[review-bot] this diff imports {T} from two different paths. which one is the actual declaration?",
        "Need the origin of {Fn}: the line where it's first written as a function, not a wrapper, not a mock.",
    ],
    "find_references": [
        "type {T} interface {{\n\ngo -- list the concrete types that satisfy this",
        "open class {T}(val id: Long)\nkotlin: which classes extend this one?",
        "anything still touching {fn}? want to delete it friday",
        "who's still poking at {T} these days",
        "callers {qual} across services",
        "panic: {err}\n\ngoroutine 21 [running]:\nmain.{Fn}(...)\n\t{path}:{n} +0x88\n\n"
        "all places calling {Fn}? I only know about this one",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in run\n    {fn}(batch)\n{err}: {msg}\n\n'
        "list every place in the repo that calls {fn}, not just this caller",
        "pub trait {T} {{\n    fn {fn}(&self);\n}}\n\nwhich types impl this? count them and list them",
        '{{"query": "references", "symbol": "{qual}", "scope": "workspace"}}',
        "agent: collect every import of {path} and tell me which modules they sit in",
        "[review-bot] {fn} changed signature in this PR; reviewers need the list of its callers outside this package",
        "chore: inline {fn}\n\nfirst I need every call site of it so nothing gets missed",
        "{body}\n\nwho calls this? it has no tests and I can't tell if it's live",
        "public abstract class {T}Base : I{T}\nc#: apart from this one, which classes derive from {T}Base?",
        "whitch fils use {T}",
        "so on-call keeps pinging me about {topic} and I'm fairly sure {fn} is behind it, but before I go "
        "digging I'd like a plain list of every module, job and test that references {fn}, plus anything "
        "that reaches it through a re-export",
        "struct {T} : public {T}Base {{ ... }};\nc++: what else derives from {T}Base?",
        "trait {T} -- every class or object that mixes it in, scala",
    ],
    "impact_analysis": [
        "panic: {err}\ngoroutine 3 [running]:\nmain.{Fn}(0xc000012345)\n\t{path}:{n} +0x1d\n"
        "if {Fn} starts returning ({T}, error) instead of panicking, which callers need updating?",
        "java.lang.IllegalArgumentException: {msg}\n\tat {qual}({T}.java:{n})\n"
        "\tat {T}Service.handle({T}Service.java:88)\n\nwe want {qual} to throw {err} here instead. who has to "
        "catch it now?",
        "public interface I{T} {{ Task {Fn}Async(); }}\nc#: adding a second method to this interface -- which "
        "implementers stop compiling?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in sync\n    {fn}(rows)\n{err}: {msg}\n\n'
        "if {fn} stops raising {err} and returns an empty list instead, which code relying on the exception "
        "has to change?",
        "what depends on {path}? planning to split it in two",
        "[ci-bot] public API diff: {qual} removed. list the downstream packages this breaks",
        '{{"kind": "change_impact", "target": "{T}", "proposed": "delete a field"}}',
        "agent, before I merge: if {err} stops being raised from {fn}, which handlers go dead or turn wrong?",
        "gonna nuke {T} tmrw, what explodes",
        "wat wuld brake if {fn} returnd None",
        "pub fn {fn}(&mut self) -> Result<(), {err}>\nrust: switching this to take &self -- what downstream "
        "code is affected?",
        "export type {T} = {{ id: string }}\nts: adding a required field here, which files fail to type-check?",
        "feat!: {fn} now requires a tenant id\n\nbefore merging, what does this break across the services?",
        "I've been asked to move {T} out of the shared library into its own package as part of tidying up "
        "{topic}, and honestly I don't know how tangled it is -- who'd need new imports, which builds would "
        "fail, and does anything serialise it by its full class name",
        "2025-03-22 {n}:05:51 INFO  {T} cache warmed (412 entries)\n\nif we drop that cache entirely, what "
        "slows down or breaks?",
        "public function {fn}(int $id): ?{T}\nphp: if this stops returning null, which callers' null checks "
        "break or become dead code?",
    ],
    "exact_match": [
        'fatalError("{Msg}")\nswift -- which file has this exact fatalError call?',
        "fix: reword the {ecode} error\n\nfirst, every file where the code {ecode} appears as written please",
        "thread 'worker' panicked at '{msg}', {path}:{n}:9\n\nwhich line has that panic message as a literal?",
        "panic: {msg}\ngoroutine 9 [running]:\nmain.{Fn}()\n\t{path}:{n} +0x45\n\n"
        "search the repo for that panic text as written",
        "[2025-04-01 08:{n}:33] ERROR {ecode}: {msg}",
        "the config key {fn}.max_retries -- find it spelled exactly that way",
        '{{"tool": "literal_search", "text": "{Msg}", "case_sensitive": true}}',
        "UnhandledPromiseRejection: {msg}\n    at {Fn} ({path}:{n}:3)\n\n\n"
        "which file throws with that exact message text?",
        "where do we emit {ecode}? literally that token",
        "regex: {fn}\\(\\s*None\\s*\\)",
        "kotlin.KotlinNullPointerException: {msg}\n\tat {qual}({T}.kt:{n})\n\n"
        "where does this message text come from in the code?",
        'find exsact text "{msg}"',
        "[ci-bot] lint: forbidden string '{ecode}' found in build output. locate every occurrence in the source",
        'literal "{err}"',
        "which yaml has `{fn}_enabled: true` verbatim",
        "Unhandled exception. {err}: {Msg}\n   at {qual}()\n   at Program.Main()\n\n"
        "where is that message string in our code?",
        "WARNING:{fn}:{msg}\n\nwho prints this? search the exact string",
    ],
    "understand_code": [
        "thread 'main' panicked at {path}:{n}:14:\n{msg}\n\nwhy would this fire? walk me through what {fn} assumes",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in <module>\n{err}: {msg}\n\n'
        "when does this happen? what state has to be true for {err} to get raised",
        "panic: runtime error: index out of range [3] with length 3\ngoroutine 1 [running]:\nmain.{Fn}(...)\n"
        "\t{path}:{n}\nwhy is {Fn} indexing past the end? explain the logic",
        "RangeError: Maximum call stack size exceeded\n    at {Fn} ({path}:{n}:21)\n    at {Fn} ({path}:{n}:21)\n\n"
        "why does {Fn} recurse forever here? explain what it's doing",
        "public sealed class {T} : IDisposable\nc# -- explain the lifecycle of this class: who creates it, when "
        "it's disposed, what it owns",
        "what happens when {event}? trace the code path in words",
        "pls explain why {T} keeps a second copy of the state",
        "{snippet}\n\n\nwhat's the point of this block? context please",
        "class {T}(models.Model):\npython: what is this model responsible for, and how does it get saved?",
        '{{"request": "describe", "subject": "{path}", "audience": "new contributor"}}',
        "[review-bot] could the author explain how {fn} avoids double-processing during {topic}?",
        "agent: read {path} and give me a short account of its control flow, no edits",
        "hw dose {T} handel retries",
        "I'm new on the team that owns {topic} and every time I open {fn} I get lost in the callbacks -- could "
        "someone explain, step by step, what it does from the moment a request arrives until it writes to the "
        "database, and why it's split across so many files",
        "java.util.ConcurrentModificationException\n\tat java.util.ArrayList$Itr.next(ArrayList.java:1052)\n"
        "\tat {qual}({T}.java:{n})\n\nwhat's {qual} doing that triggers this? explain, don't fix",
        "how do we {task}? explain the approach",
        "actor {T} {{\nswift -- why is this an actor, and what is it protecting?",
    ],
    "find_similar": [
        "{snippet}\n\nany other spots doing this same thing?",
        "{body}\n\n\nduplicates of this in other services?",
        "same logic as {fn} elsewhere?",
        "def {fn}(rows)\n  rows.reject(&:nil?).sum(&:weight)\nend\nruby: similar methods elsewhere in the app?",
        "{code}\n\nwhere else do we write basically this line?",
        '{{"op": "nearest_code", "query_snippet": "{body}", "limit": 5}}',
        "agent: scan the repo for functions that {task} and list them side by side",
        "[review-bot] this block resembles existing code; please link any similar implementations:\n{snippet}",
        "lok for code simmilar to {qual}",
        "fn {fn}(&self, items: &[{T}]) -> usize\nrust -- other fns with a similar body? pretty sure this was "
        "copy-pasted",
        "fix: dedupe {fn}\n\nthere were at least two copies, find the rest please",
        "other implementations of the {T} logic, maybe under different names",
        "{snippet}\nsomeone wrote this in another folder too, I'm sure of it. find the twin",
        "export const {fn} = (rows: {T}[]) => rows.filter(Boolean)\nts: look for other helpers shaped like this",
        "do we have anything thats like {fn} already",
        "[ci-bot] duplication check: {path} over threshold. show the code blocks it duplicates",
        "I wrote a thing to {task} last sprint and now I suspect three other teams did the same -- can you find "
        "code that does roughly the same job even if it's structured differently, so we can pick one",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fortythird", seed=4343)

"""A forty-second held-out set for the learned routing layer: templates written before the routing change
they judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fortyfirst.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by a
different hand than the change, in one sitting, from the layout of ``routing_fortyfirst.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the forty-first's was reworded,
and no classifier, router or model was asked about any of its phrasings while they were written.
It keeps the usual spread of voices (two-word keyword queries and long rambling ones, misspellings,
lowercase chat, questions and orders, tool calls written as JSON, requests to an agent, review and CI bot
comments, commit messages, a Go panic, a Python traceback, Java and Kotlin stack traces, a Node stack and
timestamped log lines with a question under them, declarations pasted as typed in Go, Rust, Kotlin, Java,
Python, Swift, C#, TypeScript, Ruby, PHP and C++) and leans on four places where routes are easy to
confuse. Definition questions arrive under a pasted signature, a trace or a log line ("where is it really
declared?"), and are ``find_definition``. Reference questions come in unusual wordings and with code or
traces around them (call sites, importers, consumers, C# types with ``: IFoo`` in their base list, Rust
``impl Trait for`` blocks, Go compile-time interface assertions, Swift adopters, Python and Kotlin
subclasses) and are ``find_references``. An exception or error name comes with a question about it and is
labelled by what is asked: where its text is written as a literal string is ``exact_match``, how or why it
happens is ``understand_code``, where its class is declared is ``find_definition``. Pasted code with "find
code like this" is ``find_similar``, pasted code with "where is this defined" is ``find_definition``. The
label is always what the asker wants, not which words appear. Ten templates met a training template
or another set's (``test_intent_model``) and were replaced by ones of another shape, not reworded; that
test's failure output showed the templates they met.

Its slot fillers come from five domains, and no filler is another set's: a beekeeping cooperative (hive inspections,
queen marking, honey extraction lots, varroa mite counts), a community tool-lending library (tool
checkouts, late returns, the blade sharpening queue), a ferry ticketing office (sailings, vehicle deck
lanes, tide delays), a piano tuning service (tuning appointments, pitch raises, string replacement) and a
roller-derby league (bouts, jammer penalties, skater waivers). Earlier sets had touched ferries and bees:
six fillers that met theirs were renamed. None is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "file_apiary_hive_check",
    "markQueenWithColor",
    "assign_extraction_lot",
    "logVarroaMiteCount",
    "checkout_tool_to_member",
    "flagLateToolReturn",
    "enqueue_blade_sharpening",
    "renewToolLoanPeriod",
    "book_vehicle_deck_lane",
    "delaySailingForTide",
    "issue_foot_passenger_ticket",
    "reassignDeckLaneOnLoad",
    "schedule_piano_tuning_visit",
    "quotePitchRaise",
    "replace_bass_string",
    "logSoundboardHumidity",
    "log_jammer_penalty",
    "verifySkaterWaiver",
    "schedule_derby_bout",
    "tallyJamPoints",
]
_TYPES = [
    "ApiaryHiveCheck",
    "QueenMarking",
    "HoneyExtractorBatch",
    "VarroaMiteCount",
    "ToolCheckout",
    "LateToolReturn",
    "BladeSharpeningQueue",
    "TideBoundFerryDeparture",
    "CarDeckLaneAllocation",
    "TideDelayNotice",
    "PianoTuningAppointment",
    "PitchRaiseQuote",
    "PianoStringReplacement",
    "DerbyBout",
    "JammerPenalty",
    "SkaterWaiver",
]
_ERRORS = [
    "QueenCellNotFoundError",
    "VarroaThresholdExceededException",
    "ExtractionLotSealedError",
    "ToolAlreadyCheckedOutException",
    "BorrowerSuspendedError",
    "VehicleDeckLaneFullError",
    "SailingCancelledForTideException",
    "PitchRaiseTooSteepError",
    "SkaterWaiverMissingException",
]
_MESSAGES = [
    "hive inspection saved without a brood pattern score",
    "queen marked with last year's colour after a supersedure",
    "extraction lot sealed before the moisture reading was entered",
    "varroa count per hundred bees above the treatment threshold",
    "circular saw checked out to a member with an unsigned safety form",
    "late return fee charged twice for the same hedge trimmer",
    "blade sharpening ticket closed while the chisel is still on the bench",
    "vehicle deck lane assigned to a camper taller than its clearance",
    "sailing delayed for low tide but tickets still show the old departure",
    "foot passenger ticket issued for a sailing that already left",
    "tuning appointment booked for a piano marked as awaiting a pitch raise",
    "pitch raise quote skipped the string replacement surcharge",
    "soundboard humidity logged below the safe range without a warning",
    "jammer penalty recorded against a skater who was not on the track",
    "skater added to the bout roster with an expired waiver",
]
_ERROR_CODES = ["HIVE-2209", "TLL-318", "E_DECK_FULL", "FRY-0731", "PNO-4406", "RDR-077", "0xBEE5AC", "EWAIVERGONE"]
_PATHS = [
    "beecoop/hivechecks/hive_check_log.py",
    "apiary/queens/QueenMarking.kt",
    "apiary/extraction/extraction_lot.go",
    "toolshed/loans/ToolCheckout.java",
    "toolshed/sharpening/sharpening_queue.rb",
    "toolshed/fees/lateReturn.ts",
    "tidelane/sailings/sailing_schedule.rs",
    "tidelane/deck/VehicleDeckLane.cs",
    "tidelane/tickets/footPassenger.js",
    "tuneright/visits/tuning_appointment.php",
    "tuneright/strings/StringReplacement.swift",
    "tuneright/quotes/pitch_raise.cpp",
    "jamline/bouts/derby_bout.py",
    "jamline/penalties/JammerPenalty.kt",
    "jamline/waivers/skaterWaiver.tsx",
]
_TOPICS = [
    "hive inspections and varroa mite counts at the beekeeping co-op",
    "queen marking and honey extraction lots",
    "tool checkouts and late returns at the tool library",
    "the blade sharpening queue at the tool library",
    "ferry sailings and tide delays",
    "vehicle deck lane assignment at the ferry terminal",
    "piano tuning appointments and pitch raises",
    "piano string replacement jobs",
    "roller-derby bouts and jammer penalties",
    "skater waivers for the derby league",
]
_TASKS = [
    "decide whether a hive needs varroa treatment from an alcohol wash count",
    "pick the queen marking colour from the year she was introduced",
    "work out how long a borrower has left on a tool loan, skipping days the library is shut",
    "order the blade sharpening queue so the oldest dull blades go first",
    "fit vehicles into deck lanes by length and height without going over a lane's capacity",
    "push back a sailing's departure when the tide is below the ramp's minimum depth",
    "estimate how many tuning passes a piano needs from how far it sits below pitch",
    "total a jammer's points across the jams of one bout",
]
_EVENTS = [
    "a colony swarms the day before its inspection is due",
    "a borrower returns a chainsaw with a snapped chain after the loan ran out",
    "a sailing is cancelled for tide while cars are already queued in the deck lanes",
    "a bass string snaps during a pitch raise",
    "a skater's waiver expires halfway through a tournament weekend",
]
_SNIPPETS = [
    "for _, h := range hives {\n\tif h.MitesPer100 > 3 && !h.TreatedThisSeason {\n"
    "\t\ttreat = append(treat, h.ID)\n\t}\n}",
    "for loan in loans:\n    if loan.due < today and not loan.returned:\n        overdue.append(loan.tool_id)",
    "let fits: Vec<_> = lanes\n    .iter()\n    .filter(|l| l.free_m >= car.length_m && l.clearance_m > car.height_m)\n"
    "    .map(|l| l.id)\n    .collect();",
    "for (Jam jam : bout.getJams()) {\n    if (jam.getJammer().equals(skater)) {\n"
    "        points += jam.getPoints();\n    }\n}",
    "let due = appointments.filter { $0.lastTuned < Date().addingTimeInterval(-365 * 86400) }",
    "queue.sort_by { |t| [t.dropped_off_at, -t.dullness] }.each { |t| bench << t }",
    "const expired = skaters\n  .filter((s) => new Date(s.waiverExpires) < boutDate)\n  .map((s) => s.derbyName);",
    "var late = checkouts\n    .Where(c => c.ReturnedOn == null && c.DueOn < DateTime.Today)\n"
    "    .Select(c => c.MemberId)\n    .ToList();",
    "SELECT hive_id, AVG(mites_per_100) AS avg_mites\nFROM varroa_counts\nGROUP BY hive_id\n"
    "HAVING AVG(mites_per_100) > 3;",
]
_BODIES = [
    "def needs_treatment(mites, bees_sampled):\n    per_100 = mites * 100 / bees_sampled\n    return per_100 > 3",
    "func laneFits(freeM, lengthM, clearanceM, heightM float64) bool {\n"
    "\treturn freeM >= lengthM && clearanceM > heightM\n}",
    "fn tuning_passes(cents_flat: f32) -> u8 {\n    if cents_flat > 50.0 { 2 } else { 1 }\n}",
    'fun queenColor(year: Int): String =\n    listOf("blue", "white", "yellow", "red", "green")[year % 5]',
    "public static int JammerPoints(IEnumerable<Jam> jams, Skater s) {\n"
    "    return jams.Where(j => j.Jammer == s).Sum(j => j.Points);\n}",
    "func lateFee(daysLate: Int, dailyRate: Decimal) -> Decimal {\n"
    "    return min(Decimal(daysLate) * dailyRate, 25)\n}",
    "function delayedDeparture(dep, tideM, minDepthM) {\n  return tideM < minDepthM ? dep + 45 * 60 * 1000 : dep;\n}",
    "function waiverValid(array $skater, DateTime $bout): bool {\n"
    "    return !empty($skater['waiver_signed']) && $skater['waiver_expires'] > $bout;\n}",
]
_CODE_LINES = [
    "hive.treat = mites * 100 / bees_sampled > VARROA_THRESHOLD",
    "if lane.free_m < car.length_m { continue }",
    "fee := min(daysLate*dailyRate, maxLateFee)",
    "let passes = if cents_flat > 50.0 { 2 } else { 1 };",
    "skater.eligible = skater.waiverExpires > bout.startsAt;",
    "$visit->needsPitchRaise = $piano->centsFlat > 25;",
    "bench.push(tool) unless bench.any? { |t| t.id == tool.id }",
    "queen_color = COLORS[introduced_year % 5]",
    "var departure = tideM < MinRampDepthM ? sailing.Departure.AddMinutes(45) : sailing.Departure;",
    "val points = jams.filter { it.jammer == skater }.sumOf { it.points }",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "template <typename Alloc>\nclass {T} final : public {T}Base {{\nc++ -- which header actually declares "
        "this class?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in handle\n    {fn}(payload)\n'
        "{err}: {msg}\nnot the caller -- where is {fn} itself defined?",
        'Exception in thread "worker-2" {err}: {msg}\n\tat {qual}({T}.kt:{n})\n'
        "\tat kotlinx.coroutines.DispatchedTask.run(DispatchedTask.kt:108)\nkotlin. open the file where {T} is "
        "declared",
        "    at {Fn} ({path}:{n}:17)\n    at processTicksAndRejections (node:internal/process/task_queues:95:5)\n"
        "that path is the bundled build. where is {Fn} defined in the real sources?",
        "2024-03-14T06:{n}:44Z ERROR {T} rejected request: {msg}\nwhich file declares the {T} type this log "
        "line names?",
        "public sealed record {T}(Guid Id, DateTime CreatedAt);\nC# -- where's this record declared?",
        "pub trait {T}: Send + Sync {{\nrust; goto definition of this trait please",
        "interface {T} {{ ... }}\nTS: which file declares the interface? two packages in node_modules have one "
        "with that name, I want ours",
        "go to the definition of {err} -- the exception class itself, not the places that raise it",
        "struct {T}: Codable, Hashable {{\nswift -- which file is this struct declared in?",
        "wheres {qual} definied",
        '{{"method": "textDocument/definition", "params": {{"symbol": "{qual}", "workspace": "."}}}}',
        "agent: open the file where {fn} is declared and stop there, nothing else",
        "func {Fn}(w http.ResponseWriter, r *http.Request)\nwhich go file holds this handler? the router only "
        "mentions it by name",
        "Where does the source first introduce the name {T}? Not the re-export, not the alias in the typings "
        "shim -- the real declaration.",
        "module {T}\n  def self.{fn}\n(ruby) which file opens this module and defines {fn}?",
        "public function {fn}(Request $request): JsonResponse\nphp controller method, where is it defined?",
        "{body}\n\nwhere is this function defined? I copied it out of a review comment and lost the filename",
    ],
    "find_references": [
        "list the call sites of {qual}, tests included",
        "c#: every type whose base list contains I{T}, e.g. `class Foo : I{T}`",
        "trait {T} -- how many implementors does it have? list every impl block that implements it, in any "
        "crate of the workspace",
        "which call sites pass a {T} into {fn}?",
        "module {T}\n  extend ActiveSupport::Concern\nruby: which models `include {T}`, and who calls its class "
        "methods?",
        "who's still hitting {fn} lol, thought we killed it",
        "abstract class {T} implements \\Countable\nphp: every subclass of this one, and every place it's "
        "type-hinted as a parameter",
        'Exception in thread "main" {err}: {msg}\n\tat {qual}({T}.kt:{n})\nwho else calls {qual} besides this path?',
        "TypeError: Cannot read properties of undefined (reading 'id')\n    at {Fn} ({path}:{n}:9)\n"
        "find all the places that call {Fn} with possibly undefined input",
        "swift: list the types that adopt {T}, whether `struct X: {T}` or a conformance in an extension",
        "[ci-bot] {fn} is marked @deprecated; the job summary must list its references in other packages. "
        "which are they?",
        '{{"op": "find_usages", "target": "{T}", "include_tests": false}}',
        "refactor(api): split {fn} into two\n\nneed every usage first so each one picks the right half",
        "so before I touch anything I'm trying to figure out where in this whole repo {T} gets instantiated or "
        "passed around or stored in a field, basically every spot that mentions it, because I think half of "
        "them are dead",
        "go: which structs satisfy the {T} interface? compile-time checks like `var _ {T} = (*X)(nil)` count",
        "python: who subclasses {T}? mixins too",
        "export function {fn}(input: string): Promise<void>\n^ who imports this? I need every consumer",
        "java: classes implementing {T}, directly or through an abstract parent",
    ],
    "impact_analysis": [
        "if {T} loses its {fn} method, what stops compiling?",
        "public func {fn}(_ id: UUID) async throws -> {T}\nswift: dropping `throws` from this -- which callers "
        "and tests are affected?",
        "what's affected if I drop the {path} module entirely",
        "safe to change the return type of {qual}?",
        "dependents of {T} -- I want to bump its serialisation format; which of them would break?",
        "We're thinking about making {fn} async because it blocks on I/O during {topic}. Before anyone writes "
        "code I'd like to know what else would have to become async, which tests need rewriting, and whether "
        "any cron jobs call it synchronously.",
        "[review-bot] this diff narrows {T}'s constructor. impact summary requested: affected modules, affected tests",
        "ci: schema change to {T} detected. which downstream jobs and services are affected by it?",
        "waht breaks if i remov {fn}",
        '{{"task": "impact_analysis", "symbol": "{fn}", "change": "remove default argument"}}',
        "panic: {err}\n\ngoroutine 7 [running]:\nmain.{Fn}(...)\n\t{path}:{n}\nplan is to return an error from "
        "{Fn} instead of panicking. who has to handle that new error, and what breaks if they don't?",
        "virtual void {fn}() = 0;\nc++: if this pure virtual gains a parameter, which overrides and call sites "
        "have to change?",
        "consequences of deleting {err} and raising a generic error instead -- anything catching it by type "
        "would break, right? how much?",
        "agent: assess the impact of renaming {T} to {T}Record across the monorepo; don't change anything yet",
        "if i flip the default of {fn} to false does anything downstream care",
        "kotlin: making `{T}` a sealed class -- what outside its module would stop compiling?",
        "how risky is it to touch {path}? who relies on it",
    ],
    "exact_match": [
        '"{msg}" exact',
        'where is the literal string "{err}" written in the code? a log parser keys on it and I need every spot '
        "that emits that exact text",
        "2024-11-02 {n}:17:03,412 ERROR [{T}] {msg}\nwhich source line prints this exact message?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n    raise {err}(msg)\n'
        "{err}: {msg}\nwhere does the text '{msg}' come from? the msg is built somewhere else, search it "
        "literally",
        'std::cerr << "{Msg}" << std::endl;\nc++ -- which .cpp file has this exact line?',
        "pattern: \\b{fn}_v[0-9]+\\b",
        "find the config key `{fn}_timeout_ms` exactly as spelled, in .env, yaml and json files",
        '{{"tool": "search_text", "args": {{"query": "{ecode}", "literal": true}}}}',
        "[ci-bot] job failed with: {ecode} {msg}\nwhere in the repo is this exact error output produced?",
        "Error: {msg}\n    at {Fn} ({path}:{n}:11)\n    at Array.forEach (<anonymous>)\nwhere does this error "
        "come from? find the string",
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:{n} +0x{n}\nthat panic text -- "
        "where is it in our code? search for the literal",
        "exact line: {code} -- which files contain it character for character?",
        "serch for the exakt string {ecode}",
        "anyone know where '{msg}' is hardcoded",
        "case-sensitive search: {err} followed by a colon and a space",
        "/^\\s*#\\s*{fn}:/m in config files",
        "java.lang.IllegalStateException: {msg}\n\tat {qual}({T}.java:{n})\nfind where that exact message "
        "string is built",
    ],
    "understand_code": [
        "panic: {err}\n\ngoroutine 12 [running]:\nmain.{Fn}(...)\n\t{path}:{n}\nhow does {Fn} end up panicking "
        "here? explain the path through the code, I don't need the file",
        "{err} -- why does it happen? under what conditions is it thrown?",
        'Exception in thread "main" {err}: {msg}\n\tat {qual}({T}.kt:{n})\nnot after the file -- I want to '
        "understand what sequence of events leads here",
        "[{n}:12:09] INFO {T} state -> SUSPENDED\nwhy does it go into that state? explain the transitions from "
        "the code",
        "explain {path} to a new hire",
        "walk through the algorithm we use to {task}, with a worked example",
        "{snippet}\n\nwhat is this loop for?",
        "impl Drop for {T} {{\nrust -- what does this drop impl clean up, and in what order?",
        "cn someone explian how {T} gets persisted",
        "ok so what does {fn} actually return when the list is empty",
        "std::optional<{T}> {fn}(const {T}& prev) const;\nc++ -- what is this meant to do? explain the contract",
        "[review-bot] reviewer asks: what invariant does {T} maintain between calls to {fn}? please explain "
        "before merge",
        "@agent summarize how {topic} is implemented: modules, data flow, failure handling",
        "why does {fn} retry three times before raising {err}?",
        '{{"tool": "explain", "args": {{"symbol": "{qual}", "detail": "high"}}}}',
        "I've been staring at {path} for an hour and I still can't tell how a request makes its way from the "
        "handler down to {fn}, what gets cached on the way, and why there's a second code path for {topic}. "
        "can someone lay it out?",
    ],
    "find_similar": [
        "{snippet}\n\nfind code like this",
        "{body}\nwhere else is this logic duplicated?",
        "{code}\nsimilar lines elsewhere? same idea, any language",
        "func {Fn}(ctx context.Context, in []{T}) ([]{T}, error)\nany other go funcs in the repo whose body is "
        "close to this one's?",
        "fun {fn}(items: List<{T}>): Int\nkotlin -- do we have other functions with this same shape doing the "
        "same job?",
        "is there already something that can {task}? before I write my own",
        "which other modules implement the same logic as {qual}, even if it's named differently",
        "[review-bot] this function looks like a duplicate. please find code similar to {fn} across services "
        "and link it",
        '{{"tool": "similar_code", "args": {{"snippet": "{code}", "top_k": 10}}}}',
        "simlar functons to {fn}?",
        "{body}\n\nnot asking where this is defined -- I want code that looks like it",
        "clones of the pattern in {path}",
        "agent, hunt for code that does what this does and report the closest three:\n{snippet}",
        "refactor: extract shared helper\n\n{body}\n\nbefore finishing: find the other hand-rolled copies of this",
        "functions structurally similar to {qual} -- same loops, same early returns",
        "something like {fn} but for {topic}?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fortysecond", seed=4242)

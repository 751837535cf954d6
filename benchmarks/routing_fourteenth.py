"""A fourteenth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The eleven held-out sets up to ``routing_twelfth.py`` (``routing_heldout.py``, ``routing_blind.py``,
``routing_fresh.py``, ``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``,
``routing_eighth.py``, ``routing_ninth.py``, ``routing_tenth.py``, ``routing_eleventh.py``,
``routing_twelfth.py``) have all been read while routing changes were weighed, so a change chosen on them
is partly chosen on its own test; ``routing_thirteenth.py`` was left unread while this one was written.
These templates were written in one sitting by another hand, from the shapes real requests take in places
the earlier sets leaned on least: comments on issue-tracker tickets (an estimate that needs the lay of the
land first, acceptance criteria that ask for an inventory of call sites), pair-programming chat ("you
drive, open it up"), editor and tag-tool commands pasted as they were typed (Neovim's ``gd`` and
``gr``, ``cscope -L`` with its query numbers, GNU Global's ``global -dx`` and ``global -r``),
``git log -S`` pickaxe searches and the Silver Searcher's ``-Q``, ast-grep patterns, SonarQube's
duplicated-lines warnings, Stack Overflow question titles, migration guides and dependency-upgrade notes (what must
change when a signature or a major version moves), CODEOWNERS review requests (whose code calls this,
whose code breaks), observability (a metric name or a trace span name pasted to find where it is set,
a gap in a trace to explain), SQL, GraphQL, protobuf and YAML fragments pasted to find more of the same,
Ruby, PHP, Haskell, OCaml and Zig error output, GELF and journald log lines, and speech dictated to an
editor with no punctuation at all, some of it from people who are not native English speakers. Short
requests were taken to outnumber long wordy ones, as they do where people type into a search box or an
agent calls a tool. The shapes were turned into templates; no sentence was copied. Questions and
imperatives, terse keyword queries and long wordy ones, typos, non-native English, prose mixed with code,
definition syntax of several languages (a Swift throwing ``func``, a Scala 3 ``opaque type``, a PHP
method with a return type, a Ruby concern, a Haskell record ``newtype``, an OCaml ``let rec ... =
function``, a Zig ``pub fn`` on a struct pointer), pasted stack traces and log lines, pasted code with
and without words, markdown code spans and fenced blocks. No classifier was asked any of them while they
were written; a template that met a training one or another set's (``test_intent_model``) was replaced,
not reworded. Its slot fillers come from domains no other set uses (a city marathon's chip timing and
start corrals, a fish hatchery's raceways and spawning records, a museum registrar's object loans and
gallery climate logs, a municipal parking enforcement service with plate readers and a tow queue), and
none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "assign_start_corral",
    "computeChipTimeSplit",
    "record_mat_crossing",
    "flagCourseCutting",
    "log_dissolved_oxygen",
    "scheduleRacewayFeeding",
    "count_eyed_eggs",
    "transferFryToRaceway",
    "draft_condition_report",
    "approveOutgoingLoan",
    "log_gallery_humidity",
    "assignCourierToCrate",
    "issue_parking_citation",
    "matchPlateToPermit",
    "queue_tow_request",
    "expirePayStationSession",
]
_TYPES = [
    "StartCorral",
    "ChipRead",
    "TimingMat",
    "RaceSplit",
    "Raceway",
    "EggTray",
    "SpawningRecord",
    "MuseumObject",
    "LoanAgreement",
    "ConditionReport",
    "GalleryClimateLog",
    "PermitZone",
    "ParkingCitation",
    "PlateRead",
]
_ERRORS = [
    "UncaughtThrowError",
    "JsonException",
    "ArgumentCountError",
    "PatternMatchFail",
    "FiberError",
    "DecodingError",
]
_MESSAGES = [
    "chip read arrived before the gun time for this wave",
    "bib is registered to a different start corral",
    "split time is faster than the course record allows",
    "dissolved oxygen under five milligrams per litre in raceway",
    "egg tray count differs from the spawning record",
    "feed ration exceeds the daily biomass percentage",
    "object is on loan and cannot be moved to storage",
    "relative humidity drifted past the loan agreement limit",
    "condition report is missing a photograph of the verso",
    "plate has no active permit for this zone",
    "pay station session ended before the grace period",
    "citation already voided by a supervisor",
]
_ERROR_CODES = ["ENAVAIL", "EILSEQ", "ENOLINK", "E0596", "22007", "0x800705B4"]
_PATHS = [
    "racetiming/mats/ChipReader.swift",
    "racetiming/results/split_calc.ml",
    "racetiming/corrals/CorralAssigner.scala",
    "hatchery/raceways/oxygen_probe.zig",
    "hatchery/spawning/EggCount.hs",
    "hatchery/feeding/feed_schedule.rb",
    "museum/loans/LoanAgreementController.php",
    "museum/climate/humidity_alerts.py",
    "museum/registrar/condition_report.rb",
    "parking/enforcement/citation_issuer.go",
    "parking/alpr/plate_matcher.cpp",
    "parking/web/paySession.ts",
]
_TOPICS = [
    "chip timing at the start and finish mats",
    "how runners are seeded into start corrals",
    "publishing live splits to the results page",
    "dissolved oxygen alarms on the hatchery raceways",
    "feeding schedules for fry by biomass",
    "tracking eggs from spawning to hatch",
    "outgoing loans of collection objects",
    "climate monitoring in the galleries",
    "condition reports before and after a loan",
    "permit zone enforcement with plate readers",
    "the tow queue for unpaid citations",
]
_TASKS = [
    "convert a net chip time into a pace per kilometre",
    "estimate fish biomass from a sample weight and a head count",
    "compute dew point from temperature and relative humidity",
    "normalize a licence plate read by dropping spaces and confusable characters",
    "bucket finishers into five-year age groups",
    "round a timestamp down to the nearest tenth of a second",
]
_EVENTS = [
    "a timing mat loses power while the lead pack crosses it",
    "an oxygen probe reports zero in the middle of the night",
    "a loaned painting comes back with a crack the outgoing condition report does not show",
    "a plate reader misreads a permit holder and a citation goes out anyway",
    "two runners swap bibs before the start",
]
_SNIPPETS = [
    "guard let read = reads.first(where: { $0.matId == mat.id && $0.bib == bib }) else {\n"
    "    return .missing\n}\nsplit.elapsed = read.timestamp - wave.gunTime",
    "raceways.each do |rw|\n  next if rw.oxygen_mg_l >= MIN_DO\n"
    "  Alarm.raise!(rw, :low_oxygen)\n  rw.aerators.each(&:start)\nend",
    "if ($loan->status !== LoanStatus::Approved) {\n    throw new LoanNotApproved($loan->id);\n}\n"
    "$crate->assignCourier($courier);",
    "for (samples) |s| {\n    if (s.do_mg_l < min_do) {\n        low_count += 1;\n    }\n}",
    "val byCorral = runners.groupBy(r => corralFor(r.predictedFinish))\n"
    "byCorral.foreach { case (c, rs) => c.capacity -= rs.size }",
]
_BODIES = [
    "let pace_per_km net_s dist_m =\n  float_of_int net_s /. (float_of_int dist_m /. 1000.)",
    "dewPoint :: Double -> Double -> Double\ndewPoint t rh = (b * g) / (a - g)\n"
    "  where a = 17.27; b = 237.7; g = a * t / (b + t) + log (rh / 100)",
    'func normalizePlate(p string) string {\n\tp = strings.ToUpper(strings.ReplaceAll(p, " ", ""))\n'
    '\treturn strings.NewReplacer("O", "0", "I", "1").Replace(p)\n}',
    "def biomass_kg(sample_g, sample_n, head_count):\n    return sample_g / sample_n * head_count / 1000",
]
_CODE_LINES = [
    "citation.fine_cents += LATE_FEE_CENTS if citation.days_unpaid > 30",
    "let net = chipFinish - chipStart",
    "$report->photos()->where('side', 'verso')->exists()",
    "raceway.feedGrams = biomassKg * ratePct * 10",
    "pub const min_do_mg_l: f32 = 5.0;",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "global -dx {fn}",
        "cscope -L -1 {fn}",
        "`gd` on {fn} just highlights the word, which file declares it",
        "func {fn}(_ item: {T}) throws",
        "opaque type {T} =",
        "public function {fn}(Request $request): JsonResponse",
        "module {T}\n  extend ActiveSupport::Concern",
        "newtype {T} = {T} {{",
        "let rec {fn} acc = function",
        "pub fn {fn}(self: *{T}",
        "ctags lists two definitions of {fn}, which one is actualy compiled in",
        "re: ticket {n} - could you drop a link to where {T} is declared, I want to check its fields before estimating",
        "ok you drive, open up {fn} itself: the def, not where we call it",
        "take me to the definition of {fn} in the swift code",
        "{T} is defined in which place? i want to see how is it build",
        "{fn} is imported in half the Ruby files and monkey-patched in one initializer, so before I change anything "
        "I want to read the original method definition, not the patch and not the call sites",
    ],
    "find_references": [
        "cscope -L -3 {fn}",
        "global -r {fn}",
        "gr on {fn} gives an empty quickfix list, I need its references some other way",
        "which CODEOWNERS groups own files that call {fn}",
        "SELECT caller, file FROM calls WHERE callee = '{fn}'",
        '{{ symbol(name: "{qual}") {{ references {{ file line }} }} }}',
        "ticket {n} asks for an inventory of the call sites of {qual}, can you pull it",
        "wait, who else calls {fn}? scroll through the usages with me",
        "How to find all usages of a Ruby method {fn} when it is sometimes called via send?",
        "{fn} is using by who? i need the all list",
        "find all the places that use {T} and read them out to me",
        "{fn} <- callers",
        "where is {T} pattern matched on",
        "which files extend {T} or add a protocol conformance to it",
        "call sites of {fn} in {path} only",
        "For the audit I want a plain list of every function, job and test that calls {fn}, with the file name "
        "and line, and whether the call sits behind the feature flag or not",
    ],
    "impact_analysis": [
        "migration guide item: {fn} now takes a {T} instead of a dict; which of our modules need edits",
        "we bump the library that provides {T} to its next major version, what in {path} would need changing",
        "protobuf: renumbering a field of message {T}, which readers and writers break",
        "removing the config key that {fn} reads: what fails at startup and what silently changes",
        "deprecating the GraphQL field backed by {fn}: which clients and resolvers have to change",
        "if the migration makes the {T} column NOT NULL, which inserts start to fail",
        "Ticket says 'just change {fn} to use UTC'. what is the real scope, which callers assume local time",
        "hold on, if we swap the order of the args to {fn}, what else do we have to fix",
        "whose code breaks if I change {qual}? want to tag the right owners on the PR",
        "{fn} signature change -> ?",
        "if we are changing the {fn}, which other place need also change? i am afraid to break",
        "what happens to the rest of the code if i make {fn} return a result instead of throwing",
        "Is it safe to change a Swift struct {T} to a class? What could break?",
        "We are moving {path} out of the monolith into its own service over the next two sprints; before we "
        "start I need to know what in the rest of the codebase depends on it, directly or not, and what would "
        "stop working during the cutover",
        "if we rename the metric that {fn} emits, which alerts and which code reading it would break",
        "zig: {fn} now returns an error union, which callers need a try added",
    ],
    "exact_match": [
        "git log -S '{msg}'",
        "ag -Q '{Msg}'",
        'trace span "{T}/{fn}" shows up in Tempo, find the code that sets that name',
        "where is the metric name `{fn}_total` registered? searching the literal string",
        "{path}:{n}:in `{fn}': {msg} ({err})",
        "PHP Fatal error:  Uncaught {err}: {Msg} in {path}:{n}",
        "{err}\n  {msg}\n  CallStack (from HasCallStack):\n    error, called at {path}:{n}:5 in main:{T}",
        'Fatal error: exception {err}("{msg}")\nRaised at {qual} in file "{path}", line {n}',
        "thread 1 panic: {msg}\n{path}:{n}:13: 0x10a3f2 in {fn} (app)",
        '{{"version":"1.1","short_message":"{Msg}","level":3,"_code":"{ecode}"}}',
        "journalctl -g '{msg}' matched a line, now find that string in the source",
        "bug ticket text: error {ecode} on the kiosk. grep the repo for that code verbatim",
        "this sentence '{msg}' is in which file? exactly this sentence",
        "search for the words {msg} exactly as i said them",
        "{ecode} verbatim pls",
        "How to search for the literal string '{Msg}' in a repo without it being read as a regex?",
    ],
    "find_similar": [
        "ast-grep -p '{code}'",
        "any other query shaped like this?\nSELECT * FROM {T} WHERE status = 'open' ORDER BY created_at DESC",
        "fragment {T}Fields on {T} {{ id updatedAt }} -- other fragments like this?",
        '```yaml\n{fn}:\n  schedule: "*/5 * * * *"\n  retries: 3\n```\nother jobs configured the same way?',
        "message {T} {{\n  string id = 1;\n  int64 updated_at = 2;\n}}\nwhich other messages look like this",
        "we wrote nearly this exact loop last month, didn't we? dig it up\n{snippet}",
        "Duplicated Lines Density is over the threshold on {path}, which files share blocks with it",
        "does anyone else {task}? want one shared helper instead of three",
        "i have feeling this code is existing already in other file, find please:\n{body}",
        "find code that does the same thing as {fn} but in the ruby part",
        "{fn} dupes?",
        "While porting {path} to the new framework I keep seeing the same few lines with tiny differences; show "
        "me every function that does essentially what this does so I can replace them all with one:\n{snippet}",
        "tech-debt ticket {n}: collect the copies of this before we extract a shared module\n{body}",
        "port of this in another language somewhere in the repo?\n{body}",
        "{code}  # every other line like this one, please",
        "which other {T} handlers are built the way {fn} is",
    ],
    "understand_code": [
        "ticket asks me to touch {topic}; before estimating, how does it work today?",
        "before we change anything, talk me through what {fn} is doing here",
        "How does {topic} behave when the network is flaky?",
        "the trace for {topic} has a long gap after {fn}, what is the code doing there",
        "what was the old way of {topic} and why was it replaced",
        "{T} is for what purpose? and why it have so many fields?",
        "explain how {topic} works from the moment a request comes in",
        "{topic} explainer",
        "I'm writing the runbook for {topic} and need to understand, in order, which processes are involved, "
        "what each of them stores, and what an operator should look at first when {event}",
        "what happens between {fn} being called and the {T} being saved",
        "not fluent in this language, what does this compute?\n{body}",
        "why are {T} records never deleted, only archived?",
        "where are the module boundaries in {topic}, and what crosses them",
        "review comment: I don't follow the control flow in {path}, can you sumarize it",
        "what state is left behind if {event}, and who cleans it up",
        "how does the {T} cache get invalidated",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fourteenth", seed=67)

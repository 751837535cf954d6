"""A thirteenth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The eleven earlier held-out sets (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``, ``routing_eighth.py``,
``routing_ninth.py``, ``routing_tenth.py``, ``routing_eleventh.py``, ``routing_twelfth.py``) have all
been read while routing changes were weighed, so a change chosen on them is partly chosen on its own
test. These templates were written in one sitting by another hand, from the shapes real requests take in
places the earlier sets did not lean on: the cscope manual (its input fields, find a definition, find
the functions calling a function, find an egrep pattern, and the questions it says it answers, "where
does this message come from", "what is the effect of adding a value to an enum") and its line-oriented
``-L`` mode, GNU GLOBAL's ``global -d``, OpenGrok's query fields (``refs:``, ``path:``, ``full:``), the
cross-reference panel of Google's Code Search (jump to the definition, then the usages), GitLab issues
asking for find references beside go to definition, Bitbucket's code search announcement (an error
message seen and not known where in the code it comes from) and its filters (``repo:``, ``ext:``), guides
to finding dead code (is the deprecated function still reachable, callers outside the repository such as
cron jobs), clone-detection guides (Type-2 clones that differ only in identifiers, semantic clones,
functions with the same body in two modules), the skill files of semantic code search tools for coding
agents ("how are payments handled", "show me retry logic"), review threads on breaking changes ("have
you looked where the function is used?", one caller fixed and five broken), incident log-triage guides
(the first anomaly line, ``logfmt`` and bracketed ISO timestamps), a Go ``panic:`` with its goroutine
frames, a PHP ``Fatal error: Uncaught``, a Swift ``Fatal error:``, a Rust ``thread 'main'
panicked at``, and onboarding guides for an unfamiliar codebase (trace one flow end to end, find the
entry points, get the mental model before the details), some of them written by people who are not
native English speakers. Short requests were taken to outnumber long wordy ones, as they do where people
type into a search box or an agent calls a tool. The shapes were turned into templates; no sentence was
copied. Questions and imperatives, terse keyword queries and long wordy ones, typos, non-native English,
prose mixed with code, definition syntax of several languages (Clojure ``defn``, OCaml ``let rec``, a PHP
``public function``, a C++ member defined out of its class, Objective-C ``@implementation``, an Erlang
``-spec``, a Rust ``impl`` block), pasted stack traces and log lines, pasted code with and without
words, markdown code spans and fenced blocks. No classifier was asked any of them while they were
written; a template that met a training one or another set's (``test_intent_model``) was replaced, not
reworded. Its slot fillers come from domains no other set uses (a regional blood bank's donor screening
and blood-unit inventory, a bakery chain's dough proofing and deck-oven scheduling, a beekeeping
cooperative's hive inspections and honey extraction lots, a city's winter road service with its plough
routes and road-salt stock), and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "screen_donor_eligibility",
    "crossmatchUnit",
    "quarantine_expired_units",
    "allocatePlateletDose",
    "schedule_oven_slot",
    "computeProofMinutes",
    "scale_dough_recipe",
    "releaseProofingCabinet",
    "record_hive_inspection",
    "estimateVarroaLoad",
    "grade_honey_lot",
    "flagQueenlessColony",
    "dispatch_plough_route",
    "reserveSaltTonnage",
    "rank_gritting_segments",
    "computePloughEta",
]
_TYPES = [
    "DonorScreening",
    "BloodUnit",
    "CrossmatchResult",
    "DeferralReason",
    "ProofingCabinet",
    "OvenSlot",
    "DoughBatch",
    "HiveInspection",
    "HoneyExtractionLot",
    "VarroaCount",
    "ApiaryYard",
    "PloughRoute",
    "SaltStockpile",
    "GrittingRun",
]
_ERRORS = [
    "UnhandledMatchError",
    "UninitializedPropertyAccessException",
    "ObjectDisposedException",
    "IncompleteReadError",
    "FrozenError",
    "RejectedExecutionException",
]
_MESSAGES = [
    "donor haemoglobin is below the threshold for whole blood",
    "blood unit expired before it could be issued",
    "crossmatch sample is older than seventy-two hours",
    "dough has been proofing longer than its recipe allows",
    "deck oven is already booked for this bake window",
    "proofing cabinet humidity sensor stopped reporting",
    "varroa count per hundred bees is above the treatment line",
    "extraction lot moisture reading is over eighteen percent",
    "hive inspection has no queen sighting recorded",
    "plough route has a segment with no assigned driver",
    "salt stockpile would drop below the winter reserve",
]
_ERROR_CODES = ["ENOTRECOVERABLE", "ERFKILL", "22P02", "0x800706BA", "ORA-00054", "EXFULL"]
_PATHS = [
    "bloodbank/screening/donor_eligibility.py",
    "bloodbank/inventory/UnitExpiryJob.java",
    "bloodbank/lab/crossmatch.go",
    "bakery/ovens/OvenScheduler.cs",
    "bakery/proofing/cabinet_monitor.rs",
    "bakery/app/src/recipes/scaleDough.ts",
    "apiary/inspections/hive_inspection.rb",
    "apiary/lots/HoneyLotGrader.kt",
    "apiary/mobile/VarroaCounter.swift",
    "winterops/routes/PloughDispatcher.php",
    "winterops/stock/SaltLedger.scala",
]
_TOPICS = [
    "donor deferral rules at the screening desk",
    "blood unit expiry and quarantine",
    "crossmatching before a unit is issued",
    "proofing times that shift with room temperature",
    "booking deck ovens across the bake shifts",
    "scaling a dough recipe between stores",
    "hive inspection records from the field app",
    "honey extraction lots and their moisture grades",
    "varroa monitoring and treatment thresholds",
    "dispatching plough routes when snow starts",
    "road salt stock across the depots",
]
_TASKS = [
    "convert a haemoglobin reading from g/dL to mmol/L",
    "work out the proof time from the dough temperature",
    "round a recipe up to whole bags of flour",
    "average the mite counts across the hives in one yard",
    "order road segments by priority and distance from the depot",
    "count the days left before a blood unit expires",
]
_EVENTS = [
    "a donor's positive test result arrives after their unit was already issued",
    "a deck oven fails halfway through the morning bake",
    "the field app syncs an inspection for a hive that was merged into another",
    "a snowstorm starts while half the plough drivers are off shift",
    "two hospitals reserve the last O-negative unit at the same moment",
]
_SNIPPETS = [
    "if donor.hb_g_dl < MIN_HB[donor.sex]:\n"
    '    return Deferral(reason="low_hb", days=90)\n'
    "if donor.last_donation and (today - donor.last_donation).days < 56:\n"
    '    return Deferral(reason="interval", days=56)',
    "let minutes = base_minutes * 2f64.powf((target_c - dough_c) / 10.0);\n"
    "if minutes > recipe.max_proof_min as f64 {\n    return Err(ProofError::TooLong);\n}",
    "mites = inspection.samples.sum(&:mites)\nbees = inspection.samples.sum(&:bees)\n"
    "rate = bees.zero? ? 0 : mites * 100.0 / bees\nhive.flag!(:treat) if rate > 3",
    "guard let lot = lots.first(where: { $0.moisturePct <= 18.0 }) else {\n"
    "    throw GradingError.tooWet\n}\nlot.grade = .a",
    "foreach ($segments as $s) {\n    $s->priority = $s->isBusRoute ? 1 : ($s->gradient > 6 ? 2 : 3);\n}\n"
    "usort($segments, fn($a, $b) => $a->priority <=> $b->priority);",
]
_BODIES = [
    "fun daysUntilExpiry(unit: BloodUnit, today: LocalDate): Long =\n"
    "    ChronoUnit.DAYS.between(today, unit.expiresOn).coerceAtLeast(0)",
    "func bagsOfFlour(grams, bagG int) int {\n\treturn (grams + bagG - 1) / bagG\n}",
    "def saltNeeded(km: Double, lanes: Int, gPerM2: Double): Double =\n  km * 1000 * lanes * 3.5 * gPerM2 / 1e6",
    "export function meanMiteRate(counts: VarroaCount[]): number {\n"
    "  const rates = counts.map((c) => (c.mites / c.bees) * 100);\n"
    "  return rates.reduce((a, b) => a + b, 0) / rates.length;\n}",
]
_CODE_LINES = [
    "unit.status = UnitStatus.QUARANTINED if unit.expires_at < now else unit.status",
    "oven.slots[shift].push({ batchId, startsAt, tempC: 230 });",
    "let eta_min = route.km / PLOUGH_KMH * 60.0;",
    "lot.grade = lot.moisture_pct <= 18 ? :a : :b",
    'if (cabinet.Humidity < 75) Alarm(cabinet.Id, "low humidity");',
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "(defn {fn} [",
        "let rec {fn} x =",
        "public function {fn}(",
        "void {T}::{fn}(",
        "@implementation {T}",
        "-spec {fn}(",
        "global -d {fn}",
        "cscope -dL1 {fn}",
        "which file has the `impl {T}` block",
        "ctags finds {fn} in two files, which one is the real definition?",
        "{T} is a struct or a class? show me where it is declared",
        "i search the place where {fn} is write, not the places where it is call",
        "go-to-definition is greyed out in the review UI, where is {qual} defined",
        "original declaration of {T}, not the re-export",
        "{fn} - defined in?",
        "Reading {path} I hit a call to {fn} that I can't place; I need the file and line where that function "
        "is actually defined so I can see its signature",
    ],
    "find_references": [
        "cscope -dL3 {fn}",
        "refs:{fn} path:{path}",
        "import sites of {path}",
        "usages of {T} in {path}",
        "{T} instantiated where?",
        "xrefs for {qual}",
        "does anything still call {fn} or is it dead code",
        "which cron jobs or scripts invoke {fn}",
        "every caller of {fn} that ignores its return value",
        "list callers of {qual}, one level up only",
        "find usages {fn} -tests",
        "callers of {fn} across all repos, not only this one",
        "is {fn} covered? which test files reference it",
        "in which places the code is calling {qual}? i need all of them for my PR",
        "show each spot where a {T} gets passed to {fn}",
        "list every file and line that calls {qual} or hands it over as a callback, the scripts under tools/ included",
    ],
    "impact_analysis": [
        "adding a value to the {T} enum: which switch statements need a new case",
        "changing the default of {qual}: which callers silently change behaviour",
        "removing {path}: what outside the repo (cron, dashboards) would break",
        "blast radius of {fn} throwing {err} instead of returning null",
        "{T} field rename, fallout?",
        "what regresses if {fn} is made async",
        "effect of switching {T} from grams to kilograms",
        "is dropping {T} from the public API a breaking change for consumers?",
        "what do I need to retest after changing {path}",
        "if i change the return type of {fn} from list to iterator, which code will broke?",
        "side effects of caching the result of {fn} for five minutes",
        "splitting {path} in two: what depends on it staying one module",
        "how risky is tightening the validation in {fn}",
        "which features stop working if {fn} is switched off behind a flag",
        "fix for one caller, breaks how many others? narrowing the accepted input of {qual}",
        "We're moving {topic} to a new schema over the weekend. Map out what depends on the current {T} "
        "layout (services, jobs, reports) so we know what to retest and what could quietly break",
    ],
    "exact_match": [
        "panic: {err}: {msg}\n\ngoroutine {n} [running]:\nmain.{fn}(...)\n\t/srv/{path}:{n} +0x1d",
        "PHP Fatal error:  Uncaught {err}: {Msg} in /var/www/{path}:{n}",
        "{path}:{n}: Fatal error: {Msg}",
        "thread 'main' panicked at {path}:{n}:5:\n{msg}",
        "[2024-11-02T03:{n}:11Z] WARN {msg} (code={ecode})",
        'level=error code={ecode} msg="{msg}"',
        'full:"{msg}"',
        'repo:core ext:kt "{msg}"',
        "cscope -dL6 '{ecode}'",
        'saw "{Msg}" in the on-call channel, need the exact line that emits it',
        "grep -rn {ecode} .",
        "find the string '{msg}' verbatim, no fuzzy matching",
        "this message come in the log of production, where it is in code? {Msg}",
        "first anomaly in the log was `{msg}`, locate it in source",
        "occurrences of `{code}` character for character",
        "exact hits only: {code}",
    ],
    "find_similar": [
        "Type-2 clones of {fn} (same code, renamed identifiers)",
        "functions with the same body as {qual} in other modules",
        "{body}\n\nhave we got this already somewhere?",
        "show me code that does the same kind of thing as this:\n```\n{snippet}\n```",
        "before i write it: is there an existing helper to {task}?",
        "same idea as `{code}` anywhere else?",
        "i have feeling this function exist two times with other name, can you find the twin?\n{body}",
        "near-miss copies of {path}",
        "other implementations that {task}, any language",
        "semantic duplicates of {fn}: same behaviour, different syntax",
        "{snippet}\n\n^ same shape anywhere else in the monorepo?",
        "lines like {code} elsewhere in the repo",
        "find sibling handlers shaped like {fn}",
        "is there a {T} flavour of {fn} already",
        "```\n{body}\n```\nsomeone must have written this before, find the closest matches",
        "We fixed a rounding bug in {fn} last week and I suspect the same logic was copy-pasted into other "
        "services with slightly different variable names; find the look-alikes so we can patch them too",
    ],
    "understand_code": [
        "what does {path} do, in two sentences",
        "follow one {T} end to end through the system",
        "how does a request about {topic} come in and flow through the code",
        "{event}; then what does the code do, step by step?",
        "why is {fn} wrapped in a transaction?",
        "explain this:\n```\n{snippet}\n```",
        "the point of {T}? it seems redundant with the others",
        "high-level overview of {topic} for a new hire",
        "how is {topic} put together?",
        "please explain me the flow of {topic}, i don't get where it start and where it finish",
        "what guarantees does {T} give to its callers",
        "is {fn} pure or does it touch the database? and what is it for",
        "mental model behind {path}?",
        "why are there two code paths for {topic}",
        "concurrency model of {topic}?",
        "I was handed {path} today with no docs; could you walk through what it does, what state it keeps "
        "between calls, and which parts are safe to ignore on a first read?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "thirteenth", seed=61)

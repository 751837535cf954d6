"""A thirty-fifth held-out set for the learned routing layer, written before the routing change it judges
and never measured while written.

The held-out sets up to ``routing_thirtyfourth.py`` (``routing_heldout.py``, ``routing_blind.py``,
``routing_fresh.py``, ``routing_fifth.py`` to ``routing_thirtyfourth.py``) have been, or may yet be, read
while routing changes are weighed, so a change chosen on them is partly chosen on its own test. This one
was written from the layout alone: only ``routing_fifteenth.py``'s layout (docstring, slot fillers,
templates per intent, ``generate_heldout()``) and ``held_out_slots.py`` were read, as a format; neither the
classifier nor its model, nor any other set's templates, was looked at. The shapes are those requests take
when engineers, coding agents, review bots, chat and dictation ask a code search engine: questions and
imperatives, terse keyword queries and long wordy ones, misspellings and non-native English, tool-call-like
forms an agent might emit (``goto_definition(symbol=...)``), review-bot and review comments, commit
messages, unified diffs, and code pasted in Python, Go, TypeScript, Java, Rust, SQL, C#, Elixir, PHP, Ruby
and Swift; output pasted from a Go panic, a Rust panic, a Python traceback, a PHP fatal error, a PostgreSQL
``RAISE`` with its ``CONTEXT`` line, a JSON log line, a Java ``Caused by``, an Elixir GenServer crash, a .NET
unhandled exception and a Swift fatal error. No classifier was asked any of them while they were written;
a template that met a training one or another set's (``test_intent_model``) was replaced by a different
shape, not reworded: the leakage tests' output, run once the set was registered, showed fragments of other
sets' templates, and the nine templates of this set that met a training template or another set's were
replaced by new shapes. Its slot fillers come from five domains no other set uses (a gilding
workshop's gesso coats, bole layers and gold leaf booklets; a serpentarium's venom extractions, snake
handler rosters and antivenom lot releases; a transit authority's lost property office, with found items,
claimants and the disposal of unclaimed items; a theatre wig workshop's fittings, hair wefts and knotting
hours; a shipbreaking yard's hull cutting plans, asbestos surveys and scrap lots), and none is a training
filler (``test_intent_model`` checks both); the error names in them are made up for those domains.
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "lay_gold_leaf_sheet",
    "scheduleGessoCoat",
    "burnish_bole_layer",
    "record_venom_extraction",
    "assignSnakeHandler",
    "release_antivenom_lot",
    "computeLyophilisedYield",
    "log_found_item",
    "matchClaimantToItem",
    "dispose_unclaimed_items",
    "book_wig_fitting",
    "assignKnottingHours",
    "computeWeftLength",
    "plan_hull_cut_section",
    "registerAsbestosSurvey",
    "weigh_scrap_lot",
]
_TYPES = [
    "GildingJob",
    "GessoLayer",
    "LeafBooklet",
    "VenomExtraction",
    "AntivenomLot",
    "SnakeEnclosure",
    "FoundItem",
    "ClaimTicket",
    "StorageShelf",
    "WigFitting",
    "HairWeftBatch",
    "HeadBlock",
    "HullCutPlan",
    "AsbestosSurvey",
    "ScrapLot",
]
_ERRORS = [
    "LeafTornError",
    "GessoNotCuredException",
    "VenomYieldMismatch",
    "AntivenomLotQuarantined",
    "ClaimWindowExpiredError",
    "WeftShortfallException",
    "HullSectionLockedError",
    "AsbestosClearanceMissing",
]
_MESSAGES = [
    "gold leaf booklet was opened before the bole layer had dried",
    "gesso coat count is below the restorer's minimum of seven",
    "burnishing logged on a section marked for oil gilding",
    "venom extraction recorded for a snake still in quarantine",
    "antivenom lot released before its potency assay came back",
    "handler is not certified for elapid species",
    "found item has no depot or vehicle number",
    "claimant's description does not match the logged item",
    "unclaimed item scheduled for disposal before the ninety-day hold ended",
    "wig fitting booked after the dress rehearsal",
    "hair weft length is shorter than the head block requires",
    "hull section cut before the asbestos survey was signed off",
    "scrap lot weight differs from the weighbridge ticket",
]
_ERROR_CODES = ["EGILD04", "VNM-2291", "LPO_410", "WIG0032", "SHB-7C", "P0417", "E_TIDEWIN"]
_PATHS = [
    "gildshop/jobs/gesso_schedule.py",
    "gildshop/leaf/booklet_stock.go",
    "serpentarium/extraction/VenomLog.java",
    "serpentarium/lots/antivenom_release.rs",
    "serpentarium/handlers/handler_roster.sql",
    "lostproperty/intake/FoundItemController.php",
    "lostproperty/claims/claimMatching.ts",
    "lostproperty/disposal/unclaimed_sweep.ex",
    "wigroom/fittings/FittingCalendar.cs",
    "wigroom/wefts/weft_calc.rb",
    "breakyard/hull/CutPlanner.swift",
    "breakyard/surveys/asbestos_survey.go",
]
_TOPICS = [
    "water gilding jobs on picture frames",
    "gesso and bole preparation before gilding",
    "gold leaf stock and booklet usage",
    "venom extraction sessions in the serpentarium",
    "antivenom lot release and potency testing",
    "snake handler rosters and species certifications",
    "found items handed in at stations and depots",
    "matching claimants to lost property",
    "disposal of unclaimed items after the hold period",
    "wig fittings for the opera chorus",
    "hair weft stock and knotting hours",
    "hull cutting plans at the shipbreaking yard",
    "asbestos surveys before a hull is cut",
]
_TASKS = [
    "convert a gilded area in square centimetres into whole leaf booklets",
    "work out how long a venom sample has been out of the freezer",
    "round a lost property storage fee up to whole days from hand-in time",
    "convert a head circumference in inches to centimetres for a wig block",
    "estimate scrap tonnage from a hull section's plate thickness",
    "find the next high tide window for beaching a ship",
]
_EVENTS = [
    "a claimant turns up for an item that was disposed of the day before",
    "an antivenom lot fails its potency assay after it has shipped",
    "two cutters are assigned the same hull section",
    "a wig fitting is moved after the wefts were already knotted",
    "a gesso coat is logged as cured while the workshop humidity is too high",
]
_SNIPPETS = [
    'for _, it := range items {\n\tif it.HandedInAt.Before(cutoff) && it.ClaimID == "" {\n'
    "\t\ttoDispose = append(toDispose, it)\n\t}\n}",
    "let released: Vec<_> = lots\n    .iter()\n"
    "    .filter(|l| l.assay.map_or(false, |a| a.potency >= MIN_POTENCY))\n    .collect();",
    "SELECT s.snake_id, MAX(e.extracted_at)\nFROM venom_extractions e\nJOIN snakes s ON s.id = e.snake_id\n"
    "WHERE NOT s.quarantined\nGROUP BY s.snake_id;",
    "foreach ($claims as $claim) {\n    if ($claim->item === null) { continue; }\n"
    "    $claim->score = similar_text($claim->description, $claim->item->description);\n}",
    "wefts.select { |w| w.length_cm < block.required_cm }.each do |w|\n  w.flag!(:short)\nend",
]
_BODIES = [
    "def booklets_needed(area_cm2: float, leaf_cm: float = 8.0) -> int:\n"
    "    per_leaf = leaf_cm * leaf_cm\n    return math.ceil(area_cm2 / per_leaf / 25)",
    "static long storageDays(Instant handedIn, Instant now) {\n"
    "    long hours = Duration.between(handedIn, now).toHours();\n    return (hours + 23) / 24;\n}",
    "public static double BlockCm(double inches) => Math.Round(inches * 2.54, 1);",
    "func scrapTonnes(areaM2: Double, plateMm: Double) -> Double {\n    return areaM2 * plateMm / 1000 * 7.85\n}",
]
_CODE_LINES = [
    "job.leaf_booklets = ceil(job.area_cm2 / BOOKLET_COVER_CM2)",
    "lot.ReleasedAt = time.Now().UTC() // TODO wait for assay",
    "$item->disposeAfter = $item->handedInAt->modify('+90 days');",
    "let tide = tides.iter().find(|t| t.height_m >= ship.draught_m + 0.5);",
    "UPDATE wig_fittings SET room = 'B2' WHERE fitting_at < now();",
    "fitting.KnottingHours += weft.LengthCm / KnotsPerHour;",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        'tool_call: goto_definition(symbol="{fn}", lang="any")',
        "func (s *{T}Store) {Fn}(ctx context.Context,",
        "impl {T} {{\n    pub fn {fn}(",
        "final class {T}Repository extends ServiceEntityRepository",
        "where does {T} get declared -- the PHP class, not the TypeScript interface with the same name",
        "vim gd on {fn} lands on an import line; take me to the body instead",
        "{qual}: definition?",
        "show def {fn}",
        "stack trace ends at {path}:{n} inside {fn}; I need the function itself, signature and first lines",
        "(dictated) where is the uh {T} class defined, the real one not the mock",
        "whats the signature of {fn}? open it",
        "Review bot: `{fn}` is used in this diff but defined outside the changed files; fetching its "
        "definition for context.",
        "defmodule for {T}? cant find which .ex file has it",
        "git blame needs a line number: which file and line declares {qual}",
        "We inherited the {topic} code from a contractor and the naming is all over the place; there is a {T} "
        "in the Java code and another one in the Rust crate, and I need the file that declares the one {fn} "
        "takes as its argument",
        "defintion of {fn} plz",
    ],
    "find_references": [
        'tool_call: find_references(symbol="{qual}", include_tests=true)',
        "callers of {fn} on the PHP side only",
        "every SQL view or stored procedure that selects from the {T} table",
        "Review bot: this diff renames a parameter of `{fn}`; listing call sites outside the diff so they can "
        "be checked.",
        "inbound edges for {fn} in the call graph, any language",
        "only real uses of {T}, not comments or strings -- plain grep gives me too much noise",
        "list the Go handlers that build a {T} literal",
        "dictation: show me all the places that call uh {fn} comma in {path}",
        "where is {T} passed as an argument? need the list for {topic}",
        "@review-bot usages of {fn} pls",
        "TODO(cleanup): before the feature flag around {fn} goes, enumerate its call sites and the tests that hit it",
        "which Elixir modules alias {T}",
        "what subscribes to the event {fn} publishes",
        "call sites of {qual}, grouped by file, with line numbers",
        "I'm writing the handover notes for {topic} and need an inventory: every function, job and template in "
        "the repo that touches {T}, with the path of each, so the notes do not miss one",
        "does anything outside {path} import {fn}?",
    ],
    "impact_analysis": [
        'tool_call: impact_of_change(symbol="{fn}", change="signature")',
        "```diff\n- def {fn}(self, job):\n+ def {fn}(self, job, operator_id):\n```\nwhat does this break downstream",
        "Rust: if {fn} returns Result<{T}, {err}> instead of panicking, which callers stop compiling",
        "migration drops a column from {T}; which queries, reports and services go down with it",
        "TS: {T} gets a readonly field, who is affected",
        "if {path} moves into its own package, what breaks",
        "review comment: cutting the timeout in {fn} from 30s to 5s looks risky -- what depends on it finishing?",
        "Go: {Fn} now takes a context.Context first; what's the ripple",
        "ripple effects of deleting {T}",
        "commit: 'make {fn} idempotent' -- can this change behaviour anywhere upstream or downstream?",
        "if {fn} starts throwing {err}, what falls over?",
        "what stops working if {qual} is made package-private",
        "For {topic} we plan to make {fn} write through a queue instead of straight to the database; before "
        "review I need the callers that read back right after calling it and would see stale data, and any "
        "reports or jobs that assume the write has already happened",
        "breaking change check: {T} gets a new required field",
        "PHP 8 upgrade turns on strict_types in {path}; which callers of {fn} pass strings where ints are "
        "expected and would break",
        "if i chang {fn} to static, wat breaks",
    ],
    "exact_match": [
        "panic: {err}: {msg}\n\ngoroutine {n} [running]:\nmain.{fn}(...)\n\t/srv/{path}:{n} +0x1d4",
        "thread 'main' panicked at {path}:{n}:9:\n{msg}\nnote: run with `RUST_BACKTRACE=1`",
        "Uncaught (in promise) {err}: {msg}\n    at {fn} ({path}:{n}:17)",
        '[2025-03-{n} 04:12:55] production.ERROR: {Msg} {{"exception":"[object] ({err}(code: 0) at /app/{path}:{n})"}}',
        "ERROR:  {msg}\nCONTEXT:  PL/pgSQL function {fn}() line {n} at RAISE\nwhere is this RAISE",
        '{{"level":"error","code":"{ecode}","msg":"{msg}"}} <- find the source line that emits this',
        ':rotating_light: prod-alerts | {ecode} | "{msg}" | find where this string is raised',
        'grep exact: "{ecode}"',
        "Caused by: {err}: {Msg}\n\tat {qual}(",
        "[error] GenServer {T}.Worker terminating\n** (stop) {msg}",
        "Mar {n} 04:17:02 yard-app-3 {fn}[{n}]: {ecode} {msg}\nwhich source file prints this",
        "literal string '{Msg}' -- which file",
        "CI failed with `{ecode}: {msg}`; locate that exact string in the codebase",
        "dictation: find the exact words quote {msg} unquote in the code",
        'the toast says "{Msg}." where is that copy?',
        'expect(received).toThrow(expected)\n\nExpected message: "{msg}"\n\nwhere is that message thrown in src?',
    ],
    "find_similar": [
        'tool_call: find_similar(code="{code}", exclude_path="{path}", top_k=10)',
        "{snippet}\n\n^ pretty sure {topic} has this in three services. find the siblings",
        "prior art for this, for {topic}? {body}",
        "functions resembling {fn} but for {T}",
        "review: this helper duplicates logic we already have, please locate the existing one\n{code}",
        "similar to {qual}?",
        "{task} -- prior implementations in any language?",
        "equivalent logic to {fn} anywhere else, maybe in another language?\n{body}",
        "same shape as {fn} but in another service",
        "copy-paste hunt: modules that look like {path}",
        "find code semantically equivalent to (lifted from {path}):\n{snippet}",
        "refactor ticket: collapse the variants of {fn} into one; first list all the variants",
        "We keep finding bugs that were fixed in one copy of this logic and not in the others; for {topic}, "
        "search for every block that does what the code below does, even in another language or with renamed "
        "variables, so we can fix them together:\n{snippet}",
        "simlar code to {fn}??",
        "{T} handlers structurally like {fn}",
        "dictated: find code that looks like this line {code}",
    ],
    "understand_code": [
        'tool_call: explain(symbol="{qual}", depth="overview")',
        "{fn} is 400 lines of nested ifs, give me the gist of its branches",
        "what's going on here? from {path}\n{snippet}",
        "sequence diagram, in words, for {topic}: which services talk and in what order",
        "can someone explain why {fn} takes a lock before it reads {T}",
        "new hire q: what is {path} for",
        "review comment: I don't follow the control flow in {fn}; can you summarise what happens step by step?",
        "please explain what this does to a {T} and why it would be written this way:\n{body}",
        "what happens when {event}? trace it through the code",
        "design rationale behind {T}?",
        "dictation: tell me how the um {topic} part hangs together",
        "summarize {path} in 5 bullets",
        "I'm writing the runbook for {topic} and I get the happy path, but not the retry and rollback in {fn}; "
        "explain what state it leaves behind when it fails halfway and how the next run picks it up",
        "how {fn} works? explain simple pls",
        "commit message says 'fix {fn} edge case' -- which edge case, and what does the function do on that path?",
        "why is {T} immutable, what's the reasoning",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "thirtyfifth", seed=3535)

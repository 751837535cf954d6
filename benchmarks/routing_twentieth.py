"""A twentieth held-out set for the learned routing layer, written by another hand before the routing change
it judges and never measured while written.

The held-out sets up to ``routing_nineteenth.py`` have been, or may yet be, read while routing changes are
weighed, so a change chosen on them is partly chosen on its own test; none of their templates was looked at
while this one was written (only ``routing_fifteenth.py``'s layout, as a format). These templates were
written in one sitting, from the shapes real requests take where engineers and coding agents search code:
terse search-box queries and long multi-clause requests, questions and imperatives, agent tool calls,
commands of code tools and editor actions, chat, code review, ticket and incident voices, typos and
non-native English, prose mixed with code, pasted log lines, error messages and stack traces from several
runtimes, pasted code bodies, and declarations as they are typed in many languages. No classifier was asked
any of them while they were written; a template that met a training one or another set's
(``test_intent_model``) was replaced, not reworded. Its slot fillers come from domains no other set uses
(a beekeeper's hive inspections, varroa treatments and honey extraction, a glassblowing hot shop's annealer
ramps, glory hole bookings and batch recipes, a cider mill's pomace lots, racking and gravity readings, an
ice arena's resurfacing windows and ice thickness probes, a circus's trapeze rigging load checks and safety
nets), and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "log_brood_frame_count",
    "requeenColony",
    "schedule_varroa_treatment",
    "estimateHoneySuperWeight",
    "ramp_annealer_down",
    "chargeGlassFurnace",
    "book_glory_hole_slot",
    "computeGatherWeight",
    "record_pomace_yield",
    "rackCiderBatch",
    "log_tank_gravity",
    "blendBittersharpJuice",
    "queue_ice_resurface",
    "measureSheetThickness",
    "inspect_trapeze_rigging",
    "tensionSafetyNet",
]
_TYPES = [
    "HiveInspectionVisit",
    "BroodFrame",
    "QueenCell",
    "HoneyExtraction",
    "AnnealSchedule",
    "GloryHoleBooking",
    "GlassBatchRecipe",
    "PomaceLot",
    "CiderRacking",
    "CiderFermenter",
    "ResurfaceWindow",
    "IceSheetReading",
    "RiggingPoint",
    "AerialActLoadCheck",
]
_ERRORS = [
    "ColonyQueenlessError",
    "AnnealOvershootException",
    "GravityReadingOutOfRange",
    "ResurfacerBusyError",
    "RiggingLoadExceeded",
    "PomaceLotClosedException",
]
_MESSAGES = [
    "no laying queen recorded for colony since last inspection",
    "varroa mite count above treatment threshold for bee yard",
    "annealer ramp exceeded 4 degrees per minute during cooldown",
    "glory hole booking overlaps furnace recharge window",
    "batch recipe cullet ratio exceeds allowed maximum",
    "specific gravity reading missing for fermentation tank",
    "pomace lot already pressed and sealed",
    "ice sheet below minimum thickness at center ice",
    "resurface window conflicts with figure skating session",
    "rigging point load check expired before evening show",
    "safety net tension not signed off by head rigger",
]
_ERROR_CODES = ["APY-3012", "HSHOP-719", "EGRAVITY", "RINK_E42", "RIG-LOAD-07", "CIDR-0551"]
_PATHS = [
    "apiary/inspections/hive_inspection.py",
    "apiary/treatments/VarroaTreatmentPlanner.java",
    "apiary/extraction/super_weight.go",
    "hotshop/annealer/ramp.rs",
    "hotshop/bookings/GloryHoleCalendar.tsx",
    "hotshop/batch/batch_recipe.rb",
    "cidermill/press/pomace_lots.py",
    "cidermill/cellar/RackingService.scala",
    "cidermill/cellar/gravity_log.php",
    "icearena/resurface/ResurfaceScheduler.swift",
    "icearena/sheet/thickness_probe.c",
    "bigtop/rigging/load_checks.ts",
]
_TOPICS = [
    "hive inspections and brood frame counts",
    "varroa treatment scheduling across bee yards",
    "honey extraction and super weighing",
    "annealing kiln ramp schedules in the hot shop",
    "glory hole bookings for visiting glassblowers",
    "pomace lot tracking at the cider press",
    "racking and gravity logging in the cider cellar",
    "ice resurfacing between rink sessions",
    "ice thickness probing across the rink",
    "trapeze rigging load checks before shows",
    "safety net tensioning under the big top",
]
_TASKS = [
    "convert a hive's frame count into an estimated bee population",
    "turn a glass wall thickness in millimetres into an annealing soak time",
    "convert two specific gravity readings into alcohol by volume",
    "round an ice thickness reading to the nearest eighth of an inch",
    "split a pressing day's pomace weight across the orchard growers",
    "derive a rigging point's working load limit from its shackle rating",
]
_EVENTS = [
    "two beekeepers log an inspection of the same hive at once",
    "the annealer loses power halfway through a ramp",
    "a fermentation tank is racked before its gravity is logged",
    "the resurfacer is still on the ice when a session starts",
    "a rigging point fails its load check an hour before the show",
    "a glassblower cancels a glory hole booking after the furnace was charged",
    "a honey extraction is logged for a hive that was marked queenless",
    "the ice probe reports a reading from a sheet that is already closed",
]
_SNIPPETS = [
    "for hive in yard.hives:\n    if hive.last_inspected < cutoff:\n        overdue.append(hive.id)\n"
    "notify_keeper(yard.keeper, overdue)",
    "for _, t := range tanks {\n\tif t.Gravity == 0 {\n\t\tmissing = append(missing, t.ID)\n\t}\n}",
    "let soak: u32 = schedule\n    .steps\n    .iter()\n    .filter(|s| s.kind == StepKind::Soak)\n"
    "    .map(|s| s.minutes)\n    .sum();",
    "sessions.each do |s|\n  next if s.resurfaced?\n  queue_resurface(s.rink, before: s.starts_at)\nend",
    "let stale = points.filter { $0.lastCheck < showTime.addingTimeInterval(-86_400) }\nstale.forEach(flagForRigger)",
    "const open = bookings\n  .filter((b) => b.studio === studio && !b.cancelled)\n"
    "  .sort((a, b) => a.startsAt - b.startsAt);\nreturn open[0] ?? null;",
    "foreach ($lots as $lot) {\n    if ($lot->sealed_at !== null) {\n        continue;\n    }\n"
    "    $total += $lot->weight_kg;\n}",
    "val racked = tanks.filter(_.gravityLoggedAt.isDefined).map(t => t.copy(stage = Stage.Racked))",
]
_BODIES = [
    "def frames_to_bees(frames: int, per_frame: int = 2500) -> int:\n    if frames <= 0:\n        return 0\n"
    "    return frames * per_frame",
    "func abvFromGravity(og, fg float64) float64 {\n\treturn (og - fg) * 131.25\n}",
    "static int soakMinutes(double wallMm) {\n    return (int) Math.ceil(wallMm * 6.0);\n}",
    "function round_to_eighth(float $inches): float {\n    return round($inches * 8) / 8;\n}",
    "def workingLoad(shackleKg: Double, factor: Double = 5.0): Double =\n  shackleKg / factor",
    "fn ramp_minutes(peak_c: f64, strain_c: f64, rate_c_per_min: f64) -> u32 {\n"
    "    ((peak_c - strain_c) / rate_c_per_min).ceil() as u32\n}",
    "def pomace_share(total_kg, grower_bins, all_bins)\n  return 0 if all_bins.zero?\n"
    "  (total_kg * grower_bins.to_f / all_bins).round(1)\nend",
    "double probeAverage(const std::vector<double>& mm) {\n"
    "  return std::accumulate(mm.begin(), mm.end(), 0.0) / mm.size();\n}",
]
_CODE_LINES = [
    "colony.queen_status = QueenStatus.MISSING if not eggs_seen else colony.queen_status",
    "let rampRate = (peakC - strainC) / rampMinutes;",
    "tank.abv = (tank.og - tank.fg) * 131.25",
    "if sheet.thicknessIn < 1.25 { closeRink(sheet.rinkId) }",
    "$lot->sealed_at = now();",
    "point.wll_kg = shackle.rating_kg / SAFETY_FACTOR",
    "const soakMin = Math.ceil(wallMm * SOAK_MIN_PER_MM);",
    "bees := frames * beesPerFrame",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "func (h *{T}) {Fn}(",
        "where's {fn} actually defined? not the call sites, the def itself",
        "ctrl-click on {qual} just lands me on the import line, I need the real body",
        "impl {T} {{ pub fn {fn}(&mut self",
        "class {T}(models.Model):",
        "which file declares {T}? I see it imported all over {path} but can't find the declaration",
        'search_code(query="{fn}", kind="symbol_def", lang="any")',
        "pls where is define the function {fn}, i search whole repo and only find the usages",
        "final class {T}: Codable, Sendable {{",
        "I'm reviewing a PR that touches {path} and it calls {fn} with a new third argument; before I approve "
        "I want to open the function's own definition and check its signature actually accepts that",
        "CREATE OR REPLACE FUNCTION {fn}(",
        "-spec {fn}(Yard :: map()) ->",
        "icearena::{T}::{fn} - where's the out-of-line definition, the .cpp not the header",
        "export type {T} = Readonly<{{",
        "public static function {fn}(",
        "sub {fn} {{ my ($self",
    ],
    "find_references": [
        "who all is calling {fn} these days, is it still used at all?",
        "callers of {qual} (direct only, skip tests)",
        "every place that instantiates {T}",
        "Find Usages on {T} returned nothing in my editor but I know it's used somewhere, where?",
        'references(symbol="{qual}", include_tests=false)',
        "all the call sites for {fn}(), with file and line",
        "from which files is {T} imported? need the importers, not the class",
        "who invokes com.cidermill.{T}#{fn}",
        "Rust: where is crate::hotshop::{fn} used",
        "who calls (*{T}).{Fn} across the repo",
        "I'm writing the deprecation notice for {fn}; before I post it in the eng channel I need a full list of "
        "the services and scripts that still call it, including the cron jobs under {path}",
        "where this {T} is using? i want see all place",
        "inbound references to {T} from outside its own package",
        "is {fn} dead code or does something still reference it",
        "list usages of {fn} inside {path} only",
        "anything subscribed to or listening on {fn}? need the consumers",
    ],
    "impact_analysis": [
        "if I change {fn}'s return type to Optional, what breaks?",
        "renaming {T}: how many files and configs get dragged in?",
        "we want to add a required field to {T}; which services, tests, and serialized payloads would be affected?",
        "what depends on {path} transitively",
        "is it safe to delete {qual} or will something downstream fall over",
        'impact_of_change(symbol="{fn}", change="signature")',
        "Ticket: change {fn} to raise {err} instead of returning None. List everything that will need updating",
        "downstream effects of making {fn} async",
        "PR review: this diff modifies {path}. what else could regress because of it?",
        "I'm tightening validation in {fn} so it rejects bad input with {ecode}; which callers and code paths "
        "would start failing after that ships?",
        "What will be affected if we split {T} into two classes?",
        "if i modify the {fn} function what other part will be broken, need to know before release",
        "change risk for {qual}",
        "Before the migration: which jobs, APIs and reports touch {T}, and what would break if its table got a "
        "new primary key?",
        "ripple effect of bumping the timeout in {fn}",
        "Incident follow-up: we want to change how {topic} works so that it can't happen again that {event}. "
        "What parts of the system would that change touch?",
    ],
    "exact_match": [
        'exact string, case-sensitive: "{Msg}"',
        "{err}: {msg}\n    at {fn} (/srv/app/{path}:{n}:17)\n"
        "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
        'Exception in thread "main" com.cidermill.{err}: {msg}\n\tat com.cidermill.{T}.{fn}({T}.java:{n})',
        "2024/03/11 04:{n}:19 {fn}: {msg}\nexit status 1",
        '[04:{n}:19 ERR] {Msg} {{"SourceContext": "{T}"}}',
        "Mar 03 05:{n}:11 rinkhost worker[2211]: ERROR {msg}",
        '{{"level":"error","code":"{ecode}","msg":"{msg}"}}  <- where is this emitted',
        "where does the code print `{ecode}`? customer support sent a screenshot with only that code",
        "WARNING:{fn}:{msg}",
        "Unhandled exception. {err}: {msg}\n   at {qual}()",
        'search(query="\\"{msg}\\"", mode="literal")',
        "rg -F '{msg}' but through your index pls, plain rg is too slow on the monorepo",
        "2024-03-11 04:{n}:19,311 ERROR [pool-3-thread-1] {T} - {Msg}",
        "Incident #{n}{n}: pager fired with '{Msg}' at 3am. Which source file has that exact text so I can see "
        "what condition triggers it?",
        "E/AndroidRuntime: FATAL EXCEPTION: main\n{err}: {msg}",
        "ERROR:  {msg}\nCONTEXT:  PL/pgSQL function {fn}() line {n} at RAISE",
    ],
    "find_similar": [
        "{snippet}\n\nanything else in the codebase that does this same loop?",
        "```\n{body}\n```\nwe have this helper in two services already I think. "
        "find the other copies (might be renamed)",
        "show functions that are near-duplicates of {fn} in other packages, same logic but different names",
        "someone must have already written something to {task}. find it before I write my own",
        "similar to `{code}` - other places computing it the same way?",
        'find_similar_code(snippet="""{code}""", top_k={n})',
        "{body}\n// dupes?",
        "is there a copy-paste of this somewhere else:\n{snippet}",
        "Code review comment: this block in {path} looks copy-pasted from somewhere else in the repo. Can you find "
        "the original so we can extract a shared helper?\n{snippet}",
        "other implementations of the same idea as {qual}, maybe in a different language (parts were ported "
        "from Ruby to Rust last year)",
        "looking for prior art: code that does `{task}`",
        "i have this code, there is another one similar in project? want to reuse\n{code}",
        "dedupe candidates for {T}: classes with basically the same fields and methods",
        "clone detection for {path} against the rest of the repo",
        "we did this for one entity already; find places that follow the same pattern:\n{snippet}",
        "semantic search: functions whose body resembles\n{body}",
    ],
    "understand_code": [
        "walk me through {fn} step by step, I don't get the middle part",
        "explain {path} like I'm new here",
        "what's {T} for, and why does it have both a status field and a state machine",
        "how does {topic} work end to end?",
        "what happens in the code when {event}?",
        "in plain words, what is {qual} responsible for?",
        'codebase.explain({{"target": "{qual}", "audience": "new hire"}})',
        "Can someone explain the flow from the API request down to the database for {topic}? Trying to write "
        "onboarding docs",
        "why is this here: {code}",
        "please explain me the logic of {fn}, what is doing the loop inside",
        "I'm going to be on call for {topic} next week and I've never touched it. Give me a tour: entry points, "
        "main data structures, and where things typically go wrong.",
        "tl;dr of what {path} does and why it exists",
        "how does our code {task} today? not asking how to write it, asking how the current one works",
        "what's the relationship between {T} and {fn}?",
        "docs for {T}? there's no README, just explain its lifecycle and who creates it",
        "trace the sequence of calls when {event}, for me to understand",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "twentieth", seed=2083)

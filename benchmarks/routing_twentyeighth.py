"""A twenty-eighth held-out set for the learned routing layer, written before the routing change it judges
and never measured while written.

It was written from the layout alone: only ``routing_fifteenth.py`` was opened, as a format (its imports,
the ``Slots`` / ``held_out_set`` helpers, the shape of the template dict keyed by intent and of this
docstring); none of the other held-out sets' templates, the training phrasings, the classifier or any
score was looked at, and no classifier was asked any of these phrasings while they were written. The
templates come from one hand's sense of how engineers and AI coding agents put requests to a code search
tool: questions and imperatives, terse keyword queries and long wordy ones, misspellings and lower-case
chat, declarations as typed in Go (a method on a pointer receiver), Rust (``pub fn`` returning a
``Result``), Ruby (``def self.``), Scala (``case class``), Haskell (a type signature), Java and Swift;
output pasted from tools (a Go panic with its goroutine dump, a Rust panic, a Python traceback, a Ruby
backtrace line, a Java ``Caused by:`` chain, an HTTP error body); ``rg`` and ``grep`` command lines,
tool-call-like JSON an agent might send, code fences, and agents being told what to do. Its slot fillers
come from five domains of its own (a canal trust's lock passages, moorings and boat licences, a bell
foundry's mould pours, castings and tuning cuts, a lighthouse service's keeper watches, lamp timing and
fog signal tests, a sheep-shearing contractor's gangs, fleece grading and wool bales, and a sea-salt
works' evaporation pans, brine readings and harvests), and none is meant to be a training
filler (``test_intent_model`` checks that, and that no phrasing repeats another set's).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "log_lock_passage",
    "computeLockFillTime",
    "issue_mooring_permit",
    "reserveNarrowboatBerth",
    "pour_bell_mould",
    "computeStrikeNote",
    "schedule_tuning_cut",
    "recordCastingTemperature",
    "rotate_keeper_watch",
    "computeLampFlashPeriod",
    "log_fog_signal_test",
    "orderLensPolishing",
    "assign_shearing_gang",
    "gradeFleeceMicron",
    "tally_wool_bales",
    "bookShearingShed",
    "fill_evaporation_pan",
    "computeBrineDensity",
    "rake_salt_harvest",
    "scheduleSluiceOpening",
]
_TYPES = [
    "LockFlightTransit",
    "VisitorMooringPass",
    "NarrowboatLicence",
    "BellCasting",
    "BellMould",
    "StrikeNoteReading",
    "KeeperWatch",
    "FogSignalTest",
    "LanternLens",
    "ShearingGang",
    "FleeceLot",
    "WoolBale",
    "EvaporationPan",
    "BrineReading",
    "SaltHarvest",
]
_ERRORS = [
    "StaleObjectError",
    "SluiceInterlockError",
    "BorrowMutError",
    "Encoding::UndefinedConversionError",
    "GangOverbookedException",
    "PoisonError",
]
_MESSAGES = [
    "lock chamber level not equalised before the gates were opened",
    "mooring permit expired before the boat left the visitor berth",
    "narrowboat licence number is not on the canal register",
    "bell casting cooled faster than the mould allows",
    "strike note is more than ten cents off the target pitch",
    "tuning cut would take the bell wall below its minimum thickness",
    "keeper watch overlaps another keeper's rest period",
    "fog signal test was logged without a visibility reading",
    "fleece micron reading falls outside the grading table",
    "wool bale weight exceeds the press limit",
    "brine density reading is below the crystallising threshold",
    "evaporation pan was flooded before the last harvest was raked",
    "sluice was opened during a spring tide warning",
]
_ERROR_CODES = ["LCK-204", "LTH-0613", "SLT-311", "BEL-044", "WSH-88", "0xC0000374"]
_PATHS = [
    "canalops/locks/passage_log.go",
    "canalops/moorings/permit_issuer.rb",
    "canalops/licensing/LicenceRegister.java",
    "foundry/casting/pour_schedule.rs",
    "foundry/tuning/strike_note.py",
    "foundry/moulds/MouldCatalog.scala",
    "lightstation/watches/KeeperRota.swift",
    "lightstation/fog/SignalTests.hs",
    "shearing/gangs/gang_roster.php",
    "shearing/grading/fleece_grader.py",
    "saltworks/pans/PanScheduler.java",
    "saltworks/brine/density_check.go",
]
_TOPICS = [
    "lock passages and chamber water levels on the canal",
    "mooring permits for visiting narrowboats",
    "casting schedules at the bell foundry",
    "tuning bells by cutting metal from the inside",
    "keeper watch rotas at the light station",
    "the weekly fog signal tests",
    "shearing gang bookings across the sheep stations",
    "fleece grading and wool bale tallies",
    "filling and draining the evaporation pans",
    "brine density readings along the pan chain",
    "raking and bagging the salt harvest",
    "boat licence renewals on the canal register",
    "recording pour temperatures for each bell casting",
    "polishing and replacing lantern lenses",
]
_TASKS = [
    "convert a lock's rise in metres into the volume of water one passage uses",
    "turn a bell's diameter into its expected strike note frequency",
    "work out the lighting-up time at sunset for a given latitude and date",
    "round a fleece weight to the nearest tenth of a kilogram",
    "convert a brine reading in degrees Baume into grams of salt per litre",
    "split a shearing gang's pay by how many sheep each shearer did",
    "average a fleece's micron samples while dropping the outliers",
    "estimate how many days a pan needs to crystallise from its depth and the evaporation rate",
]
_EVENTS = [
    "two boats are booked into the same lock slot",
    "a bell cracks while cooling and the pour has to be redone",
    "the fog signal fails its weekly test during the night",
    "a shearing gang arrives at a shed that was double-booked",
    "a storm surge floods the pans the day before the harvest",
    "a keeper calls in sick halfway through a night watch",
    "a narrowboat overstays its mooring permit by a week",
    "a wool bale is pressed over the weight limit and rejected at the store",
]
_SNIPPETS = [
    "for _, p := range passages {\n\tif p.Gate != nil && p.LevelCm < minLevelCm {\n\t\tholdBoat(p)\n\t}\n}",
    "let late: Vec<_> = castings\n    .iter()\n    .filter(|c| c.cooled_at > c.due_at)\n    .collect();",
    "bales.select { |b| b.weight_kg > PRESS_LIMIT_KG }\n     .each { |b| b.flag!(:overweight) }",
    'for pan in pans:\n    if pan.brine_baume < CRYSTALLISE_BAUME:\n        hold_sluice(pan, reason="weak brine")',
    "val overdue = watches.filter(_.endsAt.isBefore(now))\n  .groupBy(_.keeper)\n  .view.mapValues(_.size)",
]
_BODIES = [
    "flashPeriod :: Int -> Double -> Double\nflashPeriod panels rpm = 60 / (fromIntegral panels * rpm)",
    "function gangPay(array $tally, float $rate): array {\n    return array_map(fn($n) => $n * $rate, $tally);\n}",
    "func lockVolume(rise: Double, length: Double, beam: Double) -> Double {\n    return rise * length * beam\n}",
    "static double strikeHz(double diameterMm) {\n    return BASE_HZ * (REF_DIAMETER_MM / diameterMm);\n}",
    "def days_to_crystallise(depth_mm, evap_mm_per_day):\n    return math.ceil(depth_mm / evap_mm_per_day)",
    "fn fleece_mean(samples: &[f32]) -> f32 {\n    samples.iter().sum::<f32>() / samples.len() as f32\n}",
    "def lighting_up(sunset)\n  sunset - LIGHT_BEFORE_SUNSET_MIN * 60\nend",
]
_CODE_LINES = [
    "permit.expires_on = arrival + timedelta(hours=48)",
    "let cut_mm = (target_hz - measured_hz).abs() * CUT_MM_PER_HZ;",
    "watch.endsAt = watch.startsAt.addingTimeInterval(4 * 3600)",
    "$bale->micron = round($sample->micronSum / $sample->count, 1);",
    "pan.BrineBaume = readings[len(readings)-1].Baume",
    "gang.shedId = shed.id if shed.free_on?(gang.start_date)",
    "val slot = lockSlots.find(_.boatId.isEmpty).getOrElse(nextFreeSlot())",
    "harvestKg = Math.round(pan.areaM2 * yieldKgPerM2);",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "func (r *{T}Repo) {Fn}(ctx context.Context, id int64)",
        "pub fn {fn}(&self) -> Result<{T},",
        "def {fn}(self) -> {T}:",
        "sealed abstract class {T} private (",
        "{fn} :: (MonadReader Env m, MonadIO m) => {T} -> m Bool",
        "protected static <E extends {T}> E {fn}(",
        '{{"action": "locate_symbol_definition", "name": "{fn}", "lang": "any"}}',
        "codesearch def {qual}",
        "where's {T} defined",
        "wheres the defintion of {fn}, cant find it anywhere",
        "agent task: locate where {T} is declared and paste the struct with all its fields",
        "gopls says no definition found when I ctrl-click {fn} in {path}; where is it actually defined?",
        "which file declares the {T} class",
        "vim gd on {fn} lands on an import line, where is the real definition",
        "Before I change anything in {topic} I need to read the original implementation of {fn} itself, not a "
        "wrapper or a mock but the actual function body where it is first defined. Which file is that in?",
        "show me the source of {qual}, the def itself, not its callers",
    ],
    "find_references": [
        "need the caller list for {fn} (direct callers only)",
        "list every call to {fn}( across the go services",
        '{{"tool": "find_references", "symbol": "{qual}"}}',
        "codesearch refs {T} --include-tests",
        "which handlers call {fn} before saving a {T}",
        "where do we new up {T} objects, all of them",
        "who uses {path}? list the files that import it",
        "all the places {fn} gets called from, with line numbers pls",
        "usages of {T} in the scala code",
        "is {fn} called from any module other than {path}",
        "agent: enumerate each call site of {qual} and tell me which module it sits in",
        "find all refs to {fn}, i want to add a log line next to each caller",
        "where do we read the fields of {T}? every access please",
        "I'm auditing {topic} for a compliance review and need every place in the codebase that calls {fn}, "
        "including cron jobs, one-off scripts and tests, so I can confirm none of them skip the validation step",
        "whos calling {fn} these days",
        "which specs reference {T}",
    ],
    "impact_analysis": [
        "deleting {fn} entirely -- what would break?",
        "impact of adding a required field to {T}",
        "Go: if {Fn} gains a context.Context as its first param, which callers need updating",
        "rust: changing {fn} to return Result<{T}, Error> instead of panicking, which call sites now have to "
        "handle the error",
        "if we make {T} immutable, what stops compiling",
        '{{"tool": "impact", "target": "{qual}", "change": "rename"}}',
        "downstream effects of moving {path} into another package?",
        "if {fn} starts throwing instead of returning null, what goes wrong upstream",
        "planning to drop the legacy id column behind {T}; what reads or writes it and would fail",
        "agent: before you refactor {fn}, list everything that would be affected by changing its signature",
        "how risky is it to change the units {fn} returns from feet to metres",
        "what's affected if {path} is deleted",
        "if i change {T} what else i must change??",
        "Scala: turning {T} from a case class into a sealed trait with two cases, which pattern matches go "
        "non-exhaustive and which call sites break",
        "The {topic} code is about to switch {fn} from a synchronous call to a queued job. Before we start, tell "
        "me every feature, report and test whose behaviour would change, and which of them assume the result is "
        "available immediately",
        "ripple effect of bumping the timeout in {fn} to 30s",
    ],
    "exact_match": [
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.{fn}(...)\n\t/src/{path}:{n} +0x1d",
        "thread 'main' panicked at '{Msg}', {path}:{n}:9\nwhere is this string in our code",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n'
        "    raise {err}(reason)\n{err}: {msg}\nwhich line raises this",
        "{path}:{n}:in `block in {fn}': {Msg} ({err})\n\tfrom {path}:{n}:in `each'",
        "Caused by: {err}: {Msg}\n\tat {qual}({path}:{n})",
        "rg --fixed-strings --line-number '{msg}' src/",
        '{{"tool": "search_text", "query": "{Msg}", "literal": true}}',
        'exact string "{msg}"',
        "find literal {ecode} in source",
        "which file raises '{Msg}'",
        'grep -rn "{ecode}" --include=*.go .',
        'where does the message "{msg}" get thrown? i need the exact line',
        "find the line of source that contains the code {ecode} verbatim",
        "copy-pasted from the ops channel: [{ecode}] {Msg} -- search the repo for that exact text",
        "literal match only, no fuzzy: {fn}(",
        'HTTP 500 body: {{"error": "{msg}", "code": "{ecode}"}} -- which handler produces this exact text',
    ],
    "find_similar": [
        "```\n{snippet}\n```\nwhere else do we do this same thing",
        "{fn} has probably been written twice, find code that is nearly the same as it",
        "functions that resemble {fn}",
        '{{"tool": "find_similar", "code": "{code}"}}',
        "is there already a helper that does this?\n{body}",
        "I need to {task}; has someone already written code that does roughly that?",
        "look for copy-paste variants of {path}",
        "other implementations of this idea, in any of our languages:\n{body}",
        "agent: search for code that is structurally similar to this snippet and list the matches ranked by "
        "closeness\n{snippet}",
        "similar code to this line pls: {code}",
        "anything resembling the {T} validation logic in the other services?",
        "we have like three versions of {fn} i think, find them",
        "same shape as this, any language\n{body}",
        "find siblings of {fn}: functions doing the same job for a type other than {T}",
        "A reviewer flagged that this loop in {path} duplicates logic that exists somewhere else in the "
        "codebase, maybe with different variable names; please find the closest matches so I can consolidate "
        "them:\n{snippet}",
        "got a feeling {fn} was cloned into another service, look for near-identical copies",
    ],
    "understand_code": [
        "walk me through {fn} line by line, what is each branch for",
        "explain what {path} is for, briefly",
        "what is this doing?\n```\n{body}\n```",
        "eli5 how the code handles {topic}",
        "what happens in the system when {event}",
        "why does {T} keep its own copy of the timestamps instead of reading them from the db",
        '{{"tool": "explain", "path": "{path}"}}',
        "whats the purpose of {fn}? the name doesnt tell me much",
        "give me an overview of how {topic} is implemented, main modules and data flow",
        "agent: summarise what {qual} does, its inputs, outputs and side effects",
        "can someone explain the control flow in {fn}, esp. the retry bit",
        "meaning of this line? {code}",
        "new here -- how do {T} objects move through the pipeline",
        "I'm taking over {topic} from a colleague who left and I'd like to understand why the code is "
        "structured the way it is: what {path} is responsible for, how it hands work to the rest of the system, "
        "and what assumptions it makes",
        "how is a {T} persisted and loaded back",
        "explain plz, i dont read this language\n{body}",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "twentyeighth", seed=128)

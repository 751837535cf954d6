"""A thirty-ninth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The held-out sets up to ``routing_thirtyeighth.py`` (``routing_heldout.py``, ``routing_blind.py``,
``routing_fresh.py``, ``routing_fifth.py`` ... ``routing_thirtyeighth.py``) have been, or may yet be, read
while routing changes are weighed, so a change chosen on them is partly chosen on its own test; none of
their templates was looked at while this one was written (only ``routing_fifteenth.py``'s layout, as a
format). These templates were written in one sitting by another hand, from the layout alone, in shapes the
earlier sets are least likely to hold: declarations as typed in Go (a method on a pointer receiver), Rust
(``pub(crate) fn``), Python (``async def`` with keyword-only arguments), C# (``internal sealed partial
class``), TypeScript (``export default class ... extends``), Swift (an ``extension``) and Kotlin (a
``companion object``); output pasted from a Go goroutine dump, a Java stack trace, a browser console, a
Python traceback, a Rust panic and a Rust ``main`` error, structured log lines and alert pages, each with
a question after it; tool calls written as JSON or as function calls, review and lint bot comments,
commit messages (``feat!:``, ``chore:``), IDE clicks that landed in the wrong place, voice dictation with
its spoken punctuation, chat with an agent told what to do, typos and terse keyword queries beside long
wordy ones. No classifier was asked any of them while they were written; a template that met a training
one or another set's (``test_intent_model``) was replaced, not reworded. The failure output of that test
once showed fragments of another set's templates (normalised, in an assertion message) while clashes were
being replaced. Its slot fillers come from five domains no other set uses (a snail farm's pens,
hatchlings and escargot grading, a pest control company's bait stations, fumigations and termite reports,
a septic service's pump-outs, sludge gauges and drainfield surveys, a community pottery studio's bisque
and glaze loads and member shelves, and an amusement park's ride restraints, daily inspections and posted
wait times), and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "weigh_snail_clutch",
    "scheduleHatchlingTransfer",
    "record_pen_misting",
    "computeEscargotGrade",
    "book_termite_inspection",
    "refillBaitStation",
    "log_fumigation_tent",
    "computeReentryWindow",
    "schedule_tank_pumpout",
    "measureSludgeDepth",
    "flag_drainfield_saturation",
    "computePumpoutInterval",
    "queue_bisque_load",
    "reserveThrowingWheel",
    "log_glaze_batch",
    "computeShelfRental",
    "close_ride_for_wind",
    "checkRestraintLatch",
    "log_daily_ride_inspection",
    "computeQueueWaitTime",
]
_TYPES = [
    "SnailPen",
    "HatchlingBatch",
    "EscargotOrder",
    "BaitStation",
    "FumigationJob",
    "TermiteReport",
    "SepticTank",
    "PumpoutVisit",
    "DrainfieldSurvey",
    "BisqueLoad",
    "GlazeRecipe",
    "StudioMember",
    "RideInspection",
    "RestraintCheck",
    "QueueSnapshot",
]
_ERRORS = [
    "SnailPenOverstockedError",
    "HatchlingCountMismatch",
    "BaitStationTamperedException",
    "FumigationReentryError",
    "SludgeGaugeDriftError",
    "DrainfieldFloodedException",
    "GlazeCrawlDetectedError",
    "ShelfQuotaExceededException",
    "RestraintLatchFaultError",
]
_MESSAGES = [
    "snail pen humidity fell below the hibernation threshold",
    "hatchling batch moved before the clutch was counted",
    "escargot order graded while the shells were still damp",
    "bait station visited but no consumption reading entered",
    "re-entry requested before the fumigation tent was cleared",
    "termite report signed without a crawlspace photo",
    "sludge depth exceeds a third of the tank volume",
    "pump truck dispatched to a tank with no riser location",
    "drainfield survey shows standing effluent over the laterals",
    "bisque load contains a piece still marked greenware",
    "glaze batch saved without a specific gravity reading",
    "member shelf is full and pieces were moved to the reclaim bin",
    "lap bar did not report latched before dispatch",
    "ride closed for wind but the entrance sign still shows open",
    "daily inspection checklist submitted without the operator's initials",
]
_ERROR_CODES = ["SNL-204", "PC-0412", "E_PUMPOUT_LATE", "SEP-3307", "GLZ-09", "RIDE-7731", "0x5E71C0", "EBAITLOW"]
_PATHS = [
    "snailfarm/pens/humidity_monitor.go",
    "snailfarm/hatchery/HatchlingTransfer.java",
    "snailfarm/orders/escargot_grading.rs",
    "pestline/stations/bait_visits.py",
    "pestline/fumigation/ReentryWindow.swift",
    "pestline/reports/termiteReport.ts",
    "septicworks/dispatch/pump_routes.go",
    "septicworks/tanks/SludgeGauge.kt",
    "septicworks/surveys/drainfield_survey.rb",
    "claystudio/loads/bisque_queue.py",
    "claystudio/glazes/GlazeBatch.cs",
    "claystudio/members/shelfRental.js",
    "ridepark/ops/restraint_check.rs",
    "ridepark/inspections/DailyInspection.java",
    "ridepark/queues/waitTimeBoard.tsx",
]
_TOPICS = [
    "humidity control in the snail pens",
    "grading and packing escargot orders",
    "bait station visits on commercial accounts",
    "re-entry timing after a house fumigation",
    "pump-out scheduling for septic customers",
    "drainfield surveys and the repair work they trigger",
    "bisque and glaze loads in the pottery studio",
    "shelf rental for pottery studio members",
    "restraint checks before each ride dispatch",
    "posted wait times at the ride entrances",
]
_TASKS = [
    "convert a sludge depth in inches into a percentage of tank capacity",
    "round a snail's live weight down to the grading band it falls in",
    "work out how many hours a house must stay empty after a fumigation",
    "compute how much water to add to a glaze from its specific gravity",
    "estimate a queue's wait from riders per cycle and cycle length",
    "split a pump truck's disposal fee across the tanks on one route",
    "decide whether a guest's measured height clears a ride's minimum",
    "turn a bait station's start and end weights into a consumption percentage",
]
_EVENTS = [
    "a customer's septic tank backs up a week after a pump-out",
    "a ride restraint faults on the last dispatch of the night",
    "two studio members claim the same shelf in the glaze room",
    "a bait station at a food plant is found empty and chewed open",
    "a hatchling batch is moved into a snail pen that is already full",
]
_SNIPPETS = [
    "for _, t := range route.Tanks {\n\tif t.SludgeIn > t.DepthIn/3 {\n\t\tdue = append(due, t)\n\t}\n}",
    "let late: Vec<_> = stations\n    .iter()\n    .filter(|s| s.last_visit < cutoff)\n    .collect();",
    "for pen in farm.pens:\n    if pen.humidity < HIBERNATION_RH:\n        alerts.append(pen.id)",
    "for (RestraintCheck c : cycle.getChecks()) {\n    if (!c.isLatched()) {\n"
    "        cycle.hold(c.getSeat());\n    }\n}",
    "let ready = jobs.filter { $0.tentRemovedAt != nil && $0.clearancePpm < 1.0 }",
    "loads.select { |l| l.cone == 6 && l.pieces.none?(&:greenware?) }.each(&:enqueue!)",
    "const overdue = members\n  .filter((m) => m.shelves > m.paidShelves)\n"
    "  .map((m) => ({ id: m.id, owed: m.shelves - m.paidShelves }));",
    "var unsigned = inspections\n    .Where(i => string.IsNullOrEmpty(i.OperatorInitials))\n"
    "    .Select(i => i.RideId)\n    .ToList();",
    "pens.forEach { pen ->\n    if (pen.count > pen.capacity) overstocked += pen.id\n}",
    "SELECT tank_id, MAX(pumped_on) AS last_pumpout\nFROM pumpouts\nGROUP BY tank_id\n"
    "HAVING MAX(pumped_on) < now() - interval '3 years';",
]
_BODIES = [
    "def sludge_percent(depth_in, tank_depth_in):\n    if tank_depth_in <= 0:\n        return 0.0\n"
    "    return round(100 * depth_in / tank_depth_in, 1)",
    "func waitMinutes(queueLen, perCycle int, cycle time.Duration) int {\n"
    "\tcycles := (queueLen + perCycle - 1) / perCycle\n\treturn int((time.Duration(cycles) * cycle).Minutes())\n}",
    "fn grade_band(grams: f32) -> u8 {\n    match grams {\n        g if g >= 12.0 => 1,\n"
    "        g if g >= 8.0 => 2,\n        _ => 3,\n    }\n}",
    "fun reentryHours(gas: Fumigant, ppm: Double): Int =\n    if (ppm <= gas.clearancePpm) 0 else gas.baseHours + 2",
    "public static double WaterToAdd(double sg, double targetSg, double grams) {\n"
    "    return sg <= targetSg ? 0 : grams * (sg - targetSg) / (targetSg - 1);\n}",
    "func splitDisposalFee(fee: Decimal, gallons: [Int]) -> [Decimal] {\n"
    "    let total = Decimal(gallons.reduce(0, +))\n"
    "    return gallons.map { fee * Decimal($0) / total }\n}",
    "function shelfFee(shelves, rate, member) {\n  const free = member.isFounding ? 1 : 0;\n"
    "  return Math.max(0, shelves - free) * rate;\n}",
    "def bait_due?(station, today)\n  return true if station.last_visit.nil?\n"
    "  (today - station.last_visit).to_i >= station.interval_days\nend",
]
_CODE_LINES = [
    "tank.next_pumpout = last_pumpout + timedelta(days=365 * years_between)",
    "if seat.lapBar.state != .latched { dispatch.block(reason: .restraint) }",
    "station.consumption_pct = (start_g - remaining_g) * 100 / start_g",
    "let band = if weight_g >= 12.0 { Grade::Extra } else { Grade::Standard };",
    "member.shelfFee = shelves.length * STUDIO_SHELF_RATE;",
    "job.ReentryAt = job.TentRemovedAt.Add(time.Duration(hours) * time.Hour)",
    "pen.misting_interval = max(20, 90 - (pen.humidity_pct - 70) * 3)",
    "waitMin = Math.ceil(queueLen / ridersPerCycle) * cycleSec / 60;",
    "survey.Saturated = survey.Probes.Count(p => p.StandingWater) >= 2;",
    "val nextPumpout = lastPumpout.plusYears(if (household > 4) 2 else 3)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "func (p *{T}) {Fn}(",
        "impl Drop for {T} {{ -- not the Drop impl, the struct {T} itself: where is it declared",
        "@retry(stop=stop_after_attempt(3))\ndef {fn}(",
        "internal sealed partial class {T} :",
        "export default class {T} extends EventEmitter {{",
        "extension {T}: Codable {{ ... that's only the extension, where is the original {T} declared?",
        '{{"tool": "goto_definition", "arguments": {{"symbol": "{T}"}}}}',
        'resolve_symbol(name="{qual}", want="declaration")',
        "hey open where {fn} is defined comma the one for {topic} period",
        "thread 'tokio-runtime-worker' panicked at {path}:{n}:9:\n{msg}\n\nok but where is {fn} actually "
        "defined, want to read its body first",
        "wher is teh {T} strct definded??",
        "[review-bot] `{fn}` is referenced in this diff but its declaration is outside the patch; link the "
        "defining file",
        "def of {qual}?",
        "Before touching anything, find the file and line where {T} is declared (not re-exported, not aliased) and "
        "paste the full declaration back to me.",
        "ctrl+click on {fn} lands in a generated stub, where's the hand-written definition",
        "Kotlin: there's a `companion object` inside {T} -- where is the enclosing class {T} itself declared",
    ],
    "find_references": [
        "who-calls {fn} --depth 1 --format table",
        "VS Code's Find All References spins forever on {T}; just list where {T} is used, file and line",
        "which except / catch blocks handle {err}? list them all",
        "Go: which packages call {T}.{Fn}? gopls shows zero references which can't be right",
        "who constructs a {T}? need the list of `new {T}(` and `{T}(` sites",
        "[lint-bot] `{fn}` flagged as possibly unused. list its references so a human can confirm",
        "voice: show me all the places that use {T} in the code for {topic} thanks",
        "where all is {fn} getting called from lol",
        "Rust: every impl block and fn that takes a `&{T}` parameter",
        "usages {qual} -tests",
        "Swift: find every view that reads `{T}` from the environment",
        "chore: migrate callers of {fn}\n\n(first I need the complete caller list, files + lines)",
        "callsites of {fn}? (the one from {path}, not the similarly named helper)",
        "I'm writing the migration note for {topic} and need every handler, cron job and script that touches "
        "{T}, with path and line for each, grouped by service.",
        "which C# classes inject {T} through their constructor",
        "refs to {fn} in .java files only",
    ],
    "impact_analysis": [
        "what breaks if {err} stops being raised and callers get None back instead",
        '{{"tool": "impact", "change": "drop the second parameter of {fn}", "depth": 3}}',
        "Go: adding ctx context.Context as the first argument of {T}.{Fn} -- which packages need edits and what "
        "else ripples out",
        "Rust: if {T} stops implementing Clone, what downstream code fails to build",
        "feat!: {fn} now returns Result instead of panicking\n\nbefore merging: which consumers are affected by "
        "this breaking change?",
        "[review-bot] this PR narrows {qual} from public to internal; assess downstream impact",
        "if we delete {path}, what goes down with it",
        "voice: if I change {fn} to take minutes instead of hours what else would that mess up",
        "suppose {T} gets frozen (no setters at all) -- which writers of its fields would stop working",
        "how risky is cutting the timeout in {fn} from 30s to 5s, who depends on that",
        "If {fn} were moved out of {path} into a shared library for {topic}, which imports, tests, build targets "
        "and deploy scripts would have to change, and what could silently break at runtime?",
        "TS: `{T}.status` goes from string to a union type -- which files stop compiling",
        "wat happens to the rest if i change {fn} signture",
        "downstream impact: {qual} renamed",
        "Python: if {fn} becomes async def, which sync callers break",
        "C#: marking {T} as [Obsolete(error: true)] -- what fails to build and which teams own it",
    ],
    "exact_match": [
        "goroutine {n} [running]:\nmain.(*{T}).{Fn}(...)\n\t/src/{path}:{n} +0x1c4\npanic: {msg}\n\nfind the "
        "literal panic string in the repo",
        "{err}: {Msg}\n\tat com.acme.ops.{T}.{fn}({T}.java:{n})\nwhere is this message text in the source",
        "Uncaught {err}: {msg}\n    at {T}.{fn} (webpack-internal:///./{path}:{n}:17)\n^ search for that exact message",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n{err}: {msg}\nwhere exactly is '
        "that raised, string match please",
        'Error: {err}("{msg}")\nnote: run with `RUST_BACKTRACE=1`\nsearch the code for that exact string',
        "2024-06-11T04:{n}:09Z WARN [{fn}] {msg} code={ecode}\nlocate this log statement verbatim",
        "Ctrl+Shift+F, match case on, plain text: {msg}",
        'search.literal(pattern="{err}", case_sensitive=True)',
        "{ecode} shows up in a customer screenshot; search for that literal code in the source",
        'literal match only, no fuzzy stuff: "{Msg}"',
        "voice: search for the exact words quote {msg} end quote",
        "user-facing toast says '{Msg}' - where's that string in the frontend",
        "grep -rn '{err}' .",
        "[alert] {T} {ecode}: {msg} (x{n} in 5m) -- which source line prints this verbatim",
        "exakt string serach: {msg}",
        "the CI job died with `{err}: {msg}`, find the line that raises that precise message",
    ],
    "find_similar": [
        "{snippet}\n\n^ seen this pattern anywhere else in the codebase?",
        "mcp call code.near_duplicates --input '{code}'",
        "find_similar(body='''{body}''', exclude=\"{path}\")",
        "about to write code to {task} -- any existing function that's close enough to reuse?",
        "functions that look like {fn} but for a different part of the business",
        "[review-bot] this block resembles existing code; list the top matches:\n{snippet}",
        "refactor ticket: collect all copies of the {T} validation logic so we can merge them",
        "voice: find code that looks like the {fn} function",
        "{code}\nsimilar lines elsewhere? (this one is from {path})",
        "same shape as {qual} in other services, any?",
        "Several services each grew their own way to {task}; here is ours, please find the others even if "
        "they're in a different language or named differently:\n{body}",
        "analogous implementations of {fn} in Go or Rust",
        "kinda like this but elsewhere?\n{body}",
        "fuzzy-match this against the repo: {code}",
        "siblings of {path}: files with nearly the same structure",
        "copy-paste detector: run against {fn} and report the clones",
    ],
    "understand_code": [
        "tl;dr of what {fn} does, for a non-engineer",
        'assistant.explain(symbol="{qual}", audience="new maintainer")',
        "what's the point of {T}? reading {path} and it's not obvious",
        "{body}\n\nwhat does this compute, step by step?",
        "{topic} -- describe the data flow in words, from input to what gets stored",
        "voice: explain how the {fn} function works in simple terms please",
        "why does {fn} retry twice before giving up on a {T}?",
        "[review-bot] reviewer asks what invariant {fn} maintains; please explain it before approval",
        "walk through what happens when {event}",
        "in english please: {code}",
        "new hire here, can someone explain how {path} fits into {topic}",
        "Go: why does {T}.{Fn} take a mutex here, what is it protecting",
        "summary of {path} in 3 bullets",
        "I'm preparing the runbook for {topic}; explain in prose what the main components are, which of them "
        "owns the state, and how a request flows through them when {event}.",
        "{T}?? purpose? responsibilities?",
        "how do {fn} and {T} relate?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "thirtyninth", seed=3939)

"""A twenty-ninth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

It was written from the layout alone: only ``routing_fifteenth.py`` was opened, as a format (its imports,
``Slots``, ``held_out_set``, the template dict keyed by intent and the shape of this docstring); none of
the other sets' templates or fillers, nor the training templates, nor the classifier, was looked at,
beyond the fragments a failing leakage test prints. The templates are one hand's sense of how engineers
and AI coding agents put requests to a code search tool: questions and imperatives, terse keyword queries
and long wordy ones, lower-case chat, typos, signatures typed as they are in Python, Swift, Rust, C++,
Java and C, fenced snippets, a unified diff, stack traces and log lines (pytest's failure output, a Go
panic, a Rust panic, a Node ``Uncaught``, a Ruby logger line), and the JSON, YAML and command-line forms
an agent might send as a tool call. No classifier was asked any of them while they were written; a
template that met a training one or another set's (``test_intent_model``) was replaced, not reworded. Its
slot fillers come from five domains no other set uses (a fireworks display company's firing cues, mortar
racks and explosive magazine, an oyster hatchery's larvae tanks, spat grading and algae feeds, a public
bathhouse's sauna sessions, pool chlorine checks and locker keys, a rowing club boathouse's shell
bookings, crew lineups and erg tests, a cemetery's plot registry, interment orders and headstone permits),
and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "arm_mortar_rack",
    "computeShellSafetyDistance",
    "log_magazine_withdrawal",
    "assignCueToFiringModule",
    "count_spat_per_cultch_bag",
    "scheduleAlgaeFeed",
    "grade_larvae_by_sieve",
    "flagTankSalinityDrift",
    "book_sauna_session",
    "recordChlorineCheck",
    "compute_locker_key_fine",
    "reserveMassageRoom",
    "book_racing_shell",
    "assignCrewSeat",
    "log_erg_split",
    "reserve_burial_plot",
    "issueHeadstonePermit",
    "record_interment_order",
]
_TYPES = [
    "FiringCue",
    "ShellLot",
    "MagazineLedger",
    "SpatSetBatch",
    "LarvaeTank",
    "AlgaeCulture",
    "SaunaSession",
    "ChlorineCheck",
    "LockerKey",
    "RacingShell",
    "CrewLineup",
    "ErgTestResult",
    "BurialPlot",
    "IntermentOrder",
    "HeadstonePermit",
]
_ERRORS = [
    "MisfireDetectedError",
    "MagazineLimitExceeded",
    "SalinityOutOfRangeException",
    "SpatCountError",
    "LockerKeyMissingException",
    "CoxswainMissingError",
    "PlotAlreadyReservedError",
]
_MESSAGES = [
    "firing cue fired before the safety zone was cleared",
    "shell calibre exceeds the rack's rated maximum",
    "magazine withdrawal exceeds the licensed net explosive quantity",
    "larvae tank salinity drifted outside the setting range",
    "spat count per cultch bag is below the grading threshold",
    "algae feed scheduled for a tank that was drained",
    "sauna session booked past the bathhouse closing time",
    "chlorine check logged for a pool that is closed for draining",
    "locker key was issued twice without being returned",
    "racing shell is booked by two crews for the same outing",
    "crew lineup has no coxswain assigned",
    "burial plot is already reserved under another family name",
    "headstone permit requested before the interment was recorded",
]
_ERROR_CODES = ["PYRO-0117", "HTCH-3309", "BATH-E42", "ERR_OAR_77", "PLT-5521", "E_SPATLOW"]
_PATHS = [
    "pyro/cues/firing_plan.py",
    "pyro/magazine/MagazineLedger.java",
    "pyro/racks/mortar_rack.rs",
    "hatchery/tanks/salinity_monitor.go",
    "hatchery/spat/SpatGrading.swift",
    "hatchery/feed/algae_schedule.rb",
    "bathhouse/sauna/session_slots.ts",
    "bathhouse/pools/ChlorineLog.scala",
    "bathhouse/lockers/locker_keys.php",
    "boathouse/bookings/shell_bookings.py",
    "boathouse/erg/erg_splits.hs",
    "cemetery/plots/plot_registry.go",
    "cemetery/permits/HeadstonePermit.java",
    "cemetery/interments/interment_orders.c",
    "pyro/shows/ShowTimeline.kt",
    "bathhouse/pools/dosing_pump.rb",
]
_TOPICS = [
    "firing cue sequencing for the fireworks shows",
    "explosive magazine stock and withdrawals",
    "mortar rack loading on show night",
    "salinity monitoring in the oyster larvae tanks",
    "spat grading and cultch bag counts",
    "algae feeding rotas at the hatchery",
    "sauna session bookings at the bathhouse",
    "chlorine and pH checks for the bathhouse pools",
    "racing shell bookings at the boathouse",
    "crew seat assignments for regattas",
    "burial plot reservations in the cemetery registry",
    "headstone permits and interment orders",
]
_TASKS = [
    "convert a firework shell's calibre in inches into a minimum spectator distance in metres",
    "work out a locker key's late fine from the hours it was kept",
    "round a 500 m erg split to the nearest tenth of a second",
    "turn a tank's conductivity reading into salinity in parts per thousand",
    "format a cemetery plot reference as section-row-number with zero padding",
    "split a crew's boat hire fee evenly across its rowers",
    "estimate a chlorine dose from pool volume and the measured free chlorine",
    "count the spat settled on a cultch bag from a sample tray",
    "check that two firing cues are at least half a second apart",
    "find the sauna slot with the longest free stretch after a given time",
]
_EVENTS = [
    "a firing module loses its radio link halfway through a show",
    "a larvae tank heater fails overnight",
    "two families try to reserve the same plot on the same afternoon",
    "a locker key is handed back at the wrong desk",
    "a crew books a racing shell that is out for repair",
    "the explosive magazine count at close of day disagrees with the withdrawal log",
    "a headstone permit is approved for a plot whose interment was cancelled",
    "the algae culture for a tank crashes the day before a feed",
]
_SNIPPETS = [
    "for cue in plan.cues:\n    if cue.module_id not in armed:\n        raise MisfireDetectedError(cue.id)\n"
    "    fire(cue)",
    "for _, t := range tanks {\n\tif t.Salinity < minPpt || t.Salinity > maxPpt {\n"
    "\t\talerts = append(alerts, t.ID)\n\t}\n}",
    "tanks.select { |t| t.drained_at.nil? }\n     .each { |t| schedule_feed(t, litres: t.volume * 0.02) }",
    "const overdue = keys\n  .filter((k) => hoursSince(k.issuedAt) > 12)\n"
    "  .sort((a, b) => a.locker.localeCompare(b.locker));",
    "List<BurialPlot> free = plots.stream()\n    .filter(p -> p.getReservedBy() == null)\n"
    "    .collect(Collectors.toList());",
    "let bow_seats: Vec<u8> = lineup.rowers.iter()\n    .filter(|r| r.side == Side::Bow)\n"
    "    .map(|r| r.seat)\n    .collect();",
    "pools.each do |pool|\n  next if pool.closed?\n  alert_low(pool) if pool.free_chlorine < 1.0\nend",
    "while (cue = next_cue(&plan)) {\n    if (cue->delay_ms < MIN_GAP_MS) { skip_cue(cue); continue; }\n"
    "    fire_cue(cue);\n}",
    "val dueForCheck = pools.filter(p => p.lastCheck.plusHours(2).isBefore(now))\n  .groupBy(_.hall)",
    "foreach ($orders as $order) {\n    if ($order->plot === null) {\n        $pending[] = $order->id;\n    }\n}",
]
_BODIES = [
    "def safety_distance_m(calibre_in: float) -> float:\n    return max(70.0, calibre_in * 21.3)",
    "func pptFromConductivity(mS, tempC float64) float64 {\n\tadj := mS / (1 + 0.0191*(tempC-25))\n"
    "\treturn 0.64 * adj\n}",
    "def lateFine(kept: Duration, rate: BigDecimal): BigDecimal =\n  rate * math.max(0L, kept.toHours - 12)",
    "roundSplit :: Double -> Double\nroundSplit s = fromIntegral (round (s * 10)) / 10",
    "function plotRef(int $section, int $row, int $num): string {\n"
    "    return sprintf('%02d-%02d-%03d', $section, $row, $num);\n}",
    "func spatPerBag(_ total: Int, bags: Int) -> Int {\n    guard bags > 0 else { return 0 }\n"
    "    return total / bags\n}",
    "int cues_too_close(const cue_t *a, const cue_t *b) {\n    return labs(a->at_ms - b->at_ms) < 500;\n}",
    "fn chlorine_dose_g(volume_m3: f32, free_ppm: f32) -> f32 {\n    (3.0 - free_ppm).max(0.0) * volume_m3 * 1.5\n}",
    "public static long freeSlotMinutes(SaunaSession s, LocalTime from) {\n"
    "    return ChronoUnit.MINUTES.between(from, s.nextBookedAt());\n}",
    "def fee_share(fee, rowers)\n  return 0 if rowers.empty?\n  (fee.to_f / rowers.size).round(2)\nend",
]
_CODE_LINES = [
    "rack.max_calibre_mm = 150 if site.urban else 200",
    "tank.nextFeedAt = tank.lastFeedAt.plus(Duration.ofHours(6));",
    "key.fine_cents += 200 unless key.returned?",
    "let fee_per_rower = booking.fee / lineup.rowers.len() as f64;",
    "$permit->status = $interment ? 'eligible' : 'pending';",
    "if abs(tank.ppt - target_ppt) > 2.5: flag_tank(tank)",
    "room.Occupied = room.BookingID != 0 && !room.Closed",
    "let distance = max(70.0, calibre_in * 21.3)",
    "order.burial_at = order.requested_on + timedelta(days=3)",
    "crew.seats.sort_by!(&:number)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "def {fn}(self, lot: {T}) ->",
        "@discardableResult\nfunc {fn}(_ lot: {T}) throws ->",
        "pub fn {fn}(&mut self, lot: &{T}) -> Result<",
        "class {T} final : public QObject {{",
        "public final class {T} extends BaseEntity {{",
        "typedef struct {T} {{",
        "ctrl+click on {fn} in vscode lands on an interface; I need the concrete implementation's definition",
        "peek definition {qual}, the hover only shows me the docstring",
        "which file declares `{T}`? grep gives me forty hits and most of them are imports",
        '{{"tool": "code_search", "action": "definition", "symbol": "{fn}"}}',
        "wheres the {T} class defned at, cant find it anywhere",
        "codesearch def --symbol {qual} --lang any",
        "the traceback ends in {fn} ({path}); show me the def of that function, not the line that calls it",
        "agent task: locate the original declaration of {T} and paste its fields with their types",
        "I'm writing up {topic} for the handbook and need the exact spot where {T} is declared, not a subclass "
        "and not a test double but the real one, so I can link to it from the page",
        "there are extensions of {T} in three files; where is the primary declaration of {T} itself",
    ],
    "find_references": [
        "callers of {fn} pls",
        "every call site of {fn}( across the repo, grouped by file",
        "who constructs a {T}? i need every place that builds one",
        "- tool: search\n  mode: references\n  symbol: {qual}",
        "every handler that hands a {T} to {fn} as an argument, please",
        "refactor prep: enumerate the modules that import {path}",
        "does anything outside the test folder still call {fn}",
        "list all readers and writers of {T}.status",
        "agent: before touching {fn}, collect every caller and give me the file:line of each one",
        "where all is {T} getting used? the migration ticket wants the full list",
        "show refs to {fn} in {path}",
        "compliance asked for every code path that writes a {T}; list the functions that do it",
        "who calls {qual} at runtime, including through the job queue",
        "usages of {T} in the ruby and go services only",
        "findReferences({fn})",
        "pls list evry spot that hits {fn}, i need them for the code walkthrough tomorrow",
    ],
    "impact_analysis": [
        "what breaks if we delete {fn} entirely",
        "diff:\n-def {fn}(lot):\n+def {fn}(lot, *, dry_run):\nwhich callers need updating, and what else gets affected",
        "Go: if {T} gains a required field, which packages stop compiling or pass zero values downstream",
        "downstream effects of changing {path}",
        "we're switching the units in {fn} from inches to millimetres; what is the knock-on across {topic}",
        "agent: assess the impact of removing {T} and produce a list of affected modules and tests",
        "ripple effect of making {qual} raise {err} instead of returning None",
        "is it safe to change the signature of {fn}? what would break",
        "if {fn} becomes async, what else has to change further up the stack",
        "risk check: raising the timeout in {fn} from 5s to 60s, who is affected",
        "rename {T} -> {T}Record: which files are impacted?",
        "which jobs, reports or APIs would be affected if {path} went away",
        "planning to fold {T} into another model for {topic}; I need the blast radius: what reads it, what writes "
        "it, and what would behave differently afterwards",
        "chaning the default in {fn}, wat could go wrong elsewhere?",
        "PR #{n} changes what {fn} returns on empty input; which consumers rely on the old behaviour",
        '{{"action": "impact", "target": "{qual}", "change": "remove a parameter"}}',
    ],
    "exact_match": [
        "E       {err}: {msg}\n\n{path}:{n}: {err}\nwhich module raises this exact message",
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.{Fn}(...)\n\t{path}:{n} +0x1d4",
        "thread 'tokio-runtime-worker' panicked at {path}:{n}:9:\n{msg}\nnote: run with `RUST_BACKTRACE=1`",
        "Uncaught {err}: {Msg}\n    at {fn} ({path}:{n}:17)",
        "ack --literal '{msg}' src/",
        'literal match only: "{Msg}"',
        "ERROR {ecode} {msg}   <- where in the code is this string",
        "find the exact string '{msg}' in the source, not similar wording",
        "rg -F '{ecode}' src/",
        "E, [2024-05-02T03:11:09.812 #{n}] ERROR -- : {Msg} ({err})",
        'which file raises {err} with the text "{msg}"',
        "search verbatim for the token {fn}(",
        '{{"tool":"search","mode":"exact","query":"{msg}"}}',
        "our alert said `{ecode}: {msg}`, where is that literal defined",
        "codesearch --exact '{ecode}' --include '*.go'",
        "[{n}] WARN {T}: {msg}\nfound this line in the prod log, which statement prints it?",
    ],
    "find_similar": [
        "similar blocks to:\n```\n{snippet}\n```",
        "is {fn} duplicated in spirit anywhere? functions that do roughly the same",
        "is there already a helper somewhere that can {task}?",
        "something like {fn} but used for {topic}?",
        "{body}\n\nhave we written this anywhere else, maybe in another language",
        "find code that resembles {path}",
        "agent: search for implementations structurally close to this one and rank them by similarity\n{body}",
        "other places that do the same as `{code}`",
        "copy-paste detection around {fn}: are there forks of it in other services",
        "looking for prior art, code that can {task}",
        "similar patterns to this loop?\n{snippet}",
        "what other {T}-handling functions look like {fn}",
        '{{"mode": "similar", "snippet": "{code}"}}',
        "simlar code to this pls\n{body}",
        "i want to unify the duplicates: find every function nearly identical to {fn} across the {topic} code",
        "near matches for this one-liner: {code}",
    ],
    "understand_code": [
        "how does {fn} actually work",
        "explain {path} to me",
        "trace for me, in words, the sequence the system follows when {event}",
        "can you explain what this does\n{body}",
        "what's {T} for",
        "high-level tour of {topic} please, which modules and why",
        "why does {fn} catch {err} and just swallow it",
        "explain the flow: request comes in -> {fn} -> ? -> database",
        "I'm reviewing {path} and the control flow confuses me; can you describe step by step what {fn} does "
        "and why it does it in that order",
        "agent: summarize the responsibilities of {T} and how it fits into {topic}",
        "explain {topic} like i'm a new hire with no context on our stack",
        "what is the purpose of this line? {code}",
        "what does {fn} return when the input is empty, and why was it designed that way",
        "how {topic} works, architecture wise",
        "this snippet:\n{snippet}\nwhat is it doing, and why the filter",
        "new here: what's the relationship between {T} and {fn}?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "twentyninth", seed=129)

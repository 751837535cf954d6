"""A forty-seventh held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fortysixth.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by
another hand than the change, in one sitting, from the layout of ``routing_fortysixth.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the forty-sixth's was reworded, and
no classifier, router or model was asked about any of its phrasings while they were written. It keeps the
usual spread of voices, spread evenly over the six intents: two- and three-word keyword queries and long
rambling ones, misspellings, lowercase chat, questions and orders, tool calls written as JSON, requests to a
coding agent, review-bot, lint-bot and CI-bot comments, commit messages, pasted output (Go panics, Python and
pytest tracebacks, Java, Kotlin and C# exceptions, Rust panics, Node stacks, timestamped log lines) with a line
of words under it, and declarations and snippets pasted as typed in Go, Rust, Kotlin, Java, Python, Swift, C#,
TypeScript, Ruby, PHP, C++, Scala, Elixir, Haskell, OCaml, Zig and Dart. About half its templates are plain
questions with nothing pasted; the other half are pasted things with a question under them: declarations
asking where they live, who implements, extends or calls them, what breaks if they change, what looks like
them, or what they do; and pasted output asking where the named code is declared, who else calls it, who must
handle the error once it changes, where its text is written, or why it happens. The label is always what the
asker wants, not which words appear.
Three templates met a training template (one, inside a longer one) or another set's (two)
(``test_intent_model``) and were replaced by ones of another shape, not reworded; seven fillers met another
set's and were renamed. A script that printed only this set's own colliding templates and fillers picked them
out; no other set's templates or fillers were read.

Its slot fillers come from five domains, and no filler is another set's: a glassblowing studio (furnace
schedules, gather weights, annealer cycles, commission orders), a mountain hut warden's office (bunk bookings,
avalanche bulletins, supply airlifts, the hut log), a piano tuning service (tuning appointments, pitch raises,
string replacements, humidity readings), a community orchard (grafting records, harvest rotas, cider pressing,
pest traps) and a tide-gauge observatory (water level readings, datum corrections, sensor drift, storm surge
alerts). None is a training filler (``test_intent_model`` checks both). ``benchmarks/routing.py`` reports it
beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "plan_crucible_recharge",
    "weighGlassGather",
    "run_annealer_cycle",
    "logCommissionOrder",
    "book_hut_bunk",
    "postAvalancheBulletin",
    "request_supply_airlift",
    "appendHutLogEntry",
    "book_tuning_visit",
    "applyPitchRaise",
    "restring_wound_bass_note",
    "recordSoundboardHumidity",
    "log_graft_union",
    "assignHarvestRota",
    "press_cider_batch",
    "countPestTrapCatch",
    "read_tide_level",
    "applyDatumCorrection",
    "estimate_sensor_drift",
    "raiseStormSurgeAlert",
]
_TYPES = [
    "GloryHoleFurnaceSchedule",
    "GatherWeightSample",
    "AnnealerRampCycle",
    "GlassCommissionOrder",
    "HutBunkBookingSlip",
    "AvalancheDangerBulletin",
    "HelicopterSupplyDrop",
    "HutLogbookEntry",
    "TunerHouseCallBooking",
    "PitchRaisePass",
    "PianoStringReplacementJob",
    "SoundboardHumidityLog",
    "RootstockGraftRecord",
    "CiderPressingRun",
    "CodlingMothTrapCount",
    "QuaysideGaugeLevelSample",
    "ChartDatumOffset",
    "StormSurgeWarning",
]
_ERRORS = [
    "AnnealerOvershootError",
    "GatherOverweightForPieceException",
    "BunkOverallocatedError",
    "AirliftGroundedException",
    "PitchRaiseOverCentsLimitError",
    "StringGaugeMismatchException",
    "GraftUnionDidNotTakeError",
    "PressBatchContaminatedException",
    "GaugeDatumMissingError",
    "SensorDriftExceededException",
]
_MESSAGES = [
    "annealer ramped down faster than the schedule allows for thick-walled pieces",
    "gather weighed in heavier than the commission order specified",
    "furnace recharge scheduled while a piece was still on the blowpipe",
    "bunk booked for a party larger than the dormitory sleeps",
    "avalanche bulletin published with the danger level left unset",
    "supply airlift scheduled on a day the hut log marks as closed for weather",
    "pitch raise booked for a piano sitting a full semitone flat in one pass",
    "replacement string gauge does not match the original in the tenor section",
    "soundboard humidity logged above ninety percent with no damper fitted",
    "graft recorded onto a rootstock that was grubbed up last winter",
    "harvest rota gives one picker two orchard rows at the same hour",
    "pressing logged with more juice than the apples weighed in",
    "tide reading stored before the datum correction was loaded",
    "gauge drift beyond tolerance since the last levelling survey",
    "storm surge alert raised for a tide gauge that has been offline all week",
]
_ERROR_CODES = [
    "GLS-4412",
    "ANL-0907",
    "E_BUNK_FULL",
    "HUT-3381",
    "PNO-2260",
    "E_PITCH_STEEP",
    "ORCH-518",
    "TIDE-6043",
    "E_DATUM_MISSING",
]
_PATHS = [
    "hotshop/furnace/furnace_schedule.py",
    "hotshop/annealer/AnnealerCycle.kt",
    "hotshop/commissions/commission_order.rb",
    "hutdesk/bunks/bunk_booking.go",
    "hutdesk/bulletins/AvalancheBulletin.java",
    "hutdesk/airlift/airlift_plan.zig",
    "tuneworks/visits/tuningVisit.ts",
    "tuneworks/strings/StringReplacement.cs",
    "tuneworks/humidity/humidity_log.dart",
    "orchardshare/grafts/graft_record.ex",
    "orchardshare/rota/HarvestRota.swift",
    "orchardshare/press/cider_press.php",
    "tidewatch/levels/tide_level.rs",
    "tidewatch/datum/DatumCorrection.scala",
    "tidewatch/drift/sensor_drift.cpp",
    "tidewatch/surge/SurgeAlert.hs",
]
_TOPICS = [
    "furnace schedules and gather weights at the glassblowing studio",
    "annealer cycles and commission orders in the glass studio",
    "bunk bookings at the mountain hut warden's office",
    "avalanche bulletins and supply airlifts for the mountain hut",
    "tuning appointments at the piano tuning service",
    "pitch raises and string replacements for the piano tuners",
    "grafting records at the community orchard",
    "harvest rotas and cider pressing for the community orchard",
    "water level readings at the tide-gauge observatory",
    "datum corrections and storm surge alerts at the tide gauge",
]
_TASKS = [
    "work out how long the annealer should soak a piece from its wall thickness",
    "total the glass drawn from the furnace across a day's gathers",
    "allocate hut bunks so a party of climbers stays in one dormitory",
    "decide whether a supply airlift can fly given the wind and cloud base",
    "split a pitch raise into passes so no string is pulled up too far at once",
    "turn a soundboard humidity reading into a recommended damper setting",
    "rotate orchard pickers so each row is picked before its apples drop",
    "apply a datum correction to raw water levels from a tide gauge",
]
_EVENTS = [
    "the annealer loses power halfway through a commission's cooling cycle",
    "an avalanche closes the approach path while every bunk is booked",
    "a bass string snaps during a pitch raise at a customer's house",
    "the cider press jams with a full load of apples in the cheese",
    "the tide gauge stops reporting just as a storm surge arrives",
]
_SNIPPETS = [
    "for _, g := range gathers {\n\tif g.Grams > order.MaxGatherG {\n\t\theavy = append(heavy, g.ID)\n\t}\n}",
    "for bunk in bookings:\n    if bunk.party_size > bunk.room.sleeps:\n        overfull.append(bunk.ref)",
    "let late: Vec<&Visit> = visits\n    .iter()\n    .filter(|v| v.tuner == tuner_id && v.starts > cutoff)\n"
    "    .collect();",
    "for (Reading r : gauge.getReadings()) {\n    if (r.getLevelMm() > surgeThresholdMm) {\n"
    "        alerts.add(r.getStation());\n    }\n}",
    "let ripe = rows.filter { $0.daysSinceBloom >= 140 && !$0.picked }",
    "traps.select { |t| t.catch_count > 10 }.group_by(&:orchard_row)",
    "const steepPasses = passes\n  .filter((p) => p.centsUp > 25)\n  .map((p) => p.pianoId);",
    "var pendingDrops = airlifts\n    .Where(a => a.Scheduled < DateTime.UtcNow && !a.Landed)\n"
    "    .OrderBy(a => a.Hut)\n    .ToList();",
    "final damp = readings.where((r) => r.humidity > 70).map((r) => r.pianoId).toList();",
    "SELECT annealer_id, MAX(temp_c) AS peak\nFROM annealer_cycles\nWHERE started_on = CURRENT_DATE\n"
    "GROUP BY annealer_id;",
]
_BODIES = [
    "def soak_minutes(wall_mm):\n    return max(30, wall_mm * 12)",
    "func correctedLevelMm(rawMm, datumOffsetMm int) int {\n\treturn rawMm - datumOffsetMm\n}",
    "fn drift_mm_per_day(start: i32, end: i32, days: u32) -> i32 {\n"
    "    if days == 0 { 0 } else { (end - start) / days as i32 }\n}",
    "fun passesNeeded(centsFlat: Int): Int =\n    if (centsFlat <= 20) 1 else (centsFlat + 24) / 25",
    "fn bunksFree(sleeps: u32, booked: u32) u32 {\n    return if (booked >= sleeps) 0 else sleeps - booked;\n}",
    "double juiceYield(double litres, double kgApples) {\n  return kgApples == 0 ? 0 : litres / kgApples;\n}",
    "function trapsOverThreshold(traps) {\n  return traps.filter((t) => t.count > 10).map((t) => t.row);\n}",
    "function gatherCost(float $grams, float $perKg): float {\n    return round($grams / 1000 * $perKg, 2);\n}",
]
_CODE_LINES = [
    "piece.cooled = piece.temp_c < ANNEAL_STRAIN_POINT_C",
    "if b.PartySize > room.Sleeps { return errBunkFull }",
    "let corrected = raw_mm - datum.offset_mm;",
    'val pass = if (centsFlat > 25) "split" else "single"',
    "visit.confirmed_at = Time.now unless piano.humidity_high?",
    "alert.level = surgeMm > 600 ? 'red' : 'amber';",
    "$press['yield'] = $press['litres'] / max(1, $press['kg']);",
    "rows = Enum.chunk_every(pickers, 4)",
    "var gap = airlift.Window.End - forecast.CloudBaseAt;",
    "final drift = readings.last.levelMm - survey.levelMm;",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "{err} class file location",
        "which source file has the class body for {T}? the import in {path} points somewhere odd",
        "were is {fn} definded at, grep gives me too manny hits",
        '{{"action": "goto_definition", "name": "{qual}", "open_in_editor": true}}',
        "@agent please locate where {err} is declared and paste me its path and line, no edits",
        "pub const {T} = struct {{\nzig: which file is this struct declared in? build.zig pulls in a lot of modules",
        "class {T} extends ChangeNotifier {{\ndart -- where is this class defined? there's a generated copy too and "
        "I want the hand-written one",
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.{Fn}(...)\n\t{path}:{n} +0x1b4\n\nwhere is {Fn} defined? "
        "that path is a vendored copy",
        "{err}: {msg}\n\tat {qual}({T}.kt:{n})\n\nopen the declaration of {qual}, the kotlin one not the java bridge",
        "so I've got {topic} checked out and there's this {T} thing everywhere in the type hints, but jumping to it "
        "lands me in a stub file, and honestly I just need the actual file and line where the class is written out "
        "so I can read its fields",
        "[lint-bot] unresolved reference {fn} in {path}; where is it declared, so the import can be fixed?",
        "chore: drop the local copy of {fn}\n\nwhere's the canonical definition we should import from?",
        "val {fn} : {T}.t -> unit\nocaml: this is the .mli signature, where's the implementation in the .ml?",
        "def self.{fn}(order)\nruby: in which file is this class method defined? there are two monkeypatches",
        "source of {fn}?",
        "extension {T} {{\n    func {fn}() {{ }}\n}}\nswift: where's the original type declared, not this extension?",
    ],
    "find_references": [
        "{fn} callers list",
        "which handlers end up invoking {qual} during a normal request?",
        "whoe calls {fn} anymore, my editor shows no callers but i dont trust it",
        '{{"op": "references", "symbol": "{T}", "scope": "workspace", "kinds": ["call", "import"]}}',
        "@agent enumerate every file that imports {path} and tell me which functions from it they use",
        "abstract class {T} {{\n  void {fn}();\n}}\ndart: which classes extend or implement this? include mixins",
        "trait {T} {{\n    fn {fn}(&self) -> Result<(), Error>;\n}}\nrust: list every impl of this trait in the "
        "workspace",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n{err}: {msg}\n\nwho else calls '
        "{fn}? this traceback is from a cron job but I bet the web side calls it too",
        "[2024-11-30 22:{n}:07] WARN {ecode} raised from {qual}\n\nlist the other callers of {qual}, not just the "
        "one in this log line",
        "type {T}Store interface {{\n\t{Fn}(ctx context.Context) error\n}}\ngo: which structs satisfy this interface?",
        "my manager asked how many places in {topic} call {fn} directly, and before I answer I need the full list "
        "of spots that call it or pass it around as a callback, across every service in the repo",
        "[review-bot] usages of {fn} exist outside {path}; please enumerate each of them in this thread",
        "perf: memoize {fn}\n\nwhere is it called from in hot loops? need the call sites",
        "case class {T}(id: Long)\nscala: where is {T} constructed or pattern-matched on?",
        "every import of {T} pls",
        "does any test call {fn}",
    ],
    "impact_analysis": [
        "{T} change fallout",
        "what stops working if {path} is deleted outright?",
        "if i make {fn} async what do i have to fix evrywhere",
        '{{"task": "impact", "change": "remove parameter", "symbol": "{qual}", "depth": 3}}',
        "@agent before you rename {T} to {T}V2, work out which modules and tests would break and list them; "
        "don't rename yet",
        "data class {T}(val id: String, val grams: Int)\nkotlin: if grams becomes a Double, which call sites and "
        "serializers break?",
        "pub fn {fn}(&mut self) -> Option<u32>\nrust: switching this to return Result, what fails to compile "
        "across crates?",
        "thread 'main' panicked at {path}:{n}:17:\n{msg}\n\nwe're turning this panic into an {err} return value; "
        "which callers then have to handle it?",
        "Unhandled exception. {err}: {Msg}\n   at {qual}() in {path}:line {n}\n\nif {fn} swallows this instead "
        "of throwing, what downstream behaviour changes?",
        "int {fn}(const {T}& t);\nc++: changing this to take a pointer, what has to change elsewhere?",
        "we are planning to retire {T} in {topic} over the next sprint, and I need a rough inventory of everything "
        "that would be affected, reports, background jobs, api responses, whatever, so we can sequence it without "
        "breaking things for the people who use it every morning",
        "[ci-bot] {path} changed in this PR; affected targets and test suites follow, please confirm none are missing",
        "perf!: make {fn} return a lazy iterator\n\nBREAKING CHANGE: which callers rely on it being a list?",
        "export function {fn}(x: {T}): void\nts: if this becomes async, what in the codebase needs an await added?",
        "risk of changing {fn} signature",
        "can i safely delete {err} or would something fall over",
    ],
    "exact_match": [
        "// note to self: grep every file holding the string {ecode} verbatim, vendored ones too",
        "which files contain the exact phrase {msg}?",
        "grep {ecode} evrywhere incl migrations",
        '{{"cmd": "search", "pattern": "{ecode}", "mode": "literal", "case_sensitive": true}}',
        '@agent run a verbatim search for "{Msg}" and list file:line for each hit',
        'panic: {ecode}: {msg}\n\ngoroutine 12 [running]:\n{path}:{n}\n\nfind the line where that exact "{ecode}: '
        '{msg}" text is built',
        "Error: {Msg}\n    at Object.<anonymous> ({path}:{n}:3)\n\nsearch the source for that message character "
        "for character",
        "11:{n}:12.481 [main] ERROR {T} - {ecode} {msg}\n\nwhere is this log text written? exact match on the words",
        "E       {err}: {msg}\n\npytest output; grep for the message as-is, it might be in a fixture",
        "rg -F '{Msg}' across every package, or at least the main app",
        "need every occurrence of the token {fn}_v2 spelled exactly, not fuzzy, including comments",
        "[lint-bot] hard-coded string '{msg}' found; list every file containing this exact literal so it can be "
        "moved to the messages catalogue",
        "i18n: extract '{Msg}'\n\nwhere does this exact sentence appear right now?",
        "somebody from {topic} forwarded me a screenshot where the screen says {ecode} and then {msg}, and I'd "
        "like the precise place where that code and text sit in the source, matched literally, because the fuzzy "
        "search keeps giving me related stuff",
        "regex `{ecode}[^0-9]` in *.go and *.rs",
        'exact hits for "{msg}" only',
    ],
    "understand_code": [
        "{fn} walkthrough pls",
        "how does {T} decide when it's finished?",
        "what is {qual} doing, the naming is confusign",
        '{{"intent": "explain", "target": "{path}", "audience": "new contributor"}}',
        "@agent summarise in plain words what {fn} does step by step; don't touch the code",
        "{body}\n\nwalk me through this, what is each branch for?",
        "{code}\n\nwhat does this line actually decide? the names don't help",
        "{snippet}\n\nwhy is it written this way rather than one query?",
        "fn {fn}(allocator: std.mem.Allocator) !void\nzig: what does the ! mean here and who frees what?",
        "case {fn}(order) do\n  {{:ok, _}} -> :noop\n  {{:error, _}} = e -> e\nend\nelixir: what does this "
        "return path actually do?",
        'Exception in thread "scheduler" {err}: {msg}\n\tat {qual}({T}.java:{n})\n\nwhy would this be thrown on a '
        "scheduled run but never when I run it by hand?",
        "{fn} :: {T} -> Either String {T}\n{fn} = traverse check . normalise\nhaskell: how does this pipeline work, "
        "step by step?",
        "[review-bot] the purpose of {fn} is unclear from the diff; could the author describe how it works and "
        "when it runs?",
        "docs: describe how {T} moves between states\n\nwhat are the states and what triggers each move?",
        "newbie here, I just started helping with {topic} and I'm reading {path} for the first time; could someone "
        "explain what it's responsible for and what actually happens in the code when {event}",
        "why {fn} sleeps before retrying",
    ],
    "find_similar": [
        "{fn} near-dupes",
        "is there already code that can {task}, maybe under another name?",
        "anythign else that looks like {fn}? pretty sure someone wrote it twice",
        '{{"tool": "clone_detect", "snippet_of": "{qual}", "threshold": 0.75, "cross_language": true}}',
        "@agent scan the other services for code doing what {path} does and list the closest matches",
        "{body}\n\nhave we got other functions with this same shape? want to dedupe",
        "{snippet}\n\nwhere else do we filter like this? probably worth a shared helper",
        "{code}\n\nsame one-liner copied around? list them",
        "let {fn} xs = List.filter (fun x -> x.due) xs |> List.hd\nocaml: other places doing filter-then-head "
        "like this?",
        "fun {fn}(items: List<{T}>) = items.filter {{ it.active }}.sortedBy {{ it.rank }}\nkotlin: find similar "
        "filter/sort pipelines",
        "Future<List<{T}>> {fn}() async => (await repo.all()).where((x) => x.open).toList();\ndart: anything else "
        "that does load-then-filter this way?",
        "i keep seeing almost the same retry-with-backoff code in {topic}, once in go, once in python, probably "
        "more, and i'd like someone to dig up every variant of it so we can pick one and delete the rest",
        "[review-bot] new function {fn} resembles existing helpers; list near-duplicates so we can consolidate",
        "chore: dedupe {T} formatting\n\nfind every function that formats a {T} roughly the same way",
        "{qual} twins across services",
        "<?php function {fn}(array $rows) {{ return array_values(array_filter($rows, fn($r) => $r['open'])); }}\n"
        "php: same filter pattern elsewhere?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fortyseventh", seed=4747)

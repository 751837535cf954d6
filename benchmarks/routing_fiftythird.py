"""A fifty-third held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fiftysecond.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by
another hand than the change, in one sitting, from the layout of ``routing_fiftysecond.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the fifty-second's was reworded,
and no classifier, router or model was asked about any of its phrasings while they were written. It keeps
the usual spread of voices, spread evenly over the six intents: two- and three-word keyword queries and long
rambling ones, misspellings, lowercase chat, questions and orders, tool calls written as JSON, requests to a
coding agent, docs-bot, deprecation-bot, api-bot, i18n-bot, clone-bot and onboarding-bot comments, commit
messages, pasted output (Go panics, Python tracebacks and log lines, Java and C# exceptions, a Node stack,
a Ruby NameError, an Elixir error, Swift fatal errors, Rust, TypeScript and C++ compiler and linker
errors, glog-style log lines) with a line of words under it, and declarations and snippets pasted as typed in
Go, Rust, Kotlin, Java, Python, Swift, C#, TypeScript, JavaScript, Ruby, PHP, C++, Scala, Elixir, Haskell,
OCaml, Zig, Dart and SQL. About half its templates are plain questions with nothing pasted; the other half
are pasted things with a question under them: declarations asking where they are declared, who calls,
implements, extends or derives from them, what breaks if they change, what resembles them, or what they
mean; and pasted output asking where the named code or error class is declared, who else calls or throws
it, what a change to it would break, where its exact text is written, or why it happens. The label is
always what the asker wants, not which words appear.
Four templates met another set's (``test_intent_model``): two short keyword queries (one of them also sat
inside a training template), a grep tool call written as JSON and a pasted line asking what it is for; each
was replaced by one of another shape, not reworded. No filler met another set's or a training filler. A
script that printed only this set's own colliding templates picked them out; no other set's templates or
fillers were read for it.

Its slot fillers come from five domains, and no filler is another set's: a bell foundry's tuning shop
(tuning-lathe cuts, partial readings, hum-note offsets, sound-bow chamfers), a peat-cutting cooperative
(bank allocations, turf-stack footings, sod-cart weighings), a lighthouse-keeping service (lamp-wick
trimming, lens-rotator clockwork, fog-signal schedules), a tidal-mill restoration crew (millstone furrow
dressing, sluice-gate settings, tide-pond head logs) and a sled-dog kennel (team harnessing, paw-pad
inspections, run mileage). None is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "cut_bell_tuning_pass",
    "chamferSoundBow",
    "log_hum_note_offset",
    "allot_peat_bank_face",
    "stackTurfFooting",
    "weigh_sod_cart_load",
    "trim_lantern_wick",
    "windLensRotatorClock",
    "sound_fog_signal_blast",
    "dress_millstone_furrows",
    "setSluiceGateOpening",
    "record_tide_pond_head",
    "harness_sled_dog_team",
    "inspectPawPadWear",
    "tally_kennel_run_miles",
]
_TYPES = [
    "BellPartialReading",
    "SoundBowChamferCut",
    "TuningLatheSetup",
    "PeatBankAllocation",
    "TurfStackFooting",
    "SodCartWeighing",
    "LanternWickTrim",
    "LensRotatorWinding",
    "FogSignalSchedule",
    "MillstoneFurrowDressing",
    "SluiceGateSetting",
    "TidePondHeadLog",
    "DogTeamHarnessing",
    "PawPadInspection",
    "KennelRunMileage",
]
_ERRORS = [
    "BellHumNoteFlatError",
    "SoundBowOverCutException",
    "TuningLatheChatterError",
    "PeatBankOvercutError",
    "TurfStackSlumpException",
    "SodCartOverloadError",
    "LanternWickSootError",
    "LensRotatorStallException",
    "FogSignalMissedError",
    "MillstoneFurrowWornError",
    "SluiceGateSeizedException",
    "TidePondUnderfilledError",
    "HarnessTuglineSnapError",
    "PawPadCrackedException",
    "KennelRunOverdistanceError",
]
_MESSAGES = [
    "hum note sits more than twenty cents flat of the strike note after the last lathe pass",
    "sound bow chamfer cut deeper than the bell's profile drawing allows",
    "tuning lathe chattered while the cutter was still on the inside of the waist",
    "peat bank face cut past the marker peg into a neighbour's allocation",
    "turf stack footing slumped before the sods had dried for a week",
    "sod cart weighed heavier than the bog track's axle limit",
    "lantern wick trimmed unevenly and the mantle glass sooted within an hour",
    "lens rotator clockwork stopped before the keeper's next winding was due",
    "fog signal blast skipped a beat in the station's published character",
    "millstone furrows worn below the dressing depth on the runner stone",
    "sluice gate seized at half opening while the tide pond was emptying",
    "tide pond head logged lower than the mill wheel needs to turn",
    "tugline snapped at the harness ring on the first hill of the run",
    "paw pad cracked on a dog that was cleared to run the same morning",
    "kennel run mileage for one dog exceeded its weekly cap",
]
_ERROR_CODES = [
    "BELL-6120",
    "E_HUM_FLAT",
    "PEAT-2391",
    "E_BANK_OVERCUT",
    "LHK-8075",
    "E_ROTATOR_STALL",
    "MILL-4416",
    "E_SLUICE_SEIZED",
    "SLED-7703",
    "E_TUGLINE_SNAP",
    "FOG-1958",
    "E_PAD_CRACKED",
]
_PATHS = [
    "bellfoundry/tuning/partial_reading.py",
    "bellfoundry/lathe/TuningLathe.java",
    "bellfoundry/profiles/sound_bow.go",
    "peatcoop/banks/bank_allocation.rs",
    "peatcoop/stacks/TurfFooting.kt",
    "peatcoop/carts/sod_weighing.ex",
    "lighthouse/lamps/wick_trim.rb",
    "lighthouse/optics/LensRotator.swift",
    "lighthouse/fog/fogSchedule.ts",
    "tidemill/stones/furrow_dressing.cpp",
    "tidemill/sluices/SluiceGate.cs",
    "tidemill/pond/head_log.ml",
    "sledkennel/harness/team_harness.php",
    "sledkennel/health/PawPadCheck.scala",
    "sledkennel/runs/run_mileage.dart",
    "sledkennel/roster/dog_roster.zig",
]
_TOPICS = [
    "lathe tuning passes and partial readings in the bell foundry's tuning shop",
    "hum-note offsets and sound-bow chamfers for the bell tuners",
    "bank allocations and turf-stack footings at the peat-cutting cooperative",
    "sod-cart weighings on the bog track for the peat cutters",
    "lantern-wick trimming and lens-rotator winding for the lighthouse keepers",
    "fog-signal schedules at the lighthouse-keeping service",
    "millstone furrow dressing for the tidal-mill restoration crew",
    "sluice-gate settings and tide-pond head logs at the tidal mill",
    "team harnessing and paw-pad inspections at the sled-dog kennel",
    "run mileage and rest days for the kennel's sled dogs",
]
_TASKS = [
    "work out how much metal to take off a bell's waist to bring its hum note true",
    "decide from the partial readings whether a bell needs another pass on the tuning lathe",
    "share the peat banks among cooperative members so that nobody's face runs into a neighbour's",
    "estimate how many sod-cart trips a member's season of cutting needs",
    "schedule lens-rotator windings so that no keeper's watch misses one",
    "predict from the tide tables how long the mill can grind on a filled pond",
    "pair sled dogs into teams by pace and pad condition",
    "cap each dog's weekly run mileage from its age and recent rest days",
]
_EVENTS = [
    "the tuning lathe's cutter snaps mid-pass on a tenor bell",
    "a turf stack slumps over onto the bog track",
    "the lens rotator clockwork stops in the middle of a storm",
    "the fog signal compressor trips out at dusk",
    "the sluice gate jams open on a falling tide",
    "a sled-dog team's gangline parts on a downhill run",
]
_SNIPPETS = [
    "flat = [r.bell_no for r in readings if r.hum_cents < -20 and r.pass_no >= 3]",
    "for _, b := range banks {\n\tif b.FaceM > b.AllottedM {\n\t\tovercut = append(overcut, b.MemberID)\n\t}\n}",
    "let late: Vec<&str> = windings\n    .iter()\n    .filter(|w| w.minutes_since > w.run_minutes)\n"
    "    .map(|w| w.station.as_str())\n    .collect();",
    "List<Integer> worn = stones.stream()\n    .filter(s -> s.getFurrowMm() < s.getMinFurrowMm())\n"
    "    .map(Stone::getNumber)\n    .toList();",
    "let sore = dogs.filter { $0.padScore >= 3 }.map(\\.name)",
    "carts.select { |c| c.kg > track.axle_limit_kg }.map(&:cart_no)",
    "const lowPonds = logs\n  .filter((l) => l.headCm < l.wheelMinCm)\n  .map((l) => l.loggedAt);",
    "var overRun = runs\n    .Where(r => r.WeekMiles > r.CapMiles)\n    .Select(r => r.DogName)\n    .ToList();",
    "val sootiest = wicks.groupBy { it.station }.mapValues { (_, ws) -> ws.maxOf { it.sootMg } }",
    "SELECT member_id, SUM(face_m) AS metres_cut\nFROM peat_bank_allocation\nWHERE season = 2024\nGROUP BY member_id;",
]
_BODIES = [
    "def cents_off(hum_hz, strike_hz):\n    return 1200 * math.log2(hum_hz / (strike_hz / 2))",
    "func sodTrips(cutM3, cartM3 float64) int {\n\treturn int(math.Ceil(cutM3 / cartM3))\n}",
    "fn gate_open_cm(head_cm: u32, tide_cm: u32) -> u32 {\n    head_cm.saturating_sub(tide_cm) / 3\n}",
    "fun windingDue(lastWoundMin: Int, runMin: Int): Boolean = lastWoundMin + runMin - 15 <= 0",
    "fn weeklyCap(ageYears: u8, restDays: u8) u16 {\n    return if (ageYears > 8) 40 else 60 + restDays * 5;\n}",
    "double chamferDepth(double lipMm) {\n  return lipMm * 0.18 + 1.2;\n}",
    "function blastPattern(seconds) {\n  return seconds.map((s, i) => (i % 2 ? -s : s));\n}",
    "function footingOk(int $dryDays, float $slopeDeg): bool {\n    return $dryDays >= 7 && $slopeDeg < 4.0;\n}",
    "def grindMinutes(pondM3: Double, flowM3PerMin: Double): Int = (pondM3 / flowM3PerMin).toInt",
    "let furrow_left depth wear_per_day days = depth -. wear_per_day *. float_of_int days",
]
_CODE_LINES = [
    "bell.retune = bell.hum_cents < -20 or bell.prime_cents > 15",
    "if bank.FaceM > bank.AllottedM { return errBankOvercut }",
    "let stalled = rotator.rpm < 0.5 && rotator.wound_minutes_ago < 90;",
    'val verdict = if (stone.furrowMm in 3..6) "dressed" else "redress"',
    "dog.bench! if dog.pad_score >= 3 || dog.week_miles > dog.cap_miles",
    "gate.state = pond.headCm > wheel.minCm ? 'open' : 'shut';",
    "$cart['over'] = $cart['kg'] > $track['axle_limit_kg'];",
    "stacks = Enum.filter(stacks, &(&1.dry_days >= 7))",
    "var missed = signal.LastBlastAt < now.AddSeconds(-signal.PeriodS);",
    "final snapped = line.peakNewtons > line.ratedNewtons;",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "{qual} declaration site",
        "I'm new on the {topic} code and {T} gets passed through every handler I open, but nobody on the team "
        "remembers where the class itself lives; could you point me at the file that declares it?",
        "cant locaet wher {T} gets defind",
        '{{"action": "goto_definition", "symbol": "{qual}"}}',
        "hey agent, no edits please: open the source file that defines {fn} and quote its signature with the path",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in <module>\n    from .models import {T}\n'
        "ImportError: cannot import name '{T}' from partially initialized module\n\nwhere is {T} really "
        "declared now?",
        "System.TypeLoadException: Could not load type '{T}' from assembly 'Works.Core'.\n   at {qual}()\n\n"
        "which project in the solution declares {T}?",
        "{path}({n},5): error TS2304: Cannot find name '{T}'.\n\nwhere's the type {T} defined, so I know what "
        "to import?",
        "let reading: {T} = .init()\nswift: cmd-click on {T} does nothing. which file declares that struct?",
        "I0314 09:{n}:11.402    88 {path}:{n}] {fn} returned early\n\ntake me to the body of {fn}",
        "[docs-bot] {T} has no doc comment where it is declared. Which file declares it, so one can be added?",
        "chore: move {T} into the shared package\n\nwhere was it defined before the move? need the declaring file",
        "in the {topic} code, which file holds the actual def of {fn}? my grep only turns up calls",
        "undefined reference to `{qual}()'\ncollect2: error: ld returned 1 exit status\n\nthe header declares "
        "{qual} but where is its body defined?",
        "{path}:{n}:in `{fn}': uninitialized constant {T} (NameError)\n\nwhich file defines the {T} class?",
        "use crate::works::{T};\nrust: which module declares {T}? rust-analyzer only shows me this use line",
    ],
    "find_references": [
        "{fn} xrefs, prod code only",
        "before I switch the units in {fn} from metres to feet I want to see every single caller, the nightly "
        "cron scripts and the notebooks in the analysis folder included, so I can check what each one passes in",
        "whos calling {fn} anywere?",
        '{{"query": "references", "symbol": "{T}", "scope": "workspace"}}',
        "@agent read-only task: list every module that calls {qual}, grouped by service, with line numbers",
        "func (s *{T}) {Fn}() error\ngo: where is this method called from?",
        "sealed class {T} {{\n    abstract fun {fn}(): Boolean\n}}\nkotlin: which classes extend {T}?",
        "pub trait {T} {{\n    fn {fn}(&self) -> u32;\n}}\nrust: list the impls of {T} in the workspace",
        "{err}: {msg}\n\tat {qual}({T}.java:{n})\n\nwho else throws {err}? I want all the throw sites",
        "Error: {msg}\n    at {fn} ({path}:{n}:7)\n    at process.processTicksAndRejections "
        "(node:internal/process/task_queues:95:5)\n\nwhich modules call {fn}? the trace stops at the event loop",
        "class {T} : public Base {{ public: virtual void {fn}() = 0; }};\nc++: which classes derive from {T}?",
        "interface {T} {{ public function {fn}(): void; }}\nphp: which classes implement {T}?",
        "[deprecation-bot] {qual} is marked deprecated. List the call sites that still use it.",
        "chore: inline {fn}\n\nneed every caller before I inline it",
        "someone working on {topic} asked me how widely {T} is used, and honestly I have no idea; could you find "
        "the places that read or write a {T} and show me where they are",
        "2024-05-{n} 11:02:33 WARNING {path} {fn}: {msg}\n\nfind everything that calls {fn}; I need to know "
        "which job produced this line",
    ],
    "impact_analysis": [
        "{fn} signature change fallout",
        "we're splitting {T} into two smaller classes because it has grown far too big, and before the design "
        "review I want a list of the modules, tests and serialized payloads that would have to change with it",
        "waht breks if {fn} gets removed",
        '{{"task": "impact", "symbol": "{qual}", "proposed": "rename"}}',
        "agent: without editing anything, report which packages would fail to build if {path} moved to a new module",
        "export interface {T} {{ id: string; at: Date }}\nts: if `at` becomes optional, which consumers need updating?",
        "func {Fn}(ctx context.Context, id string) (*{T}, error)\ngo: if this returns a value instead of a "
        "pointer, what breaks?",
        "data class {T}(val id: Long, val label: String)\nkotlin: if label becomes nullable, which call sites "
        "stop compiling?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n{err}: {msg}\n\nif we make '
        "{fn} log {err} and carry on instead, which callers relied on the exception?",
        "error[E0061]: this function takes 3 arguments but 2 arguments were supplied\n --> {path}:{n}:5\n\nif "
        "that third parameter is added to {fn} for good, which crates have to follow?",
        "System.InvalidOperationException: {Msg}\n   at {qual}() in {path}:line {n}\n\nwe want {fn} to return "
        "null here instead of throwing; what downstream code is affected?",
        "ALTER TABLE readings RENAME COLUMN recorded_at TO logged_at;\nsql: which queries and the code behind "
        "{T} would break after this migration?",
        "[api-bot] this PR removes the default for the `limit` argument of {qual}. Which callers are affected?",
        "refactor!: {T} is now immutable\n\nwhich code mutates it and will break?",
        "the {topic} people want the timeout on {fn} raised from five seconds to sixty, and I'm worried about "
        "knock-on effects; which retries, queues and dashboards depend on it finishing quickly?",
        "case class {T}(id: Long, notes: List[String])\nscala: switching notes to Vector - what is affected?",
    ],
    "exact_match": [
        "{ecode} exact string hits",
        "compliance asked for every file that spells out {ecode} literally, in code, configs, SQL migrations "
        "and docs, and they were clear that near misses with other digits don't count",
        "grep exacly {err} pls, whole word onlly",
        '{{"cmd": "search_text", "query": "{ecode}", "regex": false, "whole_word": true}}',
        "@agent find every occurrence of the literal text '{msg}' and print path:line for each, nothing fuzzy",
        "WARNING:root:{ecode} {msg}\n\nwhich line of code prints this exact text?",
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.main()\n\t{path}:{n} +0x1d\n\nfind that exact panic "
        "string in the source",
        'fatalError("{Msg}")\nswift: is the same literal used anywhere else?',
        'throw new {err}("{ecode}");\nc#: every identical throw in the solution?',
        "logger.error('{ecode}: {msg}')\nts: find this exact log call elsewhere",
        'Err(anyhow!("{msg}"))\nrust: where else does this exact message appear?',
        "** (RuntimeError) {msg}\n\nsearch for the literal message in the elixir code",
        "[i18n-bot] hard-coded string '{Msg}' found. List every file containing it exactly.",
        "docs: drop mentions of {ecode}\n\nneed every literal occurrence first",
        "a customer forwarded a screenshot that says '{Msg}' and I have to find the spot that renders those "
        "words; search for that sentence verbatim, not paraphrases",
        "'{err}' literal search, case-sensitive",
    ],
    "find_similar": [
        "{T} clones across services",
        "I just wrote {fn} for {topic} and only afterwards wondered whether a helper doing the same calculation "
        "already exists somewhere else; find me functions that look like it or do the same job",
        "anythign simlar to {fn} in the codebase",
        '{{"op": "similar_code", "target": "{path}", "limit": 8}}',
        "agent, scan for functions whose logic overlaps with {qual} and list the closest five, no changes",
        "{body}\n\nis there a twin of this somewhere?",
        "{snippet}\n\nanything else in the repo filtering like this?",
        "{code}\n\nlook for lines doing the same comparison",
        "def {fn}(items):\n    return sorted(items, key=lambda i: i.at)[-1]\npython: other latest-item "
        "helpers like this?",
        "static Map<String, Long> {fn}(List<{T}> xs) {{\n    return xs.stream().collect(Collectors.groupingBy("
        "{T}::key, Collectors.counting()));\n}}\njava: other counting-by-key streams?",
        "def {fn}(xs) = xs.sum(&:weight) / xs.size.to_f\nruby: similar averaging methods anywhere?",
        "{fn} :: [{T}] -> Maybe {T}\n{fn} = listToMaybe . sortOn rank\nhaskell: similar pickers elsewhere?",
        "[clone-bot] {path} shares 64 lines with another file. Find the files it resembles.",
        "feat: add {fn}\n\nbefore merging, check whether a similar helper already exists",
        "I've been asked to {task}; surely something in {topic} already does a calculation close to this, so "
        "point me at comparable functions I could adapt",
        "int {fn}(List<{T}> xs) => xs.where((x) => x.ok).length;\ndart: other counters written like this?",
    ],
    "understand_code": [
        "{qual} purpose",
        "I keep staring at {fn} and can't see why it sleeps for a random interval before retrying instead of "
        "retrying right away; what's the idea behind that?",
        "can sombody explian {fn} to me",
        '{{"request": "explain", "target": "{path}", "audience": "new hire"}}',
        "@agent describe in a few sentences what {qual} does and what it returns; just read, don't edit",
        "{body}\n\nwhat is this calculating?",
        "{snippet}\n\nwalk me through this line by line",
        "{code}\nreviewer here: I don't get the intent of this line. is it guarding against something?",
        "panic: assignment to entry in nil map\n\ngoroutine 12 [running]:\n{qual}(...)\n\t{path}:{n} +0x88\n\n"
        "why is the map still nil when {fn} writes to it?",
        "Traceback (most recent call last):\n  File \"{path}\", line {n}, in {fn}\nKeyError: 'reading_at'\n\n"
        "why would that key be missing? what does {fn} expect its input to look like?",
        "System.ObjectDisposedException: Cannot access a disposed object.\n   at {qual}() in {path}:line {n}\n\n"
        "explain the lifetime here: why is it already disposed when {fn} uses it?",
        "Fatal error: Index out of range\n{path}:{n}\n\nwhat does {fn} assume about the array that stops holding here?",
        "[onboarding-bot] a new contributor asked what {T} is for. Please summarise its role.",
        "docs: comment {fn}\n\nwhat does it actually do? explain it so I can write the comment",
        "yesterday {event}, and I'd like to understand what the {topic} code does in response: which steps run, "
        "in what order, and why",
        "def {fn}(xs), do: Enum.chunk_every(xs, 3, 1, :discard)\nelixir: what's the point of the chunking "
        "arguments here?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fiftythird", seed=5353)

"""A fiftieth held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fortyninth.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by
another hand than the change, in one sitting, from the layout of ``routing_fortyninth.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the forty-ninth's was reworded,
and no classifier, router or model was asked about any of its phrasings while they were written. It keeps the
usual spread of voices, spread evenly over the six intents: two- and three-word keyword queries and long
rambling ones, misspellings, lowercase chat, questions and orders, tool calls written as JSON, requests to a
coding agent, review-bot, lint-bot and CI-bot comments, commit messages, pasted output (Go panics, Python
tracebacks, Java and C# exceptions, a Rust panic, a Node stack, Go, Rust and TypeScript compiler errors, a
mypy report, timestamped and logfmt log lines) with a line of words under it, and declarations and snippets
pasted as typed in Go, Rust, Kotlin, Java, Python, Swift, C#, TypeScript, Ruby, PHP, C++, Scala, Elixir,
Haskell, OCaml, Zig and Dart. About half its templates are plain questions with nothing pasted; the other
half are pasted things with a question under them: declarations asking where they live, who implements,
extends, overrides or matches on them, what breaks if they change, what looks like them, or what they do;
and pasted output asking where the named code is declared, who else calls it, who must handle the error once
it changes, where its text is written, or why it happens. The label is always what the asker wants, not
which words appear.
One template met another set's (``test_intent_model``) and was replaced by one of another shape, not
reworded; none met a training template. Four fillers met another set's and were renamed; none met a training
filler. A script that printed only this set's own colliding templates and fillers picked them out; no other
set's templates or fillers were read for it.

Its slot fillers come from five domains, and no filler is another set's: a cheese-ageing cave (wheel
turnings, rind washes, cave humidity probes, ripening lots), a glassblowing studio (furnace charges,
annealer ramps, gather weights, glory-hole bookings), a falconry centre (mews weighings, jess fittings,
lure flights, hood sizing), a canal lock-keeper's office (lock cycles, pound water levels, narrowboat
passages, paddle gear) and a pipe-organ restoration workshop (flue-pipe voicing, wind-chest releathering,
stop actions, tuning rounds). None is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "turn_cheese_wheel",
    "scheduleBrineRindWash",
    "read_cave_humidity_probe",
    "charge_glass_furnace",
    "rampAnnealerCycle",
    "weigh_glass_gather",
    "log_falcon_weighing",
    "fitJessPair",
    "recordLureFlight",
    "cycle_canal_lock",
    "readPoundLevelGauge",
    "log_narrowboat_passage",
    "voice_flue_pipe",
    "releatherWindChest",
    "schedule_tuning_round",
]
_TYPES = [
    "CheeseWheelTurning",
    "BrineRindWashRota",
    "AffinageLotRecord",
    "FurnaceChargeBatch",
    "AnnealerRampProfile",
    "GloryHoleReheatSlot",
    "MewsWeighingEntry",
    "FalconHoodSizing",
    "LureFlightLog",
    "LockCycleTicket",
    "PoundWaterLevel",
    "NarrowboatPassage",
    "PipeVoicingNote",
    "WindChestReleathering",
    "OrganStopActionFault",
]
_ERRORS = [
    "CheeseWheelUnturnedError",
    "RindWashOverdueException",
    "CaveHumidityOutOfBandError",
    "FurnaceChargeTooWetException",
    "AnnealerRampTooSteepError",
    "GatherWeightMismatchError",
    "FalconUnderFlyingWeightException",
    "JessFittingLooseError",
    "LureFlightAbortedException",
    "LockPaddleJammedError",
    "PoundLevelTooLowException",
    "PassageOutOfHoursError",
    "PipeSpeechUnstableException",
    "WindChestLeakError",
    "StopActionStickingException",
]
_MESSAGES = [
    "wheel marked as turned twice on the same shelf in one morning",
    "rind wash logged for a lot that left the cave last week",
    "humidity probe reads above one hundred percent in the washed-rind room",
    "furnace charge weighed more cullet than the batch recipe allows",
    "annealer ramp drops faster than the thickest piece can tolerate",
    "gather weight recorded before the blowpipe left the glory hole",
    "falcon flown below her flying weight without a keeper's note",
    "jess pair fitted to a bird already wearing a pair",
    "lure flight logged for a hawk that was in the moult aviary",
    "lock cycled with both paddles open on the same gate",
    "pound level below the sill of the upper gate",
    "narrowboat passage booked after the lock was padlocked for the night",
    "flue pipe voiced sharper than the tuning slide can correct",
    "wind chest releathered with leather thinner than the pallet spec",
    "stop action reported sticking on a stop that has no action fitted",
]
_ERROR_CODES = [
    "AFF-2817",
    "E_RIND_LATE",
    "CAVE-0443",
    "GLS-7721",
    "E_ANNEAL_RAMP",
    "HAWK-3094",
    "E_JESS_LOOSE",
    "LOCK-5186",
    "E_SUMMIT_POUND_DRAWDOWN",
    "ORG-6602",
    "E_WIND_LEAK",
    "VOIC-1379",
]
_PATHS = [
    "affinage/turnings/wheel_turning.py",
    "affinage/washes/RindWash.kt",
    "affinage/probes/cave_probe.go",
    "hotshop/furnace/furnace_charge.rs",
    "hotshop/annealer/AnnealerRamp.swift",
    "hotshop/gathers/gather_weight.rb",
    "mews/weighings/MewsWeighing.java",
    "mews/jesses/jess_fitting.ex",
    "mews/flights/LureFlight.cs",
    "towpath/locks/lockCycle.ts",
    "towpath/pounds/pound_level.php",
    "towpath/passages/Passage.scala",
    "organworks/voicing/flue_voicing.cpp",
    "organworks/windchest/releather.zig",
    "organworks/stops/StopAction.hs",
    "organworks/tuning/tuning_round.dart",
]
_TOPICS = [
    "wheel turnings and rind washes in the cheese-ageing cave",
    "cave humidity probes and ripening lots for the affineur",
    "furnace charges and annealer ramps at the glassblowing studio",
    "gather weights and glory-hole bookings for the hot shop",
    "mews weighings and jess fittings at the falconry centre",
    "lure flights and hood sizing for the falconers",
    "lock cycles and pound water levels at the lock-keeper's office",
    "narrowboat passages and paddle gear on the canal flight",
    "flue-pipe voicing and wind-chest releathering in the organ workshop",
    "stop actions and tuning rounds for the organ restorers",
]
_TASKS = [
    "work out which cheese wheels are due a turn from the shelf and the days since the last one",
    "choose an annealer ramp from the thickest wall of a piece",
    "turn a falcon's morning weight into a go or no-go for the day's flying",
    "estimate how much water a run of lock cycles draws down from the summit pound",
    "queue narrowboat passages so that boats going the same way share a lock",
    "split a furnace charge between cullet and fresh batch by target colour",
    "plan a tuning round so that the pipes of one rank are done in one visit",
    "flag a ripening lot whose cave humidity stayed out of band for a whole day",
]
_EVENTS = [
    "a humidity probe in the cave drops off the network over a weekend",
    "the furnace crucible cracks in the middle of a charge",
    "a hawk comes back from a flight a long way under her weight",
    "a lock paddle jams half open with a boat in the chamber",
    "the summit pound falls below the gate sills during a dry spell",
    "a wind chest starts leaking during a recital",
]
_SNIPPETS = [
    "for _, w := range shelf.Wheels {\n\tif time.Since(w.LastTurned) > 48*time.Hour {\n"
    "\t\tdue = append(due, w.ID)\n\t}\n}",
    "late = [lot.code for lot in cave.lots if lot.humidity_pct > lot.max_humidity_pct]",
    "let hot: Vec<_> = charges\n    .iter()\n    .filter(|c| c.temp_c > 1150)\n    .map(|c| c.batch_no)\n"
    "    .collect();",
    "List<String> grounded = birds.stream()\n    .filter(b -> b.getWeightG() < b.getFlyingWeightG())\n"
    "    .map(Bird::getName)\n    .toList();",
    "let pending = passages.filter { !$0.cleared }.sorted { $0.bookedAt < $1.bookedAt }",
    "gathers.group_by(&:blower).transform_values { |gs| gs.sum(&:grams) }",
    "const lowPounds = readings\n  .filter((r) => r.levelMm < r.sillMm + 150)\n  .map((r) => r.poundId);",
    "var sticking = stops\n    .Where(s => s.Faults.Count(f => f.Kind == FaultKind.Sticking) > 2)\n"
    "    .Select(s => s.Name)\n    .ToList();",
    "final untuned = ranks.expand((r) => r.pipes).where((p) => p.centsOff.abs() > 3).toList();",
    "SELECT lock_id, COUNT(*) AS cycles\nFROM lock_cycles\nWHERE cycled_on = CURRENT_DATE\nGROUP BY lock_id;",
]
_BODIES = [
    "def days_to_ripe(weight_kg, target_days):\n    return max(0, target_days - int(weight_kg * 3))",
    "func annealMinutes(wallMm float64) int {\n\treturn int(wallMm*wallMm*2.5) + 30\n}",
    "fn cullet_kg(charge_kg: f32, ratio: f32) -> f32 {\n    (charge_kg * ratio).min(charge_kg * 0.6)\n}",
    "fun flyingMargin(weightG: Int, targetG: Int): Int = weightG - targetG",
    "fn lockWaterM3(lengthM: u32, widthM: u32, riseM: u32) u32 {\n    return lengthM * widthM * riseM;\n}",
    "double pipeLengthMm(double hz) {\n  return 343000.0 / (2.0 * hz);\n}",
    "function hoodSize(headMm) {\n  return headMm < 40 ? 'small' : headMm < 55 ? 'medium' : 'large';\n}",
    "function passageFee(int $lengthFt): int {\n    return $lengthFt <= 40 ? 8 : 12;\n}",
    "def washesPerWeek(age: Int): Int = if (age < 14) 3 else 1",
    "let cents_off target actual = 1200. *. Float.log2 (actual /. target)",
]
_CODE_LINES = [
    "wheel.needs_turn = (today - wheel.last_turned).days >= 2 and not wheel.resting",
    "if charge.MoisturePct > 0.5 { return errChargeTooWet }",
    "let ramp = (peak_c - strain_c) / piece.max_wall_mm.max(1.0);",
    'val status = if (bird.weightG < bird.flyingWeightG) "grounded" else "fly"',
    "flight.aborted = flight.lure_swings < 3 unless flight.weather_ok?",
    "lock.state = upperPaddle && lowerPaddle ? 'fault' : 'ok';",
    "$pound['deficit_mm'] = max(0, $pound['sill_mm'] - $pound['level_mm']);",
    "stops = Enum.reject(stops, & &1.disabled)",
    "var leaking = chest.PressureMm < chest.RatedPressureMm * 0.9;",
    "final drift = pipe.measuredHz - pipe.targetHz;",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "{fn} source location?",
        "which module owns the definition of {T}? the IDE offers me three candidates and I don't trust any of them",
        "cant find were {fn} is definde, help",
        '{{"op": "definition", "name": "{fn}", "lang": "any"}}',
        "agent: locate the class body of {T} and tell me its file and line; read-only, change nothing",
        'Exception in thread "main" {err}: {msg}\n\tat {qual}({T}.java:{n})\n\nopen the declaration of {err} '
        "for me, I need to see which constructors it has",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in <module>\n    from ledger import {T}\n'
        "ImportError: cannot import name '{T}'\n\nso which module defines {T} now?",
        "{path}:{n}:9: undefined: {Fn}\n\ngo build fails on this; which package declares {Fn} these days?",
        "impl {T} {{\n    pub fn {fn}(&mut self) {{\n        todo!()\n    }}\n}}\nrust: this is only an impl block, "
        "where is the struct {T} itself declared?",
        "public partial class {T} {{ }}\nc#: where's the other half of this partial class, the file with the fields?",
        '[ci-bot] mypy: Name "{T}" is not defined  [name-defined] at {path}:{n}. Which module defines {T}?',
        "2025-03-02 {n}:12:44 WARN [{fn}] {msg}\n\nthe log prefix names {fn}; take me to where it is defined",
        "I was reading the handover notes for {topic} and they mention {fn} in nearly every paragraph, but "
        "searching the repo only turns up calls to it, never the line where it is written; could you find the "
        "place it is actually defined",
        "defn of {qual}",
        "import {{ {T} }} from '../shared';\nts: the barrel only re-exports it, which file has the actual "
        "`export class {T}`?",
        "{fn} :: {T} -> IO ()\nhaskell: in which module is this defined? hoogle finds nothing local",
    ],
    "find_references": [
        "{fn} call sites, all of them",
        "which tests exercise {qual} directly? I want to know what covers it before I touch it",
        "lst all the places that raise {err} pls",
        '{{"command": "find_usages", "target": "{qual}", "include_tests": true}}',
        "agent: go through the repo and collect every import of {T}, grouped by directory; report only, no edits",
        "public abstract class {T} {{\n    protected abstract void {fn}();\n}}\njava: which subclasses override {fn}?",
        "type {T} interface {{\n\t{Fn}(ctx context.Context) error\n}}\ngo: which structs satisfy this interface?",
        "panic: {msg}\n\ngoroutine 12 [running]:\n{qual}(...)\n\t{path}:{n} +0x4a\n\nlist every caller of {qual}; "
        "I want to see which of them can hand it bad data",
        "{err} was unhandled\n  Message={Msg}\n  Source={T}\n  StackTrace: at {qual}()\n\nwhich code paths call "
        "{qual}? every one, please",
        "class {T}(Protocol):\n    def {fn}(self) -> None: ...\npython: which classes structurally implement "
        "this protocol?",
        "[review-bot] {T} is marked deprecated in this change; enumerate its remaining usages outside {path}",
        "refactor: make {fn} private\n\nwhich modules outside its own file still reach for it?",
        "we're splitting the monolith behind {topic} and my job is to draw the dependency arrows by hand, so for "
        "{T} I need every file that names it as a type, constructs it or passes it around, tests and migrations "
        "as well",
        "hey who even uses {err} anymore, like who catches it",
        "sealed class {T} {{\n    object Idle : {T}()\n}}\nkotlin: where are the when-expressions that match on {T}?",
        "trait {T} {{ def {fn}(): Unit }}\nscala: what mixes this trait in?",
    ],
    "impact_analysis": [
        "ok to drop the default on {qual}'s last arg? who gets hurt",
        "suppose {fn} started returning None when nothing is found instead of raising; what code would go wrong?",
        "if i delet {err} entirely whats gonna break",
        '{{"analysis": "change_impact", "target": "{T}", "change": "remove_field", "report": "summary"}}',
        "agent: before I cut the timeout in {fn} from thirty seconds to five, trace which jobs and endpoints depend "
        "on how it behaves now and write that up; don't change code",
        "type {T} struct {{\n\tID    string\n\tNotes string\n}}\ngo: if Notes turns into a *string, which "
        "marshalling and comparisons break?",
        "pub enum {T} {{\n    Open,\n    Closed,\n}}\nrust: adding a third variant here, which exhaustive matches "
        "stop compiling?",
        'Exception in thread "worker-3" {err}: {msg}\n\tat {qual}({T}.java:{n})\n\nplan is to make {err} a '
        "checked exception; which methods would then have to declare or catch it?",
        "{path}:{n}:11 - error TS2345: Argument of type 'string' is not assignable to parameter of type '{T}'.\n\n"
        "if I widen {T} to take strings to make this go away, what else does that loosen or break?",
        "void {fn}(String id, {{bool dryRun = false}})\ndart: if dryRun becomes required, which call sites fail?",
        "[lint-bot] {fn} exceeds the complexity limit. Before anyone splits it: what relies on its side effects?",
        "breaking: {fn} now takes a {T} instead of an id\n\nwhat needs updating because of this?",
        "our team wants to retire {path} while tidying up {topic}, and each time somebody tried before, something "
        "unexpected fell over in production a week later, so I'd like a careful look at what depends on that file "
        "directly or indirectly before we schedule it",
        'ts=2025-06-14T{n}:00:00Z level=warn fn={fn} msg="{msg}"\n\nwe want to turn this warning into an error '
        "that aborts the run; what would stop working?",
        "virtual void {fn}() const;\nc++: dropping the const from this virtual, which overrides and callers are hit?",
        "whats the ripple effect of changing {ecode} to a string",
    ],
    "exact_match": [
        "literal '{Msg}' occurrences",
        "where exactly does the code contain the token {ecode}? not similar codes, only that one",
        "serch for exactly '{msg}' pls, character for character",
        '{{"search": "{err}", "match": "exact", "case_sensitive": true, "include": ["**/*"]}}',
        "agent: run a fixed-string search for {ecode} and give me file:line for each hit, nothing else",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n{err}: {msg}\n\nwhere in the '
        'source is the string "{msg}" spelled out? I want the raise itself, not the callers',
        "thread 'worker' panicked at {path}:{n}:9:\n{msg}\n\ngrep the tree for that panic message verbatim",
        "[2025-11-03 {n}:07:15] CRIT {ecode} {Msg}\n\nfind the exact format string that emits this",
        'throw new {err}($"{ecode}: {{id}}");\nc#: find every interpolated string containing "{ecode}:" exactly',
        'return fmt.Errorf("{msg}: %w", err)\ngo: every Errorf with precisely that wording',
        '[review-bot] the phrase "{msg}" is duplicated; list each file containing it word for word',
        "fix: typo in the {ecode} message\n\nneed every spot that spells '{Msg}' exactly, so none is missed",
        "a customer of {topic} read '{msg}' off a printed slip, and support wants to know whether that wording "
        "comes from our code or from a template the printer vendor ships, so please find where that exact phrase "
        "appears, if anywhere",
        "throw new {err}('{Msg}');\nphp: exact occurrences of this line across the codebase",
        "where is `{ecode}` spelled out in the migrations, exact string only",
        "{err} exact string hits",
    ],
    "find_similar": [
        "code resembling {fn}",
        "we keep writing variations of {fn}; are there near-duplicates of it in other modules already?",
        "somthing similiar to {T} already exist?",
        '{{"tool": "similar_code", "query_symbol": "{qual}", "top_k": 5}}',
        "agent: compare {fn} against the rest of the repo and list functions with nearly the same structure, "
        "ranked by closeness",
        "{body}\n\nthis one's mine; does the repo already have something equivalent, maybe in another language?",
        "{snippet}\n\nlooking for other loops or queries of this shape elsewhere in the code",
        "{code}\n\nsame check written elsewhere? probably under a different variable name",
        "func {fn}(_ items: [{T}]) -> [{T}] {{\n    items.filter {{ $0.isActive }}\n}}\nswift: other filters "
        "of the same kind?",
        "def {fn}(list), do: Enum.group_by(list, & &1.day)\nelixir: other group_by helpers like this?",
        "[lint-bot] duplicate-code: {fn} shares 18 lines with another function. Which one, or which ones?",
        "wip: {task}\n\nsurely this exists already; find lookalikes before I push",
        "for {topic} I need to {task}, and I have a feeling a colleague wrote nearly the same routine last spring "
        "for a different team, so could you look for code that does something comparable, even if the names are "
        "totally different",
        "def {fn}(rows)\n  rows.sum {{ |r| r.weight }}\nend\nruby: are there other summing helpers like this one?",
        "std::sort(v.begin(), v.end(), [](const {T}& a, const {T}& b) {{ return a.at < b.at; }});\nc++: any "
        "comparable sorts by timestamp elsewhere?",
        "got anything that works like {path} does? want to borrow the approach",
    ],
    "understand_code": [
        "{fn} purpose?",
        "what is the reason {T} keeps a separate counter instead of using the length of its list?",
        "can u explane how {fn} works, the comments are outdated",
        '{{"task": "summarize", "symbol": "{fn}", "detail": "high"}}',
        "agent: read {path} and describe in plain words what {qual} does with its inputs; no edits, only the "
        "explanation",
        "{body}\n\nwhat's the idea behind this formula?",
        "{snippet}\n\nwhat does this produce, in words?",
        "{code}\n\nwhy would someone write it this way?",
        "panic: assignment to entry in nil map\n\ngoroutine 3 [running]:\n{qual}(...)\n\t{path}:{n} +0x6f\n\n"
        "why does {Fn} hit a nil map here? what didn't get initialised?",
        "java.util.ConcurrentModificationException\n\tat java.base/java.util.ArrayList$Itr.next(ArrayList.java:1000)"
        "\n\tat {qual}({T}.java:{n})\n\nwhat in {fn} causes this?",
        "error[E0502]: cannot borrow `self.items` as mutable because it is also borrowed as immutable\n"
        "  --> {path}:{n}:13\n\nexplain why the borrow checker rejects {fn} here",
        "[review-bot] I don't follow the retry logic in {fn}; could the author explain how the backoff is bounded?",
        "docs: explain {T}\n\nwhat does {T} represent, in a sentence or two?",
        "{topic} is new to me and there's an incident review tomorrow about what happened when {event}; I need to "
        "understand how the code handles that case, in order, with the reasons behind each step",
        "let rec {fn} acc = function [] -> acc | x :: rest -> {fn} (acc + x) rest\nocaml: how does this recursion "
        "end, and what is acc for?",
        "TypeError: Cannot read properties of undefined (reading 'id')\n    at {fn} ({path}:{n}:21)\n\nwhy is the "
        "argument undefined here? walk me through the flow",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fiftieth", seed=5050)

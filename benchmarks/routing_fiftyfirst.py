"""A fifty-first held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fiftieth.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by
another hand than the change, in one sitting, from the layout of ``routing_fiftieth.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the fiftieth's was reworded, and
no classifier, router or model was asked about any of its phrasings while they were written. It keeps the
usual spread of voices, spread evenly over the six intents: two- and three-word keyword queries and long
rambling ones, misspellings, lowercase chat, questions and orders, tool calls written as JSON, requests to a
coding agent, review-bot, lint-bot, doc-bot and CI-bot comments, commit messages, pasted output (Go panics
and a Go deadlock, Python tracebacks, Java and C# exceptions, a Node stack, an Elixir error, a Swift fatal
error, Go, Rust and TypeScript compiler errors, a mypy report, timestamped, glog-style and logfmt log lines)
with a line of words under it, and declarations and snippets pasted as typed in Go, Rust, Kotlin, Java,
Python, Swift, C#, TypeScript, Ruby, PHP, C++, Scala, Elixir, Haskell, OCaml, Zig and Dart. About half its
templates are plain questions with nothing pasted; the other half are pasted things with a question under
them: declarations asking where they are declared, who implements, extends or instantiates them, what
breaks if they change, what resembles them, or what they mean; and pasted output asking where the named code
or error class is declared, who else calls it, what a change to it would break, where its exact text is
written, or why it happens. The label is always what the asker wants, not which words appear.
Six templates met another set's (``test_intent_model``), all short keyword queries, and were replaced by
ones of another shape, not reworded; none met a training template. No filler met another set's or a training
filler. A script that printed only this set's own colliding templates picked them out; no other set's
templates or fillers were read for it.

Its slot fillers come from five domains, and no filler is another set's: a saffron crocus farm (stigma
picking tallies, toasting-kiln runs, corm plots, thread grading), a funicular railway depot (haul-cable
tension, track-brake tests, passing-loop crossings, counterweight balance), a curling-stone workshop
(granite blank coring, running-band grinding, striking-band inserts, stone matching), a cormorant-fishing
boat crew (neck snares, torch baskets, night outings, ayu catch tallies) and a clog-maker's workshop (alder
blank rough-outs, sole carving, clog lasts, drying stacks). None is a training filler (``test_intent_model``
checks both). ``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "pick_saffron_stigmas",
    "toastStigmaBatch",
    "grade_saffron_threads",
    "tension_haul_cable",
    "balanceCounterweightCar",
    "log_passing_loop_crossing",
    "core_granite_blank",
    "grindRunningBand",
    "polish_striking_band",
    "fit_cormorant_neck_snare",
    "lightTorchBasket",
    "tally_ayu_catch",
    "rough_out_alder_blank",
    "carveClogSole",
    "stack_clogs_for_drying",
]
_TYPES = [
    "StigmaPickingTally",
    "SaffronToastingKilnRun",
    "CrocusCormPlot",
    "HaulCableTensionReading",
    "FunicularCarBrakeTest",
    "PassingLoopCrossing",
    "GraniteBlankCore",
    "RunningBandGrind",
    "StrikingBandInsert",
    "CormorantNeckSnare",
    "TorchBasketFuelLog",
    "AyuCatchTally",
    "AlderBlankRoughOut",
    "ClogSoleLast",
    "DryingStackPosition",
]
_ERRORS = [
    "StigmaPickTallyMismatchError",
    "SaffronKilnOverheatException",
    "CrocusCormRotError",
    "HaulCableSlackError",
    "TrackBrakeUntestedException",
    "PassingLoopDoubleBookingError",
    "GraniteBlankFissureError",
    "RunningBandConcavityException",
    "StrikingBandLooseError",
    "NeckSnareTooTightException",
    "TorchBasketBurnoutError",
    "CormorantRollCallMissingException",
    "AlderBlankSplitError",
    "ClogSoleTooThinException",
    "DryingStackMouldError",
]
_MESSAGES = [
    "stigma tally for a picker exceeds the flowers counted in her basket",
    "toasting kiln run logged at a temperature that would scorch the threads",
    "corm plot lifted before the leaves had yellowed",
    "haul cable tension read below the slack alarm while both cars were parked",
    "track brake test signed off for a car that was in the shed",
    "two cars booked into the passing loop on the same side",
    "granite blank cored off-centre by more than the band allows",
    "running band ground concave on a stone marked as finished",
    "striking band insert glued to a stone without a bonded core",
    "neck snare tightened past the mark for a bird that must swallow small fish",
    "torch basket burned out before the boat reached the fishing stretch",
    "ayu catch tallied for a cormorant that stayed in its basket all night",
    "alder blank split along the grain after rough-out",
    "clog sole carved thinner than the last's minimum under the heel",
    "drying stack moved to the kiln loft with green wood still in it",
]
_ERROR_CODES = [
    "CRO-4471",
    "E_STIGMA_TALLY",
    "KILN-2093",
    "FUN-8812",
    "E_CABLE_SLACK",
    "STN-3357",
    "E_BAND_CONCAVE",
    "UKAI-6120",
    "E_SNARE_TIGHT",
    "CLOG-7745",
    "E_SOLE_THIN",
    "DRY-0918",
]
_PATHS = [
    "crocusfield/picking/stigma_tally.py",
    "crocusfield/kiln/ToastingKiln.kt",
    "crocusfield/grading/thread_grade.go",
    "funicular/cable/haul_tension.rs",
    "funicular/cars/CarBrakeTest.swift",
    "funicular/loop/passing_loop.rb",
    "stoneworks/blanks/GraniteBlank.java",
    "stoneworks/bands/running_band.ex",
    "stoneworks/inserts/StrikingBand.cs",
    "ukaiboats/snares/neckSnare.ts",
    "ukaiboats/torches/torch_basket.php",
    "ukaiboats/catch/AyuTally.scala",
    "clogshop/blanks/alder_roughout.cpp",
    "clogshop/soles/sole_carve.zig",
    "clogshop/drying/DryingStack.hs",
    "clogshop/lasts/clog_last.dart",
]
_TOPICS = [
    "stigma picking and toasting-kiln runs on the saffron farm",
    "corm plots and thread grading for the saffron growers",
    "haul-cable tension and car brake tests at the funicular depot",
    "passing-loop crossings and counterweight balance on the funicular",
    "granite blank coring and running-band grinding in the curling-stone workshop",
    "striking-band inserts and stone matching for the curling-stone makers",
    "neck snares and torch baskets on the cormorant-fishing boats",
    "night outings and ayu catch tallies for the cormorant crew",
    "alder blank rough-outs and sole carving in the clog-maker's workshop",
    "drying stacks and clog lasts for the clog makers",
]
_TASKS = [
    "turn a picker's basket count into a dry saffron weight after toasting",
    "set a kiln temperature for a stigma batch from its moisture reading",
    "work out the haul-cable tension needed for a given passenger load in each car",
    "schedule funicular departures so that the cars always meet at the passing loop",
    "decide from its curl measurements whether a curling stone's running band needs regrinding",
    "match curling stones into a set of eight by weight and band diameter",
    "rotate cormorants between boats so that no bird fishes two nights running",
    "estimate from its thickness how many weeks an alder clog blank must dry",
]
_EVENTS = [
    "the toasting kiln thermostat sticks open in the middle of a batch",
    "the haul-cable tension sensor stops reporting while a car is on the incline",
    "a granite blank cracks on the coring machine",
    "a cormorant slips its neck snare during a night outing",
    "the clog drying loft humidity spikes after a storm",
    "a funicular car's track brake trips on the steepest section",
]
_SNIPPETS = [
    "for _, b := range baskets {\n\tif b.Stigmas > b.Flowers*3 {\n\t\tsuspect = append(suspect, b.Picker)\n\t}\n}",
    "scorched = [run.kiln_id for run in kiln_runs if run.peak_c > run.recipe_max_c]",
    "let slack: Vec<_> = readings\n    .iter()\n    .filter(|r| r.tension_kn < r.alarm_kn)\n"
    "    .map(|r| r.sensor_id)\n    .collect();",
    "Map<String, Double> bandWear = stones.stream()\n    .collect(Collectors.groupingBy(Stone::getSetName,\n"
    "        Collectors.averagingDouble(Stone::getBandWearMm)));",
    "let idleBirds = cormorants.filter { $0.outingsThisWeek == 0 }.map(\\.ringNumber)",
    "blanks.select { |b| b.moisture_pct > 18 }.map(&:batch_tag)",
    "const overdue = stacks\n  .filter((s) => daysSince(s.stackedOn) > s.targetDays)\n  .map((s) => s.position);",
    "var heavy = stones\n    .Where(s => s.WeightKg > 19.96)\n    .OrderByDescending(s => s.WeightKg)\n"
    "    .Select(s => s.Serial)\n    .ToList();",
    "final gapped = crossings.where((c) => c.waitSeconds > 30).map((c) => c.tripNo).toList();",
    "SELECT picker_id, SUM(stigma_count) AS stigmas\nFROM picking_tallies\nWHERE picked_on = CURRENT_DATE\n"
    "GROUP BY picker_id;",
]
_BODIES = [
    "def dry_weight_g(fresh_g, loss_ratio=0.8):\n    return round(fresh_g * (1 - loss_ratio), 2)",
    "func cableTensionKN(loadKg, gradePct float64) float64 {\n\treturn loadKg * 9.81 * gradePct / 100 / 1000\n}",
    "fn band_regrind_needed(curl_m: f32, expected_m: f32) -> bool {\n    (curl_m - expected_m).abs() > 0.4\n}",
    "fun torchMinutes(pineKg: Double): Int = (pineKg * 22).toInt()",
    "fn dryingWeeks(thicknessMm: u32) u32 {\n    return thicknessMm / 5 + 2;\n}",
    "int stoneMatchScore(double wA, double wB) {\n  return static_cast<int>(100 - std::abs(wA - wB) * 50);\n}",
    "function snareMark(neckMm) {\n  return neckMm > 60 ? 'loose' : 'standard';\n}",
    "function catchShare(int $fish, int $birds): int {\n    return intdiv($fish, max(1, $birds));\n}",
    "def kilnTempC(moisturePct: Double): Int = if (moisturePct > 70) 55 else 45",
    "let sole_ok thickness_mm min_mm = thickness_mm >= min_mm && thickness_mm < min_mm + 8",
]
_CODE_LINES = [
    "plot.ready = plot.leaf_colour == 'yellow' and (today - plot.planted).days > 240",
    "if reading.TensionKN < cfg.SlackAlarmKN { return errCableSlack }",
    "let concave = band.depth_profile.iter().any(|d| *d < -0.05);",
    'val verdict = if (stone.weightKg in 17.24..19.96) "legal" else "reject"',
    "bird.rested = bird.last_outing < 2.days.ago unless bird.moulting?",
    "car.state = brakeTested && doorsClosed ? 'ready' : 'hold';",
    "$blank['split_risk'] = $blank['grain_angle'] > 12 ? 'high' : 'low';",
    "crossings = Enum.filter(crossings, &(&1.loop == :middle))",
    "var scorched = run.PeakC > run.RecipeMaxC + 5;",
    "final thinHeel = sole.heelMm < last.minHeelMm;",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "{fn}: jump to its definition",
        "there are two files that both look like they could hold {T}, one under legacy/ and one not; which of "
        "them has the class declaration the build actually compiles?",
        "wher does {T} get definied at",
        '{{"action": "goto_def", "symbol": "{qual}", "workspace": "."}}',
        "@agent open whichever file declares {fn} and paste back just its signature line, touch nothing else",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n    raise {err}(reason)\n'
        "{err}: {msg}\n\nwhere does the class {err} get declared? I want to check what it inherits from",
        "./{path}:{n}:17: cannot use id (variable of type string) as {T} value in argument to {Fn}\n\n"
        "show me how {T} is declared so I can see what it wraps",
        "Unhandled exception. {err}: {Msg}\n   at {qual}() in {path}:line {n}\n\nwhere is {err} defined? it "
        "isn't one of the framework's exceptions",
        "final {T} current = {T}.empty();\ndart: the analyzer can't resolve {T}; where is that class declared?",
        "error TS2304: Cannot find name '{T}'.\n  at {path}:{n}:5\n\nit compiled last week; where was {T} "
        "declared before the move?",
        "{n}:03:19.442 INFO  {qual} - {msg}\n\nwhich source file is {qual} in? jump me to its definition",
        "[doc-bot] {T} has no docstring. Point me at its declaration so a docstring can be added there.",
        "chore: move {T} out of utils\n\nwhere did it land? I need the new definition site",
        "I'm onboarding onto {topic} and keep seeing {T} in the stack traces and the dashboards, but nobody on "
        "the team remembers which package actually declares it since the big reorganisation, so could you track "
        "down the definition for me",
        "extension {T} {{\n    func {fn}() {{ }}\n}}\nswift: the extension lives here, but where's the original "
        "type {T} declared?",
        "** (UndefinedFunctionError) function {qual}/1 is undefined or private\n\nwhich module is meant to define "
        "{fn}/1 then?",
    ],
    "find_references": [
        "importers of {path}, grouped by package",
        "before the code freeze I'd like a list of every function that invokes {fn}, including the ones in the "
        "scripts folder that aren't part of the main package",
        "whos calling {fn} evrywhere",
        '{{"query": "references", "of": "{T}", "scope": "workspace", "dedupe": true}}',
        "agent, enumerate the callers of {qual} and say for each whether it's production code or a test; don't "
        "edit anything",
        "pub trait {T} {{\n    fn {fn}(&self) -> bool;\n}}\nrust: which types impl this trait?",
        "public interface I{T}\n{{\n    void {Fn}();\n}}\nc#: list the classes that implement I{T}",
        "Caused by: {err}: {msg}\n\tat {qual}({T}.java:{n})\n\t... 14 more\n\nshow every call site of {qual}, "
        "this trace is cut off before the caller",
        "Error: {msg}\n    at {fn} ({path}:{n}:7)\n    at process.processTicksAndRejections "
        "(node:internal/process/task_queues:95:5)\n\nwhich modules import and call {fn}?",
        "class {T}(ABC):\n    @abstractmethod\n    def {fn}(self): ...\npython: which concrete classes subclass {T}?",
        "abstract class {T} {{\n    abstract public function {fn}(): void;\n}}\nphp: who extends this one?",
        "[lint-bot] `{fn}` has a misleading name. A rename needs every reference first; can you list them?",
        "perf: memoise {fn}\n\nwho calls it? list the call sites",
        "a colleague left a TODO saying {err} is 'caught somewhere upstream' while working on {topic}; I'd like "
        "to see every except or catch block that names {err}, plus every place that raises it, so I can check "
        "that claim",
        "module type {T} = sig val {fn} : unit -> unit end\nocaml: which modules satisfy this signature?",
        "{err} catch sites, tests excluded",
    ],
    "impact_analysis": [
        "safe to inline {fn}?",
        "if we made {fn} asynchronous and had it hand back a future instead of the value, which parts of the "
        "codebase would need to change and which would quietly misbehave?",
        "wat breaks if {T} looses its id field",
        '{{"kind": "impact", "symbol": "{qual}", "proposed": "change_signature", "depth": 3}}',
        "agent: I'm about to move {path} into a separate package; map out everything that would be affected "
        "by that, report only",
        "func {Fn}(ctx context.Context, id string) ({T}, error)\ngo: if this starts returning *{T}, which callers "
        "need fixing?",
        "data class {T}(val id: String, val note: String?)\nkotlin: making note non-null, what breaks downstream?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n{err}: {msg}\n\nwe are thinking '
        "of swallowing {err} inside {fn} and returning an empty result; which callers would that mislead?",
        "error[E0061]: this function takes 2 arguments but 3 arguments were supplied\n  --> {path}:{n}:5\n\nif I "
        "add the third parameter to {fn} instead of fixing this call, what else has to change?",
        "public {T} {Fn}(int id) => _cache[id];\nc#: switching this to return {T}? (nullable) - which callers "
        "would need null checks?",
        "case class {T}(id: Long, tags: List[String])\nscala: if tags becomes a Set, which pattern matches and "
        "serialisers break?",
        "[ci-bot] deprecation: {err} is removed next release. Which handlers rely on it today and would stop "
        "compiling?",
        "refactor!: split {T} into two types\n\nwhat's affected?",
        "there's a proposal in the {topic} planning doc to change {ecode} from a warning into a hard failure, and "
        "I've been asked to write down everything that would start failing or behave differently, including batch "
        "jobs and anything that reads our logs",
        "W{n} 08:14:02.117 {fn}] {msg}\n\nif we raise the retry limit on this path, which downstream consumers "
        "feel it?",
        "export type {T} = {{ id: string; at?: Date }};\nts: making `at` required - which object literals and "
        "mocks will fail to type-check?",
    ],
    "exact_match": [
        "fixed-string hits for {ecode}",
        "could you search the whole repository for the literal text '{msg}', matching case and punctuation "
        "exactly, and tell me every file it appears in?",
        "exakt matches of {err} only, no fuzzy stuf",
        '{{"type": "literal", "pattern": "{Msg}", "regex": false, "paths": ["src", "config"]}}',
        'agent: find the verbatim string "{ecode}" in config files and source, list path:line, skip lookalikes',
        "panic: {err}: {msg}\n\ngoroutine 1 [running]:\nmain.main()\n\t{path}:{n} +0x1d\n\nwhere is that exact "
        "panic text written in the source?",
        '{err}: {Msg} [{ecode}]\n\tat {qual}({T}.java:{n})\n\nfind the literal "[{ecode}]" wherever it is '
        "concatenated into a message",
        'level=error code={ecode} msg="{msg}"\n\nwhich line of code writes exactly this msg= text?',
        'return Err(anyhow!("{msg}"));\nrust: find other places with this exact anyhow! string',
        'raise {err}("{Msg}")\npython: every place with this exact raise line, copy-pasted or not',
        'std::cerr << "{ecode}" << std::endl;\nc++: search for that literal across the tree',
        '[review-bot] hard-coded "{ecode}" appears in this diff; show all the other exact occurrences of that literal',
        'i18n: extract user-facing strings\n\nneed the exact spots where "{Msg}" is hard-coded',
        "while auditing {topic} for the regulator we were told the phrase '{msg}' must never appear in an "
        "export, so I need every occurrence of that exact wording in the code, templates and fixtures, not "
        "paraphrases",
        "Fatal error: {Msg}: file {path}, line {n}\n\nwhere is this exact fatalError string?",
        'exact: "{err}"',
    ],
    "find_similar": [
        "twin of {path} elsewhere?",
        "is there another function somewhere that does roughly what {qual} does, perhaps written by a different "
        "team under different names, that I could reuse instead of writing a new one?",
        "any thing simillar to {fn} in the codebse",
        '{{"find": "similar", "to": "{path}", "granularity": "function", "limit": 10}}',
        "agent: search for code that computes the same thing as {fn}, even if it's shaped differently; give me "
        "the three nearest",
        "{body}\n\nfeels like I've seen this before in the repo, find similar ones",
        "{snippet}\n\nany other place doing the same filtering or grouping?",
        "{code}\n\nis this logic duplicated somewhere?",
        "fn {fn}(items: []const {T}) usize {{\n    var count: usize = 0;\n    for (items) |it| {{\n"
        "        if (it.ok) count += 1;\n    }}\n    return count;\n}}\nzig: other counting loops like this one?",
        "fun {fn}(xs: List<{T}>) = xs.maxByOrNull {{ it.at }}\nkotlin: find functions that pick the latest item "
        "the same way",
        "def {fn}(rows):\n    return {{r.key: r for r in rows}}\npython: other dict-by-key builders like this?",
        "[lint-bot] near-clone detected in {path}. Find the functions it resembles",
        "feat: add {fn}\n\nbefore merging: is there code doing nearly the same thing?",
        "I've been asked to {task} as part of {topic}, and before I start from scratch I'd like to see any "
        "existing routines with a similar shape - same inputs, comparable arithmetic - even if they serve a "
        "different part of the business",
        "{fn} = foldr (\\x acc -> acc + weight x) 0\nhaskell: other folds like this?",
        "def {fn}(list) = list.select(&:due?).sort_by(&:at)\nruby: anything else written like this?",
    ],
    "understand_code": [
        "purpose of the {ecode} branch in {fn}?",
        "why does {fn} sort its input twice, once at the start and again just before returning; is that intentional?",
        "dont get wat {T} is for, explain?",
        '{{"request": "explain", "target": "{qual}", "audience": "new hire"}}',
        "agent: walk through {fn} line by line and explain each branch; read only",
        "{body}\n\ncan someone explain the magic numbers here?",
        "{snippet}\n\nwalk me through this step by step",
        "{code}\n\nwhat is this line checking?",
        "Traceback (most recent call last):\n  File \"{path}\", line {n}, in {fn}\nKeyError: 'id'\n\nwhy would "
        "{fn} see a row without an id? what's going on?",
        "fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\n{qual}(...)\n"
        "\t{path}:{n} +0x88\n\nexplain why {Fn} deadlocks",
        "System.InvalidOperationException: Sequence contains no elements\n   at {qual}() in {path}:line {n}\n\n"
        "what is the code assuming here that isn't true?",
        '{path}:{n}: error: Incompatible return value type (got "None", expected "{T}")  [return-value]\n\n'
        "how can {fn} end up returning None here? explain the path",
        "[review-bot] the lock ordering in {fn} isn't obvious to me; can you explain why it takes them in this order?",
        "docs: annotate {fn}\n\nwhat does it actually do, so I can write the docstring?",
        "I'm covering for the on-call engineer of {topic} this week and want to be ready if {event}; could you "
        "explain how the code reacts in that situation, which functions run and what state they leave behind",
        "def {fn}(%{{state: :idle}} = s), do: {{:noreply, s}}\nelixir: what does this clause handle, and when is "
        "it hit?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fiftyfirst", seed=5151)

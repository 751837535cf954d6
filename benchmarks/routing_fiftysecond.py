"""A fifty-second held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fiftyfirst.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by
another hand than the change, in one sitting, from the layout of ``routing_fiftyfirst.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the fifty-first's was reworded,
and no classifier, router or model was asked about any of its phrasings while they were written. It keeps
the usual spread of voices, spread evenly over the six intents: two- and three-word keyword queries and long
rambling ones, misspellings, lowercase chat, questions and orders, tool calls written as JSON, requests to a
coding agent, owners-bot, dead-code-bot, schema-bot, translation-bot, dup-bot and complexity-bot comments,
commit messages, pasted output (a Go panic, a Rust panic, Python tracebacks, Java, Kotlin and C# exceptions,
a Node stack, Elixir errors, a Swift fatal error, PHP fatal errors and warnings, Rust, TypeScript and C++
compiler errors, timestamped, glog-style and logfmt log lines) with a line of words under it, and
declarations and snippets pasted as typed in Go, Rust, Kotlin, Java, Python, Swift, C#, TypeScript,
JavaScript, Ruby, PHP, C++, Scala, Elixir, Haskell, OCaml, Clojure, Zig, Dart and SQL. About half its
templates are plain questions with nothing pasted; the other half are pasted things with a question under
them: declarations asking where they are declared, who implements, extends, conforms to or mixes them in,
what breaks if they change, what resembles them, or what they mean; and pasted output asking where the named
code or error class is declared, who else calls or raises it, what a change to it would break, where its
exact text is written, or why it happens. The label is always what the asker wants, not which words appear.
One template, a short keyword query, met another set's and sat inside a training template
(``test_intent_model``); it was replaced by one of another shape, not reworded. No filler met another set's
or a training filler. A script that printed only this set's own colliding templates picked it out; no other
set's templates or fillers were read for it.

Its slot fillers come from five domains, and no filler is another set's: a goldbeater's workshop (cutch
beating passes, goldbeater's-skin moulds, leaf books, gilder's quires), a reindeer-herding cooperative (calf
earmarking, the earmark registry, corral roundups, lichen pasture rotation), an ice-hotel building crew
(river-ice block harvesting, snow-arch forms, suite carving, thaw monitoring), a harpsichord-voicing workshop
(jack quilling, plectrum voicing, register slides, temperament passes) and a hot-air-balloon launch field
(envelope porosity tests, burner blast checks, crown-line handling, tether launches). None is a training
filler (``test_intent_model`` checks both). ``benchmarks/routing.py`` reports it beside the other held-out
sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "beat_gold_in_cutch",
    "interleaveSkinMould",
    "trim_leaf_into_book",
    "mark_reindeer_calf_ear",
    "countCorralRoundup",
    "rotate_lichen_pasture",
    "saw_river_ice_block",
    "raiseSnowArchForm",
    "log_ice_suite_thaw",
    "quill_harpsichord_jack",
    "voicePlectrumTip",
    "shift_register_slide",
    "test_envelope_porosity",
    "fireBurnerBlastCheck",
    "walk_crown_line_out",
]
_TYPES = [
    "CutchBeatingPass",
    "GoldbeaterSkinMould",
    "GildersLeafBook",
    "ReindeerEarmarkEntry",
    "CorralRoundupHeadcount",
    "LichenPastureRotation",
    "RiverIceBlockHarvest",
    "SnowArchFormPour",
    "IceSuiteThawReading",
    "HarpsichordJackQuill",
    "PlectrumVoicingPass",
    "RegisterSlideSetting",
    "EnvelopePorosityTest",
    "BurnerBlastCheck",
    "TetherLaunchSlot",
]
_ERRORS = [
    "CutchLeafTearError",
    "SkinMouldGreaseException",
    "LeafBookUnderweightError",
    "EarmarkPatternClashError",
    "RoundupHeadcountDriftException",
    "LichenPastureOvergrazedError",
    "IceBlockAirPocketError",
    "SnowArchSagException",
    "IceSuiteMeltwaterError",
    "JackQuillSplitError",
    "PlectrumOvervoicedException",
    "RegisterSlideJamError",
    "EnvelopeFabricPorousError",
    "BurnerPilotFlameoutException",
    "CrownLineSlipError",
]
_MESSAGES = [
    "gold leaf tore in the cutch after fewer beats than the pass allows",
    "goldbeater's skin mould dressed with too much gypsum between interleaves",
    "leaf book packed with fewer than twenty-five leaves but weighed as full",
    "calf earmark cut matches a pattern already registered to another herder",
    "corral roundup headcount differs from the gate clicker by more than five animals",
    "lichen pasture reopened before its rest years were up",
    "river ice block harvested with an air pocket larger than the cutting spec",
    "snow arch form pulled before the sintering time had passed",
    "meltwater pooled on an ice suite floor while the thaw sensor read below zero",
    "jack quill split at the tongue on the first pluck after voicing",
    "plectrum voiced so thin that the string does not speak in the upper register",
    "register slide jammed halfway between the eight-foot and four-foot stops",
    "envelope fabric failed the porosity grab test on a panel marked airworthy",
    "burner pilot flamed out during the blast check with the valve still open",
    "crown line slipped from the handler's grip while the envelope was cold-inflating",
]
_ERROR_CODES = [
    "GLD-3304",
    "E_CUTCH_TEAR",
    "HERD-5817",
    "E_EARMARK_CLASH",
    "ICE-2740",
    "E_ARCH_SAG",
    "HPSD-9162",
    "E_QUILL_SPLIT",
    "BLN-4485",
    "E_PILOT_OUT",
    "LAUNCH-0637",
    "E_FABRIC_POROUS",
]
_PATHS = [
    "goldbeating/cutch/beating_pass.py",
    "goldbeating/moulds/SkinMould.java",
    "goldbeating/books/leaf_book.go",
    "herdcoop/earmarks/earmark_registry.rs",
    "herdcoop/corrals/RoundupCount.kt",
    "herdcoop/pastures/lichen_rotation.ex",
    "icehotel/harvest/ice_block_cut.rb",
    "icehotel/arches/SnowArchForm.swift",
    "icehotel/suites/thawMonitor.ts",
    "harpsichord/jacks/jack_quill.cpp",
    "harpsichord/voicing/PlectrumVoicing.cs",
    "harpsichord/registers/register_slide.ml",
    "balloonfield/envelope/porosity_test.php",
    "balloonfield/burners/BurnerCheck.scala",
    "balloonfield/tether/tether_slot.dart",
    "balloonfield/crew/crown_line.zig",
]
_TOPICS = [
    "cutch beating and skin-mould dressing in the goldbeater's workshop",
    "leaf books and gilder's quires for the goldbeaters",
    "calf earmarking and the earmark registry at the reindeer-herding cooperative",
    "corral roundups and lichen pasture rotation for the reindeer herders",
    "river-ice block harvesting and snow-arch forms for the ice hotel",
    "suite carving and thaw monitoring at the ice hotel",
    "jack quilling and plectrum voicing in the harpsichord workshop",
    "register slides and temperament passes for the harpsichord voicers",
    "envelope porosity tests and burner blast checks on the balloon launch field",
    "crown-line handling and tether launches for the balloon crews",
]
_TASKS = [
    "work out how many beating passes a gold ribbon needs before it reaches leaf thickness",
    "decide when a goldbeater's skin mould is too worn to keep dressing",
    "allocate lichen pastures to herds so that every pasture rests its full years",
    "check a new calf earmark against every pattern already in the registry",
    "estimate from its floor plan how many river-ice blocks an ice suite needs",
    "predict from the thaw readings how many more nights an ice suite can stay open",
    "compute how much to trim a plectrum so that a note's volume matches its neighbours",
    "pick a launch slot on the balloon field from the forecast wind aloft",
]
_EVENTS = [
    "the cutch packet bursts halfway through a beating pass",
    "a roundup gate clicker resets while the herd is still coming through",
    "a snow-arch form collapses before the snow has sintered",
    "a harpsichord register slide jams during a concert tuning",
    "a balloon burner pilot light goes out on a tethered flight",
    "the ice suite thaw sensor loses power overnight",
]
_SNIPPETS = [
    "torn = [p.packet_no for p in passes if p.beats < p.min_beats and p.leaf_torn]",
    "for _, c := range calves {\n\tif registry.Has(c.EarmarkPattern) {\n\t\tclashes = append(clashes, c.Tag)\n\t}\n}",
    "let porous: Vec<u32> = panels\n    .iter()\n    .filter(|p| p.grab_newtons < p.min_newtons)\n"
    "    .map(|p| p.panel_no)\n    .collect();",
    "List<String> worn = moulds.stream()\n    .filter(m -> m.getDressings() > m.getMaxDressings())\n"
    "    .map(Mould::getSerial)\n    .toList();",
    "let soggy = suites.filter { $0.floorMeltMm > 2 }.map(\\.suiteName)",
    "quills.reject(&:seasoned?).group_by(&:register)",
    "const restless = pastures\n  .filter((p) => p.yearsRested < p.requiredRest)\n  .map((p) => p.pastureCode);",
    "var gusty = slots\n    .Where(s => s.WindAloftKts > 12)\n    .Select(s => s.SlotId)\n    .ToList();",
    "val loudest = jacks.groupBy { it.register }.mapValues { (_, js) -> js.maxOf { it.volumeDb } }",
    "SELECT herd_id, COUNT(*) AS calves_marked\nFROM earmark_registry\nWHERE marked_on >= DATE '2024-06-01'\n"
    "GROUP BY herd_id;",
]
_BODIES = [
    "def leaf_count(ribbon_mm, square_mm=86):\n    return ribbon_mm // square_mm * 4",
    "func iceBlocksNeeded(floorM2, blockM2 float64) int {\n\treturn int(math.Ceil(floorM2 / blockM2 * 1.15))\n}",
    "fn pasture_ready(rested_years: u8, lichen_cm: f32) -> bool {\n    rested_years >= 5 && lichen_cm > 3.5\n}",
    "fun trimMicrons(volumeDb: Double, neighbourDb: Double): Int = ((volumeDb - neighbourDb) * 12).toInt()",
    "fn thawNights(wallCm: u32, meanTempC: i32) u32 {\n    return if (meanTempC >= 0) wallCm / 4 else wallCm;\n}",
    "double burnerLiftKg(double btuPerHr) {\n  return btuPerHr / 1.0e6 * 37.5;\n}",
    "function earmarkKey(left, right) {\n  return `${left}|${right}`.toUpperCase();\n}",
    "function porosityPass(float $seconds): bool {\n    return $seconds >= 20.0;\n}",
    "def windOk(knotsAloft: Double, gustKnots: Double): Boolean = knotsAloft < 10 && gustKnots - knotsAloft < 5",
    "let beats_left done_beats target = max 0 (target - done_beats)",
]
_CODE_LINES = [
    "mould.retire = mould.dressings > 40 or mould.grease_score >= 3",
    "if count.Gate != count.Clicker { return errHeadcountDrift }",
    "let sagging = arch.crown_drop_mm > 25 && arch.age_hours < 12;",
    'val speaks = if (quill.tipMicrons in 180..260) "ok" else "revoice"',
    "slot.cancel! if slot.wind_aloft_kts > 12 && !slot.tethered?",
    "panel.status = panel.grabN >= spec.minN ? 'airworthy' : 'grounded';",
    "$book['short'] = count($book['leaves']) < 25;",
    "herds = Enum.reject(herds, &(&1.pasture == :resting))",
    "var slipped = line.TensionN < 40 && envelope.InflationPct < 60;",
    "final overheld = suite.openNights > suite.predictedThawNights;",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "go to {qual} decl",
        "jump-to-definition keeps landing me in a generated stub for {fn}; where is the hand-written function "
        "that the stub was generated from?",
        "whre is {fn} declaired, cant find it",
        '{{"tool": "locate_symbol", "name": "{T}", "want": "declaration"}}',
        "@coder find the file and line where {T} is declared and reply with only path:line, no edits",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n    state = {T}.from_row(row)\n'
        "AttributeError: type object '{T}' has no attribute 'from_row'\n\nshow me the class body of {T}, "
        "wherever it's declared",
        'Exception in thread "main" java.lang.NoClassDefFoundError: {T}\n\tat {qual}({T}.java:{n})\n\nwhich '
        "module is the class {T} supposed to be defined in?",
        "error[E0412]: cannot find type `{T}` in this scope\n --> {path}:{n}:14\n\nwhere is {T} actually "
        "defined, so I can import it?",
        "val tally: {T} = {T}.blank()\nkotlin: ctrl-click on {T} goes nowhere. where's it declared?",
        'ts=2024-03-{n}T06:12:00Z level=warn caller={path}:{n} func={fn} msg="{msg}"\n\nopen the definition of '
        "{fn} for me",
        "[owners-bot] no CODEOWNERS entry covers the file that declares {T}. Which file is that?",
        "fix: import {T} from its new home\n\nwhich file is the new home? need where it's defined now",
        "I've been reading the code for {topic} all morning and {fn} is called from half a dozen places, but "
        "every search I try lands on a wrapper or a re-export rather than the real thing; where is the actual "
        "function defined?",
        "{path}:{n}:9: error: incomplete type '{T}' used in nested name specifier\n\nwhere's the full definition "
        "of {T}, not just the forward declaration?",
        'PHP Fatal error:  Uncaught Error: Class "{T}" not found in {path}:{n}\n\nwhere does {T} live? which '
        "file declares the class",
        "import Workshop.Types ({T}(..))\nhaskell: which module actually defines {T} and its constructors?",
    ],
    "find_references": [
        "{T} usages, test dirs too",
        "we're planning to deprecate {fn} next quarter and I need a full inventory of everywhere it's called "
        "from, background jobs and the admin CLI included, so I can size the migration",
        "who refrences {T} in the repo?? need a list",
        '{{"op": "find_usages", "target": "{qual}", "include_tests": false}}',
        "agent: pull out every import of {path} across the services and give me importer and line as a table; "
        "read-only",
        "type {T} interface {{\n\t{Fn}(ctx context.Context) error\n}}\ngo: which structs satisfy {T}?",
        "public abstract class {T} {{\n    protected abstract void {fn}();\n}}\njava: list every subclass of {T}",
        "protocol {T} {{\n    func {fn}() throws\n}}\nswift: which types conform to {T}?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n{err}: {msg}\n\nwho raises {err} '
        "besides this spot? list every raise site",
        "{err}: {Msg}\n   at {qual}() in {path}:line {n}\n   at Program.Main()\n\nwhere else is {qual} invoked? "
        "the trace only shows Main",
        "export function {fn}(t: {T}): void\nts: find every file that imports {fn}",
        "trait {T} {{ def {fn}(): Unit }}\nscala: which objects and classes mix in {T}?",
        "[dead-code-bot] {fn} looks unused. Before it is deleted, confirm whether anything references it.",
        "refactor: rename {fn}\n\nlist the call sites I have to update",
        "while tracing a bug in {topic} I noticed {T} gets built in lots of places with slightly different "
        "defaults; could you find every place that creates a {T}, through the constructor or a factory, so I can "
        "compare them",
        "E0612 04:21:55.090  311 {path}:{n}] {fn}: {msg}\n\nwhich jobs call {fn}? this log fires from "
        "somewhere I can't pin down",
    ],
    "impact_analysis": [
        "blast radius: {T} rename",
        "we'd like {fn} to raise {err} instead of returning None when nothing is found; before anyone touches "
        "it, which callers and tests would be affected by that change in behaviour?",
        "if i delet {path} what stops working",
        '{{"analysis": "change_impact", "file": "{path}", "change": "delete"}}',
        "@agent dry run: estimate what would fail if {qual} became private; list the affected modules, don't "
        "modify code",
        "public {T} {fn}(String id) throws {err}\njava: if we drop the throws clause and return Optional<{T}>, "
        "which callers break?",
        "pub struct {T} {{ pub id: u64, pub note: String }}\nrust: if `note` turns into Option<String>, what "
        "stops compiling?",
        "def {fn}(self, row, *, strict=False):\npython: flipping strict to True by default - which call sites "
        "change behaviour?",
        "Fatal error: Unexpectedly found nil while unwrapping an Optional value: file {path}, line {n}\n\nif we "
        "make {fn} return a non-optional {T} to stop this, which callers have to change?",
        "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 7 [running]:\n{qual}(...)\n"
        "\t{path}:{n} +0x2c\n\nif we guard this by making {Fn} return an error as well, what else needs updating?",
        "{path}({n},12): error TS2345: Argument of type 'string' is not assignable to parameter of type "
        "'{T}'.\n\nif I widen {T} to accept string, which code paths are affected?",
        "public record {T}(Guid Id, decimal Amount);\nc#: changing Amount to int - what downstream breaks?",
        "[schema-bot] the column behind {T}.id changes from int to uuid in this migration. Which code paths "
        "does that touch?",
        "feat!: {fn} now takes a context argument\n\nwhat else must change?",
        "ops want to cut retention for everything logged under {ecode} in {topic} from a year to thirty days, "
        "and before I agree I need to know which reports, alerts and reconciliation jobs read that data and "
        "would be hurt",
        "** (FunctionClauseError) no function clause matching in {qual}/2\n\nif we add a catch-all clause to "
        "{fn}/2, whose behaviour changes?",
    ],
    "exact_match": [
        "literal {ecode} grep",
        "I need a case-sensitive, whole-word search for {err} across the repo, vendored code excluded, and I "
        "mean the exact identifier, not names that merely contain it",
        "serch for exactley '{msg}' plz",
        '{{"search": "{ecode}", "mode": "exact", "case_sensitive": true}}',
        "agent: list every line containing the exact text {ecode}, with file and line; no regex, no similar codes",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n{err}: {msg}\n\nwhere exactly '
        "is the string '{msg}' written in our code?",
        "java.lang.IllegalStateException: {Msg}\n\tat {qual}({T}.java:{n})\n\nwhich source line has that exact "
        "message text?",
        "2024-11-{n} 03:44:10,512 ERROR [{fn}] {ecode} {msg}\n\ngrep the logging calls for the literal "
        "'{ecode} ' prefix",
        'return fmt.Errorf("{msg}: %w", err)\ngo: where else is this exact format string used?',
        'throw {err}("{Msg}")\nkotlin: find identical throw statements',
        'raise {err}, "{msg}"\nruby: exact copies of this line elsewhere?',
        "PHP Warning:  {Msg} in {path} on line {n}\n\nsearch for that exact warning text in the PHP sources",
        '[translation-bot] the string "{Msg}" is untranslated. Find every place it is written verbatim.',
        'fix(logging): reword the {ecode} message\n\nfirst I need every exact occurrence of "{msg}"',
        "support keeps pasting the sentence '{Msg}' from the {topic} screens, and I'd like to know precisely "
        "which templates, source files and fixtures contain it word for word, since we're going to rewrite it",
        '"{ecode}" verbatim',
    ],
    "find_similar": [
        "near-copies of {qual} anywhere",
        "another team wrote their own bucketing helper last year and I suspect it does nearly what {fn} does; "
        "can you find functions elsewhere that resemble {fn} in structure or purpose?",
        "somthing like {T} alredy exist?",
        '{{"mode": "semantic_neighbours", "symbol": "{qual}", "top_k": 5}}',
        "@agent look for near-duplicates of {path} across the monorepo and rank them by how much logic they "
        "share; no edits",
        "{body}\n\nwe have other helpers like this, right? find them",
        "{snippet}\n\nfind code that does the same kind of thing",
        "{code}\n\nsame check written elsewhere?",
        "func {Fn}(xs []{T}) map[string][]{T} {{\n\tout := map[string][]{T}{{}}\n\tfor _, x := range xs {{\n"
        "\t\tout[x.Key] = append(out[x.Key], x)\n\t}}\n\treturn out\n}}\ngo: other group-by loops like this?",
        "public static {T} {Fn}(IEnumerable<{T}> xs) => xs.OrderBy(x => x.At).First();\nc#: similar "
        "earliest-item pickers?",
        "(defn {fn} [xs] (reduce + (map :weight xs)))\nclojure: anything else summing weights like this?",
        "fn {fn}(v: &[{T}]) -> Option<&{T}> {{\n    v.iter().min_by_key(|x| x.rank)\n}}\nrust: similar "
        "min-by helpers around?",
        "[dup-bot] 78% token overlap between {fn} and code elsewhere in the repo. Which functions is it similar to?",
        "wip: port {fn} from the old service\n\nmaybe we already have an equivalent? find close matches",
        "my job is to {task}, and I have a feeling someone working on {topic} already wrote something comparable; "
        "show me functions that take similar inputs and do similar arithmetic so I can borrow from them",
        "const {fn} = (xs: {T}[]) => xs.reduce((m, x) => m.set(x.id, x), new Map());\nts: other map-building "
        "reducers like this one?",
    ],
    "understand_code": [
        "{fn} explained",
        "I don't follow why {fn} catches {err} only to rethrow it a few lines later wrapped in another error; "
        "what's the reasoning behind that?",
        "what dose {qual} acutally do",
        '{{"intent": "summarize", "symbol": "{qual}", "detail": "high"}}',
        "agent, read {path} and give me a plain-English summary of what it's responsible for; no changes",
        "{body}\n\nwhy is it written this way?",
        "{snippet}\n\nwhat does this produce?",
        "{code}\n\nexplain when this comes out true",
        "thread 'main' panicked at {path}:{n}:22:\ncalled `Option::unwrap()` on a `None` value\n\nwhy would "
        "{fn} be holding a None at that point?",
        'java.lang.NullPointerException: Cannot invoke "{T}.{fn}()" because "this.current" is null\n'
        "\tat {qual}({T}.java:{n})\n\nhow does current end up null here?",
        "TypeError: Cannot read properties of undefined (reading 'id')\n    at {fn} ({path}:{n}:19)\n\nexplain "
        "what {fn} expects and why it got undefined",
        'Exception in thread "main" kotlin.UninitializedPropertyAccessException: lateinit property registry has '
        "not been initialized\n\tat {qual}({T}.kt:{n})\n\nwalk me through why registry isn't set yet when {fn} runs",
        "[complexity-bot] {fn} has cyclomatic complexity 31. Summarise what its branches do before anyone splits it.",
        "test: cover {fn}\n\nwhat cases does it handle? explain so I know what to test",
        "we had an incident last week where {event}, and in the retro nobody could say what our code does "
        "next; could you explain the sequence in the {topic} code from that moment until things settle",
        "let rec {fn} acc = function [] -> acc | x :: xs -> {fn} (acc + x) xs\nocaml: what is this computing "
        "and why the accumulator?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fiftysecond", seed=5252)

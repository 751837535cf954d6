"""A fifty-fourth held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fiftythird.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by
another hand than the change, in one sitting, from the layout of ``routing_fiftythird.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the fifty-third's was reworded,
and no classifier, router or model was asked about any of its phrasings while they were written. It keeps
the usual spread of voices, spread evenly over the six intents: two- to four-word keyword queries and long
rambling ones, misspellings, lowercase chat, questions and orders, tool calls written as JSON, requests to a
coding agent, codeowners-bot, dead-code-bot, semver-bot, secrets-bot, dup-bot and review-bot comments, commit
messages, pasted output (Java and Kotlin exceptions, mypy, Go, TypeScript and C++ compiler errors, a PHP
fatal error, Python tracebacks, a Ruby error, Go and Rust panics, a Node TypeError, a Swift fatal error, an
Elixir FunctionClauseError, logfmt, syslog, JSON and Elixir-Logger log lines) with a line of words under it,
and declarations and snippets pasted as typed in Go, Rust, Kotlin, Java, Python, Swift, C#, TypeScript,
JavaScript, Ruby, PHP, C++, Scala, Elixir, Haskell, OCaml, Zig, Dart, SQL and protobuf. About half its
templates are plain questions with nothing pasted; the other half are pasted things with a question under
them: declarations asking where they are declared, who implements, conforms to or overrides them, what
breaks if they change, what resembles them, or what they mean; and pasted output asking where the named
code or class is declared, who else calls or raises it, what a change to it would break, where its exact
text is written, or why it happens. The label is always what the asker wants, not which words appear.
Three templates met another set's (``test_intent_model``): two short keyword queries (a go-to-definition
one, whose first replacement met a third set's and was replaced again, and a near-duplicates one) and a
change-impact tool call written as JSON; each was replaced by one of another shape, not reworded. One
function-name filler met another set's and was replaced by another name from the same domain. None met a
training template or filler. A script that printed only this set's own colliding templates and fillers
picked them out; no other set's templates or fillers were read for it.

Its slot fillers come from five domains, and no filler is another set's: a glass-eye prosthetics lab
(iris-stroma painting, sclera tint matching, ocular-shell blanks), a mushroom-foraging guild (spore prints,
find grid references, deadly-lookalike checks), a pipe-organ reed voicer (reed-tongue curving, shallot
openings, voicing sessions), a letterpress type foundry (matrix strikes, sort casting, font schemes) and a
canal-lock keeping authority (chamber levels, paddle gear, boat passage logs). None is a training filler
(``test_intent_model`` checks both). ``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "paint_iris_stroma_layer",
    "matchScleraTintSwatch",
    "grind_ocular_shell_edge",
    "log_spore_print_colour",
    "tagFindGridReference",
    "flag_deadly_lookalike",
    "curve_reed_tongue_blank",
    "setShallotOpeningWidth",
    "voice_reed_to_fork_pitch",
    "strike_type_matrix",
    "justifyMatrixDepth",
    "cast_sorts_for_fount",
    "fill_lock_chamber_level",
    "drawGroundPaddleGear",
    "record_lock_flight_transit",
]
_TYPES = [
    "IrisStromaPainting",
    "ScleraTintMatch",
    "OcularShellBlank",
    "SporePrintRecord",
    "ForayFindGridRef",
    "LookalikeSpeciesCheck",
    "ReedTongueCurve",
    "ShallotOpeningGauge",
    "ReedVoicingSession",
    "TypeMatrixStrike",
    "SortCastingRun",
    "FontSchemeCount",
    "LockChamberLevel",
    "GroundPaddleGear",
    "NarrowboatPassageEntry",
]
_ERRORS = [
    "IrisColourMismatchError",
    "ScleraTintDriftException",
    "OcularShellCrazingError",
    "SporePrintSmudgedError",
    "ForayGridOutOfBoundsException",
    "DeadlyLookalikeUnflaggedError",
    "ReedTongueRattleError",
    "ShallotOverOpenedException",
    "ReedPitchDriftError",
    "MatrixDepthUnevenError",
    "SortCastShortBodyException",
    "FontSchemeShortfallError",
    "LockChamberOverflowError",
    "PaddleGearJammedException",
    "NarrowboatPassageUnloggedError",
]
_MESSAGES = [
    "iris stroma layer painted a shade darker than the patient's fellow eye under daylight lamp",
    "sclera tint swatch drifted yellow after the acrylic cured overnight",
    "ocular shell blank crazed at the rim while the edge was still being ground",
    "spore print smudged before its colour could be logged against the foray card",
    "find grid reference falls outside the woodland the guild holds a permit for",
    "a death cap lookalike reached the sorting table without a warning flag",
    "reed tongue rattles against the shallot at anything above mezzo-forte",
    "shallot opening gauged wider than the stop's voicing sheet allows",
    "voiced reed drifted eight cents sharp of the tuning fork within a day",
    "type matrix struck deeper at the serif than at the stem",
    "cast sorts came out short in body height against the foundry's standard",
    "font scheme count for lowercase e fell below the case's minimum",
    "lock chamber water rose above the top cill before the gates were opened",
    "ground paddle gear jammed half drawn with a boat waiting in the chamber",
    "narrowboat passed through the flight with no entry in the passage log",
]
_ERROR_CODES = [
    "OCU-3307",
    "E_IRIS_MISMATCH",
    "MYC-5512",
    "E_LOOKALIKE_UNFLAGGED",
    "REED-2864",
    "E_TONGUE_RATTLE",
    "TYPE-9140",
    "E_MATRIX_DEPTH",
    "LOCK-6031",
    "E_PADDLE_JAM",
    "SPORE-4478",
    "E_SORT_SHORT",
]
_PATHS = [
    "ocularlab/iris/stroma_paint.py",
    "ocularlab/shells/ShellBlank.java",
    "ocularlab/tints/sclera_match.go",
    "foragers/prints/spore_print.rs",
    "foragers/finds/GridRef.kt",
    "foragers/checks/lookalike.ex",
    "reedvoicing/tongues/tongue_curve.rb",
    "reedvoicing/shallots/ShallotGauge.swift",
    "reedvoicing/sessions/voicingSession.ts",
    "typefoundry/matrices/matrix_strike.cpp",
    "typefoundry/casting/SortCaster.cs",
    "typefoundry/founts/font_scheme.ml",
    "canallocks/chambers/chamber_level.php",
    "canallocks/paddles/PaddleGear.scala",
    "canallocks/passages/boat_passage.dart",
    "canallocks/flights/lock_flight.zig",
]
_TOPICS = [
    "iris-stroma painting and sclera tint matching in the glass-eye lab",
    "ocular-shell blanks and rim grinding for the prosthetics technicians",
    "spore prints and find grid references for the mushroom-foraging guild",
    "deadly-lookalike checks at the foraging guild's sorting table",
    "reed-tongue curving and shallot openings at the organ voicer's bench",
    "reed voicing sessions against the tuning fork",
    "matrix strikes and sort casting at the letterpress type foundry",
    "font-scheme counts for the foundry's type cases",
    "lock chamber levels and paddle gear for the canal-lock keepers",
    "narrowboat passage logs along the canal authority's lock flights",
]
_TASKS = [
    "pick the closest sclera tint swatch from a photo of the patient's other eye",
    "estimate how many layers of stroma paint an iris needs to match under daylight",
    "plot the guild's foray finds onto a grid and warn when one falls outside the permit area",
    "decide from a spore print colour which lookalike checks a find still needs",
    "work out how far to curve a reed tongue to bring a stop up to its voicing sheet",
    "cast enough sorts of each letter to fill a font scheme for a new case",
    "predict how long a lock chamber takes to fill with one ground paddle drawn",
    "count narrowboat passages per lock flight per week from the keepers' logs",
]
_EVENTS = [
    "an ocular shell cracks in the curing oven",
    "a find gets logged as edible and later turns out to be a death cap",
    "a reed tongue snaps during a voicing session",
    "the type caster's mould jams mid-run",
    "a ground paddle sticks open while a lock is emptying",
    "two narrowboats enter the same lock chamber from opposite ends",
]
_SNIPPETS = [
    "dark = [p.shell_id for p in paintings if p.stroma_layers > 6 and not p.daylight_checked]",
    "for _, f := range finds {\n\tif !permit.Contains(f.GridRef) {\n\t\toutside = append(outside, f.ID)\n\t}\n}",
    "let rattling: Vec<u32> = reeds\n    .iter()\n    .filter(|r| r.gap_mm < r.min_gap_mm)\n"
    "    .map(|r| r.pipe_no)\n    .collect();",
    "List<String> shortSorts = runs.stream()\n    .filter(r -> r.getBodyMm() < r.getStandardMm())\n"
    "    .map(SortCastingRun::getLetter)\n    .toList();",
    "let overfull = chambers.filter { $0.levelCm > $0.cillCm }.map(\\.lockName)",
    "passages.reject { |p| p.logged_at }.group_by(&:flight)",
    "const sharp = sessions\n  .filter((s) => s.centsOff > 5)\n  .map((s) => s.stopName);",
    "var thin = schemes\n    .Where(s => s.Count < s.CaseMinimum)\n    .Select(s => s.Letter)\n    .ToList();",
    "val unflagged = finds.filter { it.lookalikeRisk && !it.flagged }.map { it.basketNo }",
    "SELECT flight, COUNT(*) AS boats\nFROM narrowboat_passage\nWHERE passed_on >= '2024-06-01'\nGROUP BY flight;",
]
_BODIES = [
    "def tint_distance(a, b):\n    return sum((x - y) ** 2 for x, y in zip(a.lab, b.lab)) ** 0.5",
    "func fillMinutes(chamberM3, paddleM3PerS float64) float64 {\n\treturn chamberM3 / paddleM3PerS / 60\n}",
    "fn curve_mm(cents_off: i32, length_mm: u32) -> f32 {\n    cents_off as f32 * length_mm as f32 / 4000.0\n}",
    "fun sortsNeeded(scheme: Map<Char, Int>, cases: Int): Int = scheme.values.sum() * cases",
    "fn strikeDepth(pointSize: u8) f32 {\n    return @as(f32, @floatFromInt(pointSize)) * 0.049;\n}",
    "double shellThickness(double domeMm) {\n  return domeMm < 22.0 ? 1.1 : 1.4;\n}",
    "function gridSquare(easting, northing) {\n"
    "  return `${Math.floor(easting / 1000)}-${Math.floor(northing / 1000)}`;\n}",
    "function layersFor(float $irisLum): int {\n    return (int) ceil((1.0 - $irisLum) * 8);\n}",
    "def passagesPerDay(log: Seq[Passage]): Map[LocalDate, Int] = log.groupBy(_.day).view.mapValues(_.size).toMap",
    "let spore_colour_bucket hue = if hue < 30. then `Pale else if hue < 200. then `Brown else `Dark",
]
_CODE_LINES = [
    "shell.reject = shell.rim_crazing or shell.dome_mm > 24.5",
    "if !permit.Contains(find.GridRef) { return errOutsidePermit }",
    "let rattles = reed.gap_mm < 0.3 && reed.wind_mm_wg > 75;",
    'val fit = if (shallot.openingMm in 4..7) "voiced" else "recut"',
    "find.quarantine! if find.spore_colour == :white && find.volva_seen",
    "lock.gates = chamber.levelCm >= pound.levelCm ? 'open' : 'closed';",
    "$sort['short'] = $sort['body_mm'] < $standard['body_mm'];",
    "thin = Enum.filter(schemes, &(&1.count < &1.case_min))",
    "var late = passage.LoggedAt > passage.ExitedAt.AddMinutes(30);",
    "final uneven = (matrix.serifDepth - matrix.stemDepth).abs() > 0.02;",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "{T} -> declaring file + line?",
        "so I've spent most of the afternoon in the code behind {topic} chasing a bug, and {fn} shows up in every "
        "stack I look at, but I honestly can't find the file where it's written; which file is it in?",
        "wheres {fn} implemnted, cant find the fucntion body anywere",
        '{{"tool": "lookup_symbol", "kind": "definition", "name": "{T}"}}',
        "agent: find the file and line where {T} is declared and report just that; don't touch any code",
        'Exception in thread "main" java.lang.NoClassDefFoundError: works/{T}\n\tat {qual}({T}.java:{n})\n\n'
        "where's the source for {T}? which module is it in?",
        '{path}:{n}: error: Name "{T}" is not defined  [name-defined]\n\nwhich module defines {T}? I need the '
        "right import",
        "{path}:{n}:14: undefined: {T}\n\nwhere does the type {T} live in this repo?",
        "val m = {T}(id = 7)\nkotlin: Ctrl+B on {T} opens a decompiled stub. where is the real declaration?",
        'ts=2024-09-{n}T10:14:02Z level=info caller={path}:{n} msg="{fn} finished"\n\nwhere is {fn} written? '
        "I want to read its body",
        "[codeowners-bot] no owner matched for {T}. Which file declares it, so the right team can be tagged?",
        "fix: import {T} from its new home\n\nwhere is {T} declared now? the old path is gone",
        "for the {topic} work, where does {fn} get defined? only the definition please, not the usages",
        "error: incomplete type '{T}' used in nested name specifier\n\nwhich header actually defines {T}, "
        "not just forward-declares it?",
        'PHP Fatal error:  Uncaught Error: Class "{T}" not found in {path}:{n}\n\nwhere is the {T} class '
        "defined in this project?",
        "impl {T} {{\n    pub fn {fn}(&self) {{ todo!() }}\n}}\nrust: this is only an impl block. where is the "
        "struct {T} itself declared?",
    ],
    "find_references": [
        "{qual} inbound call graph",
        "I'm about to put a cache in front of {fn} and need to know who depends on it: every place in the "
        "services, the CLI tools and the old migration scripts that calls it, since some may expect fresh data",
        "were is {T} used, need all the usages pls",
        '{{"tool": "find_usages", "target": "{qual}", "include_tests": true}}',
        "agent, map out every caller of {fn} across the monorepo and give me a path:line list; don't fix anything",
        "class {T}(ABC):\n    @abstractmethod\n    def {fn}(self): ...\n\npython: which subclasses implement {T}?",
        "export interface {T} {{\n  {fn}(): void;\n}}\nts: what classes implement this interface?",
        "protocol {T} {{\n    func {fn}()\n}}\nswift: which types conform to {T}?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n    raise {err}(detail)\n'
        "{err}: {msg}\n\nwhere else is {err} raised? list every raise site",
        "{path}:{n}:in `{fn}': {msg} ({err})\n\nshow me all the callers of {fn}; I want to know which one "
        "passed the bad value",
        "[dead-code-bot] {fn} looks unused. Before it is deleted, list any references to it, including dynamic "
        "ones in config files.",
        "wip: track down users of {T}\n\nwhere is {T} constructed or passed around?",
        "in the {topic} code, which functions call {fn}? just the direct callers is fine",
        "abstract class {T} {{ public abstract void {Fn}(); }}\nc#: list the subclasses that override {Fn}",
        "[error] 2024-10-{n} 08:41:17.220 {fn} failed: {msg}\n\nwho calls {fn}? need every call site to see "
        "which one fed it this",
        "type {T} interface {{\n\t{Fn}() error\n}}\ngo: which structs satisfy {T}?",
    ],
    "impact_analysis": [
        "{T} field removal blast radius",
        "there's a proposal to change {fn} so it takes one options object instead of five positional arguments, "
        "and I've been asked to size the work; which callers, tests and downstream services would have to change?",
        "if i chnage the return type of {fn} what stuff brakes",
        '{{"intent": "what_breaks", "symbol": "{T}", "edit": {{"drop_field": "label"}}}}',
        "agent, dry run only: if {qual} were made async, which call chains would need to await it? list them, "
        "edit nothing",
        "public {T} {fn}(String id) throws {err}\njava: if this stops declaring {err}, what code that catches it "
        "breaks?",
        "pub fn {fn}(r: &{T}) -> Result<u32, {err}>\nrust: switching this to return Option<u32>, which crates "
        "stop compiling?",
        "@dataclass(frozen=True)\nclass {T}:\n    label: str\n    weight: float\n\npython: if label is dropped "
        "from {T}, what breaks across the repo?",
        "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation "
        "violation]\n\ngoroutine 7 [running]:\n{qual}(...)\n\t{path}:{n} +0x4c\n\nif {fn} returns an error "
        "instead of a nil pointer from now on, which callers need to change?",
        "kotlin.UninitializedPropertyAccessException: lateinit property store has not been initialized\n"
        "\tat {qual}({T}.kt:{n})\n\nif we make the store a constructor parameter of {T}, what's affected?",
        "[semver-bot] {qual} changed its return type in this PR. Which downstream packages does that break?",
        "perf!: make {fn} lazy\n\nwhat relies on it running eagerly? need the fallout before merge",
        "if we deleted {T} from the {topic} code entirely, how much would fall over, and where?",
        "ALTER TABLE bookings DROP COLUMN legacy_ref;\nsql: once this runs, which parts of {T} and the reports "
        "built on it would break?",
        "{path}:{n}:9 - error TS2345: Argument of type 'string' is not assignable to parameter of type '{T}'.\n\n"
        "if we widen {fn} to accept a plain string, what else has to change or could break?",
        "message {T} {{\n  int64 id = 1;\n  string label = 2;\n}}\nproto: if field 2 is renumbered, which "
        "services and stored payloads are affected?",
    ],
    "exact_match": [
        '"{ecode}" literal occurrences',
        "support keeps getting tickets quoting {ecode}, and I need every place that string appears character for "
        "character: sources, YAML, runbooks, even test fixtures, with no partial matches or similar-looking codes",
        "serch for the exakt text {ecode} evrywhere",
        '{{"tool": "ripgrep", "pattern": "{err}", "fixed_strings": true}}',
        'agent: run a fixed-string search for "{msg}" over the whole repo and paste back path:line matches; '
        "no fuzzy hits",
        "ERROR {path}:{n} [{ecode}] {msg}\n\nwhere in the code is that exact message string?",
        "Oct {n} 04:12:55 worker-3 app[2231]: {ecode}: {msg}\n\nfind the line that emits this exact text",
        'throw new {err}("{Msg}");\njava: grep for this exact string literal. is it thrown anywhere else?',
        'return fmt.Errorf("{ecode}: %w", err)\ngo: every file with this same format string, exactly',
        'raise {err}("{msg}")\npython: list every identical raise statement in the codebase',
        "[secrets-bot] the token '{ecode}' appears in a committed file. Find every verbatim occurrence.",
        "chore: retire error code {ecode}\n\nfirst find every literal use of the old code",
        "which files contain the string '{msg}' word for word?",
        "thread 'main' panicked at {path}:{n}:5:\n{msg}\nnote: run with `RUST_BACKTRACE=1` environment "
        "variable to display a backtrace\n\nwhere is that exact panic message written in the source?",
        '{{"level":"error","ts":"2024-11-{n}T06:30:00Z","code":"{ecode}","msg":"{msg}"}}\n\ngrep the repo for '
        "that exact msg string",
        'check(ok) {{ "{Msg}" }}\nkotlin: does this exact message show up anywhere else?',
    ],
    "find_similar": [
        "{path}: copy-pasted from where?",
        "review keeps flagging that the modules for {topic} reimplement the same rounding and bucketing logic, so "
        "before I write yet another version in {fn}, show me existing functions that do roughly the same thing",
        "any duplicat code like {T} somwhere else?",
        '{{"tool": "semantic_search", "mode": "similar_to", "symbol": "{qual}", "top_k": 5}}',
        "agent, look for code structurally similar to {path} in other packages and list the matches with a "
        "one-line reason each; read only",
        "{body}\n\ndo we already have something like this?",
        "{snippet}\n\nfind other places doing this same filtering pattern",
        "{code}\n\nother lines in the repo with the same shape?",
        "func {Fn}(xs []{T}) map[string]int {{\n\tout := map[string]int{{}}\n\tfor _, x := range xs {{\n"
        "\t\tout[x.Kind]++\n\t}}\n\treturn out\n}}\ngo: are there other tally functions like this one?",
        "export const {fn} = (xs: {T}[]) => xs.reduce((a, x) => a + x.weight, 0);\nts: similar reducers "
        "elsewhere in the codebase?",
        "[dup-bot] {fn} is 87% similar to code elsewhere. Which functions is it similar to?",
        "refactor: dedupe validation helpers\n\nfind functions resembling {fn} so they can be merged",
        "we need to {task}; is there existing code for {topic} that does something comparable I could reuse?",
        "def {fn}(rows):\n    return {{r.key: r for r in rows if r.active}}\npython: other dict-building "
        "helpers like this?",
        "public static IEnumerable<{T}> {Fn}(this IEnumerable<{T}> xs) => xs.Where(x => x.IsValid).OrderBy(x "
        "=> x.At);\nc#: similar extension methods elsewhere?",
        "fn {fn}(xs: &[{T}]) -> Option<&{T}> {{\n    xs.iter().max_by_key(|x| x.score)\n}}\nrust: any other "
        "max-by helpers written the same way?",
    ],
    "understand_code": [
        "{T} role in plain english",
        "there's a comment above {fn} that just says 'do not reorder' and nothing else, and I've spent the morning "
        "trying to work out what would go wrong if its steps ran in another order; what is it doing, and why "
        "does the order matter?",
        "wat does {T} even do, the naming is confusin",
        '{{"tool": "explain_symbol", "name": "{qual}", "depth": "summary"}}',
        "agent, read {path} and explain how the pieces fit together in plain language; no refactors",
        "{body}\n\ncan you explain the math here?",
        "{snippet}\n\nwhat does this return, in words?",
        "{code}\n\nwhy would someone write the check this way?",
        'java.lang.NullPointerException: Cannot invoke "{T}.{fn}()" because "this.current" is null\n'
        "\tat {qual}({T}.java:{n})\n\nhow can current be null at this point? what's the lifecycle of {T}?",
        "TypeError: Cannot read properties of undefined (reading 'length')\n    at {fn} ({path}:{n}:19)\n\n"
        "what is {fn} expecting to receive here, and why would it be undefined?",
        "[review-bot] {fn} mixes retries with caching; please explain briefly in the PR how the two interact.",
        "docs: write down the invariants of {T}\n\nwhat invariants does {T} actually keep? I need to understand "
        "them first",
        "when {event}, what does the {topic} code do about it? walk me through the flow",
        "Fatal error: Unexpectedly found nil while unwrapping an Optional value\n{path}:{n}\n\nwhy is this "
        "optional nil in {fn}? what is supposed to set it?",
        "** (FunctionClauseError) no function clause matching in {qual}/2\n\nwhat inputs does {fn} accept? "
        "I don't follow the pattern matching",
        "{fn} = foldr (\\x acc -> if ok x then x : acc else acc) []\nhaskell: what does {fn} build, and why "
        "foldr rather than filter?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fiftyfourth", seed=5454)

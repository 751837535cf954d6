"""A fifty-fifth held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fiftyfourth.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by
another hand than the change, in one sitting, from the layout of ``routing_fiftyfourth.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the fifty-fourth's was reworded,
and no classifier, router or model was asked about any of its phrasings while they were written. It keeps
the usual spread of voices, spread evenly over the six intents: two- to four-word keyword queries and long
rambling ones, misspellings, lowercase chat, questions and orders, tool calls written as JSON, requests to a
coding agent, review-bot, api-usage-bot, breaking-change-bot, i18n-bot and similarity-bot comments, commit
messages, pasted output (a .NET TypeLoadException and unhandled exception, rustc, javac and C++ compiler
errors, a Node ReferenceError, a Python ImportError, TypeError and KeyError traceback, a Java exception, a Go
test failure, Go panic and deadlock, a Dart bad-state error, a Scala MatchError, a Kubernetes event, Python
logging, RFC 5424 syslog, log4j and Elixir-Logger log lines) with a line of words under it, and declarations
and snippets pasted as typed in Python, Go, Rust, Kotlin, Java, Swift, C#, TypeScript, JavaScript, Ruby, PHP,
C++, Scala, Elixir, Clojure, F#, Lua, GraphQL and SQL. About half its templates are plain questions with
nothing pasted; the other half are pasted things with a question under them: declarations asking where they
are declared, who implements, derives from or mixes them in, what breaks if they change, what resembles
them, or what they mean; and pasted output asking where the named code or type is declared, who else calls
it, what a change to it would break, where its exact text is written, or why it happens. The label is always
what the asker wants, not which words appear.
Three templates met others (``test_intent_model``): two short keyword queries met training templates (a
callers one and a literal-grep one) and a third short keyword query (a near-duplicates one) met another set's;
each was replaced by one of another shape, not reworded. No filler met a training filler or another set's. A
script that printed only this set's own colliding templates picked them out; no other set's templates or
fillers were read for it.

Its slot fillers come from five domains, and no filler is another set's: a salt-marsh harvesting crew
(samphire beds cut against the tide table, sea-purslane crates, creek crossings), a beekeepers' queen-rearing
yard (larva grafting, queen-cell bars, mating nucs), a falconry mews (jess and hood fitting, flying weights,
creance training), a snow-groomer fleet at a ski hill (tiller depth, winch-cable tension, overnight piste
passes) and a cider press cooperative (pomace racking, juice gravity, keeving vats). None is a training
filler (``test_intent_model`` checks both). ``benchmarks/routing.py`` reports it beside the other held-out
sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "cut_samphire_by_tide_window",
    "weighSeaPurslaneCrate",
    "log_creek_crossing_depth",
    "graft_larvae_into_cell_cups",
    "markVirginQueenThorax",
    "allot_mating_nuc_box",
    "trim_hawk_jess_length",
    "recordFalconFlyingWeight",
    "fit_hood_to_eyass",
    "set_tiller_cut_depth",
    "tensionWinchCableForPitch",
    "plan_overnight_piste_passes",
    "rack_pomace_cheese_layer",
    "readJuiceSpecificGravity",
    "schedule_keeving_vat_rest",
]
_TYPES = [
    "SamphireTideWindow",
    "PurslaneCrateWeight",
    "CreekCrossingGauge",
    "LarvaGraftBatch",
    "QueenCellBar",
    "MatingNucAllotment",
    "JessLengthFitting",
    "FlyingWeightLog",
    "HawkHoodFit",
    "TillerCutDepth",
    "WinchCableTension",
    "PisteGroomingPass",
    "PomaceCheeseRack",
    "JuiceGravityReading",
    "KeevingVatRest",
]
_ERRORS = [
    "TideWindowClosedError",
    "PurslaneCrateOverweightException",
    "CreekCrossingTooDeepError",
    "LarvaTooOldToGraftError",
    "QueenCellTornDownException",
    "MatingNucUnqueenedError",
    "JessFrayedException",
    "FlyingWeightBelowKeenError",
    "HoodFitTooTightError",
    "TillerDepthExceededError",
    "WinchCableSlackException",
    "PisteLeftUngroomedError",
    "PomaceCheeseSlumpError",
    "GravityReadingOutOfRangeException",
    "KeevingVatTooWarmError",
]
_MESSAGES = [
    "flood tide covered the lower samphire beds before the crew finished cutting",
    "sea purslane crate weighed in over the buyer's twelve kilo limit",
    "creek crossing gauge read knee depth on an ebb the tide table called dry",
    "grafted larva was older than thirty-six hours and the cell was drawn out as a worker",
    "three queen cells on bar two were torn down by the starter colony overnight",
    "mating nuc still had no laying queen twenty-one days after the cell went in",
    "harris hawk's left jess frayed through at the eyelet during a creance flight",
    "flying weight logged forty grams under the bird's keen weight before the morning hunt",
    "hood fitted to the young peregrine pinched at the beak opening",
    "tiller dug thirty centimetres into the base on the lower beginner run",
    "winch cable went slack on the steep pitch while the groomer was still climbing",
    "black run left ungroomed after the overnight pass list skipped it",
    "pomace cheese slumped out of its cloths on the fourth layer of the rack",
    "juice specific gravity read 1.090, above the range the press sheet accepts",
    "keeving vat warmed past twelve degrees before the brown cap formed",
]
_ERROR_CODES = [
    "MARSH-4127",
    "E_TIDE_CLOSED",
    "APIS-7302",
    "E_CELL_TORN",
    "MEWS-1958",
    "E_JESS_FRAYED",
    "PISTE-8840",
    "E_WINCH_SLACK",
    "CIDR-3615",
    "E_KEEVE_WARM",
    "QREAR-2290",
    "E_TILLER_DEEP",
]
_PATHS = [
    "saltmarsh/tides/tide_window.py",
    "saltmarsh/crates/PurslaneCrate.java",
    "saltmarsh/creeks/crossing_gauge.go",
    "queenyard/grafts/larva_graft.rs",
    "queenyard/cells/QueenCellBar.kt",
    "queenyard/nucs/mating_nuc.exs",
    "mews/jesses/jess_fitting.rb",
    "mews/weights/FlyingWeight.swift",
    "mews/hoods/hoodFit.ts",
    "groomers/tillers/tiller_depth.cpp",
    "groomers/winches/WinchTension.cs",
    "groomers/pistes/piste_pass.hs",
    "ciderpress/racks/cheese_rack.php",
    "ciderpress/gravity/GravityReading.scala",
    "ciderpress/keeving/keeving_vat.lua",
    "ciderpress/labels/bottleLabel.tsx",
]
_TOPICS = [
    "samphire cutting against the tide table for the salt-marsh crew",
    "sea-purslane crates and creek crossings on the salt marsh",
    "larva grafting and queen-cell bars in the queen-rearing yard",
    "mating nucs and queen marking for the beekeepers",
    "jess fitting and hood fitting in the falconry mews",
    "flying weights and creance training for the mews' hawks",
    "tiller depth and winch-cable tension for the snow-groomer fleet",
    "overnight piste-pass planning at the ski hill",
    "pomace racking and juice gravity at the cider press cooperative",
    "keeving vats and bottle labelling for the cider co-op",
]
_TASKS = [
    "work out from the tide table which samphire beds the crew can still reach before the flood",
    "split the day's sea-purslane harvest into crates that each stay under the buyer's limit",
    "pick which grafted cell bars go to which starter colony so none gets more than it can feed",
    "track how many days each mating nuc has gone without a laying queen",
    "warn the falconer when a hawk's morning weight drops below its keen weight",
    "order the overnight groomer passes so the steepest pitches get winch-assisted first",
    "estimate juice yield per rack from the pomace weight and cloth count",
    "flag keeving vats whose temperature rises before the cap forms",
]
_EVENTS = [
    "a spring tide floods the marsh while the crew is still out on the beds",
    "a starter colony tears down a whole bar of queen cells",
    "a hawk slips its jesses and flies off the creance",
    "a groomer's winch anchor pulls loose on a steep pitch",
    "the press cloth tears mid-rack and pomace spills into the juice tray",
    "a mating nuc absconds with its new queen",
]
_SNIPPETS = [
    "late = [b.bed_id for b in beds if b.reach_minutes > window.minutes_left and not b.cut]",
    "for _, n := range nucs {\n\tif n.DaysQueenless > 21 {\n\t\trequeen = append(requeen, n.Box)\n\t}\n}",
    "let light: Vec<&str> = hawks\n    .iter()\n    .filter(|h| h.weight_g < h.keen_g)\n"
    "    .map(|h| h.name.as_str())\n    .collect();",
    "List<Integer> deep = passes.stream()\n    .filter(p -> p.getTillerCm() > p.getMaxCm())\n"
    "    .map(PisteGroomingPass::getRunNo)\n    .toList();",
    "warm = vats |> Enum.filter(&(&1.temp_c > 12 and not &1.capped)) |> Enum.map(& &1.vat_no)",
    "crates.select { |c| c.kg > 12 }.map(&:buyer)",
    "const torn = bars\n  .flatMap((b) => b.cells)\n  .filter((c) => c.state === 'torn');",
    "var slack = winches\n    .Where(w => w.TensionKn < w.PitchMinKn)\n    .Select(w => w.GroomerId)\n    .ToList();",
    "(->> readings (filter #(> (:sg %) 1.085)) (map :batch-no))",
    "SELECT bed, SUM(kg) AS cut_kg\nFROM samphire_harvest\nWHERE cut_on >= '2024-07-01'\nGROUP BY bed;",
]
_BODIES = [
    "def minutes_left(low_water, now, margin=20):\n    return max(0, (low_water + 150 - now) - margin)",
    "func graftAgeOK(hours float64) bool {\n\treturn hours >= 12 && hours <= 36\n}",
    "fn keen_weight(flying_g: u32) -> u32 {\n    flying_g * 94 / 100\n}",
    "fun cratesNeeded(totalKg: Double, limitKg: Double): Int = kotlin.math.ceil(totalKg / limitKg).toInt()",
    "let winchKn grade massT = massT * 9.81 * sin (atan (grade / 100.0))",
    "int cellsPerBar(int starterFrames) {\n  return starterFrames >= 8 ? 15 : 10;\n}",
    "function tideWindow(lowAt, rangeM) {\n  return { from: lowAt - 90, to: lowAt + rangeM * 30 };\n}",
    "function juiceLitres(float $pomaceKg, int $cloths): float {\n    return $pomaceKg * 0.62 - $cloths * 0.4;\n}",
    "def keevingDays(tempC: Double): Int = if (tempC < 6) 21 else if (tempC < 10) 14 else 7",
    "local function hood_size(beak_mm)\n  if beak_mm < 18 then return 'small' end\n"
    "  return beak_mm < 24 and 'medium' or 'large'\nend",
]
_CODE_LINES = [
    "bed.reachable = tide.minutes_to_flood > bed.walk_minutes + 15",
    "if nuc.DaysQueenless > 21 { return errRequeen }",
    "let hungry = hawk.weight_g < hawk.keen_g - 10;",
    'val verdict = if (cell.ageHours in 12..36) "graft" else "skip"',
    "rack.restack! if rack.slump_mm > 40 && rack.layer >= 4",
    "groomer.winch = pitch.gradePct >= 35 ? 'engaged' : 'free';",
    "$crate['over'] = $crate['kg'] > $buyer['limit_kg'];",
    "warm = Enum.any?(vats, &(&1.temp_c > 12))",
    "var deep = pass.TillerCm > run.BaseCm * 0.3;",
    "final tooSweet = reading.gravity > 1.085;",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "{fn} - defined in which file",
        "I'm new on the team that maintains the code for {topic}, and reading through a pull request I keep seeing "
        "{T} used as if everybody already knows it, but jump-to-definition is broken on my machine; could someone "
        "tell me which file it is actually declared in?",
        "cant locate the decleration of {T}, which fiel is it in",
        "hey quick one, where does {fn} live? like the actual def, not an import of it",
        '{{"action": "goto_definition", "symbol": "{qual}", "return": "path_and_line"}}',
        "Agent task: locate the declaration of {fn} and return its file path and line number. Read-only; no edits, "
        "no explanation.",
        "System.TypeLoadException: Could not load type '{T}' from assembly 'Works.Core'.\n   at {qual}()\n\n"
        "where is {T} declared in the solution? which project owns it?",
        "error[E0412]: cannot find type `{T}` in this scope\n --> {path}:{n}:17\n\nwhere is `{T}` defined, so I "
        "can add the right `use`?",
        "{path}:{n}: error: cannot find symbol\n  symbol:   class {T}\n\nwhich package is {T} declared in?",
        "2024-05-{n} 06:02:11,884 INFO [{fn}] {msg}\n\nthis gets logged from inside {fn}; where's that function "
        "defined?",
        "extension {T} {{\n    func {fn}() {{ }}\n}}\nswift: that's only an extension. where's the original type "
        "declaration of {T}?",
        "[review-bot] This PR calls {fn} but the diff doesn't show its signature. Link the file where it's "
        "defined, please.",
        "refactor: move {T} out of utils\n\nbefore I move it, where is {T} defined today?",
        "Which module declares {T}? It belongs to the {topic} code.",
        "ReferenceError: {fn} is not defined\n    at Object.<anonymous> ({path}:{n}:3)\n\nwhere is {fn} "
        "supposed to come from? which file exports it?",
        "from . import {fn}\n# ImportError: cannot import name '{fn}'\n\nwhere is {fn} actually defined in this "
        "package?",
    ],
    "find_references": [
        "inbound refs to {T} (tests included)",
        "we're deprecating {T} next quarter and I've been asked to write up the migration plan, which means I "
        "first need a full inventory of everywhere it's referenced: constructors, type annotations, serialized "
        "names, tests, the lot",
        "pls find evry refrence to {fn}, i think its called from like ten places",
        "who still uses {T}? just want the list of spots",
        '{{"op": "references", "symbol": "{T}", "scope": "workspace", "group_by": "file"}}',
        "Agent: enumerate every call site of {qual} in the repo, grouped by package. Don't change anything, just "
        "report.",
        "sealed class {T} {{\n    abstract fun {fn}(): Int\n}}\nkotlin: which subclasses of {T} exist, and where?",
        "trait {T} {{\n  def {fn}(): Unit\n}}\nscala: list every class or object that mixes in {T}",
        "pub trait {T} {{\n    fn {fn}(&self) -> u32;\n}}\nrust: every `impl {T} for` in the workspace?",
        "{err}: {msg}\n\tat {qual}({T}.java:{n})\n\tat works.Scheduler.run(Scheduler.java:88)\n\nwho else calls "
        "{fn} besides Scheduler? list all the callers",
        "--- FAIL: Test{Fn} (0.00s)\n    {path}:{n}: {msg}\n\nwhich other packages call {Fn}? I need the full "
        "set of call sites",
        "[api-usage-bot] {T} is marked internal. Please list every file outside its package that references it.",
        "chore: audit {fn} usage\n\nwhere is {fn} called from? a grep-level list is fine",
        "In the {topic} modules, where do we reference {T}? imports and instantiations both count.",
        "<134>1 2024-08-{n}T02:11:09Z groomer-7 fleetd 412 - - {fn}: {msg}\n\nfind every place {fn} gets "
        "invoked; one of them is passing it garbage",
        "class {T} {{\n public:\n  virtual void {fn}() = 0;\n}};\nc++: which classes derive from {T} and "
        "override {fn}?",
    ],
    "impact_analysis": [
        "renaming {T}: what breaks",
        "the co-op wants {fn} to start rounding to one decimal place instead of three, which sounds harmless, but "
        "I've been burned before; before I agree, can you work out which reports, callers and tests depend on "
        "the current precision and would change or fail?",
        "whats the fallout if {T} gets split in to two clases",
        "if i make {fn} throw instead of returning None whats gonna break downstream",
        '{{"task": "change_impact", "target": "{qual}", "change": "rename", "new_name": "{fn}_v2"}}',
        "Agent: estimate the impact of making {T} immutable. List affected files and tests, rank them by risk, "
        "change nothing.",
        "func {Fn}(ctx context.Context, id string) (*{T}, error)\ngo: if ctx is dropped from this signature, "
        "which callers have to be updated?",
        "export type {T} = {{ id: string; kg: number }};\nts: if kg becomes integer grams, which modules are affected?",
        "public record {T}(string Id, decimal Weight);\nc#: adding a required third positional parameter to "
        "{T}; what breaks?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in <module>\n    {fn}(batch, strict=True)\n'
        "TypeError: {fn}() got an unexpected keyword argument 'strict'\n\nif we add a strict parameter to {fn} "
        "for real, what else needs updating and what could break?",
        "{path}:{n}:22: error: no matching function for call to '{fn}(int)'\n\nif we add an overload of {fn} "
        "taking int, which existing calls might silently resolve differently?",
        "[breaking-change-bot] {T} lost a public constructor in this diff. Which modules and services are impacted?",
        "BREAKING CHANGE: {fn} now returns a list\n\nwhat does this break? need the affected call sites and tests "
        "before tagging the release",
        "what would be affected if {fn} were removed from the {topic} code?",
        "Unhandled exception:\nBad state: No element\n#0      {qual} ({path}:{n}:7)\n\nif {fn} returns null "
        "here instead of throwing, who downstream has to cope with that?",
        "type {T} {{\n  id: ID!\n  weight: Float\n}}\ngraphql: if weight becomes non-null, which clients and "
        "resolvers are affected?",
    ],
    "exact_match": [
        "{err} verbatim hits, whole tree",
        "an old runbook tells on-call to look for '{msg}' in the logs, but nobody knows if the code still prints "
        "it exactly like that; find me every file where that sentence appears verbatim, not paraphrases",
        "look up the exakt string {err} in all the fiels, literal match only",
        "where does '{ecode}' show up, exact string, anywhere in the repo",
        '{{"tool": "text_search", "query": "{msg}", "regex": false, "case_sensitive": true}}',
        "Agent: literal search for `{ecode}` in all tracked files, docs and fixtures included; report every hit "
        "as path:line.",
        "2024-03-{n} 11:40:02.118 ERROR [main] {qual} - {Msg}\n\nsearch for that exact message text; which file "
        "prints it?",
        "Warning  BackOff  pod/press-worker-{n}  {ecode} {msg}\n\nwhere is the string '{ecode}' written verbatim?",
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.{fn}()\n\t{path}:{n} +0x1d\n\nexact string search for "
        "that panic text please",
        'throw new Error("{ecode}: {msg}");\njs: find every identical throw of this string across the repo',
        'raise {err}, "{Msg}"\nruby: is this exact string raised anywhere else?',
        "[i18n-bot] hard-coded string '{Msg}' found. List every verbatim occurrence so they can all move into "
        "the catalogue.",
        "fix: typo in {ecode} message\n\nlist every place with the literal string {ecode} so I catch all the copies",
        "Is the error code {ecode} written anywhere besides the constants file? exact matches only.",
        "Unhandled exception. {err}: {Msg}\n   at {qual}() in {path}:line {n}\n\nfind the exact text of that "
        "message in the source",
        "12:03:{n}.441 [error] {ecode} {msg}\n\ngrep for this exact line",
    ],
    "find_similar": [
        "dupes of {fn} logic in other modules",
        "I just spent an hour writing a helper for {topic} that batches readings by hour and drops outliers, and a "
        "colleague swears something like it already exists somewhere; can you hunt for functions that do "
        "essentially the same job, even if they're named differently?",
        "is ther anything simmilar to {fn} allready in the codebase",
        "got anything that looks like {T} but for a different thing? want to copy the pattern",
        '{{"tool": "code_search", "similar_to": "{path}", "kind": "near_duplicate", "limit": 10}}',
        "Agent: find functions whose logic resembles {qual} (same steps, possibly other names) and list them with "
        "file paths. No edits.",
        "{body}\n\nhave we written this anywhere else already?",
        "{snippet}\n\nwhere else do we filter and collect like this?",
        "{code}\n\nfind lines elsewhere that make the same kind of check",
        "fun {fn}(xs: List<{T}>): Map<String, List<{T}>> = xs.groupBy {{ it.kind }}\nkotlin: other groupBy "
        "helpers written like this one?",
        "def {fn}(xs):\n    return sorted(xs, key=lambda x: (x.day, -x.kg))[:10]\npython: similar top-N sorters "
        "anywhere else?",
        "[similarity-bot] {path} shares 41 lines with another file. Which file or files does it duplicate?",
        "refactor: one retry helper to rule them all\n\nfind every hand-rolled retry loop that looks like the one "
        "in {fn}",
        "I'm about to {task}. Is there code that already does something close to that?",
        "public static {T} {fn}(List<{T}> xs) {{\n    return xs.stream().min(Comparator.comparing({T}::getAt))"
        ".orElse(null);\n}}\njava: other min-by helpers like this?",
        "def {fn}(rows)\n  rows.each_slice(50).map {{ |s| s.sum(&:kg) }}\nend\nruby: do we have other batching "
        "helpers shaped like this?",
    ],
    "understand_code": [
        "{qual} explained",
        "I inherited the service for {topic} last week, and there's this {T} class with a state machine spread "
        "over four files, callbacks everywhere and a comment saying 'see Dave' (Dave has left); can someone walk "
        "me through what it actually does and what triggers each transition?",
        "cna someone explian what {fn} does, the logic is confusng",
        "so what's the point of {T}? like what problem is it solving",
        '{{"tool": "describe", "target": "{path}", "audience": "new hire", "detail": "high"}}',
        "Agent: read {qual} and summarise in a few sentences what it does and what side effects it has. Don't "
        "modify anything.",
        "{body}\n\nwhat is this calculating, and where do the constants come from?",
        "{snippet}\n\nexplain step by step what this produces",
        "{code}\n\nwhat is this line deciding?",
        "scala.MatchError: {T}(...) (of class {T})\n\tat {qual}({T}.scala:{n})\n\nwhy doesn't the match in {fn} "
        "cover this case? what cases is it meant to handle?",
        "Traceback (most recent call last):\n  File \"{path}\", line {n}, in {fn}\nKeyError: 'tide_low'\n\n"
        "what does {fn} expect to find in that dict, and who is meant to fill it?",
        "[review-bot] The purpose of {T} isn't clear from this diff. Could you explain what it's responsible for?",
        "docs: explain {fn}\n\nbefore I write the docstring, what does {fn} actually do and when is it called?",
        "what happens in the code when {event}? I want to understand the sequence, not change it",
        "fatal error: all goroutines are asleep - deadlock!\n\ngoroutine 1 [chan receive]:\nmain.{fn}()\n\t"
        "{path}:{n} +0x88\n\nhow does {fn} use its channels? I don't get why it blocks here",
        "(defn {fn} [xs]\n  (reduce (fn [acc x] (update acc (:kind x) (fnil inc 0))) {{}} xs))\nclojure: what "
        "does this return, and what is fnil doing?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fiftyfifth", seed=5555)

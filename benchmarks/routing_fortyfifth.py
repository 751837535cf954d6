"""A forty-fifth held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fortyfourth.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by a
different hand than the change, in one sitting, from the layout of ``routing_fortyfourth.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the forty-fourth's was reworded, and
no classifier, router or model was asked about any of its phrasings while they were written. It keeps the
usual spread of voices, spread evenly over the six intents: two- and three-word keyword queries and long
rambling ones, misspellings, lowercase chat, questions and orders, tool calls written as JSON, requests to an
agent, review-bot, lint-bot and CI-bot comments, commit messages, pasted output (Go panics, Python tracebacks,
Java, Kotlin and C# exceptions, a C++ terminate message, Node stacks, timestamped log lines) with a line of
words under it, and declarations pasted as typed in Go, Rust, Kotlin, Java, Python, Swift, C#, TypeScript,
Ruby, PHP, C++, Scala, Elixir, Haskell and OCaml. It leans on pasted things with a question under them:
declarations and snippets (one line or several) asking who implements, extends, includes or calls them, what
breaks if they change, where they are declared, what code looks like them, or what they do; and pasted output
asking where the named code lives, who else calls it, who must catch the error once it changes, where its text
is written, or why it happens. About a third of its templates are plain everyday questions with nothing
pasted. The label is always what the asker wants, not which words appear.
Four templates met a training template (two) or another set's (two) (``test_intent_model``) and were
replaced by ones of another shape, not reworded; a script that printed only this set's own colliding templates
picked them out, though the test's failure output showed fragments of other sets' templates.

Its slot fillers come from five domains, and no filler is another set's: a pottery kiln co-op (glaze batches,
kiln loading, cone firing logs, studio shelf rentals), a sheepdog trial club (run scores, outrun times, course
judges, the draw for run order), a mobile library van (route stops, overdue notices, borrower cards), a cheese
cave (wheel turning, rind washing, affinage logs, cave humidity) and a tall-ship sailing school (watch bills,
rigging checks, trainee musters, sail plan changes). None is a training filler (``test_intent_model`` checks
both). ``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "load_bisque_shelf",
    "mixGlazeBatch",
    "log_cone_ten_firing",
    "reserveKilnSlot",
    "score_outrun_phase",
    "assignCourseJudge",
    "record_shed_penalty",
    "drawTrialRunOrder",
    "plan_van_route_stop",
    "sendVanOverdueNotice",
    "renew_borrower_card",
    "scanVanReturn",
    "turn_cheese_wheels",
    "washRindInBrine",
    "log_affinage_reading",
    "gradeCaveHumidity",
    "draft_watch_bill",
    "signRiggingCheck",
    "muster_trainee_crew",
    "logSailPlanChange",
]
_TYPES = [
    "GlazeBatchSheet",
    "KilnLoadPlan",
    "ConeFiringLog",
    "StudioShelfRental",
    "TrialRunScore",
    "CourseJudgePanel",
    "ShedPenaltyEntry",
    "VanRouteStop",
    "VanOverdueNotice",
    "VanBorrowerCard",
    "CheeseWheelTurn",
    "RindWashSchedule",
    "AffinageLogEntry",
    "TallShipWatchBill",
    "RiggingCheckSheet",
    "TraineeMuster",
]
_ERRORS = [
    "GlazeBatchUnderweightError",
    "KilnOverpackedException",
    "ConeReadingMismatchError",
    "OutrunTimeExceededException",
    "JudgeConflictOfInterestError",
    "VanStopUnreachableException",
    "BorrowerCardLapsedError",
    "RindTooWetException",
    "WatchBillGapError",
]
_MESSAGES = [
    "glaze batch mixed with less frit than the recipe card calls for",
    "kiln loaded past its shelf weight limit for a cone ten firing",
    "firing logged as cone six but the witness cone slumped to cone eight",
    "studio shelf rented to a potter whose co-op dues are unpaid",
    "outrun scored after the handler had already left the post",
    "course judge assigned to a run by a dog from their own kennel",
    "shed penalty recorded for a run that never reached the shedding ring",
    "van route stop scheduled on a lane the van cannot turn in",
    "overdue notice sent for a book that was scanned back in on the van",
    "borrower card renewed without a current address on file",
    "cheese wheel marked as turned twice on the same day",
    "rind washed in brine weaker than the cave's minimum salinity",
    "affinage reading logged for a wheel that was already sold",
    "watch bill leaves the middle watch without a qualified officer",
    "rigging check signed off while a trainee was still aloft",
]
_ERROR_CODES = ["KLN-2207", "GLZ-615", "E_CONE_DRIFT", "SDT-0348", "LVAN-119", "EVANSTOP", "CAVE-8842", "BRIG-073"]
_PATHS = [
    "claybarn/glaze/glaze_batch.py",
    "claybarn/loading/KilnLoad.kt",
    "claybarn/firing/cone_log.go",
    "crookfield/scores/RunScore.java",
    "crookfield/judges/judge_panel.rb",
    "crookfield/draw/runOrder.ts",
    "bookvan/route/stops.rs",
    "bookvan/notices/OverdueNotice.cs",
    "bookvan/cards/borrowerCard.js",
    "curdcave/turning/wheel_turn.php",
    "curdcave/rind/RindWash.swift",
    "curdcave/affinage/affinage_log.cpp",
    "brigantine/watch/watch_bill.ex",
    "brigantine/rigging/RiggingCheck.scala",
    "brigantine/crew/muster.ml",
]
_TOPICS = [
    "glaze batches and recipe cards at the pottery co-op",
    "kiln loading and cone firing logs at the co-op",
    "run scoring at the sheepdog trials",
    "course judges and the run-order draw for the sheepdog trial club",
    "the library van's route stops",
    "overdue notices and borrower cards on the mobile library",
    "wheel turning and rind washing in the cheese cave",
    "affinage logs and humidity readings for the cave",
    "watch bills for the sailing school's tall ship",
    "rigging checks and trainee musters aboard the training ship",
]
_TASKS = [
    "pack a kiln so the heaviest shelves sit lowest without going over the weight limit",
    "scale a glaze recipe card to a batch size in kilograms",
    "total a sheepdog's run score from the outrun, lift, fetch and pen",
    "draw a run order so no handler runs two dogs back to back",
    "plan the library van's stops so it is back at the depot before dark",
    "work out an overdue fine from the days late, capped at five pounds",
    "pick which cheese wheels are due turning from the date they were last turned",
    "split trainees into watches so each watch has one qualified officer",
]
_EVENTS = [
    "the kiln controller loses power in the middle of a glaze firing",
    "a judge withdraws from the trial after the run order has been drawn",
    "the library van breaks down halfway along its route",
    "the cave humidity sensor reports nothing for a whole weekend",
    "a trainee misses the muster before the ship leaves harbour",
]
_SNIPPETS = [
    'for _, p := range pots {\n\tif p.Glaze == "celadon" && p.HeightCm < shelfGap {\n\t\tshelf = append(shelf, p.ID)\n'
    "\t}\n}",
    "for dog in run_order:\n    if dog.outrun_secs > 60:\n        penalties[dog.handler] += 10",
    "let overdue: Vec<&Loan> = loans\n    .iter()\n    .filter(|l| l.due < today && !l.returned)\n    .collect();",
    "for (Wheel w : rack.getWheels()) {\n    if (w.daysSinceTurn() >= 2) {\n        toTurn.add(w.getTag());\n    }\n}",
    "let dueWatches = watchBill.filter { $0.startsAt < Date().addingTimeInterval(3600) }",
    "stops.reject { |s| s.closed_on?(Date.today) }.sort_by(&:eta)",
    "const heavy = batches\n  .filter((b) => b.grams > 5000)\n  .map((b) => b.recipe);",
    "var damp = wheels\n    .Where(w => w.RindMoisture > 0.42)\n    .OrderBy(w => w.Shelf)\n    .ToList();",
    "SELECT judge_id, AVG(points) AS avg_points\nFROM run_scores\nWHERE trial_year = 2025\nGROUP BY judge_id;",
]
_BODIES = [
    "def kiln_load_kg(shelves):\n    return sum(s.weight_kg for s in shelves) + len(shelves) * 1.8",
    "func outrunPenalty(secs int) int {\n\tif secs <= 45 {\n\t\treturn 0\n\t}\n\treturn (secs - 45) / 5\n}",
    "fn fine_pence(days_late: u32) -> u32 {\n    (days_late * 10).min(500)\n}",
    "fun needsTurning(lastTurnedDay: Int, today: Int): Boolean =\n    today - lastTurnedDay >= 2",
    "public static int WatchHours(int crew, int hoursPerDay) {\n    return crew == 0 ? 0 : hoursPerDay * 4 / crew;\n}",
    "func brineStrength(saltG: Double, waterL: Double) -> Double {\n    return saltG / (waterL * 10)\n}",
    "function glazeGrams(recipe, batchKg) {\n  return recipe.map((r) => r.pct * batchKg * 10);\n}",
    "function nextStop(array $stops, int $i): ?array {\n    return $stops[$i + 1] ?? null;\n}",
]
_CODE_LINES = [
    "kiln.overpacked = total_kg > KILN_MAX_KG",
    "if run.OutrunSecs > course.LimitSecs { return errOverTime }",
    "let fine = (days_late * 10).min(500);",
    'val rind = if (moisture > 0.42f) "wet" else "dry"',
    "notice.sent_at = Time.now if loan.days_late > 21",
    "wheel.side = wheel.side === 'A' ? 'B' : 'A';",
    "$stop['eta'] = $prev['eta'] + $drive_minutes;",
    "watches = Enum.chunk_every(trainees, 4)",
    "var gap = watch.End - next.Start;",
    "cone = CONE_TABLE[firing.peak_c // 20]",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "type {T} interface {{\ngo: which package declares this interface? there is a copy under vendor/ too",
        "hey where is {fn} implemented, like the actual body and not the interface it satisfies?",
        "were is the {T} clas decalred",
        '{{"tool": "locate_symbol", "name": "{T}", "kind": "class"}}',
        "agent -- before you edit anything, find the declaration of {err} and show me its file path",
        "newtype {T} = {T} {{ un{T} :: Int }}\nhaskell: which module declares this newtype? hoogle can't find it",
        "module {T} : sig type t end\nocaml: where is the implementation of this module, the .ml and not the .mli?",
        "pub fn {fn}(&self) -> Result<{T}, {err}>\nrust: jump me to the impl block this method sits in",
        "@objc protocol {T}Delegate\nswift, where is {T}Delegate declared? search only shows me conformances",
        'Traceback (most recent call last):\n  File "/srv/app/main.py", line 12, in <module>\n'
        '  File "{path}", line {n}, in {fn}\n{err}: {msg}\n\n'
        "which file holds the def of {fn}? that path got moved last sprint",
        "Unhandled exception. {err}: {msg}\n   at {qual}(Int32 id) in {path}:line {n}\n\n"
        "take me to where {qual} is declared in the current tree",
        "[2025-03-11 07:{n}:05] INFO {T}: {msg}\n\nthe log line names {T}; where is that class defined?",
        "so I'm new on {topic} and every file I open references {T}, but when I search the name I get forty hits "
        "across mocks and fixtures and generated stubs, and I just want the one real place where the type itself "
        "is declared, can you find that",
        "[review-bot] {fn} shadows a symbol of the same name; show the original declaration so the author can "
        "compare the two",
        "fix: import {T} from its defining module, not the re-export\n\nwhich module is the defining one?",
        "lmk which file defines {fn}, grep is giving me nothing useful",
        "data class {T}(val id: Long)\nkotlin: open the declaration, I need to see the default values",
    ],
    "find_references": [
        "trait {T} {{ def {fn}(): Unit }}\nscala: which classes and objects mix this trait in?",
        "which services still import {path}? planning to move it",
        "ho calls {fn} in prod code, ignor tests",
        '{{"tool": "references", "symbol": "{qual}", "scope": "workspace"}}',
        "agent, give me every caller of {fn} with the enclosing function name, one per line",
        "class {T} a where\n  {fn} :: a -> Bool\nhaskell: which types have an instance of this class?",
        "module type {T} = sig ... end\nocaml -- which modules satisfy this signature?",
        "pub trait {T} {{\n    fn {fn}(&self);\n}}\nrust: every type that implements this trait, pls",
        "public abstract class {T} : IDisposable\nc#: who derives from this? need the full subclass tree",
        "export abstract class {T} {{\nts -- which classes extend this one across the packages?",
        "panic: runtime error: index out of range [3] with length 3\n\ngoroutine 1 [running]:\nmain.{Fn}(...)\n"
        "\t{path}:{n}\n\nwho else calls {Fn}? want to check none of them pass an empty slice",
        "RangeError: {msg}\n    at {Fn} ({path}:{n}:5)\n\nfind all the places that call {Fn}, I think one of "
        "them passes a negative count",
        "W0612 11:{n}:40.221 {T} deprecated field read by unknown caller\n\nwhich code reads {T}? the warning "
        "doesn't say",
        "before I change anything in {topic} I want a map of who depends on {fn} in the direct sense, meaning "
        "which functions call it and which modules import it; I'll think about what would break myself "
        "afterwards, just give me the raw list of usages",
        "[lint-bot] {fn} is exported but flagged as unused; confirm by finding every reference, dynamic imports "
        "included",
        "module {T}\n  def self.included(base)\nruby: which classes include this mixin?",
        "lol who even instantiates {T}",
    ],
    "impact_analysis": [
        "removing {T} impact",
        "what all breaks if I flip the default of {fn} from true to false?",
        "if i chnage the signiture of {fn} wat else has to chnage",
        '{{"tool": "change_impact", "target": "{path}", "operation": "delete"}}',
        "agent: before I merge, work out which packages and tests would be hit if {qual} became private",
        "data {T} = Pending | Done\nhaskell: adding a Cancelled constructor here, which pattern matches go "
        "non-exhaustive?",
        "type t = {{ id : int; name : string }}\nocaml, in {T}: adding a mandatory field to this record, what "
        "stops compiling?",
        "public record {T}(long id, String label) {{}}\njava: if label becomes Optional<String>, who is affected?",
        "interface {T} {{ {fn}(id: string): Promise<void> }}\nts: making id a number here, which implementers and "
        "callers break?",
        "enum {T}: String {{ case open, closed }}\nswift -- if I add a case, which switch statements stop being "
        "exhaustive?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in run\n    {fn}()\n{err}: {msg}\n\n'
        "we plan to make {fn} raise this on purpose from now on; which callers would need to catch {err}?",
        "{err}: {msg}\n   at {qual}() in {path}:line {n}\n\nif this stops being swallowed inside {qual} and "
        "bubbles up, what upstream code is affected?",
        "2025-08-21 22:{n}:17 WARN {fn} took 9400ms\n\nthinking of adding a 5s timeout to {fn}; which callers "
        "could start failing?",
        "we're moving {topic} onto a new schema and {T} loses two columns in the process; before I commit to a "
        "date I need to know which reports, jobs, API handlers and tests rely on those columns and would fail or "
        "silently give wrong numbers",
        "[review-bot] this PR changes the return type of {fn}; summarise the downstream code that is affected and "
        "whether it still compiles",
        "perf: cache {fn} results for 10 minutes\n\nis this safe? who depends on {fn} returning fresh data?",
        "safe to delete {err}? or is someone catching it",
    ],
    "exact_match": [
        "{ecode} literal",
        "where does the text '{msg}' show up in the source?",
        "find exacly this strng: {Msg}",
        '{{"tool": "grep", "pattern": "{ecode}", "fixed": true, "case_sensitive": true}}',
        'agent -- search for the exact phrase "{Msg}" in every file, yaml and json included',
        'Traceback (most recent call last):\n  File "{path}", line {n}, in <module>\n    raise {err}(...)\n'
        "{err}: {msg}\n\ngrep for this message verbatim, I want every place it is raised with that wording",
        'Exception in thread "worker-3" {err}: {Msg}\n\tat {qual}({T}.kt:{n})\n\n'
        "where's that exact message string written? searching the class name gives too much",
        'panic: {ecode}: {msg}\n\ngoroutine 33 [running]:\n\t{path}:{n} +0x1f\n\nfind the source literal "{ecode}" '
        "exactly",
        "UnhandledPromiseRejection: {Msg}\n    at async {Fn} ({path}:{n}:3)\n\nsearch for this error text as it "
        "is typed",
        "Mar 04 06:{n}:12 host-7 worker[2211]: {ecode} {msg}\n\nwhich file emits this log line? match the words "
        "exactly",
        "config key {fn}.max_retries, find it exactly as spelled, in .toml and .env files too",
        "find lines matching the regex `{fn}_v[0-9]+\\b`",
        '[ci-bot] i18n check: the untranslated string "{Msg}" appears in this diff; find every file containing '
        "that exact text",
        'chore: reword "{msg}"\n\nfirst need every occurrence of that exact text, tests included',
        "a user of {topic} forwarded a screenshot of an error page that only has the words {Msg} on it and "
        "nothing else, no stack, no code, and I'd like every place in the repository where that sentence is "
        "written character for character, templates and fixtures included",
        "lol where is '{ecode}' hardcoded",
        "terminate called after throwing an instance of '{err}'\n  what():  {msg}\n\nsearch for that what() text "
        "literally",
    ],
    "understand_code": [
        "def {fn}(conn, params) do\n  with {{:ok, x}} <- fetch(params) do\nelixir: how does this with-chain "
        "behave when fetch fails?",
        "how does {fn} decide what to return when the list is empty?",
        "explane wat {T} is resposible for",
        '{{"tool": "summarize", "path": "{path}", "audience": "new hire"}}',
        "agent, read {path} and tell me in a few sentences what it does and why it exists",
        "instance Monad {T} where\nhaskell -- walk me through what bind does for this type",
        "let rec {fn} acc = function [] -> acc | x :: xs -> {fn} (acc + x) xs\nocaml: what is this doing, step "
        "by step?",
        "{code}\n\nwhat's the point of this line? looks like it does nothing",
        "{snippet}\n\nexplain what this computes, in words",
        "java.lang.IllegalStateException: {msg}\n\tat {qual}({T}.java:{n})\n\nwhy would {qual} ever be in that "
        "state? how does it get there",
        "2025-09-30 18:{n}:02 INFO {T} rebalanced 4 partitions\n\nwhat triggers a rebalance in {T}, and what "
        "actually moves?",
        "Error: {msg}\n    at {Fn} ({path}:{n}:21)\n\nwhat is {Fn} supposed to do with its input? I don't get the flow",
        "@Transactional(propagation = Propagation.REQUIRES_NEW)\npublic void {fn}()\njava: why a new transaction "
        "here? explain what it changes",
        "my manager asked me to take over {topic} and the original author has left, so I'm trying to build a "
        "mental model: what are the moving parts, what happens when {event}, and which bits are the scary ones "
        "nobody touches",
        "[review-bot] summary requested: explain what {fn} does and why it was added",
        "docs: add comments to {path}\n\nhelp me understand the control flow first, what does it do end to end?",
        "whats the deal with {T} tho",
    ],
    "find_similar": [
        "{qual} dupes?",
        "is there another implementation of the logic in {fn} somewhere? feels like I've seen it before",
        "{code}\nanythin else liek this one-liner in the repo?",
        "fun {fn}(xs: List<{T}>) = xs.filter {{ it.active }}.sortedBy {{ it.rank }}\nkotlin: anything else "
        "filtering then sorting like this?",
        "agent: hunt for near-duplicates of {path} across the repo and rank them by how much they overlap",
        "{fn} :: [{T}] -> Int\n{fn} = length . filter isReady\nhaskell -- other folds like this one anywhere?",
        "let {fn} xs = List.filter (fun x -> x.ready) xs\nocaml: any other filters written the same way?",
        "{snippet}\n\nfind loops that do this same thing in other services",
        "{body}\n\nare there copies of this function with slightly different constants?",
        "function {fn}(array $rows): array {{\n    return array_filter($rows, fn($r) => $r['active']);\n}}\n"
        "php: other array_filter helpers like this?",
        "def {fn}(xs: Seq[{T}]): Map[String, Int] = xs.groupBy(_.kind).view.mapValues(_.size).toMap\n"
        "scala: find group-and-count code like this",
        "func {Fn}(xs []{T}) map[string]int {{\n\tout := map[string]int{{}}\n\tfor _, x := range xs {{\n"
        "\t\tout[x.Kind]++\n\t}}\n\treturn out\n}}\ngo -- similar counting helpers elsewhere?",
        "[review-bot] new function {fn} overlaps with existing code; find functions with the same structure so "
        "the author can reuse one",
        "refactor: dedupe {T} parsing\n\nstep one: list every function that parses {T} the same way",
        "I have a feeling whoever built {topic} copied the retry-and-backoff logic from somewhere else and then "
        "tweaked it, and I'd like to see all the other places in the codebase that implement the same idea, even "
        "with different names or in a different language, so we can pick one and delete the rest",
        "std::sort(v.begin(), v.end(), [](auto& a, auto& b) {{ return a.rank < b.rank; }});\n"
        "c++: any other sorts with a lambda like this one?",
        "want code that can {task}, probably someone wrote a similar thing already",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fortyfifth", seed=4545)

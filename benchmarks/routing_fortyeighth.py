"""A forty-eighth held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fortyseventh.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by
another hand than the change, in one sitting, from the layout of ``routing_fortyseventh.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the forty-seventh's was reworded,
and no classifier, router or model was asked about any of its phrasings while they were written. It keeps the
usual spread of voices, spread evenly over the six intents: two- and three-word keyword queries and long
rambling ones, misspellings, lowercase chat, questions and orders, tool calls written as JSON, requests to a
coding agent, review-bot, lint-bot and CI-bot comments, commit messages, pasted output (Go panics, Python and
pytest tracebacks, Java and C# exceptions, Rust panics, Node stacks, a C++ linker error, timestamped log
lines) with a line of words under it, and declarations and snippets pasted as typed in Go, Rust, Kotlin, Java,
Python, Swift, C#, TypeScript, Ruby, PHP, C++, Scala, Elixir, Haskell, OCaml, Zig and Dart. About half its
templates are plain questions with nothing pasted; the other half are pasted things with a question under
them: declarations asking where they live, who implements, includes or calls them, what breaks if they
change, what looks like them, or what they do; and pasted output asking where the named code is declared, who
else calls it, who must handle the error once it changes, where its text is written, or why it happens. The
label is always what the asker wants, not which words appear.
Nine templates met a training template (one) or another set's (eight) (``test_intent_model``) and were
replaced by ones of another shape, not reworded; one of those replacements met another set's in turn and was
replaced again, ten replacements in all. One filler met another set's and was renamed. A script that printed
only this set's own colliding templates and fillers picked them out; no other set's templates or fillers were
read.

Its slot fillers come from five domains, and no filler is another set's: a bell foundry (bell castings,
tuning profiles, clapper fittings, tower installations), a sourdough bakery (starter feeds, proofing
schedules, oven loads, wholesale delivery rounds), a rowing club (boat bookings, crew seatings, regatta
entries, oar repairs), an ice rink (resurfacing runs, skate hire, session bookings, ice temperature logs) and
a letterpress print shop (type cases, ink mixing, press runs, paper stock). None is a training filler
(``test_intent_model`` checks both). ``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "pour_bell_casting",
    "measureStrikeNote",
    "fit_clapper_staple",
    "scheduleBelfryHoist",
    "feed_levain_starter",
    "planOvernightRetard",
    "load_deck_oven",
    "routeWholesaleVan",
    "book_coxless_four",
    "assignStrokeSeat",
    "enter_head_race",
    "logBladeCollarRepair",
    "schedule_ice_resurface",
    "issueHireSkates",
    "book_public_skate_slot",
    "recordSlabBrineTemp",
    "quoin_up_forme",
    "mixSpotColourInk",
    "start_platen_run",
    "countPaperReams",
]
_TYPES = [
    "BellMouldPour",
    "HumNotePartialProfile",
    "ClapperStapleFitting",
    "BelfryFrameInstallation",
    "LevainFeedEntry",
    "BulkProofPlan",
    "DeckOvenBake",
    "WholesaleVanRound",
    "RiverBoatBooking",
    "EightSeatingChart",
    "HeadRaceEntry",
    "OarBladeRepairTicket",
    "IceResurfacerPass",
    "HireSkateLoan",
    "RinkIceSessionSlot",
    "SlabTemperatureSample",
    "CompositorTypeCase",
    "SpotInkMixRecipe",
    "PlatenPressRun",
    "CottonPaperStockLot",
]
_ERRORS = [
    "BellCastingCrackedError",
    "HumNoteOutOfTuneException",
    "ClapperStapleLooseError",
    "LevainTooSluggishError",
    "DeckOvenOverloadedException",
    "BoatDoubleBookedError",
    "StrokeSeatVacantException",
    "IceTooSoftForSessionError",
    "HireSkateSizeUnavailableException",
    "InkMixOffShadeError",
    "PaperStockExhaustedException",
]
_MESSAGES = [
    "bell casting poured before the cope had dried out in the pit",
    "hum note measured more than twenty cents from the tuning profile",
    "clapper staple torqued below the fitting sheet value for a tenor bell",
    "belfry installation booked before the frame survey was signed off",
    "starter fed with rye flour logged as out of stock",
    "dough scheduled to prove longer than the retarder is switched on",
    "oven load lists more bannetons than the deck can hold",
    "wholesale round sends the van to the same cafe twice before seven",
    "boat booked for an outing while it is still on the repair trestles",
    "crew seating puts one rower in bow and stroke at the same time",
    "regatta entry submitted after the closing date for the division",
    "resurfacer scheduled during a session that still has skaters on the ice",
    "hire skate returned with a size that was never lent out",
    "ink mix recorded with more opaque white than the recipe allows",
    "press run started with fewer sheets in stock than copies ordered",
]
_ERROR_CODES = [
    "BELL-4412",
    "FDY-0318",
    "E_CLAPPER_LOOSE",
    "BAKE-2107",
    "E_LEVAIN_FLAT",
    "ROW-7731",
    "E_SEAT_EMPTY",
    "RINK-5520",
    "PRESS-0846",
    "E_INK_SHADE",
]
_PATHS = [
    "foundry/casting/mould_pour.py",
    "foundry/tuning/HumNoteProfile.kt",
    "foundry/towers/belfry_install.rb",
    "foundry/clappers/clapper_fit.go",
    "crumbhouse/starter/levain_feed.ex",
    "crumbhouse/proofing/ProofPlan.java",
    "crumbhouse/ovens/deck_oven.zig",
    "crumbhouse/wholesale/vanRound.ts",
    "boathouse/bookings/boat_booking.rs",
    "boathouse/crews/SeatingChart.swift",
    "boathouse/regatta/RegattaEntry.scala",
    "boathouse/oars/oar_repair.php",
    "rinkside/resurfacing/resurface_run.cpp",
    "rinkside/hire/SkateHire.cs",
    "rinkside/sessions/session_booking.dart",
    "rinkside/slab/SlabTemps.hs",
    "presswork/cases/type_case.ml",
    "presswork/ink/InkMix.kt",
]
_TOPICS = [
    "bell castings and tuning profiles at the bell foundry",
    "clapper fittings and tower installations for the foundry",
    "starter feeds and proofing schedules at the sourdough bakery",
    "oven loads and wholesale delivery rounds for the bakery",
    "boat bookings and crew seatings at the rowing club",
    "regatta entries and oar repairs for the rowing club",
    "resurfacing runs and skate hire at the ice rink",
    "session bookings and ice temperature logs for the rink",
    "type cases and ink mixing in the letterpress shop",
    "press runs and paper stock at the letterpress print shop",
]
_TASKS = [
    "work out how far a bell's hum note sits from its tuning profile",
    "pick a clapper weight from a bell's diameter and wall thickness",
    "scale a starter feed so the levain peaks right when mixing starts",
    "pack an oven load so every loaf gets the same deck time",
    "seat a crew so port and starboard weights come out balanced",
    "fit a resurfacing run into the gap between two skating sessions",
    "convert an ink recipe from parts by weight into grams for one press run",
    "estimate how many sheets of paper stock a press run will spoil",
]
_EVENTS = [
    "a bell casting cracks while it is cooling in the pit",
    "the deck oven trips out halfway through the wholesale bake",
    "two crews turn up for the same boat on a race morning",
    "the brine chiller fails during a public skating session",
    "the press runs out of paper stock in the middle of a job",
]
_SNIPPETS = [
    "for _, b := range bells {\n\tif math.Abs(b.HumCents) > profile.ToleranceCents {\n"
    "\t\tretune = append(retune, b.Serial)\n\t}\n}",
    "for feed in feeds:\n    if feed.rise_pct < 100 and feed.hours > 8:\n        sluggish.append(feed.jar)",
    "let free: Vec<&Boat> = boats\n    .iter()\n    .filter(|b| !b.on_trestles && b.booked_by.is_none())\n"
    "    .collect();",
    "for (Session s : rink.getSessions()) {\n    if (s.getIceTempC() > -3.0) {\n        soft.add(s.getId());\n    }\n}",
    "let loose = fittings.filter { $0.torqueNm < $0.spec.minTorqueNm }",
    "entries.reject(&:withdrawn?).group_by(&:division)",
    "const lateVans = rounds\n  .filter((r) => r.departsAt > r.firstDropDue)\n  .map((r) => r.vanId);",
    "var shortRuns = runs\n    .Where(r => r.SheetsInStock < r.CopiesOrdered)\n"
    "    .OrderBy(r => r.Press)\n    .ToList();",
    "final unreturned = loans.where((l) => l.returnedAt == null).map((l) => l.skateSize).toList();",
    "SELECT oven_id, COUNT(*) AS loaves\nFROM oven_loads\nWHERE baked_on = CURRENT_DATE\nGROUP BY oven_id;",
]
_BODIES = [
    "def retard_hours(kitchen_c):\n    return 14 if kitchen_c < 20 else 10",
    "func clapperGrams(diameterMm int) int {\n\treturn diameterMm * diameterMm / 40\n}",
    "fn seat_balance(port: &[u32], starboard: &[u32]) -> i64 {\n"
    "    port.iter().sum::<u32>() as i64 - starboard.iter().sum::<u32>() as i64\n}",
    "fun minutesToResurface(sqM: Int): Int =\n    if (sqM <= 1200) 12 else 12 + (sqM - 1200) / 150",
    "fn sheetsNeeded(copies: u32, spoilPct: u32) u32 {\n    return copies + copies * spoilPct / 100;\n}",
    "double centsOff(double hz, double targetHz) {\n  return 1200 * std::log2(hz / targetHz);\n}",
    "function loavesPerDeck(deck) {\n  return Math.floor(deck.widthCm / 22) * Math.floor(deck.depthCm / 30);\n}",
    "function inkGrams(array $parts, float $total): array {\n"
    "    $sum = array_sum($parts);\n    return array_map(fn($p) => $p / $sum * $total, $parts);\n}",
]
_CODE_LINES = [
    "bell.retune = abs(bell.hum_cents) > profile.tolerance_cents",
    "if seat.Rower == nil { return errSeatEmpty }",
    "let proof_end = mixed_at + plan.bulk_hours * 3600;",
    'val slab = if (iceTempC > -3.0) "soft" else "ok"',
    "loan.overdue = Time.now > loan.due_at unless loan.returned?",
    "run.status = sheets < copies ? 'short' : 'ready';",
    "$repair['cost'] = $repair['hours'] * $rates['collar'];",
    "seats = Enum.zip(rowers, 1..8)",
    "var gap = nextSession.Start - resurfacer.DoneAt;",
    "final depth = belfry.frameHeightMm - bell.crownHeightMm;",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "go-to-def on {err} is broken in my editor, which file has the class?",
        "quick one: in which module does {fn} actually get its def? the name turns up in three packages",
        "wheres {T} defiend, ctrl-click just opens a .pyi stub",
        '{{"tool": "lsp.definition", "args": {{"symbol": "{fn}", "file": "{path}"}}}}',
        "hey agent, without changing anything, find the file that defines {T} and show me the top of the class",
        "interface {T} {{\n  {fn}(): Promise<void>;\n}}\nts: where does this interface really live? I only ever see "
        "it re-exported from index.ts",
        "defmodule {T} do\nelixir: which file holds this module? mix xref isn't helping",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in <module>\n    {fn}()\n'
        "NameError: name '{fn}' is not defined\n\nwhere is {fn} meant to be defined? did somebody move it?",
        'Exception in thread "main" {err}: {msg}\n\tat {qual}({T}.java:{n})\n\nwhere is the {err} class itself '
        "declared? I need to see its constructor",
        "[ci-bot] build failed: cannot find symbol {T} referenced from {path}. Where is {T} defined in this repo?",
        "fix: import {fn} from its real home\n\nwhich file is the real home of {fn}?",
        "data {T} = {T} {{ ... }}\nhaskell: which module declares this record type? hoogle only knows the library",
        "long story short, I'm on call for {topic} tonight and the runbook mentions {qual} but never says where it "
        "lives; can somebody point me at the exact file and line where that method is written so I can read it "
        "before anything pages me",
        "impl {T} {{\n    pub fn {fn}(&self) {{ }}\n}}\nrust: where is the struct {T} itself declared? this impl "
        "block sits in a different crate",
        "{fn} def location",
        "undefined reference to `{fn}'\ncollect2: error: ld returned 1 exit status\n\nc++: which .cpp is supposed "
        "to define {fn}?",
    ],
    "find_references": [
        "{T} usage sites",
        "is {fn} still called by anything in production code, or only by the tests?",
        "wich modules import {T}, need to split the package",
        '{{"tool": "find_usages", "target": "{qual}", "include_tests": false}}',
        "agent: trace every caller of {fn} back up to the http handlers and give me the chains, read-only",
        "func {fn}(_ booking: {T}) async throws\nswift: who awaits this? list the call sites",
        "public interface {T} {{\n    void {fn}();\n}}\njava: list all implementing classes, anonymous ones too",
        "TypeError: {msg}\n    at {fn} ({path}:{n}:11)\n    at process.processTicksAndRejections "
        "(node:internal/process/task_queues:95:5)\n\nwho calls {fn}? I need all of its callers, not just this one",
        "2025-02-14T06:{n}:00Z ERROR [{ecode}] {qual} failed: {msg}\n\nwhich jobs invoke {qual}? want to know who "
        "else will trip over this",
        "mixin {T}Mixin on State {{\ndart: which widgets mix this in?",
        "[review-bot] {T} is subclassed in at least one place outside this package; please list all subclasses "
        "before approving",
        "refactor: inline {fn}\n\nlist every call site first so the inline is complete",
        "honestly I've been staring at {path} for an hour and I can't tell what depends on it; which other files "
        "import it or reach into its functions, across the monorepo including the scripts folder",
        "which packages reach for {T} today",
        "object {T} {{\n  def apply(raw: String): {T} = ???\n}}\nscala: where is {T}.apply invoked, including "
        'the sugar form {T}("...")?',
        "where do we catch {err}",
    ],
    "impact_analysis": [
        "if {T}.id turns into a uuid, what downstream falls over",
        "if I add a required field to {T}, which tests and endpoints will fail?",
        "wat breaks if {fn} gets renamed",
        '{{"analysis": "change_impact", "file": "{path}", "change": "delete", "report": "affected_modules"}}',
        "agent: we're changing {qual} to raise {err} instead of returning None; dry-run which callers need "
        "updating, make no edits",
        "func (s *{T}) {Fn}() error\ngo: if this starts returning a wrapped error, which errors.Is checks "
        "downstream stop matching?",
        "public record {T}(string Id, int Count);\nc#: if Count becomes a decimal, what breaks in serialization "
        "and in the callers?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n{err}: {msg}\n\nif {fn} returns '
        "an empty list instead of raising this, what upstream code behaves differently?",
        "[{n}:12:44] WARN {ecode} {msg}\n\nwe plan to turn this warning into a hard failure; which flows would "
        "start failing?",
        "sealed class {T} {{\nkotlin: adding a new subclass here, which when-expressions stop being exhaustive?",
        "[ci-bot] this PR changes the signature of {fn}; dependent packages may break. Please list affected "
        "packages and test suites.",
        "refactor!: split {T} into two types\n\nwhat would need migrating?",
        "so the plan for {topic} is to swap {T} for a plain dict everywhere, and before anyone starts I'd like a "
        "sense of how much of the codebase leans on its methods, which services, which jobs, which templates, and "
        "what would quietly misbehave rather than crash",
        "pub fn {fn}(self: *{T}) !void\nzig: if this stops returning an error union, which call sites using try break?",
        "is it safe to bump the timeout in {fn}",
        "dropping {path} -- who gets hurt?",
    ],
    "exact_match": [
        "need a case-sensitive hit list for {ecode} inside the migrations and the seed data",
        "which files mention {ecode} word for word?",
        "serch for '{msg}' exactly as written",
        '{{"tool": "ripgrep", "args": ["--fixed-strings", "{Msg}", "."]}}',
        "agent, do a plain-text search (no regex, nothing semantic) for {ecode} and give me file and line numbers only",
        "thread 'worker' panicked at '{msg}', {path}:{n}:9\n\nwhere in the code is that exact panic message string?",
        "[2025-03-02 04:{n}:51] {ecode} {Msg}\n\ngrep for this exact line, I need where it gets logged",
        "{err}: {Msg}\n   at {qual}()\n\nfind the literal '{Msg}' in the repo, it's probably a resource string",
        "regex {fn}\\(.*timeout= across the python files",
        '[lint-bot] the string "{ecode}" is duplicated in several places; list every exact occurrence',
        "test: assert on '{msg}'\n\nwhich files already contain that exact message text?",
        "ok weird one, QA sent a log dump from {topic} and somewhere in it is the text {ecode} followed by '{msg}', "
        "and I need every place in the code where that string appears literally, even in yaml and sql, not "
        "similar wording",
        "`{fn}(` occurences, literal match only",
        'grep -rn "{ecode}" --include=*.sql',
        "does the exact text {Msg} appear anywhere under templates/",
        "<?php throw new {err}('{Msg}');\nphp: find this exact throw statement, character for character",
    ],
    "find_similar": [
        "got a {T}-ish helper anywhere already? mine is in {path}",
        "we have {fn} in one service; is there an equivalent somewhere else that does roughly the same?",
        "somthing similar to {T} already exist? dont want to reinvent it",
        '{{"tool": "semantic_search", "query_code": "{qual}", "mode": "similar", "top_k": 10}}',
        "agent: find code that does the same job as {fn} even if it's written differently, and rank it by how close "
        "it is",
        "{body}\n\nany copy-paste variants of this around the codebase?",
        "{snippet}\n\nshow me loops doing the same filtering elsewhere",
        "{code}\n\nthis pattern again somewhere? looking for copies",
        "def {fn}(rows)\n  rows.reject(&:cancelled?).sum(&:amount)\nend\nruby: anything else summing like this?",
        "std::vector<{T}> {fn}(const std::vector<{T}>& xs) {{\n  std::vector<{T}> out;\n"
        "  std::copy_if(xs.begin(), xs.end(), std::back_inserter(out), [](auto& x) {{ return x.ok; }});\n"
        "  return out;\n}}\nc++: where else do we copy_if into a fresh vector?",
        "def {fn}(items), do: Enum.reduce(items, 0, fn i, acc -> acc + i.qty end)\n"
        "elixir: same reduce-to-a-total anywhere else?",
        "[review-bot] {fn} looks very close to an existing helper; please search for similar implementations "
        "before merging",
        "refactor: extract a shared {T} validator\n\nfind all validators that check a {T} roughly the same way",
        "I wrote something to {task} last month and I'm fairly sure someone else on {topic} did the same in a "
        "different language, could you dig out anything that does that job so we can compare and keep one",
        "code resembling {path}",
        "static func {fn}(_ xs: [{T}]) -> [{T}] {{ xs.filter {{ $0.isReady }} }}\nswift: similar filters?",
    ],
    "understand_code": [
        "what's the point of the second pass in {fn}? it looks like it undoes the first one",
        "what happens inside {fn} when the list is empty?",
        "cant figure out what {qual} returns, can someone explain",
        '{{"messages": [{{"role": "user", "content": "what does {fn} do and why is it called twice?"}}]}}',
        "agent, read {path} and tell me in a few sentences how it works, no refactoring",
        "{body}\n\nwhat is this computing? the formula looks off to me",
        "{snippet}\n\ncan you explain what this loop is for?",
        "{code}\n\nwhy would someone write it like this?",
        "panic: {msg}\n\ngoroutine 3 [running]:\n{qual}(...)\n\t{path}:{n}\n\nwhy does this panic only on the "
        "first run after a deploy?",
        "E   {err}: {msg}\n{path}:{n}: {err}\n\nwhy does this fail now and then in CI but pass locally?",
        "let {fn} = function Some v -> v | None -> raise Not_found\nocaml: what is this doing and when does it raise?",
        "[review-bot] please add a comment explaining why {fn} retries exactly three times; the logic isn't obvious",
        "docs: explain the {T} state machine\n\nhow does it get from created to done?",
        "I joined the team looking after {topic} last week, and I keep bumping into {T}; I'd really appreciate a "
        "plain explanation of how it fits together, what the key methods do, and what goes on when {event}",
        "@Composable fun {Fn}(state: {T}) {{\nkotlin: how does recomposition work here, when does this rerun?",
        "how does {fn} handle timezones",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fortyeighth", seed=4848)

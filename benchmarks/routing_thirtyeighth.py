"""A thirty-eighth held-out set for the learned routing layer, written before the routing change it judges
and never measured while written.

The held-out sets up to ``routing_thirtyseventh.py`` have been, or may yet be, read while routing changes
are weighed, so a change chosen on them is partly chosen on its own test; none of their templates was looked
at while this one was written (only ``routing_fifteenth.py``'s layout, as a format, and the shared slot
filling in ``held_out_slots.py``). These templates were written in one sitting by another hand, from the
layout alone, and from the shapes requests take where people and coding agents type them: declarations as
typed in Go (``go doc`` finding no method on a pointer receiver), Rust (``pub(crate) fn`` on ``&mut self``),
Java (a ``protected abstract`` method), Python (a frozen, slotted ``@dataclass``), TypeScript (a class that
``extends`` and ``implements``), C# (a ``static partial`` class), Zig (``pub fn`` taking an allocator) and
Ruby (a module's ``self.`` method); output pasted from tools (a Python traceback, a Rust panic, a goroutine
dump, logfmt and JSON log lines, a pytest failure, a Slack alert, a journald line, an ``irb`` session, a Java
``Caused by``, a PL/pgSQL ``RAISE`` context); requests shaped like tool calls, review bot comments, commit
messages and conventional-commit footers being drafted, chat with an agent told what to do, and IDE
features that did not do what was hoped. Questions and imperatives, terse keyword queries and long wordy
ones, typos, prose mixed with code, markdown code fences. No classifier was asked any of them while they
were written; a template that met a training one or another set's (``test_intent_model``) was replaced,
not reworded, and the failure output of that test showed a few normalised fragments of other sets' and
training templates while that was done. Its slot fillers come from domains no other set uses (a sawmill's
log yard, blade room and lumber grading, a whisky distillery's bonded warehouse and excise returns, a public
aquarium's penguin rations, jellyfish kreisels and octopus enrichment, a stonemason's yard carving tracery
and lettering for a cathedral restoration, a shipwright's dry dock with its berth bookings and caulking
inspections), and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "tally_board_feet",
    "scheduleBandsawResharpen",
    "grade_green_lumber",
    "computeKerfLoss",
    "fill_cask_from_spirit_safe",
    "logAngelsShare",
    "compute_excise_on_release",
    "schedule_penguin_ration",
    "logJellyfishKreiselFlow",
    "assign_octopus_enrichment",
    "carve_tracery_panel",
    "recordCorbelSurvey",
    "quote_lettercutting_job",
    "bookDryDockBerth",
    "log_caulking_seam",
    "computePlimsollMargin",
]
_TYPES = [
    "SawlogTicket",
    "LumberTally",
    "BandsawBlade",
    "CaskFill",
    "BondedRack",
    "ExciseRelease",
    "PenguinRation",
    "KreiselTank",
    "AquaristRota",
    "TraceryPanel",
    "CorbelSurvey",
    "LetteringOrder",
    "DryDockBerth",
    "CaulkingSeam",
    "ShipwrightShift",
]
_ERRORS = [
    "KerfOverrunError",
    "CaskBondBreachException",
    "PenguinRationMismatch",
    "TraceryLoadFault",
    "BerthFloodedError",
    "ExciseLedgerError",
]
_MESSAGES = [
    "sawlog ticket has no scaler signature",
    "board feet tally exceeds the log's scaled volume",
    "bandsaw blade logged past its resharpen interval",
    "cask filled above the strength allowed for this warehouse",
    "angel's share exceeds the expected yearly loss",
    "excise release requested before the duty was paid",
    "penguin ration logged twice for the same bird",
    "kreisel flow rate dropped below the jellyfish minimum",
    "tracery panel weight exceeds the scaffold rating",
    "lettering proof was not signed off before carving began",
    "dry dock berth booked while the caisson gate is open",
    "caulking seam inspected by a shipwright who was not on shift",
]
_ERROR_CODES = ["SAW-0417", "XB-31", "AQH-202", "MSN-0x1F", "DD_E_CAISSON", "E7713"]
_PATHS = [
    "sawmill/yard/log_tally.go",
    "sawmill/blades/resharpen.rs",
    "sawmill/grading/GreenLumberGrader.java",
    "distillery/bond/cask_fills.py",
    "distillery/excise/ExciseRelease.cs",
    "distillery/warehouse/rack_rotation.rb",
    "aquarium/husbandry/penguin_rations.ts",
    "aquarium/life_support/KreiselMonitor.kt",
    "masonry/restoration/tracery_panels.swift",
    "masonry/lettering/lettering_orders.php",
    "drydock/berths/berth_booking.scala",
    "drydock/caulking/seam_log.hs",
]
_TOPICS = [
    "log tallies in the sawmill's log yard",
    "bandsaw blade resharpening",
    "grading green lumber off the headrig",
    "cask fills in the bonded warehouse",
    "excise returns on spirit released from bond",
    "penguin rations and weigh-ins at the aquarium",
    "life support for the jellyfish kreisels",
    "octopus enrichment rotas",
    "carving tracery for the cathedral restoration",
    "lettercutting orders for memorial stones",
    "berth bookings in the dry dock",
    "caulking inspections on wooden vessels",
]
_TASKS = [
    "convert a log's diameter and length into board feet",
    "work out a cask's bulk litres from its weight and strength",
    "round a penguin's daily fish ration up to whole fish",
    "estimate carving hours from the letter count on a stone",
    "find the next tide high enough to float a ship out of dry dock",
    "compute the yearly loss between two cask regauges",
]
_EVENTS = [
    "a sawlog is scanned twice at the debarker",
    "a cask is moved to another rack without a transfer note",
    "a penguin's weigh-in is missed three days running",
    "a carved panel cracks before it is fixed in place",
    "the caisson gate fails to seal while a ship is in the dry dock",
]
_SNIPPETS = [
    "for _, lg := range yard.Logs {\n\tif lg.Scaled {\n\t\tcontinue\n\t}\n"
    "\tlg.BoardFeet = doyle(lg.SmallEndIn, lg.LengthFt)\n}",
    "let due: Vec<_> = blades\n    .iter()\n    .filter(|b| b.hours_since_sharpen > MAX_HOURS)\n    .collect();",
    "for fill in casks:\n    if fill.abv > warehouse.max_abv:\n        flagged.append(fill.cask_no)",
    "rations.each do |r|\n  next if r.weighed_on == Date.today\n  r.flag!(:missed_weigh_in)\nend",
    "foreach ($orders as $order) {\n    if (!$order->proofSigned) {\n        $order->status = 'held';\n    }\n}",
]
_BODIES = [
    "boardFeet :: Double -> Double -> Double\nboardFeet d l = ((d - 4) / 4) ^ 2 * l",
    "func carvingHours(letters: Int, perHour: Double) -> Double {\n"
    "    guard letters > 0 else { return 0 }\n    return Double(letters) / perHour\n}",
    "public static int wholeFish(double grams, double fishWeight) {\n"
    "    return (int) Math.ceil(grams / fishWeight);\n}",
    "public static decimal BulkLitres(decimal kg, decimal density)\n{\n    return Math.Round(kg / density, 1);\n}",
    "def nextFloatTide(tides: Seq[Tide], draft: Double): Option[Tide] =\n  tides.find(_.heightM >= draft + 0.3)",
]
_CODE_LINES = [
    "berth.floodAt = tide.highWater.minusMinutes(90)",
    "let kerf_loss = cut_count as f64 * blade.kerf_mm;",
    "$due = $cask->filledOn->addYears(3);",
    "ration.fish = (bird.weight_g * 0.1 / FISH_G).ceil",
    "if panel.load_kg > scaffold.rated_kg: raise TraceryLoadFault(panel.id)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "go doc -all ./... | grep {Fn} prints nothing; where is the method {Fn} on *{T} declared",
        "pub(crate) fn {fn}(&mut self,",
        "protected abstract {T} {fn}(",
        "@dataclass(frozen=True, slots=True)\nclass {T}:",
        "export class {T} extends EventEmitter implements Disposable {{",
        "internal static partial class {T}",
        "pub fn {fn}(self: *{T}, allocator: std.mem.Allocator)",
        "Ruby: which file opens `module {T}` and defines `self.{fn}` inside it?",
        'locate_symbol(name="{fn}", want="declaration")',
        "ctrl+click on {qual} lands in a .pyi stub; where's the real implementation written",
        "@assistant open the file that declares {T} and paste me its fields and constructor, no callers",
        "nit (review-bot): cannot resolve `{T}` introduced in this diff. Which module declares it?",
        "defenition of {fn}??",
        "git grep shows forty hits for {fn}; I only want the one line where it is defined, skip the calls",
        "goroutine {n} [running]:\nmain.(*{T}).{Fn}(...)\n\t/build/yard/{fn}.go:{n} +0x1c4\n"
        "that path is from an old build -- where is {Fn} defined now",
        "I'm porting the {topic} code from Swift to Kotlin, and the Swift side leans on a protocol named {T}; "
        "take me to the file where that protocol is declared with its required members, not to the types that "
        "conform to it",
    ],
    "find_references": [
        "callers of {fn}, grouped by package",
        "every `new {T}(` in the codebase -- list the spots",
        'find_usages(symbol="{qual}", include_tests=true)',
        "review-bot: {fn} is marked @Deprecated in this PR; list the call sites that still use it",
        "chore: move every caller of {fn} over to the v2 client -- list those callers first",
        "who subscribes to {T}Changed",
        "{T} -> used by?",
        "VS Code's Find All References on {fn} caps out at 100 results; I need the complete list",
        "were is {fn} beeing called from",
        "@assistant don't change anything yet, just enumerate file by file each place that reads or writes a "
        "field of {T}",
        "Go: which goroutines end up calling (*{T}).{Fn}",
        "every `match` arm across the crates that destructures a {T}",
        "which cron entries and queue consumers trigger {fn}",
        "Kotlin: call sites of the extension {qual}, call sites only please",
        "In the {topic} code, which screens or endpoints end up invoking {fn} directly",
        "references of {fn} in {path} and in the files that import it",
    ],
    "impact_analysis": [
        "what would break if {fn} threw instead of returning null",
        "removing the legacy_id field from {T} -- what fails downstream?",
        "changing `fn {fn}(&self)` to `fn {fn}(&mut self)` -- which callers stop compiling, and what has to "
        "become mutable to keep them working",
        "Go: changing `func {Fn}() {T}` to `func {Fn}() ({T}, error)`, what is the ripple effect",
        "making `public void {fn}(` synchronized: which callers could deadlock or get slower",
        "if I add a required keyword argument to `def {fn}(`, which callers need updating and what else breaks",
        'estimate_breakage(symbol="{qual}", edit="rename")',
        "review-bot: this diff changes the signature of {fn}; risk not assessed. Which modules are affected?",
        "feat!: {T} becomes immutable\n\nBREAKING CHANGE: ??? -- tell me what this breaks so I can fill in the footer",
        "{fn} deprecation -- fallout?",
        "if i remov {path} wat stops workin",
        "We're moving {topic} onto a new database next quarter, and {T} is the record everything hangs off. If "
        "its primary key changes from an integer to a UUID, which services, reports, caches and migration "
        "scripts are affected, and which of them would fail silently rather than loudly?",
        "bumping the serializer {T} uses from v2 to v3 -- what might deserialize differently or break?",
        "C#: turning {T} from a class into a readonly struct -- which code paths change behaviour (copies, null "
        "checks, boxing)?",
        "how far does a change to the rounding in {fn} ripple, e.g. into invoices and monthly reports",
        "if the event {fn} publishes arrives a minute late, which downstream consumers misbehave",
    ],
    "exact_match": [
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n{err}: {msg}\n'
        "find the raise that produces exactly this message",
        "thread 'main' panicked at {path}:{n}:9:\n{msg}\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\nwhich line has that literal",
        'level=error caller={path}:{n} msg="{msg}" code={ecode}',
        '{{"level":"error","code":"{ecode}","message":"{Msg}"}}  <- grep the repo for that message string',
        "E       {err}: {msg}\n\n{path}:{n}: {err}\nwhere is that string raised",
        "#yard-alerts  :rotating_light: {ecode} {Msg} (host dock-3)\nwhere in the code is that exact sentence",
        "[Alerting] {ecode}: {Msg} -- which file contains that literal",
        "Mar 03 04:{n}:11 yard-ctl[31{n}]: {msg}\nexact string search please",
        "copy-pasted from the operator's screen, find this exact wording: {Msg}",
        'search_text(pattern="{Msg}", fixed_strings=True)',
        "serch exactly for this erorr text: {msg}",
        "Event Viewer shows error code {ecode} from our service; find where that code string is written in the "
        "source, verbatim",
        "exact occurrences of the token `{fn}(` -- no fuzzy matching, no similar names",
        "irb> {qual}\n{err}: {msg}\nfrom (irb):{n}\n-- which source file holds that message text",
        "Caused by: yard.{err}: {Msg}\n\t... 14 more\nfind the throw with this text",
        "ERROR:  {msg}\nCONTEXT:  PL/pgSQL function {fn}() line {n} at RAISE\nsearch for that exact RAISE text",
    ],
    "find_similar": [
        "```\n{body}\n```\nany sibling implementations elsewhere that do the same thing?",
        "similar-code search, seed = {fn}",
        "I need to {task}. Has anyone here already written something like that? point me at it",
        'clone_search(seed="{code}", min_score=0.8)',
        "dupbot: this hunk resembles code elsewhere (score 0.91). Show the closest matches:\n{snippet}",
        "refactor: extract a shared helper -- first find every function that resembles {fn}",
        "other modules structured like {path}",
        "simmilar implementaions to {fn}?",
        "We keep fixing the same bug in slightly different copies. Here is one of them from the {topic} code; "
        "please list every other function that is structurally the same, even in another language:\n{snippet}",
        "code that resembles this, any language:\n{body}",
        "is there an analogue of {fn} for {T}, written the same way?",
        "anything in the Kotlin or Swift code that mirrors {fn}?",
        "like this but elsewhere: {code}",
        "pattern-match the repo for loops shaped like\n{snippet}",
        "I remember someone writing a helper to {task} ages ago, roughly like the one below; find look-alikes:\n{body}",
        "classes structured like {T} -- same fields, same methods, different name",
    ],
    "understand_code": [
        "explain {topic} like I'm a new apprentice on day one",
        "what happens, step by step, when {event}?",
        "```\n{snippet}\n```\nwhat does this do, line by line?",
        'summarize_module(path="{path}", audience="new hire")',
        "reviewer here: before I approve, summarize what {fn} actually does with a {T}",
        "docs: write the module docstring for {path} -- but first explain to me what the module does",
        "why does {T} hold a lock around every write -- what race is it preventing?",
        "how does {fn} handle retries and timeouts",
        "cant understnad {path}, whats it for",
        "I'm taking over {topic} from a colleague who left, and there's no documentation; could you explain the "
        "data flow end to end, what the main types are (for example {T}), and where the tricky bits are",
        "what is the contract of {qual}: preconditions, side effects, return value?",
        "read this and tell me in plain English:\n{body}",
        "describe {topic} in words, like a diagram would",
        "what does `{code}` mean here? the units confuse me",
        "Go: what does the select in {Fn} wait on, and why",
        "in plain terms, what must always be true of a saved {T}, and why was it designed that way",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "thirtyeighth", seed=383)

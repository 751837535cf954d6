"""A twenty-fourth held-out set for the learned routing layer, written before the routing change it judges
and never measured while written.

The held-out sets up to ``routing_twentythird.py`` (``routing_heldout.py``, ``routing_blind.py``,
``routing_fresh.py``, ``routing_fifth.py`` to ``routing_eighth.py``, ``routing_ninth.py`` to
``routing_twentythird.py``) have been, or may yet be, read while routing changes are weighed, so a change
chosen on them is partly chosen on its own test; none of their templates was read while this one was written
(only ``routing_fifteenth.py``'s layout, as a format; a few of theirs showed, normalised, in the output of a
failing overlap check, and the templates here that met them were replaced), and neither the classifier, its
rules nor its training templates were opened. These templates were written in one sitting by another hand,
from the shapes requests take where the earlier sets may have leaned least: declarations as they are typed in
Rust (``pub(crate) async fn`` with a lifetime), Go (a method on a pointer receiver), Scala (a ``final case
class``), Erlang (a clause matching a record), R (``<- function``), F# (a ``static member``), Nim (an exported
``proc``) and PHP (``public function``); output pasted from tools the set had not used before (a Ruby
backtrace, a Go ``panic`` with its goroutine dump, a Rust ``panicked at`` line, a PHP fatal error, pytest's
short summary, RSpec failures, ``docker compose`` log prefixes, ``journalctl`` lines, GitHub Actions
``##[error]`` annotations, ``go test`` failures, a Datadog monitor, ``cargo test`` output); agent tool calls
written as JSON objects, JSON-RPC requests, Python-style function calls and YAML blocks; shell commands
(``grep -rnF``, ``git grep``, GNU ``global``); migration and refactor plans, tickets, onboarding questions and
chat with an AI agent that is told what to do. Short requests outnumber long wordy ones. The shapes were
turned into templates; no sentence was copied. Questions and imperatives, terse keyword queries and long wordy
ones, typos, lowercase, non-native English, prose mixed with code, pasted code with and without words,
markdown code fences. No classifier was asked any of them while they were written, and none was routed
afterwards; a template that met a training one or another set's (``test_intent_model``) was replaced, not
reworded. Its slot fillers come from five domains no other set uses (an escape-room venue's puzzle rooms, lock
resets, hint pushes and booking slots; a perfumery's accord blends, maceration batches, IFRA allergen limits
and sample vials; a tattoo studio's appointments, deposits, ink lots, stencils and consent forms; a go-kart
track's lap transponders, race heats and driver ballast; a dry cleaner's garment tickets, stain
pre-treatments, alteration charges and conveyor slots), and none is a training filler (``test_intent_model``
checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "reset_room_locks",
    "sendHintToTeam",
    "book_escape_slot",
    "computeRoomFinishTime",
    "blend_accord_batch",
    "checkIfraAllergenLimit",
    "label_sample_vial",
    "computeMacerationDays",
    "reserve_tattoo_session",
    "recordInkLotNumber",
    "collect_booking_deposit",
    "scheduleAftercareText",
    "assign_kart_to_heat",
    "readTransponderLap",
    "compute_ballast_kg",
    "tagGarmentTicket",
    "assign_conveyor_slot",
    "computeAlterationCharge",
]
_TYPES = [
    "PuzzleRoom",
    "HintRequest",
    "GameMasterShift",
    "EscapeBooking",
    "FragranceFormula",
    "AccordBlend",
    "MacerationBatch",
    "AllergenDeclaration",
    "TattooAppointment",
    "StencilTransfer",
    "InkLot",
    "ClientConsentForm",
    "KartHeat",
    "LapTransponder",
    "BallastPlate",
    "GarmentTicket",
    "StainTreatment",
    "ConveyorSlot",
]
_ERRORS = [
    "Psych::DisallowedClass",
    "ActiveRecord::StaleObjectError",
    "PG::ExclusionViolation",
    "ErrConveyorJammed",
    "AllergenLimitExceeded",
    "Swift.DecodingError",
]
_MESSAGES = [
    "room lock reset skipped because the previous team is still inside",
    "hint budget for this team is already used up",
    "booking slot overlaps the room's cleanup window",
    "accord batch exceeds the IFRA limit for oakmoss",
    "maceration started before the alcohol lot was approved",
    "sample vial label is missing the allergen list",
    "ink lot number is not on the approved supplier sheet",
    "consent form was signed after the session started",
    "deposit refund requested inside the 48 hour window",
    "transponder reported a lap shorter than the track minimum",
    "driver weight with ballast is below the class minimum",
    "garment care label forbids the solvent chosen for this ticket",
    "stain pre-treatment was logged after the garment was pressed",
    "conveyor slot already holds an uncollected order",
]
_ERROR_CODES = ["DRC-0412", "E_HINT_CAP", "IFRA-51", "TX-9007", "ERR_SLOT_TAKEN", "TAT-118"]
_PATHS = [
    "escaperoom/rooms/lock_reset.rb",
    "escaperoom/hints/hint_dispatcher.go",
    "escaperoom/bookings/SlotCalendar.swift",
    "perfumery/formulas/accord_blend.rs",
    "perfumery/compliance/ifra_limits.py",
    "perfumery/batches/MacerationTracker.scala",
    "tattoo/appointments/SessionBooking.php",
    "tattoo/inventory/ink_lots.hs",
    "tattoo/consent/ConsentFormController.java",
    "kartrack/timing/transponder_reader.go",
    "kartrack/heats/heat_planner.rb",
    "kartrack/ballast/ballast.rs",
    "drycleaner/tickets/garment_tickets.py",
    "drycleaner/stains/StainTreatment.swift",
    "drycleaner/conveyor/slot_allocation.php",
]
_TOPICS = [
    "resetting puzzle room locks between bookings",
    "how game masters push hints to a team",
    "booking slots for the escape rooms",
    "blending accords for a new fragrance",
    "IFRA allergen limits on perfume formulas",
    "tracking maceration batches in the perfumery",
    "tattoo appointment booking and deposits",
    "ink lot traceability at the tattoo studio",
    "lap timing from kart transponders",
    "planning race heats at the kart track",
    "tagging garments with tickets at the dry cleaner's counter",
    "assigning finished orders to conveyor slots",
]
_TASKS = [
    "price an alteration from its seam length in centimetres",
    "turn a transponder's raw tick count into a lap time in milliseconds",
    "work out how many ballast plates a light driver needs",
    "split a tattoo deposit between the artist and the studio",
    "round a perfume concentrate's dilution to the nearest tenth of a percent",
    "count the minutes a team has left in a puzzle room",
]
_EVENTS = [
    "a team finishes a puzzle room while the next group is already waiting in the lobby",
    "a garment comes off the conveyor without its ticket",
    "a transponder drops out for a whole lap",
    "a client cancels a tattoo session on the morning of the appointment",
    "an ingredient lot is recalled after a perfume batch has been bottled",
]
_SNIPPETS = [
    "rooms.select { |r| r.locked_at.nil? }\n     .each { |r| LockReset.enqueue(r.id) }",
    "for _, lap := range laps {\n\tif lap.Ms < minLapMs {\n\t\tcontinue\n\t}\n\tbest = min(best, lap.Ms)\n}",
    "let total: f64 = accord.parts.iter().map(|p| p.grams).sum();\n"
    "if total > limit {\n    return Err(BlendError::OverLimit(total));\n}",
    "for ticket in batch:\n    if ticket.fabric in SOLVENT_SENSITIVE:\n"
    "        ticket.status = 'hand_wash'\n        continue",
    "foreach ($appointments as $a) {\n    if (!$a->deposit_paid) {\n        $a->release();\n    }\n}",
    "let pending = hints.filter { $0.sentAt == nil }\nfor h in pending {\n    try await push(h)\n}",
]
_BODIES = [
    "lapMillis :: Int -> Int -> Int\nlapMillis ticks hz = ticks * 1000 `div` hz",
    "def macerationDone(b: MacerationBatch, today: LocalDate): Boolean =\n"
    "  !b.startedOn.plusDays(b.days.toLong).isAfter(today)",
    "func ballastPlates(weightKg, minKg, plateKg float64) int {\n\tif weightKg >= minKg {\n\t\treturn 0\n\t}\n"
    "\treturn int(math.Ceil((minKg - weightKg) / plateKg))\n}",
    "def alteration_charge(seam_cm, rate_per_cm, minimum):\n    charge = round(seam_cm * rate_per_cm, 2)\n"
    "    return max(charge, minimum)",
    "fn minutes_left(started: Instant, limit: Duration) -> u64 {\n"
    "    limit.saturating_sub(started.elapsed()).as_secs() / 60\n}",
    "def split_deposit(amount, artist_share)\n  artist = (amount * artist_share).round(2)\n"
    "  [artist, amount - artist]\nend",
]
_CODE_LINES = [
    "ticket.ready_on = intake_day + TURNAROUND_DAYS[ticket.service]",
    "$deposit = round($quote * 0.3, 2);",
    "let dilution = concentrate_g / (concentrate_g + alcohol_g) * 100.0;",
    "heat.Karts = append(heat.Karts[:i], heat.Karts[i+1:]...)",
    "room.reset_at = Time.current + room.cleanup_minutes.minutes",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "pub(crate) async fn {fn}<'a>(",
        "func (s *{T}) {Fn}(ctx context.Context",
        "final case class {T}(",
        "proc {fn}*(self: var {T}, at: DateTime):",
        "{fn} <- function(df, ...) {{",
        "static member {Fn} (slot: {T}) : Async<unit> =",
        "{fn}(#{T}{{id = Id}}) ->",
        "public function {fn}(array $",
        '{{"tool": "goto_definition", "symbol": "{fn}"}}',
        "lookup_symbol:\n  name: {T}\n  kind: type\n  want: declaration site",
        "global -x {fn}   # where is it actually defined",
        "whers {T} defind",
        "cant find the impl of {qual}, go-to just lands on the trait. where is the concrete one written",
        "Agent, before you edit {path}: locate the source of {fn} (the declaration, not a call) and paste its "
        "first 20 lines.",
        "Please where is the {T} class made? I need see its fields for my task about {topic}.",
        "Backtrace bottoms out in {qual}. Before I read any callers I want the function itself. "
        "Which file and line defines it?",
    ],
    "find_references": [
        '{{"name": "find_callers", "arguments": {{"symbol": "{fn}", "depth": 1}}}}',
        "{fn} <- who calls this (all of them, incl. scheduled jobs)",
        "every spot that constructs a new {T}",
        "show call sites of {fn}, skip the tests",
        "importers of {path} -- list them",
        "Migration note: {T} is going away next quarter. Give me the full list of its usages with line numbers "
        "so I can estimate the work.",
        'xref("{qual}", direction="incoming")',
        "where all is {fn} getting called from.. need every caller not just the first one",
        "inside {path}, every line that touches a {T}",
        "In the PHP and Ruby parts of the code, where does anything call {fn}? Only the call sites please.",
        "tool: references\nquery: {fn}\nscope: whole repo",
        "is any code path still hitting {fn}? my grep has 3 hits but one of them is a comment",
        "list the specs and tests that touch {T}",
        "who reads from a {T} and who writes to it",
        "team of {topic} ask me which places use {fn}, can you make the list for me",
        "git grep -n '{fn}(' -- show me the callers, not the definition itself",
    ],
    "impact_analysis": [
        "deleting {fn} tomorrow. what goes down with it?",
        "Planning to make {T} immutable (no setters). Which code mutates it today and would stop compiling?",
        '{{"action": "impact", "target": "{qual}", "change": "rename"}}',
        "downstream effects of adding a required arg to {fn}",
        "if {path} moves into another package, what imports break?",
        "Rust: if {fn} returns a Result instead of panicking, which callers need a ? or a match added",
        "we raise the minimum inside {fn} -- which reports and screens will show different numbers",
        "safe to drop {qual}? anything depending on it",
        "ripple effect of changing the id of {T} from int to uuid",
        "Ticket {n}: {Msg}. The fix I have in mind changes what {fn} returns. What else relies on the current "
        "behaviour?",
        "impact:\n  symbol: {fn}\n  change: make it async\n  report: affected callers and tests",
        "if we make {fn} raise {err} instead of returning nil, which callers are not ready for that",
        "if i change the signature of {fn}, which tests go red?",
        "how much of the codebase is coupled to {path}? I want to rewrite it from scratch",
        "Refactor proposal for {topic}: merge {T} into its parent and delete {fn}. List what would need to change "
        "as a consequence.",
        "wenn I change the default value of {fn}, other modules get effect? which ones",
    ],
    "exact_match": [
        "{path}:{n}:in `{fn}': {msg} ({err})\n\tfrom {path}:{n}:in `block in call'",
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.{Fn}(...)\n\t{path}:{n} +0x1d\nexit status 2",
        "thread 'main' panicked at '{msg}', {path}:{n}:9\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
        "PHP Fatal error:  Uncaught {err}: {Msg} in {path}:{n}\nStack trace:\n#0 {{main}}",
        "FAILED tests/test_{fn}.py::test_{fn}_rejects_bad_input - {err}: {msg}",
        "  1) {T} #{fn} rejects it\n     Failure/Error: {msg}\n     # ./{path}:{n}",
        '[Triggered] {T} error rate on prod\n@logs: "{msg}" ({ecode})\n-> find the literal in source',
        "web_1  | {ecode} {msg}\ngrep the source for that literal please",
        "Jun 12 03:14:{n} press-ctl[812]: {ecode}: {msg}",
        '{{"tool": "search_text", "pattern": "{msg}", "literal": true}}',
        "##[error]{Msg} ({ecode})\nwhich file prints this? it's from the GH Actions run",
        "cargo test output:\n---- {fn} stdout ----\nError: {Msg}\nwhich line in the crate produces it, exact text",
        'grep -rnF "{msg}" .',
        "customer screenshot says: {Msg}. please locate that text in the code, character for character",
        "the log say '{msg}' and nothing else, which source file have this sentence?",
        "--- FAIL: Test{Fn} (0.{n}s)\n    {path}:{n}: {msg}\nFAIL\nwhere does that message come from",
    ],
    "find_similar": [
        "{snippet}\n\nsame idea elsewhere?",
        "anything that resembles {fn}",
        '{{"method": "code/nearest", "params": {{"text": "{code}", "limit": 10}}}}',
        "functions that do roughly what {fn} does, in any language",
        "I'm about to {task}. Has someone already written that? Show me the closest existing code.",
        "```\n{body}\n```\nfind its twins",
        "Is there another implementation of this in the repo? feels like i've seen it in the kart code too\n{snippet}",
        "files structured like {path}",
        "code like `{code}` -- where else do we do this",
        "siblings of {T}: other classes built the same way",
        "copy-paste hunt: {fn}",
        "search.semantic_code(query='''{body}''', mode='nearest')",
        "refactor plan for {topic}: before extracting a shared helper I need all the near-identical copies of "
        "this\n{snippet}",
        "kind of same function as this one exist already? i dont want write it twice\n{body}",
        "more functions in the style of {fn}, same argument pattern",
        "{code}\n^ this line shows up in several services with small tweaks, find them all",
        "match by shape, not by name: code resembling {qual}",
    ],
    "understand_code": [
        "{fn}: step by step, what does it do with its input",
        "{T}?? what even is it, someone explain like im new",
        "gimme a tour of {path}, main functions and how they hand off",
        "{body}\n\nwhat is this doing, and why that division?",
        "Could someone describe the flow for {topic}, from the user's click to the database row?",
        "What happens in the system when {event}? Trace it for me in words.",
        '{{"tool": "explain", "target": "{qual}", "detail": "high"}}',
        "why would {fn} return early when the {T} is brand new",
        "summarize the responsibilities of {T} in two or three sentences",
        "i am reading {path} since one hour and dont understand the purpose, can you say me in simple way",
        "{snippet}\nwalk me through this, esp. the condition in the middle, what is it for",
        "is {fn} idempotent? what happens if it runs twice",
        "docs are empty for {topic}. how does that part actually work today",
        "onboarding q: relation between {T} and {fn}, how do they fit together",
        "what's the algorithm behind {fn}, big picture only",
        "meaning of `{code}` ?",
        "design rationale for {path}: why is it split out from the rest",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "twentyfourth", seed=124)

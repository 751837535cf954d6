"""A twenty-second held-out set for the learned routing layer, written by another hand before the routing
change it judges and never measured while written.

The held-out sets before it have been, or may yet be, read while routing changes are weighed, so a change
chosen on them is partly chosen on its own test; none of their templates was looked at while this one was
written (only ``routing_fifteenth.py``'s layout, as a format), and no training template either. These
templates were written in one sitting from the shapes real requests take where engineers and coding agents
search code: terse search-box queries and long multi-clause requests, questions and imperatives, agent tool
calls in more than one syntax, editor and command-line habits, review, ticket, incident, standup and
commit-message voices, non-native English, prose mixed with code, pasted output from several runtimes and
pasted code with and without words. No sentence was copied, and no classifier was asked any of them while
they were written; a template that met a training one or another set's (``test_intent_model``) was
replaced, not reworded. Its slot fillers come from domains no other set uses (a farrier's horseshoeing
practice and its forge stock, a municipal snowplow depot's routes, salt spreaders and storm shifts, a
marionette theatre's string rigs and touring shows, a hydroponic lettuce greenhouse's nutrient dosing and
grow racks, a sail loft's panel cutting and repair quotes), and none is a training filler
(``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "schedule_reshoeing",
    "computeHoofAngle",
    "log_shoe_fitting",
    "reorderForgeStock",
    "assign_plow_route",
    "computeSaltSpreadRate",
    "dispatch_storm_shift",
    "logBladeWear",
    "rig_marionette_strings",
    "scheduleTouringShow",
    "log_puppet_repair",
    "computeControlBarLength",
    "dose_nutrient_tank",
    "computeEcSetpoint",
    "schedule_rack_harvest",
    "flushGrowChannel",
    "cut_sail_panel",
    "computeLuffCurve",
    "log_seam_restitch",
    "quoteSailRepair",
]
_TYPES = [
    "ShoeingVisit",
    "HoofRecord",
    "ForgeInventory",
    "PlowRoute",
    "SaltSpreader",
    "StormShift",
    "BladeWearReading",
    "MarionetteRig",
    "PuppetRepairTicket",
    "TouringShow",
    "NutrientTank",
    "GrowRack",
    "HarvestBatch",
    "SailPanel",
    "ClothRoll",
    "SailRepairQuote",
]
_ERRORS = [
    "HoofAngleOutOfRange",
    "PlowRouteOverlapError",
    "SaltHopperEmptyException",
    "MarionetteStringSnapped",
    "NutrientOverdoseError",
    "LuffCurveMismatch",
    "ClothRollExhaustedException",
]
_MESSAGES = [
    "hoof angle reading exceeds the farrier's tolerance for a front foot",
    "reshoeing interval is shorter than four weeks for this horse",
    "forge stock of size 2 steel shoes fell below the reorder mark",
    "plow route crosses a segment already claimed by another truck",
    "salt spread rate set above the limit for this road surface temperature",
    "storm shift dispatched with no licensed plow driver on the roster",
    "marionette control bar has more strings than its rig allows",
    "touring show booked at a venue without a fly gallery",
    "nutrient tank conductivity drifted outside its setpoint band",
    "grow rack harvested before its minimum days in channel",
    "sail panel cut from a cloth roll with the wrong weave direction",
    "repair quote issued without a measured luff length",
]
_ERROR_CODES = ["FRR-0412", "PLW-77", "ESALTLO", "MRN_STRING_09", "HYD-E214", "SLK-5120"]
_PATHS = [
    "farrier/visits/reshoeing_schedule.py",
    "farrier/forge/stock_reorder.go",
    "farrier/hoof/HoofAngleCalculator.java",
    "depot/routes/plow_route_planner.rs",
    "depot/spreaders/SaltRateController.kt",
    "depot/shifts/storm_shift.ex",
    "theatre/rigs/MarionetteRig.swift",
    "theatre/tours/touring_schedule.rb",
    "greenhouse/dosing/nutrient_dosing.cpp",
    "greenhouse/racks/harvestPlanner.ts",
    "loft/cutting/panel_cutter.py",
    "loft/quotes/SailRepairQuoteService.cs",
]
_TOPICS = [
    "reshoeing appointments for the farrier's client horses",
    "forge stock reordering for horseshoe blanks",
    "hoof angle measurements taken at each shoeing",
    "plow route assignment during a snowstorm",
    "salt spreading rates on the municipal plow trucks",
    "storm shift rosters at the snowplow depot",
    "stringing and rigging marionettes for the puppet theatre",
    "booking the marionette company's touring shows",
    "nutrient dosing for the hydroponic lettuce tanks",
    "harvest scheduling across the greenhouse grow racks",
    "cutting sail panels from cloth rolls in the sail loft",
    "quoting sail repairs for visiting yachts",
]
_TASKS = [
    "convert a hoof length measured in sixteenths of an inch to millimetres",
    "round a salt spread rate to the nearest spreader gate setting",
    "work out a marionette string length from the puppet's height",
    "convert nutrient conductivity readings from mS/cm to parts per million",
    "compute the cloth area of a triangular sail from its luff, leech and foot",
    "split a plow route into segments no longer than two kilometres",
    "count the days a lettuce rack has spent in its growing channel",
]
_EVENTS = [
    "two plow trucks are dispatched onto the same route segment",
    "a horse's reshoeing visit is cancelled after the shoes were already forged",
    "a marionette string snaps halfway through a touring show",
    "the nutrient dosing pump keeps running after the tank is full",
    "a sail repair quote is accepted after the cloth roll has run out",
    "the salt hopper empties in the middle of a storm shift",
]
_SNIPPETS = [
    "due = [h for h in horses if (today - h.last_shod).days >= 42]\n"
    "for horse in sorted(due, key=lambda h: h.barn):\n    book_reshoeing(horse)",
    "for _, seg := range route.Segments {\n"
    '\tif seg.ClaimedBy != "" && seg.ClaimedBy != truck.ID {\n'
    "\t\treturn ErrSegmentTaken\n\t}\n}",
    "let doses = tanks\n    .iter()\n    .filter(|t| t.ec < t.setpoint)\n"
    "    .map(|t| (t.id, t.setpoint - t.ec))\n    .collect::<Vec<_>>();",
    "shows.each do |show|\n  next unless show.venue.fly_gallery?\n  show.confirm!\nend",
    "let strings = rig.controls.flatMap { $0.strings }\n"
    "guard strings.count <= rig.maxStrings else { throw RigError.tooManyStrings }",
]
_BODIES = [
    "def panel_area(luff: float, leech: float, foot: float) -> float:\n"
    "    s = (luff + leech + foot) / 2\n"
    "    return math.sqrt(s * (s - luff) * (s - leech) * (s - foot))",
    "func spreadGate(rate float64) int {\n\tgate := int(math.Round(rate / 12.5))\n"
    "\tif gate > 8 {\n\t\tgate = 8\n\t}\n\treturn gate\n}",
    "static double stringLengthCm(double puppetHeightCm) {\n    return puppetHeightCm * 1.6 + 40.0;\n}",
    "public static int DaysInChannel(GrowRack rack, DateOnly today) =>\n"
    "    today.DayNumber - rack.PlantedOn.DayNumber;",
    "fun hoofMm(sixteenths: Int): Double = sixteenths * 25.4 / 16.0",
    "def to_ppm(ec_ms_cm) when is_number(ec_ms_cm), do: round(ec_ms_cm * 640)",
]
_CODE_LINES = [
    "shoe.sizeMm = round(hoof.widthMm * FRONT_SHOE_RATIO)",
    "let rate = spreader.base_rate * surface.ice_factor;",
    "rig.strings.append(MarionetteString(from: bar.left, to: hand.left))",
    "tank.ec_target = crop.ec_target + SEASON_OFFSET[month]",
    "var quote = luffMeters * ratePerMeter + restitchFee;",
    "segment.claimed_by = segment.claimed_by or truck.id",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "where is `type {T} struct` declared? grepping for it only turns up the tests",
        "go to def {qual}",
        "which file declares the Go method `func (r *{T}) {Fn}(` — I want the concrete body, not the interface "
        "it satisfies",
        "where's the `impl {T}` block that has `pub fn {fn}`? need the actual definition, not the trait default",
        "Java: open the declaration of {T}#{fn}, the overload that takes a LocalDate",
        "the header only declares `depot::{T}::{fn}` — where's the out-of-line definition, in which .cpp?",
        "looking for `data class {T}(` — which Kotlin file is it in",
        "which Elixir module has the `def {fn}(` clause? trying to find where {fn}/2 is actually defined",
        '{{"tool": "goto_definition", "arguments": {{"symbol": "{T}", "language": "any"}}}}',
        "{fn} — declared where?",
        "pls where is written the function {fn}? i search but only find where it is called, not the source of it",
        "I'm reviewing a PR that calls {fn} from {path}, and there are three modules with nearly the same name, "
        "so I can't tell which one actually implements it. Which file and line holds its definition?",
        "cmd-click on {T} lands in a generated .d.ts stub; where's the real `export class {T}` written?",
        "Swift: find the `extension {T}` that adds `func {fn}` — Xcode's jump to definition gives up on it",
        "ticket {ecode} says the bug is in {T}'s constructor. point me at where {T} is defined so I can read it",
        "show me the signature and body of {fn}, wherever it's defined",
    ],
    "find_references": [
        "who calls {fn} besides the tests?",
        "list every call site of {qual} across all services",
        "which classes override {T}#{fn}? the javadoc says subclasses are supposed to",
        "anything implementing {T}? in Go terms: which types have a `{Fn}` method that satisfies it",
        'find_references(symbol="{qual}", include_tests=False)',
        "shift+F12 on {fn} says no references, but I'm sure something in {path} uses it — find the usages",
        "who invokes Depot.Storm.{fn}/2? list the callers",
        "which modules import {fn} from {path}?",
        "I need every place in the codebase where a {T} is constructed, passed in as an argument, or returned, "
        "fixtures included, so I can audit how the {topic} code actually uses it.",
        "where all place is using {fn}? i need the list of caller",
        "any callers of {qual} left after last week's cleanup? show me all of them",
        "who subscribes to {T}Changed events, and who publishes them?",
        "inbound refs → {qual}",
        "Rust: every `use` of `crate::{T}` and every call to `{T}::{fn}`",
        "which C++ classes derive from `{T}`, directly or through a template base?",
        "which functions read a {T}'s fields and which ones mutate it?",
    ],
    "impact_analysis": [
        "if I change {fn} to take a timezone argument, what breaks?",
        "blast radius of renaming {T} to {T}V2",
        "if {qual} were deleted, which services and test suites would fail?",
        "We're planning to make {fn} async as part of the work on {topic}. Before I start, can you figure out "
        "everything downstream that would need to change — callers, tests, serialized payloads, and anything "
        "that relies on it being synchronous?",
        "safe to delete {path}? what depends on it",
        "drafting the commit `change default of {T}.retries from 3 to 5` — which modules and tests does this "
        "ripple into?",
        '<tool_call name="impact_of_change"><symbol>{qual}</symbol><change>signature</change></tool_call>',
        "if i am modify the return type of {fn}, which other code will become broken?",
        "{T} change impact?",
        "review: did anyone check what downstream relies on {fn} returning results in sorted order? if we "
        "change that, what breaks",
        "making {T} immutable — what's the fallout across the repo?",
        "postmortem follow-up: we touched {fn} last sprint and then {event}. what else could that change have "
        "affected?",
        "if `{T}` stops deriving `Clone`, which crates in the workspace stop compiling?",
        "risk assessment for switching a {T} field from int to decimal: affected callers, serializers, migrations",
        "what depends on {path}, directly and transitively? planning to split the file in two",
        "we're changing the layout of `struct {T}` in a shared header; which translation units need a rebuild "
        "and what could misbehave at runtime?",
    ],
    "exact_match": [
        'find the literal string "{msg}"',
        "ERROR:{fn}:{msg}\nthat's from the python logger; which source file emits it?",
        "panic: {msg}\n\ngoroutine 7 [running]:\nmain.{fn}(...)\n\nwhere is that panic text raised?",
        'Exception in thread "main" {err}: {msg}\n\tat {T}.{fn}({T}.java:{n})',
        "Error: {msg}\n    at {fn} ({path}:{n}:7) — search for that exact message",
        "Fatal error: {Msg}: file {path}, line {n}\nfind where that string lives",
        "git grep -nF returns nothing for '{Msg}' on main — find that exact wording anywhere, yaml and "
        "templates included",
        "search for {ecode} exactly, it's all over the logs tonight",
        "2025-01-14T04:{n}:12Z ERROR [{fn}] {msg}\nwhich code logs this line?",
        "Jan 14 03:{n}:55 depot-worker-2 plowd[812]: {Msg}  <- grep for that",
        "exact occurrences of `{code}`, character for character",
        "i have this error text, where in the code it is coming from: {msg}",
        "Unhandled exception. {err}: {Msg}",
        "PHP Fatal error:  Uncaught {err}: {msg} in /srv/{path}:{n}",
        "E       {err}: {msg}\n\n{path}:{n}: {err}\nwhich line raises this",
        "anyone know where the string '{Msg}' gets raised? prod is throwing it every few minutes",
    ],
    "find_similar": [
        "find code similar to this:\n```\n{snippet}\n```",
        "anything else in the repo that does roughly this?\n{body}",
        "{snippet}\n\n^ pretty sure we have this same pattern elsewhere, find the near-duplicates",
        "before I add another way to {task}, what existing code already does something close to it?",
        'search_similar(code="""{body}""", top_k=10)',
        "copy-pasted variants of {fn}, find the clones",
        "look for other functions that {task}, the way {fn} does",
        "implementations similar to {qual} in other services",
        "we have maybe other code same like this one? `{code}`",
        "this diff adds {fn}; I'm fairly sure someone already wrote the same thing for {topic}. find lookalikes",
        "more like this ↓\n{body}",
        "I'm about to write code that will {task}. Before I do, search for existing functions with the same "
        "shape — same inputs, same loop, maybe under another name — so I can reuse or extend one instead.",
        "structurally similar to:\n{snippet}",
        "{code}\nother lines like this one? same pattern with different variable names is fine",
        "```\n{body}\n```\nduplicate logic somewhere? want to consolidate",
        "code resembling {fn} from {path} — same algorithm, any language",
    ],
    "understand_code": [
        "give me the big picture of {topic}: main entry points, data flow, who owns what",
        "explain {fn} like I'm new on the team",
        "if {event}, what does our code do, step by step? trying to understand the design",
        "what is {T} for, conceptually?",
        "I'm picking up the service behind {topic} next sprint. Can you explain the overall flow — which "
        "components are involved, where the state lives, and how {fn} fits into it?",
        "why does {fn} retry three times before giving up? what's the reasoning behind that",
        "eli5 {path}",
        "standup: still trying to understand how a {T} gets populated — anyone have a summary?",
        '{{"name": "explain_code", "input": {{"target": "{qual}", "detail": "overview"}}}}',
        "what does this do?\n{body}",
        "can you tell me how is working the {topic}? i don't understand the logic inside {fn}",
        "summarize the responsibilities of {path}",
        "how does the code cope when {event}?",
        "trace the control flow inside {qual} for me, step by step",
        "{T} has no docs — describe how it's meant to be used",
        "purpose of {fn}?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "twentysecond", seed=2207)

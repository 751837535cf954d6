"""A ninth held-out set for the learned routing layer, written before the routing change it judges (a
second model head over sentence vectors, more training templates) and never measured while written.

The seven earlier held-out sets (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``, ``routing_eighth.py``) have all been
read while routing changes were weighed, so a change chosen on them is partly chosen on its own test.
These templates were written in one sitting by another hand, from the shapes real requests take where
people ask a code search tool for something: the tool schemas and skill descriptions of coding agents
and code intelligence servers ("who calls this function", "transitive callers for ripple-effect
analysis", "paste code and find semantically similar implementations"), issue threads about rename and
change signature refactorings ("is renaming a parameter a breaking change", "which implementors are
affected"), developer Q&A titles (where is X defined, jump to the declaration, find every usage),
duplicate-logic and copy-paste detection docs, incident chat that pastes a log line or a traceback and
asks where it comes from, and onboarding questions from people new to a codebase, some of them not
native English speakers. Short requests and plain questions were taken to outnumber long wordy ones, as
they do where people type into a search box or an agent calls a tool. The shapes were turned into
templates; no sentence was copied. Questions and imperatives, terse keyword queries and long wordy ones,
typos, non-native English, prose mixed with code, definition syntax of several languages, pasted stack
traces and log lines, pasted code with and without words. No classifier was asked any of them while they
were written; a template that met a training one or another set's (``test_intent_model``) was replaced,
not reworded. Its slot fillers come from domains no other set uses (a ski resort's lift ticketing and
gates, a semiconductor fab's wafer lot tracking, a food-delivery dispatch service, an observatory's
telescope scheduler), and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "validate_lift_pass",
    "scanGateBarcode",
    "refund_unused_day",
    "compute_season_pass_price",
    "openTurnstileLane",
    "hold_wafer_lot",
    "advanceLotToNextStep",
    "record_reticle_usage",
    "flag_excursion_wafer",
    "assign_courier",
    "estimatePickupEta",
    "rebatch_pending_orders",
    "release_stale_assignment",
    "slew_to_target",
    "rankObservingBlocks",
    "close_dome_on_wind",
]
_TYPES = [
    "LiftPass",
    "GateReader",
    "SkierProfile",
    "TicketWindow",
    "WaferLot",
    "ProcessRecipe",
    "ReticleStocker",
    "MetrologyResult",
    "CourierShift",
    "DeliveryZone",
    "DispatchQueue",
    "ObservingBlock",
    "MountController",
    "SeeingForecast",
]
_ERRORS = [
    "CharConversionException",
    "ClassCircularityError",
    "InvalidMarkException",
    "BufferUnderflowException",
    "InvalidClassException",
    "UnsupportedTemporalTypeException",
]
_MESSAGES = [
    "pass already used at another gate within the anti-passback window",
    "lift closed for wind hold, scan rejected",
    "season pass photo missing at pickup desk",
    "lot on hold: chamber match failed for recipe",
    "reticle usage count above qualified limit",
    "wafer map has more dies than the product allows",
    "no courier within radius of restaurant",
    "order stuck in awaiting pickup for twenty minutes",
    "dispatch zone polygon is not closed",
    "target below horizon limit at block start",
    "dome shutter did not report closed after timeout",
]
_ERROR_CODES = ["ENETRESET", "EHOSTDOWN", "SIGTRAP", "E0507", "ENOTSOCK", "EMLINK"]
_PATHS = [
    "ticketing/gates/anti_passback.py",
    "ticketing/pricing/SeasonPassPricer.kt",
    "fab/mes/lot_tracking.go",
    "fab/metrology/excursions.py",
    "dispatch/assign/courier_matcher.ts",
    "dispatch/zones/polygons.rs",
    "observatory/scheduler/queue.py",
    "observatory/mount/slew.cpp",
]
_TOPICS = [
    "the anti-passback check at the lift gates",
    "dynamic pricing of day tickets",
    "refunds for days lost to lift closures",
    "lot holds after a tool excursion",
    "recipe qualification per chamber",
    "wafer genealogy across split lots",
    "courier to order matching",
    "batching of orders from the same restaurant",
    "delivery ETA estimation",
    "the observing queue priority",
    "dome closure on bad weather",
]
_TASKS = [
    "compute the airmass of a target from its altitude",
    "check whether a point lies inside a delivery polygon",
    "round a pickup time to the next five minutes",
    "decode a lift ticket's chip id from a gate scan",
    "split a wafer lot into two child lots",
    "pick the nearest free courier by road distance",
]
_EVENTS = [
    "a skier scans the same pass at two lifts within a minute",
    "a lot is put on hold while it sits inside a process tool",
    "a courier goes offline with an order in the bag",
    "clouds roll in halfway through an exposure",
    "a restaurant marks an order ready before a courier is assigned",
]
_SNIPPETS = [
    "if pass_.last_scan and now - pass_.last_scan < ANTI_PASSBACK:\n    return Decision.REJECT\npass_.last_scan = now",
    "for (const c of couriers) {\n  const d = haversine(c.pos, order.pickup);\n"
    "  if (d < best.dist) best = { c, d };\n}",
    "for _, w := range lot.Wafers {\n\tif w.Thickness < spec.Min || w.Thickness > spec.Max {\n"
    "\t\tw.Flag(Excursion)\n\t}\n}",
    "blocks.sort(key=lambda b: (-b.priority, b.airmass_at(now)))\nnext_block = blocks[0]",
    "if (wind.gust() > limits.maxGust) {\n    dome.close();\n    mount.park();\n}",
]
_BODIES = [
    "def airmass(alt_deg):\n    z = math.radians(90 - alt_deg)\n    return 1 / math.cos(z)",
    "fn point_in_polygon(p: (f64, f64), poly: &[(f64, f64)]) -> bool {\n    let mut inside = false;\n"
    "    let mut j = poly.len() - 1;\n    for i in 0..poly.len() {\n"
    "        let (xi, yi) = poly[i];\n        let (xj, yj) = poly[j];\n"
    "        if (yi > p.1) != (yj > p.1) && p.0 < (xj - xi) * (p.1 - yi) / (yj - yi) + xi {\n"
    "            inside = !inside;\n        }\n        j = i;\n    }\n    inside\n}",
    "function roundUpTo5(minutes) {\n  return Math.ceil(minutes / 5) * 5;\n}",
    "fun dayPrice(base: Double, occupancy: Double): Double {\n    return if (occupancy > 0.8) base * 1.25 else base\n}",
]
_CODE_LINES = [
    "lot.hold(reason=HoldReason.CHAMBER_MISMATCH)",
    "courier.assign(order); order.setState(OrderState.ASSIGNED);",
    "if gate.reader.last_uid == uid: return REJECT",
    "let alt = target.altitude_at(jd);",
    "price := base * demandFactor(day)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "{fn} declaration location",
        "jump to declaration {T}",
        "impl {T} {{",
        "public sealed class {T}",
        "export interface {T} {{",
        "{fn} :: {T} ->",
        "sub {fn} {{",
        "func (s *{T}) {Fn}(",
        "which file has the source of {qual}? I only see it imported",
        "i search the place where {T} is defined, can you show me please",
        "defintion of {fn}",
        "show me the body of {fn}, the actual implementation not the call sites",
        "struct {T} definition",
        "open the {T} type and take me to where it's written",
        "need the constructor of {T}, where does it live in the repo",
        "where's {T} coming from — the definition, not the import line",
    ],
    "find_references": [
        "who all is calling {fn}?",
        "every call site of {qual}",
        "list the places that invoke {fn}() across the whole codebase",
        "{T} usages across repo",
        "find callers of {fn} in {path} and everywhere else",
        "files with an import of {T}",
        "where do we instantiate {T} objects",
        "is {fn} still called from anywhere or is it dead",
        "show all places that read or write {T}.status",
        "callsites of {fn} pls",
        "please find me the code which is using {T}, i want to see all the users",
        "grep-like list of every reference to {qual}, not the definition itself",
        "anything that passes a {T} into {fn}?",
        "who uses {fn} — need the list with file and line",
        "besides {path}, does anything else call {fn}?",
        "list every place where a {T} gets constructed or passed around",
    ],
    "impact_analysis": [
        "what breaks if I change the return type of {fn}",
        "blast radius of renaming {T}",
        "is it safe to delete {fn}",
        "who is affected if {qual} starts raising {err}",
        "if I add a required parameter to {fn}, how far does the ripple go",
        "transitive callers of {fn}, I need to know what a change there would touch",
        "risk of changing {path}: which features depend on it",
        "i want to remove the field from {T}, which things will stop to work",
        "can I make {fn} async without breaking its callers",
        "downstream impact of a change to {topic}",
        "what would a refactor of {T} knock over",
        "wat breaks when {fn} returns None instead of raising",
        "planning to split {path} into two modules; what depends on it and would have to move with it",
        "impact of changing {T} from a class into a dataclass",
        "if {fn} gets ten times slower, which request paths would feel it",
        "before merging: does changing the default in {fn} affect any other team's code?",
    ],
    "exact_match": [
        "{msg} (exact phrase)",
        "thread 'main' panicked at {path}:{n}:9:\n{msg}",
        "git grep -n {ecode}",
        "where is this log line printed: {Msg}",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n    {code}\n{err}: {msg}',
        "ERROR [{T}] {msg}",
        "exact string '{msg}' in the source",
        "search literally for `{code}`",
        "who emits the message {Msg}? saw it in prod logs at 03:{n}",
        "find the text {ecode} in the code base, exact match only",
        "at {qual}({T}.java:{n})\nCaused by: {err}",
        "pager went off with '{msg}', which file throws it",
        "fixed-string search {code}",
        "the error '{msg}' comes where in the code? i must find the exact line",
        "2026-11-30 22:{n}:41 WARN {fn} - {msg}",
        'ctrl+f across the repo for "{msg}"',
    ],
    "find_similar": [
        "> {snippet}",
        "// {path}\n{body}",
        "anything like this elsewhere?\n{snippet}",
        "do we already have a helper that does this\n{body}",
        "find near duplicates of:\n{body}",
        "{snippet}\n\nsame pattern anywhere else in the repo?",
        "copy-pasted logic similar to {fn}",
        "code that looks like `{code}`",
        "similiar implementations to this one\n{body}",
        "is there other code doing the same as this, maybe we can merge it\n{snippet}",
        "before I write it: existing function to {task}?",
        "other places that follow the same structure as {fn} in {path}",
        "functions resembling {fn}",
        "dup detection for this block\n{snippet}",
        "this is from an old branch, is there a current equivalent of it?\n{snippet}",
        "we have this in {path}:\n{body}\nare there variants of it elsewhere that drifted apart?",
    ],
    "understand_code": [
        "so how exactly is {topic} supposed to work?",
        "why does {fn} sleep before retrying",
        "what is {qual} for",
        "explain like I'm new: {path}",
        "walk me through what happens when {event}",
        "{topic} — need the big picture",
        "what's the approach used here to {task}?",
        "new to this repo, can someone explain me the idea behind {topic}",
        "why do we need a {T} at all in {topic}",
        "why is `{code}` needed there",
        "hw is {topic} implemented, high level",
        "what happens to the {T} after {fn} returns, and who cleans it up",
        "I keep reading {path} and still don't get the flow: what calls what during {topic}, and why "
        "was it designed that way instead of a simple loop",
        "what does {fn} assume about its input",
        "{topic}: what's the idea, in plain words",
        "in what situation does {fn} return early, and why",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "ninth", seed=43)

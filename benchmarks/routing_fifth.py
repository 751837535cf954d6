"""A fifth held-out set for the learned routing layer, written before the routing policy change it
judges was chosen, and never measured while it was written.

The three other held-out sets (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``) have
all been read while routing changes were weighed, so a change chosen on them is partly chosen on its own
test. These templates were written in one sitting, before any model or policy was asked any of them,
from the way people ask a code search tool: a developer in an IDE search box, a code reviewer, an SRE
during an incident, an agent's tool call, a newcomer; questions, imperatives, terse keywords, pasted
code and log lines, a few typos. The other sets were glanced at only to avoid their shapes; a template
that came near one was replaced, not reworded, before anything was measured. Its slot fillers come from
domains no other set uses (an airline reservation system, a CAD geometry kernel, a farm sensor and
irrigation platform, a satellite ground station), and none is a training filler (``test_intent_model``
checks both). ``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "rebook_passenger",
    "holdSeatMap",
    "issue_eticket",
    "split_pnr",
    "apply_fare_basis",
    "tessellate_face",
    "offsetCurve",
    "boolean_union_solids",
    "fillet_edges",
    "sample_soil_moisture",
    "calibrateProbe",
    "schedule_irrigation",
    "track_satellite_pass",
    "decodeTelemetryFrame",
    "point_antenna",
]
_TYPES = [
    "PassengerNameRecord",
    "FareQuote",
    "SeatMap",
    "BoardingPass",
    "NurbsSurface",
    "BRepShell",
    "SketchConstraint",
    "SoilProbe",
    "IrrigationZone",
    "GreenhouseClimate",
    "GroundPass",
    "TleRecord",
    "AntennaMount",
]
_ERRORS = [
    "IsADirectoryError",
    "NotADirectoryError",
    "IllegalMonitorStateException",
    "ArithmeticException",
    "ProcessLookupError",
]
_MESSAGES = [
    "seat already held by another booking",
    "fare basis not valid for this route",
    "passenger name exceeds pnr limit",
    "self-intersecting loop in sketch profile",
    "boolean operation produced a non-manifold shell",
    "fillet radius too large for edge",
    "soil probe reading outside calibrated span",
    "irrigation valve did not report closed",
    "lost lock on downlink carrier",
    "tle epoch too old for pass prediction",
]
_ERROR_CODES = ["ESTALE", "EROFS", "EXDEV", "SIGBUS", "ENOLCK", "E0499"]
_PATHS = [
    "reservations/pnr/split.py",
    "booking/fares/FareQuote.kt",
    "kernel/brep/boolean.cpp",
    "kernel/sketch/solver.rs",
    "farm/sensors/soil_probe.py",
    "farm/irrigation/schedule.go",
    "groundstation/tracking/pass_predict.py",
]
_TOPICS = [
    "seat inventory holds",
    "fare rule evaluation",
    "PNR splitting",
    "solid boolean operations",
    "the sketch constraint solver",
    "surface tessellation",
    "soil moisture sampling",
    "irrigation scheduling",
    "battery management on the sensor mesh",
    "satellite pass prediction",
    "downlink frame decoding",
]
_TASKS = [
    "compute the great-circle distance between two airports",
    "intersect two line segments",
    "convert a julian date to utc",
    "average sensor readings over a sliding window",
    "round a fare to the currency's minor unit",
    "check whether a polygon is wound clockwise",
    "resend a dropped radio uplink packet",
]
_EVENTS = [
    "a passenger misses a connecting flight",
    "two agents book the last seat at once",
    "a sketch constraint becomes over-determined",
    "a soil probe's battery dies mid-sample",
    "the antenna loses the satellite during a pass",
]
_SNIPPETS = [
    "held = {s for s in seat_map if s.hold_until and s.hold_until > now}\n"
    "available = [s for s in seat_map if s not in held]",
    "double cross = (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x);\n"
    "if (std::abs(cross) < kEps) return Orientation::Collinear;",
    "for _, z := range zones {\n\tif z.Moisture < z.Threshold && !z.ValveOpen {\n\t\tz.Open()\n\t}\n}",
    "let window: Vec<f32> = readings.iter().rev().take(12).copied().collect();\n"
    "let mean = window.iter().sum::<f32>() / window.len() as f32;",
    "val legs = itinerary.segments.filter { it.carrier == carrier }\nif (legs.isEmpty()) return null",
]
_BODIES = [
    "def haversine_km(lat1, lon1, lat2, lon2):\n    p1, p2 = math.radians(lat1), math.radians(lat2)\n"
    "    dl = math.radians(lon2 - lon1)\n"
    "    a = math.sin((p2 - p1) / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2\n"
    "    return 6371.0 * 2 * math.asin(math.sqrt(a))",
    "bool isClockwise(const std::vector<Point>& pts) {\n    double sum = 0;\n"
    "    for (size_t i = 0; i < pts.size(); ++i) {\n        const Point& a = pts[i];\n"
    "        const Point& b = pts[(i + 1) % pts.size()];\n        sum += (b.x - a.x) * (b.y + a.y);\n"
    "    }\n    return sum > 0;\n}",
    "func movingAvg(xs []float64, n int) []float64 {\n\tout := make([]float64, 0, len(xs))\n\tvar sum float64\n"
    "\tfor i, x := range xs {\n\t\tsum += x\n\t\tif i >= n {\n\t\t\tsum -= xs[i-n]\n\t\t}\n"
    "\t\tout = append(out, sum/float64(min(i+1, n)))\n\t}\n\treturn out\n}",
    "function roundFare(amount, minorUnits) {\n  const f = 10 ** minorUnits;\n  return Math.round(amount * f) / f;\n}",
]
_CODE_LINES = [
    "seats.filter(s => !s.held).map(s => s.code)",
    "BRepBuilderAPI_MakeFace face(wire);",
    "moisture = adc.read_u16() * 3.3 / 65535",
    "pass_start = min(p.aos for p in passes)",
    "fares.sortedBy { it.total }.firstOrNull()",
]

#: Written in one sitting before the policy change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "cursor is on {fn} in {path}, take me to where it's declared",
        "{T} is re-exported through three __init__ files, which one has the real class",
        "step 3/7: locate the def of {fn} before patching it",
        "type {T} struct {{",
        "reviewing a PR that touches {fn} but I can't find its body, where is it defined",
        "new to the repo, in which file is the {T} class written?",
        "dump the full text of {qual}'s def",
        "the implementation behind {fn}, not the interface stub",
        "{T}: where's the class statement",
        "ctrl-click on {fn} does nothing in my editor, where's it defined",
        "what file and line is {qual} implemented at",
    ],
    "find_references": [
        "for the review notes, list each function that calls {qual}",
        "PR review: list the callers of {fn} so I can check them",
        "{fn} is hot in the profile during the incident, which code paths call into it",
        "does any code in another package reference {T}",
        '{{"tool": "code_search", "query": "callers of {fn}"}}',
        "every place that reads or writes {T}",
        "callers of {qual} that ignore its return value",
        "trace the call sites of {fn} up one level",
        "{fn} shows up in the stack trace, which of our modules call it",
        "references to {T} in handlers and background jobs",
        "is {qual} used by anything besides its unit tests",
        "wher is {fn} being used",
    ],
    "impact_analysis": [
        "I'm splitting {T} into two classes, what code has to change with it",
        "since yesterday's deploy {fn} returns {T} instead of a dict, what else could that have broken",
        "if {path} moves to a separate package, which imports and callers break",
        "this diff removes the default argument from {qual}; what depends on that default",
        "plan: change {fn} to raise {err}. first list the code that would need updating",
        "who gets hurt if {T} stops being hashable",
        "safe to change {fn} to return milliseconds instead of seconds? what would be affected",
        "making {T}'s fields private: what would stop compiling",
        "{fn} is being retired next quarter; map out everything that leans on it",
        "if {qual} starts rejecting empty input, what downstream code breaks",
        "chnaging the schema behind {T}, what depends on it",
    ],
    "exact_match": [
        'pager fired with "{Msg}" at 03:{n} UTC, where is that emitted',
        "literal string search: '{msg}'",
        "ops dashboard alert text is '{Msg}', which source file does it come from",
        "Dec 01 03:{n}:12 farmhub[812]: {msg}",
        "the exact text {msg}, which file has it",
        'find occurrences of the string constant "{Msg}"',
        "user screenshot shows: {Msg}. search the codebase for that text",
        "ERROR [{ecode}] {msg} (retry 3/3)",
        "match exactly: {msg}",
        "is '{msg}' hardcoded somewhere or built at runtime",
        "{err}: {Msg}\n\nfind where we raise this",
    ],
    "find_similar": [
        "{snippet}\n\nwe have this in three places I think, find the others",
        "two teams probably wrote their own {fn}; find the other one",
        "before I write this, does something like it already exist?\n{body}",
        "is there an existing helper that does what {fn} does? rather not add a third one",
        "refactoring candidates: other blocks that compute what {fn} computes",
        "reviewer gut feeling says this already exists somewhere:\n{snippet}",
        "structural search: `{code}` and variations of it",
        "classes analogous to {T} in other modules",
        "want to reuse rather than rewrite {fn}; what existing code is closest to it",
        "{body}\n\nsame algorithm anywhere else in the repo?",
        "near-duplicates of {path}",
        "simlar to {T} but for another domain, anything like that?",
    ],
    "understand_code": [
        "explain {topic} like I'm new here, starting from the entry point",
        "how does {fn} actually work, step by step",
        "why does {T} exist alongside the other models, what problem does it solve",
        "during the outage: what happens in the system when {event}",
        "how is {topic} structured across services",
        "before I edit {path}, what does this file do, in two sentences",
        "newcomer: what approach does this codebase take to {task}, and why",
        "why is {fn} written with a retry loop, what's the reasoning",
        "{topic}: how does the data flow end to end",
        "how does {topic} cope when {event}",
        "what does each branch inside {qual} handle",
        "hwo does {topic} work",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fifth", seed=31)

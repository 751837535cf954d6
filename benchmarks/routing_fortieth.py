"""A fortieth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The held-out sets up to ``routing_thirtyninth.py`` (``routing_heldout.py``, ``routing_blind.py``,
``routing_fresh.py``, ``routing_fifth.py`` ... ``routing_thirtyninth.py``) have been, or may yet be, read
while routing changes are weighed, so a change chosen on them is partly chosen on its own test; none of
their templates was looked at while this one was written (only ``routing_thirtyninth.py``'s layout, as a
format). These templates were written in one sitting by another hand, from the layout alone. Beside the
usual breadth (terse keyword queries and long wordy ones, typos, questions and imperatives, tool calls
written as JSON, chat with an agent, review and CI bot comments, a ``feat!:`` commit message, a Python
traceback, a Java stack trace and timestamped log lines and alert pages with a question after them,
declarations pasted as typed in Go, Rust, Kotlin, Java, Python, Swift and C#, and a Go method expression
``(*T).Method``), it holds on purpose both senses of "implement": which types implement or satisfy an
interface and which classes extend a base (Go structs satisfying an interface, Java implementors, C#
``I``-prefixed interfaces, TypeScript ``implements``, Rust ``impl Trait for``, Kotlin subclasses: all
usages, so ``find_references``), and other implementations of the same algorithm (similar code, so
``find_similar``). No classifier was asked any of them while they were written; a template that met a training
one or another set's (``test_intent_model``) was replaced, not reworded. The failure output of that test once
showed fragments of another set's templates and fillers (normalised, in an assertion message) while clashes
were being replaced; a first domain (piano tuning) met another set's filler and was swapped whole. Its slot
fillers come from five domains no other set uses (a dairy farm's milking parlor, bulk tank pickups and somatic
cell counts, a laundromat's washers, dryer cycles, wash-and-fold orders and laundry cards, a driving school's
lessons, road test slots and instructor cars with dual brakes, a volunteer weather observer network's rain
gauges, snow boards and anemometers, and a mattress store's delivery windows, trial returns and haul-away),
and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "record_milking_yield",
    "scheduleBulkTankPickup",
    "flag_high_somatic_count",
    "assignParlorStall",
    "compute_dry_off_date",
    "start_washer_cycle",
    "topUpLaundryCard",
    "weigh_wash_fold_order",
    "computeDryerMinutes",
    "book_driving_lesson",
    "computeLoggedPracticeHours",
    "reserve_road_test_slot",
    "logDualBrakeCheck",
    "submit_rain_gauge_reading",
    "computeSnowWaterRatio",
    "flag_anemometer_stall",
    "schedule_mattress_delivery",
    "openTrialReturn",
    "compute_haulaway_fee",
    "assignDeliveryWindow",
]
_TYPES = [
    "MilkingSession",
    "BulkTankPickup",
    "SomaticCellSample",
    "WasherUnit",
    "DryerCycle",
    "LaundryCard",
    "WashFoldOrder",
    "DrivingLesson",
    "InstructorCar",
    "RoadTestSlot",
    "RainGaugeReading",
    "ObserverStation",
    "SnowfallReport",
    "MattressDelivery",
    "TrialReturn",
]
_ERRORS = [
    "BulkTankTooWarmError",
    "SomaticCountExceededException",
    "WasherDoorUnlockedError",
    "LaundryCardDeclinedException",
    "DualBrakeNotCheckedError",
    "RoadTestSlotTakenException",
    "RainGaugeOverflowError",
    "ObserverReportLateException",
    "TrialWindowClosedError",
]
_MESSAGES = [
    "bulk tank temperature rose above four degrees before pickup",
    "milking session closed with a cow still attached to the cluster",
    "somatic cell sample labelled with the wrong ear tag",
    "washer door opened mid-cycle while the drum kept spinning",
    "laundry card balance went negative after a refund",
    "wash-and-fold order weighed after the bag was already tagged",
    "dryer ran a full cycle with the lint screen missing",
    "driving lesson booked with an instructor whose car is in the shop",
    "road test slot reserved before the learner logged the required practice hours",
    "lesson started without the dual brake check being signed",
    "rain gauge reading entered twice for the same morning",
    "snowfall report submitted without a snow board measurement",
    "anemometer reported calm air for six hours straight",
    "mattress delivery scheduled to an address outside the zone",
    "trial return opened after the hundredth night",
]
_ERROR_CODES = ["MILK-4402", "DRY-118", "E_TANK_WARM", "DRV-077", "WX-2210", "0xB0A7D1", "ELNDRYCRD", "MAT-9031"]
_PATHS = [
    "dairyhub/parlor/milking_session.go",
    "dairyhub/lab/SomaticSample.java",
    "dairyhub/pickup/bulk_tank.rs",
    "suds/machines/washer_control.py",
    "suds/cards/LaundryCard.swift",
    "suds/orders/washFold.ts",
    "learnerlane/lessons/lesson_booking.rb",
    "learnerlane/cars/InstructorCar.kt",
    "learnerlane/tests/road_test_slots.py",
    "wxnet/gauges/rain_reading.go",
    "wxnet/stations/ObserverStation.cs",
    "wxnet/snow/snowfallReport.js",
    "sleepwell/delivery/delivery_zones.rs",
    "sleepwell/returns/TrialReturn.java",
    "sleepwell/haulaway/haulawayFee.tsx",
]
_TOPICS = [
    "milk quality testing in the dairy lab",
    "bulk tank pickups by the milk hauler",
    "washer and dryer cycles at the laundromat",
    "laundry card top-ups and refunds",
    "lesson bookings at the driving school",
    "road test slots and learners' practice hours",
    "daily rain and snow reports from volunteer observers",
    "wind sensor health at remote observer stations",
    "mattress delivery routes and time windows",
    "hundred-night trial returns for mattresses",
]
_TASKS = [
    "convert a somatic cell count into the milk premium tier it earns",
    "work out how many dryer minutes a laundry card balance buys",
    "total a learner's logged practice hours, counting night driving double",
    "turn a melted snow core into a snow-to-liquid ratio",
    "price a wash-and-fold order from its weight and a rush surcharge",
    "decide whether a bulk tank can wait for the next milk pickup",
    "split a delivery day into two-hour windows by postal zone",
    "compute the restocking fee on a mattress returned during its trial",
]
_EVENTS = [
    "a milk hauler rejects a bulk tank for temperature",
    "a washer floods the laundromat floor overnight",
    "an instructor car's dual brake fails during a lesson",
    "a volunteer observer reports three inches of rain in ten minutes",
    "a customer returns a mattress on night ninety-nine",
]
_SNIPPETS = [
    "for _, s := range sessions {\n\tif s.YieldKg < s.Cow.AvgYieldKg*0.7 {\n\t\tlow = append(low, s.Cow.Tag)\n\t}\n}",
    "let overdue: Vec<_> = pickups\n    .iter()\n    .filter(|p| p.tank_temp_c > 4.0)\n"
    "    .map(|p| p.farm_id)\n    .collect();",
    "for washer in store.washers:\n    if washer.door_open and washer.drum_rpm > 0:\n        washer.emergency_stop()",
    "for (DrivingLesson l : learner.getLessons()) {\n    if (l.isNight()) {\n"
    "        nightHours += l.getMinutes() / 60.0;\n    }\n}",
    "let missing = readings.filter { $0.snowBoardInches == nil && $0.precipInches > 0 }",
    "deliveries.group_by(&:postal_zone).each { |zone, ds| windows[zone] = ds.each_slice(6).to_a }",
    "const negative = cards\n  .filter((c) => c.balanceCents < 0)\n"
    "  .map((c) => ({ id: c.id, owed: -c.balanceCents }));",
    "var stalled = stations\n    .Where(s => s.WindReadings.TakeLast(36).All(r => r.Knots == 0))\n"
    "    .Select(s => s.Id)\n    .ToList();",
    "SELECT farm_id, AVG(scc) AS avg_scc\nFROM samples\nGROUP BY farm_id\nHAVING AVG(scc) > 400000;",
]
_BODIES = [
    "def premium_tier(scc):\n    if scc < 150_000:\n        return 'gold'\n    if scc < 250_000:\n"
    "        return 'silver'\n    return 'none'",
    "func dryerMinutes(balanceCents, centsPerQuarterHour int) int {\n"
    "\treturn balanceCents / centsPerQuarterHour * 15\n}",
    "fn snow_ratio(snow_in: f32, water_in: f32) -> Option<f32> {\n    if water_in <= 0.0 {\n"
    "        return None;\n    }\n    Some(snow_in / water_in)\n}",
    "fun restockingFee(price: Double, nights: Int): Double =\n    if (nights < 30) 0.0 else price * 0.15",
    "public static double PracticeHours(IEnumerable<Lesson> lessons) {\n"
    "    return lessons.Sum(l => l.IsNight ? 2 * l.Hours : l.Hours);\n}",
    "func washFoldPrice(pounds: Double, rush: Bool) -> Decimal {\n"
    "    let base = Decimal(max(pounds, 10)) * 1.75\n    return rush ? base * 1.5 : base\n}",
    "function haulawayFee(items, stairs) {\n  const perItem = items > 1 ? 25 : 40;\n"
    "  return items * perItem + (stairs ? 20 : 0);\n}",
    "def can_wait?(tank, hours_to_pickup)\n  return false if tank.temp_c > 4.0\n"
    "  tank.fill_pct + tank.fill_rate * hours_to_pickup < 95\nend",
]
_CODE_LINES = [
    "sample.tier = 'gold' if sample.scc < GOLD_SCC_LIMIT else 'standard'",
    "if washer.doorState != .locked { cycle.abort(reason: .doorOpen) }",
    "card.balance_cents -= ceil(minutes / 15) * DRYER_QUARTER_RATE",
    "let ratio = snow_in / water_in.max(0.01);",
    "fee = items * HAULAWAY_PER_ITEM + (hasStairs ? STAIR_SURCHARGE : 0);",
    "pickup.DueAt = tank.LastPickup.Add(48 * time.Hour)",
    "learner.ready_for_test = learner.practice_hours >= REQUIRED_HOURS",
    "window = Math.floor((etaMinutes - 480) / 120);",
    "station.Stalled = readings.TakeLast(36).All(r => r.Knots == 0);",
    "val restock = if (nights >= 30) price * 0.15 else 0.0",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "where's the body of (*{T}).{Fn}? the method expression is passed around as a callback and I can't find "
        "the func itself",
        "#[derive(Debug, Clone, Serialize)]\npub struct {T} {{\n-- which file has this?",
        "data class {T}(\n    val id: Long,",
        "public record {T}(",
        "type {T} interface {{ -- where is the interface itself declared, not the structs that satisfy it",
        '{{"name": "lookup_symbol", "input": {{"query": "{fn}", "kind": "definition"}}}}',
        "agent: open the file that defines {fn} and stop there, no edits",
        "whre's {fn} defnied at",
        "{fn} -- definition location?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in <module>\n{err}: {msg}\n'
        "the path above is only a re-export. which module holds the real def of {fn}?",
        "pls go-to-def on {qual} for me, my LSP is dead",
        "I keep seeing {T} in type hints all over the {topic} code but have no idea which file declares the "
        "class. Where does it live?",
        "protocol {T} {{ ... in which Swift file is this protocol written",
        "show me the source of {fn} (only its definition, not the callers)",
        "defn {fn} file:line",
        "public sealed class {T} : IDisposable -- where is this in the solution",
    ],
    "find_references": [
        "which Go structs satisfy the {T} interface in this repo?",
        "Java: list all implementors of {T}, including anonymous classes",
        "who implements {T}? TypeScript, so I mean every class with `implements {T}`",
        "what implements {T} in the {topic} code",
        "classes extending {T}, every one of them please",
        "types that implement {T} -- it's a Rust trait, so all the `impl {T} for` blocks",
        "find subclasses of {T} across the whole repo, test doubles too",
        "C#: who implements I{T}? need the concrete classes",
        "kotlin -- which classes inherit from {T} and override {fn}?",
        "every caller of {fn}, with file and line",
        "who still imports {fn} from {path}?",
        "[ci-bot] `{fn}` is marked deprecated; list its remaining call sites before this PR merges",
        '{{"tool": "find_usages", "args": {{"symbol": "{qual}", "include_tests": true}}}}',
        "where do we call {qual} from -- the scheduler, the web handlers, or both?",
        "usages of {fn} plz",
        "list every place a {T} is constructed or passed as an argument",
        "at {T}.{fn}({T}.java:{n})\n\tat java.base/java.lang.Thread.run(Thread.java:840)\n"
        "this trace only shows one path in. who else calls {qual}?",
    ],
    "impact_analysis": [
        "if I change the signature of {fn} to take a context argument, what breaks?",
        "blast radius of deleting {T}",
        "what depends on {path}? thinking of splitting it in two",
        "we're making {qual} async -- which code paths are affected",
        "Suppose {T} gets a new required field. Which modules, tests and serialized payloads would need updating?",
        "risk check: dropping the default argument of {fn}",
        "if {fn} starts raising {err} instead of returning None, who's going to fall over?",
        "changing {fn}'s return type from a list to an iterator; downstream fallout?",
        "agent, before you touch {T}: tell me everything that would be affected if its fields were renamed",
        "what stops working if {path} is removed",
        "impact of bumping the {T} schema version on {topic}",
        "feat!: {fn} now returns minutes instead of seconds\n\nreviewer q: which callers silently get wrong "
        "numbers after this lands?",
        "is it safe to make {T} immutable? what relies on mutating it",
        "if we swap {fn} for a batched version, what else has to change",
        "what transitively relies on {qual}, all the way up to the http handlers",
        "hmm if i inline {fn} and delete it whats the fallout",
    ],
    "exact_match": [
        'search for the literal "{msg}"',
        'ctrl+shift+f "{Msg}" with match case on -- where is it',
        "where does the log line `{Msg}` get emitted -- match it verbatim",
        "regex {fn}\\(\\s*\\) -- calls with no arguments",
        "search the codebase for {ecode} as an exact token, no fuzzy matching",
        "2024-03-{n}T06:12:03Z ERROR {err}: {msg}\nfind this exact text in the code, which file prints it",
        '{{"tool": "text_search", "args": {{"pattern": "{Msg}", "literal": true}}}}',
        "ag --literal '{code}' src/",
        "find occurrences of the string '{ecode}' in config and code",
        "Slack from support: customers see '{Msg}'. search for that string as-is and tell me where it's raised",
        "PAGE [{ecode}] {msg} -- which source line has that exact message text?",
        "does `{code}` appear character for character anywhere in the repo?",
        'regex search /raise {err}\\(f?"/ in the {topic} package',
        'search text "{err}(" exactly, case sensitive',
        "which files contain the token {ecode}",
        "find the message '{msg}' word for word",
    ],
    "understand_code": [
        "walk me through what {fn} does step by step, I'm new to {topic}",
        "explain {qual} like I'm reviewing it for the first time",
        "why does {fn} sleep before retrying? what is it waiting on",
        "why is {T} split into two classes? what does each half do",
        "how do we {task}? what's the logic behind it",
        "new hire here -- can you give me the big picture of {topic} in the code before I start reading it",
        "{body}\n\ncan someone explain what the check at the top is for?",
        "what happens when {event}? trace the flow for me",
        "agent: summarize how {path} is structured and what each function in it is responsible for",
        "what is the purpose of {T}?",
        "in plain words, what does `{code}` compute",
        "how are {topic} handled end to end",
        "why would {fn} raise {err} when the {msg}? explain the reasoning in the code",
        "describe the algorithm behind {fn} -- complexity, assumptions, anything surprising",
        "help me understand how {T} and {fn} relate to each other",
        "hey quick q, whats {fn} actually for",
    ],
    "find_similar": [
        "other implementations of the same algorithm as {fn}, maybe in another language",
        "is there another implementation that does this: {task}? want to dedupe",
        "{snippet}\n\nfind code that looks like this",
        "does {path} have a twin? feels like the same module was forked into another service with the "
        "functions renamed",
        "near-clones of this:\n{body}",
        "we have at least two implementations of the logic in {fn}, find the others",
        "code similar to `{code}` -- same shape, different variable names",
        "anything structurally like {qual} in the other modules?",
        "{body}\n--\nsomeone surely wrote this already. find functions that do the same thing",
        '{{"tool": "similar_code", "args": {{"function": "{fn}", "top_k": 10}}}}',
        "look for alternative implementations of {fn} (same inputs, same result), e.g. a vectorized one",
        "copy-paste detection: where else was {fn}'s body duplicated with small edits",
        "find snippets resembling\n{snippet}",
        "which functions behave like {fn} even if they're named differently",
        "similar impls to {Fn} plz",
        "I'm about to write code to {task}. does something equivalent already exist? show lookalikes",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fortieth", seed=4040)

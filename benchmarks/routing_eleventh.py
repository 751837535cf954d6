"""An eleventh held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The nine earlier held-out sets (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``, ``routing_eighth.py``,
``routing_ninth.py``, ``routing_tenth.py``) have all been read while routing changes were weighed, so a
change chosen on them is partly chosen on its own test. These templates were written in one sitting by
another hand, from the shapes real requests take in places the earlier sets did not lean on: the query
syntax of OpenGrok (``defs:``, ``refs:``) and of grep, git grep and ripgrep tutorials (fixed strings,
whole words, a regex over one file type), the manuals of JetBrains Safe Delete and Find Dependent Code
and of Visual Studio Find All References, the way people put questions to Copilot Chat, Cursor's
``@codebase`` and Sourcegraph Cody ("where is authentication handled", "plan a refactor: what files are
involved"), code review threads and pull request descriptions that ask whether a rename or a removed
member is a breaking change or whether a helper for this already exists, the docs of copy-paste
detectors (PMD CPD, jscpd, Simian: clones, near-duplicates, copies that were pasted and then tweaked),
issue threads that paste a .NET stack trace, a Swift fatal error or a Rust panic, JSON and logfmt log
lines, and onboarding and architecture-decision-record guides (the big picture, the why behind a
design, the path one request takes), some of them written by people who are not native English
speakers. Short requests were taken to outnumber long wordy ones, as they do where people type into a
search box or an agent calls a tool. The shapes were turned into templates; no sentence was copied.
Questions and imperatives, terse keyword queries and long wordy ones, typos, non-native English, prose
mixed with code, definition syntax of several languages (C# async methods, Swift structs, Scala
``def`` with type classes, PHP functions, Go receivers, Rust ``impl``), pasted stack traces and log
lines, pasted code with and without words, markdown code spans. No classifier was asked any of them
while they were written; a template that met a training one or another set's (``test_intent_model``)
was replaced, not reworded. Its slot fillers come from domains no other set uses (a theatre's box
office and seat maps, a vineyard's harvest and fermentation tracking, a city bike-share's docks and
rebalancing trucks, a seismograph network's event detection), and none is a training filler
(``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "hold_seat_block",
    "releaseExpiredHolds",
    "price_section_tier",
    "printNightlySettlement",
    "log_brix_reading",
    "scheduleRackingTask",
    "record_grape_intake",
    "computeBarrelTopUp",
    "undock_bike",
    "planRebalancingRoute",
    "mark_dock_faulty",
    "computeRideOverage",
    "pick_p_wave_arrival",
    "triggerStaLtaDetector",
    "locate_hypocenter",
    "estimateLocalMagnitude",
]
_TYPES = [
    "SeatingChart",
    "SeatHold",
    "PerformanceRun",
    "BoxOfficeOrder",
    "HarvestLot",
    "FermentationTank",
    "BarrelRack",
    "BrixReading",
    "DockStation",
    "RebalancingTruck",
    "BikeRental",
    "SeismicStation",
    "PhasePick",
    "HypocenterSolution",
]
_ERRORS = [
    "BarrierPostPhaseException",
    "WrongMethodTypeException",
    "IllformedLocaleException",
    "BrokenBarrierError",
    "LimitOverrunError",
    "DuplicateWaitObjectException",
]
_MESSAGES = [
    "seat already held by another session",
    "hold expired before the card payment was captured",
    "no price tier configured for this section and performance",
    "brix reading outside the expected ripening curve",
    "tank temperature above the fermentation ceiling",
    "intake weight does not match the weighbridge ticket",
    "dock reports empty but a bike is still latched",
    "rebalancing truck is over capacity for this route",
    "station clock drift exceeds tolerance",
    "trigger ratio crossed the threshold without a matching pick",
    "too few phase picks to locate the event",
]
_ERROR_CODES = ["ESTRPIPE", "EOWNERDEAD", "EREMCHG", "E0373", "40P01", "0x8007000E"]
_PATHS = [
    "boxoffice/seating/SeatHoldService.cs",
    "boxoffice/web/seat_map.php",
    "boxoffice/ios/SeatPickerView.swift",
    "winery/cellar/fermentation_log.py",
    "winery/harvest/IntakeScale.java",
    "bikeshare/docks/dock_state.go",
    "bikeshare/rebalance/RoutePlanner.kt",
    "bikeshare/api/rideFare.ts",
    "seismo/detect/sta_lta.rs",
    "seismo/locate/HypocenterSolver.scala",
]
_TOPICS = [
    "seat holds during checkout",
    "pricing tiers for theatre sections",
    "the nightly box office settlement",
    "tracking brix and temperature through fermentation",
    "grape intake at the weighbridge",
    "barrel topping and racking schedules",
    "dock availability shown in the rider app",
    "route planning for the rebalancing trucks",
    "overage fees on long rides",
    "STA/LTA triggering on seismograph channels",
    "locating an earthquake from its phase picks",
]
_TASKS = [
    "convert specific gravity to degrees brix",
    "find the nearest dock that still has free slots",
    "compute the great-circle distance between two stations",
    "merge adjacent free seats into one block for a group booking",
    "detect a spike in a sampled signal with a short over long average ratio",
    "format a seat label from its row letter and number",
]
_EVENTS = [
    "a patron's seat hold times out while the card payment is still pending",
    "a rebalancing truck arrives at a dock that is already full",
    "a dozen stations trigger within the same second on a large earthquake",
    "a tank's temperature probe stops reporting overnight",
    "a rider returns a bike to a dock that has gone offline",
]
_SNIPPETS = [
    "for _, d := range station.Docks {\n\tif d.Latched && !d.Occupied {\n\t\tfaults = append(faults, d.ID)\n\t}\n}",
    "if (hold.ExpiresAt < DateTime.UtcNow)\n{\n    _holds.Release(hold.SeatIds);\n    continue;\n}",
    "guard let seat = seatMap.seat(row: row, number: number) else { return }\n"
    "seat.state = .held(until: now.addingTimeInterval(holdWindow))",
    "ratio = sta / max(lta, 1e-9)\nif ratio > on_threshold and not triggered:\n"
    "    triggered = True\n    picks.append(Pick(channel, t))",
    "val topUp = barrels.map(b => b.capacityL - b.volumeL).filter(_ > 0).sum",
]
_BODIES = [
    "function seatLabel(string $row, int $num): string {\n    return sprintf('%s-%02d', $row, $num);\n}",
    "fn brix_to_potential_abv(brix: f64) -> f64 {\n    brix * 0.59\n}",
    "fun rideMinutes(start: Instant, end: Instant): Long =\n"
    "    Duration.between(start, end).toMinutes().coerceAtLeast(1)",
    "def sg_to_brix(sg):\n    return ((182.4601 * sg - 775.6821) * sg + 1262.7794) * sg - 669.5622",
]
_CODE_LINES = [
    "const overage = Math.ceil(extraMinutes / 30) * plan.overageFee;",
    "dock.State = DockFaulty",
    "await _seatHolds.ReleaseAsync(order.HoldId, ct);",
    "let ml = amp_mm.log10() + 3.0 * (8.0 * dt_s).log10() - 2.92;",
    "tank.readings.append(BrixReading(ts=now, brix=value, temp_c=probe.temp))",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "defs:{fn}",
        "public async Task<{T}> {Fn}(",
        "the Go method {Fn} with a *{T} receiver, where is it declared",
        "struct {T}: Codable {{",
        "function {fn}(array $",
        "impl From<{T}> for",
        "def {fn}[F[_]: Sync](",
        "definition of {qual} pls",
        "which file has the {T} type in it",
        "go to implementation of {qual}, the concrete one not the interface",
        "open the body of `{fn}`",
        "in what package does {T} live?",
        "where's {T} declared? jump to def doesnt work in the monorepo",
        "please where is define the {fn} method, I search and not find it",
        "show me the source for {qual}: the declaration itself, not a call to it",
        "need to read how {fn} is written, where is it",
    ],
    "find_references": [
        "refs:{fn}",
        "Find All References: {qual}",
        "every caller of {qual} in {path}",
        "which controllers still call {fn}",
        "list the callers of {fn}, direct ones only",
        "constructor calls of {T} outside the tests",
        "where is the status field of {T} read",
        "usages of {fn} across every repo, not just this one",
        "is {fn} dead code or does something still call it",
        "`{fn}` - find callers",
        "where does {fn} get passed in as a callback",
        "{T} is used by which classes? real usages only, skip comments",
        "sites that invoke {fn} from a background job",
        "all the places where a {T} gets created, please",
        "I need know who is calling the {fn}, all places",
        "hey, is {qual} referenced from the {path} side at all or only internally",
    ],
    "impact_analysis": [
        "safe delete {T}?",
        "what breaks if I drop {fn}",
        "dependent code of {path}: what would need updating if it changes",
        "blast radius of making {fn} async",
        "if {fn} starts returning null instead of a {T}, who crashes",
        "is changing the return type of {qual} a breaking change for other teams?",
        "we want to split {path} into two files, what's the fallout",
        "risk assessment: lowering the timeout inside {fn}",
        "which downstream consumers are affected if {T} loses its id field",
        "how much of the system leans on {qual}? thinking of rewriting it",
        "would making {T} sealed break a subclass somewhere",
        "what else do I have to touch when I change {topic}",
        "if we throw {err} from {fn} now, which handlers upstream are not ready for it",
        "PR renames {qual} - fallout across repos?",
        "change impact: {path}",
        "if i modify the {fn}, what other part will be broken?",
    ],
    "exact_match": [
        "Unhandled exception. {err}: {Msg}\n   at {qual}() in {path}:line {n}",
        "Fatal error: {Msg}: file {path}, line {n}",
        'called `Result::unwrap()` on an `Err` value: {err}("{msg}")',
        '{{"level":"error","msg":"{msg}","caller":"{path}:{n}"}}',
        'ts=2024-05-02T11:{n}:03Z level=warn msg="{msg}" code={ecode}',
        'opengrok full search "{msg}"',
        "pattern: '{msg}' (fixed string, not regex)",
        "exact text `{Msg}` shows up where",
        "search with regex `^\\s*{fn}\\(` in *.go files only",
        "where is the constant {ecode} spelled out literally",
        "find this line character for character: {code}",
        "fail: {qual}[{n}]\n      {Msg}",
        "which file contains the text '{msg}' word for word",
        "grep -rn '{Msg}' --include=*.kt",
        'search exact phrase "{msg}", no fuzzy matching please',
        "i have this message in log, '{msg}', where it is written in code exactly?",
    ],
    "find_similar": [
        "{snippet}\n\nfind near-duplicates of this",
        "copy-paste detection for {fn}: where else was it pasted",
        "clones of this, jscpd style\n{body}",
        "is there already a helper to {task}? don't want to write another one",
        "functions that look like {qual}",
        "similar implementations to:\n{body}",
        "{body}\n\npretty sure someone did this before in another module, find it",
        "code that does roughly the same as `{code}`",
        "other places we {task}",
        "equivalent of {fn} for {T}? maybe another team wrote one",
        "find variants of {fn} that were copy-pasted and then tweaked",
        "do we have something similar to this in the kotlin code?\n{snippet}",
        "show code with the same structure as this, names may differ:\n{snippet}",
        "{code}\n^ find me the twins of this line elsewhere",
        "duplicated logic to {task} across services - list them",
        "before I add {fn}, is there an existing function that already does the same job?",
    ],
    "understand_code": [
        "explain {topic} end to end",
        "if {event}, how does the system recover",
        "{topic} - why so complicated?",
        "why do we keep {T} in memory instead of reading it from the db each time",
        "what problem does {path} solve",
        "how does data flow through {topic}",
        "can someone explain the architecture of {topic}? new here",
        "what would I need to know about {topic} to debug it at 2am",
        "how are retries handled in {topic}",
        "what ordering guarantees are there in {topic}",
        "is there an ADR or some reasoning written down for how {topic} was designed?",
        "high-level summary of {path} please",
        "help me get a picture of {topic} before I start on my first ticket",
        "what does this code do?\n{body}",
        "what states does a {T} move through, and what triggers each one",
        "please explain me the flow of {topic}, I am not understanding the order of steps",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "eleventh", seed=53)

"""A seventeenth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The held-out sets up to ``routing_sixteenth.py`` (``routing_heldout.py``, ``routing_blind.py``,
``routing_fresh.py``, ``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``,
``routing_eighth.py``, ``routing_ninth.py`` to ``routing_sixteenth.py``) have been, or may yet be, read
while routing changes are weighed, so a change chosen on them is partly chosen on its own test; none of
their templates was looked at while this one was written (only ``routing_fifteenth.py``'s layout, as a
format), and neither were the training templates. These templates were written in one sitting by another
hand, from the shapes real requests take in places the earlier sets leaned on least: an agent's tool calls
(JSON arguments, function-call syntax, a YAML block), the command lines people type to find code
(``findstr /s /c:``, a Sourcegraph literal query, ``readtags``, GNU Global's ``global -rx``, an
``ast-grep`` call pattern, an LSP ``textDocument/definition`` that came back empty, vim's ``gd``, Emacs's
``M-?``), chat messages to a teammate, pull-request review comments, ticket titles, on-call pages, upgrade
notes being drafted; declarations as they are typed in Go (a generic function), Rust (``pub(crate) fn``),
Scala (a ``sealed trait``), Haskell (a ``newtype`` with its field), OCaml (a ``module ... : sig``),
Protobuf (a ``message``) and Terraform (a ``resource`` block); output pasted from runtimes and tools (a
JVM ``Caused by:``, a .NET ``AggregateException``, a Node stack, a pytest failure, a Go panic, a Rust
panic, an Erlang shell exception, a Laravel log entry, a Rails ``Completed 500`` log, a JSON log line);
pasted Go, Rust, Python, Ruby, Scala, Java, Haskell, OCaml, Swift, PHP, SQL, Bash, Terraform and Protobuf,
with and without words. Short requests were taken to far outnumber long wordy ones, as they do where
people type into a search box or an agent calls a tool. The shapes were turned into templates; no
sentence was copied. Questions and imperatives, terse keyword queries of one to four words and a few long
ones, typos, non-native English, explicit asks and implicit ones (a change planned for next sprint, a page
about a degraded service). No classifier was asked any of them while they were written; a template that
met a training one or another set's (``test_intent_model``) was replaced, not reworded. Its slot fillers
come from domains no other set uses (a cheese cave's wheel turning, rind washing and affinage lots, a
hot-air balloon operator's flight manifests, burner inspections and wind cancellations, a funicular
railway's haul cable splices, car door cycles and passing-loop timetable, a canal's lock passages,
narrowboat hires and mooring permits), and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "turn_wheels_on_shelf",
    "scheduleRindWash",
    "record_cave_humidity",
    "gradeAffinageLot",
    "assign_burner_check",
    "computeEnvelopeLift",
    "cancel_flight_for_wind",
    "bookBasketSeats",
    "log_cable_splice_check",
    "countCarDoorCycles",
    "mark_counterweight_inspected",
    "planFunicularTimetable",
    "book_lock_passage",
    "computeMooringFee",
    "assign_narrowboat_to_hirer",
    "reportTowpathClosure",
]
_TYPES = [
    "CheeseWheel",
    "AffinageLot",
    "CaveShelf",
    "RindWashLog",
    "BalloonEnvelope",
    "BurnerInspection",
    "FlightManifest",
    "LaunchSite",
    "HaulCableSplice",
    "FunicularCar",
    "PassingLoopSlot",
    "LockPassage",
    "NarrowboatHire",
    "MooringPermit",
]
_ERRORS = [
    "WheelNotTurnedError",
    "BurnerPressureException",
    "ManifestOverweightError",
    "CableTensionOutOfBand",
    "LockFlightConflictException",
    "RindMoistureOutOfRange",
]
_MESSAGES = [
    "wheel has not been turned for nine days",
    "rind wash brine is below the required salinity",
    "cave humidity reading missing for the lower racks",
    "burner inspection expired before the launch slot",
    "passenger weights exceed the basket load chart",
    "surface wind above the launch limit for this envelope",
    "cable splice check logged without a strand count",
    "car door cycled more times than the service interval allows",
    "both cars scheduled into the passing loop in the same minute",
    "lock passage booked against the flow of the flight",
    "narrowboat handed over without a completed safety briefing",
    "mooring permit overlaps a winter stoppage",
]
_ERROR_CODES = ["AFF-0917", "BLN-3302", "FNC_E21", "LK-77A", "E_BURNER_PSI", "NBH-4410"]
_PATHS = [
    "cheesecave/turning/wheel_turner.go",
    "cheesecave/rind/rind_wash.rs",
    "cheesecave/grading/AffinageGrader.scala",
    "balloons/manifest/flight_manifest.py",
    "balloons/burners/BurnerCheck.java",
    "balloons/weather/wind_window.ml",
    "funicular/cable/splice_checks.rb",
    "funicular/timetable/TimetablePlanner.swift",
    "funicular/doors/door_cycles.hs",
    "canal/locks/lock_passage.php",
    "canal/infra/moorings.tf",
    "canal/sql/mooring_fees.sql",
]
_TOPICS = [
    "turning schedules for wheels ageing in the cave",
    "rind washing and brine strength records",
    "grading affinage lots before they leave the cave",
    "passenger manifests for balloon flights",
    "burner and envelope inspections before launch",
    "cancelling balloon flights when the wind picks up",
    "haul cable splice inspections on the funicular",
    "door cycle counts on the funicular cars",
    "the funicular's timetable and passing loop slots",
    "booking passages through the canal lock flights",
    "narrowboat handovers and hire agreements",
]
_TASKS = [
    "convert a cable's measured stretch into a remaining-life estimate",
    "work out how many days a wheel has aged from its make date",
    "turn a balloon's envelope volume into lift at a given air temperature",
    "round a mooring fee up to the next whole week",
    "estimate how long a boat takes to pass a flight of locks",
    "turn a brine reading in grams per litre into a salinity percentage",
]
_EVENTS = [
    "a wheel is moved to another shelf between turnings",
    "a balloon flight is cancelled after passengers have checked in",
    "a funicular car stops halfway because the cable tension alarm trips",
    "a narrowboat comes back a day late and the next hirer is waiting",
    "a lock closes for repairs with passages already booked",
]
_SNIPPETS = [
    "for _, w := range shelf.Wheels {\n\tif time.Since(w.LastTurned) > 48*time.Hour {\n\t\tw.Turn()\n\t}\n}",
    "let overweight: Vec<_> = manifest\n    .passengers\n    .iter()\n"
    "    .filter(|p| p.weight_kg > chart.max_per_seat)\n    .collect();",
    "for car in line.cars:\n    if car.door_cycles > limits.door_service:\n        schedule_door_service(car, days=7)",
    "passages.each do |p|\n  next if p.confirmed?\n  p.update!(status: :waitlisted)\nend",
    "lots.groupBy(_.cave)\n  .view.mapValues(_.map(_.ageDays).max)\n  .toMap",
    "for (Hire h : hires) {\n    if (h.returnedAt() == null && h.dueBack().isBefore(today)) {\n"
    "        overdue.add(h.boat());\n    }\n}",
]
_BODIES = [
    "remainingLife :: Double -> Double -> Double\nremainingLife stretchMm limitMm =\n  max 0 (1 - stretchMm / limitMm)",
    "let lift_kg volume temp =\n  let density = 1.2 -. (0.004 *. temp) in\n  volume *. density",
    "func agedDays(from made: Date, to now: Date) -> Int {\n"
    "    Calendar.current.dateComponents([.day], from: made, to: now).day ?? 0\n}",
    "function mooringWeeks(int $nights): int {\n    return intdiv($nights + 6, 7);\n}",
    "CREATE FUNCTION wind_ok(gust_kts int, envelope_limit int) RETURNS boolean AS $$\n"
    "  SELECT gust_kts <= envelope_limit - 2;\n$$ LANGUAGE sql;",
]
_CODE_LINES = [
    "UPDATE cheese_wheel SET last_turned = now() WHERE shelf_id = $1;",
    'curl -s "$WEATHER_URL" | jq .wind_kts > /tmp/launch_wind',
    "max_passengers = var.basket_size * 2",
    "int locksPerHour = flight.size() > 8 ? 3 : 4;",
    "repeated HaulCableSplice splices = 4;",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "func {Fn}[K comparable, V any](",
        "pub(crate) fn {fn}(&self",
        "sealed trait {T} extends Product with Serializable",
        "newtype {T} = {T} {{ un{T} ::",
        "module {T} : sig",
        "message {T} {{",
        'which .tf file declares resource "aws_sqs_queue" "{fn}"',
        "readtags -e -t tags {fn}",
        '{{"tool": "goto_definition", "symbol": "{qual}"}}',
        "textDocument/definition on {fn} comes back empty from gopls, so where is it actually declared",
        "`gd` on {T} lands on an import line, not on the struct; where is the struct itself defined",
        "hey quick q, where does {T} live? cant find the file",
        "OPS-{n}: find where {fn} is implemented before the audit",
        "{T} struct def",
        "where is {fn} be implemented? i search whole repo but see only the calls of it",
        "porting {topic} from the Ruby app to Go: where is the Ruby method {fn} defined? I need its body, "
        "not its callers",
    ],
    "find_references": [
        "ast-grep run -p '{fn}($$$ARGS)' -l ruby",
        "global -rx {fn}",
        '{{"name": "find_references", "arguments": {{"symbol": "{fn}", "include_tests": true}}}}',
        "M-? on {fn} (xref-find-references) returns nothing in the Scala files; find the references",
        'find_callers(symbol="{qual}", depth=1)',
        "action: list_usages\ntarget: {T}\nscope: {path}",
        "PR comment: does anything outside {path} use {T}? if nothing does it can move into that package",
        "anyone know what calls {fn}? seeing it in the traces but no idea who triggers it",
        "{fn} fan-in",
        "{T} importers",
        "every `use` of {T} in the Rust crates",
        "which classes extend {T} or mix it in",
        "OPS-{n} Audit all call sites of {fn} (need file:line list)",
        "please give me all the places where {fn} is calling from, also from tests",
        "where is {T} instantiated? looking for every `{T}(` construction site in the Swift app",
        "I'm tidying up the PHP side and want a list of every script, controller and cron job that calls {fn}, "
        "grouped by directory",
    ],
    "impact_analysis": [
        "{T} schema change: blast radius?",
        "next sprint we move {fn} behind a feature flag; which services should expect different behaviour",
        "UPGRADE.md draft: {T} loses its legacy_id column in v3 -- what reads it and would fail",
        "renumbering field {n} in message {T}: which consumers would deserialize it wrong",
        "if we rename the {fn} module in terraform, what gets destroyed and recreated",
        "ALTER TABLE {T} ALTER COLUMN updated_at TYPE timestamptz; -- what breaks downstream?",
        "OPS-{n}: assess impact of removing {fn} before the Q3 cleanup",
        "this PR changes the default timeout of {fn} from 30s to 5s -- who gets affected?",
        "if I bump {T} to v2 today am I gonna break anyone",
        "{fn} change impact",
        "what breaks if {path} goes away",
        "making {T} !Send -- which async tasks stop compiling",
        "if {fn} returns an Either instead of throwing, which callers have to change",
        "page: {fn} degraded, p99 {n}s -- which other services go down with it",
        "if we delete the {T} class, which parts will stop to work? need to know before do it",
        "We are splitting the {topic} code out into its own service next quarter; before anyone starts I want to "
        "know which modules call into it synchronously and would need a network client instead, and which "
        "tests would start failing once {path} moves",
    ],
    "exact_match": [
        'findstr /s /c:"{msg}" *.*',
        'sourcegraph: "{msg}" patternType:literal',
        "Caused by: {err}: {Msg}\n\t... {n} more",
        "System.AggregateException: One or more errors occurred. ({Msg})\n ---> {err}: {Msg}",
        "Error: {Msg}\n    at {fn} ({path}:{n}:17)\n"
        "    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)",
        "E       {err}: {msg}\n\n{path}:{n}: {err}",
        "panic: {msg}\n\ngoroutine {n} [running]:\nmain.{fn}(...)",
        "thread 'main' panicked at '{msg}', {path}:{n}:9",
        '** exception error: no match of right hand side value {{error,"{msg}"}}\n     in function  {fn}/1',
        'regex: log\\.(warn|error)\\("{msg}',
        "anyone seen '{msg}' before? where in the code is that string",
        '{{"tool": "grep", "pattern": "{msg}", "fixed_strings": true}}',
        "in log i am seeing {err} with text {msg}, where is this text in code, exact same",
        '{{"level":"error","msg":"{msg}","caller":"{fn}"}}',
        '[2024-06-{n} 03:14:07] production.ERROR: {Msg} {{"exception":"[object] ({err}(code: 0)',
        "Completed 500 Internal Server Error in {n}ms\n\n{err} ({msg}):",
    ],
    "find_similar": [
        "{snippet}\n\nsame thing anywhere else?",
        "{fn} was forked into two services last year, find both copies",
        "similar to this:\n{body}",
        "ast-grep style: other places shaped like this, variable names may differ\n{code}",
        "PR review: before adding this, check whether we already have something equivalent:\n{body}",
        "need to {task}; surely someone already wrote that here, find similar helpers",
        "{path} clone detection",
        "{T} copy-paste clones",
        "OPS-{n} Consolidate duplicated {topic} logic, find all copies",
        '{{"tool": "similar_code", "query": "{code}", "top_k": 10}}',
        "this code i think is copy from other place, can you show where is the similar one?\n{snippet}",
        "pretty sure {fn} exists in like 3 versions across the repos lol, can you find the others",
        "{body}\n^^ near-identical versions elsewhere?",
        "The {topic} module was copied into the mobile backend and the admin tool two years ago and both copies "
        "were patched separately; find every function that still looks like {fn} so we can decide which to keep",
        "functions similar to {qual} but in the Scala services",
        "semgrep finds nothing for this, are there loops like it with other names?\n{snippet}",
    ],
    "understand_code": [
        "{topic}, big picture?",
        "can someone explain how {topic} hangs together? the onboarding doc is outdated",
        "PR comment: I don't follow what {fn} does with the retry counter here, can you explain the flow?",
        "OPS-{n} Spike: document how {topic} works end to end",
        "{body}\n\nwhat does this do, step by step?",
        "why `{code}`?",
        "{T} explained",
        "{path} overview",
        "i not understand the flow of {fn}, what decide when it run and what it give back?",
        "{event} -- which code paths kick in and in what order?",
        "architecture of {topic}: components, data flow, where the state lives",
        "what is the monad stack in {fn} doing, in simple terms",
        'explain_code(path="{path}", detail="high")',
        "why does {T} need an Arc<Mutex<..>> here, what is it protecting",
        "on call tonight for {topic} -- what does {fn} do if the database is down, retry or drop?",
        "I've inherited {path} from a contractor; could you go through what each part does, how it connects to "
        "{topic}, and what it assumes about the data",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "seventeenth", seed=89)

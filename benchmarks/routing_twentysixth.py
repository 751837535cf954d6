"""A twenty-sixth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The held-out sets up to ``routing_twentyfifth.py`` (``routing_heldout.py``, ``routing_blind.py``,
``routing_fresh.py``, ``routing_fifth.py`` to ``routing_eighth.py``, ``routing_ninth.py`` to
``routing_twentyfifth.py``) have been, or may yet be, read while routing changes are weighed, so a change
chosen on them is partly chosen on its own test; none of their templates was looked at while this one was
written (only ``routing_fifteenth.py``'s layout, as a format). These templates were written in one sitting by
another hand, from shapes real requests take that lean on languages and tools the earlier sets may have used
little: declarations as typed in Rust (a ``pub(crate) async fn`` with a lifetime), Go (a method on a pointer
receiver, asked about), Scala (an ``object`` extending ``Enumeration``), Haskell (a ``newtype`` with a field),
Clojure (``defn`` with map destructuring), Python, F# (``let inline``), T-SQL (``CREATE PROCEDURE``) and
GraphQL federation (``extend type ... @key``); output pasted from a Celery worker log, Rust and Go panics,
Gradle test failures, JSON log lines, PostgreSQL errors, pytest failures, journald and Ruby's RSpec; agent
tool calls as JSON, LSP requests, Python-style function calls and YAML task specs; unified diffs, vim command
lines, review comments, tickets, and messages from non-native speakers. Short requests were taken to outnumber
long wordy ones. The shapes were turned into templates; no sentence was copied. No classifier was asked any of
them while they were written; a template that met a training one or another set's (``test_intent_model``) was
replaced, not reworded. Its slot fillers come from five domains no other set uses (a scuba diving school's
dive logs, cylinder fills and certification cards, an elevator maintenance contractor's lift inspections, load
tests and callouts, a recording studio's session bookings, vocal takes and mix stems, a taxidermy studio's
specimen intake, mannequin forms and glass-eye orders, and a chess tournament organiser's Swiss pairings,
rating updates and arbiter appeals), and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "log_dive_profile",
    "scheduleCylinderHydroTest",
    "issue_cert_card",
    "computeSurfaceInterval",
    "refill_nitrox_tank",
    "book_lift_inspection",
    "dispatchElevatorCallout",
    "record_load_test_result",
    "computeCabinLevelingOffset",
    "reserve_tracking_room",
    "exportMixStems",
    "label_vocal_take",
    "computeStudioHourBill",
    "order_mannequin_form",
    "setGlassEyeDiameter",
    "log_specimen_intake",
    "pair_swiss_round",
    "applyRatingDelta",
    "file_arbiter_appeal",
    "computeBuchholzTiebreak",
]
_TYPES = [
    "DiveLogEntry",
    "AirCylinder",
    "CertificationCard",
    "SurfaceIntervalRule",
    "LiftInspection",
    "ElevatorCar",
    "CalloutTicket",
    "LoadTestReport",
    "TrackingRoomSlot",
    "VocalTake",
    "MixStemBundle",
    "SpecimenMount",
    "MannequinForm",
    "GlassEyeOrder",
    "SwissRound",
    "PlayerRatingCard",
    "ArbiterAppeal",
    "BoardPairing",
]
_ERRORS = [
    "HydroTestExpiredError",
    "DecoLimitExceeded",
    "LiftCertLapsedException",
    "CalloutUnassignableError",
    "TakeOverwriteError",
    "FormSizeMismatch",
    "RepeatPairingError",
    "AppealDeadlinePassed",
]
_MESSAGES = [
    "cylinder hydro test expired before the fill was logged",
    "surface interval is shorter than the dive table allows",
    "certification card issued without a completed open water dive",
    "nitrox mix exceeds the diver's certified oxygen limit",
    "inspection certificate lapsed for this elevator car",
    "load test exceeded rated capacity by more than ten percent",
    "callout assigned to a technician who is off shift",
    "vocal take overwritten while the session was still recording",
    "mix stems were exported at different sample rates",
    "tracking room double-booked for the same hour",
    "mannequin form size does not match the specimen measurements",
    "glass eye order has no iris colour",
    "players were paired against each other in an earlier round",
    "rating delta applied to a round that was already rated",
    "arbiter appeal filed after the round deadline",
]
_ERROR_CODES = [
    "ENOFILL",
    "ELIFTCERT",
    "RS-2231",
    "TXD-0457",
    "PGN-912",
    "0x7F0D1E",
    "E_BYE_TWICE",
    "LC-88-OVR",
    "STEM_SR_MISMATCH",
    "ARB-LATE-3",
]
_PATHS = [
    "divecenter/logs/dive_log.rs",
    "divecenter/fills/tank_fill.go",
    "divecenter/certs/cert_card.py",
    "liftco/inspections/LoadTest.scala",
    "liftco/callouts/callout_queue.rb",
    "liftco/cars/leveling.hs",
    "soundroom/sessions/booking.php",
    "soundroom/mixing/StemExport.swift",
    "soundroom/takes/take_labels.py",
    "mountworks/intake/specimen_intake.rb",
    "mountworks/forms/FormCatalog.java",
    "mountworks/eyes/eye_orders.go",
    "chessorg/pairings/swiss.hs",
    "chessorg/ratings/rating_update.clj",
    "chessorg/appeals/appeals.pl",
]
_TOPICS = [
    "logging dives and computing surface intervals",
    "cylinder fills and hydrostatic test tracking",
    "issuing certification cards to new divers",
    "scheduling lift inspections for the buildings we service",
    "dispatching elevator callouts to technicians",
    "booking the tracking rooms in the studio",
    "labelling vocal takes and exporting mix stems",
    "specimen intake at the taxidermy studio",
    "ordering mannequin forms and glass eyes for mounts",
    "Swiss-system pairings for the chess tournament",
    "rating updates and tiebreaks after each round",
    "arbiter appeals and their deadlines",
    "nitrox blending at the fill station",
    "car leveling calibration after an inspection",
    "billing studio hours to bands and labels",
]
_TASKS = [
    "convert a dive depth in feet to bar of ambient pressure",
    "round an elevator callout's travel time up to the next billable quarter hour",
    "turn a take number and song title into a stem file name",
    "work out how many days a specimen has been in the freezer",
    "compute a player's expected score from two ratings",
    "check whether a cylinder's last hydro test is older than five years",
    "split a studio invoice between the band members who booked the session",
    "pick the smallest mannequin form that fits a specimen's girth",
    "convert a nitrox oxygen percentage into a maximum operating depth",
    "give a player a bye when the round has an odd number of entrants",
    "flag an elevator whose leveling offset drifted more than five millimetres",
    "sum a diver's bottom time over the last twenty-four hours",
]
_EVENTS = [
    "a diver logs two dives with overlapping times",
    "a fill station tops up a cylinder whose hydro test has lapsed",
    "an elevator fails its load test in the middle of a callout",
    "two engineers book the same tracking room for one evening",
    "a client cancels a mount after the mannequin form was ordered",
    "a player withdraws after the next round was already paired",
    "an appeal is upheld and a round's result has to be reversed",
    "a technician closes a callout without recording the fault",
    "a vocal take is relabelled after the stems were exported",
    "a glass eye order arrives in the wrong diameter",
    "a certification card is printed for a diver who failed the skills check",
    "a building's inspection date falls on a public holiday",
]
_SNIPPETS = [
    "for entry in log.entries.iter().filter(|e| e.depth_m > 30.0) {\n    warnings.push(DecoWarning::new(entry.id));\n}",
    "for _, car := range building.Cars {\n\tif car.LastInspection.Before(cutoff) {\n"
    "\t\tqueue = append(queue, car)\n\t}\n}",
    "overdue = [c for c in cylinders if c.hydro_date < today - timedelta(days=5 * 365)]\n"
    "for c in overdue:\n    c.locked = True",
    "takes.select { |t| t.song_id == song.id && !t.keeper }\n     .each { |t| t.update!(archived: true) }",
    "val byes = players.filterNot(paired.contains).sortBy(_.rating)\nif (byes.nonEmpty) assignBye(byes.head)",
    "(->> specimens\n     (filter #(> (:freezer-days %) 90))\n     (map :client-id)\n     distinct)",
    "SELECT car_id, max(inspected_on)\nFROM lift_inspections\nGROUP BY car_id\n"
    "HAVING max(inspected_on) < now() - interval '1 year';",
    "foreach ($bookings as $b) {\n    if ($b->room === $room && $b->overlaps($slot)) {\n"
    "        return false;\n    }\n}",
    "let late = appeals\n    .filter { $0.filedAt > $0.round.deadline }\n    .map(\\.id)",
    "orders.each do |o|\n  next if o.iris_colour\n  o.update!(status: :needs_info)\nend",
    "for (Pairing p : round.getPairings()) {\n    if (history.contains(p.white(), p.black())) {\n"
    "        conflicts.add(p);\n    }\n}",
    "pending <- filter (not . isInspected) cars\nmapM_ scheduleInspection pending",
    "my @stale = grep { $_->{freezer_days} > 90 } @specimens;\nnotify_client($_) for @stale;",
    "const missing = stems.filter(s => s.sampleRate !== session.sampleRate);\n"
    "if (missing.length) throw new Error('resample');",
]
_BODIES = [
    "pub fn ambient_bar(depth_ft: f64) -> f64 {\n    1.0 + depth_ft * 0.3048 / 10.0\n}",
    "func billableQuarters(minutes int) int {\n\treturn (minutes + 14) / 15\n}",
    "def expected_score(ra, rb):\n    return 1 / (1 + 10 ** ((rb - ra) / 400))",
    "expectedScore :: Double -> Double -> Double\nexpectedScore ra rb = 1 / (1 + 10 ** ((rb - ra) / 400))",
    "function stemName(int $take, string $song): string {\n"
    "    return sprintf('%s_take%02d.wav', strtolower($song), $take);\n}",
    "sub freezer_days {\n    my ($intake) = @_;\n    return int((time - $intake) / 86400);\n}",
    "def max_operating_depth(fo2, ppo2_limit=1.4):\n    return round((ppo2_limit / fo2 - 1) * 10, 1)",
    "fn bottom_minutes(dives: &[Dive], since: DateTime<Utc>) -> i64 {\n"
    "    dives.iter().filter(|d| d.start >= since).map(|d| d.minutes).sum()\n}",
    "(defn expected-score [ra rb]\n  (/ 1.0 (+ 1 (Math/pow 10 (/ (- rb ra) 400.0)))))",
    "public MannequinForm smallestFit(double girthCm) {\n"
    "    return forms.stream().filter(f -> f.girthCm() >= girthCm)\n"
    "        .min(comparing(MannequinForm::girthCm)).orElseThrow();\n}",
    "func needsRelevel(offsetMm float64) bool {\n\treturn math.Abs(offsetMm) > 5\n}",
    "def split_invoice(total, members)\n  share = (total / members.size.to_f).round(2)\n"
    "  members.to_h { |m| [m, share] }\nend",
    "func assignBye(_ players: [Player]) -> Player? {\n"
    "    players.filter { !$0.hadBye }.min(by: { $0.rating < $1.rating })\n}",
]
_CODE_LINES = [
    "let ppo2 = fo2 * (depth_m / 10.0 + 1.0);",
    "car.levelingOffsetMm = sensor.readMm() - floor.sillHeightMm",
    "bill := time.Duration(session.Minutes) * rate / 60",
    "eye_mm = (skull_width_mm * 0.38).round(1)",
    "delta = k * (score - expected_score(player.rating, opp.rating))",
    "if ($slot->start < $other->end && $other->start < $slot->end) { return true; }",
    "mod_m = round((1.4 / fo2 - 1) * 10, 1)",
    "eyes.sort_by!(&:diameter_mm)",
    "(update player :rating + (* k (- score expected)))",
    "let overdue = cylinders.filter { $0.hydroDate < fiveYearsAgo }",
    "if stem.SampleRate != session.SampleRate { return ErrSampleRate }",
    "WHERE pairing.round_no = :round AND pairing.board IS NULL",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "pub(crate) async fn {fn}<'a>(&'a mut self, entry: &'a {T})",
        "where is `func (r *{T}) {fn}` — the receiver type is not in this package",
        "scala: object {T} extends Enumeration -- which file?",
        "newtype {T} = {T} {{ un{T} :: Int }}",
        "(defn {fn} [{{:keys [",
        "def {fn}(self, {T}",
        "let inline {fn} (x: {T}) =",
        "CREATE PROCEDURE dbo.{fn} @id INT AS",
        'extend type {T} @key(fields: "id")',
        '{{"name": "lsp_goto_definition", "arguments": {{"symbol": "{fn}", "file": "{path}"}}}}',
        ":tjump {fn} -> E426: tag not found. ctags is stale i guess, where does it actually get defined",
        "whr is {T} declard?? not in {path} like the readme says",
        "agent: before you edit anything, locate the struct for {T} and print its fields with their types",
        "Cmd-click on `{T}` in the Swift target lands on a generated header. Where is the hand-written type for "
        "{topic}? I need the original file.",
        "ticket {n}: the docs mention {qual} without a link. what file and line is it declared at?",
    ],
    "find_references": [
        '{{"method": "textDocument/references", "params": {{"symbol": "{qual}", "includeDeclaration": false}}}}',
        'tool_call: list_callers(symbol="{fn}", depth=1)',
        "handlers that build {T} objects by hand (not through the factory)?",
        "callers of {fn} (git grep misses the ones that go through the interface)",
        "every spec that stubs or mocks {fn}",
        "consumers of the {T} message across all services",
        "Review comment: you added a call to {fn} in {path}. Were there other callers already? Link them please.",
        "modules importing from {path}, needed for migration ticket {n}",
        "{T} -- who instantiates it, who extends it",
        "in ruby side, from where is {fn} getting called? only rake tasks or also controllers?",
        "where does the {topic} code call {fn}, give file and line",
        "grep wont do it, need real usages of {T} (type-aware), the name collides with a db table",
        "places that read {qual}'s return value and branch on it",
        "any place still invoking {fn}?? want to list them before I mark it deprecated",
    ],
    "impact_analysis": [
        "If I add a required {T} parameter to {fn}, what has to be updated and what would fail at runtime?",
        "proposal: delete {path}. fallout?",
        "what goes wrong downstream if {fn} begins raising {err} instead of returning None",
        "task: assess_change\ntarget: {qual}\nchange: make it async\nreport: affected callers and tests",
        "switching the units in {T} from minutes to seconds -- which reports and jobs would be silently wrong?",
        "```diff\n- def {fn}(self, entry):\n+ def {fn}(self, entry, *, strict=True):\n```\nwho is affected by this",
        "ripple effects of removing {fn} entirely",
        "we're bumping the proto for {T} (field 3 becomes repeated). which consumers break",
        "before merging: would memoizing {fn} change behaviour anywhere? {topic} leans on it heavily",
        "if {fn} stops sending twice, did anything depend on the duplicate?",
        "safe to rename the column behind {T}.status? what is gonna break",
        "scope this change for me: {fn} will take a {T} instead of an id. Which call sites break, which tests need "
        "updating, and is there anything in the batch jobs for {topic} that passes ids dynamically?",
        "if we making {T} immutable, which places that mutate it stop to compile?",
        "tightening validation in {path} so {msg} becomes a hard error -- what upstream flows would start failing",
    ],
    "exact_match": [
        "[2024-03-02 10:14:07,331: ERROR/ForkPoolWorker-3] Task {qual}[{n}] raised unexpected: {err}('{msg}')\n"
        "where does that message string live",
        "thread 'tokio-runtime-worker' panicked at {path}:{n}:9:\n{msg}\nwhere is that text in the code",
        "panic: {msg}\n\ngoroutine {n} [running]:\nwhich file has this string",
        "> Task :{fn}:test FAILED\n{T}Test > rejects late entries FAILED\n    {err}: {msg}\n"
        "locate that message in the main sources",
        '{{"level":"error","code":"{ecode}","msg":"{msg}"}} <- find the literal msg in source',
        "need the one file containing the sentence '{msg}' -- literal, not semantic, please",
        "ERROR:  {msg}\nSQLSTATE: {ecode}\nwhich function raises exactly this",
        "literal search for the token {ecode}, every occurrence, the {T} tests included",
        'customer forwarded an email that says "{Msg}" -- which template has that sentence verbatim',
        "E       {err}: {msg}\n\n{path}:{n}: {err}\nfind the raise that produces this message",
        'search string: "{msg}" (case-sensitive, no regex)',
        "{T}[{n}]: {Msg}\nthat is from journalctl, grep where we emit it",
        "Failure/Error: {fn}\n  {err}:\n    {msg}\n# ./{path}:{n}\nfind this exact text",
        "word-for-word search please: {ecode} {msg}",
    ],
    "find_similar": [
        "```\n{snippet}\n```\nsimilar implementations elsewhere? this one lives in {path}",
        "we have {fn}; does some other module already do basically the same under another name?",
        "code that resembles this (it's {fn}):\n{body}",
        "structurally equivalent code to `{code}`, ignoring variable names",
        "Is there an existing helper to {task}? Don't want to write it twice.",
        'find_similar_code(query="{code}", top_k={n})',
        "copy-paste check on {path}: where else does this logic exist",
        "siblings of {fn} -- functions with the same shape across the {topic} code",
        "I'm refactoring {topic}. I think this block exists in several variants; find all of them so I can pull "
        "out one shared function:\n{snippet}",
        "anything like {fn} but working on {T}?",
        "diff --git a/{path} b/{path}\n+    {code}\ndoes this added line duplicate logic we already have?",
        "pls find code which look same like this one, we need it for {topic}\n{body}",
        "other implementations of the same algorithm as {qual}, in any language",
        "Agent instruction: I'm about to {task} in {path}. Search for prior art first and show the closest "
        "existing functions.",
    ],
    "understand_code": [
        "ELI5 {fn} plz",
        "how does {topic} actually work end to end? start from the HTTP handler",
        "what happens in the code when {event}? trace it for me starting at {fn}",
        "from {path}:\n```\n{body}\n```\nwhat is this doing and why is it written this way",
        "can someone explain the state machine in {path}",
        "relationship between {T} and {fn}? I don't get how they fit",
        "what is the purpose of {qual}? the only comment is a TODO",
        "summarize {path} in a few bullets",
        "New on the team, trying to get my head around {topic}. What are the main types, where does data come in, "
        "and where does it get persisted?",
        "why is {fn} written recursively, what does that buy us",
        "explain: {code}   (line {n})",
        "how {T} get validated before save? I not understand the flow",
        "agent: read {path} and tell me what invariants it assumes about {T}",
        "in plain words what {fn} returns when {event}",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "twentysixth", seed=97)

"""The thirty-second held-out set for the learned routing layer, written from the layout alone and never
measured while written.

Only ``routing_fifteenth.py`` was read, and only for its layout (and ``held_out_slots.py``, which fills it);
no other set's templates, no training template, and no score was looked at while this one was written, and
no classifier was asked any of it. The templates come from one writer's sense of how engineers and AI coding
agents phrase requests to a code search tool: questions and imperatives, terse keyword queries and long
wordy ones, typos and lower-case chat, declarations as typed in Go (a method on a receiver), Rust, Ruby,
Java, Haskell and Clojure, fenced snippets, a unified diff, output pasted from a Rust panic, a Python
traceback, a Go structured log line, a Java ``Caused by``, a PHP warning, a Swift ``Fatal error`` and a
Clojure execution error, tool calls an agent might send as JSON, YAML or a command line, ``git grep``
and code-host and editor search syntax. Its slot fillers come from five domains no other set uses
(a philatelic auction house's lot numbering, perforation grading and postmark index; a kelp farm's
longlines, reseeding and drying racks; an archery range's lane bookings, arrow spines and target-face
scoring; a tea estate's plucking rounds, withering troughs and leaf grading; a neon sign workshop's tube
bending, gas fills and repaint quotes), with made-up exception names and error codes; none is a training
filler (``test_intent_model`` checks both). When first run, its leakage tests failed and so showed
fragments of other sets' templates (normalised, in their assertion output); the twenty templates of
this set that met one of them, or a training one, were replaced (some by a new shape, some by a longer
form of the same request), in two rounds, and nothing else was taken from what those failures showed.
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "grade_perforation_gauge",
    "assignAuctionLotNumber",
    "record_cancellation_postmark",
    "schedule_longline_reseeding",
    "computeKelpDryWeight",
    "flag_blade_fouling",
    "book_shooting_lane",
    "computeArrowSpineDeflection",
    "score_target_face_end",
    "log_plucking_round",
    "computeWitheringLoss",
    "grade_leaf_flush",
    "bend_tube_segment",
    "computeNeonGasFill",
    "test_transformer_secondary",
    "quoteSignRepaint",
]
_TYPES = [
    "StampLot",
    "PostmarkRecord",
    "BidderPaddle",
    "KelpLongline",
    "DryingRackBatch",
    "ShootingLane",
    "ArrowSet",
    "TargetFaceEnd",
    "PluckingRound",
    "WitheringTrough",
    "LeafGradeSheet",
    "NeonTubeRun",
    "SignTransformer",
    "GasFillCertificate",
]
_ERRORS = [
    "PerforationGaugeMismatch",
    "LonglineSnagFault",
    "ArrowSpineRangeError",
    "TroughHumidityExceeded",
    "NeonBackfillLeak",
    "LotReservePriceConflict",
]
_MESSAGES = [
    "perforation count does not match the catalogue gauge for this issue",
    "stamp lot was opened for bidding before its certificate came back",
    "postmark date falls outside the cancelling office's working years",
    "longline was reseeded while the bay was closed for a storm warning",
    "dry weight of the kelp batch is higher than its wet weight",
    "blade fouling survey is missing a diver signature",
    "shooting lane booked during the junior coaching block",
    "arrow spine is too stiff for the archer's draw weight",
    "plucking round started before the previous flush was graded",
    "withering trough humidity stayed above the limit for six hours",
    "neon tube run exceeds the transformer's rated length",
    "gas fill pressure dropped after the electrodes were sealed",
]
_ERROR_CODES = ["PHX-3190", "KLP_E27", "ARW-505S", "TWH0x1F", "NGF-81", "LOT409R"]
_PATHS = [
    "auctionhouse/lots/lot_numbering.go",
    "auctionhouse/grading/PerforationGauge.scala",
    "auctionhouse/postmarks/postmark_index.rb",
    "kelpfarm/longlines/reseed_plan.rs",
    "kelpfarm/drying/dry_weight.py",
    "archeryrange/lanes/LaneBooking.java",
    "archeryrange/scoring/target_end.php",
    "teaestate/plucking/PluckingRounds.hs",
    "teaestate/factory/WitheringTrough.swift",
    "neonshop/tubes/tube_bender.zig",
    "neonshop/quotes/RepaintQuote.fs",
    "neonshop/gas/fill_log.clj",
]
_TOPICS = [
    "grading stamp perforations before an auction",
    "numbering lots in the stamp auction catalogue",
    "indexing postmarks by cancelling office",
    "reseeding kelp longlines after a storm",
    "drying and weighing harvested kelp",
    "booking lanes at the archery range",
    "scoring ends on archery target faces",
    "plucking rounds on the tea estate",
    "withering and grading tea leaf in the factory",
    "bending and gas-filling neon tubes",
    "quoting repaints for old neon shop signs",
]
_TASKS = [
    "convert a perforation count per two centimetres into a catalogue gauge",
    "turn a kelp wet weight into an expected dry weight from a moisture ratio",
    "convert an arrow's spine deflection in inches into a stiffness rating",
    "work out how many days since a tea bush section was last plucked",
    "compute the fill pressure for a neon tube from its bore and length",
    "round an auction hammer price up to the next bidding increment",
]
_EVENTS = [
    "two bidders claim the same paddle number in one sale",
    "a storm warning arrives while divers are out on the kelp longlines",
    "an archer's lane booking runs into a club tournament",
    "a withering trough fan fails halfway through a batch",
    "a neon sign starts to flicker a week after it was installed",
]
_SNIPPETS = [
    'for _, lot := range sale.Lots {\n\tif lot.Certificate == nil {\n\t\tlot.Status = "withheld"\n\t}\n}',
    "let due: Vec<_> = longlines\n    .iter()\n    .filter(|l| l.days_since_seeded() > 90)\n    .collect();",
    "rounds.each do |r|\n  next if r.graded?\n  r.flush_grade = grade_leaf(r.sample)\nend",
    "foreach ($ends as $end) {\n    $total += array_sum($end->arrows);\n}",
    "let overheated = troughs\n    .filter { $0.humidity > limit }\n    .sorted { $0.startedAt < $1.startedAt }",
]
_BODIES = [
    "def dry_weight(wet_kg: float, moisture: float) -> float:\n    if moisture >= 1:\n"
    "        raise ValueError(moisture)\n    return wet_kg * (1 - moisture)",
    "daysSincePlucked :: Day -> Day -> Integer\ndaysSincePlucked today lastPluck = diffDays today lastPluck",
    "fn fillTorr(bore_mm: f32, length_m: f32) f32 {\n    return 11.0 - bore_mm * 0.6 + length_m * 0.05;\n}",
    "def nextIncrement(hammer: BigDecimal): BigDecimal =\n  increments.find(_ > hammer).getOrElse(hammer + 50)",
]
_CODE_LINES = [
    "lot.reserve = max(lot.estimate * 0.6, house.minimumReserve)",
    "let spine = deflection_in * 1000.0 / draw_weight_lb;",
    "$trough->humidity_limit = config('factory.withering_max_rh');",
    "tube.fillTorr = fillPressure(bore: tube.boreMm, length: tube.lengthM)",
    "batch[:dry_kg] = (batch[:wet_kg] * (1 - batch[:moisture])).round(2)",
]

#: Written in one sitting from the layout alone, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "func (r *{T}) {Fn}(ctx context.Context) (",
        "pub(crate) async fn {fn}(&mut self, id: u32) ->",
        "def self.{fn}(lot, **opts)",
        "protected synchronized {T} {fn}(int batchNo,",
        "abstract sealed class {T} permits",
        "{fn} :: MonadIO m => {T} -> m (",
        "(defmulti {fn} :kind)",
        "where's {fn} defined at",
        '{{"tool": "code_search", "mode": "definition", "symbol": "{fn}"}}',
        "gd on {fn} in neovim lands on an import line, not the function itself. where's the actual def?",
        "symbol:{T} language:scala",
        "definiton of {T} plz",
        "agent: before you edit {path}, locate where the type {T} is declared and paste its fields",
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.{fn}(...)\n\t{path}:{n}\n"
        "not asking about the panic -- just where is {fn} declared?",
        "which file declares {T}",
        "I'm reviewing a change in {path} that passes a {T} into {fn}, and I can't find where {fn} itself is "
        "written; could you find the file and line where it's defined and show the full signature, default "
        "arguments included?",
    ],
    "find_references": [
        "{fn}: callers pls",
        "all call sites of {qual}, grouped by file",
        "{T} is referenced from where?",
        "action: list_usages\nsymbol: {T}\ninclude_tests: true",
        "every place that constructs a new {T}",
        "list the modules that import something from {path}",
        "show usages for {qual} pls",
        "is {T} used anywhere outside the code for {topic}?",
        "find all refrences to {fn} in the repo",
        "codesearch refs {fn} --include-tests --format=file:line",
        "list every caller of {fn} with file:line, I'm auditing them one by one",
        "everywhere we catch {err} in the code for {topic}",
        "I'm writing migration notes for {topic} and need the complete list of places that call {fn} or hold on "
        "to a {T}, across services and scripts, with the file and line of each",
        "where else is {fn} invoked besides {path}?",
        "tests that touch {T}? want the list before the refactor",
        "Shift+F12 on {fn} in VS Code gives nothing -- show me all the references it should have listed",
    ],
    "impact_analysis": [
        "deleting {fn} tomorrow -- what goes red",
        "adding a mandatory field to {T}: which writers and readers would need changes",
        "```diff\n-def {fn}(lot)\n+def {fn}(lot, currency)\n```\n"
        "after this signature change, what else in the system is affected and needs updating?",
        "if {fn} starts raising {err} instead of returning nil, what's affected downstream",
        "can {path} be deleted without something downstream failing? trace the dependents",
        "ripple effects of renaming {qual}",
        '{{"op": "assess_change_impact", "symbol": "{qual}", "change": "return Result instead of panicking"}}',
        "we're moving {T}'s weight field from float to decimal -- which downstream code, reports and tests "
        "change behaviour",
        "if i make {fn} async does anything upstream break",
        "whats the fallout if {path} gets split in two",
        "before I change how {fn} rounds its numbers, tell me which features and reports would shift",
        "which services fall over if the {T} table gets a new NOT NULL column",
        "The team that owns {topic} wants {fn} to stop writing to the database directly and publish an event "
        "instead; before we agree, I need to know which jobs, endpoints and reports rely on that write happening "
        "synchronously and what would behave differently",
        "if {fn} stops emitting error code {ecode}, which code paths and alert rules are affected",
        "waht would be effected if we chnage {T} to be immutable",
        "PR description: {fn} currently only logs '{msg}'; we want it to be a hard error. which callers would "
        "start failing?",
    ],
    "exact_match": [
        "thread 'main' panicked at '{msg}', {path}:{n}:5\nfind that panic message",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n    raise {err}(...)\n{err}: {msg}\n'
        "locate the raise that carries this text",
        'level=error msg="{msg}" code={ecode}',
        "Caused by: com.example.{err}: {Msg}",
        'git grep -n --fixed-strings -e "{msg}" -- "*.rb" "*.go"',
        '"{ecode}" NOT path:test',
        "literal string search for {ecode}",
        "exact phrase '{msg}' -- where in the code",
        'find the exact line: raise {err}("{msg}")',
        "Fatal error: {Msg}: file {path}, line {n}\nwhere is this fatalError string",
        "[{n}-Mar-2025 04:12:55 UTC] PHP Warning:  {Msg} in {path} on line {n}",
        '{{"tool": "grep", "pattern": "{ecode}", "fixed_strings": true, "glob": "{path}"}}',
        "getting '{msg}' from the app, which file prints that text",
        "exact token {T}, case-sensitive, no fuzzy matching",
        "Execution error ({err}) at {fn} ({path}:{n}).\n{Msg}",
        "alert fired: [{ecode}] {msg}. where's this exact string in the code base?",
    ],
    "find_similar": [
        "{snippet}\n\nsimilar code elsewhere in the code for {topic}?",
        "functions similar to {fn}",
        "does something in the repo already {task}? don't want {fn} to reinvent it",
        "semantic search: code equivalent to\n{body}\n(skip {path}, that's where this one came from)",
        "find copies of {path} that have drifted from the original",
        "any other implementations of the same algorithm as {fn}, maybe in another language",
        '{{"tool": "similar_code", "query": "{code}", "top_k": 10, "exclude": "{path}"}}',
        "this one is in {path} but there are probably 3 or 4 versions of it around, find them:\n{body}",
        "smth like {fn} but for {T}? pretty sure we have one",
        "code clones of {fn}",
        "We're consolidating the code for {topic} and I want every function that does roughly what this one "
        "does, even if it's in a different language or uses different names, so we can pick one to keep:\n"
        "{snippet}",
        "```\n{code}\n```\n(from {path}:{n}) where else do we compute something the same way as this line",
        "find analogues of {T} in the other services",
        "similar to {path}:{n}, what else?",
        "simmilar functons to {fn}?",
        "refactor prep: find code structurally similar to\n{body}\nso we can extract a shared helper on {T}",
    ],
    "understand_code": [
        "how does {fn} actually work under all those helpers",
        "give me a tour of {path}, function by function",
        "what is this doing? found it in {path}\n{snippet}",
        "why does {T} carry both a created and an updated timestamp",
        "trace {topic} end to end for me, from request to stored row",
        "what happens in {path} when {event}?",
        "eli5 what {qual} is for, im not a backend person",
        "agent: summarize the control flow of {fn}, then list its side effects",
        "can u explain this line from {fn}: {code}",
        "why does {T} exist as its own class at all",
        "I'm taking over maintenance of {topic} next week. Can you give me an overview of how the main pieces "
        "fit together, where data comes in and goes out, and which parts are the riskiest to touch?",
        "walk through what {fn} does step by step, esp. the error handling",
        "why does {fn} retry instead of failing fast",
        "what's the data flow from a {T} to the database",
        "dont understand {path}, what is it for",
        "{body}\n\nhow does this compute its result?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "thirtysecond", seed=132)

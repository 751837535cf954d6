"""A twenty-seventh held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The held-out sets up to ``routing_twentysixth.py`` have been, or may yet be, read while routing changes are
weighed, so a change chosen on them is partly chosen on its own test; none of their templates was looked at
while this one was written (only ``routing_fifteenth.py``'s layout, as a format). These templates were written
in one sitting by another hand, from the shapes real requests take where the earlier sets may have leaned least:
declarations as they are typed in Go (a method on a pointer receiver returning an error), Rust (a ``pub(crate)
fn`` inside an ``impl`` block), PHP (a ``private function`` in a ``final class``), Scala (``final case class``),
Haskell (``newtype`` with a record field), Clojure ``defmulti``, Nim (``func`` with a ``raises`` pragma) and a
gRPC ``rpc`` line, and declarations named in prose (Ruby's ``def self.``, Go's ``type ... struct``, SQL's
``CREATE FUNCTION``); output pasted from tools the earlier sets may not have used (a Go ``panic`` with its
goroutine dump, ``rustc`` diagnostics, a Python traceback, pytest's short summary, a Ruby ``Logger`` line, PHP's
fatal ``Uncaught`` with its stack trace, the GitHub Actions annotations panel, ``journalctl``, Datadog monitors,
jscpd reports); agent tool calls as JSON objects, ``tool_use`` blocks, YAML steps and function-call text, ``git
grep``, Vim's ``:vimgrep``, VS Code's find-in-files and Sourcegraph queries, Neovim's ``gd``; code review
comments, commit messages, pull-request numbers, tickets and chat. Short requests were taken to outnumber long
wordy ones. The shapes were turned into templates; no sentence was copied. Questions and imperatives, terse
keyword queries and long wordy ones, typos, lowercase, non-native English, prose mixed with code, pasted code
with and without words, diffs. No classifier was asked any of them while they were written; a template that met
a training one or another set's (``test_intent_model``) was replaced, not reworded. Its slot fillers come from
five domains no other set uses (a surfboard shaping bay's blanks, rocker profiles, fin boxes and glassing runs;
a cobbler's resoling tickets, welt stitching and heel repairs; a cinema projection booth's DCP ingests, KDM key
windows, lamp hours and showtime reels; a tennis racket stringing bench's restring orders, tensions and grommet
strips; a thatching contractor's reed bundle estimates, ridge recapping and site visits), and none is a training
filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "shape_blank_rocker",
    "glassFinBoxInsert",
    "compute_board_volume_litres",
    "queueLaminateRun",
    "resole_with_rubber_sheet",
    "stitchGoodyearWelt",
    "quote_heel_block_repair",
    "markShoePairReadyForPickup",
    "ingest_dcp_package",
    "rotateProjectorLampHours",
    "validate_kdm_window",
    "buildShowtimeReelPlan",
    "restring_at_tension_kg",
    "logGrommetStripSwap",
    "pair_cross_string_gauge",
    "estimate_reed_bundles",
    "scheduleRidgeRecapping",
    "compute_thatch_coat_depth",
]
_TYPES = [
    "SurfboardBlank",
    "FinBoxPlacement",
    "GlassingRun",
    "ResoleTicket",
    "HeelBlockQuote",
    "WeltStitchPass",
    "DcpIngestJob",
    "KdmKeyWindow",
    "ProjectorLamp",
    "ShowtimeReel",
    "RestringOrder",
    "StringTensionSpec",
    "ReedBundleEstimate",
    "RidgeCapPattern",
    "ThatchSiteVisit",
]
_ERRORS = [
    "KdmWindowExpiredError",
    "ErrRockerOutOfSpec",
    "ResoleQueueFullError",
    "TensionOutOfRangeException",
    "ReedBundleShortfall",
    "LampHoursExceededError",
]
_MESSAGES = [
    "blank rocker profile deviates more than two millimetres from the template",
    "fin box insert placed before the bottom laminate had cured",
    "board volume litres do not match the shaper's order sheet",
    "resole ticket has no sole material chosen",
    "welt stitch pass started on a shoe still waiting for its insole",
    "heel block quote expired before the customer approved it",
    "dcp package checksum does not match the asset map",
    "kdm key window closes before the last showtime of the day",
    "projector lamp is past its rated hours and still scheduled",
    "restring order tension is outside the frame manufacturer's range",
    "grommet strip swap logged without a racket serial number",
    "reed bundle estimate is short for the roof pitch given",
]
_ERROR_CODES = ["SRF-0412", "E_RESOLE_31", "PJLAMP-09", "KDM-4077", "STR-1187", "THR-5520"]
_PATHS = [
    "shaping_bay/rocker/rocker_profile.go",
    "shaping_bay/glassing/laminate_queue.rs",
    "shaping_bay/orders/board_volume.py",
    "cobblerworks/resoles/resole_ticket.rb",
    "cobblerworks/welts/WeltStitcher.php",
    "cobblerworks/pickup/ready_notifier.py",
    "booth/ingest/dcp_ingest.go",
    "booth/keys/KdmWindow.scala",
    "booth/lamps/lamp_hours.rs",
    "stringbench/orders/RestringOrder.java",
    "stringbench/tension/tension_spec.hs",
    "thatchco/estimates/reed_bundles.clj",
    "thatchco/visits/site_visit.nim",
]
_TOPICS = [
    "rocker profiles for the surfboard blanks",
    "fin box placement and glassing runs",
    "board volume quotes for custom orders",
    "resoling tickets at the cobbler's counter",
    "welt stitching and heel repairs",
    "pickup notices for repaired shoes",
    "DCP ingest in the projection booth",
    "KDM key windows for each screening",
    "projector lamp hour tracking",
    "restring orders at the stringing bench",
    "reed bundle estimates for thatched roofs",
    "ridge recapping visits by the thatchers",
]
_TASKS = [
    "convert a board length in feet and inches into centimetres",
    "round a string tension from pounds to the nearest half kilogram",
    "turn a shoe size in UK sizing into EU sizing",
    "work out how many reed bundles cover a roof of a given area",
    "compute remaining lamp life as a percentage of rated hours",
    "check whether a timestamp falls inside a key's validity window",
]
_EVENTS = [
    "a KDM key expires halfway through a screening",
    "a shaper edits a rocker profile after the blank was cut",
    "a customer collects shoes whose resole ticket is still open",
    "two stringers claim the same restring order",
    "a thatching site visit is rained off and has to be rebooked",
]
_SNIPPETS = [
    "for _, b := range blanks {\n\tif b.RockerMm > spec.MaxRockerMm {\n\t\trejected = append(rejected, b)\n"
    "\t\tcontinue\n\t}\n\tqueue.Push(b)\n}",
    "let expiring: Vec<_> = keys\n    .iter()\n    .filter(|k| k.not_after < show.ends_at)\n    .collect();",
    "tickets.select { |t| t.sole_material.nil? }\n       .each { |t| t.update!(status: :waiting_on_customer) }",
    "foreach ($orders as $o) {\n    if ($o->tensionKg > $frame->maxTensionKg) {\n        $o->flag('over_tension');\n"
    "    }\n}",
    "remaining = [l for l in lamps if l.hours_used < l.rated_hours * 0.9]\nremaining.sort(key=lambda l: l.hours_used)",
]
_BODIES = [
    "def reed_bundles(area_m2: float, coat_mm: int) -> int:\n    per_m2 = coat_mm / 300 * 1.1\n"
    "    return math.ceil(area_m2 * per_m2)",
    "lampLifePct :: Int -> Int -> Double\nlampLifePct used rated = 100 * fromIntegral (rated - used) / "
    "fromIntegral rated",
    "(defn uk->eu [uk]\n  (+ 33 (* 1.27 uk)))",
    "proc inWindow(ts, notBefore, notAfter: int64): bool =\n  result = ts >= notBefore and ts <= notAfter",
    "def volumeLitres(len: Double, width: Double, thick: Double): Double =\n  len * width * thick * 0.54 / 1000",
]
_CODE_LINES = [
    "blank.rocker_mm = profile.nose_mm - profile.tail_mm",
    "let lamp_left = lamp.rated_hours.saturating_sub(lamp.hours_used);",
    "$ticket->dueOn = $ticket->receivedOn->modify('+10 days');",
    "order.tension_kg = round(order.tension_lb * 0.4536 * 2) / 2",
    "visit.Bundles = int(math.Ceil(roof.AreaM2 * coat.PerM2))",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "func (q *{T}) {Fn}(ctx context.Context, id int64) (*{T}, error) {{",
        "impl {T} {{\n    pub(crate) fn {fn}(&mut self, at: Instant) -> Result<(), Error>",
        "ruby: in which concern is `def self.{fn}` written",
        "final class {T}Repository {{ private function {fn}(int $id): ?{T}",
        "final case class {T}(id: Long,",
        "newtype {T} = {T} {{ un{T} :: Int }} deriving (Show, Eq)",
        "(defmulti {fn} (fn [order] (:kind order)))",
        "func {fn}(v: var {T}) {{.raises: [].}} =",
        "go doc says {T} is exported from somewhere under booth/ -- find the `type {T} struct` line",
        "rpc {Fn}({T}Request) returns ({T}Reply);",
        "plpgsql: which migration holds the CREATE FUNCTION for {fn}",
        'tool_use: {{"name": "symbol_lookup", "input": {{"query": "{T}", "want": "declaration site"}}}}',
        "gd on {fn} in neovim lands on an import line, not the body. where is it really implemented?",
        "wher is {T} defind",
        "Before I touch {path}, I need the original definition of {fn}: which file and line, and is it a method "
        "on {T} or a free function?",
        "- step: locate_symbol\n  with:\n    kind: struct\n    name: {T}",
        "pls give me the body of {qual}, the implementation itself not the callers",
        "ticket #{n}: the handler calls {fn} and nobody knows what it does; link the place it gets declared",
    ],
    "find_references": [
        "{qual} <- who calls this (transitive callers ok)",
        "git grep -n '{fn}(' -- '*.go' '*.rs'   <- is that every call site or am I missing indirect ones",
        '{{"name": "list_references", "arguments": {{"symbol": "{T}", "include_tests": true}}}}',
        "which modules still pull in {fn} from {path}",
        "every spot a {T} gets instantiated",
        "ruby side: who sends :{fn} to a {T}?",
        "where is {fn} being used lol",
        "usages {fn} (exclude tests)",
        "code review: you changed the signature of {fn}. list its call sites so I can check you updated each one",
        "sourcegraph: repo:^thatchco$ {fn}( -- call sites only, skip the def",
        "which handlers in {path} call into {qual}",
        "incoming refs to {T} from the php and ruby code",
        "nobody remembers who calls {fn} anymore; give me the callers as file:line",
        "I want to see every test that builds a {T} fixture",
        "can you enumerate the places where {fn} is passed as a callback",
        'mcp call -> code.references(symbol="{qual}", depth=1)',
        "Please, I need know all the places where {T} is reading or writing, for to make a report",
    ],
    "impact_analysis": [
        "what breaks if {fn} starts returning a Result instead of panicking",
        "downstream fallout of dropping the {T} table",
        "If we bump the default threshold in {fn} from 24 to 28, what else changes behaviour?",
        "Plan: move {path} into a new package. Which builds, imports and deploy scripts would that break?",
        "go: if I add a context.Context first param to {Fn}, how many call chains need updating",
        "ripple effect of making {T} immutable?",
        "is it safe to delete {fn}? what would stop working",
        "PR #{n} changes {qual} -- assess the impact before we merge",
        '{{"tool": "analyze_change", "target": "{path}", "change": "rename"}}',
        "we are switching {topic} to a queue instead of a direct call; which modules are affected?",
        "what regressions could come from tightening the validation inside {fn}",
        "if {T} gains a required field, who fails to construct it",
        "wat happens to the rest if i remove the retry in {fn}",
        "changing {fn}'s units from millimetres to inches: which reports, exports and tests would silently go wrong?",
        "Risk assessment needed: {fn} becomes rate-limited to {n} calls per minute. Which jobs and endpoints "
        "lean on it hard enough to suffer?",
        "scope of change for splitting {path} in two",
        "commit: 'make {fn} return None when the {T} is missing' -- what could that break downstream?",
    ],
    "exact_match": [
        "panic: {msg}\n\ngoroutine {n} [running]:\nmain.{Fn}(...)\n\t{path}:{n}",
        "error[{ecode}]: {msg}\n  --> {path}:{n}:5",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n{err}: {Msg}\nwhere is this raised',
        'Ctrl+Shift+F in VS Code with Match Whole Word on: "{Msg}" -> 0 results, but the app definitely prints it. '
        "search the whole repo for that literal",
        'grep -rn "{Msg}" . finds nothing on my branch but prod logs show it; which file has that literal',
        '{{"fn": "grep_repo", "args": {{"needle": "{Msg}", "mode": "verbatim"}}}}',
        "journalctl -u {fn}: {T}[{n}]: {Msg} ({ecode})\nsearch for that exact string",
        "E, [2024-03-05T09:14:22 #{n}] ERROR -- : {err}: {msg}",
        "PHP Fatal error:  Uncaught {err}: {Msg} in /srv/app/{path}:{n}\nStack trace:\n#0 {{main}}\n  thrown",
        "Annotations\n  1 error\nbuild (ubuntu-latest)\n  {Msg}\nwhich file contains this sentence",
        'literal lookup ->  "{msg}"',
        'The customer screenshot says "{Msg}". Find exactly that text in the code, not approximate matches.',
        "find string {ecode}",
        "FAILED tests/test_{fn}.py::test_{fn} - {err}: {msg}",
        ":vimgrep /{msg}/ **/*",
        'datadog monitor: status:error service:{fn} "{Msg}" -- which source line prints this verbatim?',
        "{err}: {msg} -- grep for it pls",
    ],
    "find_similar": [
        "```go\n{snippet}\n```\nwe have this in three places I think. find the others",
        "functions that resemble {fn} in structure",
        "similar code to:\n{body}",
        "Is there already something like {fn} in another service? Don't want to write a fourth copy",
        "need to {task}. surely someone already wrote it -- find near matches",
        "{code}\n^ anything that looks like this elsewhere?",
        'similar_code(query="""{code}""", languages=["go", "rust", "php"], k=8)',
        "copy-paste detector: {path} vs the rest of the repo",
        "this diff adds a helper, tell me if it duplicates an existing one\n+{code}",
        "anything similar to {fn} but for {T}?",
        "jscpd flagged {path}; list the other fragments that match it",
        "same shape as this, maybe different names:\n{snippet}",
        "find siblings of {fn} (same params, same logic)",
        "refactor prep: gather all the implementations that {task}",
        "mmm this looks familiar\n{body}\nwhere have we written it before?",
        "semantic neighbours of {qual}",
    ],
    "understand_code": [
        "walkthrough wanted: the inner workings of {fn}, incl. edge cases",
        "eli5 pls: {topic} in this codebase, big picture only",
        "What's the control flow in {path}? which function runs first and what calls what",
        "explain this snippet pls\n{snippet}",
        "trace the sequence of calls that fires when {event}, in order, and say what each step is for",
        "what is the purpose of {qual}, and why does it take a {T}",
        "why does {fn} clone the {T} instead of borrowing it? explain the reasoning in the code",
        "new here, summarize how {topic} works in this repo",
        "{code}\nwhat does that compute exactly?",
        '{{"tool": "describe_module", "path": "{path}", "detail": "high"}}',
        "can you document {fn} for me: inputs, outputs, side effects",
        "{body}\n\nsorry, not my language. what is this computing, line by line?",
        "how are {T} objects persisted and loaded back",
        "trying to understand the state machine behind {topic}",
        "why {fn} needs a mutex?",
        "Reviewer here. Before approving, can you explain in prose what {path} is responsible for and how it fits "
        "with the rest of {topic}?",
        "please explain me how {fn} is calculating the result, step by step",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "twentyseventh", seed=127)

"""A twenty-third held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The held-out sets before it (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` to ``routing_eighth.py``, ``routing_ninth.py`` to ``routing_twentysecond.py``) have
been, or may yet be, read while routing changes are weighed, so a change chosen on them is partly chosen on
its own test; none of their templates was looked at while this one was written (only
``routing_fifteenth.py``'s layout, as a format), and neither was the classifier, its rules or its training
templates. These templates were written in one sitting by another hand, from the shapes requests take where
people and coding agents type into a code search box: declarations as they are typed in Go (a method on a
service's pointer receiver), Rust (an ``impl`` block), Python (an ``async def``), Crystal (``def self.``),
OCaml (``let rec``), C (a ``typedef struct``), Zig (``pub const ... = struct``), T-SQL (``CREATE
PROCEDURE``) and GraphQL federation (``extend type ... @key``); output pasted from a pytest failure
summary, a Go ``panic`` with its goroutine dump, a Rust panic from a tokio worker, a Rails 500 log, a
Laravel log line, a Node stack, a Java ``Caused by``, a Haskell ``CallStack``, journald and logfmt
container logs; agent tool calls written as JSON objects, as Python-style function calls, as YAML and as
an MCP command line; shell searches (``rg``, ``git grep``); pull-request review notes, onboarding and
deprecation chores, and non-native English. Short requests were taken to outnumber long wordy ones.
The shapes were turned into templates; no sentence was copied. Questions
and imperatives, terse keyword queries and multi-sentence ones, typos, lowercase, prose mixed with code and
pasted code with and without words. No classifier was asked any of them while they were written. Its slot
fillers come from five domains no other set uses (a leather tannery's liming drums, hide grading and
splitting runs; a letterpress print shop's type cases, chase lock-ups and proof pulls; a bowling centre's
lane blocks, pinsetter faults and league handicaps; a dental laboratory's zirconia crown milling, shade
matching and impression scans; a locksmith's key blanks, master key charts and lockout call-outs), and none
is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "schedule_liming_drum",
    "gradeHideBatch",
    "log_split_thickness",
    "computeTanninUptake",
    "lock_up_chase",
    "reserveTypeCase",
    "queue_proof_pull",
    "computeInkCoverage",
    "assign_lane_block",
    "resetPinsetterFault",
    "post_league_handicap",
    "computeOilPatternLength",
    "mill_zirconia_crown",
    "matchShadeTab",
    "log_impression_scan",
    "computeMarginGap",
    "cut_key_blank",
    "rekeyCylinderSet",
    "build_master_key_chart",
    "dispatchLockoutCall",
]
_TYPES = [
    "HideBatch",
    "LimingDrum",
    "SplitRun",
    "TypeCase",
    "PressChase",
    "ProofSheet",
    "LaneBlock",
    "PinsetterUnit",
    "LeagueNight",
    "CrownCase",
    "ShadeGuide",
    "ImpressionScan",
    "KeyBlank",
    "MasterKeyChart",
    "LockoutTicket",
    "CylinderPin",
]
_ERRORS = [
    "HideGradeMismatchError",
    "ChaseLockupException",
    "PinsetterJamError",
    "ShadeOutOfRangeException",
    "KeywayConflictError",
    "OpenMarginError",
    "DrumOverloadError",
]
_MESSAGES = [
    "hide batch left the liming drum before the minimum soak time",
    "split thickness is outside the tolerance for upholstery grade",
    "tannin uptake reading is missing for this pack",
    "chase was locked up with a missing quoin",
    "type case already reserved by another compositor",
    "proof pull requested before the forme was inked",
    "lane block overlaps a league night reservation",
    "pinsetter reported a sweep fault on an empty deck",
    "league handicap computed from fewer than three games",
    "zirconia crown milled without an approved shade tab",
    "impression scan margin is not closed",
    "key blank does not fit the keyway profile of this cylinder",
    "master key chart would create a cross-keyed pair",
    "lockout call dispatched without proof of residence",
]
_ERROR_CODES = ["TNY-0412", "LPRESS-E77", "PIN_SWEEP_09", "DLAB-3310", "E_KEYWAY_MISMATCH", "0x7E0041", "LCK-5521"]
_PATHS = [
    "tannery/drums/liming_schedule.go",
    "tannery/grading/hide_grade.rs",
    "tannery/splitting/split_runs.py",
    "pressroom/composing/type_cases.rb",
    "pressroom/lockup/ChaseLockup.php",
    "pressroom/proofs/ProofQueue.scala",
    "lanes/pinsetters/pinsetter_faults.go",
    "lanes/leagues/handicap.clj",
    "lanes/booking/LaneBlockController.swift",
    "dentallab/milling/crown_mill.py",
    "dentallab/shade/ShadeMatcher.hs",
    "dentallab/scans/impression_scan.rs",
    "lockshop/keys/blank_cutter.rb",
    "lockshop/mastering/MasterKeyChart.java",
    "lockshop/dispatch/lockout_calls.php",
]
_TOPICS = [
    "liming and deliming schedules in the tannery",
    "grading hides before they go to the splitter",
    "reserving type cases for compositors in the print shop",
    "locking up chases and pulling proofs on the platen press",
    "lane bookings and league nights at the bowling centre",
    "pinsetter fault handling on the lanes",
    "league handicaps and bowler averages",
    "milling zirconia crowns in the dental lab",
    "shade matching for crowns and bridges",
    "impression scans coming in from dental practices",
    "cutting duplicate keys from blanks",
    "master key systems for office buildings",
    "dispatching locksmiths to lockout calls",
]
_TASKS = [
    "round a hide's area in square feet to the nearest quarter",
    "convert a type size in points into picas and points",
    "compute a bowler's handicap from a running average",
    "turn a shade-guide code into an RGB swatch for the screen",
    "turn a key's bitting code into cut depths in millimetres",
    "split a lane block into hourly slots",
    "estimate a drum's soak time from the hide weight",
]
_EVENTS = [
    "a pinsetter jams in the middle of a league game",
    "two compositors reserve the same type case at once",
    "a crown comes back from the practice for a remake",
    "a hide batch is pulled from the drum early",
    "a customer cancels a lockout call after the van has left",
    "a master key chart is edited while keys are being cut",
]
_SNIPPETS = [
    'for _, lane := range lanes {\n\tif lane.Fault != nil && lane.League == "" {\n\t\tcontinue\n\t}\n'
    "\tresetDeck(lane)\n}",
    "let ready: Vec<_> = crowns\n    .iter()\n    .filter(|c| c.shade.is_some() && !c.milled)\n    .collect();",
    "for batch in batches:\n    if batch.soak_hours < MIN_SOAK:\n        continue\n"
    "    batch.stage = 'deliming'\n    db.save(batch)",
    "cases.select { |c| c.font == job.font && c.reserved_by.nil? }\n"
    "     .each { |c| c.update!(reserved_by: compositor) }",
    "foreach ($calls as $call) {\n    if ($call->status !== 'open') { continue; }\n"
    "    $this->dispatcher->assign($call, $nearestVan);\n}",
    "val proofs = jobs.filter(_.formeInked).map(j => ProofSheet(j.id, j.stock))",
]
_BODIES = [
    "func bittingDepths(code string, step float64) []float64 {\n\tout := make([]float64, len(code))\n"
    "\tfor i, ch := range code {\n\t\tout[i] = float64(ch-'0') * step\n\t}\n\treturn out\n}",
    "def handicap(avg: int, basis: int = 220, pct: float = 0.9) -> int:\n    if avg >= basis:\n"
    "        return 0\n    return int((basis - avg) * pct)",
    "fn picas(points: u32) -> (u32, u32) {\n    (points / 12, points % 12)\n}",
    "hideArea :: Double -> Double\nhideArea sqft = fromIntegral (round (sqft * 4)) / 4",
    "def soak_hours(weight_kg)\n  base = 6\n  base + (weight_kg / 25.0).ceil\nend",
    "(defn lane-slots [start end]\n  (take-while #(< % end) (iterate #(+ % 60) start)))",
]
_CODE_LINES = [
    "$chart->pins[$row][$col] = $blank->depths[$col] - $master->depths[$col];",
    "let handicap = ((basis - avg) as f32 * 0.9).floor() as u32;",
    "batch.soak_until = batch.loaded_at + timedelta(hours=soak_hours(batch.weight_kg))",
    "lane.oil_length_ft = pattern.fetch(:length, 41)",
    "picas, pts = divmod(size_pt, 12)",
    "crown.marginGapUm = scan.marginPoints.map(_.gapUm).max",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "func (svc *{T}Service) {Fn}(ctx context.Context,",
        "impl {T} {{\n    pub fn {fn}(&self",
        "async def {fn}(self, batch: {T}) -> None:",
        "typedef struct {T}_s {{\n    uint32_t id;",
        "def self.{fn}(batch : {T}) : Nil",
        "let rec {fn} (acc : {T} list) =",
        "pub const {T} = struct {{",
        "CREATE PROCEDURE {fn} @{T}Id INT AS",
        'extend type {T} @key(fields: "id") {{',
        '{{"type": "tool_use", "name": "locate_decl", "input": {{"identifier": "{fn}", "lang": "go"}}}}',
        'symbols.declaration_of("{qual}")  # want file + line',
        "- action: resolve_symbol\n  symbol: {T}\n  want: declaration site",
        "wher is {fn} defind",
        "ctags lists {fn} twice, once in {path}; which one is the real implementation and not the stub",
        "My editor can't resolve {T} in the type hints. Where is the class actually declared? Is it generated "
        "from something?",
        "please to show where is defined the function {fn}, I am searching since one hour",
    ],
    "find_references": [
        '{{"name": "find_references", "input": {{"symbol": "{fn}", "include_tests": true}}}}',
        "callers of {qual}?",
        "who calls {fn} besides {path}",
        "every `{T}::new(` site in the rust crates",
        "list the ruby files that instantiate {T}",
        "need all call sites of {fn}, we're adding an audit log line next to each one; file:line per row please",
        "xrefs({fn})",
        "where all is {T} passed as an argument? it gets handed around so much i lost track",
        "tool: references\nsymbol: {qual}\nscope: whole repo",
        "which php controllers pull in {path}",
        "{fn} -- callsites pls",
        "Show me the uses of {T} in {path} and in the tests.",
        "Our linter flags {fn} as unused but I don't believe it. Find anything that references it, including "
        "strings in config files or templates.",
        "who are using {T}? i need know all the places before the meeting tomorrow",
        'find_callers("{qual}", depth=1)',
        "any swift view reading {T}.status directly?",
    ],
    "impact_analysis": [
        "what breaks if {fn} returns an Option instead of panicking",
        "adding a required {T} param to {fn}: how many callers need updating, and are any of them in other services?",
        '{{"tool": "impact", "args": {{"symbol": "{qual}", "change": "signature"}}}}',
        "if we drop the {T} table, which code paths fail",
        "safe to delete {path}? what would stop compiling or blow up at runtime",
        "{fn} becomes async in the python service -> downstream fallout?",
        "Planning to change the units {fn} returns from inches to millimetres. Who consumes that value and would "
        "silently get the wrong number?",
        "i want rename {T} to something more clear, how much things get affected by it",
        "ripple effects of making {qual} throw instead of returning null",
        "Before I merge: this diff changes a default inside {fn} from 3 to 5. What behaviour downstream shifts "
        "because of that?",
        "if {path} moves into a different package, which imports break",
        "tighten {T} validation -> which existing records or flows start getting rejected?",
        "change_impact:\n  target: {fn}\n  kind: remove_parameter",
        "what's downstream of {fn}, i.e. what would be affected if it changed",
        "deprecating {fn} next sprint; who has to be warned, which modules and teams rely on it?",
        "if {fn} starts raising {err}, which callers up the chain don't handle it and would crash",
    ],
    "exact_match": [
        "E       {err}: {msg}\n\n{path}:{n}: {err}\n=== short test summary info ===\n"
        "FAILED tests/test_{fn}.py::test_{fn} - {err}: {msg}",
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.{Fn}(...)\n\t{path}:{n} +0x1d",
        "thread 'tokio-runtime-worker' panicked at {path}:{n}:21:\n{msg}\n"
        "note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace",
        "Completed 500 Internal Server Error in {n}ms\n\n{err} ({msg}):\n  {path}:{n}:in `{fn}'",
        "[2024-05-02 08:{n}:44] production.ERROR: {Msg} "
        '{{"exception":"[object] ({err}(code: 0): {msg} at {path}:{n})"}}',
        "Error [{ecode}]: {Msg}\n    at {qual} ({path}:{n}:17)",
        "Caused by: {err}: {msg}\n\tat {qual}({path}:{n})\n\t... {n} more",
        "Mar 03 04:{n}:11 lanes-01 pinsetterd[811]: {ecode} {msg}",
        "rg --fixed-strings --glob '!vendor' \"{msg}\"",
        'git grep -nF "{Msg}" -- "*.go" "*.rs" "*.py"',
        '{{"tool": "text_search", "query": "{msg}", "literal": true}}',
        "literal string {ecode}, which files",
        'where is this wording from? "{Msg}" -- QA saw it on a customer-facing screen',
        "byte-for-byte hunt, no fuzzy matching please: {msg}",
        "the front desk tablet is show '{msg}'. which source file have this text?",
        'docker logs: level=error msg="{msg}" code={ecode}\nfind whatever emits that',
        "*** Exception: {msg}\nCallStack (from HasCallStack):\n  error, called at {path}:{n}:5 in main:{T}",
    ],
    "find_similar": [
        "{snippet}\n\n^ this loop comes up in code review every month; list every spot with the same structure",
        "{fn} has siblings somewhere, i'm sure of it. same logic, different names. find them",
        "find code resembling this:\n{body}",
        "We're consolidating utilities. Is there already something that does this, maybe in another language?\n{body}",
        '{{"tool": "similar_code", "snippet": "{code}", "top_k": 8}}',
        "need a helper that can {task}; has anyone written one already that I could reuse",
        "functions doing what {fn} does but for {T}",
        "pattern-match: {code}\nshow lookalikes",
        "copy pasta hunt:\n{snippet}",
        "is {path} duplicated somewhere under another name?",
        'similar_to(file="{path}", top_k=10)',
        "{fn} in {path} looks a lot like something I saw in another service; find its twins",
        "Code review: this block in {path} smells copy-pasted\n{snippet}\nwhere are the other copies?",
        "does anything like {qual} exist already? about to write nearly the same thing for {topic}",
        "show implementations equivalent to this across the go, rust and python code ({topic}):\n{body}",
    ],
    "understand_code": [
        "{fn} -- how does it decide what to return? walk me through the branches",
        "eli5 {T}",
        "what happens when {event}? trace it through the code for me",
        "Can someone explain the flow of {topic}? Which services are involved and in what order?",
        "{body}\n\nwhat is this doing, and why that magic number?",
        "purpose of {path}?",
        "why does {fn} retry on {err} but not on the other errors",
        "mcp call code.explain --symbol {qual} --audience new-hire",
        "overview: {topic}",
        "i dont understand how {T} get its state changed, who set it and when? please explain simple",
        "summarize what {path} is responsible for in three bullet points",
        "what does `{code}` compute?",
        "Writing onboarding docs for {topic}. Describe the architecture: entry points, main types like {T}, and "
        "where the data ends up.",
        "how does the code for {topic} cope when {event}",
        "{qual}: what invariant is it protecting, and why would it raise {err}?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "twentythird", seed=223)

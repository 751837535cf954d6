"""A forty-ninth held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fortyeighth.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by
another hand than the change, in one sitting, from the layout of ``routing_fortyeighth.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the forty-eighth's was reworded,
and no classifier, router or model was asked about any of its phrasings while they were written. It keeps the
usual spread of voices, spread evenly over the six intents: two- and three-word keyword queries and long
rambling ones, misspellings, lowercase chat, questions and orders, tool calls written as JSON, requests to a
coding agent, review-bot, lint-bot and CI-bot comments, commit messages, pasted output (Go panics, Python
tracebacks, Java and C# exceptions, Rust panics, a Node stack, Rust and TypeScript compiler errors,
timestamped and logfmt log lines) with a line of words under it, and declarations and snippets pasted as
typed in Go, Rust, Kotlin, Java, Python, Swift, C#, TypeScript, Ruby, PHP, C++, Scala, Elixir, Haskell,
OCaml, Zig and Dart. About half its templates are plain questions with nothing pasted; the other half are
pasted things with a question under them: declarations asking where they live, who implements, extends or
calls them, what breaks if they change, what looks like them, or what they do; and pasted output asking where
the named code is declared, who else calls it, who must handle the error once it changes, where its text is
written, or why it happens. The label is always what the asker wants, not which words appear.
Two templates met another set's (``test_intent_model``) and were replaced by ones of another shape, not
reworded; none met a training template, and no filler met another set's or a training filler, so none was
renamed. A script that printed only this set's own colliding templates and fillers picked them out; no other
set's templates or fillers were read.

Its slot fillers come from five domains, and no filler is another set's: a harbour pilot station (pilot
boardings, vessel drafts, tug bookings, berth allocations), a climbing wall's route-setting team (hold
inventories, route grades, reset schedules, belay checks), a stamp dealer's shop (approval books,
perforation gauges, auction lots, album pages), a municipal snow-clearing depot (grit stock, plough routes,
shift rotas, road temperature sensors) and a violin repair workshop (soundpost adjustments, bow rehairs,
varnish touch-ups, bridge fittings). None is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "schedule_pilot_boarding",
    "checkUnderKeelClearance",
    "book_harbour_tug",
    "count_hold_inventory",
    "gradeNewRoute",
    "recordBelayCheck",
    "send_approval_book",
    "measurePerfGauge",
    "list_auction_lot",
    "reorder_grit_stock",
    "assignPloughRoute",
    "readRoadSurfaceSensor",
    "nudge_soundpost",
    "rehairBowStick",
    "fitBridgeBlank",
]
_TYPES = [
    "PilotBoardingOrder",
    "VesselDraftSurvey",
    "BerthAllocationPlan",
    "WallHoldInventory",
    "RouteGradeConsensus",
    "WallResetSchedule",
    "ApprovalBookConsignment",
    "AuctionLotDescription",
    "AlbumPageLayout",
    "GritStockLevel",
    "DepotShiftRota",
    "RoadSurfaceSensorSample",
    "SoundpostAdjustment",
    "VarnishTouchUpNote",
    "BridgeFittingTicket",
]
_ERRORS = [
    "PilotLadderUnsafeError",
    "DraftExceedsChannelDepthException",
    "TugUnavailableError",
    "BerthAlreadyAllocatedException",
    "HoldInventoryMismatchError",
    "RouteGradeDisputedException",
    "BelayCheckOverdueError",
    "ApprovalBookMissingStampException",
    "PerforationGaugeMisreadError",
    "AuctionLotWithdrawnException",
    "GritStockDepletedException",
    "PloughRouteBlockedError",
    "RoadSensorOfflineError",
    "SoundpostSlippedException",
    "BowHairTooShortError",
]
_MESSAGES = [
    "pilot boarding booked for a vessel still outside the fairway buoy",
    "declared draft deeper than the dredged depth at low water",
    "berth allocated to two ships on the same tide",
    "hold inventory counts more crimps than were ever bought",
    "route graded before any setter had climbed it",
    "belay check signed off by the climber who was being belayed",
    "approval book returned with a stamp missing from page four",
    "perforation gauge reading falls between two catalogue values",
    "auction lot closes before its viewing period has ended",
    "grit stock below what one full gritting run needs",
    "plough route crosses a bridge the plough is too heavy for",
    "road sensor reports minus forty degrees on a mild evening",
    "soundpost moved further than the adjustment sheet allows",
    "bow rehair logged with hair shorter than the stick needs",
    "varnish touch-up booked before the last coat had cured",
]
_ERROR_CODES = [
    "PLT-4412",
    "HBR-0927",
    "E_TUG_BUSY",
    "BERTH-5518",
    "WALL-3306",
    "E_BELAY_LAPSED",
    "STMP-1185",
    "E_PERF_GAUGE",
    "GRIT-6640",
    "E_PLOUGH_WEIGHT",
    "LUTH-2273",
    "E_POST_SLIP",
]
_PATHS = [
    "pilotage/boardings/boarding_order.py",
    "pilotage/drafts/DraftSurvey.kt",
    "pilotage/tugs/tug_booking.go",
    "cragroom/holds/hold_inventory.rb",
    "cragroom/grades/RouteGrade.swift",
    "cragroom/belay/belay_check.rs",
    "philately/approvals/approval_book.php",
    "philately/gauges/PerfGauge.cs",
    "philately/lots/AuctionLot.scala",
    "philately/albums/album_page.dart",
    "gritdepot/stock/grit_stock.zig",
    "gritdepot/routes/ploughRoutes.ts",
    "gritdepot/rota/ShiftRota.hs",
    "gritdepot/sensors/road_sensor.cpp",
    "luthiery/soundposts/soundpost.ml",
    "luthiery/bows/BowRehair.kt",
]
_TOPICS = [
    "pilot boardings and vessel drafts at the harbour pilot station",
    "tug bookings and berth allocations for the pilot station",
    "hold inventories and route grades at the climbing wall",
    "reset schedules and belay checks for the route-setting team",
    "approval books and perforation gauges at the stamp shop",
    "auction lots and album pages for the stamp dealer",
    "grit stock and plough routes at the snow-clearing depot",
    "shift rotas and road temperature sensors for the gritting depot",
    "soundpost adjustments and bow rehairs at the violin workshop",
    "varnish touch-ups and bridge fittings in the violin repair workshop",
]
_TASKS = [
    "work out whether a vessel's draft leaves enough water under the keel at its berth",
    "pick how many tugs a ship needs from its length and the wind speed",
    "grade a new route from the setters' votes",
    "spread a wall reset across the setters so no panel is left half-stripped",
    "turn a count of perforation holes into a gauge figure",
    "split a grit delivery across plough routes by road length",
    "build a shift rota where nobody works two night shifts running",
    "price a bow rehair from the bow type and the hair length",
]
_EVENTS = [
    "a pilot boat cannot reach a vessel because the swell is too high",
    "two setters strip the same panel on reset night",
    "an approval book comes back with stamps missing",
    "the road sensor on the hill stops reporting in the middle of a cold snap",
    "the grit barn runs dry halfway through a night shift",
    "a soundpost falls over while the violin is being restrung",
]
_SNIPPETS = [
    "for _, v := range vessels {\n\tif v.DraftM > berth.MaxDraftM {\n\t\trefused = append(refused, v.IMO)\n\t}\n}",
    "for hold in inventory:\n    if hold.count < hold.min_stock:\n        reorder.append(hold.sku)",
    "let overdue: Vec<&BelayCheck> = checks\n    .iter()\n    .filter(|c| c.last_signed.elapsed() > MAX_AGE)\n"
    "    .collect();",
    "for (Lot lot : auction.getLots()) {\n    if (lot.getReserve() > lot.getTopBid()) {\n"
    "        unsold.add(lot.getNumber());\n    }\n}",
    "let due = rehairs.filter { $0.promisedOn <= today && !$0.collected }",
    "routes.select(&:needs_reset?).sort_by(&:last_reset_on)",
    "const cold = samples\n  .filter((s) => s.surfaceC < 0.5)\n  .map((s) => s.sensorId);",
    "var bookedTugs = tugs\n    .Where(t => t.Bookings.Any(b => b.Overlaps(window)))\n    .Select(t => t.Name)\n"
    "    .ToList();",
    "final blankPages = album.pages.where((p) => p.slots.every((s) => s.stamp == null)).toList();",
    "SELECT route_id, SUM(grit_kg) AS spread\nFROM gritting_runs\nWHERE run_date = CURRENT_DATE\nGROUP BY route_id;",
]
_BODIES = [
    "def under_keel_m(depth_m, draft_m, squat_m):\n    return depth_m - draft_m - squat_m",
    "func tugsNeeded(loaM int) int {\n\tif loaM > 250 {\n\t\treturn 3\n\t}\n\treturn 1 + loaM/150\n}",
    "fn holds_per_route(grade: u8) -> u8 {\n    30u8.saturating_sub(grade * 2).max(8)\n}",
    "fun perfGauge(holes: Int, edgeMm: Double): Double = holes / edgeMm * 20.0",
    "fn gritKg(routeKm: u32, gramsPerM2: u32) u32 {\n    return routeKm * 7 * gramsPerM2;\n}",
    "double bridgeHeightMm(double projectionMm) {\n  return projectionMm + 6.5;\n}",
    "function hairsNeeded(stickLenMm) {\n  return Math.round(stickLenMm * 0.24);\n}",
    "function lotEstimate(float $catalogue, int $grade): float {\n    return $catalogue * [0.1, 0.25, 0.4][$grade];\n}",
    "def rotaHours(rota: List[Shift]): Double = rota.map(s => s.hours).sum",
    "let rehair_price = function `Violin -> 60 | `Viola -> 70 | `Cello -> 85",
]
_CODE_LINES = [
    "vessel.needs_second_pilot = vessel.loa_m > 200 or vessel.is_tanker",
    "if tug.BookedUntil.After(eta) { return errTugBusy }",
    "let grade = votes.iter().sum::<u32>() / votes.len() as u32;",
    'val wallState = if (holdsOff > holdsOn) "stripping" else "setting"',
    "book.overdue = Date.today > book.sent_on + 21 unless book.returned?",
    "lot.status = bids.length > 0 ? 'sold' : 'passed';",
    "$page['free_slots'] = $page['slots'] - count($page['stamps']);",
    "routes = Enum.sort_by(routes, & &1.priority)",
    "var frosty = sample.SurfaceC < 0.5 && sample.DewPointC > sample.SurfaceC;",
    "final gap = bridge.footWidthMm - top.archWidthMm;",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "{T} declared where? grep gives me forty hits and most of them are comments",
        "i keep landing on the test double for {fn}, where is the real one defined",
        "whre is the {err} class writen, need to add a field to it",
        '{{"action": "goto_definition", "symbol": "{qual}", "workspace": "monorepo"}}',
        "agent: open the source file that declares {err} and paste its first twenty lines here, don't edit anything",
        "data class {T}(val id: String)\nkotlin: which file holds the canonical declaration? there seem to be two "
        "copies in different gradle modules",
        "panic: runtime error: invalid memory address or nil pointer dereference\n"
        "[signal SIGSEGV: segmentation violation]\n\ngoroutine 1 [running]:\nmain.{Fn}(...)\n\t{path}:{n} +0x1c\n\n"
        "where is {Fn} defined now? the path in the trace no longer exists on main",
        "Unhandled exception. {err}: {Msg}\n   at {qual}() in {path}:line {n}\n\nwhich file declares {err}? I want "
        "to check whether it derives from InvalidOperationException",
        "{path}({n},14): error TS2304: Cannot find name '{T}'.\n\nwhere is {T} supposed to be declared so I can "
        "import it from there?",
        "chore: move {T} next to its only consumer\n\nbefore I do that, where is {T} defined at the moment?",
        "error[E0425]: cannot find function `{fn}` in this scope\n  --> {path}:{n}:5\n\nwhere's {fn} declared? "
        "it compiled fine yesterday",
        "picking up a ticket on {topic} and the spec keeps referring to {T} as if everybody knows it, but nobody "
        "has told me which package it's in; where is that type actually declared, the source file and not the "
        "docs page",
        "jump to the {err} declaration pls",
        "protocol {T}Providing {{\n    func {fn}() async\n}}\nswift: where is this protocol declared? jump to "
        "definition lands in a generated interface",
        "[lint-bot] F821 undefined name '{fn}' in {path}:{n}. Where is {fn} defined, so the right import can be added?",
        "val {fn} : {T}.t -> unit\nocaml: which .ml file carries the implementation that matches this line of the "
        ".mli?",
    ],
    "find_references": [
        "subclasses of {err} across the services",
        "before I deprecate {fn}, can you tell me every module that still calls it, the cron scripts included?",
        "were is {T} imported from other packages, lookng for all the importers",
        '{{"tool": "references", "symbol": "{T}", "scope": "workspace", "group_by": "file"}}',
        "agent, list every place that builds a {T} directly instead of going through the factory; just the list, "
        "don't fix them",
        "abstract class {T} {{\n    abstract public function {fn}(): void;\n}}\nphp: which concrete classes "
        "extend this one?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in run\n    {fn}(order)\n{err}: {msg}\n\n'
        "apart from this caller, who else calls {fn}? they'll all get the same error",
        "Caused by: {err}: {msg}\n\tat {qual}({T}.java:{n})\n\nfind every caller of {qual} so we know who else "
        "runs into this",
        "{n}:05:12.318 [depot-worker] WARN {ecode} raised in {fn}\n\nwhich other jobs call {fn}? the rota job "
        "is surely not the only one",
        "export function {fn}(input: {T}): void\nts: which files import {fn}, barrel re-exports included?",
        "pub trait {T}Source {{\n    fn {fn}(&self) -> Result<(), Error>;\n}}\nrust: which types impl this trait "
        "across the workspace?",
        "[review-bot] {fn} gained a new keyword argument in this PR; please list every call site that still "
        "passes its arguments positionally",
        "deprecate {T}\n\nwho still uses it? I need the list for the release notes",
        "the person who wrote {path} has left, and before I touch anything for {topic} I'd like the list of "
        "things that hook into it: who calls its functions, who imports it, who subclasses its classes, "
        "scripts and notebooks included",
        "defprotocol {T}.Printable do\nelixir: where is this protocol implemented? looking for every defimpl",
        "callers of {qual} plz",
    ],
    "impact_analysis": [
        "making {fn} async -- blast radius?",
        "if we shorten the text of {err}, do any tests or alert rules depend on the old wording?",
        "wat happens downstream if {T} loses its no-arg constructor",
        '{{"request": "impact", "symbol": "{qual}", "proposed": "rename", "depth": 3}}',
        "agent: estimate what breaks if we move {path} into a package of its own; list the importers that need new "
        "paths and anything loaded by file name, no edits",
        "case class {T}(id: Long, note: Option[String])\nscala: if note stops being optional, what stops "
        "compiling and which json decoders break?",
        "public interface {T} {{\n    void {fn}(String id);\n}}\njava: adding a second parameter here, which "
        "implementations and callers have to change?",
        "thread 'main' panicked at {path}:{n}:17:\ncalled `Result::unwrap()` on an `Err` value: {err}\n\n"
        "if {fn} hands this error back instead of panicking, which callers need to start handling it?",
        'level=error ts=2025-01-09T05:{n}:03Z msg="{msg}" code={ecode}\n\nif {ecode} gets renumbered, which '
        "code matching on the old value will break?",
        "export enum {T} {{ Pending, Done }}\nts: inserting a member in the middle shifts the numbers; what stored "
        "data or switch statements would that break?",
        "[ci-bot] {path} changed in this PR and {n} downstream targets depend on it; which of them are at risk "
        "and must be rerun?",
        "perf: cache {fn} results for an hour\n\nwhich callers would be affected by stale values?",
        "we're thinking of moving {topic} off the old scheduler, and {fn} is wired into it in ways nobody "
        "remembers, so before the meeting I want a rough list of everything that behaves differently if {fn} "
        "stops running at midnight: reports, exports, other jobs",
        "public virtual async Task {Fn}Async({T} item)\nc#: if this stops being virtual, which overrides break?",
        "chnaging the return type of {fn}, what is afected",
        "class {T} {{\n  final int count;\n  const {T}(this.count);\n}}\ndart: if count becomes nullable, which "
        "widgets and serializers need touching?",
    ],
    "exact_match": [
        "every literal {ecode} in config and code pls, next to {fn} or not",
        "is the exact sentence '{msg}' hardcoded anywhere, or does it come from a translations file?",
        "find teh string {ecode} verbatim under {path}, case matters",
        '{{"tool": "grep", "pattern": "{ecode}", "fixed": true, "paths": ["{path}"]}}',
        'agent: search for the exact text "{Msg}" across the repo, tests and fixtures included, and print the '
        "matches with line numbers",
        "panic: {msg}\n\ngoroutine 7 [running]:\n{qual}()\n\t{path}:{n} +0x88\n\nfind where that exact panic text "
        "is written in the source",
        "{n}:41:07 depot-sync ERROR {ecode}: {Msg}\n\nwhich file writes this exact log line?",
        'throw new {err}("{Msg}");\njava: grep for this throw with the same message, every occurrence',
        "regex: ({ecode}|{err}) in all .yaml and .sql files",
        '[lint-bot] magic string "{Msg}" appears more than once; report every exact occurrence',
        "i18n: pull '{msg}' into the catalog\n\nwhere does that exact string show up today?",
        "someone from {topic} sent a screenshot with the words '{msg}' and I just need the places in the code "
        "that contain that text exactly, not things that mean the same, because I want to know which screen "
        "printed it",
        '"{ecode}" exact hits, {n} or more expected',
        'raise {err}, "{Msg}"\nruby: find this raise with exactly that text',
        "rg -F '{Msg}' -- which files would match?",
        "console.error(`{ecode} ${{id}}`) in {fn}\nfind that template literal exactly as written",
    ],
    "find_similar": [
        "{fn} lookalikes in other services?",
        "is there already something that does this: {task}? I'd rather reuse it than add a new one in {path}",
        "anythng like {T} but for the other team, a class of a similar shape",
        '{{"tool": "code_search", "mode": "nearest_neighbours", "snippet_of": "{fn}", "exclude": "{path}"}}',
        "agent: I pasted {fn} in the chat earlier; find functions in the repo that compute the same thing under "
        "different names and show me the three closest",
        "{body}\n\nwe have this in {path}; is the same calculation written somewhere else too?",
        "{snippet}\n\nany other filter like this over lists of {T}?",
        "{code}\n\nfrom {fn}; lines doing the same thing in other files? grep won't catch renamed variables",
        "{fn} :: [{T}] -> Int\n{fn} = length . filter isDue\nhaskell: anything else counting due items this way?",
        "fun List<{T}>.{fn}() = groupBy {{ it.day }}.mapValues {{ it.value.size }}\nkotlin: other "
        "group-and-count extensions like this one?",
        "[review-bot] the new {fn} duplicates logic that probably exists already; link any near-identical functions",
        "feat: add {fn}\n\nbefore merging, is there an existing function that already does this?",
        "{task}: I've been doing that by hand in a spreadsheet for {topic} and now want code, but I'd bet somebody "
        "wrote it already somewhere in this repo, so find me anything that does roughly that",
        "fn {fn}(items: []const {T}) usize {{\n    var n: usize = 0;\n    for (items) |it| {{\n        if (it.due) n "
        "+= 1;\n    }}\n    return n;\n}}\nzig: similar counting loops elsewhere?",
        "def {fn}(rows):\n    return sorted(rows, key=lambda r: (r.priority, r.created_at))\npython: other sorts "
        "on the same two keys?",
        "same idea as {path}, written up elsewhere? maybe in another language",
    ],
    "understand_code": [
        "eli5 the locking in {fn}, why two mutexes?",
        "how does {qual} decide which record wins when two of them overlap?",
        "cn someone explain {T}, the fields make no sense to me",
        '{{"prompt": "explain {qual} step by step", "audience": "new hire"}}',
        "agent, walk me through what happens from the moment {fn} is called until it writes to the database, "
        "reading only {path}",
        "{body}\n\n(from {path}) what does this return for zero, and for a negative input?",
        "{snippet}\n\nwhat is this doing with {T}? explain it like I'm new",
        "{code}\n\nwhat does this line do in {fn}?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n'
        "RecursionError: maximum recursion depth exceeded\n\nwhy does {fn} recurse forever on this input?",
        "{err}: {Msg}\n\tat {qual}({T}.java:{n})\n\nwhy is this thrown when the input looks valid to me?",
        "Error: {msg}\n    at {fn} ({path}:{n}:3)\n    at async Promise.all (index 0)\n\nwhy does this only "
        "happen when two requests arrive together?",
        "[review-bot] the early return in {fn} is not obvious; please explain which case it guards against",
        "docs: describe how {T} is computed\n\nhow is it computed, actually?",
        "I'm covering {topic} while the usual person is away, and I'd like to understand what the system does "
        "when {event}: which code runs first, what it retries, and what the people on shift would see",
        "def handle_info(:tick, state), do: {{:noreply, {fn}(state)}}\nelixir: how does this tick loop work, and "
        "what schedules the next tick?",
        "template <typename T> auto {fn}(T&& x) -> decltype(auto)\nc++: what does decltype(auto) buy us here?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fortyninth", seed=4949)

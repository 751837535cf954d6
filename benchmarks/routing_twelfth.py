"""A twelfth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The ten earlier held-out sets (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``, ``routing_eighth.py``,
``routing_ninth.py``, ``routing_tenth.py``, ``routing_eleventh.py``) have all been read while routing
changes were weighed, so a change chosen on them is partly chosen on its own test. These templates were
written in one sitting by another hand, from the shapes real requests take in places the earlier sets
did not lean on: GitHub issue titles that ask where a declared function is actually implemented ("I
found the declaration in the header but not the body") or whether anything still uses a member, the
Language Server Protocol's own request names (``textDocument/definition``, ``textDocument/references``,
``callHierarchy/incomingCalls``) and the Visual Studio Call Hierarchy manual (callers of callers),
Sourcegraph's query syntax (``type:symbol``, ``patternType:literal``), Elixir function captures
(``&name/1``), IntelliJ Structural Search and Semgrep's rule-writing guide (code shaped like a pattern,
whatever its names), guides to finding duplicate-intent functions (the same job done under another
name), log-search tutorials for Loki (``|=`` line filters), Splunk (quoted phrases, ``TERM()``) and
plain ``grep -F``, issue threads that paste an Elixir ``** (FunctionClauseError)`` trace, a Dart
``Unhandled exception:`` trace with ``#0`` frames or the tail of a Python traceback, syslog and JSON
log lines, postmortems of a cascade where a removed field broke a service that never declared it used
it, and codebase onboarding guides and code tours (the lay of the land, the entry point, where data
comes from and where it goes, the gotchas), some of them written by people who are not native English speakers.
Short requests were taken to outnumber long wordy ones, as they do where people type into a search box
or an agent calls a tool. The shapes were turned into templates; no sentence was copied. Questions and
imperatives, terse keyword queries and long wordy ones, typos, non-native English, prose mixed with
code, definition syntax of several languages (Elixir ``def`` and ``defmodule``, Dart ``Future<T>``,
Lua ``function M.x(``, a C# property getter, a Kotlin ``sealed class``), pasted stack traces and log
lines, pasted code with and without words, markdown code spans and fenced blocks. No classifier was
asked any of them while they were written; a template that met a training one or another set's
(``test_intent_model``) was replaced, not reworded. Its slot fillers come from domains no other set uses
(a ferry operator's ticketing and vehicle deck loading, a hospital's radiology scheduling with its
modality worklists and PACS, a coffee roastery's roast profiles and green-bean inventory, an amateur
radio contest logger), and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "assign_vehicle_lane",
    "computeDeckLoadTrim",
    "void_foot_passenger_ticket",
    "rebookCancelledSailing",
    "book_mri_slot",
    "pushModalityWorklist",
    "route_study_to_pacs",
    "flagContrastAllergy",
    "log_first_crack",
    "applyRoastProfile",
    "deduct_green_bean_lot",
    "computeRoastWeightLoss",
    "score_contest_qso",
    "detectDupeContact",
    "parse_cabrillo_header",
    "countBandMultipliers",
]
_TYPES = [
    "FerrySailing",
    "VehicleDeckLane",
    "DeckLoadPlan",
    "PassengerTicket",
    "ModalityWorklistItem",
    "ImagingStudy",
    "RadiologySlot",
    "RoastProfile",
    "GreenBeanLot",
    "RoastBatch",
    "CuppingScore",
    "ContestQso",
    "CabrilloLog",
    "BandMultiplier",
]
_ERRORS = [
    "CaseClauseError",
    "CyclicInitializationError",
    "InputMismatchException",
    "WithClauseError",
    "ContextMarshalException",
    "ClosedQueueError",
]
_MESSAGES = [
    "vehicle length exceeds the space left in this deck lane",
    "sailing is already closed for vehicle check-in",
    "ticket was scanned at the boarding gate twice",
    "worklist query returned no scheduled procedure step",
    "study instance uid is already archived in pacs",
    "patient has an unresolved contrast allergy flag",
    "bean temperature fell below the turning point twice",
    "green coffee lot has too little stock for this batch",
    "roast profile revision is locked by another roaster",
    "duplicate contact on the same band and mode",
    "received exchange does not match the contest rules",
]
_ERROR_CODES = ["EBADRQC", "EKEYREJECTED", "E0505", "23P01", "0x80070490", "ELIBBAD"]
_PATHS = [
    "ferry/deck/lane_allocator.go",
    "ferry/tickets/FareCalculator.cs",
    "ferry/app/lib/boarding_pass.dart",
    "radiology/worklist/ModalityWorklistService.java",
    "radiology/pacs/study_router.ex",
    "radiology/scheduling/slot_booking.rb",
    "roastery/profiles/roast_curve.py",
    "roastery/inventory/GreenLotRepository.kt",
    "roastery/firmware/rate_of_rise.lua",
    "hamlog/contest/dupe_check.rs",
    "hamlog/ui/qsoEntry.ts",
]
_TOPICS = [
    "vehicle deck loading plans",
    "the check-in cut-off before each sailing",
    "fares for vehicles priced by length",
    "the modality worklist feed to the scanners",
    "routing finished imaging studies to PACS",
    "contrast allergy screening before a CT appointment",
    "roast profile curves and first-crack timing",
    "green-bean lot tracking in the roastery",
    "cupping scores for each roast batch",
    "dupe checking in the contest logger",
    "multiplier scoring for a radio contest",
]
_TASKS = [
    "convert a Maidenhead locator to latitude and longitude",
    "compute rate of rise from bean temperature samples",
    "pack vehicles into deck lanes by length and axle weight",
    "split an opening window into fixed-length appointment slots",
    "work out the weight lost between green and roasted coffee",
    "normalize a callsign by stripping its portable suffix",
]
_EVENTS = [
    "a sailing is cancelled after vehicles were already given lanes",
    "the PACS archive goes offline while a CT scanner is still sending images",
    "a roaster loses power halfway through a batch",
    "two operators log the same station within seconds during the contest",
    "a patient turns up for an MRI slot that was booked twice",
]
_SNIPPETS = [
    "case Repo.get(Study, uid) do\n  nil -> {:error, :not_found}\n"
    "  %Study{archived: true} -> {:ok, :skipped}\n  study -> Pacs.send(study)\nend",
    "final lane = lanes.firstWhere(\n  (l) => l.freeMetres >= vehicle.lengthM,\n  orElse: () => null,\n);",
    "for i = 2, #samples do\n  local dt = samples[i].t - samples[i - 1].t\n"
    "  ror[i] = (samples[i].bt - samples[i - 1].bt) / dt * 60\nend",
    'key := fmt.Sprintf("%s|%s|%s", q.Call, q.Band, q.Mode)\n'
    "if _, seen := worked[key]; seen {\n\treturn ErrDupe\n}\nworked[key] = q",
    "lot = GreenLot.lock.find(lot_id)\nraise InsufficientStock if lot.kg < batch.charge_kg\n"
    "lot.update!(kg: lot.kg - batch.charge_kg)",
]
_BODIES = [
    "def weight_loss_pct(green_g, roasted_g) do\n  Float.round((green_g - roasted_g) / green_g * 100, 1)\nend",
    "double laneFill(List<Vehicle> vs, double laneM) =>\n    vs.fold(0.0, (sum, v) => sum + v.lengthM + 0.5) / laneM;",
    "function M.locator_to_latlon(loc)\n  local a, b = loc:byte(1, 2)\n"
    "  return (b - 65) * 10 - 90, (a - 65) * 20 - 180\nend",
    'public TimeSpan SlotLength => Modality == "MR"\n    ? TimeSpan.FromMinutes(45)\n    : TimeSpan.FromMinutes(15);',
]
_CODE_LINES = [
    "lane.free_metres -= vehicle.length_m + GAP_M",
    "worklist.add(new ModalityWorklistItem(accession, aet, scheduledAt));",
    "qso_points = 3 if dx_continent != my_continent else 1",
    "val lossPct = (greenG - roastedG) / greenG * 100",
    'Logger.warn("contrast flag unresolved", patient_id: pid)',
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "def {fn}(%{T}{{",
        "Future<{T}> {fn}(",
        "function M.{fn}(",
        "sealed class {T} {{",
        "defmodule {T} do",
        "type:symbol {T}",
        "textDocument/definition for {fn}",
        "where is the getter of the C# property {qual} defined",
        "{T} declared where",
        "jump to source of {fn}",
        "in wich crate is `fn {fn}` defnied",
        "where is {fn} implemented? i only ever find calls to it",
        "the header declares {fn} but where is the actual body of it",
        "which file defines the class {T}",
        "pls show me where the {T} struct is first declared, I want read its fields",
        "I keep landing on call sites of {qual} and never on the function itself, which file is it written in?",
    ],
    "find_references": [
        "textDocument/references {fn}",
        "callHierarchy/incomingCalls {qual}",
        "captures of &{fn}/1 across the app",
        "does {path} call {fn} anywhere",
        "{fn} usages",
        "which tests call {qual}",
        "{T} referenced by which .ex files",
        "find all call sites of {qual}, tests included",
        "is anything still using {fn}? looks unused to me",
        "callers of callers of {fn}, two levels up",
        "which handlers pass a {T} into {fn}",
        "where does code outside its own module write to a {T} field",
        "{fn} is referenced from where",
        "every place a {T} is built with its constructor",
        "pls i need list of all functions that call {fn}, the IDE show me nothing",
        "no analysis needed, just give me each line in the codebase where {qual} gets invoked today",
    ],
    "impact_analysis": [
        "what breaks if {T} is renamed",
        "blast radius: removing {fn}",
        "if I add a required param to {fn}, what has to change",
        "consequences of changing {qual} to return an optional",
        "impact of bumping the timeout in {path}",
        "is it safe to delete {path}?",
        "{fn} will now raise {err} on bad input. what downstream code needs a rescue for it",
        "downstream effects of making {T} immutable",
        "I'm changing how {topic} works, which other modules will feel it",
        "risk of reordering the fields of {T}? pretty sure it gets serialized somewhere",
        "if {fn} gets two seconds slower, which user flows suffer",
        "ripple effect of deprecating {qual}",
        "can i change signature of {fn} without breaking the code of other teams?",
        "what would fail downstream if the {T} table drops a column",
        "breaking change? moving {fn} out of {path}",
        "Planning to fold {T} into another type next sprint: list everything that depends on it and would "
        "need changing, tests included",
    ],
    "exact_match": [
        "** ({err}) {msg}\n    (app 0.4.1) {path}:{n}: {qual}/2",
        "Unhandled exception:\n{err}: {Msg}\n#0      {qual} ({path}:{n}:7)",
        '  File "{path}", line {n}, in {fn}\n    {code}\n{err}: {Msg}',
        "<134>Mar  3 04:{n}:11 deckhost app[812]: {msg}",
        '{{"severity":"ERROR","message":"{Msg}","code":"{ecode}"}}',
        '{{app="backend"}} |= "{msg}"',
        'index=app "{msg}" TERM({ecode})',
        'where does the string "{msg}" come from',
        'patternType:literal "{code}"',
        "grep -F '{msg}'",
        "exact occurrences of {ecode}",
        "rg -w {fn} -t ex",
        "this text shows up in our logs: {Msg} -- which source line prints it",
        "the error code {ecode} is hardcoded somewhere, find it",
        'search "{msg}" case-sensitive, exact string only',
        'someone know in which file is this log message? "{msg}"',
    ],
    "find_similar": [
        "semgrep-style: find code shaped like this\n{snippet}",
        "anything in the codebase resembling this?\n```\n{body}\n```",
        "has anyone already written code to {task}?",
        "near-duplicate of {fn}?",
        "find functions doing the same job as {qual} under a different name",
        "{snippet}\n\nsame logic exists elsewhere?",
        "structural search for this pattern, any variable names: `{code}`",
        "is {path} duplicated in another service with small changes",
        "similar to {fn} but for {T}",
        "duplicate-intent functions to {task}",
        "```\n{body}\n```\nlooks familiar, find the others like it",
        "code like `{code}` in other modules",
        "any lua function that does what {fn} does?",
        "i think this code is copy in many place, can you find the similar ones?\n{snippet}",
        "which other handlers follow the same pattern as {fn}",
        "DRY check: where else is this logic repeated\n{body}",
    ],
    "understand_code": [
        "tl;dr of {topic}?",
        "trace the path one request takes through {path}",
        "suppose {event}: which component notices first and what does it do",
        "why does {fn} take a lock first?",
        "what is this function doing, step by step?\n{body}",
        "what's the purpose of {T}",
        "walk me through {topic}, I'm on call tomorrow",
        "what are the main pieces of {topic} and how do they talk to each other",
        "why was {topic} built this way and not with a queue?",
        "{path}: what is it for?",
        "lifecycle of a {T}, from creation to deletion",
        "can you explain me what do {fn}, the comments are not clear",
        "how is error handling done in {topic}",
        "what are the gotchas in {topic}",
        "how does {topic} work under the hood",
        "I'm new to the team and trying to build a mental model of {topic}; where does the data come from, "
        "where does it go, and what's the entry point?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "twelfth", seed=59)

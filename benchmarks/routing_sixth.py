"""A sixth held-out set for the learned routing layer, written before the routing change it judges (a
second model head over sentence vectors, more training templates) and never measured while written.

The other four held-out sets (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py``) have all been read while routing changes were weighed, so a change chosen on them
is partly chosen on its own test. These templates were written in one sitting by another hand, from the
shapes real requests take where people ask for code: question titles on developer Q&A sites ("find all
usages of", "go to definition jumps to the declaration"), issue threads of code search tools and editor
plugins (literal search of strings with special characters, escaping, fixed-string mode), IDE manuals
(Find Usages, Find All References, Peek Definition, Go to Implementation, Call Hierarchy, data flow and
duplicate analysis), the tool descriptions and example prompts of coding agents and code intelligence
servers ("search for all usages of", "what breaks if I change", "blast radius", "does a near-duplicate
already exist that I could reuse"), codebase onboarding prompts (overview, critical path, what is
load-bearing), and incident write-ups that grep the source for an error code or a log line. The shapes
were turned into templates; no sentence naming a project was copied. Questions and imperatives, terse
keyword queries and long wordy ones, typos, non-native English, prose mixed with code, definition
syntax of several languages, pasted stack traces and log lines, pasted code with and without words.
No classifier was asked any of them while they were written; a template that met a training one or
another set's (``test_intent_model``) was replaced, not reworded. Its slot fillers come from domains no
other set uses (a chess engine, a railway signalling interlocking, a public library's circulation and
catalogue, a brewery's fermentation control), and none is a training filler (``test_intent_model``
checks both). ``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "generate_legal_moves",
    "probeTranspositionTable",
    "quiesce_search",
    "score_pawn_structure",
    "makeNullMove",
    "set_route_locking",
    "releaseTrackCircuit",
    "clear_signal_aspect",
    "throw_point_machine",
    "renew_loan",
    "placeHoldRequest",
    "assign_call_number",
    "waive_overdue_fine",
    "pitch_yeast",
    "logGravityReading",
    "ramp_mash_temperature",
]
_TYPES = [
    "TranspositionEntry",
    "Bitboard",
    "MoveGenerator",
    "ZobristKey",
    "Interlocking",
    "TrackCircuit",
    "SignalAspect",
    "PointMachine",
    "LoanRecord",
    "HoldQueue",
    "PatronAccount",
    "FermentationVessel",
    "MashSchedule",
]
_ERRORS = [
    "RecursionError",
    "InterruptedException",
    "NumberFormatException",
    "UnboundLocalError",
    "EOFError",
    "NegativeArraySizeException",
]
_MESSAGES = [
    "illegal move: king left in check",
    "transposition table probe returned a stale key",
    "route cannot be set while a conflicting route is locked",
    "track circuit reports occupied with no train in section",
    "point machine failed to detect in reverse",
    "lamp proving mismatch on signal head",
    "patron has reached the maximum number of loans",
    "hold request expired before pickup",
    "item barcode is not in the catalogue",
    "fermenter above setpoint for thirty minutes",
    "original gravity missing for this batch",
]
_ERROR_CODES = ["EMFILE", "ENOTEMPTY", "EINTR", "SIGFPE", "E0277", "ECHILD"]
_PATHS = [
    "engine/search/quiesce.cpp",
    "engine/movegen/bitboard.rs",
    "interlocking/routes/locking.py",
    "signalling/aspects/SignalController.java",
    "library/circulation/loans.rb",
    "library/catalogue/call_numbers.py",
    "brewhouse/fermentation/vessel.go",
]
_TOPICS = [
    "move ordering in the search",
    "the transposition table",
    "endgame tablebase probing",
    "route locking and release",
    "track circuit occupancy",
    "signal aspect sequencing",
    "overdue fine calculation",
    "the hold queue",
    "interlibrary loan requests",
    "fermentation temperature control",
    "mash step scheduling",
]
_TASKS = [
    "count the set bits in a 64-bit integer",
    "parse a FEN string into a board",
    "compute a due date that skips library holidays",
    "convert specific gravity readings to alcohol by volume",
    "verify the check digit of a barcode",
    "interpolate between two temperature setpoints",
]
_EVENTS = [
    "a train enters a section whose route is still locked",
    "a patron returns a book that someone else has on hold",
    "the engine runs out of clock mid-search",
    "a fermenter's cooling jacket stops responding",
    "the same position occurs for the third time",
]
_SNIPPETS = [
    "moves = [m for m in board.pseudo_legal() if not board.leaves_king_in_check(m)]\n"
    "moves.sort(key=lambda m: -mvv_lva(m))",
    "let mut bb = pawns & !FILE_H;\nwhile bb != 0 {\n    let sq = bb.trailing_zeros();\n    bb &= bb - 1;\n}",
    "for (TrackCircuit tc : route.getCircuits()) {\n    if (tc.isOccupied()) {\n        return false;\n    }\n}",
    "overdue = loans.select { |l| l.due_on < Date.today }\n"
    "fine = overdue.sum { |l| (Date.today - l.due_on).to_i * rate }",
    "for _, v := range vessels {\n\tif v.Temp > v.Setpoint+0.5 {\n\t\tv.Cooling.On()\n\t}\n}",
]
_BODIES = [
    "def popcount(bb):\n    count = 0\n    while bb:\n        bb &= bb - 1\n        count += 1\n    return count",
    "func abv(og, fg float64) float64 {\n\tif og <= fg {\n\t\treturn 0\n\t}\n\treturn (og - fg) * 131.25\n}",
    "function dueDate(start, days, holidays) {\n  const d = new Date(start);\n  while (days > 0) {\n"
    "    d.setDate(d.getDate() + 1);\n    if (!holidays.has(d.toDateString())) days--;\n  }\n  return d;\n}",
    "int ean13_check(const char *digits) {\n    int sum = 0;\n    for (int i = 0; i < 12; i++) {\n"
    "        sum += (digits[i] - '0') * (i % 2 ? 3 : 1);\n    }\n    return (10 - sum % 10) % 10;\n}",
]
_CODE_LINES = [
    "score = -negamax(board, depth - 1, -beta, -alpha)",
    "route.lock(); signal.setAspect(Aspect.PROCEED);",
    "patron.loans.count { |l| l.overdue? }",
    "let key = zobrist[piece][sq] ^ side_key;",
    "abv := (og - fg) * 131.25",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "impl {T} for",
        "sealed trait {T}",
        "interface {T} {{",
        "{fn} :: ",
        "defp {fn}(",
        "F12 on {fn} lands on the import line, not the function itself; where does it really live",
        "Peek Definition for {qual} shows nothing, which file declares it",
        "go to declaration of {T} plz",
        "in what module {fn} is defined? i cannot find it",
        "I keep seeing {T} passed around in {path} but no import I recognise, find the file where the type "
        "itself is declared so I can read its fields",
        "defintion of {qual}",
        "locate the declaration site of symbol `{fn}` (function) and return file:line",
        "{T} declared where? grep only shows usages",
        "which file has `func {Fn}(`",
        "struct {T}: where is it defined, I need its fields",
    ],
    "find_references": [
        "Find Usages on {qual}, but across every module, not only this file",
        "show the incoming call hierarchy for {fn}",
        "who all is calling {fn} nowadays",
        "list every call site of {qual} with file and line",
        "search for all usages of the {T} type and say how each file uses it",
        "where do we instantiate {T}",
        "xrefs to {fn}",
        "refs {qual}",
        "in which places the function {fn} is called? please list all",
        "tracing a bug report, I need every place in the code that invokes {fn}, tests and scripts included, "
        "to work out which caller passes the bad argument",
        "usages of {T} outside {path}",
        "whre is {qual} called from",
        "incoming calls to {fn}, two levels up",
        "all the lines that call `{fn}(...)`, not the def",
        "places where a {T} gets constructed or passed in as a parameter",
    ],
    "impact_analysis": [
        "blast radius of renaming {fn}",
        "what will break if {qual} takes a third argument",
        "is it safe to delete {T}? nothing should depend on it but I'm not sure",
        "ripple effects of making {fn} async",
        "who is affected if {path} is deleted",
        "about to change the return type of {fn} from a list to a generator, which consumers will fail",
        "if we drop the {fn} method from {T}, what stops working",
        "transitive dependents of {T} if its constructor signature changes",
        "impact of changing {qual} to raise {err} instead of returning None",
        "if i make {fn} private, which other modules will not compile more?",
        "what is load-bearing about {T}, what falls over if its fields get renamed",
        "safe to bump the default timeout inside {fn}, or does something rely on the old value",
        "change impact report for removing {T} from {path}",
        "whta would break if {T} became immutable",
        "refactor plan: split {fn} in two; first tell me what depends on it today and would need updating",
    ],
    "exact_match": [
        'Exception in thread "main" java.lang.{err}: {Msg}\n\tat {qual}({T}.java:{n})',
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.{fn}(...)\n\t{path}:{n}",
        "rg -F '{Msg}' src/",
        "2026-11-30T02:{n}:07Z ERROR [{ecode}] {Msg}",
        'search literally for "{Msg}" (fixed string, not regex)',
        "customer ticket quotes error {ecode}, find the line that produces it",
        "where does the log line '{msg}' come from",
        'exact phrase "{msg}"',
        "incident channel: prod logs spamming `{msg}` every {n} seconds, which file prints it",
        "which file contains the string '{msg}' (exact, case sensitive)",
        'HTTP 409 response body: {{"error": "{msg}", "code": "{ecode}"}}',
        'search for the message "{Msg}", I want the exact place, not similar ones',
        "where the string {msg} is logged, please find exactly",
        "errror text '{msg}' where",
        "WARN {ecode} {msg} -- grep for this",
    ],
    "find_similar": [
        "{body}\n{code}",
        "{code}\n{snippet}",
        "find code that looks like this:\n{snippet}",
        "about to add the function below, is there already one that does the same thing?\n{body}",
        "does {fn} have a twin somewhere in another package, same logic different name",
        "other implementations of the same idea as {qual}, possibly under different names",
        "clones of {fn}, renamed variables are fine",
        "{body}\n\nlooks copy-pasted from somewhere, where is the original",
        "code like `{code}` elsewhere?",
        "we do `{code}` in {path}; find spots doing the same thing slightly differently",
        "pls find codes similar with this one\n{snippet}",
        "is there somthing like {T} already, maybe under another name",
        "I suspect the logic in {fn} was duplicated when the module was forked last year; find functions "
        "whose bodies are near-identical so we can consolidate them",
        "dedupe: functions resembling {fn}",
        "lookalikes of {path}",
    ],
    "understand_code": [
        "give me an overview of {topic}: the main pieces and how they talk to each other",
        "why does {fn} take a lock before reading, what is it protecting against",
        "what is {T} for? the name tells me nothing",
        "trace the critical path of {topic}: which steps run, in what order",
        "{event}: what does the code do then, step by step?",
        "{task}: what's our way of doing it in this project, and what are the gotchas",
        "explain the design of {topic}, why was it built like this",
        "what is the purpose of {path}",
        "please explain me how {topic} is working, i am new in the team",
        "hw does {fn} decide what to return",
        "reviewing a change to {topic} and I don't understand the invariants: what does the current code "
        "assume, and why",
        "mental model of {topic}?",
        "what's the lifecycle of a {T} object, from creation until it is discarded",
        "why `{code}` here? what is it trying to achieve",
        "the comment in {fn} says 'do not reorder', why does the order matter",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "sixth", seed=37)

"""A seventh held-out set for the learned routing layer, written before the routing change it judges (a
second model head over sentence vectors, more training templates) and never measured while written.

The five earlier held-out sets (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py``, ``routing_sixth.py``) have all been read while routing changes were weighed, so a
change chosen on them is partly chosen on its own test. These templates were written in one sitting by
another hand, in voices the other sets under-use: chat messages to a teammate (lower case, no question
mark), a coding agent's plans ("Next, I'll ...") and its tool calls' JSON arguments, code-review bot
comments, a product manager's plain-English asks, voice dictation with its spoken punctuation, and
developers writing English as a second language. The shapes came from the tool descriptions of code
intelligence servers and agent tools ("find all callers of X", "confirm nothing calls a function
before removing it", "understand impact before changing a function"), their user stories ("find all
places this function is used before refactoring"), editor and IDE manuals (call hierarchy with its
incoming and outgoing calls, Find Usages, Peek Definition), issue threads of search tools about exact
search of strings with special characters and quotes, code-review threads that ask whether a helper
already exists elsewhere, and incident chat that pastes a log line or a trace. The shapes were turned
into templates; no sentence naming a project was copied. Questions and imperatives, terse keyword
queries and long wordy ones, typos, non-native English, prose mixed with code, definition syntax of
several languages, pasted tracebacks, panics and log lines, pasted code with and without words. No
classifier was asked any of them while they were written; a template that met a training one or
another set's (``test_intent_model``) was replaced, not reworded. Its slot fillers come from domains no
other set uses (a port container terminal, an insurance claims system, a wind farm's SCADA controller,
a multiplayer game server's matchmaking), and none is a training filler (``test_intent_model`` checks
both). ``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "assign_berth_window",
    "planRestow",
    "release_customs_hold",
    "dispatch_straddle_carrier",
    "adjudicate_line_item",
    "computeClaimReserve",
    "flag_staged_collision",
    "apply_policy_deductible",
    "curtail_park_output",
    "featherBlades",
    "ack_yaw_alarm",
    "derate_for_icing",
    "form_lobby",
    "widenSkillWindow",
    "pick_relay_region",
    "backfill_open_slot",
]
_TYPES = [
    "BerthWindow",
    "StowagePlan",
    "ReeferSlot",
    "QuayCraneJob",
    "ClaimFile",
    "CoverageLimit",
    "LossAdjuster",
    "PitchDrive",
    "NacelleSensor",
    "TurbineSetpoint",
    "MatchLobby",
    "PartyTicket",
    "SkillRating",
]
_ERRORS = [
    "BerthConflictError",
    "ReeferPowerLoss",
    "ClaimAlreadySettled",
    "DeductibleMismatchError",
    "PitchActuatorFault",
    "GridCurtailmentTimeout",
    "LobbyFullError",
    "TicketExpiredError",
]
_MESSAGES = [
    "spreader twistlocks not engaged on quay crane",
    "container seal number missing at gate lane",
    "reefer setpoint drifted outside cargo tolerance",
    "claim amount exceeds the annual aggregate",
    "adjuster assignment queue is empty for region",
    "first notice of loss arrived without policy number",
    "nacelle yaw misalignment above limit",
    "rotor overspeed trip latched",
    "no lobby formed inside the skill window after widening",
    "party region ping budget exceeded",
]
_ERROR_CODES = ["EREMOTEIO", "ENOTUNIQ", "SIGTTOU", "E0433", "EKEYREVOKED", "ENOMEDIUM"]
_PATHS = [
    "terminal/yard/stacking_plan.py",
    "terminal/gate/seal_check.py",
    "claims/adjudication/line_items.py",
    "claims/fraud/collision_signals.py",
    "scada/turbines/pitch_loop.py",
    "scada/park/curtailment.py",
    "matchmaking/queue/skill_buckets.py",
    "matchmaking/relay/region_picker.py",
]
_TOPICS = [
    "quay crane sequencing",
    "yard block housekeeping moves",
    "reefer plug monitoring",
    "claim reserve estimation",
    "subrogation recovery",
    "deductible stacking across coverages",
    "turbine curtailment under grid export caps",
    "SCADA alarm shelving",
    "blade pitch control during gusts",
    "skill-based lobby forming",
    "relay region selection for a party",
    "backfilling matches after a quit",
]
_TASKS = [
    "re-stow a box between bays",
    "reopen a settled claim",
    "split a claim payout among coinsured parties",
    "derate a turbine while its blades ice up",
    "shelve a nuisance alarm for a shift",
    "put a premade party into one lobby",
    "swap a player's relay mid-queue",
]
_EVENTS = [
    "vessel departure",
    "gate-in of an export box",
    "first notice of loss",
    "adjuster reassignment",
    "grid frequency dip",
    "storm shutdown",
    "player disconnect mid-match",
    "queue timeout",
]
_SNIPPETS = [
    "for box in block.boxes_in(bay):\n    if box.reefer and not box.plugged_in:\n        alarms.append(box.number)",
    "payout = max(0, loss_amount - coverage.deductible)\npayout = min(payout, coverage.remaining_aggregate)",
    "if (windMs > cutOutMs) {\n    pitch.feather();\n    brake.engage();\n}",
    "gap := abs(a.Rating - b.Rating)\nif gap > window {\n\tcontinue\n}",
    "lobby = [t for t in tickets if t.region == region][: team_size * 2]",
]
_BODIES = [
    "def teu_count(boxes):\n    total = 0\n    for box in boxes:\n        total += 2 if box.length_ft == 40 else 1\n"
    "    return total",
    "function reserveFor(claim) {\n  let r = 0;\n  for (const line of claim.lines) {\n"
    "    r += line.estimate * line.probability;\n  }\n  return Math.round(r);\n}",
    "fn tip_speed_ratio(rpm: f64, radius_m: f64, wind_ms: f64) -> f64 {\n"
    "    if wind_ms <= 0.0 {\n        return 0.0;\n    }\n    rpm * 2.0 * PI * radius_m / 60.0 / wind_ms\n}",
    "int expected_score(int ra, int rb) {\n    double e = 1.0 / (1.0 + pow(10.0, (rb - ra) / 400.0));\n"
    "    return (int)(e * 1000);\n}",
    "def widen(window, waited_s):\n    steps = waited_s // 15\n    return min(window + steps * 50, 600)",
]
_CODE_LINES = [
    "crane.spreader.lock(twistlocks=4)",
    "raise ClaimAlreadySettled(claim.number)",
    "turbine.set_pitch(angle_deg=88.0)",
    "queue.take_window(rating=1500, spread=200)",
    "yard.move(box, to_slot=next_free(block))",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "hey where does {fn} actually live, cant find it anywhere",
        '{{"tool": "search_code", "query": "definition of {fn}", "kind": "function"}}',
        "Next, I'll locate where the {T} class is declared so I can read its fields.",
        "rust folks: which crate has `pub struct {T}` and the `impl {T} for` blocks",
        "java side, open the file that has public class {T} in it",
        "interface {T} {{   <- which file declares this",
        "{fn} :: show me the line with this type signature",
        "def {fn}( - take me to it",
        "Can someone point me to the place in the code where {fn} is written? I only need to see it.",
        "show me where the function {fn} is defined comma the real one not the test double",
        "in which file is defining the {T} type? i search but i find only the usages",
        "wher is {qual} defind",
        "[review-bot] could not resolve the declaration of `{qual}`, where is it declared",
        "func (x *{T}) {Fn}( which go file has this receiver",
        "peek definition {fn} opens a .pyi stub, where is the actual body",
        "kotlin: `data class {T}(` which module declares it",
    ],
    "find_references": [
        "who calls {fn} these days",
        '{{"tool": "find_usages", "symbol": "{qual}", "include_tests": false}}',
        "Next, I'll list every call site of {fn} across the repo.",
        "list all the modules that import {T}",
        "Which parts of our code use {T}? A list of the places is enough for me.",
        "i want see all the place from where {fn} is called, please",
        "find all references to {fn} inside {path} and everywhere else too",
        "usages of {fn} accross all services",
        "bot: is `{fn}` still called from anywhere? looks like dead code to me",
        "incoming calls of {qual}",
        "every caller of {fn}, skip the tests folder",
        "where do we construct new {T} objects",
        "who reads or writes {qual}",
        "show me all usages of {T} as a parameter type",
        "ok so {fn}, where does it get used? need the list for the wiki page",
        'MATCH (c)-[:CALLS]->(f {{name: "{fn}"}}) RETURN c.name, c.file',
    ],
    "impact_analysis": [
        "if i rename {fn} what falls over",
        '{{"tool": "impact", "symbol": "{qual}", "change": "signature"}}',
        "Next, I'll assess what depends on {T}, directly or transitively, before I delete it.",
        "We want to change how {topic} works. Which teams or services would be affected by that?",
        "blast radius of removing {qual}",
        "is it safe to make {fn} async or do callers of callers need changing too",
        "if I am changing the return type of {fn}, what other things will be broken?",
        "what breaks downstream if we change the signature of {fn} question mark",
        "wat brakes if {T} gets a new required field",
        "This PR changes `{qual}`; modules that depend on it transitively may need updates, list them.",
        "ripple effects of moving {path} into another package",
        "planning to drop {T} next sprint, how big is the fallout",
        "downstream consumers of {T} that would break on a schema change",
        "regression risk if {fn} starts raising {err} instead of returning None",
        "who is affected if the {event} handling inside {fn} changes",
        'what_breaks_if_i_change(symbol_id="{path}::{fn}#function", depth=3)',
    ],
    "exact_match": [
        'grep for "{msg}" pls, prod keeps spamming it',
        '{{"tool": "grep", "pattern": "{ecode}", "fixed_strings": true}}',
        "Next, I'll search the source for the literal log line '{Msg}'.",
        "{err}: {msg}\n    at {T}.{fn} (/srv/app/{path}:{n}:17)\n    at processTicksAndRejections",
        "2026-03-14T04:{n}:09Z ERROR [{fn}] {msg}",
        "which file prints exactly this: {Msg}",
        'I need find the exact text "{msg}" in the code, where it is written',
        "Customers see the error code {ecode} on screen. Where in our code does that exact code come from?",
        "search for the exact phrase open quote {msg} close quote",
        "literal: `{code}`",
        "serach exact string {ecode} in all repos",
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.{fn}()\n\t/srv/{path}:{n} +0x1d",
        "case sensitive, whole word: {err}",
        'the HMI alarm text says "{Msg}", need the line that emits that string',
        "rg -F '{code}'",
        'Exception in thread "main" com.terminal.{err}: {Msg}\n\tat com.terminal.{T}.{fn}({T}.java:{n})',
    ],
    "find_similar": [
        "```\n{body}\n```",
        "```py\n{snippet}\n```",
        "{body}\n??",
        "{body}\n\n^ pretty sure we have this pattern somewhere else too",
        '{{"tool": "semantic_search", "code": "{snippet}", "mode": "similar"}}',
        "Next, I'll look for existing code resembling this block before I write a new helper:\n{body}",
        "[dup-check] this block looks like it already exists elsewhere, list near-duplicates:\n{snippet}",
        "Did we already build something that can {task}? I don't want us to build it twice.",
        "there is other function doing same like this one? {snippet}",
        "find code that looks like this one colon {code}",
        "simliar implementations to {fn}",
        "anything that works like {fn} but on {T} instead",
        "is the logic to {task} copy-pasted in more than one place? find the copies",
        "clone detection for {path}",
        "same shape as `{code}` anywhere else?",
        "{body}\n\nthis again?? third copy i've seen, where are the others",
    ],
    "understand_code": [
        "can someone explain {topic} to me like im new, no rush",
        '{{"tool": "ask_codebase", "question": "how does {topic} work end to end"}}',
        "Next, I'll read through {path} to understand how {topic} is handled.",
        "In plain English, what happens in the system on a {event}?",
        "why does {fn} hold the lock while it writes",
        "what is purpose of {T}? i don't understand why we are needing it",
        "how does the {topic} part work question mark",
        "explian the flow of {topic}",
        "nit: what is `{code}` for here? not obvious from the context",
        "walk me through what {qual} does step by step",
        "what does {path} do, high level",
        "how do we {task} in this codebase",
        "{topic}: overview and gotchas",
        "what's the sequence of calls after a {event}",
        "pls summarise how {topic} fits together, im lost in it",
        "how are {path} and the {topic} code connected",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "seventh", seed=41)

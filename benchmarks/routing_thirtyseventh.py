"""A thirty-seventh held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The held-out sets up to ``routing_thirtysixth.py`` (``routing_heldout.py``, ``routing_blind.py``,
``routing_fresh.py``, ``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``,
``routing_eighth.py``, ``routing_ninth.py`` to ``routing_thirtysixth.py``) have been, or may yet be, read
while routing changes are weighed, so a change chosen on them is partly chosen on its own test; none of
their templates was looked at while this one was written (only ``routing_fifteenth.py``'s layout, as a
format). These templates were written in one sitting by another hand, from the layout alone, in shapes real
users and coding agents type: declarations as they are typed in Go (a method on a pointer receiver, asked
about), Rust (``fn`` taking ``&self``), Java (``public void``), Python (``async def`` with a typed
parameter) and TypeScript (a class that ``extends`` a generic base); output pasted from tools (a Go
goroutine panic, a Rust thread panic, Android logcat, logfmt lines, structured JSON logs, a Jest failure, a
Java ``Caused by:`` chain, cron mail subjects, Slack alert relays); tool calls written as YAML-like blocks,
command-line flags or a function call, editor motions that landed in the wrong place (Neovim's ``gd``, VS
Code's Ctrl+Shift+F), review-bot comments, and chat with an AI agent that is told what to do. Questions and
imperatives, terse keyword queries and long wordy ones, typos, non-native English, prose mixed with code,
pasted code with and without words. No classifier was asked any of them while they were written; a template
that met a training one or another set's (``test_intent_model``) was replaced, not reworded. While that was
done, the failing tests' output showed some normalised fragments of training templates and of
``routing_ninth.py``'s find_definition templates; nothing here was written from them. Its slot fillers come
from domains no other set uses (a tree surgery firm's stump grinding, felling consents and cherry picker
bookings, a ballet school's pointe shoe fittings, grade exams and showcase casting, a trampoline park's jump
sessions, safety waivers and court zones, an alpaca farm's cria register, paddock rotation and fibre clip,
an airship sightseeing operator's helium top-ups, ballonet readings and mooring mast slots), and none is a
training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "schedule_stump_grinding",
    "checkTreePreservationOrder",
    "book_cherry_picker",
    "estimateCrownReduction",
    "fit_pointe_shoes",
    "enterGradeExam",
    "cast_showcase_roles",
    "sign_jump_waiver",
    "allocateCourtZone",
    "sell_grip_socks",
    "register_cria_birth",
    "rotatePaddockGrazing",
    "grade_huacaya_fibre",
    "top_up_envelope_helium",
    "assignMooringMastSlot",
    "computeBallonetPressure",
]
_TYPES = [
    "TreeWorkOrder",
    "StumpGrindingJob",
    "FellingConsent",
    "PointeShoeFitting",
    "GradeExamEntry",
    "ShowcaseCasting",
    "JumpSession",
    "SafetyWaiver",
    "CourtZone",
    "CriaRecord",
    "PaddockRotation",
    "FibreClip",
    "AirshipFlight",
    "BallonetReading",
    "MooringMastSlot",
]
_ERRORS = [
    "CanopyClearanceError",
    "PointeFitMismatchError",
    "WaiverUnsignedException",
    "PaddockOvergrazedError",
    "BallonetOverpressureFault",
    "StumpDepthExceeded",
    "CourtZoneFullException",
]
_MESSAGES = [
    "stump grinding booked before the utility survey was returned",
    "crown reduction exceeds thirty percent of the canopy",
    "tree is under a preservation order and has no felling consent",
    "pointe shoe fitting requested for a pupil below grade five",
    "grade exam entry submitted after the exam board's closing date",
    "showcase role cast to a dancer who is not on the class register",
    "jump session oversold for the foam pit zone",
    "safety waiver signed by a minor without a guardian",
    "cria birth weight is below the neonatal threshold",
    "paddock grazed again before its forty day rest ended",
    "ballonet pressure outside the safe band for ascent",
    "mooring mast slot already held by another airship",
]
_ERROR_CODES = ["ARB-0417", "E_WAIVER_MINOR", "HLM-23", "0x8007A11C", "BLT-552", "PDK409"]
_PATHS = [
    "arbor/jobs/stump_grinding.go",
    "arbor/permits/PreservationOrderCheck.java",
    "arbor/quotes/crown_reduction.rs",
    "ballet/fittings/pointe_fitting.py",
    "ballet/exams/grade_exam_entries.rb",
    "ballet/showcase/casting.ts",
    "trampoline/bookings/jump_sessions.py",
    "trampoline/waivers/WaiverService.java",
    "trampoline/zones/court_zones.go",
    "alpaca/herd/cria_register.rs",
    "alpaca/grazing/paddockRotation.ts",
    "airship/ops/ballonet_monitor.go",
    "airship/mast/MooringMastScheduler.kt",
]
_TOPICS = [
    "stump grinding jobs and the utility checks before them",
    "tree preservation order checks before any felling",
    "cherry picker bookings for crown work",
    "pointe shoe fittings for senior ballet pupils",
    "grade exam entries at the ballet school",
    "casting the end-of-term ballet showcase",
    "jump session bookings at the trampoline park",
    "safety waivers for trampoline park visitors",
    "cria registrations on the alpaca farm",
    "paddock rotation for the alpaca herd",
    "helium top-ups and ballonet monitoring on the airship",
    "mooring mast scheduling for sightseeing flights",
]
_TASKS = [
    "estimate a tree's height from its shadow length and the sun's angle",
    "round a pupil's foot length to the nearest pointe shoe size",
    "split a jump session's capacity evenly across the court zones",
    "convert an alpaca's birth weight from pounds to kilograms",
    "correct a helium volume reading for the air temperature",
    "find the next free half-hour slot on a mooring mast",
]
_EVENTS = [
    "a stump is ground right above a buried gas main",
    "a pupil's pointe fitting is cancelled the day before her exam",
    "a visitor starts jumping without a signed waiver",
    "a cria is born in the middle of a paddock move",
    "the wind picks up while an airship is still on the mast",
    "one dancer is cast in two showcase roles that are on stage at once",
]
_SNIPPETS = [
    "for _, j := range jobs {\n\tif j.UtilitySurvey == nil {\n\t\tcontinue\n\t}\n\tqueue = append(queue, j)\n}",
    "let due: Vec<_> = herd\n    .iter()\n    .filter(|a| a.last_clipped < cutoff)\n    .collect();",
    "for pupil in pupils:\n    if pupil.grade < 5:\n        continue\n    fittings.append(book_fitting(pupil))",
    "for (Waiver w : waivers) {\n    if (w.signer().isMinor() && w.guardian() == null) {\n"
    "        rejected.add(w);\n    }\n}",
    "slots.select { |s| s.mast == mast && s.starts_at > now }\n     .sort_by(&:starts_at)\n     .first",
]
_BODIES = [
    "def shoe_size(foot_mm: float) -> float:\n    size = (foot_mm - 200) / 6.67\n    return round(size * 2) / 2",
    "func (z *CourtZone) FreeSpaces(booked int) int {\n\tif booked >= z.Capacity {\n\t\treturn 0\n\t}\n"
    "\treturn z.Capacity - booked\n}",
    "fn kg_from_lb(lb: f64) -> f64 {\n    (lb * 0.453_592 * 100.0).round() / 100.0\n}",
    "public double correctedHelium(double litres, double kelvin) {\n    return litres * 288.15 / kelvin;\n}",
]
_CODE_LINES = [
    "grind.depth_mm = max(stump.diameter_mm // 2, MIN_GRIND_DEPTH_MM)",
    "zone.capacity -= session.bookedJumpers;",
    "let rest_days = (today - paddock.vacated_on).num_days();",
    "if b.PressurePa > limits.AscentMaxPa { return ErrOverpressure }",
    "entry.fee = board.fees[entry.grade] + (LATE_FEE if entry.late else 0)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "the `func (j *{T}) {Fn}` receiver method -- which file and which line declare it",
        "fn {fn}(&self, ",
        "public void {fn}({T} ",
        "async def {fn}(request: {T}) -> ",
        "export class {T} extends AggregateRoot<",
        "tool_use: lsp.definition\n  file_hint: {path}\n  name: {fn}",
        "rg finds {fn} mentioned all over {path} and friends; I only want the single spot where it is declared",
        "gd on {fn} in neovim lands on an import line. where's the actual def?",
        "who declares the {T} struct? (the Go one, not the protobuf message)",
        "definiton of {fn} plz",
        "Claude, before you change anything: open the declaration of {fn} and tell me its parameters and return type",
        "review-bot: `{fn}` is new in this diff's callers but not in the diff itself -- link the line where "
        "it is declared so reviewers can read it",
        "We have a {T} type in the {topic} code and also a database table with that name; I want the "
        "source-code declaration of the type, the one listing its fields, not the migration",
        "{qual} :: where is it defined?",
        "show me the line that says `fn {fn}` or `def {fn}` or `func {Fn}`, whichever language it ended up in",
        "the trace bottoms out in {qual} -- take me to the file where that method's body is written",
    ],
    "find_references": [
        "xref {fn} --direction=in --format=file:line",
        "lsp.references symbol={T} includeDeclaration=false",
        "grep-but-smart: every call site of {fn}, skipping comments and strings",
        "before I open a ticket: how many places construct a {T}? list them",
        "{path} exports {fn}; who imports it",
        "agent task: enumerate the handlers that invoke {qual} and paste file:line for each one",
        "does anything besides {path} call {fn}?",
        "usages pls -- {T}",
        "reviewbot: {fn} changed in this diff; find all of its call sites so each owner can be pinged",
        "where is {T} instantiated or handed in as an argument",
        "for the {topic} migration I need every place that calls {fn}, with file and line",
        "which of our Go services call {Fn}",
        "whoo calls {fn}?? cant find any",
        "every test file that mentions {T}",
        "list the call sites of {fn} that pass it a {T} built inline",
        "{fn} <- callers, transitively, two levels up",
    ],
    "impact_analysis": [
        "if `fn {fn}(&self)` becomes `fn {fn}(&mut self)`, which call sites stop compiling",
        "adding a required field to {T}: what breaks downstream?",
        "what fails if {path} gets moved into its own package",
        "proposal: {fn} throws {err} instead of returning null. fallout?",
        "ripple effect of deleting {qual}",
        "impact check before merge: {fn} now rounds differently; who relies on the old result",
        "We are changing the units of a numeric field on {T} from pounds to kilograms -- which reports, exports "
        "and callers would be affected?",
        "how risky is making {fn} async? which callers and tests would need touching",
        "agent: assess the downstream impact of removing the default argument from {fn} and report what breaks",
        "if code {ecode} is retired and {fn} stops emitting it, which alerts or callers depend on it",
        "what would break if {T} became immutable",
        "we are reworking the ordering logic for {topic}; if {fn} returns a different order, what is impacted",
        "wat breaks if i delete {fn}",
        "`public void {fn}(` -> `public Optional<{T}> {fn}(`: which callers need updating",
        "danger zone? renaming {path} and everything that imports it -- how far does the change reach",
        "Ops wants {fn} to fail closed when {event}; before we flip it I need to know which flows, jobs and "
        "dashboards downstream would behave differently",
    ],
    "exact_match": [
        "panic: {msg}\n\ngoroutine {n} [running]:\nmain.{Fn}(...)\n\t{path}:{n} +0x1d4",
        "thread 'main' panicked at '{msg}', {path}:{n}:5\nwhere is that panic text in the source",
        "E/{T}: {err}: {Msg}\n    at {qual}({path}:{n})",
        'level=error ts=2024-05-{n}T06:12:00Z caller={path}:{n} msg="{msg}"',
        "find the literal `{ecode}` in the codebase (case-sensitive, no fuzzy matching)",
        "git grep -n --fixed-strings -e '{Msg}' -- '*.go' '*.py' '*.rs'",
        '{{"level":"error","code":"{ecode}","message":"{Msg}"}} <- which line emits this json',
        'jest: expect(received).toThrow("{Msg}") -- where is that exact message thrown',
        'search_code(query="{msg}", mode="literal")',
        "Slack alert relayed from #ops: ':rotating_light: {err} - {msg}'. find the source string exactly as written",
        "who prints '{Msg}'? copied it verbatim from the console",
        'literal search for `raise {err}("{msg}")`',
        "cron mail subject: [{ecode}] {Msg} -- which file has that text verbatim",
        'Ctrl+Shift+F "{msg}" gives nothing in VS Code, maybe it is split across lines? find it literally',
        "{err} at {qual} ({path}:{n})\nCaused by: {Msg}\nsearch for the Caused by text",
        "exact phrase '{msg}' -- every occurrence, tests included",
    ],
    "find_similar": [
        "similar blocks to this one?\n{snippet}",
        "{body}\n\nsimilar functions? same shape, any language, the {topic} code especially",
        "code that resembles {fn}",
        "we probably have three versions of {fn} by now -- find its siblings",
        "agent: before I add this helper to the {topic} code, search for equivalent implementations\n{body}",
        "is there an existing helper that can {task}? want something similar to reuse before adding one to {path}",
        "jscpd-like: blocks duplicated from {path}",
        "find code like `{code}` elsewhere in the repo",
        "reviewer: this loop in {path} smells copy-pasted:\n{snippet}\nwhere else does it appear, modulo renames?",
        "analogues of {T} in other services (similar fields and methods)",
        "functions that look like {fn} but for some other entity",
        "more of this pls\n{code}\n(other lines written the same way as in {path})",
        "similar implementation to {qual}?",
        "same algorythm as {fn} somewhere else? i think someone wrote it twice",
        "is there a rust port of {fn}? find functions that do what it does, in any language",
        "cluster the near-identical handlers to {fn} in {path}'s package",
    ],
    "understand_code": [
        "explain {fn} as if I had never seen this codebase, two sentences max",
        "{body}\n\n(from {path}) what does this compute, and why that magic number",
        "narrate {topic} as a sequence of steps, from the first request to the last database write",
        "trace through {path}: what happens when {event}",
        "agent: summarize {path} in five bullets for the onboarding doc",
        "why does {fn} take a whole {T} rather than just an id",
        "What problem does {T} solve? i'm new here",
        "reviewbot: please add a short explanation of what {fn} does to this PR description",
        "I keep reading `{code}` in {path} and don't get it -- what is it for?",
        "can someone explain the control flow in {qual}? there is recursion in there I don't follow",
        "how do {T} and {fn} fit together",
        "explain the state machine behind {topic}",
        "waht is purpose of {path}",
        "readme-style overview of the {topic} module: responsibilities, inputs, outputs",
        "what invariants is {T} trying to keep?",
        "in plain English, what's the algorithm in {fn}? the comments are stale",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "thirtyseventh", seed=137)

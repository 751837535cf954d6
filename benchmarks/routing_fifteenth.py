"""A fifteenth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The held-out sets up to ``routing_fourteenth.py`` (``routing_heldout.py``, ``routing_blind.py``,
``routing_fresh.py``, ``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``,
``routing_eighth.py``, ``routing_ninth.py`` to ``routing_fourteenth.py``) have been, or may yet be, read
while routing changes are weighed, so a change chosen on them is partly chosen on its own test; none of
their templates was looked at while this one was written (only ``routing_fourteenth.py``'s layout, as a
format). These templates were written in one sitting by another hand, from the shapes real requests take
in places the earlier sets leaned on least: declarations as they are typed in Kotlin (an extension ``fun``
on a type), C# (a positional ``sealed record``), Elixir (``defp`` with a struct pattern), Dart (a class
``with`` a mixin), Lua (``local function``), Julia (``function f(x::T)``), TypeScript generics and C++
templates; output pasted from tools the earlier sets did not use (a Kotlin stack trace, an ASP.NET Core
console log entry, an Elixir ``**`` crash, Swift Package Manager's build output, Terraform's boxed errors,
Kubernetes events, nginx error-log lines, Sentry issue titles, PagerDuty alerts, PowerShell's
``Select-String``); code review comments, commit messages being drafted, chat with an AI agent that is
told what to do, accessibility and internationalisation tickets, security review asks, and IDE shortcuts
that did not do what was hoped (Rider's F12, IntelliJ's Alt+F7). Short requests were taken to outnumber
long wordy ones, as they do where people type into a search box or an agent calls a tool. The shapes were
turned into templates; no sentence was copied. Questions and imperatives, terse keyword queries and long
wordy ones, typos, non-native English, prose mixed with code, pasted code with and without words, markdown
code fences. No classifier was asked any of them while they were written; a template that met a training
one or another set's (``test_intent_model``) was replaced, not reworded. Its slot fillers come from
domains no other set uses (a pipe organ builder's voicing records, wind chest builds and tuning visits, a
veterinary clinic's vaccination reminders and microchip records, a symphony orchestra's sheet-music parts,
rehearsal calls and overtime, a public library's interlibrary loans and courier shipments), and none is a
training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "log_pipe_voicing",
    "scheduleTuningVisit",
    "assign_wind_chest_build",
    "computeStopScaling",
    "schedule_rabies_booster",
    "sendVaccineReminderSms",
    "mark_microchip_scanned",
    "computeNextDistemperDue",
    "book_sectional_rehearsal",
    "assignPartToDesk",
    "copy_bowing_marks",
    "computeRehearsalOvertime",
    "request_interlibrary_loan",
    "renewBorrowedVolume",
    "route_ill_shipment_to_branch",
    "waiveLendingLibraryFee",
]
_TYPES = [
    "VoicingSession",
    "WindChest",
    "OrganStop",
    "TuningVisit",
    "PatientAnimal",
    "VaccinationCourse",
    "ReminderNotice",
    "RehearsalCall",
    "OrchestraPart",
    "BowingMarkup",
    "MusicianRoster",
    "InterlibraryLoanRequest",
    "LendingPartner",
    "CourierManifest",
]
_ERRORS = [
    "FunctionClauseError",
    "DbUpdateConcurrencyException",
    "BadBooleanError",
    "CondClauseError",
    "TaskCanceledException",
    "KeyNotFoundException",
]
_MESSAGES = [
    "pipe voicing session has no recorded cut-up height",
    "wind chest build was scheduled before the pallet order arrived",
    "stop scaling differs from the organ's specification sheet",
    "tuning visit booked while the church is closed for services",
    "rabies booster due date is earlier than the primary dose",
    "reminder already sent to this owner within seven days",
    "microchip number does not match the patient record",
    "sectional rehearsal overlaps the full orchestra call",
    "rehearsal ran past the union overtime limit",
    "bowing marks were written into the master copy instead of a player part",
    "lending library declined the interlibrary loan request",
    "borrowed volume cannot be renewed past the lender's due date",
]
_ERROR_CODES = ["EBADSLT", "ENOTNAM", "CS0266", "42P10", "0xC0000409", "KT-4471"]
_PATHS = [
    "organworks/voicing/VoicingLog.kt",
    "organworks/chests/WindChestBuildService.cs",
    "organworks/tuning/tuning_visits.ex",
    "vetclinic/reminders/reminder_sender.dart",
    "vetclinic/vaccines/booster_schedule.lua",
    "vetclinic/records/MicrochipLookup.cs",
    "orchestra/library/part_assignment.jl",
    "orchestra/rehearsals/rehearsal_call.cpp",
    "orchestra/payroll/OvertimeReport.kt",
    "library/ill/loan_requests.ex",
    "library/ill/courierManifest.ts",
    "library/circulation/renewal_rules.lua",
]
_TOPICS = [
    "pipe voicing records for each rank",
    "wind chest builds in the organ workshop",
    "tuning visits to the organs we maintain",
    "vaccination reminders sent to pet owners",
    "booster scheduling for puppies and kittens",
    "microchip lookups at clinic check-in",
    "assigning sheet-music parts to orchestra desks",
    "rehearsal scheduling and overtime for the orchestra",
    "copying bowing marks from the concertmaster's part",
    "interlibrary loan requests to partner libraries",
    "courier shipments between library branches",
]
_TASKS = [
    "convert an organ pipe length in feet into its nominal pitch",
    "work out an animal's age in weeks from its date of birth",
    "convert a rehearsal length in minutes into paid overtime quarters",
    "calculate a due date that skips the days a branch library is closed",
    "left-pad a microchip number to fifteen digits",
    "spread a tuning trip's travel cost across the churches it visits",
]
_EVENTS = [
    "two voicers log the same rank on the same day",
    "a reminder text goes to the owner of an animal that has died",
    "a rehearsal is moved after the part assignments went out",
    "a partner library ships a book to the wrong branch",
    "a wind chest ships before its pallets are leak-tested",
]
_SNIPPETS = [
    "val due = organs.filter { it.lastTuning.isBefore(today.minusMonths(6)) }\n"
    "    .sortedBy { it.parish }\ndue.forEach { bookTuningVisit(it) }",
    "var due = patient.Vaccinations\n    .Where(v => v.Kind == VaccineKind.Rabies)\n"
    "    .Max(v => v.GivenOn)\n    .AddYears(1);",
    "parts\n|> Enum.filter(fn p -> p.section == :violas and is_nil(p.desk) end)\n|> Enum.map(&assign_desk/1)",
    "for (final r in reminders) {\n  if (r.sentAt != null) continue;\n  await sms.send(r.ownerPhone, r.text);\n}",
    'for _, req in ipairs(requests) do\n  if req.lender == nil then\n    req.status = "unfilled"\n  end\nend',
]
_BODIES = [
    "function overtime_quarters(minutes::Int, limit::Int)\n    minutes <= limit && return 0\n"
    "    return cld(minutes - limit, 15)\nend",
    "function ageInWeeks(born: Date, today: Date): number {\n"
    "  return Math.floor((+today - +born) / (7 * 86400000));\n}",
    "template <typename Pipe>\nint speakingPipes(const std::vector<Pipe>& rank) {\n"
    "  int n = 0;\n  for (const auto& p : rank) n += p.speaks;\n  return n;\n}",
    'local function pad_chip(n)\n  return string.rep("0", 15 - #n) .. n\nend',
]
_CODE_LINES = [
    "stop.mouthWidthMm = scale.diameterMm * stop.mouthRatio",
    "var overtime = call.Minutes - Contract.RehearsalLimitMinutes;",
    "request.due_on = Date.add(lender_due, -3)",
    'local chip = string.format("%015d", raw_chip)',
    "final sendOn = booster.dueOn.subtract(const Duration(days: 14));",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "private fun {T}.{fn}() =",
        "public sealed record {T}(Guid Id,",
        "defp {fn}(%{T}{{}} = ",
        "class {T} with ChangeNotifier {{",
        "local function {fn}(",
        "function {fn}(x::{T})",
        "export function {fn}<K extends {T}>(",
        "template <typename Lot> {T} {fn}(",
        "F12 on {fn} in Rider only opens a decompiled stub; where is the real source of it declared",
        "{fn} - where declared",
        "jump to decl {qual}",
        "In which file is the class {T} written? I want read its constructor",
        "agent: open the declaration of {fn} and show me its signature and body, nothing else",
        "review comment: this PR calls {fn} but I can't tell what it returns, could someone link where it's defined",
        "sorce of the {T} type pls, where does it live",
        "I'm on call for {topic} and the stack trace names {fn}, but there are functions with that name in both the "
        "Kotlin and the Elixir code; which one is the definition that {path} actually ends up calling",
    ],
    "find_references": [
        "incoming calls: {fn}",
        "who imports {path}",
        "{T} usages across the kotlin modules",
        "list every place that invokes {fn}()",
        "security review: list each controller action that calls {fn}, so we can check that each one does an "
        "authorization check first",
        "which tests exercise {qual}",
        "a11y ticket {n}: find every screen that renders a {T}, we have to add a content label in each of them",
        "i18n: every component that calls {fn} to format a date, we need to localize all of them",
        "@agent show me every function that reads the status field of {T}",
        "is {fn} still called anywhere, or is it dead",
        "{fn} used where?? give me the files",
        "references to {T} inside {path}",
        "I'm documenting the Elixir workers and want a list of every worker and script that calls {fn}, with "
        "the file and the line for each call",
        "Find usages of {qual} (Alt+F7 shows nothing, I think it is called through reflection)",
        "which Dart widgets import {T}",
        "reverse call graph of {fn}, one level up",
    ],
    "impact_analysis": [
        "blast radius: {fn}",
        "change {T} field type -> what breaks",
        "if {path} turns {fn} into a suspend fun, which callers have to change",
        "C#: making {Fn} an async Task instead of void, which call sites break and what else must become async",
        "if {qual} stops accepting null, who breaks",
        "Elixir: if {fn} starts returning {{:error, reason}} instead of raising, which callers crash on a failed match",
        "security review: we must tighten {fn} to reject unsigned input; what downstream stops working",
        "risk of renaming {T} everywhere? what gets affected",
        "commit msg draft: 'refactor {fn} to take a {T}' -- before I push, what else does this change affect "
        "downstream",
        "what depends on {path} being there? planning to delete it",
        "if {fn} gets a second slower, which user-facing flows feel it",
        "PagerDuty follow-up says to drop the retries in {fn} from three to zero; what would be affected",
        "We need to split {T} into two types, one for {topic} and one for reporting, and before writing the plan "
        "I'd like to know which modules construct it, which serialize it, and which would fail to compile or "
        "behave differently after the split",
        "if i am change the return of {fn}, what other things will be broke?",
        "consequences of making {fn} private",
        "i18n: if {fn} begins returning translated text instead of keys, which callers compare its result and "
        "would break",
    ],
    "exact_match": [
        'Exception in thread "main" {err}: {Msg}\n\tat {qual}({path}:{n})',
        "fail: {T}Service[{n}]\n      {Msg}\n      {err} ({ecode})",
        "** ({err}) {msg}\n    (organworks 0.4.1) {path}:{n}: {qual}/2",
        "swift build\n[{n}/212] Compiling {T}\nerror: {msg} ({ecode})\nfind where that text comes from",
        "│ Error: {Msg}\n│\n│   with module.{fn},\n│   on main.tf line {n}\nwhich of our providers emits this",
        "Warning  BackOff  {n}s  kubelet  Back-off restarting failed container, last log line: {msg}",
        '[error] 3121#0: *{n} upstream sent "{msg}" while reading response header from upstream',
        "Sentry issue: {err}: {Msg} -- find that exact message in the source",
        '[FIRING] {ecode} on {T}: "{msg}" -- which file has this string',
        "Select-String -SimpleMatch -Pattern '{msg}'",
        "exact text search: {Msg}",
        'where do we log "{msg}" word for word',
        "regex as is: {fn}\\(\\s*{T}",
        "err {ecode} in the logs, which line of source emits that code literally",
        "this message come in the log: '{msg}' , in which file it is written exactly?",
        "Sentry keeps grouping '{Msg}' under one issue; find every place that string literal appears",
    ],
    "find_similar": [
        "duplicate-detector style: report blocks that match this one up to renamed variables\n{snippet}",
        "{fn} look-alikes",
        "```\n{snippet}\n```\nanything else in the repo written like this?",
        "near-duplicates of {fn} in the Dart app",
        "PR review: this looks copy-pasted from somewhere, can you find the original?\n{code}",
        "before I write a function to {task}, show me existing code that already does something close",
        "find other functions shaped like {fn}: same loop, same early return",
        "other loops like this one\n{snippet}",
        "Four teams maintain the {topic} code and I suspect each of them wrote its own version of this; please "
        "list every function in the repo that is structurally the same or very close, even where the names and "
        "the languages differ:\n{body}",
        "i think somebody did this same logic before, show me the similar codes\n{body}",
        "dedupe candidates for {path}",
        "clones of this line across services: {code}",
        "@agent: {body}\n^ find me functions that compute the same thing",
        "other {T} validators written in the same style as {fn}",
        "commit message says 'copy {fn} from the C# side' -- where are the other copies of it now",
        "same pattern as {path}, anywhere else?",
    ],
    "understand_code": [
        "{topic}: how is it wired together",
        "walk me through {path} top to bottom",
        "{fn} has a Thread.sleep in it -- is that on purpose, and what is it guarding against?",
        "explain this julia/ts/c++/lua to me\n{body}",
        "what is {T} modelling, in plain words",
        "a11y ticket: screen readers skip the {T} card; how is that card rendered and what decides its focus order",
        "i18n ticket {n}: explain how {topic} picks which language to show",
        "security review: explain how {fn} decides whether the caller is allowed to go on",
        "what's the lifecycle of a {T} from creation to archive",
        "Could you explain me what is the role of {fn} in {topic}? i am new in team",
        "I just joined the team that owns {topic}, and before my first on-call shift I'd like a plain-language "
        "overview of the moving parts, what talks to what, and what the system does when {event}",
        "what does this line do: {code}",
        "{T} lifecycle?",
        "why does {fn} run on a timer instead of on every save",
        "hey, quick one: what's the idea behind {path}? just the gist",
        "under the hood of {topic}",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fifteenth", seed=71)

"""A twenty-fifth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The held-out sets up to ``routing_twentyfourth.py`` (``routing_heldout.py``, ``routing_blind.py``,
``routing_fresh.py``, ``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``,
``routing_eighth.py``, ``routing_ninth.py`` to ``routing_twentyfourth.py``) have been, or may yet be, read
while routing changes are weighed, so a change chosen on them is partly chosen on its own test; none of
their templates was looked at while this one was written (only ``routing_fifteenth.py``'s layout, as a
format), and neither were the classifier, its rules or its training templates. These templates were written
in one sitting by another hand, from the shapes requests take where people and agents ask a code search
engine things: declarations as they are typed in Rust (``pub(crate) fn``), Go (a method on a
pointer receiver), Python (``def`` with ``self``), Scala (``case class``), Haskell (a type signature),
Clojure (``defn``), PostgreSQL (``CREATE OR REPLACE FUNCTION``), Protocol Buffers (``message``), Java
(``public interface``), Ruby (``def self.``) and Swift (a ``Codable`` struct); output pasted
from tools the earlier sets may have leaned on less (a Python traceback, pytest's short summary, rustc and
cargo diagnostics, a Go panic with its goroutine dump, Jest's bullet failures, RSpec and PHPUnit failures,
Maven Surefire, GitHub Actions annotations, journald, PostgreSQL ``RAISE`` context lines, Android
logcat, Datadog and Grafana alerts, CloudWatch Logs Insights); agent tool calls written
as JSON objects, Python-style function calls, YAML steps and command lines; editor and code-search commands
(vim's ``:tag``, cscope's line-oriented queries, GNU global, ripgrep, ``git grep``, VS Code's Shift+F12);
review comments, tickets, chat messages, RFC notes, standup questions and migration plans. Short requests
were taken to outnumber long wordy ones, as they do where people type into a search box or an agent calls a
tool. The shapes were turned into templates; no sentence was copied. Questions and imperatives, terse keyword
queries and long wordy ones, typos, lowercase, non-native English, prose mixed with code, pasted code with and
without words, markdown code fences. No classifier was asked any of them while they were written; a template
that met a training one or another set's (``test_intent_model``) was replaced, not reworded. Its slot fillers
come from domains no other set uses (an indoor climbing gym's route setting, auto-belay inspections and grade
votes, a chimney sweep company's flue inspections, creosote grading and liner quotes, an upholstery workshop's
fabric yardage, foam cutting and job cards, a bicycle repair shop's service tickets, wheel truing and parts
reorders, a blood donation centre's donor deferrals, unit labels and apheresis bookings), and none is a
training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "reset_boulder_circuit",
    "assignRouteSetter",
    "log_autobelay_inspection",
    "book_flue_sweep",
    "rateCreosoteStage",
    "cut_foam_to_pattern",
    "estimateFabricYardage",
    "computeSpokeTension",
    "closeRepairTicket",
    "defer_donor_for_travel",
    "printBloodUnitLabel",
    "book_apheresis_slot",
]
_TYPES = [
    "BoulderProblem",
    "AutoBelayDevice",
    "FlueInspection",
    "ChimneyLiner",
    "UpholsteryJobCard",
    "FabricBolt",
    "BikeRepairTicket",
    "SpokeTensionReading",
    "DonorVisit",
    "BloodUnitLabel",
    "ApheresisBooking",
]
_ERRORS = [
    "BelayInspectionOverdueError",
    "FlueDraftException",
    "YardageShortfallError",
    "SpokeTensionOutOfRange",
    "DonorDeferralViolation",
    "UnitLabelMismatchException",
    "GradeVoteClosedError",
]
_MESSAGES = [
    "auto belay device is past its annual inspection date",
    "boulder problem was stripped before the grade vote closed",
    "flue inspection saved without a draft reading",
    "creosote stage three needs a liner quote before sweeping",
    "fabric bolt holds less yardage than the job card requires",
    "pattern repeat does not line up across the seat cushions",
    "spoke tension reading outside the rim maker's range",
    "repair ticket closed before the customer signed off",
    "donor is deferred for travel until the end of the quarter",
    "blood unit label does not match the donation barcode",
    "apheresis booked within fifty-six days of a whole blood donation",
]
_ERROR_CODES = ["FLU-204", "UPH-0931", "SPK-17", "BDN-4402", "CLB-880", "0x80A1C2F7"]
_PATHS = [
    "climbgym/safety/auto_belay.rs",
    "climbgym/grading/grade_votes.go",
    "sweepco/jobs/flue_inspection.rb",
    "sweepco/quotes/LinerQuoteService.java",
    "upholstery/orders/JobCard.scala",
    "upholstery/cutting/FoamCutPlanner.swift",
    "bikeshop/tickets/repair_ticket.py",
    "bikeshop/wheels/tension.rs",
    "donorcentre/eligibility/deferral_rules.clj",
    "donorcentre/labels/UnitLabelPrinter.fs",
    "donorcentre/scheduling/apheresis_slots.sql",
]
_TOPICS = [
    "route rotation at the climbing gym",
    "auto-belay inspections and their sign-off",
    "grade voting on freshly set boulder problems",
    "booking chimney sweeps and flue inspections",
    "creosote grading and chimney liner quotes",
    "fabric yardage estimates for reupholstery jobs",
    "foam cutting for cushions and seat backs",
    "wheel truing and spoke tension checks at the bike shop",
    "reordering parts for the repair bench",
    "donor eligibility and travel deferrals",
    "labelling blood units at the donation centre",
    "apheresis appointment booking",
]
_TASKS = [
    "round a fabric length up to the next half yard",
    "turn a boulder grade like V4 into the gym's colour tag",
    "convert spoke tension from kgf into newtons",
    "work out the next day a donor may give whole blood again",
    "pad a sweep's booking with the drive time from the previous job",
    "split an upholstery quote into labour and materials",
    "validate the check digit on a blood unit barcode",
]
_EVENTS = [
    "an auto-belay fails its inspection in the middle of a session",
    "a sweep arrives and finds the flue bricked up",
    "a fabric bolt runs out halfway through cutting a sofa",
    "a customer collects a bike before the ticket is paid",
    "a deferred donor turns up for an apheresis appointment anyway",
    "two setters strip the same wall on the same night",
]
_SNIPPETS = [
    "for slot in slots:\n    if slot.donor_id in deferred:\n"
    '        slot.status = "cancelled"\n        notify_donor(slot.donor_id)',
    "let overdue: Vec<_> = devices\n    .iter()\n    .filter(|d| d.last_inspected < cutoff)\n    .collect();",
    "for _, r := range readings {\n\tif r.Kgf < min || r.Kgf > max {\n\t\tbad = append(bad, r.Spoke)\n\t}\n}",
    "jobs.select { |j| j.creosote_stage >= 3 }\n    .each { |j| LinerQuote.create!(job: j) }",
    "List<FabricBolt> usable = bolts.stream()\n    .filter(b -> b.yardsLeft() >= needed)\n"
    "    .sorted(Comparator.comparing(FabricBolt::dyeLot))\n    .toList();",
    "foreach ($logs as $log) {\n    if (empty($log['bag_count'])) {\n        $missing[] = $log['job_id'];\n    }\n}",
]
_BODIES = [
    "def round_up_half_yard(yards: float) -> float:\n    return math.ceil(yards * 2) / 2",
    "func kgfToNewtons(kgf float64) float64 {\n\treturn kgf * 9.80665\n}",
    "fn next_whole_blood_date(last: NaiveDate) -> NaiveDate {\n    last + Duration::days(56)\n}",
    'def colour_tag(grade)\n  TAGS.fetch(grade.delete("V").to_i / 2, "black")\nend',
    "def splitQuote(total: BigDecimal, labourShare: BigDecimal): (BigDecimal, BigDecimal) =\n"
    "  (total * labourShare, total - total * labourShare)",
]
_CODE_LINES = [
    "ticket.tension_ok = all(MIN_KGF <= r.kgf <= MAX_KGF for r in readings)",
    "let due = last_inspection + chrono::Duration::days(365);",
    "if donor.DeferredUntil.After(today) { return ErrDeferred }",
    "yards = (width_in * panels * 1.15 / 36).ceil",
    "$quote['liner'] = $flue['height_m'] * LINER_RATE_PER_M;",
    "val cushions = job.pieces.filter(_.kind == Cushion).map(_.foamCut)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "pub(crate) fn {fn}<'a>(ticket: &'a mut",
        "func (svc *{T}) {Fn}(w http.ResponseWriter,",
        "async def {fn}(self, *, ",
        "final case class {T}(\n  bookingId: Long,",
        "{fn} :: Pool -> {T} -> IO (Either Text ())",
        "CREATE OR REPLACE FUNCTION public.{fn}(p_id bigint)",
        "(defn- {fn}\n  [db ",
        "public interface {T} extends",
        "struct {T}: Codable, Hashable {{\n    let id: UUID",
        "message {T} {{\n  string id = 1;",
        ":cscope find g {fn}\nE259: no matches found for cscope query g of {fn}",
        ":tag {fn}\nE426: tag not found: {fn}\nso where is it actually defined then",
        '{{"tool": "goto_definition", "args": {{"symbol": "{qual}"}}}}',
        'lookup_symbol(name="{T}", kind="class", want="declaration")',
        "- step: locate\n  kind: definition\n  symbol: {fn}",
        "def self.{fn}(booking, dry_run: false)",
        "Ctrl+click on {fn} lands in a .pyi stub. Where is the actual implementation?",
        "Hi! Could you tell me in which module the {T} type is declared? I searched, but I only find the imports "
        "of it.",
        "ticket {n} -- before I touch anything I need the source of {fn}; which file has its body",
        "i keep landing on the fake {fn} in the test helpers. where is the real one, the production implementation",
        "what file declares `{T}`",
        "{path} calls {fn} but it isn't in that package -- go to its definition",
    ],
    "find_references": [
        "cscope -dL -3 {fn} | sort -u",
        "global --reference --result=grep {fn}",
        '{{"name": "find_references", "arguments": {{"symbol": "{T}", "include_tests": false}}}}',
        "search(mode='callers', target='{qual}')",
        "- step: usages\n  symbol: {fn}\n  scope: repo",
        "which handlers construct a {T}?",
        "everywhere that imports {path}",
        "call sites of {fn} only, skip the definition",
        "is anything outside {path} calling {fn}?",
        "list every cron job, worker and CLI command that invokes {fn}",
        "where does a {T} get instanciated",
        "which code writes to {T} -- setters, updates, raw SQL, all of the writers",
        "Shift+F12 on {T} says 0 references in VS Code, but it's definitely used. find the usages",
        "{T} -- who is using it",
        "usages({qual})",
        "track down every test that mocks or patches {fn}",
        "audit needs every code path that touches {T}; give me the usages with file and line",
        "{fn} <- what calls this",
        "Hallo, I must find all the locations where {fn} is called, we are moving the module. Can you list them "
        "please?",
        "review: you changed what {fn} logs but did you look at its callers? link them all here",
        "go packages referencing {T}?",
        "standup q: does any service besides ours still hit {fn}? need the list of callers",
    ],
    "impact_analysis": [
        "what goes red if {fn} hands back a Result instead of panicking?",
        "adding a required field to {T} -- what has to be updated along with it",
        "Proposal: move {fn} out of {path} into a shared library. Fallout?",
        "deleting {path}: is it safe, what depnds on it",
        "impact of making {qual} async",
        '{{"tool": "analyze_change", "target": "{fn}", "change": "signature", "report": "affected"}}',
        "if {fn} no longer raises {err}, which callers would carry on with bad data",
        "we're changing {T}.amount from an int to a decimal; downstream effects?",
        "RFC: {fn} will start validating its input strictly. Which consumers start failing?",
        "ripple effects of changing {T}'s primary key",
        "could a change to {fn} break {topic}?",
        "is it risky to touch {fn} right now? what relies on how it behaves today",
        "i want remove the default argument from {fn}, which places will stop to work",
        "dry-run a rename of {T}: list everything that would be affected",
        "changing the column type behind {T} -- which queries, reports and services are affected?",
        "before merge: this PR changes {fn}'s return type. what else needs to change with it",
        "who gets hurt if {path} is split into two modules",
        "We plan to retire {fn} next quarter and replace it with a nightly batch. Which features would degrade, "
        "which tests would need rewriting, and is anything user-facing on {topic} going to notice?",
        "cutting {fn}'s timeout from 30s to 5s -- what would that knock over",
        "if {T} became immutable, what code would no longer compile",
        "analyze_change(symbol='{qual}', kind='remove')",
        "{fn}: safe to change the units of what it returns? who else consumes its output",
    ],
    "exact_match": [
        'Traceback (most recent call last):\n  File "/srv/app/{path}", line {n}, in {fn}\n'
        "    raise {err}(msg)\n{err}: {msg}",
        "FAILED tests/test_tickets.py::test_{n} - {err}: {msg}\n=== 1 failed, 41 passed in 3.{n}s ===",
        "error[{ecode}]: {msg}\n  --> {path}:{n}:9",
        "panic: {msg} [recovered]\n\tpanic: {msg}\n\ngoroutine 17 [running]:\n"
        "testing.tRunner.func1.2({{0x1046c2f00, 0x14000126d80}})",
        "  \u25cf {T} \u203a rejects stale input\n\n    {err}: {msg}\n\n      at {fn} ({path}:{n}:11)",
        "::error file={path},line={n}::{Msg}",
        "journalctl -u repair-bench shows `{Msg}`. grep the codebase for that line",
        "psql:migrate.sql:{n}: ERROR:  {msg}\nCONTEXT:  PL/pgSQL function {fn}(bigint) line 14 at RAISE",
        "rg --fixed-strings --line-number '{Msg}' src/ lib/",
        'git grep -nF "{ecode}" -- "*.go" "*.rs"',
        '{{"tool": "search_text", "query": "{msg}", "regex": false, "case_sensitive": true}}',
        "search literally for '{msg}' (it's a string constant somewhere)",
        "Datadog monitor triggered: {Msg} -- which service writes this exact line?",
        "E/DonorKiosk: {Msg}",
        "Failure/Error: {fn}\n\n  {err}:\n    {msg}\n# ./{path}:{n}",
        "where is the string {ecode} raised",
        "[ERROR] {fn}(sweepco.{T}Test)  Time elapsed: 0.{n} s  <<< FAILURE!\n{err}: {msg}",
        "can u find the literal `{ecode}` string, ppl keep seeing it on the kiosk",
        'Grafana alert is firing, the log line has "{msg}". Where is that text produced?',
        "CloudWatch Logs Insights hit: {Msg} -- match it character for character in src",
        "1) {T}Test::test_{fn}\n{err}: {Msg}\n\n{path}:{n}",
    ],
    "find_similar": [
        "{snippet}\n\nsimilar code elsewhere?",
        "find code like:\n```\n{body}\n```",
        "does another {T} helper do basically what {fn} does?",
        "we probably already have something to {task} -- find it before I write it again",
        "fucntions that resemble {fn}",
        '{{"tool": "similar_code", "snippet": "{code}", "min_score": 0.8}}',
        "same logic as {path} in some other service?",
        "paste:\n{body}\nq: any near-copies in the codebase, even in other languages?",
        "copy-paste detection around {fn}",
        "this line smells duplicated: `{code}` -- find its siblings",
        "Hey, I'm refactoring {topic}. Pretty sure the same block shows up in several files; here it is:\n"
        "{snippet}\nCould you find all the nearly identical spots?",
        "anything shaped like {qual} elsewhere? same steps, different data",
        "is there a generic version of {fn} somewhere that I could call instead",
        "other implementations of the same idea as this one:\n{body}",
        "anything in the repo that mirrors {path} almost line for line?",
        "find_similar(code='''{snippet}''', top_k=10)",
        "{code}\n^ duplicated anywhere? same computation, maybe different variable names",
    ],
    "understand_code": [
        "how does the code for {topic} actually work, end to end",
        "explain {fn} like I'm five",
        "could someone tell me what this block is for? found it in a PR\n```\n{snippet}\n```",
        "why is {fn} written as a retry loop?",
        "{path}: what's the purpose of this file",
        "step me through what happens in the code when {event}",
        "can you summarise the responsibilities of {T}",
        "explain: {code}",
        '{{"tool": "explain", "target": "{path}", "depth": "overview"}}',
        "new here; how does {T} fit in with the rest of the code?",
        "what's the control flow in {fn}?",
        "explain it like i'm new to coding: the part of the app that handles {topic}",
        "I don't get the data flow in {path}. where does its input come from and where does the output go",
        "what does {qual} return, and in which cases?",
        "is {fn} idempotent? explain why or why not",
        "descibe the architecure behind {topic}",
        "sorry my english. what is {T} for? what problem it solve",
        "explain line by line:\n{body}",
        "how does the system react when {event}?",
        "Ticket {n}: a customer keeps asking about {topic}. How does the code behind it decide what happens? "
        "I need to explain it to them in plain words.",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "twentyfifth", seed=2503)

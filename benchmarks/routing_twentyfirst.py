"""A twenty-first held-out set for the learned routing layer, written by another hand before the routing
change it judges and never measured while written.

The held-out sets up to ``routing_twentieth.py`` have been, or may yet be, read while routing changes are
weighed, so a change chosen on them is partly chosen on its own test; none of their templates was looked
at while this one was written (only ``routing_fifteenth.py``'s layout, as a format), nor were the training
templates. These templates were written in one sitting from the shapes real requests take when engineers
and coding agents search code: terse search-box queries and long multi-clause requests, questions and
imperatives, agent tool calls, IDE and editor actions, code review, ticket, incident, alert and
commit-message voices, typos and non-native English, prose mixed with code, pasted log lines, error
messages and stack traces from several runtimes, pasted code with and without words, declarations as
several languages spell them, and identifiers in several naming conventions. No sentence was copied. No
classifier was asked any of them while they were written; a template that met a training one or another
set's (``test_intent_model``) was replaced, not reworded. Its slot fillers come from domains no other set
uses (a trawler fleet's catch quotas, landing tickets and fish auction lots, an observatory's telescope
time proposals and planetarium dome shows, a bonsai nursery's repotting and wiring records, a sled-dog
race's teams and checkpoint splits, a stone quarry's blast permits and block cutting), and none is a
training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "record_landing_ticket",
    "allocateCatchQuota",
    "settle_auction_lot",
    "checkHoldTemperature",
    "schedule_observing_night",
    "rankTelescopeProposals",
    "compute_seeing_index",
    "bookDomeShowSeats",
    "plan_repotting_window",
    "logWireRemoval",
    "water_rota_for_bench",
    "assignDogToTeam",
    "record_checkpoint_split",
    "computeRestHoursOwed",
    "issue_blast_permit",
    "cutBlockToDimension",
]
_TYPES = [
    "FishingTrip",
    "LandingTicket",
    "QuotaLedger",
    "AuctionLot",
    "ObservingRun",
    "TelescopeProposal",
    "DomeShowBooking",
    "BonsaiSpecimen",
    "RepottingPlan",
    "SledTeam",
    "CheckpointSplit",
    "MusherEntry",
    "BlastPermit",
    "QuarryBlock",
]
_ERRORS = [
    "asyncio.IncompleteReadError",
    "OverlappingFileLockException",
    "ReadPendingException",
    "Ecto.StaleEntryError",
    "ZoneRulesException",
    "ArrowInvalid",
    "DeadlockDetectedError",
]
_MESSAGES = [
    "landing ticket weight exceeds the vessel's remaining quota",
    "auction lot was settled twice for the same buyer",
    "fish hold temperature logged above four degrees for the whole trip",
    "catch species code is not on the vessel licence",
    "observing night overlaps a scheduled dome maintenance shutdown",
    "telescope proposal asks for more hours than the semester has left",
    "seeing index computed from an empty frame list",
    "repotting window falls inside the dormancy freeze",
    "wire removal date is earlier than the wiring date",
    "dog is already running in another sled team",
    "musher left the checkpoint before the mandatory rest was served",
    "blast permit expired before the charge was fired",
    "quarry block was cut below the order's minimum dimension",
]
_ERROR_CODES = [
    "E0623",
    "TS2589",
    "ORA-12899",
    "SQLITE_BUSY_SNAPSHOT",
    "ERR_STREAM_PREMATURE_CLOSE",
    "0x800A01A8",
    "HY008",
]
_PATHS = [
    "fleet/landings/landing_ticket.py",
    "fleet/quota/QuotaLedger.java",
    "fleet/auction/lot_settlement.go",
    "observatory/proposals/ranking.rs",
    "observatory/domeshows/BookingController.swift",
    "observatory/seeing/seeing_index.cpp",
    "nursery/bonsai/repotting_plan.rb",
    "nursery/bonsai/wiringLog.ts",
    "kennel/race/CheckpointSplits.kt",
    "kennel/teams/team_builder.php",
    "quarry/permits/BlastPermitService.scala",
    "quarry/yard/block_cutting.hs",
]
_TOPICS = [
    "catch quota drawdown when a trawler lands",
    "settling fish auction lots with buyers",
    "hold temperature logging on fishing trips",
    "telescope time allocation for each observing semester",
    "seat booking for planetarium dome shows",
    "repotting and root pruning schedules at the bonsai nursery",
    "wiring and wire removal on bonsai branches",
    "building sled-dog teams for a race",
    "checkpoint arrival and departure times in a sled-dog race",
    "blast permits at the quarry",
    "cutting quarried stone blocks to order",
]
_TASKS = [
    "convert a fish weight in pounds into whole kilograms rounded down",
    "work out the moon's illuminated fraction for a given night",
    "count the days between two repottings while skipping the winter months",
    "turn a checkpoint split in seconds into an hh:mm string",
    "compute the volume of a stone block from its three edges in centimetres",
    "split a quota evenly across boats and hand the remainder to the first ones",
]
_EVENTS = [
    "two boats land against the same quota line within a minute",
    "the dome projector crashes halfway through a booked show",
    "a bonsai is sold while it is still wired",
    "a dog is dropped at a checkpoint and the team falls below the minimum size",
    "a blast is fired on a day the permit office marks as a holiday",
]
_SNIPPETS = [
    'for trip in trips:\n    if trip.hold_temp_c > 4.0:\n        flag_trip(trip, reason="warm hold")',
    'for _, lot := range lots {\n\tif lot.BuyerID == "" {\n\t\tcontinue\n\t}\n\ttotal += lot.PriceCents\n}',
    "plans.select { |p| p.species == :juniper && p.last_repot < 2.years.ago }.each(&:schedule!)",
    "let open = shows.filter { $0.seatsLeft > 0 && $0.startsAt > Date() }\n    .sorted { $0.startsAt < $1.startsAt }",
    "foreach ($team->dogs as $dog) {\n    if ($dog->droppedAt !== null) { $active--; }\n}",
]
_BODIES = [
    "fn seeing_index(fwhm: &[f64]) -> Option<f64> {\n    if fwhm.is_empty() { return None; }\n"
    "    Some(fwhm.iter().sum::<f64>() / fwhm.len() as f64)\n}",
    "public int remainingQuotaKg(QuotaLedger ledger, String species) {\n"
    "    return ledger.allocatedKg(species) - ledger.landedKg(species);\n}",
    "fun restOwed(split: CheckpointSplit): Duration =\n    maxOf(Duration.ZERO, MANDATORY_REST - split.restTaken)",
    "blockVolume :: Int -> Int -> Int -> Int\nblockVolume l w h = l * w * h `div` 1000",
    "def kg_from_lb(lb):\n    return math.floor(lb * 0.45359237)",
]
_CODE_LINES = [
    "ticket.net_kg = ticket.gross_kg - ticket.ice_kg",
    "proposal.Score = proposal.ScienceGrade*0.7 + proposal.Feasibility*0.3",
    "let rest_owed = MANDATORY_REST.saturating_sub(split.rest_taken);",
    "permit.expires_at = permit.issued_at + timedelta(days=30)",
    "$plan->nextRepot = $plan->lastRepot->modify('+2 years');",
    "block.widthCm = order.widthCm + SAW_KERF_CM",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "nav to decl: {fn} (the real one, not the interface stub)",
        "where does `{T}` get declared? grep only turns up imports of it",
        "go: where is func (x *{T}) {Fn}( implemented",
        "impl {T} {{ ... fn {fn}(   <- which file has this impl block",
        "python: locate `class {T}(` in the repo",
        "open the source of com.fleetops.{T}#{fn}, not the decompiled jar",
        "definition of stationops::{T}::{fn} -- the .cpp body, not the header",
        '{{"tool": "goto_definition", "arguments": {{"symbol": "{qual}"}}}}',
        "kotlin data class {T} declared where",
        "swift: where is `struct {T}` declared? I need to read its initializer",
        "please where is define the function {fn}? i not find it in {path}",
        "I'm reviewing a PR that adds a field to {T} and the diff only shows call sites; before I approve I need "
        "to see the original type declaration with its constructor and default values, so point me at the file "
        "and line where it is defined",
        "locate the item definition for crate::yard::{T}::{fn}",
        "`export function {fn}` / `export const {fn} =` which file",
        "where's `def {fn}` in the rails app -- the one {T} mixes in",
        "F12 on {fn} lands in a .d.ts stub; take me to the actual implementation",
    ],
    "find_references": [
        "every caller of {fn}, including the cron jobs",
        "list call sites of {qual} across all services",
        "which modules import {T} from {path}",
        "Find Usages on {fn} shows nothing in the test project, are there really no callers?",
        "who reads the return value of {qual} and actually checks it for null",
        "references to `{fn}(` but skip the definition and comments",
        "which classes override {T}#{fn}",
        "implementations and callers of (*{T}).{Fn} in the go services",
        "i want to know all place where {fn} is being use, for cleanup task",
        '{{"name": "find_references", "input": {{"symbol": "{T}", "include_tests": true}}}}',
        "Give me a complete list of everywhere {fn} is referenced: direct calls, places it is passed as a "
        "callback, string lookups in config files, and mentions in tests. Just the usages please, I will "
        "judge them myself",
        "rust: every `use` of {T} and every place that builds a {T} literal",
        "crossref {T}: which packages touch it, grouped by owning team",
        "review nit: is {fn} still referenced anywhere? looks dead to me, show me the callers if there are any",
        "what else writes to {T}.status besides {fn}?",
        "swift: where do we call `.{fn}(` on a {T} instance",
    ],
    "impact_analysis": [
        "we are thinking of splitting {fn} in two; what downstream code would have to follow",
        "blast radius of making {T} immutable",
        "impact of adding a required field to {T} on downstream consumers",
        "what is affected if {path} is deleted outright",
        "Planning to change {fn} to return a Result instead of throwing {err}; which callers and tests will need "
        "updating, and what could fail at runtime?",
        "if i modify {qual} to be async, what other part of system will broken?",
        "JIRA-{n}: we want to drop the legacy column that {T} still maps -- list everything that would be impacted",
        "We're splitting {topic} out into its own service next quarter. Before we commit, I need to know what "
        "depends on {path} today: other modules, scheduled jobs, reports, and any tests that would break once "
        "it is no longer in-process.",
        "downstream effects of renaming {qual}",
        "would changing the units in `{code}` ripple anywhere else?",
        '{{"tool": "impact_analysis", "target": "{qual}", "change": "remove default argument"}}',
        "risk check before merge: {fn} now raises {err} on bad input -- who gets hit",
        "{T} change impact assessment",
        "what depends, even transitively, on {path}",
        "if we change how {fn} rounds, which reports and exports shift their numbers?",
        "commit msg draft: 'tighten validation in {fn}' -- before I push, what else could this break?",
    ],
    "exact_match": [
        'sentry issue title is literally "{err}: {msg}" -- where is that string built',
        "[ERR {ecode}] {Msg} <- copied off the kiosk screen, find that exact text",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n{err}: {msg}\n'
        "where is this message raised",
        'Exception in thread "main" {err}: {msg}\n\tat com.fleetops.{T}.{fn}({T}.java:{n})\n'
        "find the literal message in source",
        "panic: {msg}\n\ngoroutine {n} [running]:\nfind where this panic text comes from",
        "2024-03-11T04:12:{n}Z ERROR [{fn}] {msg} -- which line logs this exactly",
        "search for the literal {ecode} in the codebase",
        "where do we emit {ecode}? I need every occurrence of that exact token",
        "git grep -n '{msg}' returns nothing on main; is the string split across lines somewhere?",
        "Error: {msg}\n    at {fn} ({path}:{n}:17)\nwhich file throws this text",
        '"{Msg}" -- in quotes, exact match only, no fuzzy',
        "i see this message in log: '{msg}'. where in code it is written?",
        "Alert fired: {err} '{msg}' x{n} in last 5m -- find the source of that exact message",
        "literal search, no regex: `{code}`",
        "Unhandled exception. {err}: {Msg}\n   at Fleet.{T}.{Fn}()\ngrep for the message text",
        '{{"tool": "search_text", "query": "{msg}", "mode": "literal", "case_sensitive": true}}',
    ],
    "find_similar": [
        "anything else in the repo shaped like this?\n{body}",
        "{fn} has a twin somewhere, I am sure of it -- find it",
        "```\n{snippet}\n```\nwe wrote this loop in at least three places I think; find the siblings",
        "similar implementations to this one (different names are fine), it came from {path}:\n{body}",
        "is there already a helper that does this: {task}?",
        "copy-paste detection: other functions that look like {qual}",
        "Before I write a function to {task}, check whether someone already wrote one in another service",
        "this code i write, there is same one somewhere? {snippet}",
        "find code structurally similar to {path} in the other repos of the org",
        '{{"tool": "similar_code", "snippet": "{code}", "top_k": {n}}}',
        "other places doing `{code}` or a variation of it, e.g. in {path}",
        "PR review: this looks like a reimplementation of something we have -- search for lookalikes of {fn}\n{body}",
        "similar {T} mappers or serializers to the one in {path}",
        "dupes of this snippet? {snippet}\n(from {path})",
        "I'm consolidating {topic}; there seem to be several hand-rolled versions of the same logic. Starting "
        "from {fn}, find other functions that do essentially the same thing even if named and structured "
        "differently.",
        "more like {fn} but in the {T} code",
    ],
    "understand_code": [
        "the logic inside {fn} confuses me, what is it doing with the {T}",
        "give me a guided tour of {path}: what each function in it is for",
        "what does a {T} represent in the domain, and what are its invariants",
        "{topic} for dummies, straight from the code",
        "can you walk through what the code does when {event}?",
        "explain what this does, it's from {path}:\n{body}",
        "why is {fn} written with a retry loop? what failure is it guarding against",
        "sorry my english, can you explain what do {fn} and why it need {T}?",
        "New to the team that owns {topic}. Could you give me an overview: the main components, how data flows "
        "between them, and where the business rules live? I don't need to change anything yet, just understand it.",
        "what does `{code}` do and why is it needed in {fn}",
        "incident postmortem prep: explain how the system behaves when {event}, from the code's point of view",
        '{{"tool": "explain_code", "path": "{path}", "detail": "high"}}',
        "summarize the control flow of {qual}",
        "how is {topic} implemented? high-level please",
        "the docs for {T} are out of date; explain from the code what each of its fields means",
        "{topic} -- architecture overview?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "twentyfirst", seed=2137)

"""A sixteenth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The held-out sets up to ``routing_fourteenth.py`` have been read while routing changes were weighed, so a
change chosen on them is partly chosen on its own test; ``routing_fifteenth.py`` was left unread while this
one was written. These templates were written in one sitting by another hand, from the shapes real
requests take in places the earlier sets leaned on least: questions a coding agent sends as a tool call
(``find_references(symbol=...)``, ``grep(pattern=..., fixed_strings=True)``), pair-review chat ("before I
approve"), onboarding questions from someone in their first week, incident retrospectives, licence and
compliance asks (an SPDX header to find verbatim, the modules that import a copyleft library, a block
that may have been copied in), performance investigations (a hot function in a profile, a loop with the
same N+1 shape), definition syntax of languages the earlier sets used little (a Scala 2 ``def`` with a
type parameter, an Objective-C ``- (void)`` method, a Perl ``sub``, an R ``<- function(``, an F# ``let
rec``, a Nim exported ``proc``, a Clojure ``defn``, an Erlang ``-spec``, a VB.NET ``Public Function``, a
Fortran ``subroutine``), and pasted output from tools and runtimes they used little (an Erlang crash
report, a Perl ``die`` message, an R error, a Clojure execution error, an Objective-C uncaught
``NSException``, an Ansible task failure, a GitHub Actions log, a Datadog monitor title, a systemd unit
failure, a Postgres log line). Short requests were taken to outnumber long wordy ones, as they do where
people type into a search box or an agent calls a tool. The shapes were turned into templates; no
sentence was copied. Questions and imperatives, terse keyword queries and long wordy ones, typos,
non-native English, prose mixed with code, fenced blocks and regular expressions. No classifier was asked
any of them while they were written; a template that met a training one or another set's
(``test_intent_model``) was replaced, not reworded. Its slot fillers come from domains no other set uses
(a ski resort's lift passes, turnstiles and night snow grooming, a community orchard's harvest shares,
grafts and cider pressing, a ship chandler's stock bins, rigging and vessel accounts, a radio station's
playout carts and music royalty returns), and none is a training filler (``test_intent_model`` checks
both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "issue_season_lift_pass",
    "scanPassAtTurnstile",
    "schedule_groomer_route",
    "computeSnowDepthDelta",
    "close_chairlift_for_wind",
    "allocate_harvest_share",
    "weighCrateAtPress",
    "record_scion_graft",
    "AssignPickingRota",
    "reorder_chandlery_bin",
    "rateShackleByPinSize",
    "PlaceVesselAccountHold",
    "cue_next_playout_cart",
    "buildAsRunLog",
    "tally_needle_drops",
    "ExportRoyaltyReturn",
]
_TYPES = [
    "SeasonPassCard",
    "TurnstileScan",
    "GroomingRun",
    "SnowCatShift",
    "PisteSegment",
    "HarvestShare",
    "OrchardRow",
    "PressingBatch",
    "ScionGraft",
    "ChandleryBin",
    "VesselAccount",
    "RiggingShackle",
    "PlayoutCart",
    "RoyaltyReturn",
    "NeedleDrop",
]
_ERRORS = [
    "NSInternalInconsistencyException",
    "clojure.lang.ExceptionInfo",
    "function_clause",
    "simpleError",
    "System.OverflowException",
    "Moose::Exception::ValidationFailed",
]
_MESSAGES = [
    "lift pass already scanned at another turnstile inside the anti-passback window",
    "wind gusts above the chairlift closing limit",
    "groomer route crosses a piste still open to skiers",
    "snow depth lower than at the previous grooming pass",
    "harvest share asks for more crates than the member was allotted",
    "graft record names a rootstock that was never planted",
    "pressing batch weight does not match the crate tally",
    "bin stock fell below its reorder point",
    "shackle grade not certified for the requested working load",
    "vessel account is on hold for an unpaid chandlery invoice",
    "cart ran out before the scheduled segue",
    "royalty return line has no performer for this needle drop",
    "as-run log has a gap longer than the dead air threshold",
]
_ERROR_CODES = ["TSN-4031", "GRM-0712", "PLY-0208", "57P01", "P0004", "0x8007045D"]
_PATHS = [
    "skiresort/lifts/turnstile_scan.erl",
    "skiresort/grooming/GroomerRoute.m",
    "skiresort/passes/season_pass.pl",
    "orchard/shares/harvest_share.R",
    "orchard/press/pressing_batch.clj",
    "orchard/grafts/GraftLog.fs",
    "chandlery/stock/reorder_bins.nim",
    "chandlery/accounts/VesselAccount.vb",
    "chandlery/rigging/shackle_loads.f90",
    "radio/playout/CartQueue.scala",
    "radio/royalties/return_export.pl",
    "radio/logs/as_run_log.sql",
]
_TOPICS = [
    "how season lift passes are checked at the turnstiles",
    "night grooming routes for the snow cats",
    "closing chairlifts automatically in high wind",
    "splitting the harvest among orchard share members",
    "tracking grafts from scion to fruiting tree",
    "the cider pressing day workflow",
    "stock reordering at the chandlery",
    "credit holds on vessel accounts",
    "how the playout system picks the next cart",
    "royalty reporting for music played on air",
    "dead air detection on the studio output",
]
_TASKS = [
    "convert a snow depth from centimetres to inches rounded to the nearest half",
    "split a crate total across share members in proportion to their shares",
    "work out a shackle's working load limit from its pin diameter",
    "compute a track's royalty fraction from the seconds it was on air",
    "decide whether two lift pass scans fall inside the anti-passback window",
    "count an orchard's chill hours from hourly temperatures",
]
_EVENTS = [
    "a snow cat's GPS drops out halfway down a run",
    "the playout server reboots in the middle of a live news bulletin",
    "a share member collects the same week's harvest twice",
    "a crate of shackles arrives stamped with the wrong grade",
    "the turnstile network goes offline on a powder day",
]
_SNIPPETS = [
    "case ets:lookup(scans, PassId) of\n"
    "    [{PassId, Last}] when Now - Last < ?PASSBACK_S -> {deny, passback};\n"
    "    _ -> ets:insert(scans, {PassId, Now}), allow\nend",
    "for (GroomingRun *run in routes) {\n    if (run.pisteOpen) { continue; }\n    [cat assignRun:run];\n}",
    "foreach my $member (@members) {\n    my $crates = int($total * $member->{share} / $shares);\n"
    "    push @rows, [$member->{name}, $crates];\n}",
    "(->> carts\n     (filter #(= (:slot %) :drive-time))\n     (sort-by :last-played)\n     first)",
    "for bin in bins:\n  if bin.onHand < bin.reorderPoint:\n    orders.add(newOrder(bin.sku, bin.reorderQty))",
]
_BODIES = [
    "chill_hours <- function(temps) {\n  sum(temps >= 0 & temps <= 7.2)\n}",
    "let royaltyFraction (secondsOnAir: int) (trackSeconds: int) =\n"
    "    min 1.0 (float secondsOnAir / float trackSeconds)",
    "real function wll_tonnes(pin_mm)\n  real, intent(in) :: pin_mm\n  wll_tonnes = 0.0025 * pin_mm**2\nend function",
    "Public Function CmToHalfInches(cm As Double) As Double\n    Return Math.Round(cm / 2.54 * 2) / 2\nEnd Function",
    "def withinPassback(a: TurnstileScan, b: TurnstileScan): Boolean =\n"
    "  math.abs(a.scannedAt - b.scannedAt) < passbackWindowMs",
]
_CODE_LINES = [
    "$row->{crates} = int($total * $row->{fraction});",
    "[cart setSegueMs:cart.outroMs - 250];",
    "bin.OnHand = bin.OnHand - orderLine.Qty",
    "depth_delta <- today$depth_cm - yesterday$depth_cm",
    "(swap! play-queue conj next-cart)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "def {fn}[A](",
        "- (void){fn}:({T} *)",
        "procedure {fn} (Item : in out {T}) is",
        "{fn} <- function(",
        "let rec {fn} (xs: {T} list) =",
        "proc {fn}*(",
        "(defmulti {fn}",
        "jump to the first clause of {fn}/2 in the erlang source",
        "function T{T}.{Fn}(const",
        "subroutine {fn}",
        "jump-to-def {fn}",
        'locate_symbol(name="{qual}", want="definition")',
        "first week here - which file is {T} defined in? I want to read its fields",
        "were is {fn} definied? the body of it i mean",
        "There are three things called {fn} in the grooming code: a wrapper, a mock in the tests and the real "
        "one. Please jump me to the source of the real implementation, where its body is written, not to any "
        "of the places that call it",
        "can you pull up the declaration of {T}? want to see if that field is optional",
    ],
    "find_references": [
        "inbound edges for {fn} in the call graph",
        "which files pull in {path} via import or require",
        "reads of {qual} across the repo",
        "which erlang modules call {fn}/2",
        'find_references(symbol="{qual}", include_tests=true)',
        "before I approve: is {fn} still called from anywhere, or is it dead now?",
        "I'm new on the playout team. who uses {T}, and from which services?",
        "pls show me evry place were {fn} is invoke",
        "compliance needs the list of every module that imports the GPL library wrapped in {path}",
        "{fn} is hot in the profile; which code paths call into it, and from where?",
        "For the royalty audit I need each place in the codebase where {qual} is read or written, grouped by "
        "file, including the scheduled jobs and the admin scripts, because the auditors want to know who can "
        "touch that value",
        "uses of {T}",
        "M-x xref-find-references {fn}",
        "which clojure namespaces :require the one that has {fn}",
        "list the call sites of {fn}, leave out its own definition",
        "incident retro action item: find all callers of {fn} that ignore its return value",
    ],
    "impact_analysis": [
        "blast radius of changing {fn}",
        "{T} schema change, what breaks",
        "if {fn} starts returning nil instead of raising, whose code falls over?",
        "We want to widen the anti-passback window that {fn} enforces from ninety seconds to five minutes. "
        "Before anyone touches it, tell me every feature, report and downstream system that would behave "
        "differently afterwards",
        "when i change the type of one field in {T}, what other things will be broken by this?",
        'impact(symbol="{qual}", change="remove parameter")',
        "legal wants the LGPL library behind {fn} gone; what stops working if we drop it",
        "if we put a cache in front of {fn}, which callers could start seeing stale data",
        "this PR narrows the return type of {qual}; did it miss any dependents that will stop compiling?",
        "{path} delete impact",
        "if I add a field to the erlang record {T}, which modules crash on the old tuple size",
        "new here - if I tweak {fn}, what else could I break without knowing?",
        "retro: the change to {fn} caused the outage; what else depends on it that could have failed too",
        "wat breaks if {T} gets renamed",
        "moving to the next Postgres major version: which queries in {path} are affected",
        "downstream consumers affected if the {T} event payload drops a field",
    ],
    "exact_match": [
        "=CRASH REPORT==== 9-Jan-2024::04:{n}:09 ===\n  crasher:\n    initial call: {fn}/1\n"
        "    exception error: {err}\n    reason: {msg}",
        "{Msg} at {path} line {n}.",
        "Error in {fn}(shares) : {msg}",
        "Execution error ({err}) at {qual} ({path}:{n}).\n{Msg}",
        "*** Terminating app due to uncaught exception '{err}', reason: '{msg}'",
        'fatal: [lift-ctrl-{n}]: FAILED! => {{"changed": false, "msg": "{Msg}"}}',
        "##[error]{Msg}\n##[error]Process completed with exit code {n}.",
        "Datadog monitor fired with '{Msg}', which line of code logs that exact text",
        "systemd[1]: {fn}.service: Failed with result 'exit-code'. the journal just before says: {msg}. "
        "find that string",
        "2024-02-11 03:{n}:17 UTC [4412] ERROR:  {msg} (SQLSTATE {ecode})",
        '"{msg}" literal',
        "regex /{fn}\\s*\\(\\s*\\d+/ across all files",
        'grep(pattern="{ecode}", fixed_strings=True)',
        "i search this exact text of error, where it come from: {msg}",
        "which files under {path} carry the literal header 'SPDX-License-Identifier: AGPL-3.0-or-later'",
        "Support forwarded a photo of the chandlery till showing '{Msg}' with code {ecode}. I need the exact "
        "file and line where that text is produced, character for character, not something that sounds similar",
    ],
    "find_similar": [
        "{snippet}\n\nmore like this?",
        "functions that mirror {fn} line for line",
        "{path} has a twin somewhere, I think; locate it",
        "{body}\nsame logic elsewhere?",
        "The royalty export and the pass sales export were clearly copied from one another at some point. "
        "Starting from {fn}, find the other functions that follow the same pattern so we can fold them together",
        'find_similar(code="{code}", top_k=10)',
        "this looks copy-pasted - is there an existing helper that already does this?\n{snippet}",
        "somebody have write same function like {fn} before? i search the twin of it",
        "{fn} is slow because of N+1 lookups; find the other loops written the same way",
        "clones of this:\n```\n{code}\n```",
        "is there an example elsewhere of code shaped like this that I can crib from?\n{body}",
        "copy-paste detector: what matches {qual}",
        "{task}: already written somewhere? show me lookalikes",
        "- name: restart {fn}\n  ansible.builtin.systemd:\n    state: restarted\nfind the other tasks like this one",
        "licence check: was this block copied from somewhere else in our tree?\n{snippet}",
        "simlar code to {qual} pls",
    ],
    "understand_code": [
        "how does {fn} work",
        "{path}: what is this file's job",
        "why does {fn} take a lock on the {T} first?",
        "I joined the radio team today; can someone walk me through {topic} at a high level?",
        "Our chandlery manager asked me why an order sometimes vanishes from the reorder list. I need a plain "
        "explanation of {topic}: what triggers it, what data it reads, and in what order things happen, so "
        "I can answer her",
        "please explain me what make {fn}, i not understand the logic",
        'explain_symbol(name="{qual}", depth="summary")',
        "retro: what does the system actually do when {event}?",
        "why is {fn} slow on big inputs? walk me through what it does",
        "{code}\nwhat is this line for?",
        "tl;dr of {topic}, for a newcomer",
        "i don't get why {qual} checks this twice, what's the reasoning",
        "what does this function return, and when?\n{body}",
        "does {fn} bundle the third-party library or only call it at runtime? how is it wired",
        "what problem does {T} solve, in a sentence",
        "in {path}, what is the lifecycle of a {T} from creation to archival",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "sixteenth", seed=73)

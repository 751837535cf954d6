"""A tenth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The eight earlier held-out sets (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``, ``routing_eighth.py``,
``routing_ninth.py``) have all been read while routing changes were weighed, so a change chosen on them
is partly chosen on its own test. These templates were written in one sitting by another hand, from the
shapes real requests take where people ask a code search tool or a coding agent for something: IDE
manuals for Go to Definition, Peek Definition, Find Usages and Call Hierarchy (incoming calls), the tool
descriptions of code intelligence servers for agents ("find references to a symbol", "paste code and
find semantically similar implementations", "is this function still reachable"), dead-code and
duplicate-intent guides ("same intent, different implementation", near-clones that drifted apart), issue
threads about change-signature refactorings ("is this a breaking change", "which overriders and call
sites are affected"), incident chat that pastes a Java or Node stack trace, a logcat, syslog or logfmt
line and asks where it is printed, and onboarding guides for people new to a codebase (the big picture,
the lifecycle of an object, why it was designed that way), some of them written by people who are not
native English speakers. Short requests and plain questions were taken to outnumber long wordy ones, as
they do where people type into a search box or an agent calls a tool. The shapes were turned into
templates; no sentence was copied. Questions and imperatives, terse keyword queries and long wordy ones,
typos, non-native English, prose mixed with code, definition syntax of several languages (Kotlin
extension functions, Rust, Go, Java, Ruby, TypeScript), pasted stack traces and log lines, pasted code
with and without words. No classifier was asked any of them while they were written; a template that met
a training one or another set's (``test_intent_model``) was replaced, not reworded. Its slot fillers
come from domains no other set uses (a hospital pharmacy's dispensing cabinets, a municipal water
utility's SCADA telemetry and billing, an airline's crew rostering, a carbon-credit registry), and none
is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "dispense_unit_dose",
    "verifyNurseOverride",
    "reconcile_cabinet_count",
    "lockControlledDrawer",
    "read_meter_interval",
    "computeTieredWaterBill",
    "raise_pressure_alarm",
    "schedule_valve_exercise",
    "assign_pairing_to_crew",
    "checkRestRequirement",
    "swap_reserve_duty",
    "computeDutyPeriod",
    "retire_carbon_credit",
    "issueSerialBlock",
    "verify_project_vintage",
    "transferCreditHolding",
]
_TYPES = [
    "DispensingCabinet",
    "DrawerPocket",
    "MedOrder",
    "ControlledSubstanceLog",
    "MeterRead",
    "ServiceConnection",
    "PumpStation",
    "TariffSchedule",
    "CrewPairing",
    "DutyPeriod",
    "RosterBid",
    "CreditSerialRange",
    "RegistryAccount",
    "RetirementCertificate",
]
_ERRORS = [
    "AbandonedMutexException",
    "SemaphoreFullException",
    "DecoderFallbackException",
    "FileSystemLoopException",
    "AEADBadTagException",
    "ClosedByInterruptException",
]
_MESSAGES = [
    "cabinet drawer opened without a matching witness",
    "override dispense outside the two hour window",
    "count discrepancy on controlled substance pocket",
    "meter register rolled over, consumption came out negative",
    "suction pressure below minimum at booster station",
    "billing cycle closed with estimated reads still pending",
    "crew member short of minimum rest before report time",
    "pairing exceeds maximum flight duty period",
    "reserve pool empty for this base and fleet",
    "serial block overlaps an earlier issuance",
    "credits already retired, transfer refused",
]
_ERROR_CODES = ["EUCLEAN", "ENOANO", "SIGXCPU", "E0716", "EKEYEXPIRED", "EBADMSG"]
_PATHS = [
    "pharmacy/cabinet/dispense.py",
    "pharmacy/audit/ControlledCountReconciler.java",
    "water/scada/telemetry_poller.go",
    "water/billing/tiered_rates.rb",
    "crew/rostering/rest_rules.kt",
    "crew/pairing/pairing_optimizer.cpp",
    "registry/ledger/retirement.rs",
    "registry/api/transferHandler.ts",
]
_TOPICS = [
    "witness capture for controlled drug overrides",
    "blind counts at the dispensing cabinet",
    "restocking cabinet pockets from the central pharmacy",
    "polling of remote pump stations",
    "tiered rates on the water bill",
    "estimated reads when a meter cannot be reached",
    "legal rest between two duty periods",
    "reserve crew call-out",
    "pairing construction for the monthly bid",
    "serial numbering of issued carbon credits",
    "retiring credits on behalf of a buyer",
]
_TASKS = [
    "convert a flow rate from gallons per minute to cubic meters per hour",
    "compute rest hours between two duties across time zones",
    "check that two credit serial ranges do not overlap",
    "prorate a water bill for a partial billing cycle",
    "mask a patient identifier in an audit line",
    "round a dose to the nearest tablet strength on hand",
]
_EVENTS = [
    "a nurse removes a narcotic and the blind count does not match",
    "a pump station stops answering the SCADA poll",
    "a first officer calls in sick two hours before report",
    "a buyer retires credits that are in the middle of a transfer",
    "a meter read arrives after the bill was already issued",
]
_SNIPPETS = [
    "if pocket.count != expected:\n    cabinet.lock_drawer(pocket.drawer)\n"
    "    audit.record(Discrepancy(pocket, expected))",
    "for _, st := range stations {\n\tif st.SuctionPSI < cfg.MinPSI {\n\t\talarms <- LowPressure(st.ID)\n\t}\n}",
    "val rest = Duration.between(prev.releaseTime, next.reportTime)\n"
    "if (rest < minRest) violations += RestViolation(crew, rest)",
    "if ranges.iter().any(|r| r.start <= new.end && new.start <= r.end) {\n    return Err(RegistryError::Overlap);\n}",
    "const billed = tiers.reduce(\n"
    "  (sum, t) => sum + Math.min(Math.max(usage - t.from, 0), t.width) * t.rate,\n  0,\n);",
]
_BODIES = [
    "def prorate(amount, days_used, days_in_cycle)\n  (amount * days_used.to_f / days_in_cycle).round(2)\nend",
    "static boolean overlaps(long aStart, long aEnd, long bStart, long bEnd) {\n"
    "    return aStart <= bEnd && bStart <= aEnd;\n}",
    "def gpm_to_m3h(gpm):\n    return gpm * 0.2271247",
    "int restMinutes(const Duty& prev, const Duty& next) {\n"
    "    return static_cast<int>((next.report - prev.release) / 60);\n}",
]
_CODE_LINES = [
    "cabinet.unlock(drawer, witness=badge_id)",
    "meter.reads.append(Read(ts, value, estimated=True))",
    "if (duty.flightMinutes() > limits.maxFdp) return Verdict.ILLEGAL;",
    "let cert = registry.retire(&holding, qty)?;",
    "bill.Total = tariff.Apply(usage)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "go to definition: {fn}",
        "export abstract class {T} implements",
        "fun {T}.{fn}(",
        "public static {T} {Fn}(",
        "class {T} < ApplicationRecord",
        "type {T} interface {{",
        "pub(crate) fn {fn}(",
        "func {Fn}(ctx context.Context",
        "where does {qual} actually get implemented? the interface only declares it",
        "cant find were {fn} is defined, my editor says no declaration found",
        "source of {T}",
        "{T} class file?",
        "peek definition {qual}",
        "which module defines {T}, ours or the vendored copy",
        "take me to the code of {fn}, I need to read what it does inside",
        "where did someone put the {fn} function? want to open it and edit it",
    ],
    "find_references": [
        "find usages {fn}",
        "who calls {qual}",
        "incoming refs to {qual}",
        "references to {T} in {path}",
        "show me everywhere {T} gets imported",
        "which tests call {fn} directly",
        "call hierarchy for {fn}, incoming calls only",
        "is anybody still using {qual}? looks unused to me",
        "where is {fn} invoked with a {T} argument",
        "all the call sites where the return value of {fn} is ignored",
        "find every `{fn}(` call in the services folder",
        "usages of {T} outside of {path}",
        "whre is {fn} being used",
        "need a list of the handlers that call {fn}, with line numbers please",
        "how many places call {fn}? show them",
        "show each place the {T} constructor is called from",
    ],
    "impact_analysis": [
        "ripple effects of a new required field on {T}",
        "what depends on {path}",
        "if I delete {T}.status, which code paths fail",
        "consequences of changing {fn}'s signature",
        "which services would break if {T} changed shape",
        "blast radius: {qual}",
        "will removing the default argument of {fn} break anyone",
        "I'm about to change how {topic} works, who will this affect downstream?",
        "what would stop working if {fn} threw {err} instead of returning false",
        "impact assessment for deprecating {T}",
        "Is it a breaking change to make {T} immutable?",
        "risky to touch {fn}? how many things hang off it",
        "if i change {path}, which tests and modules i must also check",
        "upstream and downstream of {fn}: what's affected by a change to it",
        "could changing the units returned by {fn} silently corrupt anything downstream",
        "renaming {T}: what else has to change along with it",
    ],
    "exact_match": [
        'quoted search: "{msg}" case sensitive',
        "rg -F '{msg}'",
        "{ecode} as a whole word, case sensitive",
        "Error: {msg}\n    at {qual} ({path}:{n}:17)",
        'Exception in thread "main" {err}: {msg}\n\tat {qual}({T}.java:{n})',
        "Mar 14 04:{n}:55 scada-gw {fn}[{n}]: {msg}",
        "grep for the string `{code}` exactly as written",
        'where do we log "{msg}"? copied it straight from Kibana',
        "search regex `{fn}\\s*\\(`",
        "this exact line: {code}",
        'logger.error("{Msg}") -- find that call, same text',
        "E/{T}: {msg}",
        'level=error msg="{msg}" component={fn}',
        "find verbatim: {Msg}",
        "someone wrote '{msg}' as an error text somewhere, find me the exact file and line",
        "{n}:{n}:07.112 [worker-3] ERROR {qual} - {Msg}",
    ],
    "find_similar": [
        "{body}\n\nwe have this already somewhere?",
        "find code like\n{snippet}",
        "any sibling functions doing what {fn} does?",
        "other implementations of {task}",
        "more functions like this one:\n{body}",
        "```\n{snippet}\n```\nduplicates?",
        "does another module reimplement {fn} under a different name?",
        "look for clones of this block\n{snippet}",
        "code resembling `{code}` in other services",
        "I wrote this to {task}, is there already a same thing in the repo?\n{body}",
        "semantically similar code to {qual}",
        "{snippet}\n^ where else do we do this",
        "same logic as {fn} but for {T}, does it exist?",
        "hunt for near-identical copies of {fn} across services",
        "anything that also does {task}",
        "this pattern keeps showing up, find the other copies so we can extract a helper:\n{snippet}",
    ],
    "understand_code": [
        "what's the mental model for {topic}",
        "summarize what {path} is responsible for",
        "why is {T} shared between threads instead of one per request",
        "what's the lifecycle of a {T}",
        "can you give an overview of {topic} for someone just joining the team",
        "what is the purpose of {fn}, like conceptually",
        "sequence of steps the system goes through when {event}",
        "how do the pieces fit together in {topic}",
        "why was {topic} built around a {T} and not just plain functions",
        "tl;dr of {topic} please",
        "trying to understand {path}: what is the overall flow and where does the data come in",
        "why does `{code}` come before the commit",
        "how is state kept consistent during {topic}",
        "what was {T} introduced for",
        "i dont understand how {fn} and {T} work together, explain please",
        "design rationale behind {topic}?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "tenth", seed=47)

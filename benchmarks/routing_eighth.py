"""An eighth held-out set for the learned routing layer, written before the routing change it judges (a
second model head over sentence vectors, more training templates) and never measured while written.

The six held-out sets before it (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``) have all been read while routing
changes were weighed, so a change chosen on them is partly chosen on its own test. These templates were
written in one sitting by another hand, in shapes of its own taken from how people word requests to
code search and code navigation tools: the tool descriptions and example calls of code intelligence
servers for coding agents ("find callers", "what breaks", "blast radius", refactor impact walk-throughs
that count call sites before a rename), IDE and editor documentation of Go to Definition, Find Usages
and Call Hierarchy, developer Q&A posts and blog write-ups about hunting hidden callers before a
refactor, issue threads asking for duplicate and near-duplicate code detection, codebase onboarding
guides (trace the critical path, what does this module do, where are the dragons), and issue threads
and incident notes that grep logs and source for a traceback, a panic or a log line. No sentence was
copied; the mix leans, as real traffic does, towards short typed queries and pasted text, with some
long wordy questions. Questions and imperatives, terse keyword queries, typos, non-native English, prose
mixed with code, definition syntax of several languages (Rust, Java, TypeScript, Go, Haskell, Scala,
Kotlin, Python), pasted stack traces, panics and log lines, pasted code with and without words around
it. No classifier was asked any of them while they were written; a template that met a training one or
another set's (``test_intent_model``) was replaced, not reworded. Its slot fillers come from domains no
other set uses (a payroll system, a weather-forecast pipeline, a dental clinic's booking and charting,
a drone flight controller), and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "compute_gross_pay",
    "applyTaxBracket",
    "withhold_pension_contribution",
    "issuePayslip",
    "assimilate_radiosonde",
    "regridForecastField",
    "ingest_grib_message",
    "bias_correct_ensemble",
    "book_hygiene_slot",
    "cancelAppointmentHold",
    "chart_tooth_surface",
    "send_recall_reminder",
    "arm_motors",
    "updateAttitudeEstimate",
    "run_failsafe_descent",
    "mixThrottleOutputs",
]
_TYPES = [
    "PayRun",
    "TaxBracket",
    "PayslipLine",
    "DeductionRule",
    "ForecastCycle",
    "GribField",
    "EnsembleMember",
    "ChairSchedule",
    "PatientRecall",
    "ToothChart",
    "AttitudeEstimator",
    "MotorMixer",
    "FailsafeState",
]
_ERRORS = [
    "ArrayStoreException",
    "InvalidCastException",
    "UnicodeEncodeError",
    "TabError",
    "EmptyStackException",
    "NotSerializableException",
]
_MESSAGES = [
    "net pay below statutory minimum",
    "tax code not recognised for employee",
    "payslip already issued for this period",
    "grib message truncated at section 7",
    "forecast cycle missing boundary conditions",
    "ensemble spread collapsed to zero",
    "chair already booked for this slot",
    "patient has no recall interval set",
    "tooth surface code out of range",
    "gyro calibration not complete",
    "battery voltage below failsafe threshold",
]
_ERROR_CODES = ["ETXTBSY", "ENOEXEC", "SIGPIPE", "E0106", "EOVERFLOW", "EDQUOT"]
_PATHS = [
    "payroll/runs/gross_to_net.py",
    "payroll/tax/Brackets.kt",
    "forecast/ingest/grib_reader.py",
    "forecast/postproc/bias_correct.f90",
    "clinic/booking/chair_slots.ts",
    "clinic/charting/ToothChart.cs",
    "flightctl/estimator/attitude.c",
    "flightctl/mixer/motor_mix.cpp",
]
_TOPICS = [
    "gross-to-net pay calculation",
    "year-end tax reconciliation",
    "pension auto-enrolment",
    "data assimilation cycles",
    "ensemble post-processing",
    "grib decoding",
    "chair and hygienist scheduling",
    "recall reminders for patients",
    "the attitude estimator",
    "motor mixing",
    "failsafe descent logic",
]
_TASKS = [
    "compute overtime at time and a half",
    "prorate a salary for a partial month",
    "convert kelvin to celsius across a grid",
    "find the nearest grid point to a latitude and longitude",
    "find the next free half-hour slot in a calendar",
    "clamp a PWM value to the motor range",
]
_EVENTS = [
    "an employee changes tax code mid-month",
    "the upstream model run arrives late",
    "a patient cancels less than a day before",
    "the drone loses its GPS fix",
    "two receptionists book the same chair at once",
]
_SNIPPETS = [
    "gross = hours * rate\nif hours > 40:\n    gross += (hours - 40) * rate * 0.5\n"
    "net = gross - withholding(gross, bracket)",
    "for (int i = 0; i < 4; i++) {\n    out[i] = thr + roll * mix[i][0] + pitch * mix[i][1];\n"
    "    if (out[i] > 2000) out[i] = 2000;\n}",
    "const free = slots.filter(s =>\n"
    "  !bookings.some(b => b.chair === s.chair && b.start < s.end && s.start < b.end));",
    "field = msg.values.reshape(ny, nx)\nfield = np.where(field > 9e20, np.nan, field)\nfield -= 273.15",
    "foreach (var surface in tooth.Surfaces)\n{\n    if (surface.Code > 5)\n"
    "        throw new ArgumentOutOfRangeException(nameof(surface));\n}",
]
_BODIES = [
    "def prorate(salary, days_worked, days_in_month):\n    if days_in_month == 0:\n        return 0\n"
    "    return round(salary * days_worked / days_in_month, 2)",
    "static float clamp_pwm(float v) {\n    if (v < 1000.0f) return 1000.0f;\n    if (v > 2000.0f) return 2000.0f;\n"
    "    return v;\n}",
    "func nearestIndex(lats []float64, lat float64) int {\n\tbest := 0\n\tfor i, v := range lats {\n"
    "\t\tif math.Abs(v-lat) < math.Abs(lats[best]-lat) {\n\t\t\tbest = i\n\t\t}\n\t}\n\treturn best\n}",
    "function nextFreeSlot(day: Slot[], after: Date): Slot | undefined {\n"
    "  return day.find((s) => s.start >= after && !s.booked);\n}",
]
_CODE_LINES = [
    "net = gross - income_tax - pension_employee",
    "thrust = clamp(thr + rate_pid.update(err, dt), 0.0f, 1.0f);",
    "appt.chair_id == slot.chair_id and appt.start < slot.end",
    "t2m = grbs.select(shortName='2t')[0].values - 273.15",
    "mixer.apply(roll_cmd, pitch_cmd, yaw_cmd, throttle_cmd)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "jump to the declaration of {qual}",
        "data {T} =",
        "public class {T} extends",
        "export interface {T} extends",
        "{fn} :: {T} -> IO ()",
        "pub(crate) fn {fn}",
        "func (r *{T}) {Fn}(",
        "which file declares the {T} struct? I need to see its fields",
        "source of {qual} pls, the actual body and not the callers",
        "is {fn} implemented in {path} or somewhere else? want the implementation",
        "were is the class {T} definded",
        "I search the definition of function {fn}, in which module it is written?",
        "open {T} definition",
        "show me the code of `{fn}` itself, the def; I only see it imported everywhere",
        "suspend fun {fn}(",
        "case class {T}(",
        "@staticmethod\ndef {fn}(",
    ],
    "find_references": [
        "every call site of {fn}",
        "who invokes {qual}? list all the callers",
        "usages of {T} across the repo",
        "where do we call `{fn}(` from",
        "find refs {fn}",
        "which modules import {T}",
        "list all places that construct a new {T}",
        "is {fn} still used anywhere or is it dead code",
        "show callers of {qual}, not counting the tests",
        "anybody still calling {qual} from outside {path}?",
        "i need all the places where {T} is instanciated",
        "in which files the method {fn} is used?",
        "callers of {fn} in {path}",
        "find usages: {qual}",
        "show me all the code that calls into {path}",
        "incoming calls for {fn}",
    ],
    "impact_analysis": [
        "what breaks if I delete {fn}",
        "blast radius of changing the return type of {qual}",
        "is it safe to rename {T} to something shorter?",
        "if I add a required parameter to {fn}, who is affected",
        "ripple effects of making {T} immutable",
        "what depends on {path}, transitively, if I split it in two",
        "impact of removing the {T} class",
        "safe to drop {fn}??",
        "planning to change how {fn} rounds its result; which downstream code and reports would notice?",
        "before I refactor {qual}, tell me everything that would have to change with it",
        "what would be impacted if {fn} started raising {err} instead of returning None",
        "if I change the signature of {fn} what else I must modify",
        "downstream consequences of moving {T} into another package",
        "wat breaks when {path} is deleted",
        "risk of changing the default in {fn}: which callers depend on the old value",
        "changing {T}.__eq__, who relies on the current behaviour?",
    ],
    "exact_match": [
        "`{msg}` verbatim",
        "Dec 01 03:{n}:11 ingest-2 python3[2{n}1]: {err}: {msg}",
        "rg --fixed-strings '{Msg}'",
        "find the exact string {ecode} in the source",
        "[ERROR] 2026-03-{n} {fn} failed with {ecode}",
        'where does this log message come from: "{Msg}"',
        "literal match '{msg}' case sensitive",
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.{Fn}()",
        "    at {qual}({T}.java:{n})",
        "Caused by: {err}: {msg}\n\tat {qual}({T}.java:{n})",
        "search for the text `{code}` exactly as written",
        "this is in our logs every night, find where we print it: {Msg}",
        'which file has the string "{msg}" in it',
        "{msg} ({ecode})",
        "exacly this: {msg}",
        "pls find occurence of text '{Msg}' in code",
    ],
    "find_similar": [
        "{snippet}\n[...]",
        "[...]\n{body}",
        "got this in review, feels duplicated, where is the original?\n{snippet}",
        "do we already have something like this?\n{body}",
        "{body}\n\nfind functions that do the same thing",
        "same idiom as `{code}` anywhere else in the codebase",
        "near-duplicates of {fn}",
        "other implementations to {task} in the repo, I think someone wrote one already",
        "copy-pasted versions of this block:\n{snippet}",
        "is there a helper that does this? something like\n{code}",
        "find code similar with this one {code}",
        "simliar code to {fn}",
        "{snippet}\n^ looking for the same pattern in other modules",
        "anything resembling this function\n{body}",
        "clones of {qual} with small edits",
        "lookalike of this: {code}",
    ],
    "understand_code": [
        "how does {topic} actually work end to end?",
        "why does {fn} retry three times before giving up",
        "what does {qual} do",
        "give me the intuition behind {topic}, not a line-by-line reading",
        "trace for me what the system does, step by step, when {event}",
        "walk me through {path}",
        "why is {T} a singleton",
        "whats the purpose of {fn}",
        "I don't get {topic}, can someone explain the idea behind it in simple words",
        "how {topic} is done here? i don't find documentation",
        "overview of {topic} for a new hire",
        "what is `{code}` doing in {path}",
        "why would {fn} return early when {event}",
        "high level: how do the pieces of {topic} fit together",
        "explian the flow when {event}",
        "what is the role of {T} in {topic}",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "eighth", seed=41)

"""The thirty-third held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

It was written from the layout of ``routing_fifteenth.py`` alone (its docstring, slot lists, templates per intent
and ``generate_heldout()``): neither the classifier, nor its model, nor the templates of any other held-out set
were read while it was written, and no classifier was asked any of its phrasings. The templates take the shapes
requests to a code search engine take where engineers, coding agents, review bots, chat and dictation software
type them: questions and imperatives, terse keyword queries and long wordy ones, misspellings, prose mixed with
Python, Go, TypeScript, Java, Rust, Ruby and SQL declarations and code, a pytest ``FAILED`` line, Go ``slog``
logfmt, Android ``logcat``, ``tsc`` diagnostics, a SQL Server ``Msg 50000`` error, a JSON log line, a journald
line, a CloudWatch Logs Insights query, a Kibana KQL hit, ctags and Vim commands, and the tool calls an agent
pastes (keyword arguments, JSON arguments, a numbered plan step). The leakage tests (``test_intent_model``) were
run on it once it was written; their output showed fragments of other sets' templates where some of these met
them (and one met a training template), and each template that did was replaced by a different shape, not
reworded. Its slot fillers come from five domains no other set uses (a glacier research station's ablation
stakes, ice cores and radar soundings; a bookbinding bindery's text blocks, endpapers and marbling; a
stained-glass studio's cartoons, lead came and grisaille firings; a blacksmith's smithy, its billets, quench
hardness records and hinge orders; a bell tower's carillon recitals, clappers and belfry inspections), and none
is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "log_ablation_stake_reading",
    "calibrateRadarSounding",
    "schedule_borehole_run",
    "computeFirnDensity",
    "sew_text_block",
    "computeSpineWidth",
    "queue_marbling_batch",
    "trimForeEdge",
    "cut_glass_to_cartoon",
    "applyLeadCame",
    "schedule_grisaille_firing",
    "record_quench_hardness",
    "heatBilletToColour",
    "priceWroughtHingeSet",
    "schedule_carillon_recital",
    "logBelfryInspection",
]
_TYPES = [
    "AblationStake",
    "IceCoreSegment",
    "RadarSoundingLine",
    "TextBlock",
    "EndpaperSheet",
    "BindingOrder",
    "MarblingBath",
    "GlassCartoon",
    "LeadCameStrip",
    "GrisailleFiring",
    "BilletStock",
    "QuenchRecord",
    "HingeOrder",
    "CarillonRecital",
    "BellClapper",
    "BelfryInspection",
]
_ERRORS = [
    "AblationStakeBuriedError",
    "FirnDensityOutOfRangeError",
    "SpineWidthMismatchError",
    "EndpaperGrainReversedError",
    "LeadCameTooShortError",
    "GrisailleOverfiredException",
    "BilletQuenchedTooEarlyError",
    "ClapperBaldricWornException",
]
_MESSAGES = [
    "ablation stake reading is taller than the stake that was drilled",
    "ice core segment logged below the bottom of its borehole",
    "radar sounding line crosses a crevasse field marked as closed",
    "spine width is narrower than the sewn text block",
    "endpaper grain runs across the spine fold",
    "marbling bath was combed before the size had rested overnight",
    "glass piece is larger than its outline on the cartoon",
    "lead came strip is shorter than the panel edge it has to cover",
    "grisaille firing exceeded the paint maker's peak temperature",
    "billet was quenched before its colour was recorded",
    "hinge order quotes more wrought iron than the smithy has in stock",
    "carillon recital overlaps a scheduled funeral toll",
    "clapper baldric has worn past its inspection limit",
]
_ERROR_CODES = [
    "GLC-0417",
    "GLC-0932",
    "BND-2208",
    "E_CAME_SHORT",
    "E_GRISAILLE_HOT",
    "SMY-503",
    "SMY-517",
    "CRL-0091",
    "0xB311F",
    "0xB3C02",
]
_PATHS = [
    "glacierstation/stakes/ablation_readings.py",
    "glacierstation/radar/sounding.go",
    "glacierstation/cores/CoreSegmentRepository.java",
    "bindery/orders/bindingOrder.ts",
    "bindery/sewing/text_block.rs",
    "bindery/reports/spine_widths.sql",
    "glassstudio/cutting/cartoon_cutter.py",
    "glassstudio/firing/firing_queue.go",
    "glassstudio/quotes/RestorationQuote.java",
    "smithy/quench/hardness_log.rs",
    "smithy/orders/hingeOrders.ts",
    "belltower/recitals/recital_calendar.rb",
    "belltower/inspections/belfry_inspections.sql",
]
_TOPICS = [
    "ablation stake readings on the glacier tongue",
    "logging ice core segments in the drill tent",
    "radar soundings of glacier thickness",
    "sewing text blocks at the bindery",
    "marbling endpapers for special binding orders",
    "cutting coloured glass to the studio's cartoons",
    "firing painted grisaille panels",
    "quench hardness records at the smithy",
    "pricing wrought iron hinge orders",
    "carillon recital scheduling in the bell tower",
    "clapper and belfry inspections",
]
_TASKS = [
    "convert an ablation stake height in centimetres into metres of water equivalent",
    "work out a book's spine width from its page count and paper caliper",
    "estimate how much lead came a window panel needs from its outline length",
    "turn the glow colour of hot steel into an approximate temperature in Celsius",
    "map a bell's strike note in hertz to the nearest named pitch",
    "round a borehole depth down to the end of the last full core run",
]
_EVENTS = [
    "two field teams enter the same stake reading from the glacier",
    "a binding order is trimmed before its sewing has been signed off",
    "a grisaille panel is fired with the wrong batch of paint",
    "a billet is quenched before anyone records its colour",
    "a carillon recital gets booked on top of a funeral toll",
    "the glacier station loses its satellite link halfway through an upload",
    "a marbling bath is reused the day after it was combed",
    "a belfry inspection finds a cracked clapper the week before a recital",
]
_SNIPPETS = [
    "for stake in stakes:\n    if stake.exposed_cm > stake.length_cm:\n        stake.flag = 'buried'\n"
    "        continue\n    readings.append(to_water_eq(stake))",
    "for _, seg := range core.Segments {\n\tif seg.DepthM > hole.DepthM {\n\t\tbad = append(bad, seg)\n\t}\n}",
    "const late = orders\n  .filter((o) => o.sewnAt && !o.trimmedAt)\n  .sort((a, b) => +a.dueOn - +b.dueOn);",
    "let short: Vec<_> = strips\n    .iter()\n    .filter(|s| s.length_mm < panel.edge_mm)\n    .collect();",
    "SELECT r.id, r.starts_at\nFROM recitals r\nJOIN tolls t ON t.tower_id = r.tower_id\n"
    "WHERE tstzrange(r.starts_at, r.ends_at) && tstzrange(t.starts_at, t.ends_at);",
    "for (QuenchRecord q : records) {\n    if (q.colour() == null) {\n        rejects.add(q.billetId());\n    }\n}",
    "worn = [c for c in clappers if c.baldric_wear_mm >= LIMITS[c.bell_id]]",
    "SELECT order_id, SUM(leaves) AS leaves\nFROM signatures\nGROUP BY order_id\nHAVING SUM(leaves) > 400;",
]
_BODIES = [
    "def spine_width_mm(pages: int, caliper_um: float) -> float:\n"
    "    leaves = (pages + 1) // 2\n    return round(leaves * caliper_um / 1000, 1)",
    "func waterEquivalentM(heightCm float64, density float64) float64 {\n\treturn heightCm / 100 * density / 1000\n}",
    "fn came_needed_mm(outline_mm: u32, waste_pct: u32) -> u32 {\n    outline_mm + outline_mm * waste_pct / 100\n}",
    "static int nearestSemitone(double hz) {\n    return (int) Math.round(12 * Math.log(hz / 440.0) / Math.log(2));\n}",
    "export function glowToCelsius(colour: Glow): number {\n  return GLOW_TABLE[colour] ?? NaN;\n}",
    "def core_runs(depth_m: float, run_m: float = 3.0) -> int:\n    return int(depth_m // run_m)",
    "def recital_end(start, bells)\n  start + (bells.size * 90).seconds\nend",
]
_CODE_LINES = [
    "stake.water_eq_m = stake.exposed_cm / 100 * FIRN_DENSITY / 1000",
    "if seg.DepthM > hole.DepthM+0.05 { return ErrBelowHole }",
    "const spine = Math.ceil(pages / 2) * caliperUm / 1000;",
    "let waste = outline_mm * 12 / 100;",
    "UPDATE inspections SET due_on = inspected_on + INTERVAL '6 months' WHERE part = 'baldric';",
    "recital.ends_at = recital.starts_at + 45.minutes",
    "hardness := rockwellFromLeeb(reading.Leeb, steel.Grade)",
    "order.hinge_weight_kg = round(strap_len_mm * bar_section_mm2 * 7.85e-6, 2)",
    "endpaper.grainParallelToSpine = sheet.grain === Grain.Long && order.orientation === 'portrait';",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "var _ {T}Store = (*pg{T}Store)(nil) // where is pg{T}Store defined",
        "pub(crate) struct {T}<'a> {{",
        "CREATE OR REPLACE FUNCTION public.{fn}(",
        "public final class {T} implements Serializable {{",
        "find definition of {fn} full stop then show me the body of it",
        '{{"name": "search_code", "arguments": {{"query": "definition of {fn}"}}}}',
        "{fn} :: where is it defn'd? grep gives me {n} hits and most of them are calls",
        'File "{path}", line {n}, in <module>\n    from .models import {T}\nwhere is {T} actually declared, that '
        "import looks like a re-export",
        "public record {T}(UUID id, Instant measuredAt, BigDecimal",
        "[review-bot] `{fn}` is called in this diff but not defined in it; locate its definition for the reviewer",
        "defintion {qual}",
        "The on-call runbook for {topic} tells me to check what {fn} does with the value, but it doesn't say which "
        "repo or file the function lives in; take me to where it is declared, not to the wrappers around it",
        "where does `{fn}!` come from? it's a macro not a fn and rust-analyzer won't jump to it",
        "hey where's {T} declared? the real one, not the generated protobuf copy",
        ":tag {fn}  -> E426: tag not found. so where is it defined",
        "Step 2/5: read the definition of {qual} before editing. Locate its file and line.",
    ],
    "find_references": [
        'search(q="callers of {fn}", repo="*", limit=200)',
        "every call site of {fn} pls, incl. tests",
        "who calls (*{T}).{Fn} in the go code",
        "every .sql file or migration that calls {fn}()",
        "show me all the places that use {T} comma including the migrations",
        "[review-bot] list all call sites of {fn} that pass its arguments by keyword",
        "grep -rn '{fn}(' --include=*.ts gives too much noise; which of those are real calls and not comments",
        "were is {T} instanciated",
        "which crates in the workspace `use` {T}",
        "callers of {qual} across the go, java and ts services, one line per hit",
        "which Spring beans get a {T} injected via @Autowired",
        "For the {topic} audit I need the complete list of modules, scripts and SQL jobs that call {fn}, including "
        "ones that reach it through a string lookup, with the file and line of each",
        "TODO(agent): enumerate usages of {T} in {path} and the files next to it",
        "{fn} <- who?",
        "quick q, does anything outside {path} reference {fn}?",
        "xref {T} {fn}",
    ],
    "impact_analysis": [
        'analyze_change(target="{qual}", change="remove the second parameter")',
        "if I make {T} `!Send`, what breaks downstream",
        "ALTER TABLE {T} DROP COLUMN measured_at; -- what stops working if I run this",
        "changing {Fn} to return (value, error) instead of panicking: which callers need updating and which tests go "
        "red",
        "what happens if I delete {path} question mark what depends on it",
        "[review-bot] this diff makes {fn} accept metres only instead of any unit; estimate the downstream fallout",
        "rmeove {fn} safe?",
        "who gets hurt if {T} loses its no-arg constructor",
        "if {fn} becomes async (returns Promise<{T}>), what silently breaks because it isn't awaited",
        "ripple effects of bumping the {T} schema to v{n}",
        "We're moving {topic} off the old server and {path} won't exist there; before we schedule the move I want "
        "to know every job, report and service that would fail or quietly produce wrong numbers once that file is "
        "gone",
        "upgrade risk: {fn} will raise {err} on bad input instead of returning None; what is exposed",
        "dependants of {T} if its id column turns into a UUID",
        "Plan: change the signature of {qual}. First assess the impact: which modules, tests and configs are touched?",
        "tbh scared to touch {fn}, what all would break if i change how it rounds",
        "{err} is going away from {path}: what catches it today and what breaks when it's gone",
    ],
    "exact_match": [
        "FAILED tests/test_{fn}.py::test_rejects_bad_input - {err}: {msg}",
        'time=2024-02-11T04:{n}:00Z level=ERROR msg="{msg}" err={err} code={ecode}',
        "fields @timestamp, @message | filter @message like /{msg}/ | sort @timestamp desc | limit {n}",
        '{{"level":"error","ts":"2024-02-11T04:{n}:00Z","code":"{ecode}","msg":"{msg}"}}',
        "Feb 11 04:{n}:13 station-gw {fn}[3{n}]: {Msg}",
        "02-11 04:{n}:13.512  1{n}  1{n} E {T}: {Msg}",
        "{path}({n},7): error {ecode}: {Msg}",
        "Msg 50000, Level 16, State 1, Procedure {fn}, Line {n}\n{Msg}",
        'grep(pattern="{msg}", fixed_strings=true, path=".")',
        'message:"{Msg}" AND service.name:{fn}  <- kibana hit, which source line writes it',
        "search for the exact phrase quote {msg} end quote",
        "find exaclty this string: {msg}",
        "where's error code {ecode} raised? i need the literal, not things like it",
        "[ci-bot] test_{fn} failed with `{err}: {msg}`; locate the raise site verbatim",
        "prod log says '{Msg} ({ecode})' -- where does that literal come from?",
        '{{"tool":"text_search","args":{{"literal":"{ecode}","case_sensitive":true}}}}',
    ],
    "find_similar": [
        'similar_code(snippet="""{body}""", min_score=0.8)',
        "semgrep-ish: find code with the same shape as `{code}`",
        "{fn} has a twin somewhere in the Go services, I'm sure of it. find it",
        "near-copies of {path} in the other repos",
        "find code that looks like this colon {code}",
        "Each of the field teams for {topic} wrote their own helper to {task}; gather all of them so we can keep one "
        "and delete the rest",
        "jscpd flagged {path} -- where are the other clones",
        "[review-bot] The function added below resembles existing code; searching for prior art:\n{body}",
        "simmilar implementations to {fn}?",
        "does the codebase already have something that can {task}? don't want to reinvent it",
        "rust port of this, or anything equivalent in another language:\n{snippet}",
        "queries or loops shaped like this one, any language:\n{snippet}",
        "functions with the same signature and the same logic as {qual}",
        "{code}  <- grep can't find variants of this since the names differ; find lines that do the same",
        "lol pretty sure i wrote this exact thing last year, find my old version\n{body}",
        "Before adding {fn} to {path}, search for functionally equivalent implementations.",
    ],
    "understand_code": [
        'explain_code(path="{path}", depth="overview")',
        "ELI5: {fn} in {path}",
        "why does {T} carry both a created_at and a measured_at",
        "{body}\n\nwhat's this doing, line by line?",
        "explain how {topic} works from start to finish new paragraph keep it short",
        "[review-bot] Summarize the purpose of {path} for the PR description.",
        "what dose {fn} acutally do",
        "what does the code do when {event}?",
        "I'm covering for a colleague on {topic} this week and the code is new to me; could you describe the main "
        "data flow, which parts are Go and which are Python, and where the state is kept",
        "{T}: what's the state machine? write it out as a list of transitions",
        "summarize {qual} in two sentences",
        "in {path}, what's the retry loop around {fn} for",
        "is {fn} pure or does it hit the db? explain",
        "{code}\n^ why this magic number?",
        "can someone explain the control flow in {path}, im lost after the second match arm",
        "Context gathering: describe how {topic} is built (components, data flow, storage) before proposing changes.",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "thirtythird", seed=233)

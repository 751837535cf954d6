"""A thirtieth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The held-out sets up to ``routing_twentyninth.py`` have been, or may yet be, read while routing changes are
weighed, so a change chosen on them is partly chosen on its own test; none of their templates was looked at
while this one was written. It was written from the layout alone: only ``routing_fifteenth.py`` was opened,
as a format (its imports, the ``Slots`` and ``held_out_set`` helpers, the template dict keyed by intent,
the shape of this docstring). The templates come from one hand's sense of how engineers and AI coding
agents put requests to a code search tool: questions and imperatives, terse keyword queries and long wordy
ones, misspellings, lower-case chat, declarations as typed in Go, Rust, Scala 3 and Haskell,
a unified diff of a signature change, a pytest failure line, a Go panic, a journald line, logfmt lines,
ripgrep and ``git grep`` command lines, tool calls an agent might send as JSON or YAML, GitHub and
Sourcegraph search syntax, editor commands that did not find what was hoped (Neovim's ``gd``, Vim's
``:tag``, VS Code's Shift+F12, an empty LSP ``textDocument/definition`` answer), pull request numbers and
onboarding questions. No classifier was asked any of them while they were written, and nothing was scored
on them. Its slot fillers come from five domains no other set uses: a maple sugarhouse's sap lines,
evaporator boils and syrup grading; a herbarium's specimen accessions, determination slips and duplicate
exchanges; a reindeer herding cooperative's calf earmarks, roundup corrals and pasture moves; a milliner's
crown fittings, hat blocks and felt steaming; and a silk farm's rearing trays, mulberry feeding and
cocoon reeling. None is a training filler (``test_intent_model`` checks that, and that no template or
filler meets another set's). Those leakage tests, run once the set was written, showed fragments of other
sets and of the training templates in their failure output (normalised template shapes, colliding
fillers), and a script that printed only which of this set's own templates and fillers met another set's
was run beside them; what met was replaced by a fresh template or filler, not reworded: a first domain
(a funicular railway) was dropped whole for the reindeer herding one, stock exception names and errno
codes gave way to ones made up for these domains, and sixteen templates were rewritten.
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "record_sap_flow_reading",
    "scheduleEvaporatorBoil",
    "grade_syrup_batch",
    "computeBrixCorrection",
    "accession_herbarium_sheet",
    "attachDeterminationSlip",
    "queue_specimen_for_mounting",
    "register_calf_earmark",
    "dispatchHerdToSummerPasture",
    "computeLichenGrazingDays",
    "book_crown_fitting",
    "steamFeltHood",
    "order_grosgrain_trim",
    "weigh_cocoon_harvest",
    "scheduleMulberryFeeding",
    "compute_moult_window",
]
_TYPES = [
    "SapTapLine",
    "EvaporatorBoil",
    "SyrupGradeSample",
    "HerbariumSheet",
    "DeterminationSlip",
    "SpecimenDuplicate",
    "ReindeerCalf",
    "EarmarkRegistration",
    "RoundupCorral",
    "HatBlock",
    "CrownFitting",
    "FeltHood",
    "RearingTray",
    "CocoonLot",
]
_ERRORS = [
    "BrixOutOfRangeException",
    "DeterminationConflictError",
    "InsufficientExecutionStackException",
    "EarmarkAlreadyClaimedException",
    "ConstraintViolationException",
    "InstarOverrunError",
]
_MESSAGES = [
    "sap flow reading logged for a tap that was pulled last season",
    "evaporator boil started with the float box below minimum level",
    "syrup batch graded amber but its brix reads under sixty-six",
    "herbarium sheet has no collector number on its label",
    "determination slip names a taxon missing from the checklist",
    "specimen duplicate was already sent to that exchange partner",
    "calf earmark already registered to another herding family",
    "roundup corral count differs from the helicopter survey",
    "crown fitting booked for a client with no head measurement",
    "felt hood steamed past the block's rated temperature",
    "mulberry leaf delivery is short for the fourth instar trays",
    "cocoon lot weighed before the reeling floor signed it off",
]
_ERROR_CODES = ["RDR-1183", "HRB-0276", "CS1729", "42P17", "0x8007139F", "SGR-0318"]
_PATHS = [
    "sugarhouse/taplines/sap_flow.go",
    "sugarhouse/boils/evaporator_schedule.rs",
    "sugarhouse/grading/syrup_grade.py",
    "herbarium/accessions/SheetAccession.scala",
    "herbarium/determinations/determination_slip.rb",
    "herbarium/mounting/MountingQueue.php",
    "reindeer/roundups/CorralCount.swift",
    "reindeer/earmarks/Earmark.hs",
    "reindeer/pasture/GrazingDays.fs",
    "millinery/fittings/crown_fitting.clj",
    "millinery/blocks/felt_steaming.go",
    "sericulture/rearing/tray_feeding.py",
    "sericulture/reeling/cocoon_lots.rs",
]
_TOPICS = [
    "sap flow readings from the tap lines",
    "evaporator boil scheduling in the sugarhouse",
    "grading maple syrup batches by colour and brix",
    "accessioning pressed specimens into the herbarium",
    "determination slips and taxon name changes",
    "sending specimen duplicates to exchange partners",
    "registering calf earmarks for each herding family",
    "moving reindeer herds between winter and summer pastures",
    "crown fittings and head measurements in the hat shop",
    "steaming felt hoods over hat blocks",
    "mulberry feeding rounds for the silkworm rearing trays",
    "weighing and reeling cocoon lots",
]
_TASKS = [
    "convert a sap reading in gallons per tap into litres per hour",
    "round a head measurement to the nearest hat size",
    "work out how many days a silkworm tray has been in its current instar",
    "turn a herbarium collector number with a letter suffix into a sortable key",
    "count the grazing days left on a lichen pasture from its survey area and the herd size",
    "estimate the syrup yield from a sap volume and its sugar percentage",
]
_EVENTS = [
    "two herding families claim the same calf at the autumn roundup",
    "two curators accession the same herbarium sheet on the same afternoon",
    "the evaporator's float valve sticks halfway through a boil",
    "a client cancels a crown fitting after the felt hood was already steamed",
    "a rearing tray misses two mulberry feeding rounds in a row",
]
_SNIPPETS = [
    "for _, tap := range line.Taps {\n\tif tap.PulledAt != nil {\n\t\tcontinue\n\t}\n"
    "\treadings = append(readings, tap.Flow())\n}",
    "let unmarked: Vec<_> = calves\n    .iter()\n    .filter(|c| c.earmark.is_none())\n"
    "    .map(|c| c.tag_id)\n    .collect();",
    "for tray in trays:\n    if tray.instar == 4 and tray.leaf_kg < tray.quota_kg:\n        shortfalls.append(tray.id)",
    "slips.each do |slip|\n  next if slip.taxon.nil?\n  slip.sheet.update!(current_name: slip.taxon)\nend",
    "let waiting = fittings.filter { $0.headCm == nil }\nfor fitting in waiting {\n    notifier.ask(fitting.client)\n}",
]
_BODIES = [
    "syrupYield :: Double -> Double -> Double\nsyrupYield litres sugarPct = litres / (86 / sugarPct)",
    "function collectorKey(string $number): string {\n"
    "    preg_match('/^(\\d+)([a-z]?)$/', $number, $m);\n"
    "    return str_pad($m[1], 6, '0', STR_PAD_LEFT) . $m[2];\n}",
    "(defn hat-size [head-cm]\n  (/ (Math/round (* 8 (/ head-cm 2.54 Math/PI))) 8.0))",
    "let daysInInstar (moultedOn: DateTime) (today: DateTime) =\n    (today.Date - moultedOn.Date).Days",
]
_CODE_LINES = [
    "let grazing_days = lichen_kg / (herd_size as f64 * daily_intake_kg);",
    "sheet.barcode = prefix + str(accession_no).zfill(7)",
    "$slip->taxon_id ??= $checklist->lookup($slip->verbatim_name);",
    "(assoc fitting :block-size (hat-size (:head-cm fitting)))",
    "tray.LeafQuota = tray.Larvae * feedRateFor(tray.Instar)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "func (h *{T}Handler) {Fn}(w http.ResponseWriter, ",
        "pub fn {fn}(&self, ",
        "enum {T} derives CanEqual:",
        "data {T} = {T}",
        "ruby: `class {T}` is reopened in three files, which one first opens it and defines the initializer",
        "gd on {fn} in nvim just says 'no definition found' -- where is it actually defined?",
        '{{"name": "locate_definition", "arguments": {{"identifier": "{fn}", "near": "{path}"}}}}',
        "where's {T} declared? i need the struct fields",
        "definiton of {fn}??",
        "type:symbol {T} -- I want the declaring file, not the places it's used",
        "vim :tag {fn} gives E426 tag not found, so where is it defined then",
        "Which module defines {qual}? The wiki links to {path} but the function isn't in there any more.",
        "show me the body of {fn}, the original definition, not a wrapper or a re-export",
        "As the agent working on {topic}, I need the declaration site of {T}: file path, line number and the "
        "full type definition, so I can add a field to it.",
        "lsp textDocument/definition for {fn} came back as an empty array; find where it's defined by hand",
        "go to implementation of {fn} (the real one, in {path} or wherever it lives)",
    ],
    "find_references": [
        "who all calls {qual}? need the list",
        "where do we build new {T} objects? every constructor call please",
        '{{"action": "find_references", "symbol": "{fn}", "include_tests": false}}',
        "which handlers call {fn} before saving, and which call it after",
        "Shift+F12 on {T} in VS Code lists 0 references, which can't be right -- who uses it?",
        "usages of {fn}, every call site with file:line please",
        "who reads {T}.status? looking for every consumer of that field",
        "does anything besides {path} use {fn}?",
        "for the {topic} cleanup I need every call site of {fn}, file and line, grouped by package",
        "who subscribes to {T} events",
        "list the modules that import from {path}",
        "{T} -- show usages (not the definition)",
        "where do we pass a {T} into {fn}",
        "are there rake tasks or cron jobs that still invoke {fn}?",
        "find refs to {qual} in the swift and haskell code only",
        "agent task: collect every reference to {T} across the repo (type annotations, constructors, pattern "
        "matches) and return them as a file:line list",
    ],
    "impact_analysis": [
        "deleting {fn} from {path}: what else falls over",
        "if {T} gains a required field, which constructors and decoders have to change?",
        "```diff\n- func {Fn}(ctx context.Context) error\n+ func {Fn}(ctx context.Context, lot {T}) error\n```\n"
        "what else needs updating after this signature change?",
        "moving {path} into its own crate -- what depends on it?",
        "downstream effects of making {fn} return an Option instead of panicking",
        'tool_call: change_impact(symbol="{qual}", change="make_private")',
        "how risky is switching the units in {T} from inches to centimetres? which code paths would silently "
        "give wrong numbers",
        "if {fn} starts throwing {err} instead of returning null, which callers are unprepared for it",
        "change impact on {topic} if we drop {T} entirely",
        "plz tell me what gets affected when i change {fn} , going to merge today",
        "if we make {qual} async, how far does that ripple through the codebase?",
        "ripple effect of a {fn} signature change?",
        "We're replacing {path} with a new service as part of the {topic} rewrite. Map out every module, job "
        "and test that relies on it, and say which would fail outright and which would only behave differently.",
        "is it safe to remove the default value from {T}'s constructor, or will something break",
        "PR #{n} changes {fn} to take milliseconds instead of seconds; which dependants need touching",
        "if {fn} gets ten times slower, which request paths and batch jobs will feel it?",
    ],
    "exact_match": [
        "FAILED tests/test_{fn}.py::test_{fn}_rejects_bad_input - {err}: {msg}\nwhere is that message string in src",
        "panic: {msg}\n\ngoroutine 1 [running]:\nmain.{Fn}(...)\n\t{path}:{n} +0x1f4\ngrep for that panic string",
        "ripgrep --fixed-strings --line-number '{Msg}' .",
        "git grep -n -F '{Msg}'",
        '"{msg}" -- exact phrase, which file?',
        "Mar 03 04:12:55 sugar-01 {fn}[{n}]: {msg}\nwhere in the code is that logged verbatim",
        '{{"tool": "search", "mode": "literal", "query": "{Msg}"}}',
        'search "{ecode}" literally, case-sensitive',
        "/{fn}\\s*\\(/ regex over all files, show me every match verbatim",
        'level=error code={ecode} msg="{msg}"\nwhich line logs this',
        "{err} at {qual}: {Msg} ... find the throw site of this exact message",
        "where is the string '{msg}' defined? want the exact literal",
        "need literal matches of `{T}::new(` only, nothing fuzzy",
        'yaml:\n- tool: grep\n  args:\n    pattern: "{ecode}"\n    fixed_strings: true\n    path: {path}',
        "user says the screen showed '{Msg}'; find that exact text in the code",
        "{err}: {msg} (code {ecode})\nwhich file has this text?",
    ],
    "find_similar": [
        "{snippet}\n\n^^ from {path}; seen this pattern anywhere else? show me similar blocks",
        "anything else in the codebase doing roughly what {fn} does, maybe under another name?",
        "working on {topic}: is there already a helper to {task}? find something similar before I write one",
        "semantic search, excluding {path}: code resembling\n{body}",
        '{{"tool": "find_similar", "code": "{code}", "exclude": ["{path}"]}}',
        "anything similar to {path} in another service",
        "find siblings of {T}: other classes with the same fields and the same validation",
        "we have {fn} in one place; are there near-copies that drifted apart?",
        "same idea as this but somewhere outside {path}?\n{body}",
        "look for code that is structurally similar to {qual}, ignoring the naming",
        "search for analogous implementations of {fn} in the {topic} code",
        "find duplicates of this line from {path}: {code}",
        "i wanna refactor, find all the code that is a copy of {fn} or almost the same",
        "agent: given this function from {path}\n{body}\nreturn the five most similar functions in the repo, "
        "with paths",
        "Someone on the {topic} team wrote a routine to {task} last year and I can't remember where; find code that "
        "looks like it does that, in any language",
        "{code}\nshow me code that resembles this line in any of the {topic} services",
    ],
    "understand_code": [
        "walk me through what {fn} does step by step, i keep misreading it",
        "eli5 how {topic} works, no jargon",
        "explain (found in {path}):\n{body}",
        "what happens when {event}? trace the flow for me, starting at {fn}",
        "what's {T} for? the name doesn't tell me much",
        "tl;dr of {path}? bullet points are fine",
        "why does {fn} hold a lock around the whole loop?",
        "can someone explain what this bit of {path} does\n{snippet}",
        '{{"tool": "explain", "path": "{path}", "depth": "overview"}}',
        "how do {T} and {fn} relate? which one calls into the other",
        "give me an architectural overview of {topic}: the main components, the data flow, where state is kept",
        "whats the point of {qual}",
        "i dont get {code} in {path} -- what is it computing?",
        "Onboarding question: I'm taking over {topic} next sprint. Could you explain how requests move through "
        "{path}, what {fn} is responsible for, and which invariants I shouldn't break?",
        "how is a {T} persisted and then loaded back",
        "what does {fn} return when its input is empty, and why",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "thirtieth", seed=130)

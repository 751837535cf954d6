"""An eighteenth held-out set for the learned routing layer, written before the routing change it judges
and never measured while written.

The held-out sets up to ``routing_seventeenth.py`` (``routing_heldout.py``, ``routing_blind.py``,
``routing_fresh.py``, ``routing_fifth.py``, ``routing_sixth.py``, ``routing_seventh.py``,
``routing_eighth.py``, ``routing_ninth.py`` to ``routing_seventeenth.py``) have been, or may yet be, read
while routing changes are weighed, so a change chosen on them is partly chosen on its own test; none of
their templates was looked at while this one was written (only ``routing_fifteenth.py``'s layout, as a
format). These templates were written in one sitting by another hand, from the shapes real requests take,
leaning on the common ones: terse search-box keywords of one to four words most of all, then questions and
imperatives, messages to a teammate, code review comments and ticket titles; an AI agent's tool calls in
JSON, as a function call, in YAML and in XML-ish tags; the command lines people type to find code
(``git grep -F``, ``ack -Q``, ``git log -S``, ``readtags``, ``ctags -x``, ``semgrep -e``, cscope's
``find c`` from vim, PMD's ``cpd``, ``jscpd``, LSP requests, Sourcegraph queries); IDE actions (VS Code's
Shift+F12, Xcode's call hierarchy and Cmd-click, Emacs's ``M-.``, vim's ``gd``); on-call pages and
incident channels; code pasted with and without words (Ruby, Go, R, Clojure, SQL, PHP, Rust, Swift, F#,
C, Elixir); output pasted from an Android logcat crash, a .NET stack trace, Node's uncaught rejection,
a failing ``go test``, a Rust panic, a browser console, a Kubernetes pod log and a journald line; non-native English
and typos. Impact questions are asked both outright (blast radius) and through a planned change; literal
searches quote a message or leave it bare, give a regex, an error code or a log line; look-alike searches
paste code or say in prose that something was copied or forked; understanding asks how a thing works or
asks for a file, a flow or a design to be explained. The shapes were turned into templates; no sentence
was copied. No classifier was asked any of them while they were written; a template that met a training
one or another set's (``test_intent_model``) was replaced, not reworded. Its slot fillers come from
domains no other set uses (a lighthouse keepers' logbook of lamp watches, fog signals and relief landings,
a violin maker's workshop of plate graduation, varnish coats and repair tickets, a salt marsh
conservation survey of quadrats, transects and breeding-bird counts, a typesetting foundry's matrices,
castings and composing room, and a bell tower's ringing rotas), and none is a training filler
(``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "record_lamp_watch",
    "logFogSignalHours",
    "schedule_relief_landing",
    "computeLensRotationPeriod",
    "enter_barometer_reading",
    "fit_bass_bar",
    "tapToneForPlate",
    "apply_varnish_coat",
    "issueRepairTicket",
    "graduate_top_plate",
    "tally_quadrat_cover",
    "recordTransectPoint",
    "flag_spartina_dieback",
    "countRedshankPairs",
    "cast_sort_from_matrix",
    "justifyLineOfType",
    "reserve_matrix_case",
    "assignRingerToBell",
]
_TYPES = [
    "KeeperLogEntry",
    "LampWatch",
    "FogSignalRun",
    "ReliefLanding",
    "InstrumentCommission",
    "VarnishCoat",
    "PlateGraduation",
    "BenchRepairTicket",
    "QuadratSample",
    "TransectLine",
    "TideGaugeReading",
    "MatrixCase",
    "CastingRun",
    "ComposingStick",
    "PealRecord",
    "RingingRota",
]
_ERRORS = [
    "WickTrimMissingError",
    "InvalidKeySpecException",
    "PlateTooThinException",
    "InvalidProgramException",
    "UnicodeTranslateError",
    "MatrixCaseLockedException",
]
_MESSAGES = [
    "lamp watch handed over without a wick trim entry",
    "fog signal sounded longer than the visibility log allows",
    "relief landing called off for swell above two metres",
    "barometer reading missing for the dawn watch",
    "top plate graduated below the minimum thickness at the f-hole wing",
    "varnish coat applied before the previous coat had cured",
    "bass bar tension outside the maker's tolerance",
    "repair ticket opened for an instrument that is not on the bench",
    "quadrat cover percentages add up to more than one hundred",
    "transect point lies seaward of the surveyed marsh edge",
    "redshank pair counted twice on adjoining plots",
    "matrix case already reserved for another casting run",
    "cast sort is not type-high against the foundry gauge",
]
_ERROR_CODES = ["LUTH-0882", "E_TIDE_GAUGE", "LK-0417", "FDY-3301", "SM-Q29", "CA2016"]
_PATHS = [
    "lighthouse/logbook/watch_entries.rb",
    "lighthouse/fog/FogSignalLog.swift",
    "lighthouse/relief/relief_rota.go",
    "luthier/plates/graduation.rs",
    "luthier/varnish/VarnishSchedule.java",
    "luthier/repairs/repair_tickets.php",
    "saltmarsh/survey/quadrat_cover.R",
    "saltmarsh/birds/redshank_counts.py",
    "saltmarsh/transects/TransectImport.fs",
    "foundry/casting/matrix_cases.clj",
    "foundry/composing/justify_line.c",
    "belltower/rotas/ringing_rota.ex",
]
_TOPICS = [
    "the keepers' nightly lamp watch entries",
    "fog signal logging in poor visibility",
    "relief landings at the rock stations",
    "plate graduation in the violin workshop",
    "varnish curing schedules for new instruments",
    "repair tickets for instruments left with the luthier",
    "quadrat cover surveys across the salt marsh",
    "breeding bird counts on the marsh plots",
    "casting sorts from matrices at the type foundry",
    "line justification in the composing room",
    "ringing rotas for the Sunday service bands",
]
_TASKS = [
    "turn a lamp's flash count and period into a light character like Fl(2) 10s",
    "average a plate's tap tone readings into a single pitch in hertz",
    "convert a Braun-Blanquet score into a percentage of quadrat cover",
    "round a type size in didot points to the nearest whole pica",
    "find the next low water from a tide table for a relief landing",
    "count the changes rung in a touch from its leads and its stage",
]
_EVENTS = [
    "the relief boat cannot land and a keeper overstays his rota",
    "two surveyors record the same quadrat on one tide",
    "a violin is collected before its last varnish coat has cured",
    "a matrix case is lent out while a casting run still needs it",
    "the fog signal stops sounding in the middle of a night watch",
]
_SNIPPETS = [
    "entries.select { |e| e.watch == :middle && e.wick_trimmed_at.nil? }\n       .each { |e| e.flag!(:untrimmed) }",
    "for _, r := range readings {\n\tif r.Hpa < 950 || r.Hpa > 1060 {\n\t\tcontinue\n\t}\n\tsum += r.Hpa\n}",
    "cover <- aggregate(pct ~ species, data = quadrats, FUN = mean)\ncover <- cover[order(-cover$pct), ]",
    '(->> cases\n     (filter #(= (:face %) "Caslon"))\n     (remove :reserved)\n     (map :matrix-id))',
    "SELECT plot_id, COUNT(*) AS pairs\nFROM redshank_sightings\nWHERE season = 2024\nGROUP BY plot_id\n"
    "HAVING COUNT(*) > 1;",
    "foreach ($tickets as $t) {\n    if ($t->instrument_id === null) { continue; }\n"
    "    $t->status = 'awaiting_bench';\n}",
]
_BODIES = [
    "fn mean_tap_hz(taps: &[f32]) -> Option<f32> {\n    if taps.is_empty() { return None; }\n"
    "    Some(taps.iter().sum::<f32>() / taps.len() as f32)\n}",
    'func flashCharacter(_ flashes: Int, period: Int) -> String {\n    flashes == 1 ? "Fl \\(period)s" : '
    '"Fl(\\(flashes)) \\(period)s"\n}',
    "let coverFromScore score =\n    match score with\n    | 5 -> 87.5 | 4 -> 62.5 | 3 -> 37.5\n"
    "    | 2 -> 15.0 | 1 -> 2.5 | _ -> 0.1",
    "int didot_to_pica(double didot) {\n    double pts = didot * 1.07;\n    return (int)(pts / 12.0 + 0.5);\n}",
    "def changes_rung(%Touch{leads: leads, stage: stage}) do\n  leads * stage * 2\nend",
]
_CODE_LINES = [
    "entry.visibility_nm = fog_log.last&.visibility_nm || 0.0",
    "let cureDate = coat.appliedAt.addingTimeInterval(72 * 3600)",
    "plot$cover[plot$cover > 100] <- 100",
    "(update matrix-case :casts-this-week inc)",
    "$ticket->due_on = $ticket->received_on->addWeeks(3);",
    "landing.NotBefore = tide.NextLowWater().Add(-90 * time.Minute)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "{fn} defn",
        "decl of {T}?",
        "vim gd on {qual} only reaches the import line; where is it really implemented",
        "readtags -t tags {fn}",
        "ctags -x --kinds-ruby=f {path} | grep {fn}",
        "whr is {fn} defind",
        '{{"tool": "goto_definition", "symbol": "{fn}", "lang": "ruby"}}',
        'textDocument/definition {{"uri": "file:///{path}", "position": {{"line": {n}, "character": 8}}}}',
        "M-. on {fn} in emacs says no definitions found, so where is it actually defined?",
        "Cmd-click on {T} in Xcode only lands in a generated interface; where is the real struct declared",
        "func (k *{T}) {Fn}(",
        "hey where did we end up putting {fn}? cant find the file it lives in anymore",
        "in which place is define the {T} struct? i need see its fields",
        "nit: where's {T} declared? not obvious from the imports in {path}",
        "paged for {topic}: trace bottoms out in {fn}, which file defines it",
        '<tool name="code_nav"><action>declaration</action><symbol>{qual}</symbol></tool>',
    ],
    "find_references": [
        "{fn} invoked from?",
        "{T} refs",
        "every call site of {fn} pls",
        "semgrep -e '{fn}(...)' --lang ruby .",
        "[vim] :cs find c {fn} returns nothing, so what calls it then",
        '{{"method": "textDocument/references", "params": {{"context": {{"includeDeclaration": false}}}}, '
        '"symbol": "{fn}"}}',
        "Shift+F12 on {T} in VS Code says 0 references but I know {path} uses it somewhere, find them",
        "Xcode: Find Call Hierarchy for {fn}",
        "types conforming to {T}",
        "which modules pull in {path}",
        "before I touch it, can you list everything that calls {qual}? just the call sites",
        "are there other callers of {fn} besides this one? if not let's just inline it",
        "where all is using the {T} class, please give list with files",
        "tool: xref\nsymbol: {qual}\ndirection: incoming",
        "Ticket {n}: inventory every caller of {fn} across {topic}",
        "does anything outside {path} call {fn}?",
    ],
    "impact_analysis": [
        "blast radius of changing {T}",
        "{T} breaking-change check",
        "planning to rename {qual} -- what all will that touch",
        "PR #{n} swaps {T} for a plain hash. who depends on its methods and would break?",
        "incident channel: we want to hotfix {fn} to skip {T} rows with no owner, what is downstream of it "
        "before we ship",
        '{{"tool": "impact_of_change", "target": "{qual}", "change": "signature"}}',
        "deleting {path}: what stops compiling",
        "what would be affected if {fn} became async",
        "we're pulling {topic} out into its own service; which parts of the monolith reach into {T} and will "
        "need changes",
        "if we change the {T} schema, which other part is impacted? need know before the migration",
        "this flips the default of {fn} from true to false -- have we checked every caller still behaves?",
        "risk check: bumping the {T} serialization version, what still reads the old format",
        "ripple effect of making {fn} raise {err}",
        "is it safe to change the return type of {qual}? what would break downstream",
        "Assess downstream impact: make {T} fields nullable",
        "who gets hurt if {fn} returns an empty list instead of nil",
    ],
    "exact_match": [
        "git grep -F -n -e '{msg}'",
        "git log -S '{Msg}' --oneline",
        'ack -Q "{msg}" lighthouse/ luthier/',
        "Unhandled exception. System.{err}: {Msg}\n   at {qual}() in {path}:line {n}",
        "node:internal/process/promises:{n}\n    triggerUncaughtException(err, true /* fromPromise */);\n"
        "    ^\n\nError: {Msg}",
        "E/AndroidRuntime: FATAL EXCEPTION: main\n    java.lang.{err}: {Msg}\n\tat {qual}({T}.kt:{n})",
        "    {path}:{n}: {msg}\nFAIL\tgithub.com/keepers/logbook/relief\t0.{n}s\nwhere does the test print that string",
        "thread 'main' panicked at {path}:{n}:5:\n{msg}\nnote: run with `RUST_BACKTRACE=1` environment variable "
        "to display a backtrace",
        "Uncaught (in promise) {err}: {Msg}\n    at {fn} (bundle.js:{n}:1187)\nwhere in our source is that thrown",
        "Mar 03 04:{n}:11 keeper-host {fn}[2231]: {msg}\nwhich file logs this exact line",
        'level=error code={ecode} msg="{msg}" pod={fn}-7d9f\nfind the source line that prints it',
        "regex: /{T}(Entry|Record)\\s*=\\s*nil/",
        "error code {ecode}, grep the codebase for it literally",
        "i see {msg} in the console, where this text is come from in code?",
        'context:global patterntype:literal case:yes "{Msg}"',
        '{err}: {Msg}\n\tat {qual}({path}:{n})\nsomeone please find the string "{msg}" in the repo',
    ],
    "find_similar": [
        "twin implementations of {fn}",
        "{path} has a doppelganger somewhere, find it",
        "{snippet}\n\nseen this pattern elsewhere in our code?",
        "code resembling:\n{body}",
        "the {topic} logic was copied into two services when we split the monolith, find the copies",
        "someone forked {path} into the mobile app a while ago, locate the forked copies",
        '{{"tool": "similar_code", "snippet": "{code}", "top_k": 10}}',
        "pmd cpd --minimum-tokens 60 --dir {path}",
        "jscpd --min-lines 8 {path}",
        "this block is basically {fn} again -- is there a third copy somewhere?\n{code}",
        "this code i found in two place, maybe more? please find all the same ones\n{snippet}",
        "duplicated {T} parsing across the repo",
        "Tech debt: consolidate copy-pasted helpers in {topic}, first list all the near-identical versions",
        "find code like this, but in the other services:\n{snippet}",
        "tool: clone_search\nquery: '{code}'\nthreshold: 0.8",
        "{T} variants elsewhere, same shape different names",
    ],
    "understand_code": [
        "{fn} internals, step by step",
        "primer on the {topic} code",
        "read {path} with me and say what each part is for",
        "walkthrough of the {T} state machine",
        "what happens when {event}? walk me through the code path",
        "what is this doing?\n{snippet}",
        "{body}\n\nwhy the early return here? trying to understand it",
        'explain_code(target="{path}", depth="overview")',
        "please can you tell how the {topic} is working, i not understand the flow",
        "got 10 min? would love you to talk me through how {fn} and {T} fit together",
        "Spike: document the architecture of {topic}",
        "ELI5 {qual}",
        "I don't follow why {fn} mutates its argument here, what's the intended flow?",
        "architecture overview {topic}",
        "during the incident {fn} retried forever; how is its retry logic supposed to work?",
        "{T}: what's its job",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "eighteenth", seed=83)

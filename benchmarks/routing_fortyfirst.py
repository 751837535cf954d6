"""A forty-first held-out set for the learned routing layer: templates written before the routing change
they judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fortieth.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by a
different hand than the change, in one sitting, from the layout of ``routing_fortieth.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, and none of the fortieth's was reworded.
It keeps the usual spread of voices (two-word keyword queries and long rambling ones, misspellings,
questions and orders, tool calls written as JSON, requests to an agent, review and CI bot comments, commit
messages, a Go panic, a Python traceback, a Java stack trace and timestamped log lines with a question
under them, declarations pasted as typed in Go, Rust, Kotlin, Java, Python, Swift, C#, TypeScript, Ruby
and PHP) and leans on three places where routes are easy to confuse. "Which types implement, satisfy,
conform to, extend or subclass X" (Go structs and interfaces, ``implements`` in TypeScript, Java and PHP,
``impl X for`` in Rust, Swift protocol conformances, Kotlin and C# subtypes, Python ABC subclasses, Ruby
mixins) asks for usages, so ``find_references``, while "another implementation of the same algorithm" or
"code like this" asks for ``find_similar``. Regular expressions, grep-style requests and pasted fragments
(anchors, ``\\s*``, escaped parentheses, ``regex:`` and ``/.../``), error strings, config keys and log
messages, quoted and bare, are ``exact_match``. Impact questions come in unusual wordings, and definition
questions often arrive as a pasted signature. Five templates met a training template or another set's
(``test_intent_model``) and were replaced by ones of another shape, not reworded; that test's failure
output showed, normalised, fragments of the templates they met.

Its slot fillers come from five domains no other set uses: a river canoe and kayak outfitter (boat
rentals, shuttle runs between put-in and take-out, life vest sizing, gauge closures), an optician's shop
(eyeglass prescriptions, pupillary distance, frame fittings, lens lab orders), an arcade's pinball
upkeep (flipper coils, tilt warnings, coin mechs, high score tables), a pub darts league (fixtures,
result sheets, three-dart averages, checkouts, board rotas) and a karaoke bar (the song queue, singer
rotation, booth bookings, key changes). None is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "book_canoe_rental",
    "scheduleShuttleRun",
    "size_pfd_for_paddler",
    "closeRiverSectionOnGauge",
    "record_pupillary_distance",
    "submitLensLabOrder",
    "transpose_cylinder_axis",
    "scheduleFrameAdjustment",
    "rebuild_flipper_coil",
    "registerTiltWarning",
    "clear_coin_mech_jam",
    "awardBallSave",
    "compute_three_dart_average",
    "recordCheckoutAttempt",
    "assign_board_rota",
    "postFixtureResult",
    "enqueue_karaoke_song",
    "rotateSingerOrder",
    "book_karaoke_booth",
    "shiftSongKey",
]
_TYPES = [
    "CanoeRental",
    "ShuttleRun",
    "PaddlerPfd",
    "RiverGaugeClosure",
    "EyeglassPrescription",
    "FrameFitting",
    "LensLabOrder",
    "PinballMachine",
    "FlipperCoil",
    "TiltBobEvent",
    "DartsFixture",
    "CheckoutAttempt",
    "BoardRota",
    "KaraokeQueue",
    "SingerSlot",
]
_ERRORS = [
    "ShuttleOverbookedError",
    "PfdSizeUnavailableException",
    "RiverLevelTooHighError",
    "PrescriptionExpiredException",
    "LensLabRejectedError",
    "FlipperCoilOverheatError",
    "CoinMechJammedException",
    "FixtureAlreadyPostedError",
    "SongQueueFullException",
]
_MESSAGES = [
    "shuttle van left the put-in with an empty trailer",
    "canoe came back with a cracked gunwale and no damage note",
    "paddler weight exceeds the largest life vest in stock",
    "river gauge above flood stage but the section still shows open",
    "prescription axis entered without a cylinder value",
    "pupillary distance measured wider than the frame bridge allows",
    "lens lab returned the order with the wrong coating",
    "flipper coil stayed energized after the ball drained",
    "tilt bob touched the ring three times in one ball",
    "coin mech accepted a token from another arcade",
    "high score table wiped after the cabinet lost power",
    "three-dart average counted a bounce-out as a miss",
    "fixture result posted before both captains signed the sheet",
    "singer added to the karaoke queue twice under different names",
    "karaoke booth booking overlaps the next party by ten minutes",
]
_ERROR_CODES = ["PADL-3107", "OPT-552", "E_COIL_HOT", "DRT-180", "KRK-0419", "0xF1199E", "ESHUTLFULL", "LENS-7720"]
_PATHS = [
    "riverrun/rentals/canoe_rental.go",
    "riverrun/shuttle/ShuttleRun.kt",
    "riverrun/safety/pfd_sizing.py",
    "clearsight/rx/EyeglassPrescription.java",
    "clearsight/lab/lens_order.rs",
    "clearsight/fitting/frameFitting.ts",
    "tiltbox/coils/flipper_coil.c",
    "tiltbox/cabinet/PinballMachine.swift",
    "tiltbox/coinmech/coin_mech.rb",
    "oche/fixtures/fixture_results.php",
    "oche/stats/ThreeDartAverage.cs",
    "oche/rota/boardRota.js",
    "micdrop/queue/karaoke_queue.py",
    "micdrop/booths/BoothBooking.kt",
    "micdrop/keys/songKey.tsx",
]
_TOPICS = [
    "canoe and kayak rentals at the river outfitter",
    "shuttle runs between the put-in and the take-out",
    "eyeglass prescriptions and frame fittings",
    "lens orders sent to the optical lab",
    "flipper coil rebuilds on the arcade's pinball machines",
    "coin mechs and high score tables in the arcade",
    "darts league fixtures and result sheets",
    "three-dart averages and checkout stats",
    "the karaoke song queue and singer rotation",
    "private karaoke booth bookings",
]
_TASKS = [
    "pick a life vest size from a paddler's chest measurement and weight",
    "convert a minus-cylinder eyeglass prescription into plus-cylinder form",
    "work out how many shuttle trips a group of canoes needs given the trailer's slots",
    "compute a darts player's three-dart average from a night's legs",
    "decide whether a flipper coil needs rewinding from its measured resistance",
    "rotate karaoke singers so nobody sings twice before everyone has sung once",
    "price a karaoke booth by the hour with a weekend surcharge",
    "check whether a lens blank is big enough for a frame's effective diameter",
]
_EVENTS = [
    "the river gauge jumps past flood stage while boats are still out",
    "the optical lab ships the wrong lenses for a rush order",
    "a flipper coil burns out mid-game on a busy Saturday night",
    "a darts captain disputes a result that was already posted",
    "two parties turn up for the same karaoke booth",
]
_SNIPPETS = [
    "for _, r := range rentals {\n\tif r.ReturnedAt.IsZero() && time.Since(r.OutAt) > 6*time.Hour {\n"
    "\t\toverdue = append(overdue, r.BoatID)\n\t}\n}",
    "for coil in machine.coils:\n    if coil.ohms < coil.spec_ohms * 0.8:\n        rewind_queue.append(coil.position)",
    "let hot: Vec<_> = coils\n    .iter()\n    .filter(|c| c.pulse_ms > 50)\n    .map(|c| c.label.clone())\n"
    "    .collect();",
    "for (Leg leg : match.getLegs()) {\n    dartsThrown += leg.getDarts();\n    scored += leg.getScore();\n}\n"
    "double avg = scored * 3.0 / dartsThrown;",
    "let stale = prescriptions.filter { $0.examDate < Date().addingTimeInterval(-2 * 365 * 86400) }",
    "queue.group_by(&:singer_id).each { |singer, songs| rotation << songs.first }",
    "const tooWide = fittings\n  .filter((f) => f.pupillaryDistanceMm > f.frame.bridgeMm + 2 * f.frame.lensWidthMm)\n"
    "  .map((f) => f.patientId);",
    "var full = runs\n    .Where(r => r.Boats.Count >= r.Trailer.Slots)\n    .Select(r => r.Id)\n    .ToList();",
    "SELECT player_id, SUM(score) * 3.0 / SUM(darts) AS avg3\nFROM legs\nGROUP BY player_id\nORDER BY avg3 DESC;",
]
_BODIES = [
    "def pfd_size(chest_in, weight_lb):\n    if weight_lb < 50:\n        return 'child'\n    if chest_in < 36:\n"
    "        return 'S/M'\n    return 'L/XL'",
    "func shuttleTrips(boats, trailerSlots int) int {\n\treturn (boats + trailerSlots - 1) / trailerSlots\n}",
    "fn transpose(sph: f32, cyl: f32, axis: u16) -> (f32, f32, u16) {\n"
    "    let new_axis = if axis > 90 { axis - 90 } else { axis + 90 };\n    (sph + cyl, -cyl, new_axis)\n}",
    "fun needsRewind(measuredOhms: Double, specOhms: Double): Boolean =\n    measuredOhms < specOhms * 0.8",
    "public static double ThreeDartAverage(IEnumerable<Leg> legs) {\n"
    "    return legs.Sum(l => l.Score) * 3.0 / legs.Sum(l => l.Darts);\n}",
    "func boothPrice(hours: Int, weekend: Bool) -> Decimal {\n    let base = Decimal(hours) * 40\n"
    "    return weekend ? base * 1.25 : base\n}",
    "function minBlankSize(ed, decentrationMm) {\n  return ed + 2 * decentrationMm + 2;\n}",
    "function postResult(array $sheet): bool {\n    if (empty($sheet['home_sig']) || empty($sheet['away_sig'])) {\n"
    "        return false;\n    }\n    return true;\n}",
]
_CODE_LINES = [
    "boat.status = 'overdue' if now - boat.out_at > RENTAL_LIMIT else boat.status",
    "if rx.cylinder == 0 { rx.axis = nil }",
    "trips := (len(boats) + trailer.Slots - 1) / trailer.Slots",
    "let avg3 = scored as f64 * 3.0 / darts as f64;",
    "coil.needsRewind = coil.ohms < coil.specOhms * 0.8;",
    "$fixture->posted = $sheet->homeSig && $sheet->awaySig;",
    "queue.push(song) unless queue.any? { |s| s.singer_id == song.singer_id }",
    "blank_mm = effective_diameter + 2 * decentration_mm + 2",
    "var price = hours * BoothHourlyRate * (isWeekend ? 1.25m : 1m);",
    "val pfd = if (weightLb < 50) PfdSize.CHILD else sizeByChest(chestIn)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "func (s *{T}) {Fn}(ctx context.Context) error {{\n^ in which .go file is this method written?",
        "impl {T} {{\n    pub fn {fn}(&self)\njump me to wherever this impl block lives",
        "def {fn}(self, *args, **kwargs):   <- which module has this def",
        "export abstract class {T} {{  -- what .ts file declares this",
        "class {T} < ApplicationRecord\n\nruby: where is this model defined?",
        "final class {T} implements \\JsonSerializable -- php, which file declares it?",
        "@Service\npublic class {T} {{\nthat's all the diff shows. where's the full class?",
        "enum class {T} {{  (kotlin) where's the declaration",
        "protected override void {Fn}()\n\nwhich base class first declares {Fn}? I want the original virtual "
        "method, not this override",
        '{{"tool": "goto_definition", "params": {{"name": "{qual}", "follow_reexports": true}}}}',
        "jump 2 def {fn}",
        "wher is {T} declard? cant find it",
        "Where, in the source tree, is the class {T} actually written down? I only ever see it imported from "
        "the package root, never declared anywhere I look.",
        "panic: runtime error: invalid memory address or nil pointer dereference\ngoroutine 1 [running]:\n"
        "main.{Fn}(...)\n\t{path}:{n} +0x1d\nthat path is generated code. where is {Fn} really defined?",
        "@agent find the declaration of {T} -- just file and line, don't read its callers",
        "@objc func {fn}(_ sender: Any)\nswift. locate the declaration for me",
        "origin of {qual}: which file defines it",
    ],
    "find_references": [
        "which types implement `{T}`? it's a go interface, so every struct that has all its methods",
        "TypeScript question: every class declared with `implements {T}` anywhere under src/",
        "rust: show me each `impl {T} for ...` block. which concrete types have this trait?",
        "Which Swift types conform to the {T} protocol? conformances added in extensions count too",
        "kotlin: everything that extends `{T}` (it's an open class), nested and anonymous objects included",
        "python: concrete subclasses of the {T} ABC -- which classes inherit from it or get registered on it?",
        "Java: who `extends {T}`? I need the whole subclass tree, not just direct children",
        "C#: types with `: {T}` in their declaration, i.e. everything deriving from it",
        "php classes using `implements {T}`, and any abstract ones that pass it down",
        "ruby: which classes `include {T}` as a mixin",
        "whats implementing {T} rn",
        "subtypes of {T} pls, even the ones in test fixtures",
        "callers of {qual}, grouped by module",
        "chore: deprecate {fn}\n\nTODO before merge: list all callers so they can be migrated",
        '{{"action": "references", "symbol": "{fn}", "scope": "workspace"}}',
        "everywhere {T} is used as a type annotation or a constructor argument",
        'File "{path}", line {n}, in {fn}\n{err}: {msg}\nwhich other code paths invoke {fn}? this is not the '
        "only entry point",
        "[review-bot] {fn} is called from {n} places outside {path}; please enumerate them so each can be checked",
    ],
    "impact_analysis": [
        "what falls over if {fn} stops accepting None?",
        "who depends on {T}? thinking of moving it into its own package",
        "how far does a change to {qual} ripple -- I need the full list of things to retest",
        "is it safe to rename {fn}, or does something look it up by name (reflection, config, string dispatch)?",
        "downstream consequences of making {T} generic over its id type",
        "refactor: collapse {T} into a plain dict\n\n(commit msg draft) before I push -- what would this break?",
        "[review] this PR changes the default timeout inside {fn}. @agent what's impacted before I approve?",
        "if {path} got deleted tomorrow, what would fail to compile or import",
        "risk assessment for changing how {fn} rounds: which reports and tests consume its output",
        "blast-radius check pls: {T}.__eq__ now compares by id only",
        "chnage {fn} signature -- whats gonna break",
        "If we start raising {err} from {fn} where it used to log and carry on, which callers aren't prepared "
        "to catch it, and what ends up failing for people who rely on {topic}?",
        '{{"tool": "impact", "args": {{"target": "{qual}", "depth": 3}}}}',
        "CI: the contract for {T} will change shape. which consumers (services, jobs, fixtures) have to be "
        "updated in the same PR?",
        "what's downstream of {fn}? I want to make it idempotent and need to know who relies on its side effect",
        "rust: if I add a lifetime parameter to `{T}`, how much of the crate has to change?",
        'Exception in thread "main" {err}: {msg}\n\tat {qual}({T}.java:{n})\n'
        "if {qual} returned Optional instead of throwing, what would have to change elsewhere?",
    ],
    "exact_match": [
        "regex: ^\\s*{fn}\\(",
        "lines matching /{err}\\((\"|')/",
        "git grep -n -F -e '{Msg}' -- '*.py' '*.go' '*.rb'",
        "lines matching `{fn}\\s*=\\s*None`",
        "rg -F '{ecode}' --type-add 'cfg:*.{{yml,toml}}' -t cfg",
        "find every literal copy of '{msg}' -- I suspect the message is duplicated across services",
        "{ecode} | {msg} | sev=2 | source=?\nfill in the source column: which file has that literal text",
        "search for the literal config key `{fn}.enabled` in every yaml and toml file",
        "[{n}:04:11] WARN {ecode} {msg}\n^ which file logs exactly this? search the text",
        "where is the text '{err}: {msg}' produced? search literally",
        "grep for `{code}`",
        '{{"tool": "grep", "args": {{"regex": "{fn}\\\\(.*\\\\)$", "case_sensitive": true}}}}',
        'occurrences of the exact phrase "{Msg}" in logs, templates and code',
        "lines matching regex ^from .+ import .*\\b{fn}\\b",
        'Where does the UI show "{Msg}"? I need the source of that exact string; the copy came from a screenshot',
        "look for this code fragment verbatim: {code}",
        "match /\\b{ecode}\\b/ across the repo",
    ],
    "understand_code": [
        "in domain terms, what real-world thing does {T} represent?",
        "{code}\n^ what does this line do, and why that constant",
        "Can you explain, in a few paragraphs, how the {topic} part of the code is put together: which pieces "
        "talk to which, where state lives, and what runs on a schedule?",
        "step me through the way this codebase manages to {task}",
        "before we refactor {path}, give me a tour of it -- the main types, the entry points, the tricky bits",
        "{body}\n\nwhy is it written this way? seems convoluted",
        "what's the lifecycle of a {T}, from creation to deletion?",
        "{fn} vs {qual} -- what's the difference in behaviour",
        "suppose {event}. does the system recover by itself or does someone get paged? explain from the code",
        "{err} keeps showing up in staging. not asking where it's raised -- I want to understand under which "
        "conditions {fn} decides to throw it",
        "why does {T} hold a lock around {fn}?",
        "docs for {fn} are missing; describe its inputs, outputs and side effects so I can write them",
        "[review] I don't follow the control flow in {fn} -- could you explain what the second loop is doing?",
        "explain the data model behind {topic}",
        "wat does {Fn} even do lol",
        "agent, read through {fn} and tell me in two sentences what problem it solves",
    ],
    "find_similar": [
        "{body}\n\nany other functions in the repo doing the same computation?",
        "dupes of the code that does this: {task}",
        "Other algorithms in the codebase that compute the same thing as {fn}, possibly written by a different "
        "team in a different language",
        "{snippet}\n\nis this pattern repeated elsewhere? same loop, maybe different field names",
        "go: is there another version of {fn} in a different package, with a nearly identical body?",
        "functions resembling {qual} in the {topic} code",
        '{{"tool": "find_similar", "args": {{"code": "{code}", "threshold": 0.8}}}}',
        "siblings of {fn}: same shape, different domain",
        "`{code}` -- where else do we do this same calculation?",
        "refactor prep: near-duplicates of {path} in other services",
        "nearest neighbours of {fn} by function body, top 5",
        "we want one shared helper for this:\n{body}\nfind every copy or variant of it first",
        "DRY audit -- which other classes reimplement what {T} does?",
        "semantic search for code equivalent to: {task}",
        "alt implementations of {fn} (recursive vs iterative, sync vs async, etc)",
        "anything in the repo that rhymes with this?\n{snippet}",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fortyfirst", seed=4141)

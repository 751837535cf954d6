"""A thirty-first held-out set for the learned routing layer, written before the routing change it judges
and never measured while written.

The held-out sets up to ``routing_thirtieth.py`` have been, or may yet be, read while routing changes are
weighed, so a change chosen on them is partly chosen on its own test; none of their templates was opened
while this one was written: it was written from the layout alone (only ``routing_fifteenth.py``'s layout,
as a format). These templates were written in one sitting by another hand, from the shapes requests to a
code search tool take when engineers type them and when coding agents send them: declarations as they are
typed in Rust (``pub fn`` on ``&mut self``), Swift (a ``static func`` in an ``extension``) and OCaml (a
``val`` in a signature), and Go and Ruby declarations asked about in prose; pasted output from a Go test
failure, a PHP fatal error, GHC's ``CallStack``, ``journalctl`` and an on-call dashboard; unified diffs;
tool calls an agent might emit as JSON, YAML or a command line; shell searches (``rg``); code-host and
editor search syntax (``symbol:`` qualifiers, VS Code's Shift+F12 and Ctrl+Shift+F, Neovim's ``gd``);
code review threads, audits and on-call notes. Questions and imperatives, terse keyword queries and long
wordy ones, typos, non-native English, lower-case chat, prose mixed with code, pasted code with and without
words, markdown code fences. No classifier was asked any of them while they were written. The leakage
tests (``test_intent_model``) were run on it, and where one failed its assertion output showed fragments
of the training templates and of other held-out sets; each template it named was replaced by a new one,
not reworded. Its slot fillers come from five domains of its own (a cooperage's stave grading, barrel
toasting and hoop driving, a ropewalk's strand laying, hawser orders and yarn tarring, a smokejumper
base's jump manifests, parachute repacks and fire-line shifts, truffle hunting on leased oak grounds with
scored dogs, and a carousel restoration workshop's horses and sweep arms), with made-up domain exception
names and error codes, and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "toast_barrel_interior",
    "computeStaveBevel",
    "schedule_hoop_driving",
    "grade_oak_stave_lot",
    "lay_strand_twist",
    "computeHawserBreakingLoad",
    "tar_yarn_batch",
    "reserveWalkLane",
    "assign_jump_stick",
    "computeSpotterDriftOffset",
    "inspect_parachute_repack",
    "logFireLineShift",
    "record_truffle_find",
    "rateDogNoseScore",
    "restore_carousel_horse",
    "balanceSweepArm",
]
_TYPES = [
    "StaveLot",
    "BarrelToastProfile",
    "HoopSet",
    "RopeStrand",
    "LayingWalkLane",
    "HawserOrder",
    "JumpManifest",
    "ParachuteRepack",
    "FireLineShift",
    "TruffleFind",
    "HuntingDog",
    "TruffleGround",
    "CarouselHorse",
    "SweepArmBalance",
]
_ERRORS = [
    "StaveGapTooWideError",
    "StrandTwistMismatch",
    "JumpWindowClosedException",
    "RepackExpiredFault",
    "TruffleWeightDisputeError",
    "CarouselPaintLayerConflict",
]
_MESSAGES = [
    "stave bevel angle exceeds the barrel's bilge tolerance",
    "toast level requested is darker than the cooper's fire pit allows",
    "hoop driven before the staves were steamed",
    "strand twist direction does not match the rope's lay",
    "laying lane is shorter than the hawser length ordered",
    "tarred yarn batch has not finished curing",
    "jumper assigned to a stick with an expired parachute repack",
    "spotter drift streamers were not recorded for this jump",
    "fire line shift exceeds the crew's duty-hour limit",
    "truffle find logged outside the leased ground boundary",
    "dog certification lapsed before the hunt date",
    "carousel horse sent to paint before its old layers were stripped",
]
_ERROR_CODES = ["COOP-417", "RWK-0x2C", "SJB-E19", "TRF-2207", "CRSL-0081", "E_STAVE_BILGE"]
_PATHS = [
    "cooperage/staves/bevel.go",
    "cooperage/toasting/toast_profile.rs",
    "cooperage/hoops/hoop_driver.rb",
    "ropewalk/laying/strand_twist.py",
    "ropewalk/orders/HawserOrderService.java",
    "ropewalk/tarring/YarnBatch.hs",
    "smokejumpers/manifest/JumpManifest.scala",
    "smokejumpers/loft/repack_tracker.php",
    "smokejumpers/shifts/fire_line.ml",
    "truffles/finds/find_log.clj",
    "truffles/dogs/NoseScore.fs",
    "carousel/restoration/horse_stripping.zig",
]
_TOPICS = [
    "stave grading and bevel cutting in the cooperage",
    "barrel toasting profiles for the wine cellars",
    "hoop driving and barrel pressure tests",
    "laying strands into rope along the walk",
    "hawser orders for harbour tugs",
    "jump manifests and stick assignments at the smokejumper base",
    "parachute repack tracking in the jumper loft",
    "fire line shift logs and duty-hour limits",
    "logging truffle finds per leased oak ground",
    "scoring and certifying truffle dogs",
    "carousel horse restoration and repainting",
]
_TASKS = [
    "convert a barrel's bilge and head diameters and its height into a capacity in litres",
    "work out how long the walk must be for a given finished rope length",
    "compute the spotter's drift offset from where a streamer landed",
    "price a truffle by its weight in grams using the season's tiered rates",
    "round a stave width down to the nearest eighth of an inch",
    "count how many paint coats a carousel horse still needs from its inspection notes",
]
_EVENTS = [
    "a barrel fails its pressure test after it was already toasted",
    "two rope orders get booked onto the same laying lane",
    "a jumper's parachute repack expires mid-season while they are on the manifest",
    "a dog handler logs a truffle find on a neighbour's ground",
    "a carousel horse comes back from the paint shop in the wrong colour scheme",
]
_SNIPPETS = [
    "for _, s := range lot.Staves {\n\tif s.WidthMm < minWidth {\n\t\trejected = append(rejected, s)\n"
    "\t\tcontinue\n\t}\n\taccepted = append(accepted, s)\n}",
    "let due: Vec<_> = chutes\n    .iter()\n    .filter(|c| c.repacked_on + Duration::days(120) < today)\n"
    "    .collect();",
    "totals = finds.group_by(&:ground_id).transform_values { |fs| fs.sum(&:grams) }",
    "for strand in strands:\n    if strand.twist == rope.lay:\n        rejects.append(strand.id)\n"
    "        continue\n    lane.feed(strand)",
    "val ready = manifest.sticks.flatMap(_.jumpers).filter(j => j.repackDue.isAfter(jumpDate))",
    "(->> finds\n     (filter #(= (:ground-id %) ground-id))\n     (map :grams)\n     (reduce + 0))",
    "for (horse.layers.items) |layer| {\n    if (layer.lead_based) try stripQueue.append(horse.id);\n}",
]
_BODIES = [
    "barrelLitres :: Double -> Double -> Double -> Double\nbarrelLitres bilge headD h =\n"
    "  pi * h / 12 * (2 * bilge ^ 2 + headD ^ 2) / 1000",
    "static int walkLengthMetres(int finishedMetres) {\n    return (int) Math.ceil(finishedMetres * 1.33);\n}",
    "function truffle_price(int $grams, array $tiers): float {\n    foreach ($tiers as $max => $rate) {\n"
    "        if ($grams <= $max) return $grams * $rate;\n    }\n    return $grams * end($tiers);\n}",
    "let drift_offset ~streamer ~spot =\n  let dx = streamer.x -. spot.x and dy = streamer.y -. spot.y in\n"
    "  (dx *. 3.0, dy *. 3.0)",
    "let nose_score (dog: HuntingDog) =\n    dog.Finds |> List.sumBy (fun f -> f.Grams) |> float\n"
    "    |> fun g -> g / float dog.HoursOut",
]
_CODE_LINES = [
    "stave.bevel_deg = math.degrees(math.atan(bulge_mm / stave.length_mm))",
    "let lane_len = order.finished_len * LAY_TAKEUP_FACTOR;",
    "$repackDue = $chute->repacked_on->add(new DateInterval('P120D'));",
    "(swap! finds update ground-id (fnil + 0) grams)",
    "horse.coatsRemaining = @max(0, spec.coats - horse.coatsApplied);",
    "shift.overtime_min = max(0, shift.minutes - crew.duty_limit_min) if shift.on_line else 0",
    "hoops.each { |h| h.drive!(mallet: :heavy) unless h.seated? }",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "where's the receiver method `func (l *{T}) {Fn}` declared? grep only finds the interface",
        "pub fn {fn}(&mut self,",
        "which file reopens `class {T}` and defines `def self.{fn}`? there are several reopenings",
        "extension {T} {{\n    static func {fn}(",
        "val {fn} : {T}.t ->",
        "action: definition\nsymbol: {qual}\nreturn: [path, line, signature]",
        "gd on {fn} in neovim just says no definition found. where does it actually live?",
        "symbol:{fn} lang:go",
        "decl site of {T}",
        "whre is the defintion of {fn}?? cant find it anywere",
        "agent, locate the declaration of {T} and paste its fields here, don't summarise",
        "the backtrace bottoms out in {qual}; take me to the file where that method is written, not its caller",
        "Which module declares the {T} struct? I need the struct itself, its fields and its derive list.",
        "is {fn} defined in {path} or somewhere else? show me the def",
        "yo where's {fn} implemented, need the actual body not the interface",
        "I'm reviewing a pull request for {topic} that adds a call to {fn}, and the hover on the code host "
        "shows nothing; could you find where it is defined and tell me its parameters and return type?",
    ],
    "find_references": [
        "who invokes {fn} nowadays",
        "rg gives me 200 hits for {fn}, I only want the real call sites, not comments or strings",
        '{{"tool": "find_references", "symbol": "{qual}", "include_tests": true}}',
        "list the callers of {qual}, one per line as path:line",
        "new {T}(...) shows up in which files? want each construction site",
        "which ruby files require_relative {path}? list them",
        "shift+F12 on {fn} - show all refs",
        "where is {T} used in the handlers? each call site w/ line numbers",
        "I need an inventory of every caller of {fn}: file, enclosing function, line.",
        "anything still referencing {qual}?",
        "{T} is referenced from where? need all the spots",
        "only in test files: where is {fn} used",
        "pls find all the place where {fn} is call, include also the scripts folder",
        "@codebot list callsites of {fn} grouped by file",
        "which queries or ORM models read from or write to the {T} table",
        "For the audit of {topic} I have to show which handlers go through {fn}; give me every call site, "
        "including indirect ones through callbacks, with the file path for each.",
    ],
    "impact_analysis": [
        "deleting {fn} tomorrow unless someone tells me what it would break",
        "```diff\n-func {Fn}(x {T}) error\n+func {Fn}(ctx context.Context, x {T}) error\n```\n"
        "which callers does this break?",
        "impact of changing the public API of {path}",
        "if {T} gets a new required field, what stops compiling",
        '{{"tool": "impact", "symbol": "{qual}", "change": "rename"}}',
        "I want {fn} to return a Result instead of panicking; what would I have to touch downstream?",
        "safe to remove {path}? what depends on it, transitively",
        "downstream effects of doubling the timeout in {fn}",
        "If we change how {fn} rounds its numbers, which reports and tests would produce different output?",
        "ripple effect of {T} -> Option<{T}>",
        "gonna swap the two args of {fn}, wat breaks",
        "agent: before you edit {path}, list everything that could be affected by changing it, direct and indirect",
        "PR touches {qual}; reviewer wants to know what else it could break, can you tell?",
        "what happens downstream if {fn} starts throwing {err} instead of returning null",
        "whats the risk if {T} becomes immutable",
        "We're moving {topic} into its own service next quarter and {fn} will become a network call instead "
        "of an in-process one; which code paths would feel that, which would need retries or timeouts, and "
        "which tests would stop passing?",
    ],
    "exact_match": [
        "--- FAIL: Test{Fn} (0.{n}s)\n    {path}:{n}: {msg}\nfind where that message string is written",
        "PHP Fatal error:  Uncaught {err}: {msg} in /srv/app/{path}:{n}\nfind this message text in the repo",
        'rg -F --no-ignore "{msg}" src/ lib/ || echo "not in source?"',
        "literal: '{Msg}' (no regex, no stemming)",
        '{{"tool": "search_text", "query": "{msg}", "regex": false}}',
        '"{ecode}" exact match in {path}',
        "which file has the error code {ecode} hardcoded? i think its near {fn}",
        '{fn}: {err} "{msg}"\nCallStack (from HasCallStack):\n  error, called at {path}:{n}:11 in main:{T}',
        "journalctl shows: {ecode} {msg} -- grep the source for that exact string",
        'ctrl+shift+f "{Msg}" with match case on',
        'where does the string "{msg}" appear verbatim',
        'exact search: raise {err}("{msg}"',
        "log says [{ecode}] {msg}\nwhich line prints this?",
        'search:\n  mode: literal\n  pattern: "{msg}"\n  case_sensitive: true',
        "the alert text is '{Msg}' - find it letter for letter, no fuzzy matching",
        "Our on-call dashboard shows {err} with the message '{msg}' and code {ecode}; I need the exact line of "
        "source that builds this message, character for character, because there are similar ones I don't want.",
    ],
    "find_similar": [
        "code similar to this (from {path}):\n```\n{snippet}\n```",
        "anything else that does what {fn} does, maybe under another name?",
        "before I add {fn}: surely someone already wrote code to {task}; show me whatever is closest",
        "```\n{body}\n```\nfind near copies of this function outside {path}",
        "handlers structured the same way as {fn} (validate, lock, write, emit)?",
        "has {path} been copy-pasted anywhere? find files that look like it",
        '{{"tool": "find_similar", "code": "{code}", "exclude": "{path}", "top_k": 10}}',
        "{qual} has twins elsewhere? show me functions that look alike",
        "`{code}` -- where else do we compute it this same way?",
        "i feel like ive seen this loop before in another module:\n{snippet}",
        "are there sibling implementations of {fn} for types other than {T}? same algorithm, different struct",
        "agent: dedupe pass. find functions whose bodies are near-identical to {fn}",
        "semantic neighbours of this, across languages:\n{body}",
        "equivalent of {fn} in the other services?",
        "simliar code to this plz\n{code}",
        "Three contractors touched {topic} over the years and each brought their own helpers. Taking {fn} as "
        "the reference, point me at functions elsewhere that implement the same idea, so we can keep one.",
    ],
    "understand_code": [
        "{fn}: what is it actually doing, in two sentences",
        "could you explain what {path} is for and how its pieces fit",
        "why does {T} exist at all, what problem does it solve?",
        "{body}\n\n^ trace through this for me with an example input",
        "explain like im a new hire: {topic}",
        "why does {fn} take a lock before it reads the {T}?",
        "codesearch explain {path} --level=overview --audience=newcomer",
        "summarize the control flow in {qual}",
        "how does {topic} work end to end? where does the data come from and where does it go",
        "agent: read {path} and give me a short summary of what it's responsible for before we change anything",
        "i dont get what {fn} is doing with the retries, can u explain",
        "what happens in {topic} when {event}?",
        "how do {T} objects get created and who owns them afterwards",
        "meaning of this line in {path}? {code}",
        "new to the codebase: how is {topic} organised, which modules matter most?",
        "Can you give me a tour of {topic}: the main types like {T}, the entry points, and the order in which "
        "things happen when {event}, so I can reason about a bug report without reading every file?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "thirtyfirst", seed=131)

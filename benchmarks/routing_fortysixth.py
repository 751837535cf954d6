"""A forty-sixth held-out set for the learned routing layer: templates written before the routing change they
judge, and not asked of any classifier while they were written.

Every earlier held-out set (``routing_heldout.py``, ``routing_blind.py``, ``routing_fresh.py``,
``routing_fifth.py`` ... ``routing_fortyfifth.py``) has been read, or may be read, while a routing change is
weighed; a change picked while looking at a set is partly picked on its own test. This one was written by a
different hand than the change, in one sitting, from the layout of ``routing_fortyfifth.py`` and of
``held_out_slots.py`` alone: no other set's templates were opened, none of the forty-fifth's was reworded, and
no classifier, router or model was asked about any of its phrasings while they were written. It keeps the
usual spread of voices, spread evenly over the six intents: two- and three-word keyword queries and long
rambling ones, misspellings, lowercase chat, questions and orders, tool calls written as JSON, requests to an
agent, review-bot, lint-bot and CI-bot comments, commit messages, pasted output (Go panics, Python tracebacks,
Java and C# exceptions, Rust panics, Node stacks, timestamped log lines) with a line of words under it, and
declarations and snippets pasted as typed in Go, Rust, Kotlin, Java, Python, Swift, C#, TypeScript, Ruby, PHP,
C++, Scala, Elixir, Haskell and OCaml. It leans a little more than the forty-fifth on plain questions with
nothing pasted (about half its templates), and for the other half on pasted things with a question under them:
declarations asking where they live, who implements, conforms to or calls them, what breaks if they change,
what looks like them, or what they do; and pasted output asking where the named code is declared, who else
calls it, who must handle the error once it changes, where its text is written, or why it happens. The label
is always what the asker wants, not which words appear.
Seven templates met a training template (five) or another set's (two) (``test_intent_model``) and were
replaced by ones of another shape, not reworded; two fillers met another set's and were renamed. A script that
printed only this set's own colliding templates and fillers picked them out, though the test's failure output
showed fragments of other sets' templates and fillers.

Its slot fillers come from five domains, and no filler is another set's: a falconry centre (hawk weigh-ins,
flying displays, mews cleaning, jess and anklet fitting), a community radio station (presenter rotas, playlist
logs, transmitter checks, listener call-ins), a canal lock keeper's office (lock passages, pound water levels,
boat licences, paddle gear), a fencing club (bout scores, piste bookings, blade inspections, pool seeding) and a
seed library (seed packets, germination tests, grower returns, the variety catalogue). None is a training
filler (``test_intent_model`` checks both). ``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "weigh_hawk_before_flight",
    "fitMewsJesses",
    "log_lure_display",
    "bookFalconryExperience",
    "rota_radio_presenter",
    "logTransmitterCheck",
    "record_playlist_spin",
    "queueListenerCallIn",
    "open_lock_paddles",
    "logLockPassage",
    "read_pound_level",
    "issueCanalBoatLicence",
    "score_fencing_bout",
    "bookPisteSlot",
    "inspect_epee_blade",
    "seedFencingPool",
    "lend_seed_packet",
    "logGerminationTest",
    "return_saved_seed",
    "catalogueHeirloomVariety",
]
_TYPES = [
    "FalconMorningWeighIn",
    "MewsCleaningRota",
    "FlyingDisplaySlot",
    "JessFittingRecord",
    "PresenterRotaSlot",
    "PlaylistSpinLog",
    "TransmitterCheckSheet",
    "LockPassageEntry",
    "PoundLevelReading",
    "CanalBoatLicence",
    "FencingBoutScore",
    "PisteBooking",
    "BladeInspectionCard",
    "SeedPacketLoan",
    "SeedGerminationTrayTest",
    "HeirloomVarietyCard",
]
_ERRORS = [
    "HawkUnderFlyingWeightError",
    "JessesNotFittedException",
    "PresenterDoubleBookedError",
    "TransmitterOffAirException",
    "PoundBelowWeirError",
    "LockPaddlesOpenException",
    "BladeFlexOutOfSpecError",
    "PisteOverbookedException",
    "GerminationRateTooLowError",
]
_MESSAGES = [
    "harris hawk flown below its logged flying weight",
    "display booked for a falcon still moulting in the mews",
    "mews cleaning signed off with the bath trays left unfilled",
    "presenter rota has the breakfast show with nobody on it",
    "track logged as played while the studio was off air",
    "transmitter check recorded with the reflected power left blank",
    "lock passage logged while both top and bottom gates were open",
    "pound level read below the weir crest with boats moored in it",
    "boat licence issued for a hull length the lock cannot take",
    "bout scored past fifteen touches in a direct elimination",
    "piste booked for two pools in the same evening session",
    "blade passed inspection with a bend past the allowed flex",
    "seed packet lent out from a batch that failed germination",
    "germination test logged with more sprouts than seeds sown",
    "heirloom variety catalogued twice under different spellings",
]
_ERROR_CODES = ["HWK-4410", "MEWS-027", "E_OFF_AIR", "FMRAD-3316", "LOCK-0852", "E_POUND_LOW", "FNC-771", "SEED-2094"]
_PATHS = [
    "hawkwalk/weighin/hawk_weight.py",
    "hawkwalk/display/FlyingDisplay.kt",
    "hawkwalk/mews/mews_rota.go",
    "airwaves/rota/PresenterRota.java",
    "airwaves/playlist/spin_log.rb",
    "airwaves/transmitter/txCheck.ts",
    "lockside/passage/lock_passage.rs",
    "lockside/levels/PoundLevel.cs",
    "lockside/licences/boatLicence.js",
    "piste/bouts/bout_score.php",
    "piste/blades/BladeInspection.swift",
    "piste/pools/pool_seeding.cpp",
    "seedshed/loans/packet_loan.ex",
    "seedshed/germination/GerminationTrial.scala",
    "seedshed/catalogue/varieties.ml",
]
_TOPICS = [
    "hawk weigh-ins and flying weights at the falconry centre",
    "flying displays and mews cleaning at the bird of prey centre",
    "the community radio station's presenter rota",
    "playlist logs and transmitter checks at the radio station",
    "lock passages at the canal lock keeper's office",
    "pound water levels and boat licences on the canal",
    "bout scoring at the fencing club",
    "piste bookings and blade inspections for the fencing club",
    "seed packet loans at the seed library",
    "germination tests and the variety catalogue at the seed library",
]
_TASKS = [
    "work out a hawk's flying weight as a percentage of its fat weight",
    "fill the radio presenter rota so nobody hosts two shows back to back",
    "log how long each track played so the music licence report adds up",
    "estimate how far a pound drops when a boat goes down through the lock",
    "seed a fencing pool so club-mates are spread across different pools",
    "tally a fencing bout to fifteen touches with a three-minute period limit",
    "compute a germination rate from seeds sown and seeds sprouted",
    "pick which seed packets are due back at the end of the growing season",
]
_EVENTS = [
    "a hawk flies off during a display and does not come back to the lure",
    "the radio transmitter drops off air in the middle of a live show",
    "a lock gate paddle jams open while a narrowboat is in the chamber",
    "the scoring box fails halfway through a fencing club competition",
    "a whole seed batch fails its germination test after packets went out",
]
_SNIPPETS = [
    "for _, h := range hawks {\n\tif h.WeightG < h.FlyingWeightG-15 {\n\t\tgrounded = append(grounded, h.Ring)\n\t}\n}",
    "for show in rota:\n    if show.presenter is None:\n        gaps.append(show.slot)",
    "let busy: Vec<&Passage> = passages\n    .iter()\n    .filter(|p| p.lock == lock_id && p.day == today)\n"
    "    .collect();",
    "for (Bout b : pool.getBouts()) {\n    if (b.touchesFor() >= 5) {\n        winners.add(b.getFencer());\n    }\n}",
    "let failed = trials.filter { $0.sprouted * 100 / $0.sown < 70 }",
    "spins.select { |s| s.aired_at.hour.between?(6, 9) }.group_by(&:artist)",
    "const lowPounds = readings\n  .filter((r) => r.levelCm < r.weirCm)\n  .map((r) => r.pound);",
    "var dueBack = loans\n    .Where(l => l.ReturnBy < DateTime.Today)\n    .OrderBy(l => l.Grower)\n    .ToList();",
    "SELECT piste_id, COUNT(*) AS bookings\nFROM piste_bookings\nWHERE session_date = CURRENT_DATE\nGROUP BY piste_id;",
]
_BODIES = [
    "def flying_ratio(weight_g, fat_weight_g):\n    return round(weight_g / fat_weight_g * 100, 1)",
    "func poundDropCm(lockAreaM2, poundAreaM2, riseCm int) int {\n\treturn lockAreaM2 * riseCm / poundAreaM2\n}",
    "fn germination_pct(sown: u32, sprouted: u32) -> u32 {\n    if sown == 0 { 0 } else { sprouted * 100 / sown }\n}",
    "fun boutOver(left: Int, right: Int, secs: Int): Boolean =\n    left >= 15 || right >= 15 || secs >= 540",
    "public static int SpinMinutes(int plays, int trackSecs) {\n    return plays * trackSecs / 60;\n}",
    "func licenceFee(lengthM: Double) -> Double {\n    return max(120, lengthM * 38.5)\n}",
    "function rotaGaps(slots) {\n  return slots.filter((s) => !s.presenter).map((s) => s.start);\n}",
    "function packetsDue(array $loans, int $year): array {\n"
    "    return array_filter($loans, fn($l) => $l['season'] < $year);\n}",
]
_CODE_LINES = [
    "hawk.grounded = hawk.weight_g < hawk.flying_weight_g - 15",
    "if p.LevelCm < p.WeirCm { return errPoundLow }",
    "let pct = sprouted * 100 / sown.max(1);",
    'val verdict = if (flexMm > 1.0f) "fail" else "pass"',
    "spin.logged_at = Time.now unless station.off_air?",
    "bout.leader = bout.left > bout.right ? 'left' : 'right';",
    "$licence['fee'] = max(120, $boat['length_m'] * 38.5);",
    "pools = Enum.chunk_every(fencers, 6)",
    "var overlap = booking.End - next.Start;",
    "due = LOANS_BY_SEASON[packet.season % 4]",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "defn of {T} pls, the real one not a stub",
        "where exactly does {fn} get declared? there are three files with that name in them",
        "wher is {T} defind, cant find the sorce",
        '{{"tool": "locate", "query": "{fn}", "want": "declaration", "lang": "any"}}',
        "agent: open the file that declares {T} and tell me the line number, don't change anything",
        "sealed trait {T}\nscala: which file is this sealed trait declared in? I need to see its cases",
        "defmodule {T} do\nelixir -- where is this module defined? the umbrella app has too many apps",
        "thread 'main' panicked at '{msg}', {path}:{n}:9\n\nwhere is the fn {fn} that this panic comes out of "
        "actually defined?",
        "{err}: {msg}\n   at {qual}() in {path}:line {n}\n\nwhich file declares the {err} type itself?",
        "public interface {T} {{\njava: this is only the interface, where's the class that actually implements "
        "the method bodies? want to jump to it",
        "ok so I'm reading through {topic} and there's a call to {fn} in almost every handler, but my editor "
        "can't resolve it because of some dynamic import trick, and I just want to know which file the function "
        "is really written in so I can read it",
        "[lint-bot] {fn} is redefined in this file; point to the first definition so the author can delete one",
        "refactor: move {T} next to where it is declared\n\nwhere is it declared right now?",
        "func (s *{T}) {Fn}(ctx context.Context) error\ngo: which file has the body of this method?",
        "quick q, where does {err} live",
        "go to the declaration of {qual}",
    ],
    "find_references": [
        "list {fn} call sites in prod code",
        "who uses {T} outside of {path}?",
        "wich modules improt {T}, need a list",
        '{{"tool": "find_usages", "symbol": "{fn}", "include_tests": false}}',
        "agent, list every place that constructs a {T} directly instead of going through the factory",
        "protocol {T}Source {{\nswift: which types conform to this protocol? I need all of them",
        "interface {T} {{\n    fun {fn}()\n}}\nkotlin -- who implements this interface across modules?",
        'Exception in thread "main" {err}: {msg}\n\tat {qual}({T}.java:{n})\n\nshow me all the call sites of '
        "{qual}, I think more than one passes null",
        "    at {Fn} (/app/{path}:{n}:14)\n    at processTicksAndRejections (node:internal/process/task_queues:95:5)"
        "\n\nwhich other functions call {Fn}? only want callers, not what it calls",
        "class {T}(ABC):\n    @abstractmethod\n    def {fn}(self): ...\npython: list the subclasses of this",
        "I'm trying to figure out how widely {fn} is used in {topic}, not what would happen if I changed it, "
        "just literally where it's called from and which files import it, because the last person to touch it "
        "said it was only used in one place and I don't believe them",
        "[review-bot] {T} gained a new constructor parameter; list each place that instantiates {T} so the "
        "author can check them",
        "test: cover all callers of {fn}\n\nfirst I need the list of callers",
        "template <typename T> class {T} : public Base<T>\nc++: what subclasses {T}? any CRTP users too",
        "hey does anything still read {T}.{fn} or can i stop worrying",
        "where is {err} caught",
    ],
    "impact_analysis": [
        "{fn} blast radius",
        "if we rename {T} what else needs touching?",
        "wat breaks if {fn} starts returing None",
        '{{"tool": "dependents", "target": "{T}", "transitive": true, "reason": "removal"}}',
        "agent -- estimate what downstream code is affected if {path} is split into two modules, list it by package",
        "pub enum {T} {{\n    Pending,\n    Done,\n}}\nrust: adding a variant here, which match arms stop compiling?",
        "type {T} = {{ id: string; at: Date }}\nts: if `at` becomes a string, what is affected downstream?",
        "goroutine 7 [running]:\n{path}:{n} +0x2c\npanic: {msg}\n\nif {Fn} starts returning {err} instead of "
        "panicking, which callers have to handle it?",
        "[2025-06-02 04:{n}:51] ERROR {T} {ecode} {msg}\n\nwe want {fn} to fail hard on this from now on; what "
        "would that take down with it?",
        "public sealed class {T}\nc#: unsealing this and making {fn} virtual, who could be affected?",
        "the plan for {topic} is to change what {fn} returns when {event}, and before I open the pull request I "
        "want to know every job, endpoint and test that would behave differently or need updating because of it",
        "[ci-bot] this change touches {path}; report the dependents that need to be rebuilt and retested",
        "breaking: drop {T}.{fn}\n\nwho depends on it and what will they need to change?",
        "def {fn}(self, *, strict: bool = False)\npython: making strict default to True, what breaks?",
        "which services go down if {T} table is dropped",
        "is it safe to bump {fn} timeout to 30s? what depends on it being fast",
    ],
    "exact_match": [
        "{ecode} exact string, all file types",
        "where is the error code {ecode} defined as a string?",
        "serch for the exect text {msg}",
        '{{"tool": "text_search", "query": "{Msg}", "regex": false}}',
        "agent: grep the whole repo for the literal {ecode} and print every matching line",
        "thread 'worker' panicked at '{ecode}: {msg}', {path}:{n}:5\n\nfind where that exact string "
        "'{ecode}: {msg}' is written",
        '{err}: {Msg}\n  File "{path}", line {n}\n\ngrep for the message text exactly as printed',
        '2025-04-17T09:{n}:33Z level=error code={ecode} msg="{msg}"\n\nwhich source line writes this? match the '
        "message word for word",
        "System.InvalidOperationException: {Msg}\n   at {qual}()\n\nsearch for this message string literally, "
        "resources files too",
        "find every occurrence of the config key `{fn}.enabled` spelled exactly like that",
        'grep -rn "{ecode}" --include=*.yaml',
        '[ci-bot] the string "{Msg}" is duplicated in several files; list every file where it appears verbatim',
        'fix: typo in error text\n\nneed all places with exactly "{msg}" first',
        "a volunteer from {topic} pasted me a log line in chat that says {Msg} and nothing more, and I'd like "
        "every spot in the codebase where that exact sentence is typed out, including tests and translation "
        "files, so I can tell which one fired",
        "regex search: `{ecode}|{fn}\\(` across all files",
        "who hardcodes '{msg}' lol",
    ],
    "understand_code": [
        "{T} internals explained?",
        "why does {T} keep its own cache instead of asking the database each time?",
        "can sombody explian what {fn} acutally does",
        '{{"tool": "explain", "symbol": "{qual}", "detail": "high"}}',
        "agent: read through {path} and give me an overview of the main flow, no code changes",
        "{body}\n\nwhat does this return for zero, and why?",
        "{snippet}\n\nwhat is this loop for? i don't follow the condition",
        "module {T} = Make (struct type t = int let compare = compare end)\nocaml: what does this functor "
        "application give me?",
        "GenServer.call(:{fn}, {{:refresh, id}})\nelixir -- how does this get handled, and what happens if the "
        "process is busy?",
        'Traceback (most recent call last):\n  File "{path}", line {n}, in {fn}\n{err}: {msg}\n\nwhy does '
        "{fn} end up here at all? what is it trying to do",
        "2025-02-12 13:{n}:44 WARN {T} retrying after {ecode}\n\nhow does the retry in {T} work, how many times "
        "and with what delay?",
        "I just inherited {topic} and nobody wrote anything down, so could you walk me through how {T} fits "
        "together with the rest, what each piece is for, and what the system does when {event}",
        "[review-bot] please add a short explanation of how {fn} handles concurrent calls",
        "docs: explain {T} lifecycle\n\nhow is a {T} created, changed and thrown away?",
        "whats {path} even for",
        "explain the control flow in {fn}",
    ],
    "find_similar": [
        "lookalikes of {fn} elsewhere",
        "does anything else in the codebase already {task}?",
        "any code simmilar to {qual}, might be a copy-paste",
        '{{"tool": "similar_code", "path": "{path}", "min_overlap": 0.6}}',
        "agent -- find functions that look like {fn} in other services and show me how they differ",
        "{body}\n\nfind other functions written almost the same way",
        "{snippet}\n\nanything else in the repo shaped like this?",
        "{code}\n\nsame pattern anywhere else? want to replace them all with a helper",
        "def {fn}(rows)\n  rows.select(&:active?).map(&:id)\nend\nruby: other select-then-map helpers like this?",
        "{fn} :: [{T}] -> Maybe {T}\n{fn} = listToMaybe . filter isDue\nhaskell -- anything else that picks the "
        "first match like this?",
        "static IEnumerable<{T}> {Fn}(IEnumerable<{T}> xs) => xs.Where(x => x.Active).OrderBy(x => x.Rank);\n"
        "c#: find LINQ chains like this across the solution",
        "I keep running into bits of {topic} that seem to do the same date-window check with tiny differences, "
        "different variable names, sometimes in a different language, and I want a list of every function that "
        "does that same logic so we can merge them into one",
        "[review-bot] {fn} looks like existing code; find near-duplicates so the author can reuse instead of copying",
        "refactor: merge duplicate {T} validators\n\nfind all validators for {T} that do the same checks",
        "is {fn} a dupe of something",
        "other implementations of {T} parsing?",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fortysixth", seed=4646)

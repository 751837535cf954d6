"""A thirty-fourth held-out set for the learned routing layer, written before the routing change it judges and
never measured while written.

The held-out sets up to ``routing_thirtythird.py`` have been, or may yet be, read while routing changes are
weighed, so a change chosen on them is partly chosen on its own test. This one was written from the layout of
``routing_fifteenth.py`` alone (its docstring, slot lists, templates per intent and ``generate_heldout()``)
and the shared filler in ``held_out_slots.py``; the classifier, its model and its documentation were not read,
and no other held-out set's templates were looked at. Its templates are new shapes rather than rewordings of
the fifteenth's: requests as engineers, coding agents, review bots, chat and dictation put them to a code
search engine, questions and imperatives, terse and wordy, misspelt, with pasted code in Python, Go,
TypeScript, Java, Rust, SQL, Ruby and Kotlin, stack traces and log lines from several runtimes, unified diffs,
and the tool-call forms an agent pastes. No classifier was asked any of them while they were written. The
leakage tests (``test_intent_model``) found some first drafts meeting a training template or another set's,
and their failure output showed fragments of other sets' templates; each template it named was replaced by a
genuinely different shape, not reworded. Its slot fillers come from five domains no other set uses: a racing
pigeon club's basketing, ring numbers and race velocities; a court stenography agency's realtime feeds,
deposition transcripts and errata sheets; a lifeboat station's crew paging, slipway launches and shouts; a
typewriter repair shop's overhaul tickets and ribbon stock; and a dry-stone walling contractor's wall quotes,
through stones and waller gangs. Its error names are made up for those domains, and none of its fillers is a
training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "basket_race_entries",
    "computeRaceVelocity",
    "verify_ring_number",
    "scheduleLiberation",
    "sync_realtime_steno_feed",
    "certifyDepositionTranscript",
    "merge_errata_sheet",
    "buildWordIndex",
    "page_lifeboat_crew",
    "logSlipwayLaunch",
    "record_shout_outcome",
    "assignHelmRota",
    "book_typewriter_overhaul",
    "replaceRibbonSpool",
    "quote_wall_rebuild",
    "estimateThroughStones",
]
_TYPES = [
    "RacePigeon",
    "LiberationPoint",
    "BasketingSheet",
    "DepositionTranscript",
    "StenoStrokeBuffer",
    "ErrataSheet",
    "SlipwayLaunchLog",
    "CrewPagerAlert",
    "LifeboatShout",
    "TypewriterJobTicket",
    "TypebarAlignment",
    "DryStoneWallSection",
    "CopingCourse",
    "WallerGang",
]
_ERRORS = [
    "RingNumberMismatchError",
    "StenoFeedDesyncError",
    "TranscriptSealedException",
    "SlipwayOccupiedError",
    "TypebarJamException",
    "CopingShortfallError",
]
_MESSAGES = [
    "ring number is not registered to this fancier",
    "pigeon was basketed after the marking closed",
    "liberation time is later than the first arrival",
    "steno feed fell behind the audio by more than ten seconds",
    "transcript was certified before the errata deadline",
    "deponent signature page is absent from the exhibit bundle",
    "lifeboat launched without a helm on the crew list",
    "slipway winch has no inspection in the last ninety days",
    "shout closed before the casualty was handed over",
    "typebar alignment drifted past the shop tolerance",
    "ribbon spool size does not fit this carriage model",
    "coping stones ordered fall short of the wall length",
]
_ERROR_CODES = ["PGN-0412", "STN-LAG-7", "ORA-20417", "SLP-221", "TWR-0088", "DSW-3090"]
_PATHS = [
    "pigeonclub/races/velocity.py",
    "pigeonclub/basketing/ring_check.go",
    "pigeonclub/liberation/LiberationPlanner.kt",
    "courtsteno/realtime/feed_sync.rs",
    "courtsteno/transcripts/CertifyTranscript.java",
    "courtsteno/errata/errata_merge.rb",
    "lifeboat/launches/slipwayLog.ts",
    "lifeboat/crew/pager_dispatch.go",
    "lifeboat/shouts/shout_outcomes.sql",
    "typewriter_shop/jobs/overhaul_ticket.rb",
    "typewriter_shop/parts/RibbonCatalog.java",
    "drystone/quotes/wall_estimate.py",
    "drystone/gangs/GangRota.kt",
]
_TOPICS = [
    "race velocity calculation for the pigeon club",
    "basketing pigeons the night before a race",
    "ring number checks against the fanciers' register",
    "realtime steno feeds to the courtroom screens",
    "certifying deposition transcripts and their errata sheets",
    "paging lifeboat crew when a shout comes in",
    "slipway launch and recovery logs",
    "typewriter overhaul job tickets",
    "ribbon and spool parts stock at the repair bench",
    "quoting dry-stone wall rebuilds by the metre",
    "waller gang rotas and stone deliveries",
]
_TASKS = [
    "convert a pigeon's flying time and distance into yards per minute",
    "turn steno stroke timestamps into a page-and-line reference",
    "round a lifeboat launch time to the nearest minute in UTC",
    "estimate tonnes of stone for a wall from its length, height and batter",
    "normalise a typewriter serial number into the maker's format",
    "split a transcript fee between the ordering party and the copy requests",
]
_EVENTS = [
    "two fanciers clock the same ring number in one race",
    "the steno writer loses its link halfway through a deposition",
    "the pager gateway is down when a shout comes in",
    "a waller gang is booked on two farms on the same day",
    "a typewriter is collected before its overhaul ticket is closed",
]
_SNIPPETS = [
    "for bird in basket.birds:\n    if bird.ring not in register:\n        rejected.append(bird)\n"
    "        continue\n    entries.add(bird.ring)",
    "for _, m := range crew {\n\tif !m.OnCall {\n\t\tcontinue\n\t}\n"
    '\tif err := pager.Send(m.Phone, shout.ID); err != nil {\n\t\tlog.Printf("page %s: %v", m.Name, err)\n\t}\n}',
    "let lagging: Vec<_> = strokes\n    .iter()\n    .filter(|s| s.audio_ms - s.written_ms > 10_000)\n    .collect();",
    "SELECT gang_id, COUNT(*)\nFROM wall_bookings\nWHERE booked_on = :day\nGROUP BY gang_id\nHAVING COUNT(*) > 1;",
    "tickets.select { |t| t.status == :open && t.collected_at }\n       .each { |t| notify_bench(t) }",
]
_BODIES = [
    "def yards_per_minute(distance_m, flown_s):\n    if flown_s <= 0:\n        return 0.0\n"
    "    return distance_m * 1.0936 / (flown_s / 60)",
    "fun stoneTonnes(lengthM: Double, heightM: Double, batter: Double): Double {\n"
    "    val avgWidth = 0.6 - batter * heightM / 2\n    return lengthM * heightM * avgWidth * 2.2\n}",
    "static String pageLine(long strokeMs, int linesPerPage) {\n    long line = strokeMs / 4000;\n"
    '    return (line / linesPerPage + 1) + ":" + (line % linesPerPage + 1);\n}',
    "function roundLaunch(at: Date): string {\n  const ms = Math.round(at.getTime() / 60000) * 60000;\n"
    "  return new Date(ms).toISOString();\n}",
    "func normaliseSerial(s string) string {\n\ts = strings.ToUpper(strings.TrimSpace(s))\n"
    '\treturn strings.ReplaceAll(s, " ", "-")\n}',
]
_CODE_LINES = [
    "velocity := distanceYards / flown.Minutes()",
    "transcript.certified_at ||= Time.current",
    "let lag = audio_ms.saturating_sub(written_ms);",
    "UPDATE launches SET recovered_at = now() WHERE shout_id = $1;",
    "val throughStones = (lengthM / 0.9).roundToInt()",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "grep -rn 'func {Fn}(' --include=*.go   # want the declaration only, not the callers",
        '{{"tool": "goto_definition", "symbol": "{qual}", "lang": "kotlin"}}',
        "ctrl-click on {fn} in {path} lands me in a .pyi stub -- where is the real implementation",
        "go to definition of {fn} period the rust one not the python one",
        "{T}: data class or sealed interface? take me to its declaration",
        "Ruby: where is `def self.{fn}` actually written? it isn't in {path}, maybe a concern mixes it in",
        "which file says `type {T} struct`",
        "sig of {fn}",
        "defn {T}?",
        "[review-bot] hunk @@ -{n},7 +{n},9 @@ calls {fn}, which is not declared in this diff; locate the declaration",
        "I'm writing up the postmortem for {topic} and need to quote how {fn} is declared, parameter types and "
        "default values included, so please open the place it is defined rather than any place it is called",
        "were is {T} defind",
        "the {T} entity -- which ORM class or CREATE TABLE declares its columns?",
        "Kotlin `object {T}` or `class {T}`, wherever it's declared, open it",
        "rust side: the `fn {fn}` body, where does it live",
        "interface {T} -- show me the java file that declares it and its implementing class",
    ],
    "find_references": [
        "rg -w {fn}  -> every call site please, minus the definition itself",
        'lsp.references({{"textDocument": "{path}", "symbol": "{fn}"}})',
        "@reviewbot list every Go package that calls {fn} so this PR can bump them all",
        "which Kafka consumers deserialize a {T} off the topic",
        "show me all the places that call {fn} full stop",
        "I'm deprecating {fn} next release; list each call site in {path} and elsewhere with its line number, "
        "I need them for the migration note",
        "how many call sites does {fn} have",
        "where is {T} instantiated, either `new {T}(` or through its builder",
        "every `: {T}` type annotation and every `{T}(` constructor call",
        "Kotlin and Java callers of {qual}, counting the ones that go through extension functions",
        "call sites of {fn} that live in a different module from {path}, if any",
        "everything that hands a {T} to {fn}",
        "{fn}: callers? (incl. tests and cron scripts)",
        "refrences to {fn} plz, all of em",
        "rubocop flags {fn} as unused; i doubt it -- find every send(:{fn}) and every direct call",
        "SQL side: which stored procedures and views read from the {T} table",
    ],
    "impact_analysis": [
        "--- a/{path}\n+++ b/{path}\n-def {fn}(self, ring):\n+def {fn}(self, ring, *, strict=True):\n"
        "what does this break downstream",
        "dropping the status column from the {T} table, which services and reports fall over",
        "migration plan: {T} -> {T}V2 rename, estimate the fallout",
        "if {fn} starts raising {err} instead of returning None, which callers aren't ready for it",
        "tool: impact(symbol='{qual}', change='signature')",
        "Go: {Fn} gains a ctx context.Context first param; which call chains must thread it through",
        "what gets hit if the timeout inside {fn} goes from 30s down to {n}s",
        "knock-on effects of moving {path} out into its own crate",
        "safe to delete {fn}? what would stop compiling or fail at runtime",
        "{T}'s id goes from bigint to UUID -- what else has to move with it",
        "[bot] this PR narrows the return type of {qual}; flag each dependent that would now be mistyped",
        "{fn} ripple?",
        "wat breaks if i delet {path}",
        "Our {topic} flow leans on {fn} behaving the way it does today when {event}; if we make it refuse "
        "that case outright, which jobs, endpoints and reports change behaviour and which tests should go red",
        "making {T} immutable, val everywhere in Kotlin: which writers break",
        "who relies on {fn} returning its rows sorted by date",
    ],
    "exact_match": [
        "FAILED tests/test_races.py::test_{fn} - {err}: {msg}\nwhich line raises that",
        "--- FAIL: TestRelay{n} (0.{n}s)\n    {path}:{n}: {msg}\nwhere is that string produced, not the test",
        "journalctl -u {fn}.service\n... {T}[{n}]: {Msg}\nwhere in our code is that printed",
        "Completed 500 Internal Server Error in {n}ms (ActiveRecord: 3.1ms)\n\n{err} ({Msg}):",
        "psql:\nERROR:  {msg}\nSQLSTATE: {ecode}",
        'service:{fn} status:error @error.kind:{err} "{msg}"',
        '{{"level":"error","code":"{ecode}","msg":"{msg}"}}  <- which source line builds this',
        "Caused by: {err}: {Msg}\n\t... {n} more\nwhere is that thrown, word for word",
        "ack --literal '{ecode}'",
        'search_text(query="{msg}", regex=false)',
        "ops channel: [{n}:00] {ecode} {Msg} -- whose code raises it",
        "$ bundle exec rake {fn}\nrake aborted!\n{err}: {msg}",
        "which file holds the text '{msg}' verbatim",
        "voice note: literal search, the words are {msg}, exactly as spoken",
        "{err} :: {msg}  (need the literal, not similar messages)",
        "WARN  {T}  - {msg}\ngot this {n} times overnight, find the log call",
    ],
    "find_similar": [
        "{body}\n\nlook for siblings of this function outside {path}, any language",
        'similar_code(snippet="""{snippet}""", k=10)',
        "code that smells like {fn}",
        "is there already a helper to {task}? don't want to write it twice",
        "functions that rhyme with this one, {fn} included if it does:\n{body}",
        "lint bot: possible duplicated logic -- compare {path} against the rest of the repo",
        "{code}\n^ who else in the {topic} code computes it this way",
        "twins of {qual}",
        "porting {fn} from Ruby to Go -- does a port already exist somewhere",
        "Before tomorrow's review I'd like to know whether anyone else in the {topic} code wrote a loop like the "
        "one below, even under other names, because if so we should pull it into one helper:\n{snippet}",
        "simlar implmentations to {fn}?",
        "more like {path}",
        "run a copy-paste detector on this block over all services\n{body}",
        "analogues of {fn} in other modules, like whatever does the job to {task}",
        "{snippet}\n-- find the same idiom with different variable names",
        "this {T} mapper feels like it was cloned from {fn}; show me its cousins",
    ],
    "understand_code": [
        "ELI5 {fn}",
        "why does {path} import both the Go and the Rust client",
        "trace the data flow when {event}",
        "summarise {T}: fields, invariants, who owns it",
        "{snippet}\n\n^ lifted from {path}: what is this doing, and why the early skip",
        "how does {fn} cope when {event}?",
        "tldr {topic}",
        "explain how {topic} works in simple terms please",
        "which invariants does {T} keep, and where are they enforced",
        "first time reading {path} -- what's the entry point and where does it go out to the network",
        "is {fn} idempotent? talk me through its side effects",
        "describe the control flow of {qual}",
        "agent.explain(target='{qual}', depth='overview')",
        "Write me a short onboarding note on {topic}: which services are involved, where the state lives, and "
        "what the code does when {event}",
        "hwo does {fn} work exactly",
        "why is there a mutex around the cache in {fn}",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "thirtyfourth", seed=347)

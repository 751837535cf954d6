"""A nineteenth held-out set for the learned routing layer, written by another hand before the routing
change it judges and never measured while written.

None of the other held-out sets' templates, nor the training templates, was looked at while this one was
written (only ``routing_fifteenth.py``'s layout, as a format), and no classifier was asked how it routes
any of these phrasings. The templates were written in one sitting from the shapes real requests take when
engineers and coding agents search code: terse search-box queries and full questions, imperatives, agent
tool calls as JSON objects and as function calls with keyword arguments, commands of code tools
(``rg --fixed-strings``, ``git grep``, ``ctags``), editor actions (Neovim's ``gd``, VS Code's Shift+F12,
Copilot's ``@workspace /explain``, a call hierarchy's incoming calls), review comments, tickets and chat
with a teammate, typos and non-native English, prose mixed with code. Declarations are typed as they are
in Clojure (a private ``defn-`` destructuring its map), Nim (an exported ``proc``), Zig (``pub fn``
taking an allocator), Haskell (a constrained type signature), Perl (``sub`` unpacking ``@_``),
PostgreSQL (``CREATE OR REPLACE FUNCTION``), Thrift (``struct``), Go (a method on a pointer receiver),
Rust (a ``From`` impl with a lifetime) and Scala (a ``final case class``). Literal strings come pasted as
they are met: a systemd journal line, a logfmt line, a JSON log record, a Rust panic from a tokio worker,
a recovered Go panic, a Python ``raise`` with an f-string, an app's toast and an HTTP error body. Code to
match comes as multi-line snippets and whole function bodies (Go, Rust, Python, Scala, Clojure, Ruby, R,
Zig, Haskell, Java, Perl, OCaml), with and without markdown fences.
Twenty templates that met a training template or another set's under ``test_intent_model``'s
comparison were replaced, not reworded, each found by running those tests on one template at a time
without reading what it met.
Its slot fillers come from domains no other set uses (a falconry mews's hawk weigh-ins, flight logs and
telemetry tags, a watch repair bench's service tickets, mainspring swaps and beat-error regulation, an
avalanche forecasting office's snowpit tests, danger ratings and slope closures, a seed bank's
accessions, germination trials and cold vault, a mushroom farm's substrate batches, spawn runs and
fruiting rooms), and none is a training filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "record_weigh_in",
    "logHawkFlightHours",
    "fit_telemetry_tag",
    "computeFlyingWeight",
    "regulate_beat_error",
    "replaceMainspring",
    "quote_bench_repair",
    "orderBalanceStaff",
    "score_compression_test",
    "publishDangerRating",
    "close_slope_segment",
    "planAvalancheControlRoute",
    "register_seed_accession",
    "scheduleGerminationTrial",
    "move_lot_to_cold_vault",
    "computeViabilityDrop",
    "inoculate_substrate_batch",
    "startSpawnRun",
    "harvest_mushroom_flush",
    "adjustFruitingHumidity",
    "snowpit::record_stability_test",
    "seedvault.AccessionLedger#retireLot",
    "(*FruitingRoom).MistCycle",
]
_TYPES = [
    "HawkWeighIn",
    "HawkFlightLog",
    "TelemetryTag",
    "MewsBlock",
    "RepairBenchTicket",
    "WatchMovement",
    "MainspringPart",
    "TimegrapherReading",
    "SnowpitProfile",
    "AvalancheDangerRating",
    "SlopeClosure",
    "SeedAccession",
    "GerminationTrial",
    "VaultDrawer",
    "SubstrateBatch",
    "SpawnRun",
    "FruitingRoom",
    "FlushHarvest",
]
_ERRORS = [
    "WeightAboveFlyingThreshold",
    "TagBatteryDepletedError",
    "BeatErrorOutOfTolerance",
    "MainspringSetException",
    "UnstableSnowpackError",
    "SlopeAlreadyClosedException",
    "ViabilityBelowRegrowError",
    "ContaminatedSubstrateError",
]
_MESSAGES = [
    "hawk weighed in above her flying weight for the third day",
    "telemetry tag frequency is already fitted to another bird",
    "flight log entry has no wind speed recorded",
    "beat error exceeds 0.6 ms after regulation",
    "mainspring width does not match the barrel arbor",
    "repair ticket quoted before the movement was opened",
    "compression test taps recorded before the column was isolated",
    "danger rating published without a forecaster sign-off",
    "slope reopened while a control route was still active",
    "germination count exceeds seeds sown in the trial",
    "accession moved to the cold vault before drying finished",
    "seed lot viability fell below the regeneration threshold",
    "substrate batch inoculated before it cooled below 30 C",
    "fruiting room humidity fell under 85 percent overnight",
]
_ERROR_CODES = ["MEWS-217", "E_TAGFREQ", "HOROL-44", "AVX-3021", "SBK-0907", "MYC-E12", "RH_LOW_85", "ECTPV-9"]
_PATHS = [
    "mews/weighins/weigh_in.zig",
    "mews/telemetry/tag_registry.nim",
    "mews/flights/HawkFlightLogService.scala",
    "bench/tickets/repair_quote.clj",
    "bench/regulation/beat_error.hs",
    "bench/parts/mainspring_catalog.ml",
    "avalanche/snowpit/stability_tests.go",
    "avalanche/bulletin/danger_rating.rs",
    "avalanche/closures/SlopeClosures.java",
    "seedbank/accessions/register.pl",
    "seedbank/germination/trials.R",
    "seedbank/vault/cold_vault.sql",
    "mushrooms/substrate/batches.py",
    "mushrooms/rooms/fruiting_room.proto",
]
_TOPICS = [
    "hawk weigh-ins before the morning flight",
    "telemetry tag assignments for the falconry birds",
    "regulating beat error on the repair bench",
    "mainspring replacement quotes for customer watches",
    "snowpit stability tests from the field teams",
    "publishing the daily avalanche danger rating",
    "closing and reopening ski slopes after control work",
    "registering new seed accessions from collectors",
    "germination trials on stored seed lots",
    "the cold vault drawer inventory",
    "substrate batches and spawn runs on the mushroom farm",
    "humidity control in the fruiting rooms",
]
_TASKS = [
    "convert a hawk's weight from ounces to grams rounded to the nearest gram",
    "turn a timegrapher's tick and tock into a beat error in milliseconds",
    "map a snowpit compression test score to a stability class",
    "compute a seed lot's germination percentage from counts per dish",
    "estimate the days until a spawn run is fully colonised",
    "convert a slope aspect in degrees into a compass octant",
    "format an accession number from the collector's initials and year",
    "average a fruiting room's humidity over the last six hours",
]
_EVENTS = [
    "a hawk is weighed twice before the same flight",
    "two forecasters publish a rating for the same zone",
    "a slope closure expires while patrol is still on the route",
    "a seed lot fails its germination trial twice in a row",
    "a substrate batch is marked contaminated after inoculation",
    "a watch comes back under warranty after a mainspring swap",
    "the telemetry receiver loses a tag mid-flight",
]
_SNIPPETS = [
    "for _, w := range weighIns {\n\tif w.Grams > bird.FlyingWeight+15 {\n"
    "\t\tgrounded = append(grounded, w.Bird)\n\t}\n}",
    "let closed: Vec<_> = segments\n    .iter()\n    .filter(|s| s.rating >= Rating::Considerable)\n    .collect();",
    "pct = sum(d.sprouted for d in dishes) / sum(d.sown for d in dishes)\n"
    "if pct < lot.regrow_threshold:\n    lot.flag_for_regrow()",
    "tickets.filter(_.status == Quoted)\n  .groupBy(_.movementRef)\n"
    "  .map { case (ref, ts) => ref -> ts.map(_.price).sum }",
    "(->> batches\n     (filter #(> (:temp-c %) 30))\n     (map :batch-id)\n     (into #{}))",
    "rooms.each do |room|\n  room.mist! if room.humidity < 85\nend",
    "trials %>%\n  group_by(accession) %>%\n  summarise(rate = mean(germinated / sown))",
]
_BODIES = [
    "fn flyingWeight(base: u32, pct: u32) u32 {\n    return base - base * pct / 100;\n}",
    "beatErrorMs :: Double -> Double -> Double\nbeatErrorMs tick tock = abs (tick - tock) / 2",
    "def octant(aspect_deg):\n    names = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW']\n"
    "    return names[int((aspect_deg % 360) / 45 + 0.5) % 8]",
    "static double germinationRate(int sprouted, int sown) {\n    if (sown == 0) return 0.0;\n"
    "    return (double) sprouted / sown;\n}",
    "sub accession_id {\n    my ($initials, $year, $seq) = @_;\n"
    "    return sprintf('%s-%d-%04d', $initials, $year, $seq);\n}",
    "let days_to_colonise ~rate ~remaining =\n  int_of_float (ceil (remaining /. rate))",
]
_CODE_LINES = [
    "bird.flying_weight_g = round(bird.weight_oz * 28.3495)",
    "let rating = Rating::from_taps(pit.ect_taps);",
    "ticket.quote = parts.total() + bench_hours * HOURLY_BENCH_RATE",
    "lot.next_test_due = lot.last_tested + timedelta(days=365 * 5)",
    "room.SetPoint(Humidity{Min: 85, Max: 95})",
    "closure.reopen_at = sunrise + Duration::hours(2);",
    "free_slots := drawer.Capacity - len(drawer.Packets)",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "(defn- {fn} [{{:keys [id",
        "proc {fn}*(self: var {T})",
        "pub fn {fn}(allocator: std.mem.Allocator",
        "{fn} :: MonadIO m => {T} -> m ()",
        "CREATE OR REPLACE FUNCTION {fn}(p_id bigint)",
        "func (r *{T}) {Fn}(ctx context.Context,",
        "struct {T} {{\n  1: required i64 id,",
        "impl<'a> From<&'a {T}> for",
        "final case class {T}(id: UUID,",
        "sub {fn} {{\n    my ($self, %args) = @_;",
        "gd on {fn} in nvim says no definition found -- where's it actually declared?",
        '{{"name": "code_search.definition", "arguments": {{"identifier": "{qual}", "lang": "any"}}}}',
        'lookup_symbol(name="{fn}", kind="definition")',
        "ctags -x {fn}",
        "which file declares {T}? grep only turns up the places that use it",
        "{fn} decl site",
    ],
    "find_references": [
        "who all is calling {fn} these days",
        "list every caller of {qual} across the services",
        '{{"action": "find_usages", "target": "{fn}"}}',
        "Shift+F12 on {T} -> show all references",
        "where do we construct a {T} instance",
        "any module still importing {path}?",
        "{fn} usages excl tests",
        "is {fn} used anywhere or is it dead code",
        "give me all call sites of {fn} so i can add the new argument to each one",
        "incoming calls to {Fn} (call hierarchy)",
        "refs = index.callers_of('{qual}', depth=1)",
        "which places catch {err}",
        "every spot that throws {err}, pls",
        "where is used the {fn} function in the project",
        "{T} \u2190 referenced from where",
        "review: someone still reads {T} from the old code path, which one",
    ],
    "impact_analysis": [
        "if I change the signature of {fn}, what breaks",
        "blast radius of renaming {T} to something clearer",
        "what's downstream of {qual} if its return type becomes optional",
        '{{"tool": "impact", "symbol": "{fn}", "change": "remove"}}',
        "dropping a field from {T}: which services and tests fail",
        "ticket: make {fn} async. scope it - what else has to change along with it?",
        "moving {path} into its own package, what depends on it transitively",
        "would changing {T} break the public API?",
        "which tests should I rerun after editing {fn}",
        "reviewer asks what the ripple effect is of making {T} immutable",
        "change impact {qual}",
        "if {fn} starts raising {err} instead of returning null, who gets hurt",
        "bumping the {n}s timeout in {path} -- consequences?",
        "anlyze impact of changing {fn} retrun value",
        "before I merge: which modules are affected by a change to {T}",
        "safe to delete {fn} outright or will something fall over",
    ],
    "exact_match": [
        '2024-02-{n}T06:12:44Z level=error msg="{msg}"',
        'grep for exact text "{Msg}"',
        "where does this come from: {err}: {msg}",
        "log says error {ecode}, find the line that emits it",
        '{{"tool": "search_literal", "pattern": "{msg}"}}',
        "rg --fixed-strings --no-heading '{msg}' src/",
        "find this exact line: {code}",
        "Feb {n} 04:12:09 ridge-pi forecastd[812]: {Msg}",
        "thread 'tokio-runtime-worker' panicked at {path}:{n}:9:\n{msg}",
        'raise {err}(f"{Msg}: {{lot_id}}")',
        "search verbatim: {Msg}",
        "git grep -nwF {ecode} -- src/",
        'toast in the app says "{Msg}" -- find that string',
        "panic: {msg} [recovered]\n\tpanic: {msg}",
        '{{"level":"warn","code":"{ecode}","msg":"{msg}"}}',
        'HTTP 422 {{"error": "{ecode}", "detail": "{Msg}"}}',
    ],
    "find_similar": [
        "anything else in the repo shaped like this?\n```\n{snippet}\n```",
        "{body}\n\nwe probably wrote this twice - find the duplicates",
        "implementations similar to {fn}",
        "is there already a helper to {task}? don't want to write yet another one",
        '{{"tool": "similar_code", "code": "{code}", "exclude": "{path}"}}',
        "which files are near-duplicates of {path}? suspect someone forked it",
        "find clones of this:\n{body}",
        "other functions that {task}",
        "dedupe: `{code}` -- where else do we do this same computation",
        "copy-paste check before this goes into {path}:\n{snippet}",
        "something like {fn} but for {T}",
        "more like this\n\n{snippet}",
        "look for code resembling {fn} in the other services",
        "PR comment on {path}: this loop looks hand-rolled, don't we have a util doing the same?\n{snippet}",
        "code that follows the same pattern as {code}",
        "git log -S won't help, I want code that does roughly what {fn} does",
    ],
    "understand_code": [
        "walk me through {fn} step by step",
        "eli5 the code behind {topic}",
        "what is {T} even for",
        "why does {fn} retry twice before giving up?",
        '{{"tool": "explain", "target": "{qual}"}}',
        "new on the team -- how is {topic} structured in this codebase?",
        "so what actually happens in the code if {event}?",
        "summarize {path} for me",
        "@workspace /explain the retry loop in {fn}",
        "whats the flow from the api down to the db for {topic}",
        "purpose of the {n}-second sleep in {fn}?",
        "I don't get this line: {code} -- what's it doing?",
        "is there a doc on {topic}, or can you just tell me how it works",
        "how do we handle it when {event}",
        "{body}\n\nwhat does this do?",
        "high-level overview of the {T} lifecycle",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "nineteenth", seed=193)

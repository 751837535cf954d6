"""A thirty-sixth held-out set for the learned routing layer, written before the routing change it judges
and never measured while written.

The held-out sets up to ``routing_thirtyfifth.py`` have been, or may yet be, read while routing changes are
weighed, so a change chosen on them is partly chosen on its own test. This one was written from the layout
alone: only ``routing_fifteenth.py``'s layout (module docstring, slot fillers, templates per intent,
``generate_heldout()``) and the shared slot filling in ``held_out_slots.py`` were looked at; neither the
classifier, nor its model, nor any other set's templates were read. The templates come from the shapes
requests take when engineers, coding agents, review bots, chat and dictation ask a code search engine:
questions and imperatives, terse keyword queries and long wordy ones, misspellings, declarations as typed
in Go (a method on a pointer receiver), Rust (an ``impl`` block), Swift (an ``extension``), Scala (a
``case class``), Java, SQL (``CREATE OR REPLACE FUNCTION``) and Lua; output pasted from a Go ``panic`` with
its goroutine, a Rust panic, a Python traceback, a Swift fatal error, sbt's ``[error]`` lines, a Lua stack
traceback, GitHub Actions' ``##[error]``, a structured JSON log line and a PostgreSQL ``ERROR``/``CONTEXT``
pair; unified diffs, JSON tool calls an agent might emit, review-bot findings, ticket text and dictated
requests with their spoken punctuation. No sentence was copied from anywhere, and no classifier was asked
any of them while they were written. The leakage tests' output (``test_intent_model``) showed fragments of
other sets' templates and one training template that first drafts met under the tests' spelling; each of
those drafts was replaced by a genuinely different shape, not reworded. Its slot fillers come from
five domains no other set uses: a Venetian gondola workshop (forcola carving, hull refits, gondolier
licences and traghetto crossings), a pipe band association (chanter reed seasoning, contest grades and
drum corps scoring), a curling club (bonspiel draws, pebbling the sheets and end scores), an ocularist's
practice (iris painting, sclera tint matching and fitting and polishing visits for ocular prostheses) and
an orienteering club (control point placement, electronic punching and leg times); none is a training
filler (``test_intent_model`` checks both).
``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "carve_forcola_blank",
    "scheduleGondolaRefit",
    "issue_gondolier_licence",
    "season_chanter_reed",
    "scoreDrumCorpsRound",
    "assignBandGrade",
    "draw_bonspiel_brackets",
    "pebbleCurlingSheet",
    "record_end_score",
    "paint_iris_layer",
    "matchScleraTint",
    "book_prosthesis_polish",
    "place_control_flag",
    "computeLegTimes",
    "verifyEpunchSequence",
    "print_course_overprint",
]
_TYPES = [
    "GondolaHull",
    "ForcolaCarving",
    "GondolierLicence",
    "TraghettoStation",
    "ChanterReed",
    "PipeBandEntry",
    "DrumCorpsScore",
    "BonspielDraw",
    "CurlingSheet",
    "EndScore",
    "OcularProsthesis",
    "IrisPainting",
    "FittingVisit",
    "ControlPoint",
    "OrienteeringCourse",
]
_ERRORS = [
    "ForcolaGrainException",
    "GondolierLicenceLapsedError",
    "ReedUnseasonedError",
    "BonspielDrawConflict",
    "ScleraTintMismatchError",
    "MissingControlPunchException",
]
_MESSAGES = [
    "forcola blank was cut across the walnut grain",
    "gondola refit booked while the hull is still on the slipway",
    "gondolier licence expired before the traghetto shift",
    "chanter reed has not been seasoned for the required days",
    "band entered in a grade it has not qualified for",
    "drum corps score sheet is missing the second judge",
    "bonspiel draw puts the same rink on two sheets at once",
    "ice was pebbled less than an hour before the first end",
    "end score exceeds the number of stones delivered",
    "iris painting has not cured before polishing",
    "sclera tint does not match the patient's fellow eye",
    "control code printed on the map differs from the flag",
    "runner punched the controls out of order",
]
_ERROR_CODES = [
    "SQR-0412",
    "PBA-117",
    "BSP-09",
    "OCL-5530",
    "ORX-73",
    "EREEDDRY",
    "SQR-0977",
    "CUR-PEB2",
    "ORX-104",
    "OCL-0018",
]
_PATHS = [
    "squero/hulls/refit_schedule.go",
    "squero/forcole/ForcolaCarver.java",
    "traghetto/licences/licence_check.rs",
    "pipeband/reeds/reed_seasoning.py",
    "pipeband/contests/GradeEntry.scala",
    "pipeband/scoring/drum_scores.sql",
    "curling/bonspiel/draw.ts",
    "curling/ice/PebbleLog.swift",
    "ocularist/iris/iris_layers.lua",
    "ocularist/fittings/fitting_calendar.go",
    "orienteering/controls/control_points.rs",
    "orienteering/results/LegTimes.java",
]
_TOPICS = [
    "carving forcole in the gondola workshop",
    "refit scheduling for gondola hulls",
    "gondolier licensing and traghetto rosters",
    "chanter reed seasoning for the pipe band",
    "competition grading of pipe bands",
    "drum corps scoring at band contests",
    "bonspiel draws at the curling club",
    "pebbling and scraping the curling sheets",
    "painting irises for ocular prostheses",
    "fitting and polishing visits at the ocularist",
    "control point placement on orienteering courses",
    "electronic punching and results at orienteering events",
]
_TASKS = [
    "convert a gondola's length in Venetian feet into metres",
    "work out how many days a chanter reed has been drying",
    "rank curling teams by ends won and then by stones scored",
    "scale an iris painting from a photograph to the wearer's real iris diameter",
    "compute a runner's time between two controls from raw punch timestamps",
    "round a curling sheet's ice reading to the nearest half degree",
    "check that a forcola is carved for the side of the gondola it will be mounted on",
    "sort pipe bands by total judges' points with drumming as the tie-break",
]
_EVENTS = [
    "two rinks are drawn on the same sheet in one bonspiel round",
    "a gondolier's licence lapses in the middle of a traghetto shift",
    "a band changes grade after its contest entry was accepted",
    "a prosthesis is polished before its iris paint has cured",
    "a control flag is hung at the wrong feature on the map",
    "a forcola is delivered for a gondola that is still being refitted",
    "an ocular prosthesis is booked for polishing under another patient's appointment",
    "a bonspiel game is conceded after six ends",
]
_SNIPPETS = [
    "for _, h := range hulls {\n\tif h.LastRefit.Before(cutoff) {\n\t\tqueue = append(queue, h)\n\t}\n}",
    "SELECT band_id, SUM(piping + drumming) AS total\nFROM contest_scores\nWHERE grade = 2\n"
    "GROUP BY band_id\nORDER BY total DESC;",
    "let late = sheets.filter { $0.pebbledAt < firstEnd.addingTimeInterval(-3600) }\n"
    "late.forEach { scheduler.repebble($0) }",
    "val missing = course.controls.filterNot(c => card.punches.exists(_.code == c.code))\n"
    "if (missing.nonEmpty) result.disqualify(missing)",
    "for i, layer in ipairs(painting.layers) do\n  if layer.cured_at == nil then\n    return false, i\n  end\nend",
    "for (GondolierLicence l : roster) {\n    if (l.getValidUntil().isBefore(shiftStart)) {\n"
    "        suspended.add(l.getHolder());\n    }\n}",
    'for reed in reeds:\n    if (today - reed.soaked_on).days < 3:\n        reed.status = "seasoning"',
    "const clashes = draws.filter(\n"
    "  (d, i) => draws.findIndex((o) => o.sheet === d.sheet && o.round === d.round) !== i,\n);",
]
_BODIES = [
    "fn leg_seconds(punches: &[Punch], from: u16, to: u16) -> Option<u32> {\n"
    "    let a = punches.iter().find(|p| p.code == from)?;\n"
    "    let b = punches.iter().find(|p| p.code == to)?;\n    b.at.checked_sub(a.at)\n}",
    "static double irisScale(double photoPx, double irisPx, double irisMm) {\n"
    "    return photoPx * (irisMm / irisPx);\n}",
    "local function venetian_feet_to_m(ft)\n  return ft * 0.3477\nend",
    "func endsWon(scores []EndScore, team string) int {\n\tn := 0\n\tfor _, s := range scores {\n"
    "\t\tif s.Team == team && s.Stones > 0 {\n\t\t\tn++\n\t\t}\n\t}\n\treturn n\n}",
    "def reed_days(soaked_on: date, today: date) -> int:\n    return max(0, (today - soaked_on).days)",
    "func iceIsReady(_ s: CurlingSheet, firstEnd: Date) -> Bool {\n"
    "    guard let p = s.pebbledAt else { return false }\n"
    "    return firstEnd.timeIntervalSince(p) >= 3600\n}",
    "def bandTotal(s: DrumCorpsScore): Int =\n  s.judges.map(_.points).sum - s.penalties",
    "CREATE FUNCTION legs_for(card_id int) RETURNS TABLE(code int, secs int) AS $$\n"
    "  SELECT code, at - lag(at) OVER (ORDER BY at) FROM punches WHERE card = card_id\n$$ LANGUAGE sql;",
]
_CODE_LINES = [
    "hull.NextRefit = hull.LastRefit.AddDate(0, 18, 0)",
    "let tint = ScleraTint(hex: fellowEye.scleraHex).darkened(by: 0.04)",
    "UPDATE end_scores SET stones = 0 WHERE end_no > 8 AND conceded;",
    "val grade = entry.band.results.takeRight(3).map(_.placing).min",
    "licence.valid_until = licence.issued_on + timedelta(days=365 * 3)",
    "let leg = punches[i + 1].at - punches[i].at;",
    "local due = visit.booked_at + 14 * 24 * 3600",
    "const best = entry.results.slice(-3).reduce((a, r) => Math.min(a, r.placing), Infinity);",
    "if reed.SoakedDays() < minSeasoningDays { return ErrReedUnseasoned }",
    "ControlPoint next = course.getControls().get(legIndex + 1);",
]

#: Written in one sitting before the routing change it judges, before anything was asked of it.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "vim :tag {fn} answers E426 tag not found; which file declares it",
        "#[derive(Debug, Clone, Serialize)]\npub struct {T} {{",
        "the stored procedure {fn} -- which migration creates it",
        "extension {T} {{\n    func {fn}(",
        "object {T} {{\n  def apply(",
        "public final class {T} implements",
        "dictation: go to the definition of {fn} full stop where does it live question mark",
        "<tool_call>\n<name>definition</name>\n<arg>{qual}</arg>\n</tool_call>",
        "[review-bot] unresolved symbol {T} in this hunk; need the declaring file before the check can go on",
        "panic trace mentions {fn} at {path}:{n} but that's a call -- where is {fn} itself declared",
        "ticket SQ-{n} acceptance criteria: the handover doc links the file and line where {T} is declared",
        "wher is {fn} definde",
        "{T} decl?",
        "There are two {T} types in the monorepo; which one does {path} import, and where is that one declared",
        "grep only finds calls of {fn}, never the `local {fn} = function` line; where is it set up",
        "export const {fn} = async (",
    ],
    "find_references": [
        "callers({fn})",
        '{{"tool": "find_references", "symbol": "{T}", "include_tests": true}}',
        "rg -w {fn} is full of comment noise, real call sites only please",
        "review-bot: the signature of {fn} changed in this PR; enumerate the call sites that were not updated",
        "who calls {fn} from the Go side and who calls it from Rust",
        "dictation: show me every place we use {T} comma including the tests full stop",
        "every `impl From<{T}>` and every `.into()` that produces one",
        "which SQL views or stored procedures read the {T} table",
        "list the SwiftUI views that observe {T}",
        "{qual} <- who",
        "ticket SQ-{n}: deprecate {fn}. Step 1 is an inventory of its callers as file:line",
        "ho calls {fn} ? need all of them",
        "fan-in of {path}",
        "Before I remove the feature flag around {topic} I want every module that reads {T}, including scripts "
        "and migrations, grouped by directory",
        "@codebot usages {fn} --exclude tests",
        "Which Scala traits extend {T}, and where is each of them instantiated",
    ],
    "impact_analysis": [
        "diff:\n-func {Fn}(ctx context.Context) error\n+func {Fn}(ctx context.Context, strict bool) error\n"
        "who else needs touching",
        "what would an ALTER TABLE dropping a column of {T} take down with it",
        "{T}.id: i32 -> u64, fallout?",
        "CI is green but I'm nervous: this PR makes {fn} throw {err} instead of returning null; which code paths "
        "don't catch it",
        '{{"tool": "impact", "target": "{path}", "change": "delete"}}',
        "ripple effects if {qual} becomes read-only",
        "review-bot: high-risk change detected in {path}. Summarise downstream consumers that may regress.",
        "dictation: if we move {fn} into its own service what breaks comma think about the batch jobs too",
        "if the Lua config loader in {path} is swapped for TOML, which components stop starting",
        "we bump the Swift package {T} comes from by a major version; how much of our code is exposed",
        "is it safe to take the retries out of {fn}? what quietly relies on them",
        "wat happens elswhere if {T} gets a new required field",
        "{fn} -> async, knock-on?",
        "Product wants {topic} to run twice a day instead of nightly. Which jobs, reports and services that depend "
        "on {fn} would see different data or timing, and what would need to change?",
        "drop the default value in {T}'s constructor: list what compiles today but won't afterwards",
        "how far does a change to the rounding in {fn} spread, e.g. into invoices or exports",
    ],
    "exact_match": [
        "panic: {msg}\n\ngoroutine {n} [running]:\nmain.{fn}(...)\n\t/srv/{path}:{n} +0x1c4",
        "thread 'main' panicked at '{msg}', {path}:{n}:17",
        "journalctl -u refit-worker --since today\nApr {n} 03:10:44 ops-2 refit-worker[4410]: {ecode} {msg}\n"
        "which source line prints this",
        "*** Exception: {msg}\nCallStack (from HasCallStack):\n  error, called at {path}:{n}:5 in main:Main",
        "[error] {err}: {msg}\n[error] \tat {qual}({path}:{n})\n[error] (Compile / run) {err}",
        "lua: {path}:{n}: {msg}\nstack traceback:\n\t[C]: in function 'error'",
        "##[error]Process completed with exit code 1.\n{err}: {msg}\nwhere is this raised",
        '{{"level":"error","code":"{ecode}","msg":"{msg}","caller":"{path}:{n}"}}',
        "ERROR 1644 (45000) at line {n}: {Msg}",
        "git grep -n --fixed-strings \"{msg}\" -- '*.go' '*.rs'",
        '{{"tool": "search_text", "literal": "{msg}", "case_sensitive": true}}',
        "literally this token, nothing fuzzy: {ecode}",
        "dictation: find the exact phrase quote {msg} unquote",
        "serch exact '{msg}' pls",
        'Support ticket #{n}: the customer screenshot shows "{Msg}". Which file has that text?',
        "{ecode} appears verbatim where",
    ],
    "find_similar": [
        "> {code}\n\nreview comment on {path}: we already have at least two of these, go find them",
        'similar_code(query="{code}", languages=["go", "rust", "scala"])',
        "semantic twins of {fn}",
        "{body}\n\nabout to add this to {path}; is there a helper that already does this, so I don't add a third one",
        "the code smell report flagged {path} as duplicated; where are its copies",
        "review-bot: this hunk resembles existing code (similarity 0.91). Show the matches.\n+{code}",
        "I need to {task} in {path}; find prior art in the repo first",
        "functions that look like {fn} but for {T}",
        "dictation: find code similar to the function {fn} full stop",
        "simlar funcs to this pls\n{body}",
        "Scala and Go versions of the same thing {fn} does?",
        "{snippet}\n-- the same loop is probably in the Lua scripts too, locate those",
        "any other {T} mappers with the same structure as {path}",
        "We're consolidating {topic} and I want a report of functions, in any language, that implement "
        "essentially the same algorithm as the one below, so we can keep only one:\n{body}",
        "patterns like `{code}` elsewhere?",
        "cousins of {qual}",
    ],
    "understand_code": [
        "{body}\n\nwhat is this doing, and why the early return",
        "{path}: purpose? inputs? outputs?",
        '{{"tool": "explain", "target": "{qual}", "depth": "overview"}}',
        "dictation: explain how {topic} works from start to finish full stop",
        "new starter here: what's the data flow for {topic}",
        "review comment: I don't follow why {fn} takes a lock before reading {T}; can you explain the reasoning",
        "walk through the code path that runs if {event}, step by step",
        "explain {T} like I'm a product manager",
        "how does {fn} decide between its two code paths",
        "{snippet}\n\nfound in {path}; what's this for, in business terms",
        "whats the point of {fn} , it seem to do nothing",
        "Ticket SQ-{n}: document {topic}. Needed: the responsibility of each module, the entry points, and where "
        "state is persisted.",
        "sequence diagram for {topic}, in words please",
        "why is `{code}` there",
        "architecture of {path} and its neighbours",
        "I'm preparing a talk for the volunteers who maintain {topic}; can you summarise what {path} is "
        "responsible for, what it depends on, and the assumptions it makes about its data",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "thirtysixth", seed=136)

"""A fourth held-out set for the learned routing layer, written after the shipped model
(``coordinator/intent_model.npz``) was trained, and never trained or tuned on.

The other held-out sets (``routing_heldout.py``, ``routing_blind.py``) have been measured against
later changes to the training templates and the routing policy, so their results have been read while
those were chosen. These templates were written in one sitting, from the way people ask a code search
tool (terse search-box queries, an agent's tool calls, a question to a teammate in chat, pasted code,
log lines and stack traces, a few typos), glancing at the other sets only to avoid their shapes, and
committed before the shipped model was asked any of them; none was revised after measuring. Its slot
fillers come from domains no other set uses (a warehouse and logistics system, a music streaming app,
hospital scheduling, embedded firmware), and none is a training filler (``test_intent_model`` checks
both). ``benchmarks/routing.py`` reports it beside the other held-out sets.
"""

from __future__ import annotations

from held_out_slots import Slots, held_out_set

__all__ = ["HELDOUT_TEMPLATES", "fillers", "generate_heldout"]

_NAMES = [
    "allocate_bin",
    "pickWave",
    "assign_dock_door",
    "consolidate_pallets",
    "printShippingLabel",
    "enqueue_track",
    "crossfadeNext",
    "scrobble_play",
    "resolveStreamUrl",
    "book_appointment",
    "triage_patient",
    "rotateOnCall",
    "release_bed",
    "flash_erase_sector",
    "debounce_button",
    "i2c_write_reg",
    "feedWatchdog",
]
_TYPES = [
    "PickList",
    "DockDoor",
    "PalletLabel",
    "Consignment",
    "TrackQueue",
    "PlaylistEditor",
    "RoyaltyStatement",
    "ShiftRoster",
    "BedAssignment",
    "AppointmentSlot",
    "GpioPin",
    "DmaChannel",
    "BootImage",
]
_ERRORS = [
    "BlockingIOError",
    "ChildProcessError",
    "UnsupportedOperationException",
    "DateTimeParseException",
    "BufferError",
]
_MESSAGES = [
    "bin capacity exceeded for zone C",
    "no dock door free for carrier",
    "pallet weight over axle limit",
    "track not licensed in this region",
    "playlist locked by another editor",
    "appointment overlaps an existing booking",
    "clinician not rostered for this shift",
    "watchdog reset during flash write",
    "crc mismatch in boot image",
    "sensor did not ack on i2c bus",
]
_ERROR_CODES = ["EBUSY", "EAGAIN", "ENOMEM", "EIO", "SIGABRT", "E0502"]
_PATHS = [
    "wms/picking/waves.py",
    "wms/dock/allocate.go",
    "player/src/queue/TrackQueue.ts",
    "royalties/statements.rb",
    "scheduling/roster/ShiftRoster.java",
    "firmware/drivers/i2c.c",
    "firmware/boot/src/flash.rs",
]
_TOPICS = [
    "wave picking",
    "dock door assignment",
    "pallet consolidation",
    "gapless playback",
    "royalty reporting",
    "shift rostering",
    "patient triage",
    "bed turnover",
    "the bootloader handoff",
    "over-the-air firmware updates",
    "interrupt handling on the sensor board",
]
_TASKS = [
    "debounce a gpio input",
    "shuffle a playlist without repeats",
    "find overlapping time ranges",
    "convert pounds to kilograms",
    "compute a crc16 over a byte buffer",
    "group orders by postcode",
    "round a timestamp to the nearest quarter hour",
]
_EVENTS = [
    "a pallet is scanned twice",
    "a track ends before the next one is buffered",
    "a nurse swaps shifts at short notice",
    "the watchdog fires mid-update",
    "a truck arrives before its slot",
]
_SNIPPETS = [
    "free = [b for b in bins if b.capacity - b.used >= item.volume]\n"
    "free.sort(key=lambda b: b.used)\nreturn free[0] if free else None",
    "if (queue.length > 0) {\n  const next = queue.shift();\n  player.load(next.url);\n}",
    "while (!(I2C1->SR1 & I2C_SR1_TXE)) {\n    if (--timeout == 0) return -1;\n}",
    "for slot in day_slots:\n    if slot.start < end and start < slot.end:\n        clashes.append(slot)",
    "for _, d := range doors {\n\tif d.Free && d.Dock == want {\n\t\treturn d, nil\n\t}\n}",
]
_BODIES = [
    "def kg_from_lb(weight):\n    if weight is None:\n        return 0.0\n    return round(weight * 0.45359237, 3)",
    "function nextTrack(queue, shuffle) {\n  if (shuffle) {\n    const i = Math.floor(Math.random() * queue.length);\n"
    "    return queue.splice(i, 1)[0];\n  }\n  return queue.shift();\n}",
    "uint16_t crc16(const uint8_t *buf, size_t len) {\n    uint16_t crc = 0xFFFF;\n"
    "    for (size_t i = 0; i < len; i++) {\n        crc ^= buf[i];\n        for (int b = 0; b < 8; b++)\n"
    "            crc = (crc & 1) ? (crc >> 1) ^ 0xA001 : crc >> 1;\n"
    "    }\n    return crc;\n}",
    "public boolean overlaps(Slot other) {\n    return start.isBefore(other.end) && other.start.isBefore(end);\n}",
]
_CODE_LINES = [
    "bins.sort(key=lambda b: b.free_volume)",
    "HAL_GPIO_TogglePin(LED_GPIO_Port, LED_Pin);",
    "tracks.slice().sort(() => Math.random() - 0.5)",
    "slots.stream().filter(Slot::isOpen).collect(Collectors.toList())",
    "time.Until(truck.ETA).Round(15 * time.Minute)",
]

#: Written in one sitting after the shipped model, before it was asked any of them; never revised after.
HELDOUT_TEMPLATES: dict[str, list[str]] = {
    "find_definition": [
        "type:symbol {fn}",
        "hunting for the file that has class {T} in it",
        "func New{T}(cfg Config) (*{T}, error)",
        "macro_rules! {fn} {{",
        "protected abstract {T} {fn}();",
        "export type {T} = {{",
        "grepped for {fn} and only got call sites, where's the actual def",
        "enum class {T}(val code: Int)",
        "lemme see {qual}'s implementation",
        "which module owns the {T} class? want to read its constructor",
        "defintion of {fn} pls",
    ],
    "find_references": [
        "{path} aside, is {fn} invoked anywhere",
        "{fn}() call sites, excluding tests",
        "{T}: show every file that uses it, with line numbers",
        "anyone know what still hits {qual}?",
        "what ends up calling {qual}, directly or through a wrapper",
        "who news up a {T}",
        "list the importers of {path}",
        "is {fn} called from anywhere or is it dead code",
        "xrefs {qual}",
        "whcih functions call {fn}",
        "where's {qual} getting invoked from",
    ],
    "impact_analysis": [
        "if I bump the timeout in {fn}, what else is affected",
        "risk check before I reorder the params of {fn}",
        "I'm making {T} immutable; which code mutating it has to be rewritten",
        "planning to split {path} into two modules; which code relies on it and would need updating",
        "we want to drop {T} next sprint, how much code does that touch",
        "{fn} will raise {err} from now on instead of returning None, is any code going to blow up",
        "does making {fn} async force changes in other modules",
        "if {qual} returned a list instead of a generator, how many modules need edits",
        "{T} refactor: whose code gets hit",
        "would anything downstream stop working if {fn} no longer accepted None",
        "if i delete {path} will CI go red",
    ],
    "exact_match": [
        "got this in the logs: {msg}",
        'rg -F "{msg}" --type py',
        "2024-03-11T04:12:{n}Z ERROR {msg}",
        "verbatim: {msg}",
        "where in the source does the string `{msg}` appear",
        "need the source line that logs {msg}",
        "process exited with {ecode} right after {msg}",
        "E (12{n}) fw: {msg}",
        "case sensitive search for {Msg}",
        'source of the warning "{msg}"',
        "customer ticket says the app showed '{Msg}', find it",
    ],
    "find_similar": [
        "{snippet}\n\nis there already a helper for this?",
        "here's my function, anything in the repo that does the same thing?\n{body}",
        "{fn} was forked into a couple of services, find the forks",
        "{fn} but in another package, does that exist?",
        "files that look a lot like {path}",
        "other spots using {code} the same way",
        "{qual} lookalikes",
        "other classes in the codebase doing the same job as {T}",
        "smiliar code to {fn}",
        "{code} -- seen this idiom anywhere else?",
        "look for logic equivalent to this:\n{body}",
        "does another service have its own version of {fn}",
    ],
    "understand_code": [
        "can someone give me the 10,000 foot view of {topic}",
        "rough sequence of calls when {event}",
        "ELI5 {topic}",
        "onboarding question: what are the moving parts of {topic}, which modules matter",
        "need to {task}, how would you do it here",
        "{T} seems to just wrap a dict, what is it buying us",
        "tl;dr of {path}?",
        "how does {topic} stay consistent under concurrent updates",
        "idk the right approach to {task}, any pointers",
        "what invariants does {T} maintain",
        "for the wiki: write up how {topic} behaves when {event}",
    ],
}


#: ``fillers()``: every value a slot here can take (none may be a training filler, ``test_intent_model``);
#: ``generate_heldout(per_template=20)``: each template's phrasings, distinct and deterministic, as typed
fillers, generate_heldout = held_out_set(HELDOUT_TEMPLATES, Slots.of(globals()), "fresh", seed=29)

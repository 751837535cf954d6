"""The ``fourfold`` command line: index, search, serve, status, eval, mcp, web, token, demo, plugins.

Every command that reads the index honours ``FOURFOLD_HOME``. ``search`` talks to the coordinator
at ``--address`` when one answers there, else searches the store in this process (no cluster);
``eval`` and ``demo`` start an embedded cluster when no coordinator answers. Ray is imported only by
the commands that need it, so a search through a coordinator starts in tens of milliseconds. Commands that
talk to a coordinator send ``$FOURFOLD_TOKEN`` and trust ``$FOURFOLD_TLS_CA`` when they are set.
"""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import json
import logging
import os
import re
import select
import signal
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import grpc

from fourfold import __version__
from fourfold.api import SearchParams, totals_text
from fourfold.config import DEFAULT_ADDRESS, fourfold_home
from fourfold.coordinator.profiles import DEFAULT_PROFILE
from fourfold.coordinator.progress_bar import ProgressBar
from fourfold.errors import FourfoldError, InvalidInput
from fourfold.index.progress import read_building
from fourfold.plugins.types import CONTEXT_OPTION, MAX_CONTEXT_LINES, MAX_COUNT_OPTION, MULTILINE_OPTION
from fourfold.rpc_errors import explain, speaks_tls
from fourfold.wire import progress_from_pb

__all__ = ["build_parser", "main"]

#: Files a page when ``search --all`` pages through a listing (the coordinator's largest k).
ALL_PAGE_K = 1000
#: Longest --deadline-ms (an hour): the wire field is a 32-bit integer.
MAX_DEADLINE_MS = 3_600_000
#: Largest value a 32-bit wire field holds (a larger -k would fail inside protobuf).
MAX_WIRE_INT = 2**31 - 1

DEMO_QUERIES = (
    ("find_definition", "def build_generation"),
    ("find_references", "who calls segment_file"),
    ("impact_analysis", "what depends on walk_repository"),
    ("exact_match", '"no index in"'),
    ("understand_code", "how does weighted rank fusion work"),
    ("find_similar", "for rank, h in enumerate(hits):\n    c = w / (k + rank + 1)"),
)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="fourfold", description="Code search by intent: semantic, text, structural and graph retrieval, fused."
    )
    p.add_argument("--version", action="version", version=f"fourfold {__version__}")
    p.add_argument("-v", "--verbose", action="store_true", help="log what happens")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    ix = sub.add_parser("index", help="register repositories and build a new index generation")
    ix.add_argument("paths", nargs="+", metavar="PATH", help="repository folders (git checkouts or plain folders)")
    ix.add_argument(
        "--name", action="append", help="name to register a PATH under (once per PATH, in order; default: folder name)"
    )
    ix.add_argument(
        "--address",
        default=None,
        help=f"coordinator to index through (default {DEFAULT_ADDRESS} when it answers; else in-process)",
    )
    ix.add_argument("--json", action="store_true", help="print the summary as JSON")
    ix.add_argument(
        "--embedder",
        default=None,
        help="embedder for the semantic modality (default: $FOURFOLD_EMBEDDER, else the local model)",
    )
    ix.add_argument(
        "--modality", action="append", default=None, help="build only this modality (repeatable; default: all loaded)"
    )
    ix.add_argument(
        "--no-centrality", action="store_true", help="skip the centrality computation (every boost is then 1)"
    )

    se = sub.add_parser("search", help="search the index")
    se.add_argument(
        "query",
        help="a symbol, a quoted string, a question or a code snippet; filters may be written in it as in "
        'Zoekt: repo:NAME file:PATH -file:test lang:go ext:ts case:yes sym:NAME content:"text" '
        "(e.g. 'lang:go -file:_test\\.go$ who calls Render')",
    )
    se.add_argument("--repo", action="append", default=[], help="only this repository (repeatable)")
    se.add_argument(
        "--intent",
        default="",
        help="force an intent instead of classifying: find_definition, find_references, impact_analysis, "
        "exact_match, find_similar, understand_code, or localize (a whole bug report -> the files to look at)",
    )
    se.add_argument("--preset", default="default", help="quick, default or thorough")
    se.add_argument(
        "--profile",
        default="",
        help="weight profiles: fitted (the default: fitted on the dev suites) or hand (the hand-set ones)",
    )
    se.add_argument("--modality", action="append", default=[], help="run exactly these modalities (repeatable)")
    se.add_argument("--weight", action="append", default=[], metavar="MODALITY=W", help="override a modality's weight")
    se.add_argument("-k", type=int, default=10, help="number of hits (default 10)")
    se.add_argument("--path", dest="path_glob", default="", help="only paths matching this glob")
    se.add_argument("--lang", action="append", default=[], help="only this language (repeatable)")
    se.add_argument("--case-sensitive", action="store_true", help="literal and regex matches respect case")
    se.add_argument(
        "--regex",
        action="store_true",
        help="treat the query as a regular expression (RE2 syntax): the text modality lists the matching lines",
    )
    se.add_argument(
        "--literal", action="store_true", help="treat the query as an exact string: the text modality lists its lines"
    )
    se.add_argument(
        "--paths",
        action="store_true",
        help="list the files whose path holds the query (core.py, src/api/) or matches it as a glob (*.go)",
    )
    se.add_argument(
        "--all",
        dest="all_pages",
        action="store_true",
        help="literal/regex/paths search: page through every matching file (the answer says whether it is complete)",
    )
    se.add_argument(
        "--cursor", default="", help="continue a literal/regex/paths listing from the previous answer's cursor"
    )
    se.add_argument(
        "-C",
        "--context",
        type=int,
        default=None,
        metavar="N",
        help="literal/regex listing: show N lines around each matching line, numbered as grep -n -C prints them",
    )
    se.add_argument(
        "-m",
        "--max-count",
        type=int,
        default=None,
        metavar="N",
        help="literal/regex listing: each file's first N matching lines, as grep -m N",
    )
    se.add_argument(
        "-U",
        "--multiline",
        action="store_true",
        help="regex listing: matches may span lines, as rg -U (\\n and \\s match newlines); each line one spans listed",
    )
    se.add_argument(
        "--multiline-dotall", action="store_true", help="with -U: . matches newlines too, as rg --multiline-dotall"
    )
    se.add_argument("-B", "--before-context", type=int, default=None, metavar="N", help="as -C, the lines before")
    se.add_argument("-A", "--after-context", type=int, default=None, metavar="N", help="as -C, the lines after")
    se.add_argument("--deadline-ms", type=int, default=5000, help="deadline for the search (default 5000)")
    se.add_argument("--json", action="store_true", help="print the answer as JSON")
    se.add_argument(
        "--explain", action="store_true", help="note how the query was routed (intent, rule, strategy, weights)"
    )
    se.add_argument(
        "--address",
        default=None,
        help=f"coordinator address (default {DEFAULT_ADDRESS}; when none answers, the index store is searched "
        "in this process)",
    )
    se.add_argument(
        "--in-process",
        action="store_true",
        help="search $FOURFOLD_HOME's index in this process, without asking any coordinator",
    )

    sh = sub.add_parser(
        "show", help="print a file's lines as indexed (REPO:PATH[:START[-END]], as a search names its hits)"
    )
    sh.add_argument(
        "location",
        help="REPO:PATH, REPO:PATH:START (from that line) or REPO:PATH:START-END, e.g. 'pay:src/api.py:40-80'",
    )
    sh.add_argument("--json", action="store_true", help="print the file's text, lines and definitions as JSON")
    sh.add_argument(
        "--address", default=None, help=f"coordinator address (default {DEFAULT_ADDRESS}; else read the store here)"
    )
    sh.add_argument(
        "--in-process", action="store_true", help="read $FOURFOLD_HOME's index in this process, asking no coordinator"
    )

    sv = sub.add_parser("serve", help="run the coordinator and the workers")
    sv.add_argument(
        "--address", default=DEFAULT_ADDRESS, help=f"address the coordinator listens on (default {DEFAULT_ADDRESS})"
    )
    sv.add_argument(
        "--ray-address",
        default=None,
        help="join this Ray cluster (default: the Ray head recorded in $FOURFOLD_HOME, started when none runs; "
        "it outlives a crashed serve, and a clean exit stops it)",
    )
    sv.add_argument(
        "--keep-cluster",
        action="store_true",
        help="on a clean exit leave the Ray head and workers running for the next serve (`fourfold stop` ends them)",
    )
    sv.add_argument(
        "--role",
        choices=("all", "coordinator", "workers"),
        default="all",
        help="all (default), coordinator only (stateless, discovers workers), or workers only",
    )
    sv.add_argument(
        "--replicas", action="append", default=[], metavar="MODALITY=N", help="replicas per shard of a modality"
    )
    sv.add_argument("--metrics-port", type=int, default=0, help="serve Prometheus metrics on this port (0: off)")
    sv.add_argument(
        "--auth-tokens",
        type=Path,
        default=None,
        metavar="FILE",
        help="require bearer tokens: JSON grants of token SHA-256 -> repositories (default: $FOURFOLD_AUTH_TOKENS; "
        "neither: open, for loopback use). `fourfold token` makes entries",
    )
    sv.add_argument(
        "--tls-cert",
        type=Path,
        default=None,
        metavar="PEM",
        help="serve TLS with this certificate chain (needs --tls-key)",
    )
    sv.add_argument("--tls-key", type=Path, default=None, metavar="PEM", help="private key of --tls-cert")
    sv.add_argument(
        "--fleet",
        type=Path,
        default=None,
        metavar="FILE",
        help="the fleet file this coordinator syncs (Sync RPC, --sync-interval) and whose labels are group: grants "
        "(default: $FOURFOLD_FLEET when set)",
    )
    sv.add_argument(
        "--sync-interval",
        default="0",
        metavar="DURATION",
        help="sync the fleet file on this schedule (10m, 1h, 90s; default 0: only when asked)",
    )
    sv.add_argument(
        "--worker-tls",
        action="store_true",
        help="encrypt the worker plane (implied by --tls-cert; give it to a separate --role workers launcher too)",
    )
    sv.add_argument(
        "--allow-unauthenticated",
        action="store_true",
        help="serve without tokens on an address other hosts reach (refused otherwise: anyone could read everything)",
    )
    sv.add_argument(
        "--allow-plaintext-tokens",
        action="store_true",
        help="accept tokens without TLS on an address other hosts reach (only where the network encrypts)",
    )
    sv.add_argument(
        "--health-address",
        default=None,
        metavar="HOST:PORT",
        help="also serve only grpc.health.v1, in plaintext, here (for probes that cannot speak TLS)",
    )
    sv.add_argument(
        "--web-port",
        type=int,
        default=0,
        metavar="PORT",
        help="also serve the search page and HTTP API on this port, on the --address host (0: off; "
        "HTTPS with --tls-cert/--tls-key)",
    )

    sc = sub.add_parser(
        "scale", help="change the replicas of a running cluster's shards (new ones spread over the nodes)"
    )
    sc.add_argument(
        "--ray-address", required=True, help="the Ray cluster the workers run in (e.g. 10.0.0.5:6379, or auto)"
    )
    sc.add_argument(
        "--replicas", action="append", required=True, metavar="MODALITY=N", help="replicas per shard of a modality"
    )

    for serving in (sv, sc):
        serving.add_argument(
            "--workers-per-modality",
            type=int,
            default=None,
            metavar="N",
            help="pack each modality's shards into at most N workers (default: $FOURFOLD_WORKERS_PER_MODALITY, "
            "else the Ray cluster's CPU count)",
        )

    sub.add_parser("stop", help="stop the Ray head (and its workers) a serve left running in $FOURFOLD_HOME")

    st = sub.add_parser("status", help="what is indexed and who serves it")
    st.add_argument("--address", default=None, help=f"coordinator address (default {DEFAULT_ADDRESS})")
    st.add_argument("--json", action="store_true", help="print JSON")

    ev = sub.add_parser("eval", help="measure retrieval quality on labelled query suites (JSONL)")
    ev.add_argument(
        "suites",
        nargs="+",
        metavar="SUITE",
        help=f"suite files (JSONL: {SUITE_FORMAT}) or the name of a bundled suite: "
        f"{', '.join(bundled_suites())} (`fourfold eval demo` after `fourfold demo`)",
    )
    ev.add_argument("--preset", default="default", help="preset of the fused answer: quick, default or thorough")
    ev.add_argument("--profile", default="", help="weight profiles of the fused answer: fitted (the default) or hand")
    ev.add_argument(
        "--modality",
        action="append",
        default=[],
        help="score this modality alone (repeatable; default: every served one)",
    )
    ev.add_argument(
        "--json",
        dest="json_path",
        type=Path,
        default=None,
        metavar="PATH",
        help="also write the numbers as JSON to PATH",
    )
    ev.add_argument(
        "--address", default=None, help=f"coordinator address (default {DEFAULT_ADDRESS}; embedded when none answers)"
    )
    ev.add_argument("-k", type=int, default=10, help="hits asked per query (default 10)")
    ev.add_argument(
        "--compare",
        action="append",
        default=[],
        metavar="OPTION=VALUE",
        help="also ask every query as classified with this search option, in a column of its own "
        "(repeatable), e.g. localize=off: bug reports routed as before the localize intent",
    )
    scope = ev.add_mutually_exclusive_group()
    scope.add_argument(
        "--repo",
        action="append",
        default=[],
        metavar="NAME",
        help="ask every query within these repositories (repeatable), as a user scoped to them would",
    )
    scope.add_argument(
        "--scope-to-suite",
        action="store_true",
        help="ask each suite's queries within the repository its file is named after (click.jsonl -> click)",
    )
    scope.add_argument(
        "--scope-to-relevant",
        action="store_true",
        help="ask each query within the repositories its relevant items name (a suite over many corpora, "
        "such as the SWE-bench one: each issue within its own release)",
    )

    sub.add_parser(
        "demo", help="index fourfold's own source into its own store (<store>/demo) and answer one query of each intent"
    )
    sy = sub.add_parser(
        "sync", help="fetch the fleet file's repositories and index the (repository, revision) pairs that moved"
    )
    sy.add_argument(
        "--fleet",
        type=Path,
        default=None,
        metavar="FILE",
        help="the fleet file (default: $FOURFOLD_FLEET, else ./fourfold.yaml)",
    )
    sy.add_argument(
        "--repo", action="append", default=[], metavar="NAME", help="sync only this repository (repeatable)"
    )
    sy.add_argument("--json", action="store_true", help="print the report as JSON")
    sy.add_argument("--check", action="store_true", help="only validate the fleet file")
    sy.add_argument(
        "--address",
        default=None,
        help="ask this coordinator (started with --fleet) to sync, so its workers roll (default: sync in-process)",
    )
    rm = sub.add_parser("remove", help="unregister a repository and publish a generation without it")
    rm.add_argument("name", metavar="NAME", help="the registered repository name (see `fourfold status`)")
    rm.add_argument("--json", action="store_true", help="print the summary as JSON")
    gc = sub.add_parser("gc", help="drop abandoned builds and old generations (keeps the live one and the previous)")
    gc.add_argument(
        "--keep", type=int, default=2, metavar="N", help="generations to keep, the live one included (default 2)"
    )
    sub.add_parser("plugins", help="list the loaded plugins and modalities")

    mc = sub.add_parser("mcp", help="serve the Model Context Protocol for AI agents (search tools over a coordinator)")
    mc.add_argument(
        "--address", default=DEFAULT_ADDRESS, help=f"coordinator to search through (default {DEFAULT_ADDRESS})"
    )
    mc.add_argument(
        "--transport",
        choices=("stdio", "http"),
        default="stdio",
        help="stdio (default; the agent starts this command) or streamable HTTP",
    )
    mc.add_argument("--host", default="127.0.0.1", help="HTTP transport: address to listen on (default 127.0.0.1)")
    mc.add_argument("--port", type=int, default=8765, help="HTTP transport: port (default 8765)")
    mc.add_argument(
        "--tls-ca",
        default=None,
        metavar="PEM",
        help="talk TLS to the coordinator trusting this CA (default: $FOURFOLD_TLS_CA)",
    )

    wb = sub.add_parser("web", help="serve the search page and the HTTP JSON API over a coordinator")
    wb.add_argument(
        "--address", default=DEFAULT_ADDRESS, help=f"coordinator to search through (default {DEFAULT_ADDRESS})"
    )
    wb.add_argument("--listen", default="127.0.0.1:8080", help="HOST:PORT to serve HTTP on (default 127.0.0.1:8080)")
    wb.add_argument(
        "--tls-cert", type=Path, default=None, metavar="PEM", help="serve HTTPS with this certificate chain"
    )
    wb.add_argument("--tls-key", type=Path, default=None, metavar="PEM", help="private key of --tls-cert")
    wb.add_argument(
        "--tls-ca",
        default=None,
        metavar="PEM",
        help="talk TLS to the coordinator trusting this CA (default: $FOURFOLD_TLS_CA)",
    )
    wb.add_argument(
        "--allow-plaintext-tokens",
        action="store_true",
        help="serve plain HTTP on an address other hosts reach (behind a proxy or mesh that encrypts)",
    )

    tk = sub.add_parser("token", help="make a new bearer token and print its entry for the --auth-tokens file")
    tk.add_argument("--name", required=True, help="who holds the token (shown in logs and errors)")
    tk.add_argument("--repo", action="append", default=[], help="a repository it may read (repeatable; '*' for all)")
    tk.add_argument("--admin", action="store_true", help="may also index")
    return p


# -- helpers ---------------------------------------------------------------------------------------


#: One line of a suite file, for help texts and errors.
SUITE_FORMAT = (
    '{"id": "q1", "query": "where is X defined", "match": "line" or "file", '
    '"relevant": [{"repo": "R", "path": "P", "line": N}]} a line'
)


def bundled_suites() -> dict[str, Path]:
    """Name -> file of the example suites shipped in the package (``coordinator/suites/*.jsonl``)."""
    folder = Path(__file__).resolve().parent / "suites"
    return {p.stem: p for p in sorted(folder.glob("*.jsonl"))}


def _client_if_up(address: str | None):
    from fourfold.connection import WireClient

    c = WireClient(address or DEFAULT_ADDRESS)
    if c.healthy():
        return c
    c.close()
    if address and not c.connection.tls and speaks_tls(address):
        raise FourfoldError(f"the server at {address} speaks TLS: set $FOURFOLD_TLS_CA to its CA bundle")
    if address:
        raise FourfoldError(
            f"no fourfold coordinator answers at {address!r}; start one with `fourfold serve --address {address}`"
        )
    return None


def _print_summary(s: dict, as_json: bool) -> None:
    if as_json:
        print(json.dumps(s, indent=2))
        return
    skipped = ", ".join(f"{k}: {v}" for k, v in sorted(s.get("skipped", {}).items())) or "none"
    print(
        f"generation {s['generation']} is live: {s['files']} files, {s['segments']} segments, "
        f"{s.get('bytes', 0) / 1e6:.1f} MB in {s['seconds']:.1f}s"
    )
    print(f"  skipped: {skipped}")
    print(f"  reused (unchanged): {s.get('reused_files', 0)} files; parse errors in {s.get('parse_errors', 0)} files")
    for failure in s.get("failed_shards") or []:
        print(f"  FAILED (not published, the rest is live): {failure}")
    if "carried_shards" in s:
        changed = ", ".join(s.get("changed_repos") or []) or "none"
        print(f"  rebuilt repositories: {changed}; {s['carried_shards']} of {s.get('shards', 0)} shards carried over")
    stages = s.get("stages") or {}
    if stages:  # where the time went, the costliest stages first
        shown = list(stages.items())[:6]
        print(
            "  time by stage: "
            + ", ".join(f"{k} {v['seconds']:.1f}s ({v['cpu_seconds']:.1f} CPU-s)" for k, v in shown)
            + (f", {len(stages) - len(shown)} more" if len(stages) > len(shown) else "")
        )
    unsupported = s.get("unsupported_languages") or {}
    if unsupported:
        print(
            "  no definition extractor (indexed as line windows): "
            + ", ".join(f"{k}: {v}" for k, v in sorted(unsupported.items()))
        )


def _parse_weights(values: Sequence[str]) -> dict[str, float]:
    out = {}
    for v in values:
        name, sep, w = v.partition("=")
        try:
            out[name] = float(w)
        except ValueError:
            raise InvalidInput(f"invalid --weight {v!r}: use MODALITY=NUMBER, e.g. text=0.5") from None
        if not sep:
            raise InvalidInput(f"invalid --weight {v!r}: use MODALITY=NUMBER, e.g. text=0.5")
    return out


def _print_answer(r, as_json: bool) -> None:
    from fourfold.wire import answer_to_json

    if as_json:
        print(json.dumps(answer_to_json(r), indent=2))
        return
    total = next((t.ms for t in r.timings if t.stage == "total"), 0.0)
    print(
        f"intent {r.intent} ({r.confidence:.2f}) · {r.fusion_strategy} · preset {r.preset} · "
        f"{len(r.hits)} of {r.total_candidates} hits · {total:.1f} ms"
    )
    if r.partial:
        print(f"  partial answer: missing {', '.join(r.missing_shards)}")
    if r.no_confident_match:
        print("  no confident match: the hits below are candidates, not answers")
    totals = totals_text(r.total_matches, r.total_files, r.total_exact)
    if totals:
        if r.complete:
            state = "complete"
        elif r.cursor:
            state = "more: pass --cursor " + r.cursor
        elif not r.partial:  # a listing short of every match has a cursor or a missing shard: this one is ranked
            state = "ranked, not a listing (--literal or --regex lists every match)"
        else:
            state = "incomplete"
        print(f"  {totals} · {state}")
    for n in r.notes:
        print(f"  note: {n}")
    for i, h in enumerate(r.hits, 1):
        why = " ".join(f"{m}#{c.rank + 1}" for m, c in sorted(h.modalities.items(), key=lambda kv: -kv[1].contribution))
        sym = f"  {h.kind} {h.symbol}" if h.symbol else ""
        demoted = " (demoted)" if h.demoted else ""
        ranked = f"  [{h.score:.4f} {why}]" if why else ""  # a file's segments read in line order rank nothing
        print(f"{i:>3}. {h.repo}:{h.path}:{h.start_line}-{h.end_line}{sym}{ranked}{demoted}")
        if r.total_files and h.match_lines:  # a listing: the file's matching lines, not only the segment's
            more = f" (+{len(h.match_lines) - 20} more)" if len(h.match_lines) > 20 else ""
            print(f"       lines {','.join(map(str, h.match_lines[:20]))}{more}")
        if r.total_files and h.match_lines:  # a listing's lines as the text modality cut them (with context, numbered)
            for line in h.snippet.splitlines():
                print(f"       {line[:160]}")
            continue
        shown: set[str] = set()
        for line in h.snippet.splitlines():
            if len(shown) == 4:
                break
            if line.strip() and line.strip() not in shown:  # modalities' explanations often repeat a line
                shown.add(line.strip())
                print(f"       {line[:120]}")


# -- commands --------------------------------------------------------------------------------------


def cmd_index(args: argparse.Namespace) -> int:
    names = args.name or []
    if len(names) > len(args.paths):
        raise InvalidInput(f"{len(names)} --name values for {len(args.paths)} paths: give at most one --name per PATH")
    repos = [(Path(p), names[i] if i < len(names) else None) for i, p in enumerate(args.paths)]
    bar = ProgressBar()
    client = _client_if_up(args.address)
    if client is not None and (args.modality or args.no_centrality):
        client.close()
        raise InvalidInput(
            "--modality and --no-centrality apply to in-process builds; stop the coordinator or "
            "set FOURFOLD_HOME to another store to use them"
        )
    if client is not None:
        from google.protobuf.json_format import MessageToDict

        with client:
            _say_which_store(client, args.address)
            last = None
            try:
                for msg in client.index([(p.resolve(), n) for p, n in repos]):
                    bar(progress_from_pb(msg))
                    last = msg
            except grpc.RpcError as exc:
                raise FourfoldError(exc.details() or str(exc)) from None
            except KeyboardInterrupt:
                bar.close()
                # the build belongs to the coordinator: it goes on and goes live when done (a
                # generation switches whole or not at all), whatever happens to this client
                print(
                    f"\nfourfold: interrupted; the build goes on at the coordinator {client.address} and goes live "
                    f"when done. Follow it with `fourfold status --address {client.address}`",
                    file=sys.stderr,
                )
                return 130
            finally:
                bar.close()
        assert last is not None
        s = MessageToDict(last.summary, preserving_proto_field_name=True, always_print_fields_with_no_presence=True)
        # JSON carries 64-bit integers as strings
        s["files"], s["segments"] = int(s.get("files", 0)), int(s.get("segments", 0))
        s["bytes"], s["seconds"] = int(s.get("bytes", 0)), float(s.get("seconds", 0.0))
        s["skipped"] = {k: int(v) for k, v in s.get("skipped", {}).items()}
        s["unsupported_languages"] = {k: int(v) for k, v in s.get("unsupported_languages", {}).items()}
        _print_summary(s, args.json)
        return 0
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    settings = {"embedder": args.embedder} if args.embedder else None
    try:
        summary = build_generation(
            IndexStore(fourfold_home()),
            repos,
            progress=bar,
            settings=settings,
            modalities=args.modality,
            centrality=not args.no_centrality,
        )
    finally:
        bar.close()
    _print_summary(summary.as_dict(), args.json)
    return 0


def _search_params(args: argparse.Namespace) -> SearchParams:

    modes = [m for m in ("regex", "literal", "paths") if getattr(args, m)]
    if len(modes) > 1:
        raise InvalidInput(
            f"--{' and --'.join(modes)} exclude each other: a query is a pattern, an exact string or a path"
        )
    options = {"mode": modes[0]} if modes else {}
    if args.profile:
        options["profile"] = args.profile
    if args.explain:
        options["explain"] = "1"
    if (args.context, args.before_context, args.after_context) != (None, None, None):  # -A and -B win over -C
        for flag, n in (("-C", args.context), ("-B", args.before_context), ("-A", args.after_context)):
            if n is not None and not 0 <= n <= MAX_CONTEXT_LINES:
                raise InvalidInput(f"invalid {flag} {n}: show 0 to {MAX_CONTEXT_LINES} lines around each match")
        around = args.context or 0
        before = around if args.before_context is None else args.before_context
        after = around if args.after_context is None else args.after_context
        options[CONTEXT_OPTION] = f"{before},{after}"
    if args.max_count is not None:
        if args.max_count < 1:
            raise InvalidInput(f"invalid -m {args.max_count}: keep 1 or more matching lines of each file")
        options[MAX_COUNT_OPTION] = str(args.max_count)
    if args.multiline_dotall and not args.multiline:
        raise InvalidInput("--multiline-dotall lets . match newlines in a match that spans lines: give -U with it")
    if args.multiline:  # a pattern whose matches span lines, as rg -U reads it: a regular expression
        if options.get("mode", "regex") != "regex":
            raise InvalidInput(f"-U reads a regular expression whose matches span lines: drop --{options['mode']}")
        options.update({"mode": "regex", MULTILINE_OPTION: "dotall" if args.multiline_dotall else "on"})
    return SearchParams(
        query=args.query,
        k=max(args.k, ALL_PAGE_K) if args.all_pages else args.k,  # --all: k is only the page size
        repos=tuple(args.repo),
        intent=args.intent,
        preset=args.preset,
        modalities=tuple(args.modality),
        weights=_parse_weights(args.weight),
        deadline_ms=args.deadline_ms,
        path_glob=args.path_glob,
        languages=tuple(args.lang),
        case_sensitive=args.case_sensitive,
        options=options,
        with_snippets=not args.json,
        cursor=args.cursor,
    )


def cmd_search(args: argparse.Namespace) -> int:
    if not 1 <= args.k <= MAX_WIRE_INT:  # the wire field is 32-bit: say so before protobuf raises
        from fourfold.coordinator.engine import MAX_K

        raise InvalidInput(f"invalid -k {args.k}: ask for 1 to {MAX_K} hits")
    if not 0 <= args.deadline_ms <= MAX_DEADLINE_MS:
        raise InvalidInput(f"invalid --deadline-ms {args.deadline_ms}: give 1 to {MAX_DEADLINE_MS} milliseconds")
    params = _search_params(args)
    client = None if args.in_process else _client_if_up(args.address)
    if client is None:
        return _search_in_process(params, args.json, args.all_pages)
    with client:
        _say_which_store(client, args.address)
        return _run_search(client, params, args.json, args.all_pages)


def _search_in_process(params: SearchParams, as_json: bool, all_pages: bool = False) -> int:
    """Answer from the index store itself: the engine over shards loaded in this process (no
    cluster, no server; the shards a query needs are loaded, the others never)."""
    from fourfold.coordinator.engine import Engine
    from fourfold.index.store import IndexStore
    from fourfold.wire import answer_to_pb

    store = IndexStore(fourfold_home())
    store.require_live()

    async def run():
        engine = Engine(store)
        try:
            first = answer_to_pb(await engine.search(params))
            if not all_pages:
                return first
            pages = [first]
            while pages[-1].cursor:
                pages.append(answer_to_pb(await engine.search(dataclasses.replace(params, cursor=pages[-1].cursor))))
            return _joined(pages)
        finally:
            await engine.stop()

    _print_answer(asyncio.run(run()), as_json)
    return 0


def _say_which_store(client, address: str | None) -> None:
    """Tell on stderr when the coordinator found at the default address serves another index
    than the store ``$FOURFOLD_HOME`` names (a different live generation), so searching,
    indexing or evaluating through another store is never silent."""
    home = os.environ.get("FOURFOLD_HOME")
    if address or not home:
        return
    live_file = Path(home) / "LIVE"
    local = live_file.read_text().strip() if live_file.is_file() else None
    try:
        served = client.status().generation
    except grpc.RpcError:
        return
    if served != local:
        print(
            f"fourfold: using the coordinator at {client.address} (generation {served or 'none'}), not the index "
            f"store $FOURFOLD_HOME={home} (generation {local or 'none'}); give --address to name a coordinator, "
            "or `search --in-process` to search that store",
            file=sys.stderr,
        )


def _run_search(client, params, as_json: bool, all_pages: bool = False) -> int:
    try:
        r = client.search(params)
        if all_pages:
            pages = [r]
            while pages[-1].cursor:
                pages.append(client.search(dataclasses.replace(params, cursor=pages[-1].cursor)))
            r = _joined(pages)
    except grpc.RpcError as exc:
        print(f"fourfold: {exc.code().name}: {exc.details()}", file=sys.stderr)
        return 2
    _print_answer(r, as_json)
    return 0


def _joined(pages):
    """One answer holding every page of a listing: the last page's totals, every page's hits."""
    from fourfold.v1 import coordinator_pb2

    merged = coordinator_pb2.SearchResponse()
    merged.CopyFrom(pages[-1])
    del merged.hits[:]
    for page in pages:
        merged.hits.extend(page.hits)
    if len(pages) > 1:
        merged.notes.append(f"{len(pages)} pages")
    return merged


def file_location(text: str) -> tuple[str, str, int, int]:
    """``REPO:PATH[:START[-END]]`` as (repo, path, start, end); 0 bounds are the file's own."""
    repo, _, rest = text.partition(":")
    lines = re.fullmatch(r"(?P<path>.+?):(?P<start>\d+)(?:-(?P<end>\d+))?", rest)
    path = lines["path"] if lines else rest
    if not repo or not path:
        raise InvalidInput(
            f"invalid location {text!r}: give REPO:PATH or REPO:PATH:START-END, e.g. 'pay:src/api.py:40-80'"
        )
    start = int(lines["start"]) if lines else 0
    end = int(lines["end"]) if lines and lines["end"] else 0
    if lines and (start < 1 or (end and end < start)):
        raise InvalidInput(f"invalid lines in {text!r}: give START-END with 1 <= START <= END")
    return repo, path, start, end


def cmd_show(args: argparse.Namespace) -> int:
    from fourfold.wire import file_from_pb

    repo, path, start, end = file_location(args.location)
    client = None if args.in_process else _client_if_up(args.address)
    if client is None:
        from fourfold.coordinator.files import read_file
        from fourfold.index.fleet import revision_name
        from fourfold.index.store import IndexStore

        f = read_file(IndexStore(fourfold_home()).require_live(), revision_name(repo), path, start, end)
    else:
        with client:
            f = file_from_pb(client.read_file(repo, path, start, end))
    if args.json:
        print(json.dumps(dataclasses.asdict(f), indent=2))
        return 0
    text, more = f.numbered()
    print(text)
    if more and (not end or more <= end):
        print(f"… {f.total_lines - more + 1} lines more: fourfold show {repo}:{path}:{more}-", file=sys.stderr)
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    from fourfold.coordinator.auth import TokenStore
    from fourfold.coordinator.exposure import exposure
    from fourfold.coordinator.serving import TlsFiles, start_server, watch_generations
    from fourfold.index.store import IndexStore
    from fourfold.workers import cluster

    replicas = cluster.parse_replicas(args.replicas)
    workers = cluster.parse_workers(args.workers_per_modality)
    tokens = TokenStore.load(args.auth_tokens)
    if (args.tls_cert is None) != (args.tls_key is None):
        raise InvalidInput("give both --tls-cert and --tls-key, or neither")
    tls = TlsFiles(args.tls_cert, args.tls_key) if args.tls_cert is not None and args.tls_key is not None else None
    if args.role != "workers":  # refuse an unsafe exposure before starting a cluster
        exposure(
            args.address,
            tokens=tokens is not None,
            tls=tls is not None,
            allow_unauthenticated=args.allow_unauthenticated,
            allow_plaintext_tokens=args.allow_plaintext_tokens,
        )
    if args.metrics_port:
        from fourfold.coordinator import metrics

        metrics.serve(args.metrics_port)
    from fourfold.coordinator.syncer import parse_interval

    interval = parse_interval(args.sync_interval)
    fleet = args.fleet or (Path(os.environ["FOURFOLD_FLEET"]) if os.environ.get("FOURFOLD_FLEET") else None)
    if interval and fleet is None:
        raise InvalidInput("--sync-interval needs a fleet file: give --fleet FILE (or set $FOURFOLD_FLEET)")
    if fleet is not None:
        from fourfold.index.fleet import load_fleet

        load_fleet(fleet)  # a bad fleet file is reported before a cluster starts
    from fourfold.workers import head

    # our own Ray head, in a process of its own: workers outlive a crash of this process
    ray_head, owner = (None, False) if args.ray_address else head.ensure(fourfold_home())
    cluster.connect(args.ray_address or (ray_head.address if ray_head else None))

    async def run() -> None:
        running = await start_server(
            fourfold_home(),
            args.address,
            role=args.role,
            replicas=replicas,
            tokens=tokens,
            tls=tls,
            health_address=args.health_address,
            workers_per_modality=workers,
            allow_unauthenticated=args.allow_unauthenticated,
            allow_plaintext_tokens=args.allow_plaintext_tokens,
            encrypt_workers=args.worker_tls,
            fleet=fleet if args.role != "workers" else None,
            sync_interval_s=interval,
        )
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        watcher = None
        if args.role == "workers":
            store = IndexStore(fourfold_home())
            watcher = asyncio.ensure_future(
                watch_generations(store, cluster.Launcher(store, replicas, workers_per_modality=workers))
            )
            print("fourfold workers serving", flush=True)
        else:
            print(f"fourfold coordinator serving on {running.address} (role {args.role})", flush=True)
        stop_web = _start_web(args, running.address, tls) if args.web_port and args.role != "workers" else None
        await stop.wait()
        if stop_web is not None:
            stop_web()
        if watcher:
            watcher.cancel()
        await running.stop()

    try:
        asyncio.run(run())
    finally:
        if owner and not args.keep_cluster:
            cluster.shutdown()
            head.stop(fourfold_home())
    return 0


def cmd_stop(args: argparse.Namespace) -> int:
    from fourfold.workers import head

    stopped = head.stop(fourfold_home())
    print(f"stopped the Ray head at {stopped.address}" if stopped else "no Ray head recorded; nothing to stop")
    return 0


def cmd_scale(args: argparse.Namespace) -> int:
    from collections import Counter

    from fourfold.index.store import IndexStore
    from fourfold.workers import cluster

    replicas = cluster.parse_replicas(args.replicas)
    store = IndexStore(fourfold_home())
    live = store.require_live().name
    cluster.connect(args.ray_address)
    launcher = cluster.Launcher(store, replicas, workers_per_modality=cluster.parse_workers(args.workers_per_modality))
    keys, retired = asyncio.run(launcher.scale(live))
    per = Counter(k.modality for k in keys)
    print(
        f"generation {live}: " + ", ".join(f"{m} {n} workers" for m, n in sorted(per.items())) + f"; retired {retired}"
    )
    return 0


def _print_fleet_state(home: Path) -> None:
    """Stale repositories from the last sync (their last good index keeps serving)."""
    from fourfold.index.store import IndexStore
    from fourfold.index.sync import fleet_state

    for name, entry in sorted(fleet_state(IndexStore(home))["repos"].items()):
        if entry.get("status") == "stale":
            print(f"  STALE {name}: {entry.get('error', '')} (serving its last good index)")


def cmd_status(args: argparse.Namespace) -> int:
    from fourfold.index.store import IndexStore

    client = _client_if_up(args.address)
    if client is None:
        store = IndexStore(fourfold_home())
        live = store.live_generation()
        from fourfold.index.sync import fleet_state

        stale = {n: e.get("error", "") for n, e in fleet_state(store)["repos"].items() if e.get("status") == "stale"}
        names = [r.name for r in store.repos()]
        info: dict[str, Any] = {"server": None, "home": str(store.home), "generation": live, "repos": names}
        info["stale"] = stale
        failed = store.reader(live).manifest.get("failed_shards", []) if live else []
        info["failed_shards"] = [f"{f.get('modality')}/{f.get('shard')}: {f.get('error')}" for f in failed]
        info["building"] = read_building(store.home)
        if args.json:
            print(json.dumps(info, indent=2))
        else:
            print(
                f"no coordinator answers at {DEFAULT_ADDRESS}; index store {store.home}: generation {live or 'none'}, "
                f"repositories: {', '.join(names) or 'none'}"
            )
            for failure in info["failed_shards"]:
                print(f"  failed to build (not served): {failure}")
            b = info["building"]
            if b:
                print(f"  building {b['generation']}: {b['stage']} {b['done']:,}/{b['total']:,} {b['message']}")
            _print_fleet_state(store.home)
        return 0
    with client:
        _say_which_store(client, args.address)
        s = client.status()
    if args.json:
        from google.protobuf.json_format import MessageToDict

        print(json.dumps(MessageToDict(s, preserving_proto_field_name=True), indent=2))
        return 0
    print(
        f"fourfold {s.version} · generation {s.generation or 'none'} · {s.nodes} Ray node(s) · "
        f"modalities {', '.join(s.modalities)}"
    )
    for r in s.repos:
        print(f"  repo {r.name}: {r.files} files, {r.segments} segments ({r.path})")
    for sh in s.shards:
        print(f"  {sh.modality}/{sh.shard}#{sh.replica} {sh.health} at {sh.address} ({sh.generation})")
    for failure in s.failed_shards:
        print(f"  failed to build (not served): {failure}")
    if s.HasField("building"):
        b = s.building
        print(f"  building: {b.stage} {b.done:,}/{b.total:,} {b.message}")
    _print_fleet_state(fourfold_home())
    return 0


def cmd_demo(args: argparse.Namespace) -> int:
    from fourfold.connection import WireClient
    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.index.store import IndexStore
    from fourfold.plugins.manager import get_registry

    home = fourfold_home() / "demo"  # its own store: the demo never registers anything in the user's
    source = Path(__file__).resolve().parent.parent
    print(f"indexing fourfold's own source ({source}) into {home}", flush=True)
    store = IndexStore(home)
    started = time.monotonic()
    # Searchable in seconds: every modality but the embeddings first, published; semantic joins after.
    later = [m for m in LATE_MODALITIES if m in get_registry().modalities]
    first = [m for m in get_registry().modalities if m not in later] if later else None
    summary = _demo_build(store, source, first)
    if later:
        print(f"  still building: {', '.join(later)} (the answers below come without it; it joins when ready)")
    print("starting a local cluster (Ray, workers, coordinator)...", flush=True)
    with EmbeddedServer(home) as embedded, WireClient(embedded.address) as client:
        for intent, query in DEMO_QUERIES:
            print(f"\n$ fourfold search {json.dumps(query)}    # {intent}")
            r = client.search(SearchParams(query=query, k=5, preset="thorough", with_snippets=False))
            _print_answer(r, False)
        print(f"\nfirst answers {time.monotonic() - started:.0f}s after the start", flush=True)
        if later:
            print(f"\nbuilding {', '.join(later)}; the running server follows the store to the new generation")
            summary = _demo_build(store, source, None)
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline and client.status().generation != summary.generation:
                time.sleep(0.5)
            intent, query = DEMO_QUERIES[4]
            print(f"\n$ fourfold search {json.dumps(query)}    # {intent}, now with {', '.join(later)}")
            r = client.search(SearchParams(query=query, k=5, preset="thorough", with_snippets=False))
            _print_answer(r, False)
            print(f"\ncomplete {time.monotonic() - started:.0f}s after the start", flush=True)
    return 0


#: Modalities ``fourfold demo`` builds after its first answers (their build is the slow part).
LATE_MODALITIES = ("semantic",)


def _demo_build(store: Any, source: Path, modalities: list[str] | None) -> Any:
    from fourfold.index.generation import build_generation

    bar = ProgressBar()
    try:
        summary = build_generation(store, [(source, "fourfold")], progress=bar, modalities=modalities)
    finally:
        bar.close()
    _print_summary(summary.as_dict(), False)
    return summary


def fleet_file(explicit: Path | None) -> Path:
    """The fleet file a command uses: --fleet, else $FOURFOLD_FLEET, else ./fourfold.yaml."""
    if explicit is not None:
        return explicit
    env = os.environ.get("FOURFOLD_FLEET")
    return Path(env) if env else Path("fourfold.yaml")


def cmd_sync(args: argparse.Namespace) -> int:
    from fourfold.index.fleet import load_fleet
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore
    from fourfold.index.sync import sync

    if args.address:
        client = _client_if_up(args.address)
        assert client is not None
        bar = ProgressBar()
        with client:
            try:
                for msg in client.sync(args.repo):
                    bar(progress_from_pb(msg))
                    if msg.stage == "done":
                        print(msg.message)
            except grpc.RpcError as exc:
                raise FourfoldError(exc.details() or str(exc)) from None
        return 0
    fleet = load_fleet(fleet_file(args.fleet))
    if args.check:
        print(f"{fleet.source}: {len(fleet.repos)} repositories, groups: {', '.join(fleet.groups()) or 'none'}")
        return 0
    store = IndexStore(fourfold_home())
    bar = ProgressBar()
    report = sync(
        store,
        fleet,
        lambda adds, options: build_generation(store, adds, progress=bar, repo_options=options),
        only=args.repo,
        progress=bar,
    )
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        for name, why in sorted(report.stale.items()):
            print(f"STALE {name}: {why} (its last good index keeps serving)")
        for name, commit in sorted(report.moved.items()):
            print(f"moved {name} -> {commit[:12] or 'working tree'}")
        for name in report.removed:
            print(f"removed {name}")
        if report.summary is not None:
            _print_summary(report.summary.as_dict(), False)
        else:
            print(f"nothing moved; {store.live_generation() or 'no generation'} stays live")
    return 1 if report.stale else 0


def cmd_remove(args: argparse.Namespace) -> int:
    from fourfold.index.generation import build_generation
    from fourfold.index.store import IndexStore

    store = IndexStore(fourfold_home())
    with store.build_lock():  # no build may start between forgetting the repository and the new generation
        store.unregister_repo(args.name)
    if not store.repos():
        store.retire_live()
        print(f"removed {args.name}; no repository is left, so no generation is live (`fourfold gc` frees the disk)")
        return 0
    live = store.require_live().manifest if store.live_generation() else {}
    summary = build_generation(  # the live generation's modalities: the others' shards carry over
        store,
        (),
        progress=ProgressBar(),
        modalities=live.get("modalities"),
        centrality=bool(live.get("centrality", True)),
    )
    print(f"removed {args.name}; {summary.generation} is live without it")
    _print_summary(summary.as_dict(), args.json)
    return 0


def cmd_gc(args: argparse.Namespace) -> int:
    from fourfold.index.store import IndexStore

    if args.keep < 1:
        raise InvalidInput(f"invalid --keep {args.keep}: keep at least the live generation (1)")
    store = IndexStore(fourfold_home())
    removed = store.collect_garbage(keep=args.keep)
    live = store.live_generation() or "none"
    print(f"removed {len(removed)} generation(s){': ' + ', '.join(removed) if removed else ''}; live: {live}")
    return 0


def cmd_eval(args: argparse.Namespace) -> int:
    from fourfold.connection import WireClient
    from fourfold.coordinator import evaluate
    from fourfold.coordinator.serving import EmbeddedServer
    from fourfold.index.store import IndexStore

    if args.k <= 0:
        raise InvalidInput(f"invalid -k {args.k}: ask for at least 1 hit")
    paths = [Path(p) if Path(p).is_file() else bundled_suites().get(p, Path(p)) for p in args.suites]
    missing = [str(p) for p in paths if not p.is_file()]
    if missing:
        raise InvalidInput(
            f"suite file not found: {missing[0]!r}; give JSONL files ({SUITE_FORMAT}) "
            f"or a bundled suite's name: {', '.join(bundled_suites())}"
        )
    suites = [(p.stem, evaluate.load_suite(p)) for p in paths]  # bad suites fail before any cluster starts
    client = _client_if_up(args.address)
    if client is None:
        IndexStore(fourfold_home()).require_live()
        with EmbeddedServer(fourfold_home()) as embedded, WireClient(embedded.address) as c:
            return _run_eval(c, suites, args)
    with client:
        _say_which_store(client, args.address)
        return _run_eval(client, suites, args)


def _run_eval(client, suites: list, args: argparse.Namespace) -> int:
    from fourfold.coordinator import evaluate

    served = list(client.status().modalities)
    unknown = [m for m in args.modality if m not in served]
    if unknown:
        raise InvalidInput(f"unknown modality {unknown[0]!r}; served modalities: {', '.join(served)}")
    modalities = args.modality or served

    registered = {r.name for r in client.status().repos}
    scopes = {name: tuple(args.repo) or ((name,) if args.scope_to_suite else ()) for name, _ in suites}
    if args.scope_to_relevant:
        named = {r.repo for _, queries in suites for q in queries for r in q.relevant}
        unknown = sorted(named - registered)
        if unknown:
            raise InvalidInput(
                f"unknown repository {unknown[0]!r} (--scope-to-relevant: a suite's relevant items name it); "
                f"registered: {', '.join(sorted(registered)) or 'none'}"
            )
    for name, repos in scopes.items():
        unknown = sorted(set(repos) - registered)
        if unknown:
            how = (
                f"suite {name!r} is scoped to the repository it is named after"
                if args.scope_to_suite
                else "--repo names it"
            )
            raise InvalidInput(
                f"unknown repository {unknown[0]!r} ({how}); registered: {', '.join(sorted(registered)) or 'none'}"
            )

    compare = {}
    for item in args.compare:
        key, eq, value = item.partition("=")
        if not eq or not key.strip():
            raise InvalidInput(f"invalid --compare {item!r}: give OPTION=VALUE, for example localize=off")
        compare[f"{evaluate.FUSED}+{item}"] = {key.strip(): value.strip()}
    rows = []
    glances = []
    for name, queries in suites:

        def progress(done: int, total: int, qid: str, name: str = name) -> None:
            if done == total or done % 20 == 0:
                print(f"eval {name}: {done}/{total} searches ({qid})", file=sys.stderr, flush=True)

        search = evaluate.scoped(
            client.search,
            profile=args.profile,
            repos=scopes[name],
            per_query=evaluate.relevant_repos(queries) if args.scope_to_relevant else None,
        )
        outcomes = evaluate.run_suite(
            search, queries, modalities, k=args.k, preset=args.preset, progress=progress, compare=compare
        )
        rows.extend(evaluate.rows_for(name, outcomes))
        glances.extend(evaluate.glance(name, outcomes))
    print(evaluate.format_table(rows))
    print("\nAt a glance: routing per intent, and the fused answer against the best single modality (MRR@10)")
    print(evaluate.format_glance(glances))
    if args.json_path is not None:
        report = {
            "preset": args.preset,
            "profile": args.profile or DEFAULT_PROFILE,
            "k": args.k,
            "modalities": modalities,
            "compare": list(compare),
            "scopes": {name: list(repos) for name, repos in scopes.items()},
            "rows": evaluate.rows_to_json(rows),
            "glance": evaluate.glance_to_json(glances),
        }
        args.json_path.write_text(json.dumps(report, indent=2) + "\n")
    return 0


def cmd_mcp(args: argparse.Namespace) -> int:
    from fourfold.coordinator.mcp_server import serve

    serve(
        args.address,
        transport="stdio" if args.transport == "stdio" else "http",
        host=args.host,
        port=args.port,
        tls=args.tls_ca is not None,
        ca_cert=args.tls_ca,
    )
    return 0


def cmd_web(args: argparse.Namespace) -> int:
    from fourfold.coordinator.exposure import is_loopback
    from fourfold.web import parse_listen, serve

    host, _ = parse_listen(args.listen)
    if args.tls_cert is None and not is_loopback(host) and not args.allow_plaintext_tokens:
        # Browsers post their token to the login form and scripts send it in a header: over plain
        # HTTP on a reachable address every token crosses the network readable.
        raise InvalidInput(
            f"refusing to serve the search page on {args.listen} without TLS: tokens would cross the network "
            "readable; give --tls-cert/--tls-key, listen on 127.0.0.1, or --allow-plaintext-tokens behind a "
            "proxy or mesh that encrypts"
        )
    serve(
        args.address,
        args.listen,
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        coordinator_tls=args.tls_ca is not None,
        coordinator_ca=args.tls_ca,
    )
    return 0


def _start_web(args: argparse.Namespace, coordinator: str, tls: object) -> Callable[[], None]:
    """``serve --web-port``: the page beside the coordinator, on its own thread and event loop
    (a client like any other: it reaches the coordinator through its gRPC port). Returns its stop."""
    import threading

    from fourfold.web.server import uvicorn_server

    host = args.address.rsplit(":", 1)[0] or "0.0.0.0"
    server = uvicorn_server(
        coordinator,
        f"{host}:{args.web_port}",
        tls_cert=args.tls_cert,
        tls_key=args.tls_key,
        coordinator_tls=tls is not None,
        coordinator_ca=os.environ.get("FOURFOLD_TLS_CA") or (str(args.tls_cert) if tls is not None else None),
        # the page dials the coordinator at 127.0.0.1: name the certificate's host when it does not list that
        coordinator_server_name=os.environ.get("FOURFOLD_TLS_SERVER_NAME") or None,
    )
    thread = threading.Thread(target=server.run, name="fourfold-web", daemon=True)
    thread.start()
    print(f"fourfold web serving on {'https' if tls else 'http'}://{host}:{args.web_port}", flush=True)

    def stop() -> None:
        server.should_exit = True
        thread.join(timeout=10)

    return stop


def cmd_token(args: argparse.Namespace) -> int:
    from fourfold.coordinator.auth import hash_token, new_token

    if not args.repo:
        raise InvalidInput("give at least one --repo the token may read ('*' for all)")
    token = new_token()
    entry = {
        "name": args.name,
        "sha256": hash_token(token),
        "repos": args.repo,
        **({"admin": True} if args.admin else {}),
    }
    print(f"token (give it to {args.name}; it is not stored anywhere): {token}", file=sys.stderr)
    print(json.dumps(entry))
    return 0


def cmd_plugins(args: argparse.Namespace) -> int:
    from fourfold.plugins.manager import get_registry

    reg = get_registry()
    for name, version in sorted(reg.plugin_versions().items()):
        print(f"{name} {version}")
    print("modalities: " + ", ".join(sorted(reg.modalities)))
    chosen = reg.extractor
    if chosen is None:
        print("extractor: none (files are cut into line windows)")
    else:
        registered = ", ".join(reg.extractors)
        print(f"extractor: {chosen.name} {chosen.version} (plugin {chosen.plugin}; registered: {registered})")
    for name, why in sorted(reg.failures.items()):
        print(f"FAILED {name}: {why}")
    return 0


COMMANDS = {
    "scale": cmd_scale,
    "index": cmd_index,
    "search": cmd_search,
    "show": cmd_show,
    "serve": cmd_serve,
    "status": cmd_status,
    "demo": cmd_demo,
    "plugins": cmd_plugins,
    "remove": cmd_remove,
    "sync": cmd_sync,
    "gc": cmd_gc,
    "eval": cmd_eval,
    "mcp": cmd_mcp,
    "web": cmd_web,
    "token": cmd_token,
    "stop": cmd_stop,
}


def _stdout_closed() -> bool:
    """Whether standard output is a pipe its reader closed (poll reports an error on a pipe with no reader); if
    so it is pointed at /dev/null, so that the interpreter's last flush says nothing."""
    try:
        fd = sys.stdout.fileno()
        poll = select.poll()
        poll.register(fd, select.POLLOUT)
        closed = any(event & select.POLLERR for _, event in poll.poll(0))
    except (OSError, ValueError, AttributeError):  # no file behind stdout, or no poll on this platform
        return False
    if closed:
        os.dup2(os.open(os.devnull, os.O_WRONLY), fd)
    return closed


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(name)s: %(message)s"
    )
    try:
        code = COMMANDS[args.command](args)
        sys.stdout.flush()  # a reader that closed the pipe is heard of here, not in the interpreter's last flush
        return code
    except FourfoldError as exc:
        print(f"fourfold: {exc}", file=sys.stderr)
        return 2
    except grpc.RpcError as exc:
        address = getattr(args, "address", None) or DEFAULT_ADDRESS
        why = explain(exc, address, tls=bool(os.environ.get("FOURFOLD_TLS_CA")))
        print(f"fourfold: {why or f'{exc.code().name}: {exc.details()}'}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except Exception as exc:  # a fault of fourfold's own: say so in one line; -v keeps the traceback
        if isinstance(exc, BrokenPipeError) and _stdout_closed():
            return 141  # `fourfold search … | head`: the reader stopped reading, as a shell's tools end on SIGPIPE
        if args.verbose:
            raise
        print(
            f"fourfold: internal error in `{args.command}`: {type(exc).__name__}: {exc}. This is a fault in "
            "fourfold, not in what you asked; an index build that failed leaves the live generation as it was. "
            f"`fourfold -v {args.command} …` shows the traceback; please report it.",
            file=sys.stderr,
        )
        return 70  # EX_SOFTWARE


if __name__ == "__main__":
    raise SystemExit(main())

#!/usr/bin/env bash
# TypeScript suites for every intent with ground truth from tools nobody here wrote: the TypeScript sources
# (src/, tests and .d.ts left out) that four npm packages ship in their tarballs (rxjs 7.8.1, mobx 6.12.3,
# @microsoft/signalr 8.0.7, @tanstack/query-core 5.51.1: classes with constructor-injected services,
# interfaces and `implements`), which the compiler binds almost completely without their dependencies.
# Definitions from Universal Ctags (../shared/eval/make_suite.py); references and their enclosing functions
# and methods (impact) from the TypeScript compiler (benchmarks/ts_uses/ts_uses.js: one program over each
# library's sources, its type checker binds every name; the enclosing spans come from it too, ctags gives
# TypeScript no end lines), and which classes implement or extend each interface and abstract class (the
# classes' heritage clauses as the checker resolves them, for the "who implements X" rows).
# With --javascript the JavaScript suites instead (benchmarks/js_suites.sh): four packages' shipped JavaScript
# (commander 12.1.0, ws 8.18.0, axios 1.7.7, mocha 10.7.3; their lib/ and index.js), read by the same compiler
# (ts_uses.js -js: allowJs and checkJs).
# Usage: benchmarks/ts_suites.sh [--javascript] OUT_DIR   (needs node and npm, and the npm registry when they are
#   missing: installs typescript@5.4.5 into OUT_DIR/work/tsc, never globally; `npm pack`s the packages into
#   OUT_DIR/work/downloads, both cached in OUT_DIR/work)
# Writes OUT_DIR/corpora/<name>/ (src/; lib/ and index.js for JavaScript) and OUT_DIR/suites/<name>.jsonl. Then:
#   FOURFOLD_HOME=H fourfold index OUT_DIR/corpora/*
#   benchmarks/relations.py --home H OUT_DIR/suites/*.jsonl     (in process, recall@20 per intent)
#   FOURFOLD_HOME=H fourfold eval OUT_DIR/suites/*.jsonl --scope-to-suite   (gRPC, fused and each modality)
set -euo pipefail
language=typescript
if [ "${1:-}" = --javascript ]; then language=javascript; shift; fi
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
python=${PYTHON:-$here/../.venv/bin/python}
shared=${SHARED_EVAL:-$here/../../shared/eval}
typescript=typescript@5.4.5
# name:npm package@version:the folders of its tarball that hold the sources
if [ $language = javascript ]; then
  projects="commander:commander@12.1.0:lib ws:ws@8.18.0:lib axios:axios@1.7.7:lib mocha:mocha@10.7.3:lib"
  js=-js
else
  projects="rxjs:rxjs@7.8.1:src mobx:mobx@6.12.3:src signalr:@microsoft/signalr@8.0.7:src
            query-core:@tanstack/query-core@5.51.1:src"
  js=
fi
mkdir -p "$out/corpora" "$out/suites" "$out/work/downloads"
tsc_dir=$out/work/tsc
if [ "$(node -p "try { require('$tsc_dir/node_modules/typescript/package.json').version } catch (e) { '' }")" \
     != "${typescript#*@}" ]; then
  npm install --prefix "$tsc_dir" --no-audit --no-fund --no-save "$typescript" >/dev/null
fi
ts_uses() { NODE_PATH=$tsc_dir/node_modules node "$here/ts_uses/ts_uses.js" $js "$@"; }
for p in $projects; do
  IFS=: read -r name spec keep <<< "$p"
  # npm pack names the tarball @scope/name@v -> scope-name-v.tgz
  tarball=$out/work/downloads/$(echo "${spec%@*}" | sed 's/^@//; s#/#-#')-${spec##*@}.tgz
  [ -s "$tarball" ] || (cd "$out/work/downloads" && npm pack --silent "$spec" >/dev/null)
  rm -rf "$out/work/src-$name" "$out/corpora/$name" && mkdir -p "$out/work/src-$name" "$out/corpora/$name"
  tar xzf "$tarball" -C "$out/work/src-$name" --strip-components=1
  for part in ${keep//,/ }; do cp -r "$out/work/src-$name/$part" "$out/corpora/$name/$part"; done
  if [ $language = javascript ]; then
    [ -f "$out/work/src-$name/index.js" ] && cp "$out/work/src-$name/index.js" "$out/corpora/$name/"
  else
    # only the TypeScript sources: no tests, declaration files, compiled JavaScript or anything else
    find "$out/corpora/$name" -depth -type d -name __tests__ -exec rm -rf {} +
    find "$out/corpora/$name" -type f \( -name '*.d.ts' -o -name '*.spec.ts' -o -name '*.test.ts' \
      -o -name '*.test-d.ts' -o ! \( -name '*.ts' -o -name '*.tsx' \) \) -delete
    find "$out/corpora/$name" -depth -type d -empty -delete
  fi
  echo "$name: $spec, $(find "$out/corpora/$name" -name '*.[jt]s' | wc -l) source files" >&2
  "$python" "$shared/make_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-defs.jsonl" --max 60
  ts_uses "$out/corpora/$name" > "$out/work/$name-uses.jsonl"
  ts_uses -implements "$out/corpora/$name" > "$out/work/$name-impl.jsonl" 2>/dev/null
  ts_uses -spans "$out/corpora/$name" > "$out/work/$name-spans.jsonl" 2>/dev/null
  "$python" "$here/go_ref_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-uses.jsonl" \
    "$out/work/$name-refs.jsonl" --implements "$out/work/$name-impl.jsonl" --spans "$out/work/$name-spans.jsonl" \
    --max 60 --language $language
  cat "$out/work/$name-defs.jsonl" "$out/work/$name-refs.jsonl" > "$out/suites/$name.jsonl"
done
wc -l "$out"/suites/*.jsonl

#!/usr/bin/env bash
# JavaScript suites for every intent with ground truth from tools nobody here wrote: the JavaScript that four npm
# packages ship (commander 12.1.0, ws 8.18.0, axios 1.7.7, mocha 10.7.3: classes, CommonJS modules, ES modules,
# constructor functions with methods assigned to their prototypes). Definitions from Universal Ctags
# (../shared/eval/make_suite.py); references, their enclosing functions (impact) and "who implements" from the
# TypeScript compiler reading the JavaScript (benchmarks/ts_uses/ts_uses.js -js: allowJs and checkJs, one program
# over each package's sources; what it binds is the truth, so a call on a value whose type it cannot infer is in no
# row). Usage: benchmarks/js_suites.sh OUT_DIR   (needs node and npm, and the npm registry when they are missing:
#   installs typescript@5.4.5 into OUT_DIR/work/tsc, never globally; `npm pack`s the packages into
#   OUT_DIR/work/downloads, both cached in OUT_DIR/work)
# Writes OUT_DIR/corpora/<name>/ (the package's lib/ and index.js) and OUT_DIR/suites/<name>.jsonl. Then:
#   FOURFOLD_HOME=H fourfold index OUT_DIR/corpora/*
#   benchmarks/relations.py --home H OUT_DIR/suites/*.jsonl     (in process, recall@20 per intent)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
python=${PYTHON:-$here/../.venv/bin/python}
shared=${SHARED_EVAL:-$here/../../shared/eval}
typescript=typescript@5.4.5
# name:npm package@version:the folders that hold its sources
projects="commander:commander@12.1.0:lib ws:ws@8.18.0:lib axios:axios@1.7.7:lib mocha:mocha@10.7.3:lib"
mkdir -p "$out/corpora" "$out/suites" "$out/work/downloads"
tsc_dir=$out/work/tsc
if [ "$(node -p "try { require('$tsc_dir/node_modules/typescript/package.json').version } catch (e) { '' }")" \
     != "${typescript#*@}" ]; then
  npm install --prefix "$tsc_dir" --no-audit --no-fund --no-save "$typescript" >/dev/null
fi
ts_uses() { NODE_PATH=$tsc_dir/node_modules node "$here/ts_uses/ts_uses.js" -js "$@"; }
for p in $projects; do
  IFS=: read -r name spec keep <<< "$p"
  tarball=$out/work/downloads/${spec%@*}-${spec##*@}.tgz
  [ -s "$tarball" ] || (cd "$out/work/downloads" && npm pack --silent "$spec" >/dev/null)
  rm -rf "$out/work/src-$name" "$out/corpora/$name" && mkdir -p "$out/work/src-$name" "$out/corpora/$name"
  tar xzf "$tarball" -C "$out/work/src-$name" --strip-components=1
  for part in ${keep//,/ }; do cp -r "$out/work/src-$name/$part" "$out/corpora/$name/"; done
  [ -f "$out/work/src-$name/index.js" ] && cp "$out/work/src-$name/index.js" "$out/corpora/$name/"
  echo "$name: $spec, $(find "$out/corpora/$name" -name '*.js' | wc -l) .js files" >&2
  "$python" "$shared/make_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-defs.jsonl" --max 60
  ts_uses "$out/corpora/$name" > "$out/work/$name-uses.jsonl"
  ts_uses -implements "$out/corpora/$name" > "$out/work/$name-impl.jsonl" 2>/dev/null
  ts_uses -spans "$out/corpora/$name" > "$out/work/$name-spans.jsonl" 2>/dev/null
  "$python" "$here/go_ref_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-uses.jsonl" \
    "$out/work/$name-refs.jsonl" --implements "$out/work/$name-impl.jsonl" --spans "$out/work/$name-spans.jsonl" \
    --max 60 --language javascript
  cat "$out/work/$name-defs.jsonl" "$out/work/$name-refs.jsonl" > "$out/suites/$name.jsonl"
done
wc -l "$out"/suites/*.jsonl

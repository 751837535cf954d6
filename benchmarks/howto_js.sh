#!/usr/bin/env bash
# The JavaScript/TypeScript how-to suites: seven npm packages' sources, questions paraphrased from
# their doc comments (benchmarks/howto_suite.py). Usage: benchmarks/howto_js.sh OUT_DIR
# Writes OUT_DIR/corpora/<name>/ (sources only: lib/ or src/, no bundles) and OUT_DIR/suites/howto-{dev,heldout}.jsonl.
# Then: fourfold index OUT_DIR/corpora/* ; benchmarks/fusion_check.py --home $FOURFOLD_HOME OUT_DIR/suites/howto-dev.jsonl
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
python=${PYTHON:-$here/../.venv/bin/python}
mkdir -p "$out/downloads" "$out/corpora"
cd "$out/downloads"
for spec in express@4.21.2:lib axios@1.7.7:lib commander@12.1.0:lib ws@8.18.0:lib koa@2.15.3:lib mocha@10.7.3:lib,bin rxjs@7.8.1:src; do
  pkg=${spec%%:*}; name=${pkg%%@*}; keep=${spec#*:}
  [[ -d $out/corpora/$name ]] && continue
  tgz=$(npm pack --silent "$pkg")
  rm -rf unpacked && mkdir unpacked && tar -xzf "$tgz" -C unpacked --strip-components=1
  mkdir -p "$out/corpora/$name"
  for part in ${keep//,/ }; do cp -r "unpacked/$part" "$out/corpora/$name/"; done
  [[ -f unpacked/index.js ]] && cp unpacked/index.js "$out/corpora/$name/"
  rm -rf unpacked
done
corpora=()
for dir in "$out"/corpora/*; do corpora+=("$dir:$(basename "$dir")"); done
"$python" "$here/howto_suite.py" "${corpora[@]}" --out-dir "$out/suites" --per-repo 80

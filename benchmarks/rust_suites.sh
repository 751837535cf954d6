#!/usr/bin/env bash
# Rust suites for every intent with ground truth from tools nobody here wrote: six crates from Debian
# bookworm's librust-*-dev packages (regex-syntax 0.6.27, smallvec 1.9.0, unicode-bidi 0.3.8,
# semver 1.0.14, glob 0.3.0, ryu 1.0.2), which rustc compiles, with their inline tests, without any
# other crate.
# Definitions from Universal Ctags (../shared/eval/make_suite.py); references and their enclosing
# functions (impact) from the Rust compiler (benchmarks/rust_uses.py: rustc's typed bodies, THIR, where
# every call names the definition it was bound to, through a trait's method too).
# Usage: benchmarks/rust_suites.sh OUT_DIR   (needs apt-get when the crates are missing, and a rustc:
#   Debian's rustc package serves)
# Writes OUT_DIR/corpora/<name>/ (Cargo.toml and src/) and OUT_DIR/suites/<name>.jsonl. Then:
#   FOURFOLD_HOME=H fourfold index OUT_DIR/corpora/*
#   benchmarks/relations.py --home H OUT_DIR/suites/*.jsonl     (in process, recall@20 per intent)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
python=${PYTHON:-$here/../.venv/bin/python}
shared=${SHARED_EVAL:-$here/../../shared/eval}
registry=/usr/share/cargo/registry
# name:version:features (the crate's default ones)
crates="regex-syntax:0.6.27:unicode,unicode-age,unicode-bool,unicode-case,unicode-gencat,unicode-perl,unicode-script,unicode-segment
  smallvec:1.9.0: unicode-bidi:0.3.8:std semver:1.0.14:std glob:0.3.0: ryu:1.0.2:"
packages=$(for c in $crates; do echo "librust-${c%%:*}-dev"; done)
missing=$(for p in $packages; do dpkg -s "$p" >/dev/null 2>&1 || echo "$p"; done)
if [ -n "$missing" ] || ! command -v rustc >/dev/null; then
  install=(apt-get install -y --no-install-recommends $missing $(command -v rustc >/dev/null || echo rustc))
  "${install[@]}" >/dev/null || { apt-get update >/dev/null && "${install[@]}" >/dev/null; }
fi
mkdir -p "$out/corpora" "$out/suites" "$out/work"
for c in $crates; do
  IFS=: read -r name version features <<< "$c"
  src=$registry/$name-$version
  rm -rf "$out/corpora/$name" && mkdir -p "$out/corpora/$name"
  cp -r "$src/src" "$src/Cargo.toml" "$out/corpora/$name/"
  edition=$(sed -n 's/^edition = "\([0-9]*\)"/\1/p' "$src/Cargo.toml" | head -1)
  flags=(--edition "${edition:-2015}" --test)
  for f in ${features//,/ }; do flags+=(--feature "$f"); done
  echo "$name $version: $(find "$out/corpora/$name" -name '*.rs' | wc -l) .rs files" >&2
  "$python" "$shared/make_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-defs.jsonl" --max 60
  "$python" "$here/rust_uses.py" "$out/corpora/$name" "${name//-/_}" "$out/work/$name-uses.jsonl" \
    "$out/work/$name-spans.jsonl" "${flags[@]}"
  "$python" "$here/go_ref_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-uses.jsonl" \
    "$out/work/$name-refs.jsonl" --spans "$out/work/$name-spans.jsonl" --max 60 --language rust
  cat "$out/work/$name-defs.jsonl" "$out/work/$name-refs.jsonl" > "$out/suites/$name.jsonl"
done
wc -l "$out"/suites/*.jsonl

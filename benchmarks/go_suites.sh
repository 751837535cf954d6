#!/usr/bin/env bash
# Go suites for every intent with ground truth from tools nobody here wrote: four Go modules from
# Debian's sources (gin 1.8.1, cobra 1.6.1, logrus 1.9.0, chi 5.0.7). Definitions from Universal Ctags
# and exact strings from ripgrep (../shared/eval/make_suite.py); references and their enclosing
# definitions (impact) from the Go type checker (benchmarks/go_uses, which type-checks each package
# and its tests against the dependencies Debian installs beside them), and which types implement each
# interface (go/types' Implements, for the "who implements X" rows).
# Usage: benchmarks/go_suites.sh OUT_DIR   (needs apt-get: installs golang-go and the four -dev packages)
# Writes OUT_DIR/corpora/<name>/ and OUT_DIR/suites/<name>.jsonl. Then:
#   FOURFOLD_HOME=H fourfold index OUT_DIR/corpora/*
#   benchmarks/relations.py --home H OUT_DIR/suites/*.jsonl     (in process, recall@20 per intent)
#   FOURFOLD_HOME=H fourfold eval OUT_DIR/suites/*.jsonl --scope-to-suite   (gRPC, fused and each modality)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
python=${PYTHON:-$here/../.venv/bin/python}
shared=${SHARED_EVAL:-$here/../../shared/eval}
modules="gin-gonic/gin spf13/cobra sirupsen/logrus go-chi/chi"
packages=""
for m in $modules; do packages+=" golang-github-${m/\//-}-dev"; done
if ! command -v go >/dev/null || ! dpkg -s $packages >/dev/null 2>&1; then
  apt-get install -y --no-install-recommends golang-go $packages >/dev/null
fi
(cd "$here/go_uses" && GOFLAGS=-mod=mod go build -o "$out/go_uses" .)
mkdir -p "$out/corpora" "$out/suites" "$out/work"
for m in $modules; do
  name=$(basename "$m"); src=/usr/share/gocode/src/github.com/$m
  rm -rf "$out/corpora/$name" && cp -rL "$src" "$out/corpora/$name"
  "$python" "$shared/make_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-defs.jsonl" --max 60
  GOPATH=/usr/share/gocode GO111MODULE=off "$out/go_uses" "$src" > "$out/work/$name-uses.jsonl" 2>/dev/null
  GOPATH=/usr/share/gocode GO111MODULE=off "$out/go_uses" -implements "$src" > "$out/work/$name-impl.jsonl" 2>/dev/null
  "$python" "$here/go_ref_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-uses.jsonl" \
    "$out/work/$name-refs.jsonl" --implements "$out/work/$name-impl.jsonl" --max 60
  cat "$out/work/$name-defs.jsonl" "$out/work/$name-refs.jsonl" > "$out/suites/$name.jsonl"
done
wc -l "$out"/suites/*.jsonl

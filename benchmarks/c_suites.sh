#!/usr/bin/env bash
# C suites for every intent with ground truth from tools nobody here wrote: four projects from Debian bookworm's
# source packages (their upstream tarballs, checked against the archive's sha256): Lua 5.4.4 (src/), zlib 1.2.13
# (its library and test programs), lz4 1.9.4 (lib/ and programs/) and cJSON 1.7.15 (the library and its tests,
# compiled with the tarball's Unity framework, which is not part of the corpus).
# Definitions from Universal Ctags (../shared/eval/make_suite.py); references, their enclosing functions
# (impact) and callees from the C compiler (benchmarks/c_uses.py: clang's typed tree, where every use of a
# function names the declaration clang bound it to).
# Usage: benchmarks/c_suites.sh OUT_DIR   (needs curl, and clang-14: apt-get installs it when missing)
# Writes OUT_DIR/corpora/<name>/, OUT_DIR/suites/<name>.jsonl and OUT_DIR/callees/<name>.jsonl. Then:
#   FOURFOLD_HOME=H fourfold index OUT_DIR/corpora/*
#   benchmarks/relations.py --home H OUT_DIR/suites/*.jsonl     (in process, recall@20 per intent)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
python=${PYTHON:-$here/../.venv/bin/python}
shared=${SHARED_EVAL:-$here/../../shared/eval}
pool=https://deb.debian.org/debian/pool/main
if ! command -v clang-14 >/dev/null; then
  apt-get install -y --no-install-recommends clang-14 >/dev/null \
    || { apt-get update >/dev/null && apt-get install -y --no-install-recommends clang-14 >/dev/null; }
fi
# name|archive path|sha256|top folder|corpus globs|clang flags
projects="lua|l/lua5.4/lua5.4_5.4.4.orig.tar.gz|164c7849653b80ae67bec4b7473b884bf5cc8d2dca05653475ec2ed27b9ebf61|lua-5.4.4|src/*.c src/*.h|-D LUA_USE_LINUX
zlib|z/zlib/zlib_1.2.13.dfsg.orig.tar.bz2|71feb7947e3c00ef125f83b79a4e529bde31171e5babe48b391f06758d1ab0a1|zlib-1.2.13.dfsg|*.c *.h test/*.c|-I .
lz4|l/lz4/lz4_1.9.4.orig.tar.gz|0b0e3aa07c8c063ddf40b082bdf7e37a1562bda40a0ff5272957f3e987e0e54b|lz4-1.9.4|lib/*.c lib/*.h programs/*.c programs/*.h|-I lib
cjson|c/cjson/cjson_1.7.15.orig.tar.gz|5308fd4bd90cef7aa060558514de6a1a4a0819974a26e6ed13973c5f624c24b2|cJSON-1.7.15|cJSON.c cJSON.h cJSON_Utils.c cJSON_Utils.h tests/*.c tests/*.h|-I ."
mkdir -p "$out/downloads" "$out/corpora" "$out/suites" "$out/callees" "$out/work"
while IFS='|' read -r name archive sum top globs flags; do
  file=$out/downloads/$(basename "$archive")
  [ -f "$file" ] || curl -sSfL -o "$file" "$pool/$archive"
  echo "$sum  $file" | sha256sum -c --quiet
  rm -rf "$out/work/$top" "$out/corpora/$name" && mkdir -p "$out/corpora/$name"
  tar -xf "$file" -C "$out/work"
  (cd "$out/work/$top" && for g in $globs; do for f in $g; do mkdir -p "$out/corpora/$name/$(dirname "$f")"; cp "$f" "$out/corpora/$name/$f"; done; done)
  echo "$name: $(find "$out/corpora/$name" -name '*.[ch]' | wc -l) .c/.h files" >&2
  read -ra patterns <<< "$globs"  # words, not expanded here: c_uses.py globs them in the unpacked tree
  # shellcheck disable=SC2086  # the flags are words
  "$python" "$here/c_uses.py" "$out/work/$top" "$out/work/$name-uses.jsonl" "$out/work/$name-spans.jsonl" $flags \
    --files "${patterns[@]}"
  "$python" "$shared/make_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-defs.jsonl" --max 60
  "$python" "$here/go_ref_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-uses.jsonl" \
    "$out/work/$name-refs.jsonl" --spans "$out/work/$name-spans.jsonl" --max 60 --language c
  "$python" "$here/callee_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-uses.jsonl" \
    "$out/callees/$name.jsonl" --spans "$out/work/$name-spans.jsonl" --language c
  cat "$out/work/$name-defs.jsonl" "$out/work/$name-refs.jsonl" > "$out/suites/$name.jsonl"
done <<< "$projects"
wc -l "$out"/suites/*.jsonl "$out"/callees/*.jsonl

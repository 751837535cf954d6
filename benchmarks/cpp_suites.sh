#!/usr/bin/env bash
# C++ suites for every intent with ground truth from tools nobody here wrote: four projects from Debian bookworm's
# source packages (their upstream tarballs, checked against the archive's sha256): leveldb 1.23, re2 2022-06-01,
# yaml-cpp 0.7.0 and tinyxml2 9.0.0 (its library and its test program), their tests that need a test framework
# left out. Definitions from Universal Ctags (../shared/eval/make_suite.py); references, their enclosing functions
# (impact), callees and "who implements X" from the C++ compiler (benchmarks/cpp_uses.py: clang's typed tree,
# where every use of a function or a method names the declaration clang bound it to).
# Usage: benchmarks/cpp_suites.sh OUT_DIR   (needs curl, and clang-14 with libstdc++'s headers: apt-get installs
# them when missing)
# Writes OUT_DIR/corpora/<name>/, OUT_DIR/suites/<name>.jsonl and OUT_DIR/callees/<name>.jsonl. Then:
#   FOURFOLD_HOME=H fourfold index OUT_DIR/corpora/*
#   benchmarks/relations.py --home H OUT_DIR/suites/*.jsonl     (in process, recall@20 per intent)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
python=${PYTHON:-$here/../.venv/bin/python}
shared=${SHARED_EVAL:-$here/../../shared/eval}
pool=https://deb.debian.org/debian/pool/main
if ! command -v clang++-14 >/dev/null || ! echo '#include <string>' | clang++-14 -x c++ -fsyntax-only - 2>/dev/null; then
  apt-get install -y --no-install-recommends clang-14 libstdc++-12-dev >/dev/null \
    || { apt-get update >/dev/null && apt-get install -y --no-install-recommends clang-14 libstdc++-12-dev >/dev/null; }
fi
# name;archive path;sha256;top folder;corpus globs;files left out (a regular expression);clang flags
projects="leveldb;l/leveldb/leveldb_1.23.orig.tar.gz;9a37f8a6174f09bd622bc723b55881dc541cd50747cbd08831c2a82d620f6d76;leveldb-1.23;db/*.cc db/*.h table/*.cc table/*.h util/*.cc util/*.h include/leveldb/*.h port/*.h helpers/memenv/*.cc helpers/memenv/*.h;(_test|_bench)\.cc$|testutil|env_windows|windows_logger;-I . -I include -D LEVELDB_PLATFORM_POSIX -D LEVELDB_IS_BIG_ENDIAN=0
re2;r/re2/re2_20220601+dfsg.orig.tar.xz;3bc61251da3b0b97be40a8a127818c517c62516e4eda11fc901d29496663df54;re2-2022-06-01;re2/*.cc re2/*.h util/*.cc util/*.h;^util/(test|benchmark|fuzz)\.;-I .
yamlcpp;y/yaml-cpp/yaml-cpp_0.7.0+dfsg.orig.tar.xz;dc63708605404e0b963e0ca3a9619d1c8270eda2839603e6fa0384e5e51e5312;yaml-cpp-yaml-cpp-0.7.0;src/*.cpp src/*.h src/contrib/*.cpp src/contrib/*.h include/yaml-cpp/*.h include/yaml-cpp/node/*.h include/yaml-cpp/node/detail/*.h include/yaml-cpp/contrib/*.h;^$;-I include -I src
tinyxml2;t/tinyxml2/tinyxml2_9.0.0+dfsg.orig.tar.xz;96510f47a5db537f70dff3e83dd71fd2180cbba4aa76c589a549467e7f34bc9b;tinyxml2-9.0.0;tinyxml2.cpp tinyxml2.h xmltest.cpp;^$;-I ."
mkdir -p "$out/downloads" "$out/corpora" "$out/suites" "$out/callees" "$out/work"
while IFS=';' read -r name archive sum top globs skip flags; do
  file=$out/downloads/$(basename "$archive")
  [ -f "$file" ] || curl -sSfL -o "$file" "$pool/$archive"
  echo "$sum  $file" | sha256sum -c --quiet
  rm -rf "$out/work/$top" "$out/corpora/$name" && mkdir -p "$out/corpora/$name"
  tar -xf "$file" -C "$out/work"
  # the corpus: the globs' files less those left out (tests needing a framework, another platform's code)
  (cd "$out/work/$top" && for g in $globs; do for f in $g; do [ -f "$f" ] && echo "$f"; done; done) \
    | grep -Ev "$skip" > "$out/work/$name-files.txt"
  (cd "$out/work/$top" && while read -r f; do mkdir -p "$out/corpora/$name/$(dirname "$f")"; cp "$f" "$out/corpora/$name/$f"; done) \
    < "$out/work/$name-files.txt"
  echo "$name: $(wc -l < "$out/work/$name-files.txt") files" >&2
  mapfile -t files < "$out/work/$name-files.txt"
  # shellcheck disable=SC2086  # the flags are words
  "$python" "$here/cpp_uses.py" "$out/work/$top" "$out/work/$name-uses.jsonl" "$out/work/$name-spans.jsonl" \
    "$out/work/$name-impl.jsonl" $flags --files "${files[@]}"
  "$python" "$shared/make_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-defs.jsonl" --max 60
  "$python" "$here/go_ref_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-uses.jsonl" \
    "$out/work/$name-refs.jsonl" --spans "$out/work/$name-spans.jsonl" --implements "$out/work/$name-impl.jsonl" \
    --max 60 --language cpp
  "$python" "$here/callee_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-uses.jsonl" \
    "$out/callees/$name.jsonl" --spans "$out/work/$name-spans.jsonl" --language cpp
  cat "$out/work/$name-defs.jsonl" "$out/work/$name-refs.jsonl" > "$out/suites/$name.jsonl"
done <<< "$projects"
wc -l "$out"/suites/*.jsonl "$out"/callees/*.jsonl

#!/usr/bin/env bash
# Java suites for every intent with ground truth from tools nobody here wrote: the main sources
# (src/main/java) of four Java libraries from Debian bookworm's source packages (jsoup 1.15.3,
# commons-lang3 3.12.0, commons-io 2.11.0, commons-codec 1.15), which need nothing beyond the JDK but
# jsoup's JSR 305 annotations (Debian's libjsr305-java, on javac's classpath).
# Definitions from Universal Ctags (../shared/eval/make_suite.py; it finds no exact-match strings in
# Java); references and their enclosing definitions (impact) from the Java compiler
# (benchmarks/java_uses/JavaUses.java: javac attributes each library's sources at once and binds every
# name), and which classes implement or extend each interface and abstract class (javac's isSubtype, for
# the "who implements X" rows).
# Usage: benchmarks/java_suites.sh OUT_DIR   (needs apt-get when they are missing: installs
#   openjdk-17-jdk-headless and libjsr305-java; downloads the .orig tarballs from deb.debian.org,
#   cached in OUT_DIR/work)
# Writes OUT_DIR/corpora/<name>/src/main/java/ and OUT_DIR/suites/<name>.jsonl. Then:
#   FOURFOLD_HOME=H fourfold index OUT_DIR/corpora/*
#   benchmarks/relations.py --home H OUT_DIR/suites/*.jsonl     (in process, recall@20 per intent)
#   FOURFOLD_HOME=H fourfold eval OUT_DIR/suites/*.jsonl --scope-to-suite   (gRPC, fused and each modality)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
python=${PYTHON:-$here/../.venv/bin/python}
shared=${SHARED_EVAL:-$here/../../shared/eval}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
# name:Debian source package[:Debian binary package whose jars are the dependencies]
projects="jsoup:jsoup:libjsr305-java commons-lang3:libcommons-lang3-java commons-io:commons-io
  commons-codec:libcommons-codec-java"
if ! command -v javac >/dev/null || ! dpkg -s libjsr305-java >/dev/null 2>&1; then
  install=(apt-get install -y --no-install-recommends openjdk-17-jdk-headless libjsr305-java)
  "${install[@]}" >/dev/null || { apt-get update >/dev/null && "${install[@]}" >/dev/null; }
fi
mkdir -p "$out/corpora" "$out/suites" "$out/work/java_uses"
exports=(--add-exports jdk.compiler/com.sun.tools.javac.tree=ALL-UNNAMED)
javac "${exports[@]}" -d "$out/work/java_uses" "$here/java_uses/JavaUses.java"
java_uses() { java "${exports[@]}" -cp "$out/work/java_uses" JavaUses "$@"; }
fetch() {  # fetch URL FILE: download once
  [ -s "$2" ] && return
  curl -fsS --retry 3 -o "$2.part" "$1" && mv "$2.part" "$2"
}
fetch "$mirror/dists/bookworm/main/source/Sources.xz" "$out/work/Sources.xz"
for p in $projects; do
  IFS=: read -r name package deps <<< "$p"
  classpath=$(for d in $deps; do dpkg -L "$d" | grep '^/usr/share/java/.*\.jar$'; done | paste -sd:)
  # the package's .orig tarball, as Sources names it
  orig=$("$python" "$here/debian_orig.py" "$out/work/Sources.xz" "$package")
  tarball=$out/work/$(basename "$orig")
  fetch "$mirror/$orig" "$tarball"
  rm -rf "$out/work/src-$name" "$out/corpora/$name" && mkdir -p "$out/work/src-$name" "$out/corpora/$name/src/main"
  tar xf "$tarball" -C "$out/work/src-$name" --strip-components=1
  cp -r "$out/work/src-$name/src/main/java" "$out/corpora/$name/src/main/java"
  echo "$name: $(basename "$orig"), $(find "$out/corpora/$name" -name '*.java' | wc -l) .java files" >&2
  "$python" "$shared/make_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-defs.jsonl" --max 60
  java_uses -cp "$classpath" "$out/corpora/$name" > "$out/work/$name-uses.jsonl"
  java_uses -cp "$classpath" -implements "$out/corpora/$name" > "$out/work/$name-impl.jsonl" 2>/dev/null
  "$python" "$here/go_ref_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-uses.jsonl" \
    "$out/work/$name-refs.jsonl" --implements "$out/work/$name-impl.jsonl" --max 60 --language java
  cat "$out/work/$name-defs.jsonl" "$out/work/$name-refs.jsonl" > "$out/suites/$name.jsonl"
done
wc -l "$out"/suites/*.jsonl

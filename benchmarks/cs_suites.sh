#!/usr/bin/env bash
# C# suites for every intent with ground truth from tools nobody here wrote: the libraries (one assembly each, its
# tests left out) of four C# projects from Debian bookworm's source packages (dbus-sharp 0.8.1, Json.NET
# (newtonsoft-json) 6.0.8, dnlib 2.1 and NUnit 2.6.4's framework), which need nothing beyond the framework
# assemblies Mono ships.
# Definitions from Universal Ctags (../shared/eval/make_suite.py); references, their enclosing definitions (impact),
# callees and which classes implement or derive from each interface and abstract class ("who implements X") from the
# C# compiler (benchmarks/cs_uses/CsUses.cs: Mono's mcs compiles each library whole with -debug, and Mono.Cecil
# reads the compiled code, where every call, field access and construction names the definition mcs bound it to,
# with the source line of each instruction from the debug symbols).
# Usage: benchmarks/cs_suites.sh OUT_DIR   (needs curl, and apt-get when they are missing: installs mono-mcs,
#   Mono.Cecil (libmono-cecil-private-cil) and the framework assemblies the libraries reference; downloads the
#   .orig tarballs from deb.debian.org, cached in OUT_DIR/work)
# Writes OUT_DIR/corpora/<name>/ (the library's .cs files, at their paths in the tarball), OUT_DIR/suites/<name>.jsonl
# and OUT_DIR/callees/<name>.jsonl. Then:
#   FOURFOLD_HOME=H fourfold index OUT_DIR/corpora/*
#   benchmarks/relations.py --home H OUT_DIR/suites/*.jsonl     (in process, recall@20 per intent)
#   FOURFOLD_HOME=H fourfold eval OUT_DIR/suites/*.jsonl --scope-to-suite   (gRPC, fused and each modality)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
out=$(mkdir -p "$1" && cd "$1" && pwd)
python=${PYTHON:-$here/../.venv/bin/python}
shared=${SHARED_EVAL:-$here/../../shared/eval}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cecil=/usr/lib/mono/gac/Mono.Cecil/0.11.0.0__0738eb9f132ed756
# name;Debian source package;the library's folder in the tarball;files left out (a regular expression);mcs options
# (its build's defines and references)
projects="dbus-sharp;dbus-sharp;src;^$;-unsafe -d:TRACE -d:NET35 -r:System.Core.dll -r:System.Xml.dll -r:Mono.Posix.dll
newtonsoft-json;newtonsoft-json;Src/Newtonsoft.Json;^$;-d:TRACE -d:CODE_ANALYSIS -r:System.Core.dll -r:System.Xml.dll -r:System.Numerics.dll -r:System.Runtime.Serialization.dll -r:System.Xml.Linq.dll -r:System.Data.dll
dnlib;dnlib;src;^$;-unsafe -d:TRACE -r:System.Xml.dll
nunit;nunit;src/NUnitFramework/framework;/AssemblyInfo\.cs$;-d:TRACE -d:CLR_2_0 -d:NET_2_0 -r:System.Data.dll -r:System.Xml.dll"
packages=(mono-mcs libmono-cecil-private-cil libmono-compilerservices-symbolwriter4.0-cil libmono-posix4.0-cil
  libmono-system-core4.0-cil libmono-system-xml4.0-cil libmono-system-numerics4.0-cil libmono-system-data4.0-cil
  libmono-system-runtime-serialization4.0-cil libmono-system-xml-linq4.0-cil)
if ! command -v mcs >/dev/null || ! dpkg -s "${packages[@]}" >/dev/null 2>&1; then
  install=(apt-get install -y --no-install-recommends "${packages[@]}")
  "${install[@]}" >/dev/null || { apt-get update >/dev/null && "${install[@]}" >/dev/null; }
fi
mkdir -p "$out/corpora" "$out/suites" "$out/callees" "$out/work/cs_uses"
mcs -nologo -out:"$out/work/cs_uses/CsUses.exe" -r:"$cecil/Mono.Cecil.dll" -r:Mono.CompilerServices.SymbolWriter.dll \
  -r:System.Core.dll "$here/cs_uses/CsUses.cs"
cs_uses() { MONO_PATH=$cecil mono "$out/work/cs_uses/CsUses.exe" "$@"; }
fetch() {  # fetch URL FILE: download once
  [ -s "$2" ] && return
  curl -fsS --retry 3 -o "$2.part" "$1" && mv "$2.part" "$2"
}
fetch "$mirror/dists/bookworm/main/source/Sources.xz" "$out/work/Sources.xz"
while IFS=';' read -r name package folder skip options; do
  # the package's .orig tarball, as Sources names it
  orig=$("$python" "$here/debian_orig.py" "$out/work/Sources.xz" "$package")
  tarball=$out/work/$(basename "$orig")
  fetch "$mirror/$orig" "$tarball"
  rm -rf "$out/work/src-$name" "$out/corpora/$name" && mkdir -p "$out/work/src-$name" "$out/corpora/$name"
  tar xf "$tarball" -C "$out/work/src-$name" --strip-components=1
  # the corpus: the library's .cs files (all of them are in its project file), at their paths in the tarball, less
  # those left out (NUnit's assembly attributes: they sign it with a key file outside the library's folder)
  (cd "$out/work/src-$name" && find "$folder" -name '*.cs' | grep -Ev "$skip" | LC_ALL=C sort) \
    > "$out/work/$name-files.txt"
  (cd "$out/work/src-$name" && while read -r f; do
    mkdir -p "$out/corpora/$name/$(dirname "$f")" && cp "$f" "$out/corpora/$name/$f"
  done) < "$out/work/$name-files.txt"
  echo "$name: $(basename "$orig"), $(wc -l < "$out/work/$name-files.txt") .cs files" >&2
  mapfile -t files < "$out/work/$name-files.txt"
  # shellcheck disable=SC2086  # the options are words
  (cd "$out/corpora/$name" && mcs -nologo -debug -target:library -warn:0 -out:"$out/work/$name.dll" -r:System.dll \
    $options "${files[@]}")
  "$python" "$shared/make_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-defs.jsonl" --max 60
  cs_uses "$out/corpora/$name" "$out/work/$name.dll" > "$out/work/$name-uses.jsonl"
  cs_uses -spans "$out/corpora/$name" "$out/work/$name.dll" > "$out/work/$name-spans.jsonl"
  cs_uses -implements "$out/corpora/$name" "$out/work/$name.dll" > "$out/work/$name-impl.jsonl" 2>/dev/null
  "$python" "$here/go_ref_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-uses.jsonl" \
    "$out/work/$name-refs.jsonl" --spans "$out/work/$name-spans.jsonl" --implements "$out/work/$name-impl.jsonl" \
    --max 60 --language csharp
  "$python" "$here/callee_suite.py" "$out/corpora/$name" "$name" "$out/work/$name-uses.jsonl" \
    "$out/callees/$name.jsonl" --spans "$out/work/$name-spans.jsonl" --language csharp
  cat "$out/work/$name-defs.jsonl" "$out/work/$name-refs.jsonl" > "$out/suites/$name.jsonl"
done <<< "$projects"
wc -l "$out"/suites/*.jsonl "$out"/callees/*.jsonl

#!/usr/bin/env bash
# JavaScript suites for every intent with ground truth from tools nobody here wrote: the JavaScript that four npm
# packages ship (commander 12.1.0, ws 8.18.0, axios 1.7.7, mocha 10.7.3: classes, CommonJS modules, ES modules,
# constructor functions with methods assigned to their prototypes). Definitions from Universal Ctags
# (../shared/eval/make_suite.py); references, their enclosing functions (impact) and "who implements" from the
# TypeScript compiler reading the JavaScript (benchmarks/ts_uses/ts_uses.js -js: allowJs and checkJs, one program
# over each package's sources; what it binds is the truth, so a call on a value whose type it cannot infer is in no
# row). The TypeScript suites' script with --javascript. Usage: benchmarks/js_suites.sh OUT_DIR
# Writes OUT_DIR/corpora/<name>/ (the package's lib/ and index.js) and OUT_DIR/suites/<name>.jsonl. Then:
#   FOURFOLD_HOME=H fourfold index OUT_DIR/corpora/*
#   benchmarks/relations.py --home H OUT_DIR/suites/*.jsonl     (in process, recall@20 per intent)
exec "$(cd "$(dirname "$0")" && pwd)/ts_suites.sh" --javascript "$@"

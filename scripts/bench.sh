#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `npm run bench`: builds the native benchmarks, then bench/run.mjs runs every variant (Google
# Benchmark natively, the package in Node through Embind and WASI, the naive JS harness) in one
# sitting and writes docs/BENCHMARKS.md + docs/benchmarks.svg.
#   bash scripts/bench.sh [ARGS…]          full run: the `bench` preset (Release), all sizes
#   bash scripts/bench.sh --smoke [ARGS…]  seconds (run by scripts/test.sh): the agentctx_bench
#                                          target of the `native` preset (Debug, reusing its
#                                          build), tiny sizes, report to a temp dir; checks
#                                          that every variant runs and gives sane numbers
# ARGS go to bench/run.mjs (--rounds=N, --out=DIR). wasm/dist must be built (scripts/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ "${1:-}" == "--smoke" ]]; then
  shift
  [[ -f build/native/CMakeCache.txt ]] || cmake --preset native >/dev/null
  cmake --build --preset native --target agentctx_bench
  exec node bench/run.mjs --smoke --native=build/native/bench/agentctx_bench "$@"
fi

cmake --preset bench
cmake --build --preset bench
exec node bench/run.mjs --native=build/bench/bench/agentctx_bench "$@"

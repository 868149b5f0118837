#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `npm test`: static checks, every CMake workflow (native, native-asan, wasm, wasi — each runs
# the GoogleTest suite), the package assembly, then the Node test runner over the Node, WASI
# host and Playwright (e2e) tests.
set -euo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n=== %s ===\n' "$*"; }

step "static checks"
node scripts/check.mjs

for preset in native native-asan wasm wasi; do
  step "cmake --workflow --preset $preset"
  cmake --workflow --preset "$preset"
done

step "assemble the npm package"
node scripts/assemble_package.mjs

step "node --test (package, WASI host, e2e)"
node scripts/node-tests.mjs

step "bench smoke (scripts/bench.sh --smoke: every benchmark variant runs, no speed asserted)"
bash scripts/bench.sh --smoke

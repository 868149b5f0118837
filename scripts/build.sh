#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# Builds the given presets (default: wasm wasi) and assembles the npm package in wasm/dist.
set -euo pipefail
cd "$(dirname "$0")/.."
presets=("$@")
((${#presets[@]})) || presets=(wasm wasi)
for p in "${presets[@]}"; do
  cmake --preset "$p" >/dev/null
  cmake --build --preset "$p"
done
node scripts/assemble_package.mjs

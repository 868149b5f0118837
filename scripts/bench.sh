#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
# `npm run bench`: reserved for the benchmark suite (ARCHITECTURE §10: Google Benchmark natively,
# the package in Node and Chromium, reported as ratios by bench/run.mjs). Not written yet, so
# this says so and fails rather than pretending to measure anything.
set -euo pipefail
echo "bench: no benchmarks yet (bench/ is planned: see ARCHITECTURE.md §10)" >&2
exit 1

// SPDX-License-Identifier: MIT
// Small statistics and lookups over bench/run.mjs results, shared by the checks, the report
// and the chart: medians, the per-step summary of a variant, the size the targets are read at.
export function median(xs) {
  const s = (xs ?? []).filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** Variants of the tool loop, in report order, with their labels. */
export const LOOP_VARIANTS = [
  ['native_call', 'native (Engine::Call)'],
  ['native_typed', 'native (typed Session API)'],
  ['embind', 'Embind in Node (package)'],
  ['wasi', 'WASI in Node'],
  ['naive', 'naive JS harness'],
  ['memcpy', 'memcpy of the body'],
];

/** {wall, cpu, typical, engine, copy, body, meanBody} of a variant at `steps` (medians over rounds). */
export function point(results, variant, steps) {
  const p = results.tool_loop[variant]?.[steps];
  if (!p) return null;
  return {
    wall: median(p.wall_ms), cpu: median(p.cpu_ms), typical: median(p.median_ms), engine: median(p.engine_ms),
    copy: median(p.copy_ms), body: p.body_bytes, meanBody: p.mean_body_bytes,
  };
}

/** The size the targets are read at: 1 000 steps (≈ 1 MB), else the largest measured. */
export const targetSize = (results) => (results.sizes.includes(1000) ? 1000 : results.sizes[results.sizes.length - 1]);

/** Requests exempt from P1: the compaction request and the first request after it. */
export const compactionRequests = (prefix) => new Set(prefix.events.filter((e) => /compaction/.test(e.label)).map((e) => e.n));

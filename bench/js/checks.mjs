// SPDX-License-Identifier: MIT
// Sanity checks of a bench/run.mjs result (the smoke's pass/fail; the full run reports them
// too). They check that every variant ran and that its numbers are sane — never speed.
import { LOOP_VARIANTS, median } from './stats.mjs';

const finitePositive = (x) => Number.isFinite(x) && x > 0;

export function checkResults(r) {
  const problems = [];
  const expect = (ok, what) => { if (!ok) problems.push(what); };
  for (const steps of r.sizes) {
    const bodies = {};
    for (const [variant] of LOOP_VARIANTS) {
      const p = r.tool_loop[variant]?.[steps];
      if (!p) {
        problems.push(`${variant}: no tool-loop result at ${steps} steps`);
        continue;
      }
      expect(p.wall_ms.length === r.rounds && p.wall_ms.every(finitePositive), `${variant} @${steps}: per-step times ${JSON.stringify(p.wall_ms)}`);
      expect(p.body_bytes >= steps * 1024, `${variant} @${steps}: body of ${p.body_bytes} bytes is smaller than its ${steps} tool outputs`);
      bodies[variant] = p.body_bytes;
    }
    // The same workload gives the same bytes on every target (native, Embind, WASI).
    const engine = ['native_call', 'native_typed', 'memcpy', 'embind', 'wasi'].map((v) => bodies[v]).filter((b) => b !== undefined);
    expect(new Set(engine).size <= 1, `@${steps}: body sizes differ across targets ${JSON.stringify(bodies)}`);
    if (bodies.naive && engine[0]) {
      expect(bodies.naive > engine[0] / 2 && bodies.naive < engine[0] * 2, `@${steps}: naive body ${bodies.naive} vs agentctx ${engine[0]}`);
    }
  }
  const pr = r.prefix;
  expect(pr && pr.requests > 0, 'P1/P2 did not run');
  if (pr) {
    for (const v of ['agentctx', 'naive']) {
      const x = pr[v];
      expect(x.requests === pr.requests, `P1/P2 ${v}: ${x.requests} requests, the script has ${pr.requests}`);
      for (const k of ['reuse', 'max_reuse', 'p1', 'cached_share', 'ideal_cached_share']) {
        expect(x[k] >= 0 && x[k] <= 1, `P1/P2 ${v}: ${k} = ${x[k]} is not in [0, 1]`);
      }
      expect(x.cached_tokens <= x.input_tokens && x.shared_bytes <= x.max_shared_bytes, `P1/P2 ${v}: cached or shared above the maximum`);
    }
    expect(pr.mismatches.length === 0, `the engine's cache_report disagrees with the body bytes: ${JSON.stringify(pr.mismatches.slice(0, 3))}`);
  }
  const pv = r.providers;
  expect(pv && Object.keys(pv.providers ?? {}).length === 4, 'the per-provider cached share did not run');
  const p56 = pv?.providers?.['responses 5.6'];
  expect(p56 && p56.missed_agreeing === p56.missed, `responses 5.6: the engine's reason differs from the mock's on ${p56?.missed - p56?.missed_agreeing} missed request(s)`);
  for (const [name, x] of Object.entries(pv?.providers ?? {})) {
    expect(x.requests === pv.requests, `provider ${name}: ${x.requests} requests, the script has ${pv.requests}`);
    expect(x.cached_share >= 0 && x.cached_share <= 1, `provider ${name}: cached share ${x.cached_share} is not in [0, 1]`);
  }
  for (const v of ['native', 'embind', 'wasi']) {
    const rs = r.resume[v] ?? [];
    expect(rs.length === r.rounds && rs.every((x) => finitePositive(x.ms)), `resume ${v}: ${JSON.stringify(rs)}`);
  }
  expect(new Set(['embind', 'wasi'].map((v) => r.resume[v]?.[0]?.body_bytes)).size === 1, 'resume: the first body after resume differs between Embind and WASI');
  if (!r.replay.skipped) {
    const files = Object.entries(r.replay.files);
    expect(files.length > 0, 'replay: no rollout was replayed');
    for (const [name, f] of files) {
      for (const v of ['native', 'embind', 'wasi']) expect(finitePositive(median(f[v])), `replay ${v} ${name}: ${JSON.stringify(f[v])}`);
      expect(f.requests > 0, `replay ${name}: no request reconstructed`);
    }
  }
  for (const v of ['native', 'embind', 'wasi', 'naive']) {
    const m = r.memory?.[v];
    expect(m && m.body_bytes > 0 && Number.isFinite(m.rss_delta_bytes), `memory ${v}: ${JSON.stringify(m)}`);
  }
  expect(finitePositive(r.memory?.native?.heap_delta_bytes), 'memory native: no heap figure');
  expect(finitePositive(r.modules?.embind?.gzip) && finitePositive(r.modules?.wasi?.gzip), 'module sizes missing');
  return problems;
}

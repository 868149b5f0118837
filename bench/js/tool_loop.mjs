#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// One variant of the tool-loop benchmark in this process (bench/run.mjs starts one child per
// variant and round, interleaved), printing one JSON object on stdout.
//   node bench/js/tool_loop.mjs --variant=embind|wasi|naive --steps=100,1000,4000
//     per-step cost: one session grows to each size untimed, then windowFor(size) steps are
//     timed (deliver the SSE answer, deliver end, deliver the 1 KB tool output, the body in
//     hand as a Uint8Array ready for fetch); the history keeps growing to the next size.
//     -> {variant, points: [{steps, window, mean_ms, median_ms, cpu_ms, body_bytes,
//         mean_body_bytes, engine_ms?, copy_ms?}]} (mean = window wall time / window; cpu =
//         process CPU time, all threads, GC helpers included, / window). A throwaway session of
//         `--warmup` steps (default 300) runs first, so the windows see tiered-up code.
//     Engine variants then time a second window through callRaw, to split the step:
//     engine_ms = the three calls without resolving the envelope (median), copy_ms = copying
//     the body out of the module (session.attachment(0), median).
//   node --expose-gc bench/js/tool_loop.mjs --variant=… --memory=1000
//     resident memory: RSS (and JS heap) before the session and after `memory` steps, after a
//     full GC. -> {variant, memory: {steps, rss_delta_bytes, heap_delta_bytes, body_bytes}}
import { performance } from 'node:perf_hooks';
import { EngineLoop, openSession, prepareStep, windowFor } from './workload.mjs';
import { NaiveLoop } from './naive_harness.mjs';

const args = Object.fromEntries(process.argv.slice(2).map((a) => {
  const m = /^--([^=]+)=(.*)$/.exec(a);
  if (!m) throw new Error(`bad argument ${a}`);
  return [m[1], m[2]];
}));
const variant = args.variant;

async function makeLoop() {
  if (variant === 'naive') return { loop: new NaiveLoop().start(), close: () => {} };
  const opened = await openSession(variant);
  return { loop: new EngineLoop(opened.session).start(), close: opened.close };
}

// Untimed growth; the naive harness skips most renders here (only its parse + push matter for
// the history), rendering every 50th step so its JIT state is that of a running harness.
function grow(loop, n) {
  for (let k = loop.steps + 1; k <= n; ++k) {
    const p = prepareStep(k);
    if (loop instanceof NaiveLoop) loop.step(p, k % 50 === 0 || k === n);
    else loop.step(p);
  }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

// The step split into the engine's part and the body copy (see the header).
function rawWindow(loop, from, window) {
  const s = loop.session;
  const engine = [];
  const copy = [];
  let req = loop.requestId;
  for (let k = from; k < from + window; ++k) {
    const p = prepareStep(k);
    const sseJson = JSON.stringify({ delivery: { type: 'model_events', request_id: req, sse: { $bytes: 0 } }, now_ms: p.now });
    const endJson = JSON.stringify({ delivery: { type: 'model_events', request_id: req, end: true }, now_ms: p.now });
    const t0 = performance.now();
    s.callRaw('deliver', sseJson, [p.sse]);
    s.callRaw('deliver', endJson);
    const env = s.callRaw('deliver', JSON.stringify({ delivery: { type: 'tool_output', call_id: `call_${k}`, output: p.output }, now_ms: p.now }));
    const t1 = performance.now();
    loop.body = s.attachment(0);
    copy.push(performance.now() - t1);
    engine.push(t1 - t0);
    const id = /"type":"model_request","id":"(req-\d+)"/.exec(env);
    if (!id) throw new Error(`raw step ${k}: no model_request`);
    req = id[1];
    loop.steps = k;
  }
  loop.requestId = req;
  return { engine_ms: median(engine), copy_ms: median(copy) };
}

async function perStep(sizes, warmup) {
  if (warmup > 0) {
    const w = await makeLoop();
    grow(w.loop, warmup);
    w.close();
  }
  const { loop, close } = await makeLoop();
  const points = [];
  for (const n of sizes) {
    if (loop.steps > n) throw new Error(`--steps: ${n} is within the previous size's windows (already at ${loop.steps} steps)`);
    grow(loop, n);
    const bodyAtN = loop.body.length;
    const window = windowFor(n);
    const prepared = [];
    for (let i = 1; i <= window; ++i) prepared.push(prepareStep(n + i));
    const times = [];
    let bodyTotal = 0;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    for (const p of prepared) {
      const s = performance.now();
      const body = loop.step(p);
      times.push(performance.now() - s);
      bodyTotal += body.length;
    }
    const total = performance.now() - t0;
    const cpu = process.cpuUsage(c0);
    const point = {
      steps: n, window, mean_ms: total / window, median_ms: median(times),
      cpu_ms: (cpu.user + cpu.system) / 1000 / window,
      body_bytes: bodyAtN, mean_body_bytes: bodyTotal / window,
    };
    if (loop instanceof EngineLoop) Object.assign(point, rawWindow(loop, n + window + 1, window));
    points.push(point);
  }
  close();
  return { variant, points };
}

// A full GC, twice, with a pause between: V8 frees ArrayBuffer backing stores (every body copy)
// on a background sweeper after the GC that found them dead.
async function settle() {
  for (let i = 0; i < 3; ++i) {
    globalThis.gc();
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function memory(n) {
  if (typeof globalThis.gc !== 'function') throw new Error('--memory needs node --expose-gc');
  // Load the module (and compile it) before the baseline, so only the session is measured.
  const warm = await makeLoop();
  warm.close();
  await settle();
  const before = process.memoryUsage();
  const { loop, close } = await makeLoop();
  grow(loop, n);
  const bodyBytes = loop.body.length;
  await settle();
  const after = process.memoryUsage();
  const result = {
    variant,
    memory: {
      steps: n, body_bytes: bodyBytes,
      rss_delta_bytes: after.rss - before.rss,
      heap_delta_bytes: after.heapUsed - before.heapUsed,
      external_delta_bytes: after.external + after.arrayBuffers - before.external - before.arrayBuffers,
    },
  };
  close();
  return result;
}

const out = args.memory
  ? await memory(Number(args.memory))
  : await perStep(String(args.steps ?? '100,1000,4000').split(',').map(Number), Number(args.warmup ?? 300));
process.stdout.write(JSON.stringify(out) + '\n');

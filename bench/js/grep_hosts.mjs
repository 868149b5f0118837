// SPDX-License-Identifier: MIT
// The grep cases of grep_bench.mjs run through the two wasm builds, to compare with native:
//  - Embind: the npm package in Node over createNodeFileSystem(corpus dir) (files read by node:fs
//    through the JS FileSystem bridge);
//  - WASI: wasm/dist/wasi/guest.js with the corpus dir preopened as /workspace (files read by
//    the guest through WASI, behind the host's sandbox checks).
// Each case is one model answer with a `grep` function call, delivered to a session; the built-in
// tool runs inside that `deliver` call, which also records the output and renders the next
// request. That overhead is measured the same way with a grep over an empty directory and
// subtracted (the "baseline"), so the figures compare with the native RunGrep times. Untimed
// passes over every case come first, until they stop getting faster, then a pause while V8's
// background compilation finishes (see runHostGrep). Times are CPU time (process.cpuUsage
// around the call; agentctx_bench's cpu_time natively): on a shared machine wall-clock times
// mostly measure the other load.
// bench/run.mjs runs it once per round and variant in a child process, with the modules compiled
// by TurboFan up front (no dynamic tiering: see bench/run.mjs):
//   node --no-wasm-dynamic-tiering bench/js/grep_hosts.mjs --variant=embind|wasi --cases=FILE --root=DIR
// (FILE: grep_corpus.mjs's cases.tsv, DIR: the corpus folder) prints {baseline_ms, cases} as JSON.
// Alone: node bench/js/grep_hosts.mjs [--native=BIN] [--rounds=N] [--smoke] prints a table
// (CPU ms per case, medians over the rounds; with --native, agentctx_bench's grep_deliver/<case>,
// the same measure natively, beside).
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { prepareGrep, runNativeGrep } from './grep_bench.mjs';
import { distUrl, waitForDist } from './dist.mjs';
import { median } from './stats.mjs';
import { loadPackage, modelRequest } from './workload.mjs';

const CONFIG = {
  session_id: 'bench-grep',
  model: { slug: 'mock-1', instructions: 'Search the corpus.' },
  max_steps_per_turn: 100000,
  environments: [{ id: 'local', cwd: '/workspace', fs: 'workspace' }],
};

const WARM_PASSES = 5;
const COMPILE_PAUSE_MS = 1000;

function grepCallSse(k, args) {
  const item = { type: 'function_call', id: `fc_${k}`, name: 'grep', arguments: JSON.stringify(args), call_id: `call_${k}` };
  return `event: response.output_item.done\ndata: ${JSON.stringify({ type: 'response.output_item.done', output_index: 0, item })}\n\n` +
    `event: response.completed\ndata: ${JSON.stringify({ type: 'response.completed', response: { id: `resp_${k}`,
      usage: { input_tokens: 10, input_tokens_details: { cached_tokens: 0 }, output_tokens: 5, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 15 } } })}\n\n`;
}

/** The module of `variant` over the corpus `root`: fresh sessions of it, and its disposal. */
async function openVariant(variant, root) {
  const pkg = await loadPackage();
  if (variant === 'embind') {
    const engine = await pkg.createEngine();
    const workspace = pkg.createNodeFileSystem(root);
    return {
      prefix: '',
      open: () => {
        const session = engine.openSession({ workspace });
        return { session, close: () => session.close() };
      },
      dispose: () => engine.dispose(),
    };
  }
  const { WasiGuest } = await import(distUrl('wasi/guest.js'));
  const state = mkdtempSync(join(tmpdir(), 'agentctx-bench-state-'));
  const guest = await WasiGuest.load({ workspace: root, state });
  return {
    prefix: '/workspace',
    open: () => {
      const handle = guest.open();
      return { session: pkg.createCaller(guest.transport(handle)), close: () => guest.close(handle) };
    },
    dispose: () => rmSync(state, { recursive: true, force: true }),
  };
}

/**
 * Runs every case of `grep` `rounds` times through `variant` ('embind' | 'wasi'); returns
 * {baseline_ms, cases: {name: ms}} (medians, baseline subtracted). Each case of each pass gets a
 * fresh session (started outside the timed calls), so the history every deliver renders stays
 * two calls long: a grown history would add the same large cost to both delivers of the
 * subtraction, and its noise to the difference.
 */
export async function runHostGrep(variant, grep, rounds) {
  const root = grep.root;
  mkdirSync(join(root, 'empty'), { recursive: true });
  const host = await openVariant(variant, root);
  try {
    // Embind's FileSystem sees the corpus dir as "/"; its cwd is still "/workspace" in the
    // config, so paths are given absolute either way.
    const at = (path) => (host.prefix || '') + '/' + relative(root, path);
    const config = variant === 'embind' ? { ...CONFIG, environments: [{ ...CONFIG.environments[0], cwd: '/' }] } : CONFIG;
    const baseline = [];
    const times = Object.fromEntries(Object.keys(grep.cases).map((name) => [name, []]));
    // One case: a fresh session, the baseline deliver, then the case's; their CPU ms.
    const runCase = (pattern, path) => {
      const { session, close } = host.open();
      try {
        session.call('session.start', { config, now_ms: 0 });
        let request = modelRequest(session.call('submit', { text: 'grep', now_ms: 1 }).effects, 'submit').id;
        let k = 0;
        const deliver = (args) => {
          k += 1;
          const t0 = process.cpuUsage();
          const r = session.call('deliver', { delivery: { type: 'model_events', request_id: request, sse: grepCallSse(k, args) }, now_ms: 1 + k });
          const t = process.cpuUsage(t0);
          request = modelRequest(r.effects, `grep ${JSON.stringify(args)}`).id;
          return (t.user + t.system) / 1000;
        };
        return [deliver({ pattern: 'zzqq', path: at(join(root, 'empty')) }), deliver({ pattern, path: at(path) })];
      } finally {
        close();
      }
    };
    const pass = (record) => {
      let total = 0;
      for (const [name, c] of Object.entries(grep.cases)) {
        const [base, t] = runCase(c.pattern, grep.paths[name]);
        total += base + t;
        if (!record) continue;
        baseline.push(base);
        times[name].push(t);
      }
      return total;
    };
    // Warm-up, untimed: passes until V8 has tiered the hot wasm and JS up (a pass less than 10 %
    // faster than the one before, at most WARM_PASSES), then a pause while its background
    // compilation finishes: process CPU time counts those compiler threads too, and with a
    // single warm pass they landed in the timed calls (a tree case measured 3x its steady cost).
    let previous = Infinity;
    for (let w = 0; w < WARM_PASSES; ++w) {
      const t = pass(false);
      if (t > previous * 0.9) break;
      previous = t;
    }
    await new Promise((resolve) => setTimeout(resolve, COMPILE_PAUSE_MS));
    for (let round = 0; round < rounds; ++round) pass(true);
    const base = median(baseline);
    return { baseline_ms: base, cases: Object.fromEntries(Object.entries(times).map(([n, t]) => [n, Math.max(0, median(t) - base)])) };
  } finally {
    host.dispose();
  }
}

/** The cases of a cases.tsv (name, path, pattern per line) as runHostGrep's `grep`. */
function grepFromCasesFile(file, root) {
  const grep = { root, cases: {}, paths: {} };
  for (const line of readFileSync(file, 'utf8').split('\n').filter(Boolean)) {
    const [name, path, ...pattern] = line.split('\t');
    grep.cases[name] = { pattern: pattern.join('\t') };
    grep.paths[name] = path;
  }
  return grep;
}

const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
if (process.argv[1] === fileURLToPath(import.meta.url) && arg('variant', undefined) !== undefined) {
  await waitForDist();
  const grep = grepFromCasesFile(arg('cases', ''), arg('root', ''));
  process.stdout.write(JSON.stringify(await runHostGrep(arg('variant', ''), grep, Number(arg('rounds', '1')))) + '\n');
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const smoke = process.argv.includes('--smoke');
  const rounds = Number(arg('rounds', smoke ? '1' : '5'));
  const native = arg('native', undefined);
  await waitForDist();
  const work = mkdtempSync(join(tmpdir(), 'agentctx-grep-hosts-'));
  try {
    const grep = prepareGrep(work, smoke);
    const nativeMs = {};
    if (native) {
      for (let i = 0; i < rounds; ++i) runNativeGrep(native, grep, 0.2);
      // The same measure natively (a deliver less the baseline's), else the search alone.
      for (const [name, c] of Object.entries(grep.cases)) nativeMs[name] = median(c.native_deliver_cpu_ms ?? c.native_cpu_ms);
    }
    const embind = await runHostGrep('embind', grep, rounds);
    const wasi = await runHostGrep('wasi', grep, rounds);
    const f = (x) => (x === undefined ? '—' : x < 1 ? x.toFixed(3) : x < 10 ? x.toFixed(2) : x.toFixed(1));
    console.log(`baseline (deliver without grep work): Embind ${f(embind.baseline_ms)} ms, WASI ${f(wasi.baseline_ms)} ms`);
    console.log('| case | corpus | native CPU ms | Embind CPU ms | WASI CPU ms | Embind ÷ native | WASI ÷ native |');
    console.log('|---|---|---:|---:|---:|---:|---:|');
    for (const [name, c] of Object.entries(grep.cases)) {
      const n = nativeMs[name];
      const e = embind.cases[name];
      const w = wasi.cases[name];
      const ratio = (x) => (n ? `${(x / n).toFixed(1)}×` : '—');
      console.log(`| ${name} | ${c.corpus} | ${f(n)} | ${f(e)} | ${f(w)} | ${ratio(e)} | ${ratio(w)} |`);
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

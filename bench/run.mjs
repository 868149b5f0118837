#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// `npm run bench` (via scripts/bench.sh): every benchmark variant in one sitting, interleaved,
// medians, and the report written by the run itself (docs/BENCHMARKS.md).
//   node bench/run.mjs [--native=BIN] [--rounds=5]   full run -> docs/BENCHMARKS.md + chart
//   node bench/run.mjs --smoke [--native=BIN]        seconds: tiny sizes, one round, report to a
//                                                    temp dir; checks sanity, never speed
//   node bench/run.mjs --report-from=bench/out/results.json
//                                                    renders the report again from a run's saved
//                                                    results (after editing its wording), no run
// Steps:
//  1. machine facts; wait for wasm/dist; build the ~10 MB rollout (smoke: 0.3 MB);
//  2. R rounds; each runs, in an order rotated per round, one child process per task: the
//     native binary (tool loop call/typed + memcpy at every size, resume, replay), the tool
//     loop through Embind, WASI and the naive harness, resume and replay through Embind and WASI,
//     the grep tool natively and ripgrep beside it (bench/js/grep_bench.mjs: a generated 210 KB
//     file and ~10 MB tree, smoke: a tenth of the file and a few small files);
//  3. once: P1/P2 (deterministic), resident memory per variant (a child each), module sizes;
//  4. sanity checks (every variant ran; same body bytes on native, Embind and WASI; shares in
//     [0, 1]; the engine's cache_report equals the bytes); results JSON + report + chart.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, copyFileSync, existsSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT, waitForDist } from './js/dist.mjs';
import { prefixReuse } from './js/prefix_reuse.mjs';
import { providerShares } from './js/provider_share.mjs';
import { nativeShares } from './js/native_share.mjs';
import { compactionShares } from './js/compaction_share.mjs';
import { moduleSizes } from './js/sizes.mjs';
import { checkResults } from './js/checks.mjs';
import { renderReport } from './js/report.mjs';
import { renderChart } from './js/chart.mjs';
import { median } from './js/stats.mjs';
import { grepProblems, prepareGrep, runNativeGrep, runRipgrep, sameAsRipgrep } from './js/grep_bench.mjs';

const HERE = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const flag = (name, fallback) => {
  const a = argv.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  if (a === undefined) return fallback;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : true;
};
const smoke = flag('smoke', false) === true;
const mode = smoke
  ? { name: 'smoke', sizes: [5, 60], warmup: 10, rounds: 1, nativeReps: 1, rolloutMb: 0.3, memorySteps: 20, minTime: 0.01, reps: 2, scale: 0.25, grepHostPasses: 1 }
  : { name: 'full', sizes: [100, 1000, 4000], warmup: 300, rounds: Number(flag('rounds', 5)), nativeReps: 3, rolloutMb: 10, memorySteps: 1000, minTime: 0.2, reps: 3, scale: 1, grepHostPasses: 3 };
const nativeBin = resolve(ROOT, flag('native', 'build/bench/bench/agentctx_bench'));
const replayDir = join(ROOT, '..', 'shared', 'rollouts');
const work = mkdtempSync(join(tmpdir(), 'agentctx-bench-'));
const outDir = smoke ? (flag('out', null) || join(work, 'report')) : flag('out', join(ROOT, 'docs'));
const started = Date.now();
const log = (m) => process.stderr.write(`bench: ${m}\n`);

function run(cmd, args, opts = {}) {
  const t0 = Date.now();
  const r = spawnSync(cmd, args, { encoding: 'utf8', maxBuffer: 256 << 20, cwd: ROOT, ...opts });
  if (r.status !== 0) {
    throw new Error(`${[cmd, ...args].join(' ')} failed (${r.status ?? r.signal}):\n${(r.stderr || '').slice(-3000)}`);
  }
  return { stdout: r.stdout, seconds: (Date.now() - t0) / 1000 };
}

function node(script, args, opts = {}) {
  const { stdout, seconds } = run(process.execPath, [...(opts.nodeFlags ?? []), join(HERE, 'js', script), ...args], opts);
  const lines = stdout.trim().split('\n');
  return { value: JSON.parse(lines[lines.length - 1]), seconds };
}

function facts() {
  const sh = (c, a) => { const r = spawnSync(c, a, { encoding: 'utf8', cwd: ROOT }); return r.status === 0 ? r.stdout.trim() : null; };
  return {
    date: new Date().toISOString(),
    nproc: Number(sh('nproc', [])) || cpus().length,
    cpu: cpus()[0]?.model ?? 'unknown',
    node: process.version,
    gxx: sh('g++', ['-dumpfullversion']),
    commit: sh('git', ['rev-parse', '--short', 'HEAD']),
    dirty: (sh('git', ['status', '--porcelain', '--', 'core', 'wasm', 'wasi-host']) ?? '').length > 0,
    loadavg_start: loadavg().map((x) => Number(x.toFixed(2))),
    native_build: nativeBin.includes('/build/bench/') ? 'bench preset (Release)' : 'native preset (Debug)',
  };
}

// Parses one agentctx_bench JSON run into {tool_loop: {variant: {steps: x}}, resume, replay};
// repetitions of a tool-loop benchmark within the run are reduced to their median.
function parseNative(json) {
  const out = { tool_loop: {}, resume: null, replay: {} };
  const reps = {};
  for (const b of json.benchmarks) {
    if (b.error_occurred) throw new Error(`native ${b.name}: ${b.error_message}`);
    if (b.run_type !== 'iteration') continue;
    const toMs = { ns: 1e-6, us: 1e-3, ms: 1, s: 1000 }[b.time_unit];
    const wall = b.real_time * toMs;
    const cpu = b.cpu_time * toMs;
    const family = b.name.split('/')[0];
    if (family === 'tool_loop' || family === 'memcpy_body') {
      const variant = family === 'memcpy_body' ? 'memcpy' : `native_${b.name.split('/')[1]}`;
      const r = ((reps[variant] ??= {})[b.steps] ??= { wall: [], cpu: [] });
      r.wall.push(wall);
      r.cpu.push(cpu);
      (out.tool_loop[variant] ??= {})[b.steps] = {
        wall_ms: median(r.wall), cpu_ms: median(r.cpu), body_bytes: b.body_bytes, mean_body_bytes: b.mean_body_bytes ?? b.body_bytes,
      };
    } else if (family === 'resume') {
      out.resume = { ms: wall, cpu_ms: cpu, bytes: b.rollout_bytes };
    } else if (family === 'replay') {
      out.replay[b.name.slice(7).replace(/\/min_time:.*$/, '')] = { ms: wall, bytes: b.rollout_bytes };
    }
  }
  return out;
}

const reportFrom = flag('report-from', null);
if (reportFrom) {
  const saved = JSON.parse(readFileSync(resolve(reportFrom), 'utf8'));
  mkdirSync(outDir, { recursive: true });
  writeFileSync(join(outDir, 'benchmarks.svg'), renderChart(saved));
  writeFileSync(join(outDir, 'BENCHMARKS.md'), renderReport(saved));
  rmSync(work, { recursive: true, force: true });
  log(`rendered ${join(outDir, 'BENCHMARKS.md')} and benchmarks.svg from ${reportFrom}`);
  process.exit(0);
}

const results = {
  mode: mode.name, facts: facts(), sizes: mode.sizes, rounds: mode.rounds,
  tool_loop: {}, resume: {}, replay: { dir: replayDir, files: {} }, timings: [],
};
const push = (obj, key, value) => (obj[key] ??= []).push(value);

function recordLoop(variant, steps, point) {
  const v = (results.tool_loop[variant] ??= {});
  const p = (v[steps] ??= { wall_ms: [], cpu_ms: [], median_ms: [], engine_ms: [], copy_ms: [] });
  p.wall_ms.push(point.wall_ms);
  p.cpu_ms.push(point.cpu_ms);
  for (const k of ['median_ms', 'engine_ms', 'copy_ms']) if (point[k] !== undefined) p[k].push(point[k]);
  p.body_bytes = point.body_bytes;
  p.mean_body_bytes = point.mean_body_bytes;
}

try {
  log(`${mode.name} run, sizes ${mode.sizes.join('/')}, ${mode.rounds} round(s); native binary ${nativeBin}`);
  if (!existsSync(nativeBin)) throw new Error(`${nativeBin} is missing: run scripts/bench.sh (it builds it first)`);
  await waitForDist(5 * 60 * 1000, log);

  // 1. The rollout for resume; the replay set (the smoke replays only that small rollout).
  const rollout = join(work, 'rollout.jsonl');
  const built = node('rollouts.mjs', ['build', `--out=${rollout}`, `--mb=${mode.rolloutMb}`]);
  results.resume.rollout = built.value;
  log(`rollout: ${(built.value.bytes / 1e6).toFixed(1)} MB, ${built.value.steps} steps (${built.seconds.toFixed(1)} s)`);
  let replayFrom = replayDir;
  if (smoke) {
    replayFrom = join(work, 'replay');
    mkdirSync(replayFrom);
    copyFileSync(rollout, join(replayFrom, 'bench-rollout.jsonl'));
  } else if (!existsSync(replayDir)) {
    results.replay.skipped = `${replayDir} is absent`;
    log(`SKIP replay: ${results.replay.skipped}`);
  }
  results.replay.dir = smoke ? 'the generated rollout (smoke)' : '../shared/rollouts';
  results.grep = prepareGrep(work, smoke);
  results.grep.host_passes = mode.grepHostPasses;
  log(`grep corpus: ${(results.grep.file_bytes / 1e3).toFixed(0)} KB file, ${(results.grep.tree_bytes / 1e6).toFixed(1)} MB tree; ripgrep: ${results.grep.rg ?? 'not installed'}`);
  const replayArgs = results.replay.skipped ? [] : [`--actx_replay=${replayFrom}`];

  // 2. Interleaved rounds.
  const sizes = mode.sizes.join(',');
  const tasks = [
    ['native', () => {
      const { stdout, seconds } = run(nativeBin, [`--actx_steps=${sizes}`, '--actx_memory_steps=0', `--actx_rollout=${rollout}`, `--actx_repetitions=${mode.nativeReps}`,
        ...replayArgs, `--actx_min_time=${mode.minTime}`, '--benchmark_format=json']);
      const parsed = parseNative(JSON.parse(stdout));
      for (const [variant, points] of Object.entries(parsed.tool_loop)) {
        for (const [steps, p] of Object.entries(points)) recordLoop(variant, steps, p);
      }
      push(results.resume, 'native', parsed.resume);
      for (const [name, r] of Object.entries(parsed.replay)) {
        const f = (results.replay.files[name] ??= { bytes: r.bytes });
        push(f, 'native', r.ms);
      }
      return seconds;
    }],
    ...['embind', 'wasi', 'naive'].map((variant) => [`${variant} tool loop`, () => {
      const { value, seconds } = node('tool_loop.mjs', [`--variant=${variant}`, `--steps=${sizes}`, `--warmup=${mode.warmup}`]);
      for (const p of value.points) recordLoop(variant, p.steps, { ...p, wall_ms: p.mean_ms });
      return seconds;
    }]),
    ...['embind', 'wasi'].map((variant) => [`${variant} resume`, () => {
      const { value, seconds } = node('rollouts.mjs', ['resume', `--variant=${variant}`, `--rollout=${rollout}`, `--reps=${mode.reps}`]);
      // The first resume of a process runs cold (wasm tier-up, memory growth); later ones warm.
      const warm = (xs) => Math.min(...xs.slice(1));
      push(results.resume, variant, {
        ms: warm(value.resume_ms), cold_ms: value.resume_ms[0], first_body_ms: warm(value.first_body_ms),
        bytes: value.bytes, body_bytes: value.body_bytes,
      });
      return seconds;
    }]),
    ...(results.replay.skipped ? [] : ['embind', 'wasi'].map((variant) => [`${variant} replay`, () => {
      const { value, seconds } = node('rollouts.mjs', ['replay', `--variant=${variant}`, `--dir=${replayFrom}`, `--reps=${mode.reps}`]);
      for (const f of value.files) {
        const row = (results.replay.files[f.name] ??= { bytes: f.bytes });
        row.requests = f.requests;
        row.prompt_bytes = f.prompt_bytes;
        push(row, variant, Math.min(...f.ms));
      }
      return seconds;
    }])),
    ['native grep', () => runNativeGrep(nativeBin, results.grep, mode.minTime)],
    // The same cases through the Embind package and the WASI guest (CPU time, like native's).
    // Compiled by TurboFan up front: with V8's dynamic tiering, code first hot in the timed passes
    // (a pattern's compile runs once a pass) was tiered up during them, on threads whose CPU
    // time the process measure counts (a 3.5 KB pattern measured 4.2 ms instead of 2.6).
    ...['embind', 'wasi'].map((variant) => [`${variant} grep`, () => {
      const { value, seconds } = node('grep_hosts.mjs', [`--variant=${variant}`, `--cases=${results.grep.casesFile}`,
        `--root=${results.grep.root}`, `--rounds=${mode.grepHostPasses}`], { nodeFlags: ['--no-wasm-dynamic-tiering'] });
      for (const [name, cpuMs] of Object.entries(value.cases)) (results.grep.cases[name][`${variant}_cpu_ms`] ??= []).push(cpuMs);
      return seconds;
    }]),
    ...(results.grep.rg ? [['ripgrep', () => runRipgrep(results.grep, mode.reps)]] : []),
  ];
  for (let round = 0; round < mode.rounds; ++round) {
    const order = tasks.map((_, i) => tasks[(i + round) % tasks.length]);
    for (const [name, task] of order) {
      const seconds = task();
      results.timings.push({ round: round + 1, task: name, seconds });
      log(`round ${round + 1}/${mode.rounds}: ${name} (${seconds.toFixed(1)} s)`);
    }
  }

  // 3. Once: P1/P2, memory, sizes.
  results.prefix = await prefixReuse(mode.scale);
  for (const v of ['agentctx', 'naive']) delete results.prefix[v].rows;
  log('P1/P2 done');
  results.providers = await providerShares(mode.scale);
  log('cached share per provider done');
  results.native = await nativeShares(mode.scale);
  log('tool_policy native done');
  results.compaction = await compactionShares(mode.scale);
  log('compaction strategies done');
  const env = { ...process.env, MALLOC_MMAP_THRESHOLD_: '131072' }; // freed big blocks leave RSS
  results.memory = {};
  {
    const { stdout } = run(nativeBin, ['--actx_steps=', `--actx_memory_steps=${mode.memorySteps}`, '--benchmark_filter=session_memory',
      '--benchmark_format=json'], { env });
    const b = JSON.parse(stdout).benchmarks.find((x) => x.name.startsWith('session_memory'));
    if (!b || b.error_occurred) throw new Error(`native session_memory: ${b?.error_message ?? 'missing'}`);
    results.memory.native = { steps: b.steps, body_bytes: b.body_bytes, rss_delta_bytes: b.rss_delta_bytes, heap_delta_bytes: b.heap_delta_bytes };
  }
  for (const variant of ['embind', 'wasi', 'naive']) {
    results.memory[variant] = node('tool_loop.mjs', [`--variant=${variant}`, `--memory=${mode.memorySteps}`], { env, nodeFlags: ['--expose-gc'] }).value.memory;
  }
  log('memory done');
  results.modules = moduleSizes();
  results.facts.loadavg_end = loadavg().map((x) => Number(x.toFixed(2)));
  results.duration_s = (Date.now() - started) / 1000;

  // 4. Checks, results, report.
  const problems = [...checkResults(results), ...grepProblems(results.grep, mode.rounds)];
  results.problems = problems;
  for (const c of Object.values(results.grep.cases)) {
    c.same_as_rg = sameAsRipgrep(c);
    c.rg_count = c.rg_lines?.length;
    delete c.rg_lines;
  }
  mkdirSync(outDir, { recursive: true });
  const jsonOut = smoke ? join(outDir, 'results.json') : join(ROOT, 'bench/out/results.json');
  mkdirSync(dirname(jsonOut), { recursive: true });
  writeFileSync(jsonOut, JSON.stringify(results, null, 1) + '\n');
  writeFileSync(join(outDir, 'benchmarks.svg'), renderChart(results));
  writeFileSync(join(outDir, 'BENCHMARKS.md'), renderReport(results));
  log(`wrote ${join(outDir, 'BENCHMARKS.md')}, ${join(outDir, 'benchmarks.svg')} and ${jsonOut} in ${results.duration_s.toFixed(0)} s`);
  if (problems.length) {
    log(`FAILED sanity checks:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    process.exitCode = 1;
  } else {
    log('sanity checks: ok');
  }
} finally {
  rmSync(work, { recursive: true, force: true });
  if (smoke && !flag('out', null)) log('(the smoke report went with its temp dir; pass --out=DIR to keep it)');
}

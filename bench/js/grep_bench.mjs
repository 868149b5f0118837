// SPDX-License-Identifier: MIT
// The grep section of `npm run bench`: the built-in `grep` tool (natively, agentctx_bench's
// grep/<case> benchmarks over the corpus of grep_corpus.mjs on disk) beside ripgrep (`rg`, when
// installed) on the same files and patterns, in the same sitting. bench/run.mjs drives it:
//   prepareGrep(work, smoke)                     writes the corpus, returns the result skeleton
//   runNativeGrep(bin, grep, minTime)            one round of agentctx (a child process)
//   runRipgrep(grep, reps)                       one round of rg (a child process per case and
//                                                repetition: its time includes starting rg)
//   grepProblems(grep, rounds)                   the sanity checks (never speed)
// Same results: agentctx stops after 200 matches or ~8 000 bytes of output, so its file:line
// list (hashed by the benchmark, FNV-1a over "path:line\n") is compared with the first as many
// lines of rg's, sorted by path then line (the corpus makes that grep's walk order).
// Alone: node bench/js/grep_bench.mjs --native=BIN [--smoke] [--rounds=N] prints the JSON.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGrepCorpus } from './grep_corpus.mjs';
import { median } from './stats.mjs';

/** Time targets per corpus (ms, native release build). */
export const GREP_TARGET_MS = { file: 500, tree: 2000 };

export function rgVersion() {
  const r = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.split('\n')[0].trim() : null;
}

function fnv1a(lines) {
  let h = 2166136261;
  for (const line of lines) {
    for (const b of Buffer.from(`${line}\n`)) h = Math.imul(h ^ b, 16777619) >>> 0;
  }
  return h;
}

export function prepareGrep(work, smoke) {
  const corpus = writeGrepCorpus(join(work, 'grep'), smoke ? 0.1 : 1);
  const cases = {};
  for (const c of corpus.cases) {
    cases[c.name] = { pattern: c.pattern, corpus: c.corpus, native_ms: [], native_cpu_ms: [], rg_ms: [] };
  }
  return {
    rg: rgVersion(), root: corpus.dir, file_bytes: corpus.file_bytes, tree_bytes: corpus.tree_bytes, tree_files: corpus.tree_files,
    casesFile: corpus.casesFile, paths: Object.fromEntries(corpus.cases.map((c) => [c.name, c.path])), cases,
  };
}

export function runNativeGrep(nativeBin, grep, minTime) {
  const t0 = Date.now();
  const r = spawnSync(nativeBin, ['--actx_steps=', '--actx_memory_steps=0', `--actx_grep_cases=${grep.casesFile}`,
    '--benchmark_filter=^grep(_deliver)?/', `--actx_min_time=${minTime}`, '--benchmark_format=json'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`${nativeBin} (grep) failed (${r.status ?? r.signal}):\n${(r.stderr || '').slice(-3000)}`);
  for (const b of JSON.parse(r.stdout).benchmarks) {
    const [family, name] = b.name.split('/');
    const c = grep.cases[name];
    if (!c) continue;
    if (b.error_occurred) {
      c.error = b.error_message;
      continue;
    }
    if (family === 'grep_deliver') { // the wasm builds' measure, natively (grep_hosts.mjs)
      (c.native_deliver_cpu_ms ??= []).push(b.net_cpu_ms);
      continue;
    }
    const toMs = { ns: 1e-6, us: 1e-3, ms: 1, s: 1000 }[b.time_unit];
    c.native_ms.push(b.real_time * toMs);
    c.native_cpu_ms.push(b.cpu_time * toMs);
    Object.assign(c, { matches: b.matches, hash: b.hash, stopped: b.stopped === 1, budget: b.budget === 1 });
  }
  return (Date.now() - t0) / 1000;
}

export function runRipgrep(grep, reps) {
  if (!grep.rg) return 0;
  const t0 = Date.now();
  if (grep.rg_startup_ms === undefined) {
    const empty = `${grep.casesFile}.empty`;
    writeFileSync(empty, '');
    const times = [];
    for (let i = 0; i < 5; ++i) {
      const s = process.hrtime.bigint();
      spawnSync('rg', ['--no-config', '-e', 'x', empty]);
      times.push(Number(process.hrtime.bigint() - s) / 1e6);
    }
    grep.rg_startup_ms = Math.min(...times);
  }
  for (const [name, c] of Object.entries(grep.cases)) {
    const times = [];
    let out = '';
    for (let i = 0; i < reps; ++i) {
      const s = process.hrtime.bigint();
      const r = spawnSync('rg', ['--no-config', '-n', '-H', '--no-heading', '--color=never', '-e', c.pattern, grep.paths[name]],
        { encoding: 'utf8', maxBuffer: 256 << 20 });
      times.push(Number(process.hrtime.bigint() - s) / 1e6);
      if (r.status !== 0 && r.status !== 1) throw new Error(`rg ${name} failed (${r.status ?? r.signal}): ${r.stderr}`);
      out = r.stdout;
    }
    c.rg_ms.push(Math.min(...times));
    if (c.rg_lines === undefined) {
      const lines = out.split('\n').filter(Boolean).map((l) => {
        const m = /^(.*?):(\d+):/.exec(l);
        return [m[1], Number(m[2])];
      });
      lines.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
      c.rg_lines = lines.map(([p, n]) => `${p}:${n}`);
    }
  }
  return (Date.now() - t0) / 1000;
}

/** Per case: whether agentctx's lines are rg's first ones (null without rg). */
export function sameAsRipgrep(c) {
  if (!c.rg_lines || c.matches === undefined) return null;
  const k = c.matches;
  if (k > c.rg_lines.length || (!c.stopped && k !== c.rg_lines.length)) return false;
  return fnv1a(c.rg_lines.slice(0, k)) === c.hash;
}

export function grepProblems(grep, rounds) {
  const problems = [];
  if (!grep) return ['grep: did not run'];
  for (const [name, c] of Object.entries(grep.cases)) {
    if (c.error) {
      problems.push(`grep ${name}: ${c.error}`);
      continue;
    }
    if (c.native_ms.length !== rounds || !c.native_ms.every((x) => Number.isFinite(x) && x > 0)) {
      problems.push(`grep ${name}: times ${JSON.stringify(c.native_ms)}`);
    }
    const deliver = c.native_deliver_cpu_ms ?? [];
    if (deliver.length !== rounds || !deliver.every((x) => Number.isFinite(x) && x >= 0)) {
      problems.push(`grep ${name}: deliver times ${JSON.stringify(deliver)}`);
    }
    if (c.budget) problems.push(`grep ${name}: stopped by the work budget`);
    if (grep.rg && sameAsRipgrep(c) === false) {
      problems.push(`grep ${name}: ${c.matches} lines that are not ripgrep's first ones (rg: ${c.rg_lines?.length})`);
    }
  }
  return problems;
}

/** Medians of a case. */
export function grepPoint(c) {
  return {
    ms: median(c.native_ms), cpu: median(c.native_cpu_ms), rg: median(c.rg_ms),
    embind_cpu: median(c.embind_cpu_ms), wasi_cpu: median(c.wasi_cpu_ms),
    deliver_cpu: median(c.native_deliver_cpu_ms),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const arg = (name, fallback) => {
    const a = process.argv.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
    return a === undefined ? fallback : a.includes('=') ? a.slice(a.indexOf('=') + 1) : true;
  };
  const smoke = arg('smoke', false) === true;
  const rounds = Number(arg('rounds', 1));
  const work = mkdtempSync(join(tmpdir(), 'agentctx-grep-'));
  try {
    const grep = prepareGrep(work, smoke);
    for (let i = 0; i < rounds; ++i) {
      runNativeGrep(arg('native', 'build/bench/bench/agentctx_bench'), grep, smoke ? 0.01 : 0.2);
      runRipgrep(grep, smoke ? 1 : 3);
    }
    const problems = grepProblems(grep, rounds);
    for (const c of Object.values(grep.cases)) {
      c.same_as_rg = sameAsRipgrep(c);
      delete c.rg_lines;
    }
    process.stdout.write(JSON.stringify({ grep, problems }) + '\n');
    if (problems.length) process.exitCode = 1;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

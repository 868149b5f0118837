#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// `npm run fuzz -- --seconds N [--runs M] [--jobs J] [--nice] [--only NAME[,NAME]] [--no-build]
// [--build-dir DIR] [--summary FILE] [--no-record] [--corpus-cap-kb K]`: builds the `fuzz` preset
// (clang-14, -fsanitize=fuzzer,address,undefined; tests/fuzz/CMakeLists.txt; with --only, just
// those targets; in DIR instead of build/fuzz with --build-dir) and runs every libFuzzer target in
// tests/fuzz, J at a time (default 1: one after the other), for N seconds each (default 60;
// `--runs M` stops a target after M executions) from a build-tree copy of its corpus plus the
// committed corpus. Prints, per target, the executions, crashes, time and coverage from
// libFuzzer's final stats, and writes them to build/fuzz/fuzz-summary.json (or FILE).
// Fuzzing accumulates (unless --no-record): after the runs, each target's corpus is merged into
// the committed one, tests/fuzz/corpus/<name>/ (corpus_merge.mjs: hand-written seeds kept,
// libFuzzer's `-merge=1` picks a minimal set of the rest, capped at K KiB, default 1024), and a
// ledger row per target (date, executions, cumulative executions, new features, corpus size,
// crashes) is appended to docs/RELIABILITY.md, so executions add up across machines. libFuzzer's own output of each target goes to
// build/fuzz/logs/<name>.log as it runs (`tail -f` shows a long run's progress). On a shared
// machine the wall-clock rate says little, so each target's CPU time is sampled from
// /proc/<pid>/stat every few seconds (Linux; null elsewhere) and reported with the executions per
// CPU second. Exits 1 when any target crashed (its input is under build/fuzz/tests/fuzz/artifacts/);
// a timeout whose input runs in time when run again alone is reported, not counted as a crash.
import { createWriteStream, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve as resolvePath } from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { appendLedgerRows, mergeCorpus } from './fuzz/corpus_merge.mjs';

const usage = `usage: npm run fuzz -- [options]
  --seconds N         run each target N seconds (default 60)
  --runs M            stop a target after M executions
  --jobs J            run J targets at a time (default 1)
  --nice              run the targets at the lowest CPU priority
  --only A[,B]        build and run only these targets (names of tests/fuzz/*_fuzz.cc, less _fuzz)
  --no-build          use the targets already built
  --build-dir DIR     build in DIR instead of build/fuzz
  --summary FILE      write the summary JSON to FILE (default <build>/fuzz-summary.json)
  --no-record         do not merge the corpora or append ledger rows to docs/RELIABILITY.md
  --corpus-cap-kb K   cap each merged corpus at K KiB (default 1024)
  --help              print this and exit`;
const valued = ['seconds', 'runs', 'jobs', 'only', 'build-dir', 'summary', 'corpus-cap-kb'];
const flags = ['nice', 'no-build', 'no-record', 'help'];
let values;
try {
  ({ values } = parseArgs({
    options: Object.fromEntries([...valued.map((n) => [n, { type: 'string' }]), ...flags.map((n) => [n, { type: 'boolean' }])]),
  }));
} catch (err) {
  console.error(`fuzz: unknown or incomplete option (${err.message})\n${usage}`);
  process.exit(2);
}
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const opt = (name, fallback) => values[name] ?? fallback;
const seconds = Number(opt('seconds', '60'));
const runs = opt('runs', undefined);
const nice = values.nice === true;
const jobs = Number(opt('jobs', '1'));
const only = opt('only', undefined)?.split(',');
const record = values['no-record'] !== true;
const capKb = Number(opt('corpus-cap-kb', '1024'));
if (!Number.isFinite(seconds) || seconds <= 0) {
  console.error('fuzz: --seconds needs a positive number');
  process.exit(2);
}
if (!Number.isInteger(jobs) || jobs < 1) {
  console.error('fuzz: --jobs needs a positive whole number');
  process.exit(2);
}

if (!Number.isFinite(capKb) || capKb <= 0) {
  console.error('fuzz: --corpus-cap-kb needs a positive number');
  process.exit(2);
}

const root = new URL('..', import.meta.url).pathname;
const build = resolvePath(root, opt('build-dir', 'build/fuzz'));

// libFuzzer flags of one target. session: its executions touch ~19 000 features each, and the
// entropic schedule's per-feature bookkeeping took half of each execution (measured with perf:
// 85 vs 179 executions/s, the same coverage after 30 s); the classic schedule is used instead.
const targetFlags = { session: ['-entropic=0'] };

const names = readdirSync(join(root, 'tests/fuzz')).filter((f) => f.endsWith('_fuzz.cc'))
  .map((f) => f.replace(/_fuzz\.cc$/, '')).filter((n) => !only || only.includes(n)).sort();

if (values['no-build'] !== true) {
  const targets = only ? ['--target', ...names.map((n) => `${n}_fuzz`)] : [];
  for (const step of [['--preset', 'fuzz', '-B', build], ['--build', build, '-j', '2', ...targets]]) {
    const r = spawnSync('cmake', step, { cwd: root, stdio: 'inherit' });
    if (r.status !== 0) process.exit(r.status ?? 1);
  }
}

// User + system CPU seconds of a running process, from /proc/<pid>/stat (fields 14 and 15, in
// clock ticks: 100 a second on Linux), or null where there is no /proc.
function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

// libFuzzer's line once the corpus is loaded (a non-digit after the count: the line is whole).
const INITED = /INITED cov: \d+ ft: (\d+)\D/;

// Runs the input a timeout saved once more, alone and not niced, under the same limit: returns
// {input, rerun_seconds, starved} (starved: it finished in time, so the run only lacked CPU).
function recheckTimeout(exe, tail) {
  const input = /Test unit written to (\S+)/.exec(tail)?.[1];
  if (!input) return { input: null, rerun_seconds: null, starved: false };
  const started = Date.now();
  const r = spawnSync(exe, ['-timeout=10', '-rss_limit_mb=1024', input], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const rerun = (Date.now() - started) / 1000;
  return { input, rerun_seconds: rerun, starved: r.status === 0 };
}

function runTarget(name) {
  const exe = join(build, 'tests/fuzz', `${name}_fuzz`);
  const work = join(build, 'tests/fuzz/corpus', name);
  const artifacts = join(build, 'tests/fuzz/artifacts');
  const logs = join(build, 'logs');
  for (const dir of [work, artifacts, logs]) mkdirSync(dir, { recursive: true });
  const fuzzArgs = [`-max_total_time=${seconds}`, '-timeout=10', '-rss_limit_mb=1024', '-max_len=8192',
    '-print_final_stats=1', `-artifact_prefix=${artifacts}/${name}-`, ...(runs ? [`-runs=${runs}`] : []),
    ...(targetFlags[name] ?? []), work, join(root, 'tests/fuzz/corpus', name)];
  const [cmd, cmdArgs] = nice ? ['nice', ['-n', '19', exe, ...fuzzArgs]] : [exe, fuzzArgs];
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(cmd, cmdArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
    let tail = '';
    let head = '';
    const log = createWriteStream(join(logs, `${name}.log`));
    let cpu = null;
    const sampler = setInterval(() => { cpu = cpuSeconds(child.pid) ?? cpu; }, 2000);
    child.stderr.setEncoding('utf8').on('data', (d) => {
      if (!INITED.test(head)) head = (head + d).slice(-20000);
      tail = (tail + d).slice(-20000);
      log.write(d);
    });
    child.on('close', (code) => {
      clearInterval(sampler);
      log.end();
      const status = [...tail.matchAll(/cov: (\d+) ft: (\d+)/g)].at(-1);
      // Features found by this run: the last count minus the count once the corpus was loaded.
      const inited = INITED.exec(head);
      const execs = Number(/stat::number_of_executed_units:\s*(\d+)/.exec(tail)?.[1] ?? NaN);
      // A SIGINT (e.g. ending a long run early) makes libFuzzer print its stats and exit 72:
      // an interrupted run, not a crash.
      const interrupted = /libFuzzer: run interrupted/.test(tail);
      // libFuzzer's -timeout counts wall-clock time: at `nice -n 19` on a busy machine one input
      // can wait longer than that for a core. A timeout counts as a crash only if its input also
      // times out when run again alone, at normal priority.
      const timeout = /libFuzzer: timeout/.test(tail) ? recheckTimeout(exe, tail) : null;
      const crashed = !timeout?.starved &&
        ((code !== 0 && !interrupted) || /==\d+==ERROR|deadly signal|fuzz property failed|runtime error/.test(tail));
      resolve({ target: name, execs, crashes: crashed ? 1 : 0, seconds: Math.round((Date.now() - started) / 1000),
        ...(timeout ? { timeout } : {}),
        execs_per_second: Math.round(execs / Math.max(1, (Date.now() - started) / 1000)), exit: code, interrupted,
        coverage: status ? { edges: Number(status[1]), features: Number(status[2]) } : null,
        new_features: status && inited ? Math.max(0, Number(status[2]) - Number(inited[1])) : null,
        cpu_seconds: cpu, execs_per_cpu_second: cpu ? Math.round(execs / cpu) : null,
        flags: targetFlags[name] ?? [],
        ...(crashed ? { log_tail: tail.slice(-3000) } : {}) });
    });
  });
}

for (const name of names) {
  if (!existsSync(join(build, 'tests/fuzz', `${name}_fuzz`))) {
    console.error(`fuzz: ${name}_fuzz was not built`);
    process.exit(1);
  }
}
const results = [];
const queue = [...names];
async function lane() {
  for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
    const r = await runTarget(name);
    results.push(r);
    const cov = (r.cpu_seconds ? `  ${Math.round(r.cpu_seconds)} CPU s (${r.execs_per_cpu_second}/CPU s)` : '') +
      (r.coverage ? `  cov ${r.coverage.edges} ft ${r.coverage.features}` : '');
    console.log(`${r.target.padEnd(16)} ${String(r.execs).padStart(12)} execs  ${String(r.crashes).padStart(2)} crashes  ${String(r.seconds).padStart(6)} s  (${r.execs_per_second}/s)${cov}`);
    if (r.crashes) console.log(r.log_tail);
    if (r.timeout?.starved) {
      console.log(`${r.target.padEnd(16)} stopped by a timeout that did not recur: ${r.timeout.input} runs in ` +
        `${r.timeout.rerun_seconds.toFixed(2)} s alone (the niced run waited for a core); not counted as a crash`);
    }
  }
}
await Promise.all(Array.from({ length: Math.min(jobs, names.length) }, lane));
results.sort((a, b) => a.target.localeCompare(b.target));
if (record) {
  for (const r of results) {
    r.corpus = mergeCorpus({
      exe: join(build, 'tests/fuzz', `${r.target}_fuzz`), committed: join(root, 'tests/fuzz/corpus', r.target),
      work: join(build, 'tests/fuzz/corpus', r.target), staging: join(build, 'tests/fuzz/merged', r.target),
      capBytes: capKb * 1024, flags: targetFlags[r.target] ?? [],
    });
    const c = r.corpus;
    console.log(`${r.target.padEnd(16)} corpus ${c.files} files, ${Math.ceil(c.bytes / 1024)} KiB (+${c.added} -${c.removed}` +
      `${c.dropped ? `, ${c.dropped} over the cap left out` : ''})`);
  }
  const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).stdout?.trim() || '?';
  const ledger = join(root, 'docs/RELIABILITY.md');
  appendLedgerRows(ledger, results.map((r) => ({ ...r, commit, date: new Date().toISOString().slice(0, 10) })));
  console.log(`fuzz: corpora merged into tests/fuzz/corpus/, ledger rows appended to docs/RELIABILITY.md`);
}
writeFileSync(opt('summary', join(build, 'fuzz-summary.json')), JSON.stringify({ seconds_per_target: seconds, runs_per_target: runs ? Number(runs) : null, jobs, results }, null, 2) + '\n');
process.exit(results.some((r) => r.crashes) ? 1 : 0);

#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// `npm run stress [-- --trials N] [--only-crash | --only-hostile] [--case TEXT]`: the reliability suites at
// full size (docs/RELIABILITY.md), on the assembled WASI CLI (wasm/dist/wasi):
//  1. crash consistency: N seeded kill -9 trials (default 110: 70 during `run`, 40 during
//     `resume`; tests/stress/crash_trials.mjs), none may lose anything;
//  2. the hostile-input catalogue at full size (tests/stress/hostile_cases.mjs): each
//     case's expected outcome, and no case over 10 s (a case may set a longer timeBoundMs for
//     work that is long by nature: 2 000 turns) or 1 GB of max RSS.
// Writes build/stress/report.md (tables) and build/stress/report.json; exits 1 on any failure.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadHost } from '../wasi-host/test/helpers.mjs';
import { prepare, trial } from '../tests/stress/crash_trials.mjs';
import { CASES, runCase } from '../tests/stress/hostile_cases.mjs';

const args = process.argv.slice(2);
const at = args.indexOf('--trials');
const trials = at === -1 ? 110 : Number(args[at + 1]);
const root = new URL('..', import.meta.url).pathname;
const out = join(root, 'build/stress');
mkdirSync(out, { recursive: true });
await loadHost();

const report = { crash: null, hostile: [] };
let failed = false;
const md = ['# Stress run', '', `${new Date().toISOString()}, node ${process.version}`, ''];

if (!args.includes('--only-hostile')) {
  const { fx, finalBytes } = await prepare(12);
  const started = Date.now();
  const rows = [];
  const runTrials = Math.round(trials * 7 / 11);
  for (let i = 0; i < trials; i++) {
    const mode = i < runTrials ? 'run' : 'resume';
    const r = await trial(fx, mode, 1000 + i, { finalBytes });
    rows.push(r);
    if (r.problems.length) {
      failed = true;
      console.log(`crash trial ${mode} seed ${r.seed}: ${r.problems.join('; ')}`);
    }
    if ((i + 1) % 10 === 0) console.log(`crash trials: ${i + 1}/${trials}`);
  }
  fx.cleanup();
  const sum = (m) => rows.filter((r) => r.mode === m);
  const line = (m) => {
    const rs = sum(m);
    return `| ${m} | ${rs.length} | ${rs.filter((r) => r.killed).length} | ${rs.filter((r) => r.tornTail).length} | ${rs.filter((r) => r.problems.length).length} | ${Math.round(rs.reduce((a, r) => a + r.ms, 0) / Math.max(1, rs.length))} |`;
  };
  report.crash = { trials, seconds: Math.round((Date.now() - started) / 1000), rows };
  md.push('## Crash consistency (kill -9)', '', '| killed during | trials | killed before the end | torn tails resumed | trials with a problem | ms per trial |', '|---|---|---|---|---|---|', line('run'), line('resume'), '', `${report.crash.seconds} s in all.`, '');
  console.log(md.slice(-7).join('\n'));
}

if (!args.includes('--only-crash')) {
  md.push('## Hostile inputs', '', '| case | size | outcome | time (ms) | max RSS (MB) |', '|---|---|---|---|---|');
  const pick = args.indexOf('--case') === -1 ? undefined : args[args.indexOf('--case') + 1];
  for (const c of CASES.filter((x) => pick === undefined || x.name.includes(pick))) {
    const r = await runCase(c, 'stress');
    const bounds = [];
    if (r.ms > r.timeBoundMs) bounds.push(`over ${r.timeBoundMs / 1000} s`);
    if (r.rssMb > 1024) bounds.push('over 1 GB');
    const problems = [...r.failed, ...bounds];
    if (problems.length) failed = true;
    report.hostile.push({ ...r, problems });
    const row = `| ${r.name} | ${r.size} ${r.unit} | ${problems.length ? 'FAIL: ' + problems.join(', ') : 'as expected'} | ${r.ms} | ${r.rssMb.toFixed(0)} |`;
    md.push(row);
    console.log(row);
    if (problems.length) console.log(r.stderr);
  }
  md.push('');
}

writeFileSync(join(out, 'report.md'), md.join('\n') + '\n');
writeFileSync(join(out, 'report.json'), JSON.stringify(report, null, 2) + '\n');
console.log(`stress: ${failed ? 'FAILED' : 'ok'} (build/stress/report.md)`);
process.exit(failed ? 1 : 0);

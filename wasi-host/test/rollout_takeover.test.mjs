// SPDX-License-Identifier: MIT
// Regression: processes that find the same stale rollout lock take it over atomically — exactly
// one of them holds the lock afterwards (the old unlink-then-create let two hold it: one
// removed the lock the other had just made) — and two `resume` processes started together on
// one rollout never both append to one file.
// The takeover race is run as many bounded trials: worker threads (real parallel threads, each
// calling acquireRolloutLock synchronously) start together on a fresh stale lock each trial, and
// every winner keeps the lock until all have tried; a trial with two winners fails the test.
import { test, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, readdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { DIST, listFiles, readJsonl, runCli, tempTree } from './helpers.mjs';

const tmp = tempTree({ 'ws/a.txt': 'A\n', 'locks/r.jsonl': '', 'elsewhere/': '' });
after(tmp.cleanup);
const ws = join(tmp.dir, 'ws');

/** A pid that no longer runs (a node process that has exited). */
function deadPid() {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

const WORKER = `
const { workerData } = require('node:worker_threads');
(async () => {
  const { acquireRolloutLock } = await import(workerData.module);
  const ctl = new Int32Array(workerData.sab);
  const waitFor = (i, atLeast) => {
    const until = Date.now() + 20000;
    for (let v = Atomics.load(ctl, i); v < atLeast; v = Atomics.load(ctl, i)) {
      if (Date.now() > until) throw new Error('the trial never went on');
      Atomics.wait(ctl, i, v, 100);
    }
  };
  Atomics.add(ctl, 4, 1); // ready
  Atomics.notify(ctl, 4);
  for (let t = 1; t <= workerData.trials; t++) {
    waitFor(0, t); // trial t started
    let lock;
    try {
      lock = acquireRolloutLock(workerData.rollout);
    } catch (e) {
      if (e.name !== 'RolloutLockedError') Atomics.add(ctl, 5, 1); // anything else is a failure
    }
    if (lock) Atomics.add(ctl, 1, 1);
    Atomics.add(ctl, 2, 1);
    Atomics.notify(ctl, 2);
    waitFor(2, workerData.workers * t); // everyone has tried: the winner may let go
    lock?.release();
    Atomics.add(ctl, 3, 1);
    Atomics.notify(ctl, 3);
  }
})().catch(() => Atomics.add(new Int32Array(workerData.sab), 5, 1000));
`;

/**
 * Runs `trials` takeover races of `workers` threads on `rollout`, each on a new stale lock; returns
 * {winners: [per trial], failures}.
 */
async function race(rollout, workers, trials) {
  const sab = new SharedArrayBuffer(6 * 4);
  const ctl = new Int32Array(sab);
  const module = pathToFileURL(join(DIST, 'rollout_lock.js')).href;
  const threads = Array.from({ length: workers }, () => new Worker(WORKER, { eval: true, workerData: { module, sab, rollout, workers, trials } }));
  const exited = threads.map((w) => new Promise((r) => w.on('exit', r)));
  const wait = async (i, atLeast) => {
    const until = Date.now() + 20000;
    while (Atomics.load(ctl, i) < atLeast) {
      if (Date.now() > until || Atomics.load(ctl, 5) >= 1000) throw new Error(`the workers stopped (counter ${i} at ${Atomics.load(ctl, i)} of ${atLeast})`);
      await Atomics.waitAsync(ctl, i, Atomics.load(ctl, i), 100).value;
    }
  };
  const winners = [];
  const dead = deadPid();
  try {
    await wait(4, workers);
    for (let t = 1; t <= trials; t++) {
      // A fresh stale lock each trial (its own token: a distinct lock, as after a crash).
      writeFileSync(`${rollout}.lock`, JSON.stringify({ pid: dead, hostname: hostname(), started_at: '2024-01-02T03:04:05.000Z', token: `stale-${t}` }) + '\n');
      Atomics.store(ctl, 1, 0);
      Atomics.store(ctl, 0, t);
      Atomics.notify(ctl, 0);
      await wait(3, workers * t);
      winners.push(Atomics.load(ctl, 1));
    }
  } finally {
    await Promise.all(exited);
  }
  return { winners, failures: Atomics.load(ctl, 5) };
}

describe('Regression: a stale rollout lock is taken over by exactly one process', () => {
  test('4 threads × 800 trials on a fresh stale lock: one winner every time, no claim file left', { timeout: 120_000 }, async () => {
    const rollout = join(tmp.dir, 'locks', 'r.jsonl');
    const { winners, failures } = await race(rollout, 4, 800);
    assert.equal(failures, 0, 'an acquire failed with something other than rollout_locked');
    const doubles = winners.map((w, i) => [i + 1, w]).filter(([, w]) => w !== 1);
    assert.deepEqual(doubles, [], 'trials whose winner count is not 1: [trial, winners]');
    assert.deepEqual(readdirSync(join(tmp.dir, 'locks')), ['r.jsonl'], 'a lock or claim file was left behind');
  });

  test('a claim left by a claimant that died is taken over too', async () => {
    const { acquireRolloutLock } = await import(join(DIST, 'rollout_lock.js'));
    const rollout = join(tmp.dir, 'locks', 'claimed.jsonl');
    const stale = JSON.stringify({ pid: deadPid(), hostname: hostname(), started_at: '2024-01-02T03:04:05.000Z', token: 'old' }) + '\n';
    writeFileSync(`${rollout}.lock`, stale);
    const { createHash } = await import('node:crypto');
    const claim = `${rollout}.lock.takeover-${createHash('sha256').update(stale).digest('hex').slice(0, 16)}`;
    writeFileSync(claim, JSON.stringify({ pid: deadPid(), hostname: hostname(), started_at: '2024-01-02T03:04:06.000Z', token: 'claimant' }) + '\n');
    const notes = [];
    const lock = acquireRolloutLock(rollout, (line) => notes.push(line));
    assert.equal(notes.length, 1);
    assert.match(notes[0], /took over the stale lock .*claimed\.jsonl\.lock \(pid \d+ is no longer running\)/);
    lock.release();
    assert.deepEqual(readdirSync(join(tmp.dir, 'locks')).filter((f) => f.startsWith('claimed')), []);
  });
});

describe('Regression: two resumes of one rollout started together never append to one file from two starts', () => {
  /** A finished mock session: returns {home, rollout}. */
  async function finished(name) {
    const home = join(tmp.dir, name);
    const r = await runCli(['run', '--workspace', ws, '--home', home, 'first'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const [file] = listFiles(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl'));
    return { home, rollout: join(home, 'sessions', file) };
  }
  const turnIds = (file) => readJsonl(file).filter((l) => l.type === 'event_msg' && l.payload.type === 'task_started').map((l) => l.payload.turn_id);

  test('in place: each turn id once; a resume that finds the other running is refused with rollout_locked', async () => {
    const { home, rollout } = await finished('home-inplace');
    for (let round = 0; round < 5; round++) {
      const runs = await Promise.all(['x', 'y'].map((p) => runCli(['resume', '--workspace', ws, '--home', home, rollout, `${p}${round}`], { cwd: ws })));
      for (const r of runs) {
        if (r.code !== 0) {
          assert.equal(r.code, 1, r.stderr);
          assert.match(r.stderr, /^agentctx: rollout_locked: .* is being written by another agentctx process/m);
        }
      }
      const ids = turnIds(rollout);
      assert.equal(new Set(ids).size, ids.length, `duplicate turn ids: ${ids.join(', ')}`);
    }
  });

  test('a rollout outside the home: each resume continues its own copy, whole and with unique turn ids', async () => {
    const { rollout } = await finished('home-source');
    const foreign = join(tmp.dir, 'elsewhere', 'shared.jsonl');
    copyFileSync(rollout, foreign);
    const home = join(tmp.dir, 'home-copies');
    for (let round = 0; round < 5; round++) {
      const runs = await Promise.all(['x', 'y'].map((p) => runCli(['resume', '--workspace', ws, '--home', home, foreign, `${p}${round}`], { cwd: ws })));
      for (const r of runs) assert.equal(r.code, 0, r.stderr);
    }
    const copies = listFiles(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl'));
    assert.equal(copies.length, 10, `two resumes shared a copy: ${copies.join(', ')}`);
    for (const c of copies) {
      const ids = turnIds(join(home, 'sessions', c));
      assert.deepEqual(ids, ['turn-1', 'turn-2'], `${c}: ${ids.join(', ')}`);
    }
  });
});

// SPDX-License-Identifier: MIT
// The rollout lock (`<rollout>.lock`): a process appending to a rollout (run, the REPL, resume)
// holds it; a second writer is refused with the holder's pid and the lock path, exit 1, and
// nothing appended; a stale lock (dead pid, unreadable content) is taken over with a note; the
// lock is held during a run and gone after a completed or failed turn, a REPL, Ctrl-C and
// SIGTERM. Local servers on 127.0.0.1 keep a process inside its turn: one never answers, one
// answers when the test says so.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { DIST, listFiles, loadHost, runCli, tempTree } from './helpers.mjs';

const { WasiGuest } = await loadHost();
const { acquireRolloutLock, RolloutLockedError } = await import(join(DIST, 'rollout_lock.js'));
const tmp = tempTree({ 'ws/a.txt': 'A\n' });
after(tmp.cleanup);
const ws = join(tmp.dir, 'ws');

// Answers headers, then nothing: the request stays open until the client gives up.
const hanging = [];
const hang = createServer((req, res) => {
  hanging.push(req.url);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(': keepalive\n\n');
});
// Holds each request until the test answers it (`gated`: {body, res}), so a test can look at
// the lock while the run is known to be inside its turn.
const gated = [];
const gate = createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  gated.push({ body: Buffer.concat(chunks).toString('utf8'), res });
});
const mockGuest = await WasiGuest.load();
let hangBase;
let gateBase;
before(async () => {
  await new Promise((r) => hang.listen(0, '127.0.0.1', r));
  await new Promise((r) => gate.listen(0, '127.0.0.1', r));
  hangBase = `http://127.0.0.1:${hang.address().port}/v1`;
  gateBase = `http://127.0.0.1:${gate.address().port}/v1`;
});
after(() => {
  for (const s of [hang, gate]) {
    s.closeAllConnections();
    s.close();
  }
});

const rolloutsIn = (home) => listFiles(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl')).map((f) => join(home, 'sessions', f));
const locksIn = (home) => listFiles(join(home, 'sessions')).filter((f) => !f.endsWith('.jsonl'));

let n = 0;
/** A finished mock session: returns {home, rollout}. */
async function finishedSession() {
  const home = join(tmp.dir, `home-${++n}`);
  const r = await runCli(['run', '--workspace', ws, '--home', home, 'first'], { cwd: ws });
  assert.equal(r.code, 0, r.stderr);
  const [rollout] = rolloutsIn(home);
  return { home, rollout };
}

/** A pid that no longer runs (a node process that has exited). */
function deadPid() {
  const r = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(r.stdout);
}

/** Starts `args` and resolves {child, done} once the hanging server got its request. */
async function startBusy(args) {
  hanging.length = 0;
  let child;
  const done = runCli(args, { cwd: ws, timeoutMs: 30000, onSpawn: (c) => { child = c; } });
  const started = Date.now();
  while (hanging.length === 0) {
    if (Date.now() - started > 20000) throw new Error('the first process never called the model');
    await new Promise((r) => setTimeout(r, 20));
  }
  return { child, done };
}

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('Regression: two processes appending to one rollout', () => {
  test('a second resume while the first holds the lock is refused, naming the pid and the lock path; nothing is appended', async () => {
    const { home, rollout } = await finishedSession();
    const first = await startBusy(['resume', '--base-url', hangBase, '--request-timeout-ms', '60000', '--workspace', ws, '--home', home, rollout, 'busy']);
    const lock = `${rollout}.lock`;
    assert.ok(existsSync(lock), 'the first process holds no lock');
    assert.equal(JSON.parse(readFileSync(lock, 'utf8')).pid, first.child.pid);
    const before = readFileSync(rollout);
    const second = await runCli(['resume', '--workspace', ws, '--home', home, rollout, 'second'], { cwd: ws });
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stderr, new RegExp(`^agentctx: rollout_locked: ${escape(rollout)} is being written by another agentctx process ` +
      `\\(pid ${first.child.pid}, since [^;]+; lock file ${escape(lock)}\\): nothing was appended;`, 'm'));
    assert.equal(second.stdout, '');
    assert.deepEqual(readFileSync(rollout), before, 'the refused process wrote to the rollout');
    assert.equal(JSON.parse(readFileSync(lock, 'utf8')).pid, first.child.pid, 'the refused process touched the lock');
    // Ctrl-C ends the first one (exit 130); its lock goes with it.
    first.child.kill('SIGINT');
    const r = await first.done;
    assert.equal(r.code, 130, r.stderr);
    assert.deepEqual(locksIn(home), []);
    // Now the rollout is free again. The interrupted turn recorded the hanging base URL, which a
    // resume would go on with: a --config file takes the session back to the embedded mock.
    const offline = join(tmp.dir, `offline-${n}.json`);
    writeFileSync(offline, '{"base_url":null}');
    const third = await runCli(['resume', '--config', offline, '--workspace', ws, '--home', home, rollout, 'third'], { cwd: ws });
    assert.equal(third.code, 0, third.stderr);
    assert.equal(third.stdout, 'Mock reply to: third\n');
    assert.match(third.stderr, /^agentctx: resuming with base-url none \(the embedded mock\) from --config .* \(the session used http:\/\/127\.0\.0\.1:\d+\/v1\)$/m);
  });

  test('a resume of the rollout a running `run` is writing is refused', async () => {
    const home = join(tmp.dir, `home-${++n}`);
    const first = await startBusy(['run', '--base-url', hangBase, '--request-timeout-ms', '60000', '--workspace', ws, '--home', home, 'busy']);
    const [rollout] = rolloutsIn(home);
    const second = await runCli(['resume', '--workspace', ws, '--home', home, rollout, 'second'], { cwd: ws });
    assert.equal(second.code, 1, second.stderr);
    assert.match(second.stderr, new RegExp(`\\(pid ${first.child.pid}, since [^;]+; lock file ${escape(rollout)}\\.lock\\)`));
    // SIGTERM ends the first one by the signal; the lock is removed on the way out.
    first.child.kill('SIGTERM');
    const r = await first.done;
    assert.equal(r.code, 'signal SIGTERM', r.stderr);
    assert.deepEqual(locksIn(home), []);
  });

  test('the same code path called twice in one process: the second acquire is refused', () => {
    const { dir, cleanup } = tempTree({ 'r.jsonl': '' });
    try {
      const rollout = join(dir, 'r.jsonl');
      const lock = acquireRolloutLock(rollout);
      assert.throws(() => acquireRolloutLock(rollout), (e) => e instanceof RolloutLockedError && e.code === 'rollout_locked' &&
        e.holder.pid === process.pid && e.lockPath === `${rollout}.lock` && e.message.includes(`pid ${process.pid}`));
      lock.release();
      assert.ok(!existsSync(`${rollout}.lock`));
      acquireRolloutLock(rollout).release();
    } finally {
      cleanup();
    }
  });

  test('a lock held by a live process on this host (this test) refuses resume', async () => {
    const { home, rollout } = await finishedSession();
    const holder = JSON.stringify({ pid: process.pid, hostname: hostname(), started_at: '2024-01-02T03:04:05.000Z', token: 'test' });
    writeFileSync(`${rollout}.lock`, holder);
    const before = readFileSync(rollout);
    const r = await runCli(['resume', '--json', '--workspace', ws, '--home', home, rollout, 'again'], { cwd: ws });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, new RegExp(`\\(pid ${process.pid}, since 2024-01-02T03:04:05\\.000Z; lock file ${escape(rollout)}\\.lock\\)`));
    assert.deepEqual(readFileSync(rollout), before);
    assert.equal(readFileSync(`${rollout}.lock`, 'utf8'), holder, 'someone else\'s lock was removed');
  });
});

describe('Regression: a stale rollout lock is taken over with a note', () => {
  for (const [name, content, reason] of [
    ['a dead pid', () => JSON.stringify({ pid: deadPid(), hostname: hostname(), started_at: '2024-01-02T03:04:05.000Z', token: 'old' }), /pid \d+ is no longer running/],
    ['unreadable garbage', () => '\u0000garbage{', /its content is unreadable/],
  ]) {
    test(name, async () => {
      const { home, rollout } = await finishedSession();
      const lock = `${rollout}.lock`;
      writeFileSync(lock, content());
      const r = await runCli(['resume', '--workspace', ws, '--home', home, rollout, 'again'], { cwd: ws });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'Mock reply to: again\n');
      assert.match(r.stderr, new RegExp(`^agentctx: note: took over the stale lock ${escape(lock)} \\(${reason.source}\\)$`, 'm'));
      assert.deepEqual(locksIn(home), []);
    });
  }
});

describe('Regression: the rollout lock is held while a run writes and gone after it ends', () => {
  /** Starts `run` against the gated server; resolves once its lock was seen, with the answer to give. */
  async function heldThenAnswered(answer) {
    const home = join(tmp.dir, `home-${++n}`);
    gated.length = 0;
    let child;
    const done = runCli(['run', '--base-url', gateBase, '--max-retries', '0', '--workspace', ws, '--home', home, 'hello'],
      { cwd: ws, timeoutMs: 30000, onSpawn: (c) => { child = c; } });
    const started = Date.now();
    while (gated.length === 0) {
      if (Date.now() - started > 20000) throw new Error('the run never called the model');
      await new Promise((r) => setTimeout(r, 20));
    }
    const [rollout] = rolloutsIn(home);
    assert.deepEqual(locksIn(home), [`${rollout.split('/').at(-1)}.lock`]);
    assert.equal(JSON.parse(readFileSync(`${rollout}.lock`, 'utf8')).pid, child.pid);
    answer(gated[0]);
    return { ...(await done), home };
  }

  test('a completed turn', async () => {
    const r = await heldThenAnswered(({ body, res }) => {
      const sse = JSON.parse(mockGuest.call(0, 'mock.respond', JSON.stringify({ endpoint: 'responses', body, now_ms: 0 }))).value.body;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse);
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Mock reply to: hello\n');
    assert.deepEqual(locksIn(r.home), []);
  });

  test('a failed turn', async () => {
    const r = await heldThenAnswered(({ res }) => {
      res.writeHead(400, { 'content-type': 'application/json' });
      res.end('{"error":{"code":"invalid_prompt","message":"no"}}');
    });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /turn turn-1 failed: invalid_request/);
    assert.deepEqual(locksIn(r.home), []);
  });

  test('a REPL over a resumed rollout', async () => {
    const { home, rollout } = await finishedSession();
    const repl = await runCli(['resume', '--workspace', ws, '--home', home, rollout], { cwd: ws, input: 'one\ntwo\n/exit\n' });
    assert.equal(repl.code, 0, repl.stderr);
    assert.deepEqual(locksIn(home), []);
  });
});

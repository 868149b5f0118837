// SPDX-License-Identifier: MIT
// No per-session leaks: 10 000 sessions opened and closed leave 0 handles; the
// FinalizationRegistry closes sessions dropped without close() and deletes the native Engine of
// an engine dropped without dispose() (never while one of its sessions is reachable).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { setTimeout as sleep } from 'node:timers/promises';

import { createEngine, createMemoryFileSystem } from 'agentctx';
import { wrapEngine } from '../dist/engine.js';

test('10 000 sessions opened and closed leave 0 open handles', async () => {
  const engine = await createEngine();
  const sessions = [];
  for (let i = 0; i < 10000; i++) sessions.push(engine.openSession());
  assert.equal(engine.stats().open_handles, 10000);
  assert.equal(new Set(sessions.map((s) => s.handle)).size, 10000);
  for (const s of sessions) s.close();
  assert.equal(engine.stats().open_handles, 0);
  engine.dispose();
});

test('10 000 sessions with a memory FileSystem: 0 handles after close', async () => {
  const engine = await createEngine();
  const fs = createMemoryFileSystem({ '/w/a.txt': 'a' });
  for (let i = 0; i < 10000; i++) engine.openSession({ workspace: fs }).close();
  assert.equal(engine.stats().open_handles, 0);
  engine.dispose();
});

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc');

test('dropped sessions are closed by the FinalizationRegistry', { timeout: 30000 }, async () => {
  const engine = await createEngine();
  (() => {
    for (let i = 0; i < 100; i++) engine.openSession();
  })();
  assert.equal(engine.stats().open_handles, 100);
  for (let i = 0; i < 100 && engine.stats().open_handles > 0; i++) {
    gc();
    await sleep(20);
  }
  assert.equal(engine.stats().open_handles, 0);
  engine.dispose();
});

async function collectUntil(condition) {
  for (let i = 0; i < 100 && !condition(); i++) {
    gc();
    await sleep(20);
  }
  return condition();
}

test('a session keeps its engine alive; a dropped engine deletes its native Engine', { timeout: 30000 }, async () => {
  // A stand-in for the Embind Engine, so deletion is observable (internal wrapEngine).
  let deleted = 0;
  const native = {
    open: () => 1,
    call: () => '{"v":1,"ok":true,"value":{"open_handles":1}}',
    inputBuffer: (n) => new Uint8Array(n),
    attachmentCount: () => 0,
    attachment: () => new Uint8Array(0),
    close() {},
    version: () => '0.0.0',
    delete() { deleted++; },
  };
  let session = wrapEngine(native).openSession();
  assert.equal(await collectUntil(() => deleted > 0), false);
  assert.equal(session.closed, false);
  assert.equal(session.engine.stats().open_handles, 1);
  session = undefined;
  assert.equal(await collectUntil(() => deleted > 0), true);
  assert.equal(deleted, 1);
});

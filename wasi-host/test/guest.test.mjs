// SPDX-License-Identifier: MIT
// WasiGuest (wasi-host/src/guest.ts) against the real reactor with a temp dir preopened:
// envelopes on handle 0, error envelopes, bad handles, session slots, UTF-8 and memory growth,
// load failures.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, WASM, loadHost, tempTree } from './helpers.mjs';

const { WasiGuest, AgentctxHostError, ABI_VERSION } = await loadHost();
const version = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).version;
const ws = tempTree({ 'a.txt': 'AAA' });
after(ws.cleanup);
const guest = await WasiGuest.load({ workspace: ws.dir });

test('version on the engine handle', () => {
  assert.equal(ABI_VERSION, 2);
  assert.equal(guest.call(0, 'version', '{}'), `{"v":1,"ok":true,"value":{"version":"${version}"}}`);
});

test('config.echo canonicalises and keeps UTF-8', () => {
  const r = guest.callResult(0, 'config.echo', '{"z":1,"a":{"y":null,"b":"é😀"}}');
  assert.equal(r.ok, true);
  assert.equal(r.envelope,
    `{"v":1,"ok":true,"value":{"config":{"a":{"b":"é😀","y":null},"z":1},"version":"${version}"}}`);
});

test('invalid JSON is an error envelope, not a throw', () => {
  const r = guest.callResult(0, 'config.echo', '{nope');
  assert.equal(r.ok, false);
  assert.equal(r.envelope,
    '{"v":1,"ok":false,"error":{"code":"invalid_json","message":"invalid JSON at byte 1: Missing a name for object member.","details":{"offset":"1"}}}');
  assert.equal(JSON.parse(guest.call(0, 'config.echo', '')).error.code, 'invalid_json');
  assert.equal(JSON.parse(guest.call(0, 'config.echo', '[1]')).error.code, 'invalid_input');
  assert.equal(JSON.parse(guest.call(0, 'no.such', '{}')).error.code, 'unknown_method');
});

test('bad handles raise bad_handle and the guest stays usable', () => {
  for (const h of [7777, 2 ** 32 - 1]) {
    assert.throws(() => guest.call(h, 'version', '{}'),
      (e) => e instanceof AgentctxHostError && e.code === 'bad_handle');
  }
  const h = guest.open();
  guest.close(h);
  assert.throws(() => guest.call(h, 'fs.stat', '{}'), (e) => e.code === 'bad_handle');
  guest.close(h); // twice: ignored
  assert.equal(guest.trapped, false);
  assert.equal(JSON.parse(guest.call(0, 'version', '{}')).ok, true);
});

test('session slots are counted, independent and closable', () => {
  const stats = () => JSON.parse(guest.call(0, 'stats', '{}')).value.open_handles;
  const before = stats();
  const a = guest.open();
  const b = guest.open();
  assert.notEqual(a, b);
  assert.equal(stats(), before + 2);
  const ra = guest.call(a, 'fs.read', '{"fs":"workspace","path":"/workspace/a.txt"}');
  const rb = guest.call(b, 'fs.stat', '{"fs":"workspace","path":"/workspace/a.txt"}');
  assert.equal(ra, '{"v":1,"ok":true,"value":{"text":"AAA","bytes":3}}');
  assert.match(rb, /^\{"v":1,"ok":true,"value":\{"kind":"file","size":3,"mtime_ms":\d+\}\}$/);
  guest.close(a);
  guest.close(b);
  assert.equal(stats(), before);
});

test('large inputs grow memory and come back intact', () => {
  const big = 'x'.repeat(3 * 1024 * 1024) + 'é';
  const r = JSON.parse(guest.call(0, 'config.echo', JSON.stringify({ big })));
  assert.equal(r.value.config.big, big);
  assert.equal(guest.call(0, 'version', '{}'), `{"v":1,"ok":true,"value":{"version":"${version}"}}`);
});

test('guests are independent instances', async () => {
  const other = await WasiGuest.load({ workspace: ws.dir });
  const h = other.open();
  assert.equal(JSON.parse(other.call(0, 'stats', '{}')).value.open_handles, 1);
  other.close(h);
});

test('load failures are module_load_failed', async () => {
  await assert.rejects(WasiGuest.load({ wasm: join(ws.dir, 'missing.wasm') }),
    (e) => e instanceof AgentctxHostError && e.code === 'module_load_failed');
  await assert.rejects(WasiGuest.load({ wasm: new Uint8Array([0, 1, 2, 3]) }),
    (e) => e.code === 'module_load_failed');
  await assert.rejects(WasiGuest.load({ workspace: join(ws.dir, 'no-such-dir') }),
    (e) => e.code === 'module_load_failed');
  // The default module is the one next to guest.js.
  assert.ok((await WasiGuest.load({ wasm: readFileSync(WASM) })).call(0, 'version', '{}'));
});

// Listing is never quadratic: a large directory is listed whole, each entry once, in time
// linear in its size (one fd_readdir per doubling of the buffer, not one re-read per batch).
test('Regression: a directory of 20 000 files lists every entry once', async () => {
  const { mkdtempSync, writeFileSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const dir = mkdtempSync(join(tmpdir(), 'agentctx-bigdir-'));
  try {
    for (let i = 0; i < 20000; i++) writeFileSync(join(dir, `file-${String(i).padStart(5, '0')}.txt`), '');
    const g = await WasiGuest.load({ workspace: dir });
    const h = g.open();
    const r = JSON.parse(g.call(h, 'fs.list', '{"fs":"workspace","path":"/workspace"}'));
    assert.equal(r.ok, true, JSON.stringify(r.error));
    const names = r.value.entries.map((e) => e.name);
    assert.equal(names.length, 20000);
    assert.equal(new Set(names).size, 20000);
    assert.ok(r.value.entries.every((e) => e.kind === 'file'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// SPDX-License-Identifier: MIT
// The package API over the built wasm/dist, through `import 'agentctx'` (the workspace link):
// version, canonical config.echo, typed errors, generic calls, disposal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

import { AgentctxError, ERROR_CODES, createEngine, isErrorCode } from 'agentctx';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

test('version() and the version method match wasm/package.json', async () => {
  const engine = await createEngine();
  assert.equal(engine.version(), pkg.version);
  assert.deepEqual(engine.call('version'), { version: pkg.version });
  engine.dispose();
});

test('the module load is memoized and engines are independent', async () => {
  const [a, b] = await Promise.all([createEngine(), createEngine()]);
  const session = a.openSession();
  assert.equal(a.stats().open_handles, 1);
  assert.equal(b.stats().open_handles, 0);
  session.close();
  a.dispose();
  b.dispose();
});

test('config.echo answers the canonical config (sorted keys, nulls kept) and the version', async () => {
  const engine = await createEngine();
  assert.equal(
    engine.callRaw('config.echo', '{"z":{"y":1,"b":[true,null]},"a":"\\u00e9","m":null}'),
    `{"v":1,"ok":true,"value":{"config":{"a":"é","m":null,"z":{"b":[true,null],"y":1}},"version":"${pkg.version}"}}`,
  );
  const value = engine.call('config.echo', { session_id: 's1', model: 'm' });
  assert.equal(JSON.stringify(value), `{"config":{"model":"m","session_id":"s1"},"version":"${pkg.version}"}`);
  engine.dispose();
});

test('invalid JSON becomes AgentctxError invalid_json, and the engine keeps working', async () => {
  const engine = await createEngine();
  for (const bad of ['{bad', '', '{"a":1', '[1,]', '\u0000']) {
    assert.throws(() => engine.callJson('config.echo', bad), (err) => {
      assert.ok(err instanceof AgentctxError);
      assert.ok(err instanceof Error);
      assert.equal(err.name, 'AgentctxError');
      assert.equal(err.code, 'invalid_json');
      assert.equal(typeof err.message, 'string');
      return true;
    }, JSON.stringify(bad));
  }
  // The raw envelope is returned, not thrown.
  const raw = JSON.parse(engine.callRaw('config.echo', '{bad'));
  assert.equal(raw.v, 1);
  assert.equal(raw.ok, false);
  assert.equal(raw.error.code, 'invalid_json');
  assert.deepEqual(engine.call('version'), { version: pkg.version });
  engine.dispose();
});

test('a config that is not an object is invalid_input', async () => {
  const engine = await createEngine();
  assert.throws(() => engine.call('config.echo', [1, 2]), { name: 'AgentctxError', code: 'invalid_input' });
  engine.dispose();
});

test('unknown methods are AgentctxError unknown_method, on the engine and on a session', async () => {
  const engine = await createEngine();
  assert.throws(() => engine.call('no.such.method'), { code: 'unknown_method' });
  const session = engine.openSession();
  assert.throws(() => session.call('no.such.method', { x: 1 }), { code: 'unknown_method' });
  session.close();
  assert.equal(engine.stats().open_handles, 0);
  engine.dispose();
});

test('inputs that cannot be serialised are invalid_input; method names must be strings', async () => {
  const engine = await createEngine();
  const cyclic = {};
  cyclic.self = cyclic;
  assert.throws(() => engine.call('config.echo', cyclic), { code: 'invalid_input' });
  assert.throws(() => engine.call('config.echo', { n: 1n }), { code: 'invalid_input' });
  assert.throws(() => engine.call('config.echo', () => 1), { code: 'invalid_input' });
  assert.throws(() => engine.callRaw(42, '{}'), { code: 'invalid_input' });
  assert.throws(() => engine.callRaw('version', {}), { code: 'invalid_input' });
  engine.dispose();
});

test('closed sessions and disposed engines fail with typed errors, not crashes', async () => {
  const engine = await createEngine();
  const session = engine.openSession();
  session.close();
  session.close(); // idempotent
  assert.equal(session.closed, true);
  assert.throws(() => session.call('x'), { code: 'bad_handle' });
  const other = engine.openSession();
  engine.dispose();
  engine.dispose(); // idempotent
  assert.equal(other.closed, true);
  assert.throws(() => engine.version(), { code: 'invalid_state' });
  assert.throws(() => engine.stats(), { code: 'invalid_state' });
  assert.throws(() => engine.openSession(), { code: 'invalid_state' });
  assert.throws(() => other.call('x'), { code: 'invalid_state' });
  other.close(); // harmless after dispose
});

test('sessions and engines are disposable (Symbol.dispose)', async () => {
  assert.equal(typeof Symbol.dispose, 'symbol');
  const engine = await createEngine();
  const session = engine.openSession();
  session[Symbol.dispose]();
  assert.equal(session.closed, true);
  assert.equal(engine.stats().open_handles, 0);
  engine[Symbol.dispose]();
  assert.throws(() => engine.stats(), { code: 'invalid_state' });
});

test('the generated ErrorCode list is exported and complete', () => {
  assert.ok(ERROR_CODES.includes('invalid_json'));
  assert.ok(ERROR_CODES.includes('module_load_failed'));
  assert.equal(new Set(ERROR_CODES).size, ERROR_CODES.length);
  const def = readFileSync(new URL('../../core/include/agentctx/error_codes.def', import.meta.url), 'utf8');
  const wire = [...def.matchAll(/^ACTX_ERROR_CODE\(\w+, "([a-z_]+)"/gm)].map((m) => m[1]);
  assert.deepEqual([...ERROR_CODES], wire);
  assert.equal(isErrorCode('not_found'), true);
  assert.equal(isErrorCode('NotFound'), false);
});

// Large bytes cross beside the envelope as attachments, never escaped into it.
test('request bodies are bytes with a lazy text; large inputs go in as bytes', async () => {
  const { createMemoryFileSystem } = await import('agentctx');
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/AGENTS.md': 'be kind' }) });
  const config = { session_id: 's-att', model: { slug: 'mock-1' }, environments: [{ id: 'local', cwd: '/repo', fs: 'workspace' }] };
  const start = session.call('session.start', { config, now_ms: 0 });
  const rollout = start.effects.filter((e) => e.type === 'persist').flatMap((e) => e.lines);
  const { effects } = session.call('submit', { text: 'hi', now_ms: 1 });
  const request = effects.find((e) => e.type === 'model_request');
  assert.ok(request.body instanceof Uint8Array);
  assert.ok(!Object.keys(request).includes('bodyText'), 'the text accessor is not enumerable');
  assert.equal(request.bodyText, new TextDecoder().decode(request.body));
  assert.ok(request.bodyText.startsWith('{"model":"mock-1",'));
  // The raw envelope names the body by reference; attachment(0) has the same bytes.
  const raw = session.callRaw('prompt_preview', '{}');
  assert.match(raw, /^\{"v":1,"ok":true,"value":\{"body":\{"\$bytes":0,"length":\d+\}\}\}$/);
  assert.deepEqual(session.attachment(0), request.body);
  assert.throws(() => session.attachment(1), { code: 'invalid_input' });
  // mock.respond takes the body bytes; its answer completes the turn.
  const { body: sse } = engine.call('mock.respond', { endpoint: 'responses', body: request.body, now_ms: 2 });
  assert.match(sse, /response\.completed/);
  for (const e of effects.filter((x) => x.type === 'persist')) rollout.push(...e.lines);
  // Resume and rollout.inspect take rollout bytes; a bad reference is invalid_input.
  const bytes = new TextEncoder().encode(rollout.join('\n') + '\n');
  const other = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/AGENTS.md': 'be kind' }) });
  assert.ok(Array.isArray(other.call('session.resume', { config, rollout: bytes, now_ms: 3 }).effects));
  assert.ok(engine.call('rollout.inspect', { text: bytes }).report);
  assert.throws(() => engine.callJson('rollout.inspect', '{"text":{"$bytes":1}}', [bytes]), { code: 'invalid_input' });
  engine.dispose();
});

// The early config.echo is not part of the public types (still callable).
test('Regression: config.echo is not in the public types', () => {
  const dts = readFileSync(new URL('../dist/types.d.ts', import.meta.url), 'utf8');
  assert.ok(dts.includes("'mock.respond'"), 'the engine methods are declared there');
  assert.ok(!dts.includes('config.echo'));
});

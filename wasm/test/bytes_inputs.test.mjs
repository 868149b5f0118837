// SPDX-License-Identifier: MIT
// Bytes in any form cross into the engine as bytes (wasm/ts/attachments.ts): a Uint8Array, an
// ArrayBuffer (what `await response.arrayBuffer()` gives) or a DataView, wherever the protocol
// takes bytes — a delivery's `sse`, `mock.respond`'s `body`. JSON would write an ArrayBuffer as
// `{}`: an SSE chunk silently lost, a body refused as the wrong type. A value of any other type
// (a number, a plain object) is refused with `invalid_input` naming the field.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { AgentctxError, createEngine, createMemoryFileSystem } from 'agentctx';

const CONFIG = {
  session_id: 's-bytes',
  model: { slug: 'mock-1' },
  builtin_tools: false,
  environments: [{ id: 'local', cwd: '/repo', fs: 'workspace' }],
};

const encoder = new TextEncoder();
const asArrayBuffer = (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
const SHAPES = {
  string: (text) => text,
  Uint8Array: (text) => encoder.encode(text),
  ArrayBuffer: (text) => asArrayBuffer(encoder.encode(text)),
  DataView: (text) => new DataView(asArrayBuffer(encoder.encode(text))),
};

/** A session with one submitted turn; returns it with the model request to answer. */
async function pendingTurn(engine, text) {
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'abc' }) });
  session.call('session.start', { config: CONFIG, now_ms: 0 });
  const { effects } = session.call('submit', { text, now_ms: 1 });
  const request = effects.find((e) => e.type === 'model_request');
  assert.ok(request, JSON.stringify(effects));
  return { session, request };
}

test('a delivery\'s `sse` as a string, a Uint8Array, an ArrayBuffer or a DataView completes the turn', async () => {
  const engine = await createEngine();
  for (const [name, shape] of Object.entries(SHAPES)) {
    const { session, request } = await pendingTurn(engine, `hi ${name}`);
    const sse = engine.call('mock.respond', { endpoint: 'responses', body: request.body, now_ms: 1 }).body;
    // Sent in two pieces split inside an event, each in the same shape.
    const cut = Math.floor(sse.length / 2);
    session.call('deliver', { delivery: { type: 'model_events', request_id: request.id, sse: shape(sse.slice(0, cut)) }, now_ms: 2 });
    const { effects } = session.call('deliver', { delivery: { type: 'model_events', request_id: request.id, sse: shape(sse.slice(cut)), end: true }, now_ms: 3 });
    const done = effects.find((e) => e.type === 'turn_complete');
    assert.ok(done, `${name}: ${JSON.stringify(effects).slice(0, 400)}`);
    assert.equal(done.reason, 'completed', name);
    assert.equal(done.last_agent_message, `Mock reply to: hi ${name}`, name);
    session.close();
  }
  engine.dispose();
});

test('Regression `mock.respond` takes its body as an ArrayBuffer or a DataView too', async () => {
  const engine = await createEngine();
  const { session, request } = await pendingTurn(engine, 'hello');
  // The simulated prompt cache warms up after the first answer: compare without its figures.
  const withoutCache = (sse) => sse.replace(/"cached_tokens":\d+/g, '"cached_tokens":_');
  const expected = withoutCache(engine.call('mock.respond', { endpoint: 'responses', body: request.body, now_ms: 1 }).body);
  assert.match(expected, /Mock reply to: hello/);
  for (const [name, body] of [['ArrayBuffer', asArrayBuffer(request.body)], ['DataView', new DataView(asArrayBuffer(request.body))]]) {
    assert.equal(withoutCache(engine.call('mock.respond', { endpoint: 'responses', body, now_ms: 1 }).body), expected, name);
  }
  session.close();
  engine.dispose();
});

test('an `sse` of another type is refused with invalid_input naming the field; the session goes on', async () => {
  const engine = await createEngine();
  const { session, request } = await pendingTurn(engine, 'hi');
  for (const bad of [42, { a: 1 }, true]) {
    assert.throws(() => session.call('deliver', { delivery: { type: 'model_events', request_id: request.id, sse: bad }, now_ms: 2 }), (error) => {
      assert.ok(error instanceof AgentctxError, String(error));
      assert.equal(error.code, 'invalid_input');
      assert.match(error.message, /`sse` must be a string or bytes/);
      return true;
    }, JSON.stringify(bad));
  }
  const sse = engine.call('mock.respond', { endpoint: 'responses', body: request.body, now_ms: 1 }).body;
  const { effects } = session.call('deliver', { delivery: { type: 'model_events', request_id: request.id, sse: SHAPES.ArrayBuffer(sse), end: true }, now_ms: 3 });
  assert.equal(effects.find((e) => e.type === 'turn_complete')?.reason, 'completed');
  session.close();
  engine.dispose();
});

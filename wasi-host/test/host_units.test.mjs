// SPDX-License-Identifier: MIT
// Unit tests of the host modules, in process (fast): config precedence and workspace paths,
// the retry delay, the output renderers, key redaction, the HTTP backend on a local server
// (SSE split across chunks, compact JSON, error bodies), and the serve-mock clock parser.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { DIST, loadHost } from './helpers.mjs';

await loadHost();
const config = await import(join(DIST, 'config.js'));
const { retryDelayMs, openAIResponsesClient, redactSecret } = await import(join(DIST, '..', 'index.node.js'));
const { HumanOutput, JsonOutput } = await import(join(DIST, 'output.js'));
const { parseMockClock } = await import(join(DIST, 'serve_mock.js'));

const sink = () => {
  const parts = [];
  return { write: (s) => parts.push(s), text: () => parts.join('') };
};

describe('config', () => {
  test('flags over the --config file over the defaults', () => {
    const file = { session_id: 's-1', trust: 'trusted', sandbox: { mode: 'danger-full-access', network_access: true }, model: { slug: 'gpt-x', context_window: 1000 } };
    const c = config.buildConfig(file, { writable: false, home: true, cwd: '/workspace/src', sandbox: 'read-only', model: 'mock' });
    assert.equal(c.session_id, 's-1');
    assert.equal(c.trust, 'trusted');
    assert.deepEqual(c.sandbox, { mode: 'read-only', network_access: true });
    assert.deepEqual(c.model, { slug: 'mock', context_window: 1000 });
    assert.deepEqual(c.agents_md, { home_dir: '/state' });
    assert.deepEqual(c.environments, [{ id: 'workspace', cwd: '/workspace/src', fs: 'workspace' }]);
    const d = config.buildConfig({}, { writable: true, home: false });
    assert.equal(d.sandbox.mode, 'workspace-write');
    assert.equal(d.trust, 'untrusted');
    assert.equal(d.agents_md, undefined);
    assert.match(d.session_id, /^[0-9a-f-]{36}$/);
    assert.equal(config.buildConfig({}, { writable: false, home: false, trust: true }).trust, 'trusted');
  });

  test('workspace segments', () => {
    assert.deepEqual(config.workspaceSegments('src/./a/../b'), ['src', 'b']);
    assert.deepEqual(config.workspaceSegments('/workspace/src'), ['src']);
    assert.deepEqual(config.workspaceSegments(''), []);
    for (const bad of ['..', 'a/../..', '/etc', '/workspacex/a', 'a\0b']) assert.equal(config.workspaceSegments(bad), undefined, bad);
  });

  test('mergePatch deletes with null and replaces arrays', () => {
    assert.deepEqual(config.mergePatch({ a: { b: 1, c: 2 }, d: [1] }, { a: { b: null }, d: [2, 3] }), { a: { c: 2 }, d: [2, 3] });
  });
});

// The CLI runs the package's host loop: its backoff is the package's (one formula everywhere).
describe('retry delay (the package\'s, as the CLI uses it)', () => {
  const at = (n, random, retryAfter) =>
    retryDelayMs(n, retryAfter === undefined ? {} : { retry_after_ms: retryAfter }, { baseDelayMs: 100, maxDelayMs: 1000, random });
  test('exponential, capped, jitter keeps half to all of the step', () => {
    assert.deepEqual([1, 2, 3, 4, 5].map((n) => at(n, () => 0)), [50, 100, 200, 400, 500]);
    assert.deepEqual([1, 2, 5].map((n) => at(n, () => 0.999)), [100, 200, 1000]);
  });
  test('never below retry_after_ms', () => {
    assert.equal(at(1, () => 0.5, 1898), 1898);
    assert.equal(at(3, () => 0, 20), 200);
  });
});

describe('output', () => {
  const delta = (d) => ({ type: 'event', event: { type: 'text_delta', request_id: 'req-1', delta: d } });
  const message = (t) => ({ type: 'event', event: { type: 'item_done', origin: 'model', item: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: t }] } } });
  const request = { type: 'model_request', id: 'req-1', purpose: 'turn', endpoint: 'responses', attempt: 1, body: new TextEncoder().encode('{"x":"é"}') };
  const done = { type: 'turn_complete', turn_id: 'turn-1', reason: 'completed', last_agent_message: 'Hello' };

  test('a terminal streams deltas; a retry discards the partial line', () => {
    const out = sink();
    const err = sink();
    const o = new HumanOutput(out, err, { stream: true });
    o.effect(request);
    o.effect(delta('Hel'));
    o.host({ type: 'retry', request_id: 'req-1', attempt: 2, of: 3, delay_ms: 5, code: 'stream_error' });
    o.effect({ ...request, attempt: 2 });
    o.effect(delta('Hel'));
    o.effect(delta('lo'));
    o.effect(message('Hello'));
    o.effect(done);
    assert.equal(out.text(), 'Hel\nHello\n');
    assert.equal(err.text(), 'agentctx: (the partial reply above is discarded)\nagentctx: retrying req-1 in 5 ms (attempt 2 of 3)\n');
  });

  test('off a terminal only committed messages are written', () => {
    const out = sink();
    const o = new HumanOutput(out, sink());
    o.effect(request);
    o.effect(delta('Hel'));
    o.host({ type: 'retry', request_id: 'req-1', attempt: 2, of: 3, delay_ms: 5, code: 'stream_error' });
    o.effect(delta('Hello'));
    o.effect(message('Hello'));
    o.effect(message('Again'));
    o.effect(done);
    assert.equal(out.text(), 'Hello\nAgain\n');
  });

  test('--json: effects verbatim, persist dropped, request bodies as byte counts', () => {
    const out = sink();
    const o = new JsonOutput(out);
    o.effect({ type: 'persist', lines: ['x'] });
    o.effect(request);
    o.effect(done);
    o.host({ type: 'retry', request_id: 'req-1' });
    assert.equal(out.text(), [
      '{"type":"model_request","id":"req-1","purpose":"turn","endpoint":"responses","attempt":1,"body_bytes":10}',
      JSON.stringify(done),
      '{"type":"host","event":{"type":"retry","request_id":"req-1"}}',
      '',
    ].join('\n'));
  });
});

describe('HTTP client (the package\'s openAIResponsesClient, as the CLI uses it)', () => {
  test('redact', () => {
    assert.equal(redactSecret('a sk-1 b sk-1', 'sk-1'), 'a *** b ***');
    assert.equal(redactSecret('a', undefined), 'a');
    assert.equal(redactSecret('a', ''), 'a');
  });

  test('streams SSE chunks as they come, posts compact bodies, reports errors with their body', async () => {
    const seen = [];
    const server = createServer(async (req, res) => {
      let body = '';
      for await (const c of req) body += c;
      seen.push({ url: req.url, body, auth: req.headers.authorization, accept: req.headers.accept });
      if (req.url === '/v1/responses') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.write('data: {"type":"response.created"');
        await new Promise((r) => setTimeout(r, 20));
        res.end('}\n\n');
      } else if (req.url === '/v1/responses/compact') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"output":[]}');
      } else {
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end('{"error":{"message":"busy, key=sk-secret"}}');
      }
    });
    await new Promise((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${server.address().port}/v1/`;
    const bytes = (text) => new TextEncoder().encode(text);
    const send = async (client, request) => {
      const got = [];
      for await (const d of client.send(request, {})) got.push(d);
      return got;
    };
    try {
      const client = openAIResponsesClient({ baseUrl: base, apiKey: 'sk-secret', timeoutMs: 2000 });
      let got = await send(client, { id: 'req-1', endpoint: 'responses', body: bytes('{"a":1}') });
      assert.ok(got.length >= 3, JSON.stringify(got)); // at least two chunks, then end
      assert.equal(got.filter((d) => d.sse).map((d) => Buffer.from(d.sse).toString('utf8')).join(''), 'data: {"type":"response.created"}\n\n');
      assert.deepEqual(got.at(-1), { type: 'model_events', request_id: 'req-1', end: true });
      got = await send(client, { id: 'req-2', endpoint: 'responses/compact', body: bytes('{"b":2}') });
      assert.deepEqual(got, [{ type: 'model_response', request_id: 'req-2', body: '{"output":[]}' }]);
      got = await send(client, { id: 'req-3', endpoint: 'other', body: bytes('{}') });
      assert.equal(got.length, 1);
      assert.deepEqual({ ...got[0], message: undefined }, { type: 'model_error', request_id: 'req-3', status: 503, body: '{"error":{"message":"busy, key=***"}}', message: undefined });
      assert.deepEqual(seen.map((s) => [s.url, s.body, s.auth, s.accept]), [
        ['/v1/responses', '{"a":1}', 'Bearer sk-secret', 'text/event-stream'],
        ['/v1/responses/compact', '{"b":2}', 'Bearer sk-secret', 'application/json'],
        ['/v1/other', '{}', 'Bearer sk-secret', 'application/json'],
      ]);
      // Without a key (a local server) no authorization header is sent.
      await send(openAIResponsesClient({ baseUrl: base, timeoutMs: 2000 }), { id: 'r', endpoint: 'responses/compact', body: bytes('{}') });
      assert.equal(seen.at(-1).auth, undefined);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

test('serve-mock clock', () => {
  assert.deepEqual(parseMockClock(undefined), { kind: 'wall' });
  assert.deepEqual(parseMockClock('wall'), { kind: 'wall' });
  assert.deepEqual(parseMockClock('step:250'), { kind: 'step', stepMs: 250 });
  for (const bad of ['step:', 'step:-1', 'step:1.5', 'steps:1', 'now']) assert.equal(parseMockClock(bad), undefined, bad);
});

// SPDX-License-Identifier: MIT
// `agentctx serve-mock` over real HTTP on 127.0.0.1 (random port), and `agentctx run` against
// it end to end: the HTTP client path gives the same session as the in-process mock, and the
// API key reaches only the Authorization header (never rollouts, output or dumped requests).
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CLI, listFiles, loadHost, runCli, tempTree } from './helpers.mjs';

await loadHost();
const tmp = tempTree({ 'ws/README.md': 'one\ntwo\n', 'ws/notes.txt': 'n\n' });
after(tmp.cleanup);
const ws = join(tmp.dir, 'ws');
const KEY = 'sk-test-NEVER-LEAK-4f1c9b7e';

/** Starts `agentctx serve-mock` and resolves its base URL from the first stdout line. */
function startServeMock(args = []) {
  const child = spawn(process.execPath, [CLI, 'serve-mock', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.setEncoding('utf8').on('data', (d) => { log += d; });
  const url = new Promise((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+\/v1)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`serve-mock exited ${code}: ${log}`)));
    setTimeout(() => reject(new Error('serve-mock did not start')), 10000).unref();
  });
  return { child, url, log: () => log };
}

describe('serve-mock', () => {
  let server;
  let base;
  before(async () => {
    server = startServeMock(['--clock=step:1000']);
    base = await server.url;
  });
  after(() => server.child.kill('SIGTERM'));

  const post = (path, body) => fetch(base.replace(/\/v1$/, '') + path, { method: 'POST', body });

  test('POST /v1/responses and /responses stream SSE when asked to (stream: true)', async () => {
    const body = JSON.stringify({ model: 'm', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] }], tools: [], stream: true });
    for (const path of ['/v1/responses', '/responses']) {
      const res = await post(path, body);
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-type'), /^text\/event-stream/);
      const text = await res.text();
      assert.match(text, /^event: response\.created\ndata: /);
      assert.match(text, /event: response\.completed\n/);
      assert.match(text, /Mock reply to: hi/);
    }
  });

  test('without stream: true, one JSON response object (the API\'s default)', async () => {
    for (const extra of [{}, { stream: false }]) {
      const res = await post('/v1/responses', JSON.stringify({ model: 'm', input: 'hi', ...extra }));
      assert.equal(res.status, 200);
      assert.equal(res.headers.get('content-type'), 'application/json');
      const json = await res.json();
      assert.equal(json.object, 'response');
      assert.equal(json.status, 'completed');
      assert.equal(json.output.at(-1).content[0].text, 'Mock reply to: hi');
    }
  });

  test('POST /v1/responses/compact answers JSON', async () => {
    const body = JSON.stringify({ model: 'm', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'keep me' }] }] });
    const res = await post('/v1/responses/compact', body);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('content-type'), 'application/json');
    const json = await res.json();
    assert.equal(json.output.at(-1).type, 'compaction');
  });

  test('other paths are 404, bad JSON is 400 invalid_json, errors shaped like the API\'s', async () => {
    for (const [method, path] of [['POST', '/v1/embeddings'], ['GET', '/v1/responses'], ['POST', '/']]) {
      const res = await fetch(base.replace(/\/v1$/, '') + path, { method, ...(method === 'POST' ? { body: '{}' } : {}) });
      assert.equal(res.status, 404, `${method} ${path}`);
      const { error } = await res.json();
      assert.deepEqual(Object.keys(error), ['message', 'type', 'param', 'code']);
      assert.equal(error.code, 'not_found');
      assert.equal(error.type, 'invalid_request_error');
      assert.equal(error.param, null);
    }
    const res = await post('/v1/responses', '{not json');
    assert.equal(res.status, 400);
    const json = await res.json();
    assert.equal(json.error.code, 'invalid_json');
    assert.equal(json.error.type, 'invalid_request_error');
    assert.equal(typeof json.error.message, 'string');
    const shape = await post('/v1/responses', JSON.stringify({ model: 'm', input: 5 }));
    assert.equal(shape.status, 400);
    assert.deepEqual((await shape.json()).error,
      { message: 'request body: input must be a string or an array', type: 'invalid_request_error', param: null, code: 'invalid_input' });
  });

  test('run over HTTP equals run in process, and the key stays in the header', async () => {
    // A recording proxy in front of serve-mock sees exactly what the CLI sends.
    const seen = [];
    const proxy = createServer(async (req, res) => {
      const chunks = [];
      for await (const c of req) chunks.push(c);
      const body = Buffer.concat(chunks);
      seen.push({ url: req.url, auth: req.headers.authorization, body: body.toString('utf8') });
      const upstream = await fetch(base.replace(/\/v1$/, '') + req.url, { method: 'POST', body });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
    await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
    after(() => proxy.close());
    const proxyBase = `http://127.0.0.1:${proxy.address().port}/v1`;
    const config = join(tmp.dir, 'config.json');
    (await import('node:fs')).writeFileSync(config, JSON.stringify({ session_id: 'sess-http' }));
    const prompt = 'Please read README.md';
    const home = join(tmp.dir, 'home-http');
    const dump = join(tmp.dir, 'dump-http');
    const http = await runCli(['run', '--config', config, '--base-url', proxyBase, '--api-key-env', 'AGENTCTX_TEST_KEY',
      '--dump-requests', dump, '--workspace', ws, '--home', home, prompt], { cwd: ws, env: { AGENTCTX_TEST_KEY: KEY } });
    assert.equal(http.code, 0, http.stderr);
    assert.equal(http.stdout, 'Read README.md: 2 lines.\n');
    const local = await runCli(['run', '--config', config, '--dump-requests', join(tmp.dir, 'dump-local'),
      '--workspace', ws, '--home', join(tmp.dir, 'home-local'), prompt], { cwd: ws });
    assert.equal(local.code, 0, local.stderr);
    assert.equal(local.stdout, http.stdout);
    // Same bodies both ways, sent verbatim, with the key only in the Authorization header.
    assert.deepEqual(seen.map((s) => s.url), ['/v1/responses', '/v1/responses']);
    assert.deepEqual(seen.map((s) => s.auth), [`Bearer ${KEY}`, `Bearer ${KEY}`]);
    const dumped = readdirSync(dump).sort().map((f) => readFileSync(join(dump, f), 'utf8'));
    assert.deepEqual(dumped, seen.map((s) => s.body));
    assert.deepEqual(readdirSync(join(tmp.dir, 'dump-local')).sort().map((f) => readFileSync(join(tmp.dir, 'dump-local', f), 'utf8')), dumped);
    for (const text of [http.stdout, http.stderr, ...dumped, ...listFiles(home).map((f) => readFileSync(join(home, f), 'utf8'))]) {
      assert.ok(!text.includes(KEY), 'the API key leaked');
    }
    assert.ok(!server.log().includes(KEY));
  });
});

// SPDX-License-Identifier: MIT
// Fault injection for the HTTP model client: a local server on
// 127.0.0.1 answers 429 (with `Please try again in 20ms`), 500, hangs, cuts the stream or sends
// malformed events. The CLI retries with backoff (≥ retry_after_ms), then succeeds or ends with
// one clear error; the rollout stays valid (`resume` parses it) and never holds the API key.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFiles, loadHost, readJsonl, runCli, tempTree } from './helpers.mjs';

const host = await loadHost();
const { WasiGuest } = host;
const tmp = tempTree({ 'ws/a.txt': 'A\n' });
after(tmp.cleanup);
const ws = join(tmp.dir, 'ws');
const KEY = 'sk-fault-SECRET-93ab77';

// The server answers with the embedded mock model (a guest of its own) unless the plan for the
// current request says otherwise. plan: array of faults consumed one per request; 'ok' = mock.
const mockGuest = await WasiGuest.load();
let plan = [];
const log = [];
const server = createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = Buffer.concat(chunks).toString('utf8');
  const fault = plan.shift() ?? 'ok';
  log.push({ fault, at: Date.now(), auth: req.headers.authorization });
  const mock = () => JSON.parse(mockGuest.call(0, 'mock.respond', JSON.stringify({ endpoint: 'responses', body, now_ms: 0 }))).value.body;
  switch (fault) {
    case '429':
      res.writeHead(429, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'rate_limit_exceeded', message: 'Rate limit reached. Please try again in 20ms.' } }));
      return;
    case '500':
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('internal error');
      return;
    case '401-echo':
      res.writeHead(401, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { code: 'invalid_api_key', message: `Incorrect API key provided: ${req.headers.authorization}` } }));
      return;
    case 'hang':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(': keepalive\n\n'); // then nothing, until the client gives up
      return;
    case 'cut': {
      const sse = mock();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(sse.slice(0, Math.floor(sse.length / 2)));
      setTimeout(() => res.destroy(), 5);
      return;
    }
    case 'cut-clean': {
      const sse = mock();
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(sse.slice(0, sse.indexOf('event: response.completed')));
      return;
    }
    case 'malformed':
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end('event: response.created\ndata: {oops\n\ndata: {"type":"response.output_text.delta",\n\n');
      return;
    default:
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.end(mock());
  }
});
let base;
before(async () => {
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${server.address().port}/v1`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

let n = 0;
// The request timeout: short when a hang is planned (it is what ends that attempt), roomy
// otherwise (a busy machine must not turn a slow answer into a timeout).
const timeoutFor = (faults) => (faults.includes('hang') ? '1000' : '10000');

async function run(faults, extra = []) {
  plan = [...faults];
  log.length = 0;
  const home = join(tmp.dir, `home-${++n}`);
  const r = await runCli(['run', '--base-url', base, '--max-retries', '2', '--retry-base-ms', '5',
    '--request-timeout-ms', timeoutFor(faults), '--workspace', ws, '--home', home, ...extra, 'hello'],
  { cwd: ws, env: { OPENAI_API_KEY: KEY }, timeoutMs: 15000 });
  const [rollout] = listFiles(join(home, 'sessions')).map((f) => join(home, 'sessions', f));
  return { ...r, home, rollout, requests: [...log] };
}

function assertNoKey(r) {
  for (const text of [r.stdout, r.stderr, readFileSync(r.rollout, 'utf8')]) assert.ok(!text.includes(KEY), 'the API key leaked');
}

/** The rollout parses and resumes (against the healthy server). */
async function assertResumable(r) {
  const lines = readJsonl(r.rollout);
  assert.equal(lines[0].type, 'session_meta');
  plan = [];
  const again = await runCli(['resume', '--base-url', base, '--workspace', ws, '--home', r.home, r.rollout, 'again'],
    { cwd: ws, env: { OPENAI_API_KEY: KEY } });
  assert.equal(again.code, 0, again.stderr);
  assert.equal(again.stdout, 'Mock reply to: again\n');
  assertNoKey({ ...again, rollout: r.rollout });
}

describe('retryable faults are retried, then the turn completes', () => {
  for (const [name, faults] of [
    ['429 with retry-after', ['429', '429']],
    ['500', ['500']],
    ['a hanging stream (timeout)', ['hang']],
    ['a cut connection', ['cut']],
    ['a stream closed before response.completed', ['cut-clean']],
    ['malformed events', ['malformed']],
  ]) {
    test(name, async () => {
      const r = await run(faults);
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, 'Mock reply to: hello\n');
      assert.equal(r.requests.length, faults.length + 1);
      assert.equal((r.stderr.match(/retrying req-1/g) ?? []).length, faults.length, r.stderr);
      assertNoKey(r);
      // Nothing of a failed attempt is recorded: one model reply, one user message.
      const items = readJsonl(r.rollout).filter((l) => l.type === 'response_item');
      assert.equal(items.filter((l) => l.payload.type === 'message' && l.payload.role === 'assistant').length, 1);
    });
  }

  test('the 429 wait honours retry_after_ms (20 ms) over a smaller backoff', async () => {
    const r = await run(['429'], ['--retry-base-ms', '1']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.requests[1].at - r.requests[0].at >= 20, `${r.requests[1].at - r.requests[0].at} ms`);
    assert.match(r.stderr, /retrying req-1 in (2\d|3\d) ms \(attempt 2 of 3\)/);
  });
});

describe('persistent faults end with one clear error and a valid rollout', () => {
  for (const [name, fault, re] of [
    ['429', '429', /^agentctx: turn turn-1 failed: rate_limited: [^\n]*try again in 20ms[^\n]*$/m],
    ['500', '500', /^agentctx: turn turn-1 failed: http_error: [^\n]+$/m],
    ['hang', 'hang', /^agentctx: turn turn-1 failed: http_error: no response from http:\/\/127\.0\.0\.1:\d+\/v1\/responses within 1000 ms$/m],
    ['malformed', 'malformed', /^agentctx: turn turn-1 failed: stream_error: stream closed before response\.completed$/m],
  ]) {
    test(name, async () => {
      const r = await run([fault, fault, fault, fault]);
      assert.equal(r.code, 1);
      assert.equal(r.requests.length, 3); // 1 + --max-retries 2
      assert.match(r.stderr, re);
      assert.match(r.stderr, /giving up on req-1 after 3 attempts/);
      assertNoKey(r);
      const lines = readJsonl(r.rollout);
      assert.ok(lines.some((l) => l.type === 'event_msg' && l.payload.type === 'turn_aborted'));
      await assertResumable(r);
    });
  }

  test('a non-retryable 401 fails at once, and the echoed key is redacted', async () => {
    const r = await run(['401-echo']);
    assert.equal(r.code, 1);
    assert.equal(r.requests.length, 1);
    assert.equal(r.requests[0].auth, `Bearer ${KEY}`);
    assert.match(r.stderr, /^agentctx: turn turn-1 failed: unauthorized: [^\n]+$/m);
    assertNoKey(r);
    await assertResumable(r);
  });

  test('--json reports retries as host records', async () => {
    const r = await run(['500'], ['--json']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout.trimEnd().split('\n').map((l) => JSON.parse(l));
    const retry = lines.find((l) => l.type === 'host' && l.event.type === 'retry');
    assert.deepEqual(Object.keys(retry.event).sort(), ['attempt', 'code', 'delay_ms', 'of', 'request_id', 'type']);
    assert.equal(retry.event.attempt, 2);
    const attempts = lines.filter((l) => l.type === 'model_request').map((l) => l.attempt);
    assert.deepEqual(attempts, [1, 2]);
  });

  test('Ctrl-C during a hanging request interrupts the turn (exit 130); the rollout resumes', async () => {
    plan = ['hang'];
    log.length = 0;
    const home = join(tmp.dir, 'home-sigint');
    const r = await runCli(['run', '--base-url', base, '--request-timeout-ms', '10000', '--workspace', ws, '--home', home, 'hello'], {
      cwd: ws, env: { OPENAI_API_KEY: KEY },
      onSpawn: (child) => {
        const poll = setInterval(() => {
          if (log.length > 0) {
            clearInterval(poll);
            child.kill('SIGINT');
          }
        }, 20);
      },
    });
    assert.equal(r.code, 130, r.stderr);
    assert.match(r.stderr, /^agentctx: turn turn-1 interrupted$/m);
    const [rollout] = listFiles(join(home, 'sessions')).map((f) => join(home, 'sessions', f));
    assert.ok(readJsonl(rollout).some((l) => l.type === 'event_msg' && l.payload.type === 'turn_aborted'));
    await assertResumable({ ...r, home, rollout });
  });

  test('a refused connection is retried and then reported', async () => {
    const closed = createServer();
    await new Promise((r) => closed.listen(0, '127.0.0.1', r));
    const port = closed.address().port;
    await new Promise((r) => closed.close(r));
    const home = join(tmp.dir, 'home-refused');
    const r = await runCli(['run', '--base-url', `http://127.0.0.1:${port}/v1`, '--max-retries', '1', '--retry-base-ms', '1',
      '--workspace', ws, '--home', home, 'hello'], { cwd: ws, env: { OPENAI_API_KEY: KEY } });
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^agentctx: turn turn-1 failed: http_error: request to http:\/\/127\.0\.0\.1:\d+\/v1\/responses failed: [^\n]+$/m);
    assert.ok(!r.stderr.includes(KEY));
  });
});

// SPDX-License-Identifier: MIT
// The API key never leaves the request headers through the CLI, against local servers on
// 127.0.0.1 that echo the key back:
//  - a key with a trailing CR (read from a CRLF file) is trimmed where it enters, so the key the
//    server echoes is the key redaction looks for (stderr, --json stdout, rollout);
//  - a key echoed with JSON escapes (`\u002d`, `\/`) is redacted in the raw body and again in
//    the message the engine decodes from it;
//  - a redirect (302, 303, 307, 308) to another origin is refused, never followed: the second
//    server is never called, the turn fails at once (not retried) naming the location's origin.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFiles, loadHost, runCli, tempTree } from './helpers.mjs';

await loadHost();
const tmp = tempTree({ 'ws/a.txt': 'A\n' });
after(tmp.cleanup);
const ws = join(tmp.dir, 'ws');

/** The key as a JSON string body spells it with escapes: `\u002d`/`\u002D` for '-', `\/`, `\u004b` for 'K'. */
function escapedKey(key) {
  let dashes = 0;
  return [...key].map((c) => {
    if (c === '-') return (dashes++ % 2 === 0) ? '\\u002d' : '\\u002D';
    if (c === '/') return '\\/';
    if (c === 'K') return '\\u004b';
    return c;
  }).join('');
}

// The echo server: the first path segment says how to answer.
//   /echo/...    401 whose JSON body quotes the Authorization or x-api-key header as is
//   /escaped/... 401 whose JSON body quotes the key with JSON escapes (raw text, not JSON.stringify)
//   /r<NNN>/...  a redirect with status NNN to the second server (another port: another origin)
const requests = [];
const echo = createServer(async (req, res) => {
  for await (const chunk of req) void chunk;
  requests.push({ url: req.url, headers: req.headers });
  const header = req.headers['x-api-key'] ?? req.headers.authorization ?? '';
  const [, mode] = req.url.split('/');
  if (mode === 'echo') {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 'invalid_api_key', message: `Incorrect API key provided: ${header}` } }));
  } else if (mode === 'escaped') {
    const key = header.replace(/^Bearer /, '');
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(`{"error":{"code":"invalid_api_key","message":"Incorrect API key provided: ${escapedKey(key)}"}}`);
  } else if (/^r\d{3}$/.test(mode)) {
    res.writeHead(Number(mode.slice(1)), { location: `${targetOrigin}/v1/${req.url.split('/').slice(3).join('/')}` });
    res.end();
  } else {
    res.writeHead(404);
    res.end();
  }
});
// The redirect target records every request it ever gets.
const targetHits = [];
const target = createServer(async (req, res) => {
  for await (const chunk of req) void chunk;
  targetHits.push({ method: req.method, url: req.url, headers: req.headers });
  res.writeHead(500);
  res.end('the redirect target must never be called');
});
let echoOrigin;
let targetOrigin;
before(async () => {
  await new Promise((r) => echo.listen(0, '127.0.0.1', r));
  await new Promise((r) => target.listen(0, '127.0.0.1', r));
  echoOrigin = `http://127.0.0.1:${echo.address().port}`;
  targetOrigin = `http://127.0.0.1:${target.address().port}`;
});
after(() => {
  for (const s of [echo, target]) {
    s.closeAllConnections();
    s.close();
  }
});

let n = 0;
/** Runs one prompt against `mode` on the echo server; returns the result, the rollout text and the requests seen. */
async function run(mode, { key, provider = 'responses', json = false } = {}) {
  requests.length = 0;
  const home = join(tmp.dir, `home-${++n}`);
  const env = key === undefined ? {} : { [provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY']: key };
  const r = await runCli(['run', '--base-url', `${echoOrigin}/${mode}/v1`, '--provider', provider, '--retry-base-ms', '1',
    '--workspace', ws, '--home', home, ...(json ? ['--json'] : []), 'hello'], { cwd: ws, env, timeoutMs: 30000 });
  const files = listFiles(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl'));
  assert.equal(files.length, 1, `one rollout: ${files.join(', ')}`);
  return { ...r, rollout: readFileSync(join(home, 'sessions', files[0]), 'utf8'), requests: [...requests] };
}

function assertNoLeak(r, secrets) {
  for (const [where, text] of [['stderr', r.stderr], ['stdout', r.stdout], ['the rollout', r.rollout]]) {
    for (const secret of secrets) assert.ok(!text.includes(secret), `the API key leaked on ${where}: ${text}`);
  }
}

describe('Regression: a key with trailing whitespace or CR is trimmed and redacted as sent', () => {
  for (const [provider, header] of [['responses', 'authorization'], ['anthropic', 'x-api-key']]) {
    for (const json of [false, true]) {
      test(`${provider}${json ? ' --json' : ''}: a 401 echoing the ${header} header shows no key`, async () => {
        const KEY = `sk-crlf-${provider}-SECRET-5d1e`;
        const r = await run('echo', { key: `${KEY}\r`, provider, json });
        assert.equal(r.code, 1, r.stderr);
        assert.equal(r.requests.length, 1);
        // The header carried the trimmed key: the one the server echoed back.
        assert.equal(r.requests[0].headers[header], provider === 'anthropic' ? KEY : `Bearer ${KEY}`);
        assert.match(r.stderr, /^agentctx: turn turn-1 failed: unauthorized: unexpected status 401: Incorrect API key provided: (Bearer )?\*\*\*$/m);
        if (json) assert.match(r.stdout, /"type":"error","code":"unauthorized".*Incorrect API key provided: (Bearer )?\*\*\*/);
        assertNoLeak(r, [KEY]);
      });
    }
  }

  test('a key that is only whitespace counts as unset; one with a line break inside is refused without quoting it', async () => {
    const blank = await runCli(['run', '--model', 'gpt-5', '--workspace', ws, '--home', join(tmp.dir, 'home-blank'), 'x'],
      { cwd: ws, env: { OPENAI_API_KEY: ' \r\n' } });
    assert.equal(blank.code, 2);
    assert.match(blank.stderr, /^agentctx: OPENAI_API_KEY is not set/m);
    const split = await runCli(['run', '--model', 'gpt-5', '--workspace', ws, '--home', join(tmp.dir, 'home-split'), 'x'],
      { cwd: ws, env: { OPENAI_API_KEY: 'sk-top-HALF\nsk-bottom-HALF' } });
    assert.equal(split.code, 2);
    assert.match(split.stderr, /^agentctx: OPENAI_API_KEY: the API key has a control or non-ASCII character at position 12; it must be one line of printable ASCII$/m);
    assert.ok(!split.stderr.includes('HALF'));
  });
});

describe('Regression: a key echoed with JSON \\u escapes is redacted after decoding', () => {
  for (const [provider, json] of [['responses', false], ['responses', true], ['anthropic', false]]) {
    test(`${provider}${json ? ' --json' : ''}: neither the key nor its escaped spelling shows`, async () => {
      const KEY = `sk-esc/Key-${provider}-77Qx`;
      const r = await run('escaped', { key: KEY, provider, json });
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.requests.length, 1);
      assert.match(r.stderr, /^agentctx: turn turn-1 failed: unauthorized: unexpected status 401: Incorrect API key provided: \*\*\*$/m);
      if (json) assert.match(r.stdout, /"type":"error","code":"unauthorized".*Incorrect API key provided: \*\*\*/);
      assertNoLeak(r, [KEY, escapedKey(KEY)]);
    });
  }
});

describe('Regression: a redirect to another origin is refused, never followed', () => {
  for (const [status, provider] of [[302, 'anthropic'], [303, 'anthropic'], [307, 'anthropic'], [308, 'anthropic'], [302, 'responses'], [307, 'responses']]) {
    test(`${provider}: ${status} is a non-retryable error naming the origin; the target is never called`, async () => {
      targetHits.length = 0;
      const KEY = `sk-redirect-${status}-SECRET`;
      const r = await run(`r${status}`, { key: KEY, provider });
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.requests.length, 1, 'exactly one request reaches the first server (no retry)');
      assert.deepEqual(targetHits, [], 'the redirect target was called');
      assert.match(r.stderr, new RegExp(`^agentctx: turn turn-1 failed: http_error: unexpected status ${status}: ` +
        `the model endpoint redirected \\(${status}\\) to ${targetOrigin.replace(/[.]/g, '\\.')} — redirects are not followed; ` +
        'set the base URL to the final address$', 'm'));
      assert.doesNotMatch(r.stderr, /retrying|detached ArrayBuffer/);
      assertNoLeak(r, [KEY]);
    });
  }
});

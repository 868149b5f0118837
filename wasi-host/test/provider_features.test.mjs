// SPDX-License-Identifier: MIT
// Provider features through the CLI over real HTTP: an endpoint that refuses a feature's
// parameter (HTTP 400 naming prompt_cache_key, as a server without the field answers) gets the
// request again without it, the session warns provider_feature_refused once, the rollout records
// it and a resume keeps it off; `--feature NAME=off` leaves the field out from the start; a
// misspelled feature is a usage error. The refusing endpoint is a small proxy in front of
// `agentctx serve-mock` on 127.0.0.1.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadHost, runCli, startServeMock, tempTree } from './helpers.mjs';

await loadHost();

let mock;
let proxy;
let proxyURL;
const seen = []; // every body the proxy received, in order

before(async () => {
  mock = await startServeMock();
  proxy = createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push(body);
      if (body.includes('"prompt_cache_key"')) {
        res.writeHead(400, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: {
          message: "Unsupported parameter: 'prompt_cache_key'.", type: 'invalid_request_error',
          param: 'prompt_cache_key', code: 'unsupported_parameter',
        } }));
        return;
      }
      const upstream = await fetch(mock.baseURL + req.url.replace(/^\/v1/, ''), {
        method: 'POST', headers: { 'content-type': 'application/json' }, body,
      });
      res.writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'text/event-stream' });
      res.end(Buffer.from(await upstream.arrayBuffer()));
    });
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyURL = `http://127.0.0.1:${proxy.address().port}/v1`;
});
after(() => {
  mock?.child.kill('SIGTERM');
  proxy?.close();
});

const rolloutsOf = (home) => {
  const dir = join(home, 'sessions');
  return readdirSync(dir, { recursive: true }).filter((f) => String(f).endsWith('.jsonl')).map((f) => join(dir, String(f)));
};

describe('provider features against an endpoint that refuses one', () => {
  test('Regression ProviderFeatureRefusal: the request is sent again without the field, warned once, persisted, kept by a resume', async () => {
    const t = tempTree({ 'ws/': '', 'home/': '' });
    after(t.cleanup);
    const home = join(t.dir, 'home');
    seen.length = 0;
    const r = await runCli(['run', '--base-url', proxyURL, '--model', 'mock-1', '--workspace', join(t.dir, 'ws'), '--home', home, 'hello'], { cwd: t.dir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(seen.length, 2, 'the refused request and its resend');
    assert.ok(seen[0].includes('"prompt_cache_key"'));
    assert.ok(!seen[1].includes('"prompt_cache_key"'));
    assert.equal(r.stderr.split('provider_feature_refused').length - 1, 1, r.stderr);
    assert.match(r.stderr, /prompt_cache_key/);
    const [rollout] = rolloutsOf(home);
    const lines = readFileSync(rollout, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.ok(lines.some((l) => l.payload?.type === 'provider_feature_refused' && l.payload.feature === 'prompt_cache_key'));

    seen.length = 0;
    const resumed = await runCli(['resume', rollout, '--base-url', proxyURL, '--model', 'mock-1', '--workspace', join(t.dir, 'ws'), '--home', home, 'again'], { cwd: t.dir });
    assert.equal(resumed.code, 0, resumed.stderr);
    assert.equal(seen.length, 1, 'no refusal after the resume');
    assert.ok(!seen[0].includes('"prompt_cache_key"'));
  });

  test('--feature prompt_cache_key=off leaves the field out from the first request', async () => {
    const t = tempTree({ 'ws/': '', 'home/': '' });
    after(t.cleanup);
    seen.length = 0;
    const r = await runCli(['run', '--base-url', proxyURL, '--model', 'mock-1', '--feature', 'prompt_cache_key=off',
      '--workspace', join(t.dir, 'ws'), '--home', join(t.dir, 'home'), 'hello'], { cwd: t.dir });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(seen.length, 1);
    assert.ok(!r.stderr.includes('provider_feature_refused'), r.stderr);
  });

  test('a misspelled feature or value is a usage error naming the choices', async () => {
    const t = tempTree({ 'ws/': '' });
    after(t.cleanup);
    const bad = await runCli(['run', '--feature', 'prewarn=on', '--workspace', join(t.dir, 'ws'), 'hello'], { cwd: t.dir });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /prewarn is not a provider feature \(cache_breakpoints, .*prompt_cache_key, context_editing\)/);
    const value = await runCli(['run', '--feature', 'prewarm=yes', '--workspace', join(t.dir, 'ws'), 'hello'], { cwd: t.dir });
    assert.equal(value.code, 2);
    assert.match(value.stderr, /expected prewarm=on or prewarm=off/);
  });
});

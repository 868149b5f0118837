// SPDX-License-Identifier: MIT
// Regression: `agentctx resume FILE "prompt"` continues with what the rollout recorded — the
// model, the provider and the base URL — instead of the offline mock; a flag that changes one
// says so in one line on stderr; the API key is never recorded, and a base URL that only a
// rollout from outside the home names is not sent the key. The model endpoint is serve-mock
// behind a recording proxy on 127.0.0.1 (the test sees every request: path, model, headers).
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request } from 'node:http';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFiles, readJsonl, runCli, startServeMock, tempTree } from './helpers.mjs';

const tmp = tempTree({ 'ws/a.txt': 'A\n', 'elsewhere/': '' });
const ws = join(tmp.dir, 'ws');
const KEY = 'sk-test-resume-0123456789abcdef';

let mock;
/** Every request the proxy forwarded: {path, model, authorization}. */
const seen = [];
const proxy = createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = Buffer.concat(chunks);
  let model;
  try {
    model = JSON.parse(body.toString('utf8')).model;
  } catch {
    model = undefined;
  }
  seen.push({ path: req.url, model, authorization: req.headers.authorization ?? req.headers['x-api-key'] });
  const target = new URL(mock.baseURL);
  const upstream = request({
    host: '127.0.0.1', port: target.port, path: req.url, method: req.method,
    headers: { ...req.headers, host: `127.0.0.1:${target.port}` },
  }, (up) => {
    res.writeHead(up.statusCode ?? 502, up.headers);
    up.pipe(res);
  });
  upstream.on('error', () => res.destroy());
  upstream.end(body);
});
let base;
before(async () => {
  mock = await startServeMock();
  await new Promise((r) => proxy.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${proxy.address().port}/v1`;
});
after(() => {
  mock?.child.kill();
  proxy.closeAllConnections();
  proxy.close();
  tmp.cleanup();
});

let n = 0;
/** A finished first turn with `flags`; returns {home, rollout}. */
async function firstSession(flags, env = {}) {
  const home = join(tmp.dir, `home-${++n}`);
  const r = await runCli(['run', ...flags, '--workspace', ws, '--home', home, 'first turn'], { cwd: ws, env });
  assert.equal(r.code, 0, r.stderr);
  const [name] = listFiles(join(home, 'sessions')).filter((f) => f.endsWith('.jsonl'));
  return { home, rollout: join(home, 'sessions', name) };
}

const turnContexts = (rollout) => readJsonl(rollout).filter((l) => l.type === 'turn_context').map((l) => l.payload);

describe('Regression: resume continues with the recorded model, provider and base URL', () => {
  test('a gpt-5.5 session resumes against its base URL with its model, not the offline mock', async () => {
    const { home, rollout } = await firstSession(['--model', 'gpt-5.5', '--base-url', base]);
    const [first] = turnContexts(rollout);
    assert.equal(first.model, 'gpt-5.5');
    assert.equal(first.base_url, base);
    assert.equal(first.provider, undefined, 'responses is the default and is not written');
    seen.length = 0;
    const r = await runCli(['resume', '--workspace', ws, '--home', home, rollout, 'second turn'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(seen.map((s) => [s.path, s.model]), [['/v1/responses', 'gpt-5.5']], 'the resumed turn never reached serve-mock');
    assert.doesNotMatch(r.stderr, /resuming with/, 'nothing was overridden');
    assert.ok(turnContexts(rollout).every((t) => t.model === 'gpt-5.5'), 'the resumed turn was recorded with another model');
  });

  test('an Anthropic session resumes as an Anthropic Messages request', async () => {
    const { home, rollout } = await firstSession(['--provider', 'anthropic', '--model', 'claude-sonnet-4-5', '--base-url', base]);
    assert.equal(turnContexts(rollout)[0].provider, 'anthropic');
    seen.length = 0;
    const r = await runCli(['resume', '--workspace', ws, '--home', home, rollout, 'second turn'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(seen.map((s) => [s.path, s.model]), [['/v1/messages', 'claude-sonnet-4-5']]);
  });

  test('a flag that overrides a recorded setting says so in one line; the new value is used and recorded', async () => {
    const { home, rollout } = await firstSession(['--model', 'gpt-5.5', '--base-url', base]);
    seen.length = 0;
    const r = await runCli(['resume', '--model', 'gpt-5.4', '--workspace', ws, '--home', home, rollout, 'second turn'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.split('\n').filter((l) => l.includes('resuming with'));
    assert.deepEqual(lines, ['agentctx: resuming with --model gpt-5.4 (the session used gpt-5.5)']);
    assert.deepEqual(seen.map((s) => s.model), ['gpt-5.4']);
    assert.equal(turnContexts(rollout).at(-1).model, 'gpt-5.4');
    // Several overrides still make one line.
    const both = await runCli(['resume', '--provider', 'chat', '--feature', 'prewarm=off', '--workspace', ws, '--home', home, rollout, 'third'], { cwd: ws });
    assert.equal(both.code, 0, both.stderr);
    assert.deepEqual(both.stderr.split('\n').filter((l) => l.includes('resuming with')),
      ['agentctx: resuming with --provider chat (the session used responses), --feature prewarm=off (the session used prewarm=automatic)']);
    assert.equal(seen.at(-1).path, '/v1/chat/completions');
  });

  test('a mock session resumes offline as before, with no note', async () => {
    const { home, rollout } = await firstSession([]);
    seen.length = 0;
    const r = await runCli(['resume', '--workspace', ws, '--home', home, rollout, 'again'], { cwd: ws });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Mock reply to: again\n');
    assert.doesNotMatch(r.stderr, /resuming with/);
    assert.deepEqual(seen, []);
  });
});

describe('Regression: the API key is never recorded, and a foreign rollout cannot send it elsewhere', () => {
  test('the key is sent on resume of the own rollout, never written to it', async () => {
    const { home, rollout } = await firstSession(['--model', 'gpt-5.5', '--base-url', base], { OPENAI_API_KEY: KEY });
    seen.length = 0;
    const r = await runCli(['resume', '--workspace', ws, '--home', home, rollout, 'second'], { cwd: ws, env: { OPENAI_API_KEY: KEY } });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(seen.map((s) => s.authorization), [`Bearer ${KEY}`]);
    assert.ok(!readFileSync(rollout, 'utf8').includes(KEY), 'the key reached the rollout');
  });

  test('a rollout from outside the home that names a base URL gets no key there unless --base-url names it', async () => {
    const { rollout } = await firstSession(['--model', 'gpt-5.5', '--base-url', base]);
    const foreign = join(tmp.dir, 'elsewhere', 'shared.jsonl');
    copyFileSync(rollout, foreign);
    const home = join(tmp.dir, `home-${++n}`);
    seen.length = 0;
    const r = await runCli(['resume', '--workspace', ws, '--home', home, foreign, 'second'], { cwd: ws, env: { OPENAI_API_KEY: KEY } });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(seen.map((s) => [s.model, s.authorization]), [['gpt-5.5', undefined]]);
    assert.match(r.stderr, new RegExp(`^agentctx: note: no API key is sent to ${base.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}: only the rollout`, 'm'));
    const named = await runCli(['resume', '--base-url', base, '--workspace', ws, '--home', home, foreign, 'third'], { cwd: ws, env: { OPENAI_API_KEY: KEY } });
    assert.equal(named.code, 0, named.stderr);
    assert.equal(seen.at(-1).authorization, `Bearer ${KEY}`);
    assert.doesNotMatch(named.stderr, /resuming with|no API key/);
  });

  test('a rollout that records a provider or base URL this host cannot use is refused, naming the file', async () => {
    const { rollout } = await firstSession([]);
    const bad = join(tmp.dir, 'elsewhere', 'bad.jsonl');
    const lines = readFileSync(rollout, 'utf8').split('\n').map((l) => {
      if (!l.includes('"turn_context"')) return l;
      const v = JSON.parse(l);
      v.payload.base_url = 'file:///etc/passwd';
      return JSON.stringify(v);
    });
    writeFileSync(bad, lines.join('\n'));
    const r = await runCli(['resume', '--workspace', ws, '--home', join(tmp.dir, `home-${++n}`), bad, 'x'], { cwd: ws });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /bad\.jsonl: the rollout records the base URL "file:\/\/\/etc\/passwd" \(expected http or https, no credentials\), which resume cannot continue with/);
  });
});

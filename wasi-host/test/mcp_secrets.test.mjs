// SPDX-License-Identifier: MIT
// No byte of a configured MCP secret leaves the CLI (docs/mcp.md, "Secrets"). A hostile server
// (tests/mcp/secret_echo_server.mjs) echoes its credentials — over stdio the secret-named env
// value it was started with, over streamable HTTP the bearer token and the X-Api-Key header —
// in its tool names, descriptions, schemas, results (plain, JSON-escaped, percent-encoded), an
// isError result, a JSON-RPC error and its stderr before it exits. The built `agentctx` runs
// turns that call each of those tools against a model server on 127.0.0.1 (the engine's mock
// model behind a recording proxy); no run of 6 characters of a secret appears in stdout
// (--json and text), stderr, the rollout, the --dump-requests files or any request body the
// model server received — while the redacted `***` shows the echoes were there.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO, loadHost, runCli, tempTree } from './helpers.mjs';

const { WasiGuest } = await loadHost();
const HOSTILE = join(REPO, 'tests/mcp/secret_echo_server.mjs');
const node = process.execPath;

const ENV_SECRET = 'env-7Qx9Zr2Lm4Vb8Np1"\\/end';
const TOKEN = 'tok-K3w8Hd5Yq1Tc6Rf0/+=';
const API_KEY = 'key-P4n7Gs2Jx9Lb5Wm3';
const TOKEN_VAR = 'AGENTCTX_TEST_HOSTILE_TOKEN';

/** Every run of 6 characters of a secret that holds a letter and a digit (distinctive enough). */
function fragments(secret) {
  const out = [];
  for (let i = 0; i + 6 <= secret.length; i += 1) {
    const part = secret.slice(i, i + 6);
    if (/[A-Za-z]/.test(part) && /\d/.test(part)) out.push(part);
  }
  return out;
}

function assertNoSecret(text, secrets, where) {
  for (const secret of secrets) {
    for (const part of fragments(secret)) assert.ok(!text.includes(part), `${where}: \`${part}\` of a secret leaked`);
  }
}

// The model server: the engine's mock model (a guest of its own) behind a proxy that keeps every body.
const mockGuest = await WasiGuest.load();
const bodies = [];
const model = createServer(async (req, res) => {
  const chunks = [];
  for await (const c of req) chunks.push(c);
  const body = Buffer.concat(chunks).toString('utf8');
  bodies.push(body);
  const answer = JSON.parse(mockGuest.call(0, 'mock.respond', JSON.stringify({ endpoint: 'responses', body, now_ms: 0 })));
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.end(answer.value.body);
});
let baseUrl;
let httpServer;
let mcpUrl;
before(async () => {
  await new Promise((r) => model.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${model.address().port}/v1`;
  httpServer = spawn(node, [HOSTILE, '--http'], { stdio: ['ignore', 'pipe', 'inherit'] });
  mcpUrl = await new Promise((resolve, reject) => {
    let out = '';
    httpServer.stdout.setEncoding('utf8').on('data', (d) => {
      out += d;
      const m = /listening on (\S+)\n/.exec(out);
      if (m) resolve(m[1]);
    });
    httpServer.on('exit', (code) => reject(new Error(`the hostile HTTP server exited ${code}`)));
  });
});
after(() => {
  model.close();
  httpServer?.kill();
});

const CALLS = ['leak_text', 'leak_error', 'leak_throw', 'leak_exit'];

/** One `run` calling every leaking tool of `server` config; returns what it printed and wrote. */
async function leakyRun(server, { json, env = {} }) {
  const tree = tempTree({ 'ws/a.txt': 'a\n' });
  after(tree.cleanup);
  const dir = tree.dir;
  writeFileSync(join(dir, 'config.json'), JSON.stringify({ mcp_servers: { h: server } }));
  bodies.length = 0;
  const prompt = CALLS.filter((c) => server.url === undefined || c !== 'leak_exit').map((c) => `#mock-call:mcp__h__${c}`).join('\n');
  // A second turn waits for the restart after leak_exit, so its note (with the stderr tail) is out.
  const script = [{ submit: prompt }, { submit: '#mock-call:mcp__h__pid' }];
  writeFileSync(join(dir, 'script.jsonl'), script.map((s) => JSON.stringify(s)).join('\n') + '\n');
  const r = await runCli(['run', '--base-url', baseUrl, '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'),
    '--dump-requests', join(dir, 'dump'), '--approval', 'never', '--config', join(dir, 'config.json'), ...(json ? ['--json'] : []),
    '--script', join(dir, 'script.jsonl')],
  { cwd: dir, env: { OPENAI_API_KEY: 'sk-model-key-not-an-mcp-secret', ...env }, timeoutMs: 60000 });
  const written = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else written.push([p, readFileSync(p, 'utf8')]);
    }
  };
  for (const sub of ['home', 'dump']) if (existsSync(join(dir, sub))) walk(join(dir, sub));
  return { r, written, bodies: [...bodies] };
}

function assertNowhere(run, secrets) {
  assertNoSecret(run.r.stdout, secrets, 'stdout');
  assertNoSecret(run.r.stderr, secrets, 'stderr');
  assert.ok(run.written.some(([p]) => p.endsWith('.jsonl')), 'a rollout was written');
  assert.ok(run.written.some(([p]) => p.includes('dump')), 'requests were dumped');
  for (const [path, text] of run.written) assertNoSecret(text, secrets, path);
  assert.ok(run.bodies.length >= 2, 'the tool outputs went back to the model');
  for (const [i, body] of run.bodies.entries()) assertNoSecret(body, secrets, `request body ${i}`);
}

/** The tool outputs of a --json run, by call order. */
const outputs = (stdout) => stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l))
  .filter((l) => l.type === 'event' && l.event.type === 'item_done' && l.event.item.type === 'function_call_output')
  .map((l) => (typeof l.event.item.output === 'string' ? l.event.item.output : JSON.stringify(l.event.item.output)));

const stdio = { command: node, args: [HOSTILE, '--secret-env', 'HOSTILE_API_TOKEN'], env: { HOSTILE_API_TOKEN: ENV_SECRET } };
const http = () => ({ url: mcpUrl, headers: { 'X-Api-Key': API_KEY }, bearer_token_env_var: TOKEN_VAR });

test('Regression stdio: an echoed env secret reaches no output, rollout, dump or request body (--json)', async () => {
  const run = await leakyRun(stdio, { json: true });
  assert.equal(run.r.code, 0, run.r.stderr);
  const out = outputs(run.r.stdout);
  assert.equal(out.length, 5, run.r.stdout);
  assert.match(out[0], /plain: \*\*\*; escaped: \*\*\*; json: \["\*\*\*"\]\n\[resource link \*\*\*\] https:\/\/example\.invalid\/\*\*\*: link \*\*\*/);
  assert.match(out[1], /^error: MCP tool `leak_error` of server `h` failed:\ndenied for \*\*\*$/);
  assert.match(out[2], /refused with credentials \*\*\*/);
  assert.match(run.r.stdout, /"leak_\*\*\*"/, 'the tool named after the secret is listed redacted');
  assert.match(run.r.stdout, /hostile: leaving with \*\*\*/, 'the stderr tail of the exit note');
  assert.ok(run.bodies.some((b) => b.includes('p_***')), 'the schema the model sees');
  assertNowhere(run, [ENV_SECRET]);
});

test('Regression stdio: the same in text mode', async () => {
  const run = await leakyRun(stdio, { json: false });
  assert.equal(run.r.code, 0, run.r.stderr);
  assert.match(run.r.stderr, /hostile: leaving with \*\*\*/);
  assertNowhere(run, [ENV_SECRET]);
});

test('Regression HTTP: an echoed bearer token and header value reach no output, rollout, dump or request body', async () => {
  for (const json of [true, false]) {
    const run = await leakyRun(http(), { json, env: { [TOKEN_VAR]: TOKEN } });
    assert.equal(run.r.code, 0, run.r.stderr);
    if (json) {
      const out = outputs(run.r.stdout);
      assert.equal(out.length, 4, run.r.stdout);
      assert.match(out[0], /plain: \*\*\* \/ \*\*\*; escaped: \*\*\* \/ \*\*\*/);
      assert.match(out[2], /refused with credentials \*\*\* \/ \*\*\*/);
    }
    assertNowhere(run, [TOKEN, API_KEY]);
  }
});

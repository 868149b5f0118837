// SPDX-License-Identifier: MIT
// MCP servers reached by URL with credentials (docs/mcp.md): a streamable-HTTP MCP server in
// this process (the official SDK's McpServer, stateless) records the headers of every request
// while the built `agentctx` runs scripted mock turns against it. `headers` and
// `bearer_token_env_var` (the token read from the environment at connect time) reach the server
// on every request, and their values appear nowhere else: not in the output, the logs, the
// rollout or the dumped requests. A missing variable or a refused token leaves the server out
// with a warning that names the setting, never the value; bad header settings are usage errors.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';
import { loadHost, runCli, tempTree } from './helpers.mjs';

await loadHost();

const API_KEY = 'k-3f9d0c1e-header-secret';
const TOKEN = 't-77ab41e2-bearer-secret';
const TOKEN_VAR = 'AGENTCTX_TEST_MCP_TOKEN';

let http;
let url;
/** The headers of every request the server received, in order. */
const seen = [];

before(async () => {
  http = createServer(async (req, res) => {
    seen.push(req.headers);
    if (req.headers.authorization !== `Bearer ${TOKEN}`) {
      // Echoes what it refused, as careless servers do: the client must not pass it on.
      res.writeHead(401, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: `unauthorized: ${req.headers.authorization?.slice(7)} with key ${req.headers['x-api-key']}` }));
      return;
    }
    if (req.method !== 'POST') {
      res.writeHead(405).end();
      return;
    }
    // Stateless: a server and a transport per request.
    const server = new McpServer({ name: 'remote', version: '1.0.0' });
    server.registerTool('echo', { description: 'Echoes the text back.', inputSchema: { text: z.string() } },
      async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${http.address().port}/mcp`;
});
after(() => http?.close());

/** Runs `run --script` with `config`; returns the result, the JSON lines and every file the run wrote. */
async function session({ script, config, env = {} }) {
  const tree = tempTree({ 'ws/a.txt': 'a\n' });
  after(tree.cleanup);
  const dir = tree.dir;
  writeFileSync(join(dir, 'script.jsonl'), script.map((s) => JSON.stringify(s)).join('\n') + '\n');
  writeFileSync(join(dir, 'config.json'), JSON.stringify(config));
  const r = await runCli(['run', '--workspace', join(dir, 'ws'), '--home', join(dir, 'home'), '--script', join(dir, 'script.jsonl'),
    '--dump-requests', join(dir, 'dump'), '--json', '--approval', 'never', '--config', join(dir, 'config.json')],
  { cwd: dir, env, timeoutMs: 60000 });
  const written = [];
  const walk = (d) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      if (statSync(p).isDirectory()) walk(p);
      else written.push([p, readFileSync(p, 'utf8')]);
    }
  };
  for (const sub of ['home', 'dump']) if (existsSync(join(dir, sub))) walk(join(dir, sub));
  const lines = r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
  return { r, lines, written };
}

const outputs = (lines) => lines.filter((l) => l.type === 'event' && l.event.type === 'item_done' && l.event.item.type === 'function_call_output')
  .map((l) => l.event.item.output);
const serverRecords = (lines) => lines.filter((l) => l.type === 'host' && l.event.type === 'mcp_server').map((l) => l.event);

function assertNowhere({ r, written }, secrets) {
  for (const secret of secrets) {
    assert.ok(!r.stdout.includes(secret), 'not in stdout');
    assert.ok(!r.stderr.includes(secret), 'not in stderr');
    for (const [path, text] of written) assert.ok(!text.includes(secret), `not in ${path}`);
  }
}

test('headers and the bearer token from the environment reach the server on every request, and nowhere else', async () => {
  seen.length = 0;
  const run = await session({
    script: [{ submit: `#mock-call:mcp__remote__echo=${JSON.stringify({ text: 'hi' })}` }],
    config: { mcp_servers: { remote: { url, headers: { 'X-Api-Key': API_KEY }, bearer_token_env_var: TOKEN_VAR } } },
    env: { [TOKEN_VAR]: TOKEN },
  });
  assert.equal(run.r.code, 0, run.r.stderr);
  assert.deepEqual(outputs(run.lines), ['echo: hi']);
  // initialize, initialized, tools/list, tools/call at least; each with both headers.
  assert.ok(seen.length >= 4, `${seen.length} requests`);
  for (const h of seen) {
    assert.equal(h['x-api-key'], API_KEY);
    assert.equal(h.authorization, `Bearer ${TOKEN}`);
  }
  assert.ok(run.written.some(([p]) => p.endsWith('.jsonl')), 'a rollout was written');
  assertNowhere(run, [API_KEY, TOKEN]);
});

test('an unset token variable leaves the server out with a warning naming the variable; the session goes on', async () => {
  seen.length = 0;
  const run = await session({
    script: [{ submit: 'hi' }],
    config: { mcp_servers: { remote: { url, bearer_token_env_var: TOKEN_VAR } } },
  });
  assert.equal(run.r.code, 0, run.r.stderr);
  assert.equal(seen.length, 0, 'nothing was sent without the token');
  const [failed] = serverRecords(run.lines);
  assert.equal(failed.state, 'failed');
  assert.match(failed.message, new RegExp(`^warning: MCP server \`remote\` did not start: environment variable ${TOKEN_VAR} \\(bearer_token_env_var\\) is not set; the session goes on without its tools$`));
  assert.equal(run.lines.filter((l) => l.type === 'turn_complete' && l.reason === 'completed').length, 1);
});

test('a refused token: the server is left out with the HTTP error, the echoed secrets hidden', async () => {
  const wrong = 'w-0c2f5b19-wrong-secret';
  const run = await session({
    script: [{ submit: 'hi' }],
    config: { mcp_servers: { remote: { url, headers: { 'X-Api-Key': API_KEY }, bearer_token_env_var: TOKEN_VAR } } },
    env: { [TOKEN_VAR]: wrong },
  });
  assert.equal(run.r.code, 0, run.r.stderr);
  const [failed] = serverRecords(run.lines);
  assert.equal(failed.state, 'failed');
  assert.match(failed.message, /^warning: MCP server `remote` did not start: .*Error POSTing to endpoint: .*unauthorized: \*\*\* with key \*\*\*.*; the session goes on without its tools$/);
  assertNowhere(run, [wrong, API_KEY]);
});

test('bad header settings are usage errors that name the key, never the value', async () => {
  const tree = tempTree({ 'ws/a.txt': 'a\n' });
  after(tree.cleanup);
  const secret = 's-5e1d-usage-secret';
  const cases = [
    [{ command: 'a', headers: { 'X-Api-Key': secret } }, /mcp_servers\.x\.headers: only for a server reached by url/],
    [{ command: 'a', bearer_token_env_var: TOKEN_VAR }, /mcp_servers\.x\.bearer_token_env_var: only for a server reached by url/],
    [{ url: 'http://127.0.0.1:9/', headers: ['X-Api-Key'] }, /mcp_servers\.x\.headers: expected an object of strings/],
    [{ url: 'http://127.0.0.1:9/', headers: { 'X-Api-Key': 5 } }, /mcp_servers\.x\.headers: expected an object of strings/],
    [{ url: 'http://127.0.0.1:9/', headers: { 'Bad Name': secret } }, /mcp_servers\.x\.headers: `Bad Name` is not a valid header name/],
    [{ url: 'http://127.0.0.1:9/', headers: { 'Mcp-Session-Id': secret } }, /mcp_servers\.x\.headers: `Mcp-Session-Id` is set by the MCP transport itself/],
    [{ url: 'http://127.0.0.1:9/', headers: { 'X-A': secret, 'x-a': secret } }, /mcp_servers\.x\.headers: `x-a` is given twice/],
    [{ url: 'http://127.0.0.1:9/', headers: { 'X-Api-Key': `${secret}\r\nX-Evil: 1` } }, /mcp_servers\.x\.headers: the value of `X-Api-Key` must be a string without control characters/],
    [{ url: 'http://127.0.0.1:9/', bearer_token_env_var: 'NOT A NAME' }, /mcp_servers\.x\.bearer_token_env_var: expected an environment variable name/],
    [{ url: 'http://127.0.0.1:9/', headers: { authorization: `Bearer ${secret}` }, bearer_token_env_var: TOKEN_VAR },
      /mcp_servers\.x\.bearer_token_env_var: headers has an Authorization header too; give it in one place/],
  ];
  for (const [server, message] of cases) {
    writeFileSync(join(tree.dir, 'c.json'), JSON.stringify({ mcp_servers: { x: server } }));
    const r = await runCli(['run', '--workspace', join(tree.dir, 'ws'), '--home', join(tree.dir, 'home'), '--config', join(tree.dir, 'c.json'), 'hi']);
    assert.equal(r.code, 2, `${JSON.stringify(server)}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.ok(!r.stderr.includes(secret) && !r.stdout.includes(secret), `${JSON.stringify(server)}: the value is not printed`);
  }
});

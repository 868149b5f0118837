// SPDX-License-Identifier: MIT
// connectMcp (the package's Node entry) against real MCP servers over stdio: the repository's
// fixture server (tests/mcp/fixture_server.mjs) for crashes and restarts, a process that never
// answers (startup_timeout_ms), a missing program, and two servers no one here wrote:
// @modelcontextprotocol/server-everything (its post-start tool registration is a real list
// change) and @modelcontextprotocol/server-filesystem limited to a temporary directory. Those two
// are devDependencies; each test says why it is skipped when one is absent.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { McpToolSet, connectMcp } from 'agentctx';
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURE = join(REPO, 'tests/mcp/fixture_server.mjs');
const EVERYTHING = join(REPO, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const FILESYSTEM = join(REPO, 'node_modules/@modelcontextprotocol/server-filesystem/dist/index.js');
const node = process.execPath;

function callOf(name, args = '{}') {
  const [, server, tool] = name.split('__');
  return { type: 'tool_call', call_id: `c-${Math.random()}`, name, server, tool, arguments: args };
}

async function connected(name, config) {
  const exits = [];
  const connection = await connectMcp(name, config, { onExit: (e) => exits.push(e) });
  after(() => connection.close());
  const set = new McpToolSet();
  set.addServer(name, connection, { toolTimeoutMs: 5000 });
  let changes = 0;
  connection.onToolsChanged(() => {
    changes += 1;
    set.listChanged(name);
  });
  await set.refresh();
  return { connection, set, exits, changes: () => changes };
}

test('a server that crashes is restarted once; after the second crash its tools answer a clear error', async () => {
  const { connection, set, exits, changes } = await connected('fixture', { command: node, args: [FIXTURE] });
  assert.equal(await set.callTool(callOf('mcp__fixture__echo', '{"text":"one"}')), 'echo: one');
  const firstPid = connection.pid;
  assert.match(await set.callTool(callOf('mcp__fixture__crash')),
    /^error: MCP tool `crash` of server `fixture` failed: the server exited during the call \(stderr: fixture: exiting on request\); it is being restarted for the next call$/);
  assert.equal(await set.callTool(callOf('mcp__fixture__echo', '{"text":"two"}')), 'echo: two', 'the next call waits for the restart');
  assert.notEqual(connection.pid, firstPid);
  assert.ok(changes() >= 1, 'a restart is announced as a possible list change');
  assert.match(await set.callTool(callOf('mcp__fixture__crash')), /the server exited during the call.*its tools are unavailable for the rest of this session$/);
  assert.equal(connection.state, 'failed');
  assert.match(await set.callTool(callOf('mcp__fixture__echo', '{"text":"three"}')),
    /^error: MCP tool `echo` of server `fixture` failed: MCP server `fixture` exited .*already restarted once, so its tools are unavailable for the rest of this session$/);
  assert.deepEqual(exits.map((e) => e.restarting), [true, false]);
});

test('a server that never answers the handshake fails within startup_timeout_ms, naming the server', async () => {
  const started = Date.now();
  await assert.rejects(
    connectMcp('sleepy', { command: node, args: ['-e', 'setInterval(() => {}, 1000)'], startup_timeout_ms: 300 }),
    /^Error: MCP server `sleepy` did not start within 300 ms \(startup_timeout_ms\): /,
  );
  assert.ok(Date.now() - started < 5000);
});

test('a program that does not exist is a clear start failure', async () => {
  await assert.rejects(connectMcp('ghost', { command: '/nonexistent/agentctx-mcp-server' }), /^Error: MCP server `ghost` (did not start|exited during startup)/);
  await assert.rejects(connectMcp('both', { command: 'x', url: 'http://127.0.0.1:1/' }), /give exactly one of command and url/);
});

test('a streamable-HTTP server on the loopback: listed and called through its URL', async () => {
  // Stateless: a server and transport per request, as the SDK's examples do.
  const http = createServer(async (req, res) => {
    const server = new McpServer({ name: 'http-fixture', version: '1.0.0' });
    server.registerTool('shout', { description: 'Upper-cases the text.', inputSchema: { text: z.string() } },
      async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  after(() => http.close());
  const { set } = await connected('web', { url: `http://127.0.0.1:${http.address().port}/mcp` });
  assert.deepEqual(set.serverTools('web'), ['shout']);
  assert.equal(await set.callTool(callOf('mcp__web__shout', '{"text":"hi"}')), 'HI');
});

test('a streamable-HTTP server gets headers and the bearer token read from the environment; errors hide them', async () => {
  const seen = [];
  let refuse = false;
  const http = createServer(async (req, res) => {
    seen.push(req.headers);
    if (refuse) {  // a careless server that echoes what it refused
      res.writeHead(500, { 'content-type': 'text/plain' }).end(`refused ${req.headers.authorization} ${req.headers['x-tenant']}`);
      return;
    }
    const server = new McpServer({ name: 'http-fixture', version: '1.0.0' });
    server.registerTool('shout', { description: 'Upper-cases the text.', inputSchema: { text: z.string() } },
      async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => { transport.close(); server.close(); });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  after(() => http.close());
  const url = `http://127.0.0.1:${http.address().port}/mcp`;
  const variable = 'AGENTCTX_TEST_CONNECT_TOKEN';
  process.env[variable] = 'tok-9d1c-secret';
  after(() => { delete process.env[variable]; });
  const { set } = await connected('web', { url, headers: { 'X-Tenant': 'tenant-4b2e-secret' }, bearer_token_env_var: variable });
  assert.equal(await set.callTool(callOf('mcp__web__shout', '{"text":"hi"}')), 'HI');
  assert.ok(seen.length >= 3);
  for (const h of seen) assert.deepEqual([h.authorization, h['x-tenant']], ['Bearer tok-9d1c-secret', 'tenant-4b2e-secret']);
  refuse = true;
  const output = await set.callTool(callOf('mcp__web__shout', '{"text":"again"}'));
  assert.match(output, /^error: MCP tool `shout` of server `web` failed: .*refused Bearer \*\*\* \*\*\*$/);
  assert.ok(!output.includes('secret'), output);
  // Bad settings are refused before anything is sent; the messages name keys, never values.
  delete process.env[variable];
  await assert.rejects(connectMcp('web', { url, bearer_token_env_var: variable }),
    new RegExp(`^Error: MCP server \`web\` did not start: environment variable ${variable} \\(bearer_token_env_var\\) is not set$`));
  await assert.rejects(connectMcp('cmd', { command: node, headers: { 'X-A': 'v' } }), /headers and bearer_token_env_var are for a server reached by url/);
  await assert.rejects(connectMcp('web', { url, headers: { 'Content-Type': 'text/x-secret' } }), (e) => {
    assert.match(e.message, /headers: `Content-Type` is set by the MCP transport itself/);
    return !e.message.includes('secret');
  });
});

test('server-everything: its tools in a fixed order, its post-start list change, echo and an image', { skip: !existsSync(EVERYTHING) && 'devDependency @modelcontextprotocol/server-everything is not installed (npm ci)' }, async () => {
  const { set, changes } = await connected('everything', { command: node, args: [EVERYTHING, 'stdio'] });
  await set.settled();
  assert.ok(changes() >= 1, 'the server announced its capability-dependent tools after start');
  const names = set.tools().map((t) => `mcp__${t.server}__${t.name}`);
  assert.deepEqual(names, [...names].sort());
  assert.ok(names.includes('mcp__everything__echo') && names.includes('mcp__everything__get-tiny-image'));
  assert.ok(!names.includes('mcp__everything__simulate-research-query'), 'task-only tools are left out');
  assert.equal(await set.callTool(callOf('mcp__everything__echo', '{"message":"hi"}')), 'Echo: hi');
  const image = await set.callTool(callOf('mcp__everything__get-tiny-image'));
  assert.ok(Array.isArray(image) && image.some((p) => p.type === 'input_image' && p.image_url.startsWith('data:image/png;base64,')));
  assert.match(await set.callTool(callOf('mcp__everything__echo', '{}')), /^error: MCP tool `echo` of server `everything` failed:\n/);
});

test('server-filesystem limited to a temporary directory reads inside it and refuses outside it', { skip: !existsSync(FILESYSTEM) && 'devDependency @modelcontextprotocol/server-filesystem is not installed (npm ci)' }, async () => {
  const dir = mkdtempSync(join(tmpdir(), 'agentctx-mcp-fs-'));
  after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'note.txt'), 'inside\n');
  const { set } = await connected('fs', { command: node, args: [FILESYSTEM, dir] });
  const call = (path) => set.callTool(callOf('mcp__fs__read_text_file', JSON.stringify({ path })));
  assert.equal(await call(join(dir, 'note.txt')), 'inside\n', 'the text block only (its structuredContent repeats it)');
  assert.match(await call('/etc/hostname'), /^error: MCP tool `read_text_file` of server `fs` failed:\n.*(denied|outside)/is);
});

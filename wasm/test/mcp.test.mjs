// SPDX-License-Identifier: MIT
// The package's MCP adapter (docs/mcp.md): the naming rule, listings (pagination, order, schema
// bytes), result mapping, calls (timeouts, failures, approval), and whole turns with the engine
// and a real MCP server over the SDK's in-memory transport: a tool's text reaches the next
// request, and a tool-list change becomes one `update` (defer: the next request extends the
// previous one byte for byte; apply: the tools array changes).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  McpToolSet, createEngine, createMemoryFileSystem, listAllTools, mcpResultToOutput, mcpToolName, mcpTools,
  mockModelClient, runTurn, sanitizeToolName,
} from 'agentctx';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

const NAME_RULE = /^[a-zA-Z0-9_-]{1,64}$/;

/** A fake client: `pages` of tools, each page one listTools answer. */
function fakeClient(pages, call = async () => ({ content: [{ type: 'text', text: 'ok' }] })) {
  let listings = 0;
  return {
    get listings() { return listings; },
    pages,
    async listTools(params = {}) {
      listings += 1;
      const i = params.cursor === undefined ? 0 : Number(params.cursor);
      const page = this.pages[i];
      return i + 1 < this.pages.length ? { tools: page, nextCursor: String(i + 1) } : { tools: page };
    },
    callTool: call,
  };
}

test('names: mcp__server__tool, sanitised, at most 64 bytes, hashed only when cut or colliding', () => {
  assert.equal(mcpToolName('everything', 'echo'), 'mcp__everything__echo');
  assert.equal(mcpToolName('my.server', 'get file'), 'mcp__my_server__get_file');
  assert.equal(sanitizeToolName('é/x'), '__x');
  assert.equal(sanitizeToolName(''), '_');
  const long = mcpToolName('a-very-long-server-name-indeed-yes', 'x'.repeat(100));
  assert.match(long, NAME_RULE);
  assert.equal(long.length, 64);
  assert.match(long, /^mcp__a-very-long-ser_[0-9a-f]{8}__x+_[0-9a-f]{8}$/);
  assert.equal(mcpToolName('a-very-long-server-name-indeed-yes', 'x'.repeat(100)), long, 'the same raw names, the same name');
  assert.notEqual(mcpToolName('s', 'x'.repeat(100)), mcpToolName('s', `${'x'.repeat(99)}y`));
});

test('collisions on one server resolve the same way whatever order the server lists them in', async () => {
  const names = async (order) => {
    const set = new McpToolSet();
    set.addServer('s', fakeClient([order.map((name) => ({ name, inputSchema: { type: 'object' } }))]));
    await set.refresh();
    return set.tools().map((t) => `mcp__${t.server}__${t.name}`);
  };
  const a = await names(['a.b', 'a_b', 'a b']);
  const b = await names(['a b', 'a_b', 'a.b']);
  assert.deepEqual(a, b);
  assert.equal(new Set(a).size, 3);
  assert.ok(a.includes('mcp__s__a_b'), 'the exact name keeps its name');
  for (const n of a) assert.match(n, NAME_RULE);
});

test('listing: every page, one fixed order, schema bytes independent of key order; a real change is one update', async () => {
  const schema = (order) => Object.fromEntries(order.map((k) => [k, { b: { type: 'string', description: 'B' }, a: { type: 'number' } }[k]]));
  const client = fakeClient([
    [{ name: 'zeta', description: 'Z', inputSchema: { type: 'object', properties: schema(['b', 'a']) } }],
    [{ name: 'alpha', description: 'A', inputSchema: { properties: schema(['a', 'b']), type: 'object', $schema: 'x' } }],
    [{ name: 'task_only', execution: { taskSupport: 'required' } }, { name: 'mid', title: 'Mid title' }],
  ]);
  const set = new McpToolSet({ baseTools: [{ name: 'local_tool' }] });
  set.addServer('srv', client);
  await set.refresh();
  const first = set.sessionTools();
  assert.deepEqual(first.map((t) => t.name), ['local_tool', 'alpha', 'mid', 'zeta']);
  assert.deepEqual(first[2], { server: 'srv', name: 'mid', description: 'Mid title', parameters: { properties: {}, type: 'object' } });
  assert.equal(JSON.stringify(first[1].parameters), '{"properties":{"a":{"type":"number"},"b":{"description":"B","type":"string"}},"type":"object"}');
  // The same tools listed again in another order with keys reordered: no update.
  client.pages = [[...client.pages[2], client.pages[1][0]], [{ ...client.pages[0][0], inputSchema: { properties: schema(['a', 'b']), type: 'object' } }]];
  set.listChanged('srv');
  assert.equal(await set.takeUpdate(), undefined);
  // A changed schema, an added and a removed tool: one update naming each.
  client.pages = [[
    { name: 'zeta', description: 'Z', inputSchema: { type: 'object', properties: { a: { type: 'string' } } } },
    { name: 'alpha', description: 'A', inputSchema: { type: 'object', properties: schema(['a', 'b']) } },
    { name: 'new_one' },
  ]];
  set.listChanged('srv');
  const update = await set.takeUpdate();
  assert.deepEqual(update.change, { added: ['mcp__srv__new_one'], removed: ['mcp__srv__mid'], changed: ['mcp__srv__zeta'] });
  assert.deepEqual(update.delta.tools.map((t) => t.name), ['local_tool', 'alpha', 'new_one', 'zeta']);
  assert.equal(await set.takeUpdate(), undefined, 'handed over once');
});

test('listing: enabled_tools and disabled_tools filter; a cursor seen twice ends the listing', async () => {
  const looping = { async listTools() { return { tools: [{ name: 'a' }], nextCursor: 'same' }; } };
  assert.equal((await listAllTools(looping)).length, 2);
  const set = new McpToolSet();
  set.addServer('s', fakeClient([[{ name: 'a' }, { name: 'b' }, { name: 'c' }]]), { enabledTools: ['a', 'b'], disabledTools: ['b'] });
  await set.refresh();
  assert.deepEqual(set.serverTools('s'), ['a']);
});

test('results: text, images as input_image, structuredContent as JSON, isError said, links and resources as text', () => {
  const who = { server: 'srv', tool: 't' };
  assert.equal(mcpResultToOutput({ content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] }, who), 'a\nb');
  assert.deepEqual(mcpResultToOutput({ content: [{ type: 'text', text: 'pic:' }, { type: 'image', data: 'AAAA', mimeType: 'image/png' }] }, who), [
    { type: 'input_text', text: 'pic:' }, { type: 'input_image', image_url: 'data:image/png;base64,AAAA' },
  ]);
  assert.equal(mcpResultToOutput({ content: [], structuredContent: { b: 2, a: 1 } }, who), '{"a":1,"b":2}');
  assert.equal(mcpResultToOutput({ content: [{ type: 'text', text: 'the text form' }], structuredContent: { b: 2, a: 1 } }, who), 'the text form', 'never twice');
  assert.equal(mcpResultToOutput({ content: [{ type: 'text', text: 'boom' }], isError: true }, who), 'error: MCP tool `t` of server `srv` failed:\nboom');
  assert.equal(mcpResultToOutput({ content: [{ type: 'resource_link', uri: 'file:///x', name: 'x', mimeType: 'text/plain' }] }, who), '[resource link x] file:///x (text/plain)');
  assert.equal(mcpResultToOutput({ content: [{ type: 'resource', resource: { uri: 'mem://a', text: 'hello' } }] }, who), '[resource mem://a]\nhello');
  assert.equal(mcpResultToOutput({ content: [{ type: 'resource', resource: { uri: 'mem://b', blob: 'AAAA' } }] }, who), '[resource mem://b, 3 bytes of binary data, not shown]');
  assert.equal(mcpResultToOutput({ content: [{ type: 'audio', data: 'AAAAAAAA', mimeType: 'audio/wav' }] }, who), '[audio audio/wav, 6 bytes, not shown]');
  assert.equal(mcpResultToOutput({ content: [] }, who), '(the tool returned no content)');
});

function callOf(name, args = '{}') {
  const [, server, tool] = name.split('__');
  return { type: 'tool_call', call_id: 'c1', name, server, tool, arguments: args };
}

test('calls: a timeout, a throwing client, bad arguments and a refusal each answer a text the model reads', async () => {
  const hang = () => new Promise(() => {});
  const set = await mcpTools(fakeClient([[{ name: 'slow' }]], hang), { server: 's', toolTimeoutMs: 50 });
  const started = Date.now();
  assert.equal(await set.callTool(callOf('mcp__s__slow')), 'error: MCP tool `slow` of server `s` timed out after 50 ms (tool_timeout_ms)');
  assert.ok(Date.now() - started < 2000);
  const failing = await mcpTools(fakeClient([[{ name: 'x' }]], async () => { throw new Error('connection lost'); }), { server: 's' });
  assert.equal(await failing.callTool(callOf('mcp__s__x')), 'error: MCP tool `x` of server `s` failed: connection lost');
  assert.match(await failing.callTool(callOf('mcp__s__x', '{nope')), /^error: the arguments of mcp__s__x are not JSON/);
  assert.equal(await failing.callTool(callOf('mcp__s__missing')), 'error: mcp__s__missing is not a tool of any connected MCP server');
  const asked = [];
  const guarded = await mcpTools(fakeClient([[{ name: 'x' }]]), {
    server: 's', approve: (r) => { asked.push(r); return 'error: declined'; },
  });
  assert.equal(await guarded.callTool(callOf('mcp__s__x', '{"a":1}')), 'error: declined');
  assert.deepEqual(asked, [{ server: 's', tool: 'x', name: 'mcp__s__x', arguments: '{"a":1}' }]);
});

/** A real SDK server with `echo` and `add_tool`, connected in memory; the set follows its list changes. */
async function sdkServer() {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });
  server.registerTool('echo', { description: 'Echoes the text.', inputSchema: { text: z.string() } },
    async ({ text }) => ({ content: [{ type: 'text', text: `echo: ${text}` }] }));
  server.registerTool('add_tool', { description: 'Adds a tool.', inputSchema: { name: z.string() } }, async ({ name }) => {
    server.registerTool(name, { description: `Added (${name}).` }, async () => ({ content: [{ type: 'text', text: `${name} ran` }] }));
    return { content: [{ type: 'text', text: `added ${name}` }] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'agentctx-test', version: '1.0.0' });
  await client.connect(clientSide);
  const set = new McpToolSet();
  set.addServer('fixture', client);
  client.setNotificationHandler(ToolListChangedNotificationSchema, async () => set.listChanged('fixture'));
  await set.refresh();
  return { set, client };
}

async function session(set, policy) {
  const engine = await createEngine();
  const s = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'a\n' }) });
  s.call('session.start', {
    config: { session_id: 'mcp', model: { slug: 'mock-1' }, environments: [{ id: 'l', cwd: '/repo', fs: 'workspace' }], tools: set.sessionTools(), tool_policy: policy },
    now_ms: 0,
  });
  let clock = 0;
  const now = () => (clock += 10);
  const bodies = [];
  const changes = [];
  const turn = async (input) => {
    const effects = await set.applyUpdate(s, { now, onChange: (c) => changes.push(c) });
    assert.deepEqual(effects.filter((e) => e.type === 'error'), []);
    return runTurn(s, {
      input, now, model: mockModelClient(engine, { now }),
      tools: set.toolHandler({ session: s, now, onChange: (c) => changes.push(c) }),
      onEffect: (e) => { if (e.type === 'model_request') bodies.push(e.bodyText); },
    });
  };
  return { engine, turn, bodies, changes };
}

const inputOf = (body) => body.slice(0, body.indexOf('],"tools":'));
const toolsOf = (body) => body.slice(body.indexOf('"tools":'));

test('a turn with an SDK server: the tool text reaches the next request; a list change under defer costs nothing', async () => {
  const { set, client } = await sdkServer();
  const { engine, turn, bodies, changes } = await session(set, 'defer');
  let r = await turn('#mock-call:mcp__fixture__echo={"text":"hi"}');
  assert.equal(r.reason, 'completed');
  assert.ok(bodies[0].includes('"name":"mcp__fixture__echo"'));
  assert.ok(bodies[1].includes('{"type":"function_call_output","call_id":"call_') && bodies[1].includes('"output":"echo: hi"'));
  r = await turn('#mock-call:mcp__fixture__add_tool={"name":"later"}');
  assert.equal(r.reason, 'completed');
  assert.deepEqual(changes, [{ added: ['mcp__fixture__later'], removed: [], changed: [] }]);
  await turn('hello');
  for (let i = 1; i < bodies.length; i++) {
    assert.ok(inputOf(bodies[i]).startsWith(inputOf(bodies[i - 1])), `request ${i + 1} extends request ${i}`);
    assert.equal(toolsOf(bodies[i]), toolsOf(bodies[i - 1]), 'the advertised tools stay frozen');
  }
  assert.ok(!toolsOf(bodies.at(-1)).includes('mcp__fixture__later'));
  assert.ok(bodies.at(-1).includes('will become callable after the next context compaction:\\n- mcp__fixture__later: Added (later).'));
  engine.dispose();
  await client.close();
});

test('the same list change under apply: the next step advertises the new tool', async () => {
  const { set, client } = await sdkServer();
  const { engine, turn, bodies } = await session(set, 'apply');
  await turn('#mock-call:mcp__fixture__add_tool={"name":"later"}');
  assert.equal(bodies.length, 2);
  assert.ok(!toolsOf(bodies[0]).includes('mcp__fixture__later'));
  assert.ok(toolsOf(bodies[1]).includes('"name":"mcp__fixture__later"'), 'applied between the steps of the turn');
  engine.dispose();
  await client.close();
});

// SPDX-License-Identifier: MIT
// A tool the MCP server drops during its own call (docs/mcp.md, "List changes and what they
// cost"): the hostile server's `vanish` (tests/mcp/hostile_server.mjs) removes itself and sends
// notifications/tools/list_changed before it answers, over stdio and over streamable HTTP. Under
// `tool_policy: native` — with the provider's channel on, and acting as `defer` without it — the
// turn ends normally: the output the server returned is what the next request carries, that
// request is sent, and the removal reaches the engine with the next update. And runTurn acts on
// every effect a tool handler's session call brings about (`context.callInStep`), a model
// request included.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';

import { McpToolSet, connectMcp, createEngine, createMemoryFileSystem, mockModelClient, runTurn } from 'agentctx';
import { serveHttp } from '../../tests/mcp/hostile_server.mjs';

const HOSTILE = fileURLToPath(new URL('../../tests/mcp/hostile_server.mjs', import.meta.url));
const REMOVED_TEXT = 'was removed while this call was running';

/** The hostile server over `transport`; `close()` stops the client first, then the HTTP server. */
async function connect(transport) {
  if (transport === 'stdio') {
    const connection = await connectMcp('hostile', { command: process.execPath, args: [HOSTILE] });
    return { connection, close: () => connection.close() };
  }
  const http = await serveHttp();
  const connection = await connectMcp('hostile', { url: http.url });
  return { connection, close: async () => { await connection.close(); await http.close(); } };
}

/** A session with the hostile server's tools; `turn(input)` runs one turn with the set's handler. */
async function session(transport, extraConfig) {
  const { connection, close } = await connect(transport);
  after(close);
  const set = new McpToolSet();
  set.addServer('hostile', connection);
  connection.onToolsChanged(() => set.listChanged('hostile'));
  await set.refresh();
  const engine = await createEngine();
  after(() => engine.dispose());
  const s = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'a\n' }) });
  let clock = 0;
  const now = () => (clock += 10);
  s.call('session.start', {
    config: {
      session_id: 'vanish', model: { slug: 'mock-1' }, environments: [{ id: 'l', cwd: '/repo', fs: 'workspace' }],
      tools: set.sessionTools(), tool_policy: 'native', ...extraConfig,
    },
    now_ms: now(),
  });
  const bodies = [];
  const changes = [];
  const warnings = [];
  const turn = async (input) => {
    await set.applyUpdate(s, { now, onChange: (c) => changes.push(c) });
    return runTurn(s, {
      input, now, model: mockModelClient(engine, { now }),
      tools: set.toolHandler({ session: s, now, onChange: (c) => changes.push(c), onEffects: () => assert.fail('no effect bypasses runTurn') }),
      onEffect: (e) => {
        if (e.type === 'model_request') bodies.push(e.bodyText);
        if (e.type === 'event' && e.event.type === 'warning') warnings.push(e.event.code);
      },
    });
  };
  return { set, turn, bodies, changes, warnings };
}

for (const transport of ['stdio', 'http']) {
  for (const [label, extra] of [['the channel on', { provider_features: { tool_changes: true } }], ['acting as defer', {}]]) {
    test(`${transport}, native (${label}): a tool removed during its own call ends its turn normally with the output the server returned`, async () => {
      const { set, turn, bodies, changes, warnings } = await session(transport, extra);
      const first = await turn('#mock-call:mcp__hostile__vanish={}');
      assert.equal(first.reason, 'completed');
      assert.equal(first.requests, 2, 'the request after the call was sent');
      assert.ok(bodies[1].includes('"output":"vanish answered"'), bodies[1]);
      assert.ok(!bodies[1].includes(REMOVED_TEXT));
      assert.deepEqual(warnings.filter((w) => w === 'stale_delivery'), [], 'the real output was delivered, not ignored');
      assert.deepEqual(changes, [], 'the removal waited for the call to be delivered');
      assert.ok(!set.tools().some((t) => t.name === 'vanish'), 'the server no longer lists it');

      // The next turn: the removal reaches the engine (and, with the channel, the model).
      const second = await turn('hello');
      assert.equal(second.reason, 'completed');
      assert.deepEqual(changes, [{ added: [], removed: ['mcp__hostile__vanish'], changed: [] }]);
      for (let i = 1; i < bodies.length; i++) {
        const input = (b) => b.slice(0, b.indexOf('],"tools":'));
        assert.ok(input(bodies[i]).startsWith(input(bodies[i - 1])), `request ${i + 1} extends request ${i}`);
      }
      if (extra.provider_features) assert.match(bodies.at(-1), /mcp__hostile__vanish/);
    });
  }
}

test('runTurn acts on the effects of a session call a tool handler makes in its step (a model request it starts is sent)', async () => {
  const engine = await createEngine();
  after(() => engine.dispose());
  let clock = 1;
  const now = () => (clock += 1);
  const open = () => {
    const s = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'a\n' }) });
    const tool = { server: 'h', name: 'gone', description: 'Goes away.', parameters: { type: 'object', properties: {} } };
    s.call('session.start', {
      config: { session_id: 'in-step', model: { slug: 'mock-1' }, environments: [{ id: 'l', cwd: '/repo', fs: 'workspace' }], tools: [tool], tool_policy: 'native' },
      now_ms: now(),
    });
    return s;
  };
  // The handler removes its own tool before answering: the engine answers the call itself and
  // starts the next request inside that `update`; runTurn must send it.
  const s = open();
  const bodies = [];
  let handled = 0;
  const result = await runTurn(s, {
    input: '#mock-call:mcp__h__gone={}', now, model: mockModelClient(engine, { now }),
    tools: async (_call, context) => {
      handled += 1;
      await context.callInStep(() => s.call('update', { delta: { tools: [] }, now_ms: now() }).effects);
      return 'late answer';
    },
    onEffect: (e) => { if (e.type === 'model_request') bodies.push(e.bodyText); },
  });
  assert.equal(handled, 1);
  assert.equal(result.reason, 'completed');
  assert.equal(result.requests, 2);
  assert.ok(bodies[1].includes(REMOVED_TEXT), 'the engine answered the call of the removed tool');

  // A run that throws is the handler's failure only: the step's deliveries go on.
  const other = open();
  const failing = await runTurn(other, {
    input: '#mock-call:mcp__h__gone={}', now, model: mockModelClient(engine, { now }),
    tools: async (_call, context) => {
      handled += 1;
      await assert.rejects(context.callInStep(() => { throw new Error('refused'); }), /refused/);
      return 'answered anyway';
    },
  });
  assert.equal(handled, 2);
  assert.equal(failing.reason, 'completed');
  assert.equal(failing.requests, 2);
});

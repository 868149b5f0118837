// SPDX-License-Identifier: MIT
// The playground's in-page MCP server (web/tracker.js) through the package's MCP adapter, in
// Node with the real engine: its tools are listed across pages, a call answers, and the
// `enable_editing` call makes the server announce a new list, which reaches the session as one
// `update` (through app.update, as the page does): under apply the next step advertises
// close_issue; under defer the tools stay frozen and the requests extend each other.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createEngine, createMemoryFileSystem, mockModelClient, runTurn } from 'agentctx';
import { attachTracker, createTrackerServer } from '../../web/tracker.js';

test('the tracker answers tools/list page by page and tools/call with content blocks', async () => {
  const server = createTrackerServer();
  const first = await server.listTools();
  assert.deepEqual(first.tools.map((t) => t.name), ['search_issues', 'get_issue']);
  assert.equal(first.nextCursor, '2');
  const second = await server.listTools({ cursor: first.nextCursor });
  assert.deepEqual(second.tools.map((t) => t.name), ['enable_editing']);
  assert.equal(second.nextCursor, undefined);
  assert.deepEqual(await server.callTool({ name: 'close_issue', arguments: { number: 12 } }), { content: [{ type: 'text', text: 'unknown tool close_issue' }], isError: true });
});

/** A stand-in for the page's app object: the session, its config, app.update, notes. */
async function fakeApp(policy) {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'a\n' }) });
  let clock = 0;
  const app = {
    session, notes: [], updates: [],
    now: () => (clock += 10),
    config: { session_id: 'pg', model: { slug: 'mock-1' }, environments: [{ id: 'l', cwd: '/repo', fs: 'workspace' }], tools: [], tool_policy: policy },
    update(delta) {
      session.call('update', { delta, now_ms: app.now() });
      app.config = { ...app.config, ...delta };
      app.updates.push(delta);
      return true;
    },
  };
  app.tracker = await attachTracker(app, (text) => app.notes.push(text));
  app.config.tools = app.tracker.tools(); // the settings switch, on from the start
  session.call('session.start', { config: app.config, now_ms: 0 });
  const bodies = [];
  app.turn = async (input) => {
    await app.tracker.flush();
    return runTurn(session, {
      input, now: app.now, model: mockModelClient(engine, { now: app.now }), tools: app.tracker.handler(),
      onEffect: (e) => { if (e.type === 'model_request') bodies.push(e.bodyText); },
    });
  };
  return { app, engine, bodies };
}

const toolsOf = (body) => body.slice(body.indexOf('"tools":'));
const inputOf = (body) => body.slice(0, body.indexOf('],"tools":'));

test('apply: enable_editing makes close_issue appear at the next step, through one update', async () => {
  const { app, engine, bodies } = await fakeApp('apply');
  const r = await app.turn('#mock-call:mcp__tracker__enable_editing');
  assert.equal(r.reason, 'completed');
  assert.equal(app.updates.length, 1, 'one update for the list change');
  assert.deepEqual(app.updates[0].tools.map((t) => t.name), ['close_issue', 'enable_editing', 'get_issue', 'search_issues']);
  assert.ok(!toolsOf(bodies[0]).includes('mcp__tracker__close_issue'));
  assert.ok(toolsOf(bodies[1]).includes('"name":"mcp__tracker__close_issue"'));
  assert.match(app.notes[0], /^tracker: tools\/list_changed \(\+mcp__tracker__close_issue\) became one update of tools; apply:/);
  const closed = await app.turn('#mock-call:mcp__tracker__close_issue={"number":12}');
  assert.equal(closed.reason, 'completed');
  assert.ok(bodies.at(-1).includes('"output":"closed #12"'));
  engine.dispose();
});

test('defer: the same change costs nothing: every request extends the one before', async () => {
  const { app, engine, bodies } = await fakeApp('defer');
  await app.turn('#mock-call:mcp__tracker__get_issue={"number":17}');
  await app.turn('#mock-call:mcp__tracker__enable_editing');
  await app.turn('thanks');
  for (let i = 1; i < bodies.length; i++) {
    assert.ok(inputOf(bodies[i]).startsWith(inputOf(bodies[i - 1])), `request ${i + 1} extends request ${i}`);
    assert.equal(toolsOf(bodies[i]), toolsOf(bodies[i - 1]));
  }
  assert.ok(bodies[1].includes('"output":"{\\"number\\":17,'), 'a text block wins over its structuredContent');
  assert.match(app.notes[0], /defer: the model is told now/);
  engine.dispose();
});

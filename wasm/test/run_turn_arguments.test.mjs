// SPDX-License-Identifier: MIT
// runTurn's arguments are checked before anything reaches the session: a missing or malformed
// model client is an AgentctxError `invalid_input` that names the option, no effect is acted on
// and nothing is persisted, and the session still runs the next (correct) turn.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { AgentctxError, createEngine, createMemoryFileSystem, mockModelClient, runTurn } from 'agentctx';

test('runTurn without a model client is invalid_input and leaves the session untouched', async () => {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/AGENTS.md': 'reply prefix: [ok]\n' }) });
  session.call('session.start', {
    config: { session_id: 's', model: { slug: 'mock-1' }, environments: [{ id: 'local', cwd: '/repo', fs: 'workspace' }] },
    now_ms: 0,
  });
  const seen = [];
  const spies = { onEffect: (e) => seen.push(e.type), onPersist: () => seen.push('persist-callback') };
  for (const model of [undefined, null, {}, { send: 'not a function' }]) {
    await assert.rejects(runTurn(session, { input: 'hi', model, ...spies }), (e) => {
      assert.ok(e instanceof AgentctxError, `${e?.name}: ${e?.message}`);
      assert.equal(e.code, 'invalid_input');
      assert.match(e.message, /options\.model must be a ModelClient/);
      return true;
    });
  }
  await assert.rejects(runTurn(session), (e) => e instanceof AgentctxError && e.code === 'invalid_input');
  assert.deepEqual(seen, [], 'nothing was submitted');

  const result = await runTurn(session, { input: 'hi', model: mockModelClient(engine) });
  assert.equal(result.reason, 'completed');
  assert.equal(result.requests, 1);
  session.close();
  engine.dispose();
});

// SPDX-License-Identifier: MIT
// `update` through the package: a cwd that is not an existing directory of its environment's
// FileSystem is refused with AgentctxError invalid_config naming the path, and nothing changes
// (the next request still names the old cwd); an existing directory is applied. The same rule
// the CLI applies to --cwd and the playground's settings meet. `session.start` refuses such a
// cwd the same way, and the handle can then start with one that exists.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { AgentctxError, createEngine, createMemoryFileSystem, mockModelClient, runTurn } from 'agentctx';

const config = { session_id: 's', model: { slug: 'mock-1' }, environments: [{ id: 'local', cwd: '/repo', fs: 'workspace' }] };

/** Runs one mock turn; returns the text of its first request body. */
async function firstBody(session, input) {
  const bodies = [];
  await runTurn(session, {
    input, model: mockModelClient(session.engine),
    onEffect: (e) => { if (e.type === 'model_request') bodies.push(e.bodyText); },
  });
  return bodies[0];
}

test('update refuses a cwd that does not exist, and changes nothing', async () => {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/src/main.rs': 'fn main() {}\n', '/repo/notes.txt': 'n' }) });
  try {
    session.call('session.start', { config, now_ms: 0 });
    for (const [cwd, words] of [['/repo/nope', 'does not exist'], ['/repo/notes.txt', 'is not a directory']]) {
      assert.throws(() => session.call('update', { delta: { cwd } }), (e) => {
        assert.ok(e instanceof AgentctxError);
        assert.equal(e.code, 'invalid_config');
        assert.ok(e.message.includes(cwd) && e.message.includes(words), e.message);
        return true;
      });
    }
    const before = await firstBody(session, 'hello');
    assert.ok(before.includes('<cwd>/repo</cwd>'));
    assert.ok(!before.includes('/repo/nope'));
    session.call('update', { delta: { cwd: '/repo/src' } });
    assert.ok((await firstBody(session, 'again')).includes('<cwd>/repo/src</cwd>'));
  } finally {
    session.close();
    engine.dispose();
  }
});

test('session.start refuses a cwd that does not exist or is a file, and the handle can start again', async () => {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/notes.txt': 'n' }) });
  try {
    for (const [cwd, words] of [['/nope', 'does not exist'], ['/repo/notes.txt', 'is not a directory']]) {
      const environments = [{ id: 'local', cwd, fs: 'workspace' }];
      assert.throws(() => session.call('session.start', { config: { ...config, environments }, now_ms: 0 }), (e) => {
        assert.ok(e instanceof AgentctxError);
        assert.equal(e.code, 'invalid_config');
        assert.ok(e.message.includes(`environments[0].cwd ${cwd} ${words}`), e.message);
        return true;
      });
    }
    // Nothing was started: the same handle starts with a cwd that exists and runs a turn.
    session.call('session.start', { config, now_ms: 0 });
    assert.ok((await firstBody(session, 'hello')).includes('<cwd>/repo</cwd>'));
  } finally {
    session.close();
    engine.dispose();
  }
});

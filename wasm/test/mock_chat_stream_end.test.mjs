// SPDX-License-Identifier: MIT
// The offline mock on every provider: a tool turn run by runTurn on mockModelClient (one SSE
// event per delivery) gives no `stale_delivery`. Chat Completions completes at its usage chunk
// and sends `data: [DONE]` after it; that delivery closes the stream and is not stale.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { createEngine, createMemoryFileSystem, mockModelClient, runTurn } from 'agentctx';

const FILES = { '/repo/src/main.rs': 'fn main() {\n    println!("hi");\n}\n' };

for (const provider of ['chat', 'responses', 'anthropic']) {
  test(`a ${provider} tool turn on the offline mock has no stale_delivery`, async () => {
    const engine = await createEngine();
    const session = engine.openSession({ workspace: createMemoryFileSystem(FILES) });
    try {
      session.call('session.start', {
        config: { session_id: `s-${provider}`, model: { slug: 'mock-1' }, provider, environments: [{ id: 'local', cwd: '/repo', fs: 'workspace' }] },
        now_ms: 0,
      });
      const warnings = [];
      const deliveries = [];
      const model = mockModelClient(engine);
      const counting = {
        async *send(request, options) {
          for await (const delivery of model.send(request, options)) {
            deliveries.push(delivery);
            yield delivery;
          }
        },
      };
      for (const input of ['Please read src/main.rs.', 'Thanks.']) {
        const result = await runTurn(session, {
          input, model: counting, onEvent: (e) => { if (e.type === 'warning') warnings.push(e); },
        });
        assert.equal(result.reason, 'completed');
        assert.deepEqual(result.errors, []);
      }
      if (provider === 'chat') {
        // The case: `[DONE]` reached the engine on its own, after the usage chunk.
        assert.ok(deliveries.some((d) => d.sse === 'data: [DONE]\n\n'));
      }
      assert.deepEqual(warnings.filter((w) => w.code === 'stale_delivery'), []);
      // The tool turn happened: a call and its output are in history.
      const types = session.call('history').map((h) => h.item.type);
      assert.ok(types.includes('function_call') && types.includes('function_call_output'), types.join(' '));
    } finally {
      session.close();
      engine.dispose();
    }
  });
}

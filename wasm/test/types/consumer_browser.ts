// SPDX-License-Identifier: MIT
// Type-level test of the public .d.ts as a bundler/browser consumer sees it (export condition
// "default", no @types/node, lib ES2022 + DOM without esnext.disposable): node:fs helpers are
// absent; the driver, the model clients and the wire types (docs/protocol.md) are there; sessions
// and engines are closed by name (Symbol.dispose is not declared here).
// Compiled by wasm/test/types.test.mjs.
import {
  createEngine, createMemoryFileSystem, mockModelClient, openAIResponsesClient, runTurn,
  type AgentctxEngine, type CacheReportEvent, type Delivery, type Effect, type SessionConfig,
} from 'agentctx';
// @ts-expect-error createNodeFileSystem is Node-only
import { createNodeFileSystem } from 'agentctx';

export async function main(): Promise<void> {
  const engine: AgentctxEngine = await createEngine({ wasmUrl: '/agentctx/agentctx.wasm' });
  const fs = createMemoryFileSystem({ '/w/AGENTS.md': 'x' });
  const removed: boolean = fs.remove('/w/AGENTS.md');
  const session = engine.openSession({ workspace: fs });
  const config: SessionConfig = { session_id: 's', model: { slug: 'm' }, environments: [{ id: 'e', cwd: '/w', fs: 'workspace' }] };
  const effects: Effect[] = session.call('session.start', { config }).effects;
  for (const effect of effects) {
    if (effect.type === 'model_request') {
      const endpoint: 'responses' | 'responses/compact' | 'chat/completions' | 'messages' = effect.endpoint;
      void endpoint;
    } else if (effect.type === 'event' && effect.event.type === 'cache_report') {
      const report: CacheReportEvent = effect.event;
      void report.break?.lost_tokens;
    }
  }
  const delivery: Delivery = { type: 'tool_output', call_id: 'c', output: [{ type: 'input_text', text: 't' }] };
  session.call('deliver', { delivery, now_ms: 1 });
  // @ts-expect-error a delivery needs its type's fields
  session.call('deliver', { delivery: { type: 'model_events' } });
  const controller = new AbortController();
  const result = await runTurn(session, {
    input: { text: 'hi', images: [{ image_url: 'data:image/png;base64,' }] },
    model: fs.paths().length > 0 ? mockModelClient(engine, { eventDelayMs: 1 }) : openAIResponsesClient({ apiKey: 'k', fetch }),
    signal: controller.signal,
  });
  const reason: 'completed' | 'interrupted' | 'failed' = result.reason;
  session.close();
  const closed: boolean = session.closed;
  engine.dispose();
  void [createNodeFileSystem, removed, reason, closed];
}

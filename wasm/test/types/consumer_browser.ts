// SPDX-License-Identifier: MIT
// Type-level test of the public .d.ts as a bundler/browser consumer sees it (export condition
// "default", no @types/node): node:fs helpers are absent. Compiled by wasm/test/types.test.mjs.
import { createEngine, createMemoryFileSystem, type AgentctxEngine } from 'agentctx';
// @ts-expect-error createNodeFileSystem is Node-only
import { createNodeFileSystem } from 'agentctx';

export async function main(): Promise<void> {
  const engine: AgentctxEngine = await createEngine({ wasmUrl: '/agentctx/agentctx.wasm' });
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/w/AGENTS.md': 'x' }) });
  session.close();
  void createNodeFileSystem;
}

// SPDX-License-Identifier: MIT
// Entry point for browsers, workers and bundlers (export condition "default"): agentctx.wasm is
// resolved against this module's URL (or options.wasmUrl) and fetched by the Emscripten loader.
import { wrapEngine } from './engine.js';
import { loadModule } from './loader.js';
import type { AgentctxEngine, EngineOptions } from './types.js';

export * from './api.js';

/** Loads the module (once) and creates an engine with its own session table. */
export async function createEngine(options: EngineOptions = {}): Promise<AgentctxEngine> {
  const module = await loadModule(() => {
    if (options.wasmBinary !== undefined) return { wasmBinary: options.wasmBinary };
    const wasmUrl = String(options.wasmUrl ?? new URL('./agentctx.wasm', import.meta.url));
    return { locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? wasmUrl : prefix + path) };
  });
  return wrapEngine(new module.Engine());
}

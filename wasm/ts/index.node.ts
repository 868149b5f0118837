// SPDX-License-Identifier: MIT
// Entry point for Node (export condition "node"). Emscripten 3.1.6 would fetch() a file path under
// Node 20, so the wasm bytes are read here and passed as wasmBinary. Adds
// createNodeFileSystem, which needs node:fs.
import { readFile } from 'node:fs/promises';

import { wrapEngine } from './engine.js';
import { loadModule } from './loader.js';
import type { AgentctxEngine, EngineOptions } from './types.js';

export * from './api.js';
export { createNodeFileSystem } from './node_file_system.js';
export { DEFAULT_STARTUP_TIMEOUT_MS, connectMcp, mcpHeadersProblem } from './mcp_connect.js';
export type { ConnectMcpOptions, McpConnection, McpServerConfig } from './mcp_connect.js';

async function wasmBytes(options: EngineOptions): Promise<ArrayBuffer | Uint8Array> {
  if (options.wasmBinary !== undefined) return options.wasmBinary;
  const url = new URL(options.wasmUrl ?? './agentctx.wasm', import.meta.url);
  if (url.protocol === 'file:') return readFile(url);
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url.href}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

/** Loads the module (once) and creates an engine with its own session table. */
export async function createEngine(options: EngineOptions = {}): Promise<AgentctxEngine> {
  const module = await loadModule(async () => ({ wasmBinary: await wasmBytes(options) }));
  return wrapEngine(new module.Engine());
}

// SPDX-License-Identifier: MIT
// INTERNAL, hand-written types of the Embind module agentctx.mjs (Emscripten 3.1.6 has no
// --emit-tsd). Mirrors wasm/src/bindings.cc; wasm/test/embind_module.test.mjs checks these
// method names against the real Engine.prototype. Never referenced by the public .d.ts.

/** The one bound class (wasm/src/bindings.cc). Adapter methods never throw on bad input. */
export interface EmbindEngine {
  /** Opens a session slot with JS FileSystems by name; 0 = table full or malformed argument. */
  open(fileSystems: Record<string, object> | undefined): number;
  /** Dispatches `method` on `handle` (0 = the engine); always returns an envelope string. */
  call(handle: number, method: string, json: string): string;
  /** A view of a fresh input attachment for the next call(); fill it at once. */
  inputBuffer(length: number): Uint8Array;
  /** Output attachments of the last call on `handle`. */
  attachmentCount(handle: number): number;
  /** A view of output attachment `index` (valid until the next call; copy it). */
  attachment(handle: number, index: number): Uint8Array;
  /** Closes a handle; unknown handles are ignored. */
  close(handle: number): void;
  /** The engine version, e.g. "0.1.0". */
  version(): string;
  /** Embind: frees the C++ object (class_ instances are not garbage collected). */
  delete(): void;
}

export interface AgentctxModule {
  Engine: new () => EmbindEngine;
}

export interface AgentctxModuleOptions {
  /** The .wasm bytes (Node 20: Emscripten 3.1.6 would otherwise fetch() a file path). */
  wasmBinary?: ArrayBuffer | Uint8Array;
  /** Resolves "agentctx.wasm" (browsers; default: next to agentctx.mjs). */
  locateFile?: (path: string, scriptDirectory: string) => string;
}

export type AgentctxModuleFactory = (options?: AgentctxModuleOptions) => Promise<AgentctxModule>;

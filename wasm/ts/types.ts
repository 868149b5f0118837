// SPDX-License-Identifier: MIT
// The public types of the engine API (implemented in engine.ts). Kept apart from the
// implementation so the published .d.ts never reaches the internal Embind module types.
import type { FileSystem } from './file_system.js';

/** Options of createEngine(). */
export interface EngineOptions {
  /** Where agentctx.wasm is (default: next to the package's agentctx.mjs). */
  wasmUrl?: string | URL;
  /** The agentctx.wasm bytes; skips any fetch or file read. */
  wasmBinary?: ArrayBuffer | Uint8Array;
}

/** `stats` on the engine. */
export interface EngineStats {
  open_handles: number;
}

/** Engine (handle 0) methods with known shapes: method -> {input, output}. */
export interface EngineMethods {
  version: { input: Record<string, never> | undefined; output: { version: string } };
  stats: { input: Record<string, never> | undefined; output: EngineStats };
  /** Canonical echo (sorted keys, nulls kept) plus the engine version. */
  'config.echo': { input: Record<string, unknown>; output: { config: Record<string, unknown>; version: string } };
}

/** Session methods with known shapes (filled in as the session API lands). */
export interface SessionMethods {}

/** The common call surface of the engine (handle 0) and of a session. */
export interface Caller<Methods> {
  /** Calls a known method: `input` is JSON-serialised (undefined -> {}); returns `value`. */
  call<M extends keyof Methods & string>(
    method: M,
    input?: Methods[M] extends { input: infer I } ? I : never,
  ): Methods[M] extends { output: infer O } ? O : never;
  /**
   * Calls any other method; throws AgentctxError for an error envelope. (`M` keeps known
   * methods on the typed overload above; pass `T` alone to type the result.)
   */
  call<T = unknown, M extends string = string>(
    method: M extends keyof Methods ? never : M,
    input?: unknown,
  ): T;
  /** Like call(), with the input already serialised as JSON text. */
  callJson<T = unknown>(method: string, json: string): T;
  /** The raw envelope text, byte for byte; envelope errors are returned, not thrown. */
  callRaw(method: string, json: string): string;
}

/** One open session slot. Close it (or `using` it) when done. */
export interface SessionHandle extends Caller<SessionMethods> {
  /** The engine's handle number (> 0). */
  readonly handle: number;
  /** The engine the session belongs to (a session keeps its engine alive). */
  readonly engine: AgentctxEngine;
  /** True after close() or after the engine was disposed. */
  readonly closed: boolean;
  /** Releases the handle; closing twice is a no-op. */
  close(): void;
  /** Same as close() (explicit resource management, where the runtime has Symbol.dispose). */
  [Symbol.dispose](): void;
}

export interface AgentctxEngine extends Caller<EngineMethods> {
  /** The engine version (semver, equals the package version). */
  version(): string;
  /** Opens a session with FileSystems by name (config refers to them by name). */
  openSession(fileSystems?: Readonly<Record<string, FileSystem>>): SessionHandle;
  /** `stats` on handle 0. */
  stats(): EngineStats;
  /** Closes every open session and frees the native engine; later calls throw invalid_state. */
  dispose(): void;
  [Symbol.dispose](): void;
}

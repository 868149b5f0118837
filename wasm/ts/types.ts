// SPDX-License-Identifier: MIT
// The public types of the engine API (implemented in engine.ts). Kept apart from the
// implementation so the published .d.ts never reaches the internal Embind module types.
import type { FileSystem } from './file_system.js';
import type {
  AgentsInspect, BodyBytes, CacheSummary, ConfigDelta, Delivery, EffectsResult, HistoryEntry,
  ReplayDump, ReplayOptions, ReplayReport, SessionConfig, SessionStats, SubmitInput, TypedPrices,
} from './protocol.js';
import type { EngineMethodName, InspectFormat, SessionMethodName } from './generated/protocol.js';

/** `now_ms`: the host's clock in ms for this call (clamped so it never goes backwards). */
interface Now { now_ms?: number }

/** Bytes in any form a call takes (sent beside the JSON as they are: attachments.ts). */
type Bytes = Uint8Array | ArrayBuffer | ArrayBufferView;

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
  /**
   * The embedded mock model with its prompt-cache simulator: `body` is SSE text for
   * `responses`, JSON for `responses/compact`. Simulator state lives in the engine.
   */
  'mock.respond': {
    /** `body`: the request body, bytes (sent beside the JSON) or text. */
    input: { endpoint: 'responses' | 'responses/compact' | 'chat/completions' | 'messages'; body: Bytes | string; now_ms?: number };
    output: { body: string };
  };
  /** Replay analysis of an agentctx or Codex rollout (docs/replay.md), plus a text table. */
  'rollout.inspect': {
    /** `text`: the rollout JSONL, bytes (sent beside the JSON, no escaping) or text. */
    input: { text: Bytes | string } & ReplayOptions;
    output: { report: ReplayReport; table: string; dump?: ReplayDump };
  };
}

/** Session methods (docs/protocol.md): mutating calls answer effects, queries answer data. */
export interface SessionMethods {
  'session.start': { input: { config: SessionConfig } & Now; output: EffectsResult };
  /** Rebuilds the session from rollout text without FileSystem access. */
  'session.resume': {
    /** `rollout`: the rollout JSONL, bytes (sent beside the JSON, no escaping) or text. */
    input: { config: SessionConfig; rollout: Bytes | string } & Now;
    output: EffectsResult;
  };
  submit: { input: SubmitInput; output: EffectsResult };
  deliver: { input: { delivery: Delivery } & Now; output: EffectsResult };
  /** A merge patch over the config, effective at the next step boundary. */
  update: { input: { delta: ConfigDelta } & Now; output: EffectsResult };
  /** v1: only advances the clock. */
  tick: { input: Now | undefined; output: EffectsResult };
  /** Abandons the in-flight request; idle -> no effects. */
  interrupt: { input: Now | undefined; output: EffectsResult };
  /**
   * Manual compaction, idle only, as its own turn: `compaction` events, a
   * `model_request` with purpose `compact`, then `turn_complete`. Drive it with
   * `runTurn(session, {effects, model})`.
   */
  compact: { input: ({ turn_id?: string } & Now) | undefined; output: EffectsResult };
  /** Re-issues a failed-retryable request: same id and body, `attempt + 1`. */
  retry: { input: { request_id: string } & Now; output: EffectsResult };
  history: { input: Record<string, never> | undefined; output: HistoryEntry[] };
  /** The world-state baseline: the snapshot the model was last told. */
  world_state: { input: Record<string, never> | undefined; output: Record<string, unknown> };
  instruction_sources: { input: Record<string, never> | undefined; output: string[] };
  /** The next step's body from the current history; nothing is recorded. */
  prompt_preview: { input: Record<string, never> | undefined; output: BodyBytes };
  /** `prices`: add the cost under each request's provider rule (CacheSummary.cost). */
  cache_summary: { input: { prices?: TypedPrices } | undefined; output: CacheSummary };
  stats: { input: Record<string, never> | undefined; output: SessionStats };
  inspect: {
    input: { format: InspectFormat };
    output: AgentsInspect | Record<string, unknown> | BodyBytes;
  };
}

/** True when A and B are the same set of literals (compile-time drift check). */
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Fails the build when the typed method maps above drift from core/protocol.json's lists. */
export const METHOD_MAPS_MATCH: {
  engine: SameNames<keyof EngineMethods, EngineMethodName>;
  session: SameNames<keyof SessionMethods, SessionMethodName>;
} = { engine: true, session: true };

/** The common call surface of the engine (handle 0) and of a session. */
export interface Caller<Methods> {
  /** Calls a known method: `input` is JSON-serialised (undefined -> {}); returns `value`. */
  call<M extends keyof Methods & string>(
    method: M,
    input?: Methods[M] extends { input: infer I } ? I : never,
  ): Methods[M] extends { output: infer O } ? O : never;
  /**
   * Calls any other method, typed by the caller: `call<Result>('custom.method', input)`; throws
   * AgentctxError for an error envelope. Without the type argument a name that is not a known
   * method is a type error, so a misspelled method ('sesion.start') never compiles. (`M` keeps
   * known methods on the typed overload above.)
   */
  call<T = never, M extends string = string>(
    method: [T] extends [never] ? never : M extends keyof Methods ? never : M,
    input?: unknown,
  ): T;
  /**
   * Like call(), with the input already serialised as JSON text; `{"$bytes": i}` in it names
   * `inputs[i]` (sent beside the JSON, never escaped).
   */
  callJson<T = unknown>(method: string, json: string, inputs?: readonly Uint8Array[]): T;
  /**
   * The raw envelope text, byte for byte; envelope errors are returned, not thrown. Large
   * bytes stay references `{"$bytes": i, "length": n}`: read them with attachment(i).
   */
  callRaw(method: string, json: string, inputs?: readonly Uint8Array[]): string;
  /** Output attachment `index` of the last call (a copy); valid until the next call. */
  attachment(index: number): Uint8Array;
}

/**
 * `[Symbol.dispose]()` (so `using` works) where the consumer's TypeScript lib declares
 * `Symbol.dispose` (lib "esnext.disposable", "esnext", or @types/node); nothing where it does not,
 * so a browser project with `lib: ["es2022", "dom"]` and no @types/node type-checks too.
 * The runtime defines the method wherever the JavaScript engine has Symbol.dispose.
 */
export type DisposableWhereSupported = SymbolConstructor extends { readonly dispose: infer Key extends symbol }
  ? { [K in Key]: () => void }
  : unknown;

/** One open session slot. Close it (or `using` it) when done. */
export type SessionHandle = SessionHandleMembers & DisposableWhereSupported;

/** The members of a SessionHandle (without the dispose symbol: see DisposableWhereSupported). */
export interface SessionHandleMembers extends Caller<SessionMethods> {
  /** The engine's handle number (> 0). */
  readonly handle: number;
  /** The engine the session belongs to (a session keeps its engine alive). */
  readonly engine: AgentctxEngine;
  /** True after close() or after the engine was disposed. */
  readonly closed: boolean;
  /** Releases the handle; closing twice is a no-op. */
  close(): void;
}

/** A loaded engine (createEngine()); `dispose()` it (or `using` it) when done. */
export type AgentctxEngine = AgentctxEngineMembers & DisposableWhereSupported;

/** The members of an AgentctxEngine (without the dispose symbol: see DisposableWhereSupported). */
export interface AgentctxEngineMembers extends Caller<EngineMethods> {
  /** The engine version (semver, equals the package version). */
  version(): string;
  /** Opens a session with FileSystems by name (config refers to them by name). */
  openSession(fileSystems?: Readonly<Record<string, FileSystem>>): SessionHandle;
  /** `stats` on handle 0. */
  stats(): EngineStats;
  /** Closes every open session and frees the native engine; later calls throw invalid_state. */
  dispose(): void;
}

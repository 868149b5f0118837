// SPDX-License-Identifier: MIT
// AgentctxEngine and SessionHandle: the TS layer over the one Embind `Engine`.
// Invariants:
//  1. One native Engine per AgentctxEngine, never handed out; dispose() deletes it, and so does
//     a FinalizationRegistry when the engine and all its sessions became unreachable (each
//     session keeps its engine alive).
//  2. A session is a plain object holding a handle: close() (or [Symbol.dispose]) releases it,
//     a FinalizationRegistry closes handles of sessions that were dropped unclosed.
//  3. Generic over methods: every call is call(handle, method, json, inputs) -> envelope; error
//     envelopes become AgentctxError (errors.ts). Known methods get types via EngineMethods /
//     SessionMethods (interfaces other modules may augment).
//  4. Attachments (attachments.ts): Uint8Array inputs are written straight into module memory
//     (one copy each), output bytes are copied out once, before any other call into the module.
//  5. One call at a time. A FileSystem callback runs inside a call: a call or openSession() it
//     makes, on any engine of the realm, is refused here with `invalid_state` before it reaches
//     the module (Emscripten 3.1.6's Embind keeps the wire values of a bound function's
//     arguments per function, not per call, so a nested call would free the running call's
//     arguments a second time and corrupt the heap; the engine refuses nested calls as well). A
//     session close() it makes is deferred by the engine to the end of the running call (which
//     then fails `bad_handle`), and dispose() frees the native Engine only once the running call
//     returned. Effects (events, persist lines, tool calls) reach the host after the call
//     returned, so onEvent, onPersist and tool handlers may call the engine freely.
import { createCaller, type RawTransport } from './caller.js';
import type { EmbindEngine } from './embind_module.js';
import { AgentctxError } from './errors.js';
import { guardFileSystems, type FileSystem } from './file_system.js';
import type { AgentctxEngine, Caller, EngineMethods, EngineStats, SessionHandle, SessionMethods } from './types.js';

const hasDisposeSymbol = typeof Symbol.dispose === 'symbol';

// Calls into the module running now (every engine of the realm shares the one module).
let running = 0;

/** Refuses `what` while a call into the module runs (invariant 5). */
function refuseNested(what: string): void {
  if (running > 0) {
    throw new AgentctxError('invalid_state',
      `${what} was called while another agentctx call is running (from a FileSystem callback); call it after that call returns`);
  }
}

// Node's uninitialised allocation (no zero-fill before the copy: one pass over the bytes instead
// of two); elsewhere a plain slice. Either way a Uint8Array the caller owns.
const unsafeAlloc = (globalThis as { Buffer?: { allocUnsafeSlow?: (n: number) => Uint8Array } }).Buffer?.allocUnsafeSlow;
function copyOut(view: Uint8Array): Uint8Array {
  if (unsafeAlloc === undefined || view.length < 4096) return view.slice();
  const out = unsafeAlloc(view.length);
  out.set(view);
  return new Uint8Array(out.buffer, out.byteOffset, out.length);
}

class EngineState {
  readonly live = new Set<number>();
  readonly registry = new FinalizationRegistry<number>((handle) => this.release(handle));
  disposed = false;
  #depth = 0;  // 1 while a call into this native Engine runs
  #deletePending = false;  // dispose() ran inside a call: delete once it returned
  constructor(readonly native: EmbindEngine) {}

  raw(handle: number, method: string, json: string, inputs: readonly Uint8Array[] = []): string {
    if (this.disposed) throw new AgentctxError('invalid_state', 'the engine has been disposed');
    if (typeof method !== 'string' || typeof json !== 'string') {
      throw new AgentctxError('invalid_input', 'method and json must be strings');
    }
    refuseNested(`\`${method}\``);
    for (const bytes of inputs) {
      if (!(bytes instanceof Uint8Array)) {
        throw new AgentctxError('invalid_input', 'input attachments must be Uint8Array');
      }
      // Filled at once: a later call into the module may grow memory and detach this view.
      this.native.inputBuffer(bytes.length).set(bytes);
    }
    this.#depth += 1;
    running += 1;
    try {
      return this.native.call(handle, method, json);
    } finally {
      running -= 1;
      this.#depth -= 1;
      if (this.#depth === 0 && this.#deletePending) {
        this.#deletePending = false;
        this.native.delete();
      }
    }
  }

  /** One handle as a raw transport; `check` runs before every call (closed sessions). */
  transport(handle: number, check: () => void = () => undefined): RawTransport {
    return {
      call: (method, json, inputs) => {
        check();
        return this.raw(handle, method, json, inputs);
      },
      attachmentCount: () => (this.disposed ? 0 : this.native.attachmentCount(handle)),
      // A copy: the view is only valid until the next call into the module.
      attachment: (index) => {
        if (this.disposed) throw new AgentctxError('invalid_state', 'the engine has been disposed');
        return copyOut(this.native.attachment(handle, index));
      },
    };
  }

  release(handle: number): void {
    if (!this.live.delete(handle) || this.disposed) return;
    this.native.close(handle);
  }

  dispose(): void {
    if (this.disposed) return;
    for (const handle of this.live) this.native.close(handle);
    this.live.clear();
    this.disposed = true;
    // Inside a call (a FileSystem callback), the native Engine is still running it.
    if (this.#depth > 0) this.#deletePending = true;
    else this.native.delete();
  }
}

// Frees the native Engine of an AgentctxEngine that was dropped without dispose().
const engines = new FinalizationRegistry<EngineState>((state) => state.dispose());

class Session implements SessionHandle {
  #closed = false;
  readonly #caller: Caller<SessionMethods>;
  constructor(
    private readonly state: EngineState,
    readonly handle: number,
    // Also keeps the engine (and so its native Engine) alive while the session is reachable.
    readonly engine: AgentctxEngine,
  ) {
    this.#caller = createCaller<SessionMethods>(state.transport(handle, () => {
      if (this.#closed) throw new AgentctxError('bad_handle', `session ${this.handle} is closed`);
    }));
  }

  get closed(): boolean {
    return this.#closed || this.state.disposed;
  }

  // `any`: one implementation serves both overloads of Caller.call.
  call(method: string, input?: unknown): any {
    return this.#caller.call(method as never, input as never);
  }
  callJson<T>(method: string, json: string, inputs?: readonly Uint8Array[]): T {
    return this.#caller.callJson<T>(method, json, inputs);
  }
  callRaw(method: string, json: string, inputs?: readonly Uint8Array[]): string {
    return this.#caller.callRaw(method, json, inputs);
  }
  attachment(index: number): Uint8Array {
    return this.#caller.attachment(index);
  }
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.state.registry.unregister(this);
    this.state.release(this.handle);
  }
  declare [Symbol.dispose]: () => void;
}

class Engine implements AgentctxEngine {
  readonly #state: EngineState;
  readonly #caller: Caller<EngineMethods>;
  constructor(native: EmbindEngine) {
    this.#state = new EngineState(native);
    this.#caller = createCaller<EngineMethods>(this.#state.transport(0));
    engines.register(this, this.#state, this);
  }

  version(): string {
    if (this.#state.disposed) throw new AgentctxError('invalid_state', 'the engine has been disposed');
    return this.#state.native.version();
  }
  // `any`: one implementation serves both overloads of Caller.call.
  call(method: string, input?: unknown): any {
    return this.#caller.call(method as never, input as never);
  }
  callJson<T>(method: string, json: string, inputs?: readonly Uint8Array[]): T {
    return this.#caller.callJson<T>(method, json, inputs);
  }
  callRaw(method: string, json: string, inputs?: readonly Uint8Array[]): string {
    return this.#caller.callRaw(method, json, inputs);
  }
  attachment(index: number): Uint8Array {
    return this.#caller.attachment(index);
  }
  stats(): EngineStats {
    return this.callJson<EngineStats>('stats', '{}');
  }
  openSession(fileSystems?: Readonly<Record<string, FileSystem>>): SessionHandle {
    const state = this.#state;
    if (state.disposed) throw new AgentctxError('invalid_state', 'the engine has been disposed');
    refuseNested('openSession()');
    const guarded = guardFileSystems(fileSystems);
    // open() calls each FileSystem's sandboxed(): user code, so it counts as a running call.
    running += 1;
    let handle: number;
    try {
      handle = state.native.open(guarded);
    } finally {
      running -= 1;
    }
    if (handle === 0) {
      throw new AgentctxError('internal', 'the engine refused to open a session (handle table full)');
    }
    state.live.add(handle);
    const session = new Session(state, handle, this);
    state.registry.register(session, handle, session);
    return session;
  }
  dispose(): void {
    engines.unregister(this);
    this.#state.dispose();
  }
  declare [Symbol.dispose]: () => void;
}

if (hasDisposeSymbol) {
  Object.defineProperty(Session.prototype, Symbol.dispose, {
    value: function (this: Session) { this.close(); },
  });
  Object.defineProperty(Engine.prototype, Symbol.dispose, {
    value: function (this: Engine) { this.dispose(); },
  });
}

/** Wraps a fresh native Engine (internal: the entry points call this after loading). */
export function wrapEngine(native: EmbindEngine): AgentctxEngine {
  return new Engine(native);
}

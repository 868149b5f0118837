// SPDX-License-Identifier: MIT
// The WASI guest: loads agentctx.wasm (a reactor) under node:wasi and wraps its C ABI
// (wasi-host/include/agentctx_abi.h; attachments: docs/boundary.md).
// Invariants:
//  - Preopens are exactly `/workspace` (read-only unless `writable`) and `/state` (writable
//    unless `stateWritable: false`), each only when given; env and args are empty. The imports
//    are wrapped by sandbox.ts (read-only roots, host-side symlink containment).
//  - One instance per WasiGuest; wasi.initialize() runs exactly once.
//  - call() copies UTF-8 in through actx_alloc/actx_free and the envelope out through a view
//    made after the call (memory growth detaches older views). Input attachments are written
//    into actx_attach buffers (one copy each, each view made right after its allocation);
//    output attachments are copied out once by attachment() (ABI 2, agentctx_abi.h).
//  - Guest pointers are unsigned 32-bit: every pointer an export returns is read with `>>> 0`
//    (a heap above 2 GiB would otherwise read as negative).
//  - A trap (any throw out of an export, including proc_exit) drops the instance for good and
//    raises AgentctxHostError code `guest_trap`; the instance is never reused.
//  - Uses the global `process` only where needed and never imports node:process (it would make
//    fd 0 non-blocking for the guest).
import { readFile } from 'node:fs/promises';
import { WASI } from 'node:wasi';
import type { RawTransport } from 'agentctx';
import { SandboxRoot, wrapWasiImports } from './sandbox.js';

/** The C ABI revision this host speaks (agentctx_abi.h). */
export const ABI_VERSION = 2;

/** The actx_* exports of agentctx_abi.h. */
interface AbiExports {
  memory: WebAssembly.Memory;
  actx_abi_version(): number;
  actx_alloc(size: number): number;
  actx_free(ptr: number, size: number): void;
  actx_open(): number;
  actx_close(handle: number): void;
  actx_call(handle: number, method: number, methodLen: number, input: number, inputLen: number): number;
  actx_output_ptr(handle: number): number;
  actx_output_len(handle: number): number;
  actx_attach(handle: number, size: number): number;
  actx_attachment_count(handle: number): number;
  actx_attachment_ptr(handle: number, index: number): number;
  actx_attachment_len(handle: number, index: number): number;
}

/** Input attachment bytes written by their owner into the guest's buffer of `byteLength` bytes. */
export interface AttachmentSource {
  readonly byteLength: number;
  /** Writes exactly `dst.length` bytes into `dst` (may throw; the call is then not made). */
  fill(dst: Uint8Array): void;
}

/** A host-side failure with an agentctx error code (`guest_trap`, `bad_handle`, …). */
export class AgentctxHostError extends Error {
  readonly code: string;
  constructor(code: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'AgentctxHostError';
    this.code = code;
  }
}

export interface GuestOptions {
  /** Host directory preopened as `/workspace`. Omitted: no workspace preopen. */
  workspace?: string;
  /** Host directory preopened as `/state` (rollouts). Omitted: no state preopen. */
  state?: string;
  /** Let the guest write below `/workspace` (default false: read-only). */
  writable?: boolean;
  /** Let the guest write below `/state` (default true). */
  stateWritable?: boolean;
  /**
   * Let the guest read regular files of `/workspace` that have more than one hard link
   * (default false: another link may be outside the workspace). They are never written.
   */
  allowHardLinks?: boolean;
  /**
   * Host paths inside the workspace the guest may neither reach nor see listed (sandbox.ts
   * invariant 15; the CLI hides its home there).
   */
  hideInWorkspace?: readonly string[];
  /** The module: a path, a file URL or its bytes (default: agentctx.wasm next to this file). */
  wasm?: string | URL | Uint8Array;
}

/** The outcome of one ABI call. `ok` mirrors actx_call's 0 (true) / 1 (false). */
export interface CallResult {
  ok: boolean;
  envelope: string;
}

const DEFAULT_WASM = new URL('./agentctx.wasm', import.meta.url);
const moduleCache = new Map<string, Promise<WebAssembly.Module>>();
const encoder = new TextEncoder();
const decoder = new TextDecoder();

async function compileModule(wasm: string | URL | Uint8Array | undefined): Promise<WebAssembly.Module> {
  if (wasm instanceof Uint8Array) return WebAssembly.compile(wasm);
  const key = String(wasm ?? DEFAULT_WASM);
  let cached = moduleCache.get(key);
  if (!cached) {
    cached = readFile(wasm ?? DEFAULT_WASM).then((bytes) => WebAssembly.compile(bytes));
    moduleCache.set(key, cached);
    cached.catch(() => moduleCache.delete(key));
  }
  return cached;
}

/** One instance of the guest. Handles are opened, called and closed through it. */
export class WasiGuest {
  #abi: AbiExports | undefined;
  #trap: AgentctxHostError | undefined;

  private constructor(abi: AbiExports) {
    this.#abi = abi;
  }

  /** Compiles (once per module source), instantiates and initializes the reactor. */
  static async load(options: GuestOptions = {}): Promise<WasiGuest> {
    let module: WebAssembly.Module;
    try {
      module = await compileModule(options.wasm);
    } catch (e) {
      throw new AgentctxHostError('module_load_failed', `cannot load agentctx.wasm: ${errorText(e)}`, { cause: e });
    }
    const preopens: Record<string, string> = {};
    const roots: SandboxRoot[] = [];
    if (options.workspace !== undefined) {
      preopens['/workspace'] = options.workspace;
      roots.push({
        guestPath: '/workspace', hostPath: options.workspace, writable: options.writable === true,
        hardLinks: options.allowHardLinks === true,
        ...(options.hideInWorkspace !== undefined ? { hidden: options.hideInWorkspace } : {}),
      });
    }
    if (options.state !== undefined) {
      preopens['/state'] = options.state;
      // The home is the user's own (global AGENTS.md, rollouts): its hard links are theirs.
      roots.push({ guestPath: '/state', hostPath: options.state, writable: options.stateWritable !== false, hardLinks: true });
    }
    let memory: WebAssembly.Memory | undefined;
    let instance: WebAssembly.Instance;
    try {
      const wasi = new WASI({ version: 'preview1', args: [], env: {}, preopens, returnOnExit: true });
      const wasiImports = wasi.wasiImport as Record<string, (...args: any[]) => number>;
      const imports = {
        wasi_snapshot_preview1: wrapWasiImports(wasiImports, roots, () => {
          if (!memory) throw new Error('guest memory used before instantiation');
          return memory;
        }),
      };
      instance = await WebAssembly.instantiate(module, imports);
      memory = instance.exports['memory'] as WebAssembly.Memory;
      wasi.initialize(instance);
    } catch (e) {
      throw new AgentctxHostError('module_load_failed', `cannot start agentctx.wasm: ${errorText(e)}`, { cause: e });
    }
    const abi = instance.exports as unknown as AbiExports;
    const version = abi.actx_abi_version();
    if (version !== ABI_VERSION) {
      throw new AgentctxHostError('module_load_failed', `agentctx.wasm speaks ABI ${version}, this host ${ABI_VERSION}`);
    }
    return new WasiGuest(abi);
  }

  /** True once the guest has trapped; every later use raises `guest_trap`. */
  get trapped(): boolean {
    return this.#trap !== undefined;
  }

  /** Opens a session slot (with its `workspace` FileSystem); returns its handle. */
  open(): number {
    const handle = this.#run((abi) => abi.actx_open() >>> 0);
    if (handle === 0) throw new AgentctxHostError('internal', 'the session table is full');
    return handle;
  }

  /** Closes a session slot; unknown handles are ignored. */
  close(handle: number): void {
    this.#run((abi) => abi.actx_close(handle));
  }

  /** Calls `method` on `handle` (0 = the engine) and returns the envelope JSON. */
  call(handle: number, method: string, inputJson: string): string {
    return this.callResult(handle, method, inputJson).envelope;
  }

  /**
   * call(), plus whether the envelope is ok. `inputs[i]` is input attachment i (named
   * `{"$bytes": i}` in the JSON): bytes, or an AttachmentSource that writes its bytes straight
   * into the guest's buffer (a file read in chunks: no copy of it on the host). A bad handle
   * raises `bad_handle`.
   */
  callResult(handle: number, method: string, inputJson: string, inputs: readonly (Uint8Array | AttachmentSource)[] = []): CallResult {
    const m = encoder.encode(method);
    const input = encoder.encode(inputJson);
    return this.#run((abi) => {
      for (const bytes of inputs) {
        const at = abi.actx_attach(handle, bytes.byteLength) >>> 0;
        if (at === 0) throw new AgentctxHostError('bad_handle', `no open session has handle ${handle}`);
        const dst = new Uint8Array(abi.memory.buffer, at, bytes.byteLength); // a view made after the allocation
        if (bytes instanceof Uint8Array) dst.set(bytes);
        else bytes.fill(dst);
      }
      const size = m.length + input.length;
      const ptr = abi.actx_alloc(size) >>> 0;
      if (ptr === 0) throw new Error(`actx_alloc(${size}) failed`); // an out-of-memory guest is dead
      const dst = new Uint8Array(abi.memory.buffer, ptr, size);
      dst.set(m, 0);
      dst.set(input, m.length);
      // If the guest traps, the block is lost with the instance; otherwise it is freed here.
      const rc = abi.actx_call(handle, ptr, m.length, ptr + m.length, input.length);
      abi.actx_free(ptr, size);
      if (rc === -1) throw new AgentctxHostError('bad_handle', `no open session has handle ${handle}`);
      const out = abi.actx_output_ptr(handle) >>> 0;
      const len = abi.actx_output_len(handle) >>> 0;
      // A fresh view: the call may have grown (and detached) the memory.
      const envelope = decoder.decode(new Uint8Array(abi.memory.buffer, out, len));
      return { ok: rc === 0, envelope };
    });
  }

  /** How many output attachments the last call on `handle` has. */
  attachmentCount(handle: number): number {
    return this.#run((abi) => abi.actx_attachment_count(handle) >>> 0);
  }

  /** A copy of output attachment `index` of the last call on `handle`. */
  attachment(handle: number, index: number): Uint8Array {
    return this.#run((abi) => {
      const ptr = abi.actx_attachment_ptr(handle, index) >>> 0;
      const len = abi.actx_attachment_len(handle, index) >>> 0;
      if (ptr === 0) return new Uint8Array(0);
      // One pass: an uninitialised buffer (no zero-fill) filled by the copy; a plain Uint8Array.
      const out = Buffer.allocUnsafeSlow(len);
      out.set(new Uint8Array(abi.memory.buffer, ptr, len));
      return new Uint8Array(out.buffer, out.byteOffset, len);
    });
  }

  /** `handle` as a raw transport for the package's createCaller (and so runTurn). */
  transport(handle: number): RawTransport {
    return {
      call: (method, json, inputs) => this.callResult(handle, method, json, inputs).envelope,
      attachmentCount: () => this.attachmentCount(handle),
      attachment: (index) => this.attachment(handle, index),
    };
  }

  /** Runs `f` against the live instance; a throw from the guest drops it (`guest_trap`). */
  #run<T>(f: (abi: AbiExports) => T): T {
    const abi = this.#abi;
    if (abi === undefined) throw this.#trap ?? new AgentctxHostError('guest_trap', 'the guest is gone');
    try {
      return f(abi);
    } catch (e) {
      if (e instanceof AgentctxHostError) throw e;
      this.#abi = undefined;
      this.#trap = new AgentctxHostError(
        'guest_trap',
        `the WASI guest trapped (${errorText(e)}); the instance was dropped, resume from the rollout`,
        { cause: e },
      );
      throw this.#trap;
    }
  }
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

// SPDX-License-Identifier: MIT
// The JS FileSystem contract as seen from TypeScript, plus the guard every user object passes
// through before it reaches wasm/src/js_file_system.cc (docs/RELIABILITY.md, "Hostile hosts").
// Methods are synchronous. The guard (guardFileSystems) makes every answer safe to read from C++:
//  - a throw — from the method, or from reading its answer (a throwing getter, a Proxy trap, a
//    typed array whose `length` lies) — becomes {ok:false, code:"io", message}: a JS exception
//    must never unwind through the -fno-exceptions wasm frames (it leaks wasm stack each time,
//    and a few hundred of them hang the module);
//  - each answer is copied into plain data before the core reads it: a plain object of
//    primitives, a plain array of plain entries (at most MAX_LIST_ENTRIES), and a read's bytes as
//    a plain Uint8Array over the answer's own buffer (at most `maxBytes` of them; built from the
//    intrinsic TypedArray accessors, so a subclass or a Proxy cannot lie about where they are —
//    the core copies them once, in the same call). A field of the wrong type stays wrong (the
//    core answers `io`, "malformed answer"), but reading it can no longer run user code.
import { AgentctxError } from './errors.js';
import type { FileSystemErrorCode } from './generated/error_codes.js';

/** What `stat` reports (it follows symlinks) and `list` names (it does not). */
export type FileKind = 'file' | 'dir' | 'symlink' | 'other';

/** A failed FileSystem operation: one of the FileSystem error codes, and an optional detail. */
export interface FsFailure {
  ok: false;
  code: FileSystemErrorCode;
  message?: string;
}

/** `{ok:true, …fields}` or a failure. */
export type FsResult<T extends object = object> = ({ ok: true } & T) | FsFailure;

export interface FsStat {
  kind: FileKind;
  size: number;
  mtime_ms: number;
}

export interface FsDirEntry {
  name: string;
  kind: FileKind;
}

/**
 * A synchronous FileSystem the engine reads and writes through. Paths are absolute, normalised
 * POSIX paths; answer `invalid_path` for anything else. Async sources (fetch, OPFS) must be
 * snapshotted into memory first (e.g. createMemoryFileSystem).
 */
export interface FileSystem {
  /** Follows symlinks; a broken link is `not_found`. */
  stat(path: string): FsResult<FsStat>;
  /** The first min(size, maxBytes) bytes; `is_a_directory` for a directory. */
  read(path: string, maxBytes: number): FsResult<{ data: Uint8Array }>;
  /** Entries in any order; symlinks are not followed. */
  list(path: string): FsResult<{ entries: FsDirEntry[] }>;
  /** Creates or truncates; `createParents` makes missing directories. `bytes` is yours to keep. */
  write(path: string, bytes: Uint8Array, createParents: boolean): FsResult;
  /**
   * Optional: removes a file (a symlink itself, not its target); `is_a_directory` for a
   * directory. Used by the `apply_patch` tool for deletes and moves; without it those fail
   * with `not_capable`.
   */
  removeFile?(path: string): FsResult;
  /** True when the FileSystem confines itself (the in-memory workspace). */
  sandboxed(): boolean;
}

const METHODS = ['stat', 'read', 'list', 'write', 'sandboxed'] as const;

/**
 * The most entries one `list` answer may hold: a larger answer (a sparse array or a Proxy can
 * claim 2^32 − 1) is an `io` failure naming the limit. Mirrors kMaxJsListEntries in
 * wasm/src/js_file_system.h.
 */
export const MAX_LIST_ENTRIES = 1 << 20;

/**
 * True when `path` is absolute and normalised: "/" or "/" followed by components that are not
 * empty, "." or "..", joined by single slashes, and no NUL. (Checked with substring searches,
 * no split: every file a search reads passes here.)
 */
export function isNormalizedPath(path: string): boolean {
  if (!path.startsWith('/') || path.includes('\0')) return false;
  if (path === '/') return true;
  return !path.endsWith('/') && !path.endsWith('/.') && !path.endsWith('/..') && !path.includes('//') &&
    !path.includes('/./') && !path.includes('/../');
}

// A thrown value as text; describing it may throw too (a throwing `message` getter or toString).
function describe(error: unknown): string {
  try {
    if (error instanceof Error) {
      const message: unknown = error.message;
      if (typeof message === 'string') return message;
    }
    return typeof error === 'string' ? error : String(error);
  } catch {
    return 'an exception that cannot be described';
  }
}

function failure(message: string): FsFailure {
  return { ok: false, code: 'io', message };
}

// The intrinsic TypedArray accessors: they read internal slots, never a subclass's or an own
// property's override (a Uint8Array subclass may lie about `length`).
const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype) as object;
function intrinsicGetter(name: string | symbol): (this: unknown) => unknown {
  return Object.getOwnPropertyDescriptor(typedArrayProto, name)?.get as (this: unknown) => unknown;
}
const typedArrayTag = intrinsicGetter(Symbol.toStringTag);
const typedArrayLength = intrinsicGetter('length');
const typedArrayBuffer = intrinsicGetter('buffer');
const typedArrayOffset = intrinsicGetter('byteOffset');

// A primitive as it is; an object or function as null (the core then reports a wrong type).
function primitive(value: unknown): unknown {
  return (typeof value === 'object' && value !== null) || typeof value === 'function' ? null : value;
}

type Plain = Record<string, unknown>;

// `{ok}` of an answer as plain data: the failure itself (code and message copied), `{ok:true}`
// with `copy`'s fields, or null for anything malformed (the core reports it as such).
function plainAnswer(answer: unknown, copy: (answer: Plain) => Plain | FsFailure | null): Plain | FsFailure | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const record = answer as Plain;
  const ok = record['ok'];
  if (ok === false) {
    const code = record['code'];
    const message = record['message'];
    const out: Plain = { ok: false, code: typeof code === 'string' ? code : 'io' };
    if (typeof message === 'string') out['message'] = message;
    return out;
  }
  if (ok !== true) return null;
  return copy(record);
}

function copyStat(answer: Plain): Plain {
  return {
    ok: true,
    kind: primitive(answer['kind']),
    size: primitive(answer['size']),
    mtime_ms: primitive(answer['mtime_ms']),
  };
}

function copyRead(answer: Plain, maxBytes: number): Plain | null {
  const data = answer['data'];
  if (typeof data !== 'object' || data === null || typedArrayTag.call(data) !== 'Uint8Array') return null;
  const length = Math.min(typedArrayLength.call(data) as number, maxBytes);
  // No copy here: grep reads every file of a tree through this, and a second copy per file
  // doubled the Embind FileSystem's share of a search.
  const view = new Uint8Array(typedArrayBuffer.call(data) as ArrayBufferLike, typedArrayOffset.call(data) as number, length);
  return { ok: true, data: view };
}

function copyList(answer: Plain, path: string): Plain | FsFailure | null {
  const entries = answer['entries'];
  if (!Array.isArray(entries)) return null;
  const count: unknown = entries.length;
  if (typeof count !== 'number' || !Number.isSafeInteger(count) || count < 0) return null;
  if (count > MAX_LIST_ENTRIES) {
    return failure(`FileSystem.list(${JSON.stringify(path)}) answered ${count} entries; the limit is ${MAX_LIST_ENTRIES}`);
  }
  const out: unknown[] = [];
  for (let i = 0; i < count; i++) {
    const entry: unknown = entries[i];
    if (typeof entry !== 'object' || entry === null) {
      out.push(null);
      continue;
    }
    const record = entry as Plain;
    out.push({ name: primitive(record['name']), kind: primitive(record['kind']) });
  }
  return { ok: true, entries: out };
}

const okOnly = (): Plain => ({ ok: true });

type ReadMethod = FileSystem['read'];
// FileSystems of ours whose reads can answer into a buffer they reuse (the answer is valid until
// their next call): the guard reads through it, since the core copies the bytes within the same
// call, and a search over many files then allocates no buffer per file. Keyed by the object and
// the `read` it was created with, so a `read` replaced on that object is called as it is.
const transientReaders = new WeakMap<object, { read: ReadMethod; transient: ReadMethod }>();

/** Registers `transient` as `fs`'s read for the guard (see transientReaders). */
export function registerTransientReader(fs: FileSystem, transient: ReadMethod): void {
  transientReaders.set(fs, { read: fs.read, transient });
}

// The reader the guard calls: the transient one when `fs` still has the read it registered.
// (A registered object is ours, but its `read` may have been redefined as anything, even a
// throwing getter: then `fs` is called as it is, and guarded() reports the throw.)
function readerOf(fs: FileSystem): Pick<FileSystem, 'read'> {
  const entry = transientReaders.get(fs);
  if (entry === undefined) return fs;
  try {
    return fs.read === entry.read ? { read: entry.transient } : fs;
  } catch {
    return fs;
  }
}

// Calls `method` on `fs` and copies its answer; never throws.
function guarded(fs: object, method: string, args: unknown[], copy: (answer: Plain) => Plain | FsFailure | null): unknown {
  let answer: unknown;
  try {
    const fn = (fs as unknown as Record<string, unknown>)[method];
    answer = (fn as (...a: unknown[]) => unknown).apply(fs, args);
  } catch (e) {
    return failure(describe(e));
  }
  try {
    return plainAnswer(answer, copy);
  } catch (e) {
    return failure(`the answer of FileSystem.${method} could not be read: ${describe(e)}`);
  }
}

/**
 * Checks the shape of a user FileSystem map and wraps each one so no call can throw and every
 * answer is plain data. Throws AgentctxError `invalid_input` for a malformed map.
 */
export function guardFileSystems(
  fileSystems: Readonly<Record<string, FileSystem>> | undefined,
): Record<string, object> | undefined {
  if (fileSystems === undefined) return undefined;
  if (typeof fileSystems !== 'object' || fileSystems === null || Array.isArray(fileSystems)) {
    throw new AgentctxError('invalid_input', 'fileSystems must be an object mapping names to FileSystems');
  }
  let named: [string, FileSystem][];
  try {
    named = Object.entries(fileSystems);
  } catch (e) {
    throw new AgentctxError('invalid_input', `fileSystems could not be read: ${describe(e)}`);
  }
  const out: Record<string, object> = {};
  for (const [name, fs] of named) {
    if (name === '') throw new AgentctxError('invalid_input', 'a FileSystem name must not be empty');
    let missing: string[];
    let canRemove: boolean;
    try {
      const candidate = fs as unknown as Record<string, unknown> | null;
      missing = METHODS.filter(
        (m) => typeof candidate !== 'object' || candidate === null || typeof candidate[m] !== 'function',
      );
      canRemove = missing.length === 0 && typeof (candidate as Record<string, unknown>)['removeFile'] === 'function';
    } catch (e) {
      throw new AgentctxError('invalid_input', `FileSystem "${name}" could not be read: ${describe(e)}`, { name });
    }
    if (missing.length > 0) {
      throw new AgentctxError('invalid_input',
        `FileSystem "${name}" must be an object with the methods ${METHODS.join(', ')} (missing: ${missing.join(', ')})`,
        { name });
    }
    out[name] = guard(fs, canRemove);
  }
  return out;
}

function guard(fs: FileSystem, canRemove: boolean): object {
  const wrapped: Record<string, (...args: never[]) => unknown> = {
    stat: (path: string) => guarded(fs, 'stat', [path], copyStat),
    read: (path: string, maxBytes: number) =>
      guarded(readerOf(fs), 'read', [path, maxBytes], (answer) => copyRead(answer, maxBytes)),
    list: (path: string) => guarded(fs, 'list', [path], (answer) => copyList(answer, path)),
    write: (path: string, bytes: Uint8Array, createParents: boolean) =>
      guarded(fs, 'write', [path, bytes, createParents], okOnly),
    sandboxed: () => {
      try {
        return fs.sandboxed() === true;
      } catch {
        return false;
      }
    },
  };
  if (canRemove) wrapped['removeFile'] = (path: string) => guarded(fs, 'removeFile', [path], okOnly);
  return wrapped;
}

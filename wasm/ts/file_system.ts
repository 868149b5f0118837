// SPDX-License-Identifier: MIT
// The JS FileSystem contract (SPEC §3; ARCHITECTURE §6 "JS FileSystem") as seen from TypeScript,
// plus the guard every user object passes through before it reaches wasm/src/js_file_system.cc:
// methods are synchronous; a thrown exception becomes {ok:false, code:"io"} (a JS exception must
// never unwind through the -fno-exceptions wasm frames).
import { AgentctxError } from './errors.js';
import type { FileSystemErrorCode } from './generated/error_codes.js';

/** What `stat` reports (it follows symlinks) and `list` names (it does not). */
export type FileKind = 'file' | 'dir' | 'symlink' | 'other';

/** A failed FileSystem operation: one of the SPEC §3 codes, and an optional detail. */
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

/** True when `path` is absolute and normalised (SPEC §3). */
export function isNormalizedPath(path: string): boolean {
  if (!path.startsWith('/') || path.includes('\0')) return false;
  if (path === '/') return true;
  return path.slice(1).split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

function failure(error: unknown): FsFailure {
  return { ok: false, code: 'io', message: error instanceof Error ? error.message : String(error) };
}

/**
 * Checks the shape of a user FileSystem map and wraps each one so no call can throw.
 * Throws AgentctxError `invalid_input` for a malformed map.
 */
export function guardFileSystems(
  fileSystems: Readonly<Record<string, FileSystem>> | undefined,
): Record<string, FileSystem> | undefined {
  if (fileSystems === undefined) return undefined;
  if (typeof fileSystems !== 'object' || fileSystems === null || Array.isArray(fileSystems)) {
    throw new AgentctxError('invalid_input', 'fileSystems must be an object mapping names to FileSystems');
  }
  const guarded: Record<string, FileSystem> = {};
  for (const [name, fs] of Object.entries(fileSystems)) {
    if (name === '') throw new AgentctxError('invalid_input', 'a FileSystem name must not be empty');
    const candidate = fs as unknown as Record<string, unknown> | null;
    const missing = METHODS.filter(
      (m) => typeof candidate !== 'object' || candidate === null || typeof candidate[m] !== 'function',
    );
    if (missing.length > 0) {
      throw new AgentctxError('invalid_input',
        `FileSystem "${name}" must be an object with the methods ${METHODS.join(', ')} (missing: ${missing.join(', ')})`,
        { name });
    }
    guarded[name] = guard(fs);
  }
  return guarded;
}

function guard(fs: FileSystem): FileSystem {
  const guarded: FileSystem = {
    stat(path) {
      try { return fs.stat(path); } catch (e) { return failure(e); }
    },
    read(path, maxBytes) {
      try { return fs.read(path, maxBytes); } catch (e) { return failure(e); }
    },
    list(path) {
      try { return fs.list(path); } catch (e) { return failure(e); }
    },
    write(path, bytes, createParents) {
      try { return fs.write(path, bytes, createParents); } catch (e) { return failure(e); }
    },
    sandboxed() {
      try { return fs.sandboxed() === true; } catch { return false; }
    },
  };
  if (typeof fs.removeFile === 'function') {
    const removeFile = fs.removeFile.bind(fs);
    guarded.removeFile = (path) => {
      try { return removeFile(path); } catch (e) { return failure(e); }
    };
  }
  return guarded;
}

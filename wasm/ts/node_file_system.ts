// SPDX-License-Identifier: MIT
// createNodeFileSystem: a FileSystem over a host directory with node:fs (Node only; reached
// through the "node" export condition so node:fs stays out of browser bundles).
// A CONVENIENCE, NOT A SANDBOX: sandboxed() is false, symlinks are followed wherever they point,
// and the process's rights apply. For confinement use the WASI host (agentctx/wasi) or
// createMemoryFileSystem. Paths must be absolute and normalised, so `..` never reaches past
// `root` lexically; errno values map to the FileSystem error codes (docs/protocol.md#error-codes).
import {
  closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readdirSync, readSync, statSync, unlinkSync, writeSync,
} from 'node:fs';
import { dirname, resolve } from 'node:path';

import { isNormalizedPath, registerTransientReader, type FileKind, type FileSystem, type FsFailure, type FsResult } from './file_system.js';

// The largest file the guard's transient read answers from the reused buffer.
const TRANSIENT_READ_BYTES = 1 << 20;
// Reads never wait: opening a FIFO for reading would wait for a writer (blocking the thread the
// engine runs on), and reading one or a terminal for data. No effect on files.
const READ_FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);
const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NONBLOCK ?? 0);
// The pieces read of files whose size says nothing: small first (most such files are empty),
// doubling up to the largest.
const UNSIZED_FIRST = 4 * 1024;
const UNSIZED_LARGEST = 64 * 1024;

/**
 * Reads `fd` from where it stands until read() answers 0 (or, for a pipe or device with nothing to
 * give now, EAGAIN), at most `maxBytes`: for files whose size says nothing (procfs reports 0,
 * a FIFO or a device has none).
 */
function readUnsized(fd: number, maxBytes: number): Uint8Array {
  const pieces: Uint8Array[] = [];
  let total = 0;
  let size = UNSIZED_FIRST;
  while (total < maxBytes) {
    const piece = new Uint8Array(Math.min(size, maxBytes - total));
    size = Math.min(2 * size, UNSIZED_LARGEST);
    let n: number;
    try {
      n = readSync(fd, piece, 0, piece.length, null);
    } catch (e) {
      if ((e as { code?: unknown } | null)?.code === 'EAGAIN') break; // never for a file
      throw e;
    }
    if (n === 0) break;
    pieces.push(piece.subarray(0, n));
    total += n;
  }
  if (pieces.length === 1) return pieces[0] as Uint8Array;
  const out = new Uint8Array(total);
  let at = 0;
  for (const piece of pieces) {
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

const ERRNO_CODES: Readonly<Record<string, FsFailure['code']>> = {
  ENOENT: 'not_found',
  EACCES: 'permission_denied',
  EPERM: 'permission_denied',
  EROFS: 'permission_denied',
  ENOTCAPABLE: 'not_capable',
  ENOTDIR: 'not_a_directory',
  EISDIR: 'is_a_directory',
  EINVAL: 'invalid_path',
  ENAMETOOLONG: 'invalid_path',
};

function failure(error: unknown, path: string): FsFailure {
  const errno = (error as { code?: unknown } | null)?.code;
  const code = typeof errno === 'string' ? ERRNO_CODES[errno] ?? 'io' : 'io';
  return { ok: false, code, message: `${path}: ${error instanceof Error ? error.message : String(error)}` };
}

function kindOf(s: { isFile(): boolean; isDirectory(): boolean; isSymbolicLink(): boolean }): FileKind {
  if (s.isFile()) return 'file';
  if (s.isDirectory()) return 'dir';
  if (s.isSymbolicLink()) return 'symlink';
  return 'other';
}

/**
 * A FileSystem whose "/" is the host directory `root`. Not a sandbox (see the file comment).
 */
export function createNodeFileSystem(root: string): FileSystem {
  const base = resolve(root);
  // `path` is normalised (checked first), so it is appended as it is.
  const host = (path: string): string => (path === '/' ? base : base === '/' ? path : base + path);
  const invalid = (path: string): FsFailure => ({ ok: false, code: 'invalid_path', message: path });

  // Reads into a buffer from `allocate`: a fresh one for `read`, the reused scratch for the
  // guard's transient read (files up to TRANSIENT_READ_BYTES; larger ones get their own).
  const readInto = (path: string, maxBytes: number, allocate: (size: number) => Uint8Array): FsResult<{ data: Uint8Array }> => {
    if (!isNormalizedPath(path)) return invalid(path);
    let fd: number | undefined;
    try {
      fd = openSync(host(path), READ_FLAGS);
      const s = fstatSync(fd);
      if (s.isDirectory()) return { ok: false, code: 'is_a_directory', message: path };
      if (!s.isFile() || s.size === 0) return { ok: true, data: readUnsized(fd, maxBytes) };
      const data = allocate(Math.max(0, Math.min(s.size, maxBytes)));
      let filled = 0;
      while (filled < data.length) {
        const n = readSync(fd, data, filled, data.length - filled, filled);
        if (n === 0) break;
        filled += n;
      }
      return { ok: true, data: data.subarray(0, filled) };
    } catch (e) {
      return failure(e, path);
    } finally {
      if (fd !== undefined) closeSync(fd);
    }
  };
  let scratch = new Uint8Array(0);
  const scratchOf = (size: number): Uint8Array => {
    if (size > TRANSIENT_READ_BYTES) return new Uint8Array(size);
    if (scratch.length < size) scratch = new Uint8Array(Math.min(TRANSIENT_READ_BYTES, Math.max(size, 2 * scratch.length, 4096)));
    return scratch.subarray(0, size);
  };

  const fs: FileSystem = {
    stat(path) {
      if (!isNormalizedPath(path)) return invalid(path);
      try {
        const s = statSync(host(path));
        return { ok: true, kind: kindOf(s), size: s.isFile() ? s.size : 0, mtime_ms: Math.floor(s.mtimeMs) };
      } catch (e) {
        return failure(e, path);
      }
    },
    read(path, maxBytes) {
      return readInto(path, maxBytes, (size) => new Uint8Array(size));
    },
    list(path) {
      if (!isNormalizedPath(path)) return invalid(path);
      try {
        const entries = readdirSync(host(path), { withFileTypes: true })
          .map((d) => ({ name: d.name, kind: kindOf(d) }));
        return { ok: true, entries };
      } catch (e) {
        return failure(e, path);
      }
    },
    write(path, bytes, createParents) {
      if (!isNormalizedPath(path)) return invalid(path);
      if (path === '/') return { ok: false, code: 'is_a_directory', message: path };
      try {
        if (createParents) mkdirSync(dirname(host(path)), { recursive: true });
        // O_NONBLOCK as for reads: a FIFO without a reader fails at once (ENXIO) instead of
        // holding the thread until one comes. No effect on files.
        const fd = openSync(host(path), WRITE_FLAGS, 0o666);
        try {
          for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done);
        } finally {
          closeSync(fd);
        }
        return { ok: true };
      } catch (e) {
        return failure(e, path);
      }
    },
    removeFile(path) {
      if (!isNormalizedPath(path)) return invalid(path);
      try {
        if (lstatSync(host(path)).isDirectory()) return { ok: false, code: 'is_a_directory', message: path };
        unlinkSync(host(path));
        return { ok: true };
      } catch (e) {
        return failure(e, path);
      }
    },
    sandboxed() {
      return false;
    },
  };
  registerTransientReader(fs, (path, maxBytes) => readInto(path, maxBytes, scratchOf));
  return fs;
}

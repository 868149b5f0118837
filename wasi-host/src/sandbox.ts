// SPDX-License-Identifier: MIT
// The sandbox around node:wasi (ARCHITECTURE §6 "Read-only, twice" and "Escape suite";
// TOOLCHAIN §5). node:wasi is "not a sandbox": it has no read-only preopens, and uvwasi checks
// paths lexically, so a *directory* symlink inside a preopen leads out of it
// (`/workspace/link-to-outside/secret` was readable and, with --writable, writable). The host
// therefore wraps the preview1 imports before instantiating. Invariants:
//  1. Every fd has a root and a real host path: a preopen fd starts with its preopen (fd 3, 4, …
//     in preopen order, as uvwasi assigns them; re-learnt from fd_prestat_dir_name answers); an
//     fd from path_open inherits its dirfd's root and gets the resolved path; fd_renumber moves
//     the entry, fd_close drops it. An fd without an entry (stdio, anything unexpected) can
//     neither resolve paths nor write: the wrapper fails closed.
//  2. Every path argument is resolved on the host the way the OS will: component by component,
//     following symlinks (the last one only when the call follows it), up to 40 links. The
//     result must stay inside the fd's root (its realpath), else ENOTCAPABLE. Guest paths with
//     `..`, a leading `/`, NUL or invalid UTF-8 are refused outright (our guest never sends
//     them: PosixFileSystem passes normalised paths), so uvwasi's lexical view and ours agree.
//  3. A write needs a writable root: path_open with CREAT/EXCL/TRUNC or a write right (datasync,
//     write, allocate, set_size), and every mutating import, on a read-only root get EROFS,
//     which the guest maps to permission_denied (SPEC §3: writes to read-only mounts;
//     TOOLCHAIN's sketch used ENOTCAPABLE).
//  4. path_symlink and path_link always get ENOTCAPABLE: the FileSystem contract never makes
//     links, and a link is the classic way out.
//  5. Every import the guest gets is a JS function, never node:wasi's own binding called
//     directly from wasm: a direct call of fd_read with a large buffer crashed the process
//     (exit 139, consistent with nodejs/node#53087); through a JS frame it does not.
//  6. Guest pointers and lengths are unsigned 32-bit (`>>> 0`): a heap above 2 GiB must not
//     read as a negative offset.
//  7. Resolving a path of depth d costs d lstat calls only the first time: components known to
//     be real directories (not links) are remembered until the guest mutates the tree (any
//     create, rename, unlink or remove clears the memo), so walking a deep tree stays linear.
// The checks use lstat/readlink/realpath on the host (metadata only); file contents are only
// ever read or written by the guest through uvwasi. Out of scope: another host process that
// swaps a link between the check and uvwasi's open (the guest itself is synchronous and cannot
// make links), and hard links that already exist in the workspace.
import { lstatSync, readlinkSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** One preopen: its guest path ("/workspace"), its host directory, and writability. */
export interface SandboxRoot {
  guestPath: string;
  hostPath: string;
  writable: boolean;
}

type WasiFn = (...args: any[]) => number;
type WasiImports = Record<string, WasiFn>;

/** WASI preview1 errno values used by the wrapper. */
export const WASI_ESUCCESS = 0;
export const WASI_EROFS = 69;
export const WASI_ENOTCAPABLE = 76;

const OFLAGS_WRITE = 1 | 4 | 8; // CREAT | EXCL | TRUNC
// fd_datasync (bit 0), fd_write (6), fd_allocate (8), fd_filestat_set_size (22).
const WRITE_RIGHTS = (1n << 0n) | (1n << 6n) | (1n << 8n) | (1n << 22n);
const LOOKUP_SYMLINK_FOLLOW = 1;
const FIRST_PREOPEN_FD = 3;
const MAX_SYMLINKS = 40;

/** A path argument: the fd and pointer/length positions, and whether the last link is followed. */
interface PathArg {
  fd: number;
  ptr: number;
  len: number;
  /** Position of the lookupflags argument; absent: the last component is not followed. */
  flags?: number;
}

/** Path-taking and mutating imports (path_open is handled on its own). */
const CHECKED: Record<string, { paths: PathArg[]; writes: number[] }> = {
  path_create_directory: { paths: [{ fd: 0, ptr: 1, len: 2 }], writes: [0] },
  path_filestat_get: { paths: [{ fd: 0, ptr: 2, len: 3, flags: 1 }], writes: [] },
  path_filestat_set_times: { paths: [{ fd: 0, ptr: 2, len: 3, flags: 1 }], writes: [0] },
  path_readlink: { paths: [{ fd: 0, ptr: 1, len: 2 }], writes: [] },
  path_remove_directory: { paths: [{ fd: 0, ptr: 1, len: 2 }], writes: [0] },
  path_rename: { paths: [{ fd: 0, ptr: 1, len: 2 }, { fd: 3, ptr: 4, len: 5 }], writes: [0, 3] },
  path_unlink_file: { paths: [{ fd: 0, ptr: 1, len: 2 }], writes: [0] },
  fd_filestat_set_times: { paths: [], writes: [0] },
  fd_filestat_set_size: { paths: [], writes: [0] },
  fd_allocate: { paths: [], writes: [0] },
};
const ALWAYS_REFUSED = ['path_symlink', 'path_link'];

interface Root {
  guestPath: string;
  realPath: string;
  writable: boolean;
}
interface FdEntry {
  root: Root;
  host: string;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Resolves `rel` below the real directory `base` as the OS would: symlinks are followed
 * component by component (the last only when `followLast`); components that do not exist are
 * appended as they are. Undefined for a symlink loop or an unreadable link.
 */
export function resolveHostPath(
  base: string, rel: string, followLast: boolean, realDirs?: Set<string>,
): string | undefined {
  let parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  let cur = base;
  let links = 0;
  // The usual call names an entry of a directory already walked: take its parent in one step
  // (component by component, each join is as long as the path, so a 2 000-deep tree made
  // every call quadratic; issue 17). A memoised real directory has no link on its way.
  if (realDirs !== undefined && parts.length > 1 && !parts.includes('..')) {
    const parent = join(base, ...parts.slice(0, -1));
    if (realDirs.has(parent)) {
      cur = parent;
      parts = parts.slice(-1);
    }
  }
  while (parts.length > 0) {
    const name = parts.shift() as string;
    if (name === '..') {
      cur = dirname(cur);
      continue;
    }
    const next = join(cur, name);
    if (parts.length > 0 && realDirs?.has(next)) {
      cur = next; // a real directory, seen before and not changed since
      continue;
    }
    let isLink: boolean;
    try {
      const st = lstatSync(next);
      isLink = st.isSymbolicLink();
      if (!isLink && st.isDirectory()) realDirs?.add(next);
    } catch {
      return join(next, ...parts); // missing: nothing below it can be a link
    }
    if (isLink && (parts.length > 0 || followLast)) {
      if (++links > MAX_SYMLINKS) return undefined;
      let target: string;
      try {
        target = readlinkSync(next);
      } catch {
        return undefined;
      }
      parts = [...target.split('/').filter((p) => p !== '' && p !== '.'), ...parts];
      if (target.startsWith('/')) cur = '/';
      continue;
    }
    cur = next;
  }
  return cur;
}

function isInside(path: string, root: string): boolean {
  return root === '/' || path === root || path.startsWith(root + '/');
}

/**
 * Returns a copy of `imports` (node:wasi's `wasi_snapshot_preview1` object) that enforces the
 * invariants above. `roots` must be in the order the preopens were given to node:wasi.
 * `memory` returns the guest memory (available once the instance exists).
 */
export function wrapWasiImports(
  imports: WasiImports,
  roots: readonly SandboxRoot[],
  memory: () => { readonly buffer: ArrayBuffer },
): WasiImports {
  const known: Root[] = roots.map((r) => ({
    guestPath: r.guestPath,
    realPath: realpathSync(r.hostPath),
    writable: r.writable,
  }));
  const fds = new Map<number, FdEntry>();
  known.forEach((root, i) => fds.set(FIRST_PREOPEN_FD + i, { root, host: root.realPath }));

  // Invariant 7: real (non-link) directories met while resolving; cleared on any mutation.
  const realDirs = new Set<string>();
  const MUTATING = new Set(['path_create_directory', 'path_remove_directory', 'path_rename', 'path_unlink_file']);
  const writable = (fd: number): boolean => fds.get(fd)?.root.writable === true;
  const guestString = (ptr: number, len: number): string | undefined => {
    try {
      return strictUtf8.decode(new Uint8Array(memory().buffer, ptr >>> 0, len >>> 0));
    } catch {
      return undefined;
    }
  };
  /** The host path a path argument reaches, or undefined when it must be refused. */
  const resolveArg = (fd: number, ptr: number, len: number, followLast: boolean): string | undefined => {
    const entry = fds.get(fd);
    const rel = guestString(ptr, len);
    if (entry === undefined || rel === undefined) return undefined;
    if (rel.includes('\0') || rel.startsWith('/') || rel.split('/').includes('..')) return undefined;
    const host = resolveHostPath(entry.host, rel, followLast, realDirs);
    return host !== undefined && isInside(host, entry.root.realPath) ? host : undefined;
  };

  // Invariant 5: every import is called through a JS frame.
  const out: WasiImports = {};
  for (const [name, f] of Object.entries(imports)) {
    if (typeof f === 'function') out[name] = (...args: any[]): number => f(...args);
    else out[name] = f;
  }
  const path_open = imports['path_open'];
  const fd_close = imports['fd_close'];
  const fd_renumber = imports['fd_renumber'];
  const fd_prestat_dir_name = imports['fd_prestat_dir_name'];

  if (path_open) {
    out['path_open'] = (fd: number, dirflags: number, path: number, pathLen: number,
                        oflags: number, rights: bigint | number, inheriting: bigint | number,
                        fdflags: number, outFd: number): number => {
      const host = resolveArg(fd, path, pathLen, (dirflags & LOOKUP_SYMLINK_FOLLOW) !== 0);
      if (host === undefined) return WASI_ENOTCAPABLE;
      if (!writable(fd) && ((oflags & OFLAGS_WRITE) !== 0 || (BigInt(rights) & WRITE_RIGHTS) !== 0n)) {
        return WASI_EROFS;
      }
      if ((oflags & OFLAGS_WRITE) !== 0) realDirs.clear();
      const rc = path_open(fd, dirflags, path, pathLen, oflags, rights, inheriting, fdflags, outFd);
      if (rc === WASI_ESUCCESS) {
        const opened = new DataView(memory().buffer).getUint32(outFd >>> 0, true);
        fds.set(opened, { root: (fds.get(fd) as FdEntry).root, host });
      }
      return rc;
    };
  }
  if (fd_close) {
    out['fd_close'] = (fd: number): number => {
      const rc = fd_close(fd);
      if (rc === WASI_ESUCCESS) fds.delete(fd);
      return rc;
    };
  }
  if (fd_renumber) {
    out['fd_renumber'] = (from: number, to: number): number => {
      const rc = fd_renumber(from, to);
      if (rc === WASI_ESUCCESS) {
        const entry = fds.get(from);
        fds.delete(from);
        if (entry === undefined) fds.delete(to);
        else fds.set(to, entry);
      }
      return rc;
    };
  }
  if (fd_prestat_dir_name) {
    // The guest learns each preopen's name here; record the truth instead of trusting the
    // assumed fd order. A name that is not one of our roots gets no entry (fails closed).
    out['fd_prestat_dir_name'] = (fd: number, path: number, pathLen: number): number => {
      const rc = fd_prestat_dir_name(fd, path, pathLen);
      if (rc === WASI_ESUCCESS) {
        const root = known.find((r) => r.guestPath === guestString(path, pathLen));
        if (root === undefined) fds.delete(fd);
        else fds.set(fd, { root, host: root.realPath });
      }
      return rc;
    };
  }
  for (const [name, { paths, writes }] of Object.entries(CHECKED)) {
    const original = imports[name];
    if (!original) continue;
    out[name] = (...args: any[]): number => {
      for (const p of paths) {
        const follow = p.flags !== undefined && (Number(args[p.flags]) & LOOKUP_SYMLINK_FOLLOW) !== 0;
        if (resolveArg(Number(args[p.fd]), Number(args[p.ptr]), Number(args[p.len]), follow) === undefined) {
          return WASI_ENOTCAPABLE;
        }
      }
      if (!writes.every((i) => writable(Number(args[i])))) return WASI_EROFS;
      if (MUTATING.has(name)) realDirs.clear();
      return original(...args);
    };
  }
  for (const name of ALWAYS_REFUSED) {
    if (imports[name]) out[name] = (): number => WASI_ENOTCAPABLE;
  }
  return out;
}

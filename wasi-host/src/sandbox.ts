// SPDX-License-Identifier: MIT
// The sandbox around node:wasi (docs/RELIABILITY.md, "What the WASI sandbox guarantees").
// Paths are resolved on the host by host_paths.ts (invariants 2, 10, 12); read-only files are
// served by served_files.ts (invariant 14).
// node:wasi is "not a sandbox": it has no read-only preopens, and uvwasi checks paths lexically,
// so a *directory* symlink inside a preopen leads out of it. The host therefore wraps the
// preview1 imports before instantiating. Invariants:
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
//  3. What an open reached is checked after the open, where the kernel can say (Linux, see
//     opened_file.ts): the file's resolved path must be inside the root, or the fd is closed and
//     the call answers ENOTCAPABLE. A check before the open alone can be raced by another
//     process swapping a path for a link; the opened file cannot.
//  4. An open never changes an existing file before that check: O_TRUNC is taken off the open
//     and applied (fd_filestat_set_size 0) only once the file is known to be inside; O_CREAT is
//     tried as O_CREAT|O_EXCL first, so the wrapper knows whether the open made the file (a file
//     it made outside is removed again).
//  5. Hard links: a regular file with more than one link may have its other names anywhere, so
//     it is never opened for writing, and on a root that does not allow hard links (the
//     workspace, unless --allow-hardlinks) not for reading either: ENOTCAPABLE.
//  6. A write needs a writable root: path_open with CREAT/EXCL/TRUNC or a write right (datasync,
//     write, allocate, set_size), and every mutating import, on a read-only root get EROFS,
//     which the guest maps to permission_denied.
//  7. path_symlink and path_link always get ENOTCAPABLE: the FileSystem contract never makes
//     links, and a link is the classic way out.
//  8. Every import the guest gets is a JS function, never node:wasi's own binding called
//     directly from wasm: a direct call of fd_read with a large buffer crashed the process
//     (exit 139, consistent with nodejs/node#53087); through a JS frame it does not.
//  9. Guest pointers and lengths are unsigned 32-bit (`>>> 0`): a heap above 2 GiB must not
//     read as a negative offset.
// 10. Resolving a path of depth d costs d lstat calls only the first time: real directories
//     are remembered with their device and inode, and a remembered parent is taken in one step
//     only after one lstat of it still shows the same directory (an ancestor swapped for a link
//     since then reaches another inode, or a link), so nothing a process outside the session
//     does to the tree is ever missed, and walking a deep tree stays linear.
// 11. Finding the host descriptor of an open (invariant 3) costs an open and a close of /dev/null
//     (the lowest free descriptor), except right after the guest closed a file, for an open that
//     neither creates nor truncates: the descriptor that close freed is the guess. It is
//     confirmed by device and inode like the probe's answer; when it missed (the host opened or
//     freed a descriptor in between), the open is undone and made again with the probe. Opens
//     that create or truncate always use the probe (they must not be made twice).
// 12. An open that neither creates, truncates nor asks for a directory is made with the last
//     component not followed (uvwasi then opens with O_NOFOLLOW): its directory is resolved as
//     in invariant 2, the last component needs no lstat, since the OS will not follow it. If it
//     is a link (ELOOP) and the guest asked to follow links, the whole path is resolved as in
//     invariant 2 and the open made again as asked. Invariant 3 checks either open.
// 13. The guest's fd_filestat_get of the fd a path_open just returned, with no other import in
//     between, is answered from uvwasi's filestat that the open's check (invariant 3) fetched
//     for that fd microseconds before: the same answer a moment earlier, one fstat fewer a read.
//     Not after an open with O_TRUNC (the truncation follows the check).
// 14. An open that only reads (no create, truncate, directory, write right or sync/append flag)
//     is made by the host itself (where the kernel can say what an open reached, as for
//     invariant 3): its directory resolved as in invariant 12, the file opened with O_NOFOLLOW
//     and O_NONBLOCK (a link: resolved in full and followed when the guest follows links), and
//     the host's own descriptor checked as in invariants 3 and 5 — no descriptor to find. A
//     regular file that passes is served to the guest by served_files.ts (reads, seeks, fstat,
//     close on the host descriptor; nothing that writes); anything else inside (a directory, a
//     FIFO, a device) is closed again and opened through uvwasi as above.
// 15. A root may hide host paths inside it (`hidden`: the CLI hides its home when it lies in the
//     workspace): a path that resolves into a hidden one, or an open that reached one (invariant
//     3), gets ENOTCAPABLE; fd_readdir leaves hidden entries out of its answer (an entry is cut
//     out and the listing read on from its cookie into the same place, so the guest sees a
//     listing without it, full or not); a rename of a directory that holds a hidden path gets
//     ENOTCAPABLE (it would move the hidden path to a name that is not hidden).
// The checks use lstat/readlink/realpath/fstat on the host (metadata only); file contents are
// read or written by the guest through uvwasi, or read by the host into guest memory for a
// served file (invariant 14). What remains is listed in
// docs/RELIABILITY.md: a swap that races a path-based call other than an open (stat, rename,
// unlink, mkdir, rmdir) in the microseconds between the check and the call.
import { closeSync, constants, openSync, realpathSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { OpenedFile, OpenedFileProbe, openedFileProbe } from './opened_file.js';
import { ServedFiles, fdArgumentsOf, wasiErrno } from './served_files.js';
import { DirIdentity, RealDirs, hasDotDot, isInside, resolveHostParent, resolveHostPath } from './host_paths.js';

export { exactLstat, resolveHostParent, resolveHostPath } from './host_paths.js';
export type { DirIdentity, RealDirs } from './host_paths.js';

/** One preopen: its guest path ("/workspace"), its host directory, and what it allows. */
export interface SandboxRoot {
  guestPath: string;
  hostPath: string;
  writable: boolean;
  /** Regular files with more than one link may be read (never written); default false. */
  hardLinks?: boolean;
  /** Host paths inside this root the guest may neither reach nor see listed (invariant 15). */
  hidden?: readonly string[];
}

type WasiFn = (...args: any[]) => number;
type WasiImports = Record<string, WasiFn>;

/** WASI preview1 errno values used by the wrapper. */
export const WASI_ESUCCESS = 0;
export const WASI_EEXIST = 20;
export const WASI_EFAULT = 21;
export const WASI_EIO = 29;
export const WASI_ELOOP = 32;
export const WASI_EROFS = 69;
export const WASI_ENOTCAPABLE = 76;

const OFLAGS_CREAT = 1;
const OFLAGS_DIRECTORY = 2;
const OFLAGS_EXCL = 4;
const OFLAGS_TRUNC = 8;
const OFLAGS_WRITE = OFLAGS_CREAT | OFLAGS_EXCL | OFLAGS_TRUNC;
const FDFLAGS_NONBLOCK = 4;
// Invariant 14: the host's own read opens.
const SERVED_OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
// fd_datasync (bit 0), fd_write (6), fd_allocate (8), fd_filestat_set_size (22).
const WRITE_RIGHTS = (1n << 0n) | (1n << 6n) | (1n << 8n) | (1n << 22n);
const LOOKUP_SYMLINK_FOLLOW = 1;
const FIRST_PREOPEN_FD = 3;
const FILESTAT_BYTES = 64; // preview1 filestat: dev u64 @0, ino u64 @8, …

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
  hardLinks: boolean;
  /** Real paths of the hidden subtrees (invariant 15), and their names by parent directory. */
  hidden: readonly string[];
  hiddenNames: ReadonlyMap<string, ReadonlySet<string>>;
}
interface FdEntry {
  root: Root;
  host: string;
  /** The host descriptor behind it, when an open found it (invariant 11). */
  osFd?: number;
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/** True when `path` is a hidden path of `root` or below one (invariant 15). */
function isHidden(path: string, root: Root): boolean {
  return root.hidden.some((h) => isInside(path, h));
}

/** True when `path` is a directory above a hidden path of `root` (renaming it would move one). */
function holdsHidden(path: string, root: Root): boolean {
  return root.hidden.some((h) => h !== path && isInside(h, path));
}

/** The real path of `path`, or of its deepest existing ancestor with the rest appended. */
function realPathOrAncestor(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    const parent = dirname(path);
    return parent === path ? path : join(realPathOrAncestor(parent), basename(path));
  }
}

function rootOf(r: SandboxRoot): Root {
  const realPath = realpathSync(r.hostPath);
  const hidden = (r.hidden ?? []).map(realPathOrAncestor).filter((h) => h !== realPath && isInside(h, realPath));
  const hiddenNames = new Map<string, Set<string>>();
  for (const h of hidden) {
    const names = hiddenNames.get(dirname(h)) ?? new Set<string>();
    names.add(basename(h));
    hiddenNames.set(dirname(h), names);
  }
  return { guestPath: r.guestPath, realPath, writable: r.writable, hardLinks: r.hardLinks === true, hidden, hiddenNames };
}

/** Why an opened file may not be kept, or undefined when it may (invariants 3, 5 and 15). */
function refusal(file: OpenedFile, root: Root, forWriting: boolean, created: boolean): string | undefined {
  if (file.path === undefined || !isInside(file.path, root.realPath) || isHidden(file.path, root)) return 'outside';
  if (file.isFile && file.links > 1n && !created && (forWriting || !root.hardLinks)) return 'hard link';
  return undefined;
}

/** Options of wrapWasiImports beyond the roots. */
export interface SandboxOptions {
  /** Where the kernel can tell what an open reached; default: this host's (Linux /proc). */
  probe?: OpenedFileProbe | undefined;
  /**
   * Serve read-only opens of regular files from the host (invariant 14). Default: on where the
   * default probe exists; off with an injected probe (a fake kernel cannot describe the host's
   * own descriptors).
   */
  serveReads?: boolean;
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
  options: SandboxOptions = {},
): WasiImports {
  const probe = 'probe' in options ? options.probe : openedFileProbe();
  const served = probe !== undefined && (options.serveReads ?? !('probe' in options))
    ? new ServedFiles(memory)
    : undefined;
  const known: Root[] = roots.map(rootOf);
  const fds = new Map<number, FdEntry>();
  known.forEach((root, i) => fds.set(FIRST_PREOPEN_FD + i, { root, host: root.realPath }));

  const realDirs: RealDirs = new Map();
  // Invariant 11: the host descriptor the guest's last fd_close freed, until the next open.
  let freedOsFd: number | undefined;
  const writable = (fd: number): boolean => fds.get(fd)?.root.writable === true;
  const guestString = (ptr: number, len: number): string | undefined => {
    try {
      return strictUtf8.decode(new Uint8Array(memory().buffer, ptr >>> 0, len >>> 0));
    } catch {
      return undefined;
    }
  };
  /**
   * The host path a path argument reaches, or undefined when it must be refused. `followLast`:
   * whether the last component is followed; 'unchecked': it is not looked at (invariant 12).
   */
  const resolveArg = (fd: number, ptr: number, len: number,
                      followLast: boolean | 'unchecked'): string | undefined => {
    const entry = fds.get(fd);
    const rel = guestString(ptr, len);
    if (entry === undefined || rel === undefined) return undefined;
    if (rel.includes('\0') || rel.startsWith('/') || hasDotDot(rel)) return undefined;
    const host = followLast === 'unchecked'
      ? resolveHostParent(entry.host, rel, realDirs)
      : resolveHostPath(entry.host, rel, followLast, realDirs);
    return host !== undefined && isInside(host, entry.root.realPath) && !isHidden(host, entry.root) ? host : undefined;
  };

  // Invariant 13: uvwasi's filestat of the fd the last path_open returned, until the next import.
  let openedStat: { fd: number; bytes: Uint8Array } | undefined;
  // Invariant 8: every import is called through a JS frame.
  const out: WasiImports = {};
  for (const [name, f] of Object.entries(imports)) {
    if (typeof f === 'function') out[name] = (...args: any[]): number => f(...args);
    else out[name] = f;
  }
  const path_open = imports['path_open'];
  const fd_close = imports['fd_close'];
  const fd_renumber = imports['fd_renumber'];
  const fd_prestat_dir_name = imports['fd_prestat_dir_name'];
  const fd_filestat_get = imports['fd_filestat_get'];
  const fd_filestat_set_size = imports['fd_filestat_set_size'];

  /**
   * Device and inode of guest fd `fd` as uvwasi sees them. The answer is written into guest
   * memory at `scratch` (whose bytes are put back: the guest is suspended during the import).
   */
  const uvwasiIdentity = (fd: number, scratch: number): (DirIdentity & { filestat: Uint8Array }) | undefined => {
    if (!fd_filestat_get) return undefined;
    const at = scratch >>> 0;
    if (at + FILESTAT_BYTES > memory().buffer.byteLength) return undefined;
    const saved = new Uint8Array(memory().buffer, at, FILESTAT_BYTES).slice();
    try {
      if (fd_filestat_get(fd, at) !== WASI_ESUCCESS) return undefined;
      const view = new DataView(memory().buffer, at, FILESTAT_BYTES);
      return {
        dev: view.getBigUint64(0, true),
        ino: view.getBigUint64(8, true),
        filestat: new Uint8Array(memory().buffer, at, FILESTAT_BYTES).slice(),
      };
    } finally {
      new Uint8Array(memory().buffer, at, FILESTAT_BYTES).set(saved);
    }
  };

  /**
   * Invariant 14: opens `host` for reading on the host and serves it when it is a regular file
   * inside `root`; answers the errno, or undefined for something inside that is not a regular
   * file (the caller opens it through uvwasi).
   */
  const serveOpen = (probe: OpenedFileProbe, served: ServedFiles, host: string, follow: boolean,
                     resolveAll: () => string | undefined, root: Root, rights: bigint, fdflags: number,
                     outFd: number): number | undefined => {
    const at = outFd >>> 0;
    if (at + 4 > memory().buffer.byteLength) return WASI_EFAULT;
    let osFd: number;
    try {
      osFd = openSync(host, SERVED_OPEN_FLAGS);
    } catch (e) {
      if (wasiErrno(e) !== WASI_ELOOP || !follow) return wasiErrno(e);
      // The last component is a link: resolve it all (refused when it leads out), then open that.
      const target = resolveAll();
      if (target === undefined) return WASI_ENOTCAPABLE;
      try {
        osFd = openSync(target, SERVED_OPEN_FLAGS);
      } catch (e2) {
        return wasiErrno(e2);
      }
    }
    freedOsFd = undefined; // the open may have taken it (invariant 11)
    const file = probe.describe(osFd);
    const why = file === undefined ? 'unconfirmed' : refusal(file, root, false, false);
    if (file === undefined || why !== undefined || !file.isFile) {
      closeSync(osFd);
      if (why === undefined) return undefined; // inside, not a regular file: through uvwasi
      return why === 'unconfirmed' ? WASI_EIO : WASI_ENOTCAPABLE;
    }
    new DataView(memory().buffer).setUint32(at, served.add(osFd, file, rights, fdflags), true);
    return WASI_ESUCCESS;
  };

  if (path_open) {
    out['path_open'] = (fd: number, dirflags: number, path: number, pathLen: number,
                        oflags: number, rights: bigint | number, inheriting: bigint | number,
                        fdflags: number, outFd: number): number => {
      const follow = (dirflags & LOOKUP_SYMLINK_FOLLOW) !== 0;
      // Invariant 12: a file opened to read (or write in place) is opened without following its
      // last component, which then needs no look before the open.
      const nofollowFirst = probe !== undefined && (oflags & (OFLAGS_WRITE | OFLAGS_DIRECTORY)) === 0;
      let lookup = nofollowFirst ? dirflags & ~LOOKUP_SYMLINK_FOLLOW : dirflags;
      let host = resolveArg(fd, path, pathLen, nofollowFirst ? 'unchecked' : follow);
      if (host === undefined) return WASI_ENOTCAPABLE;
      const forWriting = (BigInt(rights) & WRITE_RIGHTS) !== 0n;
      if (!writable(fd) && ((oflags & OFLAGS_WRITE) !== 0 || forWriting)) return WASI_EROFS;
      const root = (fds.get(fd) as FdEntry).root;
      if (served !== undefined && probe !== undefined && nofollowFirst && !forWriting &&
          (fdflags & ~FDFLAGS_NONBLOCK) === 0) {
        const rc = serveOpen(probe, served, host, follow, () => resolveArg(fd, path, pathLen, true), root,
          BigInt(rights), fdflags, outFd);
        if (rc !== undefined) return rc;
      }
      if (probe === undefined) {
        const rc = path_open(fd, dirflags, path, pathLen, oflags, rights, inheriting, fdflags, outFd);
        if (rc === WASI_ESUCCESS) fds.set(new DataView(memory().buffer).getUint32(outFd >>> 0, true), { root, host });
        return rc;
      }
      // Invariant 4: no truncation before the check; know whether the open made the file.
      const open = (flags: number, osFd = probe.nextFreeFd()): { rc: number; osFd: number } => {
        return { rc: path_open(fd, lookup, path, pathLen, flags, rights, inheriting, fdflags, outFd), osFd };
      };
      const wantsCreate = (oflags & OFLAGS_CREAT) !== 0;
      const withoutTrunc = oflags & ~OFLAGS_TRUNC;
      // Invariant 11: an open that neither creates nor truncates may take the freed descriptor.
      const guess = !wantsCreate && withoutTrunc === oflags ? freedOsFd : undefined;
      freedOsFd = undefined;
      let attempt = guess !== undefined
        ? open(oflags, guess)
        : open(wantsCreate ? withoutTrunc | OFLAGS_EXCL : withoutTrunc);
      let created = wantsCreate && attempt.rc === WASI_ESUCCESS;
      if (wantsCreate && (oflags & OFLAGS_EXCL) === 0 && attempt.rc === WASI_EEXIST) {
        attempt = open(withoutTrunc & ~OFLAGS_CREAT);
        created = false;
      }
      if (nofollowFirst && follow && attempt.rc === WASI_ELOOP) {
        // The last component is a link (or the path loops): resolve it all, then follow it.
        host = resolveArg(fd, path, pathLen, true);
        if (host === undefined) return WASI_ENOTCAPABLE;
        lookup = dirflags;
        attempt = open(oflags, guess);
      }
      if (attempt.rc !== WASI_ESUCCESS) return attempt.rc;
      let opened = new DataView(memory().buffer).getUint32(outFd >>> 0, true);
      // Invariant 3: the fd the kernel gave uvwasi, confirmed by device and inode.
      const check = (osFd: number): { file: OpenedFile | undefined; confirmed: OpenedFile | undefined;
                                       filestat: Uint8Array | undefined } => {
        const file = probe.describe(osFd);
        const identity = uvwasiIdentity(opened, path);
        const same = file !== undefined && identity !== undefined &&
          file.dev === identity.dev && file.ino === identity.ino;
        return { file, confirmed: same ? file : undefined, filestat: identity?.filestat };
      };
      let checked = check(attempt.osFd);
      if (checked.confirmed === undefined && guess !== undefined) {
        // The guess missed: undo the open and make it again, found by the probe this time.
        fd_close?.(opened);
        attempt = open(oflags);
        if (attempt.rc !== WASI_ESUCCESS) return attempt.rc;
        opened = new DataView(memory().buffer).getUint32(outFd >>> 0, true);
        checked = check(attempt.osFd);
      }
      const { file, confirmed } = checked;
      const why = confirmed === undefined
        ? 'unconfirmed'
        : refusal(confirmed, root, forWriting || (oflags & OFLAGS_TRUNC) !== 0, created);
      if (confirmed === undefined || why !== undefined) {
        fd_close?.(opened);
        if (created && file?.path !== undefined) {
          try {
            unlinkSync(file.path); // the open made it (O_EXCL): only this call's own file
          } catch {
            // already gone
          }
        }
        return why === 'unconfirmed' ? WASI_EIO : WASI_ENOTCAPABLE;
      }
      if ((oflags & OFLAGS_TRUNC) !== 0 && !created && fd_filestat_set_size) {
        const rc = fd_filestat_set_size(opened, 0n);
        if (rc !== WASI_ESUCCESS) {
          fd_close?.(opened);
          return rc;
        }
      }
      fds.set(opened, { root, host: confirmed.path ?? host, osFd: attempt.osFd });
      if ((oflags & OFLAGS_TRUNC) === 0 && checked.filestat !== undefined) {
        openedStat = { fd: opened, bytes: checked.filestat };
      }
      return WASI_ESUCCESS;
    };
  }
  if (fd_filestat_get) {
    // Invariant 13: the guest's fstat right after an open is answered from the open's check.
    out['fd_filestat_get'] = (fd: number, buf: number): number => {
      const cached = openedStat;
      openedStat = undefined;
      const at = buf >>> 0;
      if (cached !== undefined && cached.fd === fd && at + FILESTAT_BYTES <= memory().buffer.byteLength) {
        new Uint8Array(memory().buffer, at, FILESTAT_BYTES).set(cached.bytes);
        return WASI_ESUCCESS;
      }
      return fd_filestat_get(fd, buf);
    };
  }
  if (fd_close) {
    out['fd_close'] = (fd: number): number => {
      const rc = fd_close(fd);
      if (rc === WASI_ESUCCESS) {
        freedOsFd = fds.get(fd)?.osFd;
        fds.delete(fd);
      }
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
  const fd_readdir = imports['fd_readdir'];
  if (fd_readdir) {
    // Invariant 15: hidden entries are cut out of the listing.
    out['fd_readdir'] = (fd: number, buf: number, bufLen: number, cookie: bigint | number, bufUsed: number): number => {
      const entry = fds.get(fd);
      const names = entry?.root.hiddenNames.get(entry.host);
      if (names === undefined) return fd_readdir(fd, buf, bufLen, cookie, bufUsed);
      return readdirWithout(fd_readdir, names, memory, fd, buf >>> 0, bufLen >>> 0, BigInt(cookie), bufUsed >>> 0);
    };
  }
  for (const [name, { paths, writes }] of Object.entries(CHECKED)) {
    const original = imports[name];
    if (!original) continue;
    out[name] = (...args: any[]): number => {
      for (const p of paths) {
        const follow = p.flags !== undefined && (Number(args[p.flags]) & LOOKUP_SYMLINK_FOLLOW) !== 0;
        const host = resolveArg(Number(args[p.fd]), Number(args[p.ptr]), Number(args[p.len]), follow);
        if (host === undefined) return WASI_ENOTCAPABLE;
        // Invariant 15: moving a directory that holds a hidden path would unhide it.
        if (name === 'path_rename' && holdsHidden(host, (fds.get(Number(args[p.fd])) as FdEntry).root)) return WASI_ENOTCAPABLE;
      }
      if (!writes.every((i) => writable(Number(args[i])))) return WASI_EROFS;
      return original(...args);
    };
  }
  for (const name of ALWAYS_REFUSED) {
    if (imports[name]) out[name] = (): number => WASI_ENOTCAPABLE;
  }
  // Invariant 13: any other import ends the remembered filestat's validity. Invariant 14: a
  // call on a served descriptor is answered by `served`; uvwasi never sees one.
  const freed = (osFd: number): void => {
    freedOsFd = osFd;
  };
  for (const [name, f] of Object.entries(out)) {
    if (typeof f !== 'function') continue;
    const keepsStat = name === 'fd_filestat_get';
    const positions = served !== undefined ? fdArgumentsOf(name) : [];
    out[name] = (...args: any[]): number => {
      if (positions.length > 0) {
        const answer = (served as ServedFiles).answer(name, positions, args, freed);
        if (answer !== undefined) {
          openedStat = undefined;
          return answer;
        }
      }
      if (!keepsStat) openedStat = undefined;
      return f(...args);
    };
  }
  return out;
}

const DIRENT_BYTES = 24; // preview1 dirent: d_next u64 @0, d_ino u64 @8, d_namlen u32 @16, d_type u8 @20
const textDecoder = new TextDecoder();

/**
 * fd_readdir without the entries named in `names` (invariant 15): the first hidden record in
 * an answer is overwritten by reading on from its cookie into the same place, until an answer
 * holds none. The guest gets the same answer shape as from uvwasi (records in order, the last
 * one possibly cut by the buffer end, `bufused` = buf_len when the buffer is full).
 */
function readdirWithout(fd_readdir: WasiFn, names: ReadonlySet<string>, memory: () => { readonly buffer: ArrayBuffer },
                        fd: number, buf: number, bufLen: number, cookie: bigint, bufUsed: number): number {
  const end = buf + bufLen;
  if (end > memory().buffer.byteLength || bufUsed + 4 > memory().buffer.byteLength) return WASI_EFAULT;
  let at = buf;
  let next = cookie;
  // Each round cuts one hidden record; a directory holds each hidden name at most once.
  for (let round = 0; round <= names.size; round += 1) {
    const rc = fd_readdir(fd, at, end - at, next, bufUsed);
    if (rc !== WASI_ESUCCESS) return rc;
    const view = new DataView(memory().buffer);
    const stop = at + Math.min(view.getUint32(bufUsed, true), end - at);
    let hit: { off: number; next: bigint } | undefined;
    for (let off = at; off + DIRENT_BYTES <= stop;) {
      const length = view.getUint32(off + 16, true);
      if (off + DIRENT_BYTES + length > stop) break; // cut by the buffer end: read again later
      const name = textDecoder.decode(new Uint8Array(memory().buffer, off + DIRENT_BYTES, length));
      if (names.has(name)) {
        hit = { off, next: view.getBigUint64(off, true) };
        break;
      }
      off += DIRENT_BYTES + length;
    }
    if (hit === undefined) {
      view.setUint32(bufUsed, stop - buf, true);
      return WASI_ESUCCESS;
    }
    at = hit.off;
    next = hit.next;
  }
  new DataView(memory().buffer).setUint32(bufUsed, at - buf, true);
  return WASI_ESUCCESS;
}

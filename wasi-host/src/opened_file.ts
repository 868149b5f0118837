// SPDX-License-Identifier: MIT
// What the kernel says about a file node:wasi has just opened (Linux: /proc/self/fd).
// node:wasi (uvwasi) opens by path string, so a check of the path before the open can be raced:
// another process swaps a file or a directory for a symlink between the check and the open.
// The opened file itself cannot be swapped, so the sandbox asks the kernel where the open landed:
//  - uvwasi's descriptor is the lowest free one at the time of the open (POSIX: open returns
//    the lowest unused descriptor; the call is synchronous on the main thread), so
//    `nextFreeFd()` just before the open names it; the caller confirms the guess by device and
//    inode against uvwasi's own fstat of its descriptor, and fails closed when they differ;
//  - readlink of /proc/self/fd/N is the path the kernel resolved, every link followed: the
//    file is inside a root exactly when that path is;
//  - fstat of N gives the file type and link count (a hard link has no "real" path to check).
// Elsewhere (no /proc/self/fd) `openedFileProbe()` answers undefined and only the checks made
// before the open apply; docs/RELIABILITY.md says so.
import { closeSync, existsSync, fstatSync, openSync, readlinkSync } from 'node:fs';

/** The kernel's view of one descriptor. */
export interface OpenedFile {
  /** The resolved path; undefined for a deleted file or a non-file (pipe, socket). */
  path: string | undefined;
  dev: bigint;
  ino: bigint;
  isFile: boolean;
  isDirectory: boolean;
  links: bigint;
  size: bigint;
  /** Access, modification and change times in nanoseconds (exact to about a microsecond). */
  times: [bigint, bigint, bigint];
}

// Nanoseconds from one of Node's millisecond times.
const nanoseconds = (ms: number): bigint => BigInt(Math.max(0, Math.round(ms * 1e6)));

/** Finds the descriptor an open will create, and describes a descriptor. */
export interface OpenedFileProbe {
  /** The lowest free descriptor now: the one the next open on this thread gets. */
  nextFreeFd(): number;
  /** What the kernel says about `fd`; undefined when it is not open. */
  describe(fd: number): OpenedFile | undefined;
}

/**
 * fstat of `fd` with exact device, inode and link count: Node's number form where they are exact
 * (below 2^53; the bigint form costs twice as much), the bigint form otherwise. Throws what
 * fstat throws.
 */
export function fstatExact(fd: number): Omit<OpenedFile, 'path'> {
  const st = fstatSync(fd);
  if (Number.isSafeInteger(st.dev) && Number.isSafeInteger(st.ino) && Number.isSafeInteger(st.nlink)) {
    return {
      dev: BigInt(st.dev), ino: BigInt(st.ino), isFile: st.isFile(), isDirectory: st.isDirectory(),
      links: BigInt(st.nlink), size: BigInt(st.size),
      times: [nanoseconds(st.atimeMs), nanoseconds(st.mtimeMs), nanoseconds(st.ctimeMs)],
    };
  }
  const big = fstatSync(fd, { bigint: true });
  return {
    dev: big.dev, ino: big.ino, isFile: big.isFile(), isDirectory: big.isDirectory(), links: big.nlink,
    size: big.size, times: [big.atimeNs, big.mtimeNs, big.ctimeNs],
  };
}

const FD_DIR = '/proc/self/fd';
const DELETED = ' (deleted)';

const procProbe: OpenedFileProbe = {
  nextFreeFd() {
    const fd = openSync('/dev/null', 'r');
    closeSync(fd);
    return fd;
  },
  describe(fd) {
    try {
      const target = readlinkSync(`${FD_DIR}/${fd}`);
      const path = target.startsWith('/') && !target.endsWith(DELETED) ? target : undefined;
      return { path, ...fstatExact(fd) };
    } catch {
      return undefined;
    }
  },
};

/** The probe for this host, or undefined where the kernel does not list descriptors. */
export function openedFileProbe(): OpenedFileProbe | undefined {
  return process.platform === 'linux' && existsSync(FD_DIR) ? procProbe : undefined;
}

// SPDX-License-Identifier: MIT
// Host path resolution for the WASI sandbox (sandbox.ts, invariants 2, 10 and 12): a guest path
// below a root's real directory resolved the way the kernel will resolve it, component by
// component, symlinks followed (the last one only when asked), with real directories remembered
// by device and inode so a deep tree is not walked again per call — a remembered directory is
// trusted only after one lstat shows it unchanged. Metadata only (lstat, readlink): nothing here
// opens a file.
import { lstatSync, readlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';

const MAX_SYMLINKS = 40;
const MAX_REMEMBERED_DIRS = 100_000;

/** A real directory as lstat saw it: the same path must still reach the same inode. */
export interface DirIdentity {
  dev: bigint;
  ino: bigint;
}
/** Real (non-link) directories met while resolving, by host path. */
export type RealDirs = Map<string, DirIdentity>;

/**
 * lstat with exact device and inode numbers: Node's number form where they are exact (below
 * 2^53, the usual case: the bigint form costs twice as much, a BigInt and a Date per field), the
 * bigint form otherwise. Undefined when the path does not exist; other errors throw.
 */
export function exactLstat(path: string): { dev: bigint; ino: bigint; isDirectory: boolean; isSymbolicLink: boolean } | undefined {
  const st = lstatSync(path, { throwIfNoEntry: false });
  if (st === undefined) return undefined;
  if (Number.isSafeInteger(st.dev) && Number.isSafeInteger(st.ino)) {
    return { dev: BigInt(st.dev), ino: BigInt(st.ino), isDirectory: st.isDirectory(), isSymbolicLink: st.isSymbolicLink() };
  }
  const big = lstatSync(path, { bigint: true, throwIfNoEntry: false });
  return big === undefined
    ? undefined
    : { dev: big.dev, ino: big.ino, isDirectory: big.isDirectory(), isSymbolicLink: big.isSymbolicLink() };
}

/** True when `path` is still the real directory `known` (one lstat; links are followed above it). */
function stillSameDir(path: string, known: DirIdentity): boolean {
  const st = exactLstat(path);
  return st !== undefined && st.isDirectory && st.dev === known.dev && st.ino === known.ino;
}

/**
 * `base/rel` for a `rel` of plain components (no empty, `.` or `..` one, no leading `/`), which
 * is what the guest sends: the same string path.join makes, without its normalising pass.
 */
function joinPlain(base: string, rel: string): string {
  if (rel === '' || rel === '.' || rel.startsWith('./') || rel.endsWith('/.') || rel.includes('//') ||
      rel.includes('/./') || rel.startsWith('/') || rel.endsWith('/') || rel === '..' ||
      rel.startsWith('../') || rel.includes('/../') || rel.endsWith('/..')) {
    return join(base, rel);
  }
  return base.endsWith('/') ? base + rel : `${base}/${rel}`;
}

/**
 * True when `dir` is a remembered real directory that one lstat shows unchanged (invariant 10);
 * a remembered one that changed is forgotten.
 */
function rememberedDir(dir: string, realDirs: RealDirs): boolean {
  const known = realDirs.get(dir);
  if (known === undefined) return false;
  if (stillSameDir(dir, known)) return true;
  realDirs.delete(dir);
  return false;
}

/**
 * Resolves `rel` below the real directory `base` as the OS would: symlinks are followed
 * component by component (the last only when `followLast`); components that do not exist are
 * appended as they are. Undefined for a symlink loop or an unreadable link. `realDirs`
 * remembers real directories (invariant 10); a remembered one is trusted only after one lstat.
 */
export function resolveHostPath(
  base: string, rel: string, followLast: boolean, realDirs?: RealDirs,
): string | undefined {
  let parts = rel.split('/').filter((p) => p !== '' && p !== '.');
  let cur = base;
  let links = 0;
  // The usual call names an entry of a directory already walked: take its parent in one step
  // (component by component, each join is as long as the path, so a 2 000-deep tree made
  // every call quadratic), after one lstat shows it is still that directory.
  if (realDirs !== undefined && parts.length > 1 && !parts.includes('..')) {
    const parent = join(base, ...parts.slice(0, -1));
    if (rememberedDir(parent, realDirs)) {
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
    let isLink: boolean;
    try {
      const st = exactLstat(next);
      if (st === undefined) return join(next, ...parts); // missing: nothing below it can be a link
      isLink = st.isSymbolicLink;
      if (realDirs !== undefined && !isLink && st.isDirectory) {
        if (realDirs.size >= MAX_REMEMBERED_DIRS) realDirs.clear();
        realDirs.set(next, { dev: st.dev, ino: st.ino });
      }
    } catch {
      return join(next, ...parts); // unreadable (EACCES, ENOTDIR): as the OS will find it
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

/**
 * Like resolveHostPath, for a path whose last component the OS will not follow (an open with
 * O_NOFOLLOW, invariant 12): its directory is resolved (links followed), the last component is
 * appended unchecked. A remembered directory costs one lstat, as in resolveHostPath.
 */
export function resolveHostParent(base: string, rel: string, realDirs: RealDirs): string | undefined {
  const slash = rel.lastIndexOf('/');
  const name = rel.slice(slash + 1);
  if (name === '' || name === '.' || name === '..') return resolveHostPath(base, rel, false, realDirs);
  if (slash < 0) return joinPlain(base, name);
  const parentRel = rel.slice(0, slash);
  // The memo is keyed by real paths: a `..` must be resolved by the walk, not by join.
  if (!hasDotDot(parentRel)) {
    const parent = joinPlain(base, parentRel);
    if (rememberedDir(parent, realDirs)) return joinPlain(parent, name);
  }
  const resolved = resolveHostPath(base, parentRel, true, realDirs);
  return resolved === undefined ? undefined : join(resolved, name);
}

/** True when `rel` has a `..` component (substring searches: every open checks this). */
export function hasDotDot(rel: string): boolean {
  return rel === '..' || rel.startsWith('../') || rel.endsWith('/..') || rel.includes('/../');
}

export function isInside(path: string, root: string): boolean {
  return root === '/' || path === root || path.startsWith(root + '/');
}

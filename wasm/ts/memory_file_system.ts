// SPDX-License-Identifier: MIT
// createMemoryFileSystem: a pure-JS, sandboxed FileSystem over an in-memory tree, for
// browsers and tests. Invariants: every ancestor of an entry is a directory ("/" always exists);
// stored bytes are private copies; each write sets mtime_ms = max(clock(), previous + 1), so
// AGENTS.md probes see every edit (clock defaults to 0: mtimes are then a per-file counter and
// runs are deterministic). Each directory keeps the names of its entries (in the order they were
// made), so `list` reads only that directory's entries and `remove` only the subtree: a walk
// of the whole tree is linear in its size (scanning every node per listing made it quadratic).
import { AgentctxError } from './errors.js';
import { isNormalizedPath, type FileSystem, type FsDirEntry, type FsFailure, type FsResult } from './file_system.js';

export interface MemoryFileSystemOptions {
  /** The clock for mtimes in ms (default () => 0). */
  clock?: () => number;
}

/** A sandboxed in-memory FileSystem; `paths()` lists its files for inspection. */
export interface MemoryFileSystem extends FileSystem {
  /** Every file path, sorted. */
  paths(): string[];
  /** Removes a file (never a directory); the FileSystem contract's optional method. */
  removeFile(path: string): FsResult;
  /**
   * Deletes a file, or a directory with everything under it; false when nothing is there.
   * "/" itself cannot be removed.
   */
  remove(path: string): boolean;
}

type Node = { kind: 'file'; data: Uint8Array; mtime: number } | { kind: 'dir'; mtime: number; names: Set<string> };

/** The parent of a normalised path other than "/" and its last segment. */
function split(path: string): [parent: string, name: string] {
  const slash = path.lastIndexOf('/');
  return [slash === 0 ? '/' : path.slice(0, slash), path.slice(slash + 1)];
}

const encoder = new TextEncoder();

function fail(code: FsFailure['code'], message: string): FsFailure {
  return { ok: false, code, message };
}

/**
 * Creates a sandboxed FileSystem holding `files` (absolute normalised path -> text (UTF-8) or
 * bytes). Parent directories are implied. Throws AgentctxError `invalid_path` for a bad key.
 */
export function createMemoryFileSystem(
  files: Readonly<Record<string, string | Uint8Array>> = {},
  options: MemoryFileSystemOptions = {},
): MemoryFileSystem {
  const clock = options.clock ?? (() => 0);
  const nodes = new Map<string, Node>([['/', { kind: 'dir', mtime: 0, names: new Set() }]]);

  // Stores `node` at `path` (its parent is a directory) and names it in the parent.
  function place(path: string, node: Node): void {
    nodes.set(path, node);
    const [parent, name] = split(path);
    (nodes.get(parent) as Node & { kind: 'dir' }).names.add(name);
  }

  // Deletes `path` and everything below it, and its name from the parent.
  function unplace(path: string): void {
    const stack = [path];
    while (stack.length > 0) {
      const p = stack.pop() as string;
      const node = nodes.get(p);
      nodes.delete(p);
      if (node?.kind === 'dir') for (const name of node.names) stack.push(p === '/' ? `/${name}` : `${p}/${name}`);
    }
    const [parent, name] = split(path);
    const dir = nodes.get(parent);
    if (dir?.kind === 'dir') dir.names.delete(name);
  }

  // The ancestors of `path` (not itself) as the slash positions that end them, and how many of
  // them exist. Existing ancestors form a prefix of the chain (every ancestor of an entry is a
  // directory), so a binary search finds it in O(log depth) map lookups (walking every
  // ancestor made a missing-path stat quadratic in depth and AGENTS.md discovery cubic).
  function existingAncestors(path: string): { slashes: number[]; existing: number } {
    const slashes: number[] = [];
    for (let i = path.indexOf('/', 1); i !== -1; i = path.indexOf('/', i + 1)) slashes.push(i);
    let lo = 0; // ancestors ending at slashes[0..lo) exist ("/" always does)
    let hi = slashes.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (nodes.has(path.slice(0, slashes[mid]))) lo = mid + 1;
      else hi = mid;
    }
    return { slashes, existing: lo };
  }

  // The ancestors of `path` decide: the deepest existing one must be a directory and, unless
  // `create` (which makes the missing ones), none may be missing.
  function checkParents(path: string, create: boolean): FsFailure | undefined {
    const { slashes, existing } = existingAncestors(path);
    if (existing > 0 && nodes.get(path.slice(0, slashes[existing - 1]))?.kind !== 'dir') {
      return fail('not_a_directory', path);
    }
    if (existing === slashes.length) return undefined;
    if (!create) return fail('not_found', path);
    for (let i = existing; i < slashes.length; i++) {
      place(path.slice(0, slashes[i]), { kind: 'dir', mtime: Math.max(0, clock()), names: new Set() });
    }
    return undefined;
  }

  function lookup(path: string): Node | FsFailure {
    if (!isNormalizedPath(path)) return fail('invalid_path', path);
    const node = nodes.get(path);
    if (node !== undefined) return node;
    return checkParents(path, false) ?? fail('not_found', path);
  }

  for (const [path, content] of Object.entries(files)) {
    if (!isNormalizedPath(path) || path === '/') {
      throw new AgentctxError('invalid_path',
        `createMemoryFileSystem: "${path}" is not an absolute, normalised file path`, { path });
    }
    const parentFailure = checkParents(path, true);
    if (parentFailure !== undefined || nodes.get(path)?.kind === 'dir') {
      throw new AgentctxError('invalid_path',
        `createMemoryFileSystem: "${path}" collides with another entry`, { path });
    }
    const data = typeof content === 'string' ? encoder.encode(content) : content.slice();
    place(path, { kind: 'file', data, mtime: 0 });
  }

  return {
    stat(path) {
      const node = lookup(path);
      if ('ok' in node) return node;
      const size = node.kind === 'file' ? node.data.length : 0;
      return { ok: true, kind: node.kind, size, mtime_ms: node.mtime };
    },
    read(path, maxBytes) {
      const node = lookup(path);
      if ('ok' in node) return node;
      if (node.kind === 'dir') return fail('is_a_directory', path);
      // A view, not a copy: the wasm side copies it once (js_file_system.cc).
      return { ok: true, data: node.data.subarray(0, Math.max(0, Math.min(node.data.length, maxBytes))) };
    },
    list(path) {
      const node = lookup(path);
      if ('ok' in node) return node;
      if (node.kind !== 'dir') return fail('not_a_directory', path);
      const prefix = path === '/' ? '/' : path + '/';
      const entries: FsDirEntry[] = [];
      for (const name of node.names) entries.push({ name, kind: (nodes.get(prefix + name) as Node).kind });
      return { ok: true, entries };
    },
    write(path, bytes, createParents) {
      if (!isNormalizedPath(path)) return fail('invalid_path', path);
      if (!(bytes instanceof Uint8Array)) return fail('io', 'write: bytes must be a Uint8Array');
      const existing = nodes.get(path);
      if (existing?.kind === 'dir') return fail('is_a_directory', path);
      const parentFailure = checkParents(path, createParents);
      if (parentFailure !== undefined) return parentFailure;
      const previous = existing?.mtime ?? -1;
      place(path, { kind: 'file', data: bytes.slice(), mtime: Math.max(clock(), previous + 1) });
      return { ok: true };
    },
    removeFile(path) {
      if (!isNormalizedPath(path)) return fail('invalid_path', path);
      const node = nodes.get(path);
      if (node === undefined) return fail('not_found', path);
      if (node.kind === 'dir') return fail('is_a_directory', path);
      unplace(path);
      return { ok: true };
    },
    sandboxed() {
      return true;
    },
    paths() {
      return [...nodes].filter(([, n]) => n.kind === 'file').map(([p]) => p).sort();
    },
    remove(path) {
      if (!isNormalizedPath(path) || path === '/' || !nodes.has(path)) return false;
      unplace(path);
      return true;
    },
  };
}

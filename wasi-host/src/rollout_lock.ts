// SPDX-License-Identifier: MIT
// The advisory lock of a rollout the CLI appends to (run, the REPL, resume): `<rollout>.lock`
// beside it, holding `{pid, hostname, started_at, token}` of the process that holds it.
// Invariants:
//  - The lock file appears atomically with its whole content (written to a temporary file, then
//    hard-linked into place, which fails if the lock exists; where links are not supported,
//    created with O_EXCL, 'wx'), so a reader never mistakes a lock being written for garbage.
//  - A second writer is refused (RolloutLockedError, naming the holder's pid and the lock path)
//    before it touches the rollout. A stale lock — its pid no longer runs on this host, or its
//    content is unreadable — is taken over with a note; a lock from another host is respected.
//  - A stale lock is removed only by the one process that claimed that very lock: the claim is
//    `<lock>.takeover-<hash of the stale content>`, created exclusively like the lock; its
//    holder removes the lock only if it still holds that content, then drops the claim, and
//    everyone then competes for the lock afresh. So of many processes that find one stale lock,
//    one removes it and one creates the next (never a live lock removed on stale evidence:
//    the content of a real lock is unique, its token). A claim whose holder died is stale and
//    claimed the same way, two levels deep at most; a claim held by a live process is waited
//    for, up to TAKEOVER_WAIT_MS.
//  - The lock is removed on a normal return, a throw (release in `finally`), process.exit (the
//    'exit' event) and SIGINT/SIGTERM/SIGHUP; release removes only a lock whose token is ours.
//    SIGKILL leaves it behind: the next process finds the pid dead and takes it over.
import { createHash, randomUUID } from 'node:crypto';
import { closeSync, linkSync, openSync, readFileSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { HostInputError } from './config.js';

/** What a lock file holds. */
export interface LockHolder {
  pid: number;
  hostname: string;
  started_at: string;
  token: string;
}

/** Another process holds the rollout's lock (exit 1, `rollout_locked`). */
export class RolloutLockedError extends Error {
  readonly code = 'rollout_locked';
  readonly lockPath: string;
  readonly holder: LockHolder;
  constructor(rollout: string, lockPath: string, holder: LockHolder) {
    const where = holder.hostname === hostname() ? `pid ${holder.pid}` : `pid ${holder.pid} on host ${holder.hostname}`;
    super(`${rollout} is being written by another agentctx process (${where}, since ${holder.started_at}; lock file ${lockPath}): ` +
      'nothing was appended; try again when it has finished, or delete the lock file if that process is gone');
    this.name = 'RolloutLockedError';
    this.lockPath = lockPath;
    this.holder = holder;
  }
}

export interface RolloutLock {
  readonly path: string;
  /** Removes the lock file if it is still ours; idempotent. */
  release(): void;
}

export function lockPathOf(rollout: string): string {
  return `${rollout}.lock`;
}

const EXIT_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

function errorCode(e: unknown): string | undefined {
  const code = (e as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Creates `path` holding `text` unless it exists; false when it does. */
function createExclusive(path: string, text: string): boolean {
  const temp = `${path}.${process.pid}.${randomUUID()}.tmp`;
  writeFileSync(temp, text, { flag: 'wx' });
  try {
    linkSync(temp, path);
    return true;
  } catch (e) {
    if (errorCode(e) === 'EEXIST') return false;
    if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV'].includes(errorCode(e) ?? '')) throw e;
  } finally {
    unlinkSync(temp);
  }
  // No hard links on this file system: O_EXCL.
  let fd: number;
  try {
    fd = openSync(path, 'wx');
  } catch (e) {
    if (errorCode(e) === 'EEXIST') return false;
    throw e;
  }
  try {
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
  return true;
}

/** The lock file's text, or undefined when it is gone. */
function readLock(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    if (errorCode(e) === 'ENOENT') return undefined;
    throw e;
  }
}

function parseHolder(text: string): LockHolder | undefined {
  try {
    const v = JSON.parse(text) as Partial<LockHolder>;
    if (!Number.isSafeInteger(v.pid) || (v.pid as number) <= 0 || typeof v.hostname !== 'string') return undefined;
    return {
      pid: v.pid as number, hostname: v.hostname,
      started_at: typeof v.started_at === 'string' ? v.started_at : 'an unknown time',
      token: typeof v.token === 'string' ? v.token : '',
    };
  } catch {
    return undefined;
  }
}

/** Why the lock is stale, or undefined while its holder may still run. */
function staleReason(holder: LockHolder | undefined): string | undefined {
  if (holder === undefined) return 'its content is unreadable';
  if (holder.hostname !== hostname()) return undefined; // another host's pid cannot be checked
  if (holder.pid === process.pid) return undefined;
  try {
    process.kill(holder.pid, 0);
    return undefined;
  } catch (e) {
    return errorCode(e) === 'ESRCH' ? `pid ${holder.pid} is no longer running` : undefined;
  }
}

/** How long a process waits for another that is taking over the same stale lock. */
export const TAKEOVER_WAIT_MS = 2000;

const pauseCell = new Int32Array(new SharedArrayBuffer(4));
function pause(ms: number): void {
  Atomics.wait(pauseCell, 0, 0, ms);
}

/** createExclusive, its failures said as a HostInputError naming the path. */
function create(path: string, text: string, what: string): boolean {
  try {
    return createExclusive(path, text);
  } catch (e) {
    throw new HostInputError(`${path}: cannot create the ${what} (${errorCode(e) ?? String(e)})`);
  }
}

/**
 * Removes the stale lock file `path` if it still holds `seen`, through the claim of that
 * content (module invariants). 'removed': this call removed it; 'changed': it no longer holds
 * `seen`; 'busy': another process holds the claim (look again shortly).
 */
function removeStale(path: string, seen: string, text: string, depth = 0): 'removed' | 'changed' | 'busy' {
  const claim = `${path}.takeover-${createHash('sha256').update(seen).digest('hex').slice(0, 16)}`;
  if (!create(claim, text, 'rollout lock claim')) {
    const other = readLock(claim);
    // A claimant that died before dropping its claim: its claim is stale in turn.
    if (other !== undefined && depth < 2 && staleReason(parseHolder(other)) !== undefined) removeStale(claim, other, text, depth + 1);
    return 'busy';
  }
  try {
    if (readLock(path) !== seen) return 'changed';
    try {
      unlinkSync(path);
    } catch (e) {
      if (errorCode(e) !== 'ENOENT') throw e;
    }
    return 'removed';
  } finally {
    try {
      unlinkSync(claim);
    } catch {
      // gone already
    }
  }
}

/**
 * Takes the lock of `rollout` or throws RolloutLockedError. `note` hears the one line said
 * when a stale lock is taken over.
 */
export function acquireRolloutLock(rollout: string, note: (line: string) => void = () => undefined): RolloutLock {
  const path = lockPathOf(rollout);
  const mine: LockHolder = { pid: process.pid, hostname: hostname(), started_at: new Date().toISOString(), token: randomUUID() };
  const text = JSON.stringify(mine) + '\n';
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  let removed: string | undefined; // why the stale lock this process removed was stale
  for (;;) {
    if (create(path, text, 'rollout lock')) {
      if (removed !== undefined) note(`took over the stale lock ${path} (${removed})`);
      return held(path, mine.token);
    }
    const seen = readLock(path);
    if (seen !== undefined) {
      const holder = parseHolder(seen);
      const stale = staleReason(holder);
      if (stale === undefined) throw new RolloutLockedError(rollout, path, holder as LockHolder);
      const outcome = removeStale(path, seen, text);
      if (outcome === 'removed') removed = stale;
      if (outcome === 'busy') pause(2);
    }
    if (Date.now() > deadline) {
      throw new HostInputError(`${path}: the rollout lock keeps changing hands; is another agentctx process resuming ${rollout}?`);
    }
  }
}

function held(path: string, token: string): RolloutLock {
  let released = false;
  const onSignal = (signal: NodeJS.Signals): void => {
    // Another handler (Ctrl-C interrupting the turn) decides; the 'exit' event releases then.
    if (process.listenerCount(signal) > 1) return;
    release();
    process.kill(process.pid, signal); // the default action, now that no listener is left
  };
  const release = (): void => {
    if (released) return;
    released = true;
    process.off('exit', release);
    for (const s of EXIT_SIGNALS) process.off(s, onSignal);
    try {
      const text = readLock(path);
      if (text !== undefined && parseHolder(text)?.token === token) unlinkSync(path);
    } catch {
      // gone already, or unreadable: never throw from an exit path
    }
  };
  process.on('exit', release);
  for (const s of EXIT_SIGNALS) process.on(s, onSignal);
  return { path, release };
}

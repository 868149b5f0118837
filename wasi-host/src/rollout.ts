// SPDX-License-Identifier: MIT
// Where rollouts live and how `resume` continues one (docs/replay.md has the format).
// Invariants:
//  - New rollouts are `<home>/sessions/rollout-<UTC yyyy-mm-ddThh-mm-ss>-<session_id>.jsonl`;
//    the guest writes them through its /state preopen (rollout.open), the host only makes the
//    `sessions` directory.
//  - `resume FILE` continues FILE in place when it lies under the home; any other file is first
//    copied to `<home>/sessions/` (never modified). Before appending, a torn last line (no LF,
//    not JSON) is cut off and a complete last line without LF gets its LF, so the lines the
//    session appends never merge with an old one (a resume skips a torn *last* line only).
//  - What a resume continues with comes from the last turn_context line (docs/replay.md, "What
//    a rollout records"): model, provider, base URL, explicit provider features, reasoning
//    effort and summary. Permissions (sandbox, approval, trust, --writable) are never taken from
//    a rollout: each invocation grants its own. A value this host cannot use is a HostInputError.
import { appendFileSync, existsSync, readFileSync, realpathSync, truncateSync, writeFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { GUEST_HOME, GUEST_WORKSPACE, HostInputError } from './config.js';
import { CLI_ENUM_FLAGS } from './generated/cli_enums.js';
import { makeDirectory } from './home_dir.js';

export function sessionsDir(home: string): string {
  return join(home, 'sessions');
}

/** The host path of a new rollout for `sessionId` started at `nowMs`. */
export function newRolloutPath(home: string, sessionId: string, nowMs: number): string {
  const stamp = new Date(nowMs).toISOString().slice(0, 19).replace(/:/g, '-');
  const safeId = sessionId.replace(/[^A-Za-z0-9_.-]/g, '_');
  return join(sessionsDir(home), `rollout-${stamp}-${safeId}.jsonl`);
}

/** The guest path of a host path under `home` (undefined when it is not under it). */
export function guestPathInHome(home: string, hostPath: string): string | undefined {
  const rel = relative(realpathSync(home), hostPath);
  if (rel === '' || rel === '..' || rel.startsWith('..' + sep) || rel.startsWith(sep)) return undefined;
  return `${GUEST_HOME}/${rel.split(sep).join('/')}`;
}

/**
 * The longest rollout line the engine parses (core/src/rollout/rollout_reader.h
 * kMaxRolloutLineBytes, 64 MiB); the host never decodes a longer line either (issue 17: a
 * 200 MB line made `resume` run out of memory in JSON.parse).
 */
export const MAX_ROLLOUT_LINE_BYTES = 64 * 1024 * 1024;

/** The settings a resume continues with, as the last turn_context recorded them. */
export interface RecordedSettings {
  model?: string;
  /** responses | chat | anthropic; absent in the line: responses (older rollouts too). */
  provider?: string;
  /** The host's base URL, when the session had one (never with a credential in it). */
  baseUrl?: string;
  /** The explicit provider features. */
  features?: Record<string, boolean>;
  effort?: string;
  /** Absent when "none" (what the line says when unset). */
  summary?: string;
}

/** What the host needs from a rollout before resuming it. */
export interface RolloutFacts {
  sessionId: string;
  /** The last cwd the session used (turn_context, else session_meta), when inside /workspace. */
  cwd?: string;
  /** What the last turn_context recorded (absent: the rollout has no turn yet). */
  recorded?: RecordedSettings;
}

/** The resume settings of one turn_context payload; `file` names the rollout in errors. */
export function recordedSettings(payload: Record<string, unknown>, file: string): RecordedSettings {
  const out: RecordedSettings = {};
  const text = (key: string): string | undefined => {
    const v = payload[key];
    return typeof v === 'string' && v !== '' ? v : undefined;
  };
  const bad = (what: string): HostInputError =>
    new HostInputError(`${file}: the rollout records ${what}, which resume cannot continue with`);
  const model = text('model');
  if (model !== undefined) out.model = model;
  const provider = text('provider');
  if (provider !== undefined) {
    if (!(CLI_ENUM_FLAGS.provider as readonly string[]).includes(provider)) throw bad(`the provider ${JSON.stringify(provider)}`);
    out.provider = provider;
  }
  const baseUrl = text('base_url');
  if (baseUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(baseUrl);
    } catch {
      url = undefined;
    }
    if (url === undefined || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') {
      throw bad(`the base URL ${JSON.stringify(baseUrl)} (expected http or https, no credentials)`);
    }
    out.baseUrl = baseUrl;
  }
  const features = payload['provider_features'];
  if (typeof features === 'object' && features !== null && !Array.isArray(features)) {
    const known: readonly string[] = CLI_ENUM_FLAGS.feature;
    const entries = Object.entries(features as Record<string, unknown>);
    for (const [name, on] of entries) {
      if (!known.includes(name) || typeof on !== 'boolean') throw bad(`the provider feature ${JSON.stringify(name)}=${JSON.stringify(on)}`);
    }
    if (entries.length > 0) out.features = Object.fromEntries(entries) as Record<string, boolean>;
  }
  const effort = text('effort');
  if (effort !== undefined) out.effort = effort;
  const summary = text('summary');
  if (summary !== undefined && summary !== 'none') out.summary = summary;
  return out;
}

/** Each line of `bytes` (without its LF) as [start, end) offsets. */
function* lineBounds(bytes: Buffer): Generator<[number, number]> {
  let start = 0;
  while (start < bytes.length) {
    const lf = bytes.indexOf(10, start);
    const end = lf === -1 ? bytes.length : lf;
    yield [start, end];
    start = end + 1;
  }
}

/**
 * 3 when `bytes` starts with a UTF-8 BOM, else 0. The engine drops a BOM before the first line
 * (core/src/rollout/rollout_reader.h); the host reads the file by the same rule, so `resume`
 * and `replay` accept the same files.
 */
function bomLength(bytes: Buffer): number {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

export function rolloutFacts(bytes: Buffer, file: string): RolloutFacts {
  let sessionId: string | undefined;
  let cwd: string | undefined;
  let lastTurnContext: Record<string, unknown> | undefined;
  const bom = bomLength(bytes);
  for (const [lineStart, end] of lineBounds(bytes)) {
    const start = lineStart === 0 ? bom : lineStart;
    if (end - start > MAX_ROLLOUT_LINE_BYTES) continue; // the engine skips it with a warning
    const line = bytes.toString('utf8', start, end);
    if (line.trim() === '') continue;
    let v: { type?: string; payload?: { id?: unknown; cwd?: unknown } & Record<string, unknown> };
    try {
      v = JSON.parse(line) as typeof v;
    } catch {
      continue; // the engine reports corrupt lines precisely
    }
    if (v.type === 'session_meta' && sessionId === undefined && typeof v.payload?.id === 'string') {
      sessionId = v.payload.id;
      if (typeof v.payload.cwd === 'string') cwd = v.payload.cwd;
    } else if (v.type === 'turn_context' && typeof v.payload === 'object' && v.payload !== null) {
      if (typeof v.payload.cwd === 'string') cwd = v.payload.cwd;
      lastTurnContext = v.payload;
    }
  }
  if (sessionId === undefined) throw new HostInputError(`${file}: not an agentctx rollout (no session_meta line with an id)`);
  const facts: RolloutFacts = { sessionId };
  if (cwd !== undefined && (cwd === GUEST_WORKSPACE || cwd.startsWith(GUEST_WORKSPACE + '/'))) facts.cwd = cwd;
  if (lastTurnContext !== undefined) facts.recorded = recordedSettings(lastTurnContext, file);
  return facts;
}

/** How the bytes must change so appended lines start on a line of their own. */
function repairTail(bytes: Buffer): { keep: number; addNewline: boolean } {
  if (bytes.length === 0) return { keep: 0, addNewline: false };
  const complete = bytes[bytes.length - 1] === 10;
  const bodyEnd = complete ? bytes.length - 1 : bytes.length;
  const cut = bodyEnd === 0 ? 0 : bytes.lastIndexOf(10, bodyEnd - 1) + 1;
  // A last line over the limit is skipped by the engine with a warning, not dropped: keep it.
  let parses = bodyEnd - cut > MAX_ROLLOUT_LINE_BYTES;
  if (!parses) {
    try {
      JSON.parse(bytes.toString('utf8', cut === 0 ? bomLength(bytes) : cut, bodyEnd));
      parses = true;
    } catch {
      parses = false;
    }
  }
  if (parses) return { keep: bytes.length, addNewline: !complete };
  // A bad last line — torn (no LF) or garbage that ends in an LF — is dropped from the file
  // before anything is appended after it: the engine warns about it on this resume, and the
  // next resume must not find it in the middle of the file (that would be rollout_corrupt).
  return { keep: cut, addNewline: false };
}

/** Writes `bytes` (the rollout as read) to a new file `to`; false when `to` exists. */
function copiedTo(bytes: Buffer, to: string): boolean {
  try {
    writeFileSync(to, bytes, { flag: 'wx' });
    return true;
  } catch (e) {
    if ((e as { code?: unknown }).code === 'EEXIST') return false;
    throw new HostInputError(`${to}: cannot copy the rollout there (${String((e as { code?: unknown }).code ?? e)})`);
  }
}

/**
 * Prepares `file` for appending: returns the host path the session continues in (the file
 * itself under `home`, else a copy in `<home>/sessions/`) and the bytes to resume from.
 */
export function prepareResume(home: string, file: string, homeLabel = `--home ${home}`): { hostPath: string; guestPath: string; bytes: Buffer; copied: boolean } {
  let bytes: Buffer;
  let real: string;
  try {
    real = realpathSync(file);
    bytes = readFileSync(real);
  } catch {
    throw new HostInputError(`${file}: cannot read the rollout`);
  }
  let hostPath = real;
  let guestPath = guestPathInHome(home, real);
  let copied = false;
  if (guestPath === undefined) {
    makeDirectory(sessionsDir(home), homeLabel);
    // The copy (of the bytes read) gets a name no other file has ('wx'): two resumes of one file
    // started together each continue their own copy, never one file from two starting points.
    const base = basename(real).replace(/\.jsonl$/, '');
    let candidate = join(sessionsDir(home), `${base}.jsonl`);
    for (let n = 2; !copiedTo(bytes, candidate); n++) candidate = join(sessionsDir(home), `${base}-${n}.jsonl`);
    hostPath = candidate;
    guestPath = guestPathInHome(home, candidate) as string;
    copied = true;
  }
  const { keep, addNewline } = repairTail(bytes);
  if (keep < bytes.length) truncateSync(hostPath, keep);
  if (addNewline) appendFileSync(hostPath, '\n');
  return { hostPath, guestPath, bytes, copied };
}

/** The whole rollout file; unreadable is a usage error naming it. */
export function readRolloutBytes(file: string): Buffer {
  try {
    return readFileSync(file);
  } catch {
    throw new HostInputError(`${file}: cannot read the rollout`);
  }
}

/** The real path of `file` when it lies under the home (resume continues it in place). */
export function rolloutInHome(home: string, file: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(file);
  } catch {
    throw new HostInputError(`${file}: cannot read the rollout`);
  }
  if (!existsSync(home)) return undefined;
  return guestPathInHome(home, real) === undefined ? undefined : real;
}

// SPDX-License-Identifier: MIT
// Scripted sessions (`agentctx run --script FILE.jsonl`): one JSON object per line,
// each with exactly one key:
//   {"submit":"text"}                      a turn (runs until turn_complete)
//   {"update":{…delta…}}                   a config delta; a relative `cwd` is resolved
//                                          in the workspace ({"cwd":"src"} -> /workspace/src)
//   {"write":{"path":"rel","content":"…"}} the host writes a workspace file (parents created)
//   {"remove":"rel/path"}                  the host removes a workspace file or directory
//   {"tick_ms":N}                          advances the session clock by N ms and calls tick
//   {"compact":true}                       a manual compaction turn
// Blank lines are skipped. Invariants: the whole file is validated before the first step runs
// (`FILE:LINE: …` errors); host edits stay inside the workspace (config.ts
// hostPathInWorkspace: `..`, absolute paths and symlinks out are refused); the clock is virtual
// (it starts at the wall clock and moves only with tick_ms), so a script's requests and mock
// answers depend only on the script.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { HostInputError, guestCwd, hostPathInWorkspace, isObject, workspaceSegments } from './config.js';
import type { JsonObject } from './config.js';

export type ScriptStep =
  | { line: number; kind: 'submit'; text: string }
  | { line: number; kind: 'update'; delta: JsonObject }
  | { line: number; kind: 'write'; path: string; content: string }
  | { line: number; kind: 'remove'; path: string }
  | { line: number; kind: 'tick'; ms: number }
  | { line: number; kind: 'compact' };

/** Parses and validates a script; errors name `file:line`. */
export function parseScript(text: string, file: string): ScriptStep[] {
  const steps: ScriptStep[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((raw, i) => {
    const line = i + 1;
    if (raw.trim() === '') return;
    const bad = (why: string): never => {
      throw new HostInputError(`${file}:${line}: ${why}`);
    };
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      bad(`invalid JSON (${e instanceof Error ? e.message : String(e)})`);
    }
    if (!isObject(value)) bad('each line must be a JSON object');
    const keys = Object.keys(value as JsonObject);
    if (keys.length !== 1) bad(`each line needs exactly one of submit, update, write, remove, tick_ms, compact (got ${keys.length} keys)`);
    const key = keys[0] as string;
    const arg = (value as JsonObject)[key];
    switch (key) {
      case 'submit':
        if (typeof arg !== 'string') bad('submit needs a string');
        steps.push({ line, kind: 'submit', text: arg as string });
        break;
      case 'update':
        if (!isObject(arg)) bad('update needs a config delta object');
        steps.push({ line, kind: 'update', delta: arg as JsonObject });
        break;
      case 'write': {
        if (!isObject(arg) || typeof arg['path'] !== 'string' || typeof arg['content'] !== 'string' || Object.keys(arg).length !== 2) {
          bad('write needs {"path": string, "content": string}');
        }
        const w = arg as { path: string; content: string };
        checkRelative(w.path, bad);
        steps.push({ line, kind: 'write', path: w.path, content: w.content });
        break;
      }
      case 'remove':
        if (typeof arg !== 'string') bad('remove needs a path string');
        checkRelative(arg as string, bad);
        steps.push({ line, kind: 'remove', path: arg as string });
        break;
      case 'tick_ms':
        if (typeof arg !== 'number' || !Number.isSafeInteger(arg) || arg < 0) bad('tick_ms needs a non-negative integer');
        steps.push({ line, kind: 'tick', ms: arg as number });
        break;
      case 'compact':
        if (arg !== true) bad('compact needs true');
        steps.push({ line, kind: 'compact' });
        break;
      default:
        bad(`unknown step "${key}" (expected submit, update, write, remove, tick_ms or compact)`);
    }
  });
  return steps;
}

function checkRelative(path: string, bad: (why: string) => never): void {
  if (path === '' || path.startsWith('/')) bad(`${JSON.stringify(path)} must be a relative path in the workspace`);
  const segments = workspaceSegments(path);
  if (segments === undefined || segments.length === 0) bad(`${JSON.stringify(path)} leaves the workspace`);
}

/** Resolves a relative `cwd` in an update delta to its guest path (checked on the host). */
export function resolveDeltaCwd(workspace: string, delta: JsonObject, what: string): JsonObject {
  const cwd = delta['cwd'];
  if (cwd === undefined || cwd === null) return delta;
  if (typeof cwd !== 'string') throw new HostInputError(`${what}: cwd must be a string`);
  return { ...delta, cwd: guestCwd(workspace, cwd, `${what}: cwd`) };
}

/** `write`: creates parents and the file, inside the workspace only. */
export function writeWorkspaceFile(workspace: string, path: string, content: string, what: string): void {
  const host = hostPathInWorkspace(workspace, path, what);
  // Parents may not exist yet; each one that does must also stay inside (checked above, as
  // resolveHostPath follows every existing link on the way).
  mkdirSync(dirname(host), { recursive: true });
  writeFileSync(host, content);
}

/** `remove`: a file (or a symlink itself) or a whole directory, inside the workspace only. */
export function removeWorkspacePath(workspace: string, path: string, what: string): void {
  const host = hostPathInWorkspace(workspace, path, what, /*followLast=*/ false);
  try {
    rmSync(host, { recursive: true });
  } catch (e) {
    const code = (e as { code?: string }).code;
    throw new HostInputError(`${what} ${path}: ${code === 'ENOENT' ? 'no such file or directory' : `cannot remove (${code ?? 'error'})`}`);
  }
}

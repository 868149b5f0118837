// SPDX-License-Identifier: MIT
// The note an untrusted workspace gets when it has project AGENTS.md files the engine will not
// read: "found 2 AGENTS.md files, not read: the workspace is untrusted — pass --trust". Said once
// per process (run, the REPL, resume, inspect --format agents), on stderr (with --json: a host
// record on stdout, where JSON mode puts its diagnostics).
// The count follows the engine's discovery for the primary environment: the directories from
// the project root (the nearest ancestor of the cwd, inside the workspace, holding a root marker —
// `agents_md.root_markers`, default .git — else the cwd alone) down to the cwd, one file per
// directory (AGENTS.override.md before AGENTS.md, then any `fallback_filenames`), plus each
// directory's AGENTS.local.md; whitespace-only files do not count (the engine drops them).
// The host reads the workspace directly here (it owns it); nothing is sent to the engine.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { GUEST_WORKSPACE, isObject } from './config.js';
import type { JsonObject } from './config.js';
import type { EffectOutput } from './driver.js';

let said = false;

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

function nonBlank(path: string): boolean {
  try {
    return readFileSync(path, 'utf8').trim() !== '';
  } catch {
    return false;
  }
}

const strings = (v: unknown): string[] | undefined =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : undefined;

/** The project AGENTS files a trusted session would read (host paths, root first). */
export function projectAgentsFiles(workspace: string, config: JsonObject): string[] {
  const envs = config['environments'];
  const env = Array.isArray(envs) && isObject(envs[0]) ? envs[0] : {};
  const cwd = typeof env['cwd'] === 'string' ? env['cwd'] : GUEST_WORKSPACE;
  if (cwd !== GUEST_WORKSPACE && !cwd.startsWith(`${GUEST_WORKSPACE}/`)) return [];
  const agents = isObject(config['agents_md']) ? config['agents_md'] : {};
  const markers = strings(agents['root_markers']) ?? ['.git'];
  const names = ['AGENTS.override.md', 'AGENTS.md', ...(strings(agents['fallback_filenames']) ?? [])];
  // Guest directories from the workspace root down to the cwd.
  const parts = cwd.slice(GUEST_WORKSPACE.length).split('/').filter(Boolean);
  const chain = parts.map((_, i) => parts.slice(0, i + 1)).reverse().concat([[]]); // cwd first
  const host = (segments: string[]): string => join(workspace, ...segments);
  const rootAt = chain.findIndex((segments) => markers.some((m) => exists(join(host(segments), m))));
  const dirs = (rootAt < 0 ? chain.slice(0, 1) : chain.slice(0, rootAt + 1)).reverse().map(host);
  const files: string[] = [];
  for (const dir of dirs) {
    const chosen = names.map((n) => join(dir, n)).find(isFile);
    if (chosen !== undefined && nonBlank(chosen)) files.push(chosen);
    const local = join(dir, 'AGENTS.local.md');
    if (isFile(local) && nonBlank(local)) files.push(local);
  }
  return files;
}

/** The note for an untrusted session with project AGENTS files, else undefined. */
export function untrustedAgentsNote(workspace: string, config: JsonObject): string | undefined {
  if (config['trust'] !== 'untrusted') return undefined;
  const n = projectAgentsFiles(workspace, config).length;
  if (n === 0) return undefined;
  return `found ${n} AGENTS.md file${n === 1 ? '' : 's'}, not read: the workspace is untrusted — pass --trust`;
}

/**
 * Says the note once per process: as `agentctx: note: …` on stderr, or — with `json`, the
 * session's --json output, whose diagnostics are host records on stdout — as a host record
 * {"type":"note","code":"agents_md_not_read","message"}.
 */
export function noteUntrustedAgents(workspace: string, config: JsonObject, json?: EffectOutput): void {
  if (said) return;
  const note = untrustedAgentsNote(workspace, config);
  if (note === undefined) return;
  said = true;
  if (json !== undefined) json.host({ type: 'note', code: 'agents_md_not_read', message: note });
  else process.stderr.write(`agentctx: note: ${note}\n`);
}

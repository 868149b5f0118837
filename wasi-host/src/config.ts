// SPDX-License-Identifier: MIT
// Engine config for the CLI (docs/config.md) and the workspace path rules shared by every command.
// Invariants:
//  - The guest sees the workspace at /workspace and the home at /state (guest.ts); every cwd
//    handed to the engine is /workspace or below it, normalised, and exists on the host.
//  - Precedence: CLI flags > the --config file > the CLI defaults. Merging is RFC 7386-like
//    (objects merge key by key, anything else replaces).
//  - Host paths a user names (script `write`/`remove`, --cwd) are resolved on the host the way
//    the OS will (sandbox.ts resolveHostPath, symlinks followed) and must stay inside the
//    workspace's real path; anything else is a HostInputError, before any file is touched.
//  - The API key is read from its environment variable once (apiKeyFromEnv) and trimmed there
//    (a CR from a CRLF file is not part of it); no message ever quotes it.
import { randomUUID } from 'node:crypto';
import { readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, relative, sep } from 'node:path';
import { resolveHostPath } from './host_paths.js';
import { CLI_ENUM_FLAGS } from './generated/cli_enums.js';

/** Guest mount points (guest.ts preopens). */
export const GUEST_WORKSPACE = '/workspace';
export const GUEST_HOME = '/state';
/** The model slug of the embedded mock model (no network). */
export const MOCK_SLUG = 'mock';

/** Bad user input (a flag, a file, a script line): one line on stderr, exit 2. */
export class HostInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'HostInputError';
  }
}

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** RFC 7386 merge of `patch` over `base` (null deletes); returns a new value. */
export function mergePatch(base: Json | undefined, patch: Json): Json {
  if (!isObject(patch)) return patch;
  const out: JsonObject = isObject(base) ? { ...base } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

/** Reads a --config file: a JSON object. */
export function readConfigFile(path: string): JsonObject {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw new HostInputError(`--config ${path}: cannot read the file`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    throw new HostInputError(`--config ${path}: invalid JSON (${e instanceof Error ? e.message : String(e)})`);
  }
  if (!isObject(parsed)) throw new HostInputError(`--config ${path}: must be a JSON object`);
  const depth = nestingDepth(parsed);
  if (depth > MAX_CONFIG_DEPTH) {
    throw new HostInputError(`--config ${path}: nests ${depth > 10 * MAX_CONFIG_DEPTH ? 'far ' : ''}deeper than ${MAX_CONFIG_DEPTH} levels (a session config needs at most a few)`);
  }
  return parsed;
}

/** Deepest nesting a --config file may have (the real config nests 4 levels). */
export const MAX_CONFIG_DEPTH = 64;

/** The nesting depth of a JSON value, counted without recursion (so any input is safe). */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [v, d] = stack.pop() as [unknown, number];
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d);
    if (deepest > MAX_CONFIG_DEPTH) return deepest;
    for (const child of Object.values(v as Record<string, unknown>)) stack.push([child, d + 1]);
  }
  return deepest;
}

/**
 * Normalises a workspace-relative path ("src/./a", "/workspace/src", "") to its segments;
 * undefined when it leaves the workspace (`..` above the root, another absolute path).
 */
export function workspaceSegments(path: string): string[] | undefined {
  let rest = path;
  if (rest.startsWith('/')) {
    if (rest !== GUEST_WORKSPACE && !rest.startsWith(GUEST_WORKSPACE + '/')) return undefined;
    rest = rest.slice(GUEST_WORKSPACE.length);
  }
  if (rest.includes('\0')) return undefined;
  const out: string[] = [];
  for (const part of rest.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (out.length === 0) return undefined;
      out.pop();
    } else {
      out.push(part);
    }
  }
  return out;
}

/** Where a workspace-relative path lands on the host, following symlinks; checked. */
export function hostPathInWorkspace(workspace: string, path: string, what: string, followLast = true): string {
  const segments = workspaceSegments(path);
  if (segments === undefined) throw new HostInputError(`${what} ${path}: outside the workspace`);
  const root = realpathSync(workspace);
  const host = resolveHostPath(root, segments.join('/'), followLast);
  if (host === undefined) throw new HostInputError(`${what} ${path}: too many symbolic links`);
  const rel = relative(root, host);
  if (rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) {
    throw new HostInputError(`${what} ${path}: leads outside the workspace (symbolic link)`);
  }
  return host;
}

/**
 * The guest cwd for a --cwd value or a script `cwd`: relative paths are taken from the
 * workspace root, `/workspace/...` as is, and a host path inside the workspace is mapped.
 * The directory must exist (symlinks inside the workspace are fine; the path stays logical).
 */
export function guestCwd(workspace: string, path: string | undefined, what: string): string {
  if (path === undefined || path === '') return GUEST_WORKSPACE;
  let candidate = path;
  if (isAbsolute(path) && path !== GUEST_WORKSPACE && !path.startsWith(GUEST_WORKSPACE + '/')) {
    const rel = relative(workspace, path);
    if (rel === '..' || rel.startsWith('..' + sep) || isAbsolute(rel)) {
      throw new HostInputError(`${what} ${path}: outside the workspace`);
    }
    candidate = rel.split(sep).join('/');
  }
  const segments = workspaceSegments(candidate);
  if (segments === undefined) throw new HostInputError(`${what} ${path}: outside the workspace`);
  const host = hostPathInWorkspace(workspace, segments.join('/'), what);
  let isDir = false;
  try {
    isDir = statSync(host).isDirectory();
  } catch {
    throw new HostInputError(`${what} ${path}: no such directory in the workspace`);
  }
  if (!isDir) throw new HostInputError(`${what} ${path}: not a directory`);
  return segments.length === 0 ? GUEST_WORKSPACE : `${GUEST_WORKSPACE}/${segments.join('/')}`;
}

/**
 * The API key in environment variable `name`, trimmed; undefined when unset or only whitespace.
 * A key with a control or non-ASCII character left inside cannot go into an HTTP header: that
 * is a HostInputError naming the variable and the position, never the key.
 */
export function apiKeyFromEnv(name: string, env: Readonly<Record<string, string | undefined>> = process.env): string | undefined {
  const key = env[name]?.trim();
  if (key === undefined || key === '') return undefined;
  const bad = key.search(/[^\x20-\x7e]/);
  if (bad >= 0) {
    throw new HostInputError(`${name}: the API key has a control or non-ASCII character at position ${bad + 1}; it must be one line of printable ASCII`);
  }
  return key;
}

/** Flags that become engine config keys (undefined = not given). */
export interface ConfigFlags {
  sessionId?: string;
  model?: string;
  cwd?: string;
  sandbox?: string;
  approval?: string;
  trust?: boolean;
  agentsRefresh?: string;
  /** `provider`: responses | chat | anthropic. */
  provider?: string;
  /** --base-url: the engine's `base_url` (features are automatic only at the official one). */
  baseUrl?: string;
  /** --feature NAME=on|off: `provider_features` entries. */
  features?: Record<string, boolean>;
  writable: boolean;
  /** Whether the home is mounted (its AGENTS.md files are readable). */
  home: boolean;
}

/**
 * The session config: defaults, then the --config file (less its host-only `mcp_servers`), then the flags.
 * Defaults: a fresh session id, model `mock`, one environment `workspace` at the cwd on the
 * `workspace` FileSystem, sandbox read-only (workspace-write with --writable), trust
 * `untrusted` (project AGENTS.md files are read only with --trust), agents_md.home_dir /state.
 */
export function buildConfig(file: JsonObject, flags: ConfigFlags): JsonObject {
  const defaults: JsonObject = {
    session_id: randomUUID(),
    model: { slug: MOCK_SLUG },
    sandbox: { mode: flags.writable ? 'workspace-write' : 'read-only' },
    trust: 'untrusted',
  };
  if (flags.home) defaults['agents_md'] = { home_dir: GUEST_HOME };
  // `mcp_servers` is the host's (mcp_config.ts starts them); the engine never sees it.
  const { mcp_servers: _hostOnly, ...engineKeys } = file;
  let config = mergePatch(defaults, engineKeys) as JsonObject;
  const over: JsonObject = {};
  if (flags.sessionId !== undefined) over['session_id'] = flags.sessionId;
  if (flags.model !== undefined) over['model'] = { slug: flags.model };
  if (flags.sandbox !== undefined) over['sandbox'] = { mode: flags.sandbox };
  if (flags.approval !== undefined) over['approval_policy'] = flags.approval;
  if (flags.trust !== undefined) over['trust'] = flags.trust ? 'trusted' : 'untrusted';
  if (flags.agentsRefresh !== undefined) over['agents_md'] = { refresh: flags.agentsRefresh };
  if (flags.provider !== undefined) over['provider'] = flags.provider;
  if (flags.baseUrl !== undefined) over['base_url'] = flags.baseUrl;
  if (flags.features !== undefined && Object.keys(flags.features).length > 0) {
    over['provider_features'] = flags.features;
  }
  config = mergePatch(config, over) as JsonObject;
  const cwd = flags.cwd ?? GUEST_WORKSPACE;
  const envs = config['environments'];
  if (Array.isArray(envs) && envs.length > 0 && isObject(envs[0])) {
    if (flags.cwd !== undefined) envs[0] = { ...envs[0], cwd };
  } else {
    config['environments'] = [{ id: 'workspace', cwd, fs: 'workspace' }];
  }
  return config;
}

/**
 * `--feature NAME=on|off` values as `provider_features` entries; a later one wins. A name that is
 * not a provider feature, or a value other than on/off, is a usage error naming the choices.
 */
export function parseFeatures(values: readonly string[]): Record<string, boolean> {
  const names: readonly string[] = CLI_ENUM_FLAGS.feature;
  const out: Record<string, boolean> = {};
  for (const value of values) {
    const eq = value.indexOf('=');
    const name = eq < 0 ? value : value.slice(0, eq);
    const state = eq < 0 ? '' : value.slice(eq + 1);
    if (!names.includes(name)) {
      throw new HostInputError(`--feature ${value}: ${name || 'NAME'} is not a provider feature (${names.join(', ')})`);
    }
    if (state !== 'on' && state !== 'off') {
      throw new HostInputError(`--feature ${value}: expected ${name}=on or ${name}=off`);
    }
    out[name] = state === 'on';
  }
  return out;
}

/** The model slug of a config (for choosing the backend). */
export function modelSlug(config: JsonObject): string {
  const model = config['model'];
  return isObject(model) && typeof model['slug'] === 'string' ? model['slug'] : '';
}

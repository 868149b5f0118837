// SPDX-License-Identifier: MIT
// The CLI's MCP server settings (docs/mcp.md): `mcp_servers` in the --config file and the
// repeatable `--mcp NAME=COMMAND…` / `--mcp NAME=URL` flag, checked and merged.
// Invariants:
//  - Every entry is checked whole before any server starts; a bad one is a HostInputError that
//    names the key (`mcp_servers.NAME.args`), so nothing is started on bad input.
//  - Each server has exactly one of `command` (started here, stdio) and `url` (streamable HTTP,
//    http or https). A relative `cwd` is taken from the --config file's directory.
//  - A `url` server may have `headers` and `bearer_token_env_var` (the token itself is read from
//    the environment when connecting); errors name the header, never its value. Those values,
//    and the secret-named `env` values of a command server, are redacted from everything the
//    server sends by the package's connectMcp (docs/mcp.md, "Secrets"): the session never
//    holds them.
//  - `--mcp NAME=…` replaces a --config entry of the same NAME; flags are otherwise additive.
//  - `mcp_servers` is a host key: it never reaches the engine config (config.ts buildConfig).
import { dirname, resolve } from 'node:path';
import { mcpHeadersProblem } from 'agentctx';
import { HostInputError, isObject } from './config.js';
import type { JsonObject } from './config.js';

/** One checked server entry. */
export interface McpServerEntry {
  name: string;
  command?: string;
  args: string[];
  env: Record<string, string>;
  cwd?: string;
  url?: string;
  /** HTTP headers for a `url` server (values are secrets: never printed). */
  headers?: Record<string, string>;
  /** The environment variable whose value goes as `Authorization: Bearer …` (url servers). */
  bearerTokenEnvVar?: string;
  enabledTools?: string[];
  disabledTools: string[];
  /** Tools that run without asking (their calls still leave the sandbox). */
  approvedTools: string[];
  startupTimeoutMs: number;
  toolTimeoutMs: number;
}

export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;
export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
const MAX_TIMEOUT_MS = 86_400_000;

const KEYS = new Set([
  'command', 'args', 'env', 'cwd', 'url', 'headers', 'bearer_token_env_var', 'enabled_tools', 'disabled_tools',
  'approved_tools', 'startup_timeout_ms', 'tool_timeout_ms',
]);

function stringList(value: unknown, where: string): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new HostInputError(`${where}: expected an array of strings`);
  return value as string[];
}

function timeout(value: unknown, where: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1 || value > MAX_TIMEOUT_MS) {
    throw new HostInputError(`${where}: expected an integer number of milliseconds from 1 to ${MAX_TIMEOUT_MS}`);
  }
  return value;
}

function checkUrl(url: string, where: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new HostInputError(`${where}: ${url} is not a URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new HostInputError(`${where}: expected an http or https URL`);
  return url;
}

function checkName(name: string, where: string): string {
  if (name === '' || name.trim() !== name || /[\u0000-\u001f]/.test(name)) {
    throw new HostInputError(`${where}: a server name must be non-empty, without control characters or surrounding spaces`);
  }
  return name;
}

/** One `mcp_servers` entry; `base` is the directory relative cwds are taken from. */
export function parseServerEntry(name: string, value: unknown, where: string, base: string): McpServerEntry {
  checkName(name, where);
  if (!isObject(value)) throw new HostInputError(`${where}: expected an object with command or url`);
  for (const key of Object.keys(value)) {
    if (!KEYS.has(key)) throw new HostInputError(`${where}.${key}: unknown key (expected ${[...KEYS].join(', ')})`);
  }
  const v = value as JsonObject;
  const hasCommand = v['command'] !== undefined;
  if (hasCommand === (v['url'] !== undefined)) throw new HostInputError(`${where}: give exactly one of command and url`);
  const entry: McpServerEntry = {
    name, args: [], env: {}, disabledTools: [], approvedTools: [],
    startupTimeoutMs: timeout(v['startup_timeout_ms'], `${where}.startup_timeout_ms`, DEFAULT_STARTUP_TIMEOUT_MS),
    toolTimeoutMs: timeout(v['tool_timeout_ms'], `${where}.tool_timeout_ms`, DEFAULT_TOOL_TIMEOUT_MS),
  };
  if (hasCommand) {
    if (typeof v['command'] !== 'string' || v['command'] === '') throw new HostInputError(`${where}.command: expected a non-empty string`);
    entry.command = v['command'];
  } else {
    if (typeof v['url'] !== 'string') throw new HostInputError(`${where}.url: expected a string`);
    entry.url = checkUrl(v['url'], `${where}.url`);
    for (const key of ['args', 'env', 'cwd']) {
      if (v[key] !== undefined) throw new HostInputError(`${where}.${key}: only for a server started by command`);
    }
    const headers = v['headers'];
    if (headers !== undefined && (!isObject(headers) || Object.values(headers).some((x) => typeof x !== 'string'))) {
      throw new HostInputError(`${where}.headers: expected an object of strings`);
    }
    const variable = v['bearer_token_env_var'];
    if (variable !== undefined && typeof variable !== 'string') throw new HostInputError(`${where}.bearer_token_env_var: expected a string`);
    const checked = { ...(headers !== undefined ? { headers: headers as Record<string, string> } : {}), ...(variable !== undefined ? { bearer_token_env_var: variable } : {}) };
    const problem = mcpHeadersProblem(checked);
    if (problem !== undefined) throw new HostInputError(`${where}.${problem}`);
    if (checked.headers !== undefined) entry.headers = checked.headers;
    if (checked.bearer_token_env_var !== undefined) entry.bearerTokenEnvVar = checked.bearer_token_env_var;
  }
  if (hasCommand) {
    for (const key of ['headers', 'bearer_token_env_var']) {
      if (v[key] !== undefined) throw new HostInputError(`${where}.${key}: only for a server reached by url`);
    }
  }
  if (v['args'] !== undefined) entry.args = stringList(v['args'], `${where}.args`);
  if (v['env'] !== undefined) {
    const env = v['env'];
    if (!isObject(env) || Object.values(env).some((x) => typeof x !== 'string')) throw new HostInputError(`${where}.env: expected an object of strings`);
    entry.env = env as Record<string, string>;
  }
  if (v['cwd'] !== undefined) {
    if (typeof v['cwd'] !== 'string' || v['cwd'] === '') throw new HostInputError(`${where}.cwd: expected a non-empty string`);
    entry.cwd = resolve(base, v['cwd']);
  }
  if (v['enabled_tools'] !== undefined) entry.enabledTools = stringList(v['enabled_tools'], `${where}.enabled_tools`);
  if (v['disabled_tools'] !== undefined) entry.disabledTools = stringList(v['disabled_tools'], `${where}.disabled_tools`);
  if (v['approved_tools'] !== undefined) entry.approvedTools = stringList(v['approved_tools'], `${where}.approved_tools`);
  return entry;
}

/** The `mcp_servers` of a --config file (absent: none). */
export function serversFromConfig(file: JsonObject, configPath: string): McpServerEntry[] {
  const servers = file['mcp_servers'];
  if (servers === undefined || servers === null) return [];
  const where = `--config ${configPath}: mcp_servers`;
  if (!isObject(servers)) throw new HostInputError(`${where}: expected an object of servers by name`);
  return Object.entries(servers).map(([name, value]) => parseServerEntry(name, value, `${where}.${name}`, dirname(configPath)));
}

/** Splits a command line into words: spaces separate, quotes group, a backslash escapes. */
export function splitCommand(text: string, where: string): string[] {
  const words: string[] = [];
  let word = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quote === "'") {
      if (c === "'") quote = undefined;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = undefined;
      else if (c === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) word += text[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === '\\' && i + 1 < text.length) {
      word += text[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = '';
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote !== undefined) throw new HostInputError(`${where}: unterminated ${quote} quote`);
  if (inWord) words.push(word);
  return words;
}

/** One `--mcp NAME=COMMAND [ARGS…]` or `--mcp NAME=URL`. */
export function serverFromFlag(value: string): McpServerEntry {
  const eq = value.indexOf('=');
  const where = `--mcp ${value}`;
  if (eq <= 0) throw new HostInputError(`${where}: expected NAME=COMMAND [ARGS…] or NAME=URL`);
  const name = value.slice(0, eq);
  const rest = value.slice(eq + 1).trim();
  if (/^https?:\/\//i.test(rest)) return parseServerEntry(name, { url: rest }, where, process.cwd());
  const [command, ...args] = splitCommand(rest, where);
  if (command === undefined) throw new HostInputError(`${where}: no command after '='`);
  return parseServerEntry(name, { command, args }, where, process.cwd());
}

/** The servers of a session: the --config file's, each replaced by a --mcp flag of its name. */
export function mcpServers(file: JsonObject, configPath: string | undefined, flags: readonly string[]): McpServerEntry[] {
  const byName = new Map<string, McpServerEntry>();
  if (configPath !== undefined) for (const s of serversFromConfig(file, configPath)) byName.set(s.name, s);
  const fromFlags = new Set<string>();
  for (const flag of flags) {
    const s = serverFromFlag(flag);
    if (fromFlags.has(s.name)) throw new HostInputError(`--mcp ${flag}: server ${s.name} is given twice`);
    fromFlags.add(s.name);
    byName.set(s.name, s);
  }
  return [...byName.values()];
}

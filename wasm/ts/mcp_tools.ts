// SPDX-License-Identifier: MIT
// MCP tools as engine host tools, the pure part (docs/mcp.md): the naming rule, the schema
// normalisation and the mapping of a `tools/call` result to a tool output. No I/O, no MCP SDK:
// the shapes below are the protocol's, structurally, so any client's results fit.
// Invariants:
//  - Advertised names are `mcp__<server>__<tool>`, only [A-Za-z0-9_-] and at most 64 bytes (the
//    strictest provider limit, OpenAI's function names); the engine sanitises the same way and
//    cuts at 128, so the names handed to it come back unchanged. A name that had to be cut, or
//    that collides on its server, ends in `_` + 8 hex digits of a hash of the raw names: the
//    same raw names always give the same advertised name.
//  - The host tools are ordered by (server key, tool key), the engine's own order, whatever
//    order a server lists them in; schemas have their object keys sorted recursively, so a
//    listing that only reorders keys changes no byte.
//  - A result always becomes an output the model can read: text parts, images as input_image
//    parts, everything else as text; `isError` is said in the text.
import type { HostToolConfig, InputImagePart, InputTextPart, ToolOutput } from './protocol.js';

/** The longest advertised name (OpenAI function names: ^[a-zA-Z0-9_-]{1,64}$). */
export const MCP_TOOL_NAME_MAX = 64;
/** The longest server key inside a name (longer server names are cut and hashed). */
export const MCP_SERVER_KEY_MAX = 24;

/** A tool as `tools/list` returns it (the fields used here). */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema?: Record<string, unknown>;
  execution?: { taskSupport?: string };
  [key: string]: unknown;
}

/** One content block of a `tools/call` result. */
export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | { type: 'resource_link'; uri: string; name?: string; title?: string; description?: string; mimeType?: string }
  | { type: 'resource'; resource: { uri: string; mimeType?: string; text?: string; blob?: string } }
  | { type: string; [key: string]: unknown };

/** A `tools/call` result (the fields used here). */
export interface McpCallToolResult {
  content?: McpContent[];
  structuredContent?: unknown;
  isError?: boolean;
  /** Protocol 2024-10-07 servers answer `toolResult` instead of `content`. */
  toolResult?: unknown;
  [key: string]: unknown;
}

/** Each character outside [A-Za-z0-9_-] becomes `_` (per code point, as the engine does); "" -> "_". */
export function sanitizeToolName(name: string): string {
  let out = '';
  for (const ch of name) out += /^[A-Za-z0-9_-]$/.test(ch) ? ch : '_';
  return out === '' ? '_' : out;
}

/** 8 hex digits of FNV-1a (32 bit) over the UTF-8 bytes of `text`. */
export function hash8(text: string): string {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) {
    h ^= byte;
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/** The key of each server (the `<server>` of its names), by raw server name. */
export function serverKeys(servers: readonly string[]): Map<string, string> {
  const plain = (s: string): string => sanitizeToolName(s);
  const hashed = (s: string): string => `${plain(s).slice(0, MCP_SERVER_KEY_MAX - 9)}_${hash8(s)}`;
  return assignKeys(servers, plain, hashed, MCP_SERVER_KEY_MAX);
}

/** The key of each tool of one server (the `<tool>` of its names), by raw tool name. */
export function toolKeys(serverKey: string, server: string, tools: readonly string[]): Map<string, string> {
  const budget = MCP_TOOL_NAME_MAX - `mcp____`.length - serverKey.length;
  const plain = (t: string): string => sanitizeToolName(t);
  const hashed = (t: string): string => `${plain(t).slice(0, budget - 9)}_${hash8(`${server}\0${t}`)}`;
  return assignKeys(tools, plain, hashed, budget);
}

/**
 * Keys for raw names: a name that is already a valid key keeps it; one that had to change keeps
 * its sanitised form unless that is too long or another name of the set maps to it too, and
 * then gets the hashed form. The result depends only on the set, never on its order.
 */
function assignKeys(
  names: readonly string[], plain: (n: string) => string, hashed: (n: string) => string, max: number,
): Map<string, string> {
  const unique = [...new Set(names)].sort(compareCodeUnits);
  const claims = new Map<string, number>();
  for (const n of unique) claims.set(plain(n), (claims.get(plain(n)) ?? 0) + 1);
  const keys = new Map<string, string>();
  const taken = new Set<string>();
  // Exact names first: they always keep their own name.
  const exact = unique.filter((n) => plain(n) === n && n.length <= max);
  for (const n of exact) {
    keys.set(n, n);
    taken.add(n);
  }
  for (const n of unique) {
    if (keys.has(n)) continue;
    const p = plain(n);
    let key = p.length <= max && claims.get(p) === 1 && !taken.has(p) ? p : hashed(n);
    for (let i = 2; taken.has(key); i += 1) key = `${hashed(n).slice(0, max - String(i).length - 1)}_${i}`;
    keys.set(n, key);
    taken.add(key);
  }
  return keys;
}

/** The advertised name of one tool when it is alone on its server (no collision). */
export function mcpToolName(server: string, tool: string): string {
  const s = serverKeys([server]).get(server) as string;
  return `mcp__${s}__${toolKeys(s, server, [tool]).get(tool) as string}`;
}

/** UTF-16 code unit order (the order `<` gives), stable across runs and locales. */
export function compareCodeUnits(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** A JSON copy with every object's keys sorted (undefined values and functions dropped). */
export function sortedJson(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((v) => (v === undefined ? null : sortedJson(v)));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort(compareCodeUnits)) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined && typeof v !== 'function') out[key] = sortedJson(v);
    }
    return out;
  }
  return value;
}

/**
 * The `parameters` of a tool: its input schema with sorted keys, without the top-level
 * `$schema` (metadata some providers refuse), and always an object schema with `properties`.
 */
export function normalizeSchema(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const out = (sortedJson(schema ?? {}) ?? {}) as Record<string, unknown>;
  delete out['$schema'];
  if (out['type'] === undefined) out['type'] = 'object';
  if (out['type'] === 'object' && (out['properties'] === null || typeof out['properties'] !== 'object')) out['properties'] = {};
  return sortedJson(out) as Record<string, unknown>;
}

/** The host-tool config of one listed tool under its keys. */
export function hostToolFor(serverKey: string, toolKey: string, tool: McpTool): HostToolConfig {
  const description = typeof tool.description === 'string' ? tool.description
    : typeof tool.title === 'string' ? tool.title : '';
  return { server: serverKey, name: toolKey, description, parameters: normalizeSchema(tool.inputSchema) };
}

/** Byte-stable text of a host tool (for change detection). */
export function hostToolBytes(tool: HostToolConfig): string {
  return JSON.stringify(sortedJson(tool));
}

function base64Bytes(data: string): number {
  const clean = data.replace(/=+$/, '');
  return Math.floor((clean.length * 3) / 4);
}

/** One content block as output parts (text or an image). */
function partsOf(c: McpContent): (InputTextPart | InputImagePart)[] {
  const text = (t: string): InputTextPart[] => [{ type: 'input_text', text: t }];
  const r = c as Record<string, unknown>;
  switch (c.type) {
    case 'text':
      return text(String(r['text'] ?? ''));
    case 'image':
      return [{ type: 'input_image', image_url: `data:${String(r['mimeType'] ?? 'image/png')};base64,${String(r['data'] ?? '')}` }];
    case 'audio':
      return text(`[audio ${String(r['mimeType'] ?? '')}, ${base64Bytes(String(r['data'] ?? ''))} bytes, not shown]`);
    case 'resource_link': {
      const name = String(r['title'] ?? r['name'] ?? '');
      const mime = r['mimeType'] === undefined ? '' : ` (${String(r['mimeType'])})`;
      const description = r['description'] === undefined ? '' : `: ${String(r['description'])}`;
      return text(`[resource link${name === '' ? '' : ` ${name}`}] ${String(r['uri'] ?? '')}${mime}${description}`);
    }
    case 'resource': {
      const res = (r['resource'] ?? {}) as { uri?: string; mimeType?: string; text?: string; blob?: string };
      const mime = res.mimeType === undefined ? '' : ` (${res.mimeType})`;
      if (typeof res.text === 'string') return text(`[resource ${res.uri ?? ''}${mime}]\n${res.text}`);
      return text(`[resource ${res.uri ?? ''}${mime}, ${base64Bytes(res.blob ?? '')} bytes of binary data, not shown]`);
    }
    default:
      return text(JSON.stringify(sortedJson(c)));
  }
}

/**
 * A `tools/call` result as the tool output the engine records: one string when every part is
 * text (joined by newlines), else input_text / input_image parts. `structuredContent` is added
 * as JSON text when the content has no text block; `isError` puts a line naming the tool first.
 */
export function mcpResultToOutput(result: McpCallToolResult, who: { server: string; tool: string }): ToolOutput {
  const parts: (InputTextPart | InputImagePart)[] = [];
  const content = Array.isArray(result.content) ? result.content : [];
  for (const c of content) parts.push(...partsOf(c));
  // A server that returns structuredContent also puts it in a text block (the protocol's
  // backward-compatible form, often a file's text itself): it is added only when no text block
  // came, so a large result is never paid for twice.
  if (result.structuredContent !== undefined && !content.some((c) => c.type === 'text')) {
    parts.push({ type: 'input_text', text: JSON.stringify(sortedJson(result.structuredContent)) });
  }
  if (content.length === 0 && result.toolResult !== undefined) {
    parts.push({ type: 'input_text', text: typeof result.toolResult === 'string' ? result.toolResult : JSON.stringify(sortedJson(result.toolResult)) });
  }
  if (result.isError === true) {
    parts.unshift({ type: 'input_text', text: `error: MCP tool \`${who.tool}\` of server \`${who.server}\` failed:` });
  }
  if (parts.length === 0) return '(the tool returned no content)';
  if (parts.every((p) => p.type === 'input_text')) return parts.map((p) => (p as InputTextPart).text).join('\n');
  return parts;
}

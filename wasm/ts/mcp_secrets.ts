// SPDX-License-Identifier: MIT
// The secrets configured for an MCP server, kept out of everything that server sends
// (docs/mcp.md, "Secrets"). A server may echo what it was given — an Authorization header, an
// API key in its environment — in a tool result, an error, a tool's name, description or schema;
// all of that reaches the model, the rollout, the CLI's output and dumped requests, so it is
// redacted where it arrives, before anything stores, prints or sends it.
// Invariants:
//  - The secrets of a server: every HTTP header value, the bearer token, the password of its URL
//    and its URL's query values whose name marks a secret, and the `env` values whose variable
//    name marks a secret (isSecretName). Each is replaced by `***` as written and in every JSON
//    string spelling of it (secret_redaction.ts), wherever it occurs: in every string and every
//    object key of a listing or a result, and in every error message.
//  - In listings and results a value shorter than MIN_SECRET_LENGTH is not redacted: it cannot be
//    told from ordinary text (a tenant name, a flag) and blanking it would corrupt results.
//    Error messages are short and say what failed: there every configured value is redacted,
//    whatever its length.
//  - Browser-safe: no Node built-ins, no SDK import.
import type { McpClientLike, McpRequestOptions } from './mcp.js';
import type { McpCallToolResult, McpTool } from './mcp_tools.js';
import { secretsRedactor } from './secret_redaction.js';

/** Configured values shorter than this are not redacted from listings and results. */
export const MIN_SECRET_LENGTH = 8;

/** Words that make a name a secret's (GITHUB_TOKEN, DB_PASSWORD, X-Auth, sig). */
const SECRET_WORDS = new Set([
  'TOKEN', 'TOKENS', 'SECRET', 'SECRETS', 'PASSWORD', 'PASSWD', 'PASS', 'PASSPHRASE', 'KEY', 'KEYS', 'AUTH',
  'AUTHORIZATION', 'CREDENTIAL', 'CREDENTIALS', 'COOKIE', 'PRIVATE', 'SIGNATURE', 'SIG',
]);

/**
 * An environment variable or query parameter whose name says its value is a secret: one of its
 * words (split at non-alphanumerics and at lower-to-upper case changes) is in SECRET_WORDS, or
 * ends in TOKEN, KEY, SECRET or PASSWORD (APIKEY, accessToken). GIT_AUTHOR_NAME is not one.
 */
export function isSecretName(name: string): boolean {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1_$2').toUpperCase().split(/[^A-Z0-9]+/);
  return words.some((w) => SECRET_WORDS.has(w) || /.(TOKEN|KEY|SECRET|PASSWORD)$/.test(w));
}

/** The settings of a server that may carry secrets (connectMcp's McpServerConfig has them all). */
export interface McpSecretSettings {
  url?: string;
  headers?: Readonly<Record<string, string>>;
  env?: Readonly<Record<string, string>>;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Every configured value of `settings` that is a secret (unfiltered by length), in no order. */
export function mcpServerSecrets(settings: McpSecretSettings): string[] {
  const out: string[] = [...Object.values(settings.headers ?? {})];
  for (const [name, value] of Object.entries(settings.env ?? {})) if (isSecretName(name)) out.push(value);
  if (settings.url !== undefined) {
    try {
      const url = new URL(settings.url);
      if (url.password !== '') out.push(url.password, safeDecode(url.password));
      for (const [name, value] of url.searchParams) if (isSecretName(name)) out.push(value);
    } catch {
      // not a URL: connecting will say so
    }
  }
  return out.filter((s) => typeof s === 'string' && s.trim() !== '');
}

/** How one server's texts are redacted: `content` for listings and results, `message` for errors. */
export interface McpRedaction {
  content: (text: string) => string;
  message: (text: string) => string;
}

/** The redaction of `secrets` (see the invariants for the two kinds). */
export function mcpRedaction(secrets: Iterable<string>): McpRedaction {
  const all = [...secrets];
  return {
    content: secretsRedactor(all.filter((s) => s.trim().length >= MIN_SECRET_LENGTH)),
    message: secretsRedactor(all),
  };
}

/** A copy of `value` with `redact` applied to every string and every object key (JSON values). */
export function redactMcpValue<T>(value: T, redact: (text: string) => string): T {
  if (typeof value === 'string') return redact(value) as T;
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v: unknown) => redactMcpValue(v, redact)) as T;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[redact(k)] = redactMcpValue(v, redact);
  return out as T;
}

/** `error` as an Error whose message has the secrets replaced (the same object when none was in it). */
export function redactedError(error: unknown, redact: (text: string) => string): Error {
  const text = error instanceof Error ? error.message : String(error);
  const hidden = redact(text);
  return hidden === text && error instanceof Error ? error : new Error(hidden);
}

/** `client` with its listings, results and errors redacted: what the rest of the host sees of it. */
export function redactingMcpClient(client: McpClientLike, redaction: McpRedaction): McpClientLike {
  return {
    async listTools(params?: { cursor?: string }, options?: McpRequestOptions): Promise<{ tools: McpTool[]; nextCursor?: string }> {
      try {
        return redactMcpValue(await client.listTools(params, options), redaction.content);
      } catch (error) {
        throw redactedError(error, redaction.message);
      }
    },
    async callTool(
      params: { name: string; arguments?: Record<string, unknown> }, resultSchema?: undefined, options?: McpRequestOptions,
    ): Promise<McpCallToolResult | Record<string, unknown>> {
      try {
        return redactMcpValue(await client.callTool(params, resultSchema, options), redaction.content);
      } catch (error) {
        throw redactedError(error, redaction.message);
      }
    },
  };
}

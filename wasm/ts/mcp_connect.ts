// SPDX-License-Identifier: MIT
// connectMcp (Node only): one MCP server through the official TypeScript SDK
// (@modelcontextprotocol/sdk, an optional peer dependency loaded on first use), as a client the
// McpToolSet can use (docs/mcp.md). A server is a command started here (stdio) or a URL
// (streamable HTTP).
// Invariants:
//  - Nothing waits forever: connecting (the initialize handshake) is bounded by
//    startupTimeoutMs, and so is every tools/list; on a timeout the child is stopped and the
//    error names the server and the setting.
//  - A server that exits on its own is restarted once, in the background; a call made meanwhile
//    waits for the restart. After a second exit (or a failed restart) every request rejects with
//    an error naming the server. A call in flight when the server exits rejects (never retried:
//    it may have had effects).
//  - A child gets only the SDK's safe default environment (HOME, PATH, USER, …) plus `env`.
//  - An HTTP server gets `headers` and, with `bearer_token_env_var`, `Authorization: Bearer`
//    with that variable's value, read from the environment at each (re)connect, so the token
//    need not sit in a config file.
//  - The server's secrets (header values, the token, secret-named `env` values: mcp_secrets.ts)
//    never get past this client: every listing and result is redacted before it is returned,
//    every error message and stderr line before it is thrown or handed on.
//  - close() stops the child (SIGTERM, then SIGKILL) and is final.
import { readFileSync } from 'node:fs';
import type { McpClientLike, McpRequestOptions } from './mcp.js';
import { mcpRedaction, mcpServerSecrets, redactMcpValue, redactedError } from './mcp_secrets.js';
import type { McpRedaction } from './mcp_secrets.js';
import { MCP_MAX_STDIO_MESSAGE_BYTES, McpLineBuffer } from './mcp_stdio_buffer.js';
import type { McpCallToolResult, McpTool } from './mcp_tools.js';

/** One server, as the CLI's `mcp_servers` entries spell it (docs/mcp.md). */
export interface McpServerConfig {
  /** The program to start (stdio transport). */
  command?: string;
  args?: readonly string[];
  /** Added to the safe default environment. */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
  /** A streamable-HTTP endpoint instead of a command. */
  url?: string;
  /** HTTP only: headers sent with every request to `url` (an API key, a tenant id, …). */
  headers?: Readonly<Record<string, string>>;
  /**
   * HTTP only: the environment variable holding a bearer token, sent as `Authorization: Bearer
   * <token>`; read when connecting (and reconnecting), never stored.
   */
  bearer_token_env_var?: string;
  /** Connecting and each listing may take this long (default 10 000 ms). */
  startup_timeout_ms?: number;
}

export interface ConnectMcpOptions {
  /** The client's name and version in the initialize handshake (default agentctx and its version). */
  clientInfo?: { name: string; version: string };
  /** Each line the server writes to stderr (stdio only); the last lines also go into error messages. */
  onStderr?: (line: string) => void;
  /** Told when the server exited on its own: whether it is restarted, and why not. */
  onExit?: (info: { restarting: boolean; detail: string }) => void;
  /** Restarts after an unexpected exit (default 1). */
  restarts?: number;
}

/** A connected server: an MCP client that survives one crash. */
export interface McpConnection extends McpClientLike {
  readonly name: string;
  /** `ready`, `restarting`, `failed` (gone for good) or `closed`. */
  readonly state: 'ready' | 'restarting' | 'failed' | 'closed';
  /** The child's pid (stdio), while it runs. */
  readonly pid: number | undefined;
  /** `listener` runs on each `notifications/tools/list_changed` and after a restart. */
  onToolsChanged(listener: () => void): void;
  close(): Promise<void>;
}

export const DEFAULT_STARTUP_TIMEOUT_MS = 10_000;
const STDERR_TAIL_BYTES = 2000;

type Sdk = {
  Client: typeof import('@modelcontextprotocol/sdk/client/index.js').Client;
  StdioClientTransport: typeof import('@modelcontextprotocol/sdk/client/stdio.js').StdioClientTransport;
  getDefaultEnvironment: typeof import('@modelcontextprotocol/sdk/client/stdio.js').getDefaultEnvironment;
  StreamableHTTPClientTransport: typeof import('@modelcontextprotocol/sdk/client/streamableHttp.js').StreamableHTTPClientTransport;
  ToolListChangedNotificationSchema: typeof import('@modelcontextprotocol/sdk/types.js').ToolListChangedNotificationSchema;
  deserializeMessage: typeof import('@modelcontextprotocol/sdk/shared/stdio.js').deserializeMessage;
};
type SdkClient = InstanceType<Sdk['Client']>;
type SdkTransport = InstanceType<Sdk['StdioClientTransport']> | InstanceType<Sdk['StreamableHTTPClientTransport']>;

let sdkPromise: Promise<Sdk> | undefined;

/** The SDK modules (once); a clear error when the optional peer dependency is missing. */
function loadSdk(): Promise<Sdk> {
  sdkPromise ??= (async () => {
    try {
      const [client, stdio, http, types, shared] = await Promise.all([
        import('@modelcontextprotocol/sdk/client/index.js'),
        import('@modelcontextprotocol/sdk/client/stdio.js'),
        import('@modelcontextprotocol/sdk/client/streamableHttp.js'),
        import('@modelcontextprotocol/sdk/types.js'),
        import('@modelcontextprotocol/sdk/shared/stdio.js'),
      ]);
      return {
        Client: client.Client,
        StdioClientTransport: stdio.StdioClientTransport,
        getDefaultEnvironment: stdio.getDefaultEnvironment,
        StreamableHTTPClientTransport: http.StreamableHTTPClientTransport,
        ToolListChangedNotificationSchema: types.ToolListChangedNotificationSchema,
        deserializeMessage: shared.deserializeMessage,
      };
    } catch (error) {
      sdkPromise = undefined;
      throw new Error('MCP servers need the MCP TypeScript SDK: npm install @modelcontextprotocol/sdk@^1.32.2 ' +
        `(${error instanceof Error ? error.message : String(error)})`);
    }
  })();
  return sdkPromise;
}

function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    return typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/** Headers the transport sets itself; a server entry may not replace them. */
const PROTOCOL_HEADERS = new Set(['accept', 'content-type', 'content-length', 'host', 'mcp-session-id', 'mcp-protocol-version', 'last-event-id']);

/**
 * The problem with an HTTP server's `headers` / `bearer_token_env_var`, or undefined when they are
 * fine: names are HTTP tokens other than PROTOCOL_HEADERS, values have no control characters,
 * and `Authorization` comes from one place. Messages name keys, never values.
 */
export function mcpHeadersProblem(config: Pick<McpServerConfig, 'headers' | 'bearer_token_env_var'>): string | undefined {
  const names = new Set<string>();
  for (const [name, value] of Object.entries(config.headers ?? {})) {
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) return `headers: \`${name}\` is not a valid header name`;
    const lower = name.toLowerCase();
    if (PROTOCOL_HEADERS.has(lower)) return `headers: \`${name}\` is set by the MCP transport itself`;
    if (names.has(lower)) return `headers: \`${name}\` is given twice`;
    names.add(lower);
    if (typeof value !== 'string' || /[\u0000-\u0008\u000a-\u001f\u007f]/.test(value)) return `headers: the value of \`${name}\` must be a string without control characters`;
  }
  const variable = config.bearer_token_env_var;
  if (variable !== undefined) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(variable)) return 'bearer_token_env_var: expected an environment variable name';
    if (names.has('authorization')) return 'bearer_token_env_var: headers has an Authorization header too; give it in one place';
  }
  return undefined;
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Puts McpLineBuffer in place of the SDK transport's read buffer (the field `_readBuffer`, with
 * append / readMessage / clear): linear, and a message over MCP_MAX_STDIO_MESSAGE_BYTES fails
 * its request instead of closing the transport. Left as it is when an SDK lacks that field.
 */
function useLineBuffer(transport: object, sdk: Sdk): void {
  const t = transport as { _readBuffer?: { append?: unknown; readMessage?: unknown; clear?: unknown } };
  const current = t._readBuffer;
  if (current === undefined || typeof current.append !== 'function' || typeof current.readMessage !== 'function' ||
    typeof current.clear !== 'function') return;
  t._readBuffer = new McpLineBuffer(MCP_MAX_STDIO_MESSAGE_BYTES, sdk.deserializeMessage) as typeof current;
}

/** Races `promise` against a timer; `onTimeout` builds the error. */
async function within<T>(promise: Promise<T>, ms: number, onTimeout: () => Error): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

class Connection implements McpConnection {
  readonly name: string;
  readonly #config: McpServerConfig;
  readonly #options: ConnectMcpOptions;
  readonly #sdk: Sdk;
  readonly #startupMs: number;
  readonly #listeners: (() => void)[] = [];
  #client: SdkClient | undefined;
  #transport: SdkTransport | undefined;
  #state: McpConnection['state'] = 'restarting';
  #restartsLeft: number;
  #restart: Promise<void> | undefined;
  #failure = '';
  #stderrTail = '';
  /** The tail was cut inside a line: the rest of that line is not kept. */
  #stderrDropLine = false;
  /** What the server last wrote to stderr before it exited (for the calls it broke). */
  #exitNote = '';
  /** The configured secrets (the token joins them at each connect) and their redaction. */
  readonly #secrets: string[];
  #redaction: McpRedaction;

  constructor(name: string, config: McpServerConfig, options: ConnectMcpOptions, sdk: Sdk) {
    this.name = name;
    this.#config = config;
    this.#options = options;
    this.#sdk = sdk;
    this.#startupMs = config.startup_timeout_ms ?? DEFAULT_STARTUP_TIMEOUT_MS;
    this.#restartsLeft = options.restarts ?? 1;
    this.#secrets = mcpServerSecrets(config);
    this.#redaction = mcpRedaction(this.#secrets);
  }

  get state(): McpConnection['state'] {
    return this.#state;
  }

  get pid(): number | undefined {
    const t = this.#transport as { pid?: number | null } | undefined;
    return typeof t?.pid === 'number' ? t.pid : undefined;
  }

  onToolsChanged(listener: () => void): void {
    this.#listeners.push(listener);
  }

  #what(): string {
    return this.#config.url !== undefined ? this.#config.url : [this.#config.command, ...(this.#config.args ?? [])].join(' ');
  }

  /** The HTTP request headers: `headers`, and the bearer token read from the environment now. */
  #httpHeaders(): Record<string, string> {
    const headers: Record<string, string> = { ...this.#config.headers };
    const variable = this.#config.bearer_token_env_var;
    if (variable !== undefined) {
      const token = process.env[variable];
      if (token === undefined || token === '') {
        throw new Error(`MCP server \`${this.name}\` did not start: environment variable ${variable} (bearer_token_env_var) is not set`);
      }
      if (/[\u0000-\u001f\u007f]/.test(token)) {
        throw new Error(`MCP server \`${this.name}\` did not start: environment variable ${variable} (bearer_token_env_var) holds control characters`);
      }
      headers['Authorization'] = `Bearer ${token}`;
      if (!this.#secrets.includes(token)) {
        this.#secrets.push(token);
        this.#redaction = mcpRedaction(this.#secrets);
      }
    }
    return headers;
  }

  /** `error` with the secrets in its message replaced (an Error either way). */
  #redacted(error: unknown): Error {
    return redactedError(error, this.#redaction.message);
  }

  /**
   * Keeps the last STDERR_TAIL_BYTES of stderr, cut at a line start (a line longer than that is
   * dropped whole): a secret in the kept text is never cut, so redaction finds it.
   */
  #keepStderr(text: string): void {
    let rest = text;
    if (this.#stderrDropLine) {
      const nl = rest.indexOf('\n');
      if (nl < 0) return;
      rest = rest.slice(nl + 1);
      this.#stderrDropLine = false;
    }
    let tail = this.#stderrTail + rest;
    if (tail.length > STDERR_TAIL_BYTES) {
      const from = tail.indexOf('\n', tail.length - STDERR_TAIL_BYTES - 1);
      this.#stderrDropLine = from < 0;
      tail = from < 0 ? '' : tail.slice(from + 1);
    }
    this.#stderrTail = tail;
  }

  #stderrNote(): string {
    const tail = this.#stderrTail.trim().split('\n').slice(-3).join(' | ');
    return tail === '' ? '' : ` (stderr: ${this.#redaction.message(tail)})`;
  }

  /** Starts the transport and the initialize handshake, bounded by the startup timeout. */
  async start(): Promise<void> {
    const sdk = this.#sdk;
    const client = new sdk.Client(this.#options.clientInfo ?? { name: 'agentctx', version: packageVersion() }, { capabilities: {} });
    client.setNotificationHandler(sdk.ToolListChangedNotificationSchema, async () => this.#changed());
    let transport: SdkTransport;
    if (this.#config.url !== undefined) {
      transport = new sdk.StreamableHTTPClientTransport(new URL(this.#config.url), { requestInit: { headers: this.#httpHeaders() } });
    } else {
      const stdio = new sdk.StdioClientTransport({
        command: this.#config.command as string,
        args: [...(this.#config.args ?? [])],
        env: { ...sdk.getDefaultEnvironment(), ...(this.#config.env ?? {}) },
        ...(this.#config.cwd !== undefined ? { cwd: this.#config.cwd } : {}),
        stderr: 'pipe',
      });
      useLineBuffer(stdio, sdk);
      let partial = '';
      stdio.stderr?.on('data', (chunk: Buffer | string) => {
        const text = String(chunk);
        this.#keepStderr(text);
        if (this.#options.onStderr === undefined) return;
        const lines = (partial + text).split('\n');
        partial = lines.pop() ?? '';
        for (const line of lines) this.#options.onStderr(this.#redaction.message(line));
      });
      transport = stdio;
    }
    const closedEarly = new Promise<never>((_, reject) => {
      client.onclose = () => reject(new Error(`MCP server \`${this.name}\` exited during startup${this.#stderrNote()}`));
    });
    closedEarly.catch(() => undefined);
    // Over HTTP the transport closes as a request fails: the request's own error says why.
    const connecting = client.connect(transport, { timeout: this.#startupMs });
    try {
      await within(this.#config.url !== undefined ? connecting : Promise.race([connecting, closedEarly]), this.#startupMs,
        () => new Error(`MCP server \`${this.name}\` did not start within ${this.#startupMs} ms (startup_timeout_ms): ${this.#what()}${this.#stderrNote()}`));
    } catch (error) {
      connecting.catch(() => undefined);
      client.onclose = undefined;
      await transport.close().catch(() => undefined);
      throw this.#redacted(error instanceof Error && error.message.startsWith('MCP server') ? error
        : new Error(`MCP server \`${this.name}\` did not start: ${errorText(error)}${this.#stderrNote()}`));
    }
    if (this.#state === 'closed') {
      // close() came while this (re)start ran: nothing may outlive it.
      client.onclose = undefined;
      await transport.close().catch(() => undefined);
      return;
    }
    client.onclose = () => this.#exited(client);
    this.#client = client;
    this.#transport = transport;
    this.#state = 'ready';
  }

  #changed(): void {
    for (const listener of this.#listeners) listener();
  }

  /** The server went away without close(): restart once (in the background), else fail. */
  #exited(client: SdkClient): void {
    if (client !== this.#client || this.#state === 'closed') return;
    this.#client = undefined;
    this.#exitNote = this.#stderrNote();
    const detail = `MCP server \`${this.name}\` exited${this.#exitNote}`;
    if (this.#restartsLeft <= 0) {
      this.#state = 'failed';
      this.#failure = `${detail}; it was already restarted once, so its tools are unavailable for the rest of this session`;
      this.#options.onExit?.({ restarting: false, detail: this.#failure });
      return;
    }
    this.#restartsLeft -= 1;
    this.#state = 'restarting';
    this.#options.onExit?.({ restarting: true, detail });
    this.#stderrTail = '';
    this.#stderrDropLine = false;
    this.#restart = this.start().then(
      () => this.#changed(),
      (error: unknown) => {
        if (this.#state === 'closed') return;
        this.#state = 'failed';
        this.#failure = `${detail} and did not restart: ${errorText(error)}`;
      },
    );
  }

  async #ready(): Promise<SdkClient> {
    if (this.#state === 'restarting') await this.#restart;
    if (this.#state === 'closed') throw new Error(`MCP server \`${this.name}\` is closed`);
    if (this.#state === 'failed' || this.#client === undefined) throw new Error(this.#failure || `MCP server \`${this.name}\` is not running`);
    return this.#client;
  }

  async listTools(params: { cursor?: string } = {}, options: McpRequestOptions = {}): Promise<{ tools: McpTool[]; nextCursor?: string }> {
    const client = await this.#ready();
    try {
      const listing = await client.listTools(params, { timeout: this.#startupMs, ...options });
      return redactMcpValue(listing, this.#redaction.content) as { tools: McpTool[]; nextCursor?: string };
    } catch (error) {
      throw this.#redacted(error);
    }
  }

  async callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    _resultSchema?: undefined,
    options: McpRequestOptions = {},
  ): Promise<McpCallToolResult> {
    const client = await this.#ready();
    try {
      return redactMcpValue(await client.callTool(params, undefined, options), this.#redaction.content) as McpCallToolResult;
    } catch (error) {
      if (this.#client !== client && this.#state !== 'closed') {
        const next = this.#state === 'restarting' ? 'it is being restarted for the next call'
          : 'its tools are unavailable for the rest of this session';
        throw new Error(`the server exited during the call${this.#exitNote}; ${next}`);
      }
      throw this.#redacted(error);
    }
  }

  async close(): Promise<void> {
    this.#state = 'closed';
    const client = this.#client;
    this.#client = undefined;
    await this.#restart?.catch(() => undefined);
    if (client !== undefined) client.onclose = undefined;
    await this.#transport?.close().catch(() => undefined);
  }
}

/**
 * Starts (stdio) or reaches (HTTP) one MCP server and completes the initialize handshake;
 * rejects with an error naming the server when it does not start within its startup timeout.
 */
export async function connectMcp(name: string, config: McpServerConfig, options: ConnectMcpOptions = {}): Promise<McpConnection> {
  if ((config.command === undefined) === (config.url === undefined)) {
    throw new Error(`MCP server \`${name}\`: give exactly one of command and url`);
  }
  if (config.url === undefined && (config.headers !== undefined || config.bearer_token_env_var !== undefined)) {
    throw new Error(`MCP server \`${name}\`: headers and bearer_token_env_var are for a server reached by url`);
  }
  const problem = mcpHeadersProblem(config);
  if (problem !== undefined) throw new Error(`MCP server \`${name}\`: ${problem}`);
  const connection = new Connection(name, config, options, await loadSdk());
  await connection.start();
  return connection;
}

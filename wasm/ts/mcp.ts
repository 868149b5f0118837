// SPDX-License-Identifier: MIT
// McpToolSet: MCP servers' tools as the session's host tools (docs/mcp.md). Any MCP client fits
// (the official SDK's `Client`, or an object with its listTools / callTool shape); the set lists
// every server's tools, hands them to the engine as `tools` entries, routes `tool_call` effects
// back to the right server, and turns each tool-list change into one `update` of `tools`.
// Invariants:
//  - Names, order and schema bytes follow mcp_tools.ts: the same listing gives the same bytes.
//  - `tools/list` is followed through every `nextCursor` (a repeated cursor or 1000 pages end it).
//  - A call always resolves to an output: timeouts (toolTimeoutMs), refusals (approve), unknown
//    tools and client failures become text the model reads; nothing throws into runTurn.
//  - A list change reaches the engine as one `update` of the whole `tools` array, only when the
//    array differs from the one the engine has, and only between steps: the handler of
//    toolHandler({session}) applies it when the last call of a step has finished (so no call in
//    flight sees its tool vanish), and applyUpdate() applies it between turns. The session's
//    `tool_policy` decides what the model sees; this file never reads or sets it.
//  - A tool called in a step stays in the engine's array until the step's outputs are
//    delivered: the handler's update holds it back (the rest of the change goes ahead) and the
//    removal follows with the next update. The engine answers a call whose tool it loses with
//    an error, so removing it earlier would replace the output the server did return. The
//    handler makes its update through runTurn's `callInStep`, so the effects it brings about
//    are runTurn's to act on.
//  - Browser-safe: no Node built-ins and no SDK import.
import type { ToolHandler } from './driver.js';
import type {
  ConfigDelta, Effect, EffectsResult, HostToolConfig, ToolCallEffect, ToolOutput,
} from './protocol.js';
import type { Caller, SessionMethods } from './types.js';
import {
  compareCodeUnits, hostToolBytes, hostToolFor, mcpResultToOutput, serverKeys, toolKeys,
} from './mcp_tools.js';
import type { McpCallToolResult, McpTool } from './mcp_tools.js';
import { mcpRedaction, redactingMcpClient } from './mcp_secrets.js';

/** Per-request options an MCP client takes (the SDK's RequestOptions, the fields used here). */
export interface McpRequestOptions {
  signal?: AbortSignal;
  timeout?: number;
}

/** What the set needs of an MCP client: the SDK's `Client` has exactly this shape. */
export interface McpClientLike {
  listTools(params?: { cursor?: string }, options?: McpRequestOptions): Promise<{ tools: McpTool[]; nextCursor?: string }>;
  callTool(
    params: { name: string; arguments?: Record<string, unknown> },
    resultSchema?: undefined,
    options?: McpRequestOptions,
  ): Promise<McpCallToolResult | Record<string, unknown>>;
}

/** A server's options in the set. */
export interface McpServerOptions {
  /** Only these tools (raw MCP names) are offered; absent: all. */
  enabledTools?: readonly string[];
  /** These tools are never offered. */
  disabledTools?: readonly string[];
  /** A call that takes longer answers a timeout error (default 60 000 ms). */
  toolTimeoutMs?: number;
  /**
   * Values the server must never get into the session (its credentials): replaced by `***` in
   * every spelling (plain, JSON-escaped, percent-encoded) in every listing, result and error of
   * this server (mcp_secrets.ts). A client from connectMcp already redacts its own config's.
   */
  secrets?: readonly string[];
}

/** One tool call to approve before it runs. */
export interface McpApprovalRequest {
  server: string;
  tool: string;
  /**
   * The advertised name, e.g. `mcp__git__status`: only [A-Za-z0-9_-] (mcp_tools.ts), the name to
   * show a user; `server` and `tool` are the raw names a server chose and may hold anything.
   */
  name: string;
  /** The model's JSON arguments, verbatim. */
  arguments: string;
  /** Aborted when the turn is interrupted: stop asking, the call will not run. */
  signal?: AbortSignal;
}

/** `true` runs the call; a string refuses it and is the output the model reads. */
export type McpApprover = (request: McpApprovalRequest) => true | string | Promise<true | string>;

/** What changed in the host tools between the engine's list and the current one. */
export interface McpToolsChange {
  /** Advertised names (`mcp__server__tool`), sorted. */
  added: string[];
  removed: string[];
  changed: string[];
}

export interface McpToolSetOptions {
  /** Host tools that are not MCP tools (kept first in the `tools` array, unchanged). */
  baseTools?: readonly HostToolConfig[];
  /** Asked before each call; absent: every call runs. */
  approve?: McpApprover;
  /** Told when a server's listing failed (the previous list stays). */
  onListError?: (server: string, error: unknown) => void;
}

interface ServerEntry {
  name: string;
  key: string;
  client: McpClientLike;
  options: McpServerOptions;
  /** The last listing, filtered (raw tools). */
  tools: McpTool[];
  /** Set while a listing runs; `again` asks for one more after it. */
  listing?: Promise<void>;
  again: boolean;
}

interface Route {
  server: ServerEntry;
  tool: string;
}

export const DEFAULT_TOOL_TIMEOUT_MS = 60_000;
const MAX_PAGES = 1000;

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Every tool of a client, following `nextCursor`. */
export async function listAllTools(client: McpClientLike, options: McpRequestOptions = {}): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, options);
    for (const t of Array.isArray(result?.tools) ? result.tools : []) {
      if (t !== null && typeof t === 'object' && typeof t.name === 'string') tools.push(t);
    }
    cursor = typeof result?.nextCursor === 'string' && result.nextCursor !== '' ? result.nextCursor : undefined;
    if (cursor === undefined || seen.has(cursor)) break;
    seen.add(cursor);
  }
  return tools;
}

export class McpToolSet {
  readonly #servers = new Map<string, ServerEntry>();
  #base: HostToolConfig[];
  readonly #approve: McpApprover | undefined;
  readonly #onListError: ((server: string, error: unknown) => void) | undefined;
  /** The tools array the engine has (by advertised name -> bytes), once handed over. */
  #sent: Map<string, string> | undefined;
  /** The engine's array as configs, by advertised name (to hold back a removal). */
  #sentTools = new Map<string, HostToolConfig>();
  #routes = new Map<string, Route>();
  #inFlight = 0;
  /** Advertised names called in the running step (held back by its update). */
  readonly #stepCalls = new Set<string>();

  constructor(options: McpToolSetOptions = {}) {
    this.#base = [...(options.baseTools ?? [])];
    this.#approve = options.approve;
    this.#onListError = options.onListError;
  }

  /** Adds a server (its tools appear after refresh()). Names are unique. */
  addServer(name: string, client: McpClientLike, options: McpServerOptions = {}): void {
    if (this.#servers.has(name)) throw new Error(`MCP server \`${name}\` is already in the set`);
    const secrets = options.secrets ?? [];
    const redacted = secrets.length === 0 ? client : redactingMcpClient(client, mcpRedaction(secrets));
    this.#servers.set(name, { name, key: '', client: redacted, options, tools: [], again: false });
    const keys = serverKeys([...this.#servers.keys()]);
    for (const entry of this.#servers.values()) entry.key = keys.get(entry.name) as string;
  }

  /** The servers' names, sorted. */
  get servers(): string[] {
    return [...this.#servers.keys()].sort(compareCodeUnits);
  }

  /** The raw tool names a server offers now (after enabled/disabled filtering), sorted. */
  serverTools(name: string): string[] {
    return (this.#servers.get(name)?.tools ?? []).map((t) => t.name);
  }

  /** Replaces the non-MCP host tools (e.g. a script's own `tools` update). */
  setBaseTools(tools: readonly HostToolConfig[]): void {
    this.#base = [...tools];
  }

  /** Lists the tools of one server (or all), following every cursor. A failed listing keeps the old list. */
  async refresh(name?: string): Promise<void> {
    const names = name === undefined ? [...this.#servers.keys()] : [name];
    await Promise.all(names.map((n) => this.#list(n)));
  }

  /** A server said `notifications/tools/list_changed`: it is listed again (coalesced). */
  listChanged(name: string): void {
    void this.#list(name);
  }

  /** Resolves once no listing runs (those asked for meanwhile included). */
  async settled(): Promise<void> {
    for (;;) {
      const running = [...this.#servers.values()].map((s) => s.listing).filter((p) => p !== undefined);
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  #list(name: string): Promise<void> {
    const entry = this.#servers.get(name);
    if (entry === undefined) return Promise.resolve();
    if (entry.listing !== undefined) {
      entry.again = true;
      return entry.listing;
    }
    const run = async (): Promise<void> => {
      do {
        entry.again = false;
        try {
          entry.tools = this.#filter(entry, await listAllTools(entry.client));
        } catch (error) {
          this.#onListError?.(entry.name, error);
        }
      } while (entry.again);
    };
    entry.listing = run().finally(() => {
      entry.listing = undefined;
    });
    return entry.listing;
  }

  #filter(entry: ServerEntry, tools: McpTool[]): McpTool[] {
    const enabled = entry.options.enabledTools === undefined ? undefined : new Set(entry.options.enabledTools);
    const disabled = new Set(entry.options.disabledTools ?? []);
    const byName = new Map<string, McpTool>();
    for (const t of tools) {
      if (enabled !== undefined && !enabled.has(t.name)) continue;
      if (disabled.has(t.name)) continue;
      // A tool that must run as a task needs the tasks extension, which this client lacks.
      if (t.execution?.taskSupport === 'required') continue;
      if (!byName.has(t.name)) byName.set(t.name, t);
    }
    return [...byName.values()].sort((a, b) => compareCodeUnits(a.name, b.name));
  }

  /** The current `tools` array: the base tools, then every MCP tool in (server, tool) key order. */
  tools(): HostToolConfig[] {
    const routes = new Map<string, Route>();
    const mcp: HostToolConfig[] = [];
    for (const entry of this.#servers.values()) {
      const keys = toolKeys(entry.key, entry.name, entry.tools.map((t) => t.name));
      for (const t of entry.tools) {
        const key = keys.get(t.name) as string;
        mcp.push(hostToolFor(entry.key, key, t));
        routes.set(`${entry.key}\0${key}`, { server: entry, tool: t.name });
      }
    }
    mcp.sort((a, b) => compareCodeUnits(a.server ?? '', b.server ?? '') || compareCodeUnits(a.name, b.name));
    // Routes of tools the engine may still call stay until the next listing replaces them.
    for (const [k, v] of routes) this.#routes.set(k, v);
    return [...this.#base, ...mcp];
  }

  /** The tools for the session config at start; later changes are measured against them. */
  sessionTools(): HostToolConfig[] {
    const tools = this.tools();
    this.#sent = bytesByName(tools);
    this.#sentTools = configsByName(tools);
    return tools;
  }

  /**
   * Waits for running listings, then returns the `tools` delta when the current array differs
   * from the engine's (which it becomes), with what changed; undefined when nothing did.
   * `hold`: advertised names the engine's array keeps for now even when they are gone (tools
   * whose calls are not delivered yet); their removal is part of a later update.
   */
  async takeUpdate(options: { hold?: ReadonlySet<string> } = {}): Promise<{ delta: ConfigDelta; change: McpToolsChange } | undefined> {
    await this.settled();
    const tools = this.#holding(this.tools(), options.hold);
    const now = bytesByName(tools);
    const before = this.#sent ?? new Map<string, string>();
    const change: McpToolsChange = { added: [], removed: [], changed: [] };
    for (const [name, bytes] of now) {
      if (!before.has(name)) change.added.push(name);
      else if (before.get(name) !== bytes) change.changed.push(name);
    }
    for (const name of before.keys()) if (!now.has(name)) change.removed.push(name);
    const same = this.#sent !== undefined && change.added.length + change.removed.length + change.changed.length === 0 &&
      [...before.keys()].join('\n') === [...now.keys()].join('\n');
    if (same) return undefined;
    this.#sent = now;
    this.#sentTools = configsByName(tools);
    for (const list of [change.added, change.removed, change.changed]) list.sort(compareCodeUnits);
    return { delta: { tools }, change };
  }

  /** `tools` with the engine's entries for the `hold` names it lacks, in the array's order. */
  #holding(tools: HostToolConfig[], hold: ReadonlySet<string> | undefined): HostToolConfig[] {
    if (hold === undefined || hold.size === 0) return tools;
    const present = new Set(bytesByName(tools).keys());
    const held = [...hold].filter((n) => !present.has(n)).map((n) => this.#sentTools.get(n))
      .filter((t): t is HostToolConfig => t !== undefined);
    if (held.length === 0) return tools;
    const base = tools.slice(0, this.#base.length);
    const mcp = [...tools.slice(this.#base.length), ...held];
    mcp.sort((a, b) => compareCodeUnits(a.server ?? '', b.server ?? '') || compareCodeUnits(a.name, b.name));
    return [...base, ...mcp];
  }

  /**
   * Applies a pending list change to `session` as one `update` (between turns); resolves with
   * the update's effects (warnings), or [] when nothing changed.
   */
  async applyUpdate(
    session: Caller<SessionMethods>,
    options: { now?: () => number; onChange?: (change: McpToolsChange) => void } = {},
  ): Promise<Effect[]> {
    const update = await this.takeUpdate();
    if (update === undefined) return [];
    options.onChange?.(update.change);
    const now = (options.now ?? Date.now)();
    return (session.call('update', { delta: update.delta, now_ms: now }) as EffectsResult).effects;
  }

  /**
   * A runTurn tool handler. With `session`, a pending list change is applied when the last call
   * of a step has finished, before its output is delivered (so the next step's request has it),
   * holding back the removal of the step's own tools until a later update. The update is made
   * through runTurn's `callInStep`, which acts on its effects; a caller without it (another
   * loop) gets them in `onEffects`.
   */
  toolHandler(options: {
    session?: Caller<SessionMethods>;
    now?: () => number;
    onEffects?: (effects: Effect[]) => void;
    onChange?: (change: McpToolsChange) => void;
    /** Calls to tools of no MCP server (default: a text saying so). */
    fallback?: ToolHandler;
  } = {}): ToolHandler {
    return async (call, context) => {
      this.#inFlight += 1;
      this.#stepCalls.add(call.name);
      let output: ToolOutput;
      try {
        output = this.#owns(call) || options.fallback === undefined
          ? await this.callTool(call, context)
          : await options.fallback(call, context);
      } finally {
        this.#inFlight -= 1;
      }
      if (this.#inFlight === 0 && options.session !== undefined) {
        const session = options.session;
        const hold = new Set(this.#stepCalls);
        this.#stepCalls.clear();
        try {
          const update = await this.takeUpdate({ hold });
          if (update !== undefined) {
            options.onChange?.(update.change);
            const run = (): readonly Effect[] =>
              (session.call('update', { delta: update.delta, now_ms: (options.now ?? Date.now)() }) as EffectsResult).effects;
            if (context.callInStep !== undefined) {
              await context.callInStep(run);
            } else {
              const effects = run();
              if (effects.length > 0) options.onEffects?.([...effects]);
            }
          }
        } catch (error) {
          options.onEffects?.([{ type: 'event', event: { type: 'warning', code: 'mcp_update_failed', message: errorText(error) } }]);
        }
      }
      return output;
    };
  }

  #owns(call: ToolCallEffect): boolean {
    if (call.server === undefined || call.tool === undefined) return false;
    if (this.#routes.size === 0) this.tools();
    return this.#routes.has(`${call.server}\0${call.tool}`);
  }

  /** Runs one `tool_call` on its server; always resolves to an output. */
  async callTool(call: ToolCallEffect, context: { signal?: AbortSignal } = {}): Promise<ToolOutput> {
    if (this.#routes.size === 0) this.tools();
    const route = call.server === undefined || call.tool === undefined ? undefined : this.#routes.get(`${call.server}\0${call.tool}`);
    if (route === undefined) return `error: ${call.name} is not a tool of any connected MCP server`;
    const who = { server: route.server.name, tool: route.tool };
    let args: Record<string, unknown> = {};
    if (call.arguments.trim() !== '') {
      let parsed: unknown;
      try {
        parsed = JSON.parse(call.arguments);
      } catch {
        return `error: the arguments of ${call.name} are not JSON: ${call.arguments.slice(0, 200)}`;
      }
      if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
        return `error: the arguments of ${call.name} must be a JSON object`;
      }
      args = parsed as Record<string, unknown>;
    }
    if (this.#approve !== undefined) {
      let verdict: true | string;
      try {
        verdict = await this.#approve({
          server: who.server, tool: who.tool, name: `mcp__${call.server as string}__${call.tool as string}`, arguments: call.arguments,
          ...(context.signal !== undefined ? { signal: context.signal } : {}),
        });
      } catch (error) {
        verdict = `error: approval of ${call.name} failed: ${errorText(error)}`;
      }
      if (context.signal?.aborted) return `error: MCP tool \`${who.tool}\` of server \`${who.server}\` was interrupted`;
      if (verdict !== true) return verdict;
    }
    const timeoutMs = route.server.options.toolTimeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const abort = new AbortController();
    const onAbort = (): void => abort.abort(context.signal?.reason);
    context.signal?.addEventListener('abort', onAbort, { once: true });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    try {
      // The client's own timeout is only a backstop: this one answers first, with its setting named.
      const pending = route.server.client.callTool({ name: who.tool, arguments: args }, undefined, { signal: abort.signal, timeout: timeoutMs + 1000 });
      pending.catch(() => undefined); // after a timeout nobody waits for it
      const result = await Promise.race([pending, timedOut]);
      if (result === 'timeout') {
        abort.abort(new Error('tool_timeout_ms'));
        return `error: MCP tool \`${who.tool}\` of server \`${who.server}\` timed out after ${timeoutMs} ms (tool_timeout_ms)`;
      }
      return mcpResultToOutput(result as McpCallToolResult, who);
    } catch (error) {
      if (context.signal?.aborted) return `error: MCP tool \`${who.tool}\` of server \`${who.server}\` was interrupted`;
      return `error: MCP tool \`${who.tool}\` of server \`${who.server}\` failed: ${errorText(error)}`;
    } finally {
      clearTimeout(timer);
      context.signal?.removeEventListener('abort', onAbort);
    }
  }
}

function advertisedName(t: HostToolConfig): string {
  return t.server === undefined || t.server === '' ? t.name : `mcp__${t.server}__${t.name}`;
}

function configsByName(tools: readonly HostToolConfig[]): Map<string, HostToolConfig> {
  return new Map(tools.map((t) => [advertisedName(t), t]));
}

function bytesByName(tools: readonly HostToolConfig[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const t of tools) out.set(advertisedName(t), hostToolBytes(t));
  return out;
}

/** A set with one server: `mcpTools(client, {server: 'git'})`, listed once before it resolves. */
export async function mcpTools(
  client: McpClientLike,
  options: McpServerOptions & McpToolSetOptions & { server: string },
): Promise<McpToolSet> {
  const set = new McpToolSet(options);
  set.addServer(options.server, client, options);
  await set.refresh();
  return set;
}

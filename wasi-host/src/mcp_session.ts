// SPDX-License-Identifier: MIT
// MCP servers in a CLI session (docs/mcp.md): started before the session, their tools in its
// config as host tools, calls routed to them, list changes applied as one `update` of `tools`.
// Invariants:
//  - Servers start concurrently, each within its startup_timeout_ms; one that does not start is
//    left out with a warning naming it, and the session starts without its tools.
//  - The session's tool_policy is passed through untouched (sessionMcp sets `defer` only when
//    the config has none): this file never decides what the model sees of a change.
//  - Approval prompts read the one shared stdin reader (line_reader.ts), so the REPL never
//    takes an answer for a message; without a terminal, or in a script, nobody is asked. What
//    was typed before a question is shown is dropped first (and said): only a line typed after
//    it answers it. Everything printed from a server is terminal-safe (terminal_text.ts).
//  - A list change reaches the engine between steps (the handler applies it after the last
//    call of a step) or between turns (flush); never while a call is in flight.
//  - Every server is stopped by close(), whatever happened before.
import { McpToolSet, connectMcp } from 'agentctx';
import type { HostToolConfig, McpApprover, McpConnection, McpToolsChange, ToolHandler } from 'agentctx';
import type { JsonObject } from './config.js';
import type { Clock, EffectOutput, SessionDriver } from './driver.js';
import { releaseStdin, stdinLines } from './line_reader.js';
import { cliApprover } from './mcp_approval.js';
import { terminalLine } from './terminal_text.js';
import type { McpServerEntry } from './mcp_config.js';

export interface McpHost {
  readonly set: McpToolSet;
  /** The tools for the session config at start (base tools first). */
  readonly tools: HostToolConfig[];
  /** The tool handler for the session's driver. */
  handler(driver: SessionDriver): ToolHandler;
  /** Applies a pending list change between turns. */
  flush(driver: SessionDriver): Promise<void>;
  /** Stops every server. */
  close(): Promise<void>;
}

export interface StartMcpOptions {
  output: EffectOutput;
  clock: Clock;
  /** The config's own host tools (kept, first). */
  baseTools: readonly HostToolConfig[];
  approve: McpApprover;
  /** The session's tool_policy now (for the notes). */
  policy: () => string;
}

function describeChange(change: McpToolsChange, policy: string): string {
  const parts = [
    ...change.added.map((n) => `+${n}`), ...change.removed.map((n) => `-${n}`), ...change.changed.map((n) => `~${n}`),
  ];
  const when = policy === 'defer' ? 'tool_policy defer: the model is told now and can call them after the next compaction'
    : policy === 'apply' ? 'tool_policy apply: the next request advertises them'
    : policy === 'native' ? 'tool_policy native: the next request appends them through the provider (defer where it cannot)'
    : `tool_policy ${policy}`;
  return `MCP tools changed (${parts.join(', ')}); ${when}`;
}

/** Starts every server and lists its tools; resolves once all have started or given up. */
export async function startMcp(entries: readonly McpServerEntry[], o: StartMcpOptions): Promise<McpHost> {
  const set = new McpToolSet({
    baseTools: o.baseTools,
    approve: o.approve,
    onListError: (server, error) => o.output.host({
      type: 'mcp_server', server, state: 'list_failed',
      message: `warning: MCP server \`${server}\`: listing its tools failed (${error instanceof Error ? error.message : String(error)}); its previous list stays`,
    }),
  });
  const connections: McpConnection[] = [];
  const started = await Promise.all(entries.map(async (entry) => {
    try {
      const connection = await connectMcp(entry.name, {
        ...(entry.command !== undefined ? { command: entry.command, args: entry.args, env: entry.env } : {}),
        ...(entry.cwd !== undefined ? { cwd: entry.cwd } : {}),
        ...(entry.url !== undefined ? { url: entry.url } : {}),
        ...(entry.headers !== undefined ? { headers: entry.headers } : {}),
        ...(entry.bearerTokenEnvVar !== undefined ? { bearer_token_env_var: entry.bearerTokenEnvVar } : {}),
        startup_timeout_ms: entry.startupTimeoutMs,
      }, {
        onExit: ({ restarting, detail }) => o.output.host({
          type: 'mcp_server', server: entry.name, state: restarting ? 'restarting' : 'failed',
          message: `warning: ${detail}${restarting ? '; restarting it (once)' : ''}`,
        }),
      });
      connections.push(connection);
      return { entry, connection };
    } catch (error) {
      o.output.host({
        type: 'mcp_server', server: entry.name, state: 'failed',
        message: `warning: ${error instanceof Error ? error.message : String(error)}; the session goes on without its tools`,
      });
      return undefined;
    }
  }));
  for (const s of started) {
    if (s === undefined) continue;
    set.addServer(s.entry.name, s.connection, {
      ...(s.entry.enabledTools !== undefined ? { enabledTools: s.entry.enabledTools } : {}),
      disabledTools: s.entry.disabledTools,
      toolTimeoutMs: s.entry.toolTimeoutMs,
    });
    s.connection.onToolsChanged(() => set.listChanged(s.entry.name));
  }
  await set.refresh();
  await set.settled();
  const tools = set.sessionTools();
  for (const s of started) {
    if (s === undefined) continue;
    o.output.host({ type: 'mcp_server', server: s.entry.name, state: 'ready', tools: set.serverTools(s.entry.name) });
  }
  const onChange = (change: McpToolsChange): void => o.output.host({
    type: 'mcp_tools_changed', ...change, tool_policy: o.policy(), message: describeChange(change, o.policy()),
  });
  return {
    set,
    tools,
    handler: (driver) => set.toolHandler({
      session: driver.session,
      fallback: (call) => `unsupported call: ${call.name} (the agentctx CLI runs no host tools but MCP ones)`,
      now: () => o.clock.now(),
      onEffects: (effects) => effects.forEach((e) => o.output.effect(e)),
      onChange,
    }),
    flush: async (driver) => {
      const effects = await set.applyUpdate(driver.session, { now: () => o.clock.now(), onChange });
      for (const e of effects) o.output.effect(e);
    },
    close: async () => {
      await Promise.all(connections.map((c) => c.close()));
    },
  };
}

/** Why nobody can answer an approval prompt, or undefined when someone can. */
function noAnswerReason(scripted: boolean): string | undefined {
  if (scripted) return 'a --script runs';
  if (process.stdin.isTTY !== true) return 'stdin is not a terminal';
  if (process.stderr.isTTY !== true) return 'stderr is not a terminal';
  return undefined;
}

/**
 * The session's MCP servers, started, with their tools put into `config` (undefined without
 * servers). A session with servers keeps the advertised tools frozen by default: `native` (a
 * list change reaches the model at the next step through the provider's own channel, and acts as
 * `defer` where the provider or endpoint has none), `defer` on Chat Completions, which has no
 * channel at all; a policy the config names is passed through as it is.
 */
export async function sessionMcp(
  servers: readonly McpServerEntry[], config: JsonObject,
  o: { output: EffectOutput; clock: Clock; scripted: boolean },
): Promise<McpHost | undefined> {
  if (servers.length === 0) return undefined;
  if (config['tool_policy'] === undefined) config['tool_policy'] = config['provider'] === 'chat' ? 'defer' : 'native';
  const reason = noAnswerReason(o.scripted);
  const mcp = await startMcp(servers, {
    output: o.output, clock: o.clock,
    baseTools: Array.isArray(config['tools']) ? (config['tools'] as unknown as HostToolConfig[]) : [],
    policy: () => String(config['tool_policy']),
    approve: cliApprover({
      servers, noAnswerReason: reason ?? '',
      policy: () => String(config['approval_policy'] ?? 'on-request'),
      ...(reason === undefined ? {
        ask: async (question: string, signal?: AbortSignal) => {
          const lines = stdinLines();
          const dropped = await lines.discardTypedAhead();
          if (dropped > 0) {
            process.stderr.write(`agentctx: ${dropped} line${dropped === 1 ? '' : 's'} typed before this question ` +
              `${dropped === 1 ? 'was' : 'were'} discarded (only what you type after it answers it)\n`);
          }
          process.stderr.write(terminalLine(question));
          return lines.next(signal);
        },
      } : {}),
    }),
  });
  config['tools'] = mcp.tools as unknown as JsonObject[];
  return mcp;
}

/** Runs `f`, then stops the session's MCP servers and lets go of stdin, whatever happened. */
export async function closingMcp<T>(mcp: McpHost | undefined, f: () => Promise<T>): Promise<T> {
  try {
    return await f();
  } finally {
    await mcp?.close();
    releaseStdin();
  }
}

/**
 * A script's config delta with the session's MCP tools kept: its own `tools` replace the
 * non-MCP host tools only. The policies it sets are remembered in `config` (approval, notes).
 */
export async function withMcpTools(mcp: McpHost | undefined, config: JsonObject, delta: JsonObject): Promise<JsonObject> {
  for (const key of ['approval_policy', 'tool_policy']) {
    if (key in delta) {
      if (delta[key] === null) delete config[key];
      else config[key] = delta[key] as string;
    }
  }
  if (mcp === undefined || !('tools' in delta)) return delta;
  const own = Array.isArray(delta['tools']) ? (delta['tools'] as unknown as HostToolConfig[]) : [];
  mcp.set.setBaseTools(own);
  const update = await mcp.set.takeUpdate();
  return { ...delta, tools: (update?.delta.tools ?? mcp.set.tools()) as unknown as JsonObject[] };
}

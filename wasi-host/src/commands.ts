// SPDX-License-Identifier: MIT
// The CLI's commands: run (prompt, --interactive, --script), resume, inspect, replay,
// serve-mock. cli.ts parses and validates the flags into CliOptions; everything here assumes
// valid options and reports bad input as HostInputError (exit 2) and engine failures as
// EngineError (exit 1). Exit status of a turn: 0 completed, 1 failed, 130 interrupted by the user.
// Invariants:
//  - The engine runs in the WASI guest with exactly /workspace (read-only unless --writable)
//    and /state (= --home) preopened; the home is created only by commands that persist.
//  - Rollouts are written by the guest glue (rollout.open) before the host sees the effects.
//  - Turns run through the package's host loop (runTurn) with its model clients: the embedded
//    mock (mockModelClient over the guest's engine handle) or HTTP (openAIResponsesClient).
//  - The API key is read from the named environment variable only for the HTTP client, trimmed
//    (config.ts apiKeyFromEnv), and passed nowhere but the authorization header. The client
//    redacts it from the HTTP texts it hands on; every effect, host record, error line and thrown
//    message the session shows is redacted again here (the engine decodes JSON error bodies, so
//    only the final text shows what it made of them).
//  - A process appending to a rollout (run, the REPL, resume) holds its lock (rollout_lock.ts)
//    from before the first byte it writes until it ends; a second writer is refused untouched.
import { existsSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  GUEST_WORKSPACE, HostInputError, MOCK_SLUG, apiKeyFromEnv, buildConfig, guestCwd, mergePatch, modelSlug, readConfigFile,
} from './config.js';
import type { ConfigFlags, JsonObject } from './config.js';
import {
  anthropicMessagesClient, chatCompletionsClient, mockModelClient, openAIResponsesClient, redactSecret,
} from 'agentctx';
import type { ModelClient, ModelRequestEffect, ToolHandler } from 'agentctx';
import { EngineError, SessionDriver, VirtualClock, WallClock, engineCaller } from './driver.js';
import type { Clock, Effect, EffectOutput, TurnOutcome } from './driver.js';
import type { GuestOptions, WasiGuest } from './guest.js';
import { HumanOutput, JsonOutput } from './output.js';
import { guestPathInHome, newRolloutPath, prepareResume, readRolloutBytes, rolloutFacts, rolloutInHome, sessionsDir } from './rollout.js';
import type { RecordedSettings } from './rollout.js';
import { overrideLine, recordedConfig, urlOnlyFromForeignRollout } from './resume_settings.js';
import { noRedaction, redactingErrors, redactingOutput } from './key_redaction.js';
import type { Redact } from './key_redaction.js';
import { acquireRolloutLock } from './rollout_lock.js';
import { homeInWorkspace, makeDirectory } from './home_dir.js';
import type { HomeChoice } from './home_dir.js';
import type { RolloutLock } from './rollout_lock.js';
import { parseScript, removeWorkspacePath, resolveDeltaCwd, writeWorkspaceFile } from './script.js';
import { stdinLines } from './line_reader.js';
import { mcpServers } from './mcp_config.js';
import { closingMcp, sessionMcp, withMcpTools } from './mcp_session.js';
import type { McpHost } from './mcp_session.js';
import { REPL_BANNER, REPL_HELP, parseReplLine } from './repl_input.js';
import { noteUntrustedAgents } from './untrusted_note.js';
import { StatusLine } from './status_line.js';
import { sessionCost, statusText, turnLine } from './usage_meter.js';
import { terminalJsonText, terminalLine } from './terminal_text.js';
import { renderAgents, renderBreakpoints } from './inspect_views.js';
import type { AgentsInspect, BreakpointsInspect } from './inspect_views.js';

export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';

/** Every option after validation (cli.ts). */
export interface CliOptions {
  workspace: string;
  home: string;
  /** Where the home came from, for messages: `--home X`, `AGENTCTX_HOME=X`, … (home_dir.ts). */
  homeLabel?: string;
  writable: boolean;
  /** --allow-hardlinks: read (never write) workspace files with several hard links. */
  allowHardLinks: boolean;
  cwd?: string;
  config?: string;
  trust?: boolean;
  sandbox?: string;
  approval?: string;
  agentsRefresh?: string;
  model?: string;
  /** --provider: responses | chat | anthropic  */
  provider?: string;
  baseUrl?: string;
  /** --api-key-env; unset: ANTHROPIC_API_KEY for provider anthropic, else OPENAI_API_KEY. */
  apiKeyEnv?: string | undefined;
  json: boolean;
  interactive: boolean;
  script?: string;
  dumpRequests?: string;
  maxRetries: number;
  retryBaseMs: number;
  requestTimeoutMs: number;
  format?: string;
  port: number;
  clock?: string;
  /** replay's own flags (cli.ts validates them). */
  replay?: ReplayFlags;
  /** --mcp NAME=COMMAND… / NAME=URL, in order (mcp_config.ts checks them). */
  mcp?: string[];
  /** --feature NAME=on|off, parsed (`provider_features`). */
  features?: Record<string, boolean>;
}

/** replay: --requests, --cache-ttl-ms, --price-input|cached|cache-write|output (USD per million), --top. */
export interface ReplayFlags {
  requests?: boolean;
  cacheTtlMs?: number;
  prices?: { input?: number; cached_input?: number; cache_write?: number; output?: number };
  top?: number;
}

export type GuestLoader = (options?: GuestOptions) => Promise<WasiGuest>;

/** One line for the terminal, its control characters made visible (terminal_text.ts). */
const oneLine = terminalLine;

function stderr(line: string): void {
  process.stderr.write(oneLine(line) + '\n');
}

/** Says on stderr that a stale rollout lock was taken over. */
const lockNote = (line: string): void => stderr(`agentctx: note: ${line}`);

// --- session setup -----------------------------------------------------------------------

interface Session {
  guest: WasiGuest;
  handle: number;
  driver: SessionDriver;
  clock: Clock;
  config: JsonObject;
  output: EffectOutput;
  rollout?: string;
  /** Redacts the API key from a text the session shows. */
  redact: Redact;
  /** The session's MCP servers (mcp_session.ts), when it has any. */
  mcp?: McpHost;
  /** A person at a terminal reads the session: each turn ends with its tokens and cost. */
  terminal: boolean;
}

function configFlags(o: CliOptions, cwd: string, home: boolean, sessionId?: string): ConfigFlags {
  const flags: ConfigFlags = { writable: o.writable, home, cwd };
  if (sessionId !== undefined) flags.sessionId = sessionId;
  if (o.model !== undefined) flags.model = o.model;
  if (o.sandbox !== undefined) flags.sandbox = o.sandbox;
  if (o.approval !== undefined) flags.approval = o.approval;
  if (o.trust !== undefined) flags.trust = o.trust;
  if (o.agentsRefresh !== undefined) flags.agentsRefresh = o.agentsRefresh;
  if (o.provider !== undefined) flags.provider = o.provider;
  if (o.baseUrl !== undefined) flags.baseUrl = o.baseUrl;
  if (o.features !== undefined) flags.features = o.features;
  return flags;
}

/**
 * The model client of the session config: the embedded mock for model `mock` without a base
 * URL, else HTTP to the config's `base_url` (a flag, the --config file or, on resume, the
 * rollout) or the provider's official endpoint. `withholdKey`: no API key is read or sent
 * (a base URL that only a foreign rollout named, resume_settings.ts).
 */
function modelFor(o: CliOptions, config: JsonObject, guest: WasiGuest, clock: Clock, withholdKey = false): { model: ModelClient; redact: Redact } {
  const configured = typeof config['base_url'] === 'string' ? config['base_url'] : undefined;
  if (configured === undefined && modelSlug(config) === MOCK_SLUG) {
    return { model: mockModelClient(engineCaller(guest), { now: () => clock.now() }), redact: noRedaction };
  }
  // The config's provider (the flag is merged into it) picks the API and its client.
  const provider = typeof config['provider'] === 'string' ? config['provider'] : 'responses';
  const baseUrl = configured ?? (provider === 'anthropic' ? ANTHROPIC_BASE_URL : DEFAULT_BASE_URL);
  // The key's variable follows the provider wherever it was set (the flag or a --config file).
  const keyEnv = o.apiKeyEnv ?? (provider === 'anthropic' ? 'ANTHROPIC_API_KEY' : 'OPENAI_API_KEY');
  const key = withholdKey ? undefined : apiKeyFromEnv(keyEnv);
  if (key === undefined && configured === undefined) {
    throw new HostInputError(`${keyEnv} is not set (the API key for ${baseUrl}; choose the variable with --api-key-env)`);
  }
  const options = { baseUrl, timeoutMs: o.requestTimeoutMs, ...(key === undefined ? {} : { apiKey: key }) };
  const redact: Redact = key === undefined ? noRedaction : (text) => redactSecret(text, key);
  if (provider === 'anthropic') return { model: anthropicMessagesClient(options), redact };
  if (provider === 'chat') return { model: chatCompletionsClient(options), redact };
  return { model: openAIResponsesClient(options), redact };
}

/** Whether the session talks to a person at a terminal: a status line and a line after each turn (docs/cli.md). */
function onTerminal(o: CliOptions): boolean {
  return !o.json && process.stderr.isTTY === true;
}

function outputFor(o: CliOptions): EffectOutput {
  return o.json ? new JsonOutput(process.stdout) : new HumanOutput(process.stdout, process.stderr, {
    stream: process.stdout.isTTY === true, ...(onTerminal(o) ? { status: new StatusLine(process.stderr) } : {}),
  });
}

/** Writes each request body, as sent, to DIR/NNNN.json (an output that wraps `inner`). */
function requestDumper(dir: string | undefined, inner: EffectOutput): EffectOutput {
  if (dir === undefined) return inner;
  makeDirectory(dir, `--dump-requests ${dir}`);
  let n = 0;
  return {
    effect(e: Effect): void {
      if (e.type === 'model_request') {
        n += 1;
        writeFileSync(join(dir, `${String(n).padStart(4, '0')}.json`), (e as ModelRequestEffect).body);
      }
      inner.effect(e);
    },
    host: (record) => inner.host(record),
  };
}

/** Loads the guest, opens a handle, builds the driver; `persist` binds a rollout. */
async function openSession(
  o: CliOptions, load: GuestLoader,
  mode: {
    persist: boolean; clock: Clock; sessionId?: string; cwd?: string; output?: EffectOutput;
    /** resume: what the rollout recorded, and whether the rollout is the user's own (under the home). */
    resume?: { recorded: RecordedSettings; ownRollout: boolean };
  },
): Promise<Session> {
  const fileConfig = o.config !== undefined ? readConfigFile(o.config) : {};
  const cwd = guestCwd(o.workspace, o.cwd ?? mode.cwd, '--cwd');
  const home = homeOf(o);
  if (mode.persist) makeDirectory(o.home, home.label);
  const homeMounted = existsSync(o.home) && statSync(o.home).isDirectory();
  // The engine's tools never reach the home through /workspace (home_dir.ts); said once.
  const { hidden, note: hiddenNote } = homeInWorkspace(o.workspace, home);
  if (hiddenNote !== undefined) stderr(`agentctx: note: ${hiddenNote}`);
  // resume: the rollout's settings lie under the --config file and the flags (resume_settings.ts).
  const layered = mode.resume ? mergePatch(recordedConfig(mode.resume.recorded), fileConfig) as JsonObject : fileConfig;
  const config = buildConfig(layered, configFlags(o, cwd, homeMounted, mode.sessionId));
  let withholdKey = false;
  if (mode.resume) {
    const sources = { model: o.model, provider: o.provider, baseUrl: o.baseUrl, features: o.features, config: o.config };
    const changed = overrideLine(mode.resume.recorded, config, sources);
    if (changed !== undefined) stderr(changed);
    withholdKey = urlOnlyFromForeignRollout(mode.resume.recorded, config, fileConfig, sources, mode.resume.ownRollout);
    if (withholdKey) {
      stderr(`agentctx: note: no API key is sent to ${String(config['base_url'])}: only the rollout, from outside --home, names it (pass --base-url to send the key there)`);
    }
  }
  // Checked whole before anything starts (a bad entry is a usage error).
  const servers = mcpServers(fileConfig, o.config, o.mcp ?? []);
  const guestOptions: GuestOptions = { workspace: o.workspace, writable: o.writable, allowHardLinks: o.allowHardLinks };
  if (hidden.length > 0) guestOptions.hideInWorkspace = hidden;
  if (homeMounted) {
    guestOptions.state = o.home;
    guestOptions.stateWritable = mode.persist;
  }
  const guest = await load(guestOptions);
  const handle = guest.open();
  // Without persist (inspect) no model is ever called: a stand-in client, no key needed.
  const { model, redact } = mode.persist
    ? modelFor(o, config, guest, mode.clock, withholdKey)
    : { model: { send: async function* () { /* never called */ } } as ModelClient, redact: noRedaction };
  const output = redactingOutput(mode.output ?? outputFor(o), redact);
  const mcp = await sessionMcp(servers, config, { output, clock: mode.clock, scripted: o.script !== undefined });
  let handler: ToolHandler | undefined;
  const driver: SessionDriver = new SessionDriver({
    guest, handle, model, clock: mode.clock, output: requestDumper(o.dumpRequests, output),
    retry: { maxRetries: o.maxRetries, baseMs: o.retryBaseMs, maxDelayMs: 30_000 },
    ...(mcp !== undefined ? { tools: (call, context) => (handler ??= mcp.handler(driver))(call, context) } : {}),
  });
  return {
    guest, handle, driver, clock: mode.clock, config, output, redact, ...(mcp !== undefined ? { mcp } : {}),
    terminal: mode.output === undefined && onTerminal(o),
  };
}

/** The home and where its value came from (cli.ts chooseHome). */
function homeOf(o: CliOptions): HomeChoice {
  return { path: o.home, label: o.homeLabel ?? `--home ${o.home}` };
}

/** Binds the rollout file (guest path under /state) to the session handle. */
function bindRollout(s: Session, home: string, hostPath: string): void {
  const guestPath = guestPathInHome(home, hostPath);
  if (guestPath === undefined) throw new HostInputError(`${hostPath}: not under --home ${home}`);
  s.driver.query('rollout.open', { path: guestPath });
  s.rollout = hostPath;
}

function describeOutcome(s: Session, outcome: TurnOutcome): number {
  if (outcome.reason === 'completed' || outcome.reason === 'none') return 0;
  if (outcome.reason === 'interrupted' && outcome.userInterrupt) return 130;
  const e = outcome.error;
  stderr(s.redact(`agentctx: turn ${outcome.turnId ?? ''} failed${e ? `: ${e.code}: ${e.message}` : ''}`));
  return 1;
}

/** Ctrl-C interrupts the running turn; a second one, or one between turns, exits. */
function onInterrupt(driver: SessionDriver): () => void {
  let count = 0;
  const handler = (): void => {
    count += 1;
    if (count > 1 || !driver.busy) process.exit(130);
    driver.requestInterrupt();
  };
  process.on('SIGINT', handler);
  return () => process.off('SIGINT', handler);
}

async function submit(s: Session, text: string): Promise<TurnOutcome> {
  await s.mcp?.flush(s.driver); // a tool-list change waiting since the last turn
  return driveTurn(s, s.driver.call('submit', { text }));
}

/** Drives a turn; on a terminal, then one line with its tokens and cost (usage_meter.ts). */
async function driveTurn(s: Session, effects: Effect[]): Promise<TurnOutcome> {
  if (!s.terminal) return s.driver.drive(effects);
  const query = (method: string, input: Record<string, unknown>): unknown => s.driver.query(method, input);
  const before = sessionCost(query, s.config);
  const outcome = await s.driver.drive(effects);
  const turn = s.driver.usage.turn;
  if (turn.requests > 0) {
    const after = sessionCost(query, s.config);
    const cost = before !== undefined && after !== undefined ? { turn: after - before, session: after } : undefined;
    stderr(turnLine(turn, cost, modelSlug(s.config)));
  }
  return outcome;
}

/** The REPL's /status (usage_meter.ts statusText). */
function sessionStatus(s: Session): string {
  const model = modelSlug(s.config);
  const provider = typeof s.config['provider'] === 'string' ? s.config['provider'] : 'responses';
  const endpoint = typeof s.config['base_url'] === 'string' ? s.config['base_url']
    : model === MOCK_SLUG ? 'the embedded mock, no network' : provider === 'anthropic' ? ANTHROPIC_BASE_URL : DEFAULT_BASE_URL;
  const cost = sessionCost((method, input) => s.driver.query(method, input), s.config);
  return statusText({ model, provider, endpoint, meter: s.driver.usage, cost });
}

async function compact(s: Session, where: string): Promise<TurnOutcome> {
  await s.mcp?.flush(s.driver);
  let effects: Effect[];
  try {
    effects = s.driver.call('compact');
  } catch (e) {
    if (e instanceof EngineError && e.code === 'unknown_method') {
      throw new EngineError('unknown_method', `${where}: this engine build has no \`compact\` method (manual compaction is not available yet)`);
    }
    throw e;
  }
  return driveTurn(s, effects);
}

/** The REPL: one turn per line; `/compact`, `/status`, `/help`, `/exit` (repl_input.ts). Returns the exit status. */
async function repl(s: Session): Promise<number> {
  const rl = stdinLines(); // shared with the MCP approval prompt
  const tty = process.stdin.isTTY === true;
  const prompt = (): void => {
    if (tty) process.stderr.write('> ');
  };
  process.stderr.write(`${REPL_BANNER}\n`);
  prompt();
  for await (const raw of rl) {
    const line = parseReplLine(raw);
    if (line.kind === 'exit') break;
    if (line.kind === 'help') {
      process.stderr.write(REPL_HELP);
    } else if (line.kind === 'status') {
      process.stderr.write(sessionStatus(s));
    } else if (line.kind === 'unknown') {
      // Never sent to the model: a mistyped command is not a question.
      process.stderr.write(`agentctx: not a REPL command: ${oneLine(line.command)} (/help lists them; //text sends /text)\n`);
    } else if (line.kind !== 'empty') {
      try {
        const outcome = line.kind === 'compact' ? await compact(s, '/compact') : await submit(s, line.text);
        describeOutcome(s, outcome);
      } catch (e) {
        // A refused line (e.g. a submit over 16 MiB) is said; the session goes on.
        if (!(e instanceof EngineError) || e.code !== 'invalid_input') throw e;
        process.stderr.write(`agentctx: invalid_input: ${oneLine(s.redact(e.message).replace(/\s+/g, ' '))}\n`);
      }
    }
    prompt();
  }
  rl.close();
  return 0;
}

// --- run / resume --------------------------------------------------------------------------

export async function runCommand(args: string[], o: CliOptions, load: GuestLoader): Promise<number> {
  const prompt = args.length > 0 ? args.join(' ') : undefined;
  if (o.script !== undefined && prompt !== undefined) throw new HostInputError('run takes a PROMPT or --script FILE, not both');
  if (o.script !== undefined && o.interactive) throw new HostInputError('run takes --script or --interactive, not both');
  if (o.script === undefined && prompt === undefined && !o.interactive) {
    throw new HostInputError('run needs a PROMPT (or --script FILE, or --interactive)');
  }
  let steps: ReturnType<typeof parseScript> | undefined;
  if (o.script !== undefined) {
    let text: string;
    try {
      text = readFileSync(o.script, 'utf8');
    } catch {
      throw new HostInputError(`--script ${o.script}: cannot read the file`);
    }
    steps = parseScript(text, o.script);
  }
  const clock = steps ? new VirtualClock(Date.now()) : new WallClock();
  const s = await openSession(o, load, { persist: true, clock });
  return closingMcp(s.mcp, () => redactingErrors(s.redact, async () => {
    const sessionId = String(s.config['session_id']);
    makeDirectory(sessionsDir(o.home), homeOf(o).label);
    const rollout = newRolloutPath(o.home, sessionId, clock.now());
    const lock = acquireRolloutLock(rollout, lockNote);
    try {
      bindRollout(s, o.home, rollout);
      let startEffects: Effect[];
      try {
        startEffects = s.driver.call('session.start', { config: s.config });
      } catch (e) {
        if (statSync(rollout).size === 0) unlinkSync(rollout);
        throw e;
      }
      s.output.host({ type: 'session', session_id: sessionId, rollout });
      noteUntrustedAgents(o.workspace, s.config, o.json ? s.output : undefined);
      await s.driver.drive(startEffects);
      const release = onInterrupt(s.driver);
      try {
        if (steps) return await runScript(s, steps, o, clock as VirtualClock);
        let status = 0;
        if (prompt !== undefined) status = describeOutcome(s, await submit(s, prompt));
        if (o.interactive) status = await repl(s);
        return status;
      } finally {
        release();
      }
    } finally {
      lock.release();
    }
  }));
}

async function runScript(s: Session, steps: NonNullable<ReturnType<typeof parseScript>>, o: CliOptions, clock: VirtualClock): Promise<number> {
  const file = o.script as string;
  for (const step of steps) {
    const where = `${file}:${step.line}`;
    try {
      switch (step.kind) {
        case 'submit': {
          const outcome = await submit(s, step.text);
          const status = describeOutcome(s, outcome);
          if (status !== 0) {
            stderr(`agentctx: ${where}: the script stops here`);
            return status;
          }
          break;
        }
        case 'compact': {
          const status = describeOutcome(s, await compact(s, where));
          if (status !== 0) return status;
          break;
        }
        case 'update':
          await s.driver.drive(s.driver.call('update', { delta: await withMcpTools(s.mcp, s.config, resolveDeltaCwd(o.workspace, step.delta, where)) }));
          break;
        case 'write':
          writeWorkspaceFile(o.workspace, step.path, step.content, `${where}: write`);
          break;
        case 'remove':
          removeWorkspacePath(o.workspace, step.path, `${where}: remove`);
          break;
        case 'tick':
          clock.advance(step.ms);
          await s.driver.drive(s.driver.call('tick'));
          break;
      }
    } catch (e) {
      if (e instanceof EngineError && !e.message.startsWith(where)) throw new EngineError(e.code, `${where}: ${e.message}`);
      throw e;
    }
  }
  return 0;
}

export async function resumeCommand(args: string[], o: CliOptions, load: GuestLoader): Promise<number> {
  const [file, ...rest] = args;
  if (file === undefined) throw new HostInputError('resume needs a rollout FILE.jsonl');
  const prompt = rest.length > 0 ? rest.join(' ') : undefined;
  const facts = rolloutFacts(readRolloutBytes(file), file); // not kept: prepareResume reads it again
  let cwd = facts.cwd;
  if (o.cwd === undefined && cwd !== undefined) {
    try {
      guestCwd(o.workspace, cwd, 'the rollout cwd');
    } catch {
      cwd = GUEST_WORKSPACE; // that directory is gone: start at the workspace root
    }
  }
  // A rollout under the home is continued in place: its lock is taken before anything (the
  // tail repair of prepareResume included) touches it. Another file is copied first, and the
  // copy, new and unique, is locked once it exists.
  let lock: RolloutLock | undefined;
  const inPlace = rolloutInHome(o.home, file);
  if (inPlace !== undefined) lock = acquireRolloutLock(inPlace, lockNote);
  try {
    const clock = new WallClock();
    const s = await openSession(o, load, {
      persist: true, clock, sessionId: facts.sessionId, ...(cwd ? { cwd } : {}),
      ...(facts.recorded ? { resume: { recorded: facts.recorded, ownRollout: inPlace !== undefined } } : {}),
    });
    return await closingMcp(s.mcp, () => redactingErrors(s.redact, async () => {
      const prepared = prepareResume(o.home, file, homeOf(o).label);
      try {
        lock ??= acquireRolloutLock(prepared.hostPath, lockNote);
        bindRollout(s, o.home, prepared.hostPath);
        s.output.host({ type: 'session', session_id: facts.sessionId, rollout: prepared.hostPath, ...(prepared.copied ? { copied_from: file } : {}) });
        noteUntrustedAgents(o.workspace, s.config, o.json ? s.output : undefined);
        // The rollout crosses as bytes beside the JSON (never escaped into it).
        await s.driver.drive(s.driver.call('session.resume', { config: s.config, rollout: prepared.bytes }));
      } catch (e) {
        // A resume that failed leaves no copy of an outside rollout behind in <home>/sessions.
        if (prepared.copied) {
          try {
            unlinkSync(prepared.hostPath);
          } catch {
            // already gone
          }
        }
        throw e;
      }
      const release = onInterrupt(s.driver);
      try {
        let status = 0;
        if (prompt !== undefined) status = describeOutcome(s, await submit(s, prompt));
        if (o.interactive || prompt === undefined) status = await repl(s);
        return status;
      } finally {
        release();
      }
    }));
  } finally {
    lock?.release();
  }
}

// --- inspect / replay / serve-mock ------------------------------------------------------------

export async function inspectCommand(args: string[], o: CliOptions, load: GuestLoader): Promise<number> {
  const prompt = args.length > 0 ? args.join(' ') : undefined;
  const format = o.format ?? 'request';
  const quiet: EffectOutput = {
    effect: (e) => {
      if (e.type === 'event' && e.event.type === 'warning') {
        stderr(`agentctx: warning: ${String(e.event['code'])}: ${String(e.event['message'])}`);
      }
    },
    // MCP servers that did not start (and other host warnings) are said on stderr.
    host: (r) => {
      if (typeof r['message'] === 'string') stderr(`agentctx: ${r['message']}`);
    },
  };
  const s = await openSession(o, load, { persist: false, clock: new WallClock(), output: quiet });
  try {
    const driver = s.driver;
    for (const e of driver.call('session.start', { config: s.config })) quiet.effect(e);
    if (format === 'agents') {
      noteUntrustedAgents(o.workspace, s.config);
      const v = driver.query('inspect', { format: 'agents' }) as AgentsInspect;
      process.stdout.write(o.json ? JSON.stringify(v) + '\n' : renderAgents(v));
      return 0;
    }
    if (format === 'request') {
      let body: Uint8Array | undefined;
      if (prompt !== undefined) {
        for (const e of driver.call('submit', { text: prompt })) {
          quiet.effect(e);
          if (e.type === 'model_request') body = e.body;
        }
      } else {
        body = (driver.query('prompt_preview') as { body: Uint8Array }).body;
      }
      if (body === undefined) throw new EngineError('internal', 'the engine produced no request');
      // JSON whose strings may hold what a server sent: on a terminal, DEL and C1 as \u escapes too.
      process.stdout.write(process.stdout.isTTY === true ? terminalJsonText(Buffer.from(body).toString('utf8')) : body);
      process.stdout.write('\n');
      return 0;
    }
    for (const e of driver.call('submit', { text: prompt ?? '' })) quiet.effect(e);
    if (format === 'breakpoints') {
      // Issue 15: the Anthropic breakpoint plan of the request, every candidate with its reason.
      const plan = driver.query('inspect', { format: 'breakpoints' }) as BreakpointsInspect;
      process.stdout.write(o.json ? JSON.stringify(plan) + '\n' : renderBreakpoints(plan));
      return 0;
    }
    const state = driver.query('world_state');
    // The world state quotes MCP tool descriptions: DEL and C1 as \u escapes too (the same JSON).
    process.stdout.write(terminalJsonText(o.json ? JSON.stringify(state) : JSON.stringify(state, null, 2)) + '\n');
    return 0;
  } finally {
    await s.mcp?.close();
  }
}

// `replay` and `serve-mock` need no session: they live in offline_commands.ts.
export { replayCommand, serveMockCommand } from './offline_commands.js';

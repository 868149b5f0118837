// SPDX-License-Identifier: MIT
// SessionDriver: one engine session handle in the WASI guest, driven by the package's host loop
// (`runTurn` and its model clients from 'agentctx'), so the CLI, the npm package and the
// playground share one loop: the same effect order, backoff, jitter and Retry-After handling
// (docs/protocol.md: effects, deliveries and retries).
// Invariants:
//  - The guest handle is a Caller through createCaller over the ABI (guest.ts transport): request
//    bodies and other large bytes cross as attachments, never escaped into the envelope.
//  - `persist` lines are already in the rollout when the host sees them (the guest glue appends
//    + flushes them inside the call that produced them, `rollout.open`); the driver never
//    writes the rollout itself.
//  - Every other effect goes to the output as runTurn meets it (events stream while the model
//    does); retries and give-ups become host records.
//  - Host tool calls always get an output (MCP tools through `tools`, any other a text saying
//    so), so history never keeps a call without one; a user interrupt or a given-up retry ends
//    the turn through `interrupt`.
//  - Every `now_ms` comes from the clock; a virtual clock only moves when told (scripts).
//  - `usage` counts every token_usage event the driver hands on (usage_meter.ts): this turn's,
//    reset when a turn starts, and the session's in this process.
import { createCaller, runTurn } from 'agentctx';
import type {
  Caller, Effect as PackageEffect, EngineMethods, ModelClient, SessionMethods, ToolHandler, TurnResult,
} from 'agentctx';
import type { WasiGuest } from './guest.js';
import { UsageMeter } from './usage_meter.js';

/** An engine error envelope, as an exception (`code`, one-line `message`). */
export class EngineError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }
}

export type Effect = PackageEffect;

/** A record the host adds to the output (retries, give-ups, session facts). */
export type HostRecord = { type: string; [key: string]: unknown };

/** Where effects and host records go (terminal, JSON lines, a test). */
export interface EffectOutput {
  effect(effect: Effect): void;
  host(record: HostRecord): void;
}

export interface Clock {
  now(): number;
}

export class WallClock implements Clock {
  now(): number {
    return Date.now();
  }
}

/** A clock that only moves when advanced (scripted sessions). */
export class VirtualClock implements Clock {
  #now: number;
  constructor(start: number) {
    this.#now = start;
  }
  now(): number {
    return this.#now;
  }
  advance(ms: number): void {
    this.#now += ms;
  }
}

export interface RetryPolicy {
  /** Retries per request after the first attempt. */
  maxRetries: number;
  /** First backoff step in ms (doubles each retry; jitter keeps half to all of it). */
  baseMs: number;
  /** Cap of the exponential part in ms. */
  maxDelayMs: number;
}

export interface DriverOptions {
  guest: WasiGuest;
  handle: number;
  /** Who answers model requests (from the engine handle of the same guest, or HTTP). */
  model: ModelClient;
  clock: Clock;
  output: EffectOutput;
  retry: RetryPolicy;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
  /** Host tool calls (the session's MCP tools); absent: each call answers that none runs here. */
  tools?: ToolHandler;
}

export interface TurnOutcome {
  reason: 'completed' | 'interrupted' | 'failed' | 'none';
  turnId?: string;
  lastAgentMessage?: string;
  /** The error that ended or failed the turn, when there was one. */
  error?: { code: string; message: string };
  /** True when the user interrupted (not a give-up). */
  userInterrupt: boolean;
}

/** The engine handle (0) of `guest` as a Caller, e.g. for mockModelClient. */
export function engineCaller(guest: WasiGuest): Caller<EngineMethods> {
  return createCaller<EngineMethods>(guest.transport(0));
}

const TURN_EFFECTS = new Set(['model_request', 'tool_call', 'turn_complete', 'error']);

export class SessionDriver {
  readonly #o: DriverOptions;
  readonly #session: Caller<SessionMethods>;
  #abort = new AbortController();
  #busy = false;
  /** Tokens of the running (or last) turn and of the session (usage_meter.ts). */
  readonly usage = new UsageMeter();

  constructor(options: DriverOptions) {
    this.#o = options;
    this.#session = createCaller<SessionMethods>(options.guest.transport(options.handle));
  }

  /** The session handle as the package's Caller (typed calls, attachments resolved). */
  get session(): Caller<SessionMethods> {
    return this.#session;
  }

  /** One engine call on the session handle; `now_ms` is added. Error envelopes throw. */
  call(method: string, input: Record<string, unknown> = {}): Effect[] {
    const value = this.query(method, { ...input, now_ms: this.#o.clock.now() }) as { effects?: Effect[] };
    return value.effects ?? [];
  }

  /** A call whose value is returned as is (queries); error envelopes throw EngineError. */
  query(method: string, input: Record<string, unknown> = {}): unknown {
    try {
      return this.#session.call(method as never, input as never);
    } catch (e) {
      const code = (e as { code?: unknown }).code;
      if (typeof code === 'string' && (e as { name?: unknown }).name === 'AgentctxError') {
        throw new EngineError(code, (e as Error).message);
      }
      throw e;
    }
  }

  /** True while drive() runs (a turn is being driven). */
  get busy(): boolean {
    return this.#busy;
  }

  /** Asks the running turn to stop (Ctrl-C): the request is abandoned, then `interrupt`. */
  requestInterrupt(): void {
    this.#abort.abort();
  }

  /** Handles `effects` and everything they lead to, until the turn completes. */
  async drive(effects: Effect[]): Promise<TurnOutcome> {
    // Effects of a call that starts no turn work (session.start, update, tick): show them.
    if (!effects.some((e) => TURN_EFFECTS.has(e.type))) {
      for (const e of effects) if (e.type !== 'persist') this.#o.output.effect(e);
      return { reason: 'none', userInterrupt: false };
    }
    this.#busy = true;
    this.usage.startTurn();
    this.#abort = new AbortController();
    const signal = this.#abort.signal;
    try {
      const result = await runTurn(this.#session, {
        effects,
        model: this.#o.model,
        tools: this.#o.tools ?? ((call) => `unsupported call: ${call.name} (the agentctx CLI runs no host tools)`),
        onEffect: (e) => {
          this.usage.observe(e);
          if (e.type !== 'persist') this.#o.output.effect(e);
        },
        now: () => this.#o.clock.now(),
        signal,
        retry: {
          maxRetries: this.#o.retry.maxRetries,
          baseDelayMs: this.#o.retry.baseMs,
          maxDelayMs: this.#o.retry.maxDelayMs,
          ...(this.#o.random ? { random: this.#o.random } : {}),
          onRetry: (r) => this.#o.output.host({
            type: 'retry', request_id: r.request_id, attempt: r.attempt, of: r.of, delay_ms: r.delay_ms, code: r.error.code,
          }),
          onGiveUp: (g) => this.#o.output.host({
            type: 'gave_up', ...(g.request_id !== undefined ? { request_id: g.request_id } : {}),
            attempts: g.attempts, code: g.error.code, message: g.error.message,
          }),
        },
      });
      return outcomeOf(result, signal.aborted);
    } finally {
      this.#busy = false;
    }
  }
}

function outcomeOf(result: TurnResult, userInterrupt: boolean): TurnOutcome {
  const outcome: TurnOutcome = {
    reason: result.gaveUp ? 'failed' : result.reason,
    turnId: result.turn_id,
    userInterrupt: userInterrupt && !result.gaveUp && result.reason === 'interrupted',
  };
  if (result.last_agent_message !== undefined) outcome.lastAgentMessage = result.last_agent_message;
  if (result.error !== undefined) outcome.error = { code: result.error.code, message: result.error.message };
  return outcome;
}

// SPDX-License-Identifier: MIT
// SessionDriver: runs one engine session handle in the WASI guest and acts on its effects
// (SPEC §2.3–§2.6, §2.8; ARCHITECTURE §6 "WASI host").
// Invariants:
//  - Effects are handled in the order the engine returns them. `persist` lines are already in
//    the rollout when the host sees them (the guest glue appends + flushes them inside the call
//    that produced them, `rollout.open`), so the driver never writes the rollout itself.
//  - Events are shown as soon as a delivery returns them (text streams while the model does);
//    tool calls, requests, errors and the turn end are queued and handled in order after.
//  - Host tool calls always get an output (the CLI runs none itself), so history never keeps a
//    call without one; a user interrupt or a given-up retry ends the turn through `interrupt`,
//    which records what is there (SPEC §2.6).
//  - A retryable `error` waits max(retry_after_ms, base·2^(n−1) + jitter) (capped) and calls
//    `retry`, at most `maxRetries` times per request; then the turn is interrupted and the
//    outcome is `failed` with that error.
//  - Every `now_ms` comes from the clock; a virtual clock only moves when told (scripts).
import type { WasiGuest } from './guest.js';
import type { Delivery, ModelBackend, ModelRequest } from './model.js';

/** An engine error envelope, as an exception (`code`, one-line `message`). */
export class EngineError extends Error {
  readonly code: string;
  constructor(code: string, message: string) {
    super(message);
    this.name = 'EngineError';
    this.code = code;
  }
}

export type Effect =
  | { type: 'persist'; lines: string[] }
  | { type: 'event'; event: { type: string; [key: string]: unknown } }
  | { type: 'error'; code: string; message: string; retryable: boolean; request_id?: string; retry_after_ms?: number }
  | { type: 'tool_call'; call_id: string; name: string; server?: string; tool?: string; arguments: string }
  | ModelRequest
  | { type: 'turn_complete'; turn_id: string; reason: string; last_agent_message?: string };

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
  /** First backoff step in ms (doubles each retry). */
  baseMs: number;
  /** Cap of the exponential part in ms. */
  maxDelayMs: number;
}

export interface DriverOptions {
  guest: WasiGuest;
  handle: number;
  backend: ModelBackend;
  clock: Clock;
  output: EffectOutput;
  retry: RetryPolicy;
  /** Called with every request body exactly as sent (before sending). */
  onRequestSent?: (request: ModelRequest) => void;
  /** Jitter source in [0, 1) (default Math.random). */
  random?: () => number;
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

const SETTLING = new Set(['model_request', 'tool_call', 'turn_complete', 'error']);

/** The backoff before retry number `n` (1-based): ≥ retryAfterMs, exponential + jitter. */
export function retryDelay(policy: RetryPolicy, n: number, retryAfterMs: number | undefined, random: () => number): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (n - 1));
  const jittered = exp + Math.floor(random() * (exp / 4));
  return Math.max(retryAfterMs ?? 0, jittered);
}

export class SessionDriver {
  readonly #o: DriverOptions;
  readonly #attempts = new Map<string, number>();
  #abort = new AbortController();
  #interruptRequested = false;
  #busy = false;
  #wake: (() => void) | undefined;

  constructor(options: DriverOptions) {
    this.#o = options;
  }

  /** One engine call on the session handle; `now_ms` is added. Error envelopes throw. */
  call(method: string, input: Record<string, unknown> = {}): Effect[] {
    const value = this.query(method, { ...input, now_ms: this.#o.clock.now() }) as { effects?: Effect[] };
    return value.effects ?? [];
  }

  /** A call whose value is returned as is (queries); error envelopes throw. */
  query(method: string, input: Record<string, unknown> = {}): unknown {
    const { ok, envelope } = this.#o.guest.callResult(this.#o.handle, method, JSON.stringify(input));
    const parsed = JSON.parse(envelope) as { value?: unknown; error?: { code?: string; message?: string } };
    if (!ok) throw new EngineError(parsed.error?.code ?? 'internal', parsed.error?.message ?? 'no message');
    return parsed.value;
  }

  /** True while drive() runs (a turn is being driven). */
  get busy(): boolean {
    return this.#busy;
  }

  /** Asks the running turn to stop (Ctrl-C): the request is abandoned, then `interrupt`. */
  requestInterrupt(): void {
    this.#interruptRequested = true;
    this.#abort.abort();
    this.#wake?.();
  }

  /** Handles `effects` and everything they lead to, until the turn completes. */
  async drive(effects: Effect[]): Promise<TurnOutcome> {
    this.#busy = true;
    try {
      return await this.#drive(effects);
    } finally {
      this.#busy = false;
    }
  }

  async #drive(effects: Effect[]): Promise<TurnOutcome> {
    this.#interruptRequested = false;
    this.#abort = new AbortController();
    const queue = [...effects];
    const outcome: TurnOutcome = { reason: 'none', userInterrupt: false };
    let gaveUp: { code: string; message: string } | undefined;
    let lastError: { code: string; message: string } | undefined;
    // A retryable error the host cannot retry (no request id) leaves the turn suspended: once
    // nothing else is queued, `interrupt` ends it and the outcome is that error.
    let stuck: { code: string; message: string } | undefined;
    let interrupted = false;
    // After a user interrupt, whatever is still queued (a request, tool calls, an error) is
    // dropped unless the turn already ended; `interrupt` then ends it (once).
    const checkInterrupt = (): void => {
      if (!this.#interruptRequested || interrupted) return;
      if (queue.some((e) => e.type === 'turn_complete')) return;
      interrupted = true;
      outcome.userInterrupt = true;
      const events = queue.filter((e) => e.type === 'event');
      queue.length = 0;
      queue.push(...events, ...this.#interrupt());
    };
    while (queue.length > 0) {
      checkInterrupt();
      const effect = queue.shift();
      if (effect === undefined) break;
      switch (effect.type) {
        case 'persist':
          break;
        case 'event':
          this.#o.output.effect(effect);
          break;
        case 'error': {
          this.#o.output.effect(effect);
          lastError = { code: effect.code, message: effect.message };
          if (effect.retryable && effect.request_id !== undefined) {
            const next = await this.#retryOrGiveUp(effect);
            if (next.gaveUp) gaveUp = lastError;
            queue.push(...next.effects);
          } else if (effect.retryable) {
            stuck = lastError;
          }
          break;
        }
        case 'tool_call':
          this.#o.output.effect(effect);
          queue.push(...this.#deliver({
            type: 'tool_output', call_id: effect.call_id,
            output: `unsupported call: ${effect.name} (the agentctx CLI runs no host tools)`,
          }));
          break;
        case 'model_request':
          this.#o.output.effect(effect);
          queue.push(...(await this.#request(effect)));
          break;
        case 'turn_complete':
          this.#o.output.effect(effect);
          outcome.reason = effect.reason as TurnOutcome['reason'];
          outcome.turnId = effect.turn_id;
          if (effect.last_agent_message !== undefined) outcome.lastAgentMessage = effect.last_agent_message;
          break;
      }
      if (queue.length === 0) checkInterrupt();
      if (queue.length === 0 && stuck !== undefined && outcome.reason === 'none') {
        gaveUp = stuck;
        stuck = undefined;
        queue.push(...this.#interrupt());
      }
    }
    if (gaveUp) {
      outcome.reason = 'failed';
      outcome.error = gaveUp;
    } else if (outcome.reason === 'failed' && lastError) {
      outcome.error = lastError;
    }
    return outcome;
  }

  #interrupt(): Effect[] {
    return this.call('interrupt');
  }

  #deliver(delivery: Record<string, unknown>): Effect[] {
    return this.call('deliver', { delivery });
  }

  /** Sends one model request; events are shown now, the rest is returned in order. */
  async #request(request: ModelRequest): Promise<Effect[]> {
    this.#attempts.set(request.id, request.attempt);
    this.#o.onRequestSent?.(request);
    const later: Effect[] = [];
    let settled = false;
    const sink = (delivery: Delivery): boolean => {
      if (settled) return true;
      for (const e of this.#deliver(delivery)) {
        if (e.type === 'event') this.#o.output.effect(e);
        else if (e.type !== 'persist') later.push(e);
        if (SETTLING.has(e.type)) settled = true;
      }
      return settled;
    };
    await this.#o.backend.send(request, sink, this.#abort.signal);
    return later;
  }

  async #retryOrGiveUp(error: Extract<Effect, { type: 'error' }>): Promise<{ effects: Effect[]; gaveUp: boolean }> {
    const id = error.request_id as string;
    const attempt = this.#attempts.get(id) ?? 1;
    const policy = this.#o.retry;
    if (attempt > policy.maxRetries) {
      this.#o.output.host({ type: 'gave_up', request_id: id, attempts: attempt, code: error.code, message: error.message });
      return { effects: this.#interrupt(), gaveUp: true };
    }
    const delay = retryDelay(policy, attempt, error.retry_after_ms, this.#o.random ?? Math.random);
    this.#o.output.host({ type: 'retry', request_id: id, attempt: attempt + 1, of: policy.maxRetries + 1, delay_ms: delay, code: error.code });
    await this.#sleep(delay);
    if (this.#interruptRequested) return { effects: [], gaveUp: false };
    return { effects: this.call('retry', { request_id: id }), gaveUp: false };
  }

  #sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.#wake = undefined;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#wake = done;
    });
  }
}

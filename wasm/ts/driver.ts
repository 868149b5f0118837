// SPDX-License-Identifier: MIT
// runTurn: a small host loop that executes a session's effects (docs/protocol.md, "Effects")
// with a pluggable model client and host-tool handler, until the turn's `turn_complete`.
// Invariants:
//  1. Effects are handled in the order the engine returns them; `persist` lines reach
//     onPersist (awaited) before any later effect of the same call is acted on.
//  2. The engine never retries transport failures: on a retryable `error` the driver waits
//     (exponential backoff with jitter, at least `retry_after_ms`) and calls `retry`, up to
//     `maxRetries` per request, then `interrupt`s the turn (`gaveUp`, the error in `error`). A
//     retryable error without a request id cannot be retried: the turn is interrupted the same
//     way. A non-retryable error ends the turn inside the engine
//     (`turn_complete{reason:"failed"}`).
//  3. Host tool calls of one step run concurrently; their outputs are delivered as they finish
//     (the engine records them in call order). A throwing handler becomes a text output.
//  4. Aborting `signal` interrupts the turn (`turn_complete{reason:"interrupted"}`).
//  5. A throw after the turn started (e.g. `deliver` rejects a malformed chunk) interrupts the
//     turn first, then propagates: the session is never left with a turn in progress.
//  6. No effect is lost: a session call a tool handler makes during its step (an `update` of
//     the tools, through `context.callInStep`) runs in order with the step's deliveries, and its
//     effects are acted on like runTurn's own — a model request or turn_complete it brings about
//     included.
// Model clients (ModelClient) turn one `model_request` into deliveries; see mockModelClient
// (the engine's mock.respond) and openAIResponsesClient (fetch + SSE).
import { AgentctxError } from './errors.js';
import type {
  AgentctxEvent, Effect, EffectsResult, ErrorEffect, ModelDelivery, ModelRequestEffect,
  SubmitInput, ToolCallEffect, ToolOutput, TurnCompleteEffect,
} from './protocol.js';
import type { Caller, SessionMethods } from './types.js';

/** Turns one `model_request` into its deliveries (docs/protocol.md). */
export interface ModelClient {
  /**
   * Sends `request.body` unchanged to `request.endpoint` and yields, in order, `model_events`
   * chunks then `{end:true}` (responses), one `model_response` (responses/compact), or one
   * `model_error` (HTTP or network failure: `status` absent for network errors). Transport
   * failures are yielded, not thrown; throwing is for aborts and bugs.
   */
  send(request: ModelRequestEffect, options: { signal?: AbortSignal }): AsyncIterable<ModelDelivery>;
}

/** What runTurn gives a tool handler besides the call. */
export interface ToolCallContext {
  /** Aborted when the turn is interrupted. */
  signal?: AbortSignal;
  /**
   * Makes a session call (e.g. `update`) in order with this step's deliveries, while the handler
   * runs: `run` is called once the outputs delivered before it are in, and runTurn acts on the
   * effects it returns as on its own (a model request it starts is sent, persist lines and
   * events reach their callbacks). Resolves once they are absorbed; rejects with what `run` threw.
   */
  callInStep?: (run: () => readonly Effect[]) => Promise<void>;
}

/** Answers a host `tool_call` (docs/tools.md): text, or input_text / input_image parts. */
export type ToolHandler = (
  call: ToolCallEffect,
  context: ToolCallContext,
) => ToolOutput | Promise<ToolOutput>;

export interface RetryOptions {
  /** Retries per request before the turn is interrupted (default 4). */
  maxRetries?: number;
  /** First backoff in ms, doubled per attempt (default 500). */
  baseDelayMs?: number;
  /** Cap of the exponential part (default 30000). */
  maxDelayMs?: number;
  /** A number in [0, 1) for jitter (default Math.random). */
  random?: () => number;
  /** Waits `ms` (default setTimeout); reject when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  /** Told before each retry's wait (e.g. to show "retrying in 2 s"). */
  onRetry?: (info: { request_id: string; attempt: number; of: number; delay_ms: number; error: ErrorEffect }) => void;
  /** Told when a request's retries are used up (or it cannot be retried); the turn is then interrupted. */
  onGiveUp?: (info: { request_id?: string; attempts: number; error: ErrorEffect }) => void;
}

export interface RunTurnOptions {
  /** Who answers model requests: mockModelClient(engine) or openAIResponsesClient({...}). */
  model: ModelClient;
  /** Submitted first (`submit`). Omit it to drive `effects` of a call you made yourself. */
  input?: string | Omit<SubmitInput, 'now_ms'>;
  /** Effects already returned by a call, e.g. a manual `compact` (its own turn). */
  effects?: readonly Effect[];
  /** Host tools (`tool_call` effects). Without it a call gets a "no handler" text output. */
  tools?: ToolHandler;
  /** Every event, in order (text_delta for streaming, item_done, cache_report, token_usage …). */
  onEvent?: (event: AgentctxEvent) => void;
  /** Rollout lines to append (each + LF), awaited before later effects are acted on. */
  onPersist?: (lines: readonly string[]) => void | Promise<void>;
  /** Every effect, before it is acted on (e.g. to show each model_request body). */
  onEffect?: (effect: Effect) => void;
  /** The clock for `now_ms` (default Date.now). */
  now?: () => number;
  retry?: RetryOptions;
  /** Aborting interrupts the turn. */
  signal?: AbortSignal;
}

export interface TurnResult {
  turn_id: string;
  reason: TurnCompleteEffect['reason'];
  last_agent_message?: string;
  /** Every `error` effect seen during the turn, retried ones included. */
  errors: ErrorEffect[];
  /** The error that ended the turn (the engine's failure, or the one retries gave up on). */
  error?: ErrorEffect;
  /** True when runTurn stopped retrying and interrupted the turn (reason is `interrupted`). */
  gaveUp: boolean;
  /** model_request effects sent (retries included). */
  requests: number;
}

function defaultSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Backoff for the `attempt`-th retry (1-based): exponential with jitter, ≥ retry_after_ms. */
export function retryDelayMs(attempt: number, error: Pick<ErrorEffect, 'retry_after_ms'>, options: RetryOptions = {}): number {
  const base = options.baseDelayMs ?? 500;
  const cap = options.maxDelayMs ?? 30000;
  const exponential = Math.min(cap, base * 2 ** Math.max(0, attempt - 1));
  const jittered = exponential * (0.5 + (options.random ?? Math.random)() / 2);
  return Math.ceil(Math.max(error.retry_after_ms ?? 0, jittered));
}

function toolFailure(call: ToolCallEffect, error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return `tool ${call.name} failed: ${message}`;
}

/**
 * Runs one turn to its `turn_complete`: submits `input` (or starts from `effects`), sends each
 * model request through `model`, answers host tool calls with `tools`, retries retryable
 * failures. Resolves with the turn's outcome; throws AgentctxError for a rejected call (e.g.
 * `turn_in_progress`) or when the engine leaves nothing to act on.
 */
export async function runTurn(session: Caller<SessionMethods>, options: RunTurnOptions): Promise<TurnResult> {
  // Checked before anything is submitted, so a bad call leaves the session untouched.
  if (typeof (options as Partial<RunTurnOptions> | undefined)?.model?.send !== 'function') {
    throw new AgentctxError('invalid_input',
      'runTurn: options.model must be a ModelClient (an object with send()), ' +
      'e.g. mockModelClient(engine) or openAIResponsesClient({ apiKey })');
  }
  const now = options.now ?? Date.now;
  const retry = options.retry ?? {};
  const maxRetries = retry.maxRetries ?? 4;
  const sleep = retry.sleep ?? defaultSleep;
  const signal = options.signal;
  const errors: ErrorEffect[] = [];
  const retries = new Map<string, number>();
  let requests = 0;
  let interrupted = false;
  let gaveUp: ErrorEffect | undefined;

  const call = (method: string, input: Record<string, unknown>): Effect[] =>
    session.call<EffectsResult>(method, { ...input, now_ms: now() }).effects;

  // Persist lines and events are handled as soon as a call returns them; the rest is acted on.
  interface Pending {
    request?: ModelRequestEffect;
    complete?: TurnCompleteEffect;
    failure?: ErrorEffect;
    toolCalls: ToolCallEffect[];
  }
  async function absorb(effects: readonly Effect[], into: Pending): Promise<void> {
    for (const effect of effects) {
      options.onEffect?.(effect);
      switch (effect.type) {
        case 'persist':
          await options.onPersist?.(effect.lines);
          break;
        case 'event':
          options.onEvent?.(effect.event);
          break;
        case 'error':
          errors.push(effect);
          into.failure = effect;
          break;
        case 'tool_call':
          into.toolCalls.push(effect);
          break;
        case 'model_request':
          into.request = effect;
          break;
        case 'turn_complete':
          into.complete = effect;
          break;
      }
    }
  }

  let pending: Pending = { toolCalls: [] };
  if (options.input !== undefined) {
    const input = typeof options.input === 'string' ? { text: options.input } : options.input;
    await absorb(call('submit', { ...input }), pending);
  } else {
    await absorb(options.effects ?? [], pending);
  }

  // From here a turn is open: any throw (a rejected deliver, a failing client or tool loop)
  // interrupts it before propagating, so the session is never left `turn_in_progress`.
  try {
    for (;;) {
      const { request, complete, failure, toolCalls } = pending;
      if (complete !== undefined) {
        const result: TurnResult = { turn_id: complete.turn_id, reason: complete.reason, errors, requests, gaveUp: gaveUp !== undefined };
        if (complete.last_agent_message !== undefined) result.last_agent_message = complete.last_agent_message;
        const error = gaveUp ?? (complete.reason === 'failed' ? errors[errors.length - 1] : undefined);
        if (error !== undefined) result.error = error;
        return result;
      }
      const next: Pending = { toolCalls: [] };
      if (signal?.aborted && !interrupted) {
        interrupted = true;
        await absorb(call('interrupt', {}), next);
      } else if (request !== undefined) {
        requests += 1;
        await stream(request, next);
      } else if (toolCalls.length > 0) {
        await runTools(toolCalls, next);
      } else if (failure?.retryable === true && failure.request_id !== undefined) {
        const id = failure.request_id;
        const attempt = (retries.get(id) ?? 0) + 1;
        retries.set(id, attempt);
        let waited = attempt <= maxRetries;
        if (waited) {
          const delay = retryDelayMs(attempt, failure, retry);
          retry.onRetry?.({ request_id: id, attempt: attempt + 1, of: maxRetries + 1, delay_ms: delay, error: failure });
          try {
            await sleep(delay, signal);
          } catch {
            waited = false;
          }
        } else {
          gaveUp = failure;
          retry.onGiveUp?.({ request_id: id, attempts: attempt, error: failure });
        }
        if (!waited) interrupted = true;
        await absorb(waited ? call('retry', { request_id: id }) : call('interrupt', {}), next);
      } else if (failure?.retryable === true && !interrupted) {
        // Retryable, but without a request to retry: the turn is suspended; end it.
        gaveUp = failure;
        retry.onGiveUp?.({ attempts: 0, error: failure });
        interrupted = true;
        await absorb(call('interrupt', {}), next);
      } else {
        throw new AgentctxError('invalid_state',
          'runTurn: the session returned no model request, tool call or turn_complete to act on');
      }
      pending = next;
    }
  } catch (error) {
    try {
      call('interrupt', {});
    } catch {
      // The engine refused the interrupt too: nothing more can be done here.
    }
    throw error;
  }

  // Delivers the pieces of one request's answer, absorbing the effects of each call, until the
  // attempt is over: once the engine answered an error or ended the turn (e.g. a response past
  // its size limit), the rest of the stream would only be ignored, so it is not read.
  async function stream(request: ModelRequestEffect, into: Pending): Promise<void> {
    const pieces = options.model.send(request, signal === undefined ? {} : { signal });
    try {
      for await (const delivery of pieces) {
        await absorb(call('deliver', { delivery }), into);
        if (into.failure !== undefined || into.complete !== undefined) break;
      }
    } catch (error) {
      if (signal?.aborted) return; // the main loop interrupts the turn
      throw error;
    }
  }

  // Runs one step's host tools concurrently; delivers each output as it finishes, one delivery
  // at a time (so persist lines stay in the order the engine produced them).
  async function runTools(calls: ToolCallEffect[], into: Pending): Promise<void> {
    let queue = Promise.resolve();
    const callInStep = (run: () => readonly Effect[]): Promise<void> => {
      let thrown: { error: unknown } | undefined;
      const step = queue.then(() => {
        let effects: readonly Effect[];
        try {
          effects = run();
        } catch (error) {
          thrown = { error }; // the caller's failure, not the step's: later deliveries go on
          return undefined;
        }
        return absorb(effects, into);
      });
      queue = step;
      return step.then(() => {
        if (thrown !== undefined) throw thrown.error;
      });
    };
    const context: ToolCallContext = signal === undefined ? { callInStep } : { signal, callInStep };
    await Promise.all(calls.map(async (toolCall) => {
      let output: ToolOutput;
      if (options.tools === undefined) {
        output = `no handler for tool ${toolCall.name} in this host`;
      } else {
        try {
          output = await options.tools(toolCall, context);
        } catch (error) {
          output = toolFailure(toolCall, error);
        }
      }
      const delivery = { type: 'tool_output', call_id: toolCall.call_id, output };
      queue = queue.then(() => absorb(call('deliver', { delivery }), into));
      await queue;
    }));
  }
}

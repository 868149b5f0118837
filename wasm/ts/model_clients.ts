// SPDX-License-Identifier: MIT
// Model clients for runTurn (driver.ts): each turns one `model_request` effect into the
// deliveries of docs/protocol.md#deliveries.
//  - mockModelClient: the engine's embedded mock model and prompt-cache simulator
//    (`mock.respond`), streamed one SSE event per delivery; fully offline.
//  - openAIResponsesClient: POSTs the body bytes unchanged with `fetch` (only auth/transport
//    headers added) and streams the SSE bytes as they arrive (raw bytes: a chunk may
//    split a character, the engine's SSE parser joins them). HTTP failures become
//    `model_error{status, body, message}`, network failures and progress timeouts
//    `model_error` without status; the engine classifies them (retryable or not) and runTurn
//    backs off and retries. Redirects are never followed (`redirect: 'manual'`): a 3xx is a
//    non-retryable `model_error` naming the location's origin, so neither the key nor an
//    embedder's extra headers can travel to another origin.
// Neither touches storage; an API key lives only in the client object the caller holds, is
// trimmed where it enters, and is replaced by `***` (plain or JSON-escaped) in every text this
// module hands on (secret_redaction.ts).
import { AgentctxError } from './errors.js';
import { normalizeApiKey, secretRedactor } from './secret_redaction.js';
import type { ModelClient } from './driver.js';
import type { ModelDelivery, ModelRequestEffect } from './protocol.js';
import type { Caller, EngineMethods } from './types.js';

export interface MockModelClientOptions {
  /** The simulator's clock (`now_ms`; default Date.now): cache entries live 300 s of it. */
  now?: () => number;
  /** Wait between SSE events so a UI can show streaming (default 0: no timer at all). */
  eventDelayMs?: number;
}

/** Splits SSE text after each blank line (event boundary), keeping every byte. */
function sseEvents(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (;;) {
    const end = text.indexOf('\n\n', start);
    if (end < 0) break;
    out.push(text.slice(start, end + 2));
    start = end + 2;
  }
  if (start < text.length) out.push(text.slice(start));
  return out;
}

function delay(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

/** The embedded mock model as a ModelClient; simulator state lives in `engine`. */
export function mockModelClient(engine: Caller<EngineMethods>, options: MockModelClientOptions = {}): ModelClient {
  const now = options.now ?? Date.now;
  const eventDelayMs = options.eventDelayMs ?? 0;
  return {
    async *send(request: ModelRequestEffect, { signal }: { signal?: AbortSignal } = {}): AsyncGenerator<ModelDelivery> {
      let answer: string;
      try {
        answer = engine.call('mock.respond', { endpoint: request.endpoint, body: request.body, now_ms: now() }).body;
      } catch (error) {
        if (!(error instanceof AgentctxError)) throw error;
        yield { type: 'model_error', request_id: request.id, status: 400, body: '', message: `${error.code}: ${error.message}` };
        return;
      }
      if (request.endpoint === 'responses/compact') {
        yield { type: 'model_response', request_id: request.id, body: answer };
        return;
      }
      for (const chunk of sseEvents(answer)) {
        if (eventDelayMs > 0) await delay(eventDelayMs, signal);
        yield { type: 'model_events', request_id: request.id, sse: chunk };
      }
      yield { type: 'model_events', request_id: request.id, end: true };
    },
  };
}

export interface OpenAIResponsesClientOptions {
  /**
   * Sent as `Authorization: Bearer <apiKey>` (Anthropic: `x-api-key`); never logged or stored. Required for the default
   * base URL; may be omitted for a compatible local server (`baseUrl`), then no header is sent.
   * Leading and trailing whitespace (a CR from a CRLF file) is trimmed.
   */
  apiKey?: string;
  /**
   * Default `https://api.openai.com/v1` (Anthropic: `https://api.anthropic.com/v1`); the
   * endpoint (`responses`, `responses/compact`, `chat/completions`, `messages`) is appended.
   */
  baseUrl?: string;
  /** Default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Extra transport headers (e.g. `OpenAI-Organization`). */
  headers?: Readonly<Record<string, string>>;
  /** Give up when no progress (headers, then each chunk) arrives for this long (default: never). */
  timeoutMs?: number;
}

/** Reads at most this much of an HTTP error body. */
const MAX_ERROR_BODY = 64 * 1024;

export { redactSecret } from './secret_redaction.js';

/** Longest a stream the caller left is read on before it is aborted. */
const DRAIN_MS = 5000;

/**
 * Reads what is left of `stream` and drops it, then aborts `controller` (after its end, a no-op);
 * a server that keeps the stream open past DRAIN_MS is cut off. Never throws.
 */
function drainThenAbort(stream: ReadableStream<Uint8Array>, controller: AbortController): void {
  const stop = setTimeout(() => controller.abort(), DRAIN_MS);
  (stop as { unref?: () => void }).unref?.(); // Node: a left stream never holds the process
  void (async () => {
    try {
      const reader = stream.getReader();
      while (!(await reader.read()).done) { /* dropped */ }
    } catch {
      // aborted or broken: nothing to keep
    } finally {
      clearTimeout(stop);
      controller.abort();
    }
  })();
}

function errorText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? cause.message : undefined;
  return detail && detail !== e.message ? `${e.message} (${detail})` : e.message;
}

/**
 * The text of `body`, at most `limit` characters. `redact` is applied BEFORE the cut: the text is
 * read `margin` characters past the limit (the longest spelling of the secret), so a secret that
 * straddles the limit is whole when it is replaced and no prefix of it survives the cut.
 */
async function readRedactedText(
  body: ReadableStream<Uint8Array> | null, limit: number, margin: number, redact: (text: string) => string, progress: () => void,
): Promise<string> {
  return redact(await readText(body, limit + margin, progress)).slice(0, limit);
}

async function readText(body: ReadableStream<Uint8Array> | null, limit: number, progress: () => void): Promise<string> {
  if (body === null) return '';
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let out = '';
  try {
    for (;;) {
      const { done, value } = await reader.read();
      progress();
      if (done) break;
      out += decoder.decode(value, { stream: true });
      if (out.length >= limit) {
        await reader.cancel().catch(() => undefined);
        return out.slice(0, limit);
      }
    }
  } finally {
    reader.releaseLock();
  }
  return out + decoder.decode();
}

/** `Retry-After` (seconds or an HTTP date) as the sentence the engine reads for retry_after_ms. */
function retryAfterSentence(header: string | null): string {
  if (header === null) return '';
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return ` Please try again in ${seconds}s.`;
  const date = Date.parse(header);
  if (Number.isNaN(date)) return '';
  return ` Please try again in ${Math.max(0, Math.ceil((date - Date.now()) / 1000))}s.`;
}

/** How one HTTP API is reached: its default base URL and how the key is sent. */
interface HttpFlavor {
  client: string;
  defaultBaseUrl: string;
  authHeaders(apiKey: string): Record<string, string>;
  fixedHeaders: Readonly<Record<string, string>>;
}

const OPENAI_BASE_URL = 'https://api.openai.com/v1';
const ANTHROPIC_BASE_URL = 'https://api.anthropic.com/v1';
/** The Messages API version header every request carries. */
export const ANTHROPIC_VERSION = '2023-06-01';

const STREAMING_ENDPOINTS: ReadonlySet<string> = new Set(['responses', 'chat/completions', 'messages']);

const bearer = (apiKey: string): Record<string, string> => ({ Authorization: `Bearer ${apiKey}` });

/** OpenAI's Responses API (or any compatible server) as a ModelClient. */
export function openAIResponsesClient(options: OpenAIResponsesClientOptions): ModelClient {
  return httpModelClient({ client: 'openAIResponsesClient', defaultBaseUrl: OPENAI_BASE_URL, authHeaders: bearer, fixedHeaders: {} }, options);
}

/**
 * Chat Completions (OpenAI, or a vLLM / llama.cpp server at `baseUrl`) as a ModelClient, for
 * sessions with `provider: "chat"` (their requests go to `chat/completions`).
 */
export function chatCompletionsClient(options: OpenAIResponsesClientOptions): ModelClient {
  return httpModelClient({ client: 'chatCompletionsClient', defaultBaseUrl: OPENAI_BASE_URL, authHeaders: bearer, fixedHeaders: {} }, options);
}

/**
 * Anthropic's Messages API as a ModelClient, for sessions with `provider: "anthropic"` (their
 * requests go to `messages`). The key is sent as `x-api-key`, with `anthropic-version`.
 */
export function anthropicMessagesClient(options: OpenAIResponsesClientOptions): ModelClient {
  return httpModelClient({
    client: 'anthropicMessagesClient', defaultBaseUrl: ANTHROPIC_BASE_URL,
    authHeaders: (apiKey) => ({ 'x-api-key': apiKey }), fixedHeaders: { 'anthropic-version': ANTHROPIC_VERSION },
  }, options);
}

/**
 * The `model_error` of a 3xx answer (fetch with `redirect: 'manual'`): non-retryable (a 3xx
 * status), naming where it pointed. A browser hides that (an `opaqueredirect` with status 0).
 */
function redirectFailure(response: Response, url: string): { status: number; message: string } {
  const advice = 'redirects are not followed; set the base URL to the final address';
  if (response.type === 'opaqueredirect') {
    return { status: 0, message: `the model endpoint redirected to an address the browser does not reveal — ${advice}` };
  }
  const location = response.headers.get('location');
  let target = 'no Location';
  if (location !== null) {
    try {
      target = new URL(location, url).origin;
    } catch {
      target = 'an invalid Location';
    }
  }
  return { status: response.status, message: `the model endpoint redirected (${response.status}) to ${target} — ${advice}` };
}

const isRedirect = (response: Response): boolean =>
  response.type === 'opaqueredirect' || (response.status >= 300 && response.status < 400);

function httpModelClient(flavor: HttpFlavor, options: OpenAIResponsesClientOptions): ModelClient {
  const apiKey = normalizeApiKey(options.apiKey, flavor.client);
  if (apiKey === undefined && options.baseUrl === undefined) {
    throw new AgentctxError('invalid_input', `${flavor.client} needs an apiKey (or a baseUrl of a local server)`);
  }
  const base = (options.baseUrl ?? flavor.defaultBaseUrl).replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const extra = { ...flavor.fixedHeaders, ...(options.headers ?? {}) };
  const timeoutMs = options.timeoutMs;
  const redact = secretRedactor(apiKey);
  // The longest JSON spelling of the key: each of its (printable ASCII) characters as `\uXXXX`.
  const redactionMargin = 6 * (apiKey?.length ?? 0);

  return {
    async *send(request: ModelRequestEffect, { signal }: { signal?: AbortSignal } = {}): AsyncGenerator<ModelDelivery> {
      // The turn endpoints stream SSE; responses/compact (and anything else) answers one JSON body.
      const streaming = STREAMING_ENDPOINTS.has(request.endpoint);
      const url = `${base}/${request.endpoint}`;
      // One controller for the caller's abort and the progress timeout.
      const controller = new AbortController();
      let timedOut = false;
      let timer: ReturnType<typeof setTimeout> | undefined;
      const progress = (): void => {
        if (timeoutMs === undefined) return;
        if (timer !== undefined) clearTimeout(timer);
        timer = setTimeout(() => {
          timedOut = true;
          controller.abort();
        }, timeoutMs);
      };
      const onAbort = (): void => controller.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      // A stream the caller stopped reading before its end (the turn completed on its last event):
      // read to its end in the background rather than abort a response that is already whole.
      let unfinished: ReadableStream<Uint8Array> | undefined;
      const failure = (e: unknown): ModelDelivery => ({
        type: 'model_error', request_id: request.id,
        message: redact(timedOut ? `no response from ${url} within ${timeoutMs} ms` : `request to ${url} failed: ${errorText(e)}`),
      });
      try {
        progress();
        const headers: Record<string, string> = {
          ...extra,
          ...(request.headers ?? {}),
          'Content-Type': 'application/json',
          Accept: streaming ? 'text/event-stream' : 'application/json',
        };
        if (apiKey !== undefined) Object.assign(headers, flavor.authHeaders(apiKey));
        let response: Response;
        try {
          // The bytes as they are (a Uint8Array is a valid fetch body; lib.dom types want ArrayBuffer).
          const body = request.body as unknown as BodyInit;
          response = await doFetch(url, { method: 'POST', headers, body, signal: controller.signal, redirect: 'manual' });
        } catch (error) {
          if (signal?.aborted) throw error;
          yield failure(error);
          return;
        }
        if (isRedirect(response)) {
          await response.body?.cancel().catch(() => undefined);
          const { status, message } = redirectFailure(response, url);
          yield { type: 'model_error', request_id: request.id, status, body: '', message: redact(message) };
          return;
        }
        if (!response.ok) {
          const body = await readRedactedText(response.body, MAX_ERROR_BODY, redactionMargin, redact, progress).catch(() => '');
          const message = `HTTP ${response.status} ${response.statusText}`.trim() +
            retryAfterSentence(response.headers.get('retry-after'));
          yield { type: 'model_error', request_id: request.id, status: response.status, body, message: redact(message) };
          return;
        }
        if (!streaming) {
          let text: string;
          try {
            text = await readText(response.body, Number.MAX_SAFE_INTEGER, progress);
          } catch (error) {
            if (signal?.aborted) throw error;
            yield failure(error);
            return;
          }
          yield { type: 'model_response', request_id: request.id, body: text };
          return;
        }
        if (response.body !== null) {
          const reader = response.body.getReader();
          unfinished = response.body;
          try {
            for (;;) {
              const { done, value } = await reader.read();
              progress();
              if (done) break;
              if (value.length > 0) yield { type: 'model_events', request_id: request.id, sse: value };
            }
            unfinished = undefined;
          } catch (error) {
            unfinished = undefined;
            if (signal?.aborted) throw error;
            if (timedOut) {
              yield failure(error);
              return;
            }
            // A broken stream: `end` below makes the engine report a retryable stream_error.
          } finally {
            reader.releaseLock();
          }
        }
        yield { type: 'model_events', request_id: request.id, end: true };
      } finally {
        if (timer !== undefined) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        if (unfinished !== undefined && signal?.aborted !== true) drainThenAbort(unfinished, controller);
        else controller.abort();
      }
    },
  };
}

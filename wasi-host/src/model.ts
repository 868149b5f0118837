// SPDX-License-Identifier: MIT
// Model backends: turn a `model_request` effect into deliveries (SPEC §2.3, §2.4, §10).
//  - MockBackend: the embedded mock model through `mock.respond` on handle 0 of the same guest
//    (SPEC §14), in process, no network. Responses SSE is delivered one event block at a time.
//  - HttpBackend: POSTs the body unchanged to `{base}/responses` (SSE, streamed chunk by chunk
//    into `model_events`) or `{base}/responses/compact` (JSON, one `model_response`); adds only
//    content-type/accept and, when a key is set, `authorization`.
// Invariants:
//  - send() never throws: every transport failure becomes a delivery (`model_error` without
//    `status` for network errors and timeouts, with `status` and the body for HTTP errors,
//    `end` when the stream closes). Retrying is the driver's job (the core never retries).
//  - The sink answers whether the request is settled (the core produced its next step, an error
//    or the end of the turn); the backend then stops reading and aborts the connection.
//  - Timeout: `timeoutMs` without progress (headers, then each chunk) aborts the request.
//  - The API key is never put into a delivery, a message or a log line: every text that leaves
//    this module passes through redact().
import type { WasiGuest } from './guest.js';

export interface ModelRequest {
  type: 'model_request';
  id: string;
  purpose: string;
  endpoint: string;
  attempt: number;
  body: string;
}

export type Delivery =
  | { type: 'model_events'; request_id: string; sse: string }
  | { type: 'model_events'; request_id: string; end: true }
  | { type: 'model_response'; request_id: string; body: string }
  | { type: 'model_error'; request_id: string; status?: number; body?: string; message?: string };

/** Delivers one delivery; returns true once the request is settled (stop sending). */
export type DeliverySink = (delivery: Delivery) => boolean;

export interface ModelBackend {
  /** A short description for progress lines (`mock`, `http://127.0.0.1:8080/v1`). */
  readonly label: string;
  send(request: ModelRequest, sink: DeliverySink, signal: AbortSignal): Promise<void>;
}

/** Replaces every occurrence of `secret` (when non-empty) with `***`. */
export function redact(text: string, secret: string | undefined): string {
  return secret ? text.split(secret).join('***') : text;
}

/** The embedded mock model (SPEC §14). `now` gives the simulator clock. */
export class MockBackend implements ModelBackend {
  readonly label = 'mock';
  readonly #guest: WasiGuest;
  readonly #now: () => number;

  constructor(guest: WasiGuest, now: () => number) {
    this.#guest = guest;
    this.#now = now;
  }

  async send(request: ModelRequest, sink: DeliverySink): Promise<void> {
    const input = JSON.stringify({ endpoint: request.endpoint, body: request.body, now_ms: this.#now() });
    const { ok, envelope } = this.#guest.callResult(0, 'mock.respond', input);
    const parsed = JSON.parse(envelope) as { value?: { body?: string }; error?: { code?: string; message?: string } };
    if (!ok || typeof parsed.value?.body !== 'string') {
      const e = parsed.error ?? {};
      sink({ type: 'model_error', request_id: request.id, status: 400,
        body: JSON.stringify({ error: { code: e.code ?? 'internal', message: e.message ?? '' } }),
        message: `mock model: ${e.code ?? 'internal'}: ${e.message ?? 'no message'}` });
      return;
    }
    const body = parsed.value.body;
    if (request.endpoint !== 'responses') {
      sink({ type: 'model_response', request_id: request.id, body });
      return;
    }
    // One delivery per SSE event block, so text deltas reach the terminal as they come.
    for (const block of body.split(/(?<=\n\n)/)) {
      if (block !== '' && sink({ type: 'model_events', request_id: request.id, sse: block })) return;
    }
    sink({ type: 'model_events', request_id: request.id, end: true });
  }
}

export interface HttpBackendOptions {
  /** Base URL, e.g. `https://api.openai.com/v1` (no trailing slash needed). */
  baseUrl: string;
  /** The API key, or undefined to send no authorization header. */
  apiKey: string | undefined;
  /** Progress timeout in ms (headers, then between chunks). */
  timeoutMs: number;
}

/** Reads at most this much of an HTTP error body. */
const MAX_ERROR_BODY = 64 * 1024;

/** The OpenAI Responses API (or a compatible server, e.g. `agentctx serve-mock`). */
export class HttpBackend implements ModelBackend {
  readonly label: string;
  readonly #base: string;
  readonly #key: string | undefined;
  readonly #timeoutMs: number;

  constructor(options: HttpBackendOptions) {
    this.#base = options.baseUrl.replace(/\/+$/, '');
    this.#key = options.apiKey;
    this.#timeoutMs = options.timeoutMs;
    this.label = this.#base;
  }

  async send(request: ModelRequest, sink: DeliverySink, signal: AbortSignal): Promise<void> {
    const url = `${this.#base}/${request.endpoint}`;
    const controller = new AbortController();
    let timedOut = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const arm = (): void => {
      if (timer !== undefined) clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, this.#timeoutMs);
    };
    const onAbort = (): void => controller.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    const fail = (message: string): void => {
      sink({ type: 'model_error', request_id: request.id, message: redact(message, this.#key) });
    };
    const failure = (e: unknown): string =>
      timedOut ? `no response from ${url} within ${this.#timeoutMs} ms` : `request to ${url} failed: ${errorText(e)}`;
    try {
      arm();
      const headers: Record<string, string> = {
        'content-type': 'application/json',
        accept: request.endpoint === 'responses' ? 'text/event-stream' : 'application/json',
      };
      if (this.#key) headers['authorization'] = `Bearer ${this.#key}`;
      let res: Response;
      try {
        res = await fetch(url, { method: 'POST', headers, body: request.body, signal: controller.signal });
      } catch (e) {
        if (!signal.aborted) fail(failure(e));
        return;
      }
      if (!res.ok) {
        let text = '';
        try {
          text = await readLimited(res, MAX_ERROR_BODY, arm);
        } catch {
          // the status is enough
        }
        // No message: the core takes the detail from the body (error.message, else the text).
        sink({ type: 'model_error', request_id: request.id, status: res.status, body: redact(text, this.#key) });
        return;
      }
      if (request.endpoint !== 'responses') {
        let text: string;
        try {
          text = await readLimited(res, Number.MAX_SAFE_INTEGER, arm);
        } catch (e) {
          if (!signal.aborted) fail(failure(e));
          return;
        }
        sink({ type: 'model_response', request_id: request.id, body: text });
        return;
      }
      if (res.body === null) {
        sink({ type: 'model_events', request_id: request.id, end: true });
        return;
      }
      const reader = res.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        let chunk: { done: boolean; value?: Uint8Array };
        try {
          chunk = await reader.read();
        } catch (e) {
          if (!signal.aborted) fail(failure(e));
          return;
        }
        arm();
        if (chunk.done) break;
        // The core's SSE parser takes any split; only the UTF-8 decoding needs the stream flag.
        const text = decoder.decode(chunk.value, { stream: true });
        if (text !== '' && sink({ type: 'model_events', request_id: request.id, sse: text })) {
          await reader.cancel().catch(() => undefined);
          return;
        }
      }
      const tail = decoder.decode();
      if (tail !== '' && sink({ type: 'model_events', request_id: request.id, sse: tail })) return;
      sink({ type: 'model_events', request_id: request.id, end: true });
    } finally {
      if (timer !== undefined) clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      controller.abort();
    }
  }
}

async function readLimited(res: Response, limit: number, progress: () => void): Promise<string> {
  if (res.body === null) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let out = '';
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
  return out + decoder.decode();
}

function errorText(e: unknown): string {
  if (!(e instanceof Error)) return String(e);
  const cause = (e as { cause?: unknown }).cause;
  const detail = cause instanceof Error ? cause.message : undefined;
  return detail && detail !== e.message ? `${e.message} (${detail})` : e.message;
}

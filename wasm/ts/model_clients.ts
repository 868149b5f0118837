// SPDX-License-Identifier: MIT
// Model clients for runTurn (driver.ts): each turns one `model_request` effect into the
// deliveries of SPEC §2.4.
//  - mockModelClient: the engine's embedded mock model and prompt-cache simulator
//    (`mock.respond`, SPEC §14), streamed one SSE event per delivery; fully offline.
//  - openAIResponsesClient: POSTs the body unchanged with `fetch` (only auth/transport headers
//    added, SPEC §2.3) and streams the SSE text as it arrives. HTTP failures become
//    `model_error{status, body, message}`, network failures `model_error` without status; the
//    engine classifies them (retryable or not) and runTurn backs off and retries.
// Neither touches storage; an API key lives only in the client object the caller holds.
import { AgentctxError } from './errors.js';
import type { ModelClient } from './driver.js';
import type { ModelDelivery, ModelRequestEffect } from './protocol.js';
import type { AgentctxEngine } from './types.js';

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

/** The embedded mock model (SPEC §14) as a ModelClient; simulator state lives in `engine`. */
export function mockModelClient(engine: AgentctxEngine, options: MockModelClientOptions = {}): ModelClient {
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
  /** Sent as `Authorization: Bearer <apiKey>`; never logged or stored. */
  apiKey: string;
  /** Default `https://api.openai.com/v1`; the endpoint (`responses`, `responses/compact`) is appended. */
  baseUrl?: string;
  /** Default globalThis.fetch. */
  fetch?: typeof fetch;
  /** Extra transport headers (e.g. `OpenAI-Organization`). */
  headers?: Readonly<Record<string, string>>;
}

/** `Retry-After` (seconds or an HTTP date) as the sentence the engine reads (SPEC §10). */
function retryAfterSentence(header: string | null): string {
  if (header === null) return '';
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return ` Please try again in ${seconds}s.`;
  const date = Date.parse(header);
  if (Number.isNaN(date)) return '';
  return ` Please try again in ${Math.max(0, Math.ceil((date - Date.now()) / 1000))}s.`;
}

/** OpenAI's Responses API (or any compatible server) as a ModelClient. */
export function openAIResponsesClient(options: OpenAIResponsesClientOptions): ModelClient {
  if (typeof options.apiKey !== 'string' || options.apiKey === '') {
    throw new AgentctxError('invalid_input', 'openAIResponsesClient needs an apiKey');
  }
  const base = (options.baseUrl ?? 'https://api.openai.com/v1').replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const apiKey = options.apiKey;
  const extra = options.headers ?? {};

  return {
    async *send(request: ModelRequestEffect, { signal }: { signal?: AbortSignal } = {}): AsyncGenerator<ModelDelivery> {
      const streaming = request.endpoint === 'responses';
      let response: Response;
      try {
        const init: RequestInit = {
          method: 'POST',
          headers: {
            ...extra,
            'Content-Type': 'application/json',
            Accept: streaming ? 'text/event-stream' : 'application/json',
            Authorization: `Bearer ${apiKey}`,
          },
          body: request.body,
        };
        if (signal !== undefined) init.signal = signal;
        response = await doFetch(`${base}/${request.endpoint}`, init);
      } catch (error) {
        if (signal?.aborted) throw error;
        const message = error instanceof Error ? error.message : String(error);
        yield { type: 'model_error', request_id: request.id, message: `network error: ${message}` };
        return;
      }
      if (!response.ok) {
        const body = await response.text().catch(() => '');
        const message = `HTTP ${response.status} ${response.statusText}`.trim() +
          retryAfterSentence(response.headers.get('retry-after'));
        yield { type: 'model_error', request_id: request.id, status: response.status, body, message };
        return;
      }
      if (!streaming) {
        yield { type: 'model_response', request_id: request.id, body: await response.text() };
        return;
      }
      if (response.body === null) {
        const text = await response.text();
        if (text !== '') yield { type: 'model_events', request_id: request.id, sse: text };
      } else {
        const reader = response.body.getReader();
        const decoder = new TextDecoder();
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            const text = decoder.decode(value, { stream: true });
            if (text !== '') yield { type: 'model_events', request_id: request.id, sse: text };
          }
        } catch (error) {
          if (signal?.aborted) throw error;
          // A broken stream: `end` below makes the engine report a retryable stream_error.
        } finally {
          reader.releaseLock();
        }
        const tail = decoder.decode();
        if (tail !== '') yield { type: 'model_events', request_id: request.id, sse: tail };
      }
      yield { type: 'model_events', request_id: request.id, end: true };
    },
  };
}

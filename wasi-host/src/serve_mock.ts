// SPDX-License-Identifier: MIT
// `agentctx serve-mock`: the embedded mock model (SPEC §14, `mock.respond` on handle 0) as an
// HTTP server speaking the Responses API, Chat Completions and Anthropic Messages (issue 15),
// so the real HTTP client path can be tested — by our own host, by Codex, and by the official
// SDKs (issue 14).
// Invariants:
//  - Listens on 127.0.0.1 only. POST /v1/responses or /responses -> text/event-stream when the
//    body has `stream: true`, else one application/json response object (the API's default);
//    POST /v1/responses/compact or /responses/compact -> application/json; POST
//    /v1/chat/completions and /v1/messages (or without /v1) like /v1/responses; any other method
//    or path -> 404; a body that is not JSON -> 400.
//  - Error bodies are shaped like the API's: {"error":{"message","type","param","code"}}, type
//    `invalid_request_error` for 4xx and `server_error` for 5xx; on /v1/messages Anthropic's
//    {"type":"error","error":{"type","message"}}.
//  - The request body goes to the mock byte for byte (its ids hash those bytes).
//  - Clock: wall clock, or `step:<ms>` = 0, ms, 2·ms, … per request (SPEC §14).
//  - Logs one line per request (method, path, status, bytes) to the log writer; never headers.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { WasiGuest } from './guest.js';

export type MockClock = { kind: 'wall' } | { kind: 'step'; stepMs: number };

/** Parses `--clock` (`wall` or `step:<ms>`); undefined when invalid. */
export function parseMockClock(text: string | undefined): MockClock | undefined {
  if (text === undefined || text === 'wall') return { kind: 'wall' };
  const m = /^step:(\d{1,15})$/.exec(text);
  return m ? { kind: 'step', stepMs: Number(m[1]) } : undefined;
}

const SSE = 'text/event-stream; charset=utf-8';
const ROUTES: Record<string, { endpoint: string; type: string }> = {
  '/v1/responses': { endpoint: 'responses', type: SSE },
  '/responses': { endpoint: 'responses', type: SSE },
  '/v1/responses/compact': { endpoint: 'responses/compact', type: 'application/json' },
  '/responses/compact': { endpoint: 'responses/compact', type: 'application/json' },
  // Issue 15: Chat Completions and Anthropic Messages, each with its cache rules.
  '/v1/chat/completions': { endpoint: 'chat/completions', type: SSE },
  '/chat/completions': { endpoint: 'chat/completions', type: SSE },
  '/v1/messages': { endpoint: 'messages', type: SSE },
  '/messages': { endpoint: 'messages', type: SSE },
};

/** Largest request body accepted (bytes). */
const MAX_BODY = 64 * 1024 * 1024;

/** An error body shaped like the Responses API's. */
export function apiErrorBody(status: number, code: string, message: string): string {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return JSON.stringify({ error: { message, type, param: null, code } });
}

/** An error body shaped like Anthropic's Messages API: {"type":"error","error":{type,message}}. */
export function anthropicErrorBody(status: number, message: string): string {
  const type = status === 404 ? 'not_found_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  return JSON.stringify({ type: 'error', error: { type, message } });
}

export interface MockServerOptions {
  guest: WasiGuest;
  port: number;
  clock: MockClock;
  log?: (line: string) => void;
}

export interface MockServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  let requests = 0;
  const now = (): number =>
    options.clock.kind === 'wall' ? Date.now() : options.clock.stepMs * requests++;
  const send = (res: ServerResponse, status: number, type: string, body: string): number => {
    const bytes = Buffer.from(body, 'utf8');
    res.writeHead(status, { 'content-type': type, 'content-length': bytes.length, 'cache-control': 'no-store' });
    res.end(bytes);
    return status;
  };
  const jsonError = (res: ServerResponse, status: number, code: string, message: string, anthropic = false): number =>
    send(res, status, 'application/json', anthropic ? anthropicErrorBody(status, message) : apiErrorBody(status, code, message));

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    const path = (req.url ?? '/').split('?')[0] as string;
    const route = ROUTES[path];
    if (req.method !== 'POST' || route === undefined) {
      return jsonError(res, 404, 'not_found', `no route for ${req.method ?? '?'} ${path}`);
    }
    const anthropic = route.endpoint === 'messages';
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of req) {
      size += (chunk as Buffer).length;
      if (size > MAX_BODY) return jsonError(res, 413, 'too_large', `request body over ${MAX_BODY} bytes`, anthropic);
      chunks.push(chunk as Buffer);
    }
    const body = Buffer.concat(chunks).toString('utf8');
    let request: unknown;
    try {
      request = JSON.parse(body);
    } catch (e) {
      return jsonError(res, 400, 'invalid_json', `request body is not JSON: ${e instanceof Error ? e.message : String(e)}`, anthropic);
    }
    const input = JSON.stringify({ endpoint: route.endpoint, body, now_ms: now() });
    const { ok, envelope } = options.guest.callResult(0, 'mock.respond', input);
    const parsed = JSON.parse(envelope) as { value?: { body?: string }; error?: { code?: string; message?: string } };
    if (!ok || typeof parsed.value?.body !== 'string') {
      const code = parsed.error?.code ?? 'internal';
      return jsonError(res, code === 'invalid_json' || code === 'invalid_input' ? 400 : 500, code, parsed.error?.message ?? 'no message', anthropic);
    }
    const streaming = typeof request === 'object' && request !== null && (request as { stream?: unknown }).stream === true;
    return send(res, 200, route.type === SSE && !streaming ? 'application/json' : route.type, parsed.value.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).then(
      (status) => options.log?.(`${req.method ?? '?'} ${req.url ?? '/'} ${status}`),
      (e: unknown) => {
        if (!res.headersSent) jsonError(res, 500, 'internal', e instanceof Error ? e.message : String(e));
        else res.destroy();
        options.log?.(`${req.method ?? '?'} ${req.url ?? '/'} 500`);
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}/v1`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}

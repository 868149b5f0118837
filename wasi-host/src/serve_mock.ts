// SPDX-License-Identifier: MIT
// `agentctx serve-mock`: the embedded mock model (`mock.respond` on handle 0) as an HTTP server
// speaking the Responses API, Chat Completions and Anthropic Messages, so the real HTTP client
// path can be tested — by our own host, by Codex, and by the official SDKs.
// Invariants:
//  - Listens on 127.0.0.1 only; a port already in use is a usage error that says so and names
//    --port (never `internal`). POST /v1/responses or /responses -> text/event-stream when the
//    body has `stream: true`, else one application/json response object (the API's default);
//    POST /v1/responses/compact or /responses/compact -> application/json; POST
//    /v1/chat/completions and /v1/messages (or without /v1) like /v1/responses; GET /v1/models
//    (or /models) -> the mock models, in Anthropic's list shape when the request carries
//    `anthropic-version`, else OpenAI's; any other method or path -> 404; a body that is not a
//    JSON object -> 400; a body without the conversation the API requires (`input` for
//    /responses, `messages` for the other two) -> 400 with the API's own error, as the real
//    API answers.
//  - Error bodies are shaped like the API's: {"error":{"message","type","param","code"}}, type
//    `invalid_request_error` for 4xx and `server_error` for 5xx; on /v1/messages Anthropic's
//    {"type":"error","error":{"type","message"}}.
//  - The request body goes to the mock byte for byte (its ids hash those bytes).
//  - Clock: wall clock, or `step:<ms>` = 0, ms, 2·ms, … per request.
//  - Logs one line per request (method, path, status, bytes) to the log writer; never headers.
//  - Bounded work, so one client never stalls the others for long (the guest answers one
//    request at a time; the CLI runs answerMockRequest in a worker thread, mock_worker.ts, so
//    the server's thread and Ctrl-C are never held by it): the mock's work is linear in the request's items, and a body
//    with more than MAX_MOCK_INPUT_ITEMS items and content parts (nested parts included) gets
//    413 `too_many_items` without reaching the guest. The server's thread counts them from the
//    bytes as they arrive (mock_item_scan.ts, linear, chunk by chunk) and answers such a body
//    right after the chunk that passes the limit, never JSON-parsed (the rest is read and
//    dropped, up to the body limit), so other requests keep being answered meanwhile;
//    answerMockRequest counts again after parsing. Request bodies held in memory at once (being received or
//    answered) stay under a budget, MAX_IN_FLIGHT_BYTES: a body that would pass it gets 503
//    `server_busy` (Retry-After: 1) and the connection is closed. docs/RELIABILITY.md lists both.
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostInputError } from './config.js';
import type { CallResult } from './guest.js';
import { MockItemScanner } from './mock_item_scan.js';

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
  // Chat Completions and Anthropic Messages, each with its cache rules.
  '/v1/chat/completions': { endpoint: 'chat/completions', type: SSE },
  '/chat/completions': { endpoint: 'chat/completions', type: SSE },
  '/v1/messages': { endpoint: 'messages', type: SSE },
  '/messages': { endpoint: 'messages', type: SSE },
};

/** Largest request body accepted (bytes). */
const MAX_BODY = 64 * 1024 * 1024;

/**
 * The most input items plus content parts one request may hold (`input` or `messages`, and every
 * array nested in their entries at any depth: content parts, a tool output's parts, an Anthropic
 * tool_result's blocks). Mirrors kMaxMockInputItems in core/src/mock_model/mock_request.h, which
 * refuses the same bodies inside the guest.
 */
export const MAX_MOCK_INPUT_ITEMS = 65536;

/** The request body bytes all requests together may hold at once (default). */
export const MAX_IN_FLIGHT_BYTES = 256 * 1024 * 1024;

/**
 * Input items plus content parts of a parsed request body, counted as the mock counts them: every
 * element of every array in `input` / `messages`, nested ones included. One visit per value
 * (a stack, no recursion), so the count is linear in the body.
 */
export function mockItemCount(request: unknown): number {
  if (typeof request !== 'object' || request === null) return 0;
  let count = 0;
  const pending: unknown[] = [];
  for (const key of ['input', 'messages']) pending.push((request as Record<string, unknown>)[key]);
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value !== 'object' || value === null) continue;
    if (Array.isArray(value)) {
      count += value.length;
      for (const element of value) if (typeof element === 'object' && element !== null) pending.push(element);
    } else {
      for (const member of Object.values(value)) if (typeof member === 'object' && member !== null) pending.push(member);
    }
  }
  return count;
}

function tooManyItems(items: number | string): string {
  return `request body has ${items} input items and content parts; the mock model answers at most ${MAX_MOCK_INPUT_ITEMS} per request`;
}

/**
 * The models GET /v1/models lists: the slugs the CLI (`mock`) and the playground (`mock-1`)
 * use. The mock answers any model name; these are the ones to pick from a list.
 */
export const MOCK_MODELS = ['mock', 'mock-1'];

/** The member each endpoint's request body must have (the conversation). */
const REQUIRED: Record<string, string> = {
  responses: 'input', 'responses/compact': 'input', 'chat/completions': 'messages', messages: 'messages',
};

/** An error body shaped like the Responses API's. */
export function apiErrorBody(status: number, code: string, message: string, param: string | null = null): string {
  const type = status >= 500 ? 'server_error' : 'invalid_request_error';
  return JSON.stringify({ error: { message, type, param, code } });
}

/** GET /v1/models: OpenAI's list, or Anthropic's (`anthropic`). */
export function modelsBody(anthropic: boolean): string {
  if (anthropic) {
    const data = MOCK_MODELS.map((id) => ({ type: 'model', id, display_name: `agentctx ${id}`, created_at: '1970-01-01T00:00:00Z' }));
    return JSON.stringify({ data, has_more: false, first_id: MOCK_MODELS[0], last_id: MOCK_MODELS.at(-1) });
  }
  return JSON.stringify({ object: 'list', data: MOCK_MODELS.map((id) => ({ id, object: 'model', created: 0, owned_by: 'agentctx' })) });
}

/** The 400 a request without its conversation gets, as each API words it; null when it has one. */
function missingConversation(endpoint: string, request: unknown, anthropic: boolean): string | null {
  const field = REQUIRED[endpoint] as string;
  if (typeof request === 'object' && request !== null && !Array.isArray(request) && (request as Record<string, unknown>)[field] !== undefined) {
    return null;
  }
  if (anthropic) return anthropicErrorBody(400, `${field}: Field required`);
  return apiErrorBody(400, 'missing_required_parameter', `Missing required parameter: '${field}'.`, field);
}

/** An error body shaped like Anthropic's Messages API: {"type":"error","error":{type,message}}. */
export function anthropicErrorBody(status: number, message: string): string {
  const type = status === 404 ? 'not_found_error' : status === 413 ? 'request_too_large'
    : status === 503 ? 'overloaded_error' : status >= 500 ? 'api_error' : 'invalid_request_error';
  return JSON.stringify({ type: 'error', error: { type, message } });
}

/** The guest that answers `mock.respond` (a WasiGuest). */
export interface MockGuest {
  callResult(handle: number, method: string, inputJson: string): CallResult;
}

/** One complete POST body on a route of ROUTES (the path that named it). */
export interface MockRequest {
  path: string;
  body: Uint8Array;
}

/** The HTTP answer to a MockRequest. */
export interface MockAnswer {
  status: number;
  type: string;
  body: string;
}

/** The clock of `--clock`: the `now_ms` of each request that reaches the guest. */
export function mockClockReader(clock: MockClock): () => number {
  let requests = 0;
  return () => (clock.kind === 'wall' ? Date.now() : clock.stepMs * requests++);
}

/**
 * Answers one complete body: parse and check it, then `mock.respond`. Synchronous and
 * CPU-bound (JSON parsing and the guest's work grow with the body), so the CLI runs it in a
 * worker thread (mock_worker.ts) and the server's own thread only moves bytes.
 */
export function answerMockRequest(guest: MockGuest, now: () => number, request: MockRequest): MockAnswer {
  const route = ROUTES[request.path] as { endpoint: string; type: string };
  const anthropic = route.endpoint === 'messages';
  const json = (status: number, body: string): MockAnswer => ({ status, type: 'application/json', body });
  const jsonError = (status: number, code: string, message: string): MockAnswer =>
    json(status, anthropic ? anthropicErrorBody(status, message) : apiErrorBody(status, code, message));
  const bytes = request.body;
  const body = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8');
  let parsedBody: unknown;
  try {
    parsedBody = JSON.parse(body);
  } catch (e) {
    return jsonError(400, 'invalid_json', `request body is not JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (typeof parsedBody !== 'object' || parsedBody === null || Array.isArray(parsedBody)) {
    return jsonError(400, 'invalid_json', 'request body must be a JSON object');
  }
  const missing = missingConversation(route.endpoint, parsedBody, anthropic);
  if (missing !== null) return json(400, missing);
  const items = mockItemCount(parsedBody);
  if (items > MAX_MOCK_INPUT_ITEMS) return jsonError(413, 'too_many_items', tooManyItems(items));
  const input = JSON.stringify({ endpoint: route.endpoint, body, now_ms: now() });
  const { ok, envelope } = guest.callResult(0, 'mock.respond', input);
  const parsed = JSON.parse(envelope) as {
    value?: { body?: string }; error?: { code?: string; message?: string; details?: { limit?: string } };
  };
  if (!ok || typeof parsed.value?.body !== 'string') {
    // The guest's own item limit (the same as MAX_MOCK_INPUT_ITEMS, counted the same way).
    if (parsed.error?.details?.limit !== undefined) {
      return jsonError(413, 'too_many_items', parsed.error.message ?? 'too many items');
    }
    const code = parsed.error?.code ?? 'internal';
    return jsonError(code === 'invalid_json' || code === 'invalid_input' ? 400 : 500, code, parsed.error?.message ?? 'no message');
  }
  const streaming = (parsedBody as { stream?: unknown }).stream === true;
  return { status: 200, type: route.type === SSE && !streaming ? 'application/json' : route.type, body: parsed.value.body };
}

export interface MockServerOptions {
  /** Answers in this thread (tests, embedders); the CLI passes `answer` instead. */
  guest?: MockGuest;
  /** Answers a complete body elsewhere (the CLI's worker thread); wins over `guest`. */
  answer?: (request: MockRequest) => Promise<MockAnswer>;
  port: number;
  clock: MockClock;
  log?: (line: string) => void;
  /** Largest request body (default 64 MiB). */
  maxBodyBytes?: number;
  /** Request body bytes held at once across requests (default MAX_IN_FLIGHT_BYTES). */
  maxInFlightBytes?: number;
}

export interface MockServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function startMockServer(options: MockServerOptions): Promise<MockServer> {
  const now = mockClockReader(options.clock);
  const guest = options.guest;
  const respond = options.answer ?? (async (request: MockRequest): Promise<MockAnswer> => {
    if (guest === undefined) throw new Error('startMockServer needs a guest or an answer function');
    return answerMockRequest(guest, now, request);
  });
  const send = (res: ServerResponse, status: number, type: string, body: string): number => {
    const bytes = Buffer.from(body, 'utf8');
    res.writeHead(status, { 'content-type': type, 'content-length': bytes.length, 'cache-control': 'no-store' });
    res.end(bytes);
    return status;
  };
  const jsonError = (res: ServerResponse, status: number, code: string, message: string, anthropic = false): number =>
    send(res, status, 'application/json', anthropic ? anthropicErrorBody(status, message) : apiErrorBody(status, code, message));
  const maxBody = options.maxBodyBytes ?? MAX_BODY;
  const maxInFlight = options.maxInFlightBytes ?? MAX_IN_FLIGHT_BYTES;
  let inFlight = 0;
  // Refuses a request whose body is still arriving: the rest of it is not read, so the
  // connection cannot carry another request.
  const refuseMidBody = (res: ServerResponse, status: number, code: string, message: string, anthropic: boolean): number => {
    res.setHeader('connection', 'close');
    if (status === 503) res.setHeader('retry-after', '1');
    return jsonError(res, status, code, message, anthropic);
  };

  // Holds the body bytes of one request in the in-flight budget until it is answered.
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<number> => {
    let held = 0;
    const hold = (bytes: number): boolean => {
      if (inFlight + bytes > maxInFlight) return false;
      inFlight += bytes;
      held += bytes;
      return true;
    };
    try {
      return await answer(req, res, hold);
    } finally {
      inFlight -= held;
    }
  };

  const answer = async (req: IncomingMessage, res: ServerResponse, hold: (bytes: number) => boolean): Promise<number> => {
    const path = (req.url ?? '/').split('?')[0] as string;
    if (req.method === 'GET' && (path === '/v1/models' || path === '/models')) {
      return send(res, 200, 'application/json', modelsBody(req.headers['anthropic-version'] !== undefined));
    }
    const route = ROUTES[path];
    if (req.method !== 'POST' || route === undefined) {
      return jsonError(res, 404, 'not_found', `no route for ${req.method ?? '?'} ${path}`);
    }
    const anthropic = route.endpoint === 'messages';
    const chunks: Buffer[] = [];
    const scanner = new MockItemScanner();
    let size = 0;
    // Not destroyed when the loop ends early: a refusal below may still drain the rest.
    for await (const chunk of req.iterator({ destroyOnReturn: false })) {
      const length = (chunk as Buffer).length;
      size += length;
      if (size > maxBody) {
        const status = refuseMidBody(res, 413, 'too_large', `request body over ${maxBody} bytes`, anthropic);
        req.destroy();
        return status;
      }
      if (!hold(length)) {
        const status = refuseMidBody(res, 503, 'server_busy',
          `the mock server is holding ${inFlight} bytes of request bodies and this one would pass its budget of ${maxInFlight} bytes; retry later`,
          anthropic);
        req.destroy();
        return status;
      }
      // Counted as the bytes arrive: a body over the item limit is refused after the chunk
      // that passes it, never parsed here (mock_item_scan.ts says why the count is exact).
      // The answer goes out at once; the rest of the body is read and dropped (neither held
      // nor scanned, still capped at maxBody), so a client still sending gets the answer
      // instead of a reset connection.
      if (scanner.push(chunk as Buffer) > MAX_MOCK_INPUT_ITEMS) {
        const status = jsonError(res, 413, 'too_many_items', tooManyItems(`more than ${MAX_MOCK_INPUT_ITEMS}`), anthropic);
        req.on('error', () => {}); // a client gone mid-body: nothing left to answer
        req.on('data', (rest: Buffer) => {
          size += rest.length;
          if (size > maxBody) req.destroy();
        });
        req.resume();
        return status;
      }
      chunks.push(chunk as Buffer);
    }
    const answered = await respond({ path, body: Buffer.concat(chunks) });
    return send(res, answered.status, answered.type, answered.body);
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
    const onError = (e: NodeJS.ErrnoException): void => {
      if (e.code === 'EADDRINUSE') {
        reject(new HostInputError(`--port ${options.port}: 127.0.0.1:${options.port} is already in use; ` +
          'choose another port with --port N (--port 0 takes any free port)'));
      } else if (e.code === 'EACCES') {
        reject(new HostInputError(`--port ${options.port}: not allowed to listen on 127.0.0.1:${options.port}; choose another port with --port N`));
      } else {
        reject(e);
      }
    };
    server.once('error', onError);
    server.listen(options.port, '127.0.0.1', () => {
      server.off('error', onError);
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

// SPDX-License-Identifier: MIT
// runTurn and the model clients over the built package: a mock turn with a built-in tool call,
// streaming deltas, persist order, retry with backoff (fail-once, exhausted, non-retryable),
// host tool calls (scripted model), aborts, and openAIResponsesClient, chatCompletionsClient and
// anthropicMessagesClient against a fake fetch whose server is the engine's own mock
// (SSE split mid-character, HTTP and network errors).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import {
  ANTHROPIC_VERSION, AgentctxError, anthropicMessagesClient, chatCompletionsClient, createEngine, createMemoryFileSystem,
  mockModelClient, openAIResponsesClient, retryDelayMs, runTurn,
} from 'agentctx';

const FILES = {
  '/repo/.git/HEAD': 'ref: refs/heads/main\n',
  '/repo/AGENTS.md': 'reply prefix: [ok]\n',
  '/repo/src/main.rs': 'fn main() {\n    println!("hi");\n}\n',
};

function config(extra = {}) {
  return {
    session_id: 's-driver',
    model: { slug: 'mock-1' },
    environments: [{ id: 'local', cwd: '/repo', shell: 'bash', fs: 'workspace' }],
    ...extra,
  };
}

async function open(extra) {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem(FILES) });
  session.call('session.start', { config: config(extra), now_ms: 0 });
  return { engine, session };
}

let clock = 1000;
const now = () => (clock += 10);

test('a mock turn runs a built-in tool call and answers, streaming text and persisting in order', async () => {
  const { engine, session } = await open();
  const events = [];
  const lines = [];
  const requests = [];
  const result = await runTurn(session, {
    input: 'Please read src/main.rs.',
    model: mockModelClient(engine, { now }),
    now,
    onEvent: (e) => events.push(e),
    onPersist: async (l) => { lines.push(...l); },
    onEffect: (e) => { if (e.type === 'model_request') requests.push(e); },
  });
  assert.equal(result.reason, 'completed');
  assert.equal(result.turn_id, 'turn-1');
  assert.equal(result.last_agent_message, '[ok] Read src/main.rs: 3 lines.');
  assert.equal(result.requests, 2);
  assert.deepEqual(result.errors, []);
  assert.deepEqual(requests.map((r) => [r.id, r.attempt, r.endpoint]), [['req-1', 1, 'responses'], ['req-2', 1, 'responses']]);
  // The second request extends the first byte for byte (prefix stability).
  const input1 = requests[0].bodyText.slice(0, requests[0].bodyText.indexOf('],"tools":'));
  assert.ok(requests[1].bodyText.startsWith(input1));

  const call = events.find((e) => e.type === 'item_done' && e.item.type === 'function_call');
  assert.equal(call.item.name, 'read_file');
  assert.equal(JSON.parse(call.item.arguments).path, 'src/main.rs');
  const output = events.find((e) => e.type === 'item_done' && e.item.type === 'function_call_output');
  assert.equal(output.item.output, 'L1: fn main() {\nL2:     println!("hi");\nL3: }');
  const deltas = events.filter((e) => e.type === 'text_delta' && e.request_id === 'req-2').map((e) => e.delta).join('');
  assert.equal(deltas, result.last_agent_message);
  assert.equal(events.filter((e) => e.type === 'cache_report').length, 2);
  assert.equal(events.filter((e) => e.type === 'token_usage').length, 2);

  const types = lines.map((l) => { const j = JSON.parse(l); return j.type === 'event_msg' ? j.payload.type : j.type; });
  assert.equal(types[0], 'task_started');
  assert.equal(types.at(-1), 'task_complete');
  assert.ok(types.indexOf('world_state') < types.indexOf('user_message'));
  session.close();
  engine.dispose();
});

test('a retryable failure is retried after a backoff of at least retry_after_ms', async () => {
  const { engine, session } = await open();
  const waits = [];
  const requests = [];
  const result = await runTurn(session, {
    input: 'hello #mock-fail-once:rate_limit_exceeded',
    model: mockModelClient(engine, { now }),
    now,
    retry: { sleep: async (ms) => { waits.push(ms); }, random: () => 0 },
    onEffect: (e) => { if (e.type === 'model_request') requests.push([e.id, e.attempt]); },
  });
  assert.equal(result.reason, 'completed');
  assert.equal(result.errors.length, 1);
  assert.equal(result.errors[0].code, 'rate_limited');
  assert.equal(result.errors[0].retryable, true);
  assert.equal(result.errors[0].retry_after_ms, 1000);
  assert.deepEqual(waits, [1000]);
  assert.deepEqual(requests, [['req-1', 1], ['req-1', 2]]);
  assert.equal(result.requests, 2);
  engine.dispose();
});

test('retries are bounded: the turn is interrupted after maxRetries', async () => {
  const { engine, session } = await open();
  const waits = [];
  const result = await runTurn(session, {
    input: 'hello #mock-fail:server_is_overloaded',
    model: mockModelClient(engine, { now }),
    now,
    retry: { maxRetries: 2, baseDelayMs: 10, random: () => 0.5, sleep: async (ms) => { waits.push(ms); } },
  });
  assert.equal(result.reason, 'interrupted');
  assert.equal(result.errors.length, 3);
  assert.ok(result.errors.every((e) => e.code === 'server_overloaded'));
  assert.equal(waits.length, 2);
  // The session is idle again and accepts the next turn.
  const next = await runTurn(session, { input: 'hello again', model: mockModelClient(engine, { now }), now });
  assert.equal(next.reason, 'completed');
  engine.dispose();
});

test('a non-retryable failure ends the turn as failed without waiting', async () => {
  const { engine, session } = await open();
  const result = await runTurn(session, {
    input: 'hello #mock-fail:context_length_exceeded',
    model: mockModelClient(engine, { now }),
    now,
    retry: { sleep: async () => assert.fail('no retry for a non-retryable error') },
  });
  assert.equal(result.reason, 'failed');
  assert.deepEqual(result.errors.map((e) => [e.code, e.retryable]), [['context_window_exceeded', false]]);
  engine.dispose();
});

for (const strategy of ['local', 'remote']) {
  test(`a manual ${strategy} compaction is driven by runTurn from the effects of compact`, async () => {
    const { engine, session } = await open({ compaction: { strategy } });
    await runTurn(session, { input: 'Please read src/main.rs.', model: mockModelClient(engine, { now }), now });
    const { effects } = session.call('compact', { now_ms: now() });
    const events = [];
    const requests = [];
    const result = await runTurn(session, {
      effects,
      model: mockModelClient(engine, { now }),
      now,
      onEvent: (e) => events.push(e),
      onEffect: (e) => { if (e.type === 'model_request') requests.push([e.purpose, e.endpoint]); },
    });
    assert.equal(result.reason, 'completed');
    assert.equal(result.requests, 1);
    assert.deepEqual(requests, [['compact', strategy === 'local' ? 'responses' : 'responses/compact']]);
    const phases = events.filter((e) => e.type === 'compaction').map((e) => [e.phase, e.trigger, e.strategy]);
    assert.deepEqual(phases, [['started', 'manual', strategy], ['completed', 'manual', strategy]]);
    const history = session.call('history');
    assert.ok(history.every((h) => h.origin === 'compaction'), JSON.stringify(history.map((h) => h.origin)));
    const next = await runTurn(session, { input: 'and now?', model: mockModelClient(engine, { now }), now });
    assert.equal(next.last_agent_message, '[ok] Mock reply to: and now?');
    engine.dispose();
  });
}

test('retryDelayMs: exponential with jitter, capped, never below retry_after_ms', () => {
  const half = { random: () => 0.5, baseDelayMs: 100, maxDelayMs: 1000 };
  assert.equal(retryDelayMs(1, {}, half), 75);
  assert.equal(retryDelayMs(2, {}, half), 150);
  assert.equal(retryDelayMs(10, {}, half), 750);
  assert.equal(retryDelayMs(1, { retry_after_ms: 5000 }, half), 5000);
  assert.equal(retryDelayMs(1, {}, { random: () => 0, baseDelayMs: 500 }), 250);
});

// A scripted model: the first request calls two host tools, the second answers.
function sse(events) {
  return events.map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');
}
const scripted = {
  async *send(request) {
    const body = JSON.parse(request.bodyText);
    const outputs = body.input.filter((i) => i.type === 'function_call_output');
    const items = outputs.length === 0
      ? [
        { type: 'function_call', id: 'fc_1', name: 'mcp__tracker__lookup', arguments: '{"n":1}', call_id: 'call_a' },
        { type: 'function_call', id: 'fc_2', name: 'mcp__tracker__fail', arguments: '{}', call_id: 'call_b' },
      ]
      : [{ type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: `saw ${outputs.length} outputs` }] }];
    yield {
      type: 'model_events', request_id: request.id, sse: sse([
        ...items.map((item, i) => ({ type: 'response.output_item.done', output_index: i, item })),
        { type: 'response.completed', response: { id: 'resp_1', usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12 } } },
      ]),
    };
    yield { type: 'model_events', request_id: request.id, end: true };
  },
};

test('host tool calls run concurrently; outputs are recorded in call order; a throwing handler becomes text', async () => {
  const tools = [{ server: 'tracker', name: 'lookup' }, { server: 'tracker', name: 'fail' }];
  const { engine, session } = await open({ tools });
  const seen = [];
  const result = await runTurn(session, {
    input: 'look it up',
    model: scripted,
    now,
    tools: async (call) => {
      seen.push([call.name, call.server, call.tool, call.arguments]);
      if (call.tool === 'fail') throw new Error('boom');
      await new Promise((r) => setTimeout(r, 20)); // finishes after the failing one
      return [{ type: 'input_text', text: 'issue 1' }];
    },
  });
  assert.equal(result.reason, 'completed');
  assert.equal(result.last_agent_message, 'saw 2 outputs');
  assert.deepEqual(seen, [['mcp__tracker__lookup', 'tracker', 'lookup', '{"n":1}'], ['mcp__tracker__fail', 'tracker', 'fail', '{}']]);
  const outputs = session.call('history').filter((h) => h.item.type === 'function_call_output').map((h) => [h.item.call_id, h.item.output]);
  assert.deepEqual(outputs, [['call_a', [{ type: 'input_text', text: 'issue 1' }]], ['call_b', 'tool mcp__tracker__fail failed: boom']]);
  engine.dispose();
});

test('without a tool handler, host calls get a "no handler" output and the turn still ends', async () => {
  const { engine, session } = await open({ tools: [{ server: 'tracker', name: 'lookup' }, { server: 'tracker', name: 'fail' }] });
  const result = await runTurn(session, { input: 'x', model: scripted, now });
  assert.equal(result.reason, 'completed');
  const outputs = session.call('history').filter((h) => h.item.type === 'function_call_output').map((h) => h.item.output);
  assert.deepEqual(outputs, ['no handler for tool mcp__tracker__lookup in this host', 'no handler for tool mcp__tracker__fail in this host']);
  engine.dispose();
});

test('aborting the signal interrupts the turn', async () => {
  const { engine, session } = await open();
  const controller = new AbortController();
  const result = await runTurn(session, {
    input: 'hello there',
    model: mockModelClient(engine, { now, eventDelayMs: 5 }),
    now,
    signal: controller.signal,
    onEvent: (e) => { if (e.type === 'text_delta') controller.abort(); },
  });
  assert.equal(result.reason, 'interrupted');
  assert.equal(session.call('history').filter((h) => h.origin === 'model').length, 0);
  engine.dispose();
});

test('runTurn reports a rejected submit as AgentctxError', async () => {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem(FILES) });
  await assert.rejects(runTurn(session, { input: 'x', model: mockModelClient(engine) }), { code: 'invalid_state' });
  session.call('session.start', { config: config(), now_ms: 0 });
  await assert.rejects(runTurn(session, { model: mockModelClient(engine) }), (e) => e instanceof AgentctxError && e.code === 'invalid_state');
  engine.dispose();
});

// A fake fetch whose server is the engine's mock.respond; the answer is streamed in `chunk`-byte
// pieces (so UTF-8 characters and SSE lines are split), after the scripted failures.
function fakeFetch(engine, { chunk = 7, failures = [] } = {}) {
  const calls = [];
  const fetch = async (url, init) => {
    calls.push({ url, init });
    const failure = failures.shift();
    if (failure === 'network') throw new TypeError('fetch failed');
    if (failure !== undefined) return new Response(failure.body, { status: failure.status, headers: failure.headers });
    const endpoint = ['responses/compact', 'chat/completions', 'messages'].find((e) => url.endsWith(`/${e}`)) ?? 'responses';
    const { body } = engine.call('mock.respond', { endpoint, body: init.body, now_ms: 0 });
    const bytes = new TextEncoder().encode(body);
    let offset = 0;
    const stream = new ReadableStream({
      pull(controller) {
        if (offset >= bytes.length) { controller.close(); return; }
        controller.enqueue(bytes.slice(offset, offset + chunk));
        offset += chunk;
      },
    });
    return new Response(stream, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  return { fetch, calls };
}

test('openAIResponsesClient POSTs the body unchanged and streams SSE split anywhere', async () => {
  const files = { ...FILES, '/repo/AGENTS.md': 'reply prefix: [ok] ünïcödé ✓\n' };
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem(files) });
  session.call('session.start', { config: config(), now_ms: 0 });
  const { fetch, calls } = fakeFetch(engine, { chunk: 5 });
  const bodies = [];
  const result = await runTurn(session, {
    input: 'Please read src/main.rs.',
    model: openAIResponsesClient({ apiKey: 'sk-test', baseUrl: 'https://example.invalid/v1/', fetch, headers: { 'X-Extra': '1' } }),
    now,
    onEffect: (e) => { if (e.type === 'model_request') bodies.push(e.body); },
  });
  assert.equal(result.reason, 'completed');
  assert.equal(result.last_agent_message, '[ok] ünïcödé ✓ Read src/main.rs: 3 lines.');
  assert.equal(calls.length, 2);
  assert.equal(calls[0].url, 'https://example.invalid/v1/responses');
  assert.equal(calls[0].init.method, 'POST');
  assert.equal(calls[0].init.headers.Authorization, 'Bearer sk-test');
  assert.equal(calls[0].init.headers.Accept, 'text/event-stream');
  assert.equal(calls[0].init.headers['X-Extra'], '1');
  assert.deepEqual(calls.map((c) => c.init.body), bodies);
  engine.dispose();
});

test('openAIResponsesClient: 429 and network errors are retried, 401 fails the turn', async () => {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem(FILES) });
  session.call('session.start', { config: config(), now_ms: 0 });
  const { fetch } = fakeFetch(engine, {
    failures: [
      { status: 429, body: '{"error":{"code":"rate_limit_exceeded","message":"Rate limit reached. Please try again in 20ms."}}' },
      'network',
      { status: 503, body: 'upstream down', headers: { 'retry-after': '2' } },
    ],
  });
  const waits = [];
  const result = await runTurn(session, {
    input: 'hello',
    model: openAIResponsesClient({ apiKey: 'k', fetch }),
    now,
    retry: { sleep: async (ms) => { waits.push(ms); }, random: () => 0, baseDelayMs: 1 },
  });
  assert.equal(result.reason, 'completed');
  assert.deepEqual(result.errors.map((e) => [e.code, e.retryable]), [['rate_limited', true], ['http_error', true], ['http_error', true]]);
  assert.equal(result.errors[0].retry_after_ms, 20);
  assert.equal(result.errors[2].retry_after_ms, 2000);
  assert.deepEqual(waits, [20, 1, 2000]);

  const denied = fakeFetch(engine, { failures: [{ status: 401, body: '{"error":{"message":"bad key"}}' }] });
  const failed = await runTurn(session, {
    input: 'again', model: openAIResponsesClient({ apiKey: 'k', fetch: denied.fetch }), now,
    retry: { sleep: async () => assert.fail('401 is not retried') },
  });
  assert.equal(failed.reason, 'failed');
  assert.equal(failed.errors[0].code, 'unauthorized');
  assert.throws(() => openAIResponsesClient({ apiKey: '' }), { code: 'invalid_input' });
  engine.dispose();
});

test('createMemoryFileSystem().remove deletes files and directories', () => {
  const fs = createMemoryFileSystem({ '/a/b.txt': 'b', '/a/c/d.txt': 'd', '/e.txt': 'e' });
  assert.equal(fs.remove('/a/c'), true);
  assert.deepEqual(fs.paths(), ['/a/b.txt', '/e.txt']);
  assert.equal(fs.stat('/a/c/d.txt').code, 'not_found');
  assert.equal(fs.remove('/e.txt'), true);
  assert.equal(fs.remove('/e.txt'), false);
  assert.equal(fs.remove('/'), false);
  assert.equal(fs.remove('a/b.txt'), false);
  assert.deepEqual(fs.paths(), ['/a/b.txt']);
});

// A rejected deliver must not leave the turn open (the session stays usable).
test('Regression: runTurn interrupts the turn when deliver throws', async () => {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem(FILES) });
  session.call('session.start', { config: config(), now_ms: 0 });
  const broken = {
    async *send(request) {
      // A JS string split inside an emoji: a lone surrogate, which is not valid JSON text.
      yield { type: 'model_events', request_id: request.id, sse: 'data: {"type":"response.created"}\n\n\ud83d' };
    },
  };
  await assert.rejects(runTurn(session, { input: 'x', model: broken, now }), (e) => e instanceof AgentctxError);
  // The turn was interrupted: a new one can start and complete.
  const again = await runTurn(session, { input: 'again', model: mockModelClient(engine), now });
  assert.equal(again.reason, 'completed');
  engine.dispose();
});

test('raw SSE bytes may split a character anywhere', async () => {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem({ ...FILES, '/repo/AGENTS.md': 'reply prefix: [ok] 😀\n' }) });
  session.call('session.start', { config: config(), now_ms: 0 });
  const byteChunks = {
    async *send(request) {
      const { body } = engine.call('mock.respond', { endpoint: 'responses', body: request.body, now_ms: 0 });
      const bytes = new TextEncoder().encode(body);
      for (let i = 0; i < bytes.length; i += 3) yield { type: 'model_events', request_id: request.id, sse: bytes.slice(i, i + 3) };
      yield { type: 'model_events', request_id: request.id, end: true };
    },
  };
  const result = await runTurn(session, { input: 'hello', model: byteChunks, now });
  assert.equal(result.reason, 'completed');
  assert.match(result.last_agent_message, /😀/);
  engine.dispose();
});

for (const [provider, make, endpoint] of [
  ['chat', chatCompletionsClient, 'chat/completions'],
  ['anthropic', anthropicMessagesClient, 'messages'],
]) {
  test(`${make.name} runs a ${provider} session's tool turn over fetch with its headers`, async () => {
    const engine = await createEngine();
    const session = engine.openSession({ workspace: createMemoryFileSystem(FILES) });
    session.call('session.start', { config: config({ provider }), now_ms: 0 });
    const { fetch, calls } = fakeFetch(engine, { chunk: 5 });
    const bodies = [];
    const usage = [];
    const result = await runTurn(session, {
      input: 'Please read src/main.rs.',
      model: make({ apiKey: 'sk-test-provider', baseUrl: 'https://example.invalid/v1', fetch }),
      now,
      onEffect: (e) => { if (e.type === 'model_request') bodies.push(e.body); },
      onEvent: (e) => { if (e.type === 'token_usage') usage.push(e); },
    });
    assert.equal(result.reason, 'completed');
    assert.equal(result.last_agent_message, '[ok] Read src/main.rs: 3 lines.');
    assert.deepEqual(calls.map((c) => c.url), [`https://example.invalid/v1/${endpoint}`, `https://example.invalid/v1/${endpoint}`]);
    assert.deepEqual(calls.map((c) => c.init.body), bodies);
    const headers = calls[0].init.headers;
    assert.equal(headers.Accept, 'text/event-stream');
    if (provider === 'anthropic') {
      assert.equal(headers['x-api-key'], 'sk-test-provider');
      assert.equal(headers['anthropic-version'], ANTHROPIC_VERSION);
      assert.equal(headers.Authorization, undefined);
    } else {
      assert.equal(headers.Authorization, 'Bearer sk-test-provider');
    }
    assert.equal(usage.length, 2);
    assert.ok(usage.every((u) => u.input_tokens > 0));
    // cache_summary {prices}: the cost by the provider's cache rule.
    const { cost } = session.call('cache_summary', { prices: { input: 3, cached_input: 0.5, output: 15 } });
    const sum = (k) => usage.reduce((a, u) => a + (u[k] ?? 0), 0);
    const [input, cached, writes, output] = ['input_tokens', 'cached_tokens', 'cache_creation_tokens', 'output_tokens'].map(sum);
    assert.deepEqual(cost.reported, {
      ...cost.reported, input_tokens: input, cached_tokens: cached, cache_write_tokens: writes, output_tokens: output,
    });
    const expected = provider === 'anthropic'
      ? (input - cached - writes) * 3 + cached * 0.5 + writes * 3.75 + output * 15  // an explicit cached price wins
      : (input - cached) * 3 + cached * 0.5 + output * 15;
    assert.equal(cost.pricing, provider === 'anthropic' ? 'anthropic' : 'openai');
    assert.ok(Math.abs(cost.reported.total_usd - expected / 1e6) < 1e-12, `${cost.reported.total_usd} vs ${expected / 1e6}`);
    if (provider === 'anthropic') assert.ok(writes > 0);
    engine.dispose();
  });
}

test('anthropicMessagesClient: a 529 overloaded answer is retried, the key never shows', async () => {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem(FILES) });
  session.call('session.start', { config: config({ provider: 'anthropic' }), now_ms: 0 });
  const { fetch } = fakeFetch(engine, {
    failures: [{ status: 529, body: '{"type":"error","error":{"type":"overloaded_error","message":"Overloaded sk-ant-secret"}}' }],
  });
  const errors = [];
  const result = await runTurn(session, {
    input: 'hello', now, retry: { sleep: async () => {}, random: () => 0, baseDelayMs: 1 },
    model: anthropicMessagesClient({ apiKey: 'sk-ant-secret', baseUrl: 'https://example.invalid/v1', fetch }),
    onEffect: (e) => { if (e.type === 'error') errors.push(e); },
  });
  assert.equal(result.reason, 'completed');
  assert.equal(errors.length, 1);
  assert.equal(errors[0].code, 'server_overloaded');
  assert.equal(errors[0].retryable, true);
  assert.ok(!JSON.stringify(errors).includes('sk-ant-secret'));
  assert.throws(() => anthropicMessagesClient({}), (e) => e instanceof AgentctxError && /anthropicMessagesClient needs an apiKey/.test(e.message));
  engine.dispose();
});

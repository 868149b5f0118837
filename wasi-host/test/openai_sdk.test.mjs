// SPDX-License-Identifier: MIT
// `agentctx serve-mock` as a faithful Responses server: the official `openai` SDK
// (a devDependency) talks to it on 127.0.0.1 like to the real API — `responses.create` with and
// without streaming, `responses.stream().finalResponse()`, string input, host tools the mock
// calls, and API-shaped errors the SDK turns into its typed exceptions.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import OpenAI from 'openai';
import { loadHost, startServeMock } from './helpers.mjs';

await loadHost();

let child;
let client;
before(async () => {
  let baseURL;
  ({ child, baseURL } = await startServeMock());
  client = new OpenAI({ apiKey: 'sk-test-mock', baseURL, maxRetries: 0 });
});
after(() => child?.kill('SIGTERM'));

const LOOKUP = { type: 'function', name: 'lookup', description: 'Looks a word up.', parameters: { type: 'object', properties: { q: { type: 'string' } } } };

test('responses.create without streaming answers one full response object', async () => {
  const r = await client.responses.create({ model: 'mock-1', input: 'Say hello' });
  assert.match(r.id, /^resp_[0-9a-f]{12}$/);
  assert.equal(r.object, 'response');
  assert.equal(r.status, 'completed');
  assert.equal(r.model, 'mock-1');
  assert.equal(typeof r.created_at, 'number');
  assert.deepEqual(r.output.map((i) => i.type), ['reasoning', 'message']);
  assert.equal(r.output_text, 'Mock reply to: Say hello');
  assert.ok(r.usage.input_tokens > 0);
  assert.equal(r.usage.total_tokens, r.usage.input_tokens + r.usage.output_tokens);
  assert.equal(r.usage.input_tokens_details.cached_tokens, 0);
});

test('responses.create with stream:true yields numbered events ending in a full response', async () => {
  const stream = await client.responses.create({ model: 'mock-1', input: [{ role: 'user', content: 'Stream please' }], stream: true });
  const events = [];
  for await (const event of stream) events.push(event);
  assert.deepEqual(events.map((e) => e.sequence_number), events.map((_, i) => i));
  assert.deepEqual(events.slice(0, 2).map((e) => e.type), ['response.created', 'response.in_progress']);
  assert.equal(events[0].response.status, 'in_progress');
  assert.deepEqual(events[0].response.output, []);
  const last = events.at(-1);
  assert.equal(last.type, 'response.completed');
  assert.equal(last.response.status, 'completed');
  assert.equal(last.response.output.at(-1).content[0].text, 'Mock reply to: Stream please');
  const text = events.filter((e) => e.type === 'response.output_text.delta').map((e) => e.delta).join('');
  assert.equal(text, 'Mock reply to: Stream please');
});

test('responses.stream().finalResponse() accumulates the same response', async () => {
  const stream = client.responses.stream({ model: 'mock-1', input: 'Accumulate this' });
  let deltas = '';
  stream.on('response.output_text.delta', (e) => { deltas += e.delta; });
  const final = await stream.finalResponse();
  assert.equal(final.status, 'completed');
  assert.equal(final.output_text, 'Mock reply to: Accumulate this');
  assert.equal(deltas, final.output_text);
  assert.equal(final.output[0].summary[0].text, 'Mock plan: reply');
});

test('the mock calls a host tool, then summarises its output', async () => {
  const first = await client.responses.create({ model: 'mock-1', input: '#mock-call:lookup={"q":"cache"}', tools: [LOOKUP] });
  const call = first.output.find((i) => i.type === 'function_call');
  assert.equal(call.name, 'lookup');
  assert.deepEqual(JSON.parse(call.arguments), { q: 'cache' });
  const second = await client.responses.create({
    model: 'mock-1', tools: [LOOKUP],
    input: ['#mock-call:lookup={"q":"cache"}', call, { type: 'function_call_output', call_id: call.call_id, output: 'a stored copy' }]
      .map((i) => (typeof i === 'string' ? { role: 'user', content: i } : i)),
  });
  assert.equal(second.output_text, 'lookup returned 13 bytes.');
});

test('errors have the API shape and become the SDK\'s typed errors', async () => {
  await assert.rejects(client.responses.create({ model: 'mock-1', input: 5 }), (e) => {
    assert.ok(e instanceof OpenAI.BadRequestError, String(e));
    assert.equal(e.status, 400);
    assert.equal(e.code, 'invalid_input');
    assert.equal(e.type, 'invalid_request_error');
    return true;
  });
  const failed = await client.responses.create({ model: 'mock-1', input: '#mock-fail:server_error' });
  assert.equal(failed.status, 'failed');
  assert.equal(failed.error.code, 'server_error');
});

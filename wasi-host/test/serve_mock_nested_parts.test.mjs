// SPDX-License-Identifier: MIT
// serve-mock and content parts nested inside tool outputs: 1.5 million parts inside a Responses
// `function_call_output.output` or an Anthropic `tool_result.content` once went uncounted and
// held the server for minutes (and every request queued behind them). Every part counts against
// the item limit, nested ones included, so such a body gets 413 `too_many_items` naming its
// count without reaching the guest, and the next one-word request is answered as usual.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DIST, loadHost } from './helpers.mjs';

const { WasiGuest } = await loadHost();
const { MAX_MOCK_INPUT_ITEMS, mockItemCount, startMockServer } = await import(join(DIST, 'serve_mock.js'));

const PARTS = 1_500_000;

function responsesBody(parts) {
  const output = `[${new Array(parts).fill('{"type":"input_text","text":"x"}').join(',')}]`;
  return `{"model":"m","input":[{"role":"user","content":"go"},` +
    `{"type":"function_call","name":"read_file","arguments":"{}","call_id":"c1"},` +
    `{"type":"function_call_output","call_id":"c1","output":${output}}]}`;
}

function messagesBody(parts) {
  const content = `[${new Array(parts).fill('{"type":"text","text":"x"}').join(',')}]`;
  return `{"model":"m","max_tokens":5,"messages":[{"role":"user","content":"go"},` +
    `{"role":"assistant","content":[{"type":"tool_use","id":"c1","name":"read_file","input":{}}]},` +
    `{"role":"user","content":[{"type":"tool_result","tool_use_id":"c1","content":${content}}]}]}`;
}

test('mockItemCount counts the parts nested at any depth', () => {
  assert.equal(mockItemCount(JSON.parse(responsesBody(10))), 3 + 10);
  assert.equal(mockItemCount(JSON.parse(messagesBody(10))), 3 + 1 + 1 + 10);
  assert.equal(mockItemCount({ input: 'a string' }), 0);
  assert.equal(mockItemCount({ messages: [{ content: [[[1, 2], 3]] }] }), 1 + 1 + 2 + 2);
});

describe('serve-mock with parts nested in tool outputs', () => {
  let server;
  let base;
  before(async () => {
    const guest = await WasiGuest.load();
    server = await startMockServer({ guest, port: 0, clock: { kind: 'step', stepMs: 1000 } });
    base = server.url;
  });
  after(() => server.close());

  for (const [path, body, items, shape] of [
    ['/responses', responsesBody(PARTS), 3 + PARTS, 'openai'],
    ['/messages', messagesBody(PARTS), 5 + PARTS, 'anthropic'],
  ]) {
    test(`Regression ${PARTS} parts inside a tool output on ${path} get 413, and a one-word request is answered next`, async () => {
      const refused = await fetch(`${base}${path}`, { method: 'POST', body });
      assert.equal(refused.status, 413);
      const message = `request body has ${items} input items and content parts; the mock model answers at most ${MAX_MOCK_INPUT_ITEMS} per request`;
      const answer = await refused.json();
      if (shape === 'anthropic') assert.deepEqual(answer, { type: 'error', error: { type: 'request_too_large', message } });
      else assert.deepEqual(answer.error, { message, type: 'invalid_request_error', param: null, code: 'too_many_items' });
      const ok = await fetch(`${base}/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', input: 'hi' }) });
      assert.equal(ok.status, 200);
    }, { timeout: 120000 });
  }
});

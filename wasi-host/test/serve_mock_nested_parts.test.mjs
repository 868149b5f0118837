// SPDX-License-Identifier: MIT
// serve-mock and content parts nested inside tool outputs: 1.5 million parts inside a Responses
// `function_call_output.output` or an Anthropic `tool_result.content` once went uncounted and
// held the server for minutes (and every request queued behind them). Every part counts against
// the item limit, nested ones included, so such a body gets 413 `too_many_items` naming its
// count without reaching the guest, and the next one-word request is answered as usual.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { DIST, loadHost, startServeMock } from './helpers.mjs';
import { hostileWithOneWordRequests, nestedPartsMessagesBody, nestedPartsResponsesBody } from '../../tests/stress/serve_mock_flight.mjs';

const { WasiGuest } = await loadHost();
const { MAX_MOCK_INPUT_ITEMS, mockItemCount, startMockServer } = await import(join(DIST, 'serve_mock.js'));
const { MockItemScanner } = await import(join(DIST, 'mock_item_scan.js'));

const PARTS = 1_500_000;

const responsesBody = nestedPartsResponsesBody;
const messagesBody = nestedPartsMessagesBody;

test('mockItemCount counts the parts nested at any depth', () => {
  assert.equal(mockItemCount(JSON.parse(responsesBody(10))), 3 + 10);
  assert.equal(mockItemCount(JSON.parse(messagesBody(10))), 3 + 1 + 1 + 10);
  assert.equal(mockItemCount({ input: 'a string' }), 0);
  assert.equal(mockItemCount({ messages: [{ content: [[[1, 2], 3]] }] }), 1 + 1 + 2 + 2);
});

test('the scanner counts from raw chunks what mockItemCount counts after parsing', () => {
  // Seeded random bodies: strings holding brackets, commas, quotes and escapes, UTF-8, keys
  // written with \u escapes, `input` / `messages` at other depths, split at random byte offsets.
  let seed = 7;
  const random = (n) => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed % n;
  };
  const strings = ['x', '[,{', '"\\"],', '\\', 'é[', '\u2028', 'input', 'a]\\u005d'];
  const value = (depth) => {
    const kind = random(depth > 4 ? 3 : 6);
    if (kind === 0) return strings[random(strings.length)];
    if (kind === 1) return random(100) - 50;
    if (kind === 2) return [true, false, null][random(3)];
    if (kind <= 4) return Array.from({ length: random(5) }, () => value(depth + 1));
    const object = {};
    for (let i = random(4); i > 0; i--) object[['input', 'messages', 'a', '[', 'content'][random(5)]] = value(depth + 1);
    return object;
  };
  let total = 0;
  for (let trial = 0; trial < 5000; trial++) {
    const body = {};
    for (let i = random(4); i >= 0; i--) body[['input', 'messages', 'model', 'tools', 'inputs'][random(5)]] = value(0);
    let text = JSON.stringify(body, null, random(2) ? 0 : 1);
    if (random(4) === 0) text = text.replace('"input"', '"\\u0069nput"').replace('"messages"', '"mess\\u0061ges"');
    const bytes = Buffer.from(text, 'utf8');
    const scanner = new MockItemScanner();
    for (let at = 0; at < bytes.length;) {
      const next = at + 1 + random(7);
      scanner.push(bytes.subarray(at, next));
      at = next;
    }
    const expected = mockItemCount(JSON.parse(text));
    assert.equal(scanner.count, expected, text);
    total += expected;
  }
  assert.ok(total > 1000, 'the bodies hold items');
  // A repeated `input` counts every copy (JSON.parse keeps the last, so the scanner is above).
  const repeated = new MockItemScanner();
  repeated.push(Buffer.from('{"input":[1,2,3],"input":"hi","messages":[[]]}'));
  assert.equal(repeated.count, 4);
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

  for (const [path, body, shape] of [
    ['/responses', responsesBody(PARTS), 'openai'],
    ['/messages', messagesBody(PARTS), 'anthropic'],
  ]) {
    test(`Regression ${PARTS} parts inside a tool output on ${path} get 413, and a one-word request is answered next`, async () => {
      const refused = await fetch(`${base}${path}`, { method: 'POST', body });
      assert.equal(refused.status, 413);
      // Refused as the bytes arrive, once the count passes the limit: the rest is never read.
      const message = `request body has more than ${MAX_MOCK_INPUT_ITEMS} input items and content parts; the mock model answers at most ${MAX_MOCK_INPUT_ITEMS} per request`;
      const answer = await refused.json();
      if (shape === 'anthropic') assert.deepEqual(answer, { type: 'error', error: { type: 'request_too_large', message } });
      else assert.deepEqual(answer.error, { message, type: 'invalid_request_error', param: null, code: 'too_many_items' });
      const ok = await fetch(`${base}/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', input: 'hi' }) });
      assert.equal(ok.status, 200);
    }, { timeout: 120000 });
  }
});

// The CLI's server (its guest in a worker thread) while such a body is in flight: it is refused
// before the server has read it all (a JSON.parse of the whole body held the answering thread
// for seconds, and requests sent meanwhile waited behind it), and one-word requests sent back to
// back meanwhile are all answered. The strict 1 s bound is `npm run stress`'s (hostile_cases.mjs).
describe('serve-mock (CLI) while a body of nested parts is in flight', () => {
  let child;
  let baseURL;
  before(async () => {
    ({ child, baseURL } = await startServeMock());
  });
  after(() => child.kill('SIGTERM'));

  for (const [path, body, shape] of [
    ['/responses', responsesBody(PARTS), 'openai'],
    ['/messages', messagesBody(PARTS), 'anthropic'],
  ]) {
    test(`Regression ${PARTS} nested parts on ${path} are refused mid-body while one-word requests are answered`, async () => {
      const { hostile, oneWord, maxOneWordMs } = await hostileWithOneWordRequests(baseURL, path, body);
      assert.equal(hostile.status, 413, hostile.text);
      const error = JSON.parse(hostile.text).error;
      assert.equal(shape === 'anthropic' ? error.type : error.code, shape === 'anthropic' ? 'request_too_large' : 'too_many_items');
      assert.ok(hostile.writtenAtResponse < hostile.bodyBytes,
        `answered after ${hostile.writtenAtResponse} of ${hostile.bodyBytes} bytes: the whole body was read`);
      assert.ok(oneWord.length >= 1);
      assert.deepEqual(oneWord.filter((r) => r.status !== 200), []);
      assert.ok(maxOneWordMs < 5000, `a one-word request waited ${maxOneWordMs} ms`);
    }, { timeout: 120000 });
  }
});

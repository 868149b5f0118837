// SPDX-License-Identifier: MIT
// serve-mock under large requests: 24 000 call/output pairs are answered (the mock's work is
// linear; timing is measured by the stress suite, not asserted here), a body over the item
// limit gets 413 in the provider's error shape saying why, and request bodies held at once
// stay under the in-flight budget (503 past it) while other clients are still answered.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { DIST, loadHost } from './helpers.mjs';

const { WasiGuest } = await loadHost();
const { MAX_MOCK_INPUT_ITEMS, startMockServer } = await import(join(DIST, 'serve_mock.js'));

function pairsBody(pairs) {
  const input = [{ role: 'user', content: 'read them all' }];
  for (let i = 0; i < pairs; i++) {
    input.push({ type: 'function_call', name: 'read_file', call_id: `call_${i}`, arguments: JSON.stringify({ path: `/f${i}` }) });
  }
  for (let i = 0; i < pairs; i++) input.push({ type: 'function_call_output', call_id: `call_${i}`, output: 'L1: x\nL2: y' });
  return JSON.stringify({ model: 'm', input });
}

function messagesBody(count, extra = {}) {
  return JSON.stringify({ model: 'm', max_tokens: 5, ...extra, messages: Array.from({ length: count }, () => ({ role: 'user', content: 'x' })) });
}

describe('serve-mock limits', () => {
  let server;
  let base;
  before(async () => {
    const guest = await WasiGuest.load();
    // A small in-flight budget so the test needs little memory: 8 MiB.
    server = await startMockServer({ guest, port: 0, clock: { kind: 'step', stepMs: 1000 }, maxInFlightBytes: 8 << 20 });
    base = server.url;
  });
  after(() => server.close());

  test('Regression 24 000 call/output pairs are answered, each output summarised with its own call', async () => {
    const res = await fetch(`${base}/responses`, { method: 'POST', body: pairsBody(24000) });
    assert.equal(res.status, 200);
    const text = (await res.json()).output.find((i) => i.type === 'message').content[0].text;
    const lines = text.split('\n');
    assert.equal(lines.length, 24000);
    assert.equal(lines[0], 'Read /f0: 2 lines.');
    assert.equal(lines[23999], 'Read /f23999: 2 lines.');
  }, { timeout: 120000 });

  test('Regression a request over the item limit gets 413 in the provider\'s error shape', async () => {
    const over = MAX_MOCK_INPUT_ITEMS + 1;
    // Refused as the bytes arrive, once the count passes the limit (the rest is not read).
    const message = `request body has more than ${MAX_MOCK_INPUT_ITEMS} input items and content parts; the mock model answers at most ${MAX_MOCK_INPUT_ITEMS} per request`;
    for (const path of ['/responses', '/chat/completions']) {
      const body = path === '/responses'
        ? JSON.stringify({ model: 'm', input: Array.from({ length: over }, () => ({ role: 'user', content: 'x' })) })
        : messagesBody(over);
      const res = await fetch(`${base}${path}`, { method: 'POST', body });
      assert.equal(res.status, 413, path);
      assert.deepEqual(await res.json(), { error: { message, type: 'invalid_request_error', param: null, code: 'too_many_items' } });
    }
    const res = await fetch(`${base}/messages`, { method: 'POST', body: messagesBody(over) });
    assert.equal(res.status, 413);
    assert.deepEqual(await res.json(), { type: 'error', error: { type: 'request_too_large', message } });
    // Content parts count too.
    const parts = Array.from({ length: MAX_MOCK_INPUT_ITEMS }, () => ({ type: 'input_text', text: 'x' }));
    const partsRes = await fetch(`${base}/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', input: [{ role: 'user', content: parts }] }) });
    assert.equal(partsRes.status, 413);
    // The server answers the next request as usual.
    const ok = await fetch(`${base}/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', input: 'hi' }) });
    assert.equal(ok.status, 200);
  });

  test('Regression request bodies in flight past the budget get 503; others are still answered', async () => {
    const url = new URL(`${base}/responses`);
    // A client that sends 6 MiB of its body and then stalls (the body stays in flight).
    const slow = httpRequest({ host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-length': String(16 << 20) } });
    slow.on('error', () => {});
    const slowAnswer = new Promise((resolve) => slow.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (d) => { text += d; }).on('end', () => resolve({ status: res.statusCode, text }));
    }));
    const held = '{"model":"m","input":"' + 'x'.repeat(6 << 20);
    await new Promise((resolve) => slow.write(held, resolve));
    await new Promise((resolve) => setTimeout(resolve, 200));
    // A second 3 MiB body would pass the 8 MiB budget: 503, with the reason and Retry-After.
    const big = JSON.stringify({ model: 'm', input: 'y'.repeat(3 << 20) });
    const refused = await fetch(`${base}/responses`, { method: 'POST', body: big });
    assert.equal(refused.status, 503);
    assert.equal(refused.headers.get('retry-after'), '1');
    const error = (await refused.json()).error;
    assert.equal(error.code, 'server_busy');
    assert.equal(error.type, 'server_error');
    assert.match(error.message, /budget of 8388608 bytes; retry later/);
    // A small request is still answered while the slow one is in flight.
    const small = await fetch(`${base}/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', input: 'hi' }) });
    assert.equal(small.status, 200);
    // The slow client's body passes the budget as it keeps sending: it gets the 503 itself,
    // and the bytes it held are released.
    slow.write('x'.repeat(3 << 20));
    const answer = await slowAnswer;
    assert.equal(answer.status, 503);
    slow.destroy();
    const afterwards = await fetch(`${base}/responses`, { method: 'POST', body: big });
    assert.equal(afterwards.status, 200);
  });
});

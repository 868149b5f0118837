// SPDX-License-Identifier: MIT
// The package's HTTP model clients keep the first 64 KiB of an error body in the `model_error`
// delivery. They used to cut first and redact after, so a key straddling the cut was no longer
// whole when redaction looked for it and 46 of its 48 characters stayed in the delivery. Now the
// body is read past the cut by the longest spelling of the key, redacted, then cut: against a
// server on 127.0.0.1 that echoes the key across the cut, plainly and as JSON `\u` escapes, the
// delivery holds `***` (cut too) and no part of the key.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

import { openAIResponsesClient } from 'agentctx';

const CUT = 64 * 1024;
const KEY = 'sk-proj-Zq8Wm3Rt6Yv1Bn4Hc7Jd2Kf5Lg9Ps0Ua3Xe6Io8Q'; // 48 characters
const unicodeEscaped = (s) => [...s].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');

// The path says where the key starts and how it is spelled: /plain/<offset>/… or /escaped/<offset>/…
const server = createServer(async (req, res) => {
  for await (const chunk of req) void chunk;
  const [, spelling, offset] = req.url.split('/');
  const key = req.headers.authorization.replace(/^Bearer /, '');
  const echoed = spelling === 'escaped' ? unicodeEscaped(key) : key;
  res.writeHead(401, { 'content-type': 'text/plain' });
  res.end('x'.repeat(Number(offset)) + echoed + 'y'.repeat(1000));
});
let origin;
before(async () => {
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${server.address().port}`;
});
after(() => server.close());

async function errorBody(spelling, offset) {
  const client = openAIResponsesClient({ apiKey: KEY, baseUrl: `${origin}/${spelling}/${offset}/v1` });
  const deliveries = [];
  for await (const d of client.send({ type: 'model_request', id: 'r1', endpoint: 'responses', body: new Uint8Array(0) })) deliveries.push(d);
  assert.equal(deliveries.length, 1);
  assert.equal(deliveries[0].type, 'model_error');
  assert.equal(deliveries[0].status, 401);
  return deliveries[0].body;
}

function assertNoPartOfKey(body) {
  for (let i = 0; i + 4 <= KEY.length; i += 1) {
    assert.ok(!body.includes(KEY.slice(i, i + 4)), `\`${KEY.slice(i, i + 4)}\` of the key is in the delivery`);
  }
  assert.ok(!body.includes(unicodeEscaped(KEY.slice(0, 2))), 'no escaped part of the key');
}

test('Regression a key straddling the 64 KiB cut of an error body is redacted before the cut', async () => {
  // 2 characters before the cut, 46 after: what used to be kept.
  const body = await errorBody('plain', CUT - 2);
  assert.equal(body, `${'x'.repeat(CUT - 2)}**`);
  assertNoPartOfKey(body);
});

test('Regression a JSON-escaped key straddling the cut (288 characters) is redacted before the cut', async () => {
  for (const offset of [CUT - 100, CUT - 6, CUT - 287]) {
    const body = await errorBody('escaped', offset);
    assert.equal(body, `${'x'.repeat(offset)}***${'y'.repeat(CUT - offset - 3)}`.slice(0, CUT), `offset ${offset}`);
    assertNoPartOfKey(body);
  }
});

test('a key wholly inside or wholly past the cut: redacted or absent, and the body is at most 64 KiB', async () => {
  assert.equal(await errorBody('plain', 10), `${'x'.repeat(10)}***${'y'.repeat(1000)}`);
  const past = await errorBody('plain', CUT);
  assert.equal(past, 'x'.repeat(CUT));
});

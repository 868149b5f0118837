// SPDX-License-Identifier: MIT
// The package's HTTP model clients keep the API key in the request headers, against local
// servers on 127.0.0.1 (the real global fetch): a key with trailing whitespace or CR is trimmed
// where it enters, so the key a 401 echoes is the key redaction looks for; a key echoed with
// JSON escapes is redacted before the engine decodes the body; a redirect (302, 303, 307, 308)
// to another origin is refused, never followed, as one non-retryable error naming the origin.
import { test, after, before, describe } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

import {
  AgentctxError, anthropicMessagesClient, chatCompletionsClient, createEngine, createMemoryFileSystem, openAIResponsesClient,
  redactSecret, runTurn,
} from 'agentctx';

const CLIENTS = {
  responses: { make: openAIResponsesClient, header: 'authorization' },
  chat: { make: chatCompletionsClient, header: 'authorization' },
  anthropic: { make: anthropicMessagesClient, header: 'x-api-key' },
};

/** `key` as a JSON string may spell it: `\u002d`/`\u002D` for '-', `\/` for '/', `\u004b` for 'K'. */
function escapedKey(key) {
  let dashes = 0;
  return [...key].map((c) => {
    if (c === '-') return (dashes++ % 2 === 0) ? '\\u002d' : '\\u002D';
    if (c === '/') return '\\/';
    if (c === 'K') return '\\u004b';
    return c;
  }).join('');
}

// First path segment: `echo` (401 quoting the key header as is), `escaped` (401 quoting the key
// with JSON escapes), `r<NNN>` (a redirect with status NNN to the target server).
const seen = [];
const server = createServer(async (req, res) => {
  for await (const chunk of req) void chunk;
  seen.push({ url: req.url, headers: req.headers });
  const header = req.headers['x-api-key'] ?? req.headers.authorization ?? '';
  const mode = req.url.split('/')[1];
  if (mode === 'echo' || mode === 'escaped') {
    const quoted = mode === 'echo' ? JSON.stringify(header).slice(1, -1) : escapedKey(header.replace(/^Bearer /, ''));
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(`{"error":{"code":"invalid_api_key","message":"Incorrect API key provided: ${quoted}"}}`);
    return;
  }
  res.writeHead(Number(mode.slice(1)), { location: `${targetOrigin}/v1/${req.url.split('/').slice(3).join('/')}` });
  res.end();
});
const targetHits = [];
const target = createServer(async (req, res) => {
  for await (const chunk of req) void chunk;
  targetHits.push({ url: req.url, headers: req.headers });
  res.writeHead(500);
  res.end('never');
});
let origin;
let targetOrigin;
before(async () => {
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  await new Promise((r) => target.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${server.address().port}`;
  targetOrigin = `http://127.0.0.1:${target.address().port}`;
});
after(() => {
  for (const s of [server, target]) {
    s.closeAllConnections();
    s.close();
  }
});

/** Fails with the text around `secret` when `text` holds it. */
function assertNoKey(text, secret) {
  const at = text.indexOf(secret);
  assert.ok(at < 0, `the API key leaked: …${text.slice(Math.max(0, at - 80), at + secret.length + 20)}…`);
}

/** One turn of a `provider` session against `mode`; everything the package hands on, as text. */
async function turn(provider, mode, options) {
  seen.length = 0;
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'a\n' }) });
  session.call('session.start', {
    config: { session_id: 's-keys', model: { slug: 'mock-1' }, provider, environments: [{ id: 'local', cwd: '/repo', fs: 'workspace' }] },
    now_ms: 0,
  });
  const shown = [];
  let sleeps = 0;
  const result = await runTurn(session, {
    input: 'hello',
    model: CLIENTS[provider].make({ baseUrl: `${origin}/${mode}/v1`, ...options }),
    now: () => 1000,
    onEffect: (e) => shown.push(JSON.stringify(e)),
    onPersist: (lines) => { shown.push(...lines); },
    retry: { sleep: async () => { sleeps += 1; }, baseDelayMs: 1 },
  });
  shown.push(JSON.stringify(result));
  engine.dispose();
  return { result, text: shown.join('\n'), requests: [...seen], sleeps };
}

describe('Regression: a key with trailing whitespace or CR is trimmed and redacted as sent', () => {
  for (const provider of Object.keys(CLIENTS)) {
    test(`${provider}: a 401 echoing the header shows no key`, async () => {
      const KEY = `sk-crlf-${provider}-SECRET-90ab`;
      const { result, text, requests } = await turn(provider, 'echo', { apiKey: ` ${KEY}\r\n` });
      assertNoKey(text, KEY);
      assert.equal(result.reason, 'failed');
      assert.equal(result.error.code, 'unauthorized');
      assert.equal(requests.length, 1);
      // The header carried the trimmed key: the one the server echoed back.
      assert.equal(requests[0].headers[CLIENTS[provider].header], provider === 'anthropic' ? KEY : `Bearer ${KEY}`);
      assert.match(result.error.message, /Incorrect API key provided: (Bearer )?\*\*\*$/);
    });
  }

  test('a key that is empty after trimming, or holds a control character, is refused without being quoted', () => {
    for (const make of [openAIResponsesClient, anthropicMessagesClient]) {
      assert.throws(() => make({ apiKey: ' \r\n' }), (e) => e instanceof AgentctxError && e.code === 'invalid_input' && /empty or only whitespace/.test(e.message));
      assert.throws(() => make({ apiKey: 'sk-top-HALF\nsk-bottom-HALF' }),
        (e) => e instanceof AgentctxError && e.code === 'invalid_input' && /control or non-ASCII character at index 11/.test(e.message) && !e.message.includes('HALF'));
    }
  });
});

describe('Regression: a key echoed with JSON \\u escapes is redacted after decoding', () => {
  for (const provider of Object.keys(CLIENTS)) {
    test(`${provider}: the decoded error message holds no key`, async () => {
      const KEY = `sk-esc/Key-${provider}-31Zz`;
      const { result, text } = await turn(provider, 'escaped', { apiKey: KEY });
      assert.equal(result.reason, 'failed');
      assert.equal(result.error.code, 'unauthorized');
      assert.equal(result.error.message, 'unexpected status 401: Incorrect API key provided: ***');
      assertNoKey(text, KEY);
      assertNoKey(text, escapedKey(KEY));
    });
  }

  test('redactSecret covers every JSON spelling of the key, and trims it', () => {
    const key = 'sk-a/b"c\\d';
    const escaped = [
      'sk\\u002da\\/b\\"c\\\\d',
      '\\u0073\\u006B\\u002D\\u0061\\u002f\\u0062\\u0022\\u0063\\u005c\\u0064',
      JSON.stringify(key).slice(1, -1),
    ];
    for (const s of escaped) assert.equal(JSON.parse(`"${s}"`), key, `${s} is a JSON spelling of the key`);
    for (const s of [key, ...escaped]) assert.equal(redactSecret(`before ${s} after`, `${key}\r\n`), 'before *** after', s);
    assert.equal(redactSecret('sk-a/b"c\\e', key), 'sk-a/b"c\\e');
    assert.equal(redactSecret('nothing here', '  '), 'nothing here');
  });
});

describe('Regression: a redirect to another origin is refused, never followed', () => {
  for (const status of [302, 303, 307, 308]) {
    for (const provider of ['anthropic', 'responses']) {
      test(`${provider}: ${status} is one non-retryable error naming the origin`, async () => {
        targetHits.length = 0;
        const KEY = `sk-redirect-${provider}-${status}`;
        const { result, text, requests, sleeps } = await turn(provider, `r${status}`, { apiKey: KEY, headers: { 'X-Embedder-Secret': 'extra-secret' } });
        assert.equal(result.reason, 'failed');
        assert.equal(requests.length, 1, 'exactly one request reaches the first server');
        assert.equal(sleeps, 0, 'a redirect is not retried');
        assert.deepEqual(targetHits, [], 'the redirect target was called');
        assert.deepEqual([result.error.code, result.error.retryable], ['http_error', false]);
        assert.equal(result.error.message, `unexpected status ${status}: the model endpoint redirected (${status}) to ${targetOrigin} — ` +
          'redirects are not followed; set the base URL to the final address');
        assert.doesNotMatch(text, /detached ArrayBuffer/);
        assertNoKey(text, KEY);
      });
    }
  }

  test('a fetch that hands back a browser opaqueredirect is refused the same way', async () => {
    const engine = await createEngine();
    const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'a\n' }) });
    session.call('session.start', { config: { session_id: 's-opaque', model: { slug: 'mock-1' }, environments: [{ id: 'local', cwd: '/repo', fs: 'workspace' }] }, now_ms: 0 });
    const inits = [];
    const fetch = async (_url, init) => {
      inits.push(init);
      // What a browser returns for `redirect: 'manual'`: type opaqueredirect, status 0, no headers.
      return { type: 'opaqueredirect', status: 0, ok: false, statusText: '', headers: new Headers(), body: null };
    };
    const result = await runTurn(session, {
      input: 'hello', now: () => 1000, model: openAIResponsesClient({ apiKey: 'k', baseUrl: 'https://example.invalid/v1', fetch }),
      retry: { sleep: async () => assert.fail('not retried') },
    });
    assert.equal(inits.length, 1);
    assert.equal(inits[0].redirect, 'manual');
    assert.deepEqual([result.error.code, result.error.retryable], ['http_error', false]);
    assert.match(result.error.message, /^unexpected status 0: the model endpoint redirected to an address the browser does not reveal — redirects are not followed/);
    engine.dispose();
  });
});

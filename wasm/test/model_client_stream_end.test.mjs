// SPDX-License-Identifier: MIT
// A turn completes on its stream's last event, often before the server has closed the response:
// the package's HTTP model clients then read the rest of that stream and let it end, instead of
// aborting a response that is already whole (a browser lists such an abort as a failed request,
// a server logs a dropped connection). A server that keeps the stream open after the last event
// is still cut off: the client reads on for a bounded time only. Local servers on 127.0.0.1 and
// the real global fetch.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';

import { createEngine, createMemoryFileSystem, openAIResponsesClient, runTurn } from 'agentctx';

const SSE = [
  { type: 'response.created', response: { id: 'resp_1' } },
  { type: 'response.output_item.done', output_index: 0, item: { type: 'message', id: 'msg_1', role: 'assistant', content: [{ type: 'output_text', text: 'Done.' }] } },
  { type: 'response.completed', response: { id: 'resp_1', usage: { input_tokens: 10, output_tokens: 2, total_tokens: 12 } } },
].map((e) => `event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`).join('');

// Path `/linger/<ms>`: the whole stream at once, then the response ends after <ms> ms (or never,
// for `never`). Each response's fate is recorded: `ended` (the server finished it) or `aborted`
// (the client closed the connection first).
const fates = [];
const server = createServer(async (req, res) => {
  for await (const chunk of req) void chunk;
  const linger = req.url.split('/')[2];
  const fate = { url: req.url, state: 'open' };
  fates.push(fate);
  res.on('close', () => {
    if (fate.state === 'open') fate.state = res.writableFinished ? 'ended' : 'aborted';
  });
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  res.write(SSE);
  if (linger !== 'never') setTimeout(() => res.end(), Number(linger));
});
let origin;
before(async () => {
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${server.address().port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

async function turn(linger) {
  const engine = await createEngine();
  const session = engine.openSession({ workspace: createMemoryFileSystem({ '/repo/a.txt': 'a\n' }) });
  session.call('session.start', {
    config: { session_id: 's-end', model: { slug: 'mock-1' }, environments: [{ id: 'local', cwd: '/repo', fs: 'workspace' }] },
    now_ms: 0,
  });
  const result = await runTurn(session, {
    input: 'hello', now: () => 1000,
    model: openAIResponsesClient({ apiKey: 'k', baseUrl: `${origin}/linger/${linger}/v1` }),
  });
  engine.dispose();
  return result;
}

async function settled(fate, withinMs) {
  for (let waited = 0; fate.state === 'open' && waited < withinMs; waited += 20) {
    await new Promise((r) => setTimeout(r, 20));
  }
  return fate.state;
}

test('a response that ends after the turn completed is read to its end, not aborted', async () => {
  const result = await turn(300);
  assert.equal(result.reason, 'completed');
  const fate = fates.at(-1);
  assert.equal(fate.state, 'open', 'the turn completed on the last event, before the server ended the response');
  assert.equal(await settled(fate, 3000), 'ended');
});

test('a response kept open after its last event is cut off after a bounded time', { timeout: 20000 }, async () => {
  const result = await turn('never');
  assert.equal(result.reason, 'completed');
  assert.equal(await settled(fates.at(-1), 10000), 'aborted');
});

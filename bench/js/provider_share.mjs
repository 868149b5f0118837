#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Cached share per provider: the 200-request session of scenario.mjs run by agentctx
// once per provider (`responses`, `chat`, `anthropic`), every body answered for its cache figures
// by the engine's mock model at that provider's endpoint (`mock.respond`; a fresh engine per
// provider, each body at its simulated time):
//  - responses: the OpenAI-rule simulator (exact prefix, 1024 + 128·k tokens) over the
//    Responses prompt;
//  - chat: the same exact-prefix rule over the Chat prompt (tools ‖ messages);
//  - anthropic: the breakpoint simulator (cache_control marks, 20-block lookback, model minimum);
//    its input cost counts cache writes at 1.25× and reads at 0.1× the input price.
// The canned Responses answers of the script are re-encoded as each provider's stream, so every
// provider's session records the same history. Deterministic: no timing.
// Prints one JSON object: {requests, providers: {responses|chat|anthropic: {...}}}.
import { loadPackage } from './workload.mjs';
import { requestCount, runAgentctx, scaledScenario } from './scenario.mjs';

const decoder = new TextDecoder();
const ENDPOINT = { responses: 'responses', chat: 'chat/completions', anthropic: 'messages' };

/** The output items of a canned Responses stream. */
function itemsOf(sse) {
  return sse.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)))
    .filter((e) => e.type === 'response.output_item.done').map((e) => e.item);
}

const text = (item) => item.content.map((p) => p.text).join('');

/** A canned Responses answer as a Chat Completions stream. */
export function chatSse(sse) {
  const data = (o) => `data: ${JSON.stringify(o)}\n\n`;
  const chunk = (delta, finish = null) => ({ object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: finish }] });
  let out = '';
  let calls = 0;
  for (const item of itemsOf(sse)) {
    if (item.type === 'message') out += data(chunk({ content: text(item) }));
    if (item.type === 'function_call') {
      out += data(chunk({ tool_calls: [{ index: calls++, id: item.call_id, type: 'function', function: { name: item.name, arguments: item.arguments } }] }));
    }
  }
  out += data(chunk({}, calls > 0 ? 'tool_calls' : 'stop'));
  out += data({ object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 1000, completion_tokens: 20, total_tokens: 1020 } });
  return out + 'data: [DONE]\n\n';
}

/** A canned Responses answer as an Anthropic Messages stream. */
export function anthropicSse(sse) {
  const event = (o) => `event: ${o.type}\ndata: ${JSON.stringify(o)}\n\n`;
  let out = event({ type: 'message_start', message: { id: 'msg_bench', usage: { input_tokens: 1000, output_tokens: 1 } } });
  let index = 0;
  let tool = false;
  for (const item of itemsOf(sse)) {
    if (item.type === 'message') {
      out += event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      out += event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: text(item) } });
    } else if (item.type === 'function_call') {
      tool = true;
      out += event({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: item.call_id, name: item.name, input: {} } });
      out += event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: item.arguments } });
    } else {
      continue;
    }
    out += event({ type: 'content_block_stop', index: index++ });
  }
  out += event({ type: 'message_delta', delta: { stop_reason: tool ? 'tool_use' : 'end_turn' }, usage: { output_tokens: 20 } });
  return out + event({ type: 'message_stop' });
}

/** {input, cached, written} of the mock's answer at one provider's endpoint. */
export function usageOf(provider, answer) {
  const data = answer.split('\n').filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]').map((l) => JSON.parse(l.slice(6)));
  if (provider === 'responses') {
    const u = data.find((e) => e.type === 'response.completed').response.usage;
    return { input: u.input_tokens, cached: u.input_tokens_details?.cached_tokens ?? 0, written: 0 };
  }
  if (provider === 'chat') {
    const u = data.find((e) => e.usage).usage;
    return { input: u.prompt_tokens, cached: u.prompt_tokens_details?.cached_tokens ?? 0, written: 0 };
  }
  const u = data.find((e) => e.type === 'message_start').message.usage;
  const read = u.cache_read_input_tokens ?? 0;
  const written = u.cache_creation_input_tokens ?? 0;
  return { input: u.input_tokens + read + written, cached: read, written };
}

/** One provider's session: totals of the mock's cache figures. */
async function measure(provider, script) {
  const pkg = await loadPackage();
  const mock = await pkg.createEngine();
  const totals = { requests: 0, input_tokens: 0, cached_tokens: 0, cache_write_tokens: 0, body_bytes: 0, breaks: 0, breakpoints: 0 };
  const adaptSse = provider === 'chat' ? chatSse : provider === 'anthropic' ? anthropicSse : undefined;
  await runAgentctx(({ body, now, cacheReport }) => {
    const answer = mock.call('mock.respond', { endpoint: ENDPOINT[provider], body, now_ms: now }).body;
    const u = usageOf(provider, typeof answer === 'string' ? answer : decoder.decode(answer));
    totals.requests += 1;
    totals.input_tokens += u.input;
    totals.cached_tokens += u.cached;
    totals.cache_write_tokens += u.written;
    totals.body_bytes += body.length;
    if (cacheReport?.break) totals.breaks += 1;
    totals.breakpoints += (cacheReport?.breakpoints ?? []).filter((b) => b.placed).length;
  }, script, { config: { provider }, ...(adaptSse ? { adaptSse } : {}) });
  mock.dispose();
  totals.cached_share = totals.cached_tokens / totals.input_tokens;
  // Input cost relative to sending every token uncached (Anthropic: writes 1.25×, reads 0.1×;
  // OpenAI-style providers: reads at 0.1× too, no write premium).
  const uncached = totals.input_tokens - totals.cached_tokens - totals.cache_write_tokens;
  totals.relative_input_cost = (uncached + 1.25 * totals.cache_write_tokens + 0.1 * totals.cached_tokens) / totals.input_tokens;
  return totals;
}

/** The cached share per provider over the script at `scale` (1 = the 200-request session). */
export async function providerShares(scale = 1) {
  const script = scaledScenario(scale);
  const providers = {};
  for (const provider of ['responses', 'chat', 'anthropic']) providers[provider] = await measure(provider, script);
  return { requests: requestCount(script), providers };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const scale = Number(process.argv.find((a) => a.startsWith('--scale='))?.slice(8) ?? 1);
  process.stdout.write(JSON.stringify(await providerShares(scale)) + '\n');
}

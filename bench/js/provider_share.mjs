#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// Cached share per provider: the 200-request session of scenario.mjs run by agentctx
// once per provider rule set (`responses`, `responses 5.6`, `chat`, `anthropic`), every body
// answered for its cache figures by the engine's mock model at that provider's endpoint
// (`mock.respond`; a fresh engine per row, each body at its simulated time):
//  - responses: the OpenAI-rule simulator (exact prefix, 1024 + 128·k tokens) over the
//    Responses prompt;
//  - responses 5.6: model gpt-5.6 with provider_features cache_breakpoints and cache_diagnostics:
//    the breakpoint cache (exact reads at breakpoints, writes reported and billed 1.25×); the
//    mock's prompt_cache_diagnostics (each body's comparison_response_id pointed at the mock's
//    previous answer) against the engine's cache_report break reason, and the engine's predicted
//    reads / writes against the mock's;
//  - chat: the same exact-prefix rule over the Chat prompt (tools ‖ messages);
//  - anthropic: the breakpoint simulator (cache_control marks, 20-block lookback, model minimum);
//    its input cost counts cache writes at 1.25× and reads at 0.1× the input price.
// The canned Responses answers of the script are re-encoded as each provider's stream, so every
// provider's session records the same history. Deterministic: no timing.
// Prints one JSON object: {requests, providers: {responses|responses 5.6|chat|anthropic: {...}}}.
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
  let compacted = false;
  for (const item of itemsOf(sse)) {
    if (item.type === 'message') {
      out += event({ type: 'content_block_start', index, content_block: { type: 'text', text: '' } });
      out += event({ type: 'content_block_delta', index, delta: { type: 'text_delta', text: text(item) } });
    } else if (item.type === 'function_call') {
      tool = true;
      out += event({ type: 'content_block_start', index, content_block: { type: 'tool_use', id: item.call_id, name: item.name, input: {} } });
      out += event({ type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: item.arguments } });
    } else if (item.type === 'compaction') {  // server compaction's block, whole at its start
      compacted = true;
      out += event({ type: 'content_block_start', index, content_block: { type: 'compaction', content: item.content, encrypted_content: item.encrypted_content } });
    } else {
      continue;
    }
    out += event({ type: 'content_block_stop', index: index++ });
  }
  const stop = tool ? 'tool_use' : compacted && index === 1 ? 'compaction' : 'end_turn';
  out += event({ type: 'message_delta', delta: { stop_reason: stop }, usage: { output_tokens: 20 } });
  return out + event({ type: 'message_stop' });
}

/** {input, cached, written} of the mock's answer at one provider's endpoint. */
export function usageOf(provider, answer) {
  const data = answer.split('\n').filter((l) => l.startsWith('data: ') && l !== 'data: [DONE]').map((l) => JSON.parse(l.slice(6)));
  if (provider === 'responses') {
    const response = data.find((e) => e.type === 'response.completed').response;
    const d = response.usage.input_tokens_details;
    return { input: response.usage.input_tokens, cached: d?.cached_tokens ?? 0, written: d?.cache_write_tokens ?? 0,
      id: response.id, diagnostics: response.prompt_cache_diagnostics };
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

// The engine's break reasons and their counterparts in OpenAI's diagnostics vocabulary
// (provider/cache/cache_diagnosis.h); a setting's reason has the same name in both.
const OPENAI_REASONS = {
  model_changed: ['model_changed'], cache_key_changed: ['prompt_cache_key_changed'],
  instructions_changed: ['input_changed'], tools_changed: ['tools_changed'], item_edited: ['input_changed'],
  history_rewritten_by_compaction: ['context_compacted', 'input_changed', 'tools_changed'],
};
const agrees = (engine, provider) => (engine ? (OPENAI_REASONS[engine] ?? [engine]).includes(provider) : provider === 'cache_hit');

// Each row: the provider, and the config the session runs with.
const ROWS = {
  responses: { provider: 'responses' },
  chat: { provider: 'chat' },
  anthropic: { provider: 'anthropic' },
  'responses 5.6': {
    provider: 'responses',
    config: { model: { slug: 'gpt-5.6', instructions: scaledScenario(1).config.model.instructions },
      provider_features: { cache_breakpoints: true, cache_diagnostics: true } },
  },
};

/** One row's session: totals of the mock's cache figures. */
async function measure(row, script) {
  const { provider, config = {} } = ROWS[row];
  const pkg = await loadPackage();
  const mock = await pkg.createEngine();
  const totals = { requests: 0, input_tokens: 0, cached_tokens: 0, cache_write_tokens: 0, body_bytes: 0, breaks: 0, breakpoints: 0 };
  const diagnosed = config.provider_features?.cache_diagnostics === true;
  if (diagnosed) Object.assign(totals, { missed: 0, missed_agreeing: 0, predicted_matching: 0 });
  const adaptSse = provider === 'chat' ? chatSse : provider === 'anthropic' ? anthropicSse : undefined;
  let previousId;
  await runAgentctx(({ body, now, cacheReport }) => {
    let sent = typeof body === 'string' ? body : decoder.decode(body);
    // The session names its own previous response; the mock knows its own answers' ids.
    if (previousId) sent = sent.replace(/"comparison_response_id":"[^"]*"/, `"comparison_response_id":"${previousId}"`);
    const answer = mock.call('mock.respond', { endpoint: ENDPOINT[provider], body: sent, now_ms: now }).body;
    const u = usageOf(provider, typeof answer === 'string' ? answer : decoder.decode(answer));
    previousId = u.id;
    totals.requests += 1;
    totals.input_tokens += u.input;
    totals.cached_tokens += u.cached;
    totals.cache_write_tokens += u.written;
    totals.body_bytes += body.length;
    if (cacheReport?.break) totals.breaks += 1;
    totals.breakpoints += (cacheReport?.breakpoints ?? []).filter((b) => b.placed).length;
    if (!diagnosed) return;
    if (cacheReport?.predicted_cached_tokens === u.cached && (cacheReport?.predicted_cache_write_tokens ?? 0) === u.written) {
      totals.predicted_matching += 1;
    }
    const reason = u.diagnostics?.type === 'cache_miss' ? u.diagnostics.reason : null;
    if (!reason && !cacheReport?.break) return;
    totals.missed += 1;
    if (agrees(cacheReport?.break?.reason, reason ?? u.diagnostics?.type)) totals.missed_agreeing += 1;
  }, script, { config: { provider, ...config }, ...(adaptSse ? { adaptSse } : {}) });
  mock.dispose();
  totals.cached_share = totals.cached_tokens / totals.input_tokens;
  // Input cost relative to sending every token uncached: reads at 0.1×, writes at 1.25× where
  // the provider bills them (Anthropic, OpenAI GPT-5.6+; older OpenAI models report none).
  const uncached = totals.input_tokens - totals.cached_tokens - totals.cache_write_tokens;
  totals.relative_input_cost = (uncached + 1.25 * totals.cache_write_tokens + 0.1 * totals.cached_tokens) / totals.input_tokens;
  return totals;
}

/** The cached share per provider rule set over the script at `scale` (1 = the 200-request session). */
export async function providerShares(scale = 1) {
  const script = scaledScenario(scale);
  const providers = {};
  for (const row of ['responses', 'responses 5.6', 'chat', 'anthropic']) providers[row] = await measure(row, script);
  return { requests: requestCount(script), providers };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const scale = Number(process.argv.find((a) => a.startsWith('--scale='))?.slice(8) ?? 1);
  process.stdout.write(JSON.stringify(await providerShares(scale)) + '\n');
}

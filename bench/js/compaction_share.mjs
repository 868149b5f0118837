#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The compaction request's cached share per compaction strategy: the 200-request session of
// scenario.mjs run by agentctx once per strategy (Responses and Anthropic), every body answered
// for its cache figures by the engine's mock model (`mock.respond`, a fresh engine per run, each
// body at its simulated time). The compaction request itself is answered by the mock too (a
// summary for `local`, the kept items for `remote`, a `compaction` item for `inband`), so the
// session goes on as it would against the provider.
// `server`: the script without its manual compaction; every turn request carries the
// provider's threshold (SERVER_LIMIT tokens: Responses `context_management`, Anthropic
// `compact_20260112` with `pause_after_compaction`), and the compaction request is the turn
// request whose prompt crossed it — the mock compacts it, and its `compaction` item goes into
// the canned answer the engine gets (alone on Anthropic, where the engine then asks again).
// Prints one JSON object: {requests, strategies: [{strategy, provider, compaction: {input_tokens,
// cached_tokens, cached_share, request?}, session_cached_share, requests?}]} (`request`: the
// compaction request's number; `requests`: the run's count where it differs from the script's).
// Deterministic: no timing.
import { CONFIG, loadPackage } from './workload.mjs';
import { requestCount, runAgentctx, scaledScenario } from './scenario.mjs';
import { anthropicSse, usageOf } from './provider_share.mjs';

const decoder = new TextDecoder();
const ENDPOINT = { responses: 'responses', anthropic: 'messages' };
const RUNS = [
  { strategy: 'local', provider: 'responses' },
  { strategy: 'remote', provider: 'responses' },
  { strategy: 'inband', provider: 'responses' },
  { strategy: 'server', provider: 'responses' },
  { strategy: 'local', provider: 'anthropic' },
  { strategy: 'inband', provider: 'anthropic' },
  { strategy: 'server', provider: 'anthropic' },
];

/**
 * The server strategy's threshold (tokens): crossed once, by the script's 7th turn, about where
 * its manual compaction stands; the session never reaches it again after compacting.
 */
export const SERVER_LIMIT = 36000;

const text = (answer) => (typeof answer === 'string' ? answer : decoder.decode(answer));

/** The `compaction` item of the mock's answer (as the engine's stream adapter keeps it), if any. */
function compactionItemOf(provider, answer) {
  const events = answer.split('\n').filter((l) => l.startsWith('data: ')).map((l) => JSON.parse(l.slice(6)));
  if (provider === 'responses') {
    return events.find((e) => e.type === 'response.output_item.done' && e.item.type === 'compaction')?.item;
  }
  const delta = events.find((e) => e.type === 'content_block_delta' && e.delta.type === 'compaction_delta')?.delta;
  return delta && { type: 'compaction', content: delta.content, encrypted_content: delta.encrypted_content };
}

async function measure({ strategy, provider }, baseScript) {
  const pkg = await loadPackage();
  const mock = await pkg.createEngine();
  const session = { input: 0, cached: 0 };
  const server = strategy === 'server';
  const script = server ? { ...baseScript, turns: baseScript.turns.filter((t) => !t.compact) } : baseScript;
  let compaction = null;
  let pending;  // the mock's answer to the compaction request just issued
  let serverItem;  // the compaction item of the mock's answer to the request just issued
  let requests = 0;
  const respond = (endpoint, body, now) => text(mock.call('mock.respond', { endpoint, body, now_ms: now }).body);
  await runAgentctx(({ n, purpose, body, now }) => {
    requests = n;
    if (purpose === 'compact' && strategy === 'remote') {
      const answer = respond('responses/compact', body, now);
      pending = { body: answer };
      compaction = { input_tokens: 0, cached_tokens: 0 };  // a separate endpoint: nothing read
      return;
    }
    const answer = respond(ENDPOINT[provider], body, now);
    const u = usageOf(provider, answer);
    session.input += u.input;
    session.cached += u.cached;
    if (purpose === 'compact') {
      compaction = { input_tokens: u.input, cached_tokens: u.cached };
      pending = { sse: answer };
    }
    serverItem = server ? compactionItemOf(provider, answer) : undefined;
    if (serverItem !== undefined) {
      if (compaction !== null) throw new Error(`request ${n}: a second server compaction (threshold ${SERVER_LIMIT})`);
      compaction = { input_tokens: u.input, cached_tokens: u.cached, request: n };
    }
  }, script, {
    config: {
      provider, compaction: { strategy },
      ...(server ? { model: { ...CONFIG.model, context_window: 200000, auto_compact_token_limit: SERVER_LIMIT } } : {}),
    },
    ...(provider === 'anthropic' ? { adaptSse: anthropicSse, pauseAfterCompaction: true } : {}),
    answerCompaction: () => pending,
    providerCompaction: () => serverItem,
  });
  mock.dispose();
  if (compaction) compaction.cached_share = compaction.input_tokens ? compaction.cached_tokens / compaction.input_tokens : 0;
  const counted = requests === requestCount(baseScript) ? {} : { requests };
  return { strategy, provider, compaction, session_cached_share: session.cached / session.input, ...counted };
}

/** The compaction request's cached share per strategy over the script at `scale`. */
export async function compactionShares(scale = 1) {
  const script = scaledScenario(scale);
  const strategies = [];
  for (const run of RUNS) strategies.push(await measure(run, script));
  return { requests: requestCount(script), strategies };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const scale = Number(process.argv.find((a) => a.startsWith('--scale='))?.slice(8) ?? 1);
  process.stdout.write(JSON.stringify(await compactionShares(scale)) + '\n');
}

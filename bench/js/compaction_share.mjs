#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// The compaction request's cached share per compaction strategy: the 200-request session of
// scenario.mjs run by agentctx once per strategy (Responses; `inband` on Anthropic too), every
// body answered for its cache figures by the engine's mock model (`mock.respond`, a fresh
// engine per run, each body at its simulated time). The compaction request itself is answered
// by the mock too (a summary for `local`, the kept items for `remote`, a `compaction` item for
// `inband`), so the session goes on as it would against the provider.
// Prints one JSON object: {requests, strategies: [{strategy, provider, compaction: {input_tokens,
// cached_tokens, cached_share}, session_cached_share}]}. Deterministic: no timing.
import { loadPackage } from './workload.mjs';
import { requestCount, runAgentctx, scaledScenario } from './scenario.mjs';
import { anthropicSse, usageOf } from './provider_share.mjs';

const decoder = new TextDecoder();
const ENDPOINT = { responses: 'responses', anthropic: 'messages' };
const RUNS = [
  { strategy: 'local', provider: 'responses' },
  { strategy: 'remote', provider: 'responses' },
  { strategy: 'inband', provider: 'responses' },
  { strategy: 'local', provider: 'anthropic' },
  { strategy: 'inband', provider: 'anthropic' },
];

const text = (answer) => (typeof answer === 'string' ? answer : decoder.decode(answer));

async function measure({ strategy, provider }, script) {
  const pkg = await loadPackage();
  const mock = await pkg.createEngine();
  const session = { input: 0, cached: 0 };
  let compaction = null;
  let pending;  // the mock's answer to the compaction request just issued
  const respond = (endpoint, body, now) => text(mock.call('mock.respond', { endpoint, body, now_ms: now }).body);
  await runAgentctx(({ purpose, body, now }) => {
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
  }, script, {
    config: { provider, compaction: { strategy } },
    ...(provider === 'anthropic' ? { adaptSse: anthropicSse } : {}),
    answerCompaction: () => pending,
  });
  mock.dispose();
  if (compaction) compaction.cached_share = compaction.input_tokens ? compaction.cached_tokens / compaction.input_tokens : 0;
  return { strategy, provider, compaction, session_cached_share: session.cached / session.input };
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

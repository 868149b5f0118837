#!/usr/bin/env node
// SPDX-License-Identifier: MIT
// `tool_policy: native` in the 200-request session of scenario.mjs (docs/tool-changes.md): the
// script with native from the start (the `defer` switch of the second tool addition dropped, so
// both additions go through the provider's channel) and provider feature `tool_changes` on, run
// by agentctx once on `responses` and once on `anthropic` (the canned answers re-encoded as
// that provider's stream, provider_share.mjs).
//  - P1 per request from the engine's own cache_report (the explainer's segments: unmarked
//    renderings, so Anthropic's moving cache_control mark is not a change): shared_prefix_bytes ÷
//    min(previous prompt_bytes, prompt_bytes); over the non-compaction requests (the compaction
//    request and the first one after it re-base the history by design), and at each tool
//    addition.
//  - Each addition's request must carry the native item (`additional_tools` / `tool_addition`)
//    and keep the top-level tools of the request before.
// Prints one JSON object: {requests, additions: [n…], providers: {responses|anthropic: {...}}}.
import { anthropicSse } from './provider_share.mjs';
import { eventRequests, requestCount, runAgentctx, scaledScenario } from './scenario.mjs';

const decoder = new TextDecoder();

/** SCENARIO (at `scale`) under `native`: every tool change goes through the provider's channel. */
export function nativeScenario(scale = 1) {
  const s = scaledScenario(scale);
  return {
    ...s,
    config: { ...s.config, tool_policy: 'native', provider_features: { tool_changes: true } },
    turns: s.turns.map((t) => {
      if (!t.before?.some((op) => op.update?.tool_policy)) {
        return t.label?.includes('(apply)') ? { ...t, label: 'tool added (native)' } : t;
      }
      return { ...t, before: t.before.filter((op) => !op.update?.tool_policy), label: 'tool added (native)' };
    }),
  };
}

const NATIVE_ITEM = { responses: '"type":"additional_tools"', anthropic: '"type":"tool_addition"' };

/** Top-level `tools` of a body (the array the prefix starts with). */
const toolsOf = (body) => JSON.stringify(JSON.parse(body).tools ?? []);

async function measure(provider, script, additions, excluded) {
  const rows = [];
  await runAgentctx(({ n, body, cacheReport }) => {
    const text = typeof body === 'string' ? body : decoder.decode(body);
    const r = cacheReport ?? {};
    rows.push({ n, text, prompt: r.prompt_bytes ?? 0, shared: r.shared_prefix_bytes ?? 0, reason: r.break?.reason ?? null });
  }, script, { config: { provider }, ...(provider === 'anthropic' ? { adaptSse: anthropicSse } : {}) });
  let shared = 0;
  let max = 0;
  const below = [];
  for (let i = 1; i < rows.length; ++i) {
    const row = rows[i];
    if (excluded.has(row.n)) continue;
    const m = Math.min(rows[i - 1].prompt, row.prompt);
    shared += Math.min(row.shared, m);
    max += m;
    if (row.shared < m) below.push({ n: row.n, shared: row.shared, max: m, reason: row.reason });
  }
  const at = additions.map((n) => {
    const row = rows[n - 1];
    const m = Math.min(rows[n - 2].prompt, row.prompt);
    return {
      n,
      p1: m === 0 ? 1 : Math.min(row.shared, m) / m,
      native_item: row.text.includes(NATIVE_ITEM[provider]),
      tools_frozen: toolsOf(row.text) === toolsOf(rows[n - 2].text),
    };
  });
  return { requests: rows.length, counted: rows.length - 1 - excluded.size, p1: max === 0 ? 1 : shared / max, below, additions: at };
}

/** P1 under `native` on Responses and Anthropic over the script at `scale`. */
export async function nativeShares(scale = 1) {
  const script = nativeScenario(scale);
  const events = eventRequests(script);
  const additions = events.filter((e) => e.label === 'tool added (native)').map((e) => e.n);
  const excluded = new Set(events.filter((e) => e.label.includes('compaction')).map((e) => e.n));
  const providers = {};
  for (const provider of ['responses', 'anthropic']) providers[provider] = await measure(provider, script, additions, excluded);
  return { requests: requestCount(script), additions, providers };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const scale = Number(process.argv.find((a) => a.startsWith('--scale='))?.slice(8) ?? 1);
  process.stdout.write(JSON.stringify(await nativeShares(scale)) + '\n');
}

